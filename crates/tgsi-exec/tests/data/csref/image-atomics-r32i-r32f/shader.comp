#version 450
layout(local_size_x = 16, local_size_y = 2) in;
layout(r32i, binding = 0) coherent uniform iimage2D si;
layout(r32i, binding = 1) coherent uniform iimage3D s3;
layout(r32f, binding = 2) coherent uniform image2D fi;
layout(r32f, binding = 3) coherent uniform imageBuffer fb;
layout(r32i, binding = 4) coherent uniform iimage2DArray sa;
layout(std430, binding = 0) writeonly buffer Out { ivec4 r[]; } outp;
void main()
{
   int i = int(gl_LocalInvocationIndex + gl_WorkGroupID.x * 32u);
   ivec2 g = ivec2(gl_GlobalInvocationID.xy);
   int v = (i * 7919) % 201 - 100;
   ivec4 a, b;
   a.x = imageAtomicMin(si, ivec2(g.x % 4, g.y), v);
   a.y = imageAtomicMax(si, ivec2(3 - g.x % 4, 1 - g.y), v * 1000);
   a.z = imageAtomicAdd(s3, ivec3(g.x % 2, g.y, g.x % 3), -i);
   a.w = imageAtomicCompSwap(si, ivec2(g.x % 4, 0), v, i);
   /* out of bounds: returns 0, writes dropped */
   b.x = imageAtomicAdd(si, ivec2(g.x - 8, g.y * 5), 1);
   b.y = floatBitsToInt(imageAtomicExchange(fi, ivec2(g.x % 3, g.y), float(v) * 0.25));
   b.z = floatBitsToInt(imageAtomicExchange(fb, i % 5 + (i & 1) * 8, -float(i)));
   b.w = imageAtomicXor(sa, ivec3(g.x % 2, 0, g.x % 4 + g.y * 2), v);
   outp.r[2 * i] = a;
   outp.r[2 * i + 1] = b;
}
