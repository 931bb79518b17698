#version 150
layout(lines) in;
layout(line_strip, max_vertices = 4) out;
uniform vec4 u_pal[5];
uniform mat2 u_rot;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   for (int k = 0; k < 4; k++) {
      int i = int(v_col[k & 1].y * 5.0) % 5;
      vec4 p = gl_in[k & 1].gl_Position;
      gl_Position = vec4(u_rot * p.xy, p.zw);
      g_col = u_pal[i] * float(k + 1) + u_pal[(i + k) % 5];
      EmitVertex();
   }
}
