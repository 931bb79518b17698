//! A tessellation control and evaluation shader pair as an HLSL hull and domain shader
//! ([`tessellation_hlsl`]), written around naga's HLSL of the translations a GLSL
//! tessellation stage gets ([`crate::tessellation_glsl`]; see [`crate::hlsl_stage`]).
//!
//! **Hull.** HLSL declares on the hull shader what TGSI declares on the evaluation shader
//! (the domain, spacing, winding and point mode), and fixes the input patch's size, which
//! a TGSI control shader reads at run time (`VERTICESIN`): both are arguments. A TGSI
//! control shader is one program per output vertex writing its own vertex and any
//! per-patch output; HLSL splits that into a control-point function, which returns one
//! vertex, and a patch-constant function, which returns the per-patch values. The
//! control-point function (`main`) runs the translation as invocation
//! `SV_OutputControlPointID` and returns its vertex from the private output file; the
//! patch-constant function runs the translation for every invocation in order, the
//! output file kept between them, and returns the tessellation factors and `PATCH`
//! outputs as they are at the end. Invocations run one after another there, not side by
//! side, so BARRIER (which would make an invocation wait for the others) is refused: HLSL's
//! control points cannot synchronise. As in the interpreter, per-patch outputs nobody
//! writes are zero; a channel several invocations write with different values (a race in
//! GL without BARRIER) keeps the value of the last invocation that writes it.
//!
//! **Domain.** The evaluation shader reads the control points (`OutputPatch`), the
//! per-patch values, `SV_DomainLocation` (TESSCOORD: `(u, v, w, 0)` for triangles, `(u, v,
//! 0, 0)` for quads and isolines), the factors as TESSOUTER and TESSINNER, and
//! `SV_PrimitiveID`; its outputs leave as a vertex shader's would. The levels reach it as
//! the control shader wrote them (all four outer and both inner ones, in patch constants
//! of their own beside the factors, which hold only what the domain uses), or GL's default
//! levels (1.0) where the control shader declares none, as the interpreter takes the
//! host's. TGSI follows GL, whose
//! tessellation domain has its origin at the lower left where D3D's is at the upper left,
//! so GL's clockwise winding is D3D's counter-clockwise (Vulkan's specification describes
//! the same flip between its two domain origins).

use std::fmt::Write as _;

use tgsi::enums::{File, Semantic};
use tgsi::ir::Span;
use tgsi::opcode::Opcode;
use tgsi::{Processor, Shader};

use crate::error::{Error, Result};
use crate::glsl_stage::{declared, naga_text, replace_function_body, Braces, INPUTS, PROLOGUE};
use crate::hlsl_stage::{
    entry_point_as_function, input_members, structure, vertex_member, vertex_outputs, Members,
};
use crate::targets::{Target, WriteOptions};
use crate::tess_compute::control_vertices_out;
use crate::tess_glsl::{
    TessLayout, TessPrimitive, TessSpacing, BARRIER, END, GATHER, INVOCATION, OUTPUT_FILE,
    PRIMITIVE, PUBLISH, TESS_COORD, TESS_INNER, TESS_OUTER, VERTICES_IN,
};
use crate::translate::Options;
use crate::vertex_compute::{declared_outputs, vertex_io_strides};

/// The structures the stages pass.
const VERTEX_IN: &str = "TgsiHsVertexIn";
const CONTROL_POINT: &str = "TgsiHsControlPoint";
const PATCH: &str = "TgsiHsPatch";
const VERTEX_OUT: &str = "TgsiDsVertexOut";
/// The entry points' copies of their parameters.
const PATCH_IN: &str = "tgsi_patch_vertices";
const CONSTANTS_IN: &str = "tgsi_patch_constants_in";
const PRIMITIVE_ID: &str = "tgsi_primitive_id";
const INVOCATION_ID: &str = "tgsi_invocation_id";
const DOMAIN_LOCATION: &str = "tgsi_domain_location";
const DOMAIN_OUT: &str = "tgsi_domain_vertex";
/// The patch-constant function, and what naga's `main` is renamed to.
const PATCH_CONSTANTS: &str = "tgsi_patch_constants";
const BODY: &str = "tgsi_tess_main";

/// The tessellator's configuration, from the evaluation shader's properties.
struct Domain {
    /// HLSL's domain (`tri`, `quad`, `isoline`) and the size of the location in it.
    name: &'static str,
    location: u32,
    /// Outer and inner factors.
    outer: u32,
    inner: u32,
    partitioning: &'static str,
    topology: &'static str,
}

impl Domain {
    fn of(evaluation: &Shader) -> Result<Domain> {
        let layout = TessLayout::of(evaluation)?;
        let (name, location, outer, inner) = match layout.primitive {
            TessPrimitive::Triangles => ("tri", 3, 3, 1),
            TessPrimitive::Quads => ("quad", 2, 4, 2),
            TessPrimitive::Isolines => ("isoline", 2, 2, 0),
        };
        let partitioning = match layout.spacing {
            TessSpacing::FractionalOdd => "fractional_odd",
            TessSpacing::FractionalEven => "fractional_even",
            TessSpacing::Equal => "integer",
        };
        let topology = if layout.points {
            "point"
        } else if layout.primitive == TessPrimitive::Isolines {
            "line"
        } else if layout.clockwise {
            "triangle_ccw"
        } else {
            "triangle_cw"
        };
        Ok(Domain {
            name,
            location,
            outer,
            inner,
            partitioning,
            topology,
        })
    }
}

/// Translates a tessellation control shader and the evaluation shader it feeds into an
/// HLSL hull shader and domain shader (in that order; see the module documentation), for
/// input patches of `patch_vertices_in` vertices (GL's `GL_PATCH_VERTICES`; TGSI leaves it
/// to the draw, HLSL fixes it in the hull shader's signature). naga validates each
/// translation and its HLSL back end writes it with `write_options` (options for HLSL:
/// [`crate::options_for_model`]). BARRIER, point sizes, and inputs or outputs HLSL has no
/// place for are refused by name; an error comes with the processor of the shader it is
/// in.
///
/// ```
/// let tcs = "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\n\
///            DCL SV[0], INVOCATIONID\nDCL OUT[][0], POSITION\nDCL OUT[1], TESSOUTER\n\
///            DCL OUT[2], TESSINNER\nDCL ADDR[0]\nIMM[0] FLT32 {4.0, 0.0, 0.0, 0.0}\n\
///              0: UARL ADDR[0].x, SV[0].xxxx\n  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n\
///              2: MOV OUT[1], IMM[0].xxxx\n  3: MOV OUT[2], IMM[0].xxxx\n  4: END\n";
/// let tes = "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 2\n\
///            DCL IN[][0], POSITION\nDCL SV[0], TESSCOORD\nDCL OUT[0], POSITION\n\
///              0: MUL OUT[0], IN[0][0], SV[0].xxxx\n  1: END\n";
/// let (tcs, tes) = (tgsi::parse(tcs).unwrap(), tgsi::parse(tes).unwrap());
/// let options = tgsi_naga::options_for(tgsi_naga::Target::Hlsl);
/// let [hull, domain] =
///     tgsi_naga::tessellation_hlsl(&tcs, &tes, 3, &options, &Default::default()).unwrap();
/// assert!(hull.contains("[patchconstantfunc(\"tgsi_patch_constants\")]"));
/// assert!(domain.contains("[domain(\"tri\")]"));
/// ```
pub fn tessellation_hlsl(
    control: &Shader,
    evaluation: &Shader,
    patch_vertices_in: u32,
    options: &Options,
    write_options: &WriteOptions,
) -> std::result::Result<[String; 2], (Processor, Error)> {
    for (shader, processor) in [
        (control, Processor::TessCtrl),
        (evaluation, Processor::TessEval),
    ] {
        if shader.processor != processor {
            let error = Error::new(
                Span::default(),
                shader.processor.name(),
                format!("is not a {} shader", processor.name()),
            );
            return Err((processor, error));
        }
    }
    let domain = Domain::of(evaluation).map_err(|e| (Processor::TessEval, e))?;
    let hull = hull(control, &domain, patch_vertices_in, options, write_options)
        .map_err(|e| (Processor::TessCtrl, e))?;
    let (hull, vertices_out, control_points, patch) = hull;
    let (module, _) = crate::translate::translate_one_invocation(evaluation, options)
        .map_err(|e| (Processor::TessEval, e))?;
    let domain_shader = naga_text(&module, "TESS_EVAL", Target::Hlsl, write_options)
        .and_then(|text| {
            domain_hlsl(
                evaluation,
                options,
                &text,
                &domain,
                vertices_out,
                &control_points,
                &patch,
            )
        })
        .map_err(|e| (Processor::TessEval, e))?;
    Ok([hull, domain_shader])
}

/// The hull shader of [`tessellation_hlsl`], the output vertices, and the members of its
/// control points and of its patch constants.
fn hull(
    control: &Shader,
    domain: &Domain,
    patch_vertices_in: u32,
    options: &Options,
    write_options: &WriteOptions,
) -> Result<(String, u32, Members, Members)> {
    let most = tgsi::Limits::default().max_patch_vertices;
    if !(1..=most).contains(&patch_vertices_in) {
        return Err(Error::new(
            Span::default(),
            "TESS_CTRL",
            format!("an input patch of {patch_vertices_in} vertices (1 to {most})"),
        ));
    }
    if let Some(inst) = control
        .instructions
        .iter()
        .find(|i| i.opcode == Opcode::BARRIER)
    {
        return Err(Error::new(
            inst.span,
            "BARRIER",
            "HLSL's control points cannot wait for each other: the hull shader runs the \
             control shader's invocations one after another",
        ));
    }
    let vertices_out = control_vertices_out(control)?;
    let (module, _) = crate::translate::translate_one_invocation(control, options)?;
    let text = naga_text(&module, "TESS_CTRL", Target::Hlsl, write_options)?;
    let (hull, control_points, patch) = hull_hlsl(
        control,
        options,
        &text,
        domain,
        patch_vertices_in,
        vertices_out,
    )?;
    Ok((hull, vertices_out, control_points, patch))
}

/// The hull shader; with the members of its control points and of its patch constants.
fn hull_hlsl(
    shader: &Shader,
    options: &Options,
    hlsl: &str,
    domain: &Domain,
    vertices_in: u32,
    vertices_out: u32,
) -> Result<(String, Members, Members)> {
    const STAGE: &str = "HLSL hull-shader";
    let (input_stride, stride) = vertex_io_strides(shader);
    let (inputs, read) = input_members(shader, options, STAGE, |d| d.per_vertex)?;
    if let Some(d) = declared(shader, File::Input)
        .iter()
        .find(|d| !d.per_vertex && d.semantic != Some(Semantic::PrimId))
    {
        return Err(d.refuse("IN", format!("a per-patch input has no {STAGE} input")));
    }
    let mut prologue = format!(
        "    {VERTICES_IN} = {vertices_in}u;\n    {PRIMITIVE} = {PRIMITIVE_ID};\n\
         \x20   {INVOCATION} = {INVOCATION_ID};\n"
    );
    // One loop (HLSL's loop variables outlive their loops).
    let mut copies = String::new();
    for (d, member) in &read {
        let _ = writeln!(
            copies,
            "        {INPUTS}.inputs[1u + v * {input_stride}u + {}u] = asuint({PATCH_IN}[v].{member});",
            d.index
        );
    }
    let _ = write!(
        prologue,
        "    for (uint v = 0u; v < {vertices_in}u; v++) {{\n{copies}    }}\n"
    );
    // The control point: the invocation's own vertex of the output file.
    let (mut point, mut patch) = (Members::new(), Members::new());
    let mut return_point = String::new();
    let mut return_patch = String::new();
    let file = |slot: String| format!("{OUTPUT_FILE}.outputs[{slot}]");
    let outer = (
        "float",
        format!("outer[{}]", domain.outer),
        "SV_TessFactor".to_string(),
    );
    patch.insert("outer".into(), outer);
    if domain.inner > 0 {
        let name = match domain.inner {
            1 => "inner".to_string(),
            n => format!("inner[{n}]"),
        };
        patch.insert(
            "inner".into(),
            ("float", name, "SV_InsideTessFactor".into()),
        );
    }
    // The levels' words: the output file's, or GL's default levels (1.0) where the shader
    // declares none (as the interpreter takes the host's defaults then).
    let mut levels: [Option<String>; 2] = [None, None];
    for d in declared(shader, File::Output) {
        let Some(semantic) = d.semantic else {
            return Err(d.refuse("OUT", "an output needs a semantic"));
        };
        if d.per_vertex {
            let member = vertex_member(options, semantic, d.semantic_index, "POSITION")
                .ok_or_else(|| d.refuse("OUT", format!("{semantic} has no {STAGE} output")))?;
            let words = file(format!("1u + {INVOCATION_ID} * {stride}u + {}u", d.index));
            let _ = writeln!(return_point, "    p.{} = asfloat({words});", member.1);
            point.insert(member.1.clone(), member);
            continue;
        }
        let words = file(format!("{}u", 1 + d.index));
        match semantic {
            Semantic::TessOuter => levels[0] = Some(words),
            Semantic::TessInner => levels[1] = Some(words),
            Semantic::Patch => {
                let name = format!("patch{}", d.semantic_index);
                let _ = writeln!(return_patch, "    p.{name} = asfloat({words});");
                let hlsl_semantic = format!("PATCH{}", d.semantic_index);
                patch.insert(name.clone(), ("float4", name, hlsl_semantic));
            }
            _ => {
                return Err(d.refuse(
                    "OUT",
                    format!("a per-patch {semantic} has no {STAGE} output"),
                ))
            }
        }
    }
    // The factors the tessellator takes, and the levels as written for the domain shader
    // (which reads all four outer and both inner levels, whatever the domain uses).
    let [outer, inner] =
        levels.map(|l| l.unwrap_or_else(|| "asuint(float4(1.0, 1.0, 1.0, 1.0))".into()));
    for (c, letter) in ["x", "y", "z", "w"]
        .iter()
        .enumerate()
        .take(domain.outer as usize)
    {
        let _ = writeln!(
            return_patch,
            "    p.outer[{c}] = asfloat({outer}.{letter});"
        );
    }
    match domain.inner {
        1 => {
            let _ = writeln!(return_patch, "    p.inner = asfloat({inner}.x);");
        }
        n => {
            for (c, letter) in ["x", "y"].iter().enumerate().take(n as usize) {
                let _ = writeln!(
                    return_patch,
                    "    p.inner[{c}] = asfloat({inner}.{letter});"
                );
            }
        }
    }
    let _ = writeln!(
        return_patch,
        "    p.levels_outer = asfloat({outer});\n    p.levels_inner = asfloat({inner}.xy);"
    );
    for (ty, name, semantic) in [
        ("float4", "levels_outer", "TGSI_TESS_OUTER"),
        ("float2", "levels_inner", "TGSI_TESS_INNER"),
    ] {
        patch.insert(name.into(), (ty, name.into(), semantic.into()));
    }
    let mut text = hlsl.to_string();
    text = replace_function_body(&text, Braces::Hlsl, PROLOGUE, &prologue)?;
    for empty in [PUBLISH, GATHER, BARRIER] {
        text = replace_function_body(&text, Braces::Hlsl, empty, "")?;
    }
    let text = entry_point_as_function(&text, BODY)?;
    // The primitive's number, where the shader reads it: the control-point function takes
    // `SV_PrimitiveID` and hands it to the patch-constant function in its control points
    // (Slang, which the tests compile with, crashes on `SV_PrimitiveID` as a parameter of
    // a patch-constant function, which D3D allows).
    let reads_primitive = shader
        .declarations
        .iter()
        .any(|d| d.semantic.is_some_and(|s| s.name == Semantic::PrimId));
    let (primitive_parameter, points_parameter, patch_primitive) = if reads_primitive {
        let member = (
            "uint",
            "primitive".to_string(),
            "TGSI_PRIMITIVE_ID".to_string(),
        );
        point.insert(member.1.clone(), member);
        let _ = writeln!(return_point, "    p.primitive = tgsi_primitive_in;");
        (
            ", uint tgsi_primitive_in : SV_PrimitiveID",
            format!(", const OutputPatch<{CONTROL_POINT}, {vertices_out}> tgsi_points"),
            "tgsi_points[0].primitive",
        )
    } else {
        ("", String::new(), "0u")
    };
    let declarations = format!(
        "{}{}{}static {VERTEX_IN} {PATCH_IN}[{vertices_in}];\nstatic uint {PRIMITIVE_ID};\n\
         static uint {INVOCATION_ID};\n\n",
        structure(VERTEX_IN, &inputs),
        structure(CONTROL_POINT, &point),
        structure(PATCH, &patch),
    );
    let copy_inputs = |primitive: &str| {
        format!(
            "    for (uint v = 0u; v < {vertices_in}u; v++) {{\n        {PATCH_IN}[v] = tgsi_patch[v];\n    }}\n\
             \x20   {PRIMITIVE_ID} = {primitive};\n"
        )
    };
    let main_primitive = if reads_primitive {
        "tgsi_primitive_in"
    } else {
        "0u"
    };
    let entries = format!(
        "{PATCH} {PATCH_CONSTANTS}(InputPatch<{VERTEX_IN}, {vertices_in}> tgsi_patch\
         {points_parameter})\n{{\n{}\
         \x20   for (uint i = 0u; i < {vertices_out}u; i++) {{\n        {INVOCATION_ID} = i;\n        {BODY}();\n    }}\n\
         \x20   {PATCH} p = ({PATCH})0;\n{return_patch}    return p;\n}}\n\n\
         [domain(\"{}\")]\n[partitioning(\"{}\")]\n[outputtopology(\"{}\")]\n\
         [outputcontrolpoints({vertices_out})]\n[patchconstantfunc(\"{PATCH_CONSTANTS}\")]\n\
         {CONTROL_POINT} main(InputPatch<{VERTEX_IN}, {vertices_in}> tgsi_patch, \
         uint tgsi_point : SV_OutputControlPointID{primitive_parameter})\n{{\n\
         {}    {INVOCATION_ID} = tgsi_point;\n    {BODY}();\n\
         \x20   {CONTROL_POINT} p = ({CONTROL_POINT})0;\n{return_point}    return p;\n}}\n",
        copy_inputs(patch_primitive),
        domain.name,
        domain.partitioning,
        domain.topology,
        copy_inputs(main_primitive),
    );
    Ok((format!("{declarations}{text}\n{entries}"), point, patch))
}

/// The domain shader, reading the hull shader's control points and patch constants.
fn domain_hlsl(
    shader: &Shader,
    options: &Options,
    hlsl: &str,
    domain: &Domain,
    vertices: u32,
    control_points: &Members,
    patch: &Members,
) -> Result<String> {
    const STAGE: &str = "HLSL domain-shader";
    let (stride, _) = vertex_io_strides(shader);
    let location = match domain.location {
        3 => format!("float4({DOMAIN_LOCATION}, 0.0)"),
        _ => format!("float4({DOMAIN_LOCATION}, 0.0, 0.0)"),
    };
    let mut prologue = format!(
        "    {VERTICES_IN} = {vertices}u;\n    {PRIMITIVE} = {PRIMITIVE_ID};\n\
         \x20   {TESS_COORD} = asuint({location});\n\
         \x20   {TESS_OUTER} = asuint({CONSTANTS_IN}.levels_outer);\n\
         \x20   {TESS_INNER} = asuint(float4({CONSTANTS_IN}.levels_inner, 0.0, 0.0));\n"
    );
    let mut copies = String::new();
    for d in declared(shader, File::Input) {
        let Some(semantic) = d.semantic else {
            return Err(d.refuse("IN", format!("an {STAGE} input needs a semantic")));
        };
        if d.per_vertex {
            let member = vertex_member(options, semantic, d.semantic_index, "POSITION")
                .ok_or_else(|| d.refuse("IN", format!("{semantic} has no {STAGE} input")))?;
            // What the control shader does not write reads zero.
            if control_points.contains_key(&member.1) {
                let _ = writeln!(
                    copies,
                    "        {INPUTS}.inputs[1u + v * {stride}u + {}u] = asuint(tgsi_patch[v].{});",
                    d.index, member.1
                );
            }
            continue;
        }
        let words = match semantic {
            Semantic::PrimId => format!("uint4({PRIMITIVE_ID}, 0u, 0u, 0u)"),
            Semantic::TessOuter => TESS_OUTER.to_string(),
            Semantic::TessInner => TESS_INNER.to_string(),
            Semantic::Patch => {
                let name = format!("patch{}", d.semantic_index);
                if !patch.contains_key(&name) {
                    continue;
                }
                format!("asuint({CONSTANTS_IN}.{name})")
            }
            _ => return Err(d.refuse("IN", format!("a per-patch {semantic} has no {STAGE} input"))),
        };
        let _ = writeln!(prologue, "    {INPUTS}.inputs[{}] = {words};", 1 + d.index);
    }
    // One loop (HLSL's loop variables outlive their loops).
    let _ = write!(
        prologue,
        "    for (uint v = 0u; v < {vertices}u; v++) {{\n{copies}    }}\n"
    );
    let (outputs, fill) = vertex_outputs(shader, &declared_outputs(shader), options, STAGE, None)?;
    let end = format!("    {VERTEX_OUT} v = ({VERTEX_OUT})0;\n{fill}    {DOMAIN_OUT} = v;\n");
    let mut text = hlsl.to_string();
    text = replace_function_body(&text, Braces::Hlsl, PROLOGUE, &prologue)?;
    text = replace_function_body(&text, Braces::Hlsl, END, &end)?;
    let text = entry_point_as_function(&text, BODY)?;
    let location_type = if domain.location == 3 {
        "float3"
    } else {
        "float2"
    };
    let declarations = format!(
        "{}{}{}static {CONTROL_POINT} tgsi_patch[{vertices}];\nstatic {PATCH} {CONSTANTS_IN};\n\
         static {location_type} {DOMAIN_LOCATION};\nstatic uint {PRIMITIVE_ID};\n\
         static {VERTEX_OUT} {DOMAIN_OUT};\n\n",
        structure(CONTROL_POINT, control_points),
        structure(PATCH, patch),
        structure(VERTEX_OUT, &outputs),
    );
    let entry = format!(
        "[domain(\"{}\")]\n{VERTEX_OUT} main({PATCH} tgsi_constants, \
         {location_type} tgsi_location : SV_DomainLocation, \
         const OutputPatch<{CONTROL_POINT}, {vertices}> tgsi_points, \
         uint tgsi_primitive_in : SV_PrimitiveID)\n{{\n\
         \x20   for (uint v = 0u; v < {vertices}u; v++) {{\n        tgsi_patch[v] = tgsi_points[v];\n    }}\n\
         \x20   {CONSTANTS_IN} = tgsi_constants;\n    {DOMAIN_LOCATION} = tgsi_location;\n\
         \x20   {PRIMITIVE_ID} = tgsi_primitive_in;\n    {BODY}();\n    return {DOMAIN_OUT};\n}}\n",
        domain.name,
    );
    Ok(format!("{declarations}{text}\n{entry}"))
}
