#version 150
layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
out vec4 g_adj;
void main()
{
   for (int k = 0; k < 3; k++) {
      gl_Position = gl_in[2 * k].gl_Position;
      g_col = v_col[2 * k];
      g_adj = (v_col[2 * k + 1] + gl_in[2 * k + 1].gl_Position) * 0.5;
      EmitVertex();
   }
}
