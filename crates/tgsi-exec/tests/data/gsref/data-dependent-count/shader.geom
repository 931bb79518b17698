#version 150
layout(points) in;
layout(points, max_vertices = 7) out;
in vec4 v_col[];
out vec4 g_col;
flat out int g_n;
void main()
{
   int n = int(v_col[0].z * 8.0);
   for (int k = 0; k < n; k++) {
      gl_Position = gl_in[0].gl_Position * float(k + 1);
      g_col = v_col[0];
      g_n = n * 16 + k;
      EmitVertex();
   }
}
