//! Texture rules: TEX-family instructions carry a target that agrees with the sampler view
//! declared for their sampler, texel offsets are at most four, SAMPLE* and TEX* opcodes are
//! not mixed, and once sampler views are declared every TEX-style sampler has one.

use super::context::Ctx;
use super::Code;
use crate::enums::{File, TextureTarget};
use crate::ir::{Instruction, ResourceDecl};
use crate::opcode::{self, Opcode};

/// The dimensionality class of a target (shadow and non-shadow variants share one);
/// `None` for UNKNOWN.
pub(super) fn target_class(t: TextureTarget) -> Option<TextureTarget> {
    use TextureTarget as T;
    Some(match t {
        T::Shadow1D => T::Tex1D,
        T::Shadow2D => T::Tex2D,
        T::ShadowRect => T::Rect,
        T::Shadow1DArray => T::Array1D,
        T::Shadow2DArray => T::Array2D,
        T::ShadowCube => T::Cube,
        T::ShadowCubeArray => T::CubeArray,
        T::Unknown => return None,
        other => other,
    })
}

/// Whether an opcode samples through a `SAMP` register whose view is implied (TEX style).
fn is_tex_style(op: Opcode) -> bool {
    op.info().has(opcode::TEX) && op != Opcode::SAMP2HND
}

/// Whether an opcode names its sampler view explicitly (SAMPLE style).
fn is_sample_style(op: Opcode) -> bool {
    op.info().has(opcode::SVIEW_OFFSETS) || matches!(op, Opcode::SVIEWINFO | Opcode::LOD)
}

/// Per-instruction texture rules.
pub(super) fn check_instruction(ctx: &mut Ctx, inst: &Instruction) {
    let info = inst.opcode.info();
    let span = inst.span;
    let Some(tex) = &inst.texture else {
        if info.has(opcode::TEX) {
            ctx.report(
                Code::MissingTextureTarget,
                span,
                format!("{} without a texture target", info.name),
            );
        }
        return;
    };
    if tex.offsets.len() > 4 {
        ctx.report(
            Code::TooManyOffsets,
            span,
            format!("{} texel offsets: at most 4", tex.offsets.len()),
        );
    }
    if !is_tex_style(inst.opcode) {
        return;
    }
    let Some(sampler) = inst.src.last().map(|s| s.reg) else {
        return;
    };
    if sampler.file != File::Sampler || sampler.indirect.is_some() || sampler.index < 0 {
        return;
    }
    let Some(decl) = ctx.resource(File::SamplerView, sampler.index as u32) else {
        return;
    };
    let Some(ResourceDecl::SamplerView { target: view, .. }) = decl.resource else {
        return;
    };
    let used = tex.target;
    let (Some(a), Some(b)) = (target_class(used), target_class(view)) else {
        return;
    };
    if a != b {
        ctx.report(
            Code::TextureTargetMismatch,
            span,
            format!(
                "{} with target {} on SAMP[{}], whose SVIEW is declared {} (at {})",
                info.name,
                used.name(),
                sampler.index,
                view.name(),
                decl.span
            ),
        );
    } else if view.is_shadow() != used.is_shadow() {
        ctx.report(
            Code::ShadowMismatch,
            span,
            format!(
                "{} with target {} on SVIEW[{}], declared {}",
                info.name,
                used.name(),
                sampler.index,
                view.name()
            ),
        );
    }
}

/// Shader-wide texture rules.
pub(super) fn check_shader(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let first_tex = shader.instructions.iter().find(|i| is_tex_style(i.opcode));
    let first_sample = shader
        .instructions
        .iter()
        .find(|i| is_sample_style(i.opcode));
    if let (Some(tex), Some(sample)) = (first_tex, first_sample) {
        let later = if tex.span > sample.span { tex } else { sample };
        ctx.report(
            Code::MixedSampling,
            later.span,
            format!(
                "{} and {} in one shader: the spec forbids mixing SAMPLE* and TEX* opcodes",
                tex.opcode.name(),
                sample.opcode.name()
            ),
        );
    }
    if first_tex.is_none() || !ctx.file_declared(File::SamplerView) {
        return;
    }
    // Lookups over all sampler declarations, bounding the work on hostile ranges.
    let mut budget: u32 = 1 << 16;
    for decl in &shader.declarations {
        if decl.file != File::Sampler || decl.first > decl.last || budget == 0 {
            continue;
        }
        let last = decl.last.min(decl.first.saturating_add(budget - 1));
        budget -= last - decl.first + 1;
        if let Some(index) =
            (decl.first..=last).find(|&i| !ctx.is_declared(File::SamplerView, 0, i))
        {
            ctx.report(
                Code::MissingSamplerView,
                decl.span,
                format!("SAMP[{index}] has no SVIEW[{index}], although the shader declares sampler views"),
            );
        }
    }
}
