#version 330
#extension GL_ARB_gpu_shader_fp64 : require
// Doubles: a deep-zoom Mandelbrot iteration in double precision (DADD/DMUL/DFMA/
// comparisons and double<->float conversions). fsref's uniforms file has no double
// types, so the view is given by double constants.
const dvec2 Center = dvec2(-0.743643887037151LF, 0.131825904205330LF);
const double Scale = 0.00012LF;
uniform vec2 WinSize;
uniform int MaxIter;
out vec4 color;
void main()
{
    dvec2 c = Center + dvec2(gl_FragCoord.xy - 0.5 * WinSize) * (Scale / double(WinSize.y));
    dvec2 z = dvec2(0.0);
    int i;
    for (i = 0; i < MaxIter; i++) {
        z = dvec2(z.x * z.x - z.y * z.y, 2.0LF * z.x * z.y) + c;
        if (dot(z, z) > 4.0LF)
            break;
    }
    float t = float(i) / float(MaxIter);
    color = vec4(t, float(z.x), float(z.y), float(dot(z, z)));
}
