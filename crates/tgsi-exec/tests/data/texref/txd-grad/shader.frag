#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler3D s1;
layout(binding = 2) uniform samplerCube s2;
layout(binding = 3) uniform sampler2DArray s3;
layout(binding = 4) uniform sampler2D s4;
layout(binding = 5) uniform sampler2DShadow s5;
layout(binding = 6) uniform sampler1D s6;
layout(binding = 7) uniform sampler2DArray s7;
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 lp = vec2(mod(gl_FragCoord.x, 8.0) / 8.0, gl_FragCoord.y / WinSize.y);
   vec2 uv = lp * 1.2 - 0.1;
   vec2 dx = vec2(exp2(lp.y * 8.0 - 7.0), lp.x * 0.1);
   vec2 dy = vec2(0.02 * lp.x, exp2(lp.x * 6.0 - 6.0));
   vec4 r0 = vec4(textureGrad(s0, uv, dx, dy));
   vec4 r1 = vec4(textureGrad(s1, vec3(uv, lp.x), vec3(dx, dx.x), vec3(dy, dy.y)));
   vec4 r2 = vec4(textureGrad(s2, vec3(uv * 2.0 - 1.0, 0.7), vec3(dx, 0.0), vec3(dy, 0.1)));
   vec4 r3 = vec4(textureGrad(s3, vec3(uv, 1.0), dx, dy));
   vec4 r4 = vec4(textureGradOffset(s4, uv, dx, dy, ivec2(2, -3)));
   vec4 r5 = vec4(vec4(textureGrad(s5, vec3(uv, lp.x), dx, dy)));
   vec4 r6 = vec4(textureGrad(s6, uv.x, dx.x, dy.y));
   vec4 r7 = vec4(textureGradOffset(s7, vec3(uv, 2.0), dx * 4.0, dy, ivec2(-1, 1)));
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
