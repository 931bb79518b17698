//! `--engine gpu` from the command line: a fragment shader renders the interpreter's image
//! through `tgsi render`, a compute kernel leaves the interpreter's bytes through `tgsi run`,
//! vertex and geometry shaders give the interpreter's outputs through `tgsi run`, `tgsi bench
//! --engine gpu` reports Mpix/s, and VS TCS TES (GS) chains give the interpreter's
//! primitives. Without a Vulkan adapter the GPU runs print "skipped: no GPU adapter" and
//! return (the refusals are still checked).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tgsi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tgsi"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-gpu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Whether `out` failed for want of an adapter (then the caller skips).
fn no_adapter(out: &Output) -> bool {
    let skipped = !out.status.success() && stderr(out).contains("no GPU adapter");
    if skipped {
        eprintln!("skipped: no GPU adapter");
    }
    skipped
}

/// `run("gpu")` and `run("interp")` both succeed and print the same: that output, or
/// `None` (skipped) without an adapter.
fn same_output_on_both_engines(run: impl Fn(&str) -> Output) -> Option<String> {
    let gpu = run("gpu");
    if no_adapter(&gpu) {
        return None;
    }
    assert!(gpu.status.success(), "{}", stderr(&gpu));
    let interp = run("interp");
    assert!(interp.status.success(), "{}", stderr(&interp));
    let out = String::from_utf8_lossy(&gpu.stdout).into_owned();
    assert_eq!(out, String::from_utf8_lossy(&interp.stdout));
    Some(out)
}

const SHADER: &str = "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nDCL IN[0], POSITION, LINEAR\n\
DCL IN[1], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0][0]\nDCL TEMP[0]\n\
IMM[0] FLT32 {3.0, 0.0, 0.0, 0.0}\n  0: ADD TEMP[0].x, IN[0].yyyy, -IMM[0].xxxx\n\
  1: KILL_IF TEMP[0].xxxx\n  2: MUL OUT[0].xy, IN[0].xyyy, CONST[0][0].xyyy\n\
  3: MOV OUT[0].zw, IN[1].xxxy\n  4: END\n";

#[test]
fn render_matches_the_interpreter() {
    let shader = temp("s.tgsi");
    std::fs::write(&shader, SHADER).expect("write shader");
    let consts = temp("consts.txt");
    std::fs::write(&consts, "CONST[0][0] = 0.5 0.25 0 0\n").expect("write consts");
    let render = |engine: &str| {
        let raw = temp(&format!("{engine}.f32"));
        let out = tgsi()
            .arg("render")
            .arg(&shader)
            .arg("--consts")
            .arg(&consts)
            .args([
                "--size",
                "9x7",
                "--clear=-1,-2,-3,-4",
                "--input",
                "IN[1]=0.5,0x7f800001,0,0",
            ])
            .args(["--engine", engine, "--raw"])
            .arg(&raw)
            .output()
            .expect("run tgsi");
        (out, raw)
    };
    let (gpu, gpu_raw) = render("gpu");
    if no_adapter(&gpu) {
        return;
    }
    assert!(gpu.status.success(), "{}", stderr(&gpu));
    let (interp, interp_raw) = render("interp");
    assert!(interp.status.success(), "{}", stderr(&interp));
    let read = |p: &Path| std::fs::read(p).expect("raw image");
    assert_eq!(read(&gpu_raw), read(&interp_raw));
}

#[test]
fn run_dispatches_a_compute_kernel() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tgsi-jit/benches/shaders/matmul");
    let dir = temp("matmul");
    std::fs::create_dir_all(&dir).expect("out dir");
    let text = std::fs::read_to_string(case.join("tgsi-bindings.json")).expect("bindings");
    let mut doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    for r in doc["resources"].as_array_mut().expect("resources") {
        let name = r["name"].as_str().expect("name").to_string();
        r["data"] = case
            .join(r["data"].as_str().expect("data"))
            .to_string_lossy()
            .into();
        r["out"] = dir.join(format!("out_{name}.bin")).to_string_lossy().into();
    }
    let bindings = dir.join("b.json");
    std::fs::write(&bindings, doc.to_string()).expect("write bindings");
    let out = tgsi()
        .arg("run")
        .arg(case.join("shader.tgsi"))
        .arg("--bindings")
        .arg(&bindings)
        .args(["--engine", "gpu"])
        .output()
        .expect("run tgsi");
    if no_adapter(&out) {
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    for r in doc["resources"].as_array().expect("resources") {
        let name = r["name"].as_str().expect("name");
        let got = std::fs::read(dir.join(format!("out_{name}.bin"))).expect("output");
        let want = std::fs::read(case.join(format!("out_{name}.bin"))).expect("softpipe's");
        assert!(got == want, "{name} differs from softpipe's");
    }
}

#[test]
fn bench_reports_the_gpu() {
    let shader = temp("b.tgsi");
    std::fs::write(&shader, SHADER).expect("write shader");
    let out = tgsi()
        .arg("bench")
        .arg(&shader)
        .args([
            "--engine",
            "gpu",
            "--size",
            "32x32",
            "--min-time",
            "0",
            "--json",
        ])
        .output()
        .expect("run tgsi");
    if no_adapter(&out) {
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    let line = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON line");
    assert_eq!(v["engine"], "gpu");
    assert!(v["mpix_per_s"].as_f64().is_some_and(|m| m > 0.0), "{line}");
}

#[test]
fn run_runs_a_vertex_shader() {
    let vs = temp("transform.vert.tgsi");
    std::fs::write(
        &vs,
        "VERT\nDCL IN[0]\nDCL SV[0], VERTEXID\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n\
         DCL CONST[0][0]\n  0: MUL OUT[0], IN[0], CONST[0][0]\n  1: MOV OUT[1], SV[0]\n  2: END\n",
    )
    .expect("write shader");
    let consts = temp("vconsts.txt");
    std::fs::write(&consts, "CONST[0][0] = 2 3 0.5 0x7fc00001\n").expect("write consts");
    let run = |engine: &str| {
        tgsi()
            .arg("run")
            .arg(&vs)
            .arg("--consts")
            .arg(&consts)
            .args(["--count", "70", "--base-vertex=-3", "--hex"])
            .args(["--input", "IN[0]=1.5,-2,0x7f800000,4", "--engine", engine])
            .output()
            .expect("run tgsi")
    };
    let Some(out) = same_output_on_both_engines(run) else {
        return;
    };
    assert_eq!(out.lines().count(), 140);
}

/// A geometry shader runs as a compute shader recording what it emits, and prints the
/// interpreter's primitives and vertices.
#[test]
fn geometry_shader_gives_the_interpreters_primitives() {
    let gs = temp("g.tgsi");
    std::fs::write(
        &gs,
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE LINES\nPROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES 4\nPROPERTY GS_INVOCATIONS 2\nDCL IN[][0], POSITION\n\
         DCL SV[0], INVOCATIONID\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n\
         IMM[0] FLT32 {0.5, 0.0, 0.0, 0.0}\n  0: MOV OUT[0], IN[0][0]\n\
         1: MOV OUT[1], SV[0].xxxx\n  2: EMIT IMM[0].yyyy\n  3: MUL OUT[0], IN[1][0], IMM[0].xxxx\n\
         4: EMIT IMM[0].yyyy\n  5: ENDPRIM IMM[0].yyyy\n  6: EMIT IMM[0].yyyy\n  7: END\n",
    )
    .expect("write shader");
    let run = |engine: &str| {
        tgsi()
            .arg("run")
            .arg(&gs)
            .args(["--input", "IN[0]=1,-2,0.25,8", "--count", "3", "--hex"])
            .args(["--engine", engine])
            .output()
            .expect("run tgsi")
    };
    let Some(out) = same_output_on_both_engines(run) else {
        return;
    };
    // 3 primitives × 2 invocations × 2 strips, with a header line and 2 lines per vertex.
    assert_eq!(out.lines().count(), 3 * 2 * (1 + 2 * 2 + 1 + 2));
}

/// A VS TCS TES GS chain on the GPU engine prints the interpreter's table: a control
/// shader that writes per-vertex, per-patch and level outputs from its inputs and reads
/// another invocation's output after a BARRIER, an evaluation shader reading per-vertex
/// inputs indirectly and per-patch ones, and a geometry shader after them.
#[test]
fn tessellation_chains_match_the_interpreter() {
    let vs = temp("tv.tgsi");
    std::fs::write(
        &vs,
        "VERT\nDCL IN[0]\nDCL SV[0], VERTEXID\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\n\
         0: MOV OUT[0], IN[0]\n  1: U2F OUT[1], SV[0].xxxx\n  2: END\n",
    )
    .expect("write shader");
    let tcs = temp("tc.tgsi");
    std::fs::write(
        &tcs,
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], GENERIC[0]\n\
         DCL IN[][1], GENERIC[1]\nDCL SV[0], INVOCATIONID\nDCL SV[1], PRIM_ID\n\
         DCL OUT[0], TESSOUTER\nDCL OUT[1], TESSINNER\nDCL OUT[][2], GENERIC[0]\n\
         DCL OUT[][3], GENERIC[1]\nDCL OUT[4], PATCH\nDCL TEMP[0..1]\nDCL ADDR[0]\n\
         IMM[0] UINT32 {1, 3, 0, 0}\nIMM[1] FLT32 {2.0, 3.0, 4.0, 1.5}\n\
         0: UARL ADDR[0].x, SV[0].xxxx\n  1: ADD OUT[ADDR[0].x][2], IN[ADDR[0].x][0], IN[ADDR[0].x][1]\n\
         2: BARRIER\n  3: UADD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n  4: UMOD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
         5: UARL ADDR[0].x, TEMP[0].xxxx\n  6: MOV TEMP[1], OUT[ADDR[0].x][2]\n\
         7: UARL ADDR[0].x, SV[0].xxxx\n  8: MOV OUT[ADDR[0].x][3], TEMP[1]\n\
         9: MOV OUT[0], IMM[1]\n 10: MOV OUT[1].xy, IMM[1].wzzz\n 11: U2F OUT[4].x, SV[1].xxxx\n 12: END\n",
    )
    .expect("write shader");
    let tes = temp("te.tgsi");
    std::fs::write(
        &tes,
        "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 1\nPROPERTY TES_VERTEX_ORDER_CW 0\n\
         PROPERTY TES_POINT_MODE 0\nDCL IN[][0], GENERIC[0]\nDCL IN[][1], GENERIC[1]\n\
         DCL IN[2], PATCH\nDCL IN[3], TESSOUTER\nDCL SV[0], TESSCOORD\nDCL SV[1], PRIM_ID\n\
         DCL SV[2], TESSINNER\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL OUT[2], GENERIC[1]\n\
         DCL TEMP[0]\nDCL ADDR[0]\nIMM[0] INT32 {2, 0, 0, 0}\n\
         0: MUL TEMP[0], IN[0][0], SV[0].xxxx\n  1: MAD TEMP[0], IN[1][0], SV[0].yyyy, TEMP[0]\n\
         2: MAD OUT[0], IN[2][0], SV[0].zzzz, TEMP[0]\n  3: ARL ADDR[0].x, SV[0].xxxx\n\
         4: ADD OUT[1], IN[ADDR[0].x + 1][1], IN[2]\n  5: MOV OUT[2].xy, SV[2]\n  6: ADD OUT[2].zw, IN[3].xxxy, SV[1].xxxx\n  7: END\n",
    )
    .expect("write shader");
    let gs = temp("tg.tgsi");
    std::fs::write(
        &gs,
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\nDCL IN[][1], GENERIC[0]\n\
         DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n\
         0: ADD OUT[0], IN[0][0], IN[2][0]\n  1: MOV OUT[1], IN[1][1]\n  2: EMIT IMM[0].xxxx\n  3: END\n",
    )
    .expect("write shader");
    for last in [None, Some(&gs)] {
        let run = |engine: &str| {
            tgsi()
                .arg("run")
                .args([&vs, &tcs, &tes])
                .args(last)
                .args(["--input", "IN[0]=0.5,-1,2,0.25", "--count", "7"])
                .args(["--patch-vertices", "3", "--instances", "2", "--hex"])
                .args(["--engine", engine])
                .output()
                .expect("run tgsi")
        };
        let Some(out) = same_output_on_both_engines(run) else {
            return;
        };
        // Levels (2, 3, 4) and inner 1.5 on triangles with fractional-even spacing:
        // many triangles, from 2 patches of each of 2 instances.
        let primitives = out.lines().filter(|l| l.starts_with("primitive")).count();
        assert!(primitives > 20, "{primitives} primitives:\n{out}");
    }
}
