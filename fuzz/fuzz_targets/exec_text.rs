//! Fuzz target: arbitrary bytes as TGSI text, run on the interpreter. Whatever parses and
//! compiles must run to completion or to a clean error (budget, call depth, address stack)
//! without panicking, on a 4-lane wave and one of the drivers' width (`WAVE`), and through
//! its stage's driver: the fragment renderer, the vertex driver, the geometry driver over
//! input primitives, a control shader over a patch (its levels then tessellated in every
//! domain and spacing), an evaluation shader over a tessellated patch.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgsi_exec::tessellation::{ControlStage, EvalStage, Levels, Patch};
use tgsi_exec::tessellator::{Domain, Spacing, TessMode};
use tgsi_exec::{
    render_fragment, run_geometry, run_vertices, Env, GeometryOptions, Machine, Program,
    RenderOptions, VertexOptions, Vertices,
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
    let env = Env {
        resources: &tgsi_exec::resource::NO_RESOURCES,
        consts: &consts,
        budget: 20_000,
        helpers: 0,
    };
    let patch = Patch {
        semantics: vec![(tgsi::Semantic::Position, 0), (tgsi::Semantic::Generic, 0)],
        vertices: Vertices::from_fn(2, 3, |v, d| {
            std::array::from_fn(|c| EDGES[(v + d + c) % EDGES.len()])
        }),
        per_patch: Vec::new(),
        levels: Levels::from_floats([3.0, 2.5, 7.0, 1.0], [4.0, 2.0]),
    };
    match shader.processor {
        tgsi::Processor::Vertex => {
            let opts = VertexOptions {
                count: 5,
                constants: consts.clone(),
                budget: 20_000,
                ..Default::default()
            };
            let _ = run_vertices(&program, &opts);
        }
        tgsi::Processor::TessCtrl => {
            if let Ok(Ok(out)) = ControlStage::new(&program).map(|mut s| s.run(&patch, 1, &env)) {
                for domain in [Domain::Triangles, Domain::Quads, Domain::Isolines] {
                    for spacing in [
                        Spacing::Equal,
                        Spacing::FractionalOdd,
                        Spacing::FractionalEven,
                    ] {
                        let mode = TessMode {
                            domain,
                            spacing,
                            cw: false,
                            point_mode: false,
                        };
                        let _ = out.levels.tessellate(&mode);
                    }
                }
            }
        }
        tgsi::Processor::TessEval => {
            if let Ok(mut stage) = EvalStage::new(&program) {
                let tess = patch.levels.tessellate(&stage.mode());
                let _ = stage.run(&patch, &tess, 2, &env);
            }
        }
        _ => {}
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
