#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 6) out;
in vec4 v_col[];
out vec4 g_col;
flat out int g_k;
void main()
{
   for (int k = 0; k < 6; k++) {
      gl_Position = gl_in[0].gl_Position + vec4(float(k & 1), float(k >> 1), 0.0, 0.0);
      g_col = v_col[0] * float(k);
      g_k = k;
      EmitVertex();
   }
}
