//! Vector building blocks over four lanes (`i32x4` words, reinterpreted as `f32x4` for
//! float arithmetic): constants, masks, and the exact forms of the scalar semantics that
//! need more than one machine instruction — C `fminf`/`fmaxf` as glibc computes them
//! (MIN, MAX, saturation), the truncating conversion with out-of-range results of
//! `cvttps2dq`, and MAD's operand order. Each mirrors a function of `tgsi_exec::scalar` and is
//! checked against it by the tests. `fminf`/`fmaxf` take what is known of their operands
//! ([`crate::known`]) and leave out the cases that cannot occur.

use crate::known::{self, Known};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32, I32X4, I8X16};
use cranelift_codegen::ir::{ConstantData, Endianness, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

/// The quiet bit of a binary32 NaN.
const QUIET: u32 = 0x0040_0000;

/// Helpers over a function builder.
pub(crate) trait LaneOps {
    /// `x` in every lane.
    fn splat_word(&mut self, x: u32) -> Value;
    /// Word `words[l]` in lane `l`.
    fn words(&mut self, words: [u32; 4]) -> Value;
    /// Words as floats.
    fn f(&mut self, x: Value) -> Value;
    /// Floats as words.
    fn w(&mut self, x: Value) -> Value;
    /// Lanes (`i32x4` masks) where `x` is a NaN.
    fn is_nan(&mut self, x: Value) -> Value;
    /// `x` with the quiet bit set.
    fn quiet(&mut self, x: Value) -> Value;
    /// Lanes where `x` is a signalling NaN.
    fn is_snan(&mut self, x: Value) -> Value;
    /// What SSE arithmetic returns for NaN operands: the first NaN of `x`, `y`, quieted.
    fn sse_nan(&mut self, x: Value, y: Value) -> Value;
    /// SSE `minps x, y` (`max` false: `x < y ? x : y`) or `maxps x, y` (`x > y ? x : y`):
    /// `y` where either is a NaN or they are equal.
    fn sse_minmax(&mut self, x: Value, y: Value, max: bool) -> Value;
    /// glibc `fminf(x, y)` (`max` false) or `fmaxf(x, y)` (`max` true), on words, where
    /// `x` is known to be `kx` and `y` `ky`.
    fn glibc_minmax(&mut self, x: Value, kx: Known, y: Value, ky: Known, max: bool) -> Value;
    /// glibc `fminf(x, y)` / `fmaxf(x, y)` on any words.
    fn glibc_minmax_any(&mut self, x: Value, y: Value, max: bool) -> Value;
    /// `fminf(fmaxf(x, 0), 1)`, on words, where `x` is known to be `kx`.
    fn saturate(&mut self, x: Value, kx: Known) -> Value;
    /// `x` truncated to i32, or `i32::MIN` when out of range or NaN (`cvttps2dq`).
    fn f2i(&mut self, x: Value) -> Value;
    /// MAD: `a·b + c` rounded twice, with the interpreter's NaN rules.
    fn mad(&mut self, a: Value, b: Value, c: Value) -> Value;
    /// A float comparison as an `i32x4` mask.
    fn fcmp_mask(&mut self, cc: FloatCC, x: Value, y: Value) -> Value;
    /// `mask ? 1.0 : 0.0`.
    fn one_if(&mut self, mask: Value) -> Value;
    /// Lanes of `x` rearranged: lane `i` of the result is lane `order[i]` of `x`.
    fn lanes(&mut self, x: Value, order: [u8; 4]) -> Value;
    /// Whether any lane of the mask is set, as an `i8`.
    fn any(&mut self, mask: Value) -> Value;
}

impl LaneOps for FunctionBuilder<'_> {
    fn splat_word(&mut self, x: u32) -> Value {
        let s = self.ins().iconst(I32, i64::from(x as i32));
        self.ins().splat(I32X4, s)
    }

    fn words(&mut self, words: [u32; 4]) -> Value {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let handle = self.func.dfg.constants.insert(ConstantData::from(bytes));
        self.ins().vconst(I32X4, handle)
    }

    fn f(&mut self, x: Value) -> Value {
        self.ins().bitcast(F32X4, MemFlagsData::new(), x)
    }

    fn w(&mut self, x: Value) -> Value {
        self.ins().bitcast(I32X4, MemFlagsData::new(), x)
    }

    fn is_nan(&mut self, x: Value) -> Value {
        let xf = self.f(x);
        self.ins().fcmp(FloatCC::Unordered, xf, xf)
    }

    fn quiet(&mut self, x: Value) -> Value {
        let q = self.splat_word(QUIET);
        self.ins().bor(x, q)
    }

    fn is_snan(&mut self, x: Value) -> Value {
        let xn = self.is_nan(x);
        let q = self.splat_word(QUIET);
        let zero = self.splat_word(0);
        let xq = self.ins().band(x, q);
        let xq0 = self.ins().icmp(IntCC::Equal, xq, zero);
        self.ins().band(xn, xq0)
    }

    fn sse_nan(&mut self, x: Value, y: Value) -> Value {
        let xn = self.is_nan(x);
        let n = self.ins().blendv(xn, x, y);
        self.quiet(n)
    }

    fn sse_minmax(&mut self, x: Value, y: Value, max: bool) -> Value {
        // The shape Cranelift lowers to one `minps`/`maxps`.
        let (xf, yf) = (self.f(x), self.f(y));
        let less = if max {
            self.ins().fcmp(FloatCC::LessThan, yf, xf)
        } else {
            self.ins().fcmp(FloatCC::LessThan, xf, yf)
        };
        let less = self.ins().bitcast(F32X4, MemFlagsData::new(), less);
        let r = self.ins().bitselect(less, xf, yf);
        self.w(r)
    }

    fn glibc_minmax(&mut self, x: Value, kx: Known, y: Value, ky: Known, max: bool) -> Value {
        // Where neither operand is a signalling NaN, glibc returns the smaller (larger)
        // operand, the second when they are equal (so fminf(−0, +0) = +0), and the other
        // operand when one is a quiet NaN (both quiet NaNs: the first).
        let ordered = if ky == Known::Number {
            // A quiet NaN `x` gives `y`, as `minps` does.
            self.sse_minmax(x, y, max)
        } else if kx == Known::Number {
            // `y ≤ x ? y : x` (≥ for fmaxf): a quiet NaN `y` gives `x`.
            let cc = if max {
                FloatCC::GreaterThanOrEqual
            } else {
                FloatCC::LessThanOrEqual
            };
            match known::constant(self.func, x) {
                // Equal to a constant other than ±0 means the same word: `minps y, x`.
                Some(w) if w & 0x7fff_ffff != 0 => self.sse_minmax(y, x, max),
                Some(0) => {
                    let pick_y = self.fcmp_mask(cc, y, x);
                    self.ins().band(pick_y, y)
                }
                _ => {
                    let pick_y = self.fcmp_mask(cc, y, x);
                    self.ins().blendv(pick_y, y, x)
                }
            }
        } else if kx.min(ky) >= Known::Quiet {
            let yn = self.is_nan(y);
            let r = self.sse_minmax(x, y, max);
            self.ins().blendv(yn, x, r)
        } else {
            return self.glibc_minmax_any(x, y, max);
        };
        // A signalling NaN gives `x + y`: SSE's first NaN, quieted; here the only NaN.
        let maybe_signalling = match (kx >= Known::Quiet, ky >= Known::Quiet) {
            (true, true) => return ordered,
            (false, _) => x,
            (_, false) => y,
        };
        let s = self.is_snan(maybe_signalling);
        let q = self.quiet(maybe_signalling);
        self.ins().blendv(s, q, ordered)
    }

    fn glibc_minmax_any(&mut self, x: Value, y: Value, max: bool) -> Value {
        let xn = self.is_nan(x);
        let yn = self.is_nan(y);
        let xs = self.is_snan(x);
        let ys = self.is_snan(y);
        // Two NaNs, or a signalling one: SSE's first NaN, quieted.
        let both = self.ins().band(xn, yn);
        let signalling = self.ins().bor(xs, ys);
        let use_nan = self.ins().bor(both, signalling);
        let nan = self.sse_nan(x, y);
        // Ordinary operands: the smaller (larger), else the second; a lone quiet NaN
        // yields the other operand.
        let r = self.sse_minmax(x, y, max);
        let r = self.ins().blendv(yn, x, r);
        self.ins().blendv(use_nan, nan, r)
    }

    fn saturate(&mut self, x: Value, kx: Known) -> Value {
        let zero = self.splat_word(0);
        let one = self.splat_word(1f32.to_bits());
        // fmaxf(x, +0) is `maxps x, +0` (a quiet NaN gives +0), then fminf(·, 1) is
        // `minps ·, 1`; a signalling NaN comes out of fmaxf quieted, which fminf then
        // ignores, giving 1.
        let pos = self.sse_minmax(x, zero, true);
        let r = self.sse_minmax(pos, one, false);
        if kx >= Known::Quiet {
            return r;
        }
        let s = self.is_snan(x);
        self.ins().blendv(s, one, r)
    }

    fn f2i(&mut self, x: Value) -> Value {
        let xf = self.f(x);
        self.ins().x86_cvtt2dq(I32X4, xf)
    }

    fn mad(&mut self, a: Value, b: Value, c: Value) -> Value {
        // SSE returns the first operand's NaN (quieted), else the second's: `b·a` gives the
        // product's NaN rule and `p + c` the sum's. Operands are never folded loads here
        // (they reach the arithmetic through bitcasts), so their order is kept.
        let (af, bf, cf) = (self.f(a), self.f(b), self.f(c));
        let p = self.ins().fmul(bf, af);
        let s = self.ins().fadd(p, cf);
        self.w(s)
    }

    fn fcmp_mask(&mut self, cc: FloatCC, x: Value, y: Value) -> Value {
        let (xf, yf) = (self.f(x), self.f(y));
        self.ins().fcmp(cc, xf, yf)
    }

    fn one_if(&mut self, mask: Value) -> Value {
        let one = self.splat_word(1f32.to_bits());
        self.ins().band(mask, one)
    }

    fn lanes(&mut self, x: Value, order: [u8; 4]) -> Value {
        shuffle_words(self, x, x, order)
    }

    fn any(&mut self, mask: Value) -> Value {
        self.ins().vany_true(mask)
    }
}

/// Little-endian flags for bitcasts between vectors of different lane counts.
pub(crate) fn le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// Words of `x` and `y` (any 128-bit vectors) picked by `order` (0–3: `x`, 4–7: `y`), as
/// an `i32x4`.
pub(crate) fn shuffle_words(b: &mut FunctionBuilder, x: Value, y: Value, order: [u8; 4]) -> Value {
    let (xb, yb) = (
        b.ins().bitcast(I8X16, le(), x),
        b.ins().bitcast(I8X16, le(), y),
    );
    let mut mask = [0u8; 16];
    for (i, &w) in order.iter().enumerate() {
        for k in 0..4 {
            mask[4 * i + k] = 4 * w + k as u8;
        }
    }
    // The same mask gets the same immediate, so equal shuffles are merged.
    let found = b
        .func
        .dfg
        .immediates
        .iter()
        .find(|(_, data)| data.as_slice() == mask)
        .map(|(imm, _)| imm);
    let imm = found.unwrap_or_else(|| b.func.dfg.immediates.push(mask.to_vec().into()));
    let r = b.ins().shuffle(xb, yb, imm);
    b.ins().bitcast(I32X4, le(), r)
}

/// Four lanes' vectors of four words as four vectors of one word of each lane (`i32x4`):
/// word `c` of lane `l` becomes word `l` of vector `c`.
pub(crate) fn transpose(b: &mut FunctionBuilder, [l0, l1, l2, l3]: [Value; 4]) -> [Value; 4] {
    // Interleave pairs of lanes, then pairs of those.
    let lo01 = shuffle_words(b, l0, l1, [0, 4, 1, 5]);
    let lo23 = shuffle_words(b, l2, l3, [0, 4, 1, 5]);
    let hi01 = shuffle_words(b, l0, l1, [2, 6, 3, 7]);
    let hi23 = shuffle_words(b, l2, l3, [2, 6, 3, 7]);
    [
        (lo01, lo23, [0, 1, 4, 5]),
        (lo01, lo23, [2, 3, 6, 7]),
        (hi01, hi23, [0, 1, 4, 5]),
        (hi01, hi23, [2, 3, 6, 7]),
    ]
    .map(|(x, y, order)| shuffle_words(b, x, y, order))
}
