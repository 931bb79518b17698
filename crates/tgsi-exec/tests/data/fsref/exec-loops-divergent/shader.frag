#version 330
out vec4 color;
uniform int n;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int acc = 0;
    float f = 0.0;
    for (int i = 0; i < n; i++) {
        if (((p.x + i) & 3) == 0)
            continue;
        if (i * 3 > p.y + p.x)
            break;
        for (int j = 0; j < i; j++) {
            if ((j ^ p.x) > 5)
                break;
            acc += j;
            f += sin(float(j) * 0.3 + gl_FragCoord.x * 0.1);
        }
    }
    color = vec4(float(acc), f, float(acc * 7919), float(p.x * p.y % 5));
}
