#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler2D s1;
layout(binding = 2) uniform sampler2D s2;
layout(binding = 3) uniform sampler2DArrayShadow s3;
layout(binding = 4) uniform sampler1DShadow s4;
layout(binding = 5) uniform sampler1DArrayShadow s5;
layout(binding = 6) uniform samplerCubeArrayShadow s6;
layout(binding = 7) uniform sampler2DRectShadow s7;
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 lp = vec2(mod(gl_FragCoord.x, 8.0) / 8.0, gl_FragCoord.y / WinSize.y);
   vec2 uv = lp * 1.3 - 0.15;
   vec4 r0 = vec4(texture(s0, uv));
   vec4 r1 = vec4(texture(s1, uv));
   vec4 r2 = vec4(texture(s2, uv));
   vec4 r3 = vec4(vec4(texture(s3, vec4(uv, 1.0, lp.x))));
   vec4 r4 = vec4(vec4(texture(s4, vec3(uv.x, 0.0, lp.y))));
   vec4 r5 = vec4(vec4(texture(s5, vec3(uv.x, 1.0, lp.y))));
   vec4 r6 = vec4(vec4(texture(s6, vec4(uv * 2.0 - 1.0, 0.6, 1.0), lp.x)));
   vec4 r7 = vec4(vec4(texture(s7, vec3(uv * 7.0, lp.y))));
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
