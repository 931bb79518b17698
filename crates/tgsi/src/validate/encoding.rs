//! Token field rules: every value must fit the field of Mesa's token layout that holds it
//! (`tokens::layout`, shared with the encoder, which refuses the same values instead of
//! truncating them).
//!
//! Fields checked here, by the [`Code::FieldOverflow`] rule:
//! - declaration range first and last (unsigned 16 bits), dimension (unsigned 16),
//!   semantic index (unsigned 16), vertex streams (2 bits each, when a raised
//!   [`Limits::max_vertex_streams`](crate::Limits) lets a wider value past the stream rule),
//!   image format (10 bits), ArrayID (10 bits);
//! - operand register index, dimension index, address-register index and texel offset
//!   index (signed 16 bits), indirect ArrayID (10 bits);
//! - branch label (24 bits), memory qualifiers (4 bits), memory format (10 bits);
//! - the header's BodySize (24 bits): the whole shader's length in words.
//!
//! Fields with a rule of their own: usage mask ([`Code::BadUsageMask`]), write mask
//! ([`Code::BadWriteMask`]), source, address and texel-offset swizzles
//! ([`Code::BadSwizzle`]), texel offset count ([`Code::TooManyOffsets`]), operand counts
//! ([`Code::OperandCount`]), streams within the limit ([`Code::StreamBeyondLimit`]). The
//! enumerations (file, opcode, semantic, target, return type, interpolation, memory type,
//! immediate type, property, processor) fit their fields by construction; legacy files and
//! opcodes have no token number at all ([`Code::LegacyFile`], [`Code::LegacyOpcode`]).

use super::context::Ctx;
use super::Code;
use crate::ir::{Register, Span};
use crate::tokens::body_words;
use crate::tokens::layout::{decl as d, header, inst as i, reg as r, Field};

/// Runs the field rules.
pub(super) fn check(ctx: &mut Ctx) {
    let shader = ctx.shader;
    for decl in &shader.declarations {
        let span = decl.span;
        unsigned(ctx, span, d::RANGE_FIRST, decl.first, "range start");
        unsigned(ctx, span, d::RANGE_LAST, decl.last, "range end");
        if let Some(dim) = decl.dimension {
            unsigned(ctx, span, d::DIM_INDEX, dim, "dimension");
        }
        if let Some(sem) = decl.semantic {
            unsigned(ctx, span, d::SEMANTIC_INDEX, sem.index, "semantic index");
            for (field, &s) in d::STREAM.iter().zip(&sem.streams) {
                if u32::from(s) < ctx.limits.max_vertex_streams {
                    unsigned(ctx, span, *field, s.into(), "vertex stream");
                }
            }
        }
        if let Some(crate::ir::ResourceDecl::Image { format, .. }) = decl.resource {
            unsigned(ctx, span, d::IMAGE_FORMAT, format.0.into(), "image format");
        }
        if let Some(id) = decl.array_id {
            unsigned(ctx, span, d::ARRAY_ID, id.into(), "ArrayID");
        }
    }
    for inst in &shader.instructions {
        let span = inst.span;
        if let Some(label) = inst.label {
            unsigned(ctx, span, i::LABEL_VALUE, label, "label");
        }
        if let Some(mem) = inst.memory {
            let q = mem.qualifiers.into();
            unsigned(ctx, span, i::MEM_QUALIFIER, q, "memory qualifier bits");
            unsigned(
                ctx,
                span,
                i::MEM_FORMAT,
                mem.format.0.into(),
                "memory format",
            );
        }
        if let Some(tex) = &inst.texture {
            for off in &tex.offsets {
                signed(ctx, span, i::OFFSET_INDEX, off.index, "texel offset index");
            }
        }
        for dst in &inst.dst {
            register(ctx, span, r::DST_INDEX, &dst.reg);
        }
        for src in &inst.src {
            register(ctx, span, r::SRC_INDEX, &src.reg);
        }
    }
    let words = body_words(shader);
    if words > header::BODY_SIZE.max() as usize {
        let span = shader
            .instructions
            .last()
            .map(|i| i.span)
            .unwrap_or_default();
        ctx.report(
            Code::FieldOverflow,
            span,
            format!(
                "the shader takes {words} words, more than the 24-bit BodySize field holds ({})",
                header::BODY_SIZE.max()
            ),
        );
    }
}

/// The index fields of one operand register.
fn register(ctx: &mut Ctx, span: Span, index_field: Field, reg: &Register) {
    signed(ctx, span, index_field, reg.index, "register index");
    if let Some(dim) = reg.dimension {
        signed(ctx, span, r::DIM_INDEX, dim.index, "dimension index");
    }
    let dim_indirect = reg.dimension.and_then(|dim| dim.indirect);
    for ind in [reg.indirect, dim_indirect].into_iter().flatten() {
        signed(ctx, span, r::IND_INDEX, ind.index, "address register index");
        unsigned(ctx, span, r::IND_ARRAY_ID, ind.array_id.into(), "ArrayID");
    }
}

fn unsigned(ctx: &mut Ctx, span: Span, field: Field, value: u32, what: &str) {
    if !field.fits(value) {
        let max = field.max();
        ctx.report(
            Code::FieldOverflow,
            span,
            format!(
                "{what} {value} does not fit in its {}-bit token field (at most {max})",
                field.width
            ),
        );
    }
}

fn signed(ctx: &mut Ctx, span: Span, field: Field, value: i32, what: &str) {
    if !field.fits_signed(value) {
        let half = 1i64 << (field.width - 1);
        ctx.report(
            Code::FieldOverflow,
            span,
            format!(
                "{what} {value} does not fit in its signed {}-bit token field ({} to {})",
                field.width,
                -half,
                half - 1
            ),
        );
    }
}
