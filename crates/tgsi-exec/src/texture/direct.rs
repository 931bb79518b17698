//! The commonest texture instructions straight from an engine's registers: TEX, TXB, TXL,
//! TEX_LZ, SAMPLE, SAMPLE_B and SAMPLE_L of a 2-D target without texel offsets, whose bound
//! view and sampler the specialised bilinear path reads ([`super::fast2d`]: a 2-D view of
//! a four-byte unorm texture, linear filters, no depth comparison, no anisotropy).
//!
//! [`Direct::bind`] looks the view and sampler up once for all the quads an engine hands
//! over in one call (where [`super::execute_prepared`] builds a request and looks the pair
//! up for every quad), and [`Direct::quad`] samples one quad from its coordinate and LOD
//! channels with exactly `execute_prepared`'s results; a quad the specialised path does not
//! take (lanes on different levels, a footprint on the border or across aliasing cache
//! tiles) gives `None`, and the engine runs it through `execute_prepared`.

use super::fast2d::Words;
use super::filter::{self, Samp};
use super::lod::{self, Control, MipFuncs};
use super::sample::{self, Coords};
use super::texel::View;
use super::{bind, Prepared};
use crate::resource::{Filter, SamplerState, SamplerView, Swizzle, Wrap};
use std::sync::atomic::AtomicU32;
use tgsi::{Opcode, TextureTarget};

/// What an instruction asks of the direct path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirectOp {
    control: Control,
    /// The source and channel of the per-lane bias or explicit LOD.
    lod: Option<(usize, usize)>,
    /// The SAMPLE family, whose results the SVIEW operand's swizzle reorders.
    sample: bool,
}

impl DirectOp {
    /// The direct form of `opcode` on `target` (the instruction's target, or the SVIEW
    /// declaration's for the SAMPLE family), if it has one.
    pub fn new(opcode: Opcode, target: TextureTarget) -> Option<DirectOp> {
        if target != TextureTarget::Tex2D {
            return None;
        }
        let op = |control, lod, sample| {
            Some(DirectOp {
                control,
                lod,
                sample,
            })
        };
        match opcode {
            Opcode::TEX => op(Control::None, None, false),
            Opcode::TXB => op(Control::Bias, Some((0, 3)), false),
            Opcode::TXL => op(Control::Explicit, Some((0, 3)), false),
            Opcode::TEX_LZ => op(Control::Zero, None, false),
            Opcode::SAMPLE => op(Control::None, None, true),
            Opcode::SAMPLE_B => op(Control::Bias, Some((1, 0)), true),
            Opcode::SAMPLE_L => op(Control::Explicit, Some((1, 0)), true),
            _ => None,
        }
    }

    /// The source and channel of the LOD the quads need (bias or explicit), if any.
    pub fn lod_source(&self) -> Option<(usize, usize)> {
        self.lod
    }
}

/// An instruction bound to a view and sampler the specialised path reads.
pub struct Direct<'p> {
    op: DirectOp,
    bound: &'p (View, Samp),
    frag: bool,
    /// The SVIEW operand's swizzle, for the SAMPLE family (not the identity).
    sview_swizzle: Option<[u8; 4]>,
}

impl<'p> Direct<'p> {
    /// `op` on `view` with `sampler` (`seamless`: the context's cube-map switch, `frag`:
    /// implicit LODs from the quad, `sview_swizzle`: the SVIEW operand's swizzle), or
    /// `None` when the specialised path cannot read them.
    pub fn bind(
        op: DirectOp,
        view: &SamplerView,
        sampler: &SamplerState,
        seamless: bool,
        frag: bool,
        sview_swizzle: [u8; 4],
        prepared: &'p mut Prepared,
    ) -> Option<Direct<'p>> {
        let bound = bind(view, sampler, seamless, prepared)?;
        let (_, samp) = bound;
        if samp.fast.is_none() || samp.st.compare {
            return None;
        }
        let sview_swizzle = (op.sample && sview_swizzle != [0, 1, 2, 3]).then_some(sview_swizzle);
        Some(Direct {
            op,
            bound,
            frag,
            sview_swizzle,
        })
    }

    /// The instruction.
    pub fn op(&self) -> DirectOp {
        self.op
    }

    /// One quad: coordinates `s` and `t` and the LOD channel (see [`DirectOp::lod_source`];
    /// ignored without one) as words, lane 0 top-left; the results channel-major
    /// (`[channel][lane]`), or `None` for `execute_prepared`.
    pub fn quad(&self, s: [u32; 4], t: [u32; 4], lod: [u32; 4]) -> Option<[[u32; 4]; 4]> {
        let (v, samp) = self.bound;
        let q = Coords {
            s: s.map(f32::from_bits),
            t: t.map(f32::from_bits),
            c1: if self.op.lod.is_some() {
                lod.map(f32::from_bits)
            } else {
                [0.0; 4]
            },
            ..Coords::default()
        };
        let channels = sample::fast_samples(v, samp, &q, self.op.control, self.frag)?;
        let words = channels.map(|c| c.map(f32::to_bits));
        Some(match self.sview_swizzle {
            None => words,
            Some(sw) => sw.map(|c| words[c as usize & 3]),
        })
    }
}

/// The filters a compiled sampler implements ([`Compiled`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompiledFilter {
    /// `funcs_linear_2d_linear_repeat_POT`: the LOD picks a level pair, blended by its
    /// fraction, or one level at either end; the power-of-two repeat bilinear filter
    /// samples them.
    Trilinear,
    /// No mip filter and the same linear filter for minification and magnification: the
    /// power-of-two repeat bilinear filter at the first level, whatever the LOD.
    Bilinear,
}

/// One level of a [`Compiled`] view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompiledLevel {
    /// Its first word in [`Compiled::words`].
    pub first: u32,
    /// Words per row.
    pub row: u32,
    /// Width, a power of two (the repeat filter's size).
    pub width: u32,
    /// Height, a power of two.
    pub height: u32,
}

/// Levels a [`Compiled`] view may have.
pub const COMPILED_LEVELS: usize = 16;

/// A bound instruction described for a compiler, where every step of softpipe's sampling
/// is simple enough to emit as vector code: a [`Direct`] instruction (TEX in a fragment
/// shader, TXL or TEX_LZ) on a power-of-two 2-D view of a four-byte unorm texture with
/// the identity swizzle, REPEAT wrapping on s and t, linear filters and either the linear
/// mip filter or none. The quad's steps, each as [`Direct::quad`] takes them:
///
/// 1. the LOD: TEX `fast_log2(max(max(|s₃ − s₂|, |s₀ − s₂|)·size[0], max(|t₃ − t₂|,
///    |t₀ − t₂|)·size[1])) + lod_bias` (one per quad, `max(a, b) = a > b ? a : b`), TXL
///    `lod + lod_bias` per lane, TEX_LZ `lod_bias`; clamped by `l > min ? (l > max ? max :
///    l) : min`;
/// 2. [`CompiledFilter::Trilinear`]: `level0 = first_level + (int)lod` (`cvttss2si`); the
///    pair `level0, level0 + 1` blended by `lod − floor(lod)` when `level0 < last_level`
///    as unsigned numbers, else the single level `first_level` (`level0 < 0`) or
///    `last_level` (every lane must have the same `level0`); [`CompiledFilter::Bilinear`]:
///    `first_level`;
/// 3. per level and axis, `u = (s·size − 0.5) + 0.0`, `i0 = floor(u) & (size − 1)`,
///    `i1 = (i0 + 1) & (size − 1)`, weight `u − floor(u)` (Mesa's `util_ifloor`, which is
///    `floor` for `|u| < 2²¹` outside `(−2⁻²⁰, 0)`; other lanes need the interpreter);
///    a footprint that wraps (`i1 = 0`) on an axis longer than 32 texels may read another
///    tile through softpipe's texture cache and needs the interpreter too;
/// 4. texel `(x, y)` is word `first + y·row + x`; component c of the four texels is byte
///    `shifts[c] / 8` times `1/255` (`f32`), blended as `lerp(wy, lerp(wx, t00, t10),
///    lerp(wx, t01, t11))` with `lerp(w, a, b) = a + w·(b − a)`;
/// 5. two levels blended as `lerp(w, lo, hi)`.
///
/// Every texel of every listed level lies inside `words`.
pub struct Compiled<'a> {
    /// The mip and image filters.
    pub filter: CompiledFilter,
    /// The view's first level.
    pub first_level: u32,
    /// The view's last level.
    pub last_level: u32,
    /// The sampler's LOD bias.
    pub lod_bias: f32,
    /// The sampler's smallest LOD.
    pub min_lod: f32,
    /// The sampler's largest LOD.
    pub max_lod: f32,
    /// Width and height of the first level as floats (the implicit LOD's scale).
    pub size: [f32; 2],
    /// Bit position of each component's byte in a texel's word.
    pub shifts: [u32; 4],
    /// Levels `0 ..= last_level` (the trilinear filter's level arithmetic may reach below
    /// `first_level`; the bilinear filter reads `first_level` only).
    pub levels: [CompiledLevel; COMPILED_LEVELS],
    /// The texture's words.
    pub words: &'a [AtomicU32],
}

impl<'p> Direct<'p> {
    /// The instruction as a compiled sampler sees it, or `None` when it is not of that
    /// kind (see [`Compiled`]).
    pub fn compiled(&self) -> Option<Compiled<'p>> {
        let (v, samp) = self.bound;
        let st = &samp.st;
        let plan = samp.fast.as_ref()?;
        let ok_op = match self.op.control {
            Control::None => self.frag,
            Control::Explicit | Control::Zero => true,
            _ => false,
        };
        let identity = [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W];
        if !ok_op || self.op.sample || v.view.swizzle != identity || !filter::pot2d(v) {
            return None;
        }
        let linear = st.min_img_filter == Filter::Linear && st.mag_img_filter == Filter::Linear;
        let repeat = st.wrap[0] == Wrap::Repeat && st.wrap[1] == Wrap::Repeat;
        if !linear || !repeat || st.unnormalized_coords {
            return None;
        }
        let (first, last) = (v.view.first_level, v.view.last_level);
        let filter = match lod::mip_funcs(st, true, self.op.control) {
            MipFuncs::LinearPot => CompiledFilter::Trilinear,
            MipFuncs::NoneNoSelect => CompiledFilter::Bilinear,
            _ => return None,
        };
        // Softpipe's level arithmetic may reach below the view's first level (a negative
        // LOD with a positive first level), so every level up to the last is described.
        let used = match filter {
            CompiledFilter::Trilinear => 0..=last,
            CompiledFilter::Bilinear => first..=first,
        };
        if last as usize >= COMPILED_LEVELS || first > last {
            return None;
        }
        let words = v.res.data.whole_words();
        let mut levels = [CompiledLevel::default(); COMPILED_LEVELS];
        for l in used {
            let &Words {
                first: start,
                row,
                width,
                height,
                pot,
            } = plan.level(l)?;
            // The repeat filter's sizes are the level's, so its indices stay inside.
            if width == 0 || height == 0 || pot != (width, height) {
                return None;
            }
            let end = (height as usize - 1) * row + start + width as usize;
            if end > words.len() {
                return None;
            }
            levels[l as usize] = CompiledLevel {
                first: u32::try_from(start).ok()?,
                row: u32::try_from(row).ok()?,
                width,
                height,
            };
        }
        Some(Compiled {
            filter,
            first_level: first,
            last_level: last,
            lod_bias: st.lod_bias,
            min_lod: st.min_lod,
            max_lod: st.max_lod,
            size: [v.width(first) as f32, v.height(first) as f32],
            shifts: plan.order().map(|o| 8 * u32::from(o & 3)),
            levels,
            words,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::fast2d::tests::{resource, view_2d};
    use super::super::{execute_prepared, TexRequest};
    use super::*;
    use crate::resource::{Filter, MipFilter, Swizzle, Wrap};

    /// Every quad the direct path takes gives `execute_prepared`'s words: each opcode, wrap
    /// mode, mip filter, view swizzle and SVIEW swizzle, with implicit, biased and explicit
    /// LODs per lane (the same level or not), at coordinates inside, around and far outside
    /// the texture; and it takes most of them.
    #[test]
    fn direct_quads_equal_the_general_path() {
        let mut x = 0x9e37_79b9u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut unit = move || (next() >> 8) as f32 / (1 << 24) as f32;
        let opcodes = [
            Opcode::TEX,
            Opcode::TXB,
            Opcode::TXL,
            Opcode::TEX_LZ,
            Opcode::SAMPLE,
            Opcode::SAMPLE_B,
            Opcode::SAMPLE_L,
        ];
        let (mut taken, mut total) = (0u32, 0u32);
        for (format, w, h, levels) in [
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 64, 64, 7),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 48, 20, 5),
        ] {
            let res = resource(format, w, h, levels, w * 7 + h);
            let mut view = view_2d(&res);
            for (round, wrap) in Wrap::ALL.into_iter().enumerate() {
                view.swizzle = if round % 2 == 0 {
                    [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W]
                } else {
                    [Swizzle::Z, Swizzle::One, Swizzle::X, Swizzle::Zero]
                };
                for mip in [MipFilter::None, MipFilter::Nearest, MipFilter::Linear] {
                    let sampler = SamplerState {
                        wrap: [wrap; 3],
                        min_img_filter: Filter::Linear,
                        mag_img_filter: Filter::Linear,
                        min_mip_filter: mip,
                        lod_bias: 0.25 * (round % 3) as f32,
                        max_lod: 1000.0,
                        ..SamplerState::default()
                    };
                    for opcode in opcodes {
                        let op = DirectOp::new(opcode, TextureTarget::Tex2D).unwrap();
                        let sview_swizzle = [[0, 1, 2, 3], [2, 0, 3, 1]][round % 2];
                        for k in 0..40 {
                            let spread = [0.002, 0.03, 0.3][k % 3];
                            let base = [unit() * 3.0 - 1.0, unit() * 3.0 - 1.0];
                            let s: [f32; 4] = std::array::from_fn(|_| base[0] + unit() * spread);
                            let t: [f32; 4] = std::array::from_fn(|_| base[1] + unit() * spread);
                            let lod: [f32; 4] = if k % 2 == 0 {
                                [unit() * 5.0 - 1.0; 4]
                            } else {
                                std::array::from_fn(|_| unit() * 5.0 - 1.0)
                            };
                            let words = |v: [f32; 4]| v.map(f32::to_bits);
                            let mut prepared = Prepared::default();
                            let direct = Direct::bind(
                                op,
                                &view,
                                &sampler,
                                false,
                                true,
                                sview_swizzle,
                                &mut prepared,
                            )
                            .expect("the direct path reads the view");
                            total += 1;
                            let Some(got) = direct.quad(words(s), words(t), words(lod)) else {
                                continue;
                            };
                            taken += 1;
                            // The general path's sources: the coordinates in x and y, the
                            // LOD where the opcode reads it.
                            let mut srcs = [[[0u32; 4]; 4]; 2];
                            for j in 0..4 {
                                srcs[0][j][0] = s[j].to_bits();
                                srcs[0][j][1] = t[j].to_bits();
                                if let Some((src, c)) = op.lod_source() {
                                    srcs[src][j][c] = lod[j].to_bits();
                                }
                            }
                            let req = TexRequest {
                                opcode,
                                target: TextureTarget::Tex2D,
                                srcs: &srcs,
                                offsets: [0; 3],
                                view: Some(&view),
                                sampler: Some(&sampler),
                                seamless_cube_map: false,
                                implicit_lod: true,
                                sview_swizzle,
                            };
                            let want = execute_prepared(&req, &mut Prepared::default());
                            let want: [[u32; 4]; 4] =
                                std::array::from_fn(|c| std::array::from_fn(|j| want[j][c]));
                            assert_eq!(
                                got, want,
                                "{format} {wrap:?} {mip:?} {opcode:?} s {s:?} t {t:?} lod {lod:?}"
                            );
                        }
                    }
                }
            }
        }
        assert!(taken * 2 > total, "the direct path took {taken} of {total}");
    }
}
