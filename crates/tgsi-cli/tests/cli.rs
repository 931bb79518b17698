//! End-to-end tests of the `tgsi` binary: output, diagnostics and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tgsi(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tgsi runs");
    if let Some(data) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(data)
            .expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("tgsi finishes")
}

fn temp_file(name: &str, content: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("tgsi-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write temp file");
    path.to_string_lossy().into_owned()
}

const CANONICAL: &str = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nIMM[0] FLT32 {    0.5000,     1.0000,     0.0000,     0.0000}\n  0: MUL OUT[0], IN[0], IMM[0].xxxy\n  1: END\n";
const SLOPPY: &str = "frag\ndcl in[0],color,color\ndcl out[0], color\nimm flt32 { 0.5, 1, 0, 0 }\nmul out[0], in[0], imm[0].xxxy\nend\n";

#[test]
fn fmt_prints_the_canonical_form() {
    let out = tgsi(&["fmt", "-"], Some(SLOPPY.as_bytes()));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), CANONICAL);
}

#[test]
fn fmt_check_lists_non_canonical_files() {
    let good = temp_file("good.tgsi", CANONICAL.as_bytes());
    let bad = temp_file("bad.tgsi", SLOPPY.as_bytes());
    let out = tgsi(&["fmt", "--check", &good, &bad], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{bad}\n"));
    let out = tgsi(&["fmt", "--check", &good], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn fmt_write_rewrites_in_place() {
    let path = temp_file("rewrite.tgsi", SLOPPY.as_bytes());
    let out = tgsi(&["fmt", "-w", &path], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&path).expect("file"), CANONICAL);
}

#[test]
fn syntax_errors_name_file_line_and_column() {
    let path = temp_file(
        "broken.tgsi",
        b"FRAG\nDCL TEMP[0]\n  0: MOV TEMP[0], TEMPX[0]\n",
    );
    let out = tgsi(&["fmt", &path], None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "{path}:3:19: error: expected a register file, found 'TEMPX'"
        )),
        "{err}"
    );
}

#[test]
fn asm_and_disasm_round_trip() {
    let src = temp_file("rt.tgsi", CANONICAL.as_bytes());
    let bin = temp_file("rt.bin", b"");
    let out = tgsi(&["asm", &src, "-o", &bin], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&bin).expect("bin");
    assert_eq!(bytes.len() % 4, 0);
    assert_eq!(&bytes[..4], &[0x02, (bytes.len() / 4 - 2) as u8, 0, 0]);
    let out = tgsi(&["disasm", &bin], None);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), CANONICAL);
    // fmt detects the token form by content.
    let out = tgsi(&["fmt", &bin], None);
    assert_eq!(String::from_utf8_lossy(&out.stdout), CANONICAL);
}

#[test]
fn truncated_tokens_are_reported_with_the_word_offset() {
    let src = temp_file("trunc.tgsi", CANONICAL.as_bytes());
    let bin = temp_file("trunc.bin", b"");
    assert_eq!(
        tgsi(&["asm", &src, "-o", &bin], None).status.code(),
        Some(0)
    );
    let bytes = std::fs::read(&bin).expect("bin");
    let cut = temp_file("cut.bin", &bytes[..bytes.len() - 8]);
    let out = tgsi(&["disasm", &cut], None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: word") && err.contains("BodySize"),
        "{err}"
    );
}

#[test]
fn hex_floats_are_lossless() {
    let text = "VERT\nIMM[0] FLT32 {0x3eaaaaab, 0x00000001, 0x7f800000, 0x80000000}\n  0: END\n";
    let out = tgsi(&["fmt", "--hex-floats", "-"], Some(text.as_bytes()));
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(
        tgsi(&["fmt", "/nonexistent/file.tgsi"], None).status.code(),
        Some(2)
    );
    assert_eq!(tgsi(&["frobnicate"], None).status.code(), Some(2));
    assert_eq!(tgsi(&["fmt"], None).status.code(), Some(2));
    assert_eq!(tgsi(&["--help"], None).status.code(), Some(0));
}

#[test]
fn check_reports_rule_violations_with_positions() {
    let path = temp_file(
        "invalid.tgsi",
        b"FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[3]\n  1: END\n",
    );
    let out = tgsi(&["check", &path], None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{path}:3:"))
            && err.contains("error:")
            && err.contains("[undeclared-register]"),
        "{err}"
    );
    let good = temp_file("valid.tgsi", CANONICAL.as_bytes());
    let out = tgsi(&["check", &good], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_accepts_token_files_and_warnings_keep_exit_0() {
    // A repeated declaration is a warning (Mesa emits them), not an error.
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL OUT[0], COLOR\nIMM[0] FLT32 {    1.0000,     0.0000,     0.0000,     1.0000}\n  0: MOV OUT[0], IMM[0]\n  1: END\n";
    let out = tgsi(&["check", "-"], Some(text.as_bytes()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning:"));
    let src = temp_file("tok.tgsi", CANONICAL.as_bytes());
    let bin = temp_file("tok.bin", b"");
    assert_eq!(
        tgsi(&["asm", &src, "-o", &bin], None).status.code(),
        Some(0)
    );
    assert_eq!(tgsi(&["check", &bin], None).status.code(), Some(0));
}

#[test]
fn check_rejects_legacy_opcodes_unless_asked() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: SUB OUT[0], IN[0], IN[0]\n  1: END\n";
    let out = tgsi(&["check", "-"], Some(text.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[legacy-opcode]"));
    let out = tgsi(&["check", "--legacy", "-"], Some(text.as_bytes()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn info_describes_the_shader() {
    let out = tgsi(&["info", "-"], Some(CANONICAL.as_bytes()));
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("FRAG") && text.contains("COLOR") && text.contains("MUL"),
        "{text}"
    );
    let out = tgsi(&["info", "--json", "-"], Some(CANONICAL.as_bytes()));
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(
        json.trim_start().starts_with('{') && json.trim_end().ends_with('}'),
        "{json}"
    );
    assert!(json.contains("\"MUL\""), "{json}");
}
