#version 330
out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int v = p.x * 32 + p.y + 1;
    int steps = 0;
    int peak = v;
    while (v != 1 && steps < 150) {
        if ((v & 1) == 0)
            v = v / 2;
        else
            v = 3 * v + 1;
        peak = max(peak, v);
        steps++;
    }
    float s = 0.0;
    float x = gl_FragCoord.x;
    while (x > 1.0)
        x *= 0.7;
    color = vec4(float(steps), float(peak), x, float(v));
}
