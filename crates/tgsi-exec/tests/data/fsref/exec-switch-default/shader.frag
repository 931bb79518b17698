#version 130
void main() {
    int s = int(gl_FragCoord.x) % 9 - 2;
    int t = int(gl_FragCoord.y) & 3;
    float acc = 1.0;
    switch (s) {
    case -2:
        acc += 10.0;
    case 0:
        acc *= 3.0;
        break;
    default:
        acc -= 0.5;
    case 4:
        acc += 100.0;
        switch (t) {
        case 1:
            acc = -acc;
            break;
        case 2:
        case 3:
            acc *= 0.25;
        }
        break;
    case 5:
        acc = 7.0;
    case 6:
        acc += gl_FragCoord.y;
    }
    gl_FragColor = vec4(acc, float(s), float(t), 0.0);
}
