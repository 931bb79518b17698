#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points) in;
layout(points, max_vertices = 6) out;
in vec4 v_col[];
layout(stream = 0) out vec4 s0_pos;
layout(stream = 1) out vec4 s1_val;
layout(stream = 2) flat out ivec2 s2_id;
void main()
{
   for (int k = 0; k < 3; k++) {
      s0_pos = gl_in[0].gl_Position + vec4(float(k));
      EmitStreamVertex(0);
   }
   EndStreamPrimitive(0);
   s1_val = v_col[0];
   EmitStreamVertex(1);
   EndStreamPrimitive(1);
   s1_val = v_col[0].wzyx;
   EmitStreamVertex(1);
   EndStreamPrimitive(1);
   s2_id = ivec2(gl_PrimitiveIDIn, 42);
   EmitStreamVertex(2);
   EndStreamPrimitive(2);
}
