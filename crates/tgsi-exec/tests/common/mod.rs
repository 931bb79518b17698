//! Helpers shared by the integration tests: run TGSI text on one quad with per-lane inputs.
// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use tgsi_exec::machine::Reg;
use tgsi_exec::{Env, ExecError, Machine, Program};

/// Compile TGSI text, panicking with the error on failure.
pub fn compile(text: &str) -> Program {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    Program::compile(&shader).unwrap_or_else(|e| panic!("compile: {e}\n{text}"))
}

/// Run `text` on a wave of `N` lanes with `inputs[i]` in `IN[i]`; returns the outputs and
/// the surviving-lane mask.
pub fn run_wave<const N: usize>(
    text: &str,
    inputs: &[Reg<N>],
    consts: &[Vec<[u32; 4]>],
) -> Result<(Vec<Reg<N>>, u32), ExecError> {
    let program = compile(text);
    let mut m = Machine::<N>::new(&program);
    for (r, v) in m.inputs_mut().iter_mut().zip(inputs) {
        *r = *v;
    }
    let env = Env {
        resources: &tgsi_exec::resource::NO_RESOURCES,
        consts,
        budget: 100_000,
        helpers: 0,
    };
    let alive = m.run(&program, &env)?;
    Ok((m.outputs().to_vec(), alive))
}

/// An input register whose four channels hold `lanes[l]` in lane `l`.
pub fn lanes(v: [u32; 4]) -> Reg<4> {
    [v; 4]
}
