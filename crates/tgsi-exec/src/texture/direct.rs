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

use super::filter::Samp;
use super::lod::Control;
use super::sample::{self, Coords};
use super::texel::View;
use super::{bind, Prepared};
use crate::resource::{SamplerState, SamplerView};
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
