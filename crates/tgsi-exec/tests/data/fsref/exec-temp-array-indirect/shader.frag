#version 330
out vec4 color;
void main() {
    float a[8];
    int x = int(gl_FragCoord.x), y = int(gl_FragCoord.y);
    for (int i = 0; i < 8; i++)
        a[i] = float(((i * 5 + x) * (y + 3)) % 17) - 8.0;
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7 - i; j++)
            if (a[j] > a[j + 1]) {
                float t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
    int k = (x + y) & 7;
    a[k] += 100.0;
    color = vec4(a[0], a[7], a[(x * 3) & 7], a[k ^ 1]);
}
