#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 8) out;
in vec4 v_col[];
out vec4 g_col;
flat out int g_k;
void main()
{
   int bits = int(v_col[0].x * 255.0) ^ int(v_col[1].y * 255.0);
   for (int k = 0; k < 8; k++) {
      gl_Position = gl_in[k % 3].gl_Position + vec4(0.0, float(k) * 0.125, 0.0, 0.0);
      g_col = v_col[(k + 1) % 3];
      g_k = k;
      EmitVertex();
      if (((bits >> k) & 1) != 0)
         EndPrimitive();
   }
}
