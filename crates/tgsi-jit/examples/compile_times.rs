//! How long the JIT takes to compile real shaders: every fragment, vertex and compute shader
//! under a directory (default `../shared/corpus`, golden copies skipped) that the JIT
//! compiles, each compiled `--reps` times (default 3, fastest kept), then, for fragment and
//! vertex shaders together and for compute shaders, the median, 90th percentile and
//! maximum of those times, and the slowest shaders with their instruction counts.
//!
//! ```text
//! cargo run --release -p tgsi-jit --example compile_times [-- [DIR] [--reps N]]
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;
use tgsi::Processor;
use tgsi_exec::Program;
use tgsi_jit::JitProgram;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if !e.file_name().to_string_lossy().starts_with("golden") {
                collect(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "tgsi") {
            out.push(p);
        }
    }
}

/// The program of a shader file, or `None` when it does not parse or compile.
fn program(path: &Path) -> Option<Program> {
    let text = std::fs::read_to_string(path).ok()?;
    let shader = tgsi::parse(&text).ok()?;
    Program::compile(&shader).ok()
}

/// Print the summary of `times` (sorted), compiled shaders of `what`.
fn report(what: &str, times: &[(Duration, usize, PathBuf)], refused: usize, reps: usize) {
    if times.is_empty() {
        println!("{what}: none compiled ({refused} left to the interpreter)");
        return;
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let at = |q: f64| ms(times[((times.len() - 1) as f64 * q).round() as usize].0);
    println!(
        "{what}: {} shaders compiled ({refused} left to the interpreter), best of {reps}: \
         median {:.3} ms, p90 {:.3} ms, max {:.3} ms; {} under 2 ms",
        times.len(),
        at(0.5),
        at(0.9),
        at(1.0),
        times
            .iter()
            .filter(|t| t.0 < Duration::from_millis(2))
            .count()
    );
    println!("slowest:");
    for (t, insts, path) in times.iter().rev().take(5) {
        println!(
            "  {:8.3} ms  {insts:5} instructions  {}",
            ms(*t),
            path.display()
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpus"
    ));
    let mut reps = 3usize;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => {
                reps = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(reps)
                    .max(1)
            }
            "-h" | "--help" => {
                println!("usage: compile_times [DIR] [--reps N]");
                return;
            }
            _ => dir = PathBuf::from(a),
        }
    }
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    // Fragment and vertex shaders (0), compute shaders (1): times and refusals.
    let mut times = [Vec::new(), Vec::new()];
    let mut refused = [0usize; 2];
    for path in &files {
        let Some(program) = program(path) else {
            continue;
        };
        let group = match program.processor {
            Processor::Fragment | Processor::Vertex => 0,
            Processor::Compute => 1,
            _ => continue,
        };
        let insts = program.insts.len();
        let mut best = Duration::MAX;
        for _ in 0..reps {
            match JitProgram::compile(program.clone()) {
                Ok(j) => best = best.min(j.compile_time()),
                Err(_) => break,
            }
        }
        if best == Duration::MAX {
            refused[group] += 1;
        } else {
            times[group].push((best, insts, path.clone()));
        }
    }
    if times.iter().all(Vec::is_empty) {
        eprintln!("no shader the JIT compiles under {}", dir.display());
        std::process::exit(1);
    }
    for (k, what) in ["fragment and vertex", "compute"].into_iter().enumerate() {
        times[k].sort();
        report(what, &times[k], refused[k], reps);
    }
}
