#version 150
layout(lines_adjacency) in;
layout(line_strip, max_vertices = 4) out;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   for (int k = 0; k < 4; k++) {
      gl_Position = gl_in[k].gl_Position * (1.0 + float(k) * 0.25);
      g_col = v_col[k] - v_col[3 - k];
      EmitVertex();
   }
}
