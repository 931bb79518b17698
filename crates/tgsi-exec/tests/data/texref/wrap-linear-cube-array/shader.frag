#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform samplerCubeArray s0;
layout(binding = 1) uniform samplerCubeArray s1;
layout(binding = 2) uniform samplerCubeArray s2;
layout(binding = 3) uniform samplerCubeArray s3;
layout(binding = 4) uniform samplerCubeArray s4;
layout(binding = 5) uniform samplerCubeArray s5;
layout(binding = 6) uniform samplerCubeArray s6;
layout(binding = 7) uniform samplerCubeArray s7;
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 lp = vec2(mod(gl_FragCoord.x, 8.0) / 8.0, gl_FragCoord.y / WinSize.y);
   vec3 dir = vec3(lp.x * 2.0 - 1.0, lp.y * 2.4 - 1.2, (band % 2 == 0 ? 0.9 : -0.9) - lp.x * lp.y);
   float layer = lp.y * 2.6 - 0.3;
   vec4 r0 = vec4(texture(s0, vec4(dir, layer)));
   vec4 r1 = vec4(texture(s1, vec4(dir, layer)));
   vec4 r2 = vec4(texture(s2, vec4(dir, layer)));
   vec4 r3 = vec4(texture(s3, vec4(dir, layer)));
   vec4 r4 = vec4(texture(s4, vec4(dir, layer)));
   vec4 r5 = vec4(texture(s5, vec4(dir, layer)));
   vec4 r6 = vec4(texture(s6, vec4(dir, layer)));
   vec4 r7 = vec4(texture(s7, vec4(dir, layer)));
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
