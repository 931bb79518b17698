//! Throughput of the text and token paths over the whole shared corpus (or the bundled
//! examples when `../shared` is absent): parse, print, parse+print, encode, decode.
//!
//! Run: `cargo bench -p tgsi --bench throughput`.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "tgsi") {
            out.push(path);
        }
    }
}

/// Every corpus shader that parses, as text.
fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("../../../shared/corpus"), &mut files);
    if files.is_empty() {
        collect(&root.join("../../examples"), &mut files);
    }
    files
        .iter()
        .filter(|p| {
            !p.components()
                .any(|c| c.as_os_str() == "golden" || c.as_os_str() == "golden-mesa-24.3")
        })
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|t| tgsi::parse(t).is_ok())
        .collect()
}

fn throughput(c: &mut Criterion) {
    let texts = corpus();
    let bytes: usize = texts.iter().map(String::len).sum();
    let shaders: Vec<tgsi::Shader> = texts.iter().filter_map(|t| tgsi::parse(t).ok()).collect();
    let words: Vec<Vec<u32>> = shaders
        .iter()
        .filter_map(|s| tgsi::tokens::encode(s).ok())
        .collect();
    let mut group = c.benchmark_group(format!(
        "corpus ({} shaders, {} KiB text)",
        texts.len(),
        bytes / 1024
    ));
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("parse", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| tgsi::parse(t).map_or(0, |s| s.instructions.len()))
                .sum::<usize>()
        })
    });
    group.bench_function("print", |b| {
        b.iter(|| shaders.iter().map(|s| tgsi::print(s).len()).sum::<usize>())
    });
    group.bench_function("parse+print", |b| {
        b.iter(|| {
            texts
                .iter()
                .filter_map(|t| tgsi::parse(t).ok())
                .map(|s| tgsi::print(&s).len())
                .sum::<usize>()
        })
    });
    group.bench_function("encode", |b| {
        b.iter(|| {
            shaders
                .iter()
                .filter_map(|s| tgsi::tokens::encode(s).ok())
                .map(|w| w.len())
                .sum::<usize>()
        })
    });
    group.bench_function("decode", |b| {
        b.iter(|| {
            words
                .iter()
                .filter_map(|w| tgsi::tokens::decode(w).ok())
                .map(|s| s.instructions.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = throughput
}
criterion_main!(benches);
