#version 450
uniform vec2 WinSize;
out vec4 color;
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler2D s1;
layout(binding = 2) uniform sampler2D s2;
layout(binding = 3) uniform sampler2D s3;
void main()
{
   int band = min(int(gl_FragCoord.x) / 16, 3);
   vec2 lp = vec2(mod(gl_FragCoord.x, 16.0) / 16.0, gl_FragCoord.y / WinSize.y);
   vec2 uv = lp * vec2(1.0, 0.9) * exp2(lp.y * 3.0);
   vec4 r0 = vec4(texture(s0, uv));
   vec4 r1 = vec4(texture(s1, uv));
   vec4 r2 = vec4(texelFetch(s2, ivec2(uv * 8.0), 0));
   vec4 r3 = vec4(texture(s3, uv * 3.0));
   vec4 c = r0;
   if (band == 1) c = r1;
   if (band == 2) c = r2;
   if (band == 3) c = r3;
   color = c;
}
