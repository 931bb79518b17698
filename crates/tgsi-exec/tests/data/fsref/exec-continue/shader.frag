#version 330
out vec4 color;
uniform int n;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int acc = 0;
    float f = 0.0;
    int skipped = 0;
    for (int i = 0; i < n; i++) {
        if (((i + p.x) % 3) == 0) {
            skipped++;
            continue;
        }
        acc += i * p.y;
        if ((i & p.y) != 0)
            continue;
        f += float(i) * 0.5 + gl_FragCoord.x * 0.01;
        acc ^= i << 3;
    }
    color = vec4(float(acc), f, float(skipped), intBitsToFloat(acc));
}
