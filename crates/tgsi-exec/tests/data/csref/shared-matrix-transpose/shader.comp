#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer In { vec4 m[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { vec4 m[]; } outp;
shared vec4 tile[16][17];
shared float red[256];
void main()
{
   uvec2 l = gl_LocalInvocationID.xy, g = gl_WorkGroupID.xy;
   uint w = gl_NumWorkGroups.x * 16u;
   vec4 x = inp.m[(g.y * 16u + l.y) * w + g.x * 16u + l.x];
   tile[l.y][l.x] = x;
   red[gl_LocalInvocationIndex] = dot(x, vec4(1.0, -0.5, 0.25, 2.0));
   barrier();
   for (uint s = 128u; s > 0u; s >>= 1) {
      if (gl_LocalInvocationIndex < s) red[gl_LocalInvocationIndex] += red[gl_LocalInvocationIndex + s];
      barrier();
   }
   outp.m[(g.x * 16u + l.y) * w + g.y * 16u + l.x] = tile[l.x][l.y] + vec4(red[0]);
}
