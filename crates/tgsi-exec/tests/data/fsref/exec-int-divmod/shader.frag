#version 330
out vec4 color;
uniform int iv[32];
void main() {
    int a = iv[int(gl_FragCoord.x) & 31];
    int b = iv[int(gl_FragCoord.y) & 31];
    // softpipe itself dies with SIGFPE on INT_MIN / -1 (host idiv): keep that pair out
    int bs = (a == (-2147483647 - 1) && b == -1) ? 3 : b;
    color = vec4(intBitsToFloat(a / bs), intBitsToFloat(a % bs),
                 uintBitsToFloat(uint(a) / uint(b)), uintBitsToFloat(uint(a) % uint(b)));
}
