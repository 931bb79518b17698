//! Softpipe's anisotropic filter (`mip_filter_linear_aniso` + `img_filter_2d_ewa`), used
//! when the mip filter is LINEAR and `max_anisotropy > 1`: the quad's texture-space
//! derivatives give an ellipse (its minor axis stretched to bound the eccentricity by
//! `max_anisotropy²`), λ comes from the minor axis, one level is chosen for the whole quad
//! (lane 0's LOD), and every lane averages the nearest-filtered texels inside its ellipse
//! with Gaussian weights from a 1024-entry table (Heckbert's EWA).

use super::cmath::{clampf, fast_log2, minify, trunc_i32};
use super::filter::{self, Img, ImgArgs, Samp};
use super::lod::Control;
use super::texel::{Texel, View};
use std::sync::OnceLock;

const LUT_SIZE: usize = 1024;

/// Most texel visits one lane's ellipse may make (softpipe has no limit; a huge ellipse,
/// which only a pathological LOD clamp produces, would take minutes there).
const MAX_VISITS: u64 = 1 << 24;

fn weights() -> &'static [f32; LUT_SIZE] {
    static LUT: OnceLock<[f32; LUT_SIZE]> = OnceLock::new();
    LUT.get_or_init(|| {
        std::array::from_fn(|i| {
            let r2 = std::hint::black_box(i as f32 / (LUT_SIZE - 1) as f32);
            (-2.0 * r2).exp()
        })
    })
}

/// The quad's four results, `[lane]`, for LODs `lod` (already computed by the caller as for
/// every mip filter) and the control they came from.
#[allow(clippy::too_many_arguments)]
pub(crate) fn filter(
    v: &View,
    samp: &Samp,
    img: Img,
    s: &[f32; 4],
    t: &[f32; 4],
    p: &[f32; 4],
    faces: &[u32; 4],
    offset: [i32; 3],
    lod_in: &[f32; 4],
    control: Control,
) -> [Texel; 4] {
    let st = &samp.st;
    let fl = v.view.first_level;
    let s_to_u = minify(v.res.width0, fl) as f32;
    let t_to_v = minify(v.res.height0, fl) as f32;
    let dudx = (s[3] - s[2]) * s_to_u;
    let dudy = (s[0] - s[2]) * s_to_u;
    let dvdx = (t[3] - t[2]) * t_to_v;
    let dvdy = (t[0] - t[2]) * t_to_v;
    let clamp = |l: f32| clampf(l, st.min_lod, st.max_lod);
    let lod: [f32; 4] = match control {
        Control::Bias | Control::None | Control::Derivs => {
            let px2 = dudx * dudx + dvdx * dvdx;
            let py2 = dudy * dudy + dvdy * dvdy;
            let (pmax2, mut pmin2) = if px2 < py2 { (py2, px2) } else { (px2, py2) };
            let max_ecc = st.max_anisotropy.wrapping_mul(st.max_anisotropy) as f32;
            if pmax2 / pmin2 > max_ecc {
                pmin2 = pmax2 / max_ecc;
            }
            let lambda = 0.5 * fast_log2(pmin2) + st.lod_bias;
            match control {
                Control::Derivs => *lod_in,
                Control::Bias => lod_in.map(|b| clamp(lambda + b)),
                _ => [clamp(lambda); 4],
            }
        }
        Control::Explicit => lod_in.map(clamp),
        Control::Zero => [clamp(st.lod_bias); 4],
        Control::Gather => [0.0; 4],
    };
    let level0 = (fl as i32).wrapping_add(trunc_i32(lod[0]));
    let args = |j: usize, s: f32, t: f32, level: u32| ImgArgs {
        s,
        t,
        p: p[j],
        level,
        face: faces[j],
        offset,
        gather: None,
    };
    if level0 >= v.view.last_level as i32 {
        let last = v.view.last_level;
        return std::array::from_fn(|j| filter::run(v, samp, img, &args(j, s[j], t[j], last)));
    }
    ewa(
        v,
        samp,
        img,
        s,
        t,
        level0 as u32,
        [dudx, dvdx, dudy, dvdy],
        &args,
    )
}

/// `img_filter_2d_ewa` at `level`.
#[allow(clippy::too_many_arguments)]
fn ewa(
    v: &View,
    samp: &Samp,
    img: Img,
    s: &[f32; 4],
    t: &[f32; 4],
    level: u32,
    [dudx, dvdx, dudy, dvdy]: [f32; 4],
    args: &dyn Fn(usize, f32, f32, u32) -> ImgArgs,
) -> [Texel; 4] {
    let lut = weights();
    let scaling = 1.0 / 1i32.wrapping_shl(level) as f32;
    let width = minify(v.res.width0, level) as f32;
    let height = minify(v.res.height0, level) as f32;
    let (ux, vx, uy, vy) = (
        dudx * scaling,
        dvdx * scaling,
        dudy * scaling,
        dvdy * scaling,
    );
    let mut a = vx * vx + vy * vy + 1.0;
    let mut b = -2.0 * (ux * vx + uy * vy);
    let mut c = ux * ux + uy * uy + 1.0;
    let f = a * c - b * b / 4.0;
    let d = -b * b + 4.0 * c * a;
    let box_u = 2.0 / d * (d * c * f).sqrt();
    let box_v = 2.0 / d * (a * d * f).sqrt();
    let scale = (LUT_SIZE - 1) as f64 / f64::from(f);
    a = (f64::from(a) * scale) as f32;
    b = (f64::from(b) * scale) as f32;
    c = (f64::from(c) * scale) as f32;
    let ddq = 2.0 * a;
    let w0 = v.res.width0 as f32;
    let h0 = v.res.height0 as f32;
    std::array::from_fn(|j| {
        let tex_u = -0.5 + s[j] * w0 * scaling;
        let tex_v = -0.5 + t[j] * h0 * scaling;
        let u0 = trunc_i32((tex_u - box_u).floor());
        let u1 = trunc_i32((tex_u + box_u).ceil());
        let v0 = trunc_i32((tex_v - box_v).floor());
        let v1 = trunc_i32((tex_v + box_v).ceil());
        let big_u = u0 as f32 - tex_u;
        let mut num = [0.0f32; 4];
        let mut den = 0.0f32;
        // Softpipe fetches the accepted texels four at a time; the p coordinate of buffer
        // slot k is lane k's (its bug, kept).
        let mut pending: Vec<(f32, f32, f32)> = Vec::with_capacity(4);
        let flush = |pending: &mut Vec<(f32, f32, f32)>, num: &mut [f32; 4]| {
            for (k, &(w, su, tv)) in pending.iter().enumerate() {
                let a = ImgArgs {
                    p: args(k, 0.0, 0.0, 0).p,
                    ..args(j, su, tv, level)
                };
                let texel = filter::run(v, samp, img, &a);
                for (n, x) in num.iter_mut().zip(texel) {
                    *n += w * x;
                }
            }
            pending.clear();
        };
        let mut visits = 0u64;
        let rows = i64::from(v1) - i64::from(v0) + 1;
        let cols = (i64::from(u1) - i64::from(u0) + 1).max(0) as u64;
        'rows: for vv in (0..rows.max(0)).map(|k| i64::from(v0) + k) {
            let vv = vv as i32;
            let big_v = vv as f32 - tex_v;
            let mut dq = a * (2.0 * big_u + 1.0) + b * big_v;
            let mut q = (c * big_v + b * big_u) * big_v + a * big_u * big_u;
            for uu in (0..cols).map(|k| i64::from(u0) + k as i64) {
                visits += 1;
                if visits > MAX_VISITS {
                    break 'rows;
                }
                if q < LUT_SIZE as f32 {
                    let qi = if q >= 0.0 { trunc_i32(q) } else { 0 };
                    let weight = lut[qi.clamp(0, LUT_SIZE as i32 - 1) as usize];
                    pending.push((weight, uu as i32 as f32 / width, vv as f32 / height));
                    if pending.len() == 4 {
                        flush(&mut pending, &mut num);
                    }
                    den += weight;
                }
                q += dq;
                dq += ddq;
            }
        }
        flush(&mut pending, &mut num);
        if den <= 0.0 {
            den = 1.0;
            num = filter::run(v, samp, img, &args(j, s[j], t[j], level));
        }
        num.map(|n| n / den)
    })
}
