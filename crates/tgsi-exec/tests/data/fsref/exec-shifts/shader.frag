#version 330
out vec4 color;
uniform int iv[32];
void main() {
    int a = iv[int(gl_FragCoord.x) & 31];
    int b = iv[int(gl_FragCoord.y) & 31];
    uint ua = uint(a);
    color = vec4(intBitsToFloat(a << b), intBitsToFloat(a >> b),
                 uintBitsToFloat(ua >> uint(b)), uintBitsToFloat((ua << 3u) >> uint(b & 31)));
}
