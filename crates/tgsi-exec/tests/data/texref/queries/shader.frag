#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler3D s1;
layout(binding = 2) uniform samplerCubeArray s2;
layout(binding = 3) uniform sampler2DArray s3;
layout(binding = 4) uniform sampler1DArray s4;
layout(binding = 5) uniform samplerBuffer s5;
layout(binding = 6) uniform sampler2D s6;
layout(binding = 7) uniform samplerCube s7;
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 lp = vec2(mod(gl_FragCoord.x, 8.0) / 8.0, gl_FragCoord.y / WinSize.y);
   vec2 uv = lp;
   vec4 r0 = vec4(vec4(textureSize(s0, int(lp.y * 3.0)), textureQueryLevels(s0), 0));
   vec4 r1 = vec4(vec4(textureSize(s1, int(lp.y * 4.0)), textureQueryLevels(s1)));
   vec4 r2 = vec4(vec4(textureSize(s2, int(lp.y * 4.0)), textureQueryLevels(s2)));
   vec4 r3 = vec4(vec4(textureQueryLod(s3, uv * exp2(lp.y * 6.0)), textureSize(s3, 1).xy));
   vec4 r4 = vec4(vec4(textureSize(s4, int(lp.y * 4.0)), textureQueryLod(s4, uv.x * exp2(lp.y * 5.0))));
   vec4 r5 = vec4(vec4(textureSize(s5), 0, 0, 1));
   vec4 r6 = vec4(vec4(textureQueryLod(s6, uv * exp2(lp.y * 7.0 - 2.0)), 0.0, 1.0));
   vec4 r7 = vec4(vec4(textureQueryLod(s7, vec3(uv * 2.0 - 1.0, 1.0) * exp2(lp.y * 3.0)), textureSize(s7, 2)));
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
