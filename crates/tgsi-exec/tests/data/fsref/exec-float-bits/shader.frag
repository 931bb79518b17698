#version 330
out vec4 color;
uniform float fv[32];
uniform int iv[32];
uniform float one;
void main() {
    float f = fv[int(gl_FragCoord.x) & 31];
    int y = int(gl_FragCoord.y) & 31;
    float h = fv[y];
    int bi = floatBitsToInt(f);
    uint bu = floatBitsToUint(h);
    color = vec4(intBitsToFloat(bi ^ iv[y]), uintBitsToFloat(bu + uint(y)),
                 -f * one, abs(h) + f * 0.0);
}
