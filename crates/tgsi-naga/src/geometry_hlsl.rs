//! A geometry shader as an HLSL geometry shader ([`geometry_hlsl`]): the translation a GLSL
//! geometry stage gets ([`crate::geometry_glsl`](fn@crate::geometry_glsl): a compute entry
//! point of one invocation calling empty functions to fill its inputs, emit a vertex, end a
//! strip and finish), written by naga's HLSL back end, with the geometry stage around it.
//!
//! HLSL hands a geometry shader its input vertices and its output stream as parameters of
//! the entry point, where functions cannot reach them, so naga's `main` becomes
//! `tgsi_gs_main`, and a new entry point `main` copies the input vertices to a private
//! array, runs it, then appends the vertices it recorded to the stream. EMIT records the
//! output registers' vertex (while fewer than `GS_MAX_OUTPUT_VERTICES` were emitted, as in
//! the interpreter) and ENDPRIM marks the last recorded vertex as the end of its strip
//! (`RestartStrip` after it). Varyings are `float4` members with naga's semantics for their
//! locations (`LOC{L}`, [`Options::varying_location`]), so a geometry shader links to naga's
//! vertex and pixel shaders; `POSITION`, `CLIPDIST` (as the varying and `SV_ClipDistance`),
//! `CLIPVERTEX` (distances to the user clip planes), `LAYER`, `VIEWPORT_INDEX` and `PRIMID`
//! outputs are HLSL's system values; a shader that reads no vertex still declares its
//! input vertices with a position (with an empty structure Slang loses the input
//! primitive). HLSL has several vertex streams for point lists (as GL has them: only with
//! points), as one `PointStream` each, but Slang, the only HLSL compiler the tests have,
//! implements none, so EMIT and ENDPRIM on streams other than 0 are refused, as are point
//! sizes (HLSL has none).

use std::fmt::Write as _;

use tgsi::enums::Primitive;
use tgsi::opcode::Opcode;
use tgsi::Shader;

use crate::error::{Error, Result};
use crate::geometry_glsl::{
    stream_of, translate_geometry_stage, GeometryStage, CLIP_DISTANCES, EMIT, END_PRIMITIVE,
    FINISH, INVOCATION, PRIMITIVE,
};
use crate::glsl_stage::{naga_text, replace_function_body, Braces, INPUTS, PROLOGUE};
use crate::hlsl_stage::{entry_point_as_function, input_members, structure, vertex_outputs};
use crate::targets::{Target, WriteOptions};
use crate::translate::Options;

/// What the writer declares: the input and output vertex structures, the entry point's
/// copies of its parameters and the recorded vertices.
const VERTEX_IN: &str = "TgsiGsVertexIn";
const VERTEX_OUT: &str = "TgsiGsVertexOut";
const INPUT_VERTICES: &str = "tgsi_gs_input_vertices";
const PRIMITIVE_ID: &str = "tgsi_gs_primitive_id";
const INSTANCE_ID: &str = "tgsi_gs_instance_id";
const RECORDED: &str = "tgsi_gs_vertices";
const STRIP_ENDS: &str = "tgsi_gs_strip_ends";
const RECORDED_COUNT: &str = "tgsi_gs_vertex_count";
/// What naga's `main` is renamed to.
const BODY: &str = "tgsi_gs_main";

/// Translates a geometry shader into an HLSL geometry shader (see the module
/// documentation): naga validates the translation, its HLSL back end writes it with
/// `write_options` (options for HLSL: [`crate::options_for_model`]), and the geometry
/// stage is written around it. Streams other than 0, point sizes, and inputs or outputs
/// HLSL has no place for are refused by name.
///
/// ```
/// let text = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE \
///             TRIANGLE_STRIP\nPROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL IN[][0], POSITION\n\
///             DCL OUT[0], POSITION\nIMM[0] UINT32 {0, 0, 0, 0}\n  0: MOV OUT[0], IN[0][0]\n\
///               1: EMIT IMM[0].xxxx\n  2: END\n";
/// let shader = tgsi::parse(text).unwrap();
/// let options = tgsi_naga::options_for(tgsi_naga::Target::Hlsl);
/// let hlsl = tgsi_naga::geometry_hlsl(&shader, &options, &Default::default()).unwrap();
/// assert!(hlsl.contains("[maxvertexcount(3)]"));
/// assert!(hlsl.contains("inout TriangleStream<TgsiGsVertexOut> tgsi_stream"));
/// ```
pub fn geometry_hlsl(
    shader: &Shader,
    options: &Options,
    write_options: &WriteOptions,
) -> Result<String> {
    for inst in &shader.instructions {
        if matches!(inst.opcode, Opcode::EMIT | Opcode::ENDPRIM) {
            if let Some(k @ 1..) = stream_of(shader, inst)? {
                return Err(Error::new(
                    inst.span,
                    inst.opcode.name(),
                    format!(
                        "names vertex stream {k}: HLSL geometry shaders have more than one \
                         stream only for point lists; this translation writes stream 0 only"
                    ),
                ));
            }
        }
    }
    let (module, stage) = translate_geometry_stage(shader, options)?;
    let hlsl = naga_text(&module, "GEOM", Target::Hlsl, write_options)?;
    write_stage(&stage, shader, options, &hlsl)
}

/// The geometry shader: naga's HLSL of the translation with the stage's parts.
fn write_stage(
    gs: &GeometryStage,
    shader: &Shader,
    options: &Options,
    hlsl: &str,
) -> Result<String> {
    const STAGE: &str = "HLSL geometry-shader";
    let layout = &gs.layout;
    let vertices = layout.vertices_per_primitive;
    let (mut inputs, read) = input_members(shader, options, STAGE, |_| true)?;
    if inputs.is_empty() {
        // A shader that reads no vertex still declares its primitive's vertices, which an
        // empty structure would not carry to every compiler (Slang loses the primitive).
        let position = ("float4", "position".to_string(), "SV_Position".to_string());
        inputs.insert(position.1.clone(), position);
    }
    let mut prologue =
        format!("    {PRIMITIVE} = {PRIMITIVE_ID};\n    {INVOCATION} = {INSTANCE_ID};\n");
    for (d, member) in &read {
        for v in 0..vertices {
            let slot = 1 + v * layout.input_stride + d.index;
            let _ = writeln!(
                prologue,
                "    {INPUTS}.inputs[{slot}] = asuint({INPUT_VERTICES}[{v}].{member});"
            );
        }
    }
    let clip_vertex = gs.clip_vertex.is_some().then_some(CLIP_DISTANCES);
    let (outputs, fill) = vertex_outputs(shader, &layout.outputs, options, STAGE, clip_vertex)?;
    let capacity = layout.max_vertices.max(1);
    let declarations = format!(
        "{}{}static {VERTEX_IN} {INPUT_VERTICES}[{vertices}];\n\
         static uint {PRIMITIVE_ID};\n\
         static uint {INSTANCE_ID};\n\
         static {VERTEX_OUT} {RECORDED}[{capacity}];\n\
         static bool {STRIP_ENDS}[{capacity}];\n\
         static uint {RECORDED_COUNT};\n\n",
        structure(VERTEX_IN, &inputs),
        structure(VERTEX_OUT, &outputs),
    );
    let emit = format!(
        "    if ({RECORDED_COUNT} >= {capacity}u) {{\n        return;\n    }}\n\
         \x20   {VERTEX_OUT} v = ({VERTEX_OUT})0;\n{fill}\
         \x20   {RECORDED}[{RECORDED_COUNT}] = v;\n\
         \x20   {STRIP_ENDS}[{RECORDED_COUNT}] = false;\n\
         \x20   {RECORDED_COUNT} += 1u;\n"
    );
    let end = format!(
        "    if ({RECORDED_COUNT} > 0u) {{\n        {STRIP_ENDS}[{RECORDED_COUNT} - 1u] = true;\n    }}\n"
    );
    let mut text = hlsl.to_string();
    for &(k, _, _) in &gs.streams {
        text = replace_function_body(&text, Braces::Hlsl, &format!("{EMIT}{k}"), &emit)?;
        text = replace_function_body(&text, Braces::Hlsl, &format!("{END_PRIMITIVE}{k}"), &end)?;
    }
    text = replace_function_body(&text, Braces::Hlsl, PROLOGUE, &prologue)?;
    text = replace_function_body(&text, Braces::Hlsl, FINISH, "")?;
    let text = entry_point_as_function(&text, BODY)?;
    let (primitive, stream) = hlsl_primitives(layout.input, layout.output);
    let entry = format!(
        "[maxvertexcount({capacity})]\n\
         [instance({instances})]\n\
         void main({primitive} {VERTEX_IN} tgsi_input[{vertices}], \
         uint tgsi_primitive_in : SV_PrimitiveID, uint tgsi_instance_in : SV_GSInstanceID, \
         inout {stream}<{VERTEX_OUT}> tgsi_stream)\n\
         {{\n\
         \x20   for (uint v = 0u; v < {vertices}u; v++) {{\n\
         \x20       {INPUT_VERTICES}[v] = tgsi_input[v];\n\
         \x20   }}\n\
         \x20   {PRIMITIVE_ID} = tgsi_primitive_in;\n\
         \x20   {INSTANCE_ID} = tgsi_instance_in;\n\
         \x20   {RECORDED_COUNT} = 0u;\n\
         \x20   {BODY}();\n\
         \x20   for (uint i = 0u; i < {RECORDED_COUNT}; i++) {{\n\
         \x20       tgsi_stream.Append({RECORDED}[i]);\n\
         \x20       if ({STRIP_ENDS}[i]) {{\n\
         \x20           tgsi_stream.RestartStrip();\n\
         \x20       }}\n\
         \x20   }}\n\
         }}\n",
        instances = layout.invocations,
    );
    Ok(format!("{declarations}{text}\n{entry}"))
}

/// HLSL's input primitive and output stream type.
fn hlsl_primitives(input: Primitive, output: Primitive) -> (&'static str, &'static str) {
    let input = match input {
        Primitive::Points => "point",
        Primitive::Lines => "line",
        Primitive::LinesAdjacency => "lineadj",
        Primitive::TrianglesAdjacency => "triangleadj",
        _ => "triangle",
    };
    let output = match output {
        Primitive::Points => "PointStream",
        Primitive::LineStrip => "LineStream",
        _ => "TriangleStream",
    };
    (input, output)
}
