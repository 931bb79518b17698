#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 8) out;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   EndPrimitive();
   gl_Position = gl_in[0].gl_Position; g_col = v_col[0]; EmitVertex();
   EndPrimitive();
   EndPrimitive();
   gl_Position = gl_in[0].gl_Position * 2.0; g_col = v_col[0] * 2.0; EmitVertex();
   gl_Position = gl_in[0].gl_Position * 3.0; g_col = v_col[0] * 3.0; EmitVertex();
   EndPrimitive();
   for (int k = 0; k < 3; k++) {
      gl_Position = gl_in[0].gl_Position + vec4(float(k)); g_col = v_col[0] - vec4(float(k)); EmitVertex();
   }
}
