#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points) in;
layout(points, max_vertices = 3) out;
in vec4 v_col[];
layout(stream = 0) out vec4 s0_v;
layout(stream = 1) out vec4 s1_v;
void main()
{
   s0_v = gl_in[0].gl_Position;
   EmitStreamVertex(0);
   s0_v = v_col[0] - gl_in[0].gl_Position;
   EmitStreamVertex(0);
   EndStreamPrimitive(0);
   s1_v = v_col[0] * 3.0;
   EmitStreamVertex(1);
   EndStreamPrimitive(1);
}
