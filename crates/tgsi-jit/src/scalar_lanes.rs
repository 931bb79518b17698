//! Operations x86 has no vector instruction for, compiled one lane at a time: the four
//! lanes are extracted, computed and inserted back.
//!
//! - Bit reversal and high products become scalar code, each the exact form of its
//!   `tgsi_exec::scalar::int` function (bit fields and shifts by a count per lane are
//!   vector code, [`crate::vector_int`]).
//! - EX2, LG2, POW, SIN and COS, whose results are glibc's, call the interpreter's own
//!   scalar functions (`tgsi_exec::scalar::float`) on the four lanes in one host call.
//!
//! The tests check every one against the interpreter.

use cranelift_codegen::ir::types::{I32X4, I64};
use cranelift_codegen::ir::{
    AbiParam, InstBuilder, Signature, StackSlotData, StackSlotKind, Value,
};
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

/// EX2 of the four lanes at `p`, in place (called from compiled code).
///
/// # Safety
/// `p` points to four words; so do the other functions of this kind (POW: eight, the
/// exponents after the bases).
pub(crate) unsafe extern "C" fn ex2(p: *mut u32) {
    // SAFETY: see the function's contract.
    unsafe { unary(p, fl::ex2) }
}

/// LG2 of four lanes in place, as [`ex2`].
pub(crate) unsafe extern "C" fn lg2(p: *mut u32) {
    // SAFETY: as for `ex2`.
    unsafe { unary(p, fl::lg2) }
}

/// SIN of four lanes in place, as [`ex2`].
pub(crate) unsafe extern "C" fn sin(p: *mut u32) {
    // SAFETY: as for `ex2`.
    unsafe { unary(p, fl::sin) }
}

/// COS of four lanes in place, as [`ex2`].
pub(crate) unsafe extern "C" fn cos(p: *mut u32) {
    // SAFETY: as for `ex2`.
    unsafe { unary(p, fl::cos) }
}

/// POW of four lanes in place: the bases at `p`, the exponents after them.
pub(crate) unsafe extern "C" fn pow(p: *mut u32) {
    // SAFETY: the caller passes eight words.
    let words = unsafe { std::slice::from_raw_parts_mut(p, 8) };
    let (x, y) = words.split_at_mut(4);
    for (x, &y) in x.iter_mut().zip(y.iter()) {
        *x = fl::pow(f32::from_bits(*x), f32::from_bits(y)).to_bits();
    }
}

/// `f` on the four float lanes at `p`, in place.
///
/// # Safety
/// `p` points to four words.
unsafe fn unary(p: *mut u32, f: fn(f32) -> f32) {
    // SAFETY: see the function's contract.
    let words = unsafe { std::slice::from_raw_parts_mut(p, 4) };
    for w in words {
        *w = f(f32::from_bits(*w)).to_bits();
    }
}

/// `func` (one of this module's `unsafe extern "C" fn(*mut u32)`, computing four lanes
/// in place) on the word vectors `args`, stored one after the other: one call for the
/// four lanes, so that the registers live across it are saved once.
pub(crate) fn call_on_lanes(b: &mut FunctionBuilder, args: &[Value], func: usize) -> Value {
    let bytes = 16 * args.len() as u32;
    let slot = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, bytes, 4));
    for (i, &v) in args.iter().enumerate() {
        b.ins().stack_store(I64, v, slot, 16 * i as i32);
    }
    let mut sig = Signature::new(b.func.signature.call_conv);
    sig.params.push(AbiParam::new(I64));
    let sig = b.import_signature(sig);
    let callee = b.ins().iconst(I64, func as i64);
    let at = b.ins().stack_addr(I64, slot, 0);
    b.ins().call_indirect(sig, callee, &[at]);
    b.ins().stack_load(I64, I32X4, slot, 0)
}
