#version 330
out vec4 color;
uniform float fv[32];
void main() {
    float a = fv[int(gl_FragCoord.x) & 31];
    float b = fv[int(gl_FragCoord.y) & 31];
    int c = (a < b ? 1 : 0) | (a <= b ? 2 : 0) | (a == b ? 4 : 0) | (a != b ? 8 : 0) |
            (a > b ? 16 : 0) | (a >= b ? 32 : 0) | (!(a < b) ? 64 : 0);
    color = vec4(min(a, b), max(a, b), clamp(a, b, 1.0), float(c));
}
