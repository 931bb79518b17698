#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Acc { uint sum; uint bits; int lo; int hi; uint x; uint chain; uint cnt[16]; } acc;
layout(std430, binding = 1) readonly buffer In { uint v[]; } inp;
layout(std430, binding = 2) writeonly buffer Ret { uint r[]; } ret;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint h = inp.v[i];
   uint a = atomicAdd(acc.sum, h & 0xffffu);
   atomicOr(acc.bits, 1u << (h % 31u));
   atomicMin(acc.lo, int(h));
   atomicMax(acc.hi, int(h));
   atomicXor(acc.x, h);
   uint c = atomicCompSwap(acc.chain, i, i + 1u);
   atomicAdd(acc.cnt[h % 16u], 1u);
   ret.r[i] = a ^ c;
}
