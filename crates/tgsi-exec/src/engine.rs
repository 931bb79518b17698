//! The engine interface: what runs one wave of a compiled [`Program`]. The interpreter is
//! one engine ([`Interpreter`]); `tgsi-jit` supplies another. The drivers (fragment
//! rendering, vertex runs) take any engine, so every engine gets the same inputs, constants,
//! resources and budget, and its results can be compared word for word.

use crate::compile::Program;
use crate::machine::{Env, ExecError, Machine};

/// Lanes per wave of the fragment and vertex drivers (four 2×2 quads).
pub const WAVE: usize = 16;

/// Something that runs a wave of a program.
pub trait WaveEngine: Sync {
    /// The program it runs (the drivers read its declarations and sizes).
    fn program(&self) -> &Program;

    /// Run the program once over `m`, like [`Machine::run_lanes`]: temporaries, outputs and
    /// address registers start at zero, inputs and system values are as set, only the lanes
    /// in `active` execute. Returns the lanes not discarded.
    fn run_wave(&self, m: &mut Machine<WAVE>, env: &Env, active: u32) -> Result<u32, ExecError>;
}

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
}
