#version 330
#extension GL_ARB_gpu_shader5 : enable
out vec4 color;
uniform int a;
uniform uint b;
void main() {
    int x = int(gl_FragCoord.x) - 32;
    int y = int(gl_FragCoord.y) - 32;
    int yy = (y == 0) ? 7 : y;
    int q = x * 100003 / yy;
    int r = (x * 7919) % yy;
    uint ux = uint(x) * 2654435761u;
    uint sh = (ux >> uint(y & 31)) ^ b;
    int e = bitfieldExtract(x * a, y & 15, 7);
    uint ue = bitfieldExtract(ux, x & 31, (y & 15) + 3);
    int msb = findMSB(x * 12345);
    int lsb = findLSB(ux);
    uint ins = bitfieldInsert(ux, uint(y), x & 15, 9);
    color = vec4(float(q) + float(r) * 0.5, float(sh >> 8) + float(ue),
                 float(e) + float(lsb) * 0.25, float(msb) + float(ins >> 4) * 0.001);
}
