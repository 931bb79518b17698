//! What the HLSL stages naga lacks — geometry ([`crate::geometry_hlsl`](fn@crate::geometry_hlsl))
//! and hull and domain ([`crate::tessellation_hlsl`]) — share. As for GLSL
//! ([`crate::glsl_stage()`]), the shader is translated as a compute entry point of one
//! invocation whose stage-specific parts are private variables and calls of empty
//! functions; naga's HLSL back end writes it, its `main` becomes a plain function, the
//! empty functions get HLSL bodies, and a new entry point with the stage's signature copies
//! its parameters where those bodies read them, calls the old `main` and returns or
//! appends what the stage produces.
//!
//! Vertices cross stages as structures of `float4` members with naga's semantics for
//! varying locations (`LOC{L}`, [`Options::varying_location`]), so the stages link with
//! naga's vertex and pixel shaders, and system values where HLSL has them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use tgsi::enums::Semantic;
use tgsi::Shader;

use crate::error::Result;
use crate::glsl_stage::{declared, Declared, OUTPUTS};
use crate::interface::CLIP_PLANES;
use crate::translate::Options;

/// A member of a vertex structure: its HLSL type, its name (with an array size, if any)
/// and its semantic.
pub(crate) type Member = (&'static str, String, String);

/// The members of a structure by name.
pub(crate) type Members = BTreeMap<String, Member>;

/// naga's HLSL with its compute entry point turned into the function `name`.
pub(crate) fn entry_point_as_function(hlsl: &str, name: &str) -> Result<String> {
    let compute_entry = "[numthreads(1, 1, 1)]\nvoid main()\n";
    if !hlsl.contains(compute_entry) {
        return Err(crate::glsl_stage::defect("HLSL", "no compute entry point"));
    }
    Ok(hlsl.replacen(compute_entry, &format!("void {name}()\n"), 1))
}

/// The member a per-vertex input or output of `semantic[index]` is carried in: `position`
/// (`position_semantic`) or the varying of its location; `None` where HLSL has no place
/// for it (a point size among them).
pub(crate) fn vertex_member(
    options: &Options,
    semantic: Semantic,
    index: u32,
    position_semantic: &str,
) -> Option<Member> {
    match semantic {
        Semantic::Position => Some(("float4", "position".into(), position_semantic.into())),
        Semantic::PSize | Semantic::ClipVertex => None,
        _ => {
            let l = options.varying_location(semantic, index)?;
            Some(("float4", format!("loc{l}"), format!("LOC{l}")))
        }
    }
}

/// The members of the declared per-vertex inputs of `shader` (`per_vertex` filters them)
/// and the inputs with them, refusing those HLSL has no place for; PRIMID inputs are left
/// to the caller.
pub(crate) fn input_members(
    shader: &Shader,
    options: &Options,
    stage: &str,
    per_vertex: impl Fn(&Declared) -> bool,
) -> Result<(Members, Vec<(Declared, String)>)> {
    let mut members = Members::new();
    let mut inputs = Vec::new();
    for d in declared(shader, tgsi::enums::File::Input) {
        if !per_vertex(&d) {
            continue;
        }
        let Some(semantic) = d.semantic else {
            return Err(d.refuse("IN", format!("an {stage} input needs a semantic")));
        };
        if semantic == Semantic::PrimId {
            continue;
        }
        let Some(member) = vertex_member(options, semantic, d.semantic_index, "SV_Position") else {
            return Err(d.refuse("IN", format!("{semantic} has no {stage} input")));
        };
        inputs.push((d, member.1.clone()));
        members.insert(member.1.clone(), member);
    }
    Ok((members, inputs))
}

/// The members of a vertex leaving for the rasterizer (or a geometry shader), and the
/// statements filling a vertex `v` from `tgsi_outputs[k]`, the declared output `registers[k]`:
/// positions, clip distances (the varying and `SV_ClipDistance`), layers, viewports and
/// primitive ids as system values; a CLIPVERTEX output where `clip_vertex` names the
/// private distances the translation computed.
pub(crate) fn vertex_outputs(
    shader: &Shader,
    registers: &[u32],
    options: &Options,
    stage: &str,
    clip_vertex: Option<&str>,
) -> Result<(Members, String)> {
    let mut members = Members::new();
    let mut fill = String::new();
    let declared = declared(shader, tgsi::enums::File::Output);
    let clip = |members: &mut Members| {
        members.insert(
            "clip".into(),
            (
                "float",
                format!("clip[{CLIP_PLANES}]"),
                "SV_ClipDistance".into(),
            ),
        );
    };
    for (k, &index) in registers.iter().enumerate() {
        let Some(d) = declared.iter().find(|d| d.index == index) else {
            continue;
        };
        let Some(semantic) = d.semantic else {
            return Err(d.refuse("OUT", "an output needs a semantic"));
        };
        let words = format!("{OUTPUTS}[{k}]");
        let system = |name: &str, hlsl_semantic: &str| {
            let line = format!("    v.{name} = {words}.x;\n");
            (line, ("uint", name.to_string(), hlsl_semantic.to_string()))
        };
        let (line, member) = match semantic {
            Semantic::Layer => system("layer", "SV_RenderTargetArrayIndex"),
            Semantic::ViewportIndex => system("viewport", "SV_ViewportArrayIndex"),
            Semantic::PrimId => system("primitive", "SV_PrimitiveID"),
            Semantic::ClipVertex => {
                let Some(distances) = clip_vertex else {
                    return Err(d.refuse("OUT", format!("CLIPVERTEX has no {stage} output")));
                };
                clip(&mut members);
                for i in 0..CLIP_PLANES {
                    let _ = writeln!(fill, "    v.clip[{i}] = {distances}[{i}];");
                }
                continue;
            }
            _ => {
                let member = vertex_member(options, semantic, d.semantic_index, "SV_Position")
                    .ok_or_else(|| d.refuse("OUT", format!("{semantic} has no {stage} output")))?;
                if semantic == Semantic::ClipDist {
                    // Pixel shaders read the varying; clipping uses the system value.
                    clip(&mut members);
                    for c in 0..4 {
                        let i = 4 * d.semantic_index + c;
                        if i < CLIP_PLANES {
                            let _ = writeln!(fill, "    v.clip[{i}] = asfloat({words}[{c}]);");
                        }
                    }
                }
                (format!("    v.{} = asfloat({words});\n", member.1), member)
            }
        };
        fill.push_str(&line);
        members.insert(member.1.clone(), member);
    }
    Ok((members, fill))
}

/// The HLSL declaration of the structure `name` of `members`.
pub(crate) fn structure(name: &str, members: &Members) -> String {
    let mut text = format!("struct {name} {{\n");
    for (ty, member, semantic) in members.values() {
        let _ = writeln!(text, "    {ty} {member} : {semantic};");
    }
    text.push_str("};\n\n");
    text
}
