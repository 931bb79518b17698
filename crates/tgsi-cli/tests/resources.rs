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

#[path = "support/reference_bindings.rs"]
mod reference_bindings;

use reference_bindings::{csref_bindings, texref_bindings};
use serde_json::{json, Value};
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
        std::fs::write(
            &bindings,
            texref_bindings(case).expect("textures.json").to_string(),
        )
        .expect("write bindings");
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
        let doc = csref_bindings(case, Some(&out_dir)).expect("bindings.json");
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
        let doc = csref_bindings(&case, Some(&dir)).expect("bindings.json");
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
