#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
flat out int g_src;
void main()
{
   int r = int(v_col[0].x * 3.0) % 3;
   for (int k = 0; k < 3; k++) {
      int i = (k + r) % 3;
      gl_Position = gl_in[i].gl_Position;
      g_col = v_col[i];
      g_src = i;
      EmitVertex();
   }
}
