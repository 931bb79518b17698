//! `tgsi run`: vertex shaders over file and inline inputs, system values, raw output and
//! the errors for mismatched vertex counts and non-vertex shaders; geometry shaders over
//! input primitives, printed per stream and primitive or written per stream.

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
        stderr(&out)
            .contains("needs a vertex (VERT), geometry (GEOM) or compute (COMP) shader, not FRAG"),
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

/// Points in; per point a 2-vertex line on stream 0 (the input, then twice the input) and
/// one stream-1 vertex holding (PRIM_ID, INVOCATIONID, 0, 0) as integers.
const GS: &str =
    "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP\n\
PROPERTY GS_MAX_OUTPUT_VERTICES 4\nPROPERTY GS_INVOCATIONS 2\nDCL IN[][0], GENERIC[0]\n\
DCL IN[][1], PRIM_ID\nDCL SV[0], INVOCATIONID\nDCL OUT[0], GENERIC[0]\n\
IMM[0] UINT32 {0, 1, 0, 0}\nIMM[1] FLT32 {2.0, 0.0, 0.0, 0.0}\n\
MOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nMUL OUT[0], IN[0][0], IMM[1].xxxx\nEMIT IMM[0].xxxx\n\
ENDPRIM IMM[0].xxxx\nMOV OUT[0], IMM[0].xxxx\nMOV OUT[0].x, IN[0][1].xxxx\n\
MOV OUT[0].y, SV[0].xxxx\nEMIT IMM[0].yyyy\nEND\n";

#[test]
fn geometry_shader_per_stream() {
    let dir = scratch("gs");
    let shader = dir.join("gs.tgsi");
    std::fs::write(&shader, GS).expect("write shader");
    let points = dir.join("points.f32");
    write_vec4s(&points, &[[1.0, 2.0, 3.0, 4.0], [0.5, 0.0, -1.0, 0.0]]);
    let sh = shader.to_str().expect("utf-8 path");
    let input = format!("--input=IN[0]={}", points.display());
    // The primitive count comes from the file (one vertex per point).
    let out = tgsi(&["run", sh, &input]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "stream 0 primitive 0 (line_strip, input primitive 0, invocation 0): 2 vertices\n\
         \x20 vertex 0 OUT[0] GENERIC[0]: 1.0000 2.0000 3.0000 4.0000\n\
         \x20 vertex 1 OUT[0] GENERIC[0]: 2.0000 4.0000 6.0000 8.0000\n\
         stream 0 primitive 1 (line_strip, input primitive 0, invocation 1): 2 vertices\n"
        ),
        "{text}"
    );
    assert!(
        stderr(&out).contains(
            "4 primitives (line_strip, 8 vertices) on stream 0, \
             4 primitives (line_strip, 4 vertices) on stream 1"
        ),
        "{}",
        stderr(&out)
    );
    let out = tgsi(&["run", sh, &input, "--hex"]);
    assert!(
        stdout(&out).ends_with(
            "stream 1 primitive 3 (line_strip, input primitive 1, invocation 1): 1 vertices\n\
         \x20 vertex 0 OUT[0] GENERIC[0]: 0x00000001 0x00000001 0x00000000 0x00000000\n"
        ),
        "{}",
        stdout(&out)
    );

    // Stream 1 as raw words, and its primitive lengths.
    let raw = dir.join("s1.bin");
    let lengths = dir.join("s1.len");
    let out = tgsi(&[
        "run",
        sh,
        &input,
        "--count",
        "2",
        "--stream",
        "1",
        "-o",
        raw.to_str().expect("utf-8 path"),
        "--primitives",
        lengths.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let words: Vec<u32> = std::fs::read(&raw)
        .expect("read output")
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    // (prim, invocation) = (0,0) (0,1) (1,0) (1,1).
    assert_eq!(words, [0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0]);
    assert_eq!(
        std::fs::read(&lengths).expect("read lengths"),
        [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    );

    // Errors: a count the file cannot fill, a stream that does not exist.
    let out = tgsi(&["run", sh, &input, "--count", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--count 3 needs 3 vertices"),
        "{}",
        stderr(&out)
    );
    let out = tgsi(&["run", sh, "--count", "1", "--stream", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--stream 4"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chained_vertex_and_geometry_shaders() {
    let dir = scratch("chain");
    let gs = dir.join("gs.tgsi");
    std::fs::write(&gs, GS).expect("write shader");
    let (vs, gs) = (example(), gs);
    let (vs, gs) = (vs.to_str().expect("utf-8"), gs.to_str().expect("utf-8"));
    // The example VS writes GENERIC[0] = (IN[1].xy, vertex id, instance id); the GS reads
    // GENERIC[0] and emits it, then twice it, per point.
    let out = tgsi(&[
        "run",
        vs,
        gs,
        "--prim",
        "points",
        "--count",
        "2",
        "--input",
        "IN[1]=1,2,0,0",
        "--hex",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(
            "stream 0 primitive 2 (line_strip, input primitive 1, invocation 0): 2 vertices\n\
         \x20 vertex 0 OUT[0] GENERIC[0]: 0x3f800000 0x40000000 0x3f800000 0x00000000\n"
        ),
        "{}",
        stdout(&out)
    );
    // -o: each 2-vertex line strip is one line of two vertices, 4 lines in all.
    let raw = dir.join("tf.bin");
    let out = tgsi(&[
        "run",
        vs,
        gs,
        "--prim",
        "points",
        "--count",
        "2",
        "-o",
        raw.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&raw).expect("read").len(), 4 * 2 * 16);
    // Two instances of an indexed draw: instance after instance, input primitive after
    // input primitive, invocation after invocation; VERTEXID is the index, INSTANCEID the
    // instance, and PRIMID starts again at 0 in each instance.
    let words = || -> Vec<u32> {
        let out = tgsi(&[
            "run",
            vs,
            gs,
            "--prim",
            "points",
            "--count",
            "2",
            "--input",
            "IN[1]=1,2,0,0",
            "--indices",
            "1,0",
            "--instances",
            "2",
            "-o",
            raw.to_str().expect("utf-8"),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read(&raw)
            .expect("read")
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    };
    let f = |x: f32| x.to_bits();
    let lines = words();
    assert_eq!(lines.len(), 2 * 2 * 2 * 2 * 4);
    let vertex = |k: usize| lines[4 * k..4 * k + 4].to_vec();
    assert_eq!(vertex(0), [f(1.0), f(2.0), f(1.0), f(0.0)]);
    assert_eq!(vertex(1), [f(2.0), f(4.0), f(2.0), f(0.0)]);
    assert_eq!(vertex(4), [f(1.0), f(2.0), f(0.0), f(0.0)]);
    assert_eq!(vertex(8), [f(1.0), f(2.0), f(1.0), f(1.0)]);
    assert_eq!(vertex(12), [f(1.0), f(2.0), f(0.0), f(1.0)]);
    // Stream 1 holds single-vertex strips (nothing to capture); the table shows PRIMID.
    let out = tgsi(&[
        "run",
        vs,
        gs,
        "--prim",
        "points",
        "--count",
        "2",
        "--indices",
        "1,0",
        "--instances",
        "2",
        "--hex",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let second = text.split("instance 1\n").nth(1).unwrap_or_default();
    assert!(
        second.contains(
            "stream 1 primitive 2 (line_strip, input primitive 1, invocation 0): 1 vertices\n\
             \x20 vertex 0 OUT[0] GENERIC[0]: 0x00000001 0x00000000 0x00000000 0x00000000\n"
        ),
        "{text}"
    );
    // Chains draw instances; --instance is for a shader run alone.
    let out = tgsi(&[
        "run",
        vs,
        gs,
        "--prim",
        "points",
        "--count",
        "2",
        "--instance",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--instances"), "{}", stderr(&out));
    // A draw mode the GS cannot take, a missing mode, stages in the wrong order.
    let out = tgsi(&["run", vs, gs, "--prim", "triangles", "--count", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot feed"), "{}", stderr(&out));
    let out = tgsi(&["run", vs, gs, "--count", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--prim"), "{}", stderr(&out));
    let out = tgsi(&["run", gs, vs, "--prim", "points", "--count", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("vertex then a geometry"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The words `--hex` prints for each vertex's OUT[0].
fn hex_rows(out: &Output) -> Vec<[u32; 4]> {
    stdout(out)
        .lines()
        .map(|line| {
            let words: Vec<u32> = line
                .split_whitespace()
                .filter_map(|w| w.strip_prefix("0x"))
                .map(|w| u32::from_str_radix(w, 16).expect("hex word"))
                .collect();
            words.try_into().expect("four words")
        })
        .collect()
}

#[test]
fn approx_math_keeps_transcendentals_within_their_bounds_on_the_jit_only() {
    let dir = scratch("approx");
    let shader = dir.join("t.tgsi");
    std::fs::write(
        &shader,
        "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n  0: SIN OUT[0].x, IN[0].xxxx\n  1: COS OUT[0].y, IN[0].xxxx\n  2: EX2 OUT[0].z, IN[0].xxxx\n  3: LG2 OUT[0].w, IN[0].xxxx\n  4: END\n",
    )
    .expect("write shader");
    // 0.01 to 62: 2^x stays finite.
    let xs: Vec<f32> = (0..180).map(|i| 0.01 * 1.05f32.powi(i)).collect();
    let input = dir.join("x.f32");
    write_vec4s(
        &input,
        &xs.iter().map(|&x| [x, 0.0, 0.0, 0.0]).collect::<Vec<_>>(),
    );
    let path = shader.to_str().expect("utf-8 path");
    let input_arg = format!("--input=IN[0]={}", input.display());
    let exact = tgsi(&["run", path, &input_arg, "--hex"]);
    let approx = tgsi(&["run", path, &input_arg, "--hex", "--approx-math"]);
    assert!(exact.status.success(), "{}", stderr(&exact));
    assert!(approx.status.success(), "{}", stderr(&approx));
    let (exact, approx) = (hex_rows(&exact), hex_rows(&approx));
    assert_eq!(approx.len(), xs.len());
    assert_ne!(exact, approx, "--approx-math changed nothing");
    let ulp = |v: f64| 2f64.powi(v.abs().log2().floor() as i32 - 23);
    for (&x, row) in xs.iter().zip(&approx) {
        let [s, c, e, l] = row.map(|w| f64::from(f32::from_bits(w)));
        let x = f64::from(x);
        assert!((s - x.sin()).abs() <= 2f64.powi(-22), "sin({x}) = {s}");
        assert!((c - x.cos()).abs() <= 2f64.powi(-22), "cos({x}) = {c}");
        assert!(
            (e - x.exp2()).abs() <= 2.0 * ulp(x.exp2()),
            "ex2({x}) = {e}"
        );
        assert!(
            (l - x.log2()).abs() <= 2.0 * ulp(x.log2()),
            "lg2({x}) = {l}"
        );
    }
    let refused = tgsi(&[
        "run",
        path,
        &input_arg,
        "--approx-math",
        "--engine",
        "interp",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("--approx-math applies to --engine jit only"),
        "{}",
        stderr(&refused)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
