//! Tessellation through the command line exactly as a user runs it: every
//! `../shared/corpus/tessref` case runs as `tgsi run vs.tgsi [tcs.tgsi] tes.tgsi
//! --patch-vertices N --input IN[loc]=in_<attrib>.f32 … --tess-outer … --tess-inner …
//! --consts uniforms -o captured.bin`, and the transform-feedback bytes llvmpipe captured
//! (`tf.bin`) must follow byte for byte once the test packs the captured registers as the
//! case's `meta.json` varyings say (Mesa packs a varying into parts of several OUT
//! registers). Also the command's errors for malformed tessellation requests.
//!
//! Without `../shared` (or `TGSI_SHARED`) the corpus test prints that it skipped and passes.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
    .join("corpus/tessref")
}

fn tgsi(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(args)
        .output()
        .expect("run tgsi")
}

fn num(v: &Value) -> usize {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}")) as usize
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// `uniforms.txt` (`vec4 u_outer 2.5 3.25 1.75 4.0`, one uniform per line) as a
/// `consts.txt`: uniform k in `CONST[k]`.
fn consts_text(uniforms: &str) -> String {
    uniforms
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(k, l)| {
            let values: Vec<&str> = l.split_whitespace().skip(2).collect();
            format!("CONST[{k}] = {}\n", values.join(" "))
        })
        .collect()
}

/// The captured registers (one vec4 per declared TES output, in register order) packed as
/// the case's varyings say.
fn pack(meta: &Value, tes_outputs: &[u32], captured: &[u32]) -> Vec<u8> {
    let stride = num(&meta["tf_stride_bytes"]) / 4;
    let regs = tes_outputs.len();
    let mut bytes = Vec::new();
    for vertex in captured.chunks_exact(regs * 4) {
        let mut out = vec![0u32; stride];
        for varying in meta["varyings"].as_array().expect("varyings") {
            for piece in varying["tgsi"].as_array().expect("tgsi pieces") {
                let reg = num(&piece["out"]) as u32;
                let slot = tes_outputs
                    .iter()
                    .position(|&r| r == reg)
                    .unwrap_or_else(|| panic!("OUT[{reg}] is not declared"));
                let (start, n) = (
                    num(&piece["start_component"]),
                    num(&piece["num_components"]),
                );
                let dst = num(&piece["dst_offset_dwords"]);
                out[dst..dst + n].copy_from_slice(&vertex[slot * 4 + start..slot * 4 + start + n]);
            }
        }
        bytes.extend(out.iter().flat_map(|w| w.to_le_bytes()));
    }
    bytes
}

/// The output registers `tes.tgsi` declares, in register order.
fn declared_outputs(tes: &str) -> Vec<u32> {
    let shader = tgsi::parse(tes).expect("tes.tgsi parses");
    let mut regs: Vec<u32> = shader
        .declarations
        .iter()
        .filter(|d| d.file == tgsi::File::Output)
        .flat_map(|d| d.first..=d.last)
        .collect();
    regs.sort_unstable();
    regs.dedup();
    regs
}

/// What a GPU run without a Vulkan adapter prints.
const NO_ADAPTER: &str = "no GPU adapter";

/// Runs a case through `tgsi run` on `engine`; a description of the first difference if
/// any.
fn run_case(dir: &Path, scratch: &Path, engine: &str) -> Result<(), String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"));
    let meta: Value = serde_json::from_str(&read("meta.json")?).map_err(|e| e.to_string())?;
    let path = |f: &str| dir.join(f).display().to_string();
    let mut args = vec!["run".to_string(), path("vs.tgsi")];
    if dir.join("tcs.tgsi").is_file() {
        args.push(path("tcs.tgsi"));
    }
    args.push(path("tes.tgsi"));
    if dir.join("gs.tgsi").is_file() {
        return Err("cases with a geometry shader are not packed by this test".into());
    }
    args.extend([
        "--patch-vertices".into(),
        num(&meta["patch_vertices"]).to_string(),
    ]);
    args.extend(["--instances".into(), num(&meta["instances"]).to_string()]);
    for input in meta["inputs"].as_array().ok_or("inputs")? {
        let file = input["file"].as_str().ok_or("input file")?;
        args.extend([
            "--input".into(),
            format!("IN[{}]={}", num(&input["location"]), path(file)),
        ]);
    }
    let levels: Vec<String> = meta["tess_levels"]["virgl_set_tess_state"]
        .as_array()
        .ok_or("levels")?
        .iter()
        .map(ToString::to_string)
        .collect();
    args.extend(["--tess-outer".into(), levels[..4].join(",")]);
    args.extend(["--tess-inner".into(), levels[4..6].join(",")]);
    if let Ok(uniforms) = read("uniforms.txt") {
        let consts = scratch.join("consts.txt");
        std::fs::write(&consts, consts_text(&uniforms)).map_err(|e| e.to_string())?;
        args.extend(["--consts".into(), consts.display().to_string()]);
    }
    let captured = scratch.join("captured.bin");
    args.extend(["-o".into(), captured.display().to_string()]);
    args.extend(["--engine".into(), engine.into()]);
    let out = tgsi(&args);
    if !out.status.success() {
        return Err(format!(
            "tgsi failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let got = std::fs::read(&captured).map_err(|e| e.to_string())?;
    let packed = pack(&meta, &declared_outputs(&read("tes.tgsi")?), &words(&got));
    let want = std::fs::read(dir.join("tf.bin")).map_err(|e| e.to_string())?;
    if packed == want {
        return Ok(());
    }
    let stride = num(&meta["tf_stride_bytes"]);
    let first = packed
        .iter()
        .zip(&want)
        .position(|(a, b)| a != b)
        .unwrap_or(packed.len().min(want.len()));
    Err(format!(
        "{} bytes, want {}; first difference in TF vertex {} at byte {}",
        packed.len(),
        want.len(),
        first / stride,
        first % stride
    ))
}

/// Runs every case on `engine`; false when the GPU engine found no adapter.
fn check_all(engine: &str) -> bool {
    let root = corpus();
    let Ok(entries) = std::fs::read_dir(&root) else {
        println!("skipped: no tessref corpus at {}", root.display());
        return true;
    };
    let mut cases: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("meta.json").is_file())
        .collect();
    cases.sort();
    let scratch =
        std::env::temp_dir().join(format!("tgsi-tessref-{}-{engine}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let mut failures = Vec::new();
    for case in &cases {
        match run_case(case, &scratch, engine) {
            Ok(()) => {}
            Err(e) if e.contains(NO_ADAPTER) => {
                println!("skipped: {NO_ADAPTER}");
                let _ = std::fs::remove_dir_all(&scratch);
                return false;
            }
            Err(e) => failures.push(format!("{}: {e}", case.display())),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!(
        "{} of {} tessref cases byte-exact on {engine}",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    true
}

#[test]
fn every_tessref_case_is_byte_exact_through_tgsi_run() {
    check_all("interp");
}

/// The same with every shader on the GPU engine: the control and evaluation shaders as
/// compute shaders around the interpreter's tessellator (skipped without a Vulkan adapter).
#[test]
fn every_tessref_case_is_byte_exact_on_the_gpu_engine() {
    check_all("gpu");
}

const VS: &str = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nMOV OUT[0], IN[0]\nEND\n";
const TES: &str = "TESS_EVAL\nPROPERTY TES_PRIM_MODE 1\nPROPERTY TES_SPACING 2\n\
                   PROPERTY TES_VERTEX_ORDER_CW 0\nPROPERTY TES_POINT_MODE 0\n\
                   DCL IN[][0], GENERIC[0]\nDCL SV[0], TESSCOORD\nDCL OUT[0], GENERIC[0]\n\
                   DCL OUT[1], GENERIC[1]\nMOV OUT[0], SV[0]\nMOV OUT[1], IN[1][0]\nEND\n";

/// Write `files` (name, text) into a fresh directory; returns their paths.
fn write(test: &str, files: &[(&str, &str)]) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("tgsi-tess-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    files
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            std::fs::write(&p, text).expect("write");
            p.display().to_string()
        })
        .collect()
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

#[test]
fn isolines_without_a_control_shader_print_and_write() {
    let p = write("isolines", &[("vs.tgsi", VS), ("tes.tgsi", TES)]);
    // Indexed draw of patches (0 1) and (1 0); default outer levels 2 lines of 3 segments.
    let base = [
        "run",
        &p[0],
        &p[1],
        "--patch-vertices",
        "2",
        "--count",
        "2",
        "--input",
        "IN[0]=1,2,3,4",
        "--indices",
        "0,1,1,0",
        "--tess-outer",
        "2,3,1,1",
        "--instances",
        "2",
    ];
    let out = tgsi(&args(&base));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("24 primitives (lines, 48 vertices) from 4 patches"),
        "{stderr}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("primitive 0 (lines): 2 vertices\n  vertex 0 OUT[0] GENERIC[0]: 0.0000 0.0000 0.0000 0.0000\n"), "{text}");
    assert!(
        text.contains("  vertex 1 OUT[0] GENERIC[0]: 0.3333 0.0000 0.0000 0.0000\n"),
        "{text}"
    );
    let mut with_o = args(&base);
    with_o.extend(args(&["-o", "-"]));
    let raw = tgsi(&with_o).stdout;
    assert_eq!(raw.len(), 48 * 2 * 16);
    assert_eq!(words(&raw)[4..8], [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits));
}

#[test]
fn malformed_tessellation_requests_are_refused() {
    let p = write("refused", &[("vs.tgsi", VS), ("tes.tgsi", TES)]);
    let (vs, tes) = (p[0].as_str(), p[1].as_str());
    let chain = |extra: &[&'static str]| {
        let mut list = vec!["run", vs, tes, "--count", "2"];
        list.extend_from_slice(extra);
        list
    };
    let cases = [
        (chain(&[]), "--patch-vertices"),
        (chain(&["--patch-vertices", "33"]), "33 vertices per patch"),
        (
            vec!["run", tes, vs, "--count", "2", "--patch-vertices", "2"],
            "VERT [TESS_CTRL] TESS_EVAL [GEOM]",
        ),
        (
            chain(&["--patch-vertices", "2", "--indices", "0,5"]),
            "index 5",
        ),
        (
            chain(&["--patch-vertices", "2", "--tess-inner", "1"]),
            "--tess-inner",
        ),
        (
            chain(&["--patch-vertices", "2", "--instance", "1"]),
            "--instance does not apply",
        ),
        // Tessellation options elsewhere are refused rather than ignored.
        (
            vec!["run", vs, "--count", "2", "--instances", "3"],
            "--instances is for chained stages",
        ),
        (
            vec!["run", vs, "--count", "2", "--patch-vertices", "3"],
            "--patch-vertices is for",
        ),
    ];
    for (list, want) in cases {
        let out = tgsi(&args(&list));
        assert!(!out.status.success(), "{list:?} succeeded");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(want), "{list:?}: {stderr}");
    }
}

#[test]
fn help_describes_tessellation() {
    let out = tgsi(&args(&["run", "--help"]));
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "--patch-vertices",
        "--instances",
        "--tess-outer",
        "--indices",
        "TES.tgsi",
    ] {
        assert!(text.contains(want), "--help lacks {want}");
    }
}
