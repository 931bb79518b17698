#version 330
#extension GL_ARB_gpu_shader5 : require
// Integer and bit operations: uint hash rounds (multiply, xor-shift, rotate),
// bitfieldExtract/Insert, bitCount, findMSB/findLSB, signed division and modulo.
uniform vec2 WinSize;
uniform uint Seed;
uniform int Rounds;
out vec4 color;

uint rotl(uint x, int r)
{
    return (x << r) | (x >> (32 - r));
}

void main()
{
    uvec2 px = uvec2(gl_FragCoord.xy);
    uint h = Seed ^ (px.x * 0x9E3779B1u) ^ (px.y * 0x85EBCA77u);
    uint acc = 0u;
    int sacc = 0;
    for (int k = 0; k < Rounds; k++) {
        h ^= h >> 16;
        h *= 0x7FEB352Du;
        h ^= h >> 15;
        h *= 0x846CA68Bu;
        h ^= h >> 16;
        uint field = bitfieldExtract(h, int(h & 15u), 8 + (k & 7));
        acc = rotl(acc ^ field, 5) + uint(bitCount(h)) * 0x01000193u;
        acc = bitfieldInsert(acc, h >> 3, k & 15, 6);
        int sh = int(h);
        sacc += (sh / 7919) % 1021 + findMSB(h | 1u) - findLSB(h | 0x80000000u);
        h += acc;
    }
    color = vec4(uintBitsToFloat((acc & 0x007FFFFFu) | 0x3F800000u),
                 float(sacc) * 1e-3,
                 float(h >> 8) * (1.0 / 16777216.0),
                 intBitsToFloat(int(acc ^ h) & 0x3FFFFFFF));
}
