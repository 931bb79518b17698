//! Shared helpers for the corpus tests: locating `../shared/corpus` and walking its shaders.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The corpus directory, or `None` (tests then skip) when `../shared` is absent.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("TGSI_SHARED") {
        Some(shared) => PathBuf::from(shared).join("corpus"),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: no corpus at {} (set TGSI_SHARED)", dir.display());
        None
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "tgsi") {
            out.push(path);
        }
    }
}

/// Every corpus shader, as paths relative to the corpus directory, sorted.
pub fn corpus_shaders(corpus: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for sub in ["mesa", "handwritten", "dumped"] {
        walk(&corpus.join(sub), &mut files);
    }
    for sub in ["fsref", "texref", "csref"] {
        if let Ok(entries) = std::fs::read_dir(corpus.join(sub)) {
            for entry in entries.flatten() {
                let shader = entry.path().join("shader.tgsi");
                if shader.is_file() {
                    files.push(shader);
                }
            }
        }
    }
    let mut rel: Vec<PathBuf> = files
        .iter()
        .filter_map(|p| p.strip_prefix(corpus).ok().map(Path::to_path_buf))
        .collect();
    rel.sort();
    rel
}

/// `golden/<path without .tgsi>.<suffix>` if it exists.
pub fn golden(corpus: &Path, rel: &Path, suffix: &str) -> Option<PathBuf> {
    let stem = rel.with_extension("");
    let path = corpus
        .join("golden")
        .join(format!("{}.{suffix}", stem.display()));
    path.is_file().then_some(path)
}

/// Reads little-endian u32 words.
pub fn read_words(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).expect("readable golden tokens");
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Calls `f(name, text)` for every readable file of `tests/hostile` and every corpus shader
/// (when `../shared` is present); returns how many.
pub fn each_hostile_and_corpus_text(mut f: impl FnMut(&str, &str)) -> usize {
    let hostile = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut checked = 0;
    for entry in std::fs::read_dir(hostile).into_iter().flatten().flatten() {
        if let Ok(text) = std::fs::read_to_string(entry.path()) {
            f(&entry.path().display().to_string(), &text);
            checked += 1;
        }
    }
    if let Some(corpus) = corpus_dir() {
        for rel in corpus_shaders(&corpus) {
            let text = std::fs::read_to_string(corpus.join(&rel)).expect("utf-8 corpus file");
            f(&rel.display().to_string(), &text);
            checked += 1;
        }
    }
    checked
}
