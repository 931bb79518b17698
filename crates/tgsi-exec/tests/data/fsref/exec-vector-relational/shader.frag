#version 330
out vec4 color;
uniform float fv[32];
void main() {
    int x = int(gl_FragCoord.x) & 31, y = int(gl_FragCoord.y) & 31;
    vec4 a = vec4(fv[x], fv[(x + 1) & 31], fv[(x + 5) & 31], fv[(x + 9) & 31]);
    vec4 b = vec4(fv[y], fv[(y + 3) & 31], fv[(y + 7) & 31], fv[(y + 11) & 31]);
    ivec4 ia = ivec4(x, y, x ^ y, x - y);
    bvec4 lt = lessThan(a, b), ge = greaterThanEqual(a, b);
    bvec4 eq = equal(ia & 3, ivec4(1, 2, 0, 3)), ne = notEqual(uvec4(ia), uvec4(7u));
    int bits = (any(lt) ? 1 : 0) | (all(lt) ? 2 : 0) | (any(not(ge)) ? 4 : 0) | (all(not(ge)) ? 8 : 0) |
               (any(eq) ? 16 : 0) | (all(ne) ? 32 : 0) | (any(equal(lt, ge)) ? 64 : 0);
    vec4 m = mix(vec4(-1.0), vec4(float(bits)), lt);
    color = m + vec4(not(eq)) * 0.5;
}
