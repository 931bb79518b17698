#version 450
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer A { uint n; uint v[]; } a;
layout(std430, binding = 1) buffer B { vec4 w[]; } b;
layout(std430, binding = 2) writeonly buffer O { uvec4 o[]; } o;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint len = uint(a.v.length()), blen = uint(b.w.length());
   uint x = a.v[i * 3u % (len + 4u)];
   vec4 y = b.w[(i + 2u) % (blen + 2u)];
   if (i < 4u) a.v[len + i] = 0xdeadbeefu;           /* beyond the binding */
   atomicAdd(a.v[(i * 5u) % len], i);
   uint c = atomicAdd(a.n, 1u);
   barrier();
   o.o[i] = uvec4(len, blen, x ^ c, floatBitsToUint(y.x + y.w));
}
