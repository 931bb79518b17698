/*
 * stageref: references and timings for the geometry and tessellation stages on Mesa's
 * Gallium drivers (GALLIUM_DRIVER=softpipe or llvmpipe), through GL 4.5 on a surfaceless
 * EGL context with rasterizer discard and transform feedback of the last stage.
 *
 *   stageref coords PRIM SPACING ORDER POINTS O0 O1 O2 O3 I0 I1 OUT.bin
 *       One patch of one vertex, no control shader, the default levels O0..O3 / I0 I1
 *       (glPatchParameterfv); the evaluation shader (PRIM = triangles|quads|isolines,
 *       SPACING = equal_spacing|fractional_even_spacing|fractional_odd_spacing,
 *       ORDER = cw|ccw, POINTS = 0|1) captures gl_TessCoord as a vec3 per vertex.
 *       Writes the captured bytes and prints "generated N".
 *
 *   stageref time MODE COUNT PATCH_VERTICES SECONDS VARYINGS VS TCS TES GS
 *       Draws COUNT vertices as MODE (a GL mode name without GL_, e.g. triangles, patches)
 *       from GLSL files (TCS, TES, GS may be "-"), capturing the comma-separated VARYINGS
 *       of the last stage, again and again for at least SECONDS after one warm-up draw.
 *       Every active attribute is a vec4 of varied floats. Prints one JSON line: driver
 *       draws, seconds, primitives generated per draw, captured vertices per draw.
 *
 * Build: ./build.sh (Debian 12: build-essential libegl-dev libgl-dev).
 */
#define TOOL_NAME "stageref"
#include "../common/gl_tool.h"
#include <time.h>

/* A 4.5 core context drawing with rasterizer discard. */
static void context(void)
{
   make_context(EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT);
   /* Draws need a complete framebuffer even with rasterizer discard. */
   GLuint fbo, rb;
   glGenFramebuffers(1, &fbo);
   glBindFramebuffer(GL_FRAMEBUFFER, fbo);
   glGenRenderbuffers(1, &rb);
   glBindRenderbuffer(GL_RENDERBUFFER, rb);
   glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
   glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
   GLuint vao;
   glGenVertexArrays(1, &vao);
   glBindVertexArray(vao);
   glEnable(GL_RASTERIZER_DISCARD);
}

static char *slurp(const char *path)
{
   long n;
   return read_file(path, &n);
}

static void attach(GLuint prog, GLenum stage, const char *source)
{
   glAttachShader(prog, compile_shader(stage, source, "a shader"));
}

static void link(GLuint prog, int n, const char **varyings)
{
   glTransformFeedbackVaryings(prog, n, varyings, GL_INTERLEAVED_ATTRIBS);
   link_program(prog);
   glUseProgram(prog);
}

/* The transform-feedback primitive of the last stage. */
static GLenum captured_primitive(GLuint prog, int has_gs, int has_tes)
{
   GLint v;
   if (has_gs) {
      glGetProgramiv(prog, GL_GEOMETRY_OUTPUT_TYPE, &v);
      return v == GL_POINTS ? GL_POINTS : v == GL_LINE_STRIP ? GL_LINES : GL_TRIANGLES;
   }
   if (has_tes) {
      glGetProgramiv(prog, GL_TESS_GEN_POINT_MODE, &v);
      if (v)
         return GL_POINTS;
      glGetProgramiv(prog, GL_TESS_GEN_MODE, &v);
      return v == GL_ISOLINES ? GL_LINES : GL_TRIANGLES;
   }
   fail("no geometry or tessellation stage");
   return 0;
}

/* One draw with capture into `buffer`; the primitives generated. */
static GLuint draw(GLenum mode, GLenum captured, int count)
{
   GLuint q, generated = 0;
   glGenQueries(1, &q);
   glBeginQuery(GL_PRIMITIVES_GENERATED, q);
   glBeginTransformFeedback(captured);
   glDrawArrays(mode, 0, count);
   glEndTransformFeedback();
   glEndQuery(GL_PRIMITIVES_GENERATED);
   glGetQueryObjectuiv(q, GL_QUERY_RESULT, &generated);
   glDeleteQueries(1, &q);
   return generated;
}

static GLuint capture_buffer(size_t bytes)
{
   GLuint buf;
   glGenBuffers(1, &buf);
   glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
   glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_READ);
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
   return buf;
}

static int coords(char **argv)
{
   const char *prim = argv[0], *spacing = argv[1], *order = argv[2];
   int points = atoi(argv[3]);
   GLfloat outer[4], inner[2];
   for (int i = 0; i < 4; i++)
      outer[i] = (GLfloat)atof(argv[4 + i]);
   for (int i = 0; i < 2; i++)
      inner[i] = (GLfloat)atof(argv[8 + i]);
   context();
   char tes[512];
   snprintf(tes, sizeof tes,
            "#version 450 core\nlayout(%s, %s, %s%s) in;\nout vec3 coord;\n"
            "void main() { coord = gl_TessCoord; gl_Position = vec4(gl_TessCoord, 1.0); }\n",
            prim, spacing, order, points ? ", point_mode" : "");
   GLuint prog = glCreateProgram();
   attach(prog, GL_VERTEX_SHADER,
          "#version 450 core\nvoid main() { gl_Position = vec4(0.0); }\n");
   attach(prog, GL_TESS_EVALUATION_SHADER, tes);
   const char *varyings[] = {"coord"};
   link(prog, 1, varyings);
   glPatchParameteri(GL_PATCH_VERTICES, 1);
   glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL, outer);
   glPatchParameterfv(GL_PATCH_DEFAULT_INNER_LEVEL, inner);
   size_t bytes = 64u << 20;
   capture_buffer(bytes);
   GLuint generated = draw(GL_PATCHES, captured_primitive(prog, 0, 1), 1);
   GLint per = points ? 1 : !strcmp(prim, "isolines") ? 2 : 3;
   size_t used = (size_t)generated * (size_t)per * 12;
   if (used > bytes)
      fail("capture overflow");
   void *data = glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)used,
                                 GL_MAP_READ_BIT);
   FILE *f = fopen(argv[10], "wb");
   if (!f || (used && fwrite(data, 1, used, f) != used))
      fail("cannot write %s", argv[10]);
   fclose(f);
   printf("generated %u\n", generated);
   return 0;
}

static double now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static GLenum mode_by_name(const char *name)
{
   static const struct {
      const char *name;
      GLenum mode;
   } modes[] = {
      {"points", GL_POINTS},
      {"lines", GL_LINES},
      {"line_strip", GL_LINE_STRIP},
      {"triangles", GL_TRIANGLES},
      {"triangle_strip", GL_TRIANGLE_STRIP},
      {"lines_adjacency", GL_LINES_ADJACENCY},
      {"triangles_adjacency", GL_TRIANGLES_ADJACENCY},
      {"patches", GL_PATCHES},
   };
   for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
      if (!strcmp(name, modes[i].name))
         return modes[i].mode;
   fail("unknown mode %s", name);
   return 0;
}

static int timing(char **argv)
{
   GLenum mode = mode_by_name(argv[0]);
   int count = atoi(argv[1]), patch_vertices = atoi(argv[2]);
   double seconds = atof(argv[3]);
   char *list = strdup(argv[4]);
   const char *varyings[16];
   int nvar = 0;
   for (char *v = strtok(list, ","); v && nvar < 16; v = strtok(NULL, ","))
      varyings[nvar++] = v;
   context();
   GLuint prog = glCreateProgram();
   static const GLenum stages[] = {GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER,
                                   GL_TESS_EVALUATION_SHADER, GL_GEOMETRY_SHADER};
   for (int s = 0; s < 4; s++)
      if (strcmp(argv[5 + s], "-"))
         attach(prog, stages[s], slurp(argv[5 + s]));
   link(prog, nvar, varyings);
   GLenum captured = captured_primitive(prog, strcmp(argv[8], "-") != 0,
                                        strcmp(argv[7], "-") != 0);
   if (mode == GL_PATCHES)
      glPatchParameteri(GL_PATCH_VERTICES, patch_vertices);
   /* Every active attribute: a vec4 per vertex of varied floats in [-1, 1). */
   GLint nattr;
   glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTES, &nattr);
   float *data = malloc((size_t)count * 16);
   for (GLint a = 0; a < nattr; a++) {
      char name[256];
      GLint size;
      GLenum type;
      glGetActiveAttrib(prog, (GLuint)a, sizeof name, NULL, &size, &type, name);
      GLint loc = glGetAttribLocation(prog, name);
      if (loc < 0)
         continue;
      for (int i = 0; i < count * 4; i++)
         data[i] = (float)(((unsigned)(i * 2654435761u + (unsigned)a * 97u) >> 8) % 2000) / 1000.0f - 1.0f;
      GLuint buf;
      glGenBuffers(1, &buf);
      glBindBuffer(GL_ARRAY_BUFFER, buf);
      glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)count * 16, data, GL_STATIC_DRAW);
      glVertexAttribPointer((GLuint)loc, 4, GL_FLOAT, GL_FALSE, 0, NULL);
      glEnableVertexAttribArray((GLuint)loc);
   }
   capture_buffer(512u << 20);
   GLuint generated = draw(mode, captured, count);
   GLint written_vertices = 0;
   int draws = 0;
   double start = now(), elapsed = 0;
   while (elapsed < seconds) {
      if (draw(mode, captured, count) != generated)
         fail("draws generate different primitive counts");
      draws++;
      elapsed = now() - start;
   }
   written_vertices = (GLint)generated * (captured == GL_POINTS ? 1 : captured == GL_LINES ? 2 : 3);
   const char *driver = getenv("GALLIUM_DRIVER");
   printf("{\"driver\": \"%s\", \"draws\": %d, \"seconds\": %.6f, \"primitives\": %u, "
          "\"captured_vertices\": %d}\n",
          driver ? driver : "default", draws, elapsed, generated, written_vertices);
   return 0;
}

int main(int argc, char **argv)
{
   if (argc == 13 && !strcmp(argv[1], "coords"))
      return coords(argv + 2);
   if (argc == 11 && !strcmp(argv[1], "time"))
      return timing(argv + 2);
   fprintf(stderr,
           "usage: stageref coords PRIM SPACING ORDER POINTS O0 O1 O2 O3 I0 I1 OUT.bin\n"
           "       stageref time MODE COUNT PATCH_VERTICES SECONDS VARYINGS VS TCS TES GS\n");
   return 2;
}
