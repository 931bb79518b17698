//! The AVX2 lane kernels of ADD, SUB, MUL, DIV and MAD: each SSE instruction itself on
//! eight lanes at a time, through inline assembly.
//!
//! [`crate::scalar::float`] defines these results as the SSE instructions compute them:
//! the IEEE result, or with a NaN operand the first NaN operand, quieted. Compiled Rust
//! cannot ask for that with `a * b` alone — LLVM may commute the operands, which changes
//! which NaN survives — so the scalar functions test for NaNs and pick one, and their
//! vectorised loops spend six instructions where the one would do. In inline assembly the
//! operand order is ours, so the instruction alone gives the defined result
//! (`tests/kernel_isa.rs` checks each kernel against the baseline one, which runs the
//! scalar function, on NaNs of every kind). Lanes past the last eight run the 128-bit
//! instruction on four (the whole of a geometry or tessellation stage's four-lane
//! machine), then the scalar function.

use crate::scalar::float as fl;
use std::arch::asm;
use std::arch::x86_64::{__m128, __m256};

/// Eight words as a vector.
#[inline(always)]
fn vector(words: [u32; 8]) -> __m256 {
    // SAFETY: both are 32 bytes, and any bits are a valid `__m256`.
    unsafe { std::mem::transmute::<[u32; 8], __m256>(words) }
}

/// A vector as eight words.
#[inline(always)]
fn words(v: __m256) -> [u32; 8] {
    // SAFETY: both are 32 bytes, and any bits are valid words.
    unsafe { std::mem::transmute::<__m256, [u32; 8]>(v) }
}

/// Four words as a vector.
#[inline(always)]
fn vector4(words: [u32; 4]) -> __m128 {
    // SAFETY: both are 16 bytes, and any bits are a valid `__m128`.
    unsafe { std::mem::transmute::<[u32; 4], __m128>(words) }
}

/// A vector as four words.
#[inline(always)]
fn words4(v: __m128) -> [u32; 4] {
    // SAFETY: both are 16 bytes, and any bits are valid words.
    unsafe { std::mem::transmute::<__m128, [u32; 4]>(v) }
}

/// `$insn r, a, b` on one vector (`$ty`) in `$reg` registers (`ymm_reg` or `xmm_reg`).
macro_rules! op2 {
    ($insn:literal, $reg:ident, $ty:ty, $a:expr, $b:expr) => {{
        let r: $ty;
        // SAFETY: one AVX instruction on registers (the caller enables AVX).
        unsafe {
            asm!(
                concat!($insn, " {r}, {a}, {b}"),
                r = lateout($reg) r,
                a = in($reg) $a,
                b = in($reg) $b,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        r
    }};
}

/// MAD on one vector (`$ty`) in `$reg` registers: `p = b · a`, then `p + c`.
macro_rules! mad_op {
    ($reg:ident, $ty:ty, $a:expr, $b:expr, $c:expr) => {{
        let r: $ty;
        // SAFETY: two AVX instructions on registers (the caller enables AVX).
        unsafe {
            asm!(
                "vmulps {p}, {b}, {a}",
                "vaddps {r}, {p}, {c}",
                p = out($reg) _,
                r = lateout($reg) r,
                a = in($reg) $a,
                b = in($reg) $b,
                c = in($reg) $c,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        r
    }};
}

/// A kernel `out[l] = a[l] op b[l]` running the instruction `$insn dst, a, b` (first
/// source `a`), with the scalar function `$scalar` for the remaining lanes.
macro_rules! binary {
    ($(#[$doc:meta])* $name:ident, $insn:literal, $scalar:path) => {
        $(#[$doc])*
        #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
        pub(crate) fn $name(out: &mut [u32], s: [&[u32]; 4]) {
            let n = out.len().min(s[0].len()).min(s[1].len());
            let (o8, o_rest) = out[..n].as_chunks_mut::<8>();
            let (a8, a_rest) = s[0][..n].as_chunks::<8>();
            let (b8, b_rest) = s[1][..n].as_chunks::<8>();
            for ((o, &a), &b) in o8.iter_mut().zip(a8).zip(b8) {
                *o = words(op2!($insn, ymm_reg, __m256, vector(a), vector(b)));
            }
            let (o4, o_rest) = o_rest.as_chunks_mut::<4>();
            let (a4, a_rest) = a_rest.as_chunks::<4>();
            let (b4, b_rest) = b_rest.as_chunks::<4>();
            for ((o, &a), &b) in o4.iter_mut().zip(a4).zip(b4) {
                *o = words4(op2!($insn, xmm_reg, __m128, vector4(a), vector4(b)));
            }
            for ((o, &a), &b) in o_rest.iter_mut().zip(a_rest).zip(b_rest) {
                *o = $scalar(f32::from_bits(a), f32::from_bits(b)).to_bits();
            }
        }
    };
}

binary!(
    /// ADD ([`fl::add`]).
    add, "vaddps", fl::add
);
binary!(
    /// SUB ([`fl::sub`]).
    sub, "vsubps", fl::sub
);
binary!(
    /// MUL ([`fl::mul`]).
    mul, "vmulps", fl::mul
);
binary!(
    /// DIV ([`fl::div`]).
    div, "vdivps", fl::div
);

/// MAD ([`fl::mad`]): the product formed as `b · a` (the first NaN factor is `b`'s), then
/// the sum `p + c`, each rounded.
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
pub(crate) fn mad(out: &mut [u32], s: [&[u32]; 4]) {
    let n = out.len().min(s[0].len()).min(s[1].len()).min(s[2].len());
    let (o8, o_rest) = out[..n].as_chunks_mut::<8>();
    let (a8, a_rest) = s[0][..n].as_chunks::<8>();
    let (b8, b_rest) = s[1][..n].as_chunks::<8>();
    let (c8, c_rest) = s[2][..n].as_chunks::<8>();
    for (((o, &a), &b), &c) in o8.iter_mut().zip(a8).zip(b8).zip(c8) {
        *o = words(mad_op!(ymm_reg, __m256, vector(a), vector(b), vector(c)));
    }
    let (o4, o_rest) = o_rest.as_chunks_mut::<4>();
    let (a4, a_rest) = a_rest.as_chunks::<4>();
    let (b4, b_rest) = b_rest.as_chunks::<4>();
    let (c4, c_rest) = c_rest.as_chunks::<4>();
    for (((o, &a), &b), &c) in o4.iter_mut().zip(a4).zip(b4).zip(c4) {
        *o = words4(mad_op!(xmm_reg, __m128, vector4(a), vector4(b), vector4(c)));
    }
    let rest = o_rest.iter_mut().zip(a_rest).zip(b_rest).zip(c_rest);
    for (((o, &a), &b), &c) in rest {
        *o = fl::mad(f32::from_bits(a), f32::from_bits(b), f32::from_bits(c)).to_bits();
    }
}
