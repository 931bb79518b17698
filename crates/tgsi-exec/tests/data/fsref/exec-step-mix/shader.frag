#version 330
out vec4 color;
uniform float fv[32];
void main() {
    float a = fv[int(gl_FragCoord.x) & 31];
    float b = fv[int(gl_FragCoord.y) & 31];
    float t = gl_FragCoord.x / 32.0;
    color = vec4(step(a, b), smoothstep(a, b, t), mix(a, b, t), smoothstep(-1.0, 2.0, a) + mix(b, a, 0.25));
}
