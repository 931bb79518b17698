#version 330
out vec4 color;
uniform float fv[32];
void main() {
    float a = fv[int(gl_FragCoord.x) & 31];
    float b = fv[int(gl_FragCoord.y) & 31];
    color = vec4(sin(a) + cos(b), tan(a), atan(a, b), atan(b) - asin(clamp(a, -1.0, 1.0)));
}
