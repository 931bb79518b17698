//! The commonest texture instructions straight from an engine's registers: TEX, TXB, TXL,
//! TEX_LZ, SAMPLE, SAMPLE_B and SAMPLE_L of a 2-D target without texel offsets, whose bound
//! view and sampler the specialised bilinear path reads ([`super::fast2d`]: a 2-D view of
//! a four-byte unorm texture, linear filters, no depth comparison, no anisotropy), and
//! the texel fetches TXF and TXF_LZ of such a view.
//!
//! [`Direct::bind`] looks the view and sampler up once for all the quads an engine hands
//! over in one call (where [`super::execute_prepared`] builds a request and looks the pair
//! up for every quad), with the instruction's [`Compiled`] form (kept with the prepared
//! pair), and [`Direct::quad`] samples one quad from its coordinate and LOD channels with
//! exactly `execute_prepared`'s results: through the native kernel ([`super::kernel`])
//! where the form has one and the CPU runs it, else the specialised path; a quad neither
//! takes (lanes on different levels, a footprint on the border or across aliasing cache
//! tiles) gives `None`, and the engine runs it through `execute_prepared`.

use super::fast2d::Words;
use super::filter::{self, Samp};
use super::lod::{self, Control, MipFuncs};
use super::sample::{self, Coords};
use super::texel::View;
use super::{bind_named, Bound, Prepared};
use crate::resource::{Filter, SamplerState, SamplerView, Swizzle, Wrap};
use std::sync::atomic::AtomicU32;
use tgsi::{Opcode, TextureTarget};

/// How a direct instruction gives its LOD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirectLod {
    /// From the quad (TEX, SAMPLE).
    Implicit,
    /// From the quad, plus a bias per lane (TXB, SAMPLE_B).
    Bias,
    /// Per lane (TXL, SAMPLE_L).
    Explicit,
    /// Zero (TEX_LZ).
    Zero,
    /// A texel fetch at the integer LOD of the quad's first lane (TXF).
    Fetch,
    /// A texel fetch from the view's first level (TXF_LZ).
    FetchZero,
}

/// What an instruction asks of the direct path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirectOp {
    control: Control,
    /// The SAMPLE family, whose results the SVIEW operand's swizzle reorders and whose LOD
    /// is `src1.x` (the TEX family's `src0.w`).
    sample: bool,
    /// A texel fetch ([`DirectLod::Fetch`] or [`DirectLod::FetchZero`]): integer
    /// coordinates, no filtering.
    fetch: Option<DirectLod>,
}

impl DirectOp {
    /// The direct form of `opcode` on `target` (the instruction's target, or the SVIEW
    /// declaration's for the SAMPLE family), if it has one.
    pub fn new(opcode: Opcode, target: TextureTarget) -> Option<DirectOp> {
        use Opcode as O;
        let (sample, fetch) = match opcode {
            O::TEX | O::TXB | O::TXL | O::TEX_LZ => (false, None),
            O::SAMPLE | O::SAMPLE_B | O::SAMPLE_L => (true, None),
            O::TXF => (false, Some(DirectLod::Fetch)),
            O::TXF_LZ => (false, Some(DirectLod::FetchZero)),
            _ => return None,
        };
        (target == TextureTarget::Tex2D).then_some(DirectOp {
            control: lod::control_of(opcode),
            sample,
            fetch,
        })
    }

    /// The source and channel of the LOD the quads need (bias, explicit or a fetch's),
    /// if any.
    pub fn lod_source(&self) -> Option<(usize, usize)> {
        match (self.control, self.sample, self.fetch) {
            (_, _, Some(DirectLod::Fetch)) => Some((0, 3)),
            (_, _, Some(_)) => None,
            (Control::Bias | Control::Explicit, false, _) => Some((0, 3)),
            (Control::Bias | Control::Explicit, true, _) => Some((1, 0)),
            _ => None,
        }
    }

    /// How the instruction gives its LOD.
    pub fn lod(&self) -> DirectLod {
        if let Some(fetch) = self.fetch {
            return fetch;
        }
        match self.control {
            Control::Bias => DirectLod::Bias,
            Control::Explicit => DirectLod::Explicit,
            Control::Zero => DirectLod::Zero,
            _ => DirectLod::Implicit,
        }
    }

    /// Whether it is of the SAMPLE family.
    pub fn sample_family(&self) -> bool {
        self.sample
    }
}

/// An instruction bound to a view and sampler the specialised path reads.
pub struct Direct<'p> {
    op: DirectOp,
    bound: &'p (View, Samp),
    /// [`Direct::binding`].
    binding: u64,
    frag: bool,
    /// The SVIEW operand's swizzle, for the SAMPLE family (not the identity).
    sview_swizzle: Option<[u8; 4]>,
    /// The instruction described for a compiler, if it is of that kind.
    compiled: Option<Compiled<'p>>,
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
        let entry = bind_named(view, sampler, seamless, prepared)?;
        let (_, samp) = entry.ready.as_ref()?;
        if samp.fast.is_none() || samp.st.compare {
            return None;
        }
        let key = (op, frag);
        let at = match entry.forms.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                let form = CompiledForm::of(op, frag, entry.ready.as_ref()?);
                entry.forms.push((key, form));
                entry.forms.len() - 1
            }
        };
        let entry: &'p Bound = entry;
        let bound = entry.ready.as_ref()?;
        let compiled = entry.forms[at].1.as_ref().map(|form| Compiled {
            form,
            words: bound.0.res.data.whole_words(),
        });
        let sview_swizzle = (op.sample && sview_swizzle != [0, 1, 2, 3]).then_some(sview_swizzle);
        Some(Direct {
            op,
            bound,
            binding: entry.id,
            frag,
            sview_swizzle,
            compiled,
        })
    }

    /// The instruction as a compiled sampler sees it, or `None` when it is not of that
    /// kind (see [`Compiled`]).
    pub fn compiled(&self) -> Option<Compiled<'p>> {
        self.compiled
    }

    /// The instruction.
    pub fn op(&self) -> DirectOp {
        self.op
    }

    /// A number naming the prepared view and sampler for the rest of the process: numbers
    /// are never reused, so what a caller derives from one binding (its [`Compiled`] form,
    /// say) stays right for every later `Direct` with the same number.
    pub fn binding(&self) -> u64 {
        self.binding
    }

    /// One quad: coordinates `s` and `t` and the LOD channel (see [`DirectOp::lod_source`];
    /// ignored without one) as words (integers for a fetch), lane 0 top-left; the results
    /// channel-major (`[channel][lane]`), or `None` for `execute_prepared`.
    #[inline]
    pub fn quad(&self, s: [u32; 4], t: [u32; 4], lod: [u32; 4]) -> Option<[[u32; 4]; 4]> {
        if self.op.fetch.is_none() {
            if let Some(r) = self
                .compiled
                .and_then(|c| c.sample_quad(self.op.lod(), s, t, lod))
            {
                return Some(r);
            }
        }
        self.quad_otherwise(s, t, lod)
    }

    /// [`Direct::quad`] of a fetch, or of a quad the native kernel does not sample.
    #[inline(never)]
    fn quad_otherwise(&self, s: [u32; 4], t: [u32; 4], lod: [u32; 4]) -> Option<[[u32; 4]; 4]> {
        let (v, samp) = self.bound;
        if let Some(how) = self.op.fetch {
            let plan = samp.fast.as_ref()?;
            let lod = if how == DirectLod::Fetch { lod[0] } else { 0 };
            let ints = |x: [u32; 4]| x.map(|w| w as i32);
            let texels = plan.fetch_quad(v, ints(s), ints(t), lod as i32)?;
            let channels = std::array::from_fn(|c| texels.map(|texel| texel[c]));
            return Some(v.swizzle_channels(channels).map(|c| c.map(f32::to_bits)));
        }
        let q = Coords {
            s: s.map(f32::from_bits),
            t: t.map(f32::from_bits),
            c1: if self.op.lod_source().is_some() {
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

/// How a compiled sampler picks the levels it samples ([`Compiled`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LevelRule {
    /// `mip_filter_linear_2d_linear_repeat_POT`: `level0 = first_level + (int)lod`; the
    /// pair `level0, level0 + 1` blended by `lod − floor(lod)` when `level0 < last_level`
    /// as unsigned numbers, else the one level `first_level` (`level0 < 0`) or
    /// `last_level`.
    Pot,
    /// `mip_filter_linear`: `first_level` where `lod ≤ 0`; else `level0 = first_level +
    /// (int)lod`, the one level `last_level` where `level0 ≥ last_level` (signed), the
    /// pair blended by `lod − floor(lod)` otherwise.
    Linear,
    /// No mip filter, one linear filter for minification and magnification:
    /// `first_level`.
    First,
}

/// How a compiled sampler wraps one axis at a level of `size` texels (softpipe's
/// `wrap_linear_*` with normalised coordinates and no offset; `ifloor` is Mesa's
/// `util_ifloor`, `frac(x) = x − floor(x)`, and every step is one `f32` operation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AxisWrap {
    /// `img_filter_2d_linear_repeat_POT`: `u = (s·size − 0.5) + 0`, `i0 = ifloor(u) &
    /// (size − 1)`, `i1 = (i0 + 1) & (size − 1)`, weight `u − ifloor(u)`; also
    /// `wrap_linear_repeat` on a power-of-two side (its unsigned modulo is that mask, and
    /// the `+ 0` and `frac(u)` change no bits).
    RepeatPot,
    /// `wrap_linear_mirror_repeat`: `s' = s + 0/size`; even `ifloor(s')`: `u =
    /// frac(s')·size − 0.5`, `i1 = i0 + 1`, weight `frac(u)`; odd: `u = (1 −
    /// frac(s'))·size + 0.5`, `i1 = i0 − 1`, weight `frac(1 − u)`; `i0 = ifloor(u)`; then
    /// `i0 < 0 → i0 + 1`, `i0 ≥ size → size − 1`, `i1 ≥ size → size − 1`, `i1 < 0 → i1 +
    /// 1`.
    MirrorRepeat,
    /// `wrap_linear_clamp_to_edge`: `u = clamp(s·size + 0, 0, size) − 0.5` (`x > 0 ? (x >
    /// size ? size : x) : 0`), `i0 = ifloor(u)`, `i1 = i0 + 1`, weight `frac(u)`; then
    /// `i0 < 0 → 0`, `i1 ≥ size → size − 1`.
    ClampToEdge,
}

/// One level of a [`Compiled`] view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompiledLevel {
    /// Its first word in [`Compiled::words`].
    pub first: u32,
    /// Words per row.
    pub row: u32,
    /// Width (a power of two where s wraps with [`AxisWrap::RepeatPot`]).
    pub width: u32,
    /// Height (a power of two where t wraps with [`AxisWrap::RepeatPot`]).
    pub height: u32,
}

/// Levels a [`Compiled`] view may have.
pub const COMPILED_LEVELS: usize = 16;

/// How a [`Compiled`] sampling instruction filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filtering {
    /// How the levels are picked.
    pub rule: LevelRule,
    /// How s and t wrap.
    pub wrap: [AxisWrap; 2],
}

/// A bound instruction described for a compiler, where every step of softpipe's sampling
/// is simple enough to emit as vector code: a [`Direct`] instruction (TEX or TXB in a
/// fragment shader, TXL or TEX_LZ) on a 2-D view of a four-byte unorm texture with the identity
/// swizzle, linear filters for minification and magnification, the linear mip filter or
/// none, and REPEAT (power-of-two textures), MIRROR_REPEAT or CLAMP_TO_EDGE wrapping. The
/// steps of a quad, each as [`Direct::quad`] takes them:
///
/// 1. the LOD: TEX `fast_log2(max(max(|s₃ − s₂|, |s₀ − s₂|)·size[0], max(|t₃ − t₂|,
///    |t₀ − t₂|)·size[1])) + lod_bias` (one per quad, `max(a, b) = a > b ? a : b`), TXB
///    that `+ bias` per lane, TXL `lod + lod_bias` per lane, TEX_LZ `lod_bias`; clamped by `l > min ? (l > max ? max :
///    l) : min`; `(int)` below is `cvttss2si`;
/// 2. the levels by [`Filtering::rule`] (one level is a pair of equal levels blended by
///    weight 0, which gives its texels' value);
/// 3. each axis at each level by [`Filtering::wrap`]; texel `(x, y)` is word `first +
///    y·row + x`; component c of the four texels is byte `shifts[c] / 8` times `1/255`
///    (`f32`), blended as `lerp(wy, lerp(wx, t00, t10), lerp(wx, t01, t11))` with
///    `lerp(w, a, b) = a + w·(b − a)`;
/// 4. two levels blended as `lerp(w, lo, hi)`.
///
/// A quad needs the interpreter where its lanes pick different levels, where `ifloor` of
/// a value is not `floor` (`|x| ≥ 2²¹`, NaN, or `x` in `(−2⁻²⁰, 0)` will do), where an
/// index falls outside its level, or where a REPEAT footprint wraps (`i1 = 0`) on a side
/// longer than one cache tile (32 texels), which softpipe's texture cache may alias.
///
/// A texel fetch (TXF, TXF_LZ; [`CompiledForm::filter`] is `None`, whatever the sampler) on
/// such a view reads one texel a lane, never needing the interpreter: the level
/// `clamp(lod₀ + first_level, first_level, last_level)` (in 64 bits; `lod₀` the integer
/// LOD of lane 0, 0 for TXF_LZ), the integer coordinates clamped into it (`x > 0 ? min(x,
/// width − 1) : 0`, the same for y), the texel's components as in step 3.
///
/// Every texel of levels `0 ..= last_level` lies inside `words`, at an index below 2³².
#[derive(Clone, Copy)]
pub struct Compiled<'a> {
    /// What the instruction does.
    pub form: &'a CompiledForm,
    /// The texture's words.
    pub words: &'a [AtomicU32],
}

/// A [`Compiled`] instruction apart from the texture's words: what a [`Prepared`] keeps
/// of it from one [`Direct::bind`] to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompiledForm {
    /// How a sampling instruction filters; `None` for a texel fetch.
    pub filter: Option<Filtering>,
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
    /// Levels `0 ..= last_level` (softpipe's level arithmetic may reach below
    /// `first_level`).
    pub levels: [CompiledLevel; COMPILED_LEVELS],
}

impl CompiledForm {
    /// The form of `op` on a bound view and sampler (`frag`: implicit LODs from the
    /// quad), or `None` when it is not of the compiled kind (see [`Compiled`]).
    fn of(op: DirectOp, frag: bool, (v, samp): &(View, Samp)) -> Option<CompiledForm> {
        let st = &samp.st;
        let plan = samp.fast.as_ref()?;
        let identity = [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W];
        if op.sample || v.view.swizzle != identity {
            return None;
        }
        let filter = match op.fetch {
            Some(_) => None,
            None => Some(filtering(op, frag, v, samp)?),
        };
        let (first, last) = (v.view.first_level, v.view.last_level);
        if last as usize >= COMPILED_LEVELS || first > last {
            return None;
        }
        let words = v.res.data.whole_words();
        let mut levels = [CompiledLevel::default(); COMPILED_LEVELS];
        for (l, level) in (0..=last).zip(levels.iter_mut()) {
            let &Words {
                first: start,
                row,
                width,
                height,
                pot,
            } = plan.level(l)?;
            // Sizes the filter's indices stay inside.
            let pot_side = |axis: AxisWrap, pot: u32, size: u32| {
                axis != AxisWrap::RepeatPot || (pot == size && size.is_power_of_two())
            };
            let pot_ok = filter.is_none_or(|f| {
                pot_side(f.wrap[0], pot.0, width) && pot_side(f.wrap[1], pot.1, height)
            });
            if width == 0 || height == 0 || !pot_ok {
                return None;
            }
            // Inside the words, and every texel's index a 32-bit number (the kernels add
            // them in 32 bits).
            let end = (height as usize - 1) * row + start + width as usize;
            if end > words.len() || u32::try_from(end).is_err() {
                return None;
            }
            *level = CompiledLevel {
                first: u32::try_from(start).ok()?,
                row: u32::try_from(row).ok()?,
                width,
                height,
            };
        }
        Some(CompiledForm {
            filter,
            first_level: first,
            last_level: last,
            lod_bias: st.lod_bias,
            min_lod: st.min_lod,
            max_lod: st.max_lod,
            size: [v.width(first) as f32, v.height(first) as f32],
            shifts: plan.order().map(|o| 8 * u32::from(o & 3)),
            levels,
        })
    }
}

/// How sampling instruction `op` filters on a bound view and sampler (`frag`: implicit
/// LODs from the quad), if a compiled sampler can (see [`Compiled`]).
fn filtering(op: DirectOp, frag: bool, v: &View, samp: &Samp) -> Option<Filtering> {
    let st = &samp.st;
    let ok_op = match op.control {
        Control::None | Control::Bias => frag,
        Control::Explicit | Control::Zero => true,
        _ => false,
    };
    let linear = st.min_img_filter == Filter::Linear && st.mag_img_filter == Filter::Linear;
    if !ok_op || !linear || st.unnormalized_coords {
        return None;
    }
    let rule = match lod::mip_funcs(st, filter::pot2d(v), op.control) {
        MipFuncs::LinearPot => LevelRule::Pot,
        MipFuncs::Linear => LevelRule::Linear,
        MipFuncs::NoneNoSelect => LevelRule::First,
        _ => return None,
    };
    let wrap = match filter::select(v, samp, Filter::Linear, false) {
        _ if rule == LevelRule::Pot => [AxisWrap::RepeatPot; 2],
        filter::Img::Linear2DRepeatPot => [AxisWrap::RepeatPot; 2],
        filter::Img::Linear2D => {
            // REPEAT on a power-of-two side is the power-of-two formula (the modulo
            // of a power of two is a mask; the levels are checked in `CompiledForm::of`).
            let axis = |w: Wrap| match w {
                Wrap::Repeat => Some(AxisWrap::RepeatPot),
                Wrap::MirrorRepeat => Some(AxisWrap::MirrorRepeat),
                Wrap::ClampToEdge => Some(AxisWrap::ClampToEdge),
                _ => None,
            };
            [axis(st.wrap[0])?, axis(st.wrap[1])?]
        }
        _ => return None,
    };
    Some(Filtering { rule, wrap })
}

#[cfg(test)]
mod tests {
    use super::super::fast2d::tests::resource;
    use super::super::{execute_prepared, TexRequest};
    use super::*;
    use crate::resource::{Filter, MipFilter, Swizzle, Wrap};
    use crate::test_support::xorshift;

    /// The direct path's words for one quad of `op` (coordinates `s`, `t`, LODs `lod` as
    /// words), binding the view and sampler afresh; `None` where it leaves the quad to the
    /// general path.
    fn direct_words(
        op: DirectOp,
        (view, sampler): (&SamplerView, &SamplerState),
        frag: bool,
        sview_swizzle: [u8; 4],
        [s, t, lod]: [[u32; 4]; 3],
    ) -> Option<[[u32; 4]; 4]> {
        let mut prepared = Prepared::default();
        Direct::bind(op, view, sampler, false, frag, sview_swizzle, &mut prepared)
            .expect("the direct path reads the view")
            .quad(s, t, lod)
    }

    /// `execute_prepared`'s words for `opcode` on a 2-D `view` with `sampler` and the
    /// quad's sources `srcs`, channel-major as [`Direct::quad`] gives them.
    fn general_words(
        opcode: Opcode,
        (view, sampler): (&SamplerView, &SamplerState),
        srcs: &[[[u32; 4]; 4]],
        implicit_lod: bool,
        sview_swizzle: [u8; 4],
    ) -> [[u32; 4]; 4] {
        let req = TexRequest {
            opcode,
            target: TextureTarget::Tex2D,
            srcs,
            offsets: [0; 3],
            view: Some(view),
            sampler: Some(sampler),
            seamless_cube_map: false,
            implicit_lod,
            sview_swizzle,
        };
        let want = execute_prepared(&req, &mut Prepared::default());
        std::array::from_fn(|c| std::array::from_fn(|j| want[j][c]))
    }

    /// Every quad the direct path takes gives `execute_prepared`'s words: each opcode, wrap
    /// mode, mip filter, view swizzle and SVIEW swizzle, with implicit, biased and explicit
    /// LODs per lane (the same level or not), at coordinates inside, around and far outside
    /// the texture; and it takes most of them.
    #[test]
    fn direct_quads_equal_the_general_path() {
        let mut next = xorshift(0x9e37_79b9);
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
            let mut view = SamplerView::whole(&res);
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
                            let bound = (&view, &sampler);
                            let quad = [words(s), words(t), words(lod)];
                            total += 1;
                            let Some(got) = direct_words(op, bound, true, sview_swizzle, quad)
                            else {
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
                            let want = general_words(opcode, bound, &srcs, true, sview_swizzle);
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

    /// Every quad the native kernel samples (`Compiled::sample_quad`) gives
    /// `execute_prepared`'s words, for each level rule (the power-of-two trilinear one,
    /// the general linear one, no mip filter), wrap mode and LOD kind, at coordinates
    /// inside, around and far outside the texture (NaN, infinities, tiny negatives, tile
    /// seams of a 256-texel REPEAT texture, whose footprints softpipe's cache aliases);
    /// and on a CPU with AVX2 it takes most of them.
    #[test]
    fn kernel_quads_equal_the_general_path() {
        let mut next = xorshift(0x2545_f491);
        let mut unit = move || (next() >> 8) as f32 / (1 << 24) as f32;
        let specials = [f32::NAN, f32::INFINITY, -1e-10, -5e-10, 4e6, -0.0];
        let (mut taken, mut total) = (0u32, 0u32);
        for (format, w, h, levels) in [
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 256, 64, 9),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 48, 20, 5),
        ] {
            let res = resource(format, w, h, levels, w * 5 + h);
            let view = SamplerView::whole(&res);
            for wrap in [Wrap::Repeat, Wrap::MirrorRepeat, Wrap::ClampToEdge] {
                for mip in [MipFilter::None, MipFilter::Linear] {
                    let sampler = SamplerState {
                        wrap: [wrap; 3],
                        min_img_filter: Filter::Linear,
                        mag_img_filter: Filter::Linear,
                        min_mip_filter: mip,
                        lod_bias: 0.25,
                        min_lod: 0.5,
                        max_lod: 6.5,
                        ..SamplerState::default()
                    };
                    for opcode in [Opcode::TEX, Opcode::TXB, Opcode::TXL, Opcode::TEX_LZ] {
                        let op = DirectOp::new(opcode, TextureTarget::Tex2D).unwrap();
                        let mut prepared = Prepared::default();
                        let direct = Direct::bind(
                            op,
                            &view,
                            &sampler,
                            false,
                            true,
                            [0, 1, 2, 3],
                            &mut prepared,
                        )
                        .expect("the direct path reads the view");
                        // REPEAT on sides not a power of two is not of the compiled kind.
                        let pot = w.is_power_of_two() && h.is_power_of_two();
                        let Some(compiled) = direct.compiled() else {
                            assert!(
                                !pot && wrap == Wrap::Repeat,
                                "{format} {wrap:?} {mip:?} {opcode:?}"
                            );
                            continue;
                        };
                        for k in 0..300 {
                            let spread = [0.001, 0.02, 0.2][k % 3];
                            let base = [unit() * 3.0 - 1.0, unit() * 3.0 - 1.0];
                            let mut s: [f32; 4] =
                                std::array::from_fn(|_| base[0] + unit() * spread);
                            let mut t: [f32; 4] =
                                std::array::from_fn(|_| base[1] + unit() * spread);
                            if k % 10 == 0 {
                                s[k / 10 % 4] = specials[k / 40 % specials.len()];
                            }
                            if k % 7 == 0 {
                                // On a seam between tiles and across the wrap.
                                t = t.map(|t| (t * 8.0).round() / 8.0 + unit() * 0.004 - 0.002);
                            }
                            let lod: [f32; 4] = if k % 2 == 0 {
                                [unit() * 9.0 - 2.0; 4]
                            } else {
                                std::array::from_fn(|_| unit() * 9.0 - 2.0)
                            };
                            let words = |v: [f32; 4]| v.map(f32::to_bits);
                            total += 1;
                            let Some(got) =
                                compiled.sample_quad(op.lod(), words(s), words(t), words(lod))
                            else {
                                continue;
                            };
                            taken += 1;
                            let mut srcs = [[[0u32; 4]; 4]; 1];
                            for j in 0..4 {
                                srcs[0][j] = [s[j].to_bits(), t[j].to_bits(), 0, lod[j].to_bits()];
                            }
                            let want =
                                general_words(opcode, (&view, &sampler), &srcs, true, [0, 1, 2, 3]);
                            assert_eq!(
                                got, want,
                                "{format} {wrap:?} {mip:?} {opcode:?} s {s:?} t {t:?} lod {lod:?}"
                            );
                        }
                    }
                }
            }
        }
        if matches!(crate::isa::Isa::host(), crate::isa::Isa::Avx2(_)) {
            assert!(taken * 2 > total, "the kernel took {taken} of {total}");
        } else {
            assert_eq!(taken, 0, "the kernel needs AVX2");
            eprintln!(
                "no AVX2 on this CPU (or TGSI_EXEC_ISA=baseline): the native kernel is not run"
            );
        }
    }

    /// Every TXF and TXF_LZ quad the direct path takes gives `execute_prepared`'s words:
    /// RGBA and BGRA views of some levels, swizzled or not, with integer coordinates and
    /// LODs inside, around and far outside the levels (the level from lane 0's LOD); and
    /// it takes them all.
    #[test]
    fn direct_fetches_equal_the_general_path() {
        let mut next = xorshift(0x1234_5678);
        let (mut taken, mut total) = (0u32, 0u32);
        for (round, (format, w, h, levels)) in [
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 64, 64, 7),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 48, 20, 5),
            ("PIPE_FORMAT_A8B8G8R8_UNORM", 5, 3, 3),
        ]
        .into_iter()
        .enumerate()
        {
            let res = resource(format, w, h, levels, w * 3 + h);
            let mut view = SamplerView::whole(&res);
            (view.first_level, view.last_level) = [(0, levels - 1), (1, 2), (2, 2)][round];
            if round == 1 {
                view.swizzle = [Swizzle::Z, Swizzle::One, Swizzle::X, Swizzle::Zero];
            }
            // A sampler the filtering path would not take: fetches ignore it.
            let sampler = SamplerState {
                wrap: [Wrap::ClampToBorder; 3],
                ..SamplerState::default()
            };
            for opcode in [Opcode::TXF, Opcode::TXF_LZ] {
                let op = DirectOp::new(opcode, TextureTarget::Tex2D).unwrap();
                for k in 0..200 {
                    let range = [4, 80, 1 << 30][k % 3];
                    let mut int = || (next() % (2 * range)) as i32 - range as i32;
                    let s: [i32; 4] = std::array::from_fn(|_| int());
                    let t: [i32; 4] = std::array::from_fn(|_| int());
                    let lod: [i32; 4] = std::array::from_fn(|_| (next() % 12) as i32 - 3);
                    let lod = if k % 17 == 0 { [i32::MAX; 4] } else { lod };
                    let words = |v: [i32; 4]| v.map(|x| x as u32);
                    let bound = (&view, &sampler);
                    let quad = [words(s), words(t), words(lod)];
                    total += 1;
                    let Some(got) = direct_words(op, bound, false, [0, 1, 2, 3], quad) else {
                        continue;
                    };
                    taken += 1;
                    let src: [[u32; 4]; 4] =
                        std::array::from_fn(|j| [s[j] as u32, t[j] as u32, 0, lod[j] as u32]);
                    let want = general_words(opcode, bound, &[src], false, [0, 1, 2, 3]);
                    assert_eq!(got, want, "{format} {opcode:?} s {s:?} t {t:?} lod {lod:?}");
                }
            }
        }
        assert_eq!(taken, total, "the direct path took {taken} of {total}");
    }
}
