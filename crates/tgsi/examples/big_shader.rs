//! The generated benchmark shader (`benches/support/big_shader.rs`):
//!
//! - `cargo run --release -p tgsi --example big_shader -- [MEGABYTES]` writes it to stdout
//!   (default 16 MiB);
//! - `… -- --time [MEGABYTES]` times the text paths on it in this process and prints MB/s
//!   (10^6 bytes of text per second) for each: the best of 9 samples of at least a quarter
//!   of a second each, measured as the thread's CPU time (`/proc/thread-self/schedstat`) so
//!   that other work on a shared machine does not count. `cargo bench -p tgsi --bench
//!   text_speed` measures the same paths in wall time.

#[path = "../benches/support/big_shader.rs"]
mod big_shader;

use std::io::Write;
use std::time::Instant;

/// Seconds this thread has run on a CPU, or `None` where the kernel does not say. The
/// kernel brings the figure up to date only at scheduler ticks (every few milliseconds),
/// so a time is only as fine as a tick; [`best`] times many calls at once to make that small.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}

/// Best time per call of `f` over `runs` samples, each sample as many calls as fill a
/// quarter of a second: CPU time where available, else wall time.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    const SAMPLE: f64 = 0.25;
    let mut best = f64::MAX;
    for _ in 0..runs {
        let (cpu, wall) = (cpu_seconds(), Instant::now());
        let mut calls = 0u32;
        let seconds = loop {
            std::hint::black_box(f());
            calls += 1;
            let seconds = match (cpu, cpu_seconds()) {
                (Some(start), Some(end)) => end - start,
                _ => wall.elapsed().as_secs_f64(),
            };
            if seconds >= SAMPLE {
                break seconds;
            }
        };
        best = best.min(seconds / f64::from(calls));
    }
    best
}

fn time(text: &str) -> Result<(), String> {
    let shader = tgsi::parse(text).map_err(|e| e.to_string())?;
    let megabytes = text.len() as f64 / 1e6;
    let runs = 9;
    let report = |name: &str, seconds: f64| {
        println!(
            "{name:<28} {:8.1} MB/s  ({:.1} ms)",
            megabytes / seconds,
            seconds * 1e3
        );
    };
    println!(
        "shader: {} bytes; best of {runs} samples of 0.25 s or more, thread CPU time",
        text.len()
    );
    report("text -> IR", best(runs, || tgsi::parse(text).is_ok()));
    report("IR -> text", best(runs, || tgsi::print(&shader).len()));
    report(
        "text -> IR -> text",
        best(runs, || tgsi::parse(text).map(|s| tgsi::print(&s).len())),
    );
    report(
        "text -> text (reformat)",
        best(runs, || {
            tgsi::text::reformat(text, tgsi::PrintOptions::default()).map(|t| t.len())
        }),
    );
    report(
        "text -> IR -> tokens",
        best(runs, || {
            tgsi::parse(text).map(|s| tgsi::tokens::encode(&s).is_ok())
        }),
    );
    report(
        "text -> tokens (assemble)",
        best(runs, || tgsi::tokens::assemble(text).is_ok()),
    );
    Ok(())
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let timing = args.first().is_some_and(|a| a == "--time");
    if timing {
        args.remove(0);
    }
    let megabytes = match args.first().map(|a| a.parse::<usize>()) {
        None => 16,
        Some(Ok(n)) if (1..=60).contains(&n) => n,
        Some(_) => {
            eprintln!("usage: big_shader [--time] [MEGABYTES (1 to 60)]");
            std::process::exit(2);
        }
    };
    let text = big_shader::generate(megabytes << 20);
    let result = if timing {
        time(&text)
    } else {
        std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())
    };
    if let Err(e) = result {
        eprintln!("big_shader: {e}");
        std::process::exit(2);
    }
}
