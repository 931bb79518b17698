//! 32-bit float semantics, matching softpipe on x86-64 with glibc: transcendental functions
//! go through the platform C library (`powf`, `logf`, `sinf`, `cosf`), `fminf`/`fmaxf` follow
//! glibc's x86-64 code, and nothing is contracted into fused multiply-adds.

/// Float `true` of the SLT family.
const ONE: f32 = 1.0;

/// softpipe's `1.442695f` factor of LG2 (deliberately not `LOG2_E`).
#[allow(clippy::approx_constant)]
pub const LG2_FACTOR: f32 = 1.442695;

/// What an SSE arithmetic instruction returns when an operand is NaN: the first NaN operand,
/// quieted. Written out because LLVM may commute `a + b` / `a * b`, which would change which
/// NaN payload survives.
fn sse_nan(x: f32, y: f32) -> f32 {
    let n = if x.is_nan() { x } else { y };
    f32::from_bits(n.to_bits() | 0x0040_0000)
}

/// An IEEE signalling NaN (quiet bit clear).
fn is_snan(x: f32) -> bool {
    x.is_nan() && x.to_bits() & 0x0040_0000 == 0
}

/// C `fminf` as glibc 2.36 implements it on x86-64 (`s_fminf.S`): a quiet-NaN operand is
/// ignored; a signalling NaN (or two NaNs) gives `a + b` (SSE: the first NaN, quieted); for
/// equal operands (±0) the second is returned.
pub fn fmin(a: f32, b: f32) -> f32 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => sse_nan(a, b),
        _ if is_snan(a) || is_snan(b) => sse_nan(a, b),
        (true, false) => b,
        (false, true) => a,
        _ if a < b => a,
        _ => b,
    }
}

/// C `fmaxf` as glibc implements it on x86-64 (see [`fmin`]).
pub fn fmax(a: f32, b: f32) -> f32 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => sse_nan(a, b),
        _ if is_snan(a) || is_snan(b) => sse_nan(a, b),
        (true, false) => b,
        (false, true) => a,
        _ if a > b => a,
        _ => b,
    }
}

/// The MIN opcode. softpipe's results (fsref case `exec-nan-minmax`) are those of
/// `fminf(src1, src0)`, operands swapped: MIN(−0, +0) = −0, MIN(+0, −0) = +0, and with two
/// NaNs the second operand's NaN comes out (MIN(0xffc00000, 0x7fc00000) = 0x7fc00000).
pub fn min_op(a: f32, b: f32) -> f32 {
    fmin(b, a)
}

/// The MAX opcode: `fmaxf(src1, src0)` (see [`min_op`]).
pub fn max_op(a: f32, b: f32) -> f32 {
    fmax(b, a)
}

/// Destination saturation: `fminf(fmaxf(x, 0), 1)`; a quiet NaN → +0, −0 → +0, and a
/// signalling NaN → 1 (`fmaxf` turns it into a quiet NaN, which `fminf` ignores). Written
/// out with comparisons and selects, so that lane loops over it vectorise.
pub fn saturate(x: f32) -> f32 {
    let low = if x > 0.0 { x } else { 0.0 };
    if is_snan(x) || low >= 1.0 {
        1.0
    } else {
        low
    }
}

/// The result of an SSE arithmetic instruction `x op y` computed as `r`: when an operand is
/// a NaN, the first NaN operand, quieted (written out so that the compiler's freedom to
/// commute `x op y` cannot change which NaN survives).
#[inline(always)]
fn sse_result(x: f32, y: f32, r: f32) -> f32 {
    // Selects only (the NaN that survives is a NaN exactly when an operand is), so that
    // lane loops over it vectorise.
    let n = if x.is_nan() { x } else { y };
    if n.is_nan() {
        f32::from_bits(n.to_bits() | 0x0040_0000)
    } else {
        r
    }
}

/// ADD.
pub fn add(a: f32, b: f32) -> f32 {
    sse_result(a, b, a + b)
}

/// SUB (legacy).
pub fn sub(a: f32, b: f32) -> f32 {
    sse_result(a, b, a - b)
}

/// MUL.
pub fn mul(a: f32, b: f32) -> f32 {
    sse_result(a, b, a * b)
}

/// DIV (legacy).
pub fn div(a: f32, b: f32) -> f32 {
    sse_result(a, b, a / b)
}

/// MAD: `a*b + c` with two roundings. The product is formed as `b*a`: with two NaN factors
/// SSE returns the first operand, and softpipe's MAD gives src1's NaN (fsref cases
/// `exec-rounding`, `exec-frexp-ldexp-fma`: MAD(−NaN, NaN, x) = NaN, MAD(sNaN, qNaN, x) = qNaN).
pub fn mad(a: f32, b: f32, c: f32) -> f32 {
    let p = if a.is_nan() || b.is_nan() {
        sse_nan(b, a)
    } else {
        a * b
    };
    if p.is_nan() || c.is_nan() {
        return sse_nan(p, c);
    }
    p + c
}

/// FMA: `a*b + c` with a single rounding. A NaN operand gives the first NaN of `a`, `b`,
/// `c`, quieted (SSE's rule), written out: which NaN a fused multiply-add instruction
/// returns depends on the operand order the compiler gives it, and glibc's `fmaf` on a CPU
/// without one computes in doubles.
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return sse_nan(a, sse_nan(b, c));
    }
    a.mul_add(b, c)
}

/// LRP: `a·(b − c) + c`, each step with the SSE NaN rule of [`add`], [`sub`], [`mul`].
pub fn lrp(a: f32, b: f32, c: f32) -> f32 {
    add(mul(a, sub(b, c)), c)
}

/// CMP: `a < 0 ? b : c` (NaN and −0 select `c`).
pub fn cmp(a: f32, b: f32, c: f32) -> f32 {
    f32::from_bits(super::select(a < 0.0, b.to_bits(), c.to_bits()))
}

/// CND (legacy): `c > 0.5 ? a : b`.
pub fn cnd(a: f32, b: f32, c: f32) -> f32 {
    f32::from_bits(super::select(c > 0.5, a.to_bits(), b.to_bits()))
}

/// CLAMP (legacy): the spec's `clamp(x, lo, hi) = (x < lo) ? lo : (x > hi) ? hi : x`, a bit
/// copy (a NaN `x` passes through; inverted bounds give `lo` below `lo`).
pub fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// ABS (legacy) and the `|x|` source modifier.
pub fn abs(x: f32) -> f32 {
    x.abs()
}

/// SLT: 1.0 / 0.0.
pub fn slt(a: f32, b: f32) -> f32 {
    if a < b {
        ONE
    } else {
        0.0
    }
}

/// SGE.
pub fn sge(a: f32, b: f32) -> f32 {
    if a >= b {
        ONE
    } else {
        0.0
    }
}

/// SGT.
pub fn sgt(a: f32, b: f32) -> f32 {
    if a > b {
        ONE
    } else {
        0.0
    }
}

/// SLE.
pub fn sle(a: f32, b: f32) -> f32 {
    if a <= b {
        ONE
    } else {
        0.0
    }
}

/// SEQ.
pub fn seq(a: f32, b: f32) -> f32 {
    if a == b {
        ONE
    } else {
        0.0
    }
}

/// SNE (true for NaN).
pub fn sne(a: f32, b: f32) -> f32 {
    if a != b {
        ONE
    } else {
        0.0
    }
}

/// A comparison mask: `~0` when true.
fn mask(b: bool) -> u32 {
    if b {
        u32::MAX
    } else {
        0
    }
}

/// FSLT: `~0` / 0.
pub fn fslt(a: f32, b: f32) -> u32 {
    mask(a < b)
}

/// FSGE.
pub fn fsge(a: f32, b: f32) -> u32 {
    mask(a >= b)
}

/// FSEQ.
pub fn fseq(a: f32, b: f32) -> u32 {
    mask(a == b)
}

/// FSNE (true for NaN).
pub fn fsne(a: f32, b: f32) -> u32 {
    mask(a != b)
}

/// `floorf(x)`, bit for bit, without a library call: baseline x86-64 has no rounding
/// instruction, so `f32::floor` is a software routine. Below 2²³ in magnitude, adding and
/// subtracting 2²³ with x's sign rounds x to an integer (exactly: the sum's last place is
/// 1), and the floor is that integer or the one below; everything else (±0, integral
/// magnitudes, ±∞, NaN) is its own floor. Plain float arithmetic and selects, so lane loops
/// over it vectorise (a truncating conversion to `i32` would not: Rust's saturates).
#[inline]
pub fn floor(x: f32) -> f32 {
    const TWO_23: f32 = 8_388_608.0;
    if x.abs() < TWO_23 && x != 0.0 {
        let shift = TWO_23.copysign(x);
        let r = (x + shift) - shift;
        if r > x {
            r - 1.0
        } else {
            r
        }
    } else {
        x
    }
}

/// FLR: `floorf`; a NaN comes back unchanged (signalling ones too), as from every
/// rounding opcode.
pub fn flr(x: f32) -> f32 {
    floor(x)
}

/// CEIL: `ceilf`.
pub fn ceil(x: f32) -> f32 {
    if x.is_nan() {
        x
    } else {
        x.ceil()
    }
}

/// TRUNC: `truncf`.
pub fn trunc(x: f32) -> f32 {
    if x.is_nan() {
        x
    } else {
        x.trunc()
    }
}

/// ROUND: half to even.
pub fn round(x: f32) -> f32 {
    if x.is_nan() {
        x
    } else {
        x.round_ties_even()
    }
}

/// FRC: `x − floorf(x)` (1.0 for tiny negative x).
pub fn frc(x: f32) -> f32 {
    x - floor(x)
}

/// SSG: −1 / 0 / +1; NaN and −0 → 0.
pub fn ssg(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// RCP: `1/x`.
pub fn rcp(x: f32) -> f32 {
    1.0 / x
}

/// RSQ: `1/sqrtf(x)`; 0 → +∞, −0 → −∞, negative → NaN.
pub fn rsq(x: f32) -> f32 {
    1.0 / x.sqrt()
}

/// SQRT: `sqrtf`.
pub fn sqrt(x: f32) -> f32 {
    x.sqrt()
}

/// EX2: `powf(2, x)` (release-build softpipe: no clamping).
#[inline]
pub fn ex2(x: f32) -> f32 {
    2.0f32.powf(x)
}

/// LG2: `logf(x) * 1.442695f` (not `log2f`).
#[inline]
pub fn lg2(x: f32) -> f32 {
    x.ln() * LG2_FACTOR
}

/// POW: `powf`.
#[inline]
pub fn pow(a: f32, b: f32) -> f32 {
    a.powf(b)
}

/// SIN: `sinf`.
#[inline]
pub fn sin(x: f32) -> f32 {
    x.sin()
}

/// COS: `cosf`.
#[inline]
pub fn cos(x: f32) -> f32 {
    x.cos()
}

/// LDEXP: `ldexpf(a, n)`, correctly rounded like glibc's.
pub fn ldexp(mut x: f32, mut n: i32) -> f32 {
    let p127 = f32::from_bits(0x7f00_0000);
    let pm102 = f32::from_bits(0x0c80_0000); // 2^-126 · 2^24
    if n > 127 {
        x *= p127;
        n -= 127;
        if n > 127 {
            x *= p127;
            n = (n - 127).min(127);
        }
    } else if n < -126 {
        x *= pm102;
        n += 102;
        if n < -126 {
            x *= pm102;
            n = (n + 102).max(-126);
        }
    }
    x * f32::from_bits(((0x7f + n) as u32) << 23)
}

/// `(int32_t)x` on x86-64 (`cvttss2si`): truncation; NaN and out-of-range → `0x80000000`.
pub fn f2i(x: f32) -> i32 {
    if (-2147483648.0..2147483648.0).contains(&x) {
        x as i32
    } else {
        i32::MIN
    }
}

/// softpipe's F2U on x86-64: GCC vectorises the `(uint32_t)x` loop over the four channels
/// as `x >= 2^31 ? cvttps2dq(x - 2^31) ^ 0x80000000 : cvttps2dq(x)`, so NaN, −∞ and every
/// x ≤ −2^31 give `0x80000000`, x ≥ 2^32 and +∞ give 0 (fsref case `exec-f2i-range`: uint(−∞),
/// uint(NaN), uint(−3.2e9) = 0x80000000, uint(4.8e9) = 0). Not the scalar 64-bit truncation.
pub fn f2u(x: f32) -> u32 {
    const TWO31: f32 = 2147483648.0;
    if x >= TWO31 {
        (f2i(x - TWO31) as u32) ^ 0x8000_0000
    } else {
        f2i(x) as u32
    }
}

/// `(int64_t)x` on x86-64: truncation; NaN and out-of-range → `i64::MIN`.
pub fn f2i64(x: f32) -> i64 {
    crate::scalar::double::d2i64(f64::from(x))
}

/// `(uint64_t)x` as GCC compiles it on x86-64 (see [`crate::scalar::double::d2u64`]).
pub fn f2u64(x: f32) -> u64 {
    crate::scalar::double::d2u64(f64::from(x))
}

/// ARL: `(int)floorf(x)` with [`f2i`]'s rules.
pub fn arl(x: f32) -> i32 {
    f2i(floor(x))
}

/// ARR: `(int)floorf(x + 0.5)`.
pub fn arr(x: f32) -> i32 {
    f2i(floor(x + 0.5))
}

/// I2F (round to nearest even).
pub fn i2f(x: i32) -> f32 {
    x as f32
}

/// U2F.
pub fn u2f(x: u32) -> f32 {
    x as f32
}

/// DP2, DP3, DP4: `a0·b0 + a1·b1 + …`, accumulated left to right with separate roundings;
/// each step adds the accumulator to the new product (`a_i·b_i + acc`, softpipe's
/// multiply-add order, which decides the NaN that survives when both are NaN).
pub fn dp(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = mul(a[0], b[0]);
    for i in 1..a.len().min(b.len()) {
        acc = add(mul(a[i], b[i]), acc);
    }
    acc
}

/// EXP: `(2^floor(s), s − floor(s), 2^s, 1)` through [`ex2`].
pub fn exp(s: f32) -> [f32; 4] {
    let f = floor(s);
    [ex2(f), s - f, ex2(s), 1.0]
}

/// LOG with a = |s|: `(floor(lg2 a), a / 2^floor(lg2 a), lg2 a, 1)`.
pub fn log(s: f32) -> [f32; 4] {
    let a = s.abs();
    let l = lg2(a);
    let f = floor(l);
    [f, a / ex2(f), l, 1.0]
}

/// LIT from `src.x`, `src.y`, `src.w`.
pub fn lit(x: f32, y: f32, w: f32) -> [f32; 4] {
    let e = fmax(fmin(w, 128.0), -128.0);
    let p = pow(fmax(y, 0.0), e);
    [1.0, fmax(x, 0.0), if 0.0 < x { p } else { 0.0 }, 1.0]
}

/// DST: `(1, a.y·b.y, a.z, b.w)`.
pub fn dst(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [1.0, a[1] * b[1], a[2], b[3]]
}

/// XPD (legacy): cross product, w = 1.
pub fn xpd(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [
        a[1] * b[2] - b[1] * a[2],
        a[2] * b[0] - b[2] * a[0],
        a[0] * b[1] - b[0] * a[1],
        1.0,
    ]
}

/// SCS (legacy): `(cos x, sin x, 0, 1)`.
pub fn scs(x: f32) -> [f32; 4] {
    [cos(x), sin(x), 0.0, 1.0]
}

/// NRM (legacy): `xyz · rsq(dot3(xyz))`, w = 1 (the real normalisation; the spec text's
/// division by the squared length is a documentation error).
pub fn nrm(a: [f32; 4]) -> [f32; 4] {
    let r = rsq(dp(&a[..3], &a[..3]));
    [a[0] * r, a[1] * r, a[2] * r, 1.0]
}

/// NRM4 (legacy, replicated): `x · rsq(dot4)`.
pub fn nrm4(a: [f32; 4]) -> f32 {
    a[0] * rsq(dp(&a, &a))
}

/// RCC (legacy): `1/x` clamped away from 0 into ±[5.42101e-20, 1.884467e+19].
pub fn rcc(x: f32) -> f32 {
    let r = 1.0 / x;
    if r > 0.0 {
        clamp(r, 5.42101e-20, 1.884467e+19)
    } else {
        clamp(r, -1.884467e+19, -5.42101e-20)
    }
}

/// RFL (legacy): reflection `2·dot3(a,b)/dot3(a,a)·a − b`, w = 1.
pub fn rfl(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let k = 2.0 * dp(&a[..3], &b[..3]) / dp(&a[..3], &a[..3]);
    [k * a[0] - b[0], k * a[1] - b[1], k * a[2] - b[2], 1.0]
}

/// X2D (legacy): 2-D coordinate transform.
pub fn x2d(a: [f32; 4], b: [f32; 4], c: [f32; 4]) -> [f32; 4] {
    let x = a[0] + b[0] * c[0] + b[1] * c[1];
    let y = a[1] + b[0] * c[2] + b[1] * c[3];
    [x, y, x, y]
}

#[cfg(test)]
mod tests {

    /// `floor` is `f32::floor` bit for bit (a NaN comes back unchanged from both) on every
    /// 251st binary32 input and the special values; `TGSI_FLOOR_STRIDE=1` checks every input.
    #[test]
    fn floor_is_floorf() {
        let stride = std::env::var("TGSI_FLOOR_STRIDE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(251);
        let special = [
            0.5f32,
            -0.5,
            -0.0,
            0.0,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            -1.0e-45,
        ];
        let inputs = (0..=u32::MAX)
            .step_by(stride)
            .map(f32::from_bits)
            .chain(special);
        for x in inputs {
            let (got, want) = (floor(x), x.floor());
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "floor({x:e} = {:#x}) = {got:e}, floorf {want:e}",
                x.to_bits()
            );
        }
    }
    use super::*;

    /// `saturate` is `fminf(fmaxf(x, 0), 1)` bit for bit on every 4093rd binary32 input and
    /// the special values.
    #[test]
    fn saturate_is_fmin_of_fmax() {
        let special = [0.0f32, -0.0, 1.0, -1.0, f32::INFINITY, f32::NEG_INFINITY];
        let nans = [
            0x7fc0_0000u32,
            0xffc0_0000,
            0x7f80_0001,
            0xff80_0001,
            0x7fbf_ffff,
        ];
        let inputs = (0..=u32::MAX)
            .step_by(4093)
            .map(f32::from_bits)
            .chain(special)
            .chain(nans.map(f32::from_bits));
        for x in inputs {
            let want = fmin(fmax(x, 0.0), 1.0);
            assert_eq!(saturate(x).to_bits(), want.to_bits(), "{:#x}", x.to_bits());
        }
    }

    #[test]
    fn min_max_follow_glibc() {
        assert_eq!(fmin(f32::NAN, 1.0), 1.0);
        assert_eq!(fmax(2.0, f32::NAN), 2.0);
        assert_eq!(fmin(-0.0, 0.0).to_bits(), 0);
        assert_eq!(fmin(0.0, -0.0).to_bits(), 0x8000_0000);
        // MAD keeps src1's NaN when both factors are NaN.
        let nn = f32::from_bits(0xffc0_0000);
        assert_eq!(mad(nn, f32::NAN, 1.0).to_bits(), 0x7fc0_0000);
        assert_eq!(
            mad(f32::from_bits(0x7f80_0001), f32::NAN, 1.0).to_bits(),
            0x7fc0_0000
        );
        // glibc: a signalling NaN is not ignored (checked with fminf/fmaxf on Debian 12).
        let snan = f32::from_bits(0x7f80_0001);
        assert_eq!(fmin(snan, 1.0).to_bits(), 0x7fc0_0001);
        assert_eq!(fmax(0.0, snan).to_bits(), 0x7fc0_0001);
        // The opcodes swap the operands: ties and NaN pairs give the second glibc operand.
        assert_eq!(min_op(-0.0, 0.0).to_bits(), 0x8000_0000);
        assert_eq!(
            max_op(f32::from_bits(0xffc0_0000), f32::NAN).to_bits(),
            0x7fc0_0000
        );
        assert_eq!(saturate(f32::NAN).to_bits(), 0);
        assert_eq!(saturate(-0.0).to_bits(), 0);
        assert_eq!(saturate(f32::INFINITY), 1.0);
    }

    #[test]
    fn conversions_follow_x86() {
        assert_eq!(f2i(f32::NAN), i32::MIN);
        assert_eq!(f2i(3e9), i32::MIN);
        assert_eq!(f2i(-2147483648.0), i32::MIN);
        assert_eq!(f2i(-1.9), -1);
        assert_eq!(f2u(-1.0), 0xFFFF_FFFF);
        assert_eq!(f2u(-3e9), 0x8000_0000);
        assert_eq!(f2u(5e9), 0);
        assert_eq!(f2u(3221225472.0), 0xC000_0000);
        assert_eq!(f2u(f32::NAN), 0x8000_0000);
        assert_eq!(f2u(f32::NEG_INFINITY), 0x8000_0000);
        assert_eq!(f2u(4294967296.0), 0);
        assert_eq!(f2u(f32::INFINITY), 0);
        assert_eq!(f2u(1e19), 0);
        assert_eq!(arl(-0.5), -1);
    }

    #[test]
    fn ldexp_is_exact() {
        assert_eq!(ldexp(1.0, -149), f32::from_bits(1));
        assert_eq!(ldexp(1.5, -149), f32::from_bits(2));
        assert_eq!(ldexp(1.0, 128), f32::INFINITY);
        assert_eq!(ldexp(f32::from_bits(1), 149), 1.0);
        assert_eq!(ldexp(3.0, 2), 12.0);
        assert_eq!(ldexp(1.0, i32::MIN), 0.0);
        assert_eq!(ldexp(1.0, i32::MAX), f32::INFINITY);
    }

    #[test]
    fn transcendentals_use_the_c_library() {
        assert_eq!(ex2(3.0), 8.0);
        assert_eq!(lg2(8.0).to_bits(), (8f32.ln() * LG2_FACTOR).to_bits());
        assert_eq!(lg2(0.0), f32::NEG_INFINITY);
        assert!(lg2(-1.0).is_nan());
        assert_eq!(rsq(0.0), f32::INFINITY);
        assert_eq!(rsq(-0.0), f32::NEG_INFINITY);
        assert!(rsq(-4.0).is_nan());
        assert_eq!(pow(0.0, 0.0), 1.0);
        assert!(pow(-2.0, 0.5).is_nan());
        // glibc's correctly rounded sinf.
        assert_eq!(sin(1.0).to_bits(), 0x3f576aa4);
        assert_eq!(frc(-1e-10), 1.0);
        assert_eq!(round(2.5), 2.0);
        assert_eq!(round(-3.5), -4.0);
    }
}
