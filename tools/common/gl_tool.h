/*
 * What the repository's small OpenGL tools share (tools/glrun, tools/lpcompile): failing
 * with a message, reading a file, a surfaceless EGL display with an OpenGL 4.5 context,
 * compiling shaders and linking programs. Define TOOL_NAME (the tool's name, for messages) before including it; the
 * including file needs nothing else beyond -lEGL -lOpenGL.
 */
#ifndef GL_TOOL_H
#define GL_TOOL_H

#define GL_GLEXT_PROTOTYPES 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print "TOOL_NAME: message" and exit with status 1. */
static inline void fail(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, TOOL_NAME ": ");
   vfprintf(stderr, fmt, ap);
   fprintf(stderr, "\n");
   va_end(ap);
   exit(1);
}

/* A usage error: exit with status 2. */
static inline void usage(const char *why)
{
   fprintf(stderr, TOOL_NAME ": %s (see the comment at the top of " TOOL_NAME ".c)\n", why);
   exit(2);
}

/* The bytes of `path`, NUL-terminated; their count in *size. */
static inline char *read_file(const char *path, long *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      fail("cannot open %s", path);
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *data = malloc(n + 1);
   if (!data || fread(data, 1, n, f) != (size_t)n)
      fail("cannot read %s", path);
   data[n] = 0;
   fclose(f);
   *size = n;
   return data;
}

/* Make an OpenGL 4.5 context of `profile` (EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT or
 * EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT) current on a surfaceless EGL display. */
static inline void make_context(EGLint profile)
{
   EGLDisplay display =
      eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
   if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL))
      fail("no surfaceless EGL display (Mesa's libegl-mesa0)");
   eglBindAPI(EGL_OPENGL_API);
   EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                              EGL_OPENGL_BIT, EGL_NONE};
   EGLConfig config;
   EGLint configs = 0;
   if (!eglChooseConfig(display, config_attribs, &config, 1, &configs) || configs < 1)
      fail("no EGL config for OpenGL");
   EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK, profile, EGL_NONE};
   EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
   if (context == EGL_NO_CONTEXT ||
       !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
      fail("no OpenGL 4.5 %s context (softpipe needs MESA_GL_VERSION_OVERRIDE=4.5)",
           profile == EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT ? "core" : "compatibility");
}

/* A compiled shader of `type` from `source`; `what` names it in the failure message. */
static inline GLuint compile_shader(GLenum type, const char *source, const char *what)
{
   GLuint s = glCreateShader(type);
   glShaderSource(s, 1, &source, NULL);
   glCompileShader(s);
   GLint ok;
   glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      char log[4096];
      glGetShaderInfoLog(s, sizeof log, NULL, log);
      fail("%s does not compile:\n%s", what, log);
   }
   return s;
}

/* Link `program` (its shaders attached) or fail with the log. */
static inline void link_program(GLuint program)
{
   glLinkProgram(program);
   GLint ok;
   glGetProgramiv(program, GL_LINK_STATUS, &ok);
   if (!ok) {
      char log[4096];
      glGetProgramInfoLog(program, sizeof log, NULL, log);
      fail("the program does not link:\n%s", log);
   }
}

#endif
