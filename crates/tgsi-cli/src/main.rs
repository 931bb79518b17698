//! The `tgsi` command line: format, check, inspect, assemble and disassemble TGSI shaders.

// The commands' help texts are their doc comments (clap), written for a terminal: register
// names such as `COLOR[N]` or `SVIEW[i]` there are not links.
#![allow(rustdoc::broken_intra_doc_links)]

mod allocator;
mod commands;
mod engine;
mod gpu;
mod input;
mod resources;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use input::Failure;

const EXAMPLES: &str = "\
Examples:
  tgsi fmt shader.tgsi                  print the canonical (Mesa tgsi_dump) form
  tgsi fmt --check shaders/*.tgsi       list files that are not canonical (exit 1 if any)
  tgsi fmt --hex-floats shader.tgsi     lossless print: FLT32 immediates as raw bits
  tgsi check shader.tgsi                validate; diagnostics on stderr
  tgsi info --json shader.tgsi          what a driver wants to know, as JSON
  tgsi asm shader.tgsi -o shader.bin    text -> Mesa token words (little-endian u32)
  tgsi disasm shader.bin                token words -> text
  tgsi render shader.tgsi -o out.png    run a fragment shader per pixel (JIT), write a PNG
  tgsi render s.tgsi -o a.png --engine interp   the same on the reference interpreter
  tgsi render s.tgsi -o a.png --engine gpu      the same on a Vulkan GPU (wgpu; lavapipe)
  tgsi run vs.tgsi --input IN[0]=pos.f32  run a vertex shader per vertex, print its outputs
  tgsi run gs.tgsi --count 4            run a geometry shader over 4 input primitives
  tgsi run vs.tgsi tcs.tgsi tes.tgsi --patch-vertices 3 --input IN[0]=p.f32  tessellate patches
  tgsi bench shader.tgsi --size 256x256  how fast a shader runs, interpreter and JIT
  tgsi translate shader.tgsi --to spirv -o shader.spv  translate through naga
  cat shader.tgsi | tgsi check -        read from stdin

Exit status: 0 valid (warnings allowed), 1 invalid input, 2 usage or I/O error.";

/// TGSI (Gallium shader IR) tools: parse, print, validate, assemble.
#[derive(Parser)]
#[command(name = "tgsi", version, about = "TGSI (Gallium shader IR) tools: format, validate, inspect, assemble, render, run", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print shaders in Mesa's canonical text form (byte-identical to tgsi_dump).
    Fmt(commands::fmt::FmtArgs),
    /// Validate shaders: every rule of the spec, with positions; diagnostics on stderr.
    Check {
        /// Shader files (text or tokens); `-` reads stdin.
        #[arg(required = true)]
        files: Vec<String>,
        /// Print errors only, not warnings.
        #[arg(short, long)]
        quiet: bool,
        /// Treat inputs as token streams.
        #[arg(long)]
        tokens: bool,
        /// Accept opcodes and register files of older spec versions (SUB, RES…), which the
        /// interpreter runs but Mesa tokens cannot hold; without it they are errors.
        #[arg(long)]
        legacy: bool,
    },
    /// Describe shaders: registers, opcodes, inputs/outputs, features.
    Info {
        /// Shader files (text or tokens); `-` reads stdin.
        #[arg(required = true)]
        files: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Treat inputs as token streams.
        #[arg(long)]
        tokens: bool,
    },
    /// Assemble text into Mesa token words (little-endian u32).
    Asm {
        /// Input shader.
        file: String,
        /// Output file (`-` for stdout).
        #[arg(short, long)]
        output: String,
        /// Treat the input as a token stream.
        #[arg(long)]
        tokens: bool,
    },
    /// Render a fragment shader to a PNG (and/or exact RGBA32F) on the reference interpreter.
    ///
    /// The shader runs once per pixel of a WxH grid in 2x2 quads (top-left pixel at an even
    /// column and even memory row; memory row 0 is the top). POSITION = (x+0.5, y+0.5, 0.5, 1)
    /// (no +0.5 with FS_COORD_PIXEL_CENTER INTEGER); y counts from the top for UPPER_LEFT and
    /// from the bottom for LOWER_LEFT. Other inputs are constants from --input (default 0);
    /// FACE is front-facing. Discarded pixels keep the --clear colour.
    #[command(
        after_help = "Examples:\n  tgsi render examples/plasma.tgsi -o plasma.png\n  tgsi render shader.tgsi --size 64x64 --consts consts.txt --clear=-1,-2,-3,-4 --raw out.f32\n\nConstants file: one vector per line, `CONST[b][i] = v0 v1 v2 v3` (`CONST[i]` = buffer 0);\nvalues are float literals or 0x raw 32-bit words; `#` starts a comment."
    )]
    Render(commands::render::RenderArgs),
    /// Run a vertex, geometry or compute shader, or a chain of stages, on the reference
    /// interpreter.
    ///
    /// Vertex shaders: lanes are consecutive vertices (4 per quad, as the draw module feeds
    /// softpipe). Each --input sets one IN register: from a file of little-endian f32 vec4s,
    /// one per vertex (the vertex count comes from the files, which must agree), or a
    /// constant for every vertex. Inputs not given read 0. System values: VERTEXID = index +
    /// --base-vertex, VERTEXID_NOBASE = index, BASEVERTEX, INSTANCEID = --instance (x
    /// channel, as integers). Prints one line per vertex and output register, or writes them
    /// all with -o.
    ///
    /// Geometry shaders: --count P input primitives of GS_INPUT_PRIMITIVE (V vertices each);
    /// an --input file holds one vec4 per input vertex, primitive after primitive (vertex v
    /// of primitive p is entry p*V + v). A PRIM_ID input holds p, SV PRIMID p and
    /// INVOCATIONID the invocation. Each primitive runs alone (all GS_INVOCATIONS back to
    /// back), as softpipe does. Prints every emitted primitive of every stream with its
    /// vertices' outputs; -o writes the vertices of --stream N, --primitives their
    /// primitives' vertex counts. Where softpipe departs from the spec the spec is followed:
    /// GS_MAX_OUTPUT_VERTICES counts every vertex of an invocation on all streams, the end
    /// of an invocation closes every stream's primitive.
    ///
    /// Chained stages (VS.tgsi GS.tgsi --prim MODE): the vertex shader over --count vertices,
    /// primitive assembly as MODE, the geometry shader on the outputs linked by semantic;
    /// -o then writes the stream decomposed into independent primitives, as transform
    /// feedback captures it. --consts vs=FILE / gs=FILE give each stage its constants.
    ///
    /// Tessellation chains (VS.tgsi [TCS.tgsi] TES.tgsi [GS.tgsi] --patch-vertices N; each
    /// file's processor header says its stage): the vertex shader over the vertices, patch p
    /// = draw vertices p*N .. p*N+N-1 (through --indices for an indexed draw), --instances
    /// times; the control shader once per patch (one invocation per output vertex, outputs
    /// shared, BARRIER honoured), the D3D11 tessellator in 16.16 fixed point with llvmpipe's
    /// vertex order, the evaluation shader per domain point, the geometry shader per
    /// tessellated primitive. Without a control shader the levels are --tess-outer and
    /// --tess-inner. Prints every captured primitive; -o writes the last stage's outputs per
    /// vertex in primitive order, as transform feedback captures them. --consts tcs=FILE /
    /// tes=FILE give those stages their constants.
    ///
    /// Compute shaders: one dispatch of --grid workgroups of --block threads.
    #[command(
        after_help = "Examples:\n  tgsi run examples/transform.vert.tgsi --input IN[0]=positions.f32 --input IN[1]=1,0,0,1 --consts matrix.txt\n  tgsi run shader.tgsi --count 6 --instance 2 --base-vertex=-1 --hex\n  tgsi run shader.tgsi --input IN[0]=positions.f32 -o outputs.bin\n  tgsi run gs.tgsi --count 4 --input IN[0]=triangle-vertices.f32\n  tgsi run gs.tgsi --count 4 --input IN[0]=v.f32 --stream 1 -o s1.bin --primitives s1.len\n  tgsi run vs.tgsi gs.tgsi --prim triangle_strip --count 6 --input IN[0]=pos.f32 -o tf.bin\n  tgsi run vs.tgsi tcs.tgsi tes.tgsi --patch-vertices 3 --input IN[0]=pos.f32 -o tf.bin\n  tgsi run vs.tgsi tes.tgsi --patch-vertices 4 --count 8 --tess-outer 4,4,4,4 --tess-inner 3,3\n  tgsi run cs.tgsi --grid 4,2,1 --bindings buffers.json\n\nOutput lines: `vertex 0 OUT[0] POSITION: 1.0000 2.0000 3.0000 1.0000`; geometry shaders\nprint `stream 0 primitive 0 (triangle_strip, input primitive 0, invocation 0): 3 vertices`\nbefore each primitive's vertex lines, tessellation chains `primitive 0 (triangles): 3 vertices`.\n-o writes little-endian u32 words: vertex-major, then output registers in index order, x y z w\n(geometry: the vertices of one stream ordered by input primitive, invocation, emission).\n--primitives writes one little-endian u32 per emitted primitive of that stream: its vertex count.\nConstants file: one vector per line, `CONST[b][i] = v0 v1 v2 v3` (`CONST[i]` = buffer 0);\nvalues are float literals or 0x raw 32-bit words; `#` starts a comment."
    )]
    Run(commands::run::RunArgs),
    /// Time a fragment shader (Mpix/s) or a compute shader (us per dispatch).
    ///
    /// Renders or dispatches repeatedly after one warm-up run until --min-time seconds have
    /// passed, timing execution only (not process start, parsing, binding or writing).
    /// Takes the options of `render` (size, constants, inputs, bindings, textures) and, for
    /// compute shaders, of `run` (grid, block, shared bytes). One thread by default, the
    /// fair comparison with softpipe; scripts/bench-render.sh and scripts/bench-texture.sh
    /// measure Mesa in the same run.
    #[command(
        after_help = "Examples:\n  tgsi bench examples/plasma.tgsi --size 256x256\n  tgsi bench shader.tgsi --consts consts.txt --bindings b.json --threads 2 --json\n  tgsi bench kernel.tgsi --grid 64,1,1 --block 64,1,1 --bindings b.json\n  tgsi bench shader.tgsi --engine gpu\n\nText: `interp  threads 1:   12.345 Mpix/s, compile 0.123 ms (...)`.\n--json: one object per engine with engine, threads, mpix_per_s (or us_per_dispatch and\nminvocations_per_s), compile_ms, runs and seconds."
    )]
    Bench(commands::bench::BenchArgs),
    /// Translate a vertex, fragment or compute shader through naga into SPIR-V, WGSL, GLSL,
    /// MSL or HLSL; a geometry or tessellation shader into a GLSL geometry or tessellation
    /// shader.
    ///
    /// naga's validator checks the module first (naga has no geometry or tessellation
    /// stages: such a shader is translated as a compute function that the GLSL stage is
    /// written around; with --geometry-as-compute or --tessellation-as-compute it becomes a
    /// compute shader for any target). A statement that cannot be translated is
    /// an error naming it with its position. Registers are `vec4<u32>` variables; bindings:
    /// CONST[d] group 0 binding d; SVIEW[i] group 1 binding i, SAMP[i] group 1 binding
    /// 128+i; IMAGE[i] group 2 binding i, BUFFER[i] group 2 binding 64+i. Varyings:
    /// GENERIC[n] at location n, TEXCOORD[n] 32+n, COLOR[n] 40+n (fragment outputs: n),
    /// BCOLOR[n] 42+n, FOG 44.
    #[command(
        after_help = "Examples:\n  tgsi translate shader.tgsi --to spirv -o shader.spv\n  tgsi translate shader.tgsi --to glsl --glsl-version 310 --es\n  tgsi translate shader.tgsi --to hlsl --shader-model 6.0\n  tgsi translate gs.tgsi --to glsl -o gs.geom\n  tgsi translate vs.tgsi tcs.tgsi tes.tgsi fs.tgsi --to glsl -o pipeline/"
    )]
    Translate(commands::translate::TranslateArgs),
    /// Disassemble Mesa token words into canonical text.
    Disasm {
        /// Input token file (little-endian u32 words).
        file: String,
        /// Output file (`-` for stdout).
        #[arg(short, long, default_value = "-")]
        output: String,
        /// Print FLT32 immediates as 0x raw bits (lossless).
        #[arg(long)]
        hex_floats: bool,
    },
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Fmt(args) => commands::fmt::run(&args),
        Command::Asm {
            file,
            output,
            tokens,
        } => commands::asm::asm(&file, &output, tokens),
        Command::Disasm {
            file,
            output,
            hex_floats,
        } => commands::asm::disasm(&file, &output, hex_floats),
        Command::Check {
            files,
            quiet,
            tokens,
            legacy,
        } => commands::check::run(&files, tokens, quiet, legacy),
        Command::Info {
            files,
            json,
            tokens,
        } => commands::info::run(&files, tokens, json),
        Command::Render(args) => commands::render::run(&args),
        Command::Run(args) => commands::run::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Translate(args) => commands::translate::run(&args),
    }
}

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid) => ExitCode::from(1),
        Err(Failure::Io(message)) => {
            eprintln!("tgsi: error: {message}");
            ExitCode::from(2)
        }
    }
}
