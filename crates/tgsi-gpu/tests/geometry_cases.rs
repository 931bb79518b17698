//! Every geometry shader of `../shared/corpus/mesa/gs` run on the GPU (tgsi-naga's
//! translation as a compute shader that records what it emits) and on the interpreter, with
//! the same inputs and constants: [`PRIMITIVES`] input primitives of deterministic values
//! in [−2, 2) for every declared input and constant register. The emitted primitives (per
//! stream: input primitive, invocation, vertex counts) must be the interpreter's exactly,
//! and every output word must agree within [`ULP_TOL`] / [`ABS_TOL`] (NaNs of any payload
//! alike), except in the shaders of [`EXPLAINED`], whose differences are reported. Skips
//! without an adapter or corpus.

mod common;

use std::path::Path;

use common::{
    corpus_shaders, file_name, generated, generated_constants, gpu, shared, worst_float, Tally,
};
use tgsi_exec::{run_geometry, GeometryOptions, GeometryOutputs, Program, VertexInput};

/// Largest ULP distance of an output float.
const ULP_TOL: u64 = 64;
/// Or largest absolute difference.
const ABS_TOL: f32 = 1e-5;

/// Shaders whose outputs may differ more, and why.
const EXPLAINED: &[(&str, &str)] = &[];

/// Input primitives per shader: more than one workgroup's invocations for the shaders with
/// several GS invocations.
const PRIMITIVES: usize = 5;

/// The options: `count` primitives, per-vertex inputs and constants for every declared
/// register.
fn options(program: &Program, shader: &tgsi::Shader, count: usize) -> GeometryOptions {
    let vertices = program.geometry.as_ref().map_or(1, |g| g.input.vertices()) as usize;
    let inputs = (0..program.register_counts()[1] as u32)
        .map(|i| {
            VertexInput::PerVertex(
                (0..(count * vertices) as u32)
                    .map(|v| std::array::from_fn(|c| generated(i, 4 * v + c as u32)))
                    .collect(),
            )
        })
        .collect();
    GeometryOptions {
        count,
        inputs,
        constants: generated_constants(shader),
        ..GeometryOptions::default()
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

/// The first difference in what the streams' primitives are.
fn primitive_difference(got: &GeometryOutputs, want: &GeometryOutputs) -> Option<String> {
    (0..want.streams.len()).find_map(|s| {
        let (g, w) = (&got.streams[s].primitives, &want.streams[s].primitives);
        (g != w).then(|| {
            format!(
                "stream {s}: {} primitives of {:?} vertices, interpreter {} of {:?}",
                g.len(),
                g.iter().map(|p| p.vertices).collect::<Vec<_>>(),
                w.len(),
                w.iter().map(|p| p.vertices).collect::<Vec<_>>()
            )
        })
    })
}

/// How one shader compares, and the vertices the interpreter saw it emit.
fn run(gpu: &tgsi_gpu::Gpu, path: &Path) -> Result<(Outcome, usize), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let shader = tgsi::parse(&text).map_err(|e| format!("parse: {}", e.message))?;
    let program = Program::compile(&shader).map_err(|e| format!("compile: {e}"))?;
    let opts = options(&program, &shader, PRIMITIVES);
    let want = run_geometry(&program, &opts).map_err(|e| format!("interpreter: {e}"))?;
    let got =
        tgsi_gpu::run_geometry(gpu, &shader, &program, &opts).map_err(|e| format!("gpu: {e}"))?;
    let emitted =
        want.streams.iter().map(|s| s.values.len()).sum::<usize>() / want.decls.len().max(1);
    Ok((compare(&got, &want), emitted))
}

/// How the GPU's outputs compare with the interpreter's.
fn compare(got: &GeometryOutputs, want: &GeometryOutputs) -> Outcome {
    if got == want {
        return Outcome::Identical;
    }
    if let Some(diff) = primitive_difference(got, want) {
        return Outcome::Differs(diff);
    }
    let floats = |o: &GeometryOutputs| -> Vec<f32> {
        o.streams
            .iter()
            .flat_map(|s| s.values.iter().flatten().map(|&w| f32::from_bits(w)))
            .collect()
    };
    let per_vertex = 4 * want.decls.len().max(1);
    match worst_float(
        floats(got).into_iter(),
        floats(want).into_iter(),
        ULP_TOL,
        ABS_TOL,
    ) {
        None => Outcome::Within,
        Some((u, abs, i, g, w)) => Outcome::Differs(format!(
            "emitted vertex {} output {} channel {}: gpu {g:e}, interpreter {w:e}: {u} ulp, \
             abs {abs:e}",
            i / per_vertex,
            i % per_vertex / 4,
            i % 4
        )),
    }
}

#[test]
fn corpus_geometry_shaders_match_the_interpreter() {
    let Some(gpu) = gpu() else { return };
    let paths = corpus_shaders("mesa", "gs");
    if paths.is_empty() {
        eprintln!(
            "skipped: no corpus at {}",
            shared().join("corpus/mesa/gs").display()
        );
        return;
    }
    let mut tally = Tally::new(&["identical", "within tolerance", "explained differences"]);
    let (mut emitted, mut silent) = (0, 0);
    for path in &paths {
        let name = file_name(path);
        match run(&gpu, path) {
            Ok((outcome, vertices)) => {
                emitted += vertices;
                silent += usize::from(vertices == 0);
                match outcome {
                    Outcome::Identical => tally.count("identical"),
                    Outcome::Within => tally.count("within tolerance"),
                    Outcome::Differs(diff) => tally.differs(&name, &diff, EXPLAINED),
                }
            }
            Err(e) => tally.error(&name, &e),
        }
    }
    eprintln!("gs: {emitted} vertices emitted in all; {silent} shaders emitted none");
    // Most shaders emit: a comparison of empty outputs proves little.
    assert!(
        silent * 10 < paths.len(),
        "{silent} shaders emitted nothing"
    );
    tally.finish("gs", paths.len());
}

/// Indirect vertex and register indices in and out of range (negative, past the
/// primitive's vertices, past the declared registers, onto a PRIM_ID register), EMIT from a
/// subroutine on streams chosen at run time (4 and more name none), more EMITs than
/// `GS_MAX_OUTPUT_VERTICES`, and ENDPRIM of empty and open primitives.
const EDGES: &str = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 9
PROPERTY GS_INVOCATIONS 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[][2], PRIM_ID
DCL SV[0], PRIM_ID
DCL SV[1], INVOCATIONID
DCL OUT[0], POSITION
DCL OUT[2], GENERIC[0], STREAM(1, 1, 1, 1)
DCL TEMP[0..1]
DCL ADDR[0]
IMM[0] INT32 {-1, 1, 5, 3}
IMM[1] UINT32 {0, 1, 6, 2}
  0: MOV TEMP[0].x, IMM[0].xxxx
  1: BGNLOOP
  2:   ISGE TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz
  3:   UIF TEMP[0].yyyy
  4:     BRK
  5:   ENDIF
  6:   UARL ADDR[0].x, TEMP[0].xxxx
  7:   MOV OUT[0], IN[ADDR[0].x][0]
  8:   MOV OUT[2], IN[1][ADDR[0].x]
  9:   CAL :14
 10:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 11: ENDLOOP
 12: ENDPRIM IMM[1].xxxx
 13: END
 14: BGNSUB
 15:   UADD TEMP[1].x, TEMP[0].xxxx, SV[1].xxxx
 16:   AND TEMP[1].x, TEMP[1].xxxx, IMM[1].yyyy
 17:   EMIT TEMP[1].xxxx
 18:   ADD OUT[0], IN[2][0], SV[0].xxxx
 19:   EMIT IMM[1].xxxx
 20:   UADD TEMP[1].y, TEMP[0].xxxx, IMM[1].zzzz
 21:   EMIT TEMP[1].yyyy
 22:   UIF TEMP[1].xxxx
 23:     ENDPRIM IMM[1].yyyy
 24:     ENDPRIM IMM[1].yyyy
 25:   ENDIF
 26:   RET
 27: ENDSUB
";

#[test]
fn edge_cases_match_the_interpreter() {
    let Some(gpu) = gpu() else { return };
    let shader = tgsi::parse(EDGES).unwrap_or_else(|e| panic!("{}", e.message));
    let program = Program::compile(&shader).expect("compiles");
    // 70 primitives × 3 invocations: four workgroups, the last partly used.
    let opts = options(&program, &shader, 70);
    let want = run_geometry(&program, &opts).expect("interpreter");
    let got = tgsi_gpu::run_geometry(&gpu, &shader, &program, &opts).expect("gpu");
    let stream = |o: &GeometryOutputs, s: usize| o.streams[s].primitives.len();
    // Both streams receive primitives, and the vertex limit cuts every invocation short.
    assert!(stream(&want, 0) > 0 && stream(&want, 1) > 0, "{want}");
    assert_eq!(
        want.streams[0].values.len() + want.streams[1].values.len(),
        70 * 3 * 9 * 2
    );
    assert!(
        matches!(compare(&got, &want), Outcome::Identical),
        "gpu {got}, interpreter {want}"
    );
}
