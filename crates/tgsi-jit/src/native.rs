//! The opcodes compiled to vector instructions, four lanes at a time (integer division and
//! bit counts from other vector instructions: [`crate::vector_int`]; the other integer
//! operations x86 has no vector form of become scalar code per lane:
//! [`crate::scalar_lanes`]).
//! Each arm is the form of the interpreter's scalar function for the opcode
//! (`tgsi_exec::scalar`), bit for bit. For any other opcode these functions return `None`
//! having emitted nothing, and the translator calls the interpreter's own kernel instead:
//! this file is the only list of what compiles natively, except for the 64-bit instructions
//! (`Kind::Wide`), whose vector forms on channel pairs [`crate::native_wide`] lists the same
//! way.

use crate::approx;
use crate::known::{self, Known};
use crate::lanes::LaneOps;
use crate::scalar_lanes::{self as sl, per_lane};
use crate::vector_int;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, I32};
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::FunctionBuilder;
use tgsi::Opcode;

/// One chunk of a component-wise opcode; `s` holds the chunk of each source (as words),
/// `known` what is known of each. `second` is the second source when it is the same
/// known word in every lane: a shift count of SHL/USHR/ISHR (one vector shift; otherwise
/// each lane is shifted by its own count, [`vector_int::by_lane_counts`]) or a divisor.
pub(crate) fn component(
    b: &mut FunctionBuilder,
    op: Opcode,
    s: &[Value],
    known: &[Known],
    second: Option<u32>,
) -> Option<Value> {
    let arg = |i: usize| s.get(i).copied();
    let k = |i: usize| known.get(i).copied().unwrap_or(Known::Any);
    let (a, x, y) = (arg(0)?, arg(1), arg(2));
    let fbin = |b: &mut FunctionBuilder, f: fn(&mut FunctionBuilder, Value, Value) -> Value| {
        let x = x?;
        let (af, xf) = (b.f(a), b.f(x));
        let r = f(b, af, xf);
        Some(b.w(r))
    };
    let funary = |b: &mut FunctionBuilder, f: fn(&mut FunctionBuilder, Value) -> Value| {
        let af = b.f(a);
        let r = f(b, af);
        b.w(r)
    };
    // The rounding opcodes return a NaN unchanged; the instructions quiet a signalling
    // one and return a quiet one unchanged.
    let round = |b: &mut FunctionBuilder, f: fn(&mut FunctionBuilder, Value) -> Value| {
        let r = funary(b, f);
        if k(0) >= Known::Quiet {
            return r;
        }
        let nan = b.is_nan(a);
        b.ins().blendv(nan, a, r)
    };
    Some(match op {
        Opcode::MOV | Opcode::UARL | Opcode::INTERP_CENTROID | Opcode::INTERP_SAMPLE => a,
        Opcode::ADD => fbin(b, |b, p, q| b.ins().fadd(p, q))?,
        Opcode::SUB => fbin(b, |b, p, q| b.ins().fsub(p, q))?,
        Opcode::MUL => fbin(b, |b, p, q| b.ins().fmul(p, q))?,
        Opcode::DIV => fbin(b, |b, p, q| b.ins().fdiv(p, q))?,
        Opcode::MAD => b.mad(a, x?, y?),
        Opcode::LRP => {
            let (af, xf, yf) = (b.f(a), b.f(x?), b.f(y?));
            let d = b.ins().fsub(xf, yf);
            let p = b.ins().fmul(af, d);
            let r = b.ins().fadd(p, yf);
            b.w(r)
        }
        Opcode::CMP => {
            let zero = b.splat_word(0);
            let neg = b.fcmp_mask(FloatCC::LessThan, a, zero);
            b.ins().blendv(neg, x?, y?)
        }
        Opcode::CND => {
            let half = b.splat_word(0.5f32.to_bits());
            let gt = b.fcmp_mask(FloatCC::GreaterThan, y?, half);
            b.ins().blendv(gt, a, x?)
        }
        Opcode::CLAMP => {
            let (lo, hi) = (x?, y?);
            let above = b.fcmp_mask(FloatCC::GreaterThan, a, hi);
            let r = b.ins().blendv(above, hi, a);
            let below = b.fcmp_mask(FloatCC::LessThan, a, lo);
            b.ins().blendv(below, lo, r)
        }
        Opcode::ABS => {
            let m = b.splat_word(0x7fff_ffff);
            b.ins().band(a, m)
        }
        // MIN/MAX are fminf/fmaxf with the operands swapped.
        Opcode::MIN => b.glibc_minmax(x?, k(1), a, k(0), false),
        Opcode::MAX => b.glibc_minmax(x?, k(1), a, k(0), true),
        Opcode::SLT | Opcode::SGE | Opcode::SGT | Opcode::SLE | Opcode::SEQ | Opcode::SNE => {
            let m = b.fcmp_mask(float_cc(op)?, a, x?);
            b.one_if(m)
        }
        Opcode::FSLT | Opcode::FSGE | Opcode::FSEQ | Opcode::FSNE => {
            b.fcmp_mask(float_cc(op)?, a, x?)
        }
        Opcode::FLR => round(b, |b, v| b.ins().floor(v)),
        Opcode::CEIL => round(b, |b, v| b.ins().ceil(v)),
        Opcode::TRUNC => round(b, |b, v| b.ins().trunc(v)),
        Opcode::ROUND => round(b, |b, v| b.ins().nearest(v)),
        Opcode::FRC => funary(b, |b, v| {
            let f = b.ins().floor(v);
            b.ins().fsub(v, f)
        }),
        Opcode::SSG => {
            let zero = b.splat_word(0);
            let pos = b.fcmp_mask(FloatCC::GreaterThan, a, zero);
            let neg = b.fcmp_mask(FloatCC::LessThan, a, zero);
            let one = b.one_if(pos);
            let minus = b.splat_word((-1f32).to_bits());
            b.ins().blendv(neg, minus, one)
        }
        Opcode::ARL => {
            let f = funary(b, |b, v| b.ins().floor(v));
            b.f2i(f)
        }
        Opcode::ARR => {
            let half = b.splat_word(0.5f32.to_bits());
            let (af, hf) = (b.f(a), b.f(half));
            let sum = b.ins().fadd(af, hf);
            let fl = b.ins().floor(sum);
            let fl = b.w(fl);
            b.f2i(fl)
        }
        Opcode::F2I => b.f2i(a),
        Opcode::I2F => {
            let r = b.ins().fcvt_from_sint(F32X4, a);
            b.w(r)
        }
        Opcode::U2F => {
            let r = b.ins().fcvt_from_uint(F32X4, a);
            b.w(r)
        }
        Opcode::UADD => b.ins().iadd(a, x?),
        Opcode::UMUL => b.ins().imul(a, x?),
        Opcode::UMAD => {
            let p = b.ins().imul(a, x?);
            b.ins().iadd(p, y?)
        }
        Opcode::IMAX => b.ins().smax(a, x?),
        Opcode::IMIN => b.ins().smin(a, x?),
        Opcode::UMAX => b.ins().umax(a, x?),
        Opcode::UMIN => b.ins().umin(a, x?),
        Opcode::ISGE | Opcode::ISLT | Opcode::USGE | Opcode::USLT | Opcode::USEQ | Opcode::USNE => {
            b.ins().icmp(int_cc(op)?, a, x?)
        }
        Opcode::INEG => b.ins().ineg(a),
        Opcode::IABS => b.ins().iabs(a),
        Opcode::NOT => b.ins().bnot(a),
        Opcode::AND => b.ins().band(a, x?),
        Opcode::OR => b.ins().bor(a, x?),
        Opcode::XOR => b.ins().bxor(a, x?),
        Opcode::UCMP => {
            let nz = match known::nonzero_mask(b.func, a, false) {
                Some(mask) => mask,
                None => {
                    let zero = b.splat_word(0);
                    b.ins().icmp(IntCC::NotEqual, a, zero)
                }
            };
            b.ins().blendv(nz, x?, y?)
        }
        Opcode::SHL | Opcode::USHR | Opcode::ISHR => match second {
            Some(count) => {
                let n = b.ins().iconst(I32, i64::from(count & 31));
                match op {
                    Opcode::SHL => b.ins().ishl(a, n),
                    Opcode::USHR => b.ins().ushr(a, n),
                    _ => b.ins().sshr(a, n),
                }
            }
            None => vector_int::by_lane_counts(b, op, s)?,
        },
        Opcode::F2U => {
            // At or above 2³¹: truncate x − 2³¹ and set the top bit back.
            let two31 = b.splat_word(2147483648f32.to_bits());
            let big = b.fcmp_mask(FloatCC::GreaterThanOrEqual, a, two31);
            let (af, tf) = (b.f(a), b.f(two31));
            let less = b.ins().fsub(af, tf);
            let less = b.w(less);
            let high = b.f2i(less);
            let top = b.splat_word(0x8000_0000);
            let high = b.ins().bxor(high, top);
            let low = b.f2i(a);
            b.ins().blendv(big, high, low)
        }
        Opcode::UDIV | Opcode::UMOD | Opcode::IDIV | Opcode::MOD => {
            vector_int::divide(b, op, a, x?, second)?
        }
        Opcode::IMUL_HI => per_lane(b, &[a, x?], sl::imul_hi),
        Opcode::UMUL_HI => per_lane(b, &[a, x?], sl::umul_hi),
        Opcode::BREV => per_lane(b, &[a], sl::brev),
        Opcode::POPC | Opcode::LSB | Opcode::UMSB | Opcode::IMSB => {
            vector_int::bit_count(b, op, a)?
        }
        Opcode::UBFE | Opcode::IBFE | Opcode::BFI => vector_int::by_lane_counts(b, op, s)?,
        _ => return None,
    })
}

/// The comparison of an SLT/FSLT-family opcode.
fn float_cc(op: Opcode) -> Option<FloatCC> {
    Some(match op {
        Opcode::SLT | Opcode::FSLT => FloatCC::LessThan,
        Opcode::SGE | Opcode::FSGE => FloatCC::GreaterThanOrEqual,
        Opcode::SGT => FloatCC::GreaterThan,
        Opcode::SLE => FloatCC::LessThanOrEqual,
        Opcode::SEQ | Opcode::FSEQ => FloatCC::Equal,
        Opcode::SNE | Opcode::FSNE => FloatCC::NotEqual,
        _ => return None,
    })
}

/// The comparison of an integer set-on opcode.
fn int_cc(op: Opcode) -> Option<IntCC> {
    Some(match op {
        Opcode::ISGE => IntCC::SignedGreaterThanOrEqual,
        Opcode::ISLT => IntCC::SignedLessThan,
        Opcode::USGE => IntCC::UnsignedGreaterThanOrEqual,
        Opcode::USLT => IntCC::UnsignedLessThan,
        Opcode::USEQ => IntCC::Equal,
        Opcode::USNE => IntCC::NotEqual,
        _ => return None,
    })
}

/// One chunk of a replicated opcode; `s[k][c]` is channel `c` of source `k`. With
/// `approximate`, EX2, LG2, SIN and COS are `tgsi_exec::scalar::approx`'s approximations
/// instead of glibc's functions.
pub(crate) fn replicated(
    b: &mut FunctionBuilder,
    op: Opcode,
    s: &[[Value; 4]],
    approximate: bool,
) -> Option<Value> {
    let dot = |b: &mut FunctionBuilder, n: usize| -> Option<Value> {
        let (x, y) = (s.first()?, s.get(1)?);
        let mut acc = None;
        for c in 0..n {
            let (p, q) = (b.f(x[c]), b.f(y[c]));
            let m = b.ins().fmul(p, q);
            acc = Some(match acc {
                None => m,
                // The new product first, as `tgsi_exec::scalar::float::dp` adds.
                Some(a) => b.ins().fadd(m, a),
            });
        }
        acc
    };
    let x = s.first()?[0];
    if approximate {
        if let Some(r) = approx::transcendental(b, op, x) {
            return Some(r);
        }
    }
    let one = |b: &mut FunctionBuilder| {
        let w = b.splat_word(1f32.to_bits());
        b.f(w)
    };
    let r = match op {
        Opcode::RCP => {
            let (o, xf) = (one(b), b.f(x));
            b.ins().fdiv(o, xf)
        }
        Opcode::RSQ => {
            let (o, xf) = (one(b), b.f(x));
            let r = b.ins().sqrt(xf);
            b.ins().fdiv(o, r)
        }
        Opcode::SQRT => {
            let xf = b.f(x);
            b.ins().sqrt(xf)
        }
        Opcode::DP2 => dot(b, 2)?,
        Opcode::DP3 => dot(b, 3)?,
        Opcode::DP4 => dot(b, 4)?,
        Opcode::DPH => {
            let d = dot(b, 3)?;
            let w = b.f(s.get(1)?[3]);
            b.ins().fadd(d, w)
        }
        // EX2, LG2, SIN, COS, POW: glibc's results, on the host.
        _ => {
            let func = sl::host_function(op)?;
            let operands: Vec<[Value; 1]> = s
                .iter()
                .take(op.info().num_src as usize)
                .map(|v| [v[0]])
                .collect();
            if operands.len() != op.info().num_src as usize {
                return None;
            }
            let operands: Vec<&[Value]> = operands.iter().map(|o| &o[..]).collect();
            return sl::call_on_lanes(b, &operands, func, None).first().copied();
        }
    };
    Some(b.w(r))
}
