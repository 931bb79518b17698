#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points, invocations = 3) in;
layout(points, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
flat out int g_tag;
void main()
{
   if (v_col[0].w > 0.75 && gl_InvocationID == 1)
      return;
   for (int k = 0; k <= gl_InvocationID; k++) {
      gl_Position = gl_in[0].gl_Position;
      g_col = v_col[0] * float(k + gl_InvocationID);
      g_tag = gl_PrimitiveIDIn * 100 + gl_InvocationID * 10 + k;
      EmitVertex();
   }
}
