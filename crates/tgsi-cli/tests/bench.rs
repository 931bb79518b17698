//! `tgsi bench`: it times fragment and compute shaders on the interpreter and the JIT,
//! prints one JSON object per engine with `--json`, and refuses other stages and bad
//! options with a clear error.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn tgsi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("run tgsi")
}

/// One JSON object per line of stdout.
fn json(out: &Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect()
}

#[test]
fn times_a_fragment_shader() {
    let lines = json(&tgsi(&[
        "bench",
        "examples/plasma.tgsi",
        "--size",
        "16x16",
        "--min-time",
        "0",
        "--json",
    ]));
    let engines: Vec<&Value> = lines.iter().map(|v| &v["engine"]).collect();
    assert_eq!(engines, ["interp", "jit"]);
    for v in &lines {
        assert_eq!(v["threads"], 1);
        assert_eq!(v["fallback"], false, "{v}");
        assert!(v["mpix_per_s"].as_f64().is_some_and(|m| m > 0.0), "{v}");
        assert!(v["runs"].as_u64().is_some_and(|r| r >= 1), "{v}");
        assert!(v["compile_ms"].as_f64().is_some_and(|c| c >= 0.0), "{v}");
    }
    let only = json(&tgsi(&[
        "bench",
        "examples/plasma.tgsi",
        "--size",
        "8x8",
        "--min-time",
        "0",
        "--json",
        "--engine",
        "jit",
    ]));
    assert_eq!(only.len(), 1);
    assert_eq!(only[0]["engine"], "jit");
}

#[test]
fn times_a_compute_dispatch() {
    let dir = std::env::temp_dir().join(format!("tgsi-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cs = dir.join("cs.tgsi");
    std::fs::write(
        &cs,
        "COMP\nDCL SV[0], THREAD_ID\nDCL TEMP[0]\n  0: UADD TEMP[0].x, SV[0].xxxx, SV[0].yyyy\n  1: END\n",
    )
    .expect("write shader");
    let path = cs.to_str().expect("utf-8 path");
    let lines = json(&tgsi(&[
        "bench",
        path,
        "--grid",
        "2,1,1",
        "--block",
        "8,2,1",
        "--min-time",
        "0",
        "--json",
    ]));
    // Both engines time the dispatch.
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["engine"], "jit");
    assert_eq!(lines[1]["fallback"], false);
    for v in &lines {
        assert!(
            v["us_per_dispatch"].as_f64().is_some_and(|u| u > 0.0),
            "{v}"
        );
        let per_s = v["minvocations_per_s"].as_f64().expect("rate");
        let per_dispatch = v["us_per_dispatch"].as_f64().expect("time");
        // 32 invocations per dispatch: the two figures describe the same runs.
        assert!((per_s * per_dispatch - 32.0).abs() < 0.5, "{v}");
        // Nothing touches memory: the dispatch runs in wide waves, of 16 lanes on the
        // interpreter (a block of 16 threads fills no more).
        let lanes = match v["engine"].as_str() {
            Some("jit") => tgsi_exec::WAVE,
            _ => tgsi_exec::HALF_WAVE,
        };
        assert_eq!(v["wave_lanes"], lanes, "{v}");
    }
}

#[test]
fn refuses_other_stages_and_bad_options() {
    let out = tgsi(&["bench", "examples/transform.vert.tgsi", "--min-time", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("times fragment (FRAG) and compute (COMP) shaders, not VERT"));
    let out = tgsi(&["bench", "examples/plasma.tgsi", "--min-time=nan"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--min-time must be between"));
}

#[test]
fn times_chained_stages_by_what_the_last_stage_captures() {
    // amplify-strip-24: each input triangle becomes a 24-vertex strip, 22 triangles.
    let case = "crates/tgsi-exec/tests/data/gsref/amplify-strip-24";
    let (vs, gs) = (format!("{case}/vs.tgsi"), format!("{case}/gs.tgsi"));
    let args = [
        "bench",
        &vs,
        &gs,
        "--prim",
        "triangles",
        "--count",
        "30",
        "--min-time",
        "0",
        "--json",
    ];
    let lines = json(&tgsi(&args));
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["primitives"], 220);
    assert_eq!(lines[0]["vertices"], 660);
    assert!(lines[0]["primitives_per_s"]
        .as_f64()
        .is_some_and(|r| r > 0.0));
    // A tessellation chain without a control shader: default levels 1, one triangle per
    // patch of three vertices.
    let dir = std::env::temp_dir().join(format!("tgsi-bench-tess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let vs = dir.join("vs.tgsi");
    let tes = dir.join("tes.tgsi");
    std::fs::write(&vs, "VERT\n  0: END\n").expect("write");
    std::fs::write(
        &tes,
        "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 2\nDCL SV[0], TESSCOORD\n\
         DCL OUT[0], GENERIC[0]\n  0: MOV OUT[0], SV[0]\n  1: END\n",
    )
    .expect("write");
    let (vs, tes) = (vs.to_str().expect("utf-8"), tes.to_str().expect("utf-8"));
    let args = [
        "bench",
        vs,
        tes,
        "--patch-vertices",
        "3",
        "--count",
        "6",
        "--min-time",
        "0",
        "--json",
    ];
    let lines = json(&tgsi(&args));
    assert_eq!(lines[0]["primitives"], 2);
    assert_eq!(lines[0]["vertices"], 6);
    // A chain needs its draw.
    let out = tgsi(&["bench", vs, tes, "--count", "6"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--patch-vertices"));
    let _ = std::fs::remove_dir_all(&dir);
}
