#version 450
layout(local_size_x = 32, local_size_y = 32) in;
layout(std430, binding = 0) buffer Data { uint v[]; } data;
shared uint s[2][1024];
void main()
{
   uint l = gl_LocalInvocationIndex, base = gl_WorkGroupID.x * 1024u;
   s[0][l] = data.v[base + l] & 0xffffu;
   barrier();
   uint src = 0u;
   for (uint d = 1u; d < 1024u; d <<= 1) {          /* Hillis-Steele inclusive scan */
      uint x = s[src][l];
      if (l >= d) x += s[src][l - d];
      s[1u - src][l] = x;
      src = 1u - src;
      barrier();
   }
   /* reverse through shared memory: needs every write of the last pass */
   uint r = s[src][1023u - l];
   barrier();
   s[src][l] = r;
   memoryBarrierShared();
   barrier();
   data.v[base + l] = s[src][l] + (l == 0u ? 0u : s[src][l - 1u]);
}
