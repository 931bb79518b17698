//! `--engine`: which executor runs a shader. `jit` (the default) compiles fragment and vertex
//! shaders with Cranelift and runs everything else, or any shader the JIT does not compile,
//! on the interpreter, saying so on stderr; `interp` always uses the interpreter; `gpu` runs
//! tgsi-naga's translation through wgpu on a Vulkan device (fragment and compute shaders
//! only, see [`crate::gpu`]).

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
}

/// Prepare `choice` for `program`, returning it and its compile time. A JIT fallback is
/// reported on stderr, naming the file. The GPU engine is no wave engine: commands that
/// offer it handle it before calling this, so here it is an error naming the stage.
pub fn prepare<'a>(
    choice: EngineChoice,
    program: &'a Program,
    name: &str,
) -> Result<(Engine<'a>, Duration), Failure> {
    Ok(match choice {
        EngineChoice::Gpu => return Err(crate::gpu::unsupported_stage(program.processor)),
        EngineChoice::Interp => (Engine::Interp(Interpreter(program)), Duration::ZERO),
        EngineChoice::Jit => {
            let start = Instant::now();
            let jit = tgsi_jit::Engine::new(program.clone());
            let time = start.elapsed();
            if let Some(why) = jit.fallback_reason() {
                eprintln!("{name}: note: running on the interpreter: {why}");
            }
            (Engine::Jit(Box::new(jit)), time)
        }
    })
}
