#version 330
#extension GL_ARB_gpu_shader5 : require
out vec4 color;
uniform int iv[32];
void main() {
    int a = iv[int(gl_FragCoord.x) & 31];
    int y = int(gl_FragCoord.y) & 31;
    int off = y & 15;
    int bits = (y >> 1) + 1;
    int e = bitfieldExtract(a, off, bits);
    uint ue = bitfieldExtract(uint(a), y, 32 - y);
    int ins = bitfieldInsert(a, iv[y], off, bits);
    int rev = bitfieldReverse(a) ^ (bitCount(a) << 24);
    int fl = findLSB(a) + 64 * findMSB(a) + 4096 * findMSB(uint(a) >> uint(y));
    color = vec4(intBitsToFloat(e), uintBitsToFloat(ue), intBitsToFloat(ins ^ rev), float(fl));
}
