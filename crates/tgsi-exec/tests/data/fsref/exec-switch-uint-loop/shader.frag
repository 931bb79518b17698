#version 330
out vec4 color;
void main() {
    uint u = uint(gl_FragCoord.x) * 2654435761u ^ uint(gl_FragCoord.y);
    uint i = 0u;
    float acc = 0.0;
    int guard = 0;
    while (i < 12u) {
        guard++;
        uint sel = (u >> (i * 2u)) & 7u;
        i++;
        switch (sel) {
        case 0u:
            continue;
        case 1u:
            acc += 1.0;
        case 2u:
            acc += 2.0;
            break;
        case 5u:
            acc *= 0.5;
        case 6u:
        case 7u:
            acc -= float(sel);
            if (acc < -20.0)
                i = 99u;
            break;
        default:
            acc += 0.125 * float(i);
        }
        acc += 0.01;
    }
    color = vec4(acc, float(guard), float(i), uintBitsToFloat(u));
}
