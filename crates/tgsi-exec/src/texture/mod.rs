//! Texture sampling of one 2×2 quad, bit-for-bit as Mesa 22.3's softpipe does it
//! (`tgsi_exec.c` decides which values reach the sampler, `sp_tex_sample.c` samples).
//!
//! [`execute`] takes a texture opcode, its value sources, the bound sampler view and
//! sampler state, and returns the four lanes' results (lane 0 = top-left, 1 = top-right,
//! 2 = bottom-left, 3 = bottom-right). Results are `f32` bits for filtered and normalised
//! data and integers for integer formats and size queries.
//!
//! What decides what (as in softpipe):
//! * the **instruction's** target (the SVIEW declaration's for the SAMPLE family) only
//!   decides which source components become s, t, p, c0 and c1 (see `tgsi-formats.md`
//!   C.9); the **view's** target decides the filtering, the LOD formula, cube-face
//!   selection and where the shadow reference is read from;
//! * the TG4 gather component is bits 0–1 of lane 0's `src1.x`; GATHER4 always gathers
//!   component 0 (softpipe passes it a zero LOD slot);
//! * TXQ's level comes from lane 0; TXF's level from lane 0's LOD;
//! * texel offsets are truncated to signed 8 bits.
//!
//! Unbound views (and, where softpipe would crash, unbound samplers or formats the format
//! module cannot read) give zeros. TEX_LZ, TXF_LZ, TXQ_LZ, TXQS, SAMPLE_POS and
//! SAMPLE_INFO are not implemented by softpipe (its destination keeps its value); here
//! they follow the spec: TEX_LZ = TXL with LOD 0, TXF_LZ = TXF with LOD 0, TXQ_LZ = TXQ of
//! level 0, TXQS and SAMPLE_INFO = (samples, 0, 0, 0) as integers, SAMPLE_POS =
//! (0.5, 0.5, 0, 0) (single-sampled rendering).

mod aniso;
mod cmath;
mod cube;
mod direct;
mod fast2d;
mod fetch;
mod filter;
mod kernel;
mod lod;
mod query;
mod sample;
mod texel;
mod tile_cache;
mod wrap;

use crate::resource::{SamplerState, SamplerView};
use filter::Samp;
use lod::{Control, Derivs};
use sample::Coords;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use texel::{Texel, View};
use tgsi::{Opcode, TextureTarget};

pub use direct::{
    AxisWrap, Compiled, CompiledForm, CompiledLevel, Direct, DirectLod, DirectOp, Filtering,
    LevelRule, COMPILED_LEVELS,
};
pub use texel::border_color;
/// Softpipe's texture cache: tiles of `CACHE_TILE`² texels in `CACHE_SLOTS` slots, a tile
/// row `CACHE_ROW_WEIGHT` slots from the next (see `tile_cache`), for engines that must
/// know where its aliasing changes sampled values.
pub use tile_cache::{ROW_WEIGHT as CACHE_ROW_WEIGHT, SLOTS as CACHE_SLOTS, TILE as CACHE_TILE};

/// A quad's values: `[lane][channel]`, each a 32-bit word.
pub type QuadVec = [[u32; 4]; 4];

/// One texture instruction on one quad.
#[derive(Clone, Copy, Debug)]
pub struct TexRequest<'a> {
    /// The opcode.
    pub opcode: Opcode,
    /// The instruction's texture target (TEX family, TXF, TXQ, LODQ…) or the SVIEW
    /// declaration's target (SAMPLE family, SAMPLE_I, SVIEWINFO, LOD).
    pub target: TextureTarget,
    /// The value sources in operand order with the SAMP / SVIEW operands removed (TEX:
    /// `[coord]`; TXB2: `[coord, bias]`; TXD: `[coord, ddx, ddy]`; TG4: `[coord,
    /// component]`; SAMPLE_C: `[coord, ref]`; SAMPLE_D: `[coord, ddx, ddy]`; TXQ:
    /// `[lod]`…). Missing sources read as zero.
    pub srcs: &'a [QuadVec],
    /// The first texel offset's x, y, z (read from lane 0 by the caller).
    pub offsets: [i32; 3],
    /// The sampler view (`None`: unbound).
    pub view: Option<&'a SamplerView>,
    /// The sampler state (`None`: unbound).
    pub sampler: Option<&'a SamplerState>,
    /// The context-wide seamless cube map switch, ORed with the sampler's.
    pub seamless_cube_map: bool,
    /// Whether implicit-LOD sampling computes λ from the quad (fragment shaders); in
    /// other stages softpipe's implicit λ is 0 (`compute_lambda_vert`), the sampler's bias
    /// still applies.
    pub implicit_lod: bool,
    /// The swizzle of the SVIEW operand (`SVIEW[0].yxzw` → `[1, 0, 2, 3]`), which softpipe
    /// applies to the results of the SAMPLE family, SAMPLE_I(_MS), LOD, SAMPLE_POS and
    /// SAMPLE_INFO; ignored by the TEX family.
    pub sview_swizzle: [u8; 4],
}

/// Run one texture instruction on a quad.
pub fn execute(req: &TexRequest) -> QuadVec {
    execute_prepared(req, &mut Prepared::default())
}

/// Bound views and samplers prepared for sampling (level layouts, border colour, format
/// paths): an instruction's quads nearly always sample the same pair, and so do the waves
/// of a draw, so [`execute_prepared`] prepares each pair once and keeps the last few,
/// looked up by value (the entries hold the resources they describe, so a match is never
/// a stale one). The machine keeps one from wave to wave.
#[derive(Default)]
pub struct Prepared {
    /// Sampled pairs, the most recently used first (boxed: a shader alternating between two
    /// textures reorders them at every lookup, which then moves pointers, not views).
    #[allow(clippy::vec_box)]
    bound: Vec<Box<Bound>>,
    /// The views of the texel fetches (TXF, SAMPLE_I), which take no sampler.
    #[allow(clippy::vec_box)]
    fetch: Vec<Box<Fetched>>,
}

/// Pairs (and fetched views) a [`Prepared`] keeps.
const KEEP: usize = 8;

struct Bound {
    key: (SamplerView, SamplerState, bool),
    ready: Option<(View, Samp)>,
    /// Names the entry for the rest of the process ([`Direct::binding`]).
    id: u64,
    /// The [`CompiledForm`] of each direct instruction kind (and whether its LOD comes
    /// from the quad) met with the pair so far, `None` where it has none.
    forms: Vec<((DirectOp, bool), Option<CompiledForm>)>,
}

struct Fetched {
    key: SamplerView,
    ready: Option<View>,
}

/// The entry of `entries` whose key `same` accepts, moved to the front, or a new one made
/// by `make` (dropping the least recently used beyond [`KEEP`]).
fn lookup<T>(entries: &mut Vec<T>, same: impl Fn(&T) -> bool, make: impl FnOnce() -> T) -> &mut T {
    match entries.iter().position(same) {
        Some(0) => {}
        Some(i) => entries[..=i].rotate_right(1),
        None => {
            entries.truncate(KEEP - 1);
            entries.insert(0, make());
        }
    }
    &mut entries[0]
}

/// The same binding: the same resource seen the same way.
fn same_view(a: &SamplerView, b: &SamplerView) -> bool {
    let SamplerView {
        resource,
        format,
        target,
        first_level,
        last_level,
        first_layer,
        last_layer,
        offset,
        size,
        swizzle,
    } = a;
    Arc::ptr_eq(resource, &b.resource)
        && (*format, *target, *swizzle) == (b.format, b.target, b.swizzle)
        && (*first_level, *last_level, *first_layer, *last_layer)
            == (b.first_level, b.last_level, b.first_layer, b.last_layer)
        && (*offset, *size) == (b.offset, b.size)
}

/// The same sampler state, floats compared by their bits (−0 is not +0 here).
fn same_sampler(a: &SamplerState, b: &SamplerState) -> bool {
    let SamplerState {
        wrap,
        min_img_filter,
        min_mip_filter,
        mag_img_filter,
        compare,
        compare_func,
        unnormalized_coords,
        max_anisotropy,
        seamless_cube_map,
        lod_bias,
        min_lod,
        max_lod,
        border_color,
    } = a;
    let filters = (*wrap, *min_img_filter, *min_mip_filter, *mag_img_filter);
    let compares = (*compare, *compare_func, *unnormalized_coords);
    let rest = (*max_anisotropy, *seamless_cube_map, *border_color);
    let floats = [*lod_bias, *min_lod, *max_lod].map(f32::to_bits);
    filters == (b.wrap, b.min_img_filter, b.min_mip_filter, b.mag_img_filter)
        && compares == (b.compare, b.compare_func, b.unnormalized_coords)
        && rest == (b.max_anisotropy, b.seamless_cube_map, b.border_color)
        && floats == [b.lod_bias, b.min_lod, b.max_lod].map(f32::to_bits)
}

/// [`execute`], reusing `prepared` when the request binds the same view and sampler.
pub fn execute_prepared(req: &TexRequest, prepared: &mut Prepared) -> QuadVec {
    let op = req.opcode;
    let tex_family = [
        Opcode::TEX,
        Opcode::TXP,
        Opcode::TXB,
        Opcode::TXL,
        Opcode::TEX2,
        Opcode::TXB2,
        Opcode::TXL2,
        Opcode::TG4,
        Opcode::TEX_LZ,
    ];
    let sample_family = [
        Opcode::SAMPLE,
        Opcode::SAMPLE_B,
        Opcode::SAMPLE_C,
        Opcode::SAMPLE_C_LZ,
        Opcode::SAMPLE_L,
        Opcode::GATHER4,
    ];
    if tex_family.contains(&op) {
        floats(tex(req, prepared))
    } else if op == Opcode::TXD {
        floats(txd(req, prepared))
    } else if sample_family.contains(&op) {
        swizzled(req, floats(sample(req, prepared)), false)
    } else if op == Opcode::SAMPLE_D {
        swizzled(req, floats(sample_d(req, prepared)), false)
    } else if [Opcode::TXF, Opcode::TXF_LZ].contains(&op) {
        floats(txf(req, prepared))
    } else if [Opcode::SAMPLE_I, Opcode::SAMPLE_I_MS].contains(&op) {
        swizzled(req, floats(txf(req, prepared)), false)
    } else if [Opcode::TXQ, Opcode::SVIEWINFO, Opcode::TXQ_LZ].contains(&op) {
        let level = if op == Opcode::TXQ_LZ {
            0
        } else {
            src(req, 0)[0][0] as i32
        };
        let d = req.view.map_or([0; 4], |v| query::dims(v, level));
        [d.map(|x| x as u32); 4]
    } else if op == Opcode::TXQS {
        [[req.view.map_or(0, query::samples), 0, 0, 0]; 4]
    } else if op == Opcode::SAMPLE_INFO {
        let n = req.view.map_or(1, query::samples);
        swizzled(req, [[n, 0, 0, 0]; 4], false)
    } else if op == Opcode::SAMPLE_POS {
        let half = 0.5f32.to_bits();
        swizzled(req, [[half, half, 0, 0]; 4], false)
    } else if op == Opcode::LODQ || op == Opcode::LOD {
        let r = lodq(req, prepared);
        if op == Opcode::LOD {
            swizzled(req, r, true)
        } else {
            r
        }
    } else {
        [[0; 4]; 4]
    }
}

fn floats(r: [Texel; 4]) -> QuadVec {
    r.map(|t| t.map(f32::to_bits))
}

/// Result channel c = channel `sview_swizzle[c]` (LOD: channels ≥ 2 read 0).
fn swizzled(req: &TexRequest, r: QuadVec, zero_high: bool) -> QuadVec {
    r.map(|lane| {
        req.sview_swizzle.map(|s| {
            let s = (s & 3) as usize;
            if zero_high && s >= 2 {
                0
            } else {
                lane[s]
            }
        })
    })
}

/// Source `i` (zero when absent).
fn src(req: &TexRequest, i: usize) -> QuadVec {
    req.srcs.get(i).copied().unwrap_or([[0; 4]; 4])
}

/// Channel `c` of source `i` across the quad, as floats.
fn chan(req: &TexRequest, i: usize, c: usize) -> [f32; 4] {
    let s = src(req, i);
    std::array::from_fn(|l| f32::from_bits(s[l][c & 3]))
}

/// Offsets as softpipe keeps them (`int8_t`).
fn offsets(req: &TexRequest) -> [i32; 3] {
    req.offsets.map(|o| i32::from(o as i8))
}

/// `tgsi_util_get_texture_coord_dim`.
fn coord_dim(t: TextureTarget) -> usize {
    use TextureTarget as T;
    match t {
        T::Buffer | T::Tex1D | T::Shadow1D => 1,
        T::Tex2D
        | T::Rect
        | T::Array1D
        | T::Shadow2D
        | T::ShadowRect
        | T::Shadow1DArray
        | T::Msaa2D => 2,
        T::Tex3D | T::Cube | T::Array2D | T::ShadowCube | T::Shadow2DArray | T::Msaa2DArray => 3,
        T::CubeArray | T::ShadowCubeArray => 4,
        _ => 0,
    }
}

/// `tgsi_util_get_shadow_ref_src_index` (the MSAA targets' "reference" is the sample).
fn shadow_ref(t: TextureTarget) -> Option<usize> {
    use TextureTarget as T;
    match t {
        T::Shadow1D | T::Shadow2D | T::ShadowRect | T::Shadow1DArray => Some(2),
        T::ShadowCube | T::Shadow2DArray | T::Msaa2D | T::Msaa2DArray => Some(3),
        T::ShadowCubeArray => Some(4),
        _ => None,
    }
}

/// The prepared view and sampler, or `None` for softpipe's zero result.
fn bound<'p>(req: &TexRequest, prepared: &'p mut Prepared) -> Option<&'p (View, Samp)> {
    bind(req.view?, req.sampler?, req.seamless_cube_map, prepared)
}

/// The prepared pair for a view and a sampler (`seamless`: the context's switch).
fn bind<'p>(
    view: &SamplerView,
    st: &SamplerState,
    seamless: bool,
    prepared: &'p mut Prepared,
) -> Option<&'p (View, Samp)> {
    bind_named(view, st, seamless, prepared)?.ready.as_ref()
}

/// The prepared entry of a view and sampler, with the number naming it: numbers are never
/// reused, so one number is always the same view and sampler.
fn bind_named<'p>(
    view: &SamplerView,
    st: &SamplerState,
    seamless: bool,
    prepared: &'p mut Prepared,
) -> Option<&'p mut Bound> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let entry = lookup(
        &mut prepared.bound,
        |e| e.key.2 == seamless && same_view(&e.key.0, view) && same_sampler(&e.key.1, st),
        || {
            Box::new(Bound {
                key: (view.clone(), *st, seamless),
                ready: View::new(view, st.border_color).map(|v| {
                    let samp = Samp {
                        st: *st,
                        seamless: st.seamless_cube_map || seamless,
                        fast: fast2d::Plan::new(&v, st),
                    };
                    (v, samp)
                }),
                id: NEXT.fetch_add(1, Ordering::Relaxed),
                forms: Vec::new(),
            })
        },
    );
    Some(entry)
}

fn run(
    req: &TexRequest,
    prepared: &mut Prepared,
    q: &Coords,
    derivs: &Derivs,
    control: Control,
) -> [Texel; 4] {
    match bound(req, prepared) {
        Some((v, samp)) => {
            sample::get_samples(v, samp, q, derivs, offsets(req), control, req.implicit_lod)
        }
        None => [[0.0; 4]; 4],
    }
}

const NO_DERIVS: Derivs = [[[0.0; 4]; 2]; 3];

/// `exec_tex`: TEX, TXP, TXB, TXL, TEX2, TXB2, TXL2, TG4 (and TEX_LZ).
fn tex(req: &TexRequest, prepared: &mut Prepared) -> [Texel; 4] {
    let op = req.opcode;
    let two = [Opcode::TEX2, Opcode::TXB2, Opcode::TXL2, Opcode::TG4].contains(&op);
    let control = lod::control_of(op);
    let dim = coord_dim(req.target);
    let mut args = [[0.0f32; 4]; 5];
    let mut proj = None;
    let modified = op != Opcode::TEX && op != Opcode::TEX2 && op != Opcode::TEX_LZ;
    if modified {
        let last = if two {
            chan(req, 1, 0)
        } else {
            chan(req, 0, 3)
        };
        if op == Opcode::TXP {
            proj = Some(last);
        } else {
            args[4] = last;
        }
    }
    let divide = |mut v: [f32; 4]| {
        if let Some(w) = proj {
            for (x, w) in v.iter_mut().zip(w) {
                *x /= w;
            }
        }
        v
    };
    for (i, a) in args.iter_mut().enumerate().take(dim) {
        *a = divide(chan(req, 0, i));
    }
    if let Some(r) = shadow_ref(req.target) {
        args[r] = divide(chan(req, r / 4, r % 4));
    }
    let q = Coords {
        s: args[0],
        t: args[1],
        p: args[2],
        c0: args[3],
        c1: args[4],
    };
    run(req, prepared, &q, &NO_DERIVS, control)
}

/// `exec_txd`: coordinates and derivatives by instruction target.
fn txd(req: &TexRequest, prepared: &mut Prepared) -> [Texel; 4] {
    use TextureTarget as T;
    let (ncoord, nderiv) = match req.target {
        T::Tex1D => (1, 1),
        T::Shadow1D | T::Array1D | T::Shadow1DArray => (3, 1),
        T::Tex2D | T::Rect => (2, 2),
        T::Shadow2D | T::ShadowRect | T::Array2D | T::Shadow2DArray => (4, 2),
        T::Tex3D | T::Cube | T::CubeArray | T::ShadowCube => (4, 3),
        _ => return [[0.0; 4]; 4],
    };
    let mut c = [[0.0f32; 4]; 4];
    for (i, x) in c.iter_mut().enumerate().take(ncoord) {
        *x = chan(req, 0, i);
    }
    let mut derivs = NO_DERIVS;
    for (i, d) in derivs.iter_mut().enumerate().take(nderiv) {
        *d = [chan(req, 1, i), chan(req, 2, i)];
    }
    let q = Coords {
        s: c[0],
        t: c[1],
        p: c[2],
        c0: c[3],
        c1: [0.0; 4],
    };
    run(req, prepared, &q, &derivs, Control::Derivs)
}

/// `exec_sample`: SAMPLE, SAMPLE_B, SAMPLE_C, SAMPLE_C_LZ, SAMPLE_L, GATHER4 with the
/// coordinate layout of the SVIEW declaration's target.
fn sample(req: &TexRequest, prepared: &mut Prepared) -> [Texel; 4] {
    use TextureTarget as T;
    let op = req.opcode;
    let compare = op == Opcode::SAMPLE_C || op == Opcode::SAMPLE_C_LZ;
    let control = lod::control_of(op);
    let lod = match control {
        Control::Bias | Control::Explicit => chan(req, 1, 0),
        _ => [0.0; 4],
    };
    let reference = chan(req, 1, 0);
    let x = |c: usize| chan(req, 0, c);
    let mut q = Coords {
        s: x(0),
        c1: lod,
        ..Coords::default()
    };
    match req.target {
        T::Tex1D => {
            if compare {
                q.p = reference;
            }
        }
        T::Array1D | T::Tex2D | T::Rect => {
            q.t = x(1);
            if compare {
                q.p = reference;
            }
        }
        T::Array2D | T::Tex3D | T::Cube => {
            (q.t, q.p) = (x(1), x(2));
            if compare {
                q.c0 = reference;
            }
        }
        T::CubeArray => {
            (q.t, q.p, q.c0) = (x(1), x(2), x(3));
            if compare {
                q.c1 = reference;
            }
        }
        _ => return [[0.0; 4]; 4],
    }
    run(req, prepared, &q, &NO_DERIVS, control)
}

/// `exec_sample_d`.
fn sample_d(req: &TexRequest, prepared: &mut Prepared) -> [Texel; 4] {
    use TextureTarget as T;
    let (ncoord, nderiv) = match req.target {
        T::Tex1D | T::Array1D => (2, 1),
        T::Tex2D | T::Rect | T::Array2D => (3, 2),
        T::Tex3D | T::Cube | T::CubeArray => (4, 3),
        _ => return [[0.0; 4]; 4],
    };
    let mut c = [[0.0f32; 4]; 4];
    for (i, x) in c.iter_mut().enumerate().take(ncoord) {
        *x = chan(req, 0, i);
    }
    let mut derivs = NO_DERIVS;
    for (i, d) in derivs.iter_mut().enumerate().take(nderiv) {
        *d = [chan(req, 1, i), chan(req, 2, i)];
    }
    let q = Coords {
        s: c[0],
        t: c[1],
        p: c[2],
        c0: c[3],
        c1: [0.0; 4],
    };
    run(req, prepared, &q, &derivs, Control::Derivs)
}

/// `exec_txf`: TXF, TXF_LZ, SAMPLE_I, SAMPLE_I_MS (integer coordinates by target, the
/// LOD or sample index in w).
fn txf(req: &TexRequest, prepared: &mut Prepared) -> [Texel; 4] {
    use TextureTarget as T;
    let s = src(req, 0);
    let comp = |c: usize| -> [i32; 4] { std::array::from_fn(|l| s[l][c] as i32) };
    let n = match req.target {
        T::Tex3D | T::Array2D | T::Shadow2DArray | T::Msaa2DArray => 3,
        T::Tex2D
        | T::Rect
        | T::Shadow1DArray
        | T::Shadow2D
        | T::ShadowRect
        | T::Array1D
        | T::Msaa2D => 2,
        T::Buffer | T::Tex1D | T::Shadow1D => 1,
        _ => 0,
    };
    let pick = |c: usize| if c < n { comp(c) } else { [0; 4] };
    let coords = fetch::FetchCoords {
        i: pick(0),
        j: pick(1),
        k: pick(2),
        lod: if req.opcode == Opcode::TXF_LZ {
            [0; 4]
        } else {
            comp(3)
        },
    };
    let Some(view) = req.view else {
        return [[0.0; 4]; 4];
    };
    let entry = lookup(
        &mut prepared.fetch,
        |e| same_view(&e.key, view),
        || {
            Box::new(Fetched {
                key: view.clone(),
                ready: View::new(view, [0; 4]),
            })
        },
    );
    match &entry.ready {
        Some(v) => fetch::get_texels(v, &coords, offsets(req)),
        None => [[0.0; 4]; 4],
    }
}

/// `exec_lodq`: x = the mip level used (relative to the first), y = the LOD.
fn lodq(req: &TexRequest, prepared: &mut Prepared) -> QuadVec {
    let dim = coord_dim(req.target).min(4);
    let mut a = [[0.0f32; 4]; 4];
    for (i, x) in a.iter_mut().enumerate().take(dim) {
        *x = chan(req, 0, i);
    }
    let q = Coords {
        s: a[0],
        t: a[1],
        p: a[2],
        c0: a[3],
        c1: [0.0; 4],
    };
    let Some((v, samp)) = bound(req, prepared) else {
        return [[0; 4]; 4];
    };
    let (level, lod) = query::lod(v, samp, &q, req.implicit_lod);
    std::array::from_fn(|l| [level[l].to_bits(), lod[l].to_bits(), 0, 0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::{Resource, Storage, Swizzle, Target};

    fn resource() -> Arc<Resource> {
        Arc::new(Resource {
            target: Target::Tex2D,
            format: tgsi::Format::from_name("PIPE_FORMAT_R8G8B8A8_UNORM").unwrap(),
            width0: 1,
            height0: 1,
            depth0: 1,
            array_size: 1,
            last_level: 0,
            nr_samples: 0,
            data: Storage::from_bytes(&[1, 2, 3, 4]),
        })
    }

    /// Bindings match by value: the same resource seen the same way, and the same sampler
    /// bits; an equal copy of a resource, another view of it or −0 for +0 is another key.
    #[test]
    fn bindings_match_by_value() {
        let (a, b) = (resource(), resource());
        assert!(same_view(&SamplerView::whole(&a), &SamplerView::whole(&a)));
        assert!(
            !same_view(&SamplerView::whole(&a), &SamplerView::whole(&b)),
            "another resource, same bytes"
        );
        let mut swizzled = SamplerView::whole(&a);
        swizzled.swizzle[0] = Swizzle::One;
        assert!(!same_view(&SamplerView::whole(&a), &swizzled));
        let st = SamplerState::default();
        let minus_zero_bias = SamplerState {
            lod_bias: -0.0,
            ..st
        };
        assert!(same_sampler(&st, &st));
        assert!(!same_sampler(&st, &minus_zero_bias));
    }

    /// The most recently used entry comes first; the least recently used goes beyond KEEP.
    #[test]
    fn lookup_keeps_the_most_recent() {
        let mut entries: Vec<u32> = Vec::new();
        for k in 0..KEEP as u32 + 2 {
            assert_eq!(*lookup(&mut entries, |&e| e == k, || k), k);
        }
        assert_eq!(entries.len(), KEEP);
        assert!(!entries.contains(&0) && !entries.contains(&1));
        assert_eq!(
            *lookup(&mut entries, |&e| e == 4, || 99),
            4,
            "found, not made"
        );
        assert_eq!(entries[0], 4);
        assert_eq!(entries.len(), KEEP);
    }
}
