#version 330
out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int acc = 0;
    int iters = 0;
    bool done = false;
    for (int i = 0; i < 8 && !done; i++) {
        if (i == (p.x & 7))
            continue;
        for (int j = 0; j < 8; j++) {
            bool stop = false;
            for (int k = 0; k < 8; k++) {
                iters++;
                if (k > j)
                    break;
                acc += i * 64 + j * 8 + k;
                if (acc > p.y * 40 + p.x) {
                    stop = true;
                    break;
                }
            }
            if (stop) {
                if (j > 5)
                    done = true;
                break;
            }
        }
    }
    color = vec4(float(acc), float(iters), done ? 1.0 : 0.0, float(acc % 97));
}
