//! Renders every softpipe reference case (`shared/corpus/fsref/` and `tests/data/fsref/`)
//! and requires the image to equal `ref.f32` bit for bit. Skips cleanly when the shared
//! corpus is absent.
//!
//! `tests/data/fsref-divergent/` holds cases where we follow the spec and softpipe does not
//! (it silently skips some opcodes): each `SOURCE.txt` names them on a `softpipe skips:`
//! line, and the case must differ as written but match once those instructions are NOPs.

use std::path::{Path, PathBuf};
use tgsi_exec::{parse_consts, render_fragment, Program, RenderOptions};

/// Case directories: the shared corpus (if present) and this crate's own cases.
fn cases() -> Vec<PathBuf> {
    let roots = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fsref"),
        PathBuf::from("/work/shared/corpus/fsref"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fsref"),
    ];
    let mut seen = std::collections::BTreeMap::new();
    for root in roots {
        let Ok(dir) = std::fs::read_dir(&root) else {
            continue;
        };
        for e in dir.flatten() {
            let p = e.path();
            if p.join("shader.tgsi").exists() {
                seen.entry(e.file_name()).or_insert(p);
            }
        }
    }
    seen.into_values().collect()
}

/// `"key": number` from meta.json.
fn meta_number(meta: &str, key: &str) -> Option<u32> {
    let at = meta.find(&format!("\"{key}\""))?;
    let rest = meta[at + key.len() + 2..].trim_start().strip_prefix(':')?;
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Render one case with the instructions whose opcode is in `skipped` turned into NOPs
/// (softpipe's behaviour for opcodes it does not implement); `Ok(None)` when it matches,
/// `Ok(Some(report))` when it differs.
fn run_case(dir: &Path, skipped: &[tgsi::Opcode]) -> Result<Option<String>, String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"));
    let mut shader = tgsi::parse(&read("shader.tgsi")?).map_err(|e| e.to_string())?;
    for ins in &mut shader.instructions {
        if skipped.contains(&ins.opcode) {
            *ins = tgsi::Instruction::new(tgsi::Opcode::NOP);
        }
    }
    let program = Program::compile(&shader).map_err(|e| e.to_string())?;
    let constants = match read("consts.txt") {
        Ok(t) => parse_consts(&t).map_err(|e| e.to_string())?,
        Err(_) => Vec::new(),
    };
    let meta = read("meta.json")?;
    let opts = RenderOptions {
        width: meta_number(&meta, "W").ok_or("meta.json: no W")?,
        height: meta_number(&meta, "H").ok_or("meta.json: no H")?,
        constants,
        clear: [-1.0, -2.0, -3.0, -4.0],
        threads: 2,
        ..Default::default()
    };
    let image = render_fragment(&program, &opts).map_err(|e| e.to_string())?;
    let want = std::fs::read(dir.join("ref.f32")).map_err(|e| e.to_string())?;
    let got = image.to_le_bytes();
    if got == want {
        return Ok(None);
    }
    if got.len() != want.len() {
        return Ok(Some(format!("size {} vs {}", got.len(), want.len())));
    }
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let (g, w) = (words(&got), words(&want));
    let diffs: Vec<usize> = (0..g.len()).filter(|&i| g[i] != w[i]).collect();
    let i = diffs[0];
    let wpx = opts.width as usize;
    Ok(Some(format!(
        "{} of {} floats differ; first at pixel ({}, row {}) channel {}: got {:#010x} ({}) want {:#010x} ({})",
        diffs.len(),
        g.len(),
        (i / 4) % wpx,
        (i / 4) / wpx,
        i % 4,
        g[i],
        f32::from_bits(g[i]),
        w[i],
        f32::from_bits(w[i])
    )))
}

#[test]
fn fsref_cases_match_softpipe_bit_for_bit() {
    let cases = cases();
    if cases.is_empty() {
        eprintln!("no fsref cases found (shared corpus absent): skipping");
        return;
    }
    let mut failures = Vec::new();
    for dir in &cases {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        match run_case(dir, &[]) {
            Ok(None) => eprintln!("ok    {name}"),
            Ok(Some(r)) => failures.push(format!("DIFF  {name}: {r}")),
            Err(e) => failures.push(format!("ERROR {name}: {e}")),
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} fsref cases failed",
        failures.len(),
        cases.len()
    );
}

/// The opcodes on the `softpipe skips:` line of a divergent case's `SOURCE.txt`.
fn skipped_opcodes(dir: &Path) -> Vec<tgsi::Opcode> {
    let source = std::fs::read_to_string(dir.join("SOURCE.txt")).unwrap();
    let line = source
        .lines()
        .find_map(|l| l.strip_prefix("softpipe skips:"))
        .unwrap_or_else(|| panic!("{}: no `softpipe skips:` line", dir.display()));
    line.split([',', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| tgsi::Opcode::from_name(w).unwrap_or_else(|| panic!("unknown opcode {w}")))
        .collect()
}

#[test]
fn divergent_cases_differ_only_by_the_opcodes_softpipe_skips() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fsref-divergent");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty());
    for dir in &dirs {
        let skipped = skipped_opcodes(dir);
        assert!(!skipped.is_empty(), "{}", dir.display());
        let as_written = run_case(dir, &[]).unwrap();
        assert!(
            as_written.is_some(),
            "{}: matches softpipe although it uses {skipped:?}; move it to tests/data/fsref",
            dir.display()
        );
        assert_eq!(
            run_case(dir, &skipped).unwrap(),
            None,
            "{}: with {skipped:?} skipped",
            dir.display()
        );
    }
}
