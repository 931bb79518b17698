#version 330
#extension GL_ARB_gpu_shader5 : require
out vec4 color;
uniform float fv[32];
uniform int iv[32];
void main() {
    float a = fv[int(gl_FragCoord.x) & 31];
    int y = int(gl_FragCoord.y) & 31;
    float b = fv[y];
    int e;
    float m = frexp(a, e);
    float ip;
    float fr = modf(b, ip);
    color = vec4(m + float(e) * 4.0, ldexp(a, iv[y] & 255) , fma(a, b, -a) + fr,
                 ip + (isnan(a) ? 1.0 : 0.0) + (isinf(b) ? 2.0 : 0.0));
}
