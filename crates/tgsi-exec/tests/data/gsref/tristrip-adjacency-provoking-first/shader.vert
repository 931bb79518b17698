#version 150
in vec4 a_pos;
in vec4 a_col;
out vec4 v_col;
flat out int v_id;
void main()
{
   gl_Position = a_pos;
   v_col = a_col;
   v_id = gl_VertexID;
}
