#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler2D s1;
layout(binding = 2) uniform sampler2DArray s2;
layout(binding = 3) uniform sampler3D s3;
layout(binding = 4) uniform sampler2D s4;
layout(binding = 5) uniform sampler2D s5;
void main()
{
   int band = min(int(gl_FragCoord.x) / 10, 5);
   vec2 lp = vec2(mod(gl_FragCoord.x, 10.0) / 10.0, gl_FragCoord.y / WinSize.y);
   vec2 st = vec2(0.985 + lp.x * 0.03, lp.y + lp.x * 0.031);
   vec4 r0 = vec4(texture(s0, st));
   vec4 r1 = vec4(texture(s1, st));
   vec4 r2 = vec4(texture(s2, vec3(st, 1.0 + lp.x)));
   vec4 r3 = vec4(texture(s3, vec3(st, lp.x * 0.9)));
   vec4 r4 = vec4(textureGather(s0, st, 0));
   vec4 r5 = vec4(textureLod(s4, st, lp.x * 1.5));
   vec4 c = r0;
   if (band == 1) c = r1;
   if (band == 2) c = r2;
   if (band == 3) c = r3;
   if (band == 4) c = r4;
   if (band == 5) c = r5;
   color = c;
}
