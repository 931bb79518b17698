//! Property rules: each property belongs to the stages named by [`PropertyName::stage`],
//! its value lies in the documented range, it is not given twice with different values,
//! and the properties a stage cannot do without are present.

use std::collections::HashMap;

use super::context::Ctx;
use super::Code;
use crate::enums::{Primitive, Processor, PropertyName};
use crate::ir::{Property, Span};

/// Runs the property rules.
pub(super) fn check(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let mut seen: HashMap<PropertyName, &Property> = HashMap::new();
    for prop in &shader.properties {
        let name = prop.name;
        if let Some(stages) = name.stage() {
            if !stages.contains(&shader.processor) {
                ctx.report(
                    Code::PropertyWrongStage,
                    prop.span,
                    format!(
                        "{} has no meaning in {} shaders",
                        name.name(),
                        shader.processor.name()
                    ),
                );
            }
        }
        if let Some(problem) = value_problem(name, prop.value) {
            ctx.report(
                Code::BadPropertyValue,
                prop.span,
                format!("{} {}: {problem}", name.name(), prop.value),
            );
        }
        match seen.get(&name) {
            Some(first) if first.value != prop.value => ctx.report(
                Code::DuplicateProperty,
                prop.span,
                format!(
                    "{} given again with value {} (first {} at {}); the last one wins",
                    name.name(),
                    prop.value,
                    first.value,
                    first.span
                ),
            ),
            Some(_) => {}
            None => {
                seen.insert(name, prop);
            }
        }
    }
    combined(ctx, &seen);
}

/// What is wrong with `value` for `name`, if anything.
fn value_problem(name: PropertyName, value: u32) -> Option<String> {
    use PropertyName as P;
    let prim = Primitive::from_number(value);
    let in_set = |set: &[Primitive], what: &str| match prim {
        Some(p) if set.contains(&p) => None,
        _ => Some(format!("not a {what} primitive")),
    };
    let at_most = |max: u32| (value > max).then(|| format!("the largest value is {max}"));
    match name {
        P::GsInputPrimitive => in_set(
            &[
                Primitive::Points,
                Primitive::Lines,
                Primitive::LinesAdjacency,
                Primitive::Triangles,
                Primitive::TrianglesAdjacency,
            ],
            "geometry input",
        ),
        P::GsOutputPrimitive => in_set(
            &[
                Primitive::Points,
                Primitive::LineStrip,
                Primitive::TriangleStrip,
            ],
            "geometry output",
        ),
        P::TesPrimMode => in_set(
            &[Primitive::Lines, Primitive::Triangles, Primitive::Quads],
            "tessellation",
        ),
        P::GsInvocations => (value == 0).then(|| "at least one invocation".to_string()),
        P::TcsVerticesOut => (value == 0).then(|| "a patch has at least one vertex".to_string()),
        P::FsCoordOrigin | P::FsCoordPixelCenter => at_most(1),
        P::FsDepthLayout => at_most(4),
        P::TesSpacing => at_most(2),
        P::NextShader => Processor::from_number(value)
            .is_none()
            .then(|| "not a processor".to_string()),
        P::FsColor0WritesAllCbufs
        | P::VsProhibitUcps
        | P::VsWindowSpacePosition
        | P::TesVertexOrderCw
        | P::FsEarlyDepthStencil
        | P::FsPostDepthCoverage
        | P::LegacyMathRules
        | P::LayerViewportRelative => at_most(1),
        _ => None,
    }
}

/// Rules over several properties at once.
fn combined(ctx: &mut Ctx, seen: &HashMap<PropertyName, &Property>) {
    let shader = ctx.shader;
    let value = |n: PropertyName| seen.get(&n).map(|p| p.value);
    let header = if shader.properties.iter().any(|p| p.span.is_text()) {
        Span::new(1, 1)
    } else {
        Span::default()
    };
    if shader.processor == Processor::Geometry {
        for name in [
            PropertyName::GsInputPrimitive,
            PropertyName::GsOutputPrimitive,
            PropertyName::GsMaxOutputVertices,
        ] {
            if value(name).is_none() {
                ctx.report(
                    Code::MissingProperty,
                    header,
                    format!("geometry shader without {}", name.name()),
                );
            }
        }
    }
    if let Some(p) = seen.get(&PropertyName::FsPostDepthCoverage) {
        if p.value != 0 && value(PropertyName::FsEarlyDepthStencil).unwrap_or(0) == 0 {
            ctx.report(
                Code::MissingProperty,
                p.span,
                "FS_POST_DEPTH_COVERAGE is valid only together with FS_EARLY_DEPTH_STENCIL",
            );
        }
    }
    let block = [
        PropertyName::CsFixedBlockWidth,
        PropertyName::CsFixedBlockHeight,
        PropertyName::CsFixedBlockDepth,
    ];
    let sizes = block.map(|n| value(n).unwrap_or(0));
    if sizes.contains(&0) && sizes.iter().any(|&s| s != 0) {
        let span = block
            .iter()
            .find_map(|n| seen.get(n).map(|p| p.span))
            .unwrap_or(header);
        ctx.report(
            Code::BadPropertyValue,
            span,
            format!(
                "fixed block size {}x{}x{}: either all three are at least 1 or none is given",
                sizes[0], sizes[1], sizes[2]
            ),
        );
    }
}
