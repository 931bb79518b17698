//! Softpipe's image filters: one texel (nearest) or a blend of two, four or eight texels
//! (linear) of one mipmap level, per view target, with border colours where the wrapped
//! index falls outside the level, the seamless cube-map neighbour lookup, the
//! power-of-two 2-D fast paths (`img_filter_2d_*_POT`, which wrap with masks and sample the
//! view's first layer) and texture gather.

use super::cmath::{clampu, ifloor, lerp, lerp_2d, lerp_3d, pot_size};
use super::cube::seamless_texel;
use super::fast2d::Plan;
use super::texel::{Texel, View};
use super::tile_cache::{resolve, single, Fetch};
use super::wrap;
use crate::resource::{Filter, SamplerState, Target, Wrap};

/// Which image filter softpipe's `get_img_filter` picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Img {
    Nearest1D,
    Linear1D,
    Nearest1DArray,
    Linear1DArray,
    Nearest2D,
    Linear2D,
    Nearest2DRepeatPot,
    Linear2DRepeatPot,
    Nearest2DClampPot,
    Nearest2DArray,
    Linear2DArray,
    NearestCube,
    LinearCube,
    NearestCubeArray,
    LinearCubeArray,
    Nearest3D,
    Linear3D,
}

/// Arguments of one image-filter call (`struct img_filter_args`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ImgArgs {
    pub s: f32,
    pub t: f32,
    pub p: f32,
    pub level: u32,
    pub face: u32,
    pub offset: [i32; 3],
    /// `Some(component)`: gather the footprint's texels instead of blending them.
    pub gather: Option<u32>,
}

/// The sampler state as the filters see it.
pub(crate) struct Samp {
    pub st: SamplerState,
    /// `seamless_cube_map` of the sampler ORed with the context's switch.
    pub seamless: bool,
    /// The specialised 2-D bilinear path, where it applies to the view and sampler.
    pub fast: Option<Plan>,
}

impl Samp {
    fn normalized(&self) -> bool {
        !self.st.unnormalized_coords
    }

    fn nearest(&self, axis: usize, s: f32, size: u32, offset: i32) -> i32 {
        wrap::nearest(self.st.wrap[axis], self.normalized(), s, size, offset)
    }

    fn linear(&self, axis: usize, s: f32, size: u32, offset: i32) -> wrap::Linear {
        wrap::linear(self.st.wrap[axis], self.normalized(), s, size, offset)
    }
}

/// Whether softpipe's `pot2d` holds: a power-of-two (or zero) resource seen as 2-D or RECT.
pub(crate) fn pot2d(v: &View) -> bool {
    let pot = |n: u32| n & n.wrapping_sub(1) == 0;
    let r = &*v.res;
    pot(r.width0)
        && pot(r.height0)
        && pot(r.depth0)
        && matches!(v.view.target, Target::Tex2D | Target::Rect)
}

/// `get_img_filter`: the image filter for a view, a sampler and a filter mode.
pub(crate) fn select(v: &View, samp: &Samp, filter: Filter, gather: bool) -> Img {
    let near = filter == Filter::Nearest;
    let pick = |n: Img, l: Img| if near { n } else { l };
    match v.view.target {
        Target::Buffer | Target::Tex1D => pick(Img::Nearest1D, Img::Linear1D),
        Target::Array1D => pick(Img::Nearest1DArray, Img::Linear1DArray),
        Target::Tex2D | Target::Rect => {
            let w = samp.st.wrap;
            if !gather && pot2d(v) && w[0] == w[1] && samp.normalized() {
                match (w[0], near) {
                    (Wrap::Repeat, true) => return Img::Nearest2DRepeatPot,
                    (Wrap::Repeat, false) => return Img::Linear2DRepeatPot,
                    (Wrap::Clamp, true) => return Img::Nearest2DClampPot,
                    _ => {}
                }
            }
            pick(Img::Nearest2D, Img::Linear2D)
        }
        Target::Array2D => pick(Img::Nearest2DArray, Img::Linear2DArray),
        Target::Cube => pick(Img::NearestCube, Img::LinearCube),
        Target::CubeArray => pick(Img::NearestCubeArray, Img::LinearCubeArray),
        Target::Tex3D => pick(Img::Nearest3D, Img::Linear3D),
    }
}

/// Run one image filter.
pub(crate) fn run(v: &View, samp: &Samp, img: Img, a: &ImgArgs) -> Texel {
    let level = a.level;
    let first_layer = v.view.first_layer as i32;
    match img {
        Img::Nearest1D | Img::Nearest1DArray => {
            let x = samp.nearest(0, a.s, v.width(level), a.offset[0]);
            let layer = if img == Img::Nearest1D {
                first_layer
            } else {
                coord_to_layer(v, a.t)
            };
            single(v, texel_1d_array(v, level, x, layer))
        }
        Img::Linear1D | Img::Linear1DArray => {
            let l = samp.linear(0, a.s, v.width(level), a.offset[0]);
            let layer = if img == Img::Linear1D {
                first_layer
            } else {
                coord_to_layer(v, a.t)
            };
            let [t0, t1] = resolve(
                v,
                [
                    texel_1d_array(v, level, l.i0, layer),
                    texel_1d_array(v, level, l.i1, layer),
                ],
            );
            std::array::from_fn(|c| lerp(l.w, t0[c], t1[c]))
        }
        Img::Nearest2D => {
            let x = samp.nearest(0, a.s, v.width(level), a.offset[0]);
            let y = samp.nearest(1, a.t, v.height(level), a.offset[1]);
            single(v, texel_2d(v, level, x, y, first_layer))
        }
        Img::Nearest2DArray => {
            let x = samp.nearest(0, a.s, v.width(level), a.offset[0]);
            let y = samp.nearest(1, a.t, v.height(level), a.offset[1]);
            single(v, texel_2d(v, level, x, y, coord_to_layer(v, a.p)))
        }
        Img::Linear2D | Img::Linear2DArray => {
            let layer = if img == Img::Linear2D {
                first_layer
            } else {
                coord_to_layer(v, a.p)
            };
            let lx = samp.linear(0, a.s, v.width(level), a.offset[0]);
            let ly = samp.linear(1, a.t, v.height(level), a.offset[1]);
            if a.gather.is_none() {
                let (xs, ys) = ([lx.i0, lx.i1], [ly.i0, ly.i1]);
                if let Some(t) = v.bilinear(level, layer, xs, ys, lx.w, ly.w) {
                    return t;
                }
            }
            let tx = resolve(
                v,
                [
                    texel_2d(v, level, lx.i0, ly.i0, layer),
                    texel_2d(v, level, lx.i1, ly.i0, layer),
                    texel_2d(v, level, lx.i0, ly.i1, layer),
                    texel_2d(v, level, lx.i1, ly.i1, layer),
                ],
            );
            blend_or_gather(v, &tx, lx.w, ly.w, a.gather)
        }
        Img::Nearest2DRepeatPot | Img::Nearest2DClampPot => {
            let (xpot, ypot) = pot_sizes(v, level);
            let x = ifloor(a.s * xpot as f32 + a.offset[0] as f32);
            let y = ifloor(a.t * ypot as f32 + a.offset[1] as f32);
            let (x, y) = if img == Img::Nearest2DRepeatPot {
                (x & (xpot as i32 - 1), y & (ypot as i32 - 1))
            } else {
                (clamp_index(x, xpot), clamp_index(y, ypot))
            };
            v.texel(level, x, y, first_layer)
        }
        Img::Linear2DRepeatPot => linear_repeat_pot(v, a),
        Img::NearestCube | Img::NearestCubeArray => {
            let (w, h) = (v.width(level), v.height(level));
            let layer = if img == Img::NearestCube {
                first_layer as u32
            } else {
                cube_array_layer(v, a.p)
            };
            let layerface = layer.wrapping_add(a.face) as i32;
            let (x, y) = if img == Img::NearestCube && samp.seamless {
                let n =
                    |s: f32, size: u32, o: i32| wrap::nearest(Wrap::ClampToEdge, true, s, size, o);
                (n(a.s, w, a.offset[0]), n(a.t, h, a.offset[1]))
            } else {
                (
                    samp.nearest(0, a.s, w, a.offset[0]),
                    samp.nearest(1, a.t, h, a.offset[1]),
                )
            };
            single(v, texel_2d(v, level, x, y, layerface))
        }
        Img::LinearCube | Img::LinearCubeArray => {
            let (w, h) = (v.width(level), v.height(level));
            let layer = if img == Img::LinearCube {
                first_layer as u32
            } else {
                cube_array_layer(v, a.p)
            };
            let (lx, ly) = if samp.seamless {
                let l =
                    |s: f32, size: u32, o: i32| wrap::linear(Wrap::ClampToBorder, true, s, size, o);
                (l(a.s, w, a.offset[0]), l(a.t, h, a.offset[1]))
            } else {
                (
                    samp.linear(0, a.s, w, a.offset[0]),
                    samp.linear(1, a.t, h, a.offset[1]),
                )
            };
            let fetch = |x: i32, y: i32| {
                if samp.seamless {
                    seamless_texel(v, level, x, y, layer, a.face)
                } else {
                    texel_2d(v, level, x, y, layer.wrapping_add(a.face) as i32)
                }
            };
            let tx = resolve(
                v,
                [
                    fetch(lx.i0, ly.i0),
                    fetch(lx.i1, ly.i0),
                    fetch(lx.i0, ly.i1),
                    fetch(lx.i1, ly.i1),
                ],
            );
            blend_or_gather(v, &tx, lx.w, ly.w, a.gather)
        }
        Img::Nearest3D => {
            let x = samp.nearest(0, a.s, v.width(level), a.offset[0]);
            let y = samp.nearest(1, a.t, v.height(level), a.offset[1]);
            let z = samp.nearest(2, a.p, v.depth(level), a.offset[2]);
            single(v, texel_3d(v, level, x, y, z))
        }
        Img::Linear3D => {
            let lx = samp.linear(0, a.s, v.width(level), a.offset[0]);
            let ly = samp.linear(1, a.t, v.height(level), a.offset[1]);
            let lz = samp.linear(2, a.p, v.depth(level), a.offset[2]);
            let corner = |i: usize| {
                let x = if i & 1 == 0 { lx.i0 } else { lx.i1 };
                let y = if i & 2 == 0 { ly.i0 } else { ly.i1 };
                let z = if i & 4 == 0 { lz.i0 } else { lz.i1 };
                texel_3d(v, level, x, y, z)
            };
            let t: [Texel; 8] = resolve(v, std::array::from_fn(corner));
            let f = [t[0], t[1], t[2], t[3]];
            let b = [t[4], t[5], t[6], t[7]];
            std::array::from_fn(|c| {
                lerp_3d(
                    lx.w,
                    ly.w,
                    lz.w,
                    [f[0][c], f[1][c], f[2][c], f[3][c]],
                    [b[0][c], b[1][c], b[2][c], b[3][c]],
                )
            })
        }
    }
}

/// Level sizes of the power-of-two fast paths: `1 << (log2(size0) - level)`, at least 1.
fn pot_sizes(v: &View, level: u32) -> (u32, u32) {
    (
        pot_size(v.res.width0, level),
        pot_size(v.res.height0, level),
    )
}

fn clamp_index(i: i32, size: u32) -> i32 {
    let last = size as i32 - 1;
    if i < 0 {
        0
    } else if i > last {
        last
    } else {
        i
    }
}

/// `img_filter_2d_linear_repeat_POT`: the offset is added after the half-texel shift and
/// both indices wrap with a mask.
fn linear_repeat_pot(v: &View, a: &ImgArgs) -> Texel {
    let (xpot, ypot) = pot_sizes(v, a.level);
    let u = (a.s * xpot as f32 - 0.5) + a.offset[0] as f32;
    let w = (a.t * ypot as f32 - 0.5) + a.offset[1] as f32;
    let (uflr, vflr) = (ifloor(u), ifloor(w));
    let xw = u - uflr as f32;
    let yw = w - vflr as f32;
    let (xm, ym) = (xpot as i32 - 1, ypot as i32 - 1);
    let (x0, y0) = (uflr & xm, vflr & ym);
    let (x1, y1) = ((x0 + 1) & xm, (y0 + 1) & ym);
    let z = v.view.first_layer as i32;
    if let Some(t) = v.bilinear(a.level, z, [x0, x1], [y0, y1], xw, yw) {
        return t;
    }
    let at = |x: i32, y: i32| Fetch::Texel {
        level: a.level,
        x,
        y,
        z,
    };
    let tx = resolve(v, [at(x0, y0), at(x1, y0), at(x0, y1), at(x1, y1)]);
    std::array::from_fn(|c| lerp_2d(xw, yw, tx[0][c], tx[1][c], tx[2][c], tx[3][c]))
}

fn blend_or_gather(v: &View, tx: &[Texel; 4], xw: f32, yw: f32, gather: Option<u32>) -> Texel {
    match gather {
        Some(comp) => std::array::from_fn(|c| gather_value(v, c, comp, tx)),
        None => std::array::from_fn(|c| lerp_2d(xw, yw, tx[0][c], tx[1][c], tx[2][c], tx[3][c])),
    }
}

/// `get_gather_value`: result channel `c` takes footprint texel (i0,j1), (i1,j1), (i1,j0),
/// (i0,j0) for c = 0..3, its channel chosen by the view swizzle of component `comp`.
fn gather_value(v: &View, c: usize, comp: u32, tx: &[Texel; 4]) -> f32 {
    const ORDER: [usize; 4] = [2, 3, 1, 0];
    let swizzle = v.view.swizzle[(comp & 3) as usize];
    v.select(swizzle, &tx[ORDER[c]])
}

/// `coord_to_layer`: `floor(coord + 0.5)` clamped (signed) to the view's layers.
fn coord_to_layer(v: &View, coord: f32) -> i32 {
    let c = ifloor(coord + 0.5);
    let (lo, hi) = (v.view.first_layer as i32, v.view.last_layer as i32);
    if c > lo {
        c.min(hi)
    } else {
        lo
    }
}

/// The first face of the cube selected by a cube-array layer coordinate:
/// `6·floor(p + 0.5) + first_layer` clamped to `[first_layer, last_layer − 5]` in
/// **unsigned** arithmetic (a negative layer clamps to the last cube).
fn cube_array_layer(v: &View, p: f32) -> u32 {
    let first = v.view.first_layer;
    let x = (ifloor(p + 0.5).wrapping_mul(6) as u32).wrapping_add(first);
    clampu(x, first, v.view.last_layer.wrapping_sub(5))
}

/// `get_texel_1d_array`: border outside the level's width; `layer` is the row the tile
/// cache reads.
fn texel_1d_array(v: &View, level: u32, x: i32, layer: i32) -> Fetch {
    if x < 0 || x >= v.width(level) as i32 {
        Fetch::Border
    } else {
        Fetch::Texel {
            level,
            x,
            y: layer,
            z: 0,
        }
    }
}

/// `get_texel_2d` / `get_texel_2d_array` / `get_texel_cube_array`: border outside the
/// level's width and height.
fn texel_2d(v: &View, level: u32, x: i32, y: i32, slice: i32) -> Fetch {
    if x < 0 || x >= v.width(level) as i32 || y < 0 || y >= v.height(level) as i32 {
        Fetch::Border
    } else {
        Fetch::Texel {
            level,
            x,
            y,
            z: slice,
        }
    }
}

/// `get_texel_3d`: border outside the level's width, height and depth.
fn texel_3d(v: &View, level: u32, x: i32, y: i32, z: i32) -> Fetch {
    if x < 0
        || x >= v.width(level) as i32
        || y < 0
        || y >= v.height(level) as i32
        || z < 0
        || z >= v.depth(level) as i32
    {
        Fetch::Border
    } else {
        Fetch::Texel { level, x, y, z }
    }
}
