#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler2D s1;
layout(binding = 2) uniform sampler2D s2;
layout(binding = 3) uniform sampler2D s3;
layout(binding = 4) uniform sampler2D s4;
layout(binding = 5) uniform sampler2D s5;
layout(binding = 6) uniform sampler2D s6;
layout(binding = 7) uniform sampler2D s7;
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 lp = vec2(mod(gl_FragCoord.x, 8.0) / 8.0, gl_FragCoord.y / WinSize.y);
   vec2 uv = lp * 1.4 - 0.2;
   vec4 r0 = vec4(texture(s0, uv));
   vec4 r1 = vec4(texture(s1, uv));
   vec4 r2 = vec4(texture(s2, uv));
   vec4 r3 = vec4(texture(s3, uv));
   vec4 r4 = vec4(texture(s4, uv));
   vec4 r5 = vec4(texture(s5, uv));
   vec4 r6 = vec4(texture(s6, uv));
   vec4 r7 = vec4(texture(s7, uv));
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
