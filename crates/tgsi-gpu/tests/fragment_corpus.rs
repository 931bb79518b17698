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

use common::{gpu, shared, ulps};
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

/// A deterministic value in [−2, 2) for (seed, k).
fn value(seed: u32, k: u32) -> u32 {
    let mut x = seed.wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b);
    x ^= x >> 15;
    x = x.wrapping_mul(0xc2b2_ae35);
    x ^= x >> 13;
    ((x >> 8) as f32 / (1 << 24) as f32 * 4.0 - 2.0).to_bits()
}

/// The options: an input and constants for every declared register.
fn options(program: &Program, shader: &tgsi::Shader) -> RenderOptions {
    let inputs = (0..program.register_counts()[1] as u32)
        .map(|i| std::array::from_fn(|c| value(i, c as u32)))
        .collect();
    let mut constants: Vec<Vec<[u32; 4]>> = Vec::new();
    for d in shader
        .declarations
        .iter()
        .filter(|d| d.file == tgsi::File::Constant)
    {
        let buffer = d.dimension.unwrap_or(0) as usize;
        if constants.len() <= buffer {
            constants.resize(buffer + 1, Vec::new());
        }
        let regs = &mut constants[buffer];
        let len = (d.last as usize + 1).min(4096);
        if regs.len() < len {
            let start = regs.len() as u32;
            regs.extend(
                (start..len as u32).map(|r| {
                    std::array::from_fn(|c| value(1000 + buffer as u32, 4 * r + c as u32))
                }),
            );
        }
    }
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
    let mut worst: Option<(u64, f32, usize, usize, f32, f32)> = None;
    for (p, (g, w)) in got.pixels.iter().zip(&want.pixels).enumerate() {
        for c in 0..4 {
            let (a, b) = (g[c], w[c]);
            let u = ulps(a, b);
            // A NaN difference (a NaN against a number) is never close.
            let close = (a - b).abs() <= ABS_TOL;
            if u > ULP_TOL && !close && worst.is_none_or(|x| u > x.0) {
                worst = Some((u, (a - b).abs(), p, c, a, b));
            }
        }
    }
    Ok(match worst {
        None => Outcome::Within,
        Some((u, abs, p, c, a, b)) => Outcome::Differs(format!(
            "pixel {p} channel {c}: gpu {a:e}, interpreter {b:e}: {u} ulp, abs {abs:e}"
        )),
    })
}

#[test]
fn corpus_fragment_shaders_match_the_interpreter() {
    let Some(gpu) = gpu() else { return };
    let dir = shared().join("corpus/mesa/fs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "tgsi"));
    paths.sort();
    if paths.is_empty() {
        eprintln!("skipped: no corpus at {}", dir.display());
        return;
    }
    let (mut identical, mut within, mut explained, mut not_run, mut endless) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in &paths {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        match run(&gpu, path) {
            Ok(Outcome::Identical) => identical += 1,
            Ok(Outcome::Within) => within += 1,
            Ok(Outcome::Endless) => endless += 1,
            Ok(Outcome::NotRun(why)) => {
                not_run += 1;
                eprintln!("not run {name}: {why}");
            }
            Ok(Outcome::Differs(diff)) => match EXPLAINED.iter().find(|(n, _)| *n == name) {
                Some((_, why)) => {
                    explained += 1;
                    eprintln!("explain {name}: {diff}: {why}");
                }
                None => failures.push(format!("DIFF  {name}: {diff}")),
            },
            Err(e) => failures.push(format!("ERROR {name}: {e}")),
        }
    }
    eprintln!(
        "fs: {} shaders: {identical} identical, {within} within tolerance, {explained} \
         explained differences, {not_run} not run by the gpu engine, {endless} past the \
         interpreter's budget with these inputs, {} unexplained differences or errors",
        paths.len(),
        failures.len()
    );
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} shaders failed", failures.len());
}
