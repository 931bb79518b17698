#version 330
// Transcendental chains: sin/cos/exp/log/pow/atan/sqrt/inversesqrt in a loop.
uniform vec2 WinSize;
uniform int Steps;
out vec4 color;
void main()
{
    vec4 v = vec4(gl_FragCoord.xy / WinSize, 0.3, 0.7);
    for (int k = 0; k < Steps; k++) {
        vec4 a = sin(v * 3.1 + float(k)) * cos(v.yzwx * 1.7);
        vec4 b = exp(-abs(a) * 1.3) + log(abs(v) + 1.0);
        vec4 c = pow(abs(b) + 0.01, vec4(1.3, 0.7, 2.1, 0.5));
        vec4 d = atan(a, c + 0.1) + inversesqrt(c + 1.0) + tan(a * 0.5);
        v = fract(d * 0.73 + sqrt(abs(b)) + exp2(-c) + log2(c + 1.0));
    }
    color = v;
}
