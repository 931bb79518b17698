#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) writeonly buffer Out { uint r[]; } outp;
layout(std430, binding = 1) writeonly buffer Tot { uvec4 t[]; } tot;
shared uint c[8];
shared int m[2];
void main()
{
   uint l = gl_LocalInvocationIndex, g = gl_WorkGroupID.x;
   if (l < 8u) c[l] = l == 2u ? 0xffffffffu : (l == 7u ? 5u : 0u);
   if (l < 2u) m[l] = 0;
   barrier();
   uint h = (l * 2654435761u) ^ (g * 40503u);
   uint ret = atomicAdd(c[0], l + 1u);
   ret ^= atomicOr(c[1], 1u << (h % 32u));
   ret ^= atomicAnd(c[2], ~(1u << (l % 32u)));
   ret ^= atomicXor(c[3], h);
   ret ^= atomicMin(c[4], h | 1u);
   ret ^= atomicMax(c[5], h >> 1);
   ret ^= atomicExchange(c[6], l);
   ret ^= atomicCompSwap(c[7], l + 4u, l + 5u);    /* succeeds in a chain 5,6,7,... */
   atomicMin(m[0], int(h) >> 3);
   atomicMax(m[1], int(h) >> 3);
   outp.r[g * 256u + l] = ret;
   barrier();
   if (l == 0u) {
      tot.t[3u * g] = uvec4(c[0], c[1], c[2], c[3]);
      tot.t[3u * g + 1u] = uvec4(c[4], c[5], c[6], c[7]);
      tot.t[3u * g + 2u] = uvec4(uint(m[0]), uint(m[1]), 0u, 0u);
   }
}
