//! `tgsi render` against Mesa softpipe: every case of `../shared/corpus/fsref` (and the
//! project's own cases in `crates/tgsi-exec/tests/data/fsref`) rendered exactly as the case
//! was made must produce a file identical to `ref.f32`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => root.join("../../../shared"),
    };
    let mut dirs = Vec::new();
    for base in [
        shared.join("corpus/fsref"),
        root.join("../tgsi-exec/tests/data/fsref"),
    ] {
        if let Ok(entries) = std::fs::read_dir(&base) {
            dirs.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.join("ref.f32").is_file()),
            );
        }
    }
    dirs.sort();
    dirs
}

/// `"W": 64` from meta.json.
fn meta_number(meta: &str, key: &str) -> u32 {
    let needle = format!("\"{key}\":");
    let at = meta.find(&needle).expect("key in meta.json") + needle.len();
    meta[at..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("number")
}

#[test]
fn render_matches_softpipe_bit_for_bit() {
    let cases = cases();
    if cases.is_empty() {
        eprintln!("skipping: no fsref cases found");
        return;
    }
    let out_dir = std::env::temp_dir().join(format!("tgsi-render-test-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("temp dir");
    let mut failures = Vec::new();
    for case in &cases {
        let meta = std::fs::read_to_string(case.join("meta.json")).expect("meta.json");
        let size = format!("{}x{}", meta_number(&meta, "W"), meta_number(&meta, "H"));
        let name = case
            .file_name()
            .expect("case name")
            .to_string_lossy()
            .into_owned();
        let raw = out_dir.join(format!("{name}.f32"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tgsi"));
        cmd.arg("render")
            .arg(case.join("shader.tgsi"))
            .args(["--size", &size]);
        if case.join("consts.txt").is_file() {
            cmd.arg("--consts").arg(case.join("consts.txt"));
        }
        let out = cmd
            .args(["--clear=-1,-2,-3,-4", "--raw"])
            .arg(&raw)
            .output()
            .expect("tgsi runs");
        if !out.status.success() {
            failures.push(format!(
                "{name}: exit {:?}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let ours = std::fs::read(&raw).expect("raw output");
        let reference = std::fs::read(case.join("ref.f32")).expect("ref.f32");
        if ours != reference {
            let first = ours
                .chunks(4)
                .zip(reference.chunks(4))
                .position(|(a, b)| a != b);
            failures.push(format!(
                "{name}: differs from ref.f32 (first differing float: {first:?})"
            ));
        }
    }
    eprintln!("{} cases rendered", cases.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn render_writes_a_png() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let png = std::env::temp_dir().join(format!("tgsi-render-{}.png", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .arg("render")
        .arg(root.join("../../examples/plasma.tgsi"))
        .args(["--size", "32x16", "-o"])
        .arg(&png)
        .output()
        .expect("tgsi runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).expect("png written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, big-endian.
    assert_eq!(&bytes[16..24], &[0, 0, 0, 32, 0, 0, 0, 16]);
}

#[test]
fn endless_loops_hit_the_budget_with_a_clear_error() {
    let shader = "FRAG\nDCL OUT[0], COLOR\n  0: BGNLOOP :1\n  1: ENDLOOP :0\n  2: END\n";
    let dir = std::env::temp_dir();
    let path = dir.join(format!("tgsi-loop-{}.tgsi", std::process::id()));
    std::fs::write(&path, shader).expect("write shader");
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .arg("render")
        .arg(&path)
        .args(["--size", "2x2", "--budget", "1000", "--raw", "-"])
        .output()
        .expect("tgsi runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("budget") && err.contains("instruction"),
        "{err}"
    );
}

/// `--engine interp` and `--engine jit` write the same bits; a shader the JIT does not
/// compile runs on the interpreter with a note naming the reason.
#[test]
fn engines_agree_and_fallback_is_reported() {
    let dir = std::env::temp_dir().join(format!("tgsi-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let render = |shader: &Path, engine: &str| {
        let raw = dir.join(format!("{engine}.f32"));
        let out = Command::new(env!("CARGO_BIN_EXE_tgsi"))
            .arg("render")
            .arg(shader)
            .args(["--size", "37x21", "--engine", engine, "--raw"])
            .arg(&raw)
            .output()
            .expect("run tgsi");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            std::fs::read(&raw).expect("raw output"),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let plasma = root.join("examples/plasma.tgsi");
    let (interp, _) = render(&plasma, "interp");
    let (jit, note) = render(&plasma, "jit");
    assert_eq!(interp, jit);
    assert!(note.is_empty(), "{note}");
    let switch = dir.join("switch.tgsi");
    std::fs::write(
        &switch,
        "FRAG\nDCL IN[0], POSITION\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.5, 0.0, 1.0}\n  0: F2I TEMP[0].x, IN[0].xxxx\n  1: SWITCH TEMP[0].xxxx\n  2: CASE IMM[0].zzzz\n  3: MOV OUT[0], IMM[0]\n  4: BRK\n  5: DEFAULT\n  6: MOV OUT[0], IMM[0].yyyw\n  7: BRK\n  8: ENDSWITCH\n  9: END\n",
    )
    .expect("write shader");
    let (interp, _) = render(&switch, "interp");
    let (jit, note) = render(&switch, "jit");
    assert_eq!(interp, jit);
    assert!(
        note.contains("note: running on the interpreter: SWITCH (instruction 1)"),
        "{note}"
    );
}
