#version 110
uniform vec2 WinSize;
uniform sampler1D t0;
uniform sampler2D t1;
uniform sampler3D t2;
uniform samplerCube t3;
uniform sampler2DShadow t4;
uniform sampler1DShadow t5;
void main()
{
   vec2 p = gl_FragCoord.xy / WinSize;
   int band = int(min(floor(gl_FragCoord.x / 8.0), 5.0));
   vec4 c;
   if (band == 0) c = texture1DProj(t0, vec2(p.x, 0.5 + p.y));
   else if (band == 1) c = texture2DProj(t1, vec4(p * 2.0, 0.0, 1.0 + p.x), p.y * 2.0 - 1.0);
   else if (band == 2) c = texture3DProj(t2, vec4(p, p.x * p.y, 0.75));
   else if (band == 3) c = textureCube(t3, vec3(p * 2.0 - 1.0, -0.5), p.x);
   else if (band == 4) c = shadow2DProj(t4, vec4(p, p.y, 1.0 + p.x));
   else c = shadow1D(t5, vec3(p.x, 0.0, p.y));
   gl_FragColor = c;
}
