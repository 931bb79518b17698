//! The engine interface: what runs one wave of a compiled [`Program`]. The interpreter is
//! one engine ([`Interpreter`]); `tgsi-jit` supplies another. The drivers (fragment
//! rendering, vertex runs, compute dispatches in wide waves) take any engine, so every
//! engine gets the same inputs, constants, resources and budget, and its results can be
//! compared word for word.

use crate::compile::Program;
use crate::machine::{Env, ExecError, Machine, Stop};
use crate::resource::Storage;

/// Lanes per wave of the fragment, vertex and wide compute drivers: eight 2×2 quads.
/// Wider waves spread each instruction's dispatch over more lanes (32 instead of 16 made
/// the interpreter 1.2–1.8× faster on most benchmark shaders); masks are `u32`, so 32 is
/// the widest.
pub const WAVE: usize = 32;

/// Something that runs a wave of a program.
pub trait WaveEngine: Sync {
    /// The program it runs (the drivers read its declarations and sizes).
    fn program(&self) -> &Program;

    /// Run the program once over `m`, like [`Machine::run_lanes`]: temporaries, outputs and
    /// address registers start at zero, inputs and system values are as set, only the lanes
    /// in `active` execute. Returns the lanes not discarded.
    fn run_wave(&self, m: &mut Machine<WAVE>, env: &Env, active: u32) -> Result<u32, ExecError>;

    /// Continue the run prepared by [`Machine::start`] until the program ends or the
    /// wave reaches a barrier, like [`Machine::resume`]; `shared` is the workgroup's
    /// `MEMORY`. The compute driver calls it only for dispatches that run in wide waves,
    /// whose barriers are all outside control flow ([`crate::wave_width`]).
    fn resume_wave(
        &self,
        m: &mut Machine<WAVE>,
        env: &Env,
        shared: Option<&Storage>,
    ) -> Result<Stop, ExecError> {
        m.resume(self.program(), env, shared)
    }

    /// Whether waves run on the interpreter: a compute dispatch whose blocks fill no more
    /// than half a wave then runs on machines of [`HALF_WAVE`] lanes, whose instructions
    /// cost half as much (a compiled engine keeps its own width).
    fn interprets(&self) -> bool {
        false
    }
}

/// Lanes of the interpreter's compute waves for blocks whose quads fill no more.
pub const HALF_WAVE: usize = WAVE / 2;

/// The reference interpreter as a [`WaveEngine`].
#[derive(Clone, Copy, Debug)]
pub struct Interpreter<'a>(pub &'a Program);

impl WaveEngine for Interpreter<'_> {
    fn program(&self) -> &Program {
        self.0
    }

    fn run_wave(&self, m: &mut Machine<WAVE>, env: &Env, active: u32) -> Result<u32, ExecError> {
        m.run_lanes(self.0, env, active)
    }

    fn interprets(&self) -> bool {
        true
    }
}
