#version 450
layout(local_size_x = 4, local_size_y = 4) in;
layout(rgba32f, binding = 0) uniform image2D a;
layout(rgba16f, binding = 1) uniform image2D b;
layout(rgba16ui, binding = 2) uniform uimage2D c;
layout(rgba32i, binding = 3) uniform iimage2D d;
layout(rgba8, binding = 4) uniform image2D e;
layout(rgba8ui, binding = 5) uniform uimage2D f;
layout(rgba8_snorm, binding = 6) uniform image2D g;
layout(r16f, binding = 7) uniform image2D h;
layout(std430, binding = 0) writeonly buffer Out { vec4 r[]; } outp;
void main()
{
   ivec2 p = ivec2(gl_GlobalInvocationID.xy);
   uint i = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x;
   ivec2 q = ivec2(7 - p.x, p.y);            /* read one texel, write its mirror */
   vec4 va = imageLoad(a, q), vb = imageLoad(b, q), ve = imageLoad(e, q), vg = imageLoad(g, q);
   uvec4 vc = imageLoad(c, q), vf = imageLoad(f, q);
   ivec4 vd = imageLoad(d, q);
   vec4 vh = imageLoad(h, q);
   vec4 s = vec4(p, i, 1.0) * 0.37 - 1.5;
   barrier();
   imageStore(a, p, va * 3.0 + s);
   imageStore(b, p, va * 2.0 - vb + s * 1000.0);          /* half overflow to inf */
   imageStore(c, p, vc * 9u + uvec4(i * 4099u));          /* wraps, stores low 16 bits */
   imageStore(d, p, vd ^ ivec4(i) - ivec4(p.xyxy));
   imageStore(e, p, ve * 2.0 - 0.6 + s);                 /* clamps to [0,1] */
   imageStore(f, p, vf + uvec4(i * 37u));                 /* stores low 8 bits */
   imageStore(g, p, vg * 1.7 - s);                        /* clamps to [-1,1] */
   imageStore(h, p, vh * 0.3 + s.x);
   imageStore(a, p + ivec2(8, 0), vec4(1.0));             /* outside: dropped */
   outp.r[4u * i] = va + vb;
   outp.r[4u * i + 1u] = vec4(vc) + vec4(vd);
   outp.r[4u * i + 2u] = ve + vg;
   outp.r[4u * i + 3u] = vec4(vf) + vh + imageLoad(a, p - ivec2(0, 9));  /* outside: 0 */
}
