//! Robustness over the shared corpus: every shader that parses either compiles or is
//! rejected with an error, and every compiled shader runs on a quad (with a small
//! instruction budget) without panicking. Skips cleanly when the corpus is absent.

use std::path::{Path, PathBuf};
use tgsi_exec::{Env, Machine, Program};

/// All `.tgsi` files under `dir` (recursively), excluding golden re-prints.
fn tgsi_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if !p.ends_with("golden") && !p.ends_with("golden-mesa-24.3") {
                tgsi_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "tgsi") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_shaders_compile_or_fail_cleanly_and_never_panic() {
    let mut files = Vec::new();
    for root in [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from("/work/shared/corpus"),
    ] {
        tgsi_files(&root, &mut files);
        if !files.is_empty() {
            break;
        }
    }
    if files.is_empty() {
        eprintln!("shared corpus absent: skipping");
        return;
    }
    files.sort();
    let consts = vec![
        (0..64u32)
            .map(|i| [i, i.wrapping_mul(0x9e37_79b9), 0x3f80_0000, 0xbf00_0000])
            .collect::<Vec<_>>();
        4
    ];
    let (mut parsed, mut compiled, mut ran) = (0, 0, 0);
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(shader) = tgsi::parse(&text) else {
            continue;
        };
        parsed += 1;
        let program = match Program::compile(&shader) {
            Ok(p) => p,
            Err(e) => {
                *reasons.entry(e.message).or_default() += 1;
                continue;
            }
        };
        compiled += 1;
        let mut m = Machine::<4>::new(&program);
        for (i, r) in m.inputs_mut().iter_mut().enumerate() {
            *r = [[i as u32, 0x3f80_0000, 0xc000_0000, 7]; 4];
        }
        let env = Env {
            resources: &tgsi_exec::resource::NO_RESOURCES,
            consts: &consts,
            budget: 2000,
            helpers: 0,
        };
        if m.run(&program, &env).is_ok() {
            ran += 1;
        }
    }
    eprintln!(
        "{} files, {parsed} parsed, {compiled} compiled, {ran} ran within budget",
        files.len()
    );
    for (k, n) in &reasons {
        eprintln!("  {n:5}  {k}");
    }
    assert!(compiled > 0);
}
