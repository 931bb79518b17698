//! Every tessellation control and evaluation shader of `../shared/corpus/virgl` (TGSI as
//! virgl guests send it) run on the GPU (tgsi-naga's translation as a compute shader) and
//! on the interpreter (`tgsi_exec::tessellation`'s stages), with the same patches and
//! constants: [`PATCHES`] patches of [`PATCH_VERTICES`] vertices whose every input linked by
//! semantic holds deterministic values in [−2, 2), and for the evaluation shaders levels
//! that vary by patch. The control shaders' patches (per-vertex and per-patch outputs and
//! levels) and the evaluation shaders' outputs at every domain point must be the
//! interpreter's within [`ULP_TOL`] / [`ABS_TOL`] (most are identical). Skips without an
//! adapter or corpus.

mod common;

use std::path::Path;

use common::{corpus_shaders, file_name, generated, generated_constants, gpu, worst_float, Tally};
use tgsi::Semantic;
use tgsi_exec::resource::NO_RESOURCES;
use tgsi_exec::tessellation::{ControlStage, EvalStage, Levels, Patch};
use tgsi_exec::{Env, Program, Vertices, DEFAULT_BUDGET};

/// Largest ULP distance of an output float.
const ULP_TOL: u64 = 64;
/// Or largest absolute difference.
const ABS_TOL: f32 = 1e-5;

/// Patches per shader: control shaders run them as one dispatch of several workgroups.
const PATCHES: u32 = 6;

/// Vertices of each input patch.
const PATCH_VERTICES: u32 = 4;

/// The input patch `p` of `program`: every input's semantic linked, per-vertex values and
/// per-patch ones generated, levels between 1 and 4 that differ by patch.
fn patch(program: &Program, p: u32) -> Patch {
    let mut semantics = Vec::new();
    let mut per_patch = Vec::new();
    for d in &program.inputs {
        let semantic = (d.semantic, d.semantic_index);
        if matches!(d.semantic, Semantic::TessOuter | Semantic::TessInner) {
            continue;
        }
        if d.semantic.is_per_patch() {
            let value = std::array::from_fn(|c| generated(500 + d.index, 4 * p + c as u32));
            per_patch.push((semantic, value));
        } else if !semantics.contains(&semantic) {
            semantics.push(semantic);
        }
    }
    let vertices = Vertices::from_fn(semantics.len(), PATCH_VERTICES as usize, |v, s| {
        std::array::from_fn(|c| generated(s as u32, 64 * p + 4 * v as u32 + c as u32))
    });
    let level = |k: u32| 1.0 + ((p + k) % 7) as f32 * 0.5;
    Patch {
        semantics,
        vertices,
        per_patch,
        levels: Levels::from_floats(
            [level(0), level(1), level(2), level(3)],
            [level(4), level(5)],
        ),
    }
}

/// The first difference between two lists of output words, if any is past tolerance:
/// (`what`, worst difference).
fn difference(what: &str, got: Vec<u32>, want: Vec<u32>) -> Option<String> {
    if got == want {
        return None;
    }
    if got.len() != want.len() {
        return Some(format!(
            "{what}: {} words, interpreter {}",
            got.len(),
            want.len()
        ));
    }
    let floats = |w: Vec<u32>| w.into_iter().map(f32::from_bits);
    worst_float(floats(got), floats(want), ULP_TOL, ABS_TOL).map(|(u, abs, i, g, w)| {
        format!("{what} word {i}: gpu {g:e}, interpreter {w:e}: {u} ulp, abs {abs:e}")
    })
}

/// A patch's words in a fixed order.
fn patch_words(p: &Patch) -> Vec<u32> {
    let mut words: Vec<u32> = p.vertices.iter().flatten().flatten().copied().collect();
    words.extend(p.per_patch.iter().flat_map(|(_, v)| *v));
    words.extend(p.levels.outer);
    words.extend(p.levels.inner);
    words
}

/// Whether the shader's outputs were identical (`Ok(true)`), within tolerance
/// (`Ok(false)`), or how they differ; and whether the interpreter's outputs hold any
/// non-zero word.
fn run(gpu: &tgsi_gpu::Gpu, path: &Path) -> Result<(Result<bool, String>, bool), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let shader = tgsi::parse(&text).map_err(|e| format!("parse: {}", e.message))?;
    let program = Program::compile(&shader).map_err(|e| format!("compile: {e}"))?;
    let constants = generated_constants(&shader);
    let env = Env {
        consts: &constants,
        budget: DEFAULT_BUDGET,
        helpers: 0,
        resources: &NO_RESOURCES,
    };
    let inputs: Vec<Patch> = (0..PATCHES).map(|p| patch(&program, p)).collect();
    let first_id = 3;
    let (got, want) = if shader.processor == tgsi::Processor::TessCtrl {
        let mut stage = ControlStage::new(&program).map_err(|e| e.to_string())?;
        let want = (first_id..)
            .zip(&inputs)
            .map(|(id, p)| stage.run(p, id, &env).map(|p| patch_words(&p)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("interpreter: {e}"))?;
        let got = tgsi_gpu::run_control(gpu, &shader, &program, &inputs, first_id, &env)
            .map_err(|e| format!("gpu: {e}"))?;
        (got.iter().map(patch_words).collect::<Vec<_>>(), want)
    } else {
        let mut stage = EvalStage::new(&program).map_err(|e| e.to_string())?;
        let tessellations: Vec<_> = inputs
            .iter()
            .map(|p| p.levels.tessellate(&stage.mode()))
            .collect();
        let work: Vec<_> = inputs.into_iter().zip(&tessellations).collect();
        let flat = |points: Vertices| points.words().iter().flatten().copied().collect();
        let want = (first_id..)
            .zip(&work)
            .map(|(id, (p, t))| stage.run(p, t, id, &env).map(flat))
            .collect::<Result<Vec<Vec<u32>>, _>>()
            .map_err(|e| format!("interpreter: {e}"))?;
        let got = tgsi_gpu::run_eval(gpu, &shader, &program, &work, first_id, &env)
            .map_err(|e| format!("gpu: {e}"))?;
        (got.into_iter().map(flat).collect(), want)
    };
    let identical = got == want;
    let nonzero = want.iter().flatten().any(|&w| w != 0);
    for (p, (g, w)) in got.into_iter().zip(want).enumerate() {
        if let Some(diff) = difference(&format!("patch {p}"), g, w) {
            return Ok((Err(diff), nonzero));
        }
    }
    Ok((Ok(identical), nonzero))
}

fn check_stage(stage: &str) {
    let Some(gpu) = gpu() else { return };
    let paths = corpus_shaders("virgl", stage);
    if paths.is_empty() {
        eprintln!("skipped: no virgl {stage} corpus");
        return;
    }
    let mut tally = Tally::new(&["identical", "within tolerance"]);
    let mut silent = 0;
    for path in &paths {
        let name = file_name(path);
        match run(&gpu, path) {
            Ok((outcome, nonzero)) => {
                silent += usize::from(!nonzero);
                match outcome {
                    Ok(true) => tally.count("identical"),
                    Ok(false) => tally.count("within tolerance"),
                    Err(diff) => tally.differs(&name, &diff, &[]),
                }
            }
            Err(e) => tally.error(&name, &e),
        }
    }
    // Most shaders write something: a comparison of zeros proves little.
    eprintln!("{stage}: {silent} shaders wrote only zeros");
    assert!(
        silent * 10 < paths.len(),
        "{silent} shaders wrote only zeros"
    );
    tally.finish(stage, paths.len());
}

#[test]
fn corpus_control_shaders_match_the_interpreter() {
    check_stage("tcs");
}

#[test]
fn corpus_evaluation_shaders_match_the_interpreter() {
    check_stage("tes");
}

/// Patches at the highest levels (about 4,000 points each) go to the GPU in several
/// dispatches: the points still come back per patch, in order, with their patch's PRIM_ID.
#[test]
fn many_points_span_several_dispatches() {
    let Some(gpu) = gpu() else { return };
    let text = "TESS_EVAL\nPROPERTY TES_PRIM_MODE 7\nPROPERTY TES_SPACING 2\n\
                PROPERTY TES_VERTEX_ORDER_CW 0\nPROPERTY TES_POINT_MODE 0\n\
                DCL IN[][0], GENERIC[0]\nDCL SV[0], TESSCOORD\nDCL SV[1], PRIM_ID\n\
                DCL OUT[0], GENERIC[0]\n  0: MAD OUT[0].xy, SV[0].xyyy, IN[2][0].xyyy, IN[1][0].zwww\n\
                1: U2F OUT[0].zw, SV[1].xxxx\n  2: END\n";
    let shader = tgsi::parse(text).expect("parses");
    let program = Program::compile(&shader).expect("compiles");
    let mut stage = EvalStage::new(&program).expect("evaluation shader");
    let levels = Levels::from_floats([64.0; 4], [64.0; 2]);
    let tess = levels.tessellate(&stage.mode());
    let work: Vec<_> = (0..80)
        .map(|p| {
            (
                Patch {
                    levels,
                    ..patch(&program, p)
                },
                &tess,
            )
        })
        .collect();
    let points: usize = work.iter().map(|(_, t)| t.points.len()).sum();
    assert!(points > 300_000, "{points} points");
    let env = Env {
        consts: &[],
        budget: DEFAULT_BUDGET,
        helpers: 0,
        resources: &NO_RESOURCES,
    };
    let want: Vec<_> = (7..)
        .zip(&work)
        .map(|(id, (p, t))| stage.run(p, t, id, &env).expect("interpreter"))
        .collect();
    let got = tgsi_gpu::run_eval(&gpu, &shader, &program, &work, 7, &env).expect("gpu");
    assert!(
        got == want,
        "the GPU's points differ from the interpreter's"
    );
}
