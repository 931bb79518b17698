//! 64-bit opcodes (doubles and 64-bit integers). A 64-bit value lives in a channel pair, low
//! word first; it is assembled into a naga `u64` and bit-cast to `f64`/`i64` when needed, so
//! NaN payloads and signs survive moves. Channel pairing follows the interpreter: a 64-bit
//! result fills pair `p` (xy or zw), a 32-bit result from one source goes to channel `p`,
//! from several sources to the first enabled channel of pair `p`.

use naga::{BinaryOperator as B, Expression, Handle, MathFunction as M, Scalar, ScalarKind};
use tgsi::ir::{Instruction, Src};
use tgsi::opcode::{Opcode, OperandType};

use crate::error::Result;
use crate::translate::Translator;

type H = Handle<Expression>;

/// The destination channels pair `p` of a 64-bit instruction writes: the pair itself for a
/// 64-bit result, channel `p` for a 32-bit result from one source, otherwise the first
/// enabled channel of the pair.
pub(crate) fn pair_channels(inst: &Instruction, mask: tgsi::ir::WriteMask, p: usize) -> Vec<usize> {
    let candidates = if inst.opcode.info().dst_type(0).is_64bit() {
        vec![2 * p, 2 * p + 1]
    } else if inst.src.len() == 1 {
        vec![p]
    } else if mask.has(2 * p) {
        vec![2 * p]
    } else {
        vec![2 * p + 1]
    };
    candidates.into_iter().filter(|&c| mask.has(c)).collect()
}

impl Translator<'_> {
    /// Translates a 64-bit instruction.
    pub(crate) fn wide(&mut self, inst: &Instruction) -> Result<()> {
        if inst.opcode == Opcode::DFRACEXP {
            return self.fracexp(inst);
        }
        let info = inst.opcode.info();
        let integer64 = |t: OperandType| matches!(t, OperandType::I64 | OperandType::U64);
        if !self.options.native_int64
            && (inst.opcode == Opcode::D2U
                || integer64(info.dst_type(0))
                || (0..inst.src.len()).any(|i| integer64(info.src_type(i))))
        {
            return self.wide_pairs(inst);
        }
        let Some(dst) = inst.dst.first() else {
            return Err(self.unsupported("has no destination"));
        };
        let dst64 = info.dst_type(0).is_64bit();
        let any64 = (0..inst.src.len()).any(|i| info.src_type(i).is_64bit());
        let mut writes: Vec<(usize, H)> = Vec::new();
        for p in 0..2 {
            let channels = pair_channels(inst, dst.write_mask, p);
            if channels.is_empty() {
                continue;
            }
            let mut args = Vec::with_capacity(inst.src.len());
            for (k, src) in inst.src.iter().enumerate() {
                let ty = info.src_type(k);
                args.push(if ty.is_64bit() {
                    self.fetch_wide(src, p, ty)?
                } else {
                    self.fetch(src, if any64 { 2 * p } else { p }, ty)?
                });
            }
            let mut r = self.wide_op(inst.opcode, &args)?;
            if dst64 {
                if inst.saturate && info.dst_type(0) == OperandType::F64 {
                    r = self.dsaturate(r);
                }
                let (lo, hi) = self.split(r)?;
                for c in channels {
                    writes.push((c, if c % 2 == 0 { lo } else { hi }));
                }
            } else {
                writes.extend(channels.into_iter().map(|c| (c, r)));
            }
        }
        for (c, w) in writes {
            self.write(dst, c, w)?;
        }
        Ok(())
    }

    /// Pair `p` of a 64-bit source as `ty`, with `|x|` / `-x` applied (on the sign bit for
    /// doubles, two's complement for integers).
    pub(crate) fn fetch_wide(&mut self, src: &Src, p: usize, ty: OperandType) -> Result<H> {
        let lo = self.fetch_word(src, 2 * p)?;
        let mut hi = self.fetch_word(src, 2 * p + 1)?;
        if ty == OperandType::F64 {
            if src.absolute {
                let m = self.body.u32(0x7fff_ffff);
                hi = self.body.binary(B::And, hi, m);
            }
            if src.negate {
                let m = self.body.u32(0x8000_0000);
                hi = self.body.binary(B::ExclusiveOr, hi, m);
            }
            return Ok(self.join_double(lo, hi));
        }
        let b = &mut self.body;
        let lo = b.convert(lo, Scalar::U64);
        let hi = b.convert(hi, Scalar::U64);
        let k32 = b.u32(32);
        let hi = b.binary(B::ShiftLeft, hi, k32);
        let bits = b.binary(B::InclusiveOr, hi, lo);
        let mut v = b.bitcast(bits, ScalarKind::Sint);
        if src.absolute {
            let zero = b.i64(0);
            let negative = b.binary(B::Less, v, zero);
            let neg = b.binary(B::Subtract, zero, v);
            v = b.select(negative, neg, v);
        }
        if src.negate {
            let zero = b.i64(0);
            v = b.binary(B::Subtract, zero, v);
        }
        Ok(if ty == OperandType::I64 {
            v
        } else {
            b.bitcast(v, ScalarKind::Uint)
        })
    }

    /// The double whose bits are the words `lo`, `hi`.
    pub(crate) fn join_double(&mut self, lo: H, hi: H) -> H {
        if !self.options.native_int64 {
            return self.call_double_from_words(lo, hi);
        }
        let b = &mut self.body;
        let lo = b.convert(lo, Scalar::U64);
        let hi = b.convert(hi, Scalar::U64);
        let k32 = b.u32(32);
        let hi = b.binary(B::ShiftLeft, hi, k32);
        let bits = b.binary(B::InclusiveOr, hi, lo);
        b.bitcast(bits, ScalarKind::Float)
    }

    /// The low and high `u32` words of a 64-bit value.
    pub(crate) fn split(&mut self, value: H) -> Result<(H, H)> {
        let scalar = self.scalar_of(value)?;
        if scalar == Scalar::F64 && !self.options.native_int64 {
            return Ok(self.call_words_of_double(value));
        }
        let bits = match scalar.kind {
            ScalarKind::Uint => value,
            _ => self.body.bitcast(value, ScalarKind::Uint),
        };
        let b = &mut self.body;
        let lo = b.convert(bits, Scalar::U32);
        let k32 = b.u32(32);
        let hi = b.binary(B::ShiftRight, bits, k32);
        let hi = b.convert(hi, Scalar::U32);
        Ok((lo, hi))
    }

    /// Double saturation: NaN and negatives give 0, above 1 gives 1.
    pub(crate) fn dsaturate(&mut self, x: H) -> H {
        let b = &mut self.body;
        let zero = b.f64(0.0);
        let one = b.f64(1.0);
        let above = b.binary(B::Greater, x, one);
        let positive = b.binary(B::Greater, x, zero);
        let low = b.select(positive, x, zero);
        b.select(above, one, low)
    }

    /// One 64-bit operation on typed operands.
    fn wide_op(&mut self, op: Opcode, a: &[H]) -> Result<H> {
        let b = &mut self.body;
        Ok(match op {
            Opcode::DADD | Opcode::U64ADD => b.binary(B::Add, a[0], a[1]),
            Opcode::DMUL | Opcode::U64MUL => b.binary(B::Multiply, a[0], a[1]),
            Opcode::DDIV => b.binary(B::Divide, a[0], a[1]),
            Opcode::DMAD => {
                let p = b.binary(B::Multiply, a[0], a[1]);
                b.binary(B::Add, p, a[2])
            }
            Opcode::DFMA => b.math(M::Fma, a),
            Opcode::DMAX => self.min_max(a[0], a[1], B::Greater)?,
            Opcode::DMIN => self.min_max(a[0], a[1], B::Less)?,
            Opcode::DABS => {
                // softpipe: `a >= 0 ? a : -a` (−0 stays negative, a NaN's sign flips).
                let zero = b.f64(0.0);
                let ge = b.binary(B::GreaterEqual, a[0], zero);
                let neg = b.unary(naga::UnaryOperator::Negate, a[0]);
                b.select(ge, a[0], neg)
            }
            Opcode::DNEG => b.unary(naga::UnaryOperator::Negate, a[0]),
            Opcode::DSLT | Opcode::U64SLT | Opcode::I64SLT => self.mask(B::Less, a),
            Opcode::DSGE | Opcode::U64SGE | Opcode::I64SGE => self.mask(B::GreaterEqual, a),
            Opcode::DSEQ | Opcode::U64SEQ => self.mask(B::Equal, a),
            Opcode::DSNE | Opcode::U64SNE => self.mask(B::NotEqual, a),
            Opcode::DRCP => {
                let one = b.f64(1.0);
                b.binary(B::Divide, one, a[0])
            }
            Opcode::DSQRT => b.math(M::Sqrt, a),
            Opcode::DRSQ => {
                let one = b.f64(1.0);
                let s = b.math(M::Sqrt, a);
                b.binary(B::Divide, one, s)
            }
            Opcode::DFRAC => {
                let f = b.math(M::Floor, a);
                b.binary(B::Subtract, a[0], f)
            }
            Opcode::DFLR => b.math(M::Floor, a),
            Opcode::DCEIL => b.math(M::Ceil, a),
            Opcode::DTRUNC => b.math(M::Trunc, a),
            Opcode::DROUND => b.math(M::Round, a),
            Opcode::DSSG => self.sign(a[0], Scalar::F64),
            Opcode::I64SSG => self.sign(a[0], Scalar::I64),
            Opcode::DLDEXP => b.math(M::Ldexp, a),
            Opcode::F2D | Opcode::I2D | Opcode::U2D | Opcode::I642D | Opcode::U642D => {
                b.convert(a[0], Scalar::F64)
            }
            Opcode::D2F | Opcode::I642F | Opcode::U642F => b.convert(a[0], Scalar::F32),
            Opcode::I2I64 => b.convert(a[0], Scalar::I64),
            Opcode::U2I64 => {
                let u = b.convert(a[0], Scalar::U64);
                b.bitcast(u, ScalarKind::Sint)
            }
            Opcode::D2I => {
                // x86: NaN and values outside (−2^31 − 1, 2^31) give 0x80000000.
                let lo = b.f64(-2147483649.0);
                let hi = b.f64(2147483648.0);
                let min = b.i32(i32::MIN);
                self.checked_convert(a[0], lo, hi, Scalar::I32, min)
            }
            Opcode::D2U => {
                // The low word of the 64-bit conversion.
                let x = self.d2i64(a[0]);
                let b = &mut self.body;
                let u = b.bitcast(x, ScalarKind::Uint);
                b.convert(u, Scalar::U32)
            }
            Opcode::F2I64 => {
                let x = b.convert(a[0], Scalar::F64);
                self.d2i64(x)
            }
            Opcode::D2I64 => self.d2i64(a[0]),
            Opcode::F2U64 => {
                let x = b.convert(a[0], Scalar::F64);
                self.d2u64(x)
            }
            Opcode::D2U64 => self.d2u64(a[0]),
            Opcode::I64MIN | Opcode::U64MIN => b.math(M::Min, a),
            Opcode::I64MAX | Opcode::U64MAX => b.math(M::Max, a),
            Opcode::I64ABS => {
                let zero = b.i64(0);
                let negative = b.binary(B::Less, a[0], zero);
                let neg = b.binary(B::Subtract, zero, a[0]);
                b.select(negative, neg, a[0])
            }
            Opcode::I64NEG => {
                let zero = b.i64(0);
                b.binary(B::Subtract, zero, a[0])
            }
            Opcode::U64SHL | Opcode::U64SHR | Opcode::I64SHR => {
                let count = b.convert(a[1], Scalar::U32);
                let m = b.u32(63);
                let count = b.binary(B::And, count, m);
                let op = if op == Opcode::U64SHL {
                    B::ShiftLeft
                } else {
                    B::ShiftRight
                };
                b.binary(op, a[0], count)
            }
            Opcode::I64DIV => self.idiv(a[0], a[1], Scalar::I64),
            Opcode::I64MOD => self.imod(a[0], a[1], Scalar::I64),
            Opcode::U64DIV => self.udiv(a[0], a[1], B::Divide, Scalar::U64),
            Opcode::U64MOD => self.udiv(a[0], a[1], B::Modulo, Scalar::U64),
            _ => return Err(self.unsupported("is not translated yet")),
        })
    }

    /// `to(x)` for a double when `lo < x < hi`, else `fallback` (NaN included).
    fn checked_convert(&mut self, x: H, lo: H, hi: H, to: Scalar, fallback: H) -> H {
        let b = &mut self.body;
        let above = b.binary(B::Greater, x, lo);
        let below = b.binary(B::Less, x, hi);
        let ok = b.binary(B::LogicalAnd, above, below);
        let zero = b.f64(0.0);
        let safe = b.select(ok, x, zero);
        let v = b.convert(safe, to);
        b.select(ok, v, fallback)
    }

    /// `(int64_t)x` on x86-64: NaN and out-of-range give `i64::MIN`.
    fn d2i64(&mut self, x: H) -> H {
        let b = &mut self.body;
        let lo = b.f64(-9223372036854775808.0);
        let hi = b.f64(9223372036854775808.0);
        let above = b.binary(B::GreaterEqual, x, lo);
        let below = b.binary(B::Less, x, hi);
        let ok = b.binary(B::LogicalAnd, above, below);
        let zero = b.f64(0.0);
        let safe = b.select(ok, x, zero);
        let v = b.convert(safe, Scalar::I64);
        let min = b.i64(i64::MIN);
        b.select(ok, v, min)
    }

    /// `(uint64_t)x` as GCC compiles it on x86-64.
    fn d2u64(&mut self, x: H) -> H {
        let two63 = self.body.f64(9223372036854775808.0);
        let high = self.body.binary(B::GreaterEqual, x, two63);
        let shifted = self.body.binary(B::Subtract, x, two63);
        let hi = self.d2i64(shifted);
        let lo = self.d2i64(x);
        let b = &mut self.body;
        let hi = b.bitcast(hi, ScalarKind::Uint);
        let flip = b.u64(1 << 63);
        let hi = b.binary(B::ExclusiveOr, hi, flip);
        let lo = b.bitcast(lo, ScalarKind::Uint);
        b.select(high, hi, lo)
    }

    /// C `frexp` on the bits (naga's `frexp` of a double has a 64-bit exponent, which
    /// SPIR-V rejects): significand in [0.5, 1) and exponent; 0, ±∞ and NaN give `(x, 0)`.
    fn frexp(&mut self, x: H) -> Result<(H, H)> {
        let b = &mut self.body;
        let a = b.math(M::Abs, &[x]);
        let min_normal = b.f64(f64::MIN_POSITIVE);
        let zero = b.f64(0.0);
        let small = b.binary(B::Less, a, min_normal);
        let nonzero = b.binary(B::NotEqual, a, zero);
        let subnormal = b.binary(B::LogicalAnd, small, nonzero);
        let scale = b.f64(18014398509481984.0); // 2^54
        let scaled = b.binary(B::Multiply, x, scale);
        let y = b.select(subnormal, scaled, x);
        let is_zero = b.binary(B::Equal, a, zero);
        let (lo, hi) = self.split(y)?;
        let b = &mut self.body;
        let k20 = b.u32(20);
        let field = b.binary(B::ShiftRight, hi, k20);
        let m11 = b.u32(0x7ff);
        let field = b.binary(B::And, field, m11);
        let clear = b.u32(!(0x7ff << 20));
        let half = b.u32(0x3fe << 20);
        let sig_hi = b.binary(B::And, hi, clear);
        let sig_hi = b.binary(B::InclusiveOr, sig_hi, half);
        let not_finite = b.binary(B::Equal, field, m11);
        let special = b.binary(B::LogicalOr, is_zero, not_finite);
        let field = b.bitcast(field, ScalarKind::Sint);
        let bias = b.i32(1022);
        let e = b.binary(B::Subtract, field, bias);
        let k54 = b.i32(54);
        let e_sub = b.binary(B::Subtract, e, k54);
        let e = b.select(subnormal, e_sub, e);
        let zero_i = b.i32(0);
        let exp = b.select(special, zero_i, e);
        let sig = self.join_double(lo, sig_hi);
        let fract = self.body.select(special, x, sig);
        Ok((fract, exp))
    }

    /// DFRACEXP: significand of pair p to `dst[0]` pair p, exponent to `dst[1]` channel p.
    fn fracexp(&mut self, inst: &Instruction) -> Result<()> {
        let (Some(d0), Some(d1), Some(src)) = (inst.dst.first(), inst.dst.get(1), inst.src.first())
        else {
            return Err(self.unsupported("needs two destinations and a source"));
        };
        let mut writes = Vec::new();
        for p in 0..2 {
            let wants_sig = d0.write_mask.has(2 * p) || d0.write_mask.has(2 * p + 1);
            let wants_exp = d1.write_mask.has(p);
            if !wants_sig && !wants_exp {
                continue;
            }
            let x = self.fetch_wide(src, p, OperandType::F64)?;
            let (fract, exp) = self.frexp(x)?;
            let (lo, hi) = self.split(fract)?;
            for c in [2 * p, 2 * p + 1] {
                if d0.write_mask.has(c) {
                    writes.push((d0, c, if c % 2 == 0 { lo } else { hi }));
                }
            }
            if wants_exp {
                writes.push((d1, p, exp));
            }
        }
        for (d, c, w) in writes {
            self.write(d, c, w)?;
        }
        Ok(())
    }
}
