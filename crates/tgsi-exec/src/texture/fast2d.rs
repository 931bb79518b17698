//! The most common sampling, specialised: bilinear footprints of a 2-D view of a 2-D
//! resource in a four-byte byte-unorm format (RGBA8, BGRA8, ABGR8…) with normalised
//! coordinates, read straight from the resource's words.
//!
//! [`Plan::new`] decides once per bound view and sampler whether the case applies and
//! works out each level's place in words; [`Plan::bilinear`] (one lane) and
//! [`Plan::bilinear_quad`] (a quad's four, the same code over four lanes) then give exactly
//! what `filter::run` gives for `Img::Linear2D` and `Img::Linear2DRepeatPot` without a
//! gather (the same wrap functions, the same blend), or `None` where the footprint needs
//! the general path: a texel outside the level (the border colour) or outside the
//! resource's bytes, or a footprint across cache tiles that the tile cache aliases.
//! [`Plan::fetch_quad`] is TXF's unfiltered fetch from the same view.

use super::cmath::{clampi, ifloor, lerp_2d, pot_size};
use super::texel::{Texel, View};
use super::tile_cache::{aliases, TILE};
use super::wrap;
use crate::format::unorm8x4;
use crate::resource::{SamplerState, Target, Wrap};
use std::sync::atomic::Ordering::Relaxed;

/// Levels a plan covers (those a [`View`] caches).
const LEVELS: usize = 16;

/// One level's place: its first word, words per row and size.
#[derive(Clone, Copy, Default)]
pub(crate) struct Words {
    pub first: usize,
    pub row: usize,
    pub width: u32,
    pub height: u32,
    /// Sizes of the power-of-two repeat filter (`pot_size` of the resource's level 0).
    pub pot: (u32, u32),
}

/// A bound view and sampler the specialised path reads.
pub(crate) struct Plan {
    levels: [Words; LEVELS],
    count: usize,
    /// Component c of a texel is byte `order[c]` of its word.
    order: [u8; 4],
    wrap: [Wrap; 2],
}

impl Plan {
    /// The plan for a view and sampler, `None` when the case does not apply.
    pub fn new(v: &View, st: &SamplerState) -> Option<Plan> {
        let plain = v.res.target == Target::Tex2D
            && v.view.target == Target::Tex2D
            && v.view.first_layer == 0
            && !st.unnormalized_coords;
        if !plain {
            return None;
        }
        let order = v.byte_order()?;
        let mut levels = [Words::default(); LEVELS];
        let mut count = 0;
        for (level, w) in (0u32..).zip(levels.iter_mut()) {
            let Some(lv) = v.cached_level(level) else {
                break;
            };
            // Four-byte texels: every level starts on a word and rows are whole words.
            if lv.offset % 4 != 0 || lv.row_bytes % 4 != 0 || lv.slices == 0 {
                break;
            }
            *w = Words {
                first: lv.offset / 4,
                row: lv.row_bytes / 4,
                width: lv.width,
                height: lv.height,
                pot: (
                    pot_size(v.res.width0, level),
                    pot_size(v.res.height0, level),
                ),
            };
            count += 1;
        }
        Some(Plan {
            levels,
            count,
            order,
            wrap: [st.wrap[0], st.wrap[1]],
        })
    }

    /// Level `level`'s place.
    pub fn level(&self, level: u32) -> Option<&Words> {
        self.levels[..self.count].get(level as usize)
    }

    /// Component c of a texel is byte `order()[c]` of its word.
    pub fn order(&self) -> [u8; 4] {
        self.order
    }

    /// The bilinear sample at `(s, t)` of `level` (`pot`: the power-of-two repeat filter,
    /// `img_filter_2d_linear_repeat_POT`; otherwise `img_filter_2d_linear` with the
    /// sampler's wrap modes), or `None` for the general path.
    #[inline]
    pub fn bilinear(
        &self,
        v: &View,
        pot: bool,
        s: f32,
        t: f32,
        level: u32,
        offset: [i32; 3],
    ) -> Option<Texel> {
        self.bilinear_lanes(v, pot, &[s], &[t], level, offset)
            .map(|[texel]| texel)
    }

    /// TXF's texels of a quad at integer coordinates `x`, `y` (`fetch::get_texels` of a
    /// 2-D view without offsets): the level from `lod` (lane 0's), clamped to the view's
    /// levels, each coordinate clamped into the level; `None` where the level is not one
    /// the plan covers or a texel lies outside the resource's bytes.
    pub fn fetch_quad(&self, v: &View, x: [i32; 4], y: [i32; 4], lod: i32) -> Option<[Texel; 4]> {
        let (first, last) = (i64::from(v.view.first_level), i64::from(v.view.last_level));
        let level = (i64::from(lod) + first).clamp(first, last.max(first));
        let lv = self.levels[..self.count].get(usize::try_from(level).ok()?)?;
        let words = v.res.data.whole_words();
        let mut out = [[0.0; 4]; 4];
        for (o, (x, y)) in out.iter_mut().zip(x.into_iter().zip(y)) {
            // Levels are at least one texel a side and below 2^31.
            let x = clampi(x, 0, lv.width as i32 - 1) as usize;
            let y = clampi(y, 0, lv.height as i32 - 1) as usize;
            let word = words.get(lv.first + y * lv.row + x)?.load(Relaxed);
            *o = in_order(self.order, unorm8x4(word));
        }
        Some(out)
    }

    /// [`Plan::bilinear`] of a quad's four lanes at one level, or `None` when any lane
    /// needs the general path.
    #[inline]
    pub fn bilinear_quad(
        &self,
        v: &View,
        pot: bool,
        s: &[f32; 4],
        t: &[f32; 4],
        level: u32,
        offset: [i32; 3],
    ) -> Option<[Texel; 4]> {
        self.bilinear_lanes(v, pot, s, t, level, offset)
    }

    /// The bilinear samples of `L` lanes at one level, or `None` when any lane needs the
    /// general path: a texel outside the level (the border colour) or outside the
    /// resource's bytes, or a footprint across cache tiles that the tile cache aliases.
    #[inline(always)]
    fn bilinear_lanes<const L: usize>(
        &self,
        v: &View,
        pot: bool,
        s: &[f32; L],
        t: &[f32; L],
        level: u32,
        offset: [i32; 3],
    ) -> Option<[Texel; L]> {
        let lv = self.levels[..self.count].get(level as usize)?;
        let (x, y) = if pot {
            (
                pot_axis(s, lv.pot.0, offset[0]),
                pot_axis(t, lv.pot.1, offset[1]),
            )
        } else {
            (
                wrapped_axis(self.wrap[0], s, lv.width, offset[0]),
                wrapped_axis(self.wrap[1], t, lv.height, offset[1]),
            )
        };
        // Inside the level (sizes are below 2^31, so a negative index is a huge one), and
        // whether any footprint spans two tiles (only those can alias).
        let mut inside = true;
        let mut across = false;
        for j in 0..L {
            inside &= (x.i0[j] as u32) < lv.width
                && (x.i1[j] as u32) < lv.width
                && (y.i0[j] as u32) < lv.height
                && (y.i1[j] as u32) < lv.height;
            across |= ((x.i0[j] ^ x.i1[j]) as u32 | (y.i0[j] ^ y.i1[j]) as u32) >= TILE;
        }
        if !inside {
            return None;
        }
        if across && (0..L).any(|j| aliases(level, 0, [x.i0[j], x.i1[j]], [y.i0[j], y.i1[j]])) {
            return None;
        }
        // The four texels of each lane in `lerp_2d` order, as word indices: inside a
        // cached level, so no index overflows (`View::new`).
        let mut at = [[0usize; 4]; L];
        let mut end = 0;
        for (j, at) in at.iter_mut().enumerate() {
            let r0 = lv.first + y.i0[j] as usize * lv.row;
            let r1 = lv.first + y.i1[j] as usize * lv.row;
            let (c0, c1) = (x.i0[j] as usize, x.i1[j] as usize);
            *at = [r0 + c0, r0 + c1, r1 + c0, r1 + c1];
            end = end.max(r0.max(r1) + c0.max(c1));
        }
        // Every word inside the resource's bytes, else the general path reads the zeros.
        let words = v.res.data.whole_words().get(..=end)?;
        let mut out = [[0.0; 4]; L];
        for (j, (o, at)) in out.iter_mut().zip(&at).enumerate() {
            let texels = [
                words[at[0]].load(Relaxed),
                words[at[1]].load(Relaxed),
                words[at[2]].load(Relaxed),
                words[at[3]].load(Relaxed),
            ];
            *o = blend_words(self.order, x.w[j], y.w[j], texels);
        }
        Some(out)
    }
}

/// One axis of `L` lanes' bilinear footprints: both texel indices and the second's weight.
struct Axis<const L: usize> {
    i0: [i32; L],
    i1: [i32; L],
    w: [f32; L],
}

/// The power-of-two repeat axis of `img_filter_2d_linear_repeat_POT`, lane-parallel.
#[inline(always)]
fn pot_axis<const L: usize>(s: &[f32; L], size: u32, offset: i32) -> Axis<L> {
    let mask = size as i32 - 1;
    let mut a = Axis {
        i0: [0; L],
        i1: [0; L],
        w: [0.0; L],
    };
    for (j, &s) in s.iter().enumerate() {
        let u = (s * size as f32 - 0.5) + offset as f32;
        let flr = ifloor(u);
        a.i0[j] = flr & mask;
        a.i1[j] = (a.i0[j] + 1) & mask;
        a.w[j] = u - flr as f32;
    }
    a
}

/// An axis wrapped by the sampler's mode, lane by lane.
#[inline(always)]
fn wrapped_axis<const L: usize>(mode: Wrap, s: &[f32; L], size: u32, offset: i32) -> Axis<L> {
    let mut a = Axis {
        i0: [0; L],
        i1: [0; L],
        w: [0.0; L],
    };
    if mode == Wrap::MirrorRepeat {
        (a.i0, a.i1, a.w) = wrap::linear_mirror_repeat(s, size, offset);
        return a;
    }
    for (j, &s) in s.iter().enumerate() {
        let l = wrap::linear(mode, true, s, size, offset);
        (a.i0[j], a.i1[j], a.w[j]) = (l.i0, l.i1, l.w);
    }
    a
}

/// The bilinear blend (weights `wx`, `wy`, texels in `lerp_2d` order) of four texels of a
/// four-byte byte-unorm format given as words, component c being byte `order[c]`: the
/// bytes are blended as they lie in the word (one vector per texel) and the components
/// picked afterwards, which gives the same values as blending the components.
#[inline(always)]
pub(crate) fn blend_words(order: [u8; 4], wx: f32, wy: f32, words: [u32; 4]) -> Texel {
    let (t00, t10, t01, t11) = (
        unorm8x4(words[0]),
        unorm8x4(words[1]),
        unorm8x4(words[2]),
        unorm8x4(words[3]),
    );
    let mut raw = [0.0; 4];
    for (k, r) in raw.iter_mut().enumerate() {
        *r = lerp_2d(wx, wy, t00[k], t10[k], t01[k], t11[k]);
    }
    in_order(order, raw)
}

/// The components of a texel whose values `raw` are in the order of its word's bytes,
/// component c being byte `order[c]`.
#[inline(always)]
fn in_order(order: [u8; 4], raw: Texel) -> Texel {
    if order == [0, 1, 2, 3] {
        return raw;
    }
    let pick = |c: usize| raw[order[c] as usize & 3];
    [pick(0), pick(1), pick(2), pick(3)]
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::filter::{self, ImgArgs, Samp};
    use super::*;
    use crate::resource::{Filter, MipFilter, Resource, SamplerView, Storage};
    use std::sync::Arc;
    use tgsi::Format;

    /// The general filter's bits at `(s, t)` of `level`.
    fn general(
        v: &View,
        samp: &Samp,
        img: filter::Img,
        (s, t): (f32, f32),
        level: u32,
        offset: [i32; 3],
    ) -> [u32; 4] {
        let a = ImgArgs {
            s,
            t,
            p: 0.0,
            level,
            face: 0,
            offset,
            gather: None,
        };
        filter::run(v, samp, img, &a).map(f32::to_bits)
    }

    /// A 2-D resource of `format` (four bytes a texel) with `levels` levels of pseudo-random
    /// bytes.
    pub(crate) fn resource(format: &str, w: u32, h: u32, levels: u32, seed: u32) -> Arc<Resource> {
        let mut r = Resource {
            target: Target::Tex2D,
            format: Format::from_name(format).unwrap(),
            width0: w,
            height0: h,
            depth0: 1,
            array_size: 1,
            last_level: levels - 1,
            nr_samples: 0,
            data: Storage::zeroed(0),
        };
        let mut x = seed;
        let bytes: Vec<u8> = (0..r.layout_bytes(4).unwrap())
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        r.data = Storage::from_bytes(&bytes);
        Arc::new(r)
    }

    /// Every bilinear sample the specialised path takes equals the general filter's, for
    /// each wrap mode, byte order, power-of-two and other sizes, level and texel offset, at
    /// coordinates inside, around and far outside the texture (NaN and infinities too) and
    /// on tile seams, one lane at a time and as quads; and each path takes over a third of
    /// them.
    #[test]
    fn plan_matches_the_general_filter() {
        let wraps = Wrap::ALL;
        let mut coords: Vec<f32> = (-40..=80).map(|i| i as f32 * 0.0371).collect();
        coords.extend([f32::NAN, f32::INFINITY, -f32::INFINITY, 1e9, -1e9, 0.5, 1.0]);
        let (mut taken, mut total) = (0u32, 0u32);
        let (mut quads_taken, mut quads_total) = (0u32, 0u32);
        for (format, w, h, levels) in [
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 64, 64, 7),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 40, 24, 6),
            ("PIPE_FORMAT_A8B8G8R8_UNORM", 256, 64, 3),
        ] {
            let res = resource(format, w, h, levels, w * 31 + h);
            let v = View::new(&SamplerView::whole(&res), [0x3f80_0000, 0, 0x3f00_0000, 0]).unwrap();
            for (ws, wt) in wraps
                .iter()
                .flat_map(|&a| wraps.iter().map(move |&b| (a, b)))
            {
                let st = SamplerState {
                    wrap: [ws, wt, Wrap::Repeat],
                    min_img_filter: Filter::Linear,
                    mag_img_filter: Filter::Linear,
                    min_mip_filter: MipFilter::Linear,
                    ..SamplerState::default()
                };
                let samp = Samp {
                    st,
                    seamless: false,
                    fast: None,
                };
                let plan = Plan::new(&v, &st).expect("the case applies");
                let img = filter::select(&v, &samp, Filter::Linear, false);
                let pot = img == filter::Img::Linear2DRepeatPot;
                for level in 0..levels {
                    for offset in [[0, 0, 0], [-3, 5, 0]] {
                        // Pairs from the list, and a grid of eighths: at level 0 these put
                        // footprints across tile seams (the wrapping one of the 256-wide
                        // texture included, which the tile cache aliases).
                        let pairs = coords
                            .iter()
                            .enumerate()
                            .map(|(i, &s)| (s, coords[(i * 7 + level as usize) % coords.len()]));
                        let eighths =
                            (0..=64).map(|k| ((k % 9) as f32 / 8.0, (k / 9) as f32 / 8.0));
                        let points: Vec<(f32, f32)> = pairs.chain(eighths).collect();
                        // The quad path: four consecutive points as one quad, and the same
                        // point in all four lanes (every quad of a constant coordinate).
                        let quads = points
                            .chunks_exact(4)
                            .map(|q| [q[0], q[1], q[2], q[3]])
                            .chain(points.iter().map(|&p| [p; 4]));
                        for quad in quads {
                            let (s, t) = (quad.map(|p| p.0), quad.map(|p| p.1));
                            quads_total += 1;
                            let Some(got) = plan.bilinear_quad(&v, pot, &s, &t, level, offset)
                            else {
                                continue;
                            };
                            quads_taken += 1;
                            for (j, got) in got.iter().enumerate() {
                                let want = general(&v, &samp, img, (s[j], t[j]), level, offset);
                                assert_eq!(
                                    got.map(f32::to_bits),
                                    want,
                                    "{format} {ws:?}/{wt:?} level {level} quad {quad:?} lane {j}"
                                );
                            }
                        }
                        for (s, t) in points {
                            let want = general(&v, &samp, img, (s, t), level, offset);
                            total += 1;
                            if let Some(got) = plan.bilinear(&v, pot, s, t, level, offset) {
                                taken += 1;
                                assert_eq!(
                                    got.map(f32::to_bits),
                                    want,
                                    "{format} {ws:?}/{wt:?} level {level} ({s}, {t}) {offset:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(taken * 3 > total, "the path took {taken} of {total}");
        assert!(
            quads_taken * 3 > quads_total,
            "the quad path took {quads_taken} of {quads_total}"
        );
    }
}
