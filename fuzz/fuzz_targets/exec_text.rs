//! Fuzz target: arbitrary bytes as TGSI text, run on the interpreter. Whatever parses and
//! compiles must run to completion or to a clean error (budget, call depth, address stack)
//! without panicking, on a 4-lane wave and one of the drivers' width (`WAVE`), through the fragment renderer and,
//! for geometry shaders, over input primitives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgsi_exec::{
    render_fragment, run_geometry, Env, GeometryOptions, Machine, Program, RenderOptions,
};

use tgsi_fuzz::EDGES;

fn run<const N: usize>(program: &Program, consts: &[Vec<[u32; 4]>]) {
    let mut m = Machine::<N>::new(program);
    for (i, r) in m.inputs_mut().iter_mut().enumerate() {
        for (c, ch) in r.iter_mut().enumerate() {
            for (l, v) in ch.iter_mut().enumerate() {
                *v = EDGES[(i + c + l) % EDGES.len()];
            }
        }
    }
    let env = Env {
        resources: &tgsi_exec::resource::NO_RESOURCES,
        consts,
        budget: 20_000,
        helpers: 0b0100,
    };
    let _ = m.run(program, &env);
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(shader) = tgsi::parse(text) else {
        return;
    };
    let Ok(program) = Program::compile(&shader) else {
        return;
    };
    let consts = vec![vec![[0x3f80_0000, 2, 0xffff_fffe, 0x7fc0_0000]; 8]; 2];
    run::<4>(&program, &consts);
    run::<{ tgsi_exec::WAVE }>(&program, &consts);
    if program.geometry.is_some() {
        let opts = GeometryOptions {
            count: 2,
            constants: consts.clone(),
            budget: 20_000,
            ..Default::default()
        };
        let _ = run_geometry(&program, &opts);
    }
    if shader.processor == tgsi::Processor::Fragment {
        let opts = RenderOptions {
            width: 3,
            height: 3,
            constants: consts,
            budget: 20_000,
            threads: 1,
            ..Default::default()
        };
        let _ = render_fragment(&program, &opts);
    }
});
