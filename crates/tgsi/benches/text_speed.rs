//! Throughput of the text paths on one generated 16 MiB shader of typical instructions
//! (see `support/big_shader.rs`): text → IR, IR → text, text → tokens (straight, and
//! through the IR), text → IR → text and text → text without the IR (`text::reformat`), in
//! MB/s of shader text. Wall time: on a shared machine
//! `cargo run --release -p tgsi --example big_shader -- --time` (thread CPU time) is
//! steadier.
//!
//! Run: `cargo bench -p tgsi --bench text_speed` (add `-- --quick` for a short run).

#[path = "support/big_shader.rs"]
mod big_shader;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn text_speed(c: &mut Criterion) {
    let text = big_shader::generate(16 << 20);
    let shader = tgsi::parse(&text).expect("the generated shader parses");
    let mut group = c.benchmark_group(format!("16 MiB shader ({} bytes)", text.len()));
    group.throughput(Throughput::BytesDecimal(text.len() as u64));
    group.bench_function("text->IR", |b| {
        b.iter(|| tgsi::parse(&text).map_or(0, |s| s.instructions.len()))
    });
    // The same without freeing the IR: what the allocator's frees cost shows as the
    // difference.
    group.bench_function("text->IR (drop not timed)", |b| {
        b.iter_with_large_drop(|| tgsi::parse(&text))
    });
    group.bench_function("IR->text", |b| b.iter(|| tgsi::print(&shader).len()));
    group.bench_function("text->tokens (assemble)", |b| {
        b.iter(|| tgsi::tokens::assemble(&text).map_or(0, |w| w.len()))
    });
    group.bench_function("text->IR->tokens", |b| {
        b.iter(|| {
            tgsi::parse(&text)
                .ok()
                .and_then(|s| tgsi::tokens::encode(&s).ok())
                .map_or(0, |w| w.len())
        })
    });
    group.bench_function("text->IR->text", |b| {
        b.iter(|| tgsi::parse(&text).map_or(0, |s| tgsi::print(&s).len()))
    });
    group.bench_function("text->text (reformat)", |b| {
        b.iter(|| tgsi::text::reformat(&text, tgsi::PrintOptions::default()).map_or(0, |t| t.len()))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(4));
    targets = text_speed
}
criterion_main!(benches);
