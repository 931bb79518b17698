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
//! that module's values by a blend. A constant divisor takes no division: a shift, or the
//! high word of a product with a fixed-point reciprocal (`Reciprocal`, Granlund and
//! Montgomery's method; signed quotients from the magnitudes). Conversions use the exponent trick (no conversion
//! instruction between 32-bit integers and binary64 vectors exists below AVX-512): the
//! word `x` under the high word `0x43300000` is the binary64 `2⁵² + x`.

use crate::lanes::{le, shuffle_words, LaneOps};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32X4, F64X2, I32, I32X4, I8X16};
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

/// The truncated quotient of `n` by the non-zero constant `d`, with no division: the
/// unsigned quotient of `|n|` by `|d|` when `signed`, its sign then set from the signs of
/// `n` and `d` (`INT_MIN / −1`: `2³¹ / 1 = 2³¹`, whose word is `INT_MIN`, as the scalar
/// definition says; `|INT_MIN|` is the word `2³¹`).
fn quotient_by_constant(b: &mut FunctionBuilder, n: Value, d: u32, signed: bool) -> Value {
    if !signed {
        return unsigned_quotient(b, n, d);
    }
    let magnitude = b.ins().iabs(n);
    let q = unsigned_quotient(b, magnitude, (d as i32).unsigned_abs());
    // −1 in the lanes whose quotient is negative: where the sign of `n` differs from
    // that of `d`; `(q ^ s) − s` negates those.
    let s = shift(b, n, 31, true);
    let s = if (d as i32) < 0 { b.ins().bnot(s) } else { s };
    let flipped = b.ins().bxor(q, s);
    b.ins().isub(flipped, s)
}

/// How the unsigned quotient by a constant `d` is computed from the high word of a
/// product ([`Reciprocal::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reciprocal {
    /// `d = 2ˢ`: `n >> s`.
    Shift(u32),
    /// `(n · m) >> (32 + s)`: `mulhi(n, m) >> s`.
    Multiply { m: u32, s: u32 },
    /// `(n · (2³² + m)) >> (33 + s)`, with the 33-bit factor's product taken as
    /// `t = mulhi(n, m)`, `(((n − t) >> 1) + t) >> s` (no intermediate passes 32 bits).
    MultiplyAdd { m: u32, s: u32 },
}

impl Reciprocal {
    /// The form for the divisor `d ≥ 1`. With `2ˡ < d < 2ˡ⁺¹` and `m = ⌈2³²⁺ˡ / d⌉`
    /// (below 2³²), `⌊n · m / 2³²⁺ˡ⌋ = ⌊n / d⌋` for every 32-bit `n` when the excess
    /// `e = m·d − 2³²⁺ˡ` is at most `2ˡ` (the condition of Granlund and Montgomery,
    /// "Division by invariant integers using multiplication", 1994: the product overshoots
    /// `n/d` by `n·e / (d·2³²⁺ˡ) < 1/d`, while `n/d` lies at least `1/d` below the next
    /// integer).
    /// Otherwise one more bit of precision always suffices (`e < d ≤ 2ˡ⁺¹`), with a
    /// 33-bit factor `⌈2³³⁺ˡ / d⌉ = 2³² + m`.
    fn of(d: u32) -> Reciprocal {
        if d.is_power_of_two() {
            return Reciprocal::Shift(d.trailing_zeros());
        }
        let l = 31 - d.leading_zeros();
        let d64 = u64::from(d);
        let m = (1u64 << (32 + l)).div_ceil(d64);
        if m * d64 - (1u64 << (32 + l)) <= 1u64 << l {
            return Reciprocal::Multiply { m: m as u32, s: l };
        }
        // Up to 2⁶⁴ / d: 128-bit arithmetic.
        let m = (1u128 << (33 + l)).div_ceil(u128::from(d));
        Reciprocal::MultiplyAdd {
            m: (m - (1 << 32)) as u32,
            s: l,
        }
    }

    /// `⌊n / d⌋` computed as the form says (the scalar model of [`unsigned_quotient`]).
    #[cfg(test)]
    fn apply(self, n: u32) -> u32 {
        let high = |m: u32| ((u64::from(n) * u64::from(m)) >> 32) as u32;
        match self {
            Reciprocal::Shift(s) => n >> s,
            Reciprocal::Multiply { m, s } => high(m) >> s,
            Reciprocal::MultiplyAdd { m, s } => {
                let t = high(m);
                (((n - t) >> 1) + t) >> s
            }
        }
    }
}

/// `⌊n / d⌋` per lane for the constant `d ≥ 1` ([`Reciprocal`]).
fn unsigned_quotient(b: &mut FunctionBuilder, n: Value, d: u32) -> Value {
    match Reciprocal::of(d) {
        Reciprocal::Shift(s) => shift(b, n, i64::from(s), false),
        Reciprocal::Multiply { m, s } => {
            let t = high_product(b, n, m);
            shift(b, t, i64::from(s), false)
        }
        Reciprocal::MultiplyAdd { m, s } => {
            let t = high_product(b, n, m);
            let half = b.ins().isub(n, t);
            let half = shift(b, half, 1, false);
            let sum = b.ins().iadd(half, t);
            shift(b, sum, i64::from(s), false)
        }
    }
}

/// The high words of the 64-bit products `n · m` per lane (even and odd lanes multiplied
/// apart).
fn high_product(b: &mut FunctionBuilder, n: Value, m: u32) -> Value {
    let m = b.splat_word(m);
    let products = [false, true].map(|high| {
        let (x, f) = if high {
            (b.ins().uwiden_high(n), b.ins().uwiden_high(m))
        } else {
            (b.ins().uwiden_low(n), b.ins().uwiden_low(m))
        };
        let p = b.ins().imul(x, f);
        b.ins().bitcast(I32X4, le(), p)
    });
    shuffle_words(b, products[0], products[1], [1, 3, 5, 7])
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

#[cfg(test)]
mod tests {
    use super::Reciprocal;

    /// Each form gives `⌊n / d⌋` on the dividends where an error would show first: the
    /// multiples of `d` and their neighbours up to the top of the range, the top itself,
    /// and pseudo-random words; for every divisor up to 4,096 and for divisors near powers
    /// of two and the top of the range, which take each form.
    #[test]
    fn reciprocals_give_the_quotient() {
        let mut next = crate::sampler::tests::xorshift(0x9e37_79b9);
        let mut divisors: Vec<u32> = (1..=4096).collect();
        for k in 1..32 {
            let p = 1u32 << k;
            divisors.extend([p - 1, p + 1, p.wrapping_mul(3) / 2]);
        }
        divisors.extend([
            0xffff_ffff,
            0xffff_fffe,
            0x8000_0001,
            641,
            6_700_417,
            1_000_000_007,
        ]);
        divisors.extend((0..256).map(|_| next() | 1));
        let mut forms = [0usize; 3];
        for &d in divisors.iter().filter(|&&d| d != 0) {
            let r = Reciprocal::of(d);
            forms[match r {
                Reciprocal::Shift(_) => 0,
                Reciprocal::Multiply { .. } => 1,
                Reciprocal::MultiplyAdd { .. } => 2,
            }] += 1;
            let top = u32::MAX / d;
            let near = [0, 1, 2, top / 2, top.saturating_sub(1), top];
            let quotients = near
                .into_iter()
                .filter(|&q| q <= top)
                .chain((0..24).map(|_| (u64::from(next()) % (u64::from(top) + 1)) as u32));
            for q in quotients {
                let m = q * d;
                for n in [
                    m,
                    m.saturating_sub(1),
                    m.saturating_add(1),
                    m.saturating_add(d - 1),
                ] {
                    assert_eq!(r.apply(n), n / d, "{n} / {d} by {r:?}");
                }
            }
            for n in [0, 1, u32::MAX, u32::MAX - 1, 0x8000_0000, next()] {
                assert_eq!(r.apply(n), n / d, "{n} / {d} by {r:?}");
            }
        }
        assert!(
            forms.iter().all(|&f| f > 10),
            "each form is exercised: {forms:?}"
        );
    }
}
