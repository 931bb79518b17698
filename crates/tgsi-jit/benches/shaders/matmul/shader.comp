#version 450
// A compute kernel: a 64x64 float matrix product C = A B, tiled through shared memory
// in 8x8 workgroups (shared loads and stores, barriers, an inner multiply-add loop).
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) readonly buffer MatA { float a[]; };
layout(std430, binding = 1) readonly buffer MatB { float b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };
shared float ta[8][8];
shared float tb[8][8];
const uint N = 64u;
void main()
{
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 g = gl_GlobalInvocationID.xy;
    float acc = 0.0;
    for (uint t = 0u; t < N; t += 8u) {
        ta[l.y][l.x] = a[g.y * N + t + l.x];
        tb[l.y][l.x] = b[(t + l.y) * N + g.x];
        barrier();
        for (uint k = 0u; k < 8u; k++)
            acc += ta[l.y][k] * tb[k][l.x];
        barrier();
    }
    c[g.y * N + g.x] = acc;
}
