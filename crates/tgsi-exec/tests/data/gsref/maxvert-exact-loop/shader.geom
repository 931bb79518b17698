#version 150
layout(points) in;
layout(line_strip, max_vertices = 5) out;
uniform int u_n;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   for (int k = 0; k < u_n; k++) {
      gl_Position = gl_in[0].gl_Position - vec4(float(k));
      g_col = v_col[0] * float(k);
      EmitVertex();
   }
   gl_Position = vec4(9.0);
   g_col = vec4(-9.0);
   EmitVertex();
}
