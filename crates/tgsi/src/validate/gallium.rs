//! Gallium's fixed limits (`p_state.h`, and softpipe's caps where Gallium has no constant),
//! each a named [`Limits`](crate::Limits) field:
//! - [`Code::SlotBeyondLimit`]: a declaration reaching past the count of its file — inputs
//!   (`max_vertex_attribs` for vertex shaders, else `max_shader_inputs`), outputs,
//!   samplers, sampler views, images, buffers, constant buffers (`CONST[b][…]`,
//!   `CONSTBUF[b]`), atomic-counter buffers (`HWATOMIC[b][…]`), fragment `COLOR`
//!   outputs beyond the color buffers, and `CLIPDIST` registers beyond the clip/cull
//!   distances (four per register);
//! - [`Code::StreamBeyondLimit`]: a declared vertex stream, or the stream of EMIT / ENDPRIM
//!   when it is an immediate, at or beyond `max_vertex_streams` (GLSL makes the stream a
//!   constant, so Mesa always writes an immediate; a stream read from another register is
//!   known only at run time, where `tgsi-exec` ignores EMIT / ENDPRIM on a stream it does
//!   not have);
//! - [`Code::PropertyBeyondLimit`]: `GS_MAX_OUTPUT_VERTICES`, `GS_INVOCATIONS`,
//!   `TCS_VERTICES_OUT`, `NUM_CLIPDIST_ENABLED` + `NUM_CULLDIST_ENABLED`, and a compute
//!   block whose thread count (the product of `CS_FIXED_BLOCK_*`) overflows or exceeds
//!   `max_block_threads`.

use super::context::Ctx;
use super::Code;
use crate::enums::{File, Processor, PropertyName, Semantic};
use crate::ir::{Declaration, Instruction};
use crate::opcode::Opcode;

/// Runs the limit rules.
pub(super) fn check(ctx: &mut Ctx) {
    let shader = ctx.shader;
    for decl in &shader.declarations {
        slots(ctx, decl);
        streams(ctx, decl);
    }
    for inst in &shader.instructions {
        if matches!(inst.opcode, Opcode::EMIT | Opcode::ENDPRIM) {
            emitted_stream(ctx, inst);
        }
    }
    properties(ctx);
}

/// The register (or outer index) of a declaration that a Gallium count bounds, with the
/// count and its name.
fn bound(ctx: &Ctx, decl: &Declaration) -> Option<(u32, u32, &'static str)> {
    let l = ctx.limits;
    let vertex = ctx.shader.processor == Processor::Vertex;
    Some(match decl.file {
        File::Input if vertex => (decl.last, l.max_vertex_attribs, "vertex attributes"),
        File::Input => (decl.last, l.max_shader_inputs, "shader inputs"),
        File::Output => (decl.last, l.max_shader_outputs, "shader outputs"),
        File::Sampler => (decl.last, l.max_samplers, "samplers"),
        File::SamplerView => (decl.last, l.max_sampler_views, "sampler views"),
        File::Image => (decl.last, l.max_shader_images, "images"),
        File::Buffer => (decl.last, l.max_shader_buffers, "shader buffers"),
        File::ConstBuf => (decl.last, l.max_constant_buffers, "constant buffers"),
        File::Constant => (decl.dimension?, l.max_constant_buffers, "constant buffers"),
        File::HwAtomic => (decl.dimension?, l.max_hw_atomic_buffers, "atomic buffers"),
        _ => return None,
    })
}

fn slots(ctx: &mut Ctx, decl: &Declaration) {
    let fname = decl.file.name();
    if let Some((index, count, what)) = bound(ctx, decl) {
        if index >= count {
            ctx.report(
                Code::SlotBeyondLimit,
                decl.span,
                format!("{fname} declaration reaches slot {index}; Gallium has {count} {what}"),
            );
        }
    }
    let Some(sem) = decl.semantic else {
        return;
    };
    let registers = u64::from(decl.last.saturating_sub(decl.first)) + 1;
    let reach = u64::from(sem.index) + registers;
    let fs_output = ctx.shader.processor == Processor::Fragment && decl.file == File::Output;
    let colors = ctx.limits.max_color_buffers;
    if sem.name == Semantic::Color && fs_output && reach > u64::from(colors) {
        ctx.report(
            Code::SlotBeyondLimit,
            decl.span,
            format!(
                "COLOR[{}] over {registers} register(s) reaches render target {}; Gallium has {colors} color buffers",
                sem.index,
                reach - 1
            ),
        );
    }
    if sem.name != Semantic::ClipDist {
        return;
    }
    let distances = reach * 4;
    let max = ctx.limits.max_clip_cull_distances;
    if distances > u64::from(max) {
        ctx.report(
            Code::SlotBeyondLimit,
            decl.span,
            format!(
                "CLIPDIST[{}] over {registers} register(s) reaches distance {}; Gallium has {max} clip/cull distances",
                sem.index,
                distances - 1
            ),
        );
    }
}

fn streams(ctx: &mut Ctx, decl: &Declaration) {
    let max = ctx.limits.max_vertex_streams;
    let Some(sem) = decl.semantic else {
        return;
    };
    if let Some(&s) = sem.streams.iter().find(|&&s| u32::from(s) >= max) {
        ctx.report(
            Code::StreamBeyondLimit,
            decl.span,
            format!("vertex stream {s}: Gallium has {max} streams"),
        );
    }
}

/// The stream operand of EMIT / ENDPRIM, when it is an immediate: its first selected
/// channel read as an unsigned integer (as tgsi_exec does).
fn emitted_stream(ctx: &mut Ctx, inst: &Instruction) {
    let Some(src) = inst.src.first() else {
        return;
    };
    let reg = src.reg;
    if reg.file != File::Immediate || reg.indirect.is_some() || reg.dimension.is_some() {
        return;
    }
    let Some(imm) = usize::try_from(reg.index)
        .ok()
        .and_then(|i| ctx.shader.immediates.get(i))
    else {
        return;
    };
    let Some(&stream) = imm.words.get(usize::from(src.swizzle.0[0])) else {
        return;
    };
    let max = ctx.limits.max_vertex_streams;
    if stream >= max {
        ctx.report(
            Code::StreamBeyondLimit,
            inst.span,
            format!(
                "{} on stream {stream} (IMM[{}]): Gallium has {max} streams",
                inst.opcode.name(),
                reg.index
            ),
        );
    }
}

fn properties(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let l = *ctx.limits;
    let capped = [
        (PropertyName::GsMaxOutputVertices, l.max_gs_output_vertices),
        (PropertyName::GsInvocations, l.max_gs_invocations),
        (PropertyName::TcsVerticesOut, l.max_patch_vertices),
    ];
    for prop in &shader.properties {
        if let Some(&(_, max)) = capped.iter().find(|(n, _)| *n == prop.name) {
            if prop.value > max {
                ctx.report(
                    Code::PropertyBeyondLimit,
                    prop.span,
                    format!("{} {}: the limit is {max}", prop.name.name(), prop.value),
                );
            }
        }
    }
    let last = |n: PropertyName| shader.properties.iter().rev().find(|p| p.name == n);
    let clip = last(PropertyName::NumClipdistEnabled);
    let cull = last(PropertyName::NumCulldistEnabled);
    let sum = [clip, cull]
        .iter()
        .flatten()
        .map(|p| u64::from(p.value))
        .sum::<u64>();
    if sum > u64::from(l.max_clip_cull_distances) {
        let span = cull.or(clip).map(|p| p.span).unwrap_or_default();
        ctx.report(
            Code::PropertyBeyondLimit,
            span,
            format!(
                "{sum} clip and cull distances: Gallium has {}",
                l.max_clip_cull_distances
            ),
        );
    }
    let block = [
        last(PropertyName::CsFixedBlockWidth),
        last(PropertyName::CsFixedBlockHeight),
        last(PropertyName::CsFixedBlockDepth),
    ];
    let Some(span) = block.iter().flatten().map(|p| p.span).max() else {
        return;
    };
    let sizes = block.map(|p| p.map_or(1, |p| p.value));
    let threads = sizes.iter().try_fold(1u32, |acc, &s| acc.checked_mul(s));
    let problem = match threads {
        None => "overflows 32 bits".to_string(),
        Some(t) if t > l.max_block_threads => {
            format!("is {t}, above the limit of {}", l.max_block_threads)
        }
        Some(_) => return,
    };
    ctx.report(
        Code::PropertyBeyondLimit,
        span,
        format!(
            "compute block {}x{}x{}: its thread count {problem}",
            sizes[0], sizes[1], sizes[2]
        ),
    );
}
