#version 150
layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 12) out;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   for (int k = 0; k < 3; k++) {
      gl_Position = gl_in[2 * k].gl_Position; g_col = v_col[2 * k]; EmitVertex();
   }
   EndPrimitive();
   for (int e = 0; e < 3; e++) {
      gl_Position = gl_in[2 * e].gl_Position; g_col = v_col[2 * e]; EmitVertex();
      gl_Position = gl_in[2 * e + 1].gl_Position; g_col = v_col[2 * e + 1]; EmitVertex();
      gl_Position = gl_in[(2 * e + 2) % 6].gl_Position; g_col = v_col[(2 * e + 2) % 6]; EmitVertex();
      EndPrimitive();
   }
}
