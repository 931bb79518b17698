#version 330
#extension GL_ARB_gpu_shader_fp64 : require
out vec4 color;
uniform uvec2 dv[16];
void main() {
    double a = packDouble2x32(dv[int(gl_FragCoord.x) & 15]);
    double b = packDouble2x32(dv[int(gl_FragCoord.y) & 15]);
    double q = a / b;
    double s = a + b * double(gl_FragCoord.x);
    double m = fma(a, b, -1.0lf);
    double r = sqrt(abs(a)) - a * a;
    uvec2 qb = unpackDouble2x32(q);
    color = vec4(uintBitsToFloat(qb.x ^ qb.y), float(s), float(m), float(r) + float(a - double(float(a))) * 1e10);
}
