/*
 * hlslc: compiles HLSL with Slang's compiler library (an HLSL front end and a SPIR-V back
 * end; no DirectX compiler exists for this platform's package sets) and writes the SPIR-V
 * of each file, so tgsi-naga's tests can check the HLSL it writes: a file that compiles has
 * been parsed and type-checked as HLSL, its entry point's signature checked for its stage,
 * and its code lowered to SPIR-V (which spirv-val then checks).
 *
 *   hlslc --lib LIBSLANG --stage STAGE [--target spirv|glsl] [--entry NAME] [--profile P]
 *         [--out-dir DIR] FILE...
 *
 * LIBSLANG: the path of libslang-compiler.so (`.ci/run` takes it from the slangpy wheel on
 * PyPI into target/slang/). STAGE: vertex, fragment, compute, geometry, hull or domain.
 * The entry point is NAME (default "main"); P is a Slang profile (default "spirv_1_3", or
 * "glsl_450" for --target glsl: Slang writes GLSL, which tgsi-naga's tests run on Mesa).
 * All files are compiled in one process (loading Slang's core module once takes most of a
 * second). For each FILE it prints one line, "ok FILE" or "error FILE: first diagnostic",
 * and with --out-dir writes DIR/BASENAME.spv (Slang's OpSource names Slang as the source
 * language, which SPIR-V Tools 2023 does not know; it is dropped) or DIR/BASENAME.glsl. Exit status 0 when every
 * file compiled, 1 when one did not or Slang cannot be loaded, 2 on usage errors.
 *
 * It calls Slang's C entry points (the "deprecated" compile-request API, which has a plain
 * C signature) through dlopen, so it builds with no Slang header: cc -O2 -o hlslc hlslc.c -ldl
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Slang's enumerations, as slang.h numbers them. */
enum { SLANG_TARGET_GLSL = 2, SLANG_TARGET_SPIRV = 6, SLANG_SOURCE_LANGUAGE_HLSL = 2 };

static const struct {
   const char *name;
   int stage;
} stages[] = {
   {"vertex", 1}, {"hull", 2}, {"domain", 3}, {"geometry", 4}, {"fragment", 5}, {"compute", 6},
};

typedef void *(*create_session_fn)(const char *);
typedef void *(*create_request_fn)(void *);
typedef void (*destroy_request_fn)(void *);
typedef void (*set_target_fn)(void *, int);
typedef void (*set_level_fn)(void *, int);
typedef int (*find_profile_fn)(void *, const char *);
typedef void (*set_profile_fn)(void *, int, int);
typedef int (*add_unit_fn)(void *, int, const char *);
typedef void (*add_source_fn)(void *, int, const char *, const char *);
typedef int (*add_entry_fn)(void *, int, const char *, int);
typedef int (*compile_fn)(void *);
typedef const char *(*diagnostics_fn)(void *);
typedef const void *(*entry_code_fn)(void *, int, size_t *);

static struct {
   create_session_fn create_session;
   create_request_fn create_request;
   destroy_request_fn destroy_request;
   set_target_fn set_target;
   set_level_fn set_optimization;
   find_profile_fn find_profile;
   set_profile_fn set_profile;
   add_unit_fn add_unit;
   add_source_fn add_source;
   add_entry_fn add_entry;
   compile_fn compile;
   diagnostics_fn diagnostics;
   entry_code_fn entry_code;
} slang;

static int load(const char *path)
{
   void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   if (!lib) {
      fprintf(stderr, "hlslc: cannot load %s: %s\n", path, dlerror());
      return 0;
   }
#define SYMBOL(field, name)                                                                   \
   if (!(*(void **)&slang.field = dlsym(lib, name))) {                                        \
      fprintf(stderr, "hlslc: %s lacks %s\n", path, name);                                    \
      return 0;                                                                               \
   }
   SYMBOL(create_session, "spCreateSession");
   SYMBOL(create_request, "spCreateCompileRequest");
   SYMBOL(destroy_request, "spDestroyCompileRequest");
   SYMBOL(set_target, "spSetCodeGenTarget");
   SYMBOL(set_optimization, "spSetOptimizationLevel");
   SYMBOL(find_profile, "spFindProfile");
   SYMBOL(set_profile, "spSetTargetProfile");
   SYMBOL(add_unit, "spAddTranslationUnit");
   SYMBOL(add_source, "spAddTranslationUnitSourceString");
   SYMBOL(add_entry, "spAddEntryPoint");
   SYMBOL(compile, "spCompile");
   SYMBOL(diagnostics, "spGetDiagnosticOutput");
   SYMBOL(entry_code, "spGetEntryPointCode");
#undef SYMBOL
   return 1;
}

static char *read_file(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   size_t cap = 1 << 16, n = 0;
   char *text = malloc(cap + 1);
   size_t got;
   while (text && (got = fread(text + n, 1, cap - n, f)) > 0) {
      n += got;
      if (n == cap) {
         cap *= 2;
         char *grown = realloc(text, cap + 1);
         if (!grown)
            free(text);
         text = grown;
      }
   }
   fclose(f);
   if (text)
      text[n] = 0;
   return text;
}

/* The first error diagnostic of Slang's output on one line (warnings skipped). */
static void first_error(const char *log, char *out, size_t size)
{
   const char *line = log ? strstr(log, "error") : NULL;
   if (!line)
      line = log && *log ? log : "failed without a diagnostic";
   size_t n = strcspn(line, "\n");
   const char *at = strchr(line + n, '\n') ? line + n + 1 : NULL;
   /* Slang puts the position on the next line (" --> file:line:col"); keep it. */
   size_t m = 0;
   if (at) {
      at += strspn(at, " ");
      if (strncmp(at, "--> ", 4) == 0)
         m = strcspn(at, "\n");
   }
   snprintf(out, size, "%.*s%s%.*s", (int)n, line, m ? " at " : "", m ? (int)(m - 4) : 0,
            m ? at + 4 : "");
}

/* Writes the SPIR-V words without OpSource (opcode 3) instructions. */
static int write_spirv(const char *path, const uint32_t *words, size_t count)
{
   FILE *f = fopen(path, "wb");
   if (!f)
      return 0;
   size_t i = count < 5 ? count : 5;
   fwrite(words, 4, i, f);
   while (i < count) {
      size_t length = words[i] >> 16;
      if (length == 0 || i + length > count)
         length = count - i;
      if ((words[i] & 0xffff) != 3)
         fwrite(words + i, 4, length, f);
      i += length;
   }
   return fclose(f) == 0;
}

/* Writes Slang's text output. */
static int write_text(const char *path, const char *text, size_t size)
{
   FILE *f = fopen(path, "wb");
   if (!f)
      return 0;
   fwrite(text, 1, size, f);
   return fclose(f) == 0;
}

static int usage(void)
{
   fprintf(stderr, "usage: hlslc --lib LIBSLANG --stage vertex|fragment|compute|geometry|hull|"
                   "domain [--target spirv|glsl] [--entry NAME] [--profile P] [--out-dir DIR] "
                   "FILE...\n");
   return 2;
}

int main(int argc, char **argv)
{
   const char *lib = NULL, *entry = "main", *profile = NULL, *out_dir = NULL;
   int stage = 0, first_file = argc, glsl = 0;
   for (int i = 1; i < argc; i++) {
      if (i + 1 < argc && strcmp(argv[i], "--lib") == 0) {
         lib = argv[++i];
      } else if (i + 1 < argc && strcmp(argv[i], "--entry") == 0) {
         entry = argv[++i];
      } else if (i + 1 < argc && strcmp(argv[i], "--profile") == 0) {
         profile = argv[++i];
      } else if (i + 1 < argc && strcmp(argv[i], "--target") == 0) {
         i++;
         if (strcmp(argv[i], "glsl") == 0)
            glsl = 1;
         else if (strcmp(argv[i], "spirv") != 0)
            return usage();
      } else if (i + 1 < argc && strcmp(argv[i], "--out-dir") == 0) {
         out_dir = argv[++i];
      } else if (i + 1 < argc && strcmp(argv[i], "--stage") == 0) {
         i++;
         for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++)
            if (strcmp(argv[i], stages[s].name) == 0)
               stage = stages[s].stage;
         if (!stage)
            return usage();
      } else if (argv[i][0] == '-') {
         return usage();
      } else {
         first_file = i;
         break;
      }
   }
   if (!lib || !stage || first_file == argc)
      return usage();
   if (!load(lib))
      return 1;
   void *session = slang.create_session(NULL);
   if (!session) {
      fprintf(stderr, "hlslc: Slang gives no session\n");
      return 1;
   }
   if (!profile)
      profile = glsl ? "glsl_450" : "spirv_1_3";
   int profile_id = slang.find_profile(session, profile);
   int failed = 0;
   for (int i = first_file; i < argc; i++) {
      const char *path = argv[i];
      char *source = read_file(path);
      if (!source) {
         printf("error %s: cannot read the file\n", path);
         failed = 1;
         continue;
      }
      void *request = slang.create_request(session);
      slang.set_target(request, glsl ? SLANG_TARGET_GLSL : SLANG_TARGET_SPIRV);
      /* Unoptimised: what Slang made of the HLSL, not what SPIRV-Tools' optimiser makes of
         that (which crashes on a few valid modules). */
      slang.set_optimization(request, 0);
      slang.set_profile(request, 0, profile_id);
      int unit = slang.add_unit(request, SLANG_SOURCE_LANGUAGE_HLSL, "shader");
      slang.add_source(request, unit, path, source);
      slang.add_entry(request, unit, entry, stage);
      int result = slang.compile(request);
      size_t size = 0;
      const void *code = result >= 0 ? slang.entry_code(request, 0, &size) : NULL;
      if (result < 0 || !code) {
         char message[1024];
         first_error(slang.diagnostics(request), message, sizeof message);
         printf("error %s: %s\n", path, message);
         failed = 1;
      } else if (out_dir) {
         const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
         size_t n = strlen(out_dir) + strlen(base) + 7;
         char *out = malloc(n);
         snprintf(out, n, "%s/%s.%s", out_dir, base, glsl ? "glsl" : "spv");
         if (glsl ? !write_text(out, code, size) : !write_spirv(out, code, size / 4)) {
            printf("error %s: cannot write %s\n", path, out);
            failed = 1;
         } else {
            printf("ok %s\n", path);
         }
         free(out);
      } else {
         printf("ok %s\n", path);
      }
      fflush(stdout);
      slang.destroy_request(request);
      free(source);
   }
   return failed;
}
