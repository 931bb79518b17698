//! What the JIT knows at compile time about the words of a vector: whether they can be
//! NaNs, and which kind. It lets [`crate::lanes`] emit shorter exact forms of MIN, MAX,
//! saturation and the rounding opcodes.
//!
//! glibc's `fminf`/`fmaxf` (so MIN, MAX and `_SAT`) treat signalling NaNs, quiet NaNs and
//! numbers differently, and telling them apart is most of their cost. Much of that is known
//! before the shader runs: an immediate is a known word; an SSE arithmetic result is never
//! a signalling NaN (a NaN result is quieted); a comparison to 1.0/0.0, a conversion from an
//! integer or a saturated value is never a NaN. [`result`] carries a [`Known`] through an
//! opcode from those of its sources, following the interpreter's scalar functions
//! (`tgsi_exec::scalar`), so it describes the opcode's result however it is computed. The
//! translator keeps the `Known` of the values it produces; a value reaching another block
//! through a variable is a new value there, of which nothing is known. SSA values never
//! change, so what is true of a value once stays true.

use cranelift_codegen::ir::{Function, InstructionData, Opcode as Clif, Value, ValueDef};
use tgsi::Opcode;

/// The words a vector can hold, lane by lane; each class includes those after it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Known {
    /// Any word.
    Any,
    /// A number or a quiet NaN: never a signalling NaN.
    Quiet,
    /// A number (including ±∞): never a NaN.
    Number,
}

impl Known {
    /// The class of one word.
    pub(crate) fn of_word(w: u32) -> Known {
        let nan = w & 0x7fff_ffff > 0x7f80_0000;
        if !nan {
            Known::Number
        } else if w & 0x0040_0000 != 0 {
            Known::Quiet
        } else {
            Known::Any
        }
    }

    /// What is known of a value that is either `self` or `other`.
    pub(crate) fn either(self, other: Known) -> Known {
        self.min(other)
    }
}

/// The word in every lane of `v`, when `v` is a splatted constant.
pub(crate) fn constant(func: &Function, v: Value) -> Option<u32> {
    let def = |v: Value| match func.dfg.value_def(func.dfg.resolve_aliases(v)) {
        ValueDef::Result(inst, 0) => Some(func.dfg.insts[inst]),
        _ => None,
    };
    let InstructionData::Unary {
        opcode: Clif::Splat,
        arg,
    } = def(v)?
    else {
        return None;
    };
    match def(arg)? {
        InstructionData::UnaryImm {
            opcode: Clif::Iconst,
            imm,
        } if func.dfg.value_type(arg).bits() == 32 => Some(imm.bits() as u32),
        _ => None,
    }
}

/// `v != 0` as a mask (all ones where true), when the definitions show it without a
/// comparison: `v` is itself a mask (a comparison, or bitwise operations on masks), or,
/// for a float test, a mask and-ed with 1.0 (the result of SLT and its kin). As floats, all
/// ones is a NaN, which also compares unequal to zero.
pub(crate) fn nonzero_mask(func: &Function, v: Value, float: bool) -> Option<Value> {
    if is_mask(func, v, 0) {
        return Some(v);
    }
    if !float {
        return None;
    }
    let InstructionData::Binary {
        opcode: Clif::Band,
        args,
    } = definition(func, v)?
    else {
        return None;
    };
    let one = 1f32.to_bits();
    args.iter()
        .zip(args.iter().rev())
        .find(|&(&m, &k)| constant(func, k) == Some(one) && is_mask(func, m, 0))
        .map(|(&m, _)| m)
}

/// Whether every lane of the vector `v` is 0 or all ones, from its definition (at most a
/// few levels deep).
fn is_mask(func: &Function, v: Value, depth: u32) -> bool {
    if depth > 6 || !func.dfg.value_type(v).is_vector() {
        return false;
    }
    match definition(func, v) {
        Some(InstructionData::IntCompare { .. } | InstructionData::FloatCompare { .. }) => true,
        Some(InstructionData::Binary {
            opcode: Clif::Band | Clif::Bor | Clif::Bxor,
            args,
        }) => args.iter().all(|&a| is_mask(func, a, depth + 1)),
        Some(InstructionData::Unary {
            opcode: Clif::Bnot,
            arg,
        }) => is_mask(func, arg, depth + 1),
        _ => false,
    }
}

/// The instruction defining `v`, when it is an instruction's first result.
fn definition(func: &Function, v: Value) -> Option<InstructionData> {
    match func.dfg.value_def(func.dfg.resolve_aliases(v)) {
        ValueDef::Result(inst, 0) => Some(func.dfg.insts[inst]),
        _ => None,
    }
}

/// What the result of a 32-bit component-wise or whole-vector opcode is, given what the
/// channel's sources are (`src[i]` for source `i`; the whole-vector opcodes listed do not
/// depend on them).
pub(crate) fn result(op: Opcode, src: &[Known]) -> Known {
    let s = |i: usize| src.get(i).copied().unwrap_or(Known::Any);
    match op {
        // Bit copies of a source (ABS clears the sign, which keeps the kind).
        Opcode::MOV | Opcode::ABS => s(0),
        // NaN in, the same NaN out; numbers give numbers.
        Opcode::FLR | Opcode::CEIL | Opcode::TRUNC | Opcode::ROUND => s(0),
        // One of the sources, bit for bit.
        Opcode::CMP | Opcode::UCMP => s(1).either(s(2)),
        Opcode::CND => s(0).either(s(1)),
        Opcode::CLAMP => s(0).either(s(1)).either(s(2)),
        // SSE arithmetic: a NaN result is quiet.
        Opcode::ADD
        | Opcode::SUB
        | Opcode::MUL
        | Opcode::DIV
        | Opcode::MAD
        | Opcode::LRP
        | Opcode::FRC
        | Opcode::RCP
        | Opcode::RSQ
        | Opcode::SQRT
        | Opcode::DP2
        | Opcode::DP3
        | Opcode::DP4
        | Opcode::DPH => Known::Quiet,
        // fminf/fmaxf return a quieted NaN, or a non-NaN operand where the other is a
        // quiet NaN: a NaN only when neither operand is a number, or one is signalling.
        Opcode::MIN | Opcode::MAX => {
            let (a, b) = (s(0), s(1));
            if a.max(b) == Known::Number && a.min(b) >= Known::Quiet {
                Known::Number
            } else {
                Known::Quiet
            }
        }
        // 1.0 / 0.0 / −1.0, and integers converted to floats.
        Opcode::SLT
        | Opcode::SGE
        | Opcode::SGT
        | Opcode::SLE
        | Opcode::SEQ
        | Opcode::SNE
        | Opcode::SSG
        | Opcode::I2F
        | Opcode::U2F => Known::Number,
        _ => Known::Any,
    }
}
