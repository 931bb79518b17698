//! Memory rules: image accesses carry a target that agrees with the image declaration, and
//! stores and atomics go only to images declared writable.

use super::context::Ctx;
use super::textures::target_class;
use super::Code;
use crate::enums::{File, TextureTarget};
use crate::ir::{Instruction, Register, ResourceDecl};
use crate::opcode::{self, Opcode, Section};

/// The resource operand of a memory instruction, if the opcode has one.
fn resource_operand(inst: &Instruction) -> Option<Register> {
    match inst.opcode {
        Opcode::STORE => inst.dst.first().map(|d| d.reg),
        Opcode::LOAD | Opcode::RESQ | Opcode::IMG2HND => inst.src.first().map(|s| s.reg),
        op if op.info().section == Section::Atomic => inst.src.first().map(|s| s.reg),
        _ => None,
    }
}

/// Image target and write-permission rules for one instruction.
pub(super) fn check_instruction(ctx: &mut Ctx, inst: &Instruction) {
    let Some(reg) = resource_operand(inst) else {
        return;
    };
    if !matches!(reg.file, File::Image | File::Resource) {
        return;
    }
    let info = inst.opcode.info();
    let span = inst.span;
    let decl = match reg.indirect {
        None if reg.index >= 0 => ctx.resource(File::Image, reg.index as u32),
        _ => None,
    };
    let declared = decl.and_then(|d| match d.resource {
        Some(ResourceDecl::Image {
            target, writable, ..
        }) => Some((d, target, writable)),
        _ => None,
    });
    if info.has(opcode::MEM) && reg.file == File::Image {
        let target = inst.memory.map_or(TextureTarget::Buffer, |m| m.target);
        let declared_target = declared.map(|(_, t, _)| t);
        if target == TextureTarget::Buffer && declared_target != Some(TextureTarget::Buffer) {
            ctx.report(
                Code::MissingTextureTarget,
                span,
                format!("{} on an image without an image target", info.name),
            );
        } else if let Some((d, want, _)) = declared {
            if target_class(target) != target_class(want) {
                ctx.report(
                    Code::TextureTargetMismatch,
                    span,
                    format!(
                        "{} with target {} on IMAGE[{}], declared {} (at {})",
                        info.name,
                        target.name(),
                        reg.index,
                        want.name(),
                        d.span
                    ),
                );
            }
        }
    }
    if info.has(opcode::STORE) {
        if let Some((d, _, false)) = declared {
            ctx.report(
                Code::StoreToReadOnly,
                span,
                format!(
                    "{} writes IMAGE[{}], declared without WR (at {})",
                    info.name, reg.index, d.span
                ),
            );
        }
    }
}
