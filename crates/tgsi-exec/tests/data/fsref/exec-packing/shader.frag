#version 330
#extension GL_ARB_shading_language_packing : require
out vec4 color;
uniform float fv[32];
uniform int iv[32];
void main() {
    float a = fv[int(gl_FragCoord.x) & 31];
    int y = int(gl_FragCoord.y) & 31;
    float b = fv[y];
    uint h = packHalf2x16(vec2(a, b));
    vec2 uh = unpackHalf2x16(uint(iv[y]));
    color = vec4(uintBitsToFloat(h), uh.x + uh.y * 2.0,
                 uintBitsToFloat(packUnorm2x16(vec2(a, b)) ^ packSnorm2x16(vec2(b, a))),
                 dot(unpackUnorm4x8(uint(iv[y])), vec4(1.0, 2.0, 4.0, 8.0)) + dot(unpackSnorm2x16(h), vec2(1.0)));
}
