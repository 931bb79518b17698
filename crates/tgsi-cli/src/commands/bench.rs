//! `tgsi bench`: how fast a shader runs, per engine (`--engine interp|jit|gpu|all`). A
//! fragment shader is rendered repeatedly at a given size, a compute shader dispatched
//! repeatedly, after one warm-up run, until at least `--min-time` seconds have passed. Only
//! execution is timed: process start, parsing, binding resources and writing images are
//! not. Compile time (lowering, plus code generation for the JIT; translation and pipeline
//! creation for the GPU) is measured on its own. A GPU frame includes reading the image (or
//! the buffers) back; its thread count is the driver's (lavapipe: `LP_NUM_THREADS`).
//! Several files are a chain of stages, timed on the interpreter by
//! [`super::bench_stages`].

use std::time::{Duration, Instant};

use super::render::{compile, constant_inputs, parse_size, read_consts};
use super::run::DispatchArgs;
use crate::engine::{self, EngineChoice};
use crate::input::{self, Failure};
use crate::resources::ResourceArgs;
use tgsi::Processor;
use tgsi_exec::{Program, RenderOptions};

/// The executors `tgsi bench` can time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engines {
    /// The reference interpreter (`tgsi_exec`).
    Interp,
    /// The Cranelift JIT (`tgsi_jit`; the interpreter where it does not compile the shader).
    Jit,
    /// The naga translation on a Vulkan GPU through wgpu (`tgsi_gpu`).
    Gpu,
    /// The interpreter and the JIT, one after the other.
    All,
}

impl Engines {
    fn list(self) -> &'static [EngineChoice] {
        match self {
            Engines::Interp => &[EngineChoice::Interp],
            Engines::Jit => &[EngineChoice::Jit],
            Engines::Gpu => &[EngineChoice::Gpu],
            Engines::All => &[EngineChoice::Interp, EngineChoice::Jit],
        }
    }
}

/// Options of `tgsi bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Fragment or compute shader (text or tokens); or chained stages, timed on the
    /// interpreter: a vertex then a geometry shader (with --prim), or VS [TCS] TES [GS]
    /// (with --patch-vertices).
    #[arg(required = true, num_args = 1..=4, value_name = "FILE")]
    pub files: Vec<String>,
    /// Chained stages: how the vertices form primitives (as for `tgsi run`).
    #[arg(long, value_name = "MODE")]
    pub prim: Option<String>,
    /// Chained stages: vertices to draw (when no --input file gives the count).
    #[arg(long)]
    pub count: Option<usize>,
    /// Chained tessellation stages: vertices per patch.
    #[arg(long, value_name = "N")]
    pub patch_vertices: Option<usize>,
    /// Fragment shaders: image size.
    #[arg(long, default_value = "256x256")]
    pub size: String,
    /// Executors to time.
    #[arg(long, value_enum, default_value = "all")]
    pub engine: Engines,
    /// Worker threads (1 compares with softpipe, which has one; 0 = all cores).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub math: engine::MathArgs,
    /// Constants file.
    #[arg(long)]
    pub consts: Option<String>,
    /// Fragment shaders: a constant input value, e.g. `--input IN[1]=0.5,0,0,1`; chained
    /// stages: also `IN[i]=FILE` (one f32 vec4 per vertex), as for `tgsi run`.
    #[arg(long = "input", value_name = "IN[i]=x,y,z,w")]
    pub inputs: Vec<String>,
    /// Time at least this many seconds of runs (after the warm-up).
    #[arg(long, default_value_t = 0.5)]
    pub min_time: f64,
    /// Print one JSON object per engine instead of a line of text.
    #[arg(long)]
    pub json: bool,
    /// Treat the input as a token stream.
    #[arg(long)]
    pub tokens: bool,
    #[command(flatten)]
    pub dispatch: DispatchArgs,
    #[command(flatten)]
    pub resources: ResourceArgs,
}

/// What one engine measured.
struct Measurement {
    engine: EngineChoice,
    /// The JIT computed transcendentals approximately (`--approx-math`).
    approx_math: bool,
    /// The JIT was asked for but the interpreter ran the shader.
    fallback: bool,
    threads: usize,
    compile: Duration,
    runs: u64,
    elapsed: Duration,
    /// Pixels per frame (fragment) or invocations per dispatch (compute).
    work: u64,
    /// Compute on the CPU: the lanes per wave the dispatch ran (4 or `tgsi_exec::WAVE`, 32).
    wave_lanes: Option<u32>,
    processor: Processor,
}

impl Measurement {
    fn per_run_us(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e6 / self.runs as f64
    }

    fn mega_per_s(&self) -> f64 {
        self.work as f64 * self.runs as f64 / self.elapsed.as_secs_f64() / 1e6
    }

    fn print(&self, json: bool) {
        let compile_ms = self.compile.as_secs_f64() * 1e3;
        let engine = self.engine.name();
        let fallback = self.fallback;
        let approx_math = self.approx_math;
        let note = match (fallback, approx_math) {
            (true, _) => " (interpreter fallback)",
            (false, true) => " (approximate math)",
            (false, false) => "",
        };
        // The GPU's threads are the driver's (lavapipe: LP_NUM_THREADS, default all cores).
        let threads = match self.engine {
            EngineChoice::Gpu => "driver".to_string(),
            _ => self.threads.to_string(),
        };
        let threads_json = match self.engine {
            EngineChoice::Gpu => "null".to_string(),
            _ => self.threads.to_string(),
        };
        let (runs, seconds) = (self.runs, self.elapsed.as_secs_f64());
        let lanes_json = self
            .wave_lanes
            .map_or("null".to_string(), |n| n.to_string());
        let lanes = self
            .wave_lanes
            .map_or(String::new(), |n| format!(", {n}-lane waves"));
        match (self.processor, json) {
            (Processor::Compute, true) => println!(
                "{{\"engine\":\"{engine}\",\"fallback\":{fallback},\"approx_math\":{approx_math},\"threads\":{threads_json},\"us_per_dispatch\":{:.3},\"minvocations_per_s\":{:.4},\"wave_lanes\":{lanes_json},\"compile_ms\":{compile_ms:.4},\"runs\":{runs},\"seconds\":{seconds:.4}}}",
                self.per_run_us(),
                self.mega_per_s()
            ),
            (Processor::Compute, false) => println!(
                "{engine:7} threads {threads}: {:10.1} us/dispatch, {:8.3} M invocations/s{lanes}, compile {compile_ms:.3} ms ({runs} dispatches in {seconds:.2} s){note}",
                self.per_run_us(),
                self.mega_per_s()
            ),
            (_, true) => println!(
                "{{\"engine\":\"{engine}\",\"fallback\":{fallback},\"approx_math\":{approx_math},\"threads\":{threads_json},\"mpix_per_s\":{:.4},\"compile_ms\":{compile_ms:.4},\"runs\":{runs},\"seconds\":{seconds:.4}}}",
                self.mega_per_s()
            ),
            (_, false) => println!(
                "{engine:7} threads {threads}: {:8.3} Mpix/s, compile {compile_ms:.3} ms ({runs} frames in {seconds:.2} s){note}",
                self.mega_per_s()
            ),
        }
    }
}

/// Run `once` once to warm up, then repeatedly until `min_time` has passed; returns the
/// number of timed runs and their total time.
pub(super) fn repeat(
    min_time: Duration,
    mut once: impl FnMut() -> Result<(), Failure>,
) -> Result<(u64, Duration), Failure> {
    once()?;
    let start = Instant::now();
    let mut runs = 0u64;
    loop {
        once()?;
        runs += 1;
        let elapsed = start.elapsed();
        if elapsed >= min_time {
            return Ok((runs, elapsed));
        }
    }
}

/// Runs `tgsi bench`.
pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    if !(args.min_time.is_finite() && (0.0..=3600.0).contains(&args.min_time)) {
        return Err(Failure::Io(format!(
            "--min-time must be between 0 and 3600 seconds, got {}",
            args.min_time
        )));
    }
    let min_time = Duration::from_secs_f64(args.min_time);
    if args.files.len() > 1 {
        return super::bench_stages::run(args, min_time);
    }
    let input = input::read(&args.files[0])?;
    let shader = input.shader(args.tokens)?;
    let start = Instant::now();
    let program: Program = compile(&input, args.tokens)?;
    let compile_time = start.elapsed();
    let bindings = args.resources.load(&shader)?;
    let name = &input.name;
    for &choice in args.engine.list() {
        let timed = if choice == EngineChoice::Gpu {
            time_gpu(args, &shader, &program, &bindings, min_time, name)?
        } else {
            time_cpu(args, choice, &shader, &program, &bindings, min_time, name)?
        };
        let measurement = Measurement {
            engine: choice,
            approx_math: args.math.approx_math && choice == EngineChoice::Jit && !timed.fallback,
            fallback: timed.fallback,
            threads: args.threads,
            compile: compile_time + timed.compile,
            runs: timed.runs,
            elapsed: timed.elapsed,
            work: timed.work,
            wave_lanes: timed.wave_lanes,
            processor: program.processor,
        };
        measurement.print(args.json);
    }
    Ok(())
}

/// What timing one engine gave.
struct Timed {
    runs: u64,
    elapsed: Duration,
    /// Pixels per frame or invocations per dispatch.
    work: u64,
    /// Compile time beyond lowering (JIT code generation, GPU pipeline creation).
    compile: Duration,
    fallback: bool,
    /// Compute on the CPU: the lanes per wave the dispatch ran.
    wave_lanes: Option<u32>,
}

/// The error for a stage `tgsi bench` does not time.
fn untimed(name: &str, processor: Processor) -> Failure {
    eprintln!(
        "{name}: error: tgsi bench times fragment (FRAG) and compute (COMP) shaders, not {processor}"
    );
    Failure::Invalid
}

/// Times the interpreter or the JIT.
fn time_cpu(
    args: &BenchArgs,
    choice: EngineChoice,
    shader: &tgsi::Shader,
    program: &Program,
    bindings: &tgsi_exec::bindings::Bindings,
    min_time: Duration,
    name: &str,
) -> Result<Timed, Failure> {
    let fail = |e: tgsi_exec::ExecError| {
        eprintln!("{name}: error: {e}");
        Failure::Invalid
    };
    let (engine, jit_time) = engine::prepare(choice, args.math, program, name)?;
    let compiled_before = engine.jit_compile_time();
    let mut lanes = None;
    let (runs, elapsed, work) = match program.processor {
        Processor::Fragment => {
            let options = render_options(args, bindings)?;
            // One image for every frame, as Mesa renders into one surface.
            let mut image = tgsi_exec::Image::default();
            let (runs, elapsed) = repeat(min_time, || {
                tgsi_exec::render_fragment_into(engine.wave(), &options, &mut image).map_err(fail)
            })?;
            (
                runs,
                elapsed,
                u64::from(options.width) * u64::from(options.height),
            )
        }
        Processor::Compute => {
            let mut options =
                args.dispatch
                    .options(shader, bindings, read_consts(args.consts.as_deref())?)?;
            options.threads = args.threads;
            let mut invocations = 0;
            let (runs, elapsed) = repeat(min_time, || {
                let stats = tgsi_exec::run_compute_with(engine.wave(), &options).map_err(fail)?;
                invocations = stats.invocations;
                lanes = Some(stats.wave_lanes);
                Ok(())
            })?;
            (runs, elapsed, invocations)
        }
        other => return Err(untimed(name, other)),
    };
    Ok(Timed {
        runs,
        elapsed,
        work,
        // With what the JIT compiled while the frames ran.
        compile: jit_time + engine.jit_compile_time().saturating_sub(compiled_before),
        fallback: engine.fell_back(),
        wave_lanes: lanes,
    })
}

/// Times the GPU engine.
fn time_gpu(
    args: &BenchArgs,
    shader: &tgsi::Shader,
    program: &Program,
    bindings: &tgsi_exec::bindings::Bindings,
    min_time: Duration,
    name: &str,
) -> Result<Timed, Failure> {
    let gpu = crate::gpu::open()?;
    let fail = |e| crate::gpu::failed(name, e);
    let start = Instant::now();
    let (runs, elapsed, work, compile) = match program.processor {
        Processor::Fragment => {
            let options = render_options(args, bindings)?;
            let renderer =
                tgsi_gpu::Renderer::new(&gpu, shader, program, &options).map_err(fail)?;
            let compile = start.elapsed();
            let (runs, elapsed) = repeat(min_time, || renderer.render().map(drop).map_err(fail))?;
            let work = u64::from(options.width) * u64::from(options.height);
            (runs, elapsed, work, compile)
        }
        Processor::Compute => {
            let options =
                args.dispatch
                    .options(shader, bindings, read_consts(args.consts.as_deref())?)?;
            let dispatcher =
                tgsi_gpu::Dispatcher::new(&gpu, shader, program, &options).map_err(fail)?;
            let compile = start.elapsed();
            let (runs, elapsed) = repeat(min_time, || dispatcher.dispatch().map_err(fail))?;
            let [bx, by, bz] = dispatcher.block.map(u64::from);
            let [gx, gy, gz] = options.grid.map(u64::from);
            (runs, elapsed, bx * by * bz * gx * gy * gz, compile)
        }
        other => return Err(untimed(name, other)),
    };
    Ok(Timed {
        runs,
        elapsed,
        work,
        compile,
        fallback: false,
        wave_lanes: None,
    })
}

/// The render options `tgsi bench` gives a fragment shader.
fn render_options(
    args: &BenchArgs,
    bindings: &tgsi_exec::bindings::Bindings,
) -> Result<RenderOptions, Failure> {
    let (width, height) = parse_size(&args.size)?;
    Ok(RenderOptions {
        width,
        height,
        constants: read_consts(args.consts.as_deref())?,
        inputs: constant_inputs(&args.inputs)?,
        threads: args.threads,
        resources: bindings.resources.clone(),
        ..RenderOptions::default()
    })
}
