#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler3D s1;
layout(binding = 2) uniform sampler1DArray s2;
layout(binding = 3) uniform sampler2DArray s3;
layout(binding = 4) uniform sampler2D s4;
layout(binding = 5) uniform sampler2D s5;
layout(binding = 6) uniform sampler3D s6;
layout(binding = 7) uniform sampler1D s7;
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 lp = vec2(mod(gl_FragCoord.x, 8.0) / 8.0, gl_FragCoord.y / WinSize.y);
   vec2 uv = lp * exp2(lp.y * 2.0);
   vec4 r0 = vec4(textureOffset(s0, uv, ivec2(-8, 7), lp.x * 3.0 - 1.0));
   vec4 r1 = vec4(textureOffset(s1, vec3(uv, lp.x), ivec3(1, -2, 3)));
   vec4 r2 = vec4(textureLodOffset(s2, vec2(uv.x, 1.0), lp.y * 3.0, 2));
   vec4 r3 = vec4(textureLodOffset(s3, vec3(uv, 1.0), lp.y * 4.0 - 1.0, ivec2(-3, 2)));
   vec4 r4 = vec4(textureProjLod(s4, vec3(uv, 0.5 + lp.x), lp.y * 5.0));
   vec4 r5 = vec4(textureProjGradOffset(s5, vec4(uv, 0.0, 1.0 + lp.y), vec2(0.05, 0.0), vec2(0.0, lp.x * 0.2), ivec2(1, 1)));
   vec4 r6 = vec4(textureLod(s6, vec3(uv, lp.x), lp.y * 5.0 - 1.0));
   vec4 r7 = vec4(textureProj(s7, vec2(uv.x, 1.0 + lp.y), lp.x * 4.0));
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
