#version 330
out vec4 color;
void main() {
    int s = (int(gl_FragCoord.x) + int(gl_FragCoord.y) * 3) % 7;
    float acc = 0.0;
    for (int i = 0; i < 3; i++) {
        switch (s + i) {
        case 0:
            acc += 1.0;
        case 1:
            acc += 2.0;
            break;
        case 3:
            acc *= 1.5;
        case 4:
            if (gl_FragCoord.x > 20.0)
                break;
            acc -= 4.0;
            break;
        default:
            acc += float(s) * 0.25;
        }
    }
    color = vec4(acc, float(s), exp2(acc * 0.1), log2(acc + 10.0));
}
