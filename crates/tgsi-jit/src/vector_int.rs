//! Integer opcodes x86 has no vector instruction for, four lanes at a time from other
//! vector instructions, each exactly its `tgsi_exec::scalar::int` function.
//!
//! **Bit counts.** POPC counts each byte's bits (a table lookup by nibbles) and adds the
//! bytes of each word. LSB isolates the lowest set bit (`x & −x`) and UMSB the highest
//! that has no set bit above it once every bit with a set neighbour above is cleared
//! (`x & !(x >> 1)`, whose conversion to binary32 cannot round up to the next power of two,
//! as no 24 consecutive bits are all set): the exponent of the converted value is the bit's
//! position. IMSB is UMSB of the word with its sign bits flipped away.
//!
//! **Shifts by a count per lane** (SHL, USHR, ISHR by a register; the bit fields of UBFE,
//! IBFE and BFI): x86 below AVX2 shifts a vector's lanes all by one count. A left shift by
//! `n` (0 to 31) is a product with `2ⁿ`, made as the binary32 `2ⁿ` (exponent `n + 127`)
//! converted to an integer — `2³¹` converts to `0x80000000`, which is its bits, so the
//! product wraps as the shift does. A right shift by `n ≥ 1` is the high word of the
//! 64-bit product with `2³²⁻ⁿ` (x86 multiplies the even or the odd words of two vectors to
//! 64 bits). The bit fields follow their scalar definitions case by case, each case a
//! blend.
//!
//! **Division** (UDIV, UMOD, IDIV, MOD) goes through binary64. Every 32-bit integer is exact in binary64, and so is the truncated quotient: when
//! `q = a / b` is not an integer it lies at least `1/|b|` from the nearest integer, while
//! the rounding error of the binary64 division is at most `|q|·2⁻⁵³ < 2³²/|b| · 2⁻⁵³`, far
//! less; so truncating the rounded quotient gives the integer quotient. The remainder is
//! `a − q·b` in wrapping 32-bit arithmetic, which also gives `INT_MIN / −1 = INT_MIN` and
//! `INT_MIN % −1 = 0` as `tgsi_exec::scalar::int` defines them; division by zero gives
//! that module's values by a blend. A constant divisor takes a multiplication by its
//! reciprocal instead (`quotient_by_constant`). Conversions use the exponent trick (no conversion
//! instruction between 32-bit integers and binary64 vectors exists below AVX-512): the
//! word `x` under the high word `0x43300000` is the binary64 `2⁵² + x`.

use crate::lanes::{le, shuffle_words, LaneOps};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32X4, F64X2, I32, I32X4, I64X2, I8X16};
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::FunctionBuilder;
use tgsi::Opcode;

/// High word of the binary64 2⁵².
const TWO_52_HIGH: u32 = 0x4330_0000;

/// The bit-count opcodes (POPC, LSB, UMSB, IMSB), or `None` for any other.
pub(crate) fn bit_count(b: &mut FunctionBuilder, op: Opcode, x: Value) -> Option<Value> {
    Some(match op {
        Opcode::POPC => {
            let bytes = b.ins().bitcast(I8X16, le(), x);
            let counts = b.ins().popcnt(bytes);
            let v = b.ins().bitcast(I32X4, le(), counts);
            let s16 = shift(b, v, 16, false);
            let v = b.ins().iadd(v, s16);
            let s8 = shift(b, v, 8, false);
            let v = b.ins().iadd(v, s8);
            and_word(b, v, 0x3f)
        }
        Opcode::LSB => {
            let neg = b.ins().ineg(x);
            let low = b.ins().band(x, neg);
            // 2³¹ converts as −2³¹: the exponent is the same.
            let e = exponent(b, low);
            let zero = b.splat_word(0);
            let none = b.ins().icmp(IntCC::Equal, x, zero);
            let minus = b.splat_word(u32::MAX);
            b.ins().blendv(none, minus, e)
        }
        Opcode::UMSB => umsb(b, x),
        Opcode::IMSB => {
            let sign = shift(b, x, 31, true);
            let v = b.ins().bxor(x, sign);
            umsb(b, v)
        }
        _ => return None,
    })
}

/// UMSB: the position of the highest set bit, −1 for 0.
fn umsb(b: &mut FunctionBuilder, x: Value) -> Value {
    let above = shift(b, x, 1, false);
    let single = b.ins().band_not(x, above);
    // Bit 31 set converts as a negative value: decided apart.
    let low = and_word(b, single, 0x7fff_ffff);
    let e = exponent(b, low);
    let zero = b.splat_word(0);
    let none = b.ins().icmp(IntCC::Equal, x, zero);
    let minus = b.splat_word(u32::MAX);
    let e = b.ins().blendv(none, minus, e);
    let top = b.ins().icmp(IntCC::SignedLessThan, x, zero);
    let msb = b.splat_word(31);
    b.ins().blendv(top, msb, e)
}

/// The binary32 exponent of each word converted from a signed integer (its bit position
/// when it is ±2ᵏ).
fn exponent(b: &mut FunctionBuilder, x: Value) -> Value {
    let f = b.ins().fcvt_from_sint(F32X4, x);
    let bits = b.w(f);
    let e = shift(b, bits, 23, false);
    let e = and_word(b, e, 0xff);
    let bias = b.splat_word((-127i32) as u32);
    b.ins().iadd(e, bias)
}

/// Every lane of `x` and `m`.
fn and_word(b: &mut FunctionBuilder, x: Value, m: u32) -> Value {
    let m = b.splat_word(m);
    b.ins().band(x, m)
}

/// Every lane of `x` shifted right by `n` (arithmetically when `signed`).
fn shift(b: &mut FunctionBuilder, x: Value, n: i64, signed: bool) -> Value {
    let n = b.ins().iconst(I32, n);
    if signed {
        b.ins().sshr(x, n)
    } else {
        b.ins().ushr(x, n)
    }
}

/// SHL, USHR and ISHR by counts that differ between lanes, and UBFE, IBFE and BFI (`s`:
/// the sources), or `None` for any other opcode.
pub(crate) fn by_lane_counts(b: &mut FunctionBuilder, op: Opcode, s: &[Value]) -> Option<Value> {
    let arg = |k: usize| s.get(k).copied();
    Some(match op {
        Opcode::SHL | Opcode::USHR | Opcode::ISHR => {
            let n = and_word(b, arg(1)?, 31);
            match op {
                Opcode::SHL => shift_left(b, arg(0)?, n),
                _ => shift_right(b, arg(0)?, n, op == Opcode::ISHR),
            }
        }
        Opcode::UBFE | Opcode::IBFE => bit_field(b, arg(0)?, arg(1)?, arg(2)?, op == Opcode::IBFE),
        Opcode::BFI => {
            // bits == 32: the insert; else the insert's low `bits & 31` bits at `offset & 31`.
            let (base, insert, bits) = (arg(0)?, arg(1)?, arg(3)?);
            let off = and_word(b, arg(2)?, 31);
            let n = and_word(b, bits, 31);
            let low = power_of_two(b, n);
            let one = b.splat_word(1);
            let low = b.ins().isub(low, one);
            let mask = shift_left(b, low, off);
            let moved = shift_left(b, insert, off);
            let field = b.ins().band(moved, mask);
            let kept = b.ins().band_not(base, mask);
            let r = b.ins().bor(field, kept);
            let all = equal_word(b, bits, 32);
            b.ins().blendv(all, insert, r)
        }
        _ => return None,
    })
}

/// UBFE (`signed` false) or IBFE of `value`, `offset`, `bits`: the whole word when `bits`
/// is 32 at offset 0; else with `n = bits & 31`, `off = offset & 31`, the word shifted
/// down by `off` when the field reaches the top bit, and otherwise that word's low `n`
/// bits (sign-extended from bit `n − 1` for IBFE: none when `n` is 0). These are the
/// scalar definition's bits `off` to `off + n − 1` moved to the top and back down.
fn bit_field(
    b: &mut FunctionBuilder,
    value: Value,
    offset: Value,
    bits: Value,
    signed: bool,
) -> Value {
    let off = and_word(b, offset, 31);
    let n = and_word(b, bits, 31);
    let end = b.ins().iadd(off, n);
    let thirty_two = b.splat_word(32);
    let inside = b.ins().icmp(IntCC::UnsignedLessThan, end, thirty_two);
    let tail = shift_right(b, value, off, signed);
    let one = b.splat_word(1);
    let top = power_of_two(b, n);
    let ones = b.ins().isub(top, one);
    let low = b.ins().band(tail, ones);
    let field = if signed {
        // (low ^ h) − h with h = 2ⁿ⁻¹ extends the sign of bit n − 1 (n = 0: h = 1, 0).
        let half = shift(b, ones, 1, false);
        let h = b.ins().iadd(half, one);
        let flipped = b.ins().bxor(low, h);
        b.ins().isub(flipped, h)
    } else {
        low
    };
    let r = b.ins().blendv(inside, field, tail);
    let all = equal_word(b, bits, 32);
    let at0 = equal_word(b, off, 0);
    let whole = b.ins().band(all, at0);
    b.ins().blendv(whole, value, r)
}

/// Lanes where `x` is `w`.
fn equal_word(b: &mut FunctionBuilder, x: Value, w: u32) -> Value {
    let w = b.splat_word(w);
    b.ins().icmp(IntCC::Equal, x, w)
}

/// `2ⁿ` in every lane (`n` 0 to 31; `2³¹` as `0x80000000`).
fn power_of_two(b: &mut FunctionBuilder, n: Value) -> Value {
    let exponent = b.ins().iconst(I32, 23);
    let e = b.ins().ishl(n, exponent);
    let one = b.splat_word(1f32.to_bits());
    let float = b.ins().iadd(e, one);
    b.f2i(float)
}

/// `x << n` per lane (`n` 0 to 31).
fn shift_left(b: &mut FunctionBuilder, x: Value, n: Value) -> Value {
    let p = power_of_two(b, n);
    b.ins().imul(x, p)
}

/// `x >> n` per lane (`n` 0 to 31), arithmetically when `signed`: for `n ≥ 1` the high
/// word of the 64-bit product `x · 2³²⁻ⁿ` (even and odd lanes multiplied apart), `x` for
/// `n = 0`; a negative word is complemented first and after, as `!(!x >> n)` is the
/// arithmetic shift.
fn shift_right(b: &mut FunctionBuilder, x: Value, n: Value, signed: bool) -> Value {
    let sign = signed.then(|| shift(b, x, 31, true));
    let x = match sign {
        Some(s) => b.ins().bxor(x, s),
        None => x,
    };
    let thirty_two = b.splat_word(32);
    let up = b.ins().isub(thirty_two, n);
    let up = and_word(b, up, 31);
    let factor = power_of_two(b, up);
    let products = [false, true].map(|high| {
        let (x, f) = if high {
            (b.ins().uwiden_high(x), b.ins().uwiden_high(factor))
        } else {
            (b.ins().uwiden_low(x), b.ins().uwiden_low(factor))
        };
        let p = b.ins().imul(x, f);
        b.ins().bitcast(I32X4, le(), p)
    });
    let r = shuffle_words(b, products[0], products[1], [1, 3, 5, 7]);
    let none = equal_word(b, n, 0);
    let r = b.ins().blendv(none, x, r);
    match sign {
        Some(s) => b.ins().bxor(r, s),
        None => r,
    }
}

/// The four division opcodes, or `None` for any other; `constant`: the divisor when it is
/// the same known word in every lane.
pub(crate) fn divide(
    b: &mut FunctionBuilder,
    op: Opcode,
    n: Value,
    d: Value,
    constant: Option<u32>,
) -> Option<Value> {
    let (signed, remainder, by_zero) = match op {
        Opcode::UDIV => (false, false, u32::MAX),
        Opcode::UMOD => (false, true, u32::MAX),
        Opcode::IDIV => (true, false, 0),
        Opcode::MOD => (true, true, u32::MAX),
        _ => return None,
    };
    let q = match constant {
        Some(0) => return Some(b.splat_word(by_zero)),
        Some(c) => quotient_by_constant(b, n, c, signed),
        None => {
            let nf = to_f64(b, n, signed);
            let df = to_f64(b, d, signed);
            let q = [0, 1].map(|h| {
                let x = b.ins().fdiv(nf[h], df[h]);
                b.ins().trunc(x)
            });
            to_words(b, q)
        }
    };
    let r = if remainder {
        let p = b.ins().imul(q, d);
        b.ins().isub(n, p)
    } else {
        q
    };
    if constant.is_some() {
        return Some(r);
    }
    let zero = b.splat_word(0);
    let is_zero = b.ins().icmp(IntCC::Equal, d, zero);
    let special = b.splat_word(by_zero);
    Some(b.ins().blendv(is_zero, special, r))
}

/// The truncated quotient of `n` by the non-zero constant `d` with a multiplication: `(n ±
/// ½)·(1/d)` in binary64, the half taking the sign of `n`, truncated. The half moves the
/// exact quotient `n/d = k + j/d` (`0 ≤ j < |d|`, signs aside) to `k + (j + ½)/d`, at
/// least `½/|d|` from both `k` and `k ± 1`, while the two roundings (of `1/d` and of the
/// product) err by at most `|n/d|·2⁻⁵² ≤ 2⁻²⁰/|d|`: so the truncation gives `k`.
/// `INT_MIN / −1` gives `2³¹`, whose low word is `INT_MIN`, as the scalar definition says.
fn quotient_by_constant(b: &mut FunctionBuilder, n: Value, d: u32, signed: bool) -> Value {
    let reciprocal = if signed {
        1.0 / f64::from(d as i32)
    } else {
        1.0 / f64::from(d)
    };
    let reciprocal = b.ins().f64const(reciprocal);
    let reciprocal = b.ins().splat(F64X2, reciprocal);
    let nf = to_f64(b, n, signed);
    let half = b.ins().f64const(0.5);
    let half = b.ins().splat(F64X2, half);
    let q = nf.map(|v| {
        let half = if signed {
            // ½ with the sign of `n` (+½ for 0, which truncates to 0 either way).
            let sign = b.ins().f64const(-0.0);
            let sign = b.ins().splat(F64X2, sign);
            let bits = |b: &mut FunctionBuilder, x| b.ins().bitcast(I64X2, le(), x);
            let (v_bits, sign_bits, half_bits) = (bits(b, v), bits(b, sign), bits(b, half));
            let s = b.ins().band(v_bits, sign_bits);
            let h = b.ins().bor(half_bits, s);
            b.ins().bitcast(F64X2, le(), h)
        } else {
            half
        };
        let v = b.ins().fadd(v, half);
        let x = b.ins().fmul(v, reciprocal);
        b.ins().trunc(x)
    });
    to_words(b, q)
}

/// The words of `x` (signed or unsigned) as two `f64x2` vectors: lanes 0–1 and 2–3.
fn to_f64(b: &mut FunctionBuilder, x: Value, signed: bool) -> [Value; 2] {
    // A signed word becomes unsigned `x + 2³¹` by flipping its sign bit.
    let (x, bias) = if signed {
        let top = b.splat_word(0x8000_0000);
        (b.ins().bxor(x, top), 2f64.powi(52) + 2f64.powi(31))
    } else {
        (x, 2f64.powi(52))
    };
    let high = b.splat_word(TWO_52_HIGH);
    let bias = b.ins().f64const(bias);
    let bias = b.ins().splat(F64X2, bias);
    [[0, 4, 1, 5], [2, 6, 3, 7]].map(|order| {
        let v = shuffle_words(b, x, high, order);
        let v = b.ins().bitcast(F64X2, le(), v);
        b.ins().fsub(v, bias)
    })
}

/// Two `f64x2` vectors of integers in (−2⁵¹, 2⁵¹) as the four low words of their two's
/// complement: adding 2⁵² + 2⁵¹ leaves them in the low bits of the sum.
fn to_words(b: &mut FunctionBuilder, q: [Value; 2]) -> Value {
    let magic = b.ins().f64const(2f64.powi(52) + 2f64.powi(51));
    let magic = b.ins().splat(F64X2, magic);
    let [lo, hi] = q.map(|v| {
        let v = b.ins().fadd(v, magic);
        b.ins().bitcast(I32X4, le(), v)
    });
    shuffle_words(b, lo, hi, [0, 2, 4, 6])
}
