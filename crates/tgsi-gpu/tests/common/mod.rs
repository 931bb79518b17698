//! Shared by the GPU tests: the adapter (or a "skipped" message), case discovery in the
//! repository's and the shared corpus's reference cases, and image comparison.

#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};

/// The GPU, or `None` after printing that the test is skipped.
pub fn gpu() -> Option<tgsi_gpu::Gpu> {
    match tgsi_gpu::Gpu::new() {
        Ok(g) => {
            eprintln!("adapter: {}", g.name());
            Some(g)
        }
        Err(e @ tgsi_gpu::Error::NoAdapter(_)) => {
            eprintln!("skipped: {e}");
            None
        }
        Err(e) => panic!("opening the GPU: {e}"),
    }
}

/// The shared corpus (`TGSI_SHARED`, else `../shared` beside the repository).
pub fn shared() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// This repository's benchmark shaders.
pub fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tgsi-jit/benches/shaders")
}

/// Case directories under `dir` holding `marker`, sorted (none when `dir` is absent).
pub fn cases(dir: &Path, marker: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| p.join(marker).is_file());
    out.sort();
    out
}

/// A case's name (its directory's).
pub fn name(dir: &Path) -> String {
    dir.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// How far apart two floats are in units in the last place (0 for equal bits; both NaN
/// count as 0, a NaN against a number as `u64::MAX`).
pub fn ulps(a: f32, b: f32) -> u64 {
    if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    // Map the floats onto a line where adjacent floats are adjacent integers.
    let key = |x: f32| {
        let bits = x.to_bits() as i64;
        if bits & 0x8000_0000 != 0 {
            0x8000_0000 - bits
        } else {
            bits
        }
    };
    key(a).abs_diff(key(b))
}

/// How two images differ.
#[derive(Default, Clone, Copy, Debug)]
pub struct Diff {
    /// Floats whose bits differ.
    pub floats: usize,
    /// Floats outside the tolerance.
    pub over: usize,
    /// Largest ULP distance.
    pub max_ulps: u64,
    /// Largest absolute difference (NaN mismatches excluded).
    pub max_abs: f32,
    /// Where the largest ULP distance is: (pixel, channel, GPU value, interpreter value).
    pub worst: Option<(usize, usize, f32, f32)>,
}

/// Compares two images float by float; a float is within tolerance when it is at most
/// `ulp_tol` ULPs or `abs_tol` away.
pub fn compare(
    got: &tgsi_exec::Image,
    want: &tgsi_exec::Image,
    ulp_tol: u64,
    abs_tol: f32,
) -> Diff {
    let mut d = Diff::default();
    for (p, (g, w)) in got.pixels.iter().zip(&want.pixels).enumerate() {
        for c in 0..4 {
            if g[c].to_bits() == w[c].to_bits() {
                continue;
            }
            d.floats += 1;
            let u = ulps(g[c], w[c]);
            if u > d.max_ulps || d.worst.is_none() {
                d.max_ulps = d.max_ulps.max(u);
                d.worst = Some((p, c, g[c], w[c]));
            }
            let abs = (g[c] - w[c]).abs();
            if abs.is_finite() {
                d.max_abs = d.max_abs.max(abs);
            }
            if u > ulp_tol && (abs.is_nan() || abs > abs_tol) {
                d.over += 1;
            }
        }
    }
    d
}

/// A deterministic value in [−2, 2) for (seed, k), as float bits: the generated inputs and
/// constants of the corpus runs.
pub fn generated(seed: u32, k: u32) -> u32 {
    let mut x = seed.wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b);
    x ^= x >> 15;
    x = x.wrapping_mul(0xc2b2_ae35);
    x ^= x >> 13;
    ((x >> 8) as f32 / (1 << 24) as f32 * 4.0 - 2.0).to_bits()
}

/// Generated values for every constant register `shader` declares (at most 4,096 per
/// buffer).
pub fn generated_constants(shader: &tgsi::Shader) -> Vec<Vec<[u32; 4]>> {
    let mut constants: Vec<Vec<[u32; 4]>> = Vec::new();
    for d in shader
        .declarations
        .iter()
        .filter(|d| d.file == tgsi::File::Constant)
    {
        let buffer = d.dimension.unwrap_or(0) as usize;
        if constants.len() <= buffer {
            constants.resize(buffer + 1, Vec::new());
        }
        let regs = &mut constants[buffer];
        let len = (d.last as usize + 1).min(4096);
        if regs.len() < len {
            let start = regs.len() as u32;
            regs.extend((start..len as u32).map(|r| {
                std::array::from_fn(|c| generated(1000 + buffer as u32, 4 * r + c as u32))
            }));
        }
    }
    constants
}

/// The `.tgsi` files of `../shared/corpus/<corpus>/<stage>`, sorted (none when it is
/// absent).
pub fn corpus_shaders(corpus: &str, stage: &str) -> Vec<PathBuf> {
    let dir = shared().join("corpus").join(corpus).join(stage);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "tgsi"));
    paths.sort();
    paths
}

/// The worst float of `got` against `want` outside `ulp_tol` ULPs and `abs_tol`: (ULP
/// distance, absolute difference, index, got, want).
pub fn worst_float(
    got: impl Iterator<Item = f32>,
    want: impl Iterator<Item = f32>,
    ulp_tol: u64,
    abs_tol: f32,
) -> Option<(u64, f32, usize, f32, f32)> {
    let mut worst: Option<(u64, f32, usize, f32, f32)> = None;
    for (i, (a, b)) in got.zip(want).enumerate() {
        let u = ulps(a, b);
        // A NaN difference (a NaN against a number) is never close.
        let close = (a - b).abs() <= abs_tol;
        if u > ulp_tol && !close && worst.is_none_or(|x| u > x.0) {
            worst = Some((u, (a - b).abs(), i, a, b));
        }
    }
    worst
}

/// The outcomes of a corpus run: counts by kind, and the failures (unexplained differences
/// and errors), printed and asserted at the end.
pub struct Tally {
    counts: Vec<(&'static str, usize)>,
    failures: Vec<String>,
}

impl Tally {
    /// A tally counting the outcomes `kinds` (in the order they are printed).
    pub fn new(kinds: &[&'static str]) -> Tally {
        Tally {
            counts: kinds.iter().map(|&k| (k, 0)).collect(),
            failures: Vec::new(),
        }
    }

    /// One more outcome of `kind` (one of those given to [`Tally::new`]).
    pub fn count(&mut self, kind: &str) {
        if let Some(c) = self.counts.iter_mut().find(|(k, _)| *k == kind) {
            c.1 += 1;
        }
    }

    /// Shader `name` differs by `diff`: an explained difference (counted as "explained
    /// differences") when `explained` names it, else a failure.
    pub fn differs(&mut self, name: &str, diff: &str, explained: &[(&str, &str)]) {
        match explained.iter().find(|(n, _)| *n == name) {
            Some((_, why)) => {
                eprintln!("explain {name}: {diff}: {why}");
                self.count("explained differences");
            }
            None => self.failures.push(format!("DIFF  {name}: {diff}")),
        }
    }

    /// Shader `name` failed to run.
    pub fn error(&mut self, name: &str, e: &str) {
        self.failures.push(format!("ERROR {name}: {e}"));
    }

    /// Prints the counts of `label`'s `total` shaders and the failures; fails if any.
    pub fn finish(self, label: &str, total: usize) {
        let counts: Vec<String> = self
            .counts
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        eprintln!(
            "{label}: {total} shaders: {}, {} unexplained differences or errors",
            counts.join(", "),
            self.failures.len()
        );
        for f in &self.failures {
            eprintln!("{f}");
        }
        assert!(
            self.failures.is_empty(),
            "{} shaders failed",
            self.failures.len()
        );
    }
}

/// A corpus file's name.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}
