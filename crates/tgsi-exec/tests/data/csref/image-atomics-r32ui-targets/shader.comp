#version 450
layout(local_size_x = 8, local_size_y = 4) in;
layout(r32ui, binding = 0) coherent uniform uimage1D i1;
layout(r32ui, binding = 1) coherent uniform uimage2D i2;
layout(r32ui, binding = 2) coherent uniform uimage3D i3;
layout(r32ui, binding = 3) coherent uniform uimage2DArray i2a;
layout(r32ui, binding = 4) coherent uniform uimage1DArray i1a;
layout(r32ui, binding = 5) coherent uniform uimageCube ic;
layout(r32ui, binding = 6) coherent uniform uimageBuffer ib;
layout(std430, binding = 0) writeonly buffer Out { uvec4 r[]; } outp;
void main()
{
   uint i = gl_LocalInvocationIndex + gl_WorkGroupID.x * 32u;
   ivec3 g = ivec3(gl_GlobalInvocationID);
   uvec4 a, b;
   a.x = imageAtomicAdd(i1, g.x % 5, i + 1u);
   a.y = imageAtomicMin(i2, ivec2(g.x % 3, g.y % 2), i * 0x01010101u);
   a.z = imageAtomicMax(i3, ivec3(g.x % 4, g.y % 3, g.x / 4), i * 0x10001u);
   a.w = imageAtomicAnd(i2a, ivec3(g.x % 2, 1, g.y % 3), ~(1u << (i % 32u)));
   b.x = imageAtomicOr(i1a, ivec2(g.x % 3, g.y % 2), 1u << (i % 32u));
   b.y = imageAtomicXor(ic, ivec3(g.x % 4, g.y % 4, int(i) % 6), i * 2654435761u);
   b.z = imageAtomicExchange(ib, int(i % 7u), i);
   b.w = imageAtomicCompSwap(i2, ivec2(g.y % 3, g.x % 2), i - 1u, i + 1000u);
   outp.r[2u * i] = a;
   outp.r[2u * i + 1u] = b;
}
