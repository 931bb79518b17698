#version 330
// Mandelbrot set with smooth (continuous escape-time) colouring: a data-dependent
// loop followed by log2/cos work on the escaped pixels only.
uniform vec2 WinSize;
uniform vec2 Center;
uniform float Scale;
uniform int MaxIter;
out vec4 color;
void main()
{
    vec2 c = Center + (gl_FragCoord.xy - 0.5 * WinSize) * (Scale / WinSize.y);
    vec2 z = vec2(0.0);
    int i;
    for (i = 0; i < MaxIter; i++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        if (dot(z, z) > 256.0)
            break;
    }
    vec3 col = vec3(0.0);
    if (i < MaxIter) {
        float nu = float(i) + 1.0 - log2(log2(dot(z, z)) * 0.5);
        float t = nu * 0.05;
        col = 0.5 + 0.5 * cos(6.2831853 * (vec3(0.0, 0.33, 0.67) + t));
    }
    color = vec4(col, float(i));
}
