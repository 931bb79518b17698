//! Fuzz target: a bindings document and a shader, run together. The input is three parts
//! separated by NUL bytes: bindings JSON, TGSI text, and bytes that fill every resource
//! (repeated). The document must parse or fail with a keyed error (resources together capped
//! at 16 MiB here); a shader that compiles then runs with those resources bound: fragment
//! shaders through the renderer at 4×4 on the interpreter and on the JIT, which must give
//! the same words (or the same error), compute shaders as one dispatch of at most 256
//! invocations, vertex shaders over 8 vertices, each within a budget, without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use tgsi_exec::{
    bindings, render_fragment_with, run_compute, run_vertices, ComputeOptions, Interpreter,
    Program, RenderOptions, VertexOptions, WaveEngine,
};

/// Resource bytes the fuzzer may ask for in one document.
const MAX_BYTES: u64 = 16 << 20;
/// Invocations of one fuzzed dispatch.
const MAX_INVOCATIONS: u64 = 256;
const BUDGET: u64 = 20_000;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == 0);
    let (Some(json), Some(text)) = (parts.next(), parts.next()) else {
        return;
    };
    let fill = parts.next().unwrap_or(&[]);
    let (Ok(json), Ok(text)) = (std::str::from_utf8(json), std::str::from_utf8(text)) else {
        return;
    };
    // Data files are never found here: a missing directory as the base.
    let Ok(b) = bindings::parse_with_limit(json, Path::new("/nonexistent-fuzz-dir"), MAX_BYTES)
    else {
        return;
    };
    if !fill.is_empty() {
        for res in b.resources.bound_resources() {
            let bytes: Vec<u8> = fill.iter().copied().cycle().take(res.data.len()).collect();
            res.data.write(0, &bytes);
        }
    }
    let Ok(shader) = tgsi::parse(text) else {
        return;
    };
    let _ = b.unbound_slots(&shader);
    let Ok(program) = Program::compile(&shader) else {
        return;
    };
    let consts = vec![vec![[0x3f80_0000, 2, 0xffff_fffe, 0x7fc0_0000]; 8]; 2];
    match shader.processor {
        tgsi::Processor::Fragment => {
            let opts = RenderOptions {
                width: 4,
                height: 4,
                constants: consts,
                budget: BUDGET,
                threads: 1,
                resources: b.resources.clone(),
                ..Default::default()
            };
            // The JIT (its compiled sampling kernels included) gives the interpreter's words.
            let words = |engine: &dyn WaveEngine| {
                render_fragment_with(engine, &opts)
                    .map(|image| {
                        image
                            .pixels
                            .iter()
                            .flat_map(|p| p.map(f32::to_bits))
                            .collect::<Vec<u32>>()
                    })
                    .map_err(|e| e.to_string())
            };
            let want = words(&Interpreter(&program));
            let jit = tgsi_jit::Engine::new(program.clone());
            assert_eq!(want, words(&jit), "the JIT and the interpreter disagree");
        }
        tgsi::Processor::Compute => {
            let grid = b.grid.unwrap_or([1, 1, 1]);
            let block = b.block.unwrap_or([1, 1, 1]);
            let count = |d: [u32; 3]| d.iter().map(|&v| u64::from(v)).product::<u64>();
            if count(grid).saturating_mul(count(block)) > MAX_INVOCATIONS {
                return;
            }
            let opts = ComputeOptions {
                grid,
                block,
                constants: consts,
                resources: &b.resources,
                shared_bytes: b.req_local_mem.map_or(1024, |m| m.min(1 << 16) as usize),
                threads: 1,
                budget: BUDGET,
                ..Default::default()
            };
            let _ = run_compute(&program, &opts);
        }
        tgsi::Processor::Vertex => {
            let opts = VertexOptions {
                count: 8,
                constants: consts,
                budget: BUDGET,
                resources: b.resources.clone(),
                ..Default::default()
            };
            let _ = run_vertices(&program, &opts);
        }
        _ => {}
    }
});
