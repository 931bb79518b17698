//! Fuzz target: arbitrary bytes as TGSI text, run on the JIT and on the interpreter.
//! Whatever parses and compiles must give the same output words (or the same error) on both
//! engines, for fragment shaders through the renderer and vertex shaders over vertices
//! whose inputs include edge values; nothing may crash or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgsi::Processor;
use tgsi_exec::{
    render_fragment_with, run_vertices_with, Interpreter, Program, RenderOptions, VertexInput,
    VertexOptions, WaveEngine,
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

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(shader) = tgsi::parse(text) else {
        return;
    };
    if !matches!(shader.processor, Processor::Fragment | Processor::Vertex) {
        return;
    }
    let Ok(program) = Program::compile(&shader) else {
        return;
    };
    let jit = tgsi_jit::Engine::new(program.clone());
    if !jit.is_compiled() {
        return;
    }
    let consts = vec![vec![[0x3f80_0000, 2, 0xffff_fffe, 0x7fc0_0000]; 8]; 2];
    let want = run(&Interpreter(&program), &consts);
    let got = run(&jit, &consts);
    assert_eq!(want, got, "the JIT and the interpreter disagree");
});
