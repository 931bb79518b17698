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
    let (min, mag_img) = images(v, samp, funcs, gather);
    if funcs == MipFuncs::Aniso {
        return aniso::filter(v, samp, min, s, t, p, faces, offset, lods, control);
    }
    let first = v.view.first_level;
    let last = v.view.last_level;
    let picks: [Levels; 4] = std::array::from_fn(|j| {
        let magnify = lods[j] <= 0.0 && gather.is_none();
        levels(funcs, lods[j], first, last, magnify)
    });
    if gather.is_none() {
        if let Some(texels) = fast_quad(v, samp, (min, mag_img), s, t, &picks, lods, offset) {
            return texels;
        }
    }
    // The specialised bilinear path, where the view, the sampler and the filters allow it.
    let fast = match (&samp.fast, min == mag_img, gather) {
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
    std::array::from_fn(|j| match picks[j] {
        Levels::One { level, mag } => run(if mag { mag_img } else { min }, j, level),
        Levels::Blend(level0) => {
            let lo = run(min, j, level0);
            let hi = run(min, j, level0.wrapping_add(1));
            let w = frac(lods[j]);
            std::array::from_fn(|c| lerp(w, lo[c], hi[c]))
        }
    })
}

/// The minification and magnification image filters of a mip filter choice.
fn images(v: &View, samp: &Samp, funcs: MipFuncs, gather: Option<u32>) -> (Img, Img) {
    let st = &samp.st;
    match funcs {
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
    }
}

/// A quad whose lanes all sample the same levels (always so with an implicit LOD) with
/// one bilinear filter the specialised path reads, lane-parallel; `None` when the quad
/// needs the general path.
#[allow(clippy::too_many_arguments)]
#[inline]
fn fast_quad(
    v: &View,
    samp: &Samp,
    (min, mag): (Img, Img),
    s: &[f32; 4],
    t: &[f32; 4],
    picks: &[Levels; 4],
    lods: &[f32; 4],
    offset: [i32; 3],
) -> Option<[Texel; 4]> {
    let plan = samp.fast.as_ref()?;
    let pot = match min {
        Img::Linear2D => false,
        Img::Linear2DRepeatPot => true,
        _ => return None,
    };
    if min != mag || picks.iter().any(|p| *p != picks[0]) {
        return None;
    }
    let quad = |level| plan.bilinear_quad(v, pot, s, t, level, offset);
    match picks[0] {
        Levels::One { level, .. } => quad(level),
        Levels::Blend(level0) => {
            let (lo, hi) = (quad(level0)?, quad(level0.wrapping_add(1))?);
            Some(std::array::from_fn(|j| {
                let w = frac(lods[j]);
                std::array::from_fn(|c| lerp(w, lo[j][c], hi[j][c]))
            }))
        }
    }
}

/// [`get_samples`] of a quad of a 2-D view without a depth comparison, gather or explicit
/// derivatives, `[channel][lane]`, where the specialised bilinear path takes the whole
/// quad (the view and sampler have a [`Samp::fast`] plan, the filters are linear and the
/// lanes share their levels); `None` otherwise, for [`get_samples`].
pub(crate) fn fast_samples(
    v: &View,
    samp: &Samp,
    q: &Coords,
    control: Control,
    frag: bool,
) -> Option<[[f32; 4]; 4]> {
    let st = &samp.st;
    if samp.fast.is_none() || st.compare || matches!(control, Control::Gather | Control::Derivs) {
        return None;
    }
    let funcs = lod::mip_funcs(st, filter::pot2d(v), control);
    if funcs == MipFuncs::Aniso {
        return None;
    }
    let none = [[[0.0; 4]; 2]; 3];
    let lods = lod::unclamped(v, st, &q.s, &q.t, &q.p, &none, &q.c1, control, frag);
    let lods = lod::clamp(st, lods);
    let (first, last) = (v.view.first_level, v.view.last_level);
    let picks = lods.map(|l| levels(funcs, l, first, last, l <= 0.0));
    let images = images(v, samp, funcs, None);
    let t = fast_quad(v, samp, images, &q.s, &q.t, &picks, &lods, [0; 3])?;
    let channels = std::array::from_fn(|c| [t[0][c], t[1][c], t[2][c], t[3][c]]);
    Some(v.swizzle_channels(channels))
}

/// The levels one lane samples.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Levels {
    /// One level, with the magnification filter or the minification one.
    One { level: u32, mag: bool },
    /// Two levels, this one and the next, blended by the fraction of the LOD.
    Blend(u32),
}

/// The levels a mip filter samples for a lane's LOD (`magnify`: the LOD is ≤ 0 and the
/// sampling is not a gather).
fn levels(funcs: MipFuncs, lod: f32, first: u32, last: u32, magnify: bool) -> Levels {
    let mag = |level| Levels::One { level, mag: true };
    let min = |level| Levels::One { level, mag: false };
    match funcs {
        MipFuncs::NoneNoSelect => mag(first),
        MipFuncs::None => Levels::One {
            level: first,
            mag: magnify,
        },
        MipFuncs::Nearest => {
            if magnify {
                mag(first)
            } else {
                let level = first.wrapping_add(trunc_i32(lod + 0.5) as u32) as i32;
                min(level.min(last as i32) as u32)
            }
        }
        MipFuncs::Linear | MipFuncs::Aniso => {
            let level0 = (first as i32).wrapping_add(trunc_i32(lod));
            if magnify {
                mag(first)
            } else if level0 >= last as i32 {
                min(last)
            } else {
                Levels::Blend(level0 as u32)
            }
        }
        MipFuncs::LinearPot => {
            let level0 = (first as i32).wrapping_add(trunc_i32(lod));
            if level0 as u32 >= last {
                min(if level0 < 0 { first } else { last })
            } else {
                Levels::Blend(level0 as u32)
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::super::fast2d::{tests::resource, Plan};
    use super::*;
    use crate::resource::{MipFilter, SamplerState, SamplerView, Wrap};

    /// Quads sampled with the specialised bilinear paths (one lane at a time and whole
    /// quads) give the general filters' bits: every mip filter, LOD control and wrap mode,
    /// power-of-two and other sizes, with LODs per lane that share a level pair but not
    /// its blend weight, and ones that do not share it.
    #[test]
    fn specialised_paths_give_the_general_results() {
        let mut next = crate::test_support::xorshift(0x1234_5678);
        let mut unit = move || (next() >> 8) as f32 / (1 << 24) as f32;
        for (w, h, levels) in [(64, 64, 7), (40, 24, 6)] {
            let res = resource("PIPE_FORMAT_R8G8B8A8_UNORM", w, h, levels, w + h);
            let v = View::new(&SamplerView::whole(&res), [0; 4]).unwrap();
            for mip in [MipFilter::None, MipFilter::Nearest, MipFilter::Linear] {
                for wrap in [
                    Wrap::Repeat,
                    Wrap::MirrorRepeat,
                    Wrap::ClampToEdge,
                    Wrap::Clamp,
                ] {
                    let st = SamplerState {
                        wrap: [wrap; 3],
                        min_img_filter: Filter::Linear,
                        mag_img_filter: Filter::Linear,
                        min_mip_filter: mip,
                        max_lod: 1000.0,
                        ..SamplerState::default()
                    };
                    let general = Samp {
                        st,
                        seamless: false,
                        fast: None,
                    };
                    let special = Samp {
                        fast: Plan::new(&v, &st),
                        ..general
                    };
                    assert!(special.fast.is_some(), "the case applies");
                    for control in [Control::None, Control::Explicit, Control::Bias] {
                        for round in 0..200 {
                            let base = [unit() * 3.0 - 1.0, unit() * 3.0 - 1.0];
                            let spread = [0.001, 0.05, 0.4][round % 3];
                            let mut q = Coords::default();
                            for j in 0..4 {
                                q.s[j] = base[0] + unit() * spread;
                                q.t[j] = base[1] + unit() * spread;
                                // Per-lane LODs: the same whole part (round 0 mod 2), or not.
                                q.c1[j] = if round % 2 == 0 {
                                    (round / 2 % 5) as f32 + unit()
                                } else {
                                    unit() * 6.0 - 1.0
                                };
                            }
                            let sample = |samp: &Samp| {
                                get_samples(
                                    &v,
                                    samp,
                                    &q,
                                    &[[[0.0; 4]; 2]; 3],
                                    [0; 3],
                                    control,
                                    true,
                                )
                                .map(|t| t.map(f32::to_bits))
                            };
                            assert_eq!(
                                sample(&special),
                                sample(&general),
                                "{w}x{h} {mip:?} {wrap:?} {control:?} {q:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
