//! Every fragment shader of `../shared/corpus/mesa/fs` rendered on the GPU and on the
//! interpreter at 8×8 with the same inputs and constants: deterministic values in [−2, 2)
//! for every declared input (constant over the image: the GPU engine's varyings are flat)
//! and constant register. Every pixel's `COLOR[0]` must agree within [`ULP_TOL`] /
//! [`ABS_TOL`] (NaNs of any payload alike), except in the shaders of [`EXPLAINED`], whose
//! differences are reported; shaders the GPU engine does not run are counted with the
//! reason, and those that loop past the interpreter's budget with these inputs are counted
//! and not run on the GPU. Skips without an adapter or corpus.

mod common;

use std::path::Path;

use common::{
    corpus_shaders, file_name, generated, generated_constants, gpu, shared, worst_float, Tally,
};
use tgsi_exec::{render_fragment, Program, RenderOptions};

/// Largest ULP distance of an output float.
const ULP_TOL: u64 = 64;
/// Or largest absolute difference.
const ABS_TOL: f32 = 1e-5;

/// Shaders whose outputs may differ more, and why.
const EXPLAINED: &[(&str, &str)] = &[
    (
        "22ccc73295fe0d71.tgsi",
        "TXQ of an unbound view: the GPU engine binds a 1×1 zero texture (one level), the \
         interpreter reports zeros",
    ),
    (
        "136fe25b6269a865.tgsi",
        "every pixel adds to one atomic counter and reads it back: what each reads depends \
         on the order the pixels run in",
    ),
];

/// The options: an input and constants for every declared register.
fn options(program: &Program, shader: &tgsi::Shader) -> RenderOptions {
    let inputs = (0..program.register_counts()[1] as u32)
        .map(|i| std::array::from_fn(|c| generated(i, c as u32)))
        .collect();
    let constants = generated_constants(shader);
    RenderOptions {
        width: 8,
        height: 8,
        inputs,
        constants,
        clear: [-1.0, -2.0, -3.0, -4.0],
        // Enough for every loop the corpus runs to its end with these inputs.
        budget: 1 << 22,
        ..RenderOptions::default()
    }
}

/// How one shader compared.
enum Outcome {
    /// Every pixel's words equal.
    Identical,
    /// Within tolerance.
    Within,
    /// The worst difference.
    Differs(String),
    /// The GPU engine does not run it, and why.
    NotRun(String),
    /// With these inputs it loops past the interpreter's instruction budget (a loop count
    /// read from a constant, say), so there is nothing to compare.
    Endless,
}

/// How one shader compares.
fn run(gpu: &tgsi_gpu::Gpu, path: &Path) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let shader = tgsi::parse(&text).map_err(|e| format!("parse: {}", e.message))?;
    let program = Program::compile(&shader).map_err(|e| format!("compile: {e}"))?;
    let opts = options(&program, &shader);
    let want = match render_fragment(&program, &opts) {
        Ok(image) => image,
        Err(tgsi_exec::ExecError::Budget { .. }) => return Ok(Outcome::Endless),
        Err(e) => return Err(format!("interpreter: {e}")),
    };
    let got = match tgsi_gpu::render(gpu, &shader, &program, &opts) {
        Ok(image) => image,
        Err(e @ (tgsi_gpu::Error::Unsupported(_) | tgsi_gpu::Error::Translate(_))) => {
            return Ok(Outcome::NotRun(e.to_string()))
        }
        Err(e) => return Err(format!("gpu: {e}")),
    };
    if got.to_le_bytes() == want.to_le_bytes() {
        return Ok(Outcome::Identical);
    }
    let floats =
        |image: &tgsi_exec::Image| image.pixels.iter().flatten().copied().collect::<Vec<_>>();
    Ok(
        match worst_float(
            floats(&got).into_iter(),
            floats(&want).into_iter(),
            ULP_TOL,
            ABS_TOL,
        ) {
            None => Outcome::Within,
            Some((u, abs, i, a, b)) => Outcome::Differs(format!(
                "pixel {} channel {}: gpu {a:e}, interpreter {b:e}: {u} ulp, abs {abs:e}",
                i / 4,
                i % 4
            )),
        },
    )
}

#[test]
fn corpus_fragment_shaders_match_the_interpreter() {
    let Some(gpu) = gpu() else { return };
    let paths = corpus_shaders("mesa", "fs");
    if paths.is_empty() {
        eprintln!(
            "skipped: no corpus at {}",
            shared().join("corpus/mesa/fs").display()
        );
        return;
    }
    let mut tally = Tally::new(&[
        "identical",
        "within tolerance",
        "explained differences",
        "not run by the gpu engine",
        "past the interpreter's budget with these inputs",
    ]);
    for path in &paths {
        let name = file_name(path);
        match run(&gpu, path) {
            Ok(Outcome::Identical) => tally.count("identical"),
            Ok(Outcome::Within) => tally.count("within tolerance"),
            Ok(Outcome::Endless) => tally.count("past the interpreter's budget with these inputs"),
            Ok(Outcome::NotRun(why)) => {
                eprintln!("not run {name}: {why}");
                tally.count("not run by the gpu engine");
            }
            Ok(Outcome::Differs(diff)) => tally.differs(&name, &diff, EXPLAINED),
            Err(e) => tally.error(&name, &e),
        }
    }
    tally.finish("fs", paths.len());
}
