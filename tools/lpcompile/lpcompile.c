/*
 * lpcompile: how long Mesa's driver takes to make a GLSL shader runnable, for comparing
 * with the tgsi JIT's compile time (scripts/bench-render.sh). Mesa 22.3 as packaged by
 * Debian is a release build without GALLIVM_DEBUG=perf or LP_DEBUG, so the time is taken
 * from outside: llvmpipe compiles a fragment shader's code (and the draw module's vertex
 * code) at the first draw that needs it, so the first draw's time less the fastest of the
 * next draws is that compile; a compute shader's first dispatch likewise. The GLSL front
 * end's work (compile and link to NIR) is timed on its own, as `link_ms`.
 *
 *   lpcompile (-f shader.frag | -c shader.comp) [-r REPEATS]
 *
 * Prints one JSON line: {"link_ms":L,"first_ms":F,"steady_ms":S,"compile_ms":F-S}, each
 * the median over REPEATS (default 5) fresh programs. Fragment shaders draw one
 * triangle over a 16x16 RGBA32F target with an RGBA8 64x64 mipmapped, linearly filtered
 * texture on units 0-3 (a sampling shader's code depends on the bound formats); compute
 * shaders dispatch one workgroup with 64 KiB storage buffers on bindings 0-7. Run with
 * GALLIUM_DRIVER=llvmpipe (or softpipe) and MESA_SHADER_CACHE_DISABLE=true (llvmpipe
 * keeps compiled shaders on disk otherwise).
 *
 * Build: cc -O2 -o lpcompile lpcompile.c -lEGL -lOpenGL (Debian: libegl-dev libgl-dev).
 * Exit status 0 on success, 1 on failure (stderr says which), 2 on usage errors.
 */
#define TOOL_NAME "lpcompile"
#include "../common/gl_tool.h"
#include <time.h>

#define MAX_REPEATS 64
#define STEADY_RUNS 5

static double now_ms(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The vertex shader of a fragment case: one triangle over the target, from gl_VertexID,
 * in the fragment shader's GLSL version. */
static char *vertex_source(const char *frag)
{
   char version[64] = "#version 330";
   if (strncmp(frag, "#version", 8) == 0) {
      size_t n = strcspn(frag, "\n");
      if (n >= sizeof version)
         n = sizeof version - 1;
      memcpy(version, frag, n);
      version[n] = 0;
   }
   static char out[512];
   snprintf(out, sizeof out,
            "%s\nvoid main() {\n"
            "  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
            "  gl_Position = vec4(p, 0.0, 1.0);\n}\n",
            version);
   return out;
}

static int compare(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

static double median(double *v, int n)
{
   qsort(v, n, sizeof *v, compare);
   return v[n / 2];
}

int main(int argc, char **argv)
{
   const char *frag = NULL, *comp = NULL;
   int repeats = 5;
   for (int i = 1; i < argc; i++) {
      if (i + 1 >= argc)
         usage("an option lacks its value");
      if (!strcmp(argv[i], "-f"))
         frag = argv[++i];
      else if (!strcmp(argv[i], "-c"))
         comp = argv[++i];
      else if (!strcmp(argv[i], "-r"))
         repeats = atoi(argv[++i]);
      else
         usage("unknown option");
   }
   if (!frag == !comp)
      usage("give one of -f and -c");
   if (repeats < 1 || repeats > MAX_REPEATS)
      usage("-r must be 1 to 64");

   make_context(EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT);

   long size;
   const char *source = read_file(frag ? frag : comp, &size);
   GLuint vao;
   glGenVertexArrays(1, &vao);
   glBindVertexArray(vao);
   if (frag) {
      GLuint target, fbo;
      glGenTextures(1, &target);
      glBindTexture(GL_TEXTURE_2D, target);
      glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 16, 16);
      glGenFramebuffers(1, &fbo);
      glBindFramebuffer(GL_FRAMEBUFFER, fbo);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
      if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
         fail("the RGBA32F target is not complete");
      glViewport(0, 0, 16, 16);
      static unsigned char texels[64 * 64 * 4];
      for (unsigned i = 0; i < sizeof texels; i++)
         texels[i] = (unsigned char)(i * 37);
      for (int unit = 0; unit < 4; unit++) {
         GLuint t;
         glActiveTexture(GL_TEXTURE0 + unit);
         glGenTextures(1, &t);
         glBindTexture(GL_TEXTURE_2D, t);
         glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                      texels);
         glGenerateMipmap(GL_TEXTURE_2D);
         glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
         glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      }
   } else {
      static unsigned char zeros[65536];
      for (int b = 0; b < 8; b++) {
         GLuint buffer;
         glGenBuffers(1, &buffer);
         glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, buffer);
         glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof zeros, zeros, GL_DYNAMIC_COPY);
      }
   }
   glFinish();

   double link[MAX_REPEATS], first[MAX_REPEATS], steady[MAX_REPEATS];
   for (int r = 0; r < repeats; r++) {
      double t0 = now_ms();
      GLuint program = glCreateProgram();
      if (frag) {
         glAttachShader(program, compile_shader(GL_VERTEX_SHADER, vertex_source(source), "the vertex shader"));
         glAttachShader(program, compile_shader(GL_FRAGMENT_SHADER, source, frag));
      } else {
         glAttachShader(program, compile_shader(GL_COMPUTE_SHADER, source, comp));
      }
      link_program(program);
      glUseProgram(program);
      glFinish();
      double t1 = now_ms();
      double runs[STEADY_RUNS + 1];
      for (int k = 0; k <= STEADY_RUNS; k++) {
         double s = now_ms();
         if (frag)
            glDrawArrays(GL_TRIANGLES, 0, 3);
         else
            glDispatchCompute(1, 1, 1);
         glFinish();
         runs[k] = now_ms() - s;
      }
      if (glGetError() != GL_NO_ERROR)
         fail("a GL error in the draws");
      link[r] = t1 - t0;
      first[r] = runs[0];
      steady[r] = runs[1];
      for (int k = 2; k <= STEADY_RUNS; k++)
         if (runs[k] < steady[r])
            steady[r] = runs[k];
      glUseProgram(0);
      glDeleteProgram(program);
   }
   double f = median(first, repeats), s = median(steady, repeats);
   printf("{\"link_ms\":%.3f,\"first_ms\":%.3f,\"steady_ms\":%.3f,\"compile_ms\":%.3f}\n",
          median(link, repeats), f, s, f - s);
   return 0;
}
