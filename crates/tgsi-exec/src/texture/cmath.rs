//! The numeric helpers softpipe's sampler is built from, with their exact C behaviour on
//! x86-64: Mesa's `util_ifloor` (a double-precision rounding trick, not `floorf`), C's
//! `(int)` truncation (`cvttss2si`: NaN and out-of-range give `INT_MIN`), the `CLAMP` /
//! `MAX2` / `MAX3` macros with their NaN behaviour, `u_minify` with the hardware's
//! shift-count masking, and `util_fast_log2` with its 257-entry table.

/// Mesa's `util_ifloor`: `((3 << 22) + 0.5 ± f)` in double, each rounded to float, and
/// half the difference of their bit patterns. Equals `floor` for |f| < 2²² except tiny
/// negatives (above about −2⁻³⁰ the double sums round to the bias, giving 0), differs
/// beyond (±Inf give −2³⁰); NaN gives 0.
pub(crate) fn ifloor(f: f32) -> i32 {
    if f.is_nan() {
        return 0;
    }
    const BIAS: f64 = 12_582_912.5;
    let a = (BIAS + f64::from(f)) as f32;
    let b = (BIAS - f64::from(f)) as f32;
    (a.to_bits() as i32).wrapping_sub(b.to_bits() as i32) >> 1
}

/// C's `(int)f` on x86-64 (`cvttss2si`): truncation, `INT_MIN` for NaN and out of range.
pub(crate) fn trunc_i32(f: f32) -> i32 {
    if !(-2_147_483_648.0..2_147_483_648.0).contains(&f) {
        i32::MIN
    } else {
        f as i32
    }
}

/// `frac(f) = f - floorf(f)`.
pub(crate) fn frac(f: f32) -> f32 {
    f - crate::scalar::float::floor(f)
}

/// `lerp(a, v0, v1) = v0 + a * (v1 - v0)` (no fused multiply-add).
pub(crate) fn lerp(a: f32, v0: f32, v1: f32) -> f32 {
    v0 + a * (v1 - v0)
}

/// Bilinear interpolation: along x for both rows, then along y.
pub(crate) fn lerp_2d(a: f32, b: f32, v00: f32, v10: f32, v01: f32, v11: f32) -> f32 {
    let row0 = lerp(a, v00, v10);
    let row1 = lerp(a, v01, v11);
    lerp(b, row0, row1)
}

/// Trilinear interpolation of two bilinear results (texels in `lerp_2d` order).
pub(crate) fn lerp_3d(a: f32, b: f32, c: f32, front: [f32; 4], back: [f32; 4]) -> f32 {
    let f = lerp_2d(a, b, front[0], front[1], front[2], front[3]);
    let k = lerp_2d(a, b, back[0], back[1], back[2], back[3]);
    lerp(c, f, k)
}

/// The `CLAMP(x, lo, hi)` macro for floats: `x > lo ? (x > hi ? hi : x) : lo` (NaN → `lo`).
pub(crate) fn clampf(x: f32, lo: f32, hi: f32) -> f32 {
    if x > lo {
        if x > hi {
            hi
        } else {
            x
        }
    } else {
        lo
    }
}

/// The `CLAMP` macro on signed integers.
pub(crate) fn clampi(x: i32, lo: i32, hi: i32) -> i32 {
    if x > lo {
        x.min(hi)
    } else {
        lo
    }
}

/// The `CLAMP` macro on unsigned integers (where C mixes `int` and `unsigned`, negative
/// values wrap to huge ones and clamp to `hi`).
pub(crate) fn clampu(x: u32, lo: u32, hi: u32) -> u32 {
    if x > lo {
        x.min(hi)
    } else {
        lo
    }
}

/// `MAX2(a, b) = a > b ? a : b`.
pub(crate) fn max2(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// `MAX3(a, b, c) = a > b ? MAX2(a, c) : MAX2(b, c)`.
pub(crate) fn max3(a: f32, b: f32, c: f32) -> f32 {
    if a > b {
        max2(a, c)
    } else {
        max2(b, c)
    }
}

/// `u_minify(v, l) = MAX2(1, v >> l)`, the shift count masked to 5 bits as on x86.
pub(crate) fn minify(v: u32, l: u32) -> u32 {
    v.wrapping_shr(l).max(1)
}

/// `util_logbase2` (0 for 0).
pub(crate) fn logbase2(n: u32) -> u32 {
    31 - (n | 1).leading_zeros()
}

/// `pot_level_size(util_logbase2(size0), level)`: `1 << (log2 − level)`, or 1 past it.
pub(crate) fn pot_size(size0: u32, level: u32) -> u32 {
    let base = logbase2(size0);
    if base >= level {
        1 << (base - level)
    } else {
        1
    }
}

/// Softpipe's `repeat(coord, size) = (coord + size * 1024) % size` in **unsigned**
/// arithmetic (C converts `coord` to unsigned): for coordinates below `-1024·size` the
/// result is not the mathematical modulo. Size 0 gives 0.
pub(crate) fn repeat(coord: i32, size: u32) -> i32 {
    if size == 0 {
        return 0;
    }
    ((coord as u32).wrapping_add(size.wrapping_mul(1024)) % size) as i32
}

/// `util_fast_log2`: `(exponent − 127) + log2_table[(mantissa + 2¹⁴) >> 15]`, the sign
/// ignored.
pub(crate) fn fast_log2(x: f32) -> f32 {
    let bits = x.to_bits();
    let epart = (((bits & 0x7f80_0000) >> 23) as i32 - 127) as f32;
    let index = ((bits & 0x007f_ffff) + (1 << 14)) >> 15;
    epart + tgsi::sampler::fast_log2_table()[index as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ifloor_matches_floor_in_range_and_mesa_outside() {
        for &f in &[
            0.0f32, -0.0, 0.5, -0.5, 1.0, -1.0, 2.999, -2.001, 1e6, -1e6, 4194303.5,
        ] {
            assert_eq!(ifloor(f), f.floor() as i32, "{f}");
        }
        assert_eq!(ifloor(f32::INFINITY), -(1 << 30));
        assert_eq!(ifloor(f32::NEG_INFINITY), -(1 << 30));
        assert_eq!(ifloor(f32::NAN), 0);
        // 2^25 + 3: both sums round to even floats in a coarser binade.
        assert_ne!(ifloor(33_554_435.0), 33_554_435);
        // A tiny negative vanishes in the double sums.
        assert_eq!(ifloor(-1e-10), 0);
    }

    #[test]
    fn c_conversions_and_macros() {
        assert_eq!(trunc_i32(-1.5), -1);
        assert_eq!(trunc_i32(f32::NAN), i32::MIN);
        assert_eq!(trunc_i32(3e9), i32::MIN);
        assert_eq!(clampf(f32::NAN, 0.0, 1.0), 0.0);
        assert_eq!(clampu(-3i32 as u32, 0, 47), 47);
        assert_eq!(clampi(-3, 0, 47), 0);
        assert!(max2(1.0, f32::NAN).is_nan());
        assert_eq!(max2(f32::NAN, 1.0), 1.0);
        assert_eq!(minify(32, 3), 4);
        assert_eq!(minify(32, 9), 1);
        assert_eq!(minify(32, 33), 16, "shift count masked");
        assert_eq!(logbase2(32), 5);
        assert_eq!(logbase2(0), 0);
    }

    #[test]
    fn repeat_is_unsigned() {
        assert_eq!(repeat(-1, 3), 2);
        assert_eq!(repeat(7, 3), 1);
        // (2^32 - 5000 + 3072) mod 3 = 2, the true -5000 mod 3 is 1.
        assert_eq!(repeat(-5000, 3), 2);
        assert_eq!(repeat(5, 0), 0);
    }

    #[test]
    fn fast_log2_table() {
        assert_eq!(fast_log2(1.0), 0.0);
        assert_eq!(fast_log2(8.0), 3.0);
        assert_eq!(fast_log2(0.25), -2.0);
        assert_eq!(fast_log2(0.0), -127.0);
        // 3.0: mantissa 0x400000 → index 128 → log2(1.5).
        assert_eq!(fast_log2(3.0), 1.0 + (1.5f64.log2() as f32));
        // Table rounding: 1 + 2^-9 rounds to index 1 (log2(1 + 1/256)).
        assert_eq!(
            fast_log2(1.0 + 1.0 / 512.0),
            (1.0f64 + 1.0 / 256.0).log2() as f32
        );
    }
}
