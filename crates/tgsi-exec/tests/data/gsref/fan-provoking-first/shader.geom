#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
flat in int v_id[];
out vec4 g_col;
flat out ivec4 g_ids;
void main()
{
   for (int k = 0; k < 3; k++) {
      gl_Position = gl_in[k].gl_Position;
      g_col = v_col[k];
      g_ids = ivec4(v_id[k], gl_PrimitiveIDIn, k, 0);
      EmitVertex();
   }
}
