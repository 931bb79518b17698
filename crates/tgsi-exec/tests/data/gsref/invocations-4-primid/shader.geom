#version 150
#extension GL_ARB_gpu_shader5 : require
layout(triangles, invocations = 4) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
flat out ivec2 g_id;
void main()
{
   for (int k = 0; k < 3; k++) {
      gl_Position = gl_in[k].gl_Position + vec4(float(gl_InvocationID) * 0.5, 0.0, 0.0, 0.0);
      g_col = v_col[(k + gl_InvocationID) % 3];
      g_id = ivec2(gl_PrimitiveIDIn, gl_InvocationID);
      EmitVertex();
   }
}
