//! Stage rules: which opcodes a stage may use (the opcode table's `stage` field), which
//! opcodes exist at all (legacy opcodes of older spec versions, removed `UNKnn` slots), and
//! which system values a stage provides.

use super::context::Ctx;
use super::Code;
use crate::enums::{File, Processor, Semantic};
use crate::opcode::{self, StageRestriction};

/// Runs the stage rules over every instruction and system-value declaration.
pub(super) fn check(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let stage = shader.processor;
    for inst in &shader.instructions {
        let info = inst.opcode.info();
        if info.has(opcode::GAP) {
            ctx.report(
                Code::GapOpcode,
                inst.span,
                format!("{} is a removed opcode slot, not an operation", info.name),
            );
        } else if info.has(opcode::LEGACY) {
            ctx.report(
                Code::LegacyOpcode,
                inst.span,
                format!(
                    "legacy opcode {} from an older spec version, not encodable in Mesa tokens",
                    info.name
                ),
            );
        }
        if !stage_allows(info.stage, stage) {
            ctx.report(
                Code::WrongStage,
                inst.span,
                format!(
                    "{} is only valid in {} shaders, not in {}",
                    info.name,
                    restriction_name(info.stage),
                    stage.name()
                ),
            );
        }
    }
    for decl in &shader.declarations {
        if decl.file != File::SystemValue {
            continue;
        }
        let Some(sem) = decl.semantic else {
            ctx.report(
                Code::ImplausibleSystemValue,
                decl.span,
                "system value declared without a semantic",
            );
            continue;
        };
        match system_value_stages(sem.name) {
            Some(stages) if !stages.contains(&stage) => ctx.report(
                Code::ImplausibleSystemValue,
                decl.span,
                format!(
                    "system value {} is not provided to {} shaders",
                    sem.name.name(),
                    stage.name()
                ),
            ),
            Some(_) => {}
            None => ctx.report(
                Code::ImplausibleSystemValue,
                decl.span,
                format!("{} is not a system value semantic", sem.name.name()),
            ),
        }
    }
}

/// Whether an opcode with restriction `r` may appear in a `stage` shader.
fn stage_allows(r: StageRestriction, stage: Processor) -> bool {
    match r {
        StageRestriction::Any => true,
        StageRestriction::Fragment => stage == Processor::Fragment,
        StageRestriction::Geometry => stage == Processor::Geometry,
        StageRestriction::Compute => stage == Processor::Compute,
        StageRestriction::ComputeOrTessCtrl => {
            matches!(stage, Processor::Compute | Processor::TessCtrl)
        }
    }
}

fn restriction_name(r: StageRestriction) -> &'static str {
    match r {
        StageRestriction::Any => "any",
        StageRestriction::Fragment => "fragment",
        StageRestriction::Geometry => "geometry",
        StageRestriction::Compute => "compute",
        StageRestriction::ComputeOrTessCtrl => "compute and tessellation-control",
    }
}

/// The stages that provide a system value; `Some(ALL)` for any stage, `None` when the
/// semantic is not a system value at all.
pub(super) fn system_value_stages(sem: Semantic) -> Option<&'static [Processor]> {
    use Processor::*;
    use Semantic as S;
    Some(match sem {
        S::Position | S::Face | S::SampleId | S::SamplePos | S::SampleMask => &[Fragment],
        S::HelperInvocation | S::Layer | S::ViewportIndex => &[Fragment],
        S::PrimId => &[TessCtrl, TessEval, Geometry, Fragment],
        S::InstanceId | S::VertexId | S::VertexIdNoBase | S::BaseVertex | S::BaseInstance => {
            &[Vertex]
        }
        S::DrawId => &[Vertex],
        S::InvocationId => &[TessCtrl, Geometry],
        S::TessCoord => &[TessEval],
        S::VerticesIn | S::TessOuter | S::TessInner => &[TessCtrl, TessEval],
        S::TessDefaultOuterLevel | S::TessDefaultInnerLevel => &[TessCtrl],
        S::GridSize | S::BlockId | S::BlockSize | S::ThreadId | S::WorkDim => &[Compute],
        S::CsUserDataAmd => &[Compute],
        S::SubgroupSize
        | S::SubgroupInvocation
        | S::SubgroupEqMask
        | S::SubgroupGeMask
        | S::SubgroupGtMask
        | S::SubgroupLeMask
        | S::SubgroupLtMask => Processor::ALL,
        _ => return None,
    })
}
