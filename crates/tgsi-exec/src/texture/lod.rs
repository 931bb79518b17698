//! Level of detail as softpipe computes it: the implicit λ of a 2×2 quad (`compute_lambda_*`
//! from the differences BR − BL and TL − BL, scaled by the **first level's** size, through
//! `util_fast_log2`; 0 outside fragment shaders), λ from explicit derivatives per lane, the
//! LOD controls (bias, explicit, zero, gather), the `[min_lod, max_lod]` clamp, and the
//! "relative level" each mip filter reports to LODQ.

use super::cmath::{clampf, fast_log2, max2, max3, minify, trunc_i32};
use super::texel::View;
use crate::resource::{SamplerState, Target};
use tgsi::Opcode;

/// Lane indices of softpipe's quad.
const TL: usize = 0;
const BL: usize = 2;
const BR: usize = 3;

/// How the LOD is obtained (`enum tgsi_sampler_control`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Control {
    /// Implicit λ from the quad.
    None,
    /// Implicit λ plus a per-lane bias.
    Bias,
    /// A per-lane explicit LOD.
    Explicit,
    /// LOD 0.
    Zero,
    /// λ from explicit derivatives (the sampler's bias is not added).
    Derivs,
    /// Texture gather (λ = the sampler's bias).
    Gather,
}

/// How a TEX- or SAMPLE-family opcode gives its LOD (TXD and SAMPLE_D, which give
/// derivatives, are [`Control::Derivs`] where they are sampled).
pub(crate) fn control_of(op: Opcode) -> Control {
    match op {
        Opcode::TXB | Opcode::TXB2 | Opcode::SAMPLE_B => Control::Bias,
        Opcode::TXL | Opcode::TXL2 | Opcode::SAMPLE_L => Control::Explicit,
        Opcode::TG4 | Opcode::GATHER4 => Control::Gather,
        Opcode::TEX_LZ | Opcode::SAMPLE_C_LZ => Control::Zero,
        _ => Control::None,
    }
}

/// Explicit derivatives: `[coordinate s/t/p][d/dx, d/dy][lane]`.
pub(crate) type Derivs = [[[f32; 4]; 2]; 3];

/// λ from derivatives of lane `j`, by view target (`compute_lambda_*_explicit_gradients`).
pub(crate) fn from_grad(v: &View, d: &Derivs, j: usize) -> f32 {
    let r = &*v.res;
    let fl = v.view.first_level;
    let (w, h, dp) = (
        minify(r.width0, fl) as f32,
        minify(r.height0, fl) as f32,
        minify(r.depth0, fl) as f32,
    );
    let m = |c: usize| max2(d[c][0][j].abs(), d[c][1][j].abs());
    let rho = match v.view.target {
        Target::Buffer | Target::Tex1D | Target::Array1D => m(0) * w,
        Target::Tex2D | Target::Array2D | Target::Rect => max2(m(0) * w, m(1) * h),
        Target::Cube | Target::CubeArray => max3(m(0), m(1), m(2)) * w / 2.0,
        Target::Tex3D => max3(m(0) * w, m(1) * h, m(2) * dp),
    };
    fast_log2(rho)
}

/// The implicit λ of a quad (`compute_lambda_*`): derivatives of lane 0 only, from
/// BR − BL and TL − BL (absolute values for 3-D and cube targets); 0 when `implicit` is
/// false (softpipe's `compute_lambda_vert` outside fragment shaders).
pub(crate) fn implicit(v: &View, s: &[f32; 4], t: &[f32; 4], p: &[f32; 4], implicit: bool) -> f32 {
    if !implicit {
        return 0.0;
    }
    let mut d: Derivs = [[[0.0; 4]; 2]; 3];
    let abs = matches!(
        v.view.target,
        Target::Tex3D | Target::Cube | Target::CubeArray
    );
    let coords: &[&[f32; 4]] = match v.view.target {
        Target::Buffer | Target::Tex1D | Target::Array1D => &[s],
        Target::Tex2D | Target::Array2D | Target::Rect => &[s, t],
        _ => &[s, t, p],
    };
    for (c, x) in coords.iter().enumerate() {
        let (dx, dy) = (x[BR] - x[BL], x[TL] - x[BL]);
        d[c][0][0] = if abs { dx.abs() } else { dx };
        d[c][1][0] = if abs { dy.abs() } else { dy };
    }
    from_grad(v, &d, 0)
}

/// `compute_lambda_lod_unclamped`: the LOD of each lane before the `[min_lod, max_lod]`
/// clamp. `lod_in` is the per-lane bias or explicit LOD.
#[allow(clippy::too_many_arguments)]
pub(crate) fn unclamped(
    v: &View,
    st: &SamplerState,
    s: &[f32; 4],
    t: &[f32; 4],
    p: &[f32; 4],
    derivs: &Derivs,
    lod_in: &[f32; 4],
    control: Control,
    frag: bool,
) -> [f32; 4] {
    match control {
        Control::None => [implicit(v, s, t, p, frag) + st.lod_bias; 4],
        Control::Derivs => std::array::from_fn(|j| from_grad(v, derivs, j)),
        Control::Bias => {
            let lambda = implicit(v, s, t, p, frag) + st.lod_bias;
            lod_in.map(|b| lambda + b)
        }
        Control::Explicit => lod_in.map(|l| l + st.lod_bias),
        Control::Zero | Control::Gather => [st.lod_bias; 4],
    }
}

/// `CLAMP(lod, min_lod, max_lod)` per lane.
pub(crate) fn clamp(st: &SamplerState, lod: [f32; 4]) -> [f32; 4] {
    lod.map(|l| clampf(l, st.min_lod, st.max_lod))
}

/// Which `sp_filter_funcs` softpipe uses for a view, sampler and control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MipFuncs {
    /// `funcs_none`: mip filter NONE, min ≠ mag.
    None,
    /// `funcs_none_no_filter_select`: mip filter NONE, min = mag (always magnify).
    NoneNoSelect,
    /// `funcs_nearest` (also every gather).
    Nearest,
    /// `funcs_linear`.
    Linear,
    /// `funcs_linear_aniso` (mip LINEAR with `max_anisotropy > 1`).
    Aniso,
    /// `funcs_linear_2d_linear_repeat_POT`.
    LinearPot,
}

/// `get_filters`' choice of mip filter functions.
pub(crate) fn mip_funcs(st: &SamplerState, pot2d: bool, control: Control) -> MipFuncs {
    use crate::resource::{Filter, MipFilter, Wrap};
    if control == Control::Gather {
        return MipFuncs::Nearest;
    }
    match st.min_mip_filter {
        MipFilter::None => {
            if st.min_img_filter == st.mag_img_filter {
                MipFuncs::NoneNoSelect
            } else {
                MipFuncs::None
            }
        }
        MipFilter::Nearest => MipFuncs::Nearest,
        MipFilter::Linear => {
            let repeat_linear = st.min_img_filter == st.mag_img_filter
                && !st.unnormalized_coords
                && st.wrap[0] == Wrap::Repeat
                && st.wrap[1] == Wrap::Repeat
                && st.min_img_filter == Filter::Linear
                && st.max_anisotropy <= 1;
            if pot2d && repeat_linear {
                MipFuncs::LinearPot
            } else if st.max_anisotropy > 1 {
                MipFuncs::Aniso
            } else {
                MipFuncs::Linear
            }
        }
    }
}

/// The level relative to the first level that the mip filter would use (LODQ's x):
/// `mip_rel_level_*`.
pub(crate) fn relative_level(
    v: &View,
    st: &SamplerState,
    funcs: MipFuncs,
    lod: &[f32; 4],
) -> [f32; 4] {
    let min_level = v.view.first_level as f32;
    let max_level = v.view.last_level as f32;
    let clamped = lod.map(|l| {
        clampf(
            clampf(l, st.min_lod, st.max_lod),
            0.0,
            max_level - min_level,
        )
    });
    match funcs {
        MipFuncs::None | MipFuncs::NoneNoSelect => [0.0; 4],
        MipFuncs::Nearest => clamped.map(|l| trunc_i32(l + 0.5) as f32),
        MipFuncs::Linear | MipFuncs::Aniso | MipFuncs::LinearPot => clamped,
    }
}
