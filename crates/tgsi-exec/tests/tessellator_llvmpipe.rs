//! The tessellator against llvmpipe's, the D3D11 reference tessellator Gallium's draw module
//! uses: `tests/data/tessellator` holds, for every primitive mode, spacing, vertex order and
//! point mode over ten sets of default levels (minimal, odd inner levels, fractional,
//! below 1, culled, an inner level of 0, larger ones and levels clamped at 64), the
//! `gl_TessCoord` of every vertex llvmpipe captured from one patch without a control shader
//! (made by `tools/stageref/tessellator-refs.sh`). A tessellation chain whose evaluation
//! shader writes TESSCOORD must give the same primitives and the same bits, in order.

use std::path::{Path, PathBuf};

use tgsi_exec::tessellation::Levels;
use tgsi_exec::{run_tess_pipeline, Program, TessOptions, TessStages, VertexOptions};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tessellator")
}

fn compile(text: &str) -> Program {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Program::compile(&shader).expect("compile")
}

/// An evaluation shader writing TESSCOORD to its only output.
fn eval_shader(mode: &str, spacing: &str, order: &str, points: &str) -> String {
    let prim = match mode {
        "triangles" => 4,
        "quads" => 7,
        _ => 1,
    };
    let spacing = match spacing {
        "fractional_odd_spacing" => 0,
        "fractional_even_spacing" => 1,
        _ => 2,
    };
    let cw = u32::from(order == "cw");
    format!(
        "TESS_EVAL\nPROPERTY TES_PRIM_MODE {prim}\nPROPERTY TES_SPACING {spacing}\n\
         PROPERTY TES_VERTEX_ORDER_CW {cw}\nPROPERTY TES_POINT_MODE {points}\n\
         DCL SV[0], TESSCOORD\nDCL OUT[0], GENERIC[0]\n  0: MOV OUT[0], SV[0]\n  1: END\n"
    )
}

#[test]
fn domain_points_match_llvmpipe_bit_for_bit() {
    let Ok(manifest) = std::fs::read_to_string(data().join("MANIFEST.tsv")) else {
        panic!("tests/data/tessellator/MANIFEST.tsv is missing");
    };
    let vs = compile("VERT\n  0: END\n");
    let mut failures = Vec::new();
    let mut cases = 0;
    for line in manifest.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [name, mode, spacing, order, points, levels @ .., primitives] = f.as_slice() else {
            panic!("bad manifest line: {line}");
        };
        let levels: Vec<f32> = levels.iter().map(|l| l.parse().expect("level")).collect();
        let tes = compile(&eval_shader(mode, spacing, order, points));
        let opts = TessOptions {
            patch_vertices: 1,
            default_levels: Levels::from_floats(
                [levels[0], levels[1], levels[2], levels[3]],
                [levels[4], levels[5]],
            ),
            vertex: VertexOptions {
                count: 1,
                ..VertexOptions::default()
            },
            ..TessOptions::default()
        };
        let stages = TessStages {
            vertex: &vs,
            control: None,
            eval: &tes,
            geometry: None,
        };
        let out = run_tess_pipeline(&stages, &opts).expect("tessellation runs");
        let got: Vec<u32> = out
            .vertices
            .iter()
            .flat_map(|v| v[0][..3].to_vec())
            .collect();
        let bytes = std::fs::read(data().join(format!("{name}.bin"))).expect("reference");
        let want: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        cases += 1;
        let prims: usize = primitives.parse().expect("primitive count");
        if out.primitives() != prims {
            failures.push(format!(
                "{name}: {} primitives, llvmpipe {prims}",
                out.primitives()
            ));
        } else if let Some(k) = (0..got.len().min(want.len())).find(|&k| got[k] != want[k]) {
            failures.push(format!(
                "{name}: vertex {} component {} is {}, llvmpipe {}",
                k / 3,
                k % 3,
                f32::from_bits(got[k]),
                f32::from_bits(want[k])
            ));
        } else if got.len() != want.len() {
            failures.push(format!(
                "{name}: {} words, llvmpipe {}",
                got.len(),
                want.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(cases >= 300, "only {cases} cases");
    eprintln!("{cases} tessellations match llvmpipe bit for bit");
}
