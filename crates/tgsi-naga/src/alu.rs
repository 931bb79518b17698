//! 32-bit ALU opcodes. Each result channel is computed from the same channel of the sources
//! (or from `.x` for replicated opcodes), with the exact results `tgsi_exec::scalar` defines:
//! explicit code for integer division by zero, masked shift counts, x86 float-to-integer
//! conversions, glibc MIN/MAX NaN rules and separately rounded dot products.

use naga::{BinaryOperator as B, Expression, Handle, MathFunction as M, ScalarKind, UnaryOperator};
use tgsi::ir::Instruction;
use tgsi::opcode::{Opcode, OperandType, OutputMode};

use crate::error::Result;
use crate::translate::Translator;

type H = Handle<Expression>;

/// softpipe's LG2 factor (`logf(x) * 1.442695f`).
#[allow(clippy::approx_constant)]
const LG2_FACTOR: f32 = 1.442695;

impl Translator<'_> {
    /// Translates a 32-bit ALU instruction.
    pub(crate) fn alu(&mut self, inst: &Instruction) -> Result<()> {
        let info = inst.opcode.info();
        let Some(dst) = inst.dst.first() else {
            return Err(self.unsupported("has no destination"));
        };
        let mask = dst.write_mask;
        let mut results: Vec<(usize, H)> = Vec::new();
        // INTERP_CENTROID and INTERP_SAMPLE read their input component-wise (see
        // `component`).
        let output = match inst.opcode {
            Opcode::INTERP_CENTROID | Opcode::INTERP_SAMPLE => OutputMode::Component,
            _ => info.output,
        };
        match output {
            OutputMode::Component => {
                for c in (0..4).filter(|&c| mask.has(c)) {
                    let args = self.fetch_all(inst, |_| c)?;
                    let r = self.component(inst.opcode, &args)?;
                    results.push((c, r));
                }
            }
            OutputMode::Replicate => {
                if mask.0 != 0 {
                    let r = self.replicated(inst)?;
                    results.extend((0..4).filter(|&c| mask.has(c)).map(|c| (c, r)));
                }
            }
            OutputMode::Channel => {
                let all = self.channels(inst)?;
                results.extend((0..4).filter(|&c| mask.has(c)).map(|c| (c, all[c])));
            }
            OutputMode::None | OutputMode::Other => {
                return Err(self.unsupported("is not an ALU operation"))
            }
        }
        let saturate = inst.saturate && info.dst_type(0).is_float_like();
        for (c, r) in results {
            let r = if saturate { self.saturate(r)? } else { r };
            self.write(dst, c, r)?;
        }
        Ok(())
    }

    /// Every source's channel `chan(i)` as the opcode's operand type.
    pub(crate) fn fetch_all(
        &mut self,
        inst: &Instruction,
        chan: impl Fn(usize) -> usize,
    ) -> Result<Vec<H>> {
        let info = inst.opcode.info();
        let mut args = Vec::with_capacity(inst.src.len());
        for (i, s) in inst.src.iter().enumerate() {
            args.push(self.fetch(s, chan(i), info.src_type(i))?);
        }
        Ok(args)
    }

    /// TGSI's saturation `fminf(fmaxf(x, 0), 1)`: NaN and −0 give +0.
    fn saturate(&mut self, x: H) -> Result<H> {
        let x = match self.scalar_of(x)?.kind {
            ScalarKind::Float => x,
            _ => self.body.bitcast(x, ScalarKind::Float),
        };
        let zero = self.body.f32(0.0);
        let one = self.body.f32(1.0);
        let positive = self.body.binary(B::Greater, x, zero);
        let low = self.body.math(M::Min, &[x, one]);
        Ok(self.body.select(positive, low, zero))
    }

    /// One channel of a component-wise opcode.
    fn component(&mut self, op: Opcode, a: &[H]) -> Result<H> {
        let b = &mut self.body;
        Ok(match op {
            Opcode::MOV => a[0],
            // Rendering is single-sampled, as in the interpreter: the input interpolated at
            // the centroid or at a sample is the input (naga has no interpolate-at functions).
            Opcode::INTERP_CENTROID | Opcode::INTERP_SAMPLE => a[0],
            Opcode::ADD => b.binary(B::Add, a[0], a[1]),
            Opcode::SUB => b.binary(B::Subtract, a[0], a[1]),
            Opcode::MUL => b.binary(B::Multiply, a[0], a[1]),
            Opcode::DIV => b.binary(B::Divide, a[0], a[1]),
            Opcode::MAD => {
                let p = b.binary(B::Multiply, a[0], a[1]);
                b.binary(B::Add, p, a[2])
            }
            Opcode::FMA => b.math(M::Fma, a),
            Opcode::LRP => {
                let d = b.binary(B::Subtract, a[1], a[2]);
                let p = b.binary(B::Multiply, a[0], d);
                b.binary(B::Add, p, a[2])
            }
            Opcode::MIN => self.min_max(a[0], a[1], B::Less)?,
            Opcode::MAX => self.min_max(a[0], a[1], B::Greater)?,
            Opcode::SLT => self.set(B::Less, a),
            Opcode::SGE => self.set(B::GreaterEqual, a),
            Opcode::SGT => self.set(B::Greater, a),
            Opcode::SLE => self.set(B::LessEqual, a),
            Opcode::SEQ => self.set(B::Equal, a),
            Opcode::SNE => self.set(B::NotEqual, a),
            Opcode::FSLT | Opcode::ISLT | Opcode::USLT => self.mask(B::Less, a),
            Opcode::FSGE | Opcode::ISGE | Opcode::USGE => self.mask(B::GreaterEqual, a),
            Opcode::FSEQ | Opcode::USEQ => self.mask(B::Equal, a),
            Opcode::FSNE | Opcode::USNE => self.mask(B::NotEqual, a),
            Opcode::CMP => {
                let zero = b.f32(0.0);
                let negative = b.binary(B::Less, a[0], zero);
                b.select(negative, a[1], a[2])
            }
            Opcode::UCMP => {
                let cond = self.word_of(a[0])?;
                let (x, y) = (self.word_of(a[1])?, self.word_of(a[2])?);
                let zero = self.body.u32(0);
                let set = self.body.binary(B::NotEqual, cond, zero);
                self.body.select(set, x, y)
            }
            Opcode::ABS => {
                let bits = self.word_of(a[0])?;
                let m = self.body.u32(0x7fff_ffff);
                self.body.binary(B::And, bits, m)
            }
            Opcode::FLR => b.math(M::Floor, a),
            Opcode::CEIL => b.math(M::Ceil, a),
            Opcode::TRUNC => b.math(M::Trunc, a),
            Opcode::ROUND => b.math(M::Round, a),
            Opcode::FRC => {
                let f = b.math(M::Floor, a);
                b.binary(B::Subtract, a[0], f)
            }
            Opcode::SSG => self.sign(a[0], naga::Scalar::F32),
            Opcode::ISSG => self.sign(a[0], naga::Scalar::I32),
            Opcode::ARL => {
                let f = b.math(M::Floor, a);
                self.f2i(f)
            }
            Opcode::ARR => {
                let half = b.f32(0.5);
                let s = b.binary(B::Add, a[0], half);
                let f = b.math(M::Floor, &[s]);
                self.f2i(f)
            }
            Opcode::UARL => a[0],
            Opcode::F2I => self.f2i(a[0]),
            Opcode::F2U => self.f2u(a[0]),
            Opcode::I2F | Opcode::U2F => b.convert(a[0], naga::Scalar::F32),
            Opcode::LDEXP => b.math(M::Ldexp, a),
            Opcode::UADD => b.binary(B::Add, a[0], a[1]),
            Opcode::UMUL => b.binary(B::Multiply, a[0], a[1]),
            Opcode::UMAD => {
                let p = b.binary(B::Multiply, a[0], a[1]);
                b.binary(B::Add, p, a[2])
            }
            Opcode::UMUL_HI => self.umul_hi(a[0], a[1]),
            Opcode::IMUL_HI => self.imul_hi(a[0], a[1]),
            Opcode::IDIV => self.idiv(a[0], a[1], naga::Scalar::I32),
            Opcode::MOD => self.imod(a[0], a[1], naga::Scalar::I32),
            Opcode::UDIV => self.udiv(a[0], a[1], B::Divide, naga::Scalar::U32),
            Opcode::UMOD => self.udiv(a[0], a[1], B::Modulo, naga::Scalar::U32),
            Opcode::IMAX | Opcode::UMAX => b.math(M::Max, a),
            Opcode::IMIN | Opcode::UMIN => b.math(M::Min, a),
            Opcode::INEG => {
                let zero = b.i32(0);
                b.binary(B::Subtract, zero, a[0])
            }
            Opcode::IABS => {
                let zero = b.i32(0);
                let negative = b.binary(B::Less, a[0], zero);
                let neg = b.binary(B::Subtract, zero, a[0]);
                b.select(negative, neg, a[0])
            }
            Opcode::NOT => b.unary(UnaryOperator::BitwiseNot, a[0]),
            Opcode::AND => b.binary(B::And, a[0], a[1]),
            Opcode::OR => b.binary(B::InclusiveOr, a[0], a[1]),
            Opcode::XOR => b.binary(B::ExclusiveOr, a[0], a[1]),
            Opcode::SHL => self.shift(B::ShiftLeft, a[0], a[1])?,
            Opcode::USHR | Opcode::ISHR | Opcode::SHR => self.shift(B::ShiftRight, a[0], a[1])?,
            Opcode::IBFE | Opcode::UBFE => self.bitfield_extract(a[0], a[1], a[2])?,
            Opcode::BFI => self.bitfield_insert(a)?,
            Opcode::BREV => b.math(M::ReverseBits, a),
            Opcode::POPC => {
                let bits = self.word_of(a[0])?;
                self.body.math(M::CountOneBits, &[bits])
            }
            Opcode::LSB => b.math(M::FirstTrailingBit, a),
            Opcode::IMSB | Opcode::UMSB => b.math(M::FirstLeadingBit, a),
            _ => return Err(self.unsupported("is not translated yet")),
        })
    }

    /// A replicated opcode's scalar result.
    fn replicated(&mut self, inst: &Instruction) -> Result<H> {
        let terms = match inst.opcode {
            Opcode::DP2 => Some(2),
            Opcode::DP3 => Some(3),
            Opcode::DP4 => Some(4),
            _ => None,
        };
        if let Some(n) = terms {
            // Left to right with a rounding after every operation, as `scalar::float::dp`.
            let mut acc = None;
            for c in 0..n {
                let s = self.fetch_all(inst, |_| c)?;
                let p = self.body.binary(B::Multiply, s[0], s[1]);
                acc = Some(match acc {
                    Some(acc) => self.body.binary(B::Add, acc, p),
                    None => p,
                });
            }
            return acc.ok_or_else(|| self.unsupported("has no terms"));
        }
        if let Some(packed) = self.pack(inst)? {
            return Ok(packed);
        }
        let a = &self.fetch_all(inst, |_| 0)?;
        let b = &mut self.body;
        Ok(match inst.opcode {
            Opcode::RCP => {
                let one = b.f32(1.0);
                b.binary(B::Divide, one, a[0])
            }
            Opcode::RSQ => {
                let one = b.f32(1.0);
                let s = b.math(M::Sqrt, a);
                b.binary(B::Divide, one, s)
            }
            Opcode::SQRT => b.math(M::Sqrt, a),
            Opcode::EX2 => b.math(M::Exp2, a),
            Opcode::LG2 => {
                let l = b.math(M::Log, a);
                let k = b.f32(LG2_FACTOR);
                b.binary(B::Multiply, l, k)
            }
            Opcode::POW => b.math(M::Pow, a),
            Opcode::SIN => b.math(M::Sin, a),
            Opcode::COS => b.math(M::Cos, a),
            _ => return Err(self.unsupported("is not translated yet")),
        })
    }

    /// PK2H, PK2US, PK4B, PK4UB: one word from the source's first two or four channels.
    fn pack(&mut self, inst: &Instruction) -> Result<Option<H>> {
        let (n, lo, scale) = match inst.opcode {
            Opcode::PK2H => (2, 0.0, 0.0),
            Opcode::PK2US => (2, 0.0, 65535.0),
            Opcode::PK4B => (4, -1.0, 127.0),
            Opcode::PK4UB => (4, 0.0, 255.0),
            _ => return Ok(None),
        };
        let src = inst
            .src
            .first()
            .ok_or_else(|| self.unsupported("has no source"))?;
        let mut parts = Vec::new();
        for c in 0..n {
            let x = self.fetch(src, c, OperandType::F32)?;
            parts.push(if inst.opcode == Opcode::PK2H {
                self.f32_to_f16(x)
            } else {
                self.normalized(x, lo, scale)
            });
        }
        let width = 32 / n as u32;
        let b = &mut self.body;
        let field = b.u32(if n == 2 { 0xffff } else { 0xff });
        let mut word = b.u32(0);
        for (i, p) in parts.into_iter().enumerate() {
            let p = b.binary(B::And, p, field);
            let k = b.u32(width * i as u32);
            let p = b.binary(B::ShiftLeft, p, k);
            word = b.binary(B::InclusiveOr, word, p);
        }
        Ok(Some(word))
    }

    /// Channel-dependent opcodes: all four result channels.
    fn channels(&mut self, inst: &Instruction) -> Result<[H; 4]> {
        if matches!(
            inst.opcode,
            Opcode::UP2H | Opcode::UP2US | Opcode::UP4B | Opcode::UP4UB
        ) {
            let src = inst
                .src
                .first()
                .ok_or_else(|| self.unsupported("has no source"))?;
            let v = self.fetch(src, 0, OperandType::U32)?;
            return Ok(match inst.opcode {
                Opcode::UP2H => {
                    let m = self.body.u32(0xffff);
                    let lo = self.body.binary(B::And, v, m);
                    let k = self.body.u32(16);
                    let hi = self.body.binary(B::ShiftRight, v, k);
                    let (lo, hi) = (self.f16_to_f32(lo), self.f16_to_f32(hi));
                    [lo, hi, lo, hi]
                }
                Opcode::UP2US => {
                    let (lo, hi) = (self.unpack_unorm16(v, 0), self.unpack_unorm16(v, 1));
                    [lo, hi, lo, hi]
                }
                op => {
                    let signed = op == Opcode::UP4B;
                    [0, 1, 2, 3].map(|i| self.unpack_byte(v, i, signed))
                }
            });
        }
        let mut src = Vec::new();
        for s in &inst.src {
            let mut chans = Vec::with_capacity(4);
            for c in 0..4 {
                chans.push(self.fetch(s, c, OperandType::F32)?);
            }
            src.push(chans);
        }
        let one = self.body.f32(1.0);
        let zero = self.body.f32(0.0);
        Ok(match inst.opcode {
            Opcode::DST => {
                let y = self.body.binary(B::Multiply, src[0][1], src[1][1]);
                [one, y, src[0][2], src[1][3]]
            }
            Opcode::EXP => {
                let s = src[0][0];
                let f = self.body.math(M::Floor, &[s]);
                let x = self.body.math(M::Exp2, &[f]);
                let y = self.body.binary(B::Subtract, s, f);
                let z = self.body.math(M::Exp2, &[s]);
                [x, y, z, one]
            }
            Opcode::LOG => {
                let a = self.body.math(M::Abs, &[src[0][0]]);
                let ln = self.body.math(M::Log, &[a]);
                let k = self.body.f32(LG2_FACTOR);
                let l = self.body.binary(B::Multiply, ln, k);
                let f = self.body.math(M::Floor, &[l]);
                let p = self.body.math(M::Exp2, &[f]);
                let y = self.body.binary(B::Divide, a, p);
                [f, y, l, one]
            }
            Opcode::LIT => {
                // `min_max(a, b)` is `fmin/fmax(b, a)`: the operands are given swapped to
                // get the scalar definition's `fmax(w_clamped, −128)` and so on.
                let (x, y, w) = (src[0][0], src[0][1], src[0][3]);
                let lo = self.body.f32(-128.0);
                let hi = self.body.f32(128.0);
                let e = self.min_max(hi, w, B::Less)?;
                let e = self.min_max(lo, e, B::Greater)?;
                let ym = self.min_max(zero, y, B::Greater)?;
                let p = self.body.math(M::Pow, &[ym, e]);
                let xm = self.min_max(zero, x, B::Greater)?;
                let lit = self.body.binary(B::Less, zero, x);
                let z = self.body.select(lit, p, zero);
                [one, xm, z, one]
            }
            _ => return Err(self.unsupported("is not translated yet")),
        })
    }

    /// MIN (`op` = Less) or MAX (`op` = Greater) as softpipe computes them,
    /// `fminf(b, a)` / `fmaxf(b, a)`: a NaN operand is ignored, ties give `a`.
    pub(crate) fn min_max(&mut self, a: H, b: H, op: B) -> Result<H> {
        let b_wins = self.body.binary(op, b, a);
        let pick = self.body.select(b_wins, b, a);
        let a_nan = self.is_nan(a)?;
        let pick = self.body.select(a_nan, b, pick);
        let b_nan = self.is_nan(b)?;
        Ok(self.body.select(b_nan, a, pick))
    }

    /// Whether a float is a NaN, by its bits (`|x| > +∞`): WGSL has no `isnan`, and a bit
    /// test cannot be folded away by a compiler assuming finite math. (Doubles use
    /// `x != x`: their bits need 64-bit integers, which not every target has.)
    fn is_nan(&mut self, x: H) -> Result<H> {
        if self.scalar_of(x)?.width == 8 {
            return Ok(self.body.binary(B::NotEqual, x, x));
        }
        let b = &mut self.body;
        let bits = b.bitcast(x, ScalarKind::Uint);
        let m = b.u32(0x7fff_ffff);
        let magnitude = b.binary(B::And, bits, m);
        let inf = b.u32(0x7f80_0000);
        Ok(b.binary(B::Greater, magnitude, inf))
    }

    /// SLT family: 1.0 when `a op b`, else 0.0.
    fn set(&mut self, op: B, a: &[H]) -> H {
        let cond = self.body.binary(op, a[0], a[1]);
        let one = self.body.f32(1.0);
        let zero = self.body.f32(0.0);
        self.body.select(cond, one, zero)
    }

    /// FSLT/ISLT/USLT family: `~0` when `a op b`, else 0.
    pub(crate) fn mask(&mut self, op: B, a: &[H]) -> H {
        let cond = self.body.binary(op, a[0], a[1]);
        let ones = self.body.u32(u32::MAX);
        let zero = self.body.u32(0);
        self.body.select(cond, ones, zero)
    }

    /// SSG / ISSG (and the 64-bit DSSG / I64SSG): −1, 0 or 1 (NaN and −0 give 0).
    pub(crate) fn sign(&mut self, x: H, scalar: naga::Scalar) -> H {
        let b = &mut self.body;
        let zero = b.constant(scalar, 0);
        let one = b.constant(scalar, 1);
        let minus = b.constant(scalar, -1);
        let positive = b.binary(B::Greater, x, zero);
        let negative = b.binary(B::Less, x, zero);
        let low = b.select(negative, minus, zero);
        b.select(positive, one, low)
    }

    /// `(int32_t)x` on x86-64: truncation; NaN and out-of-range give `0x80000000`.
    pub(crate) fn f2i(&mut self, x: H) -> H {
        let b = &mut self.body;
        let lo = b.f32(-2147483648.0);
        let hi = b.f32(2147483648.0);
        let above = b.binary(B::GreaterEqual, x, lo);
        let below = b.binary(B::Less, x, hi);
        let in_range = b.binary(B::LogicalAnd, above, below);
        let zero = b.f32(0.0);
        let safe = b.select(in_range, x, zero);
        let i = b.convert(safe, naga::Scalar::I32);
        let min = b.i32(i32::MIN);
        b.select(in_range, i, min)
    }

    /// softpipe's F2U: `x ≥ 2^31 ? f2i(x − 2^31) ^ 0x80000000 : f2i(x)`.
    fn f2u(&mut self, x: H) -> H {
        let two31 = self.body.f32(2147483648.0);
        let high = self.body.binary(B::GreaterEqual, x, two31);
        let shifted = self.body.binary(B::Subtract, x, two31);
        let hi = self.f2i(shifted);
        let lo = self.f2i(x);
        let b = &mut self.body;
        let hi = b.bitcast(hi, ScalarKind::Uint);
        let flip = b.u32(0x8000_0000);
        let hi = b.binary(B::ExclusiveOr, hi, flip);
        let lo = b.bitcast(lo, ScalarKind::Uint);
        b.select(high, hi, lo)
    }

    /// A shift with the count masked to 0..31; the shifted operand keeps its signedness.
    fn shift(&mut self, op: B, value: H, count: H) -> Result<H> {
        let count = self.word_of(count)?;
        let m = self.body.u32(31);
        let count = self.body.binary(B::And, count, m);
        Ok(self.body.binary(op, value, count))
    }

    /// UDIV / UMOD (and U64DIV / U64MOD): division by zero gives all ones.
    pub(crate) fn udiv(&mut self, a: H, d: H, op: B, scalar: naga::Scalar) -> H {
        let b = &mut self.body;
        let zero = b.constant(scalar, 0);
        let one = b.constant(scalar, 1);
        let by_zero = b.binary(B::Equal, d, zero);
        let safe = b.select(by_zero, one, d);
        let q = b.binary(op, a, safe);
        let ones = b.constant(scalar, -1);
        b.select(by_zero, ones, q)
    }

    /// IDIV (and I64DIV): truncating; by zero gives 0, `MIN / −1` gives `MIN`.
    pub(crate) fn idiv(&mut self, a: H, d: H, scalar: naga::Scalar) -> H {
        let b = &mut self.body;
        let zero = b.constant(scalar, 0);
        let one = b.constant(scalar, 1);
        let minus = b.constant(scalar, -1);
        let by_zero = b.binary(B::Equal, d, zero);
        let by_minus = b.binary(B::Equal, d, minus);
        let guard = b.binary(B::LogicalOr, by_zero, by_minus);
        let safe = b.select(guard, one, d);
        let q = b.binary(B::Divide, a, safe);
        // a / −1 is the wrapping negation.
        let neg = b.binary(B::Subtract, zero, a);
        let q = b.select(by_minus, neg, q);
        b.select(by_zero, zero, q)
    }

    /// MOD (and I64MOD): sign of the dividend; by zero gives −1, `x % −1` gives 0.
    pub(crate) fn imod(&mut self, a: H, d: H, scalar: naga::Scalar) -> H {
        let b = &mut self.body;
        let zero = b.constant(scalar, 0);
        let one = b.constant(scalar, 1);
        let minus = b.constant(scalar, -1);
        let by_zero = b.binary(B::Equal, d, zero);
        let by_minus = b.binary(B::Equal, d, minus);
        let guard = b.binary(B::LogicalOr, by_zero, by_minus);
        let safe = b.select(guard, one, d);
        let r = b.binary(B::Modulo, a, safe);
        b.select(by_zero, minus, r)
    }

    /// UMUL_HI from 16-bit partial products (no 64-bit integers needed).
    pub(crate) fn umul_hi(&mut self, a: H, c: H) -> H {
        let b = &mut self.body;
        let sixteen = b.u32(16);
        let low = b.u32(0xffff);
        let (al, ah) = (
            b.binary(B::And, a, low),
            b.binary(B::ShiftRight, a, sixteen),
        );
        let (cl, ch) = (
            b.binary(B::And, c, low),
            b.binary(B::ShiftRight, c, sixteen),
        );
        let ll = b.binary(B::Multiply, al, cl);
        let hl = b.binary(B::Multiply, ah, cl);
        let lh = b.binary(B::Multiply, al, ch);
        let hh = b.binary(B::Multiply, ah, ch);
        let ll_hi = b.binary(B::ShiftRight, ll, sixteen);
        let hl_lo = b.binary(B::And, hl, low);
        let lh_lo = b.binary(B::And, lh, low);
        let mid = b.binary(B::Add, ll_hi, hl_lo);
        let mid = b.binary(B::Add, mid, lh_lo);
        let carry = b.binary(B::ShiftRight, mid, sixteen);
        let hl_hi = b.binary(B::ShiftRight, hl, sixteen);
        let lh_hi = b.binary(B::ShiftRight, lh, sixteen);
        let r = b.binary(B::Add, hh, hl_hi);
        let r = b.binary(B::Add, r, lh_hi);
        b.binary(B::Add, r, carry)
    }

    /// IMUL_HI: the unsigned high word corrected for negative factors.
    fn imul_hi(&mut self, a: H, c: H) -> H {
        let ua = self.body.bitcast(a, ScalarKind::Uint);
        let uc = self.body.bitcast(c, ScalarKind::Uint);
        let hi = self.umul_hi(ua, uc);
        let b = &mut self.body;
        let zero_i = b.i32(0);
        let zero = b.u32(0);
        let a_neg = b.binary(B::Less, a, zero_i);
        let c_neg = b.binary(B::Less, c, zero_i);
        let fix_a = b.select(a_neg, uc, zero);
        let fix_c = b.select(c_neg, ua, zero);
        let hi = b.binary(B::Subtract, hi, fix_a);
        let hi = b.binary(B::Subtract, hi, fix_c);
        b.bitcast(hi, ScalarKind::Sint)
    }

    /// IBFE / UBFE with softpipe's (SM5) masking of offset and width.
    fn bitfield_extract(&mut self, value: H, offset: H, bits: H) -> Result<H> {
        let offset = self.word_of(offset)?;
        let bits = self.word_of(bits)?;
        let kind = self.scalar_of(value)?;
        let b = &mut self.body;
        let m31 = b.u32(31);
        let n32 = b.u32(32);
        let zero_u = b.u32(0);
        let off = b.binary(B::And, offset, m31);
        let whole_a = b.binary(B::Equal, bits, n32);
        let whole_b = b.binary(B::Equal, off, zero_u);
        let whole = b.binary(B::LogicalAnd, whole_a, whole_b);
        let width = b.binary(B::And, bits, m31);
        let empty = b.binary(B::Equal, width, zero_u);
        let end = b.binary(B::Add, off, width);
        let inside = b.binary(B::Less, end, n32);
        // (value << (32 − width − offset)) >> (32 − width), counts masked to stay defined.
        let up = b.binary(B::Subtract, n32, end);
        let up = b.binary(B::And, up, m31);
        let down = b.binary(B::Subtract, n32, width);
        let down = b.binary(B::And, down, m31);
        let field = b.binary(B::ShiftLeft, value, up);
        let field = b.binary(B::ShiftRight, field, down);
        let tail = b.binary(B::ShiftRight, value, off);
        let r = b.select(inside, field, tail);
        let zero = b.constant(kind, 0);
        let r = b.select(empty, zero, r);
        Ok(b.select(whole, value, r))
    }

    /// BFI (base, insert, offset, bits): `bits == 32` gives `insert`; otherwise the field
    /// mask uses `bits & 31` at `offset & 31`.
    fn bitfield_insert(&mut self, a: &[H]) -> Result<H> {
        let (base, insert) = (self.word_of(a[0])?, self.word_of(a[1])?);
        let (offset, bits) = (self.word_of(a[2])?, self.word_of(a[3])?);
        let b = &mut self.body;
        let m31 = b.u32(31);
        let n32 = b.u32(32);
        let one = b.u32(1);
        let off = b.binary(B::And, offset, m31);
        let width = b.binary(B::And, bits, m31);
        let ones = b.binary(B::ShiftLeft, one, width);
        let ones = b.binary(B::Subtract, ones, one);
        let field = b.binary(B::ShiftLeft, ones, off);
        let moved = b.binary(B::ShiftLeft, insert, off);
        let moved = b.binary(B::And, moved, field);
        let keep = b.unary(UnaryOperator::BitwiseNot, field);
        let kept = b.binary(B::And, base, keep);
        let r = b.binary(B::InclusiveOr, moved, kept);
        let whole = b.binary(B::Equal, bits, n32);
        Ok(b.select(whole, insert, r))
    }
}
