#version 330
#extension GL_ARB_gpu_shader_fp64 : require
out vec4 color;
uniform uvec2 dv[4];
void main() {
    int i = int(gl_FragCoord.x) & 3;
    double a = packDouble2x32(dv[i]);
    uvec2 r = unpackDouble2x32(abs(a));
    uvec2 n = unpackDouble2x32(-a);
    color = vec4(uintBitsToFloat(r.x), uintBitsToFloat(r.y), uintBitsToFloat(n.x), uintBitsToFloat(n.y));
}
