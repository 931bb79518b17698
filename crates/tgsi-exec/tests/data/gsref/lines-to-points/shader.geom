#version 150
layout(lines) in;
layout(points, max_vertices = 5) out;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   for (int k = 0; k < 5; k++) {
      float t = float(k) * 0.25;
      gl_Position = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, t);
      g_col = mix(v_col[0], v_col[1], t);
      EmitVertex();
   }
}
