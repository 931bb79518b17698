//! Every vertex shader of `../shared/corpus/mesa/vs` run on the GPU (tgsi-naga's
//! translation as a compute shader over storage buffers) and on the interpreter, with the
//! same inputs and constants: 67 vertices (two workgroups, the second partly used) of
//! deterministic values in [−2, 2) for every declared input and constant register. Every
//! output word must agree within [`ULP_TOL`] / [`ABS_TOL`] (a float apart by either, NaNs
//! of any payload alike), except in the shaders of [`EXPLAINED`], whose differences are
//! reported. Skips without an adapter or corpus.

mod common;

use std::path::Path;

use common::{
    corpus_shaders, file_name, generated, generated_constants, gpu, shared, worst_float, Tally,
};
use tgsi_exec::{run_vertices, Program, VertexInput, VertexOptions};

/// Largest ULP distance of an output float.
const ULP_TOL: u64 = 64;
/// Or largest absolute difference.
const ABS_TOL: f32 = 1e-5;

/// Shaders whose outputs may differ more, and why.
const EXPLAINED: &[(&str, &str)] = &[
    (
        "0130fda1cad9f46a.tgsi",
        "every vertex adds to one atomic counter and reads it back: what each reads depends \
         on the order the vertices run in",
    ),
    (
        "05ca48029710b72a.tgsi",
        "indirect TEMP indices from constants, which here are float bits read as integers, \
         far out of range: the interpreter drops such writes and reads zero, the translation \
         clamps the index (naga's Restrict policy)",
    ),
];

const VERTICES: usize = 67;

/// The options: inputs and constants for every declared register.
fn options(program: &Program, shader: &tgsi::Shader) -> VertexOptions {
    let inputs = (0..program.register_counts()[1] as u32)
        .map(|i| {
            VertexInput::PerVertex(
                (0..VERTICES as u32)
                    .map(|v| std::array::from_fn(|c| generated(i, 4 * v + c as u32)))
                    .collect(),
            )
        })
        .collect();
    let constants = generated_constants(shader);
    VertexOptions {
        count: VERTICES,
        inputs,
        constants,
        ..VertexOptions::default()
    }
}

/// How one shader compared.
enum Outcome {
    /// Every output word equal.
    Identical,
    /// Within tolerance.
    Within,
    /// The worst difference.
    Differs(String),
}

/// How one shader compares.
fn run(gpu: &tgsi_gpu::Gpu, path: &Path) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let shader = tgsi::parse(&text).map_err(|e| format!("parse: {}", e.message))?;
    let program = Program::compile(&shader).map_err(|e| format!("compile: {e}"))?;
    let opts = options(&program, &shader);
    let want = run_vertices(&program, &opts).map_err(|e| format!("interpreter: {e}"))?;
    let got =
        tgsi_gpu::run_vertices(gpu, &shader, &program, &opts).map_err(|e| format!("gpu: {e}"))?;
    if got.values == want.values {
        return Ok(Outcome::Identical);
    }
    let got_floats = got
        .values
        .iter()
        .flatten()
        .flatten()
        .map(|&w| f32::from_bits(w));
    let want_floats = want
        .values
        .iter()
        .flatten()
        .flatten()
        .map(|&w| f32::from_bits(w));
    let per_vertex = 4 * want.decls.len();
    Ok(
        match worst_float(got_floats, want_floats, ULP_TOL, ABS_TOL) {
            None => Outcome::Within,
            Some((u, abs, i, g, w)) => Outcome::Differs(format!(
                "vertex {} output {} channel {}: gpu {g:e}, interpreter {w:e}: {u} ulp, abs {abs:e}",
                i / per_vertex,
                i % per_vertex / 4,
                i % 4
            )),
        },
    )
}

#[test]
fn corpus_vertex_shaders_match_the_interpreter() {
    let Some(gpu) = gpu() else { return };
    let paths = corpus_shaders("mesa", "vs");
    if paths.is_empty() {
        eprintln!(
            "skipped: no corpus at {}",
            shared().join("corpus/mesa/vs").display()
        );
        return;
    }
    let mut tally = Tally::new(&["identical", "within tolerance", "explained differences"]);
    for path in &paths {
        let name = file_name(path);
        match run(&gpu, path) {
            Ok(Outcome::Identical) => tally.count("identical"),
            Ok(Outcome::Within) => tally.count("within tolerance"),
            Ok(Outcome::Differs(diff)) => tally.differs(&name, &diff, EXPLAINED),
            Err(e) => tally.error(&name, &e),
        }
    }
    tally.finish("vs", paths.len());
}
