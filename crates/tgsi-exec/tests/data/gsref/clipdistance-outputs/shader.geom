#version 150
layout(points) in;
layout(points, max_vertices = 2) out;
in vec4 v_col[];
out float gl_ClipDistance[6];
void main()
{
   for (int k = 0; k < 2; k++) {
      gl_Position = gl_in[0].gl_Position;
      gl_PointSize = 1.0 + float(k) + v_col[0].w;
      for (int c = 0; c < 6; c++)
         gl_ClipDistance[c] = v_col[0][c & 3] - float(c) * 0.25 + float(k);
      EmitVertex();
   }
}
