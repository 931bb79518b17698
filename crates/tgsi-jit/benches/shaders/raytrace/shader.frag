#version 330
// A small ray tracer: four spheres and a ground plane, a shadow ray per hit and one
// reflection bounce (float ALU with per-pixel divergent branches).
uniform vec2 WinSize;
uniform vec4 Spheres[4];   // xyz centre, w radius
uniform vec3 Albedo[4];
uniform vec3 LightDir;
out vec4 color;

float hitSphere(vec3 ro, vec3 rd, vec4 s)
{
    vec3 oc = ro - s.xyz;
    float b = dot(oc, rd);
    float c = dot(oc, oc) - s.w * s.w;
    float h = b * b - c;
    if (h < 0.0)
        return -1.0;
    return -b - sqrt(h);
}

// Nearest hit: t (or 1e30), normal and albedo.
float trace(vec3 ro, vec3 rd, out vec3 n, out vec3 alb)
{
    float tmin = 1e30;
    n = vec3(0.0);
    alb = vec3(0.0);
    if (rd.y < -1e-4) {
        float tp = (-1.0 - ro.y) / rd.y;
        if (tp > 1e-3) {
            tmin = tp;
            n = vec3(0.0, 1.0, 0.0);
            vec2 q = floor(ro.xz + rd.xz * tp);
            alb = mod(q.x + q.y, 2.0) < 1.0 ? vec3(0.9) : vec3(0.2);
        }
    }
    for (int k = 0; k < 4; k++) {
        float t = hitSphere(ro, rd, Spheres[k]);
        if (t > 1e-3 && t < tmin) {
            tmin = t;
            n = normalize(ro + rd * t - Spheres[k].xyz);
            alb = Albedo[k];
        }
    }
    return tmin;
}

void main()
{
    vec2 p = (2.0 * gl_FragCoord.xy - WinSize) / WinSize.y;
    vec3 ro = vec3(0.0, 0.3, 4.0);
    vec3 rd = normalize(vec3(p, -2.0));
    vec3 acc = vec3(0.0);
    vec3 att = vec3(1.0);
    for (int bounce = 0; bounce < 2; bounce++) {
        vec3 n, alb;
        float t = trace(ro, rd, n, alb);
        if (t > 1e29) {
            acc += att * mix(vec3(0.7, 0.8, 1.0), vec3(0.2, 0.3, 0.6), rd.y * 0.5 + 0.5);
            break;
        }
        vec3 pos = ro + rd * t;
        vec3 sn, salb;
        float shadow = trace(pos + n * 1e-3, LightDir, sn, salb) < 1e29 ? 0.2 : 1.0;
        float diff = max(dot(n, LightDir), 0.0) * shadow;
        float spec = pow(max(dot(reflect(rd, n), LightDir), 0.0), 32.0) * shadow;
        acc += att * (alb * (0.1 + diff) + spec);
        att *= 0.4 * alb;
        ro = pos + n * 1e-3;
        rd = reflect(rd, n);
    }
    color = vec4(acc, 1.0);
}
