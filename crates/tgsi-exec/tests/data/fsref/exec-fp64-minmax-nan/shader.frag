#version 330
#extension GL_ARB_gpu_shader_fp64 : require
out vec4 color;
uniform uvec2 av[8];
uniform uvec2 bv[8];
void main() {
    int i = int(gl_FragCoord.x) & 7;
    double a = packDouble2x32(av[i]);
    double b = packDouble2x32(bv[i]);
    uvec2 lo = unpackDouble2x32(min(a, b));
    uvec2 hi = unpackDouble2x32(max(a, b));
    color = vec4(uintBitsToFloat(lo.x), uintBitsToFloat(lo.y), uintBitsToFloat(hi.x), uintBitsToFloat(hi.y));
}
