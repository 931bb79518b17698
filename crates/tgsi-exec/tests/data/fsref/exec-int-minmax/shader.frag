#version 330
out vec4 color;
uniform int iv[32];
void main() {
    int a = iv[int(gl_FragCoord.x) & 31];
    int b = iv[int(gl_FragCoord.y) & 31];
    int lo = min(b, 100), hi = max(b, -100);
    color = vec4(intBitsToFloat(min(a, b) ^ (max(a, b) << 7)),
                 uintBitsToFloat(min(uint(a), uint(b)) + max(uint(a), uint(b)) * 3u),
                 intBitsToFloat(abs(a) * 16 + sign(b) * 2 + sign(a)),
                 intBitsToFloat(clamp(a, lo, hi) ^ int(clamp(uint(a), uint(lo), uint(hi)))));
}
