//! Tessellation against llvmpipe: every `../shared/corpus/tessref` case runs through
//! [`tgsi_exec::run_tess_pipeline`] with the case's TGSI, inputs, uniforms and default
//! levels, and the transform-feedback bytes llvmpipe captured (`tf.bin`) must follow byte
//! for byte. The test packs the captured vertices as `meta.json` says: each varying is
//! gathered from parts of the OUT registers Mesa packed it into.
//!
//! Without `../shared` (or `TGSI_SHARED`) the test prints that it skipped and passes.

use serde_json::Value;
use std::path::{Path, PathBuf};
use tgsi_exec::tessellation::Levels;
use tgsi_exec::{
    run_tess_pipeline, CapturedOutputs, Program, TessOptions, TessStages, VertexInput,
};

fn corpus() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
    .join("corpus/tessref")
}

fn compile(dir: &Path, file: &str) -> Option<Program> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).ok()?;
    let shader = tgsi::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(Program::compile(&shader).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn num(v: &Value) -> usize {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}")) as usize
}

fn vec4s(bytes: &[u8]) -> Vec<[u32; 4]> {
    bytes
        .chunks_exact(16)
        .map(|v| std::array::from_fn(|c| u32::from_le_bytes([0, 1, 2, 3].map(|b| v[4 * c + b]))))
        .collect()
}

/// `uniforms.txt` (`vec4 u_outer 2.5 3.25 1.75 4.0`, one uniform per line) as constant
/// buffer 0, one slot per uniform in order.
fn uniforms(dir: &Path) -> Vec<Vec<[u32; 4]>> {
    let Ok(text) = std::fs::read_to_string(dir.join("uniforms.txt")) else {
        return Vec::new();
    };
    let slots = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let values: Vec<u32> = l
                .split_whitespace()
                .skip(2)
                .map(|x| x.parse::<f32>().expect("uniform value").to_bits())
                .collect();
            std::array::from_fn(|c| values.get(c).copied().unwrap_or(0))
        })
        .collect();
    vec![slots]
}

/// The transform-feedback bytes of `out` packed as the case's varyings say.
fn pack(meta: &Value, out: &CapturedOutputs) -> Vec<u8> {
    let stride = num(&meta["tf_stride_bytes"]) / 4;
    let mut bytes = Vec::new();
    for vertex in &out.vertices {
        let mut words = vec![0u32; stride];
        for varying in meta["varyings"].as_array().expect("varyings") {
            for piece in varying["tgsi"].as_array().expect("tgsi pieces") {
                let reg = num(&piece["out"]) as u32;
                let slot = out
                    .decls
                    .iter()
                    .position(|d| d.index == reg)
                    .unwrap_or_else(|| panic!("OUT[{reg}] is not declared"));
                let (start, n) = (
                    num(&piece["start_component"]),
                    num(&piece["num_components"]),
                );
                let dst = num(&piece["dst_offset_dwords"]);
                words[dst..dst + n].copy_from_slice(&vertex[slot][start..start + n]);
            }
        }
        bytes.extend(words.iter().flat_map(|w| w.to_le_bytes()));
    }
    bytes
}

fn run_case(dir: &Path) -> Result<(), String> {
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("meta.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let vs = compile(dir, "vs.tgsi").ok_or("no vs.tgsi")?;
    let tcs = compile(dir, "tcs.tgsi");
    let tes = compile(dir, "tes.tgsi").ok_or("no tes.tgsi")?;
    let gs = compile(dir, "gs.tgsi");
    let pv = num(&meta["patch_vertices"]);
    let count = pv * num(&meta["patches"]);
    let mut inputs = Vec::new();
    for input in meta["inputs"].as_array().ok_or("inputs")? {
        let location = num(&input["location"]);
        let data = std::fs::read(dir.join(input["file"].as_str().ok_or("file")?))
            .map_err(|e| e.to_string())?;
        if inputs.len() <= location {
            inputs.resize(location + 1, VertexInput::Constant([0; 4]));
        }
        inputs[location] = VertexInput::PerVertex(vec4s(&data));
    }
    let levels: Vec<f32> = meta["tess_levels"]["virgl_set_tess_state"]
        .as_array()
        .ok_or("levels")?
        .iter()
        .map(|v| v.as_f64().expect("level") as f32)
        .collect();
    let consts = uniforms(dir);
    let mut opts = TessOptions {
        patch_vertices: pv,
        instances: num(&meta["instances"]) as u32,
        default_levels: Levels::from_floats(
            [levels[0], levels[1], levels[2], levels[3]],
            [levels[4], levels[5]],
        ),
        control_constants: consts.clone(),
        eval_constants: consts.clone(),
        geometry_constants: consts,
        ..TessOptions::default()
    };
    opts.vertex.count = count;
    opts.vertex.inputs = inputs;
    let stages = TessStages {
        vertex: &vs,
        control: tcs.as_ref(),
        eval: &tes,
        geometry: gs.as_ref(),
    };
    let out = run_tess_pipeline(&stages, &opts).map_err(|e| e.to_string())?;
    let want = std::fs::read(dir.join("tf.bin")).map_err(|e| e.to_string())?;
    let got = pack(&meta, &out);
    if got == want {
        return Ok(());
    }
    let stride = num(&meta["tf_stride_bytes"]);
    let first = got
        .iter()
        .zip(&want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    Err(format!(
        "{} bytes, want {}; first difference in TF vertex {} at byte {}",
        got.len(),
        want.len(),
        first / stride,
        first % stride
    ))
}

#[test]
fn every_tessref_case_is_byte_exact() {
    let root = corpus();
    let Ok(entries) = std::fs::read_dir(&root) else {
        println!("skipped: no tessref corpus at {}", root.display());
        return;
    };
    let mut cases: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("meta.json").is_file())
        .collect();
    cases.sort();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| run_case(c).err().map(|e| format!("{}: {e}", c.display())))
        .collect();
    println!(
        "{} of {} tessref cases byte-exact",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
