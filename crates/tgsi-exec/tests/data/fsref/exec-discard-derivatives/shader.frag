#version 330
out vec4 color;
void main() {
    vec2 p = gl_FragCoord.xy;
    float v = p.x * p.x * 0.01 + sin(p.y * 0.2);
    float dx = dFdx(v);
    float dy = dFdy(v);
    for (int i = 0; i < 4; i++) {
        if (fract(v * float(i + 1)) < 0.1)
            discard;
    }
    color = vec4(v, dx, dy, fwidth(v));
}
