#version 330
out vec4 color;
void main() {
    vec2 p = gl_FragCoord.xy;
    float v = p.x * 0.3 + p.y * p.y * 0.02;
    float acc = 0.0;
    for (int i = 0; i < 6; i++) {
        acc += sin(v + float(i));
        if (acc < -1.5 && ((int(p.x) + i) & 1) == 0)
            discard;
        if (acc > 2.5)
            break;
    }
    float d = dFdx(acc * v);
    if (p.x + p.y > 50.0 && fract(v) < 0.3)
        discard;
    color = vec4(acc, d, dFdy(v * v), fwidth(acc));
}
