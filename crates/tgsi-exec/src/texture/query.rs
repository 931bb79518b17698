//! Queries: the size of a view's level (TXQ / SVIEWINFO, softpipe's `sp_get_dims`), the
//! LOD a sample would use (LODQ / LOD, `sp_tgsi_query_lod`), and the sample-count queries
//! softpipe does not implement (TXQS, SAMPLE_INFO, SAMPLE_POS), defined here as the spec
//! describes them for a single-sampled implementation.

use super::cmath::minify;
use super::filter::{self, Samp};
use super::lod::{self, Control};
use super::sample::Coords;
use super::texel::View;
use crate::format;
use crate::resource::{SamplerView, Target};

/// `sp_get_dims` for level `level` relative to the view's first level: width, height,
/// depth or layers (cubes for cube arrays), number of levels. Buffers give the number of
/// elements in x. Channels softpipe leaves unwritten (undefined in Mesa), and every
/// channel of a level past the view's last one, are 0.
pub(crate) fn dims(view: &SamplerView, level: i32) -> [i32; 4] {
    let res = &view.resource;
    if view.target == Target::Buffer {
        let size = format::texel_bytes(view.format).unwrap_or(0) as u32;
        let n = view.size.checked_div(size).unwrap_or(0);
        return [n as i32, 0, 0, 0];
    }
    let level = (level as u32).wrapping_add(view.first_level);
    if level > view.last_level {
        return [0; 4];
    }
    let levels = view
        .last_level
        .wrapping_sub(view.first_level)
        .wrapping_add(1) as i32;
    let layers = view
        .last_layer
        .wrapping_sub(view.first_layer)
        .wrapping_add(1) as i32;
    let w = minify(res.width0, level) as i32;
    let h = minify(res.height0, level) as i32;
    match view.target {
        Target::Tex1D | Target::Buffer => [w, 0, 0, levels],
        Target::Array1D => [w, layers, 0, levels],
        Target::Tex2D | Target::Cube | Target::Rect => [w, h, 0, levels],
        Target::Array2D => [w, h, layers, levels],
        Target::Tex3D => [w, h, minify(res.depth0, level) as i32, levels],
        Target::CubeArray => [w, h, layers / 6, levels],
    }
}

/// LODQ: per lane (mip level relative to the first level that would be used, unclamped
/// LOD λ + bias).
pub(crate) fn lod(v: &View, samp: &Samp, q: &Coords, frag: bool) -> ([f32; 4], [f32; 4]) {
    let st = &samp.st;
    let derivs = [[[0.0; 4]; 2]; 3];
    let lods = lod::unclamped(
        v,
        st,
        &q.s,
        &q.t,
        &q.p,
        &derivs,
        &[0.0; 4],
        Control::None,
        frag,
    );
    let funcs = lod::mip_funcs(st, filter::pot2d(v), Control::None);
    (lod::relative_level(v, st, funcs, &lods), lods)
}

/// Samples per texel of a view's resource (at least 1).
pub(crate) fn samples(view: &SamplerView) -> u32 {
    view.resource.nr_samples.max(1)
}
