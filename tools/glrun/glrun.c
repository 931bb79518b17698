/*
 * glrun: one draw through a GLSL program — a vertex shader, optional tessellation
 * shaders, an optional geometry shader — on Mesa's OpenGL with rasterizer discard, writing
 * what transform feedback captured. tgsi-naga's tests run their GLSL stages with it and
 * compare with ../shared/corpus/tessref (on llvmpipe: softpipe has no tessellation) and
 * gsref (on softpipe).
 *
 *   glrun --vs F [--tcs F] [--tes F] [--gs F]
 *         [--draw patches --patch-vertices N --patches P | --draw MODE --count N]
 *         [--instances I] [--attrib LOC:FILE]... [--ubo BINDING:FILE]...
 *         [--default-outer a,b,c,d] [--default-inner a,b]
 *         --mode points|lines|triangles --varying NAME... --out FILE
 *
 * MODE: points, lines, line_strip, lines_adjacency, triangles, triangle_strip,
 * triangles_adjacency (patches, the default, needs --tes). Attribute files hold vec4s of
 * little-endian floats (vertex k at 16·k); UBO files raw bytes. Prints "generated G
 * written W stride S" and writes W primitives' bytes (--mode: the captured primitive).
 * Build: cc -O2 -o glrun glrun.c -lEGL -lOpenGL (Debian: libegl-dev libgl-dev). Choose the
 * driver with GALLIUM_DRIVER (softpipe needs MESA_GL_VERSION_OVERRIDE=4.5 and
 * MESA_GLSL_VERSION_OVERRIDE=450 for a 4.5 context). Exit status 0 on success, 1 on any failure (stderr says
 * which), 2 on usage errors.
 */
#define TOOL_NAME "glrun"
#include "../common/gl_tool.h"

#define MAX_ITEMS 32

static GLuint shader(GLenum type, const char *path)
{
   long n;
   char *source = read_file(path, &n);
   GLuint s = compile_shader(type, source, path);
   free(source);
   return s;
}

/* A new buffer bound to `target` holding the bytes of `path`. */
static GLuint upload(GLenum target, const char *path)
{
   long n;
   char *data = read_file(path, &n);
   GLuint buffer;
   glGenBuffers(1, &buffer);
   glBindBuffer(target, buffer);
   glBufferData(target, n, data, GL_STATIC_DRAW);
   free(data);
   return buffer;
}

/* "N:FILE" */
static const char *split(const char *arg, int *number)
{
   const char *colon = strchr(arg, ':');
   if (!colon)
      usage("expected N:FILE");
   *number = atoi(arg);
   return colon + 1;
}

int main(int argc, char **argv)
{
   const char *vs = NULL, *tcs = NULL, *tes = NULL, *gs = NULL, *out = NULL, *mode = NULL;
   const char *varyings[MAX_ITEMS], *attrib_files[MAX_ITEMS], *ubo_files[MAX_ITEMS];
   int attrib_locs[MAX_ITEMS], ubo_bindings[MAX_ITEMS];
   int n_varyings = 0, n_attribs = 0, n_ubos = 0;
   int patch_vertices = 0, patches = 0, instances = 1, count = 0;
   const char *draw = "patches";
   float outer[4] = {1, 1, 1, 1}, inner[2] = {1, 1};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!v)
         usage("an option without its value");
      i++;
      if (!strcmp(a, "--vs")) vs = v;
      else if (!strcmp(a, "--tcs")) tcs = v;
      else if (!strcmp(a, "--tes")) tes = v;
      else if (!strcmp(a, "--gs")) gs = v;
      else if (!strcmp(a, "--out")) out = v;
      else if (!strcmp(a, "--mode")) mode = v;
      else if (!strcmp(a, "--patch-vertices")) patch_vertices = atoi(v);
      else if (!strcmp(a, "--patches")) patches = atoi(v);
      else if (!strcmp(a, "--draw")) draw = v;
      else if (!strcmp(a, "--count")) count = atoi(v);
      else if (!strcmp(a, "--instances")) instances = atoi(v);
      else if (!strcmp(a, "--default-outer"))
         sscanf(v, "%f,%f,%f,%f", &outer[0], &outer[1], &outer[2], &outer[3]);
      else if (!strcmp(a, "--default-inner"))
         sscanf(v, "%f,%f", &inner[0], &inner[1]);
      else if (!strcmp(a, "--varying") && n_varyings < MAX_ITEMS)
         varyings[n_varyings++] = v;
      else if (!strcmp(a, "--attrib") && n_attribs < MAX_ITEMS) {
         attrib_files[n_attribs] = split(v, &attrib_locs[n_attribs]);
         n_attribs++;
      } else if (!strcmp(a, "--ubo") && n_ubos < MAX_ITEMS) {
         ubo_files[n_ubos] = split(v, &ubo_bindings[n_ubos]);
         n_ubos++;
      } else
         usage("unknown option");
   }
   static const struct { const char *name; GLenum mode; } draws[] = {
      {"patches", GL_PATCHES}, {"points", GL_POINTS}, {"lines", GL_LINES},
      {"line_strip", GL_LINE_STRIP}, {"lines_adjacency", GL_LINES_ADJACENCY},
      {"triangles", GL_TRIANGLES}, {"triangle_strip", GL_TRIANGLE_STRIP},
      {"triangles_adjacency", GL_TRIANGLES_ADJACENCY},
   };
   GLenum draw_mode = GL_PATCHES;
   int known = 0;
   for (unsigned i = 0; i < sizeof draws / sizeof draws[0]; i++)
      if (!strcmp(draw, draws[i].name)) {
         draw_mode = draws[i].mode;
         known = 1;
      }
   if (!known)
      usage("unknown --draw mode");
   if (draw_mode == GL_PATCHES) {
      if (!tes || patch_vertices < 1 || patches < 1)
         usage("a patch draw needs --tes, --patch-vertices and --patches");
      count = patch_vertices * patches;
   }
   if (!vs || !out || !mode || count < 1 || n_varyings == 0)
      usage("--vs, --mode, --varying, --out and a draw (--count or patches) are needed");
   GLenum primitive = !strcmp(mode, "points") ? GL_POINTS
                      : !strcmp(mode, "lines") ? GL_LINES
                                               : GL_TRIANGLES;
   int per_primitive = primitive == GL_POINTS ? 1 : primitive == GL_LINES ? 2 : 3;

   make_context(EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT);
   fprintf(stderr, "glrun: %s\n", (const char *)glGetString(GL_RENDERER));

   /* Mesa draws nothing into an incomplete default framebuffer: bind a 1x1 one. */
   GLuint fbo, rb;
   glGenFramebuffers(1, &fbo);
   glBindFramebuffer(GL_FRAMEBUFFER, fbo);
   glGenRenderbuffers(1, &rb);
   glBindRenderbuffer(GL_RENDERBUFFER, rb);
   glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
   glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);

   GLuint program = glCreateProgram();
   glAttachShader(program, shader(GL_VERTEX_SHADER, vs));
   if (tcs)
      glAttachShader(program, shader(GL_TESS_CONTROL_SHADER, tcs));
   if (tes)
      glAttachShader(program, shader(GL_TESS_EVALUATION_SHADER, tes));
   if (gs)
      glAttachShader(program, shader(GL_GEOMETRY_SHADER, gs));
   glTransformFeedbackVaryings(program, n_varyings, varyings, GL_INTERLEAVED_ATTRIBS);
   link_program(program);
   glUseProgram(program);
   int stride = 0;
   for (int i = 0; i < n_varyings; i++) {
      GLsizei length, size;
      GLenum type;
      char name[256];
      glGetTransformFeedbackVarying(program, i, sizeof name, &length, &size, &type, name);
      int components = type == GL_FLOAT_VEC4 ? 4 : type == GL_FLOAT_VEC3 ? 3
                       : type == GL_FLOAT_VEC2 ? 2 : 1;
      stride += 4 * components * size;
   }

   GLuint vao;
   glGenVertexArrays(1, &vao);
   glBindVertexArray(vao);
   for (int i = 0; i < n_attribs; i++) {
      upload(GL_ARRAY_BUFFER, attrib_files[i]);
      glVertexAttribPointer(attrib_locs[i], 4, GL_FLOAT, GL_FALSE, 16, NULL);
      glEnableVertexAttribArray(attrib_locs[i]);
   }
   for (int i = 0; i < n_ubos; i++)
      glBindBufferBase(GL_UNIFORM_BUFFER, ubo_bindings[i], upload(GL_UNIFORM_BUFFER, ubo_files[i]));
   if (draw_mode == GL_PATCHES) {
      glPatchParameteri(GL_PATCH_VERTICES, patch_vertices);
      glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL, outer);
      glPatchParameterfv(GL_PATCH_DEFAULT_INNER_LEVEL, inner);
   }

   const GLsizeiptr capacity = 64 << 20;
   GLuint tf;
   glGenBuffers(1, &tf);
   glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tf);
   glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, capacity, NULL, GL_STATIC_READ);
   glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf);
   GLuint queries[2];
   glGenQueries(2, queries);
   glEnable(GL_RASTERIZER_DISCARD);
   glBeginQuery(GL_PRIMITIVES_GENERATED, queries[0]);
   glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, queries[1]);
   glBeginTransformFeedback(primitive);
   glDrawArraysInstanced(draw_mode, 0, count, instances);
   glEndTransformFeedback();
   glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
   glEndQuery(GL_PRIMITIVES_GENERATED);
   GLuint generated = 0, written = 0;
   glGetQueryObjectuiv(queries[0], GL_QUERY_RESULT, &generated);
   glGetQueryObjectuiv(queries[1], GL_QUERY_RESULT, &written);
   GLenum error = glGetError();
   if (error != GL_NO_ERROR)
      fail("GL error 0x%x", error);

   long bytes = (long)written * per_primitive * stride;
   if (bytes > capacity)
      fail("%ld bytes captured, more than the buffer", bytes);
   void *captured = glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes ? bytes : 1,
                                     GL_MAP_READ_BIT);
   FILE *f = fopen(out, "wb");
   if (!captured || !f || fwrite(captured, 1, bytes, f) != (size_t)bytes)
      fail("cannot write %s", out);
   fclose(f);
   printf("generated %u written %u stride %d\n", generated, written, stride);
   return 0;
}
