#version 330
// A long straight-line ALU chain: matrix products, normalisation and Blinn-Phong
// lighting from four lights, with no loops left after unrolling and no branches.
uniform vec2 WinSize;
uniform mat4 Model;
uniform mat4 View;
uniform mat3 NormalMat;
uniform vec4 LightPos[4];
uniform vec3 LightCol[4];
out vec4 color;
void main()
{
    vec2 uv = gl_FragCoord.xy / WinSize * 2.0 - 1.0;
    float z = sqrt(max(1.0 - dot(uv, uv) * 0.5, 0.0));
    vec4 obj = vec4(uv, z, 1.0);
    vec4 world = Model * obj;
    vec4 eye = View * world;
    vec3 n = normalize(NormalMat * normalize(vec3(uv, z)));
    vec3 v = normalize(-eye.xyz);
    vec3 c = vec3(0.02);
    for (int k = 0; k < 4; k++) {
        vec3 lp = (View * LightPos[k]).xyz;
        vec3 l = lp - eye.xyz;
        float d2 = dot(l, l);
        l *= inversesqrt(d2);
        vec3 h = normalize(l + v);
        float diff = max(dot(n, l), 0.0);
        float spec = pow(max(dot(n, h), 0.0), 24.0);
        c += LightCol[k] * (diff + spec) / (1.0 + 0.1 * d2);
    }
    mat3 tone = mat3(0.8, 0.1, 0.1, 0.1, 0.8, 0.1, 0.1, 0.1, 0.8);
    c = tone * c;
    c = c / (c + 1.0);
    color = vec4(pow(c, vec3(1.0 / 2.2)), world.w + eye.z);
}
