//! Filtered sampling of a quad (softpipe's `sp_tgsi_get_samples` → `sample_mip`): the LOD
//! of each lane, cube-face selection, the mip filter (none / nearest / linear / the
//! power-of-two linear-repeat variant / anisotropic), the depth comparison **after**
//! filtering, and the view swizzle last (not for gather, whose swizzle is applied per
//! component).

use super::aniso;
use super::cmath::{clampf, frac, lerp, trunc_i32};
use super::cube;
use super::filter::{self, Img, ImgArgs, Samp};
use super::lod::{self, Control, Derivs, MipFuncs};
use super::texel::{Texel, View};
use crate::format::NumClass;
use crate::resource::{CompareFunc, Filter, Target};

/// The five per-lane values the interpreter hands to the sampler (`s, t, p, c0, c1`; c1 is
/// also the LOD bias / explicit LOD, and its lane-0 bits carry the gather component).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Coords {
    pub s: [f32; 4],
    pub t: [f32; 4],
    pub p: [f32; 4],
    pub c0: [f32; 4],
    pub c1: [f32; 4],
}

/// Sample the quad; results per lane.
pub(crate) fn get_samples(
    v: &View,
    samp: &Samp,
    q: &Coords,
    derivs: &Derivs,
    offset: [i32; 3],
    control: Control,
    frag: bool,
) -> [Texel; 4] {
    let st = &samp.st;
    let compare_values = match v.view.target {
        Target::Array2D | Target::Cube => q.c0,
        Target::CubeArray => q.c1,
        _ => q.p,
    };
    let gather_comp = q.c1[0].to_bits() & 3;
    let lod_unclamped = lod::unclamped(v, st, &q.s, &q.t, &q.p, derivs, &q.c1, control, frag);
    let lods = lod::clamp(st, lod_unclamped);
    let (s, t, p, faces) = if matches!(v.view.target, Target::Cube | Target::CubeArray) {
        let fc: [cube::FaceCoord; 4] =
            std::array::from_fn(|j| cube::convert(q.s[j], q.t[j], q.p[j]));
        (fc.map(|f| f.s), fc.map(|f| f.t), q.c0, fc.map(|f| f.face))
    } else {
        (q.s, q.t, q.p, [0; 4])
    };
    let gather = (control == Control::Gather).then_some(gather_comp);
    let mut rgba = mip(v, samp, &s, &t, &p, &faces, offset, &lods, control, gather);
    if st.compare {
        compare(
            v,
            st.compare_func,
            &compare_values,
            gather.is_some(),
            &mut rgba,
        );
    }
    if gather.is_none() {
        rgba = rgba.map(|texel| v.swizzle(texel));
    }
    rgba
}

/// `sample_mip` without the compare and swizzle: choose the filters and run the mip filter.
#[allow(clippy::too_many_arguments)]
fn mip(
    v: &View,
    samp: &Samp,
    s: &[f32; 4],
    t: &[f32; 4],
    p: &[f32; 4],
    faces: &[u32; 4],
    offset: [i32; 3],
    lods: &[f32; 4],
    control: Control,
    gather: Option<u32>,
) -> [Texel; 4] {
    let st = &samp.st;
    let funcs = lod::mip_funcs(st, filter::pot2d(v), control);
    let (min, mag) = match funcs {
        _ if gather.is_some() => {
            let img = filter::select(v, samp, Filter::Linear, true);
            (img, img)
        }
        MipFuncs::LinearPot => (Img::Linear2DRepeatPot, Img::Linear2DRepeatPot),
        MipFuncs::Aniso => (
            filter::select(v, samp, Filter::Nearest, false),
            filter::select(v, samp, st.mag_img_filter, false),
        ),
        _ => (
            filter::select(v, samp, st.min_img_filter, false),
            filter::select(v, samp, st.mag_img_filter, false),
        ),
    };
    if funcs == MipFuncs::Aniso {
        return aniso::filter(v, samp, min, s, t, p, faces, offset, lods, control);
    }
    let first = v.view.first_level;
    let last = v.view.last_level;
    // The specialised bilinear path, where the view, the sampler and the filters allow it.
    let fast = match (&samp.fast, min == mag, gather) {
        (Some(plan), true, None) => match min {
            Img::Linear2D => Some((plan, false)),
            Img::Linear2DRepeatPot => Some((plan, true)),
            _ => None,
        },
        _ => None,
    };
    let run = |img: Img, j: usize, level: u32| {
        if let Some((plan, pot)) = fast {
            if let Some(t) = plan.bilinear(v, pot, s[j], t[j], level, offset) {
                return t;
            }
        }
        let a = ImgArgs {
            s: s[j],
            t: t[j],
            p: p[j],
            level,
            face: faces[j],
            offset,
            gather,
        };
        filter::run(v, samp, img, &a)
    };
    let blend = |img: Img, j: usize, level0: i32| {
        let lo = run(img, j, level0 as u32);
        let hi = run(img, j, level0.wrapping_add(1) as u32);
        let w = frac(lods[j]);
        std::array::from_fn(|c| lerp(w, lo[c], hi[c]))
    };
    let magnify = |j: usize| lods[j] <= 0.0 && gather.is_none();
    std::array::from_fn(|j| match funcs {
        MipFuncs::NoneNoSelect => run(mag, j, first),
        MipFuncs::None => run(if magnify(j) { mag } else { min }, j, first),
        MipFuncs::Nearest => {
            if magnify(j) {
                run(mag, j, first)
            } else {
                let level = first.wrapping_add(trunc_i32(lods[j] + 0.5) as u32) as i32;
                run(min, j, level.min(last as i32) as u32)
            }
        }
        MipFuncs::Linear | MipFuncs::Aniso => {
            let level0 = (first as i32).wrapping_add(trunc_i32(lods[j]));
            if magnify(j) {
                run(mag, j, first)
            } else if level0 >= last as i32 {
                run(min, j, last)
            } else {
                blend(min, j, level0)
            }
        }
        MipFuncs::LinearPot => {
            let level0 = (first as i32).wrapping_add(trunc_i32(lods[j]));
            if level0 as u32 >= last {
                run(min, j, if level0 < 0 { first } else { last })
            } else {
                blend(min, j, level0)
            }
        }
    })
}

/// `sample_compare`: compare the reference with the filtered depth (channel x, or every
/// gathered channel), giving exactly 0.0 or 1.0; the reference is clamped to [0, 1] unless
/// the view format is a float format.
fn compare(v: &View, func: CompareFunc, refs: &[f32; 4], gather: bool, rgba: &mut [Texel; 4]) {
    let float = v.class == Some(NumClass::Float);
    for (j, texel) in rgba.iter_mut().enumerate() {
        let r = if float {
            refs[j]
        } else {
            clampf(refs[j], 0.0, 1.0)
        };
        let pass = |d: f32| {
            let k = match func {
                CompareFunc::Never => false,
                CompareFunc::Less => r < d,
                CompareFunc::Equal => r == d,
                CompareFunc::Lequal => r <= d,
                CompareFunc::Greater => r > d,
                CompareFunc::NotEqual => r != d,
                CompareFunc::Gequal => r >= d,
                CompareFunc::Always => true,
            };
            if k {
                1.0
            } else {
                0.0
            }
        };
        *texel = if gather {
            texel.map(pass)
        } else {
            let k = pass(texel[0]);
            [k, k, k, 1.0]
        };
    }
}
