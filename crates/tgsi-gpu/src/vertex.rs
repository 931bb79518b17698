//! The generated vertex shader: one triangle covering the viewport, (−1, −1), (3, −1),
//! (−1, 3) at z = 0.5, w = 1, whose varyings are the fragment inputs' constants, passed
//! with flat interpolation so the fragment shader receives their exact bits.

use std::fmt::Write;

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
