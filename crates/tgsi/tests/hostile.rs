//! Hostile-input tests: every file under `tests/hostile/` (hand-designed TGSI text and token
//! streams, written by `make_hostile.py`) must end in the outcome `MANIFEST.tsv` names — a
//! clean parse or decode error of the expected kind at the expected place, or, for what
//! parses, `tgsi check`'s verdict (valid, or the first error's rule and place) — never a
//! panic, a hang or an unbounded allocation. Inputs too big to commit (100k-deep nesting, a 1 MB
//! word, a 10k-digit number, 100k immediates, every truncation of a real token stream) are
//! generated here, and the [`Limits`] caps are checked for both front ends.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tgsi::tokens::{self, DecodeErrorKind};
use tgsi::validate;
use tgsi::{Limits, Shader};

fn hostile_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

/// One manifest row: file, outcome, where, message substring, note.
struct Row {
    file: String,
    outcome: String,
    place: String,
    message: String,
}

fn manifest() -> Vec<Row> {
    let text = std::fs::read_to_string(hostile_dir().join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert!(cols.len() >= 4, "manifest row needs 4+ columns: {l:?}");
            Row {
                file: cols[0].to_string(),
                outcome: cols[1].to_string(),
                place: cols[2].to_string(),
                message: cols[3].to_string(),
            }
        })
        .collect()
}

/// What happened to one input: (outcome, where, message).
fn observe(file: &str, bytes: &[u8]) -> (String, String, String) {
    if file.ends_with(".tgsi") {
        // The parser takes `&str`: bytes that are not UTF-8 must be converted first. A lossy
        // conversion keeps the error position meaningful (U+FFFD where the bad bytes were).
        let text = String::from_utf8_lossy(bytes);
        match tgsi::parse(&text) {
            Ok(shader) => {
                check_accepted(&shader, true);
                verdict(&shader)
            }
            Err(e) => (
                "parse-error".into(),
                format!("{}:{}", e.span.line, e.span.col),
                e.message,
            ),
        }
    } else {
        let Some(words) = tokens::words_from_le_bytes(bytes) else {
            return ("not-words".into(), "-".into(), "-".into());
        };
        match tokens::decode(&words) {
            Ok(shader) => {
                check_accepted(&shader, false);
                verdict(&shader)
            }
            Err(e) => (
                format!("decode-error:{:?}", e.kind),
                e.offset.to_string(),
                e.message,
            ),
        }
    }
}

/// What `tgsi check` says of a shader that parsed or decoded: `valid` (warnings allowed),
/// or `invalid:<code>` with the position and message of the first error.
fn verdict(shader: &Shader) -> (String, String, String) {
    let diags = tgsi::validate(shader, &Limits::DEFAULT);
    let Some(first) = diags.iter().find(|d| d.is_error()) else {
        return ("valid".into(), "-".into(), "-".into());
    };
    let place = if first.span == tgsi::Span::default() {
        "-".to_string()
    } else if first.span.is_text() {
        format!("{}:{}", first.span.line, first.span.col)
    } else {
        first.span.col.to_string()
    };
    (
        format!("invalid:{}", first.code.name()),
        place,
        first.message.clone(),
    )
}

/// Encoding refuses only what the validator rejects, and accepts every shader the
/// validator finds valid.
fn check_encoder_agrees(shader: &Shader) {
    let diags = tgsi::validate(shader, &Limits::DEFAULT);
    if let Err(e) = tokens::encode(shader) {
        assert!(
            validate::has_errors(&diags),
            "encode refuses a shader the validator accepts: {e}"
        );
    }
}

/// An accepted shader must also print, re-parse (cleanly, whatever the outcome), and
/// encode or refuse cleanly (refusing only what the validator rejects); a shader that came
/// from text must print stably.
fn check_accepted(shader: &Shader, from_text: bool) {
    check_encoder_agrees(shader);
    let printed = tgsi::print(shader);
    match tgsi::parse(&printed) {
        Ok(again) if from_text => assert_eq!(tgsi::print(&again), printed),
        Err(e) if from_text => panic!("printed text does not parse: {e}\n{printed}"),
        _ => {}
    }
    if let Ok(words) = tokens::encode(shader) {
        let back = tokens::decode(&words).expect("encoded shader decodes");
        assert_eq!(tokens::encode(&back).ok(), Some(words));
    }
}

#[test]
fn hostile_corpus_matches_manifest() {
    let dir = hostile_dir();
    let rows = manifest();
    let listed: BTreeMap<&str, &Row> = rows.iter().map(|r| (r.file.as_str(), r)).collect();
    assert_eq!(listed.len(), rows.len(), "duplicate manifest rows");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tgsi") || n.ends_with(".bin"))
        .collect();
    on_disk.sort();
    assert!(on_disk.len() >= 60, "only {} hostile inputs", on_disk.len());
    let bless = std::env::var_os("TGSI_HOSTILE_BLESS").is_some();
    let mut observed_rows = String::new();
    let mut failures = Vec::new();
    for name in &on_disk {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let start = Instant::now();
        let (outcome, place, message) = observe(name, &bytes);
        let took = start.elapsed();
        assert!(took < Duration::from_secs(5), "{name} took {took:?}");
        observed_rows.push_str(&format!("{name}\t{outcome}\t{place}\t{message}\n"));
        let Some(row) = listed.get(name.as_str()) else {
            failures.push(format!("{name}: not in MANIFEST.tsv"));
            continue;
        };
        let message_ok = row.message == "-" || message.contains(&row.message);
        if row.outcome != outcome || row.place != place || !message_ok {
            failures.push(format!(
                "{name}: expected {} at {} with {:?}, got {outcome} at {place}: {message}",
                row.outcome, row.place, row.message
            ));
        }
    }
    for row in &rows {
        if !on_disk.contains(&row.file) {
            failures.push(format!("{}: listed but missing", row.file));
        }
    }
    if bless {
        std::fs::write(dir.join("observed.tsv"), observed_rows).unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Parses or decodes within a time budget generous enough for debug builds on a busy
/// machine, yet far below what a quadratic algorithm would need at these sizes.
fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(10), "{what} took {took:?}");
    out
}

#[test]
fn nesting_100k_deep_parses_prints_and_encodes_quickly() {
    let depth = 100_000;
    let mut text = String::from("FRAG\nDCL TEMP[0]\n");
    for _ in 0..depth {
        text.push_str("IF TEMP[0].xxxx\n");
    }
    for _ in 0..depth {
        text.push_str("ENDIF\n");
    }
    text.push_str("END\n");
    let shader = timed("parse", || tgsi::parse(&text)).expect("deep nesting parses");
    assert_eq!(shader.instructions.len(), 2 * depth + 1);
    // Indentation is capped, so the print stays linear in the shader size.
    let printed = timed("print", || tgsi::print(&shader));
    assert!(
        printed.len() < 1000 * (2 * depth + 1),
        "print is {} bytes",
        printed.len()
    );
    let again = timed("re-parse", || tgsi::parse(&printed)).unwrap();
    assert_eq!(tgsi::print(&again), printed);
    let words = timed("encode", || tokens::encode(&shader)).unwrap();
    let back = timed("decode", || tokens::decode(&words)).unwrap();
    assert_eq!(back.instructions.len(), 2 * depth + 1);
}

#[test]
fn overlong_identifier_is_a_clean_error() {
    let text = format!("FRAG\n{}\n", "A".repeat(1 << 20));
    let err = timed("parse", || tgsi::parse(&text)).unwrap_err();
    assert_eq!((err.span.line, err.span.col), (2, 1));
    assert!(
        err.message.starts_with("unknown opcode 'AAAA"),
        "{}",
        &err.message[..60]
    );
    assert!(err.message.len() < 200, "{}…", &err.message[..200]);
    // The same word as a register file, a semantic and a texture target.
    for tail in [
        "MOV TEMP[0], {W}[0]",
        "DCL IN[0], {W}",
        "TEX TEMP[0], TEMP[0], SAMP[0], {W}",
    ] {
        let text = format!("FRAG\n{}\n", tail.replace("{W}", &"B".repeat(1 << 20)));
        let err = timed("parse", || tgsi::parse(&text)).unwrap_err();
        assert!(err.message.len() < 200, "{}…", &err.message[..200]);
    }
}

#[test]
fn ten_thousand_digit_numbers_are_clean_errors() {
    let digits = "7".repeat(10_000);
    let cases = [
        (
            format!("FRAG\nMOV TEMP[{digits}], TEMP[0]\n"),
            "10000 digits",
        ),
        (format!("FRAG\nDCL TEMP[0..{digits}]\n"), "10000 digits"),
        (
            format!("FRAG\nIMM FLT32 {{{digits}.5, 0, 0, 0}}\n"),
            "too long",
        ),
        (format!("FRAG\nIF TEMP[0].xxxx :{digits}\n"), "10000 digits"),
        (
            format!("FRAG\nIMM UINT32 {{{digits}, 0, 0, 0}}\n"),
            "10000 digits",
        ),
    ];
    for (text, needle) in cases {
        let err = timed("parse", || tgsi::parse(&text)).unwrap_err();
        assert!(err.message.contains(needle), "{}", err.message);
        assert!(err.message.len() < 200, "message quotes the whole number");
    }
    // 64-bit immediates are read like C's strtod / strtoll / strtoull, as in Mesa: long
    // literals saturate (or overflow to infinity) rather than fail. (A FLT64 that Mesa
    // prints with %10.8f can legitimately be 318 characters long.)
    let cases = [
        (
            format!("FRAG\nIMM FLT64 {{{digits}.5, 0}}\n"),
            [0, 0x7ff0_0000],
        ),
        (
            format!("FRAG\nIMM UINT64 {{{digits}, 0}}\n"),
            [u32::MAX, u32::MAX],
        ),
        (
            format!("FRAG\nIMM INT64 {{-{digits}, 0}}\n"),
            [0, 0x8000_0000],
        ),
    ];
    for (text, low_words) in cases {
        let shader = timed("parse", || tgsi::parse(&text)).unwrap();
        assert_eq!(shader.immediates[0].words[..2], low_words);
    }
}

#[test]
fn hundred_thousand_immediates_hit_the_default_limit() {
    let mut text = String::from("FRAG\n");
    for i in 0..100_000 {
        text.push_str(&format!("IMM[{i}] UINT32 {{{i}, 0, 0, 0}}\n"));
    }
    let err = timed("parse", || tgsi::parse(&text)).unwrap_err();
    assert!(
        err.message.contains("more than 65536 immediates"),
        "{}",
        err.message
    );
    assert_eq!(err.span.line, 65_538);
    // With the limit raised they parse, and the token stream round-trips.
    let limits = Limits {
        max_immediates: 200_000,
        ..Limits::DEFAULT
    };
    let shader = timed("parse", || tgsi::parse_with_limits(&text, &limits)).unwrap();
    assert_eq!(shader.immediates.len(), 100_000);
    let words = tokens::encode(&shader).unwrap();
    let err = timed("decode", || tokens::decode(&words)).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::LimitExceeded);
    let back = tokens::decode_with_limits(&words, &limits).unwrap();
    assert_eq!(back.immediates.len(), 100_000);
}

/// Token streams of real shaders: the hand-made resource shader plus, when the shared corpus
/// is present, a few of its golden token files.
fn real_token_streams() -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for name in ["b_base.bin", "b_valid_resources.bin"] {
        let bytes = std::fs::read(hostile_dir().join(name)).unwrap();
        out.push(tokens::words_from_le_bytes(&bytes).unwrap());
    }
    let text = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n\
        DCL IN[][0], POSITION\nDCL OUT[0], POSITION, STREAM(1, 1, 2, 3)\nDCL CONST[1][0..3]\n\
        DCL TEMP[0..2], ARRAY(1)\nDCL ADDR[0]\nIMM[0] FLT64 {1.5, -2.25}\n\
        IMM[1] INT32 {1, 2, 3, -4}\n  0: UARL ADDR[0].x, IMM[1].xxxx\n\
        1: MOV TEMP[ADDR[0].x+1](1), CONST[1][ADDR[0].y-2]\n  2: MOV TEMP[0], IN[2][0]\n\
        3: UIF TEMP[0].xxxx :5\n  4:   EMIT IMM[1].xxxx\n  5: ENDIF\n  6: END\n";
    let shader = tgsi::parse(text).unwrap();
    out.push(tokens::encode(&shader).unwrap());
    out
}

#[test]
fn every_truncation_of_real_token_streams_is_clean() {
    for words in real_token_streams() {
        assert!(tokens::decode(&words).is_ok());
        for len in 0..words.len() {
            let prefix = &words[..len];
            // As stored: the header promises more than there is.
            let err = tokens::decode(prefix).unwrap_err();
            assert_eq!(err.kind, DecodeErrorKind::Truncated, "prefix {len}: {err}");
            // With BodySize fixed up to the prefix: a cut at a group boundary is a shorter
            // valid shader, anything else is a truncated group.
            if len >= 2 {
                let mut fixed = prefix.to_vec();
                fixed[0] = (fixed[0] & 0xff) | ((len as u32 - 2) << 8);
                match tokens::decode(&fixed) {
                    Ok(shader) => check_accepted(&shader, false),
                    Err(e) => assert_eq!(e.kind, DecodeErrorKind::Truncated, "prefix {len}: {e}"),
                }
            }
        }
    }
}

#[test]
fn every_single_bit_flip_of_real_token_streams_is_clean() {
    for words in real_token_streams() {
        for i in 0..words.len() {
            for bit in 0..32 {
                let mut w = words.clone();
                w[i] ^= 1 << bit;
                if let Ok(shader) = tokens::decode(&w) {
                    check_accepted(&shader, false);
                }
            }
        }
    }
}

fn instructions_text(n: usize) -> String {
    let mut text = String::from("FRAG\nDCL TEMP[0]\n");
    for i in 0..n {
        text.push_str(&format!("{i:3}: MOV TEMP[0], TEMP[0]\n"));
    }
    text
}

#[test]
fn limits_caps_reject_text_and_tokens() {
    let tight = Limits {
        max_instructions: 10,
        max_declarations: 3,
        max_immediates: 2,
        max_properties: 1,
        max_input_bytes: 4096,
        ..Limits::DEFAULT
    };

    // Instructions.
    let ten = instructions_text(10);
    let eleven = instructions_text(11);
    assert!(tgsi::parse_with_limits(&ten, &tight).is_ok());
    let err = tgsi::parse_with_limits(&eleven, &tight).unwrap_err();
    assert_eq!((err.span.line, err.span.col), (13, 6));
    assert!(
        err.message.contains("more than 10 instructions"),
        "{}",
        err.message
    );
    let words = tokens::encode(&tgsi::parse(&eleven).unwrap()).unwrap();
    let err = tokens::decode_with_limits(&words, &tight).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::LimitExceeded);
    assert!(err.message.contains("instructions"), "{}", err.message);

    // Declarations.
    let four = "FRAG\nDCL TEMP[0]\nDCL TEMP[1]\nDCL TEMP[2]\nDCL TEMP[3]\n";
    let err = tgsi::parse_with_limits(four, &tight).unwrap_err();
    assert_eq!((err.span.line, err.span.col), (5, 1));
    assert!(
        err.message.contains("more than 3 declarations"),
        "{}",
        err.message
    );
    let words = tokens::encode(&tgsi::parse(four).unwrap()).unwrap();
    let err = tokens::decode_with_limits(&words, &tight).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::LimitExceeded);
    assert!(err.message.contains("declarations"), "{}", err.message);

    // Immediates.
    let three = "FRAG\nIMM[0] UINT32 {0, 0, 0, 0}\nIMM[1] UINT32 {1, 0, 0, 0}\nIMM[2] UINT32 {2, 0, 0, 0}\n";
    let err = tgsi::parse_with_limits(three, &tight).unwrap_err();
    assert_eq!((err.span.line, err.span.col), (4, 1));
    assert!(
        err.message.contains("more than 2 immediates"),
        "{}",
        err.message
    );
    let words = tokens::encode(&tgsi::parse(three).unwrap()).unwrap();
    let err = tokens::decode_with_limits(&words, &tight).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::LimitExceeded);
    assert!(err.message.contains("immediates"), "{}", err.message);

    // Properties.
    let two = "GEOM\nPROPERTY GS_INVOCATIONS 2\nPROPERTY GS_MAX_OUTPUT_VERTICES 3\n";
    let err = tgsi::parse_with_limits(two, &tight).unwrap_err();
    assert!(
        err.message.contains("more than 1 properties"),
        "{}",
        err.message
    );
    let words = tokens::encode(&tgsi::parse(two).unwrap()).unwrap();
    let err = tokens::decode_with_limits(&words, &tight).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::LimitExceeded);

    // Input bytes: checked before anything is parsed or decoded.
    let big = format!("FRAG\n{}", " ".repeat(4096));
    let err = tgsi::parse_with_limits(&big, &tight).unwrap_err();
    assert_eq!((err.span.line, err.span.col), (1, 1));
    assert!(
        err.message.contains("more than the limit of 4096"),
        "{}",
        err.message
    );
    let words = vec![0u32; 1025];
    let err = tokens::decode_with_limits(&words, &tight).unwrap_err();
    assert_eq!((err.kind, err.offset), (DecodeErrorKind::LimitExceeded, 0));

    // Register index caps: operands, and declaration ranges.
    let index = Limits {
        max_register_index: 100,
        max_declared_index: 200,
        ..Limits::DEFAULT
    };
    let err = tgsi::parse_with_limits("FRAG\nMOV TEMP[101], TEMP[0]\n", &index).unwrap_err();
    assert!(
        err.message.contains("larger than the limit of 100"),
        "{}",
        err.message
    );
    assert!(tgsi::parse_with_limits("FRAG\nDCL TEMP[0..200]\n", &index).is_ok());
    let err = tgsi::parse_with_limits("FRAG\nDCL TEMP[0..201]\n", &index).unwrap_err();
    assert!(
        err.message.contains("larger than the limit of 200"),
        "{}",
        err.message
    );

    // Token length cap.
    let token = Limits {
        max_token_len: 4,
        ..Limits::DEFAULT
    };
    let err = tgsi::parse_with_limits("FRAG\nDCL TEMP[00001]\n", &token).unwrap_err();
    assert!(
        err.message.contains("5 digits is too long"),
        "{}",
        err.message
    );
}
