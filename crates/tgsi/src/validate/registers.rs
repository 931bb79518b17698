//! Register rules: every operand names a declared register (or an existing immediate),
//! 2-D and per-vertex indices are understood, indirect addressing goes through an ADDR
//! register and a declared ArrayID whose range holds the access's constant base, and each
//! operand position holds a file that can play its role (writable destination, readable
//! value, sampler, resource…).

use super::context::Ctx;
use super::operands::{dst_role, readable, src_role, Role};
use super::Code;
use crate::enums::File;
use crate::ir::{Indirect, Instruction, Register, Span};
use crate::opcode::{Opcode, Section};
use crate::tokens::layout;

/// Checks the registers of every operand and texel offset of an instruction.
pub(super) fn check_instruction(ctx: &mut Ctx, inst: &Instruction) {
    let span = inst.span;
    let name = inst.opcode.name();
    for (i, dst) in inst.dst.iter().enumerate() {
        let role = dst_role(inst.opcode, i);
        let file = dst.reg.file;
        let ok = match role {
            Role::Resource => resource_files(inst.opcode).contains(&file),
            _ => matches!(
                file,
                File::Temporary | File::Output | File::Address | File::Null
            ),
        };
        if !ok {
            let code = if role == Role::Resource {
                Code::BadOperandFile
            } else {
                Code::NotWritable
            };
            ctx.report(
                code,
                span,
                format!(
                    "destination {i} of {name} cannot be a {} register",
                    file.name()
                ),
            );
        }
        check_register(ctx, span, &dst.reg);
    }
    for (i, src) in inst.src.iter().enumerate() {
        let role = src_role(inst.opcode, i);
        let file = src.reg.file;
        let (ok, wanted) = match role {
            Role::Value => (readable(file), ""),
            Role::Sampler => (file == File::Sampler, "a SAMP register"),
            Role::SamplerView => (
                matches!(file, File::SamplerView | File::Resource),
                "an SVIEW register",
            ),
            Role::SamplerViewOrValue => (
                file == File::SamplerView || readable(file),
                "an SVIEW or value register",
            ),
            Role::Resource => (
                resource_files(inst.opcode).contains(&file),
                "a buffer, image, memory or atomic-counter register",
            ),
            Role::Input => (file == File::Input, "an IN register"),
            Role::Output => (file == File::Output, "an OUT register"),
        };
        if !ok {
            if role == Role::Value {
                ctx.report(
                    Code::NotReadable,
                    span,
                    format!(
                        "source {i} of {name}: {} registers hold no values",
                        file.name()
                    ),
                );
            } else {
                ctx.report(
                    Code::BadOperandFile,
                    span,
                    format!(
                        "source {i} of {name} must be {wanted}, found {}",
                        file.name()
                    ),
                );
            }
        }
        check_register(ctx, span, &src.reg);
    }
    if let Some(tex) = &inst.texture {
        for offset in &tex.offsets {
            if !readable(offset.file) {
                ctx.report(
                    Code::NotReadable,
                    span,
                    format!(
                        "texel offset of {name}: {} registers hold no values",
                        offset.file.name()
                    ),
                );
            }
            if offset.swizzle.iter().any(|&c| c > 3) {
                ctx.report(
                    Code::BadSwizzle,
                    span,
                    format!("texel offset of {name} selects a channel beyond w"),
                );
            }
            check_register(ctx, span, &Register::new(offset.file, offset.index));
        }
    }
}

/// The files a resource operand of `op` may name.
fn resource_files(op: Opcode) -> &'static [File] {
    match op {
        Opcode::LOAD => &[
            File::Buffer,
            File::Image,
            File::Memory,
            File::HwAtomic,
            File::Constant,
            File::Resource,
        ],
        Opcode::STORE => &[File::Buffer, File::Image, File::Memory, File::Resource],
        Opcode::RESQ => &[File::Buffer, File::Image, File::Resource],
        Opcode::IMG2HND => &[File::Image],
        _ if op.info().section == Section::Atomic => &[
            File::Buffer,
            File::Image,
            File::Memory,
            File::HwAtomic,
            File::Resource,
        ],
        _ => &[],
    }
}

/// `FILE[index]` or `FILE[dim][index]` for messages.
fn describe(reg: &Register) -> String {
    let index = match reg.indirect {
        Some(ind) => format!("{}[{}]+{}", ind.file.name(), ind.index, reg.index),
        None => reg.index.to_string(),
    };
    match reg.dimension {
        Some(d) if d.indirect.is_none() => format!("{}[{}][{index}]", reg.file.name(), d.index),
        Some(_) => format!("{}[…][{index}]", reg.file.name()),
        None => format!("{}[{index}]", reg.file.name()),
    }
}

/// Whether register `index` of `file` (dimension `dim`) exists.
fn exists(ctx: &Ctx, file: File, dim: u32, index: u32) -> bool {
    match file {
        File::Null => true,
        File::Immediate => dim == 0 && (index as usize) < ctx.shader.immediates.len(),
        _ => ctx.is_declared(file, dim, index),
    }
}

/// Declaration, range, dimension and indirect rules for one register operand.
fn check_register(ctx: &mut Ctx, span: Span, reg: &Register) {
    let file = reg.file;
    if file.is_legacy() {
        ctx.report_once(
            Code::LegacyFile,
            file.name(),
            span,
            format!(
                "legacy register file {} from an older spec version, not encodable in Mesa tokens",
                file.name()
            ),
        );
    }
    if file == File::Null {
        return;
    }
    // The outer index: a vertex for per-vertex files, else a declared dimension.
    let mut dim = Some(0u32);
    if let Some(d) = reg.dimension {
        if let Some(ind) = d.indirect {
            check_address(ctx, span, &ind);
            if !ctx.per_vertex(file) {
                dim = None;
            }
        } else if d.index < 0 {
            ctx.report(
                Code::UndeclaredRegister,
                span,
                format!("{}: negative outer index", describe(reg)),
            );
            return;
        } else if !ctx.per_vertex(file) {
            dim = Some(d.index as u32);
        }
    }
    if let Some(ind) = reg.indirect {
        check_address(ctx, span, &ind);
        if ind.array_id != 0 {
            match ctx.array(file, ind.array_id) {
                None => ctx.report(
                    Code::UnknownArrayId,
                    span,
                    format!(
                        "{} names ARRAY({}), which no {} declaration has",
                        describe(reg),
                        ind.array_id,
                        file.name()
                    ),
                ),
                Some(array)
                    if !(array.first as i64..=array.last as i64).contains(&(reg.index as i64)) =>
                {
                    ctx.report(
                        Code::RelativeOutsideArray,
                        span,
                        format!(
                            "{}: base {} lies outside ARRAY({}), {}[{}..{}] (at {})",
                            describe(reg),
                            reg.index,
                            ind.array_id,
                            file.name(),
                            array.first,
                            array.last,
                            array.span
                        ),
                    )
                }
                Some(_) => {}
            }
        } else if !matches!(file, File::Temporary | File::Constant) {
            ctx.report(
                Code::IndirectWithoutArray,
                span,
                format!(
                    "indirect {} without an ArrayID: the spec allows that only for TEMP and CONST",
                    describe(reg)
                ),
            );
        }
        let any = match file {
            File::Immediate => !ctx.shader.immediates.is_empty(),
            _ => ctx.file_declared(file),
        };
        if !any {
            ctx.report(
                Code::UndeclaredRegister,
                span,
                format!("{}: no {} register is declared", describe(reg), file.name()),
            );
        }
        return;
    }
    if reg.index < 0 {
        ctx.report(
            Code::UndeclaredRegister,
            span,
            format!("{}: negative register index", describe(reg)),
        );
        return;
    }
    let index = reg.index as u32;
    // Indices the token field cannot hold are the field rule's (encoding.rs).
    if !layout::reg::SRC_INDEX.fits_signed(reg.index) {
        return;
    }
    if index > ctx.limits.max_register_index {
        ctx.report(
            Code::IndexTooLarge,
            span,
            format!(
                "{}: index above the limit of {}",
                describe(reg),
                ctx.limits.max_register_index
            ),
        );
        return;
    }
    let Some(dim) = dim else {
        // Indirect dimension: only the file can be checked.
        if !ctx.file_declared(file) {
            ctx.report(
                Code::UndeclaredRegister,
                span,
                format!("{}: no {} register is declared", describe(reg), file.name()),
            );
        }
        return;
    };
    if !exists(ctx, file, dim, index) {
        if file == File::Memory && ctx.file_declared(File::Memory) {
            ctx.report(
                Code::UndeclaredMemory,
                span,
                format!(
                    "{} is not declared, but another MEMORY register is; tgsi_exec ignores the index",
                    describe(reg)
                ),
            );
            return;
        }
        let message = if file == File::Immediate {
            format!(
                "{} does not exist: the shader has {} immediate(s)",
                describe(reg),
                ctx.shader.immediates.len()
            )
        } else {
            format!("{} is not declared", describe(reg))
        };
        ctx.report(Code::UndeclaredRegister, span, message);
    }
}

/// The address register of an indirect index.
fn check_address(ctx: &mut Ctx, span: Span, ind: &Indirect) {
    let name = format!("{}[{}]", ind.file.name(), ind.index);
    if ind.component > 3 {
        ctx.report(
            Code::BadSwizzle,
            span,
            format!("address component of {name} is beyond w"),
        );
    }
    if ind.file != File::Address {
        if readable(ind.file) {
            ctx.report(
                Code::NonAddressIndirect,
                span,
                format!(
                    "indirect index read from {name}: indices go through ADDR registers (load one with UARL)"
                ),
            );
        } else {
            ctx.report(
                Code::BadAddressRegister,
                span,
                format!("indirect index read from {name}, which holds no value"),
            );
            return;
        }
    }
    let declared = ind.index >= 0 && exists(ctx, ind.file, 0, ind.index as u32);
    if !declared {
        ctx.report(
            Code::UndeclaredRegister,
            span,
            format!("address register {name} is not declared"),
        );
    }
}
