#version 330
out vec4 color;
uniform float fv[32];
uniform int iv[32];
void main() {
    float f = fv[int(gl_FragCoord.x) & 31];
    int y = int(gl_FragCoord.y) & 31;
    float g = f * float(y - 8) * 0.75;
    int i = iv[y];
    color = vec4(intBitsToFloat(int(f)), uintBitsToFloat(uint(g)),
                 float(i) + float(uint(i)) * 2.0, intBitsToFloat(int(g) ^ int(uint(f))));
}
