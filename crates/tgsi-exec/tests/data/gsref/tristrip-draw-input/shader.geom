#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
void main()
{
   for (int k = 0; k < 3; k++) {
      gl_Position = gl_in[k].gl_Position;
      g_col = v_col[k] + vec4(float(gl_PrimitiveIDIn));
      EmitVertex();
   }
}
