//! Texture sampling compiled, as llvmpipe compiles its sampler: TEX and TXB (fragment
//! shaders), TXL and TEX_LZ on 2-D targets with direct slots and no texel offsets, where the bound
//! view and sampler are of a kind `tgsi_exec::texture::Compiled` describes (an RGBA8-like
//! texture, linear filters, the linear mip filter or none, REPEAT on power-of-two sides,
//! MIRROR_REPEAT or CLAMP_TO_EDGE, identity swizzle) — the commonest sampling there is.
//!
//! A kernel samples one quad in vectors of its four lanes. Kernels are Cranelift functions
//! specialised for the way the LOD is given, the level rule and the wrap modes ([`Key`]),
//! compiled on first use and kept for the rest of the process, so programs share them and
//! a shader's own code does not grow: its texture instructions call the host as before
//! (`runtime::texture`), which hands each quad to the kernel of the instruction's binding
//! ([`TexDesc`], described for every call from the bindings of the moment) before the
//! interpreter's sampling. A kernel follows the steps `Compiled` lists, operation for
//! operation, so its results are the interpreter's bit for bit; a quad where a step would
//! leave them (a coordinate past 2²¹ texels or just below 0, where `util_ifloor` is not
//! `floor`; an index outside its level; a footprint wrapping on a side longer than one
//! cache tile; lanes of one quad on different levels) makes it return 1 before reading
//! any texel, and the interpreter samples that quad.

use crate::lanes::LaneOps;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F32X4, I32, I32X4, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, Function, InstBuilder, MemFlagsData, Signature, Type, UserFuncName, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use std::cell::RefCell;
use std::mem::offset_of;
use std::rc::Rc;
use std::sync::Mutex;
use tgsi::{Opcode, Processor, TextureTarget};
use tgsi_exec::compile::Inst;
use tgsi_exec::texture::{AxisWrap, Compiled, Direct, LevelRule, COMPILED_LEVELS};
use tgsi_exec::Program;

/// One level of a [`TexDesc`].
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub(crate) struct TexLevel {
    first: u32,
    row: u32,
    width: u32,
    height: u32,
}

/// The binding of an instruction sampled inline, for one call.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct TexDesc {
    /// The kernel for the binding, or none: the host samples.
    kernel: Option<Kernel>,
    first_level: u32,
    last_level: u32,
    lod_bias: f32,
    min_lod: f32,
    max_lod: f32,
    size: [f32; 2],
    shifts: [u32; 4],
    words: *const u32,
    levels: [TexLevel; COMPILED_LEVELS],
}

impl TexDesc {
    /// The description of a compiled binding sampled with LODs `how` (its words stay the
    /// texture's while the bindings it came from live); off when no kernel compiles.
    pub fn of(c: &Compiled, how: Lod) -> TexDesc {
        let key = Key {
            lod: how,
            rule: c.rule,
            wrap: c.wrap,
        };
        TexDesc {
            kernel: kernel(key),
            first_level: c.first_level,
            last_level: c.last_level,
            lod_bias: c.lod_bias,
            min_lod: c.min_lod,
            max_lod: c.max_lod,
            size: c.size,
            shifts: c.shifts,
            words: c.words.as_ptr().cast(),
            levels: c.levels.map(|l| TexLevel {
                first: l.first,
                row: l.row,
                width: l.width,
                height: l.height,
            }),
        }
    }
}

/// Byte offsets of [`TexDesc`] fields.
mod at {
    use super::*;
    pub const FIRST_LEVEL: i32 = offset_of!(TexDesc, first_level) as i32;
    pub const LAST_LEVEL: i32 = offset_of!(TexDesc, last_level) as i32;
    pub const LOD_BIAS: i32 = offset_of!(TexDesc, lod_bias) as i32;
    pub const MIN_LOD: i32 = offset_of!(TexDesc, min_lod) as i32;
    pub const MAX_LOD: i32 = offset_of!(TexDesc, max_lod) as i32;
    pub const SIZE: i32 = offset_of!(TexDesc, size) as i32;
    pub const SHIFTS: i32 = offset_of!(TexDesc, shifts) as i32;
    pub const WORDS: i32 = offset_of!(TexDesc, words) as i32;
    pub const LEVELS: i32 = offset_of!(TexDesc, levels) as i32;
    pub const LEVEL_BYTES: i64 = size_of::<TexLevel>() as i64;
    pub const L_FIRST: i32 = offset_of!(TexLevel, first) as i32;
    pub const L_ROW: i32 = offset_of!(TexLevel, row) as i32;
    pub const L_WIDTH: i32 = offset_of!(TexLevel, width) as i32;
    pub const L_HEIGHT: i32 = offset_of!(TexLevel, height) as i32;
}

/// How a texture instruction gets its LOD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Lod {
    /// TEX: from the quad.
    Implicit,
    /// TXL: the fourth coordinate, per lane.
    Explicit,
    /// TXB: from the quad, plus the fourth coordinate per lane.
    Bias,
    /// TEX_LZ: zero.
    Zero,
}

/// How texture instruction `inst` of `program` gets its LOD, if a kernel may sample it
/// (whether one does depends on its operands and bindings: `Machine::compiled_sampler`).
pub(crate) fn kernel_lod(program: &Program, inst: &Inst) -> Option<Lod> {
    let tex = inst.tex.as_deref()?;
    if tex.target != TextureTarget::Tex2D {
        return None;
    }
    match inst.opcode {
        Opcode::TEX if program.processor == Processor::Fragment => Some(Lod::Implicit),
        Opcode::TXB if program.processor == Processor::Fragment => Some(Lod::Bias),
        Opcode::TXL => Some(Lod::Explicit),
        Opcode::TEX_LZ => Some(Lod::Zero),
        _ => None,
    }
}

/// The texture instructions of `program` a kernel may sample, with their LODs.
pub(crate) fn kernel_instructions(program: &Program) -> Vec<(usize, Lod)> {
    (0..program.insts.len())
        .filter_map(|pc| Some((pc, kernel_lod(program, &program.insts[pc])?)))
        .collect()
}

/// The description of a bound instruction sampled with LODs `how`, if it is of the
/// compiled kind and its kernel compiles. The thread remembers the last few (by the
/// binding's number, which names one view and sampler for the rest of the process), so a
/// draw's waves describe each binding once.
pub(crate) fn describe(direct: Direct, how: Lod) -> Option<Rc<TexDesc>> {
    const KEEP: usize = 32;
    type Known = Vec<(u64, Lod, Option<Rc<TexDesc>>)>;
    thread_local! {
        static KNOWN: RefCell<Known> = const { RefCell::new(Vec::new()) };
    }
    let binding = direct.binding();
    KNOWN.with_borrow_mut(|known| {
        if let Some((_, _, desc)) = known.iter().find(|(b, h, _)| *b == binding && *h == how) {
            return desc.clone();
        }
        let desc = direct.compiled().map(|c| Rc::new(TexDesc::of(&c, how)));
        if known.len() == KEEP {
            known.remove(0);
        }
        known.push((binding, how, desc.clone()));
        desc
    })
}

/// Sample the quads of a wave with a lane in `active` (bit `l`: lane `l`) through the
/// kernel of `desc`, from the lanes' words of s, t and the explicit LOD; `put(base,
/// result)` takes each quad's results (`[channel][lane]`). Returns the quads done (bit q:
/// lanes `4q..4q + 4`); the others need the interpreter.
pub(crate) fn sample_quads(
    desc: &TexDesc,
    s: &[u32],
    t: &[u32],
    lod: &[u32],
    active: u64,
    mut put: impl FnMut(usize, &[[u32; 4]; 4]),
) -> u64 {
    let Some(kernel) = desc.kernel else {
        return 0;
    };
    let mut done = 0;
    for (q, base) in (0..s.len().min(t.len()).min(lod.len()) / 4).map(|q| (q, 4 * q)) {
        if (active >> base) & 0xf == 0 {
            continue;
        }
        let mut io = [0u32; IO_WORDS];
        io[0..4].copy_from_slice(&s[base..base + 4]);
        io[4..8].copy_from_slice(&t[base..base + 4]);
        io[8..12].copy_from_slice(&lod[base..base + 4]);
        // SAFETY: `desc` was described from bindings alive for the call, and `io` holds the
        // words a kernel reads and writes.
        if unsafe { kernel(desc, io.as_mut_ptr()) } != 0 {
            continue;
        }
        let r: [[u32; 4]; 4] = std::array::from_fn(|c| {
            let at = IO_OUT + 4 * c;
            [io[at], io[at + 1], io[at + 2], io[at + 3]]
        });
        put(base, &r);
        done |= 1 << q;
    }
    done
}

/// A bilinear footprint: the word indices of its four texels (`lerp_2d` order) and the
/// weights (`i32x4`, `f32x4`).
struct Footprint {
    at: [Value; 4],
    wx: Value,
    wy: Value,
}

/// Emits the sampling of one quad (lanes 0–3 of the vectors: top-left, top-right,
/// bottom-left, bottom-right) with the binding `desc` points to (which must be on):
/// coordinates `s`, `t` and the explicit LOD `lod` as words. Branches to `fallback` where
/// the quad needs the interpreter; returns the four result channels as words.
struct QuadSampler<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    ptr: Type,
    key: Key,
    desc: Value,
    fallback: Block,
}

impl QuadSampler<'_, '_> {
    fn mem() -> MemFlagsData {
        MemFlagsData::trusted()
    }

    fn load(&mut self, ty: Type, offset: i32) -> Value {
        self.b.ins().load(ty, Self::mem(), self.desc, offset)
    }

    fn fconst(&mut self, x: f32) -> Value {
        self.b.ins().f32const(x)
    }

    fn fsplat(&mut self, x: f32) -> Value {
        let c = self.fconst(x);
        self.b.ins().splat(F32X4, c)
    }

    /// `a > b ? a : b` (scalars).
    fn max2(&mut self, a: Value, b: Value) -> Value {
        let gt = self.b.ins().fcmp(FloatCC::GreaterThan, a, b);
        self.b.ins().select(gt, a, b)
    }

    /// `x > lo ? (x > hi ? hi : x) : lo` (vectors).
    fn clampf(&mut self, x: Value, lo: Value, hi: Value) -> Value {
        let above_hi = self.b.ins().fcmp(FloatCC::GreaterThan, x, hi);
        let capped = self.b.ins().bitselect(above_hi, hi, x);
        let above_lo = self.b.ins().fcmp(FloatCC::GreaterThan, x, lo);
        self.b.ins().bitselect(above_lo, capped, lo)
    }

    /// Continue in a new block unless `bad` (an `i8`), else go to the fallback.
    fn unless(&mut self, bad: Value) {
        let next = self.b.create_block();
        self.b.ins().brif(bad, self.fallback, &[], next, &[]);
        self.b.switch_to_block(next);
        self.b.seal_block(next);
    }

    /// `util_fast_log2(x)` of a scalar.
    fn fast_log2(&mut self, x: Value) -> Value {
        let b = &mut *self.b;
        let bits = b.ins().bitcast(I32, MemFlagsData::new(), x);
        let e = b.ins().band_imm_s(bits, 0x7f80_0000);
        let e = b.ins().ushr_imm_u(e, 23);
        let e = b.ins().iadd_imm_s(e, -127);
        let e = b.ins().fcvt_from_sint(F32, e);
        let m = b.ins().band_imm_s(bits, 0x007f_ffff);
        let m = b.ins().iadd_imm_s(m, 1 << 14);
        let index = b.ins().ushr_imm_u(m, 15);
        let index = b.ins().uextend(I64, index);
        let offset = b.ins().imul_imm_s(index, 4);
        let table = tgsi::sampler::fast_log2_table().as_ptr() as i64;
        let table = b.ins().iconst(self.ptr, table);
        let addr = b.ins().iadd(table, offset);
        let t = b
            .ins()
            .load(F32, MemFlagsData::trusted().with_readonly(), addr, 0);
        b.ins().fadd(e, t)
    }

    /// The quad's LODs (`f32x4`) after the bias and the clamp.
    fn lods(&mut self, how: Lod, s: Value, t: Value, lod: Value) -> Value {
        let bias = self.load(F32, at::LOD_BIAS);
        let raw = match how {
            Lod::Implicit | Lod::Bias => {
                let (sf, tf) = (self.b.f(s), self.b.f(t));
                let w = self.load(F32, at::SIZE);
                let h = self.load(F32, at::SIZE + 4);
                let mut m = [w, h];
                for (k, c) in [sf, tf].into_iter().enumerate() {
                    let tl = self.b.ins().extractlane(c, 0);
                    let bl = self.b.ins().extractlane(c, 2);
                    let br = self.b.ins().extractlane(c, 3);
                    let dx = self.b.ins().fsub(br, bl);
                    let dy = self.b.ins().fsub(tl, bl);
                    let (dx, dy) = (self.b.ins().fabs(dx), self.b.ins().fabs(dy));
                    let most = self.max2(dx, dy);
                    m[k] = self.b.ins().fmul(most, m[k]);
                }
                let rho = self.max2(m[0], m[1]);
                let lambda = self.fast_log2(rho);
                let l = self.b.ins().fadd(lambda, bias);
                let l = self.b.ins().splat(F32X4, l);
                if how == Lod::Bias {
                    let per_lane = self.b.f(lod);
                    self.b.ins().fadd(l, per_lane)
                } else {
                    l
                }
            }
            Lod::Explicit => {
                let l = self.b.f(lod);
                let bias = self.b.ins().splat(F32X4, bias);
                self.b.ins().fadd(l, bias)
            }
            Lod::Zero => self.b.ins().splat(F32X4, bias),
        };
        let lo = self.load(F32, at::MIN_LOD);
        let hi = self.load(F32, at::MAX_LOD);
        let (lo, hi) = (self.b.ins().splat(F32X4, lo), self.b.ins().splat(F32X4, hi));
        self.clampf(raw, lo, hi)
    }

    /// The levels sampled (`i32` scalars, the same one twice for a single level), the
    /// weight of the second (`f32x4`) and whether the quad needs the interpreter (an
    /// `i8`: lanes on different levels, or a level outside the description).
    fn levels(&mut self, lods: Value) -> (Value, Value, Value, Value) {
        let first = self.load(I32, at::FIRST_LEVEL);
        let last = self.load(I32, at::LAST_LEVEL);
        let first_v = self.b.ins().splat(I32X4, first);
        let last_v = self.b.ins().splat(I32X4, last);
        let zero = self.fsplat(0.0);
        let lods_w = self.b.w(lods);
        let whole = self.b.f2i(lods_w);
        let level0 = self.b.ins().iadd(whole, first_v);
        let one = self.b.splat_word(1);
        let level1 = self.b.ins().iadd(level0, one);
        let floor = self.b.ins().floor(lods);
        let frac = self.b.ins().fsub(lods, floor);
        let frac = self.b.w(frac);
        let zero_w = self.b.w(zero);
        // Per lane: the pair to blend, and where it is one level instead.
        let (lo, hi, w) = match self.key.rule {
            LevelRule::Pot => {
                let blend = self.b.ins().icmp(IntCC::UnsignedLessThan, level0, last_v);
                let zero_i = self.b.splat_word(0);
                let below = self.b.ins().icmp(IntCC::SignedLessThan, level0, zero_i);
                let single = self.b.ins().bitselect(below, first_v, last_v);
                (
                    self.b.ins().bitselect(blend, level0, single),
                    self.b.ins().bitselect(blend, level1, single),
                    self.b.ins().bitselect(blend, frac, zero_w),
                )
            }
            LevelRule::Linear => {
                let magnify = self.b.ins().fcmp(FloatCC::LessThanOrEqual, lods, zero);
                let top = self
                    .b
                    .ins()
                    .icmp(IntCC::SignedGreaterThanOrEqual, level0, last_v);
                let lo = self.b.ins().bitselect(top, last_v, level0);
                let hi = self.b.ins().bitselect(top, last_v, level1);
                let single = self.b.ins().bor(magnify, top);
                (
                    self.b.ins().bitselect(magnify, first_v, lo),
                    self.b.ins().bitselect(magnify, first_v, hi),
                    self.b.ins().bitselect(single, zero_w, frac),
                )
            }
            LevelRule::First => (first_v, first_v, zero_w),
        };
        let lo0 = self.b.ins().extractlane(lo, 0);
        let hi0 = self.b.ins().extractlane(hi, 0);
        let mut bad = self.b.ins().icmp(IntCC::UnsignedGreaterThan, hi0, last);
        let lo_out = self.b.ins().icmp(IntCC::UnsignedGreaterThan, lo0, last);
        bad = self.b.ins().bor(bad, lo_out);
        if matches!(self.key.lod, Lod::Explicit | Lod::Bias) {
            // Every lane on the levels of lane 0 (else the interpreter's per-lane path).
            let lo_s = self.b.ins().splat(I32X4, lo0);
            let hi_s = self.b.ins().splat(I32X4, hi0);
            let same_lo = self.b.ins().icmp(IntCC::Equal, lo, lo_s);
            let same_hi = self.b.ins().icmp(IntCC::Equal, hi, hi_s);
            let same = self.b.ins().band(same_lo, same_hi);
            let all = self.b.ins().vall_true(same);
            let differ = self.b.ins().icmp_imm_s(IntCC::Equal, all, 0);
            bad = self.b.ins().bor(bad, differ);
        }
        let w = self.b.f(w);
        (lo0, hi0, w, bad)
    }

    /// Lanes (an `i32x4` mask) where `ifloor(x)` may not be `floor(x)`: `|x| ≥ 2²¹`, NaN,
    /// or `x` in `(−2⁻²⁰, 0)`.
    fn not_floor(&mut self, x: Value) -> Value {
        let zero = self.fsplat(0.0);
        let abs = self.b.ins().fabs(x);
        let limit = self.fsplat(2_097_152.0);
        let small = self.b.ins().fcmp(FloatCC::LessThan, abs, limit);
        let negative = self.b.ins().fcmp(FloatCC::LessThan, x, zero);
        let tiny = self.fsplat(-1.0 / 1_048_576.0);
        let near = self.b.ins().fcmp(FloatCC::GreaterThan, x, tiny);
        let tiny_negative = self.b.ins().band(negative, near);
        let ok = self.b.ins().band_not(small, tiny_negative);
        self.b.ins().bnot(ok)
    }

    /// `floor(x)` as a float and as an integer.
    fn floor(&mut self, x: Value) -> (Value, Value) {
        let f = self.b.ins().floor(x);
        (f, self.b.ins().fcvt_to_sint_sat(I32X4, f))
    }

    /// `c ? x : y` on lanes, `c` an `i32x4` mask.
    fn pick(&mut self, c: Value, x: Value, y: Value) -> Value {
        self.b.ins().bitselect(c, x, y)
    }

    /// One axis at a level of `size` texels: both texel indices (`i32x4`), the weight of
    /// the second (`f32x4`), and the lanes that need the interpreter (an `i32x4` mask).
    fn axis(&mut self, wrap: AxisWrap, coord: Value, size: Value) -> (Value, Value, Value, Value) {
        let cf = self.b.f(coord);
        let size_f = self.b.ins().fcvt_from_uint(F32, size);
        let size_v = self.b.ins().splat(F32X4, size_f);
        let size_i = self.b.ins().splat(I32X4, size);
        let last = self.b.ins().iadd_imm_s(size, -1);
        let last_v = self.b.ins().splat(I32X4, last);
        let half = self.fsplat(0.5);
        let zero = self.fsplat(0.0);
        let one_f = self.fsplat(1.0);
        let one = self.b.splat_word(1);
        let zero_i = self.b.splat_word(0);
        let (i0, i1, w, mut bad) = match wrap {
            AxisWrap::RepeatPot => {
                let scaled = self.b.ins().fmul(cf, size_v);
                let u = self.b.ins().fsub(scaled, half);
                let u = self.b.ins().fadd(u, zero);
                let bad = self.not_floor(u);
                let (fl, fi) = self.floor(u);
                let i0 = self.b.ins().band(fi, last_v);
                let next = self.b.ins().iadd(i0, one);
                let i1 = self.b.ins().band(next, last_v);
                let w = self.b.ins().fsub(u, fl);
                // A footprint wrapping on a side of more than one cache tile may alias.
                let wraps = self.b.ins().icmp(IntCC::Equal, i0, last_v);
                let long = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedGreaterThan, size, 32);
                let long = self.b.ins().sextend(I32, long);
                let long = self.b.ins().ineg(long);
                let long_v = self.b.ins().splat(I32X4, long);
                let risky = self.b.ins().band(wraps, long_v);
                let bad = self.b.ins().bor(bad, risky);
                (i0, i1, w, bad)
            }
            AxisWrap::MirrorRepeat => {
                let s = self.b.ins().fadd(cf, zero);
                let bad_s = self.not_floor(s);
                let (sfl, sfi) = self.floor(s);
                let parity = self.b.ins().band(sfi, one);
                let even = self.b.ins().icmp(IntCC::Equal, parity, zero_i);
                let f = self.b.ins().fsub(s, sfl);
                let fs = self.b.ins().fmul(f, size_v);
                let ua = self.b.ins().fsub(fs, half);
                let g = self.b.ins().fsub(one_f, f);
                let gs = self.b.ins().fmul(g, size_v);
                let ub = self.b.ins().fadd(gs, half);
                let u = self.pick(even, ua, ub);
                let bad_u = self.not_floor(u);
                let (ufl, i0) = self.floor(u);
                let up = self.b.ins().iadd(i0, one);
                let down = self.b.ins().isub(i0, one);
                let i1 = self.pick(even, up, down);
                let neg = self.b.ins().icmp(IntCC::SignedLessThan, i0, zero_i);
                let i0 = self.pick(neg, up, i0);
                let over = self
                    .b
                    .ins()
                    .icmp(IntCC::SignedGreaterThanOrEqual, i0, size_i);
                let i0 = self.pick(over, last_v, i0);
                let over = self
                    .b
                    .ins()
                    .icmp(IntCC::SignedGreaterThanOrEqual, i1, size_i);
                let i1 = self.pick(over, last_v, i1);
                let neg = self.b.ins().icmp(IntCC::SignedLessThan, i1, zero_i);
                let i1_up = self.b.ins().iadd(i1, one);
                let i1 = self.pick(neg, i1_up, i1);
                let wa = self.b.ins().fsub(u, ufl);
                let v = self.b.ins().fsub(one_f, u);
                let vfl = self.b.ins().floor(v);
                let wb = self.b.ins().fsub(v, vfl);
                let w = self.pick(even, wa, wb);
                let bad = self.b.ins().bor(bad_s, bad_u);
                (i0, i1, w, bad)
            }
            AxisWrap::ClampToEdge => {
                let scaled = self.b.ins().fmul(cf, size_v);
                let x = self.b.ins().fadd(scaled, zero);
                let above = self.b.ins().fcmp(FloatCC::GreaterThan, x, size_v);
                let capped = self.pick(above, size_v, x);
                let positive = self.b.ins().fcmp(FloatCC::GreaterThan, x, zero);
                let c = self.pick(positive, capped, zero);
                let u = self.b.ins().fsub(c, half);
                let bad = self.not_floor(u);
                let (ufl, i0) = self.floor(u);
                let i1 = self.b.ins().iadd(i0, one);
                let neg = self.b.ins().icmp(IntCC::SignedLessThan, i0, zero_i);
                let i0 = self.pick(neg, zero_i, i0);
                let over = self
                    .b
                    .ins()
                    .icmp(IntCC::SignedGreaterThanOrEqual, i1, size_i);
                let i1 = self.pick(over, last_v, i1);
                let w = self.b.ins().fsub(u, ufl);
                (i0, i1, w, bad)
            }
        };
        // Every index inside the level (as unsigned numbers, so negatives fail too).
        for i in [i0, i1] {
            let outside = self
                .b
                .ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, i, size_i);
            bad = self.b.ins().bor(bad, outside);
        }
        (i0, i1, w, bad)
    }

    /// The four words at the word indices of `at` (`i32x4`).
    fn gather(&mut self, words: Value, at: Value) -> Value {
        let mut v = None;
        for j in 0..4u8 {
            let i = self.b.ins().extractlane(at, j);
            let i = self.b.ins().uextend(I64, i);
            let off = self.b.ins().ishl_imm_u(i, 2);
            let addr = self.b.ins().iadd(words, off);
            let w = self.b.ins().load(I32, MemFlagsData::trusted(), addr, 0);
            v = Some(match v {
                None => self.b.ins().scalar_to_vector(I32X4, w),
                Some(v) => self.b.ins().insertlane(v, w, j),
            });
        }
        v.expect("four lanes")
    }

    /// The bilinear footprints of the quad at `level` (an `i32` scalar), with the lanes
    /// that need the interpreter (an `i32x4` mask).
    fn footprint(&mut self, s: Value, t: Value, level: Value) -> (Footprint, Value) {
        let l = self.b.ins().uextend(I64, level);
        let l = self.b.ins().imul_imm_s(l, at::LEVEL_BYTES);
        let entry = self.b.ins().iadd(self.desc, l);
        let mem = Self::mem();
        let first = self.b.ins().load(I32, mem, entry, at::LEVELS + at::L_FIRST);
        let row = self.b.ins().load(I32, mem, entry, at::LEVELS + at::L_ROW);
        let width = self.b.ins().load(I32, mem, entry, at::LEVELS + at::L_WIDTH);
        let height = self
            .b
            .ins()
            .load(I32, mem, entry, at::LEVELS + at::L_HEIGHT);
        let (x0, x1, wx, bad_x) = self.axis(self.key.wrap[0], s, width);
        let (y0, y1, wy, bad_y) = self.axis(self.key.wrap[1], t, height);
        let bad = self.b.ins().bor(bad_x, bad_y);
        let row_v = self.b.ins().splat(I32X4, row);
        let first_v = self.b.ins().splat(I32X4, first);
        let r0 = self.b.ins().imul(y0, row_v);
        let r0 = self.b.ins().iadd(r0, first_v);
        let r1 = self.b.ins().imul(y1, row_v);
        let r1 = self.b.ins().iadd(r1, first_v);
        let at = [(r0, x0), (r0, x1), (r1, x0), (r1, x1)].map(|(r, x)| self.b.ins().iadd(r, x));
        (Footprint { at, wx, wy }, bad)
    }

    /// The bilinear samples of a footprint, four `f32x4` channels.
    fn bilinear(&mut self, f: &Footprint, shifts: [Value; 4]) -> [Value; 4] {
        let words = self.load(self.ptr, at::WORDS);
        let texels = f.at.map(|i| self.gather(words, i));
        let byte = self.b.splat_word(0xff);
        let scale = self.fsplat(1.0 / 255.0);
        shifts.map(|shift| {
            let [t00, t10, t01, t11] = texels.map(|texel| {
                let v = self.b.ins().ushr(texel, shift);
                let v = self.b.ins().band(v, byte);
                let v = self.b.ins().fcvt_from_sint(F32X4, v);
                self.b.ins().fmul(v, scale)
            });
            let row0 = self.lerp(f.wx, t00, t10);
            let row1 = self.lerp(f.wx, t01, t11);
            self.lerp(f.wy, row0, row1)
        })
    }

    /// `a + w·(b − a)`.
    fn lerp(&mut self, w: Value, a: Value, b: Value) -> Value {
        let d = self.b.ins().fsub(b, a);
        let p = self.b.ins().fmul(w, d);
        self.b.ins().fadd(a, p)
    }

    /// The quad's results, four channels as words (one branch to the fallback, before
    /// any texel is read).
    fn quad(&mut self, s: Value, t: Value, lod: Value) -> [Value; 4] {
        let lods = self.lods(self.key.lod, s, t, lod);
        let (lo, hi, w, bad_levels) = self.levels(lods);
        // The levels first: the footprints read their descriptions.
        self.unless(bad_levels);
        let shifts: [Value; 4] = std::array::from_fn(|c| self.load(I32, at::SHIFTS + 4 * c as i32));
        let (a, bad_a) = self.footprint(s, t, lo);
        // Where every lane's weight is 0, `lerp(0, a, b) = a + 0·(b − a)` is `a` (texels
        // are finite and not −0), so the second level is not read.
        let zero = self.fsplat(0.0);
        let no_weight = self.b.ins().fcmp(FloatCC::Equal, w, zero);
        let one_level = self.b.ins().vall_true(no_weight);
        let (single, pair, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        for _ in 0..4 {
            self.b.append_block_param(done, I32X4);
        }
        self.b.ins().brif(one_level, single, &[], pair, &[]);
        self.b.switch_to_block(single);
        self.b.seal_block(single);
        let bad = self.b.any(bad_a);
        self.unless(bad);
        let r = self.bilinear(&a, shifts);
        let args = r.map(|v| self.b.w(v).into());
        self.b.ins().jump(done, &args);
        self.b.switch_to_block(pair);
        self.b.seal_block(pair);
        let (b, bad_b) = self.footprint(s, t, hi);
        let bad = self.b.ins().bor(bad_a, bad_b);
        let bad = self.b.any(bad);
        self.unless(bad);
        let a = self.bilinear(&a, shifts);
        let b = self.bilinear(&b, shifts);
        let args: [_; 4] = std::array::from_fn(|c| {
            let r = self.lerp(w, a[c], b[c]);
            self.b.w(r).into()
        });
        self.b.ins().jump(done, &args);
        self.b.switch_to_block(done);
        self.b.seal_block(done);
        let params = self.b.block_params(done);
        std::array::from_fn(|c| params[c])
    }
}

/// A sampling kernel: `kernel(desc, io)` samples the quad whose coordinates `s`, `t` and
/// explicit LOD are words `0..4`, `4..8` and `8..12` of `io` with the binding `desc`
/// describes (which must be on) and writes the four result channels to words `12..28`
/// (returning 0), or returns 1 having written nothing when the interpreter must sample
/// the quad.
pub(crate) type Kernel = unsafe extern "C" fn(*const TexDesc, *mut u32) -> i32;

/// Words of a kernel's `io` buffer.
const IO_WORDS: usize = 28;
/// Where a kernel's results start in `io`, in words.
const IO_OUT: usize = 12;

/// What a kernel is specialised for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    lod: Lod,
    rule: LevelRule,
    wrap: [AxisWrap; 2],
}

/// The kernel for `key`, compiled on first use and kept for the rest of the process
/// (`None` if Cranelift cannot compile it for this CPU, and then never).
fn kernel(key: Key) -> Option<Kernel> {
    // Few keys ever occur (at most 3 × 3 × 3 × 3), so a list serves.
    static KERNELS: Mutex<Vec<(Key, Option<Kernel>)>> = Mutex::new(Vec::new());
    let mut kernels = KERNELS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, k)) = kernels.iter().find(|(k, _)| *k == key) {
        return k;
    }
    let k = build_kernel(key).ok();
    kernels.push((key, k));
    k
}

/// Compile the kernel for `key` into a module kept for the rest of the process.
fn build_kernel(key: Key) -> Result<Kernel, String> {
    let isa = crate::isa("backtracking")?;
    let ptr = isa.pointer_type();
    let frontend = isa.frontend_config();
    let mut signature = Signature::new(isa.default_call_conv());
    signature
        .params
        .extend([AbiParam::new(ptr), AbiParam::new(ptr)]);
    signature.returns.push(AbiParam::new(I32));
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    let id = module
        .declare_function("sample_quad", Linkage::Local, &signature)
        .map_err(|e| format!("cranelift: {e}"))?;
    ctx.func = Function::with_name_signature(UserFuncName::user(0, id.as_u32()), signature);
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let (desc, io) = (b.block_params(entry)[0], b.block_params(entry)[1]);
        let fallback = b.create_block();
        let mem = MemFlagsData::trusted();
        let [s, t, lod] = [0, 16, 32].map(|at| b.ins().load(I32X4, mem, io, at));
        let mut q = QuadSampler {
            b: &mut b,
            ptr,
            key,
            desc,
            fallback,
        };
        let out = q.quad(s, t, lod);
        for (c, v) in out.into_iter().enumerate() {
            b.ins().store(mem, v, io, 4 * (IO_OUT + 4 * c) as i32);
        }
        let ok = b.ins().iconst(I32, 0);
        b.ins().return_(&[ok]);
        b.switch_to_block(fallback);
        b.seal_block(fallback);
        let no = b.ins().iconst(I32, 1);
        b.ins().return_(&[no]);
        b.finalize(frontend);
    }
    module
        .define_function(id, &mut ctx)
        .map_err(|e| format!("cranelift could not compile the sampler: {e:?}"))?;
    module.clear_context(&mut ctx);
    module
        .finalize_definitions()
        .map_err(|e| format!("cranelift: {e}"))?;
    let code = module.get_finalized_function(id);
    // The kernel serves every program for the rest of the process.
    std::mem::forget(module);
    // SAFETY: the function was built with the `Kernel` signature in the platform's C
    // calling convention.
    Ok(unsafe { std::mem::transmute::<*const u8, Kernel>(code) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tgsi::Format;
    use tgsi_exec::resource::{
        Filter, MipFilter, Resource, SamplerState, SamplerView, Storage, Swizzle, Target, Wrap,
    };
    use tgsi_exec::texture::{execute_prepared, Direct, DirectOp, Prepared, TexRequest};

    /// A 2-D texture of `format` with every level, bytes from `seed`.
    fn texture(format: &str, w: u32, h: u32, seed: u32) -> Arc<Resource> {
        let levels = 32 - w.max(h).leading_zeros();
        let mut r = Resource {
            target: Target::Tex2D,
            format: Format::from_name(format).expect("format"),
            width0: w,
            height0: h,
            depth0: 1,
            array_size: 1,
            last_level: levels - 1,
            nr_samples: 0,
            data: Storage::zeroed(0),
        };
        let mut x = seed | 1;
        let n = r.layout_bytes(4).expect("layout");
        let bytes: Vec<u8> = (0..n)
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

    /// Every quad a kernel samples gives the interpreter's words: TEX
    /// (implicit LOD from the quad), TXL (per-lane LODs, on one level pair or not) and
    /// TEX_LZ on textures from 1×1 to 256 wide (footprints wrapping across tiles) and of
    /// other sizes, RGBA and BGRA, views of some levels, REPEAT, MIRROR_REPEAT and
    /// CLAMP_TO_EDGE on either axis, the linear mip filter (on power-of-two textures or
    /// not) or none, LOD biases and ranges, at coordinates inside, around and far outside
    /// the texture (NaN, infinities, tiny negatives); and the kernels take most quads.
    #[test]
    fn kernels_give_the_interpreters_words() {
        let mut x = 0x2545_f491u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let (mut taken, mut total, mut bindings) = (0u32, 0u32, 0u32);
        let textures = [
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 64, 64),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 256, 64),
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 1, 1),
            ("PIPE_FORMAT_A8B8G8R8_UNORM", 8, 32),
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 48, 20),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 5, 3),
        ];
        let wraps = [Wrap::Repeat, Wrap::MirrorRepeat, Wrap::ClampToEdge];
        for (round, &(format, w, h)) in textures.iter().cycle().take(54).enumerate() {
            let res = texture(format, w, h, round as u32 + 7);
            let last = res.last_level;
            let first_level = if round % 3 == 2 { last.min(1) } else { 0 };
            let view = SamplerView {
                resource: res.clone(),
                format: res.format,
                target: Target::Tex2D,
                first_level,
                last_level: last - (round as u32 % 2).min(last - first_level),
                first_layer: 0,
                last_layer: 0,
                offset: 0,
                size: 0,
                swizzle: [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
            };
            let mip = [MipFilter::Linear, MipFilter::None][round % 2];
            let wrap = [wraps[round / 6 % 3], wraps[round / 18 % 3], Wrap::Repeat];
            let sampler = SamplerState {
                wrap,
                min_img_filter: Filter::Linear,
                mag_img_filter: Filter::Linear,
                min_mip_filter: mip,
                lod_bias: [0.0, 0.75, -1.5][round % 3],
                min_lod: [0.0, 0.5, -2.0][round / 3 % 3],
                max_lod: [1000.0, 2.25, 0.0][round / 9 % 3],
                ..SamplerState::default()
            };
            let pot = w.is_power_of_two() && h.is_power_of_two();
            for (opcode, how) in [
                (Opcode::TEX, Lod::Implicit),
                (Opcode::TXB, Lod::Bias),
                (Opcode::TXL, Lod::Explicit),
                (Opcode::TEX_LZ, Lod::Zero),
            ] {
                let op = DirectOp::new(opcode, TextureTarget::Tex2D).expect("direct");
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
                .expect("bound");
                let Some(compiled) = direct.compiled() else {
                    // Only REPEAT on other sizes than powers of two is left out here.
                    let repeat = wrap[..2].contains(&Wrap::Repeat);
                    assert!(!pot && repeat, "{format} {w}x{h} {wrap:?}");
                    continue;
                };
                bindings += 1;
                let desc = TexDesc::of(&compiled, how);
                let kernel = desc.kernel.expect("the kernel compiles");
                for k in 0..300 {
                    let mut coord = || -> [f32; 4] {
                        let base = (next() >> 8) as f32 / (1 << 24) as f32 * 4.0 - 2.0;
                        let spread = [0.001, 0.02, 0.3, 3.0][k % 4];
                        std::array::from_fn(|_| {
                            base + (next() >> 8) as f32 / (1 << 24) as f32 * spread
                        })
                    };
                    let (mut s, t) = (coord(), coord());
                    if k % 50 == 7 {
                        s[next() as usize % 4] = [f32::NAN, f32::INFINITY, -1e-9, 3e6][k / 50 % 4];
                    }
                    let lod: [f32; 4] = if k % 2 == 0 {
                        [(next() % 80) as f32 / 8.0 - 2.0; 4]
                    } else {
                        std::array::from_fn(|_| (next() % 80) as f32 / 8.0 - 2.0)
                    };
                    let words = |v: [f32; 4]| v.map(f32::to_bits);
                    let mut io = [0u32; IO_WORDS];
                    io[0..4].copy_from_slice(&words(s));
                    io[4..8].copy_from_slice(&words(t));
                    io[8..12].copy_from_slice(&words(lod));
                    // SAFETY: `desc` describes a live texture and `io` has the words a
                    // kernel reads and writes.
                    let status = unsafe { kernel(&desc, io.as_mut_ptr()) };
                    total += 1;
                    if status != 0 {
                        continue;
                    }
                    taken += 1;
                    // The interpreter's sampling of the quad.
                    let src: [[u32; 4]; 4] = std::array::from_fn(|j| {
                        [s[j].to_bits(), t[j].to_bits(), 0, lod[j].to_bits()]
                    });
                    let req = TexRequest {
                        opcode,
                        target: TextureTarget::Tex2D,
                        srcs: &[src],
                        offsets: [0; 3],
                        view: Some(&view),
                        sampler: Some(&sampler),
                        seamless_cube_map: false,
                        implicit_lod: true,
                        sview_swizzle: [0, 1, 2, 3],
                    };
                    let want = execute_prepared(&req, &mut Prepared::default());
                    let got: [[u32; 4]; 4] =
                        std::array::from_fn(|j| std::array::from_fn(|c| io[IO_OUT + 4 * c + j]));
                    assert_eq!(
                        got, want,
                        "{format} {w}x{h} round {round} {wrap:?} {mip:?} {opcode:?} s {s:?} \
                         t {t:?} lod {lod:?}"
                    );
                }
            }
        }
        assert!(bindings > 100, "{bindings} bindings compiled");
        assert!(
            taken * 10 > total * 7,
            "the kernels took {taken} of {total}"
        );
        // Bindings outside the compiled kind: another wrap mode, a swizzled view.
        let res = texture("PIPE_FORMAT_R8G8B8A8_UNORM", 16, 16, 3);
        let mut view = SamplerView {
            resource: res.clone(),
            format: res.format,
            target: Target::Tex2D,
            first_level: 0,
            last_level: res.last_level,
            first_layer: 0,
            last_layer: 0,
            offset: 0,
            size: 0,
            swizzle: [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
        };
        let clamp = SamplerState {
            wrap: [Wrap::ClampToEdge; 3],
            min_img_filter: Filter::Linear,
            mag_img_filter: Filter::Linear,
            ..SamplerState::default()
        };
        let op = DirectOp::new(Opcode::TEX, TextureTarget::Tex2D).expect("direct");
        let mut prepared = Prepared::default();
        let bound = Direct::bind(op, &view, &clamp, false, true, [0, 1, 2, 3], &mut prepared);
        assert!(bound.expect("bound").compiled().is_none());
        view.swizzle[0] = Swizzle::One;
        let repeat = SamplerState {
            wrap: [Wrap::Repeat; 3],
            ..clamp
        };
        let bound = Direct::bind(op, &view, &repeat, false, true, [0, 1, 2, 3], &mut prepared);
        assert!(bound.expect("bound").compiled().is_none());
    }
}
