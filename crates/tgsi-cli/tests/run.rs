//! `tgsi run`: vertex shaders over file and inline inputs, system values, raw output and
//! the errors for mismatched vertex counts and non-vertex shaders.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh scratch directory for one test (removed at its end when it passes).
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-run-test-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Write little-endian f32 vec4s, one per vertex.
fn write_vec4s(path: &Path, vectors: &[[f32; 4]]) {
    let bytes: Vec<u8> = vectors
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    std::fs::write(path, bytes).expect("write input file");
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transform.vert.tgsi")
}

fn tgsi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(args)
        .output()
        .expect("run tgsi")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Scale by (2, 3, 4), translate by (10, 20, 30), as columns of CONST[0..3].
const MATRIX: &str = "CONST[0] = 2 0 0 0\nCONST[1] = 0 3 0 0\nCONST[2] = 0 0 4 0\n\
                      CONST[3] = 10 20 30 1\n";

#[test]
fn transforms_file_inputs_with_the_bundled_example() {
    let dir = scratch("file");
    let pos = dir.join("pos.f32");
    let uv = dir.join("uv.f32");
    let consts = dir.join("matrix.txt");
    write_vec4s(&pos, &[[1.0, 2.0, 3.0, 1.0], [-1.0, 0.5, 0.25, 1.0]]);
    write_vec4s(&uv, &[[0.25, 0.75, 9.0, 9.0], [1.0, 0.0, 9.0, 9.0]]);
    std::fs::write(&consts, MATRIX).expect("write consts");
    let out = tgsi(&[
        "run",
        example().to_str().expect("utf-8 path"),
        &format!("--input=IN[0]={}", pos.display()),
        &format!("--input=IN[1]={}", uv.display()),
        "--consts",
        consts.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "vertex 0 OUT[0] POSITION: 12.0000 26.0000 42.0000 1.0000\n\
         vertex 0 OUT[1] GENERIC[0]: 0.2500 0.7500 0.0000 0.0000\n\
         vertex 1 OUT[0] POSITION: 8.0000 21.5000 31.0000 1.0000\n\
         vertex 1 OUT[1] GENERIC[0]: 1.0000 0.0000 1.0000 0.0000\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inline_inputs_and_hex() {
    let out = tgsi(&[
        "run",
        example().to_str().expect("utf-8 path"),
        "--input",
        "IN[0]=1,1,1,0x3f800000",
        "--input",
        "IN[1]=0.5,0x40000000,0,0",
        "--count",
        "2",
        "--hex",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // No constants: the position is 0; GENERIC[0] = (0.5, 2, vertex id, instance id).
    assert_eq!(
        stdout(&out),
        "vertex 0 OUT[0] POSITION: 0x00000000 0x00000000 0x00000000 0x00000000\n\
         vertex 0 OUT[1] GENERIC[0]: 0x3f000000 0x40000000 0x00000000 0x00000000\n\
         vertex 1 OUT[0] POSITION: 0x00000000 0x00000000 0x00000000 0x00000000\n\
         vertex 1 OUT[1] GENERIC[0]: 0x3f000000 0x40000000 0x3f800000 0x00000000\n"
    );
}

#[test]
fn system_values() {
    let dir = scratch("sv");
    let shader = dir.join("sv.tgsi");
    std::fs::write(
        &shader,
        "VERT\nDCL SV[0], VERTEXID\nDCL SV[1], INSTANCEID\nDCL SV[2], BASEVERTEX\n\
         DCL SV[3], VERTEXID_NOBASE\nDCL OUT[0], GENERIC[3]\n\
         0: MOV OUT[0].x, SV[0].xxxx\n1: MOV OUT[0].y, SV[1].xxxx\n\
         2: MOV OUT[0].z, SV[2].xxxx\n3: MOV OUT[0].w, SV[3].xxxx\n4: END\n",
    )
    .expect("write shader");
    let out = tgsi(&[
        "run",
        shader.to_str().expect("utf-8 path"),
        "--count",
        "3",
        "--instance",
        "5",
        "--base-vertex",
        "-1",
        "--hex",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "vertex 0 OUT[0] GENERIC[3]: 0xffffffff 0x00000005 0xffffffff 0x00000000\n\
         vertex 1 OUT[0] GENERIC[3]: 0x00000000 0x00000005 0xffffffff 0x00000001\n\
         vertex 2 OUT[0] GENERIC[3]: 0x00000001 0x00000005 0xffffffff 0x00000002\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn raw_output_file() {
    let dir = scratch("raw");
    let pos = dir.join("pos.f32");
    let raw = dir.join("out.bin");
    let consts = dir.join("matrix.txt");
    let vertices: Vec<[f32; 4]> = (0..5).map(|i| [i as f32, 0.0, 0.0, 1.0]).collect();
    write_vec4s(&pos, &vertices);
    std::fs::write(&consts, MATRIX).expect("write consts");
    let out = tgsi(&[
        "run",
        example().to_str().expect("utf-8 path"),
        &format!("--input=IN[0]={}", pos.display()),
        "--consts",
        consts.to_str().expect("utf-8 path"),
        "--instance",
        "3",
        "-o",
        raw.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "-o replaces the table");
    let bytes = std::fs::read(&raw).expect("read output");
    // 5 vertices × 2 outputs × 4 words × 4 bytes.
    assert_eq!(bytes.len(), 5 * 2 * 16);
    let words: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    for (v, out) in words.chunks_exact(8).enumerate() {
        let x = 2.0 * v as f32 + 10.0;
        assert_eq!(
            out,
            [x, 20.0, 30.0, 1.0, 0.0, 0.0, v as f32, 3.0],
            "vertex {v}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mismatched_counts_are_rejected() {
    let dir = scratch("mismatch");
    let (a, b) = (dir.join("a.f32"), dir.join("b.f32"));
    write_vec4s(&a, &[[0.0; 4]; 3]);
    write_vec4s(&b, &[[0.0; 4]; 2]);
    let shader = example();
    let shader = shader.to_str().expect("utf-8 path");
    let ina = format!("--input=IN[0]={}", a.display());
    let inb = format!("--input=IN[1]={}", b.display());
    let out = tgsi(&["run", shader, &ina, &inb]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("input files disagree on the vertex count"),
        "{}",
        stderr(&out)
    );
    let out = tgsi(&["run", shader, &ina, "--count", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--count 4 disagrees"),
        "{}",
        stderr(&out)
    );
    let out = tgsi(&["run", shader]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--count"), "{}", stderr(&out));
    std::fs::write(&b, [0u8; 20]).expect("write input file");
    let out = tgsi(&["run", shader, &inb]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("20 bytes is not a whole number of vec4s"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn non_vertex_shaders_and_runtime_errors() {
    let plasma = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plasma.tgsi");
    let out = tgsi(&["run", plasma.to_str().expect("utf-8 path"), "--count", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("needs a vertex (VERT) or compute (COMP) shader, not FRAG"),
        "{}",
        stderr(&out)
    );
    let dir = scratch("budget");
    let endless = dir.join("endless.tgsi");
    std::fs::write(
        &endless,
        "VERT\nDCL OUT[0], POSITION\n0: BGNLOOP\n1: ENDLOOP\n2: END\n",
    )
    .expect("write shader");
    let out = tgsi(&[
        "run",
        endless.to_str().expect("utf-8 path"),
        "--count",
        "1",
        "--budget",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("instruction budget of 100 exhausted"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
