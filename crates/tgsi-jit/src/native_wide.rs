//! 64-bit instructions (`Kind::Wide`: doubles and 64-bit integers), four lanes at a time.
//!
//! A 64-bit operand of four lanes is two `i64x2` vectors ([`Quad64`]: lanes 0–1 and 2–3),
//! joined from the two word channels of its pair; a 32-bit operand stays one `i32x4` word
//! vector, whose words the interpreter's kernels see zero-extended. [`wide`] is the list of
//! the 64-bit opcodes compiled to vector code, each the exact form of its
//! `tgsi_exec::scalar::double` function (or of the `Kind::Wide` kernel itself where the
//! opcode table writes the conversion inline); for every other opcode it returns `None`
//! and [`per_lane`] calls the interpreter's own kernel once per lane. The tests check
//! every one against the interpreter.

use crate::lanes::{le, shuffle_words, LaneOps};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, F64X2, I64, I64X2};
use cranelift_codegen::ir::{AbiParam, ConstantData, InstBuilder, MemFlagsData, Signature, Value};
use cranelift_frontend::FunctionBuilder;
use tgsi::Opcode;

/// Four lanes of 64-bit values: lanes 0–1 and 2–3, each an `i64x2`.
pub(crate) type Quad64 = [Value; 2];

/// Four lanes of an operand or result of a 64-bit instruction.
#[derive(Clone, Copy)]
pub(crate) enum Wide {
    /// 64-bit values.
    Pair(Quad64),
    /// 32-bit words (`i32x4`), standing for the values zero-extended to 64 bits.
    Word(Value),
}

/// The sign bit of a binary64.
pub(crate) const SIGN: u64 = 1 << 63;

/// Any 128-bit vector as an `i64x2`.
fn q(b: &mut FunctionBuilder, x: Value) -> Value {
    b.ins().bitcast(I64X2, le(), x)
}

/// The 64-bit values of four lanes from their low and high words (`punpckl/hdq`).
pub(crate) fn join(b: &mut FunctionBuilder, lo: Value, hi: Value) -> Quad64 {
    let first = shuffle_words(b, lo, hi, [0, 4, 1, 5]);
    let second = shuffle_words(b, lo, hi, [2, 6, 3, 7]);
    [q(b, first), q(b, second)]
}

/// The low and high words of four 64-bit values (`shufps`).
pub(crate) fn split(b: &mut FunctionBuilder, v: Quad64) -> (Value, Value) {
    let lo = shuffle_words(b, v[0], v[1], [0, 2, 4, 6]);
    let hi = shuffle_words(b, v[0], v[1], [1, 3, 5, 7]);
    (lo, hi)
}

/// The value of `x` as 64-bit lanes (words zero-extended).
pub(crate) fn as_pair(b: &mut FunctionBuilder, x: Wide) -> Quad64 {
    match x {
        Wide::Pair(v) => v,
        Wide::Word(w) => {
            let zero = b.splat_word(0);
            join(b, w, zero)
        }
    }
}

/// The low words of `x`.
pub(crate) fn low_words(b: &mut FunctionBuilder, x: Wide) -> Value {
    match x {
        Wide::Word(w) => w,
        Wide::Pair(v) => split(b, v).0,
    }
}

/// A 64-bit constant in both lanes.
fn splat64(b: &mut FunctionBuilder, x: u64) -> Value {
    let s = b.ins().iconst(I64, x as i64);
    b.ins().splat(I64X2, s)
}

/// `v` ANDed (`xor` false) or XORed (`xor` true) with the 64-bit constant `m`.
pub(crate) fn bitwise(b: &mut FunctionBuilder, v: Quad64, m: u64, xor: bool) -> Quad64 {
    let m = splat64(b, m);
    v.map(|x| {
        if xor {
            b.ins().bxor(x, m)
        } else {
            b.ins().band(x, m)
        }
    })
}

/// `i64x2` bits as doubles.
fn fd(b: &mut FunctionBuilder, x: Value) -> Value {
    b.ins().bitcast(F64X2, MemFlagsData::new(), x)
}

/// Doubles as `i64x2` bits.
fn bits(b: &mut FunctionBuilder, x: Value) -> Value {
    b.ins().bitcast(I64X2, MemFlagsData::new(), x)
}

/// A double comparison as an `i64x2` mask.
fn fcmp(b: &mut FunctionBuilder, cc: FloatCC, x: Value, y: Value) -> Value {
    let (xf, yf) = (fd(b, x), fd(b, y));
    let m = b.ins().fcmp(cc, xf, yf);
    bits(b, m)
}

/// Lanes 2–3 of a word vector moved to lanes 0–1.
fn high_half(b: &mut FunctionBuilder, w: Value) -> Value {
    shuffle_words(b, w, w, [2, 3, 2, 3])
}

/// `f` applied to the words of lanes 0–1 and of lanes 2–3 (in the low half of its
/// argument), giving 64-bit lanes.
fn widen(b: &mut FunctionBuilder, w: Value, f: fn(&mut FunctionBuilder, Value) -> Value) -> Quad64 {
    let first = f(b, w);
    let upper = high_half(b, w);
    let second = f(b, upper);
    [q(b, first), q(b, second)]
}

/// The two-lane results of `f` on each half, packed into one word vector (`punpcklqdq`).
fn narrow(
    b: &mut FunctionBuilder,
    v: Quad64,
    f: fn(&mut FunctionBuilder, Value) -> Value,
) -> Value {
    let first = f(b, v[0]);
    let second = f(b, v[1]);
    shuffle_words(b, first, second, [0, 1, 4, 5])
}

/// Double saturation (`tgsi_exec::scalar::double::dsaturate`): NaN and values not above 0
/// give +0, values above 1 give 1.
pub(crate) fn dsaturate(b: &mut FunctionBuilder, v: Quad64) -> Quad64 {
    v.map(|x| {
        let zero = splat64(b, 0);
        let one = splat64(b, 1f64.to_bits());
        let pos = fcmp(b, FloatCC::GreaterThan, x, zero);
        let r = b.ins().band(pos, x);
        let above = fcmp(b, FloatCC::GreaterThan, x, one);
        b.ins().blendv(above, one, r)
    })
}

/// glibc `fmax(x, y)` (`max`) or `fmin(x, y)` on two lanes of doubles (`i64x2` bits): with
/// a signalling NaN, or two NaNs, the first NaN quieted (what SSE arithmetic returns); a
/// lone quiet NaN gives the other operand; otherwise the larger (smaller), or `y` on a tie.
fn c_minmax(b: &mut FunctionBuilder, x: Value, y: Value, max: bool) -> Value {
    let quiet = splat64(b, 1 << 51);
    let zero = splat64(b, 0);
    let is_nan = |b: &mut FunctionBuilder, v: Value| fcmp(b, FloatCC::Unordered, v, v);
    let signalling = |b: &mut FunctionBuilder, v: Value, nan: Value| {
        let q = b.ins().band(v, quiet);
        let q0 = b.ins().icmp(IntCC::Equal, q, zero);
        b.ins().band(nan, q0)
    };
    let (xn, yn) = (is_nan(b, x), is_nan(b, y));
    let (xs, ys) = (signalling(b, x, xn), signalling(b, y, yn));
    let both = b.ins().band(xn, yn);
    let any_signalling = b.ins().bor(xs, ys);
    let use_nan = b.ins().bor(both, any_signalling);
    let first = b.ins().blendv(xn, x, y);
    let nan = b.ins().bor(first, quiet);
    let cc = if max {
        FloatCC::GreaterThan
    } else {
        FloatCC::LessThan
    };
    let pick_x = fcmp(b, cc, x, y);
    let r = b.ins().blendv(pick_x, x, y);
    let r = b.ins().blendv(yn, x, r);
    b.ins().blendv(use_nan, nan, r)
}

/// The vector form of the 64-bit opcode `op` on four lanes of its sources, or `None` when
/// it has none (nothing is emitted then).
pub(crate) fn wide(b: &mut FunctionBuilder, op: Opcode, s: &[Wide]) -> Option<Wide> {
    let pair = |i: usize| match s.get(i) {
        Some(Wide::Pair(v)) => Some(*v),
        _ => None,
    };
    let word = |i: usize| match s.get(i) {
        Some(Wide::Word(w)) => Some(*w),
        _ => None,
    };
    // Lane by lane over the 64-bit sources.
    let map =
        |b: &mut FunctionBuilder, n: usize, f: &dyn Fn(&mut FunctionBuilder, &[Value]) -> Value| {
            let srcs: Vec<Quad64> = (0..n).map(pair).collect::<Option<_>>()?;
            let half = |b: &mut FunctionBuilder, h: usize| {
                let xs: Vec<Value> = srcs.iter().map(|v| v[h]).collect();
                f(b, &xs)
            };
            Some([half(b, 0), half(b, 1)])
        };
    // Double arithmetic: the operands in order, as SSE evaluates the scalar expression.
    let float =
        |b: &mut FunctionBuilder, n: usize, f: fn(&mut FunctionBuilder, &[Value]) -> Value| {
            map(b, n, &|b, xs| {
                let fs: Vec<Value> = xs.iter().map(|&x| fd(b, x)).collect();
                let r = f(b, &fs);
                bits(b, r)
            })
            .map(Wide::Pair)
        };
    let round = |b: &mut FunctionBuilder, f: fn(&mut FunctionBuilder, Value) -> Value| {
        map(b, 1, &|b, x| {
            let xf = fd(b, x[0]);
            let r = f(b, xf);
            let r = bits(b, r);
            let nan = fcmp(b, FloatCC::Unordered, x[0], x[0]);
            b.ins().blendv(nan, x[0], r)
        })
        .map(Wide::Pair)
    };
    // A comparison: its mask's low word.
    let compare = |b: &mut FunctionBuilder, cc: FloatCC| {
        let m = map(b, 2, &|b, xs| fcmp(b, cc, xs[0], xs[1]))?;
        Some(Wide::Word(low_words(b, Wide::Pair(m))))
    };
    Some(match op {
        Opcode::DADD => float(b, 2, |b, x| b.ins().fadd(x[0], x[1]))?,
        Opcode::DMUL => float(b, 2, |b, x| b.ins().fmul(x[0], x[1]))?,
        Opcode::DDIV => float(b, 2, |b, x| b.ins().fdiv(x[0], x[1]))?,
        // Two roundings: `a·b + c`.
        Opcode::DMAD => float(b, 3, |b, x| {
            let p = b.ins().fmul(x[0], x[1]);
            b.ins().fadd(p, x[2])
        })?,
        Opcode::DSQRT => float(b, 1, |b, x| b.ins().sqrt(x[0]))?,
        Opcode::DRCP => float(b, 1, |b, x| {
            let one = splat64(b, 1f64.to_bits());
            let one = fd(b, one);
            b.ins().fdiv(one, x[0])
        })?,
        Opcode::DRSQ => float(b, 1, |b, x| {
            let one = splat64(b, 1f64.to_bits());
            let one = fd(b, one);
            let r = b.ins().sqrt(x[0]);
            b.ins().fdiv(one, r)
        })?,
        Opcode::DNEG => Wide::Pair(map(b, 1, &|b, x| {
            let sign = splat64(b, SIGN);
            b.ins().bxor(x[0], sign)
        })?),
        // `a >= 0 ? a : −a`: −0 stays, a NaN's sign flips.
        Opcode::DABS => Wide::Pair(map(b, 1, &|b, x| {
            let zero = splat64(b, 0);
            let ge = fcmp(b, FloatCC::GreaterThanOrEqual, x[0], zero);
            let sign = splat64(b, SIGN);
            let neg = b.ins().bxor(x[0], sign);
            b.ins().blendv(ge, x[0], neg)
        })?),
        // −1 / 0 / +1, NaN → +0.
        Opcode::DSSG => Wide::Pair(map(b, 1, &|b, x| {
            let zero = splat64(b, 0);
            let pos = fcmp(b, FloatCC::GreaterThan, x[0], zero);
            let neg = fcmp(b, FloatCC::LessThan, x[0], zero);
            let one = splat64(b, 1f64.to_bits());
            let r = b.ins().band(pos, one);
            let minus = splat64(b, (-1f64).to_bits());
            b.ins().blendv(neg, minus, r)
        })?),
        // The roundings return a NaN unchanged (`roundpd` would quiet it).
        Opcode::DFLR => round(b, |b, x| b.ins().floor(x))?,
        Opcode::DCEIL => round(b, |b, x| b.ins().ceil(x))?,
        Opcode::DTRUNC => round(b, |b, x| b.ins().trunc(x))?,
        Opcode::DROUND => round(b, |b, x| b.ins().nearest(x))?,
        Opcode::DFRAC => float(b, 1, |b, x| {
            let f = b.ins().floor(x[0]);
            b.ins().fsub(x[0], f)
        })?,
        // glibc's `fmax(src1, src0)` / `fmin(src1, src0)`.
        Opcode::DMAX => Wide::Pair(map(b, 2, &|b, x| c_minmax(b, x[1], x[0], true))?),
        Opcode::DMIN => Wide::Pair(map(b, 2, &|b, x| c_minmax(b, x[1], x[0], false))?),
        Opcode::DSLT => compare(b, FloatCC::LessThan)?,
        Opcode::DSGE => compare(b, FloatCC::GreaterThanOrEqual)?,
        Opcode::DSEQ => compare(b, FloatCC::Equal)?,
        // Unordered or not equal: true for NaN, as `a != b`.
        Opcode::DSNE => compare(b, FloatCC::NotEqual)?,
        // `cvtps2pd` is `cvtss2sd` per lane: exact, signalling NaNs quieted alike.
        Opcode::F2D => Wide::Pair(widen(b, word(0)?, |b, w| {
            let f = b.ins().bitcast(F32X4, MemFlagsData::new(), w);
            b.ins().fvpromote_low(f)
        })),
        // `cvtpd2ps` is `cvtsd2ss` per lane (the same rounding, NaN narrowing).
        Opcode::D2F => Wide::Word(narrow(b, pair(0)?, |b, x| {
            let f = fd(b, x);
            b.ins().fvdemote(f)
        })),
        Opcode::I2D => Wide::Pair(widen(b, word(0)?, |b, w| {
            let x = b.ins().swiden_low(w);
            b.ins().fcvt_from_sint(F64X2, x)
        })),
        Opcode::U2D => Wide::Pair(widen(b, word(0)?, |b, w| {
            let x = b.ins().uwiden_low(w);
            b.ins().fcvt_from_uint(F64X2, x)
        })),
        // `cvttpd2dq`: NaN and values outside (−2³¹ − 1, 2³¹) give `0x80000000`, as `d2i`.
        Opcode::D2I => Wide::Word(narrow(b, pair(0)?, |b, x| {
            let f = fd(b, x);
            let t = b.ins().x86_cvtt2dq(I64X2, f);
            let zero = b
                .func
                .dfg
                .constants
                .insert(ConstantData::from(vec![0u8; 16]));
            let zero = b.ins().vconst(I64X2, zero);
            b.ins().snarrow(t, zero)
        })),
        Opcode::I2I64 => Wide::Pair(widen(b, word(0)?, |b, w| b.ins().swiden_low(w))),
        Opcode::U2I64 => Wide::Pair(widen(b, word(0)?, |b, w| b.ins().uwiden_low(w))),
        Opcode::U64ADD => Wide::Pair(map(b, 2, &|b, x| b.ins().iadd(x[0], x[1]))?),
        Opcode::U64MUL => Wide::Pair(map(b, 2, &|b, x| b.ins().imul(x[0], x[1]))?),
        Opcode::I64NEG => Wide::Pair(map(b, 1, &|b, x| b.ins().ineg(x[0]))?),
        Opcode::U64SEQ | Opcode::U64SNE => {
            let cc = if op == Opcode::U64SEQ {
                IntCC::Equal
            } else {
                IntCC::NotEqual
            };
            let m = map(b, 2, &|b, x| b.ins().icmp(cc, x[0], x[1]))?;
            Wide::Word(low_words(b, Wide::Pair(m)))
        }
        _ => return None,
    })
}

/// The interpreter's 64-bit kernel, called from compiled code with one lane's sources.
// A Rust function pointer is an ordinary pointer-sized argument; only Rust calls it.
#[allow(improper_ctypes_definitions)]
extern "C" fn wide_lane(kernel: fn([u64; 3]) -> u64, a: u64, b: u64, c: u64) -> u64 {
    kernel([a, b, c])
}

/// `kernel` (a `Kind::Wide` function) applied to each lane of the sources `s` (at most
/// three; missing ones are 0, as the interpreter passes them), giving 64-bit lanes.
pub(crate) fn per_lane(b: &mut FunctionBuilder, s: &[Wide], kernel: fn([u64; 3]) -> u64) -> Quad64 {
    let mut sig = Signature::new(b.func.signature.call_conv);
    sig.params.extend([AbiParam::new(I64); 4]);
    sig.returns.push(AbiParam::new(I64));
    let sig = b.import_signature(sig);
    let callee = b.ins().iconst(I64, wide_lane as *const () as usize as i64);
    let f = b.ins().iconst(I64, kernel as usize as i64);
    let srcs: Vec<Quad64> = s.iter().take(3).map(|&x| as_pair(b, x)).collect();
    let call = |b: &mut FunctionBuilder, h: usize, l: u8| {
        let mut args = vec![f];
        for k in 0..3 {
            args.push(match srcs.get(k) {
                Some(v) => b.ins().extractlane(v[h], l),
                None => b.ins().iconst(I64, 0),
            });
        }
        let inst = b.ins().call_indirect(sig, callee, &args);
        b.inst_results(inst)[0]
    };
    [0, 1].map(|h| {
        let first = call(b, h, 0);
        let v = b.ins().splat(I64X2, first);
        let second = call(b, h, 1);
        b.ins().insertlane(v, second, 1)
    })
}
