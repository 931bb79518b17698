//! Robustness of tessellation over the shared corpus: every tessellation control and
//! evaluation shader there (246 TCS and 39 TES as virgl guests send them) compiles, and
//! runs in a chain — each TCS with a small evaluation shader, each TES after a vertex
//! shader alone — over patches of 1, 4 and 32 vertices with edge-value inputs, default
//! levels of 0, 2.5 and 70 and a small budget, without panicking (clean errors, such as an
//! exhausted budget, are printed). Skips cleanly when the corpus
//! is absent.

mod common;

use std::path::{Path, PathBuf};
use tgsi_exec::tessellation::Levels;
use tgsi_exec::{run_tess_pipeline, Program, TessOptions, TessStages, VertexInput};

/// `.tgsi` files under `dir` (recursively), golden re-prints excluded.
fn tgsi_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for p in rd.flatten().map(|e| e.path()) {
        if p.is_dir()
            && !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("golden"))
        {
            tgsi_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "tgsi") {
            out.push(p);
        }
    }
}

const VS: &str =
    "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1..31], GENERIC[0]\nMOV OUT[0], IN[0]\n\
                  MOV OUT[1], IN[0].yzwx\nMOV OUT[2], IN[0].zwxy\nEND\n";
const TES: &str =
    "TESS_EVAL\nPROPERTY TES_PRIM_MODE 7\nPROPERTY TES_SPACING 1\nDCL IN[][0], GENERIC[0]\n\
                   DCL SV[0], TESSCOORD\nDCL OUT[0], POSITION\nADD OUT[0], IN[1][0], SV[0]\nEND\n";

#[test]
fn corpus_tessellation_shaders_compile_and_run_without_panicking() {
    let mut files = Vec::new();
    tgsi_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        &mut files,
    );
    if files.is_empty() {
        println!("skipped: shared corpus absent");
        return;
    }
    files.sort();
    let (vs, small_tes) = (common::compile(VS), common::compile(TES));
    let (mut seen, mut ran) = (0, 0);
    for f in &files {
        let Some(shader) = std::fs::read_to_string(f)
            .ok()
            .and_then(|t| tgsi::parse(&t).ok())
        else {
            continue;
        };
        if !matches!(
            shader.processor,
            tgsi::Processor::TessCtrl | tgsi::Processor::TessEval
        ) {
            continue;
        }
        seen += 1;
        let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let control = shader.processor == tgsi::Processor::TessCtrl;
        let stages = TessStages {
            vertex: &vs,
            control: control.then_some(&program),
            eval: if control { &small_tes } else { &program },
            geometry: None,
        };
        for (patch_vertices, level) in [(1, 0.0), (4, 2.5), (32, 70.0)] {
            let mut opts = TessOptions {
                patch_vertices,
                instances: 1,
                default_levels: Levels::from_floats([level, 3.0, level, 2.0], [level, 5.0]),
                ..TessOptions::default()
            };
            opts.vertex.count = 32;
            opts.vertex.budget = 5_000;
            opts.vertex.inputs = vec![VertexInput::PerVertex(
                (0..32u32)
                    .map(|i| [i, 0x3f80_0000, 0xc000_0000, 0x7fc0_0000])
                    .collect(),
            )];
            opts.control_constants =
                vec![vec![[0x3f80_0000, 0x4040_0000, 0xbf80_0000, 0x4280_0000]; 16]; 2];
            opts.eval_constants = opts.control_constants.clone();
            match run_tess_pipeline(&stages, &opts) {
                Ok(_) => ran += 1,
                Err(e) => println!("{}: {e}", f.display()),
            }
        }
    }
    println!(
        "{seen} tessellation shaders compiled, {ran} of {} chain runs succeeded",
        seen * 3
    );
    assert!(seen > 0);
}
