#version 330
out vec4 color;
uniform int iv[32];
void main() {
    int a = iv[int(gl_FragCoord.x) & 31];
    int b = iv[int(gl_FragCoord.y) & 31];
    uint ua = uint(a), ub = uint(b);
    bool p = a > b, q = (a & 1) == 1;
    bool r = (p ^^ q) || (!p && (b < 0));
    color = vec4(intBitsToFloat(a & ~b), intBitsToFloat((a | b) ^ (a & b)),
                 uintBitsToFloat(~(ua ^ (ub << 1u)) | 0x80000000u),
                 r ? 1.0 : (p && !q ? 2.0 : -3.0));
}
