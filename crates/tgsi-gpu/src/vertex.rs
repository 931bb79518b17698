//! The generated vertex shader: one triangle covering the viewport, (−1, −1), (3, −1),
//! (−1, 3) at z = 0.5, w = 1, whose varyings are the fragment inputs' constants, passed
//! with flat interpolation (the fragment shader's inputs are made flat too) so the fragment
//! shader receives their exact bits.

use std::fmt::Write;

use naga::{Binding, BuiltIn, Interpolation, Module};
use tgsi_exec::{Program, RenderOptions};
use tgsi_naga::varying_location;

use crate::error::{Error, Result};

/// A varying: its location and its four words.
pub(crate) struct Varying {
    pub location: u32,
    pub words: [u32; 4],
}

/// WGSL source of the vertex shader writing `varyings`.
pub(crate) fn source(varyings: &[Varying]) -> String {
    let mut s = String::from("struct Out {\n    @builtin(position) position: vec4<f32>,\n");
    for v in varyings {
        // Writing to a String cannot fail.
        let _ = writeln!(
            s,
            "    @location({0}) @interpolate(flat) v{0}: vec4<f32>,",
            v.location
        );
    }
    s.push_str(
        "}\n\n@vertex\nfn main(@builtin(vertex_index) i: u32) -> Out {\n    var out: Out;\n    \
         let x = f32((i & 1u) * 4u) - 1.0;\n    let y = f32((i >> 1u) * 4u) - 1.0;\n    \
         out.position = vec4<f32>(x, y, 0.5, 1.0);\n",
    );
    for v in varyings {
        let [a, b, c, d] = v.words;
        let _ = writeln!(
            s,
            "    out.v{} = bitcast<vec4<f32>>(vec4<u32>({a}u, {b}u, {c}u, {d}u));",
            v.location
        );
    }
    s.push_str("    return out;\n}\n");
    s
}

/// The constant of the fragment input at `location`, masked like the interpreter does.
fn input_words(program: &Program, opts: &RenderOptions, location: u32) -> [u32; 4] {
    let mut words = None;
    for d in &program.inputs {
        if varying_location(d.semantic, d.semantic_index) != Some(location) {
            continue;
        }
        let w =
            words.unwrap_or_else(|| opts.inputs.get(d.index as usize).copied().unwrap_or([0; 4]));
        words = Some(std::array::from_fn(|c| {
            if d.usage_mask & (1 << c) != 0 {
                w[c]
            } else {
                0
            }
        }));
    }
    words.unwrap_or([0; 4])
}

/// Makes every location input of the entry point flat, renumbers the locations 0, 1, 2, …
/// (tgsi-naga's fixed locations reach 47, beyond the inter-stage limit of wgpu's devices),
/// and returns the varyings the vertex shader must write.
pub(crate) fn flat_inputs(
    module: &mut Module,
    program: &Program,
    opts: &RenderOptions,
) -> Result<Vec<Varying>> {
    let mut varyings = Vec::new();
    for ep in &mut module.entry_points {
        for arg in &mut ep.function.arguments {
            match &mut arg.binding {
                Some(Binding::Location {
                    location,
                    interpolation,
                    sampling,
                    ..
                }) => {
                    *interpolation = Some(Interpolation::Flat);
                    *sampling = None;
                    let words = input_words(program, opts, *location);
                    *location = varyings.len() as u32;
                    varyings.push(Varying {
                        location: *location,
                        words,
                    });
                }
                Some(Binding::BuiltIn(BuiltIn::PointCoord)) => {
                    return Err(Error::Unsupported(
                        "PCOORD input (there are no points to rasterise)".into(),
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(varyings)
}
