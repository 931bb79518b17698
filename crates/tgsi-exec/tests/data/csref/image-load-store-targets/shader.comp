#version 450
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(rgba32ui, binding = 0) uniform uimage3D v;
layout(rg32ui, binding = 1) uniform uimage1DArray la;
layout(r32f, binding = 2) uniform imageCube cu;
layout(rg16, binding = 3) uniform image2DArray arr;
layout(r8, binding = 4) uniform imageBuffer buf;
layout(rgba32i, binding = 5) uniform iimage1D one;
layout(std430, binding = 0) writeonly buffer Out { uvec4 r[]; } outp;
void main()
{
   ivec3 p = ivec3(gl_GlobalInvocationID);
   uint i = gl_LocalInvocationIndex + 16u * (gl_WorkGroupID.x + 2u * gl_WorkGroupID.y);
   uvec4 x = imageLoad(v, p.zyx);
   imageStore(v, p, x.wzyx + uvec4(i));
   uvec2 y = imageLoad(la, ivec2(p.x, p.z)).xy;
   imageStore(la, ivec2(p.x + 1, p.y), uvec4(y.yx * 3u, 0u, 0u));
   float z = imageLoad(cu, ivec3(p.xy, p.z * 3 + 1)).x;
   imageStore(cu, ivec3(p.yx, int(i) % 6), vec4(z * 0.5 + 1.0));
   vec2 w = imageLoad(arr, ivec3(p.xy, p.z)).xy;
   imageStore(arr, ivec3(p.yx, 1 - p.z), vec4(w.yx * 0.75 + 0.1, 0.0, 0.0));
   float b = imageLoad(buf, int(i)).x;
   imageStore(buf, int(i) + 40, vec4(b * 0.5 + 0.25));
   ivec4 o = imageLoad(one, int(i) % 9);
   imageStore(one, int(i) % 9, o + ivec4(1, -1, int(i), -int(i)));
   outp.r[i] = uvec4(x.x ^ y.x, floatBitsToUint(z), floatBitsToUint(w.x + b), uint(o.x + o.w));
}
