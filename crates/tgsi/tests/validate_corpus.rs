//! The validator over the shared corpus: Mesa-generated shaders (and every hand-written or
//! dumped file Mesa's parser accepts) must give no error; the rest must not crash it.

mod common;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use tgsi::validate::{validate, Severity};

/// Whether a corpus file is real Mesa output or accepted by Mesa's parser.
fn mesa_accepted(corpus: &Path, rel: &Path) -> bool {
    let top = rel.iter().next().and_then(|s| s.to_str()).unwrap_or("");
    match top {
        "mesa" | "fsref" | "texref" | "csref" => true,
        _ => common::golden(corpus, rel, "tokens").is_some(),
    }
}

/// Files that Mesa 24.3's own sanity checker (`mesa24_sanity` in `index.tsv`) rejects:
/// fragments of shaders assembled at run time, without END.
fn mesa_sanity_errors(corpus: &Path) -> HashSet<PathBuf> {
    let mut out = HashSet::new();
    for sub in ["handwritten", "dumped"] {
        let Ok(index) = std::fs::read_to_string(corpus.join(sub).join("index.tsv")) else {
            continue;
        };
        for line in index.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            if let (Some(file), Some(&"errors")) = (cols.first(), cols.last()) {
                out.insert(Path::new(sub).join(file));
            }
        }
    }
    out
}

#[test]
fn mesa_shaders_have_no_errors() {
    let Some(corpus) = common::corpus_dir() else {
        return;
    };
    let files = common::corpus_shaders(&corpus);
    let insane = mesa_sanity_errors(&corpus);
    assert!(!insane.is_empty(), "index.tsv files not found");
    let mut errors = Vec::new();
    let mut counts: BTreeMap<(Severity, &str), usize> = BTreeMap::new();
    let (mut checked, mut other) = (0, 0);
    let show = std::env::var("TGSI_VALIDATE_SHOW").unwrap_or_default();
    for rel in &files {
        let Ok(text) = std::fs::read_to_string(corpus.join(rel)) else {
            continue;
        };
        let Ok(shader) = tgsi::parse(&text) else {
            continue;
        };
        let diags = validate(&shader, &tgsi::Limits::DEFAULT);
        // `TGSI_VALIDATE_SHOW=<code>` lists every diagnostic with that code.
        for d in diags.iter().filter(|d| d.code.name() == show) {
            eprintln!("{}:{d}", rel.display());
        }
        if !mesa_accepted(&corpus, rel) {
            other += 1;

            continue;
        }
        checked += 1;
        for d in &diags {
            *counts.entry((d.severity, d.code.name())).or_default() += 1;
            if d.is_error() && !insane.contains(rel) {
                errors.push(format!("{}:{d}", rel.display()));
            }
        }
    }
    eprintln!("{checked} Mesa-accepted files validated ({other} others validated without crash)");
    for ((sev, code), n) in &counts {
        eprintln!("  {sev:?} {code}: {n}");
    }
    assert!(checked > 2000, "corpus looks incomplete: {checked} files");
    assert!(
        errors.is_empty(),
        "{} errors:\n{}",
        errors.len(),
        errors
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
