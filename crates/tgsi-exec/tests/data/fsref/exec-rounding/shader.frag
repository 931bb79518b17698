#version 330
out vec4 color;
uniform float fv[32];
void main() {
    float a = fv[int(gl_FragCoord.x) & 31];
    float b = fv[int(gl_FragCoord.y) & 31];
    float a2 = a * (1.0 + float(int(gl_FragCoord.y) & 3) * 0.5);
    color = vec4(floor(a2) + ceil(a2) * 3.0, fract(a2) - trunc(a2), round(a2) * 2.0 + roundEven(a2), mod(a, b));
}
