#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 24) out;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   for (int k = 0; k < 24; k++) {
      float t = float(k) / 23.0;
      vec4 a = gl_in[k % 3].gl_Position, b = gl_in[(k + 1) % 3].gl_Position;
      gl_Position = a + (b - a) * t;
      g_col = sqrt(abs(v_col[k % 3] - vec4(t))) * sign(a - b);
      EmitVertex();
   }
}
