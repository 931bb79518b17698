#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform samplerCubeArray s0;
layout(binding = 1) uniform samplerCubeArray s1;
layout(binding = 2) uniform samplerCubeArray s2;
layout(binding = 3) uniform samplerCubeArray s3;
void main()
{
   int band = min(int(gl_FragCoord.x) / 16, 3);
   vec2 lp = vec2(mod(gl_FragCoord.x, 16.0) / 16.0, gl_FragCoord.y / WinSize.y);
   vec3 dir = vec3(lp.x * 2.0 - 1.0, 0.8 - lp.y * 0.3, exp2(lp.y * 5.0) - 1.5);
   vec4 r0 = vec4(texture(s0, vec4(dir, 1.0)));
   vec4 r1 = vec4(texture(s1, vec4(dir, 0.0)));
   vec4 r2 = vec4(textureLod(s2, vec4(dir, 1.0), lp.y * 4.0 - 0.5));
   vec4 r3 = vec4(texture(s3, vec4(dir * 0.5, 1.0), lp.x * 2.0 - 1.0));
   vec4 c = r0;
   if (band == 1) c = r1;
   if (band == 2) c = r2;
   if (band == 3) c = r3;
   color = c;
}
