#version 150
layout(points) in;
layout(points, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
flat out int g_k;
void main()
{
   for (int k = 0; k < 4; k++) {
      gl_Position = gl_in[0].gl_Position + vec4(float(k));
      g_col = v_col[0] * float(k + 1);
      g_k = k;
      EmitVertex();
      if (k == 1)
         EndPrimitive();
   }
}
