//! The packing opcodes, in integer arithmetic so every target gives the interpreter's bits:
//! PK2H/UP2H (half floats, round to nearest even, NaN kept quiet), PK2US/PK4B/PK4UB (clamp,
//! scale, round to nearest even, NaN → 0) and UP2US/UP4B/UP4UB.

use naga::{BinaryOperator as B, Expression, Handle, MathFunction as M, Scalar, ScalarKind};

use crate::translate::Translator;

type H = Handle<Expression>;

impl Translator<'_> {
    /// The f16 bits (in a `u32`) of an `f32`, as `scalar::pack::f32_to_f16`.
    pub(crate) fn f32_to_f16(&mut self, x: H) -> H {
        let b = &mut self.body;
        let bits = b.bitcast(x, ScalarKind::Uint);
        let k16 = b.u32(16);
        let k23 = b.u32(23);
        let k13 = b.u32(13);
        let m31 = b.u32(31);
        let zero = b.u32(0);
        let one = b.u32(1);
        let sign = b.binary(B::ShiftRight, bits, k16);
        let m8000 = b.u32(0x8000);
        let sign = b.binary(B::And, sign, m8000);
        let exp = b.binary(B::ShiftRight, bits, k23);
        let mff = b.u32(0xff);
        let exp = b.binary(B::And, exp, mff);
        let mman = b.u32(0x7f_ffff);
        let man = b.binary(B::And, bits, mman);
        // ±∞ and NaN (quiet, payload truncated).
        let inf = b.u32(0x7c00);
        let quiet = b.u32(0x0200);
        let payload = b.binary(B::ShiftRight, man, k13);
        let payload = b.binary(B::InclusiveOr, payload, quiet);
        let is_nan = b.binary(B::NotEqual, man, zero);
        let payload = b.select(is_nan, payload, zero);
        let special = b.binary(B::InclusiveOr, sign, inf);
        let special = b.binary(B::InclusiveOr, special, payload);
        // Rebias: e = exp − 112.
        let exp_i = b.bitcast(exp, ScalarKind::Sint);
        let k112 = b.i32(112);
        let e = b.binary(B::Subtract, exp_i, k112);
        let zero_i = b.i32(0);
        let subnormal = b.binary(B::LessEqual, e, zero_i);
        let implicit = b.u32(0x80_0000);
        let full = b.binary(B::InclusiveOr, man, implicit);
        let sig = b.select(subnormal, full, man);
        let k14 = b.i32(14);
        let sub_shift = b.binary(B::Subtract, k14, e);
        let sub_shift = b.bitcast(sub_shift, ScalarKind::Uint);
        let shift = b.select(subnormal, sub_shift, k13);
        let shift = b.binary(B::And, shift, m31);
        let shift_m1 = b.binary(B::Subtract, shift, one);
        let shift_m1 = b.binary(B::And, shift_m1, m31);
        let half = b.binary(B::ShiftLeft, one, shift_m1);
        let low_mask = b.binary(B::ShiftLeft, one, shift);
        let low_mask = b.binary(B::Subtract, low_mask, one);
        let rest = b.binary(B::And, sig, low_mask);
        let out = b.binary(B::ShiftRight, sig, shift);
        let above = b.binary(B::Greater, rest, half);
        let tie = b.binary(B::Equal, rest, half);
        let odd = b.binary(B::And, out, one);
        let odd = b.binary(B::NotEqual, odd, zero);
        let tie_up = b.binary(B::LogicalAnd, tie, odd);
        let up = b.binary(B::LogicalOr, above, tie_up);
        let inc = b.select(up, one, zero);
        let out = b.binary(B::Add, out, inc);
        let e_u = b.bitcast(e, ScalarKind::Uint);
        let k10 = b.u32(10);
        let e_bits = b.binary(B::ShiftLeft, e_u, k10);
        let normal = b.binary(B::Add, e_bits, out);
        let magnitude = b.select(subnormal, out, normal);
        let finite = b.binary(B::InclusiveOr, sign, magnitude);
        let k31 = b.i32(31);
        let overflow = b.binary(B::GreaterEqual, e, k31);
        let kneg10 = b.i32(-10);
        let tiny = b.binary(B::Less, e, kneg10);
        let overflowed = b.binary(B::InclusiveOr, sign, inf);
        let r = b.select(tiny, sign, finite);
        let r = b.select(overflow, overflowed, r);
        let is_special = b.binary(B::Equal, exp, mff);
        b.select(is_special, special, r)
    }

    /// The `f32` of f16 bits (the low 16 bits of a `u32`), as `scalar::pack::f16_to_f32`.
    pub(crate) fn f16_to_f32(&mut self, h: H) -> H {
        let b = &mut self.body;
        let k10 = b.u32(10);
        let k13 = b.u32(13);
        let k16 = b.u32(16);
        let k23 = b.u32(23);
        let zero = b.u32(0);
        let m8000 = b.u32(0x8000);
        let sign = b.binary(B::And, h, m8000);
        let sign = b.binary(B::ShiftLeft, sign, k16);
        let exp = b.binary(B::ShiftRight, h, k10);
        let m1f = b.u32(0x1f);
        let exp = b.binary(B::And, exp, m1f);
        let m3ff = b.u32(0x3ff);
        let man = b.binary(B::And, h, m3ff);
        let man13 = b.binary(B::ShiftLeft, man, k13);
        let k112 = b.u32(112);
        let rebased = b.binary(B::Add, exp, k112);
        let rebased = b.binary(B::ShiftLeft, rebased, k23);
        let normal = b.binary(B::InclusiveOr, sign, rebased);
        let normal = b.binary(B::InclusiveOr, normal, man13);
        let inf = b.u32(0x7f80_0000);
        let inf = b.binary(B::InclusiveOr, sign, inf);
        let nan = b.u32(0x7fc0_0000);
        let nan = b.binary(B::InclusiveOr, sign, nan);
        let nan = b.binary(B::InclusiveOr, nan, man13);
        let no_man = b.binary(B::Equal, man, zero);
        let special = b.select(no_man, inf, nan);
        // Subnormal: man · 2^-24 (exact), with the sign.
        let mf = b.convert(man, Scalar::F32);
        let scale = b.f32(f32::from_bits(0x3380_0000));
        let sub = b.binary(B::Multiply, mf, scale);
        let sub = b.bitcast(sub, ScalarKind::Uint);
        let sub = b.binary(B::InclusiveOr, sub, sign);
        let exp_zero = b.binary(B::Equal, exp, zero);
        let exp_max = b.binary(B::Equal, exp, m1f);
        let r = b.select(exp_max, special, normal);
        let r = b.select(exp_zero, sub, r);
        b.bitcast(r, ScalarKind::Float)
    }

    /// `roundEven(clamp(x, lo, 1) · scale)` as an integer; NaN gives 0.
    pub(crate) fn normalized(&mut self, x: H, lo: f32, scale: f32) -> H {
        let b = &mut self.body;
        let low = b.f32(lo);
        let one = b.f32(1.0);
        let zero = b.f32(0.0);
        let nan = b.binary(B::NotEqual, x, x);
        let c = b.math(M::Max, &[x, low]);
        let c = b.math(M::Min, &[c, one]);
        let c = b.select(nan, zero, c);
        let k = b.f32(scale);
        let s = b.binary(B::Multiply, c, k);
        let r = b.math(M::Round, &[s]);
        let i = b.convert(r, Scalar::I32);
        b.bitcast(i, ScalarKind::Uint)
    }

    /// Byte `i` of `v` as an `f32`, signed (`max(b/127, −1)`) or unsigned (`b/255`).
    pub(crate) fn unpack_byte(&mut self, v: H, i: u32, signed: bool) -> H {
        let b = &mut self.body;
        if signed {
            let up = b.u32(24 - 8 * i);
            let k24 = b.u32(24);
            let s = b.binary(B::ShiftLeft, v, up);
            let s = b.bitcast(s, ScalarKind::Sint);
            let s = b.binary(B::ShiftRight, s, k24);
            let f = b.convert(s, Scalar::F32);
            let d = b.f32(127.0);
            let q = b.binary(B::Divide, f, d);
            let minus = b.f32(-1.0);
            b.math(M::Max, &[q, minus])
        } else {
            let k = b.u32(8 * i);
            let s = b.binary(B::ShiftRight, v, k);
            let m = b.u32(0xff);
            let s = b.binary(B::And, s, m);
            let f = b.convert(s, Scalar::F32);
            let d = b.f32(255.0);
            b.binary(B::Divide, f, d)
        }
    }

    /// Half `i` (0 low, 1 high) of `v` as an unorm16 `f32`.
    pub(crate) fn unpack_unorm16(&mut self, v: H, i: u32) -> H {
        let b = &mut self.body;
        let k = b.u32(16 * i);
        let s = b.binary(B::ShiftRight, v, k);
        let m = b.u32(0xffff);
        let s = b.binary(B::And, s, m);
        let f = b.convert(s, Scalar::F32);
        let d = b.f32(65535.0);
        b.binary(B::Divide, f, d)
    }
}
