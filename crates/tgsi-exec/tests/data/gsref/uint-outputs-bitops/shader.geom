#version 400
layout(points) in;
layout(points, max_vertices = 2) out;
flat in ivec4 v_int[];
flat out uvec4 g_u;
flat out ivec4 g_i;
void main()
{
   uvec4 a = uvec4(v_int[0]);
   for (int k = 0; k < 2; k++) {
      gl_Position = gl_in[0].gl_Position;
      g_u = uvec4(bitfieldExtract(a.x, k * 3, 9), bitCount(a.y) + uint(k), a.z / (a.w % 13u + 1u), bitfieldInsert(a.w, a.x, 4, 8 + k));
      g_i = ivec4(findMSB(v_int[0].x), findLSB(a.y), v_int[0].z >> (k + 1), -v_int[0].w);
      EmitVertex();
   }
}
