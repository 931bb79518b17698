#version 330
out vec4 color;
void main() {
    vec2 p = gl_FragCoord.xy;
    float a = p.x * p.y * 0.01;
    float b = sin(p.x * 0.37) * exp(p.y * 0.05);
    float c;
    if (p.x > p.y)
        c = p.x * p.x * p.x * 0.001;
    else
        c = pow(p.y, 1.5);
    color = vec4(dFdx(a) + dFdy(a) * 100.0, dFdx(b) - dFdy(b), fwidth(c), fwidth(b * a) + dFdy(c) * 0.5);
}
