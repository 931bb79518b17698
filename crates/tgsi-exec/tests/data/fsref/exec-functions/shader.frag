#version 330
out vec4 color;
float sat(float x, out bool clipped) {
    clipped = false;
    if (x > 1.0) { clipped = true; return 1.0; }
    if (x < 0.0) { clipped = true; return 0.0; }
    return x;
}
void bump(inout vec2 v, float k) {
    if (k > 0.5)
        return;
    v = v * k + vec2(1.0, -1.0);
}
int gcd(int a, int b) {
    for (int i = 0; i < 40; i++) {
        if (b == 0)
            return a;
        int t = a % b;
        a = b;
        b = t;
    }
    return -1;
}
void main() {
    vec2 v = gl_FragCoord.xy * 0.05;
    int clips = 0;
    for (int i = 0; i < 5; i++) {
        bool c;
        float s = sat(v.x - v.y + float(i) * 0.3, c);
        if (c)
            clips++;
        bump(v, s);
    }
    int g = gcd(int(gl_FragCoord.x) + 1, int(gl_FragCoord.y) * 3 + 2);
    color = vec4(v, float(clips), float(g));
}
