#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler1D s0;
layout(binding = 1) uniform sampler1DArray s1;
layout(binding = 2) uniform sampler2DArray s2;
layout(binding = 3) uniform sampler3D s3;
layout(binding = 4) uniform sampler2DRect s4;
layout(binding = 5) uniform samplerBuffer s5;
layout(binding = 6) uniform sampler2D s6;
layout(binding = 7) uniform samplerBuffer s7;
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 lp = vec2(mod(gl_FragCoord.x, 8.0) / 8.0, gl_FragCoord.y / WinSize.y);
   vec2 uv = lp;
   vec4 r0 = vec4(texelFetch(s0, int(uv.x * 12.0) - 2, int(lp.y * 5.0) - 1));
   vec4 r1 = vec4(texelFetch(s1, ivec2(uv * vec2(10.0, 5.0)) - 2, 1));
   vec4 r2 = vec4(texelFetch(s2, ivec3(uv * 8.0 - 1.0, int(lp.x * 6.0) - 1), int(lp.y * 3.0)));
   vec4 r3 = vec4(texelFetch(s3, ivec3(uv * 6.0 - 1.0, int(lp.x * 5.0) - 1), 0));
   vec4 r4 = vec4(texelFetch(s4, ivec2(uv * 9.0) - 1));
   vec4 r5 = vec4(texelFetch(s5, int(lp.y * 30.0) - 3));
   vec4 r6 = vec4(texelFetchOffset(s6, ivec2(uv * 8.0), int(lp.x * 3.0), ivec2(-1, 2)));
   vec4 r7 = vec4(texelFetch(s7, int(lp.y * 40.0) - 5));
   vec4 c = r0;
   if (band == 1) c = r1;
   if (band == 2) c = r2;
   if (band == 3) c = r3;
   if (band == 4) c = r4;
   if (band == 5) c = r5;
   if (band == 6) c = r6;
   if (band == 7) c = r7;
   color = c;
}
