//! 32-bit integer semantics: wrapping arithmetic, softpipe's division-by-zero constants,
//! masked shift counts and the bit-field opcodes. Signed operations take and return `i32`,
//! unsigned ones `u32`.

/// A comparison mask: `~0` when true.
fn mask(b: bool) -> u32 {
    if b {
        u32::MAX
    } else {
        0
    }
}

/// UADD (modulo 2^32).
pub fn uadd(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

/// UMUL (modulo 2^32).
pub fn umul(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}

/// UMAD (modulo 2^32).
pub fn umad(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// IMUL_HI: high word of the signed 64-bit product.
pub fn imul_hi(a: i32, b: i32) -> i32 {
    ((i64::from(a) * i64::from(b)) >> 32) as i32
}

/// UMUL_HI: high word of the unsigned 64-bit product.
pub fn umul_hi(a: u32, b: u32) -> u32 {
    ((u64::from(a) * u64::from(b)) >> 32) as u32
}

/// IDIV: truncating; by zero → 0 (softpipe). `INT_MIN / −1` traps in softpipe; the spec
/// leaves it open and this implementation defines it as `INT_MIN` (two's-complement wrap).
pub fn idiv(a: i32, b: i32) -> i32 {
    if b == 0 {
        0
    } else {
        a.wrapping_div(b)
    }
}

/// UDIV: by zero → `0xFFFFFFFF`.
pub fn udiv(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(u32::MAX)
}

/// MOD (signed, sign of the dividend): by zero → −1; `INT_MIN % −1` → 0 (softpipe traps).
pub fn imod(a: i32, b: i32) -> i32 {
    if b == 0 {
        -1
    } else {
        a.wrapping_rem(b)
    }
}

/// UMOD: by zero → `0xFFFFFFFF`.
pub fn umod(a: u32, b: u32) -> u32 {
    a.checked_rem(b).unwrap_or(u32::MAX)
}

/// SHL: count masked with 31.
pub fn shl(a: u32, b: u32) -> u32 {
    a << (b & 31)
}

/// USHR: logical, count masked with 31.
pub fn ushr(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}

/// ISHR: arithmetic, count masked with 31.
pub fn ishr(a: i32, b: i32) -> i32 {
    a >> (b & 31)
}

/// SHR (legacy): arithmetic shift of `a` by `b & 31`.
pub fn shr_legacy(a: i32, b: u32) -> i32 {
    a >> (b & 31)
}

/// IMAX.
pub fn imax(a: i32, b: i32) -> i32 {
    a.max(b)
}

/// IMIN.
pub fn imin(a: i32, b: i32) -> i32 {
    a.min(b)
}

/// UMAX.
pub fn umax(a: u32, b: u32) -> u32 {
    a.max(b)
}

/// UMIN.
pub fn umin(a: u32, b: u32) -> u32 {
    a.min(b)
}

/// ISGE.
pub fn isge(a: i32, b: i32) -> u32 {
    mask(a >= b)
}

/// ISLT.
pub fn islt(a: i32, b: i32) -> u32 {
    mask(a < b)
}

/// USGE.
pub fn usge(a: u32, b: u32) -> u32 {
    mask(a >= b)
}

/// USLT.
pub fn uslt(a: u32, b: u32) -> u32 {
    mask(a < b)
}

/// USEQ.
pub fn useq(a: u32, b: u32) -> u32 {
    mask(a == b)
}

/// USNE.
pub fn usne(a: u32, b: u32) -> u32 {
    mask(a != b)
}

/// INEG (two's complement).
pub fn ineg(a: i32) -> i32 {
    a.wrapping_neg()
}

/// IABS: `IABS(INT_MIN) = INT_MIN`.
pub fn iabs(a: i32) -> i32 {
    a.wrapping_abs()
}

/// ISSG: −1 / 0 / 1.
pub fn issg(a: i32) -> i32 {
    a.signum()
}

/// NOT.
pub fn not(a: u32) -> u32 {
    !a
}

/// AND.
pub fn and(a: u32, b: u32) -> u32 {
    a & b
}

/// OR.
pub fn or(a: u32, b: u32) -> u32 {
    a | b
}

/// XOR.
pub fn xor(a: u32, b: u32) -> u32 {
    a ^ b
}

/// UCMP: `a ≠ 0 ? b : c` (bit copy).
pub fn ucmp(a: u32, b: u32, c: u32) -> u32 {
    super::select(a != 0, b, c)
}

/// SAD (legacy): `|a − b| + c`, unsigned.
pub fn sad(a: u32, b: u32, c: u32) -> u32 {
    a.abs_diff(b).wrapping_add(c)
}

/// IBFE (value, offset, bits): sign-extended field with SM5 masking (softpipe).
pub fn ibfe(value: i32, offset: u32, bits: u32) -> i32 {
    let offset = offset & 31;
    if bits == 32 && offset == 0 {
        return value;
    }
    let bits = bits & 31;
    if bits == 0 {
        0
    } else if offset + bits < 32 {
        (value << (32 - bits - offset)) >> (32 - bits)
    } else {
        value >> offset
    }
}

/// UBFE (value, offset, bits): zero-extended field with SM5 masking.
pub fn ubfe(value: u32, offset: u32, bits: u32) -> u32 {
    let offset = offset & 31;
    if bits == 32 && offset == 0 {
        return value;
    }
    let bits = bits & 31;
    if bits == 0 {
        0
    } else if offset + bits < 32 {
        (value << (32 - bits - offset)) >> (32 - bits)
    } else {
        value >> offset
    }
}

/// BFI (base, insert, offset, bits): bits == 32 → insert; otherwise the field mask uses
/// `bits & 31` (what x86-64 does with softpipe's unmasked shift).
pub fn bfi(base: u32, insert: u32, offset: u32, bits: u32) -> u32 {
    let offset = offset & 31;
    if bits == 32 {
        return insert;
    }
    let mask = ((1u32 << (bits & 31)).wrapping_sub(1)) << offset;
    ((insert << offset) & mask) | (base & !mask)
}

/// BREV.
pub fn brev(a: u32) -> u32 {
    a.reverse_bits()
}

/// POPC.
pub fn popc(a: u32) -> u32 {
    a.count_ones()
}

/// LSB: index of the lowest set bit, −1 for 0.
pub fn lsb(a: u32) -> i32 {
    if a == 0 {
        -1
    } else {
        a.trailing_zeros() as i32
    }
}

/// IMSB: index of the highest bit differing from the sign bit; −1 for 0 and −1.
pub fn imsb(a: i32) -> i32 {
    let v = if a < 0 { !a } else { a } as u32;
    umsb(v)
}

/// UMSB: index of the highest set bit, −1 for 0.
pub fn umsb(a: u32) -> i32 {
    if a == 0 {
        -1
    } else {
        31 - a.leading_zeros() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_edges() {
        assert_eq!(idiv(7, 0), 0);
        assert_eq!(idiv(i32::MIN, -1), i32::MIN);
        assert_eq!(idiv(-7, 2), -3);
        assert_eq!(udiv(7, 0), u32::MAX);
        assert_eq!(imod(-7, 2), -1);
        assert_eq!(imod(7, 0), -1);
        assert_eq!(imod(i32::MIN, -1), 0);
        assert_eq!(umod(7, 0), u32::MAX);
    }

    #[test]
    fn bitfields() {
        assert_eq!(ibfe(0xf0, 4, 4), -1);
        assert_eq!(ibfe(0x70, 4, 4), 7);
        assert_eq!(ibfe(-8, 0, 32), -8);
        assert_eq!(ibfe(-8, 28, 8), -1);
        assert_eq!(ubfe(0xf0, 4, 4), 15);
        assert_eq!(ubfe(0x8000_0000, 31, 1), 1);
        assert_eq!(ubfe(5, 0, 0), 0);
        assert_eq!(bfi(0xffff_ffff, 0, 4, 8), 0xffff_f00f);
        assert_eq!(bfi(1, 2, 7, 32), 2);
        assert_eq!(lsb(0), -1);
        assert_eq!(lsb(8), 3);
        assert_eq!(imsb(-1), -1);
        assert_eq!(imsb(0), -1);
        assert_eq!(imsb(-2), 0);
        assert_eq!(imsb(i32::MAX), 30);
        assert_eq!(umsb(u32::MAX), 31);
        assert_eq!(shl(1, 33), 2);
        assert_eq!(ishr(-8, 33), -4);
        assert_eq!(imul_hi(-1, 1), -1);
        assert_eq!(iabs(i32::MIN), i32::MIN);
    }
}
