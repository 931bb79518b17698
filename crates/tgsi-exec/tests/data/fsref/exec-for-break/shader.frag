#version 330
out vec4 color;
uniform int n;
void main() {
    vec2 c = gl_FragCoord.xy / 16.0 - vec2(1.5, 1.0);
    vec2 z = vec2(0.0);
    int k;
    for (k = 0; k < n; k++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        if (dot(z, z) > 4.0)
            break;
    }
    color = vec4(float(k), z, dot(z, z));
}
