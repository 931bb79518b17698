//! 64-bit semantics: doubles (`D*` opcodes) and 64-bit integers (`I64*`, `U64*`), with
//! softpipe's division-by-zero constants, masked shift counts and x86-64 conversion results.

/// A comparison mask: `~0` when true.
fn mask(b: bool) -> u32 {
    if b {
        u32::MAX
    } else {
        0
    }
}

/// The result of an SSE arithmetic instruction `x op y` computed as `r`: when an operand is
/// a NaN, the first NaN operand, quieted (written out so that the compiler's freedom to
/// commute `x op y` where it inlines the operation cannot change which NaN survives).
#[inline(always)]
fn sse_result(x: f64, y: f64, r: f64) -> f64 {
    let n = if x.is_nan() { x } else { y };
    if n.is_nan() {
        f64::from_bits(n.to_bits() | 1 << 51)
    } else {
        r
    }
}

/// DADD.
pub fn dadd(a: f64, b: f64) -> f64 {
    sse_result(a, b, a + b)
}

/// DMUL.
pub fn dmul(a: f64, b: f64) -> f64 {
    sse_result(a, b, a * b)
}

/// DDIV.
pub fn ddiv(a: f64, b: f64) -> f64 {
    sse_result(a, b, a / b)
}

/// DMAD: two roundings.
pub fn dmad(a: f64, b: f64, c: f64) -> f64 {
    dadd(dmul(a, b), c)
}

/// DFMA: one rounding. A NaN operand gives the first NaN of `a`, `b`, `c`, quieted, as
/// [`crate::scalar::float::fma`] (written out for the same reason).
pub fn dfma(a: f64, b: f64, c: f64) -> f64 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        let n = [a, b, c].into_iter().find(|x| x.is_nan()).unwrap_or(c);
        return f64::from_bits(n.to_bits() | 1 << 51);
    }
    a.mul_add(b, c)
}

/// What glibc's `fmin`/`fmax` return when a NaN is involved: with a signalling NaN, or two
/// NaNs, the first NaN operand quieted (SSE `a + b`, written out so LLVM cannot commute it);
/// a single quiet NaN is ignored. `None` when neither is NaN.
fn c_minmax_nan(a: f64, b: f64) -> Option<f64> {
    let quiet = |x: f64| f64::from_bits(x.to_bits() | 1 << 51);
    let snan = |x: f64| x.is_nan() && x.to_bits() & 1 << 51 == 0;
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Some(quiet(a)),
        _ if snan(a) => Some(quiet(a)),
        _ if snan(b) => Some(quiet(b)),
        (true, false) => Some(b),
        (false, true) => Some(a),
        (false, false) => None,
    }
}

/// DMAX: softpipe's results (fsref case `exec-fp64-minmax-nan`) are those of glibc's
/// `fmax(src1, src0)`, operands swapped as for the 32-bit MAX: on a ±0 tie src0 is returned,
/// a quiet NaN is ignored, a signalling NaN comes back quieted, and of two NaNs src1's.
pub fn dmax(a: f64, b: f64) -> f64 {
    let (x, y) = (b, a);
    match c_minmax_nan(x, y) {
        Some(r) => r,
        None if x > y => x,
        None => y,
    }
}

/// DMIN: glibc's `fmin(src1, src0)` (see [`dmax`]).
pub fn dmin(a: f64, b: f64) -> f64 {
    let (x, y) = (b, a);
    match c_minmax_nan(x, y) {
        Some(r) => r,
        None if x < y => x,
        None => y,
    }
}

/// DABS: `a >= 0 ? a : -a`, softpipe's rule for what the spec leaves open: −0.0 stays
/// negative and a NaN's sign flips (fsref case `exec-fp64-abs-neg`).
pub fn dabs(a: f64) -> f64 {
    if a >= 0.0 {
        a
    } else {
        -a
    }
}

/// DNEG.
pub fn dneg(a: f64) -> f64 {
    -a
}

/// DSLT.
pub fn dslt(a: f64, b: f64) -> u32 {
    mask(a < b)
}

/// DSGE.
pub fn dsge(a: f64, b: f64) -> u32 {
    mask(a >= b)
}

/// DSEQ.
pub fn dseq(a: f64, b: f64) -> u32 {
    mask(a == b)
}

/// DSNE.
pub fn dsne(a: f64, b: f64) -> u32 {
    mask(a != b)
}

/// DRCP.
pub fn drcp(a: f64) -> f64 {
    1.0 / a
}

/// DSQRT.
pub fn dsqrt(a: f64) -> f64 {
    a.sqrt()
}

/// DRSQ.
pub fn drsq(a: f64) -> f64 {
    1.0 / a.sqrt()
}

/// DFRAC: `x − floor(x)`.
pub fn dfrac(a: f64) -> f64 {
    a - a.floor()
}

/// `round(a)`, a NaN returned unchanged (signalling ones too), as by the float rounding
/// opcodes ([`crate::scalar::float::flr`]): written out because the compiler may round
/// with an instruction that quiets a signalling NaN or with integer code that keeps it,
/// depending on the CPU it compiles for.
fn integral(a: f64, round: fn(f64) -> f64) -> f64 {
    if a.is_nan() {
        return a;
    }
    round(a)
}

/// DFLR.
pub fn dflr(a: f64) -> f64 {
    integral(a, f64::floor)
}

/// DCEIL.
pub fn dceil(a: f64) -> f64 {
    integral(a, f64::ceil)
}

/// DTRUNC.
pub fn dtrunc(a: f64) -> f64 {
    integral(a, f64::trunc)
}

/// DROUND: half to even, like ROUND.
pub fn dround(a: f64) -> f64 {
    integral(a, f64::round_ties_even)
}

/// DSSG: −1 / 0 / +1; NaN → 0.
pub fn dssg(a: f64) -> f64 {
    if a > 0.0 {
        1.0
    } else if a < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Double saturation: NaN and negatives → 0, above 1 → 1.
pub fn dsaturate(a: f64) -> f64 {
    if a > 1.0 {
        1.0
    } else if a > 0.0 {
        a
    } else {
        0.0
    }
}

/// DLDEXP: `ldexp(a, n)`, correctly rounded.
pub fn dldexp(mut x: f64, mut n: i32) -> f64 {
    let p1023 = f64::from_bits(0x7fe0_0000_0000_0000);
    let pm969 = f64::from_bits(0x0360_0000_0000_0000); // 2^-1022 · 2^53
    if n > 1023 {
        x *= p1023;
        n -= 1023;
        if n > 1023 {
            x *= p1023;
            n = (n - 1023).min(1023);
        }
    } else if n < -1022 {
        x *= pm969;
        n += 969;
        if n < -1022 {
            x *= pm969;
            n = (n + 969).max(-1022);
        }
    }
    x * f64::from_bits(((0x3ff + n) as u64) << 52)
}

/// DFRACEXP: C `frexp` — significand in [0.5, 1) and exponent; 0 and ±∞ give `(x, 0)`, a
/// NaN `(x, 0)` quieted (glibc's `x + x`).
pub fn dfracexp(x: f64) -> (f64, i32) {
    if x.is_nan() {
        return (f64::from_bits(x.to_bits() | 1 << 51), 0);
    }
    if x == 0.0 || x.is_infinite() {
        return (x, 0);
    }
    let (x, bias) = if x.abs() < f64::MIN_POSITIVE {
        (x * f64::from_bits(0x4350_0000_0000_0000), -54) // · 2^54
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (0x3fe << 52));
    (m, e - 1022 + bias)
}

/// `(int32_t)x` on x86-64: NaN and out-of-range → `0x80000000`.
pub fn d2i(x: f64) -> i32 {
    if x > -2147483649.0 && x < 2147483648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// `(uint32_t)x` as GCC compiles it on x86-64: low word of a 64-bit truncation.
pub fn d2u(x: f64) -> u32 {
    d2i64(x) as u32
}

/// `(int64_t)x` on x86-64: NaN and out-of-range → `i64::MIN`.
pub fn d2i64(x: f64) -> i64 {
    if (-9223372036854775808.0..9223372036854775808.0).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

/// `(uint64_t)x` as GCC compiles it on x86-64: below 2^63 (or NaN) a signed conversion,
/// otherwise the signed conversion of `x − 2^63` with bit 63 flipped.
pub fn d2u64(x: f64) -> u64 {
    let two63 = 9223372036854775808.0;
    if x >= two63 {
        (d2i64(x - two63) as u64) ^ (1 << 63)
    } else {
        d2i64(x) as u64
    }
}

/// A 64-bit comparison mask.
fn mask64(b: bool) -> u32 {
    mask(b)
}

/// U64SEQ.
pub fn u64seq(a: u64, b: u64) -> u32 {
    mask64(a == b)
}

/// U64SNE.
pub fn u64sne(a: u64, b: u64) -> u32 {
    mask64(a != b)
}

/// U64SLT.
pub fn u64slt(a: u64, b: u64) -> u32 {
    mask64(a < b)
}

/// U64SGE.
pub fn u64sge(a: u64, b: u64) -> u32 {
    mask64(a >= b)
}

/// I64SLT.
pub fn i64slt(a: i64, b: i64) -> u32 {
    mask64(a < b)
}

/// I64SGE.
pub fn i64sge(a: i64, b: i64) -> u32 {
    mask64(a >= b)
}

/// I64DIV: by zero → 0; `i64::MIN / −1` → `i64::MIN`.
pub fn i64div(a: i64, b: i64) -> i64 {
    if b == 0 {
        0
    } else {
        a.wrapping_div(b)
    }
}

/// U64DIV: by zero → all ones.
pub fn u64div(a: u64, b: u64) -> u64 {
    a.checked_div(b).unwrap_or(u64::MAX)
}

/// I64MOD: by zero → −1; `i64::MIN % −1` → 0.
pub fn i64mod(a: i64, b: i64) -> i64 {
    if b == 0 {
        -1
    } else {
        a.wrapping_rem(b)
    }
}

/// U64MOD: by zero → all ones.
pub fn u64mod(a: u64, b: u64) -> u64 {
    a.checked_rem(b).unwrap_or(u64::MAX)
}

/// U64SHL: count masked with 63.
pub fn u64shl(a: u64, b: u64) -> u64 {
    a << (b & 63)
}

/// U64SHR: logical.
pub fn u64shr(a: u64, b: u64) -> u64 {
    a >> (b & 63)
}

/// I64SHR: arithmetic.
pub fn i64shr(a: i64, b: i64) -> i64 {
    a >> (b & 63)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Of two NaN operands the first survives, quieted, whichever order the compiler
    /// evaluates them in; a single NaN survives quieted.
    #[test]
    fn arithmetic_nans_follow_sse() {
        let bits = f64::to_bits;
        let (a, b) = (f64::from_bits(0x7ff8_0000_0000_0001), -f64::NAN);
        let snan = f64::from_bits(0x7ff0_0000_0000_0002);
        for op in [dadd, dmul, ddiv] {
            assert_eq!(bits(op(a, b)), bits(a));
            assert_eq!(bits(op(b, a)), bits(b));
            assert_eq!(bits(op(1.0, snan)), 0x7ff8_0000_0000_0002);
        }
        assert_eq!(bits(dmad(b, a, 1.0)), bits(b));
        assert_eq!(bits(dmad(2.0, 3.0, a)), bits(a));
    }

    #[test]
    fn conversions_follow_x86() {
        assert_eq!(d2i(f64::NAN), i32::MIN);
        assert_eq!(d2i(-2147483648.9), i32::MIN);
        assert_eq!(d2i(-2147483649.0), i32::MIN);
        assert_eq!(d2u(-1.0), u32::MAX);
        assert_eq!(d2u64(f64::NAN), 1 << 63);
        assert_eq!(d2u64(1e19), 10_000_000_000_000_000_000);
        assert_eq!(d2u64(f64::INFINITY), 0);
        assert_eq!(d2u64(-1.0), u64::MAX);
    }

    #[test]
    fn frexp_and_ldexp() {
        assert_eq!(dfracexp(8.0), (0.5, 4));
        assert_eq!(dfracexp(-0.75), (-0.75, 0));
        assert_eq!(dfracexp(f64::from_bits(1)), (0.5, -1073));
        assert_eq!(dldexp(0.5, -1073), f64::from_bits(1));
        assert_eq!(dldexp(1.0, 1024), f64::INFINITY);
        assert_eq!(i64div(5, 0), 0);
        assert_eq!(u64mod(5, 0), u64::MAX);
        assert_eq!(i64mod(5, 0), -1);
        assert_eq!(u64shl(1, 65), 2);
    }
}
