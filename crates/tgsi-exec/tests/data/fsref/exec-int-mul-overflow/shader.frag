#version 330
out vec4 color;
uniform int iv[32];
void main() {
    int a = iv[int(gl_FragCoord.x) & 31];
    int b = iv[int(gl_FragCoord.y) & 31];
    uint ua = uint(a), ub = uint(b);
    color = vec4(intBitsToFloat(a * b), intBitsToFloat(a + b - (-a)),
                 uintBitsToFloat(ua * ub + ua * 0x9e3779b9u), uintBitsToFloat(ua - ub * 7u));
}
