#version 330
// Derivatives: an analytic-antialiased pattern (grid lines, rings, checker) whose
// filter widths come from dFdx/dFdy/fwidth of non-linear functions of the position.
uniform vec2 WinSize;
uniform float Zoom;
out vec4 color;

float aaStep(float edge, float x)
{
    float w = fwidth(x);
    return smoothstep(edge - w, edge + w, x);
}

void main()
{
    vec2 p = (gl_FragCoord.xy - 0.5 * WinSize) / WinSize.y * Zoom;
    // A non-linear warp so that derivatives differ from quad to quad.
    vec2 q = p + 0.3 * vec2(sin(p.y * 2.1 + p.x * p.x), cos(p.x * 1.7 - p.y * p.y));
    vec2 g = abs(fract(q) - 0.5);
    vec2 gw = fwidth(q);
    float lines = min(smoothstep(0.0, 1.5 * gw.x, g.x), smoothstep(0.0, 1.5 * gw.y, g.y));
    float r = length(q);
    float rings = aaStep(0.5, fract(r * 3.0));
    vec2 cq = floor(q * 2.0);
    vec2 cf = fract(q * 2.0) - 0.5;
    float cw = length(vec2(dFdx(cf.x), dFdy(cf.y))) + 1e-6;
    float checker = mod(cq.x + cq.y, 2.0);
    float edge = clamp(min(abs(cf.x), abs(cf.y)) / cw, 0.0, 1.0);
    vec2 grad = vec2(dFdx(r), dFdy(r));
    vec3 n = normalize(vec3(-grad * 40.0, 1.0));
    float shade = dot(n, normalize(vec3(0.3, 0.5, 0.8)));
    color = vec4(mix(0.5, checker, edge) * lines, rings * shade, length(gw) * 50.0,
                 dFdx(shade) + dFdy(lines));
}
