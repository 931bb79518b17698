#version 150
#extension GL_ARB_gpu_shader5 : require
layout(points, invocations = 2) in;
layout(points, max_vertices = 3) out;
in vec4 v_col[];
layout(stream = 0) out vec4 s0_v;
layout(stream = 1) flat out ivec4 s1_v;
void main()
{
   s0_v = v_col[0] + vec4(float(gl_InvocationID));
   EmitStreamVertex(0);
   s0_v = gl_in[0].gl_Position;
   EmitStreamVertex(0);
   EndStreamPrimitive(0);
   s1_v = ivec4(gl_PrimitiveIDIn, gl_InvocationID, floatBitsToInt(v_col[0].x), 9);
   EmitStreamVertex(1);
   EndStreamPrimitive(1);
}
