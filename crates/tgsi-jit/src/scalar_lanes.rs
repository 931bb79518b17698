//! Operations x86 has no vector instruction for, compiled one lane at a time: the four
//! lanes are extracted, computed and inserted back.
//!
//! - Bit reversal and high products become scalar code, each the exact form of its
//!   `tgsi_exec::scalar::int` function (bit fields and shifts by a count per lane are
//!   vector code, [`crate::vector_int`]).
//! - EX2, LG2, POW, SIN and COS, whose results are glibc's, call the interpreter's own
//!   scalar functions (`tgsi_exec::scalar::float`) directly, once per lane.
//!
//! The tests check every one against the interpreter.

use cranelift_codegen::ir::types::{F32, F32X4, I32X4, I64};
use cranelift_codegen::ir::{AbiParam, InstBuilder, MemFlagsData, Signature, Value};
use cranelift_frontend::FunctionBuilder;
use tgsi_exec::scalar::float as fl;

/// A scalar form over the lanes' words.
pub(crate) type Scalar = fn(&mut FunctionBuilder, &[Value]) -> Value;

/// `f` applied to each lane of the `i32x4` arguments.
pub(crate) fn per_lane(b: &mut FunctionBuilder, args: &[Value], f: Scalar) -> Value {
    let lane = |b: &mut FunctionBuilder, l: u8| {
        let words: Vec<Value> = args.iter().map(|&v| b.ins().extractlane(v, l)).collect();
        f(b, &words)
    };
    let first = lane(b, 0);
    let mut out = b.ins().splat(I32X4, first);
    for l in 1..4 {
        let r = lane(b, l);
        out = b.ins().insertlane(out, r, l);
    }
    out
}

/// IMUL_HI: the high word of the signed product.
pub(crate) fn imul_hi(b: &mut FunctionBuilder, s: &[Value]) -> Value {
    b.ins().smulhi(s[0], s[1])
}

/// UMUL_HI: the high word of the unsigned product.
pub(crate) fn umul_hi(b: &mut FunctionBuilder, s: &[Value]) -> Value {
    b.ins().umulhi(s[0], s[1])
}

/// BREV.
pub(crate) fn brev(b: &mut FunctionBuilder, s: &[Value]) -> Value {
    b.ins().bitrev(s[0])
}

/// EX2, called from compiled code.
pub(crate) extern "C" fn ex2(x: f32) -> f32 {
    fl::ex2(x)
}

/// LG2, called from compiled code.
pub(crate) extern "C" fn lg2(x: f32) -> f32 {
    fl::lg2(x)
}

/// SIN, called from compiled code.
pub(crate) extern "C" fn sin(x: f32) -> f32 {
    fl::sin(x)
}

/// COS, called from compiled code.
pub(crate) extern "C" fn cos(x: f32) -> f32 {
    fl::cos(x)
}

/// POW, called from compiled code.
pub(crate) extern "C" fn pow(x: f32, y: f32) -> f32 {
    fl::pow(x, y)
}

/// `func` (an `extern "C"` function of `args.len()` floats returning a float) applied to
/// each lane of the word vectors `args`.
pub(crate) fn call_per_lane(b: &mut FunctionBuilder, args: &[Value], func: usize) -> Value {
    let mut sig = Signature::new(b.func.signature.call_conv);
    sig.params.extend(args.iter().map(|_| AbiParam::new(F32)));
    sig.returns.push(AbiParam::new(F32));
    let sig = b.import_signature(sig);
    let callee = b.ins().iconst(I64, func as i64);
    let floats: Vec<Value> = args
        .iter()
        .map(|&v| b.ins().bitcast(F32X4, MemFlagsData::new(), v))
        .collect();
    let call = |b: &mut FunctionBuilder, l: u8| {
        let xs: Vec<Value> = floats.iter().map(|&v| b.ins().extractlane(v, l)).collect();
        let inst = b.ins().call_indirect(sig, callee, &xs);
        b.inst_results(inst)[0]
    };
    let first = call(b, 0);
    let mut out = b.ins().splat(F32X4, first);
    for l in 1..4 {
        let r = call(b, l);
        out = b.ins().insertlane(out, r, l);
    }
    b.ins().bitcast(I32X4, MemFlagsData::new(), out)
}
