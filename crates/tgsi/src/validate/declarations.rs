//! Declaration rules: ranges, usage masks, which attributes each file may carry (semantic,
//! interpolation, stream, target, memory type…), ArrayIDs, repeated or overlapping
//! declarations, and declarations or immediates placed after the first instruction.
//!
//! Overlaps: two declarations of one file (and dimension) sharing a register are an error,
//! except that an input, output or system value declared again over exactly the same
//! registers with the same semantic and ArrayID is only a warning — Mesa emits such
//! repetitions (identical geometry-shader inputs, one declaration per packed component of
//! a varying with different usage masks).

use std::collections::HashMap;

use super::context::Ctx;
use super::Code;
use crate::enums::{File, MemoryType, Processor};
use crate::ir::{Declaration, Item, ResourceDecl};
use crate::tokens::layout;

/// Runs the declaration rules.
pub(super) fn check(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let mut array_ids: HashMap<(File, u16), &Declaration> = HashMap::new();
    for decl in &shader.declarations {
        attributes(ctx, decl);
        if let Some(id) = decl.array_id.filter(|&id| id != 0) {
            if let Some(first) = array_ids.insert((decl.file, id), decl) {
                ctx.report(
                    Code::DuplicateArrayId,
                    decl.span,
                    format!(
                        "ARRAY({id}) of {} is already declared at {}",
                        decl.file.name(),
                        first.span
                    ),
                );
            }
        }
    }
    overlaps(ctx);
    order(ctx);
}

/// Rules on a single declaration.
fn attributes(ctx: &mut Ctx, decl: &Declaration) {
    let span = decl.span;
    let file = decl.file;
    let fname = file.name();
    if file.is_legacy() {
        ctx.report_once(
            Code::LegacyFile,
            fname,
            span,
            format!(
                "legacy register file {fname} from an older spec version, not encodable in Mesa tokens"
            ),
        );
    }
    if decl.first > decl.last {
        ctx.report(
            Code::BadRange,
            span,
            format!(
                "{fname}[{}..{}]: the last register comes before the first",
                decl.first, decl.last
            ),
        );
    }
    let max = ctx.limits.max_declared_index;
    let too_large = |v: u32| v > max && layout::decl::RANGE_LAST.fits(v);
    if too_large(decl.last) || decl.dimension.is_some_and(too_large) {
        ctx.report(
            Code::IndexTooLarge,
            span,
            format!("{fname} declaration reaches past the index limit of {max}"),
        );
    }
    if decl.usage_mask.0 == 0 || decl.usage_mask.0 > 0xf {
        ctx.report(
            Code::BadUsageMask,
            span,
            format!(
                "usage mask {:#x}: it must name 1 to 4 channels",
                decl.usage_mask.0
            ),
        );
    }
    if decl.dimension.is_some() && !matches!(file, File::Constant | File::HwAtomic | File::ConstBuf)
    {
        ctx.report(
            Code::BadDeclaration,
            span,
            format!("{fname} registers have no second dimension"),
        );
    }
    if decl.semantic.is_some() && !matches!(file, File::Input | File::Output | File::SystemValue) {
        ctx.report(
            Code::MisplacedSemantic,
            span,
            format!("semantic on a {fname} declaration: only IN, OUT and SV take one"),
        );
    }
    let processor = ctx.shader.processor;
    if decl.interp.is_some() && !(processor == Processor::Fragment && file == File::Input) {
        ctx.report(
            Code::MisplacedInterpolation,
            span,
            format!(
                "interpolation on a {} {fname} declaration: only fragment inputs are interpolated",
                processor.name()
            ),
        );
    }
    if let Some(sem) = decl.semantic {
        let gs_out = processor == Processor::Geometry && file == File::Output;
        if !gs_out && sem.streams != [0; 4] {
            ctx.report(
                Code::MisplacedStream,
                span,
                "vertex streams are given only on geometry-shader outputs",
            );
        }
    }
    let resource_ok = match (decl.resource, file) {
        (None, File::SamplerView | File::Image) => false,
        (None, _) => true,
        (Some(ResourceDecl::Image { .. }), f) => matches!(f, File::Image | File::Resource),
        (Some(ResourceDecl::SamplerView { .. }), f) => {
            matches!(f, File::SamplerView | File::Resource)
        }
    };
    if !resource_ok {
        ctx.report(
            Code::BadDeclaration,
            span,
            format!("{fname} declaration with a missing or foreign target"),
        );
    }
    if decl.memory_type != MemoryType::Global && file != File::Memory {
        ctx.report(
            Code::BadDeclaration,
            span,
            format!("memory type on a {fname} declaration"),
        );
    }
    if decl.atomic && file != File::Buffer {
        ctx.report(
            Code::BadDeclaration,
            span,
            format!("ATOMIC on a {fname} declaration: only buffers take it"),
        );
    }
}

/// Declarations of one file and dimension that share registers (Mesa repeats some).
fn overlaps(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let mut sorted: Vec<&Declaration> = shader
        .declarations
        .iter()
        .filter(|d| d.first <= d.last)
        .collect();
    sorted.sort_by_key(|d| (d.file, d.dimension, d.first, d.span));
    let mut prev: Option<&Declaration> = None;
    for decl in sorted {
        match prev {
            Some(p) if p.file == decl.file && p.dimension == decl.dimension => {
                let range = format!("{}[{}..{}]", decl.file.name(), decl.first, decl.last);
                if is_repetition(p, decl) {
                    ctx.report(
                        Code::RepeatedDeclaration,
                        decl.span,
                        format!("{range} repeats the declaration at {}", p.span),
                    );
                } else if decl.first <= p.last {
                    ctx.report(
                        Code::OverlappingDeclaration,
                        decl.span,
                        format!("{range} overlaps the declaration at {}", p.span),
                    );
                }
                if decl.last > p.last {
                    prev = Some(decl);
                }
            }
            _ => prev = Some(decl),
        }
    }
}

/// Whether `b` declares the same input, output or system-value registers as `a`, with the
/// same semantic and ArrayID (usage mask and interpolation may differ).
fn is_repetition(a: &Declaration, b: &Declaration) -> bool {
    let same_semantic = match (a.semantic, b.semantic) {
        (Some(x), Some(y)) => x.name == y.name && x.index == y.index,
        _ => false,
    };
    matches!(a.file, File::Input | File::Output | File::SystemValue)
        && (a.first, a.last) == (b.first, b.last)
        && a.array_id == b.array_id
        && same_semantic
}

/// Declarations and immediates after the first instruction.
fn order(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let mut seen_instruction = false;
    for item in shader.items() {
        match item {
            Item::Instruction(..) => seen_instruction = true,
            Item::Declaration(d) if seen_instruction => ctx.report(
                Code::DeclarationAfterInstruction,
                d.span,
                "declaration after the first instruction",
            ),
            Item::Immediate(i, imm) if seen_instruction => ctx.report(
                Code::DeclarationAfterInstruction,
                imm.span,
                format!("IMM[{i}] after the first instruction"),
            ),
            _ => {}
        }
    }
}
