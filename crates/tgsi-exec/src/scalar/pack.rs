//! Packing opcodes: half floats (PK2H/UP2H, with x86 F16C results as Mesa uses them) and the
//! normalised-integer packs softpipe skips (PK2US, PK4B, PK4UB, UP2US, UP4B, UP4UB), defined
//! here per the spec: clamp, scale, round to nearest even; NaN packs as 0.

/// f32 → f16 bits, round to nearest even; overflow → ∞; NaN stays NaN (quiet, payload
/// truncated), as `vcvtps2ph` does.
pub fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        return if man == 0 {
            sign | 0x7c00
        } else {
            sign | 0x7e00 | (man >> 13) as u16
        };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    // Full significand with the implicit bit, then shift into place with RNE.
    let (sig, shift) = if e <= 0 {
        if e < -10 {
            return sign;
        }
        (man | 0x80_0000, (14 - e) as u32)
    } else {
        (man, 13u32)
    };
    let half = 1u32 << (shift - 1);
    let rest = sig & ((1u32 << shift) - 1);
    let mut out = sig >> shift;
    if rest > half || (rest == half && out & 1 == 1) {
        out += 1;
    }
    if e <= 0 {
        sign | out as u16
    } else {
        // A carry out of the mantissa correctly bumps the exponent (up to ∞).
        sign | (((e as u32) << 10) + out) as u16
    }
}

/// f16 bits → f32 (exact; NaN quietened).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match exp {
        0 if man == 0 => sign,
        0 => {
            // Subnormal: value = man · 2^-24.
            let v = man as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        31 if man == 0 => sign | 0x7f80_0000,
        31 => sign | 0x7fc0_0000 | (man << 13),
        _ => sign | ((exp + 112) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

/// PK2H: `half(x) | half(y) << 16`.
pub fn pk2h(x: f32, y: f32) -> u32 {
    u32::from(f32_to_f16(x)) | u32::from(f32_to_f16(y)) << 16
}

/// UP2H: `(half lo, half hi, half lo, half hi)`.
pub fn up2h(v: u32) -> [f32; 4] {
    let lo = f16_to_f32(v as u16);
    let hi = f16_to_f32((v >> 16) as u16);
    [lo, hi, lo, hi]
}

/// Clamp to [lo, 1] (NaN → 0), scale and round to nearest even.
fn norm(x: f32, lo: f32, scale: f32) -> i32 {
    let c = if x.is_nan() { 0.0 } else { x.clamp(lo, 1.0) };
    (c * scale).round_ties_even() as i32
}

/// PK2US: two unorm16.
pub fn pk2us(x: f32, y: f32) -> u32 {
    norm(x, 0.0, 65535.0) as u32 | (norm(y, 0.0, 65535.0) as u32) << 16
}

/// PK4B: four snorm8, each masked to 8 bits.
pub fn pk4b(v: [f32; 4]) -> u32 {
    v.iter().enumerate().fold(0, |acc, (i, &x)| {
        acc | ((norm(x, -1.0, 127.0) as u32) & 0xff) << (8 * i)
    })
}

/// PK4UB: four unorm8.
pub fn pk4ub(v: [f32; 4]) -> u32 {
    v.iter().enumerate().fold(0, |acc, (i, &x)| {
        acc | (norm(x, 0.0, 255.0) as u32) << (8 * i)
    })
}

/// UP2US: `(lo/65535, hi/65535, lo/65535, hi/65535)`.
pub fn up2us(v: u32) -> [f32; 4] {
    let lo = (v & 0xffff) as f32 / 65535.0;
    let hi = (v >> 16) as f32 / 65535.0;
    [lo, hi, lo, hi]
}

/// UP4B: four snorm8, `max(b/127, −1)`.
pub fn up4b(v: u32) -> [f32; 4] {
    std::array::from_fn(|i| ((v >> (8 * i)) as u8 as i8 as f32 / 127.0).max(-1.0))
}

/// UP4UB: four unorm8, `b/255`.
pub fn up4ub(v: u32) -> [f32; 4] {
    std::array::from_fn(|i| ((v >> (8 * i)) & 0xff) as f32 / 255.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversion_rounds_to_even() {
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-2.0), 0xc000);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(1e-8), 0);
        assert_eq!(f32_to_f16(f32::from_bits(0x3380_0000)), 1); // 2^-24
        assert_eq!(f32_to_f16(f32::from_bits(0x3300_0000)), 0); // 2^-25 ties to even
        assert_eq!(f32_to_f16(f32::from_bits(0x3300_0001)), 1);
        assert_eq!(f32_to_f16(f32::NAN), 0x7e00);
        assert_eq!(f32_to_f16(1.0 + f32::EPSILON * 4096.0), 0x3c00); // 1 + 2^-11: tie → even
        assert_eq!(f32_to_f16(1.0 + f32::EPSILON * 12288.0), 0x3c02);
        for h in [
            0u16, 1, 0x3ff, 0x400, 0x3c00, 0x7bff, 0x7c00, 0x8001, 0xfbff,
        ] {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#x}");
        }
        assert_eq!(pk2h(1.0, -2.0), 0xc000_3c00);
        assert_eq!(up2h(0xc000_3c00), [1.0, -2.0, 1.0, -2.0]);
    }

    #[test]
    fn normalised_packs() {
        assert_eq!(pk2us(1.0, 0.5), 0x8000_ffff);
        assert_eq!(pk4ub([1.0, 0.0, 2.0, f32::NAN]), 0x00ff_00ff);
        assert_eq!(pk4b([-1.0, 1.0, 0.0, 0.0]), 0x0000_7f81);
        assert_eq!(up4b(0x0000_7f81), [-1.0, 1.0, 0.0, 0.0]);
        assert_eq!(up4ub(0xff), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(up2us(0xffff), [1.0, 0.0, 1.0, 0.0]);
    }
}
