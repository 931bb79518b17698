//! Unfiltered texel fetch (TXF, SAMPLE_I, SAMPLE_I_MS; softpipe's `sp_get_texels`): integer
//! coordinates clamped into the level (never a border colour), the level taken from the
//! LOD of **lane 0** for the whole quad, then the view swizzle.
//!
//! Softpipe clamps some values with signed and some with unsigned comparisons (C mixes
//! `int` coordinates with `unsigned` view fields): x, y and 3-D z clamp signed to
//! `[0, size − 1]`, the level to `[first_level, last_level]` and array layers to
//! `[first_layer, last_layer]` (a negative LOD or layer selects the first); buffer
//! elements clamp **unsigned**, so a negative element selects the last one. (Both measured
//! on Mesa 22.3 softpipe: `tests/data/texref/texelfetch-targets`, `tbuffer-fetch`.)

use super::cmath::{clampi, clampu};
use super::texel::{Texel, View};
use crate::resource::Target;

/// Integer coordinates of the quad: `i, j, k` per lane and the LOD (or MSAA sample index,
/// which softpipe uses as the LOD).
pub(crate) struct FetchCoords {
    pub i: [i32; 4],
    pub j: [i32; 4],
    pub k: [i32; 4],
    pub lod: [i32; 4],
}

/// Fetch the quad's texels (swizzled). Cube views fetch nothing in softpipe (its result is
/// undefined stack contents); here they give zeros.
pub(crate) fn get_texels(v: &View, c: &FetchCoords, offset: [i32; 3]) -> [Texel; 4] {
    let vw = &v.view;
    let level = if vw.target == Target::Buffer {
        0
    } else {
        (i64::from(c.lod[0]) + i64::from(vw.first_level)).clamp(
            i64::from(vw.first_level),
            i64::from(vw.last_level.max(vw.first_level)),
        ) as u32
    };
    let width = v.width(level) as i32;
    let height = v.height(level) as i32;
    let depth = v.depth(level) as i32;
    let x_of = |j: usize| clampi(c.i[j].wrapping_add(offset[0]), 0, width - 1);
    let y_of = |j: usize| clampi(c.j[j].wrapping_add(offset[1]), 0, height - 1);
    let layer = |coord: i32| {
        i64::from(coord).clamp(
            i64::from(vw.first_layer),
            i64::from(vw.last_layer.max(vw.first_layer)),
        ) as i32
    };
    let first_layer = vw.first_layer as i32;
    std::array::from_fn(|j| {
        let texel = match vw.target {
            Target::Buffer => {
                let size = v.texel_bytes.max(1) as u32;
                let first = vw.offset / size;
                let last = (vw.offset.wrapping_add(vw.size) / size).wrapping_sub(1);
                let x = (c.i[j].wrapping_add(offset[0]) as u32).wrapping_add(first);
                v.element(clampu(x, first, last)).unwrap_or([0.0; 4])
            }
            Target::Tex1D => v.texel(level, x_of(j), first_layer, 0),
            Target::Array1D => v.texel(level, x_of(j), layer(c.j[j]), 0),
            Target::Tex2D | Target::Rect => v.texel(level, x_of(j), y_of(j), first_layer),
            Target::Array2D => v.texel(level, x_of(j), y_of(j), layer(c.k[j])),
            Target::Tex3D => {
                let z = clampi(c.k[j].wrapping_add(offset[2]), 0, depth - 1);
                v.texel(level, x_of(j), y_of(j), z)
            }
            Target::Cube | Target::CubeArray => [0.0; 4],
        };
        v.swizzle(texel)
    })
}
