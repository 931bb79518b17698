//! Textures and compute against Mesa softpipe, through the command line exactly as a user
//! runs it: every `../shared/corpus/texref` case (and the project's own in
//! `tests/data/texref`) converted into a bindings file (`shared/docs/bindings.md`) and
//! rendered with `tgsi render SHADER --size WxH --consts consts.txt --bindings B.json --raw
//! O.f32 --clear=-1,-2,-3,-4` must give `ref.f32` byte for byte; every `csref` case run with
//! `tgsi run SHADER --bindings B.json --grid X,Y,Z --consts consts.txt` must leave every
//! resource equal to its `out_<name>.bin`.
//!
//! The conversion is the mechanical one `bindings.md` describes: the cases' `pipe_resource`,
//! `sampler_view`, `sampler_state` and `pipe_image_view` objects are already in Gallium's
//! vocabulary.

use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn shared() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// Case directories under `dirs` that hold `marker`, sorted.
fn cases(dirs: &[PathBuf], marker: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|e| e.flatten().map(|e| e.path()))
        .filter(|p| p.join(marker).is_file())
        .collect();
    out.sort();
    out
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Copy `keys` of `from` into `to`, renaming `buf_offset`/`buf_size` to `offset`/`size`.
fn copy_keys(to: &mut Map<String, Value>, from: &Value, keys: &[&str]) {
    for k in keys {
        if let Some(v) = from.get(k) {
            let name = match *k {
                "buf_offset" => "offset",
                "buf_size" => "size",
                k => k,
            };
            to.insert(name.to_string(), v.clone());
        }
    }
}

const RESOURCE_KEYS: [&str; 8] = [
    "target",
    "format",
    "width0",
    "height0",
    "depth0",
    "array_size",
    "last_level",
    "nr_samples",
];

/// A texref case's `textures.json` as a bindings document.
fn texref_bindings(case: &Path) -> Value {
    let doc = read_json(&case.join("textures.json"));
    let mut resources = Vec::new();
    let mut views = Vec::new();
    let mut samplers = Vec::new();
    for t in doc["textures"].as_array().expect("textures") {
        let name = format!("tex{}", t["index"]);
        let mut r = Map::new();
        r.insert("name".into(), json!(name));
        copy_keys(&mut r, &t["pipe_resource"], &RESOURCE_KEYS);
        let file = t["file"].as_str().expect("file");
        r.insert("data".into(), json!(case.join(file)));
        resources.push(Value::Object(r));
        for b in t["tgsi_bindings"].as_array().expect("tgsi_bindings") {
            if let Some(v) = b.get("sampler_view").filter(|v| v.is_object()) {
                let mut o = Map::new();
                o.insert("slot".into(), b["sview"].clone());
                o.insert("resource".into(), json!(name));
                copy_keys(
                    &mut o,
                    v,
                    &[
                        "format",
                        "target",
                        "first_level",
                        "last_level",
                        "first_layer",
                        "last_layer",
                        "buf_offset",
                        "buf_size",
                        "swizzle",
                    ],
                );
                views.push(Value::Object(o));
            }
            if let Some(s) = b.get("sampler_state").filter(|v| v.is_object()) {
                let mut o = Map::new();
                o.insert("slot".into(), b["samp"].clone());
                copy_keys(
                    &mut o,
                    s,
                    &[
                        "wrap_s",
                        "wrap_t",
                        "wrap_r",
                        "min_img_filter",
                        "min_mip_filter",
                        "mag_img_filter",
                        "compare_mode",
                        "compare_func",
                        "unnormalized_coords",
                        "max_anisotropy",
                        "seamless_cube_map",
                        "lod_bias",
                        "min_lod",
                        "max_lod",
                    ],
                );
                // Raw bits; where the trace printed nan (a negative integer border, whole
                // or in one channel) the GL integer values are what softpipe used.
                let border = match &s["border_color_bits"] {
                    Value::Null => t["gl_state"]["border_color_int"].clone(),
                    Value::Array(bits) => Value::Array(
                        bits.iter()
                            .enumerate()
                            .map(|(i, b)| match b {
                                Value::Null => t["gl_state"]["border_color_bits"][i].clone(),
                                b => b.clone(),
                            })
                            .collect(),
                    ),
                    bits => bits.clone(),
                };
                if !border.is_null() {
                    o.insert("border_color".into(), border);
                }
                samplers.push(Value::Object(o));
            }
        }
    }
    json!({
        "resources": resources,
        "sampler_views": views,
        "samplers": samplers,
        "seamless_cube_map": doc["seamless_cube_map_enable"].as_bool().unwrap_or(false),
    })
}

/// A csref case's `bindings.json` as a bindings document whose resources are written to
/// `out_dir/out_<name>.bin`.
fn csref_bindings(case: &Path, out_dir: &Path) -> Value {
    let doc = read_json(&case.join("bindings.json"));
    let mut resources = Vec::new();
    for r in doc["resources"].as_array().expect("resources") {
        let name = r["name"].as_str().expect("name");
        let mut o = Map::new();
        o.insert("name".into(), json!(name));
        copy_keys(&mut o, &r["pipe_resource"], &RESOURCE_KEYS);
        let input = r["in_file"].as_str().expect("in_file");
        o.insert("data".into(), json!(case.join(input)));
        o.insert("out".into(), json!(out_dir.join(format!("out_{name}.bin"))));
        resources.push(Value::Object(o));
    }
    let (mut buffers, mut images, mut atomics) = (Vec::new(), Vec::new(), Vec::new());
    for t in doc["tgsi"].as_array().expect("tgsi") {
        let Some(bound) = t.get("bound").and_then(Value::as_str) else {
            continue;
        };
        let mut o = Map::new();
        o.insert("slot".into(), t["index"].clone());
        o.insert("resource".into(), json!(bound));
        match t["file"].as_str() {
            Some("BUFFER") | Some("HWATOMIC") => {
                copy_keys(&mut o, t, &["buffer_offset", "buffer_size"]);
                if let Some(v) = o.remove("buffer_offset") {
                    o.insert("offset".into(), v);
                }
                if let Some(v) = o.remove("buffer_size") {
                    o.insert("size".into(), v);
                }
                if t["file"] == "BUFFER" {
                    buffers.push(Value::Object(o));
                } else {
                    atomics.push(Value::Object(o));
                }
            }
            Some("IMAGE") => {
                copy_keys(
                    &mut o,
                    &t["pipe_image_view"],
                    &[
                        "format",
                        "access",
                        "level",
                        "first_layer",
                        "last_layer",
                        "buf_offset",
                        "buf_size",
                    ],
                );
                images.push(Value::Object(o));
            }
            _ => {}
        }
    }
    json!({
        "resources": resources,
        "buffers": buffers,
        "images": images,
        "hw_atomics": atomics,
        "grid": doc["grid"],
        "block": doc["block"],
        "req_local_mem": doc["shared_bytes"],
    })
}

fn tgsi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tgsi"))
}

#[test]
fn texref_cases_match_softpipe_bit_for_bit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = cases(
        &[
            shared().join("corpus/texref"),
            root.join("../tgsi-exec/tests/data/texref"),
        ],
        "textures.json",
    );
    if cases.is_empty() {
        eprintln!("skipping: no texref cases found");
        return;
    }
    let dir = temp_dir("texref");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().and_then(|n| n.to_str()).expect("name");
        let meta = read_json(&case.join("meta.json"));
        let size = format!("{}x{}", meta["W"], meta["H"]);
        let bindings = dir.join(format!("{name}.json"));
        std::fs::write(&bindings, texref_bindings(case).to_string()).expect("write bindings");
        let out = dir.join(format!("{name}.f32"));
        let status = tgsi()
            .arg("render")
            .arg(case.join("shader.tgsi"))
            .args(["--size", &size, "--consts"])
            .arg(case.join("consts.txt"))
            .arg("--bindings")
            .arg(&bindings)
            .arg("--raw")
            .arg(&out)
            .arg("--clear=-1,-2,-3,-4")
            .output()
            .expect("run tgsi");
        if !status.status.success() {
            failures.push(format!(
                "{name}: tgsi render failed: {}",
                String::from_utf8_lossy(&status.stderr).trim()
            ));
            continue;
        }
        let got = std::fs::read(&out).expect("output");
        let want = std::fs::read(case.join("ref.f32")).expect("ref.f32");
        if got != want {
            let differ = got
                .chunks(4)
                .zip(want.chunks(4))
                .filter(|(a, b)| a != b)
                .count();
            failures.push(format!("{name}: {differ} floats differ from ref.f32"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} texref cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn csref_cases_match_softpipe_byte_for_byte() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = cases(
        &[
            shared().join("corpus/csref"),
            root.join("../tgsi-exec/tests/data/csref"),
        ],
        "bindings.json",
    );
    if cases.is_empty() {
        eprintln!("skipping: no csref cases found");
        return;
    }
    let dir = temp_dir("csref");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().and_then(|n| n.to_str()).expect("name");
        let out_dir = dir.join(name);
        std::fs::create_dir_all(&out_dir).expect("out dir");
        let doc = csref_bindings(case, &out_dir);
        let grid = doc["grid"]
            .as_array()
            .map(|g| {
                g.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .expect("grid");
        let bindings = dir.join(format!("{name}.json"));
        std::fs::write(&bindings, doc.to_string()).expect("write bindings");
        let mut cmd = tgsi();
        cmd.arg("run")
            .arg(case.join("shader.tgsi"))
            .arg("--bindings")
            .arg(&bindings)
            .args(["--grid", &grid]);
        if case.join("consts.txt").is_file() {
            cmd.arg("--consts").arg(case.join("consts.txt"));
        }
        let status = cmd.output().expect("run tgsi");
        if !status.status.success() {
            failures.push(format!(
                "{name}: tgsi run failed: {}",
                String::from_utf8_lossy(&status.stderr).trim()
            ));
            continue;
        }
        for r in doc["resources"].as_array().expect("resources") {
            let rname = r["name"].as_str().expect("name");
            let got = std::fs::read(r["out"].as_str().expect("out")).expect("output file");
            let want = std::fs::read(case.join(format!("out_{rname}.bin"))).expect("out_*.bin");
            if got != want {
                let differ = got.iter().zip(&want).filter(|(a, b)| a != b).count();
                failures.push(format!("{name}: {rname}: {differ} bytes differ"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} csref mismatches over {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Contended SSBO atomics from 16 workgroups spread over 1, 2 and 4 threads: every
/// order-independent total (sum, or, signed min/max, xor, histogram) equals softpipe's, and
/// the compare-and-swap chain still counts every invocation exactly once.
#[test]
fn contended_atomics_agree_across_threads() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tgsi-exec/tests/data/csref/ssbo-atomics-contended");
    let want = std::fs::read(case.join("out_acc.bin")).expect("out_acc.bin");
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let want = words(&want);
    for threads in ["1", "2", "4"] {
        let dir = temp_dir(&format!("atomics-{threads}"));
        let doc = csref_bindings(&case, &dir);
        let bindings = dir.join("b.json");
        std::fs::write(&bindings, doc.to_string()).expect("write bindings");
        let out = tgsi()
            .arg("run")
            .arg(case.join("shader.tgsi"))
            .arg("--bindings")
            .arg(&bindings)
            .args(["--grid", "16,1,1", "--threads", threads])
            .output()
            .expect("run tgsi");
        assert!(out.status.success(), "{}", stderr(&out));
        let got = words(&std::fs::read(dir.join("out_acc.bin")).expect("out_acc.bin"));
        assert_eq!(got.len(), want.len());
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            if k != 5 {
                assert_eq!(g, w, "word {k} with {threads} threads");
            }
        }
        // The chain word: invocation i swaps i → i+1 only after invocation i−1 did, so it
        // ends at the number of invocations that found their predecessor's value.
        assert!(got[5] >= 1 && got[5] <= 1024, "chain {}", got[5]);
        assert_eq!(got[6..].iter().sum::<u32>(), 1024, "histogram counts");
    }
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_bad_bindings_file_names_the_key_before_anything_runs() {
    let dir = temp_dir("bad-bindings");
    let shader = dir.join("cs.tgsi");
    std::fs::write(
        &shader,
        "COMP\nDCL BUFFER[0]\nIMM[0] UINT32 {0, 7, 0, 0}\n  0: STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy\n  1: END\n",
    )
    .expect("write shader");
    let bindings = dir.join("b.json");
    let out_file = dir.join("out.bin");
    std::fs::write(
        &bindings,
        json!({
            "resources": [{"name": "buf", "target": "PIPE_BUFFER", "format": "PIPE_FORMAT_R8_UNORM",
                           "width0": 8, "out": out_file}],
            "buffers": [{"slot": 0, "resource": "buf", "ofset": 0}]
        })
        .to_string(),
    )
    .expect("write bindings");
    let out = tgsi()
        .arg("run")
        .arg(&shader)
        .arg("--bindings")
        .arg(&bindings)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("buffers[0].ofset: unknown key"),
        "{}",
        stderr(&out)
    );
    assert!(
        !out_file.exists(),
        "nothing may run after a bad bindings file"
    );

    // Fixed, the store lands; an unbound slot would only warn.
    let text = std::fs::read_to_string(&bindings)
        .expect("read")
        .replace("ofset", "offset");
    std::fs::write(&bindings, text).expect("write bindings");
    let out = tgsi()
        .arg("run")
        .arg(&shader)
        .arg("--bindings")
        .arg(&bindings)
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&out_file).expect("out"),
        [7, 0, 0, 0, 0, 0, 0, 0]
    );
    let out = tgsi().arg("run").arg(&shader).output().expect("run");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("warning: BUFFER[0] is not bound"),
        "{}",
        stderr(&out)
    );
    let out = tgsi()
        .arg("run")
        .arg(&shader)
        .args(["--grid", "65536,65536,2"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn texture_shorthand_samples_a_png() {
    let dir = temp_dir("texture-png");
    let png_path = dir.join("one.png");
    {
        let file = std::fs::File::create(&png_path).expect("create png");
        let mut enc = png::Encoder::new(file, 2, 2);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().expect("png header");
        w.write_image_data(&[10, 20, 30, 255].repeat(4))
            .expect("png data");
    }
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/textured.tgsi");
    let raw = dir.join("out.f32");
    let out = tgsi()
        .arg("render")
        .arg(&example)
        .args(["--size", "8x8", "--texture"])
        .arg(format!("0={}", png_path.display()))
        .arg("--raw")
        .arg(&raw)
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&raw).expect("raw");
    let want: Vec<u8> = [10u8, 20, 30, 255]
        .iter()
        .flat_map(|&v| (f32::from(v) * (1.0f32 / 255.0)).to_le_bytes())
        .collect::<Vec<u8>>()
        .repeat(64);
    assert_eq!(
        bytes, want,
        "a uniform texture samples to its colour everywhere"
    );
    let out = tgsi()
        .arg("render")
        .arg(&example)
        .args(["--size", "8x8", "--raw"])
        .arg(&raw)
        .output()
        .expect("run");
    assert!(
        stderr(&out).contains("warning: SAMP[0] is not bound"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
