#version 330
out vec4 color;
uniform float fv[32];
void main() {
    float a = fv[int(gl_FragCoord.x) & 31];
    float b = fv[int(gl_FragCoord.y) & 31];
    color = vec4(pow(a, b), exp2(a) + exp(b * 0.001), log2(a) * b, log(a));
}
