//! Fuzz target: arbitrary bytes as TGSI text, run on the JIT and on the interpreter.
//! Whatever parses and compiles must give the same output words (or the same error) on both
//! engines, for fragment shaders through the renderer, vertex shaders over vertices whose
//! inputs include edge values, and compute shaders dispatched over two buffers and shared
//! memory, with the same instruction count (an exhausted budget counts as the same error: the JIT cannot name the
//! instruction of a compute wave); nothing may crash or hang, and no function the JIT
//! builds may fail Cranelift's verifier (on in fuzz builds, which have debug assertions).
//! Programs with loops are compared in both their forms (one and two quads per call).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;
use tgsi::Processor;
use tgsi_exec::resource::{BufferView, Resource, Resources};
use tgsi_exec::{
    render_fragment_with, run_compute_with, run_vertices_with, ComputeOptions, ExecError,
    Interpreter, Program, RenderOptions, VertexInput, VertexOptions, WaveEngine,
};

use tgsi_fuzz::EDGES;

fn run(engine: &dyn WaveEngine, consts: &[Vec<[u32; 4]>]) -> Result<Vec<u32>, String> {
    let program = engine.program();
    let budget = 20_000;
    if program.processor == Processor::Fragment {
        let opts = RenderOptions {
            width: 6,
            height: 4,
            constants: consts.to_vec(),
            inputs: (0..8)
                .map(|i| std::array::from_fn(|c| EDGES[(i + c) % 8]))
                .collect(),
            budget,
            threads: 1,
            ..Default::default()
        };
        let image = render_fragment_with(engine, &opts).map_err(|e| e.to_string())?;
        return Ok(image
            .pixels
            .iter()
            .flat_map(|p| p.map(f32::to_bits))
            .collect());
    }
    if program.processor == Processor::Compute {
        return dispatch(engine, consts, budget);
    }
    let n = program.register_counts()[1];
    let count = 19;
    let opts = VertexOptions {
        count,
        inputs: (0..n)
            .map(|i| {
                VertexInput::PerVertex(
                    (0..count)
                        .map(|v| std::array::from_fn(|c| EDGES[(i + c + v) % 8]))
                        .collect(),
                )
            })
            .collect(),
        constants: consts.to_vec(),
        budget,
        ..Default::default()
    };
    let out = run_vertices_with(engine, &opts).map_err(|e| e.to_string())?;
    Ok(out.values.iter().flatten().flatten().copied().collect())
}

/// A compute dispatch over two 256-byte buffers of edge values and 256 bytes of shared
/// memory; the wave instructions it counted and the buffers' bytes afterwards.
fn dispatch(
    engine: &dyn WaveEngine,
    consts: &[Vec<[u32; 4]>],
    budget: u64,
) -> Result<Vec<u32>, String> {
    let bufs: Vec<Arc<Resource>> = (0..2)
        .map(|b| {
            let bytes: Vec<u8> = (0..64)
                .flat_map(|i| EDGES[(i + b) % 8].to_le_bytes())
                .collect();
            Arc::new(Resource::buffer(&bytes))
        })
        .collect();
    let resources = Resources {
        buffers: bufs.iter().map(|r| Some(BufferView::whole(r))).collect(),
        ..Resources::default()
    };
    let opts = ComputeOptions {
        grid: [2, 1, 1],
        block: [8, 2, 1],
        constants: consts.to_vec(),
        resources: &resources,
        shared_bytes: 256,
        budget,
        ..ComputeOptions::default()
    };
    let stats = run_compute_with(engine, &opts).map_err(|e| match e {
        ExecError::Budget { .. } => "budget".to_string(),
        e => e.to_string(),
    })?;
    // The wave instructions counted, then the bytes.
    let count = [stats.instructions as u32, (stats.instructions >> 32) as u32];
    Ok(count
        .into_iter()
        .chain(bufs.iter().flat_map(|r| r.data.to_bytes()).map(u32::from))
        .collect())
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(shader) = tgsi::parse(text) else {
        return;
    };
    if !matches!(
        shader.processor,
        Processor::Fragment | Processor::Vertex | Processor::Compute
    ) {
        return;
    }
    let Ok(program) = Program::compile(&shader) else {
        return;
    };
    // A program with loops compiles its second form (the other count of quads per call)
    // at its first wave here, and later waves run the two by turns (0, 1, 1, 0…).
    let options = tgsi_jit::Options {
        tuning: Some(0),
        ..Default::default()
    };
    let jit = tgsi_jit::Engine::with_options(program.clone(), options);
    if let Some(why) = jit.fallback_reason() {
        // Fuzz builds verify what the JIT gives Cranelift: an ill-formed function is a bug.
        let why = why.to_string();
        assert!(!why.contains("Verifier"), "{why}");
        return;
    }
    let consts = vec![vec![[0x3f80_0000, 2, 0xffff_fffe, 0x7fc0_0000]; 8]; 2];
    let want = run(&Interpreter(&program), &consts);
    let got = run(&jit, &consts);
    assert_eq!(want, got, "the JIT and the interpreter disagree");
    if let tgsi_jit::Engine::Compiled(j) = &jit {
        // Two forms: two more runs (a wave or more each) reach the second.
        if j.quads_per_call_compiled().len() == 2 {
            for _ in 0..2 {
                let got = run(&jit, &consts);
                assert_eq!(want, got, "the JIT's second form and the interpreter disagree");
            }
        }
    }
});
