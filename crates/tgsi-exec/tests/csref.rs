//! The csref corpus (`shared/corpus/csref/<case>/`): compute dispatches recorded on Mesa
//! 22.3 softpipe. Each case's `shader.tgsi` runs through [`run_compute`] with the resources
//! of its own `bindings.json` (`resources[]` give each `pipe_resource` and its input bytes;
//! `tgsi[]` names what each `BUFFER[i]` / `IMAGE[i]` slot had bound at the launch), its
//! grid, block and shared-memory size, and `consts.txt`; afterwards every resource must
//! equal its `out_<name>.bin` byte for byte. Skips cleanly when the corpus is absent.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tgsi::Format;
use tgsi_exec::resource::{Access, BufferView, ImageView, Resource, Resources, Storage, Target};
use tgsi_exec::{run_compute, ComputeOptions, Program};

/// Cases expected to fail for now, with the reason. The test fails if one of them passes
/// (so the list cannot rot) or if any other case fails.
const EXPECTED_FAILURES: &[(&str, &str)] = &[
    (
        "image-3d-array",
        "needs R16G16B16A16_FLOAT and R32G32B32A32_UINT, which the placeholder format table does not know yet",
    ),
    (
        "image-buffer",
        "needs R32G32B32A32_UINT, which the placeholder format table does not know yet",
    ),
];

/// The corpus directory, if present.
fn corpus() -> Option<PathBuf> {
    [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/csref"),
        PathBuf::from("/work/shared/corpus/csref"),
    ]
    .into_iter()
    .find(|p| p.is_dir())
}

fn u32_of(v: &Value, key: &str) -> Result<u32, String> {
    v.get(key)
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| format!("missing or bad {key}"))
}

fn str_of<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing {key}"))
}

fn triple(v: &Value, key: &str) -> Result<[u32; 3], String> {
    let a = v
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("missing {key}"))?;
    let n = |i: usize| {
        a.get(i)
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("bad {key}"))
    };
    Ok([n(0)?, n(1)?, n(2)?])
}

/// Run one case; `Err` describes the first difference (or a setup problem).
fn run_case(dir: &Path) -> Result<(), String> {
    let read = |name: &str| std::fs::read(dir.join(name)).map_err(|e| format!("{name}: {e}"));
    let json: Value = serde_json::from_slice(&read("bindings.json")?)
        .map_err(|e| format!("bindings.json: {e}"))?;
    let text = String::from_utf8(read("shader.tgsi")?).map_err(|e| e.to_string())?;
    let shader = tgsi::parse(&text).map_err(|e| format!("parse: {e}"))?;
    let program = Program::compile(&shader).map_err(|e| format!("compile: {e}"))?;
    let consts = match std::fs::read_to_string(dir.join("consts.txt")) {
        Ok(t) => tgsi_exec::parse_consts(&t).map_err(|e| format!("consts.txt: {e}"))?,
        Err(_) => Vec::new(),
    };

    // Resources by name, with their expected output bytes.
    let mut by_name: BTreeMap<String, (Arc<Resource>, Vec<u8>)> = BTreeMap::new();
    for r in json["resources"].as_array().ok_or("no resources")? {
        let name = str_of(r, "name")?.to_string();
        let p = &r["pipe_resource"];
        let target = Target::from_name(str_of(p, "target")?).ok_or("bad target")?;
        let format = Format::from_name(str_of(p, "format")?).ok_or("bad format")?;
        let data = read(str_of(r, "in_file")?)?;
        let out = read(str_of(r, "out_file")?)?;
        let res = Resource {
            target,
            format,
            width0: u32_of(p, "width0")?,
            height0: u32_of(p, "height0")?,
            depth0: u32_of(p, "depth0")?,
            array_size: u32_of(p, "array_size")?,
            last_level: u32_of(p, "last_level")?,
            nr_samples: 0,
            data: Storage::from_bytes(&data),
        };
        by_name.insert(name, (Arc::new(res), out));
    }

    let mut resources = Resources::default();
    for t in json["tgsi"].as_array().ok_or("no tgsi list")? {
        let file = str_of(t, "file")?;
        if file == "MEMORY" {
            continue;
        }
        let index = u32_of(t, "index")? as usize;
        let bound = str_of(t, "bound")?;
        let (res, _) = by_name
            .get(bound)
            .ok_or_else(|| format!("{bound} is not a resource"))?;
        let res = Arc::clone(res);
        match file {
            "BUFFER" => {
                let view = BufferView {
                    resource: res,
                    offset: u32_of(t, "buffer_offset")?,
                    size: u32_of(t, "buffer_size")?,
                };
                if resources.buffers.len() <= index {
                    resources.buffers.resize(index + 1, None);
                }
                resources.buffers[index] = Some(view);
            }
            "IMAGE" => {
                let v = &t["pipe_image_view"];
                let access = match str_of(v, "access")? {
                    "READ" => Access::Read,
                    "WRITE" => Access::Write,
                    _ => Access::ReadWrite,
                };
                let view = ImageView {
                    resource: res,
                    format: Format::from_name(str_of(v, "format")?).ok_or("bad view format")?,
                    access,
                    level: u32_of(v, "level").unwrap_or(0),
                    first_layer: u32_of(v, "first_layer").unwrap_or(0),
                    last_layer: u32_of(v, "last_layer").unwrap_or(0),
                    offset: u32_of(v, "buf_offset").unwrap_or(0),
                    size: u32_of(v, "buf_size").unwrap_or(0),
                };
                if resources.images.len() <= index {
                    resources.images.resize(index + 1, None);
                }
                resources.images[index] = Some(view);
            }
            other => return Err(format!("unexpected binding file {other}")),
        }
    }

    let opts = ComputeOptions {
        grid: triple(&json, "grid")?,
        block: triple(&json, "block")?,
        constants: consts,
        resources: &resources,
        shared_bytes: u32_of(&json, "shared_bytes")? as usize,
        threads: 1,
        ..ComputeOptions::default()
    };
    let stats = run_compute(&program, &opts).map_err(|e| format!("run: {e}"))?;
    if stats.block != opts.block {
        return Err(format!(
            "block {:?} != trace block {:?}",
            stats.block, opts.block
        ));
    }
    for (name, (res, expected)) in &by_name {
        let got = res.data.to_bytes();
        if got.len() != expected.len() {
            return Err(format!(
                "{name}: {} bytes, expected {}",
                got.len(),
                expected.len()
            ));
        }
        let diffs: Vec<usize> = (0..got.len()).filter(|&i| got[i] != expected[i]).collect();
        if let Some(&first) = diffs.first() {
            let w = first / 4 * 4;
            let word = |b: &[u8]| u32::from_le_bytes([b[w], b[w + 1], b[w + 2], b[w + 3]]);
            return Err(format!(
                "{name}: {} bytes differ; first at byte {first}: word {:#010x}, expected {:#010x}",
                diffs.len(),
                word(&got),
                word(expected)
            ));
        }
    }
    Ok(())
}

#[test]
fn csref_cases_match_softpipe() {
    let Some(root) = corpus() else {
        eprintln!("csref corpus absent: skipping");
        return;
    };
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    cases.sort();
    assert!(!cases.is_empty(), "no cases under {}", root.display());
    let mut problems = Vec::new();
    for dir in &cases {
        let name = dir
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let expected_failure = EXPECTED_FAILURES.iter().find(|(n, _)| *n == name);
        match (run_case(dir), expected_failure) {
            (Ok(()), None) => eprintln!("{name}: ok"),
            (Ok(()), Some(_)) => problems.push(format!(
                "{name}: passes but is listed in EXPECTED_FAILURES; remove it from the list"
            )),
            (Err(e), None) => problems.push(format!("{name}: {e}")),
            (Err(e), Some((_, why))) => eprintln!("{name}: expected failure ({why}): {e}"),
        }
    }
    for (n, _) in EXPECTED_FAILURES {
        if !cases.iter().any(|c| c.ends_with(n)) {
            problems.push(format!("EXPECTED_FAILURES names {n}, which is not a case"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
