//! The code of a sampling kernel: one quad's sampling in vectors of its four lanes, step
//! by step as `tgsi_exec::texture::Compiled` lists softpipe's (the LOD, the levels, each
//! axis's wrap, the texel words, their components and the blends), specialised for a
//! [`Key`]; one branch to the fallback before any texel is read. A fetch kernel reads a
//! texel a lane at clamped integer coordinates and never falls back.

use super::{at, Key, Lod};
use crate::lanes::{le, transpose, LaneOps};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F32X4, I32, I32X4, I64, I8X16};
use cranelift_codegen::ir::{Block, ConstantData, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;
use tgsi_exec::texture::{
    AxisWrap, Filtering, LevelRule, CACHE_ROW_WEIGHT as ROW_WEIGHT, CACHE_SLOTS as SLOTS,
    CACHE_TILE as TILE,
};

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
pub(super) struct QuadSampler<'a, 'b> {
    pub b: &'a mut FunctionBuilder<'b>,
    pub ptr: Type,
    pub key: Key,
    pub desc: Value,
    pub fallback: Block,
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
        let capped = self.pick(above_hi, hi, x);
        let above_lo = self.b.ins().fcmp(FloatCC::GreaterThan, x, lo);
        self.pick(above_lo, capped, lo)
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
            // Fetches compute no LOD (`QuadSampler::fetch`).
            Lod::Zero | Lod::Fetch | Lod::FetchZero => self.b.ins().splat(F32X4, bias),
        };
        let lo = self.load(F32, at::MIN_LOD);
        let hi = self.load(F32, at::MAX_LOD);
        let (lo, hi) = (self.b.ins().splat(F32X4, lo), self.b.ins().splat(F32X4, hi));
        self.clampf(raw, lo, hi)
    }

    /// The levels sampled (`i32` scalars, the same one twice for a single level), the
    /// weight of the second (`f32x4`) and whether the quad needs the interpreter (an
    /// `i8`: lanes on different levels, or a level outside the description).
    fn levels(&mut self, rule: LevelRule, lods: Value) -> (Value, Value, Value, Value) {
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
        let (lo, hi, w) = match rule {
            LevelRule::Pot => {
                let blend = self.b.ins().icmp(IntCC::UnsignedLessThan, level0, last_v);
                let zero_i = self.b.splat_word(0);
                let below = self.b.ins().icmp(IntCC::SignedLessThan, level0, zero_i);
                let single = self.pick(below, first_v, last_v);
                (
                    self.pick(blend, level0, single),
                    self.pick(blend, level1, single),
                    self.pick(blend, frac, zero_w),
                )
            }
            LevelRule::Linear => {
                let magnify = self.b.ins().fcmp(FloatCC::LessThanOrEqual, lods, zero);
                let top = self
                    .b
                    .ins()
                    .icmp(IntCC::SignedGreaterThanOrEqual, level0, last_v);
                let lo = self.pick(top, last_v, level0);
                let hi = self.pick(top, last_v, level1);
                let single = self.b.ins().bor(magnify, top);
                (
                    self.pick(magnify, first_v, lo),
                    self.pick(magnify, first_v, hi),
                    self.pick(single, zero_w, frac),
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

    /// `floor(x)` as a float and as an integer. The integer is `i32::MIN` for a NaN or
    /// one out of range (`cvttps2dq`), lanes that [`QuadSampler::not_floor`] sends to the
    /// interpreter anyway (and whose indices are masked before any read).
    fn floor(&mut self, x: Value) -> (Value, Value) {
        let f = self.b.ins().floor(x);
        (f, self.b.ins().x86_cvtt2dq(I32X4, f))
    }

    /// `c ? x : y` on lanes, `c` a lane mask (`i32x4`) and `x`, `y` of one type (the mask
    /// taken as that type).
    fn pick(&mut self, c: Value, x: Value, y: Value) -> Value {
        let ty = self.b.func.dfg.value_type(x);
        let c = if self.b.func.dfg.value_type(c) == ty {
            c
        } else {
            self.b.ins().bitcast(ty, le(), c)
        };
        self.b.ins().bitselect(c, x, y)
    }

    /// `i > last ? last : i` per lane (signed), softpipe's clamp of an index to its level.
    fn at_most(&mut self, last: Value, i: Value) -> Value {
        let over = self.b.ins().icmp(IntCC::SignedGreaterThan, i, last);
        self.pick(over, last, i)
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
                let i0 = self.at_most(last_v, i0);
                let i1 = self.at_most(last_v, i1);
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
                let i1 = self.at_most(last_v, i1);
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

    /// `bad` with the lanes (an `i32x4` mask) whose bilinear footprint, at columns `x`
    /// and rows `y` of one level, has two different tiles in the same slot of softpipe's
    /// texture cache, where it reads one tile's texels for another's
    /// (`tgsi_exec::texture::tile_cache::aliases`). A tile's slot is `tx + w·ty` plus terms
    /// of its slice and level, mod the slot count (`w`: the row weight); the footprint's
    /// tiles share slice and level, so two of them share a slot when their columns and rows
    /// differ by `dx`, `dy` with `dx + w·dy ≡ 0`: the pairs in a row (`dy = 0`), in a column
    /// (`dx = 0`) and on the two diagonals (`±dx + w·dy`). Checked only where a footprint
    /// spans tiles (a branch, seldom taken).
    fn with_aliases(&mut self, bad: Value, x: [Value; 2], y: [Value; 2]) -> Value {
        // Residues mod the slot count are taken by masking.
        const { assert!(SLOTS.is_power_of_two()) };
        let tile = i64::from(TILE.trailing_zeros());
        let [tx0, tx1, ty0, ty1] =
            [x[0], x[1], y[0], y[1]].map(|i| self.b.ins().ushr_imm_u(i, tile));
        let dx = self.b.ins().isub(tx0, tx1);
        let dy = self.b.ins().isub(ty0, ty1);
        let spans = self.b.ins().bor(dx, dy);
        let spans = self.b.any(spans);
        let (check, join) = (self.b.create_block(), self.b.create_block());
        self.b.append_block_param(join, I32X4);
        self.b.ins().brif(spans, check, &[], join, &[bad.into()]);
        self.b.switch_to_block(check);
        self.b.seal_block(check);
        let weight = self.b.splat_word(ROW_WEIGHT);
        let rows = self.b.ins().imul(dy, weight);
        let diagonal = self.b.ins().iadd(rows, dx);
        let anti = self.b.ins().isub(rows, dx);
        let zero = self.b.splat_word(0);
        let slots = self.b.splat_word(SLOTS - 1);
        // Differences ≡ 0 (mod the slot count), of tiles that differ.
        let same_slot = |b: &mut FunctionBuilder, d: Value| {
            let m = b.ins().band(d, slots);
            b.ins().icmp(IntCC::Equal, m, zero)
        };
        let dx_zero = self.b.ins().icmp(IntCC::Equal, dx, zero);
        let dy_zero = self.b.ins().icmp(IntCC::Equal, dy, zero);
        let same_tile = self.b.ins().band(dx_zero, dy_zero);
        let row = same_slot(self.b, dx);
        let row = self.b.ins().band_not(row, dx_zero);
        let column = same_slot(self.b, rows);
        let column = self.b.ins().band_not(column, dy_zero);
        let d = same_slot(self.b, diagonal);
        let a = same_slot(self.b, anti);
        let diagonals = self.b.ins().bor(d, a);
        let diagonals = self.b.ins().band_not(diagonals, same_tile);
        let lines = self.b.ins().bor(row, column);
        let alias = self.b.ins().bor(lines, diagonals);
        let bad_or_alias = self.b.ins().bor(bad, alias);
        self.b.ins().jump(join, &[bad_or_alias.into()]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.b.block_params(join)[0]
    }

    /// The word at the index lane `lane` of `at` holds (`i32x4`), as a byte vector.
    fn word_at(&mut self, words: Value, at: Value, lane: u8) -> Value {
        let i = self.b.ins().extractlane(at, lane);
        let i = self.b.ins().uextend(I64, i);
        let off = self.b.ins().ishl_imm_u(i, 2);
        let addr = self.b.ins().iadd(words, off);
        // Read-only (nothing writes a texture during a draw) and movable (the index is
        // inside the words by data): Cranelift loads each word next to its use rather than
        // keeping the words of all the lanes' footprints alive.
        let flags = MemFlagsData::trusted().with_readonly().with_can_move();
        let w = self.b.ins().load(I32, flags, addr, 0);
        let v = self.b.ins().scalar_to_vector(I32X4, w);
        self.b.ins().bitcast(I8X16, le(), v)
    }

    /// A texel of `bytes` as a vector of its four components (`f32x4`, component order):
    /// its bytes spread a byte a word by `spread` (`x86_pshufb`, which also puts the
    /// components in order) and scaled as `unorm8` (`1/255`).
    fn components(&mut self, bytes: Value, spread: Value, scale: Value) -> Value {
        let bytes = self.b.ins().x86_pshufb(bytes, spread);
        let bytes = self.b.ins().bitcast(I32X4, le(), bytes);
        let v = self.b.ins().fcvt_from_sint(F32X4, bytes);
        self.b.ins().fmul(v, scale)
    }

    /// Level `level`'s (an `i32` scalar) first word, words per row, width and height
    /// (`i32` scalars).
    fn level_place(&mut self, level: Value) -> [Value; 4] {
        let l = self.b.ins().uextend(I64, level);
        let l = self.b.ins().imul_imm_s(l, at::LEVEL_BYTES);
        let entry = self.b.ins().iadd(self.desc, l);
        [at::L_FIRST, at::L_ROW, at::L_WIDTH, at::L_HEIGHT].map(|field| {
            self.b
                .ins()
                .load(I32, Self::mem(), entry, at::LEVELS + field)
        })
    }

    /// The bilinear footprints of the quad at `level` (an `i32` scalar) wrapped by `wrap`,
    /// with the lanes that need the interpreter (an `i32x4` mask).
    fn footprint(
        &mut self,
        wrap: [AxisWrap; 2],
        s: Value,
        t: Value,
        level: Value,
    ) -> (Footprint, Value) {
        let [first, row, width, height] = self.level_place(level);
        let (x0, x1, wx, bad_x) = self.axis(wrap[0], s, width);
        let (y0, y1, wy, bad_y) = self.axis(wrap[1], t, height);
        let mut bad = self.b.ins().bor(bad_x, bad_y);
        // Only a footprint that wraps can put two of its tiles in one slot of softpipe's
        // cache (the other wraps' footprints are of neighbouring texels).
        if wrap.contains(&AxisWrap::RepeatPot) {
            bad = self.with_aliases(bad, [x0, x1], [y0, y1]);
        }
        let row_v = self.b.ins().splat(I32X4, row);
        let first_v = self.b.ins().splat(I32X4, first);
        let r0 = self.b.ins().imul(y0, row_v);
        let r0 = self.b.ins().iadd(r0, first_v);
        let r1 = self.b.ins().imul(y1, row_v);
        let r1 = self.b.ins().iadd(r1, first_v);
        // Lanes that fall back read word 0: every index is inside the words by data, not
        // only behind the branch to the fallback, so the loads may move (see `word_at`).
        let at = [(r0, x0), (r0, x1), (r1, x0), (r1, x1)].map(|(r, x)| {
            let i = self.b.ins().iadd(r, x);
            self.b.ins().band_not(i, bad)
        });
        (Footprint { at, wx, wy }, bad)
    }

    /// The bilinear samples of a footprint, four `f32x4` channels. Each lane blends its
    /// texels as vectors of their components (the `lerp_2d` of each component, with the
    /// lane's weights in every element), and the lanes' results are transposed into
    /// channels.
    fn bilinear(&mut self, f: &Footprint) -> [Value; 4] {
        let (spread, scale) = self.texel_constants();
        let words = self.load(self.ptr, at::WORDS);
        let lanes: [Value; 4] = std::array::from_fn(|j| {
            let j = j as u8;
            let [t00, t10, t01, t11] = f.at.map(|at| {
                let word = self.word_at(words, at, j);
                self.components(word, spread, scale)
            });
            let [wx, wy] = [f.wx, f.wy].map(|w| {
                let w = self.b.lanes(w, [j; 4]);
                self.b.f(w)
            });
            let row0 = self.lerp(wx, t00, t10);
            let row1 = self.lerp(wx, t01, t11);
            self.lerp(wy, row0, row1)
        });
        self.channels(lanes)
    }

    /// What [`QuadSampler::components`] reads with: the byte spread of the texels' byte
    /// order and the `unorm8` scale.
    fn texel_constants(&mut self) -> (Value, Value) {
        // Byte `shift / 8` of the word into the low byte of word c, zeros above.
        let mut mask = [0x80u8; 16];
        for (c, &shift) in self.key.shifts.iter().enumerate() {
            mask[4 * c] = shift / 8;
        }
        let mask = self
            .b
            .func
            .dfg
            .constants
            .insert(ConstantData::from(mask.to_vec()));
        let spread = self.b.ins().vconst(I8X16, mask);
        let scale = self.fsplat(1.0 / 255.0);
        (spread, scale)
    }

    /// Four lanes' vectors of their components as four channels (`f32x4`) of the lanes.
    fn channels(&mut self, lanes: [Value; 4]) -> [Value; 4] {
        transpose(self.b, lanes).map(|c| self.b.f(c))
    }

    /// `a + w·(b − a)`.
    fn lerp(&mut self, w: Value, a: Value, b: Value) -> Value {
        let d = self.b.ins().fsub(b, a);
        let p = self.b.ins().fmul(w, d);
        self.b.ins().fadd(a, p)
    }

    /// The quad's results, four channels as words (for a sampling kernel, one branch to
    /// the fallback before any texel is read).
    pub fn quad(&mut self, s: Value, t: Value, lod: Value) -> [Value; 4] {
        match self.key.filter {
            Some(filter) => self.filtered(filter, s, t, lod),
            None => self.fetch(s, t, lod),
        }
    }

    /// A texel fetch's results at integer coordinates `s`, `t` (`i32x4`) and, for TXF, the
    /// LOD of lane 0 of `lod`: the level `clamp(lod₀ + first, first, last)` (in 64 bits,
    /// `first ≤ last`), the coordinates clamped into it, so every read is inside.
    fn fetch(&mut self, s: Value, t: Value, lod: Value) -> [Value; 4] {
        let first = self.load(I32, at::FIRST_LEVEL);
        let level = match self.key.lod {
            Lod::Fetch => {
                let last = self.load(I32, at::LAST_LEVEL);
                let l0 = self.b.ins().extractlane(lod, 0);
                let l0 = self.b.ins().sextend(I64, l0);
                let (first, last) = (
                    self.b.ins().uextend(I64, first),
                    self.b.ins().uextend(I64, last),
                );
                let sum = self.b.ins().iadd(l0, first);
                let above = self.b.ins().smax(sum, first);
                let level = self.b.ins().smin(above, last);
                self.b.ins().ireduce(I32, level)
            }
            _ => first,
        };
        let [start, row, width, height] = self.level_place(level);
        let zero = self.b.splat_word(0);
        let [x, y] = [(s, width), (t, height)].map(|(c, size)| {
            let last = self.b.ins().iadd_imm_s(size, -1);
            let last = self.b.ins().splat(I32X4, last);
            let above = self.b.ins().smax(c, zero);
            self.b.ins().smin(above, last)
        });
        let row = self.b.ins().splat(I32X4, row);
        let start = self.b.ins().splat(I32X4, start);
        let rows = self.b.ins().imul(y, row);
        let rows = self.b.ins().iadd(rows, start);
        let at = self.b.ins().iadd(rows, x);
        let (spread, scale) = self.texel_constants();
        let words = self.load(self.ptr, at::WORDS);
        let lanes = std::array::from_fn(|j| {
            let word = self.word_at(words, at, j as u8);
            self.components(word, spread, scale)
        });
        self.channels(lanes).map(|c| self.b.w(c))
    }

    /// A sampling kernel's results, filtered as `filter` says, four channels as words (one
    /// branch to the fallback, before any texel is read).
    fn filtered(&mut self, filter: Filtering, s: Value, t: Value, lod: Value) -> [Value; 4] {
        let lods = self.lods(self.key.lod, s, t, lod);
        let (lo, hi, w, bad_levels) = self.levels(filter.rule, lods);
        // The levels first: the footprints read their descriptions.
        self.unless(bad_levels);
        let (a, bad_a) = self.footprint(filter.wrap, s, t, lo);
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
        let r = self.bilinear(&a);
        let args = r.map(|v| self.b.w(v).into());
        self.b.ins().jump(done, &args);
        self.b.switch_to_block(pair);
        self.b.seal_block(pair);
        let (b, bad_b) = self.footprint(filter.wrap, s, t, hi);
        let bad = self.b.ins().bor(bad_a, bad_b);
        let bad = self.b.any(bad);
        self.unless(bad);
        let a = self.bilinear(&a);
        let b = self.bilinear(&b);
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
