//! Criterion benchmarks of the benchmark suite (`benches/shaders/*`): every fragment case
//! rendered at 64×64 on one thread with the interpreter and with the JIT (throughput in
//! pixels), the JIT's compile time per case, and each compute case's dispatch on the
//! interpreter (throughput in invocations; the JIT runs no compute shaders yet).
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
use tgsi_exec::{render_fragment_with, run_compute, Interpreter, RenderOptions, WaveEngine};
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

fn compute(c: &mut Criterion) {
    let cases = common::load_all_compute();
    let mut group = c.benchmark_group("compute");
    group.sample_size(10);
    for case in &cases {
        let options = case.options();
        // The first dispatch gives the invocation count; the buffers keep changing, which
        // does not change the work.
        let stats = run_compute(&case.program, &options).expect("dispatch");
        group.throughput(Throughput::Elements(stats.invocations));
        group.bench_function(BenchmarkId::new("interp", &case.name), |b| {
            b.iter(|| black_box(run_compute(&case.program, &options).expect("dispatch")))
        });
    }
    group.finish();
}

criterion_group!(benches, render, compile, compute);
criterion_main!(benches);
