#version 330
#extension GL_ARB_gpu_shader_fp64 : require
out vec4 color;
uniform uvec2 dv[16];
void main() {
    double a = packDouble2x32(dv[int(gl_FragCoord.x) & 15]);
    double b = packDouble2x32(dv[int(gl_FragCoord.y) & 15]) * 2.5lf;
    int c = (a < b ? 1 : 0) | (a == b ? 2 : 0) | (a >= b ? 4 : 0) | (a != b ? 8 : 0);
    double mn = min(a, b), mx = max(a, b);
    double rr = floor(b) + ceil(b) * 3.0lf + fract(b) + trunc(b) * 5.0lf + round(b) * 7.0lf + roundEven(b) * 11.0lf;
    int ic = int(clamp(b, -1e9lf, 1e9lf));
    uint uc = uint(clamp(b, 0.0lf, 4e9lf));
    color = vec4(float(c) + float(sign(a)) * 16.0, float(mn) - float(mx), float(rr),
                 intBitsToFloat(ic) + float(double(uc) - double(ic)));
}
