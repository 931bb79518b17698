//! 64-bit values for targets without 64-bit integers (naga's GLSL back end has none).
//!
//! A double is assembled from its two words, and taken apart again, by two helper functions
//! that work with `f64` arithmetic only (`ldexp` and exact integer-valued doubles), so every
//! finite value, ±0 and ±∞ round-trips; NaNs come back as the canonical quiet NaN, and
//! subnormals need a target that keeps them. A 64-bit integer is a pair of `u32` words; the
//! operations on pairs (add with carry, multiply from 32-bit halves, comparisons, shifts)
//! give the same results as the interpreter's 64-bit arithmetic.

use naga::front::Typifier;
use naga::{
    BinaryOperator as B, Expression, Function, FunctionArgument, FunctionResult, Handle,
    MathFunction as M, Scalar, ScalarKind, Statement, TypeInner, UnaryOperator, VectorSize,
};
use tgsi::ir::{Instruction, Src};
use tgsi::opcode::{Opcode, OperandType};

use crate::body::Body;
use crate::error::Result;
use crate::translate::Translator;

type H = Handle<Expression>;

/// 2^32 as a double.
const TWO32: f64 = 4294967296.0;

/// The helper functions a module has been given so far.
#[derive(Default)]
pub(crate) struct Helpers {
    double_from_words: Option<Handle<Function>>,
    words_of_double: Option<Handle<Function>>,
    udivmod64: Option<Handle<Function>>,
}

/// A 64-bit integer as two `u32` words.
#[derive(Clone, Copy)]
struct Pair {
    lo: H,
    hi: H,
}

impl Translator<'_> {
    /// Builds a helper function: `build` receives its arguments and returns its result.
    fn helper(
        &mut self,
        name: &str,
        args: &[Scalar],
        result: TypeInner,
        build: impl FnOnce(&mut Self, &[H]) -> H,
    ) -> Handle<Function> {
        let mut arguments = Vec::new();
        for (i, &s) in args.iter().enumerate() {
            let ty = self.ty(TypeInner::Scalar(s));
            arguments.push(FunctionArgument {
                name: Some(format!("arg{i}")),
                ty,
                binding: None,
            });
        }
        let ty = self.ty(result);
        let function = Function {
            name: Some(name.to_string()),
            arguments,
            result: Some(FunctionResult { ty, binding: None }),
            ..Function::default()
        };
        let main_body = std::mem::replace(&mut self.body, Body::new(function));
        let main_typifier = std::mem::replace(&mut self.typifier, Typifier::new());
        let main_loaded = std::mem::take(&mut self.loaded);
        let args: Vec<H> = (0..args.len() as u32)
            .map(|i| self.body.expr(Expression::FunctionArgument(i)))
            .collect();
        let value = build(self, &args);
        self.body.stmt(Statement::Return { value: Some(value) });
        let helper = std::mem::replace(&mut self.body, main_body).finish();
        self.typifier = main_typifier;
        self.loaded = main_loaded;
        self.module.functions.append(helper, naga::Span::UNDEFINED)
    }

    /// Calls a helper and returns its result.
    fn call(&mut self, function: Handle<Function>, arguments: Vec<H>) -> H {
        let result = self.body.expr(Expression::CallResult(function));
        self.body.stmt(Statement::Call {
            function,
            arguments,
            result: Some(result),
        });
        result
    }

    /// The double with words `lo`, `hi`, through `tgsi_double_from_words`.
    pub(crate) fn call_double_from_words(&mut self, lo: H, hi: H) -> H {
        let f = match self.helpers.double_from_words {
            Some(f) => f,
            None => {
                let f = self.helper(
                    "tgsi_double_from_words",
                    &[Scalar::U32, Scalar::U32],
                    TypeInner::Scalar(Scalar::F64),
                    |t, a| t.double_from_words(a[0], a[1]),
                );
                self.helpers.double_from_words = Some(f);
                f
            }
        };
        self.call(f, vec![lo, hi])
    }

    /// The words of a double, through `tgsi_words_of_double`.
    pub(crate) fn call_words_of_double(&mut self, x: H) -> (H, H) {
        let f = match self.helpers.words_of_double {
            Some(f) => f,
            None => {
                let f = self.helper(
                    "tgsi_words_of_double",
                    &[Scalar::F64],
                    TypeInner::Vector {
                        size: VectorSize::Bi,
                        scalar: Scalar::U32,
                    },
                    |t, a| t.words_of_double(a[0]),
                );
                self.helpers.words_of_double = Some(f);
                f
            }
        };
        let v = self.call(f, vec![x]);
        (self.body.index(v, 0), self.body.index(v, 1))
    }

    /// Body of `tgsi_double_from_words`.
    fn double_from_words(&mut self, lo: H, hi: H) -> H {
        let b = &mut self.body;
        let k20 = b.u32(20);
        let k31 = b.u32(31);
        let sign = b.binary(B::ShiftRight, hi, k31);
        let field = b.binary(B::ShiftRight, hi, k20);
        let m11 = b.u32(0x7ff);
        let field = b.binary(B::And, field, m11);
        let m20 = b.u32(0xfffff);
        let mh = b.binary(B::And, hi, m20);
        let mh = b.convert(mh, Scalar::F64);
        let two32 = b.f64(TWO32);
        let mh = b.binary(B::Multiply, mh, two32);
        let ml = b.convert(lo, Scalar::F64);
        let m = b.binary(B::Add, mh, ml);
        let implicit = b.f64(4503599627370496.0); // 2^52
        let full = b.binary(B::Add, m, implicit);
        let e = b.bitcast(field, ScalarKind::Sint);
        let k1075 = b.i32(1075);
        let e = b.binary(B::Subtract, e, k1075);
        let normal = b.math(M::Ldexp, &[full, e]);
        let k1074 = b.i32(-1074);
        let subnormal = b.math(M::Ldexp, &[m, k1074]);
        let max = b.f64(f64::MAX);
        let two = b.f64(2.0);
        let inf = b.binary(B::Multiply, max, two);
        let nan = b.binary(B::Subtract, inf, inf);
        let zero = b.f64(0.0);
        let no_mantissa = b.binary(B::Equal, m, zero);
        let special = b.select(no_mantissa, inf, nan);
        let is_special = b.binary(B::Equal, field, m11);
        let zero_u = b.u32(0);
        let is_sub = b.binary(B::Equal, field, zero_u);
        let v = b.select(is_special, special, normal);
        let v = b.select(is_sub, subnormal, v);
        let neg = b.unary(UnaryOperator::Negate, v);
        let negative = b.binary(B::NotEqual, sign, zero_u);
        b.select(negative, neg, v)
    }

    /// Body of `tgsi_words_of_double`.
    fn words_of_double(&mut self, x: H) -> H {
        let b = &mut self.body;
        let a = b.math(M::Abs, &[x]);
        let zero = b.f64(0.0);
        let one = b.f64(1.0);
        // The sign, −0 included (1/−0 = −∞).
        let below = b.binary(B::Less, x, zero);
        let is_zero = b.binary(B::Equal, a, zero);
        let inv = b.binary(B::Divide, one, x);
        let inv_neg = b.binary(B::Less, inv, zero);
        let neg_zero = b.binary(B::LogicalAnd, is_zero, inv_neg);
        let negative = b.binary(B::LogicalOr, below, neg_zero);
        let is_nan = b.binary(B::NotEqual, x, x);
        let max = b.f64(f64::MAX);
        let is_inf = b.binary(B::Greater, a, max);
        // floor(log2 a) by bisection over [−1074, 1023].
        let mut e = b.i32(-1074);
        let top = b.i32(1023);
        for step in (0..12).rev().map(|k| 1 << k) {
            let s = b.i32(step);
            let mid = b.binary(B::Add, e, s);
            let in_range = b.binary(B::LessEqual, mid, top);
            let clamped = b.math(M::Min, &[mid, top]);
            let p = b.math(M::Ldexp, &[one, clamped]);
            let above = b.binary(B::GreaterEqual, a, p);
            let take = b.binary(B::LogicalAnd, in_range, above);
            e = b.select(take, mid, e);
        }
        let min_e = b.i32(-1022);
        let normal = b.binary(B::GreaterEqual, e, min_e);
        let minus_e = b.unary(UnaryOperator::Negate, e);
        let scaled = b.math(M::Ldexp, &[a, minus_e]);
        let frac = b.binary(B::Subtract, scaled, one);
        let two52 = b.f64(4503599627370496.0);
        let mn = b.binary(B::Multiply, frac, two52);
        let k1074 = b.i32(1074);
        let ms = b.math(M::Ldexp, &[a, k1074]);
        let mant = b.select(normal, mn, ms);
        let bias = b.i32(1023);
        let biased = b.binary(B::Add, e, bias);
        let zero_i = b.i32(0);
        let biased = b.select(normal, biased, zero_i);
        let biased = b.bitcast(biased, ScalarKind::Uint);
        let two32 = b.f64(TWO32);
        let q = b.binary(B::Divide, mant, two32);
        let mhi = b.math(M::Floor, &[q]);
        let back = b.binary(B::Multiply, mhi, two32);
        let rest = b.binary(B::Subtract, mant, back);
        let lo = b.convert(rest, Scalar::U32);
        let mhi = b.convert(mhi, Scalar::U32);
        let k20 = b.u32(20);
        let exp_bits = b.binary(B::ShiftLeft, biased, k20);
        let sign_bit = b.u32(0x8000_0000);
        let zero_u = b.u32(0);
        let sign = b.select(negative, sign_bit, zero_u);
        let hi = b.binary(B::InclusiveOr, sign, exp_bits);
        let hi = b.binary(B::InclusiveOr, hi, mhi);
        let inf_bits = b.u32(0x7ff0_0000);
        let inf_hi = b.binary(B::InclusiveOr, sign, inf_bits);
        let nan_hi = b.u32(0x7ff8_0000);
        let plain = b.binary(B::LogicalOr, is_zero, is_inf);
        let plain = b.binary(B::LogicalOr, plain, is_nan);
        let hi = b.select(is_zero, sign, hi);
        let hi = b.select(is_inf, inf_hi, hi);
        let hi = b.select(is_nan, nan_hi, hi);
        let lo = b.select(plain, zero_u, lo);
        let ty = self.ty(TypeInner::Vector {
            size: VectorSize::Bi,
            scalar: Scalar::U32,
        });
        self.body.expr(Expression::Compose {
            ty,
            components: vec![lo, hi],
        })
    }
}

/// What a pair-mode operation produced.
enum Value {
    /// A 64-bit integer.
    Pair(Pair),
    /// A double.
    Double(H),
    /// A 32-bit value.
    Word(H),
}

impl Translator<'_> {
    /// A 64-bit instruction with 64-bit integer operands (or D2U), on word pairs.
    pub(crate) fn wide_pairs(&mut self, inst: &Instruction) -> Result<()> {
        let info = inst.opcode.info();
        let Some(dst) = inst.dst.first() else {
            return Err(self.unsupported("has no destination"));
        };
        let any64 = (0..inst.src.len()).any(|i| info.src_type(i).is_64bit());
        let mut writes = Vec::new();
        for p in 0..2 {
            let channels = crate::wide::pair_channels(inst, dst.write_mask, p);
            if channels.is_empty() {
                continue;
            }
            let mut args = Vec::new();
            for (k, src) in inst.src.iter().enumerate() {
                let ty = info.src_type(k);
                args.push(match ty {
                    OperandType::I64 | OperandType::U64 => Value::Pair(self.fetch_pair(src, p)?),
                    OperandType::F64 => Value::Double(self.fetch_wide(src, p, ty)?),
                    _ => Value::Word(self.fetch(src, if any64 { 2 * p } else { p }, ty)?),
                });
            }
            let (lo, hi) = match self.pair_op(inst.opcode, &args)? {
                Value::Pair(r) => (r.lo, r.hi),
                Value::Double(d) => {
                    let d = if inst.saturate { self.dsaturate(d) } else { d };
                    self.split(d)?
                }
                Value::Word(w) => (w, w),
            };
            for c in channels {
                writes.push((
                    c,
                    if c % 2 == 0 || !info.dst_type(0).is_64bit() {
                        lo
                    } else {
                        hi
                    },
                ));
            }
        }
        for (c, w) in writes {
            self.write(dst, c, w)?;
        }
        Ok(())
    }

    /// Pair `p` of a 64-bit integer source, with `|x|` and `-x` applied.
    fn fetch_pair(&mut self, src: &Src, p: usize) -> Result<Pair> {
        let lo = self.fetch_word(src, 2 * p)?;
        let hi = self.fetch_word(src, 2 * p + 1)?;
        let mut x = Pair { lo, hi };
        if src.absolute {
            x = self.pair_abs(x);
        }
        if src.negate {
            x = self.pair_neg(x);
        }
        Ok(x)
    }

    fn pair_op(&mut self, op: Opcode, a: &[Value]) -> Result<Value> {
        let pair = |v: &Value| match v {
            Value::Pair(p) => Some(*p),
            _ => None,
        };
        let word = |v: &Value| match v {
            Value::Word(w) | Value::Double(w) => Some(*w),
            Value::Pair(_) => None,
        };
        let x = a.first().and_then(pair);
        let y = a.get(1).and_then(pair);
        let w = a.first().and_then(word);
        let r = match (op, x, y, w) {
            (Opcode::U64ADD, Some(x), Some(y), _) => Value::Pair(self.pair_add(x, y)),
            (Opcode::U64MUL, Some(x), Some(y), _) => Value::Pair(self.pair_mul(x, y)),
            (Opcode::U64SEQ, Some(x), Some(y), _) => {
                let e = self.pair_eq(x, y);
                Value::Word(self.bool_mask(e))
            }
            (Opcode::U64SNE, Some(x), Some(y), _) => {
                let e = self.pair_eq(x, y);
                let ne = self.body.unary(UnaryOperator::LogicalNot, e);
                Value::Word(self.bool_mask(ne))
            }
            (
                Opcode::U64SLT | Opcode::I64SLT | Opcode::U64SGE | Opcode::I64SGE,
                Some(x),
                Some(y),
                _,
            ) => {
                let signed = matches!(op, Opcode::I64SLT | Opcode::I64SGE);
                let lt = self.pair_less(x, y, signed);
                let r = if matches!(op, Opcode::U64SGE | Opcode::I64SGE) {
                    self.body.unary(UnaryOperator::LogicalNot, lt)
                } else {
                    lt
                };
                Value::Word(self.bool_mask(r))
            }
            (
                Opcode::U64MIN | Opcode::I64MIN | Opcode::U64MAX | Opcode::I64MAX,
                Some(x),
                Some(y),
                _,
            ) => {
                let signed = matches!(op, Opcode::I64MIN | Opcode::I64MAX);
                let lt = self.pair_less(x, y, signed);
                let (first, second) = if matches!(op, Opcode::U64MIN | Opcode::I64MIN) {
                    (x, y)
                } else {
                    (y, x)
                };
                Value::Pair(self.pair_select(lt, first, second))
            }
            (Opcode::I64ABS, Some(x), _, _) => Value::Pair(self.pair_abs(x)),
            (Opcode::I64NEG, Some(x), _, _) => Value::Pair(self.pair_neg(x)),
            (Opcode::I64SSG, Some(x), _, _) => {
                let b = &mut self.body;
                let zero = b.u32(0);
                let one = b.u32(1);
                let ones = b.u32(u32::MAX);
                let hi_i = b.bitcast(x.hi, ScalarKind::Sint);
                let zero_i = b.i32(0);
                let negative = b.binary(B::Less, hi_i, zero_i);
                let any = b.binary(B::InclusiveOr, x.lo, x.hi);
                let nonzero = b.binary(B::NotEqual, any, zero);
                let lo = b.select(nonzero, one, zero);
                let lo = b.select(negative, ones, lo);
                let hi = b.select(negative, ones, zero);
                Value::Pair(Pair { lo, hi })
            }
            (Opcode::U64SHL | Opcode::U64SHR | Opcode::I64SHR, Some(x), Some(y), _) => {
                Value::Pair(self.pair_shift(op, x, y.lo))
            }
            (Opcode::I2I64, _, _, Some(w)) => {
                let b = &mut self.body;
                let lo = b.bitcast(w, ScalarKind::Uint);
                let k31 = b.u32(31);
                let hi = b.binary(B::ShiftRight, w, k31);
                let hi = b.bitcast(hi, ScalarKind::Uint);
                Value::Pair(Pair { lo, hi })
            }
            (Opcode::U2I64, _, _, Some(w)) => {
                let hi = self.body.u32(0);
                Value::Pair(Pair { lo: w, hi })
            }
            (Opcode::I642D | Opcode::U642D | Opcode::I642F | Opcode::U642F, Some(x), _, _) => {
                let signed = matches!(op, Opcode::I642D | Opcode::I642F);
                let b = &mut self.body;
                let hi = if signed {
                    let h = b.bitcast(x.hi, ScalarKind::Sint);
                    b.convert(h, Scalar::F64)
                } else {
                    b.convert(x.hi, Scalar::F64)
                };
                let two32 = b.f64(TWO32);
                let hi = b.binary(B::Multiply, hi, two32);
                let lo = b.convert(x.lo, Scalar::F64);
                let d = b.binary(B::Add, hi, lo);
                if matches!(op, Opcode::I642F | Opcode::U642F) {
                    Value::Word(b.convert(d, Scalar::F32))
                } else {
                    Value::Double(d)
                }
            }
            (
                Opcode::F2I64 | Opcode::D2I64 | Opcode::F2U64 | Opcode::D2U64 | Opcode::D2U,
                _,
                _,
                Some(w),
            ) => {
                let d = if matches!(op, Opcode::F2I64 | Opcode::F2U64) {
                    self.body.convert(w, Scalar::F64)
                } else {
                    w
                };
                let r = if matches!(op, Opcode::F2U64 | Opcode::D2U64) {
                    let two63 = self.body.f64(9223372036854775808.0);
                    let high = self.body.binary(B::GreaterEqual, d, two63);
                    let shifted = self.body.binary(B::Subtract, d, two63);
                    let h = self.pair_from_double(shifted);
                    let flip = self.body.u32(0x8000_0000);
                    let h_hi = self.body.binary(B::ExclusiveOr, h.hi, flip);
                    let l = self.pair_from_double(d);
                    let h = Pair { lo: h.lo, hi: h_hi };
                    self.pair_select(high, h, l)
                } else {
                    self.pair_from_double(d)
                };
                if op == Opcode::D2U {
                    Value::Word(r.lo)
                } else {
                    Value::Pair(r)
                }
            }
            (Opcode::U64DIV | Opcode::U64MOD, Some(x), Some(y), _) => {
                let (q, r) = self.pair_udivmod(x, y);
                let b = &mut self.body;
                let zero = b.u32(0);
                let any = b.binary(B::InclusiveOr, y.lo, y.hi);
                let by_zero = b.binary(B::Equal, any, zero);
                let ones = b.u32(u32::MAX);
                let all = Pair { lo: ones, hi: ones };
                let v = if op == Opcode::U64DIV { q } else { r };
                Value::Pair(self.pair_select(by_zero, all, v))
            }
            (Opcode::I64DIV | Opcode::I64MOD, Some(x), Some(y), _) => {
                // On magnitudes; the quotient is negative when the signs differ, the
                // remainder has the dividend's sign. MIN / −1 wraps to MIN, MIN % −1 is 0.
                let (ax, ay) = (self.pair_abs(x), self.pair_abs(y));
                let (q, r) = self.pair_udivmod(ax, ay);
                let b = &mut self.body;
                let zero_i = b.i32(0);
                let xs = b.bitcast(x.hi, ScalarKind::Sint);
                let ys = b.bitcast(y.hi, ScalarKind::Sint);
                let x_neg = b.binary(B::Less, xs, zero_i);
                let y_neg = b.binary(B::Less, ys, zero_i);
                let zero = b.u32(0);
                let any = b.binary(B::InclusiveOr, y.lo, y.hi);
                let by_zero = b.binary(B::Equal, any, zero);
                let (v, negative, on_zero) = if op == Opcode::I64DIV {
                    let differ = b.binary(B::NotEqual, x_neg, y_neg);
                    (q, differ, Pair { lo: zero, hi: zero })
                } else {
                    let ones = b.u32(u32::MAX);
                    (r, x_neg, Pair { lo: ones, hi: ones })
                };
                let neg = self.pair_neg(v);
                let v = self.pair_select(negative, neg, v);
                Value::Pair(self.pair_select(by_zero, on_zero, v))
            }
            _ => return Err(self.unsupported("on 32-bit word pairs is not translated yet")),
        };
        Ok(r)
    }

    /// Unsigned quotient and remainder (a zero divisor gives garbage; callers select).
    fn pair_udivmod(&mut self, x: Pair, y: Pair) -> (Pair, Pair) {
        let f = match self.helpers.udivmod64 {
            Some(f) => f,
            None => {
                let f = self.helper(
                    "tgsi_udivmod64",
                    &[Scalar::U32, Scalar::U32, Scalar::U32, Scalar::U32],
                    TypeInner::Vector {
                        size: VectorSize::Quad,
                        scalar: Scalar::U32,
                    },
                    |t, a| t.udivmod64(a),
                );
                self.helpers.udivmod64 = Some(f);
                f
            }
        };
        let v = self.call(f, vec![x.lo, x.hi, y.lo, y.hi]);
        let b = &mut self.body;
        let q = Pair {
            lo: b.index(v, 0),
            hi: b.index(v, 1),
        };
        let r = Pair {
            lo: b.index(v, 2),
            hi: b.index(v, 3),
        };
        (q, r)
    }

    /// Body of `tgsi_udivmod64`: restoring division, one bit per iteration, high bit first.
    fn udivmod64(&mut self, a: &[H]) -> H {
        let (n, d) = (Pair { lo: a[0], hi: a[1] }, Pair { lo: a[2], hi: a[3] });
        let u32_ty = self.ty(TypeInner::Scalar(Scalar::U32));
        let local = |t: &mut Self, name: &str| {
            let zero = t.body.u32(0);
            let var = t.body.function.local_variables.append(
                naga::LocalVariable {
                    name: Some(name.to_string()),
                    ty: u32_ty,
                    init: Some(zero),
                },
                naga::Span::UNDEFINED,
            );
            t.body.expr(Expression::LocalVariable(var))
        };
        let (q_lo, q_hi) = (local(self, "q_lo"), local(self, "q_hi"));
        let (r_lo, r_hi) = (local(self, "r_lo"), local(self, "r_hi"));
        let i = local(self, "i");
        let k64 = self.body.u32(64);
        self.body.store(i, k64);
        self.body.open();
        {
            let b = &mut self.body;
            let zero = b.u32(0);
            let one = b.u32(1);
            let k32 = b.u32(32);
            let m31 = b.u32(31);
            let iv = b.load(i);
            let done = b.binary(B::Equal, iv, zero);
            b.if_then(done, |b| b.stmt(Statement::Break));
            let iv = b.binary(B::Subtract, iv, one);
            b.store(i, iv);
            let s = b.binary(B::And, iv, m31);
            let high = b.binary(B::GreaterEqual, iv, k32);
            let word = b.select(high, n.hi, n.lo);
            let bit = b.binary(B::ShiftRight, word, s);
            let bit = b.binary(B::And, bit, one);
            // r = r << 1 | bit
            let rl = b.load(r_lo);
            let rh = b.load(r_hi);
            let rh = b.binary(B::ShiftLeft, rh, one);
            let carry = b.binary(B::ShiftRight, rl, m31);
            let rh = b.binary(B::InclusiveOr, rh, carry);
            let rl = b.binary(B::ShiftLeft, rl, one);
            let rl = b.binary(B::InclusiveOr, rl, bit);
            let r = Pair { lo: rl, hi: rh };
            let below = self.pair_less(r, d, false);
            let neg_d = self.pair_neg(d);
            let diff = self.pair_add(r, neg_d);
            let r = self.pair_select(below, r, diff);
            let b = &mut self.body;
            b.store(r_lo, r.lo);
            b.store(r_hi, r.hi);
            let zero = b.u32(0);
            let one = b.u32(1);
            let set = b.binary(B::ShiftLeft, one, s);
            let set = b.select(below, zero, set);
            let set_lo = b.select(high, zero, set);
            let set_hi = b.select(high, set, zero);
            let ql = b.load(q_lo);
            let ql = b.binary(B::InclusiveOr, ql, set_lo);
            b.store(q_lo, ql);
            let qh = b.load(q_hi);
            let qh = b.binary(B::InclusiveOr, qh, set_hi);
            b.store(q_hi, qh);
        }
        let body = self.body.close();
        self.body.stmt(Statement::Loop {
            body,
            continuing: naga::Block::new(),
            break_if: None,
        });
        let b = &mut self.body;
        let components = vec![b.load(q_lo), b.load(q_hi), b.load(r_lo), b.load(r_hi)];
        let ty = self.ty(TypeInner::Vector {
            size: VectorSize::Quad,
            scalar: Scalar::U32,
        });
        self.body.expr(Expression::Compose { ty, components })
    }

    /// `~0` when true.
    fn bool_mask(&mut self, cond: H) -> H {
        let ones = self.body.u32(u32::MAX);
        let zero = self.body.u32(0);
        self.body.select(cond, ones, zero)
    }

    fn pair_select(&mut self, cond: H, x: Pair, y: Pair) -> Pair {
        Pair {
            lo: self.body.select(cond, x.lo, y.lo),
            hi: self.body.select(cond, x.hi, y.hi),
        }
    }

    fn pair_add(&mut self, x: Pair, y: Pair) -> Pair {
        let b = &mut self.body;
        let lo = b.binary(B::Add, x.lo, y.lo);
        let wrapped = b.binary(B::Less, lo, x.lo);
        let one = b.u32(1);
        let zero = b.u32(0);
        let carry = b.select(wrapped, one, zero);
        let hi = b.binary(B::Add, x.hi, y.hi);
        let hi = b.binary(B::Add, hi, carry);
        Pair { lo, hi }
    }

    fn pair_neg(&mut self, x: Pair) -> Pair {
        let b = &mut self.body;
        let zero = b.u32(0);
        let one = b.u32(1);
        let lo = b.binary(B::Subtract, zero, x.lo);
        let not_hi = b.unary(UnaryOperator::BitwiseNot, x.hi);
        let lo_zero = b.binary(B::Equal, x.lo, zero);
        let carry = b.select(lo_zero, one, zero);
        let hi = b.binary(B::Add, not_hi, carry);
        Pair { lo, hi }
    }

    /// Wrapping absolute value (`MIN` stays `MIN`).
    fn pair_abs(&mut self, x: Pair) -> Pair {
        let neg = self.pair_neg(x);
        let b = &mut self.body;
        let hi_i = b.bitcast(x.hi, ScalarKind::Sint);
        let zero = b.i32(0);
        let negative = b.binary(B::Less, hi_i, zero);
        self.pair_select(negative, neg, x)
    }

    /// The low 64 bits of the product.
    fn pair_mul(&mut self, x: Pair, y: Pair) -> Pair {
        let lo = self.body.binary(B::Multiply, x.lo, y.lo);
        let carry = self.umul_hi(x.lo, y.lo);
        let b = &mut self.body;
        let c1 = b.binary(B::Multiply, x.lo, y.hi);
        let c2 = b.binary(B::Multiply, x.hi, y.lo);
        let hi = b.binary(B::Add, carry, c1);
        let hi = b.binary(B::Add, hi, c2);
        Pair { lo, hi }
    }

    fn pair_eq(&mut self, x: Pair, y: Pair) -> H {
        let b = &mut self.body;
        let lo = b.binary(B::Equal, x.lo, y.lo);
        let hi = b.binary(B::Equal, x.hi, y.hi);
        b.binary(B::LogicalAnd, lo, hi)
    }

    fn pair_less(&mut self, x: Pair, y: Pair, signed: bool) -> H {
        let b = &mut self.body;
        let hi_less = if signed {
            let xh = b.bitcast(x.hi, ScalarKind::Sint);
            let yh = b.bitcast(y.hi, ScalarKind::Sint);
            b.binary(B::Less, xh, yh)
        } else {
            b.binary(B::Less, x.hi, y.hi)
        };
        let hi_eq = b.binary(B::Equal, x.hi, y.hi);
        let lo_less = b.binary(B::Less, x.lo, y.lo);
        let low = b.binary(B::LogicalAnd, hi_eq, lo_less);
        b.binary(B::LogicalOr, hi_less, low)
    }

    /// U64SHL, U64SHR, I64SHR by `count & 63`.
    fn pair_shift(&mut self, op: Opcode, x: Pair, count: H) -> Pair {
        let b = &mut self.body;
        let m63 = b.u32(63);
        let m31 = b.u32(31);
        let k32 = b.u32(32);
        let zero = b.u32(0);
        let n = b.binary(B::And, count, m63);
        let small = b.binary(B::Less, n, k32);
        let is_zero = b.binary(B::Equal, n, zero);
        let s = b.binary(B::And, n, m31);
        // 32 − s, masked (only used when 0 < n < 32).
        let back = b.binary(B::Subtract, k32, s);
        let back = b.binary(B::And, back, m31);
        let r = match op {
            Opcode::U64SHL => {
                let lo = b.binary(B::ShiftLeft, x.lo, s);
                let carried = b.binary(B::ShiftRight, x.lo, back);
                let hi = b.binary(B::ShiftLeft, x.hi, s);
                let hi = b.binary(B::InclusiveOr, hi, carried);
                let big_hi = b.binary(B::ShiftLeft, x.lo, s);
                let lo = b.select(small, lo, zero);
                let hi = b.select(small, hi, big_hi);
                Pair { lo, hi }
            }
            _ => {
                let signed = op == Opcode::I64SHR;
                let hi_shifted = if signed {
                    let h = b.bitcast(x.hi, ScalarKind::Sint);
                    let v = b.binary(B::ShiftRight, h, s);
                    b.bitcast(v, ScalarKind::Uint)
                } else {
                    b.binary(B::ShiftRight, x.hi, s)
                };
                let fill = if signed {
                    let h = b.bitcast(x.hi, ScalarKind::Sint);
                    let v = b.binary(B::ShiftRight, h, m31);
                    b.bitcast(v, ScalarKind::Uint)
                } else {
                    zero
                };
                let lo = b.binary(B::ShiftRight, x.lo, s);
                let carried = b.binary(B::ShiftLeft, x.hi, back);
                let lo = b.binary(B::InclusiveOr, lo, carried);
                let lo = b.select(small, lo, hi_shifted);
                let hi = b.select(small, hi_shifted, fill);
                Pair { lo, hi }
            }
        };
        self.pair_select(is_zero, x, r)
    }

    /// `(int64_t)d` on x86-64: truncation; NaN and out-of-range give `i64::MIN`.
    fn pair_from_double(&mut self, d: H) -> Pair {
        let b = &mut self.body;
        let lo_bound = b.f64(-9223372036854775808.0);
        let hi_bound = b.f64(9223372036854775808.0);
        let above = b.binary(B::GreaterEqual, d, lo_bound);
        let below = b.binary(B::Less, d, hi_bound);
        let ok = b.binary(B::LogicalAnd, above, below);
        let zero = b.f64(0.0);
        let safe = b.select(ok, d, zero);
        let t = b.math(M::Trunc, &[safe]);
        let two32 = b.f64(TWO32);
        let q = b.binary(B::Divide, t, two32);
        let hi = b.math(M::Floor, &[q]);
        let back = b.binary(B::Multiply, hi, two32);
        let rest = b.binary(B::Subtract, t, back);
        let lo = b.convert(rest, Scalar::U32);
        let hi = b.convert(hi, Scalar::I32);
        let hi = b.bitcast(hi, ScalarKind::Uint);
        let min_lo = b.u32(0);
        let min_hi = b.u32(0x8000_0000);
        let lo = b.select(ok, lo, min_lo);
        let hi = b.select(ok, hi, min_hi);
        Pair { lo, hi }
    }
}
