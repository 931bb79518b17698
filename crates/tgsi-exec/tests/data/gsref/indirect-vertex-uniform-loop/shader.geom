#version 150
layout(triangles_adjacency) in;
layout(points, max_vertices = 6) out;
uniform int u_n;
in vec4 v_col[];
out vec4 g_v;
flat out int g_i;
void main()
{
   for (int k = 0; k < u_n; k++) {
      int i = u_n - 1 - k;
      gl_Position = gl_in[i].gl_Position;
      g_v = v_col[i] * gl_in[i].gl_Position.x;
      g_i = i;
      EmitVertex();
   }
}
