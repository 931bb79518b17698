#version 330
// Texture-heavy code: per pixel 4 dependent lookups into a warp texture, each driving a
// trilinear sample and an explicit-LOD sample of a mipmapped colour texture, plus a
// texelFetch from level 1.
uniform vec2 WinSize;
uniform sampler2D Tex;
uniform sampler2D Warp;
out vec4 color;
void main()
{
    vec2 uv = gl_FragCoord.xy / WinSize;
    vec4 acc = vec4(0.0);
    for (int k = 0; k < 4; k++) {
        vec2 off = texture(Warp, uv * 0.5 + float(k) * 0.1).xy - 0.5;
        acc += texture(Tex, uv * 2.0 + off * 0.1 + vec2(float(k) * 0.03));
        acc += textureLod(Tex, uv + off, float(k) * 0.5);
    }
    acc += texelFetch(Tex, ivec2(gl_FragCoord.xy) & 63, 1);
    color = acc;
}
