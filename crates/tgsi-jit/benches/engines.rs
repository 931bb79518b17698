//! Criterion benchmarks of the benchmark suite (`benches/shaders/*`): every fragment case
//! rendered at its reference size (64×64) on one thread with the interpreter and with the
//! JIT (throughput in pixels), the JIT's compile time per case, and each compute case's
//! dispatch on the interpreter (throughput in invocations; the JIT runs no compute shaders
//! yet). Each engine's first result is checked against softpipe's before it is timed.
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
use tgsi_exec::{render_fragment_with, run_compute, run_compute_with, Interpreter, WaveEngine};
use tgsi_jit::Engine;

fn render(c: &mut Criterion) {
    let cases = common::load_all();
    let mut group = c.benchmark_group("render");
    group.sample_size(10);
    for case in &cases {
        let options = &case.options;
        group.throughput(Throughput::Elements(u64::from(
            options.width * options.height,
        )));
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
            let image = render_fragment_with(e, options).expect("render");
            assert!(
                image.to_le_bytes() == case.reference,
                "{} {engine}: not softpipe's image",
                case.name
            );
            group.bench_with_input(BenchmarkId::new(engine, &case.name), options, |b, o| {
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
        // The first dispatch gives softpipe's outputs and the invocation count; the buffers
        // keep changing afterwards, which does not change the work.
        let stats = run_compute(&case.program, &options).expect("dispatch");
        for (resource, want) in &case.expected {
            assert!(
                &resource.data.to_bytes() == want,
                "{}: not softpipe's output",
                case.name
            );
        }
        group.throughput(Throughput::Elements(stats.invocations));
        group.bench_function(BenchmarkId::new("interp", &case.name), |b| {
            b.iter(|| black_box(run_compute(&case.program, &options).expect("dispatch")))
        });
        let jit = Engine::new(case.program.clone());
        group.bench_function(BenchmarkId::new("jit", &case.name), |b| {
            b.iter(|| black_box(run_compute_with(&jit, &options).expect("dispatch")))
        });
    }
    group.finish();
}

criterion_group!(benches, render, compile, compute);
criterion_main!(benches);
