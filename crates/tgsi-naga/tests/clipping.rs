//! Clipping outputs, on the reference evaluator of naga IR: a `CLIPVERTEX` output becomes
//! the eight clip distances `dot(clip vertex, plane[i])` against the uniform block of user
//! clip planes at `CLIP_PLANES_BINDING`; `CLIPDIST` outputs go both to the built-in and to
//! the varyings at locations 46 + n, which a fragment shader's `CLIPDIST` inputs read.
//! (The corpus test passes such shaders of Mesa's through `spirv-val` and
//! `glslangValidator`.)

#[path = "support/eval.rs"]
mod eval;

use eval::{Evaluator, Outcome, V};
use naga::{Binding, BuiltIn};

/// Runs the entry point of `module` with vec4 arguments `args`; the result members.
fn run(module: &naga::Module, planes: Option<[[f32; 4]; 8]>, args: Vec<[f32; 4]>) -> Vec<V> {
    let mut evaluator = Evaluator {
        module,
        globals: Default::default(),
    };
    for (handle, var) in module.global_variables.iter() {
        let mut value = eval::zero(module, var.ty).expect("zero");
        if var.name.as_deref() == Some("clip_planes") {
            let binding = var.binding.as_ref().expect("binding");
            assert_eq!(
                (binding.group, binding.binding),
                (0, tgsi_naga::CLIP_PLANES_BINDING)
            );
            let planes = planes.expect("planes");
            value = V::Agg(vec![V::Agg(
                planes
                    .iter()
                    .map(|p| V::Agg(p.iter().map(|&x| V::F32(x)).collect()))
                    .collect(),
            )]);
        }
        evaluator.globals.insert(handle, value);
    }
    let entry = &module.entry_points[0];
    let args = args
        .into_iter()
        .map(|a| V::Agg(a.iter().map(|&x| V::F32(x)).collect()))
        .collect();
    match evaluator.run(&entry.function, args).expect("runs") {
        Outcome::Returned(Some(V::Agg(members))) => members,
        _ => panic!("no result"),
    }
}

fn floats(v: &V) -> Vec<f32> {
    match v {
        V::Agg(items) => items
            .iter()
            .map(|x| match x {
                V::F32(f) => *f,
                other => panic!("{other:?}"),
            })
            .collect(),
        other => panic!("{other:?}"),
    }
}

/// The result member with `binding`.
fn member<'a>(module: &naga::Module, values: &'a [V], binding: &Binding) -> &'a V {
    let result = module.entry_points[0]
        .function
        .result
        .as_ref()
        .expect("result");
    let naga::TypeInner::Struct { members, .. } = &module.types[result.ty].inner else {
        panic!("no struct");
    };
    let i = members
        .iter()
        .position(|m| m.binding.as_ref() == Some(binding))
        .unwrap_or_else(|| panic!("no member bound to {binding:?}"));
    &values[i]
}

fn translate(text: &str) -> naga::Module {
    let shader = tgsi::parse(text).expect("parse");
    let module = tgsi_naga::translate(&shader).expect("translate");
    tgsi_naga::validate(&module).expect("naga-valid");
    module
}

fn location(location: u32) -> Binding {
    Binding::Location {
        location,
        interpolation: Some(naga::Interpolation::Perspective),
        sampling: Some(naga::Sampling::Center),
        blend_src: None,
        per_primitive: false,
    }
}

#[test]
fn clip_vertex_is_clipped_against_the_user_planes() {
    let module = translate(
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], CLIPVERTEX\n\
         0: MOV OUT[0], IN[0]\n1: MOV OUT[1], IN[0].wzyx\n2: END\n",
    );
    let mut planes = [[0.0; 4]; 8];
    planes[0] = [1.0, 0.0, 0.0, 0.0];
    planes[1] = [0.0, -1.0, 0.0, 2.0];
    planes[7] = [0.5, 0.25, 2.0, -1.0];
    let values = run(&module, Some(planes), vec![[1.0, 2.0, 3.0, 4.0]]);
    let distances = floats(member(
        &module,
        &values,
        &Binding::BuiltIn(BuiltIn::ClipDistances),
    ));
    // The clip vertex is (4, 3, 2, 1).
    assert_eq!(distances, [4.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.75]);
}

#[test]
fn clip_distances_reach_fragment_shaders_as_varyings() {
    let vs = translate(
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST[0]\nDCL OUT[2], CLIPDIST[1]\n\
         0: MOV OUT[0], IN[0]\n1: MOV OUT[1], IN[0].wzyx\n2: MOV OUT[2], -IN[0]\n3: END\n",
    );
    let values = run(&vs, None, vec![[1.0, 2.0, 3.0, 4.0]]);
    let builtin = floats(member(
        &vs,
        &values,
        &Binding::BuiltIn(BuiltIn::ClipDistances),
    ));
    assert_eq!(builtin, [4.0, 3.0, 2.0, 1.0, -1.0, -2.0, -3.0, -4.0]);
    assert_eq!(
        floats(member(&vs, &values, &location(46))),
        [4.0, 3.0, 2.0, 1.0]
    );
    assert_eq!(
        floats(member(&vs, &values, &location(47))),
        [-1.0, -2.0, -3.0, -4.0]
    );
    // The fragment shader reads CLIPDIST[1] from location 47.
    let fs = translate(
        "FRAG\nDCL IN[0], CLIPDIST[1], PERSPECTIVE\nDCL OUT[0], COLOR\n\
         0: MOV OUT[0], IN[0]\n1: END\n",
    );
    let input = &fs.entry_points[0].function.arguments[0];
    assert!(
        matches!(input.binding, Some(Binding::Location { location: 47, .. })),
        "{:?}",
        input.binding
    );
    let values = run(&fs, None, vec![[-1.0, -2.0, -3.0, -4.0]]);
    assert_eq!(floats(&values[0]), [-1.0, -2.0, -3.0, -4.0]);
}

#[test]
fn clip_vertex_and_clip_distances_together_are_refused() {
    let shader = tgsi::parse(
        "VERT\nDCL OUT[0], POSITION\nDCL OUT[1], CLIPVERTEX\nDCL OUT[2], CLIPDIST[0]\n0: END\n",
    )
    .expect("parse");
    let err = tgsi_naga::translate(&shader).expect_err("refused");
    assert!(
        err.to_string().contains("both CLIPVERTEX and CLIPDIST"),
        "{err}"
    );
}
