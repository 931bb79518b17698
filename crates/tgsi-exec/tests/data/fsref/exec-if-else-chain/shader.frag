#version 330
out vec4 color;
void main() {
    vec2 p = gl_FragCoord.xy / 32.0;
    float t = p.x * p.x + p.y * 0.7;
    vec4 c;
    if (t < 0.2)
        c = vec4(t, 0.0, 0.0, 1.0);
    else if (t < 0.4)
        c = vec4(0.0, t * 2.0, 0.0, 1.0);
    else if (t < 0.6) {
        c = vec4(0.0, 0.0, sqrt(t), 1.0);
        if (p.x > 0.5)
            c.w = -1.0;
    } else if (t < 0.9)
        c = vec4(exp2(t), 1.0, 0.0, t);
    else if (t >= 1.2)
        c = vec4(log2(t), t, t * t, -t);
    else
        c = vec4(-t, 1.0 / t, 0.5, 0.25);
    color = c;
}
