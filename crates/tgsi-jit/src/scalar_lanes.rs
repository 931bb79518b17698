//! Operations x86 has no vector instruction for, compiled one lane at a time: the four
//! lanes are extracted, computed and inserted back.
//!
//! - Bit reversal and high products become scalar code, each the exact form of its
//!   `tgsi_exec::scalar::int` function (bit fields and shifts by a count per lane are
//!   vector code, [`crate::vector_int`]).
//! - EX2, LG2, POW, SIN and COS, whose results are glibc's, call the interpreter's own
//!   scalar functions (`tgsi_exec::scalar::float`) on the four lanes in one host call,
//!   or on the lanes of a run of such instructions (`Translator::transcendentals`).
//!
//! The tests check every one against the interpreter.

use cranelift_codegen::ir::types::{I32X4, I64};
use cranelift_codegen::ir::{
    AbiParam, InstBuilder, Signature, StackSlotData, StackSlotKind, Value,
};
use cranelift_frontend::FunctionBuilder;
use tgsi::Opcode;
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

/// The host function computing `op` (EX2, LG2, SIN, COS or POW) on lanes in place with
/// glibc's results, for [`call_on_lanes`]; `None` for other opcodes.
pub(crate) fn host_function(op: Opcode) -> Option<usize> {
    let f: HostFn = match op {
        Opcode::EX2 => ex2,
        Opcode::LG2 => lg2,
        Opcode::SIN => sin,
        Opcode::COS => cos,
        Opcode::POW => pow,
        _ => return None,
    };
    Some(f as usize)
}

/// A host function: `n` vectors of four lanes at `p` computed in place (POW: the `n`
/// vectors of bases, then the `n` vectors of exponents).
type HostFn = unsafe extern "C" fn(*mut u32, u64);

/// EX2 in place (called from compiled code).
///
/// # Safety
/// `p` points to `4 · n` words (POW: `8 · n`), as for every [`HostFn`].
unsafe extern "C" fn ex2(p: *mut u32, n: u64) {
    // SAFETY: see the function's contract.
    unsafe { unary(p, n, fl::ex2) }
}

/// LG2 in place, as [`ex2`].
unsafe extern "C" fn lg2(p: *mut u32, n: u64) {
    // SAFETY: as for `ex2`.
    unsafe { unary(p, n, fl::lg2) }
}

/// SIN in place, as [`ex2`].
unsafe extern "C" fn sin(p: *mut u32, n: u64) {
    // SAFETY: as for `ex2`.
    unsafe { unary(p, n, fl::sin) }
}

/// COS in place, as [`ex2`].
unsafe extern "C" fn cos(p: *mut u32, n: u64) {
    // SAFETY: as for `ex2`.
    unsafe { unary(p, n, fl::cos) }
}

/// POW in place: the bases, then as many exponents.
unsafe extern "C" fn pow(p: *mut u32, n: u64) {
    let words = 4 * n as usize;
    for i in 0..words {
        // SAFETY: the caller passes `2 · words` words.
        let (x, y) = unsafe { (p.add(i), p.add(words + i)) };
        // SAFETY: as above; volatile, see `unary`.
        let (a, b) = unsafe { (x.read_volatile(), y.read_volatile()) };
        let r = fl::pow(f32::from_bits(a), f32::from_bits(b));
        // SAFETY: as above.
        unsafe { x.write_volatile(r.to_bits()) };
    }
}

/// `f` on the `4 · n` float lanes at `p`, in place, one lane after the other. The words
/// are read and written with volatile accesses only so that the loop stays scalar: LLVM
/// would otherwise vectorise it, moving each lane out of a vector before each call of `f`
/// and back after it, which costs more than the plain loads and stores.
///
/// # Safety
/// `p` points to `4 · n` words.
#[inline(always)]
unsafe fn unary(p: *mut u32, n: u64, f: impl Fn(f32) -> f32) {
    for i in 0..4 * n as usize {
        // SAFETY: `i < 4 · n`, within the words of the function's contract.
        let w = unsafe { p.add(i) };
        // SAFETY: as above.
        let x = unsafe { w.read_volatile() };
        // SAFETY: as above.
        unsafe { w.write_volatile(f(f32::from_bits(x)).to_bits()) };
    }
}

/// The host function `func` ([`host_function`]) on the word vectors of `operands` (one
/// list per operand, all of the same length n: the bases, then the exponents for POW),
/// stored one after the other: one call for all of them, so that the registers live
/// across it are saved once; with `when`, only if that value is nonzero (otherwise the
/// results are the stored operands' words). Returns the n result vectors.
pub(crate) fn call_on_lanes(
    b: &mut FunctionBuilder,
    operands: &[&[Value]],
    func: usize,
    when: Option<Value>,
) -> Vec<Value> {
    let n = operands.first().map_or(0, |o| o.len());
    let vectors: Vec<Value> = operands.iter().flat_map(|o| o.iter().copied()).collect();
    let bytes = 16 * vectors.len() as u32;
    let slot = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, bytes, 4));
    for (i, &v) in vectors.iter().enumerate() {
        b.ins().stack_store(I64, v, slot, 16 * i as i32);
    }
    let mut sig = Signature::new(b.func.signature.call_conv);
    sig.params.push(AbiParam::new(I64));
    sig.params.push(AbiParam::new(I64));
    let sig = b.import_signature(sig);
    let callee = b.ins().iconst(I64, func as i64);
    let at = b.ins().stack_addr(I64, slot, 0);
    let count = b.ins().iconst(I64, n as i64);
    let join = when.map(|when| {
        let (call, join) = (b.create_block(), b.create_block());
        b.ins().brif(when, call, &[], join, &[]);
        b.switch_to_block(call);
        b.seal_block(call);
        join
    });
    b.ins().call_indirect(sig, callee, &[at, count]);
    if let Some(join) = join {
        b.ins().jump(join, &[]);
        b.switch_to_block(join);
        b.seal_block(join);
    }
    (0..n)
        .map(|i| b.ins().stack_load(I64, I32X4, slot, 16 * i as i32))
        .collect()
}
