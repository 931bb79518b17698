#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points) in;
layout(points, max_vertices = 3) out;
in vec4 v_col[];
layout(stream = 0) out vec4 s0_v;
layout(stream = 1) flat out ivec2 s1_id;
void main()
{
   s0_v = gl_in[0].gl_Position;
   EmitStreamVertex(0);
   s0_v = v_col[0];
   EmitStreamVertex(0);
   s1_id = ivec2(gl_PrimitiveIDIn, floatBitsToInt(v_col[0].y));
   EmitStreamVertex(1);
}
