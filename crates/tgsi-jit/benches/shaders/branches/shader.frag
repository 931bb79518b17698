#version 330
// Divergent nested branches: a 4-level if/else tree per pixel and per step, whose
// path depends on the evolving per-pixel state, so neighbouring pixels disagree.
uniform vec2 WinSize;
uniform int Steps;
out vec4 color;
void main()
{
    vec2 p = gl_FragCoord.xy / WinSize;
    vec4 s = vec4(p, fract(p.x * 7.31 + p.y * 3.17), fract(p.x * p.y * 91.7));
    for (int k = 0; k < Steps; k++) {
        if (s.x > 0.5) {
            if (s.y > 0.5) {
                if (s.z > 0.5) {
                    if (s.w > 0.5)
                        s = s.yzwx * 1.37 + 0.11;
                    else
                        s = s.wxyz * s.zzxy + 0.23;
                } else {
                    if (s.w > 0.25)
                        s = abs(s - 0.61) * 1.9;
                    else
                        s = s * s.yxwz + vec4(0.3, 0.1, 0.7, 0.2);
                }
            } else {
                if (s.z > 0.3) {
                    if (s.w < 0.6)
                        s = s.zwxy * 1.71 + s.x * 0.2;
                    else
                        s = sqrt(s) * 0.9 + 0.17;
                } else {
                    s = s.yxzw * 2.3 - s.wzyx;
                }
            }
        } else {
            if (s.y < 0.3) {
                if (s.z < 0.5)
                    s = s * 1.83 + s.yzwx * 0.41;
                else if (s.w < 0.5)
                    s = max(s, s.wzyx) * 1.21 - 0.09;
                else
                    s = min(s * 3.0, s.yxzw + 0.5);
            } else {
                if (s.w > 0.7) {
                    if (s.z > 0.2)
                        s = s.xwzy * 1.11 + 0.31;
                    else
                        s = s * s * 2.1;
                } else {
                    s = s.wzyx + s * 0.77 + 0.05;
                }
            }
        }
        s = fract(s);
    }
    color = s;
}
