//! Criterion benchmarks of the benchmark suite (`benches/shaders/*`): every case rendered at
//! 64×64 on one thread with the interpreter and with the JIT (throughput in pixels), and
//! the JIT's compile time per case.
//!
//! ```sh
//! cargo bench -p tgsi-jit --bench engines -- --quick
//! cargo bench -p tgsi-jit --bench engines -- julia      # one case
//! ```
//!
//! The same shaders run on Mesa softpipe and llvmpipe in `scripts/bench-render.sh`, which
//! prints the comparison table.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tgsi_exec::{render_fragment_with, Interpreter, RenderOptions, WaveEngine};
use tgsi_jit::Engine;

/// Side of the benchmarked image.
const SIDE: u32 = 64;

fn render(c: &mut Criterion) {
    let cases = common::load_all();
    let mut group = c.benchmark_group("render64");
    group.throughput(Throughput::Elements(u64::from(SIDE * SIDE)));
    group.sample_size(10);
    for case in &cases {
        let options = RenderOptions {
            width: SIDE,
            height: SIDE,
            ..case.options.clone()
        };
        let jit = Engine::new(case.program.clone());
        if let Some(reason) = jit.fallback_reason() {
            eprintln!(
                "{}: the JIT falls back to the interpreter: {}",
                case.name, reason.0
            );
        }
        let engines: [(&str, &dyn WaveEngine); 2] =
            [("interp", &Interpreter(&case.program)), ("jit", &jit)];
        for (engine, e) in engines {
            group.bench_with_input(BenchmarkId::new(engine, &case.name), &options, |b, o| {
                b.iter(|| black_box(render_fragment_with(e, o).expect("render")))
            });
        }
    }
    group.finish();
}

fn compile(c: &mut Criterion) {
    let cases = common::load_all();
    let mut group = c.benchmark_group("jit-compile");
    group.sample_size(10);
    for case in &cases {
        group.bench_with_input(
            BenchmarkId::from_parameter(&case.name),
            &case.program,
            |b, p| b.iter(|| black_box(Engine::new(p.clone()))),
        );
    }
    group.finish();
}

criterion_group!(benches, render, compile);
criterion_main!(benches);
