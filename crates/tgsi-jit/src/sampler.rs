//! Texture sampling compiled inline, as llvmpipe compiles its sampler: TEX (fragment
//! shaders), TXL and TEX_LZ on 2-D targets with direct slots and no texel offsets, when
//! the bound view and sampler are of the kind `tgsi_exec::texture::Compiled` describes (a
//! power-of-two RGBA8-like texture, REPEAT, linear filters, linear mip filter or none,
//! identity swizzle) — the commonest sampling there is.
//!
//! Bindings change from call to call, code does not: the host describes each such
//! instruction's binding in a [`TexDesc`] before every call (`on` = 0 when it is not of the
//! compiled kind), and the code branches on it: to a sampling kernel, or to the
//! interpreter's sampling of the quad as for any other texture instruction. The kernels,
//! one per way of getting the LOD, are Cranelift functions compiled once per process
//! ([`kernel`]) and shared by every program, so a shader pays a call per quad and
//! instruction, not the kernel's few hundred instructions of code to compile. A kernel
//! follows the steps `Compiled` lists, operation for operation, in vectors of the quad's
//! four lanes, so its results are the interpreter's bit for bit; a quad where a step would
//! leave them (a coordinate past 2²¹ texels or just below 0, where `util_ifloor` is not
//! `floor`; a footprint wrapping on a side longer than one cache tile; lanes of one quad on
//! different levels) makes it return 1 before reading any texel, and the interpreter
//! samples that quad.

use crate::lanes::LaneOps;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F32X4, I32, I32X4, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, Function, InstBuilder, MemFlagsData, Signature, Type, UserFuncName, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use std::mem::offset_of;
use std::sync::OnceLock;
use tgsi::{Opcode, Processor, TextureTarget};
use tgsi_exec::compile::{Inst, SlotOp};
use tgsi_exec::texture::{Compiled, CompiledFilter, COMPILED_LEVELS};
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
    /// 1 when the binding is of the compiled kind; 0 sends the instruction to the host.
    on: u32,
    /// 1: [`CompiledFilter::Trilinear`]; 0: [`CompiledFilter::Bilinear`].
    trilinear: u32,
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
    /// An instruction the host samples.
    pub const OFF: TexDesc = TexDesc {
        on: 0,
        trilinear: 0,
        first_level: 0,
        last_level: 0,
        lod_bias: 0.0,
        min_lod: 0.0,
        max_lod: 0.0,
        size: [0.0; 2],
        shifts: [0; 4],
        words: std::ptr::null(),
        levels: [TexLevel {
            first: 0,
            row: 0,
            width: 0,
            height: 0,
        }; COMPILED_LEVELS],
    };

    /// The description of a compiled binding (its words stay the texture's while the
    /// bindings it came from live).
    pub fn of(c: &Compiled) -> TexDesc {
        TexDesc {
            on: 1,
            trilinear: u32::from(c.filter == CompiledFilter::Trilinear),
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
    pub const ON: i32 = offset_of!(TexDesc, on) as i32;
    pub const TRILINEAR: i32 = offset_of!(TexDesc, trilinear) as i32;
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
    pub const DESC_BYTES: i64 = size_of::<TexDesc>() as i64;
}

/// Bytes of one [`TexDesc`] (the host's table holds one per inline instruction).
pub(crate) const DESC_BYTES: i64 = at::DESC_BYTES;
/// Byte offset of [`TexDesc`]'s `on`.
pub(crate) const DESC_ON: i32 = at::ON;

/// How an inline instruction gets its LOD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lod {
    /// TEX: from the quad.
    Implicit,
    /// TXL: the fourth coordinate, per lane.
    Explicit,
    /// TEX_LZ: zero.
    Zero,
}

/// How instruction `inst` of `program` may be sampled inline, if it may.
pub(crate) fn inline_lod(program: &Program, inst: &Inst) -> Option<Lod> {
    let tex = inst.tex.as_deref()?;
    let direct =
        |s: &Option<SlotOp>| matches!(s, Some(SlotOp { indirect: None, index, .. }) if *index >= 0);
    let view_ok = tex.view.is_none() || direct(&tex.view);
    if tex.target != TextureTarget::Tex2D || !direct(&tex.sampler) || !view_ok {
        return None;
    }
    if tex.offsets.is_some() || inst.dst.len() != 1 {
        return None;
    }
    match inst.opcode {
        Opcode::TEX if program.processor == Processor::Fragment => Some(Lod::Implicit),
        Opcode::TXL => Some(Lod::Explicit),
        Opcode::TEX_LZ => Some(Lod::Zero),
        _ => None,
    }
}

/// The instructions of `program` sampled inline, in order: entry `k` of the host's
/// [`TexDesc`] table describes the `k`-th.
pub(crate) fn inline_instructions(program: &Program) -> Vec<usize> {
    (0..program.insts.len())
        .filter(|&pc| inline_lod(program, &program.insts[pc]).is_some())
        .collect()
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
            Lod::Implicit => {
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
                self.b.ins().splat(F32X4, l)
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
    /// `i8`).
    fn levels(&mut self, how: Lod, lods: Value) -> (Value, Value, Value, Value) {
        let first = self.load(I32, at::FIRST_LEVEL);
        let last = self.load(I32, at::LAST_LEVEL);
        let trilinear = self.load(I32, at::TRILINEAR);
        let lods_w = self.b.w(lods);
        let whole = self.b.f2i(lods_w);
        let first_v = self.b.ins().splat(I32X4, first);
        let level0 = self.b.ins().iadd(whole, first_v);
        let mut bad = self.b.ins().iconst(cranelift_codegen::ir::types::I8, 0);
        if how == Lod::Explicit {
            // Every lane on the level pair of lane 0 (else the interpreter's per-lane path).
            let l0 = self.b.ins().extractlane(level0, 0);
            let l0 = self.b.ins().splat(I32X4, l0);
            let same = self.b.ins().icmp(IntCC::Equal, level0, l0);
            let all = self.b.ins().vall_true(same);
            let differ = self.b.ins().icmp_imm_s(IntCC::Equal, all, 0);
            // Only the trilinear filter looks at the levels.
            let tri = self.b.ins().icmp_imm_s(IntCC::NotEqual, trilinear, 0);
            bad = self.b.ins().band(differ, tri);
        }
        let l0 = self.b.ins().extractlane(level0, 0);
        let blend = self.b.ins().icmp(IntCC::UnsignedLessThan, l0, last);
        let below = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, l0, 0);
        let single = self.b.ins().select(below, first, last);
        let l1 = self.b.ins().iadd_imm_s(l0, 1);
        let lo = self.b.ins().select(blend, l0, single);
        let hi = self.b.ins().select(blend, l1, single);
        let floor = self.b.ins().floor(lods);
        let frac = self.b.ins().fsub(lods, floor);
        let zero = self.fsplat(0.0);
        let w = self.b.ins().select(blend, frac, zero);
        // The bilinear filter: the first level only.
        let tri = self.b.ins().icmp_imm_s(IntCC::NotEqual, trilinear, 0);
        let lo = self.b.ins().select(tri, lo, first);
        let hi = self.b.ins().select(tri, hi, first);
        let w = self.b.ins().select(tri, w, zero);
        (lo, hi, w, bad)
    }

    /// One axis at a level of `size` texels: both texel indices (`i32x4`), the weight of the
    /// second (`f32x4`), and the lanes that need the interpreter (an `i32x4` mask).
    fn axis(&mut self, coord: Value, size: Value) -> (Value, Value, Value, Value) {
        let cf = self.b.f(coord);
        let size_f = self.b.ins().fcvt_from_uint(F32, size);
        let size_v = self.b.ins().splat(F32X4, size_f);
        let half = self.fsplat(0.5);
        let zero = self.fsplat(0.0);
        let scaled = self.b.ins().fmul(cf, size_v);
        let u = self.b.ins().fsub(scaled, half);
        let u = self.b.ins().fadd(u, zero);
        // util_ifloor is floor for |u| < 2^21 outside (-2^-20, 0); NaN fails the first test.
        let abs = self.b.ins().fabs(u);
        let limit = self.fsplat(2_097_152.0);
        let small = self.b.ins().fcmp(FloatCC::LessThan, abs, limit);
        let negative = self.b.ins().fcmp(FloatCC::LessThan, u, zero);
        let tiny = self.fsplat(-1.0 / 1_048_576.0);
        let near = self.b.ins().fcmp(FloatCC::GreaterThan, u, tiny);
        let tiny_negative = self.b.ins().band(negative, near);
        let ok = self.b.ins().band_not(small, tiny_negative);
        let floor = self.b.ins().floor(u);
        let fi = self.b.ins().fcvt_to_sint_sat(I32X4, floor);
        let mask = self.b.ins().iadd_imm_s(size, -1);
        let mask_v = self.b.ins().splat(I32X4, mask);
        let i0 = self.b.ins().band(fi, mask_v);
        let one = self.b.splat_word(1);
        let next = self.b.ins().iadd(i0, one);
        let i1 = self.b.ins().band(next, mask_v);
        let back = self.b.ins().fcvt_from_sint(F32X4, fi);
        let w = self.b.ins().fsub(u, back);
        // A footprint wrapping on a side of more than one cache tile may alias.
        let wraps = self.b.ins().icmp(IntCC::Equal, i0, mask_v);
        let long = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThan, size, 32);
        let long = self.b.ins().sextend(I32, long);
        let long = self.b.ins().ineg(long);
        let long_v = self.b.ins().splat(I32X4, long);
        let risky = self.b.ins().band(wraps, long_v);
        let not_ok = self.b.ins().bnot(ok);
        let bad = self.b.ins().bor(risky, not_ok);
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
        let (x0, x1, wx, bad_x) = self.axis(s, width);
        let (y0, y1, wy, bad_y) = self.axis(t, height);
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
    fn quad(&mut self, how: Lod, s: Value, t: Value, lod: Value) -> [Value; 4] {
        let lods = self.lods(how, s, t, lod);
        let (lo, hi, w, bad_levels) = self.levels(how, lods);
        let (a, bad_a) = self.footprint(s, t, lo);
        let (b, bad_b) = self.footprint(s, t, hi);
        let bad = self.b.ins().bor(bad_a, bad_b);
        let bad = self.b.any(bad);
        let bad = self.b.ins().bor(bad, bad_levels);
        self.unless(bad);
        let shifts: [Value; 4] = std::array::from_fn(|c| self.load(I32, at::SHIFTS + 4 * c as i32));
        let a = self.bilinear(&a, shifts);
        let b = self.bilinear(&b, shifts);
        std::array::from_fn(|c| {
            let r = self.lerp(w, a[c], b[c]);
            self.b.w(r)
        })
    }
}

/// A sampling kernel: `kernel(desc, io)` samples the quad whose coordinates `s`, `t` and
/// explicit LOD are words `0..4`, `4..8` and `8..12` of `io` with the binding `desc`
/// describes (which must be on) and writes the four result channels to words `12..28`
/// (returning 0), or returns 1 having written nothing when the interpreter must sample
/// the quad.
pub(crate) type Kernel = unsafe extern "C" fn(*const TexDesc, *mut u32) -> i32;

/// Words of a kernel's `io` buffer.
pub(crate) const IO_WORDS: i32 = 28;
/// Where a kernel's results start in `io`, in bytes.
pub(crate) const IO_OUT: i32 = 48;

/// The kernel for `how`, compiled on first use (`None` if Cranelift cannot compile it
/// for this CPU, and then never).
pub(crate) fn kernel(how: Lod) -> Option<Kernel> {
    static KERNELS: OnceLock<Option<[Kernel; 3]>> = OnceLock::new();
    let kernels = KERNELS.get_or_init(|| build_kernels().ok()).as_ref()?;
    Some(kernels[how as usize])
}

/// Compile the three kernels into a module kept for the rest of the process.
fn build_kernels() -> Result<[Kernel; 3], String> {
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
    let mut ids = Vec::new();
    for (k, how) in [Lod::Implicit, Lod::Explicit, Lod::Zero]
        .into_iter()
        .enumerate()
    {
        let id = module
            .declare_function(&format!("sample_quad_{k}"), Linkage::Local, &signature)
            .map_err(|e| format!("cranelift: {e}"))?;
        ctx.func =
            Function::with_name_signature(UserFuncName::user(0, id.as_u32()), signature.clone());
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
                desc,
                fallback,
            };
            let out = q.quad(how, s, t, lod);
            for (c, v) in out.into_iter().enumerate() {
                b.ins().store(mem, v, io, IO_OUT + 16 * c as i32);
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
        ids.push(id);
    }
    module
        .finalize_definitions()
        .map_err(|e| format!("cranelift: {e}"))?;
    let kernels = [0, 1, 2].map(|k| {
        let code = module.get_finalized_function(ids[k]);
        // SAFETY: each function was built with the `Kernel` signature in the platform's C
        // calling convention.
        unsafe { std::mem::transmute::<*const u8, Kernel>(code) }
    });
    // The kernels serve every program for the rest of the process.
    std::mem::forget(module);
    Ok(kernels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tgsi::Format;
    use tgsi_exec::resource::{
        Filter, MipFilter, Resource, SamplerState, SamplerView, Storage, Swizzle, Target, Wrap,
    };
    use tgsi_exec::texture::{Direct, DirectOp, Prepared};

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

    /// Every quad a kernel samples gives the interpreter's direct path's words: TEX
    /// (implicit LOD from the quad), TXL (per-lane LODs, on one level pair or not) and
    /// TEX_LZ on textures from 1×1 to 256 wide (footprints wrapping across tiles),
    /// RGBA and BGRA, views of some levels, trilinear and bilinear samplers with biases
    /// and LOD ranges, at coordinates inside, around and far outside the texture
    /// (NaN, infinities, tiny negatives); a binding the kernels do not take is refused;
    /// and the kernels take most quads.
    #[test]
    fn kernels_give_the_interpreters_words() {
        let mut x = 0x2545_f491u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let (mut taken, mut total) = (0u32, 0u32);
        let textures = [
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 64, 64),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 256, 64),
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 1, 1),
            ("PIPE_FORMAT_A8B8G8R8_UNORM", 8, 32),
        ];
        for (round, &(format, w, h)) in textures.iter().cycle().take(24).enumerate() {
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
            let sampler = SamplerState {
                wrap: [Wrap::Repeat; 3],
                min_img_filter: Filter::Linear,
                mag_img_filter: Filter::Linear,
                min_mip_filter: mip,
                lod_bias: [0.0, 0.75, -1.5][round % 3],
                min_lod: [0.0, 0.5, -2.0][round / 3 % 3],
                max_lod: [1000.0, 2.25, 0.0][round / 9 % 3],
                ..SamplerState::default()
            };
            for (opcode, how) in [
                (Opcode::TEX, Lod::Implicit),
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
                let compiled = direct.compiled().expect("a compiled binding");
                let desc = TexDesc::of(&compiled);
                let kernel = kernel(how).expect("the kernels compile");
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
                    let mut io = [0u32; IO_WORDS as usize];
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
                    let want = direct
                        .quad(words(s), words(t), words(lod))
                        .expect("the direct path takes what a kernel takes");
                    let got: [[u32; 4]; 4] =
                        std::array::from_fn(|c| std::array::from_fn(|j| io[12 + 4 * c + j]));
                    assert_eq!(
                        got, want,
                        "{format} {w}x{h} round {round} {opcode:?} s {s:?} t {t:?} lod {lod:?}"
                    );
                }
            }
        }
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
