//! `--engine`: which executor runs a shader. `jit` (the default) compiles fragment and vertex
//! shaders with Cranelift and runs everything else, or any shader the JIT does not compile,
//! on the interpreter, saying so on stderr; `interp` always uses the interpreter; `gpu` runs
//! tgsi-naga's translation through wgpu on a Vulkan device (fragment, vertex and compute
//! shaders, see [`crate::gpu`]).

use std::time::{Duration, Instant};

use crate::input::Failure;
use tgsi_exec::{Interpreter, Program, WaveEngine};

/// An executor choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineChoice {
    /// The reference interpreter.
    Interp,
    /// The Cranelift JIT, where it compiles the shader (else the interpreter).
    Jit,
    /// The tgsi-naga translation on a Vulkan GPU through wgpu (e.g. Mesa's lavapipe).
    Gpu,
}

impl EngineChoice {
    /// The name printed in reports.
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Interp => "interp",
            EngineChoice::Jit => "jit",
            EngineChoice::Gpu => "gpu",
        }
    }
}

/// `--approx-math`, for the commands that offer the JIT.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct MathArgs {
    /// JIT only: compute EX2, LG2, SIN and COS with vector approximations instead of
    /// glibc's functions lane by lane (POW stays exact). Faster where those opcodes
    /// dominate; their results are then no longer bit-identical to the interpreter and
    /// softpipe (error bounds: EX2 and LG2 within 2 ULP, EX2 flushing results below
    /// 2^-125.5 to zero; SIN and COS within 2^-22 for |x| <= 65536; see the README).
    #[arg(long)]
    pub approx_math: bool,
}

impl MathArgs {
    /// The JIT's options.
    fn jit_options(self) -> tgsi_jit::Options {
        tgsi_jit::Options {
            approximate_math: self.approx_math,
            ..Default::default()
        }
    }

    /// Refuse `--approx-math` for an engine other than the JIT.
    pub fn check(self, choice: EngineChoice) -> Result<(), Failure> {
        if self.approx_math && choice != EngineChoice::Jit {
            return Err(Failure::Io(format!(
                "--approx-math applies to --engine jit only, not {}",
                choice.name()
            )));
        }
        Ok(())
    }
}

/// A ready-to-run engine.
pub enum Engine<'a> {
    /// The interpreter.
    Interp(Interpreter<'a>),
    /// The JIT (or its interpreter fallback).
    Jit(Box<tgsi_jit::Engine>),
}

impl Engine<'_> {
    /// The engine as the drivers take it.
    pub fn wave(&self) -> &dyn WaveEngine {
        match self {
            Engine::Interp(i) => i,
            Engine::Jit(j) => j.as_ref(),
        }
    }

    /// Whether the JIT was asked for but the interpreter runs the shader.
    pub fn fell_back(&self) -> bool {
        matches!(self, Engine::Jit(j) if !j.is_compiled())
    }

    /// The JIT's compile time so far: a program with loops compiles a second form once it
    /// has run a while (`tgsi_jit::Options::tuning`). Zero for the interpreter.
    pub fn jit_compile_time(&self) -> Duration {
        match self {
            Engine::Interp(_) => Duration::ZERO,
            Engine::Jit(j) => j.compile_time(),
        }
    }
}

/// Prepare `choice` for `program` (the JIT with `math`), returning it and its compile time. A JIT fallback is
/// reported on stderr, naming the file. The GPU engine is no wave engine: commands that
/// offer it handle it before calling this, so here it is an error naming the stage.
pub fn prepare<'a>(
    choice: EngineChoice,
    math: MathArgs,
    program: &'a Program,
    name: &str,
) -> Result<(Engine<'a>, Duration), Failure> {
    Ok(match choice {
        EngineChoice::Gpu => return Err(crate::gpu::unsupported_stage(program.processor)),
        EngineChoice::Interp => (Engine::Interp(Interpreter(program)), Duration::ZERO),
        EngineChoice::Jit => {
            let start = Instant::now();
            let jit = tgsi_jit::Engine::with_options(program.clone(), math.jit_options());
            let time = start.elapsed();
            if let Some(why) = jit.fallback_reason() {
                eprintln!("{name}: note: running on the interpreter: {why}");
            }
            (Engine::Jit(Box::new(jit)), time)
        }
    })
}
