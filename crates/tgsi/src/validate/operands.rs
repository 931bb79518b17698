//! Operand rules: counts from the opcode table, write masks, swizzles, channel pairs of
//! 64-bit operands, source modifiers and saturate; and the role each operand position plays
//! (value, sampler, sampler view, resource, input).

use super::context::Ctx;
use super::Code;
use crate::enums::File;
use crate::ir::{Instruction, Src, Swizzle, WriteMask};
use crate::opcode::{self, Opcode, OperandType, Section};

/// What an operand position holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// An ordinary value register.
    Value,
    /// A `SAMP` register.
    Sampler,
    /// An `SVIEW` register.
    SamplerView,
    /// An `SVIEW` register or an ordinary value (SAMPLE_POS, SAMPLE_INFO).
    SamplerViewOrValue,
    /// A buffer, image, shared memory, atomic counter or constant buffer.
    Resource,
    /// A fragment-shader input (INTERP_*).
    Input,
    /// A fragment-shader output (FBFETCH).
    Output,
}

/// The role of source `i` of `op`.
pub(super) fn src_role(op: Opcode, i: usize) -> Role {
    let info = op.info();
    let last = (info.num_src as usize).saturating_sub(1);
    match op {
        Opcode::SAMPLE_I | Opcode::SAMPLE_I_MS | Opcode::SVIEWINFO if i == 1 => Role::SamplerView,
        Opcode::SAMPLE_I | Opcode::SAMPLE_I_MS | Opcode::SVIEWINFO => Role::Value,
        Opcode::SAMPLE_POS | Opcode::SAMPLE_INFO if i == 0 => Role::SamplerViewOrValue,
        Opcode::LOD if i == 1 => Role::SamplerView,
        Opcode::LOD if i == 2 => Role::Sampler,
        Opcode::LOAD | Opcode::RESQ | Opcode::IMG2HND if i == 0 => Role::Resource,
        Opcode::INTERP_CENTROID | Opcode::INTERP_SAMPLE | Opcode::INTERP_OFFSET if i == 0 => {
            Role::Input
        }
        Opcode::FBFETCH if i == 0 => Role::Output,
        _ if info.has(opcode::SVIEW_OFFSETS) && i == 1 => Role::SamplerView,
        _ if info.has(opcode::SVIEW_OFFSETS) && i == 2 => Role::Sampler,
        _ if info.has(opcode::TEX) && i == last => Role::Sampler,
        _ if info.section == Section::Atomic && i == 0 => Role::Resource,
        _ => Role::Value,
    }
}

/// The role of destination `i` of `op`.
pub(super) fn dst_role(op: Opcode, i: usize) -> Role {
    if op == Opcode::STORE && i == 0 {
        Role::Resource
    } else {
        Role::Value
    }
}

/// Checks counts, masks, swizzles, modifiers and saturate of one instruction.
pub(super) fn check_instruction(ctx: &mut Ctx, inst: &Instruction) {
    let info = inst.opcode.info();
    let span = inst.span;
    let name = info.name;
    let legacy_emit = matches!(inst.opcode, Opcode::EMIT | Opcode::ENDPRIM)
        && inst.src.is_empty()
        && inst.dst.is_empty();
    if legacy_emit {
        ctx.report(
            Code::EmitWithoutStream,
            span,
            format!("{name} without a stream operand is pre-2017 syntax; Mesa 22.3 requires one"),
        );
    } else if inst.dst.len() != info.num_dst as usize || inst.src.len() != info.num_src as usize {
        ctx.report(
            Code::OperandCount,
            span,
            format!(
                "{name} takes {} destination(s) and {} source(s), found {} and {}",
                info.num_dst,
                info.num_src,
                inst.dst.len(),
                inst.src.len()
            ),
        );
    }
    for (i, dst) in inst.dst.iter().enumerate() {
        let mask = dst.write_mask;
        if mask.0 == 0 || mask.0 > 0xf {
            ctx.report(
                Code::BadWriteMask,
                span,
                format!(
                    "destination {i} of {name} has write mask {:#x}: it must name 1 to 4 channels",
                    mask.0
                ),
            );
        } else if dst_role(inst.opcode, i) == Role::Value
            && info.dst_type(i).is_64bit()
            && !matches!(mask.0, 0x3 | 0xc | 0xf)
        {
            ctx.report(
                Code::Unpaired64Bit,
                span,
                format!("{name} writes 64-bit values: its write mask must be .xy, .zw or .xyzw"),
            );
        }
    }
    for (i, src) in inst.src.iter().enumerate() {
        check_source(ctx, inst, i, src);
    }
    if inst.saturate {
        let float = info.num_dst > 0
            && matches!(
                info.dst_type(0),
                OperandType::F32 | OperandType::F64 | OperandType::Untyped
            );
        if !float {
            ctx.report(
                Code::SaturateNonFloat,
                span,
                format!("_SAT on {name}, whose result is not a float"),
            );
        }
    }
}

/// Swizzle range, channel pairs and modifiers of source `i`.
fn check_source(ctx: &mut Ctx, inst: &Instruction, i: usize, src: &Src) {
    let info = inst.opcode.info();
    let span = inst.span;
    let name = info.name;
    if src.swizzle.0.iter().any(|&c| c > 3) {
        ctx.report(
            Code::BadSwizzle,
            span,
            format!("source {i} of {name} selects a channel beyond w"),
        );
        return;
    }
    if src_role(inst.opcode, i) != Role::Value {
        return;
    }
    let ty = info.src_type(i);
    if ty.is_64bit()
        && !pairs_used(inst)
            .iter()
            .zip(0..)
            .all(|(&used, pair)| !used || is_pair(src.swizzle, pair))
    {
        ctx.report(
            Code::Unpaired64Bit,
            span,
            format!(
                "source {i} of {name} is 64-bit: its swizzle must select whole pairs (.xy or .zw)"
            ),
        );
    }
    if !(src.absolute || src.negate) {
        return;
    }
    if ty.is_64bit() {
        ctx.report(
            Code::ModifierOn64Bit,
            span,
            format!(
                "modifier on 64-bit source {i} of {name}: undefined (use DABS/DNEG, I64ABS/I64NEG)"
            ),
        );
    } else if src.absolute && !ty.is_float_like() {
        ctx.report(
            Code::AbsOnInteger,
            span,
            format!("absolute value on integer source {i} of {name}: only float inputs take it"),
        );
    } else if src.negate && ty == OperandType::U32 && inst.opcode != Opcode::UADD {
        // UADD is sign-agnostic: negating its operand is how producers subtract.
        ctx.report(
            Code::NegateOnUnsigned,
            span,
            format!("negate on unsigned source {i} of {name}: only older spec versions allow it"),
        );
    }
}

/// Which channel pairs (xy, zw) of the 64-bit sources the instruction reads.
fn pairs_used(inst: &Instruction) -> [bool; 2] {
    // 64-bit results use pair p of the sources for pair p of the destination; 32-bit
    // results of 64-bit sources (DSLT, D2F…) are read leniently the same way.
    let mask = inst.dst.first().map_or(WriteMask::XYZW, |d| d.write_mask);
    [mask.0 & 0x3 != 0, mask.0 & 0xc != 0]
}

/// Whether the swizzle's half `pair` selects a whole pair (.xy or .zw).
fn is_pair(swizzle: Swizzle, pair: usize) -> bool {
    let lo = swizzle.0[pair * 2];
    let hi = swizzle.0[pair * 2 + 1];
    lo & 1 == 0 && hi == lo + 1
}

/// Whether a source file can hold a plain value.
pub(super) fn readable(file: File) -> bool {
    matches!(
        file,
        File::Constant
            | File::Input
            | File::Output
            | File::Temporary
            | File::Immediate
            | File::Address
            | File::SystemValue
    )
}
