#version 330
// Julia set: a data-dependent loop whose trip count varies from pixel to pixel.
uniform vec2 WinSize;
uniform vec2 C;
uniform int MaxIter;
out vec4 color;
void main()
{
    vec2 z = (gl_FragCoord.xy / WinSize - 0.5) * vec2(3.2, 2.4);
    int i;
    for (i = 0; i < MaxIter; i++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + C;
        if (dot(z, z) > 4.0)
            break;
    }
    float t = float(i) / float(MaxIter);
    color = vec4(t, t * t, sqrt(t), dot(z, z));
}
