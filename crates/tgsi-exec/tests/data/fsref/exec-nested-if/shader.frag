#version 330
out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float r = 0.0, g = 0.0, b = 0.0, a = 1.0;
    if (p.x > 8) {
        r = 1.0;
        if (p.y > 8) {
            g = 0.5;
            if (((p.x ^ p.y) & 1) == 0) {
                b = float(p.x - p.y);
                if (gl_FragCoord.x * 0.3 > gl_FragCoord.y * 0.5)
                    a = sin(gl_FragCoord.x);
                else
                    a = cos(gl_FragCoord.y);
            } else {
                b = -1.0;
                if (p.x + p.y > 40)
                    g = 0.75;
            }
        } else {
            g = float(p.y) * 0.125;
            if (p.x > 24)
                r = 2.0;
        }
    } else {
        if (p.y < 4)
            a = 0.0;
        else if (p.y < 20) {
            if ((p.y & 3) == 1)
                b = 3.0;
        }
        r = -float(p.x);
    }
    color = vec4(r, g, b, a);
}
