//! Geometry shaders against Mesa softpipe, through the command line exactly as a user runs
//! it: every `../shared/corpus/gsref` case (and the project's own in
//! `crates/tgsi-exec/tests/data/gsref`) is run with `tgsi run gs.tgsi --count P --input
//! IN[i]=FILE … --consts consts.txt --stream S -o VERTICES --primitives LENGTHS`, and the
//! transform-feedback buffers softpipe captured must follow byte for byte.
//!
//! The test, not the product, does what Gallium's draw module does after the shader: it
//! lays out the per-primitive input files from `gs_in.f32` and the input assembly softpipe
//! recorded (`meta.json: gs_invocations`), decomposes each emitted strip into independent
//! primitives (`draw_decompose_tmp.h` order, with the case's `flatshade_first`), and packs
//! the records as the case's `stream_output` recipe says, writing a primitive only while it
//! fits in every buffer of its stream.
//!
//! Where softpipe departs from the spec (the gsref README lists three departures), the case
//! holds a `spec.json` naming a companion case: the same inputs and vertices written so that
//! softpipe and the spec agree. The case must then give the companion's bytes, and softpipe's
//! own bytes for it must differ from them (so the departure is real).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn shared() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

fn own_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tgsi-exec/tests/data/gsref")
}

/// Case directories under `dirs` that hold a `meta.json`, sorted.
fn cases(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|e| e.flatten().map(|e| e.path()))
        .filter(|p| p.join("meta.json").is_file() && p.join("gs.tgsi").is_file())
        .collect();
    out.sort();
    out
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

fn num(v: &Value) -> usize {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}")) as usize
}

/// Independent primitives of one emitted strip of `n` vertices, as vertex indices.
fn decompose(kind: &str, n: usize, flatshade_first: bool) -> Vec<Vec<usize>> {
    match kind {
        "GL_POINTS" => (0..n).map(|i| vec![i]).collect(),
        "GL_LINE_STRIP" => (1..n).map(|i| vec![i - 1, i]).collect(),
        "GL_TRIANGLE_STRIP" => (2..n)
            .map(|j| {
                let i = j - 2;
                match (i % 2 == 1, flatshade_first) {
                    (false, _) => vec![i, i + 1, i + 2],
                    (true, false) => vec![i + 1, i, i + 2],
                    (true, true) => vec![i, i + 2, i + 1],
                }
            })
            .collect(),
        other => panic!("unknown output primitive {other}"),
    }
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The bytes of every transform-feedback buffer and the queries of `case`.
fn captured(case: &Path, meta: &Value) -> Result<(Vec<Vec<u8>>, Value), String> {
    let buffers = meta["tf_buffers"].as_array().ok_or("no tf_buffers")?;
    let bytes = buffers
        .iter()
        .map(|b| std::fs::read(case.join(b["file"].as_str().unwrap_or("?"))))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    Ok((bytes, meta["queries"].clone()))
}

/// The command-line arguments that run the GS of `case` alone on its recorded inputs.
fn gs_alone(case: &Path, meta: &Value, scratch: &Path) -> Result<Vec<String>, String> {
    // Input assembly: the vertices of each input primitive, from its invocation-0 run.
    let runs = meta["gs_invocations"]
        .as_array()
        .ok_or("no gs_invocations")?;
    let prims: Vec<Vec<usize>> = runs
        .iter()
        .filter(|r| r["invocation"] == 0)
        .enumerate()
        .map(|(p, r)| {
            assert_eq!(num(&r["prim_id"]), p, "primitives in order");
            r["vertices"]
                .as_array()
                .expect("vertices")
                .iter()
                .map(num)
                .collect()
        })
        .collect();
    let registers = num(&meta["gs_in_file"]["registers"]);
    let gs_in = words(&std::fs::read(case.join("gs_in.f32")).map_err(|e| e.to_string())?);
    let mut args: Vec<String> = vec![
        "run".into(),
        case.join("gs.tgsi").display().to_string(),
        "--count".into(),
        prims.len().to_string(),
    ];
    for i in 0..registers {
        let bytes: Vec<u8> = prims
            .iter()
            .flatten()
            .flat_map(|&v| {
                let at = (v * registers + i) * 4;
                gs_in[at..at + 4].to_vec()
            })
            .flat_map(u32::to_le_bytes)
            .collect();
        let file = scratch.join(format!("in{i}.f32"));
        std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
        args.push(format!("--input=IN[{i}]={}", file.display()));
    }
    let consts = case.join("consts.txt");
    if consts.is_file() {
        args.extend(["--consts".into(), consts.display().to_string()]);
    }
    Ok(args)
}

/// The command-line arguments that run the VS and GS of `case` chained on the uploaded
/// attributes, drawn as the case draws them: indexed or from `first` (through `--indices`),
/// with either provoking-vertex convention. Attributes of fewer than 4 components are
/// widened as GL reads them, to (x, y, 0, 1).
fn chained(case: &Path, meta: &Value, scratch: &Path) -> Result<Vec<String>, String> {
    let draw = &meta["draw"];
    let attributes = meta["attributes"].as_array().ok_or("no attributes")?;
    let mode = draw["mode"].as_str().ok_or("no mode")?;
    let (first, count) = (num(&draw["first"]), num(&draw["count"]));
    let mut args: Vec<String> = vec![
        "run".into(),
        case.join("vs.tgsi").display().to_string(),
        case.join("gs.tgsi").display().to_string(),
        "--prim".into(),
        mode.trim_start_matches("GL_").to_ascii_lowercase(),
        "--count".into(),
        num(&draw["vertices"]).to_string(),
    ];
    let indices: Option<Vec<usize>> = if draw["indexed"] == true {
        let all = draw["indices"].as_array().ok_or("no indices")?;
        Some(all[first..first + count].iter().map(num).collect())
    } else if first != 0 {
        Some((first..first + count).collect())
    } else {
        None
    };
    if let Some(indices) = indices {
        let list: Vec<String> = indices.iter().map(ToString::to_string).collect();
        args.extend(["--indices".into(), list.join(",")]);
    }
    if draw["provoking_vertex"] == "first" {
        args.push("--provoking-first".into());
    }
    for (i, a) in attributes.iter().enumerate() {
        let data = a["data"]
            .as_array()
            .ok_or("no attribute data")?
            .iter()
            .map(|w| {
                let text = w.as_str().unwrap_or("?");
                u32::from_str_radix(text.trim_start_matches("0x"), 16)
                    .map_err(|e| format!("{text}: {e}"))
            })
            .collect::<Result<Vec<u32>, String>>()?;
        let comps = num(&a["components"]);
        let one = if a["type"] == "float" {
            1f32.to_bits()
        } else {
            1
        };
        let bytes: Vec<u8> = data
            .chunks(comps)
            .flat_map(|v| [0, 1, 2, 3].map(|c| v.get(c).copied().unwrap_or([0, 0, 0, one][c])))
            .flat_map(u32::to_le_bytes)
            .collect();
        let file = scratch.join(format!("attr{i}.f32"));
        std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
        args.push(format!("--input=IN[{i}]={}", file.display()));
    }
    let consts = case.join("consts.txt");
    if consts.is_file() {
        args.extend(["--consts".into(), format!("gs={}", consts.display())]);
    }
    Ok(args)
}

/// What a GPU run without a Vulkan adapter prints.
const NO_ADAPTER: &str = "no GPU adapter";

/// Run one case, the GS alone or (`chain`) behind its VS, with the default engine or
/// (`gpu`) `--engine gpu`; a description of the first difference if any.
fn check_case(case: &Path, scratch: &Path, chain: bool, gpu: bool) -> Result<(), String> {
    let meta = read_json(&case.join("meta.json"))?;
    // What must come out: softpipe's capture, or the spec's (a companion's softpipe capture).
    let spec = case.join("spec.json");
    let (expected_dir, expected) = if spec.is_file() {
        let name = read_json(&spec)?["spec_expected"]
            .as_str()
            .ok_or("spec.json: no spec_expected")?
            .to_string();
        let dir = case.with_file_name(name);
        let companion = read_json(&dir.join("meta.json"))?;
        if captured(case, &meta)? == captured(&dir, &companion)? {
            return Err("softpipe does not depart from the spec here: drop spec.json".into());
        }
        (dir, companion)
    } else {
        (case.to_path_buf(), meta.clone())
    };
    let mut args = if chain {
        chained(case, &meta, scratch)?
    } else {
        gs_alone(case, &meta, scratch)?
    };
    if gpu {
        args.extend(["--engine".into(), "gpu".into()]);
    }
    // Declared outputs in index order: where each OUT register sits in a vertex record.
    let mut outs: Vec<usize> = meta["gs_outputs"]
        .as_array()
        .ok_or("no gs_outputs")?
        .iter()
        .map(|o| num(&o["tgsi_out"]))
        .collect();
    outs.sort_unstable();
    outs.dedup();
    let kind = meta["gs"]["output_primitive"]
        .as_str()
        .ok_or("no output primitive")?;
    let flatshade_first = meta["flatshade_first"] == 1;
    let pieces = meta["stream_output"]["outputs"]
        .as_array()
        .ok_or("no stream_output")?;
    let buffers = expected["tf_buffers"].as_array().ok_or("no tf_buffers")?;
    for stream in 0..4usize {
        let bufs: Vec<&Value> = buffers
            .iter()
            .filter(|b| num(&b["stream"]) == stream)
            .collect();
        let generated_expected = num(&expected["queries"]["primitives_generated"][stream]);
        if bufs.is_empty() && generated_expected == 0 {
            continue;
        }
        let verts = scratch.join(format!("s{stream}.bin"));
        let lengths = scratch.join(format!("s{stream}.prims"));
        let mut a = args.clone();
        a.extend([
            "--stream".into(),
            stream.to_string(),
            "-o".into(),
            verts.display().to_string(),
            "--primitives".into(),
            lengths.display().to_string(),
        ]);
        let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
            .args(&a)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            if stderr.contains(NO_ADAPTER) {
                return Err(NO_ADAPTER.into());
            }
            return Err(format!("tgsi {a:?} failed: {stderr}"));
        }
        let values = words(&std::fs::read(&verts).map_err(|e| e.to_string())?);
        let lengths = words(&std::fs::read(&lengths).map_err(|e| e.to_string())?);
        let per_vertex = outs.len() * 4;
        // The independent primitives, as vertex indices: decomposed here from the strips,
        // or already decomposed by the chained command.
        let mut prims: Vec<Vec<usize>> = Vec::new();
        let mut first = 0;
        for &n in &lengths {
            let strip = decompose(kind, n as usize, flatshade_first);
            if chain {
                for p in &strip {
                    prims.push((first..first + p.len()).collect());
                    first += p.len();
                }
            } else {
                prims.extend(strip.iter().map(|p| p.iter().map(|v| first + v).collect()));
                first += n as usize;
            }
        }
        if values.len() != first * per_vertex {
            return Err(format!(
                "stream {stream}: {} words for {first} vertices of {per_vertex} words",
                values.len()
            ));
        }
        // Pack.
        let mut records: Vec<Vec<Vec<u32>>> = bufs.iter().map(|_| Vec::new()).collect();
        let (mut generated, mut written) = (0usize, 0usize);
        {
            for prim in prims {
                generated += 1;
                let fits = bufs.iter().zip(&records).all(|(b, r)| {
                    (r.len() + prim.len()) * num(&b["stride_bytes"]) <= num(&b["buffer_bytes"])
                });
                if !fits {
                    continue;
                }
                written += 1;
                for (b, recs) in bufs.iter().zip(records.iter_mut()) {
                    let stride = num(&b["stride_bytes"]) / 4;
                    for &v in &prim {
                        let vertex = &values[v * per_vertex..][..per_vertex];
                        let mut rec = vec![0u32; stride];
                        for p in pieces.iter().filter(|p| p["output_buffer"] == b["index"]) {
                            let slot = outs
                                .iter()
                                .position(|&o| o == num(&p["tgsi_out"]))
                                .ok_or("captured output not declared")?;
                            let start = num(&p["start_component"]);
                            let dst = num(&p["dst_offset_dwords"]);
                            for c in 0..num(&p["num_components"]) {
                                rec[dst + c] = vertex[slot * 4 + start + c];
                            }
                        }
                        recs.push(rec);
                    }
                }
            }
        }
        let written_expected = num(&expected["queries"]["primitives_written"][stream]);
        if (generated, written) != (generated_expected, written_expected) {
            return Err(format!(
                "stream {stream}: {generated} primitives generated and {written} written, \
                 softpipe {generated_expected} and {written_expected}"
            ));
        }
        for (b, recs) in bufs.iter().zip(&records) {
            let file = b["file"].as_str().ok_or("no file")?;
            let expected =
                words(&std::fs::read(expected_dir.join(file)).map_err(|e| e.to_string())?);
            let got: Vec<u32> = recs.iter().flatten().copied().collect();
            if got.len() != expected.len() {
                return Err(format!(
                    "{file}: {} words, softpipe wrote {}",
                    got.len(),
                    expected.len()
                ));
            }
            if let Some(k) = (0..got.len()).find(|&k| got[k] != expected[k]) {
                return Err(format!(
                    "{file}: word {k} (record {}) is {:#010x}, softpipe {:#010x}",
                    k / (num(&b["stride_bytes"]) / 4),
                    got[k],
                    expected[k]
                ));
            }
        }
    }
    Ok(())
}

/// Every case through [`check_case`]; panics listing the differences.
fn check_all(chain: bool, gpu: bool) {
    let all = cases(&[shared().join("corpus/gsref"), own_cases()]);
    if all.is_empty() {
        eprintln!("skipped: no gsref cases (../shared absent)");
        return;
    }
    let scratch =
        std::env::temp_dir().join(format!("tgsi-gsref-{}-{chain}-{gpu}", std::process::id()));
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in &all {
        let dir = scratch.join(case.file_name().expect("case name"));
        std::fs::create_dir_all(&dir).expect("scratch dir");
        match check_case(case, &dir, chain, gpu) {
            Ok(()) => ran += 1,
            Err(e) if e == NO_ADAPTER => {
                eprintln!("skipped: {NO_ADAPTER}");
                let _ = std::fs::remove_dir_all(&scratch);
                return;
            }
            Err(e) => failures.push(format!("{}: {e}", case.display())),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{} of {} gsref cases differ:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
    let engine = if gpu { " on the GPU engine" } else { "" };
    eprintln!("{ran} of {} gsref cases match softpipe{engine}", all.len());
}

#[test]
fn gsref_cases_match_softpipe_byte_for_byte() {
    check_all(false, false);
}

/// The same, each geometry shader run by `--engine gpu`: translated as a compute shader
/// that records what it emits, on a Vulkan device (skipped without one).
#[test]
fn gsref_cases_match_softpipe_on_the_gpu_engine() {
    check_all(false, true);
}

/// The same cases as a user runs a draw: `tgsi run vs.tgsi gs.tgsi --prim MODE --count N
/// --input IN[i]=ATTRIBUTE …`; the command assembles the primitives and decomposes the
/// strips itself, so the test only packs the records.
#[test]
fn gsref_draws_match_softpipe_through_the_chained_command() {
    check_all(true, false);
}

/// The same draws with both stages on the GPU engine (skipped without a Vulkan adapter).
#[test]
fn gsref_draws_match_softpipe_on_the_gpu_engine() {
    check_all(true, true);
}
