#version 330
#extension GL_ARB_gpu_shader5 : require
out vec4 color;
uniform int iv[32];
void main() {
    int a = iv[int(gl_FragCoord.x) & 31];
    int b = iv[int(gl_FragCoord.y) & 31];
    uint hi, lo, c, bo;
    umulExtended(uint(a), uint(b), hi, lo);
    int ihi, ilo;
    imulExtended(a, b, ihi, ilo);
    uint s = uaddCarry(uint(a), uint(b), c);
    uint d = usubBorrow(uint(a), uint(b), bo);
    color = vec4(uintBitsToFloat(hi), uintBitsToFloat(lo ^ uint(ihi)),
                 uintBitsToFloat(s ^ (c << 31)), uintBitsToFloat(d + bo * 12345u));
}
