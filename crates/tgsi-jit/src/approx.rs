//! The approximate transcendentals of `tgsi_exec::scalar::approx` on four lanes: that
//! module writes each function once over its `Arith` operations, and [`Vector`] provides
//! them as Cranelift vector instructions on `f32x4` values (reinterpreted as `i32x4` for
//! the bit operations), so the compiled code performs the same binary32 operations as the
//! scalar definition in every lane. Used only when [`crate::Options::approximate_math`]
//! asks for it.

use crate::lanes::LaneOps;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32, I32X4};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;
use tgsi::Opcode;
use tgsi_exec::scalar::approx::{self, Arith};

/// [`Arith`] on `f32x4` values; conditions are `i32x4` lane masks.
struct Vector<'a, 'b>(&'a mut FunctionBuilder<'b>);

/// The approximation of `op`, if it is one of those computed approximately (EX2, LG2,
/// SIN and COS; POW keeps glibc's `powf`, see `tgsi_exec::scalar::approx`).
fn approximation(op: Opcode) -> Option<fn(&mut Vector, Value) -> Value> {
    Some(match op {
        Opcode::EX2 => |v, x| approx::ex2(v, x),
        Opcode::LG2 => |v, x| approx::lg2(v, x),
        Opcode::SIN => |v, x| approx::sin(v, x),
        Opcode::COS => |v, x| approx::cos(v, x),
        _ => return None,
    })
}

/// Whether `op` is computed approximately under [`crate::Options::approximate_math`].
pub(crate) fn approximates(op: Opcode) -> bool {
    approximation(op).is_some()
}

/// EX2, LG2, SIN or COS of the word vector `x` as words, approximately; `None` for other
/// opcodes, having emitted nothing.
pub(crate) fn transcendental(b: &mut FunctionBuilder, op: Opcode, x: Value) -> Option<Value> {
    let f = approximation(op)?;
    let xf = b.f(x);
    let r = f(&mut Vector(b), xf);
    Some(b.w(r))
}

impl Vector<'_, '_> {
    /// The bits of `x` as `i32x4`.
    fn int(&mut self, x: Value) -> Value {
        self.0.ins().bitcast(I32X4, MemFlagsData::new(), x)
    }

    /// `op` on the bits of `x` and `y`.
    fn bitwise(
        &mut self,
        x: Value,
        y: Value,
        op: fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> Value {
        let (xi, yi) = (self.int(x), self.int(y));
        let r = op(self.0, xi, yi);
        self.0.f(r)
    }

    /// The bits of `x` shifted by `n` with `op`.
    fn shift(
        &mut self,
        x: Value,
        n: u8,
        op: fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> Value {
        let xi = self.int(x);
        let n = self.0.ins().iconst(I32, i64::from(n));
        let r = op(self.0, xi, n);
        self.0.f(r)
    }
}

impl Arith for Vector<'_, '_> {
    type F = Value;
    type M = Value;

    fn float(&mut self, x: f32) -> Value {
        let w = self.0.splat_word(x.to_bits());
        self.0.f(w)
    }
    fn bits_const(&mut self, bits: u32) -> Value {
        let w = self.0.splat_word(bits);
        self.0.f(w)
    }
    fn add(&mut self, x: Value, y: Value) -> Value {
        self.0.ins().fadd(x, y)
    }
    fn sub(&mut self, x: Value, y: Value) -> Value {
        self.0.ins().fsub(x, y)
    }
    fn mul(&mut self, x: Value, y: Value) -> Value {
        self.0.ins().fmul(x, y)
    }
    fn div(&mut self, x: Value, y: Value) -> Value {
        self.0.ins().fdiv(x, y)
    }
    fn round(&mut self, x: Value) -> Value {
        self.0.ins().nearest(x)
    }
    fn to_int(&mut self, x: Value) -> Value {
        let w = self.0.w(x);
        let i = self.0.f2i(w);
        self.0.f(i)
    }
    fn to_float(&mut self, x: Value) -> Value {
        let xi = self.int(x);
        self.0.ins().fcvt_from_sint(F32X4, xi)
    }
    fn iadd(&mut self, x: Value, y: Value) -> Value {
        self.bitwise(x, y, |b, p, q| b.ins().iadd(p, q))
    }
    fn isub(&mut self, x: Value, y: Value) -> Value {
        self.bitwise(x, y, |b, p, q| b.ins().isub(p, q))
    }
    fn and(&mut self, x: Value, y: Value) -> Value {
        self.bitwise(x, y, |b, p, q| b.ins().band(p, q))
    }
    fn xor(&mut self, x: Value, y: Value) -> Value {
        self.bitwise(x, y, |b, p, q| b.ins().bxor(p, q))
    }
    fn shl(&mut self, x: Value, n: u8) -> Value {
        self.shift(x, n, |b, p, q| b.ins().ishl(p, q))
    }
    fn sar(&mut self, x: Value, n: u8) -> Value {
        self.shift(x, n, |b, p, q| b.ins().sshr(p, q))
    }
    fn lt(&mut self, x: Value, y: Value) -> Value {
        self.0.ins().fcmp(FloatCC::LessThan, x, y)
    }
    fn eq(&mut self, x: Value, y: Value) -> Value {
        self.0.ins().fcmp(FloatCC::Equal, x, y)
    }
    fn ieq(&mut self, x: Value, y: Value) -> Value {
        let (xi, yi) = (self.int(x), self.int(y));
        self.0.ins().icmp(IntCC::Equal, xi, yi)
    }
    fn select(&mut self, m: Value, x: Value, y: Value) -> Value {
        let (xi, yi) = (self.int(x), self.int(y));
        let r = self.0.ins().blendv(m, xi, yi);
        self.0.f(r)
    }
}
