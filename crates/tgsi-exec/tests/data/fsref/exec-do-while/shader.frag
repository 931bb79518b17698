#version 330
out vec4 color;
void main() {
    float x = gl_FragCoord.x * 0.25;
    float y = gl_FragCoord.y;
    int i = 0;
    do {
        x = x * 1.5 - 0.3;
        i++;
    } while (x < y && i < 60);
    int j = 100;
    float w = 0.0;
    do {
        w += 1.0 / float(j);
        j -= 7;
    } while (j > int(gl_FragCoord.y) * 3);
    color = vec4(x, float(i), w, float(j));
}
