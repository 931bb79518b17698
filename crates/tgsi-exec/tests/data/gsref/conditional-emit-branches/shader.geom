#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   float s = v_col[0].x + v_col[1].y + v_col[2].z;
   if (s < 1.0) {
      for (int k = 0; k < 4; k++) {
         gl_Position = gl_in[k % 3].gl_Position; g_col = vec4(s); EmitVertex();
      }
   } else if (s < 2.0) {
      for (int k = 0; k < 3; k++) {
         gl_Position = gl_in[k].gl_Position; g_col = v_col[k]; EmitVertex();
      }
      EndPrimitive();
      for (int k = 0; k < 3; k++) {
         gl_Position = gl_in[2 - k].gl_Position; g_col = -v_col[k]; EmitVertex();
      }
   }
}
