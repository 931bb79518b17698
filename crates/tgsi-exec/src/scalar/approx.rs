//! Approximate EX2, LG2, SIN and COS: what an engine may compute instead of glibc's
//! `exp2f`/`logf`/`sinf`/`cosf` when its user asks for fast math explicitly (the default is
//! always the exact scalar semantics of [`crate::scalar::float`]). POW keeps `powf` even
//! then: written as EX2 of LG2 with `powf`'s sign rules, its vector form was longer code
//! than a host call of `powf` for many lanes at once, and slower (the JIT's benchmark of a
//! long ALU chain with four POWs ran 1.7 times as fast with `powf`).
//!
//! Each function is written once, over [`Arith`]: the operations of a vector instruction
//! set (IEEE adds, multiplies and divides, rounding to an integral value, conversions, bit
//! operations, comparisons and selects). [`Scalar`] runs it on one `f32`, which defines
//! the results and is what the error bounds are checked on; the JIT implements [`Arith`]
//! on four-lane vectors, so its code is the same sequence of operations and gives the same
//! bits in every lane (its tests check that).
//!
//! Error bounds, checked by this module's tests against `f64` references on every
//! 4,099th binary32 input; `TGSI_APPROX_STRIDE=1 cargo test --release -p tgsi-exec
//! approx -- --nocapture` checks every input and prints the worst case (measured that way:
//! EX2 1.15 ULP, LG2 1.98 ULP, SIN and COS 1.6 · 2⁻²⁴):
//!
//! | function | bound |
//! |---|---|
//! | [`ex2`] | 2 ULP for `x > −125.5`; +0 from there down (flushed, as GPUs do) |
//! | [`lg2`] | 2 ULP |
//! | [`sin`], [`cos`] | 2⁻²² absolute for `\|x\| ≤ 2¹⁶`; beyond, some value in [−1, 1] (sin 0 and cos 1 from 2³⁰ on) |
//!
//! No step produces a subnormal float from normal operands (x86 computes those in
//! microcode, dozens of times slower): `ex2` flushes such results to zero, and `lg2` reads
//! a subnormal input through an integer conversion.
//!
//! Special values: `ex2(±∞) = ∞, 0`; `lg2(0) = −∞`, `lg2(∞) = ∞`, `lg2(x < 0) = NaN`;
//! `sin`/`cos` of ±∞ are NaN; NaN inputs give NaN.

/// The operations the approximations are written in. Every operation is exact IEEE
/// binary32 arithmetic (one rounding, to nearest even; with a NaN operand, SSE's result:
/// the first NaN operand, quieted) or exact bit manipulation, so any implementation
/// computes the same bits.
pub trait Arith {
    /// A float (one lane, or a vector of lanes).
    type F: Copy;
    /// Per-lane conditions, from comparisons.
    type M: Copy;
    /// The constant `x`.
    fn float(&mut self, x: f32) -> Self::F;
    /// A float whose bits are `bits`.
    fn bits_const(&mut self, bits: u32) -> Self::F;
    /// `x + y`.
    fn add(&mut self, x: Self::F, y: Self::F) -> Self::F;
    /// `x − y`.
    fn sub(&mut self, x: Self::F, y: Self::F) -> Self::F;
    /// `x · y`.
    fn mul(&mut self, x: Self::F, y: Self::F) -> Self::F;
    /// `x / y`.
    fn div(&mut self, x: Self::F, y: Self::F) -> Self::F;
    /// `x` rounded to an integral value, ties to even.
    fn round(&mut self, x: Self::F) -> Self::F;
    /// The integral float `x` as a 32-bit integer, in the bits of the result (NaN and
    /// values out of range give `i32::MIN`, as `cvttps2dq`).
    fn to_int(&mut self, x: Self::F) -> Self::F;
    /// The 32-bit integer in the bits of `x`, converted to float.
    fn to_float(&mut self, x: Self::F) -> Self::F;
    /// The bits of `x` and `y` added as integers (wrapping).
    fn iadd(&mut self, x: Self::F, y: Self::F) -> Self::F;
    /// The bits of `x` minus those of `y` as integers (wrapping).
    fn isub(&mut self, x: Self::F, y: Self::F) -> Self::F;
    /// The bits of `x` and `y`, and-ed.
    fn and(&mut self, x: Self::F, y: Self::F) -> Self::F;
    /// The bits of `x` and `y`, xor-ed.
    fn xor(&mut self, x: Self::F, y: Self::F) -> Self::F;
    /// The bits of `x` shifted left by `n`.
    fn shl(&mut self, x: Self::F, n: u8) -> Self::F;
    /// The bits of `x` shifted right by `n`, arithmetically.
    fn sar(&mut self, x: Self::F, n: u8) -> Self::F;
    /// `x < y` (false when either is NaN).
    fn lt(&mut self, x: Self::F, y: Self::F) -> Self::M;
    /// `x == y` as floats (false when either is NaN).
    fn eq(&mut self, x: Self::F, y: Self::F) -> Self::M;
    /// Whether the bits of `x` and `y` are equal.
    fn ieq(&mut self, x: Self::F, y: Self::F) -> Self::M;
    /// `m ? x : y`.
    fn select(&mut self, m: Self::M, x: Self::F, y: Self::F) -> Self::F;
}

/// [`Arith`] on one `f32`: the definition of the results.
pub struct Scalar;

impl Arith for Scalar {
    type F = f32;
    type M = bool;
    fn float(&mut self, x: f32) -> f32 {
        x
    }
    fn bits_const(&mut self, bits: u32) -> f32 {
        f32::from_bits(bits)
    }
    fn add(&mut self, x: f32, y: f32) -> f32 {
        super::float::add(x, y)
    }
    fn sub(&mut self, x: f32, y: f32) -> f32 {
        super::float::sub(x, y)
    }
    fn mul(&mut self, x: f32, y: f32) -> f32 {
        super::float::mul(x, y)
    }
    fn div(&mut self, x: f32, y: f32) -> f32 {
        super::float::div(x, y)
    }
    fn round(&mut self, x: f32) -> f32 {
        x.round_ties_even()
    }
    fn to_int(&mut self, x: f32) -> f32 {
        f32::from_bits(super::float::f2i(x) as u32)
    }
    fn to_float(&mut self, x: f32) -> f32 {
        x.to_bits() as i32 as f32
    }
    fn iadd(&mut self, x: f32, y: f32) -> f32 {
        f32::from_bits(x.to_bits().wrapping_add(y.to_bits()))
    }
    fn isub(&mut self, x: f32, y: f32) -> f32 {
        f32::from_bits(x.to_bits().wrapping_sub(y.to_bits()))
    }
    fn and(&mut self, x: f32, y: f32) -> f32 {
        f32::from_bits(x.to_bits() & y.to_bits())
    }
    fn xor(&mut self, x: f32, y: f32) -> f32 {
        f32::from_bits(x.to_bits() ^ y.to_bits())
    }
    fn shl(&mut self, x: f32, n: u8) -> f32 {
        f32::from_bits(x.to_bits() << n)
    }
    fn sar(&mut self, x: f32, n: u8) -> f32 {
        f32::from_bits(((x.to_bits() as i32) >> n) as u32)
    }
    fn lt(&mut self, x: f32, y: f32) -> bool {
        x < y
    }
    fn eq(&mut self, x: f32, y: f32) -> bool {
        x == y
    }
    fn ieq(&mut self, x: f32, y: f32) -> bool {
        x.to_bits() == y.to_bits()
    }
    fn select(&mut self, m: bool, x: f32, y: f32) -> f32 {
        if m {
            x
        } else {
            y
        }
    }
}

/// `(2^f − 1) / f` on [−½, ½], highest degree first (a Chebyshev fit rounded to binary32).
const EX2_POLY: [f32; 6] = [
    f32::from_bits(0x392209c5), // 0.00015453163
    f32::from_bits(0x3aaf8448), // 0.0013390863
    f32::from_bits(0x3c1d952a), // 0.009618083
    f32::from_bits(0x3d6357b6), // 0.05550357
    f32::from_bits(0x3e75fdf0), // 0.24022651
    f32::from_bits(0x3f317218), // 0.6931472
];

/// `(sin r − r) / r³` as a polynomial in `r²`, for `|r| ≤ π/4`.
const SIN_POLY: [f32; 3] = [
    f32::from_bits(0xb94d64d8), // -0.00019587891
    f32::from_bits(0x3c088614), // 0.008332748
    f32::from_bits(0xbe2aaaa9), // -0.16666664
];

/// `(cos r − 1 + r²/2) / r⁴` as a polynomial in `r²`, for `|r| ≤ π/4`.
const COS_POLY: [f32; 3] = [
    f32::from_bits(0x37cdec4e), // 2.4547942e-05
    f32::from_bits(0xbab60969), // -0.0013888302
    f32::from_bits(0x3d2aaaaa), // 0.041666664
];

/// `(log2(1 + y) / s − 2/ln 2) / s²` (with `s = y / (2 + y)`) as a polynomial in `s²`, for `|s| ≤ 3 − 2√2`.
const LG2_POLY: [f32; 4] = [
    f32::from_bits(0x3eac5532), // 0.3365875
    f32::from_bits(0x3ed2e4b9), // 0.41190126
    f32::from_bits(0x3f13bb80), // 0.5770798
    f32::from_bits(0x3f76384f), // 0.9617967
];

/// `1/ln 2 − LOG2_E` (the rounding error of `std::f32::consts::LOG2_E`).
const LOG2_E_REST: f32 = f32::from_bits(0x32a57060); // 1.925963e-8

/// π/2 in three parts: the first two have 8 significant bits, so their products with a
/// quadrant count below 2¹⁶ are exact (Cody and Waite's reduction).
const HALF_PI: [f32; 3] = [
    f32::from_bits(0x3fc90000), // 1.5703125
    f32::from_bits(0x39fe0000), // 0.00048446655
    f32::from_bits(0xb52bbbd3), // -6.3975784e-07
];

/// The bits of √½: mantissas are reduced to [√½, √2).
const SQRT_HALF_BITS: u32 = 0x3f35_04f3;

/// `p(x)` by Horner's rule, coefficients highest degree first.
fn horner<A: Arith>(a: &mut A, x: A::F, coefficients: &[f32]) -> A::F {
    let mut p = a.float(coefficients[0]);
    for &c in &coefficients[1..] {
        let px = a.mul(p, x);
        let c = a.float(c);
        p = a.add(px, c);
    }
    p
}

/// `x` limited to [lo, hi]; NaN passes.
fn clamp<A: Arith>(a: &mut A, x: A::F, lo: f32, hi: f32) -> A::F {
    let (lo, hi) = (a.float(lo), a.float(hi));
    let below = a.lt(x, lo);
    let x = a.select(below, lo, x);
    let above = a.lt(hi, x);
    a.select(above, hi, x)
}

/// `2^k` for the integer `k` (in the bits of a float) in [−126, 127].
fn pow2<A: Arith>(a: &mut A, k: A::F) -> A::F {
    let bias = a.bits_const(127);
    let e = a.iadd(k, bias);
    a.shl(e, 23)
}

/// Approximate EX2: `2^x`.
pub fn ex2<A: Arith>(a: &mut A, x: A::F) -> A::F {
    // Beyond [−151, 129] the result is 0 or ∞ anyway.
    let x = clamp(a, x, -151.0, 129.0);
    let n = a.round(x);
    let f = a.sub(x, n);
    let q = horner(a, f, &EX2_POLY);
    let fq = a.mul(f, q);
    let one = a.float(1.0);
    let p = a.add(one, fq);
    // p · 2^n, which is normal from n = −125 on (p > 2^−½); below, +0.
    let lowest = a.float(-125.0);
    let flushed = a.lt(n, lowest);
    let n = a.select(flushed, lowest, n);
    // 2^n as 2^h · 2^(n−h), both factors normal for n in [−125, 129].
    let n = a.to_int(n);
    let h = a.sar(n, 1);
    let l = a.isub(n, h);
    let (sh, sl) = (pow2(a, h), pow2(a, l));
    let p = a.mul(p, sh);
    let p = a.mul(p, sl);
    let zero = a.float(0.0);
    a.select(flushed, zero, p)
}

/// Approximate LG2: `log2 x`.
pub fn lg2<A: Arith>(a: &mut A, x: A::F) -> A::F {
    // A subnormal is its bits as an integer times 2⁻¹⁴⁹: that integer, converted, is
    // normal (an exact conversion, where a multiply would take the slow path).
    let min_normal = a.float(f32::MIN_POSITIVE);
    let small = a.lt(x, min_normal);
    let scaled = a.to_float(x);
    let x_normal = a.select(small, scaled, x);
    let (minus_149, zero) = (a.float(-149.0), a.float(0.0));
    let bias = a.select(small, minus_149, zero);
    // x = m · 2^e with m in [√½, √2).
    let sqrt_half = a.bits_const(SQRT_HALF_BITS);
    let t = a.isub(x_normal, sqrt_half);
    let e = a.sar(t, 23);
    let e_bits = a.shl(e, 23);
    let m = a.isub(x_normal, e_bits);
    // log2 m = s·(2/ln 2) + s³·P(s²) with s = (m − 1)/(m + 1) = y/(2 + y); y is exact.
    let (one, two) = (a.float(1.0), a.float(2.0));
    let y = a.sub(m, one);
    let d = a.add(y, two);
    let s = a.div(y, d);
    let z = a.mul(s, s);
    let p = horner(a, z, &LG2_POLY);
    let sz = a.mul(s, z);
    let tail = a.mul(sz, p);
    // 2s as y − s·y, where the error of s counts |y|/2 times less.
    let sy = a.mul(s, y);
    let two_s = a.sub(y, sy);
    // 2s/ln 2 with 1/ln 2 in two parts, the small one added to the tail.
    let lead = a.float(std::f32::consts::LOG2_E);
    let head = a.mul(two_s, lead);
    let lead_rest = a.float(LOG2_E_REST);
    let rest = a.mul(two_s, lead_rest);
    let tail = a.add(tail, rest);
    let log_m = a.add(head, tail);
    let e = a.to_float(e);
    let e = a.add(e, bias);
    let r = a.add(e, log_m);
    // Special values.
    let inf = a.float(f32::INFINITY);
    let is_inf = a.eq(x, inf);
    let r = a.select(is_inf, inf, r);
    let is_zero = a.eq(x, zero);
    let minus_inf = a.float(f32::NEG_INFINITY);
    let r = a.select(is_zero, minus_inf, r);
    let negative = a.lt(x, zero);
    let nan = a.float(f32::NAN);
    let r = a.select(negative, nan, r);
    let ordered = a.eq(x, x);
    a.select(ordered, r, x)
}

/// Approximate SIN: `sin x`.
pub fn sin<A: Arith>(a: &mut A, x: A::F) -> A::F {
    sin_quadrant(a, x, 0)
}

/// Approximate COS: `cos x`, which is `sin` a quadrant on.
pub fn cos<A: Arith>(a: &mut A, x: A::F) -> A::F {
    sin_quadrant(a, x, 1)
}

/// `sin(x + quarter·π/2)`.
fn sin_quadrant<A: Arith>(a: &mut A, x: A::F, quarter: u32) -> A::F {
    // From 2³⁰ on, x·0: ±0, or NaN for ±∞ (below, the reduction stays finite).
    let magnitude = a.bits_const(0x7fff_ffff);
    let abs_x = a.and(x, magnitude);
    let limit = a.float(1_073_741_824.0);
    let huge = a.lt(limit, abs_x);
    let zero = a.float(0.0);
    let x_zero = a.mul(x, zero);
    let x = a.select(huge, x_zero, x);
    // x = q·π/2 + r with |r| ≤ π/4.
    let two_over_pi = a.float(std::f32::consts::FRAC_2_PI);
    let scaled = a.mul(x, two_over_pi);
    let q = a.round(scaled);
    let mut r = x;
    for part in HALF_PI {
        let part = a.float(part);
        let qp = a.mul(q, part);
        r = a.sub(r, qp);
    }
    let z = a.mul(r, r);
    // sin r = r + r³·S(r²).
    let sp = horner(a, z, &SIN_POLY);
    let rz = a.mul(r, z);
    let sp = a.mul(rz, sp);
    let sin_r = a.add(r, sp);
    // cos r = (1 − r²/2) + r⁴·C(r²).
    let cp = horner(a, z, &COS_POLY);
    let zz = a.mul(z, z);
    let cp = a.mul(zz, cp);
    let half = a.float(0.5);
    let hz = a.mul(z, half);
    let one = a.float(1.0);
    let c = a.sub(one, hz);
    let cos_r = a.add(c, cp);
    // Quadrant k = q + quarter: odd ones take the cosine, 2 and 3 the negated value.
    let q = a.to_int(q);
    let quarter = a.bits_const(quarter);
    let k = a.iadd(q, quarter);
    let one_bit = a.bits_const(1);
    let odd = a.and(k, one_bit);
    let no_bits = a.bits_const(0);
    let is_even = a.ieq(odd, no_bits);
    let r = a.select(is_even, sin_r, cos_r);
    let two_bit = a.bits_const(2);
    let negate = a.and(k, two_bit);
    let sign = a.shl(negate, 30);
    let r = a.xor(r, sign);
    // Far outside the accurate range the reduction fails; stay in [−1, 1].
    clamp(a, r, -1.0, 1.0)
}

#[cfg(test)]
mod tests {
    //! The error bounds of the module's table, over every `stride`-th binary32 bit pattern
    //! (`TGSI_APPROX_STRIDE`, default 4099; `TGSI_APPROX_STRIDE=1 cargo test --release -p
    //! tgsi-exec approx -- --nocapture` checks and prints them over every input).

    use super::*;

    fn stride() -> usize {
        std::env::var("TGSI_APPROX_STRIDE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(4099)
    }

    /// Every `stride`-th float, and the special values.
    fn inputs() -> impl Iterator<Item = f32> {
        inputs_every(stride())
    }

    /// Every `n`-th float, and the special values.
    fn inputs_every(n: usize) -> impl Iterator<Item = f32> {
        let special = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::from_bits(1),
        ];
        (0..=u32::MAX).step_by(n).map(f32::from_bits).chain(special)
    }

    /// The distance from `approx` to `exact` in units in the last place of `exact` as a
    /// binary32 (subnormal units below 2⁻¹²⁶).
    fn ulps(approx: f32, exact: f64) -> f64 {
        let unit = if exact.abs() < f64::from(f32::MIN_POSITIVE) {
            2f64.powi(-149)
        } else {
            2f64.powi(exact.abs().log2().floor() as i32 - 23)
        };
        (f64::from(approx) - exact).abs() / unit
    }

    /// The worst of `(error, input)` pairs.
    fn worst(errors: impl Iterator<Item = (f64, f32)>) -> (f64, f32) {
        errors.fold((0.0, 0.0), |w, e| if e.0 > w.0 { e } else { w })
    }

    #[test]
    fn ex2_is_within_2_ulp() {
        let mut specials = 0;
        let (err, at) = worst(inputs().filter_map(|x| {
            let r = ex2(&mut Scalar, x);
            let exact = 2f64.powf(f64::from(x));
            if x.is_nan() || exact > f64::from(f32::MAX) {
                let expected = if x.is_nan() { f32::NAN } else { exact as f32 };
                assert_eq!(r.is_nan(), expected.is_nan(), "ex2({x:e}) = {r:e}");
                if !x.is_nan() {
                    assert!(r == expected || ulps(r, exact) <= 1.0, "ex2({x:e}) = {r:e}");
                }
                specials += 1;
                return None;
            }
            if x <= -125.5 {
                // Flushed: +0, never a subnormal.
                assert_eq!(r.to_bits(), 0, "ex2({x:e}) = {r:e}");
                specials += 1;
                return None;
            }
            Some((ulps(r, exact), x))
        }));
        println!("ex2: {err:.3} ULP at {at:e} ({specials} special)");
        assert!(err <= 2.0, "ex2: {err} ULP at {at:e}");
        assert_eq!(ex2(&mut Scalar, 0.0), 1.0);
        assert_eq!(ex2(&mut Scalar, 10.0), 1024.0);
        assert_eq!(ex2(&mut Scalar, -125.0), 2f32.powi(-125));
        assert_eq!(ex2(&mut Scalar, -126.0).to_bits(), 0);
    }

    #[test]
    fn lg2_is_within_2_ulp() {
        let (err, at) = worst(inputs().filter_map(|x| {
            let r = lg2(&mut Scalar, x);
            if !(x > 0.0 && x.is_finite()) {
                let expected = (f64::from(x)).log2() as f32;
                assert!(
                    r == expected || r.is_nan() && expected.is_nan(),
                    "lg2({x:e}) = {r:e}"
                );
                return None;
            }
            Some((ulps(r, f64::from(x).log2()), x))
        }));
        println!("lg2: {err:.3} ULP at {at:e}");
        assert!(err <= 2.0, "lg2: {err} ULP at {at:e}");
        assert_eq!(lg2(&mut Scalar, 1.0), 0.0);
        assert_eq!(lg2(&mut Scalar, 1024.0), 10.0);
    }

    /// `f` against `exact` in absolute error over |x| ≤ 2¹⁶; [−1, 1] beyond.
    fn check_sine(name: &str, f: fn(&mut Scalar, f32) -> f32, exact: fn(f64) -> f64) {
        let (err, at) = worst(inputs().filter_map(|x| {
            let r = f(&mut Scalar, x);
            if !x.is_finite() {
                assert!(r.is_nan(), "{name}({x:e}) = {r:e}");
                return None;
            }
            assert!((-1.0..=1.0).contains(&r), "{name}({x:e}) = {r:e}");
            (x.abs() <= 65536.0).then(|| ((f64::from(r) - exact(f64::from(x))).abs(), x))
        }));
        println!(
            "{name}: {err:e} absolute ({:.2} × 2⁻²⁴) at {at:e}",
            err * 2f64.powi(24)
        );
        assert!(err <= 2f64.powi(-22), "{name}: {err:e} at {at:e}");
    }

    #[test]
    fn sin_is_within_2_pow_minus_22() {
        check_sine("sin", sin, f64::sin);
        assert_eq!(sin(&mut Scalar, 0.0), 0.0);
    }

    #[test]
    fn cos_is_within_2_pow_minus_22() {
        check_sine("cos", cos, f64::cos);
        assert_eq!(cos(&mut Scalar, 0.0), 1.0);
    }
}
