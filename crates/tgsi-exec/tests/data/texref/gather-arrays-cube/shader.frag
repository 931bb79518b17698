#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2DArray s0;
layout(binding = 1) uniform samplerCube s1;
layout(binding = 2) uniform samplerCubeArray s2;
layout(binding = 3) uniform sampler2DArrayShadow s3;
layout(binding = 4) uniform samplerCubeShadow s4;
layout(binding = 5) uniform sampler2D s5;
layout(binding = 6) uniform sampler2DArray s6;
layout(binding = 7) uniform sampler2DRect s7;
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 lp = vec2(mod(gl_FragCoord.x, 8.0) / 8.0, gl_FragCoord.y / WinSize.y);
   vec2 uv = lp * vec2(1.4, 1.2) - 0.2;
   vec3 dir = vec3(uv * 2.0 - 1.0, band == 1 ? -0.8 : 0.7);
   vec4 r0 = vec4(textureGather(s0, vec3(uv, lp.y * 3.0), 1));
   vec4 r1 = vec4(textureGather(s1, dir, 2));
   vec4 r2 = vec4(textureGather(s2, vec4(dir, 1.0), 3));
   vec4 r3 = vec4(textureGather(s3, vec3(uv, 1.0), lp.x));
   vec4 r4 = vec4(textureGather(s4, dir, 0.5));
   vec4 r5 = vec4(textureGatherOffset(s5, uv, ivec2(-2, 3), 1));
   vec4 r6 = vec4(textureGatherOffsets(s6, vec3(uv, 2.0), ivec2[4](ivec2(1, 1), ivec2(-1, 2), ivec2(3, -4), ivec2(0, 7)), 0));
   vec4 r7 = vec4(textureGatherOffset(s7, uv * 9.0, ivec2(-8, 7), 3));
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
