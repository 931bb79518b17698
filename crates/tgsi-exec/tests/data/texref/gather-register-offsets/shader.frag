#version 450
// Gathers with texel offsets in registers (uniforms, and values uniform over each 2x2
// quad), at coordinates a quarter texel or more from texel boundaries.
out vec4 color;
layout(binding = 0) uniform sampler2D t0;
layout(binding = 1) uniform sampler2DArray t1;
layout(binding = 2) uniform sampler2DShadow t2;
layout(binding = 3) uniform usampler2D t3;
layout(binding = 4) uniform sampler2D t4;
uniform ivec2 off[6];
void main()
{
   int band = min(int(gl_FragCoord.x) / 8, 7);
   vec2 p = vec2(mod(gl_FragCoord.x, 8.0), gl_FragCoord.y) * 1.5 + 0.13;
   vec4 c;
   if (band == 0) c = textureGatherOffset(t0, p / 16.0, off[0], 0);
   else if (band == 1) c = textureGatherOffset(t0, p / 16.0, off[1], 1);
   else if (band == 2) c = textureGatherOffset(t0, p / 16.0, off[2], 3);
   else if (band == 3) c = textureGatherOffset(t1, vec3(p / 8.0, 1.0), off[3], 2);
   else if (band == 4) c = textureGatherOffset(t2, p / 8.0, 0.5, off[4]);
   else if (band == 5) c = vec4(textureGatherOffset(t3, p / 8.0, off[5], 2)) / 255.0;
   else if (band == 6) c = textureGatherOffset(t0, p / 16.0, ivec2(int(gl_FragCoord.y) / 2 - 16, 3 - int(gl_FragCoord.y) / 4), 0);
   else c = textureGatherOffset(t4, p / 8.0, off[band % 6] * 3 - ivec2(4, 2), 1);
   color = c;
}
