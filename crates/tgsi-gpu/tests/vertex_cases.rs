//! Every vertex shader of `../shared/corpus/mesa/vs` run on the GPU (tgsi-naga's
//! translation as a compute shader over storage buffers) and on the interpreter, with the
//! same inputs and constants: 67 vertices (two workgroups, the second partly used) of
//! deterministic values in [−2, 2) for every declared input and constant register. Every
//! output word must agree within [`ULP_TOL`] / [`ABS_TOL`] (a float apart by either, NaNs
//! of any payload alike), except in the shaders of [`EXPLAINED`], whose differences are
//! reported. Skips without an adapter or corpus.

mod common;

use std::path::Path;

use common::{gpu, shared, ulps};
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

/// A deterministic value in [−2, 2) for (seed, k).
fn value(seed: u32, k: u32) -> u32 {
    let mut x = seed.wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b);
    x ^= x >> 15;
    x = x.wrapping_mul(0xc2b2_ae35);
    x ^= x >> 13;
    ((x >> 8) as f32 / (1 << 24) as f32 * 4.0 - 2.0).to_bits()
}

const VERTICES: usize = 67;

/// The options: inputs and constants for every declared register.
fn options(program: &Program, shader: &tgsi::Shader) -> VertexOptions {
    let inputs = (0..program.register_counts()[1] as u32)
        .map(|i| {
            VertexInput::PerVertex(
                (0..VERTICES as u32)
                    .map(|v| std::array::from_fn(|c| value(i, 4 * v + c as u32)))
                    .collect(),
            )
        })
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
    let mut worst: Option<(u64, f32, usize, usize, u32, u32)> = None;
    for (v, (g, w)) in got.values.iter().zip(&want.values).enumerate() {
        for (d, (gr, wr)) in g.iter().zip(w).enumerate() {
            for c in 0..4 {
                let (a, b) = (f32::from_bits(gr[c]), f32::from_bits(wr[c]));
                let u = ulps(a, b);
                // A NaN difference (a NaN against a number) is never close.
                let close = (a - b).abs() <= ABS_TOL;
                if u > ULP_TOL && !close && worst.is_none_or(|x| u > x.0) {
                    worst = Some((u, (a - b).abs(), v, d, gr[c], wr[c]));
                }
            }
        }
    }
    Ok(match worst {
        None => Outcome::Within,
        Some((u, abs, v, d, g, w)) => Outcome::Differs(format!(
            "vertex {v} output {d}: gpu {g:#010x} ({}), interpreter {w:#010x} ({}): {u} ulp, \
             abs {abs:e}",
            f32::from_bits(g),
            f32::from_bits(w)
        )),
    })
}

#[test]
fn corpus_vertex_shaders_match_the_interpreter() {
    let Some(gpu) = gpu() else { return };
    let dir = shared().join("corpus/mesa/vs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "tgsi"));
    paths.sort();
    if paths.is_empty() {
        eprintln!("skipped: no corpus at {}", dir.display());
        return;
    }
    let (mut identical, mut within, mut explained, mut failures) = (0, 0, 0, Vec::new());
    for path in &paths {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        match run(&gpu, path) {
            Ok(Outcome::Identical) => identical += 1,
            Ok(Outcome::Within) => within += 1,
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
        "vs: {} shaders: {identical} identical, {within} within tolerance, {explained} \
         explained differences, {} unexplained differences or errors",
        paths.len(),
        failures.len()
    );
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} shaders failed", failures.len());
}
