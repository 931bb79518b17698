//! Tessellation shaders as GLSL tessellation control and evaluation shaders
//! ([`tessellation_glsl`]), the way [`crate::glsl_stage()`] writes the stages naga lacks.
//! Registers, system values and the rules for inputs and outputs out of range are those of
//! [`crate::Options::tessellation_as_compute`].
//!
//! **Evaluation**: `tgsi_prologue()` copies the patch (`gl_in[v]`, the per-vertex varyings
//! `_tcs2tes_location{L}[v]` for `v < gl_PatchVerticesIn`, the per-patch `patch in vec4
//! _tcs2tes_patch{n}` and the tessellation levels) into the private inputs and
//! `gl_TessCoord`, `gl_TessLevelOuter`, `gl_TessLevelInner`, `gl_PatchVerticesIn` and
//! `gl_PrimitiveID` into the system values; where the shader ends, its output registers go
//! to `tgsi_outputs` and `tgsi_end()` writes them to `gl_Position`, `gl_PointSize`,
//! `gl_ClipDistance` and the varyings `_vs2fs_location{L}` (what a vertex shader would
//! write, so that geometry and fragment shaders read them alike). The layout comes from
//! `TES_PRIM_MODE`, `TES_SPACING`, `TES_VERTEX_ORDER_CW` and `TES_POINT_MODE`.
//!
//! **Control** (`layout(vertices = TCS_VERTICES_OUT) out`): the invocation keeps a private
//! copy of the patch's output file (`OUT[v][i]` at `1 + v · O + i`, as the compute
//! translation's output buffer), where its instructions read and write. GLSL's outputs are
//! shared between the invocations, so the copy is published and gathered around each
//! `barrier()`: `tgsi_publish()` writes the invocation's own vertex's outputs
//! (`gl_out[gl_InvocationID]`, `_tcs2tes_location{L}[gl_InvocationID]`) and every channel
//! of a per-patch output (`gl_TessLevelOuter`, `gl_TessLevelInner`, `_tcs2tes_patch{n}`)
//! that the invocation changed since it last gathered; `tgsi_gather()` reads every vertex's
//! outputs back. GLSL allows `barrier()` only at the top level of `main`, so BARRIER is
//! written there (a BARRIER inside control flow gives GLSL the compilers refuse, as the
//! original GLSL would have been refused). The outputs start at zero as in the interpreter:
//! each invocation publishes its zero vertex and invocation 0 zeroes the per-patch outputs
//! before a first barrier. The end publishes once more. As in the compute translation,
//! invocations writing one channel between barriers race; a write to another invocation's
//! vertex is dropped (GLSL's outputs of other vertices are read-only).

use std::fmt::Write as _;

use naga::{Expression, Handle, Scalar, StructMember, TypeInner};
use tgsi::enums::{File, PropertyName, Semantic};
use tgsi::ir::Span;
use tgsi::{Processor, Shader};

use crate::error::{Error, Result};
use crate::glsl_stage::{
    declared, naga_text, output_statements, per_vertex_input, replace_body, replace_calls,
    stage_layout, Declared, OutputTarget, StageEnd, INPUTS, OUTPUTS, PROLOGUE,
};
use crate::per_vertex::VertexCount;
use crate::targets::{Target, WriteOptions};
use crate::tess_compute::{control_vertices_out, SharedOutputs};
use crate::translate::{Options, Translator};
use crate::vertex_compute::{declared_outputs, vertex_io_strides};

/// The functions whose GLSL bodies the writer gives.
pub(crate) const END: &str = "tgsi_end";
pub(crate) const PUBLISH: &str = "tgsi_publish";
pub(crate) const GATHER: &str = "tgsi_gather";
/// Written out in `main` as `tgsi_publish(); barrier(); tgsi_gather();`.
pub(crate) const BARRIER: &str = "tgsi_barrier";

/// The private variables those bodies read and write.
pub(crate) const VERTICES_IN: &str = "tgsi_vertices_in";
pub(crate) const PRIMITIVE: &str = "tgsi_primitive";
pub(crate) const INVOCATION: &str = "tgsi_invocation";
pub(crate) const TESS_COORD: &str = "tgsi_tess_coord";
pub(crate) const TESS_OUTER: &str = "tgsi_tess_outer";
pub(crate) const TESS_INNER: &str = "tgsi_tess_inner";
pub(crate) const OUTPUT_FILE: &str = "tgsi_output_file";
const SEEN: &str = "tgsi_outputs_seen";

/// The GLSL of the outer and inner tessellation levels as `uvec4` words.
const OUTER_WORDS: &str = "floatBitsToUint(vec4(gl_TessLevelOuter[0], gl_TessLevelOuter[1], \
                           gl_TessLevelOuter[2], gl_TessLevelOuter[3]))";
const INNER_WORDS: &str = "uvec4(floatBitsToUint(gl_TessLevelInner[0]), \
                           floatBitsToUint(gl_TessLevelInner[1]), 0u, 0u)";

/// Translates a tessellation control or evaluation shader into a GLSL tessellation shader
/// (see the module documentation): naga validates the translation, its GLSL back end
/// writes it with `write_options`, and the stage's parts are written around it. Inputs or
/// outputs GLSL has no place for are refused by name.
///
/// ```
/// let text = "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 2\n\
///             DCL IN[][0], POSITION\nDCL SV[0], TESSCOORD\nDCL OUT[0], POSITION\n\
///               0: MUL OUT[0], IN[0][0], SV[0].xxxx\n  1: END\n";
/// let shader = tgsi::parse(text).unwrap();
/// let options = tgsi_naga::options_for(tgsi_naga::Target::Glsl);
/// let glsl = tgsi_naga::tessellation_glsl(&shader, &options, &Default::default()).unwrap();
/// assert!(glsl.contains("layout(triangles, equal_spacing, ccw) in;"));
/// assert!(glsl.contains("gl_TessCoord"));
/// ```
pub fn tessellation_glsl(
    shader: &Shader,
    options: &Options,
    write_options: &WriteOptions,
) -> Result<String> {
    let name = shader.processor.name();
    if !matches!(shader.processor, Processor::TessCtrl | Processor::TessEval) {
        return Err(Error::new(
            Span::default(),
            name,
            "is not a tessellation shader",
        ));
    }
    let (module, _) = crate::translate::translate_one_invocation(shader, options)?;
    let text = naga_text(&module, name, Target::Glsl, write_options)?;
    if shader.processor == Processor::TessCtrl {
        control_glsl(shader, options, &text)
    } else {
        evaluation_glsl(shader, options, &text)
    }
}

impl Translator<'_> {
    /// A private `u32` and `vec4<u32>` variable maker, for the values the prologue sets.
    fn stage_values(&mut self, names: &[&str], vector: bool) -> Vec<Handle<naga::GlobalVariable>> {
        let ty = if vector {
            self.vec4(Scalar::U32)
        } else {
            self.ty(TypeInner::Scalar(Scalar::U32))
        };
        names.iter().map(|n| self.private(n, ty)).collect()
    }

    /// Loads a private variable.
    fn load_private(&mut self, var: Handle<naga::GlobalVariable>) -> Handle<Expression> {
        let pointer = self.body.expr(Expression::GlobalVariable(var));
        self.body.load(pointer)
    }

    /// The prologue call, the patch's private inputs and the system values of an
    /// evaluation shader; its outputs leave through `tgsi_end()`.
    pub(crate) fn declare_tess_eval_stage(&mut self) -> Result<()> {
        let (input_stride, _) = vertex_io_strides(self.shader);
        let scalars = self.stage_values(&[VERTICES_IN, PRIMITIVE], false);
        let vectors = self.stage_values(&[TESS_COORD, TESS_OUTER, TESS_INNER], true);
        let prologue = self.empty_function(PROLOGUE);
        let end = self.empty_function(END);
        self.call_empty(prologue);
        let patch = tgsi::Limits::default().max_patch_vertices;
        self.private_inputs(patch, VertexCount::Private(scalars[0]), input_stride, None)?;
        let [vertices_in, primitive] = [scalars[0], scalars[1]].map(|v| self.load_private(v));
        let [coord, outer, inner] =
            [vectors[0], vectors[1], vectors[2]].map(|v| self.load_private(v));
        self.store_system_values(
            &[
                (Semantic::VerticesIn, vertices_in),
                (Semantic::PrimId, primitive),
            ],
            &[
                (Semantic::TessCoord, coord),
                (Semantic::TessOuter, outer),
                (Semantic::TessInner, inner),
            ],
        )?;
        let registers = declared_outputs(self.shader);
        let outputs = self.private_outputs(registers.len());
        self.glsl_stage_end = Some(StageEnd {
            function: end,
            outputs: Some((outputs, registers)),
        });
        Ok(())
    }

    /// The prologue call, the patch's private inputs, the private output file and the
    /// system values of a control shader, and the first barrier (see the module
    /// documentation); BARRIER and the end publish the outputs.
    pub(crate) fn declare_tess_control_stage(&mut self) -> Result<()> {
        let n = control_vertices_out(self.shader)?;
        let (input_stride, output_stride) = vertex_io_strides(self.shader);
        let most = tgsi::Limits::default().max_shader_outputs;
        if output_stride > most {
            return Err(Error::new(
                Span::default(),
                self.shader.processor.name(),
                format!("declares OUT registers past Gallium's {most} outputs"),
            ));
        }
        let scalars = self.stage_values(&[VERTICES_IN, PRIMITIVE, INVOCATION], false);
        let vec4 = self.vec4(Scalar::U32);
        let slots = 1 + n * output_stride;
        let file_array = self.array_of(vec4, slots);
        let file_ty = self.module.types.insert(
            naga::Type {
                name: Some("TgsiOutputFile".to_string()),
                inner: TypeInner::Struct {
                    members: vec![StructMember {
                        name: Some("outputs".to_string()),
                        ty: file_array,
                        binding: None,
                        offset: 0,
                    }],
                    span: 16 * slots,
                },
            },
            naga::Span::UNDEFINED,
        );
        let file = self.private(OUTPUT_FILE, file_ty);
        let u32_ty = self.ty(TypeInner::Scalar(Scalar::U32));
        let first_output = self.private("tgsi_first_output", u32_ty);
        let prologue = self.empty_function(PROLOGUE);
        let publish = self.empty_function(PUBLISH);
        self.empty_function(GATHER);
        let barrier = self.empty_function(BARRIER);
        self.call_empty(prologue);
        let patch = tgsi::Limits::default().max_patch_vertices;
        self.private_inputs(patch, VertexCount::Private(scalars[0]), input_stride, None)?;
        let b = &mut self.body;
        let one = b.u32(1);
        let pointer = b.expr(Expression::GlobalVariable(first_output));
        b.store(pointer, one);
        let [vertices_in, primitive, invocation] =
            [scalars[0], scalars[1], scalars[2]].map(|v| self.load_private(v));
        self.store_system_values(
            &[
                (Semantic::InvocationId, invocation),
                (Semantic::VerticesIn, vertices_in),
                (Semantic::PrimId, primitive),
            ],
            &[],
        )?;
        self.shared_outputs = Some(std::rc::Rc::new(SharedOutputs {
            buffer: file,
            first: first_output,
            vertices: n,
            stride: output_stride,
        }));
        self.call_empty(barrier);
        self.glsl_stage_barrier = Some(barrier);
        self.glsl_stage_end = Some(StageEnd {
            function: publish,
            outputs: None,
        });
        Ok(())
    }
}

/// Copies the patch's per-vertex inputs (`per_vertex`: declared two-dimensional) into the
/// private inputs, for every vertex of the patch; returns the GLSL loop.
fn per_vertex_prologue(
    options: &Options,
    inputs: &[Declared],
    stride: u32,
    prefix: &str,
    stage: &str,
    declarations: &mut String,
) -> Result<String> {
    let patch = tgsi::Limits::default().max_patch_vertices;
    let mut body = String::new();
    for d in inputs.iter().filter(|d| d.per_vertex) {
        let Some(semantic) = d.semantic else {
            return Err(d.refuse("IN", "an input needs a semantic"));
        };
        let Some(value) =
            per_vertex_input(options, semantic, d.semantic_index, prefix, declarations)
        else {
            return Err(d.refuse("IN", format!("{semantic} has no {stage} input")));
        };
        let _ = writeln!(
            body,
            "        {INPUTS}.inputs[uint(1 + v * {stride} + {})] = {};",
            d.index,
            value("v")
        );
    }
    Ok(format!(
        "    for (int v = 0; v < min(gl_PatchVerticesIn, {patch}); v++) {{\n{body}    }}\n"
    ))
}

/// The GLSL words of a per-patch register of `semantic[index]` (an evaluation shader's
/// input, or a control shader's output read back), declaring its varying with `qualifier`
/// (`patch in` or `patch out`) in `declarations`; `None` for other semantics.
fn patch_words(
    semantic: Semantic,
    index: u32,
    qualifier: &str,
    declarations: &mut String,
) -> Option<String> {
    match semantic {
        Semantic::TessOuter => Some(OUTER_WORDS.to_string()),
        Semantic::TessInner => Some(INNER_WORDS.to_string()),
        Semantic::Patch => {
            let _ = writeln!(declarations, "{qualifier} vec4 _tcs2tes_patch{index};");
            Some(format!("floatBitsToUint(_tcs2tes_patch{index})"))
        }
        _ => None,
    }
}

/// The tessellator's configuration an evaluation shader declares (`TES_PRIM_MODE`,
/// `TES_SPACING`, `TES_VERTEX_ORDER_CW`, `TES_POINT_MODE`), for GLSL and HLSL alike.
pub(crate) struct TessLayout {
    pub primitive: TessPrimitive,
    pub spacing: TessSpacing,
    /// GL's clockwise winding.
    pub clockwise: bool,
    pub points: bool,
}

/// The domain a tessellator divides.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum TessPrimitive {
    Triangles,
    Quads,
    Isolines,
}

/// How a tessellator spaces its divisions.
#[derive(Clone, Copy)]
pub(crate) enum TessSpacing {
    FractionalOdd,
    FractionalEven,
    Equal,
}

impl TessLayout {
    /// The layout of an evaluation shader, or why it has none (a primitive mode that is
    /// not GL's triangles, quads or isolines).
    pub(crate) fn of(shader: &Shader) -> Result<TessLayout> {
        let property = |name: PropertyName| shader.property(name);
        let primitive = match property(PropertyName::TesPrimMode) {
            Some(4) => TessPrimitive::Triangles,
            Some(7) => TessPrimitive::Quads,
            Some(1) => TessPrimitive::Isolines,
            other => {
                return Err(Error::new(
                    Span::default(),
                    PropertyName::TesPrimMode.name(),
                    format!("{other:?} is not a tessellation primitive (4, 7 or 1)"),
                ))
            }
        };
        let spacing = match property(PropertyName::TesSpacing) {
            Some(0) => TessSpacing::FractionalOdd,
            Some(1) => TessSpacing::FractionalEven,
            _ => TessSpacing::Equal,
        };
        Ok(TessLayout {
            primitive,
            spacing,
            clockwise: property(PropertyName::TesVertexOrderCw) == Some(1),
            points: property(PropertyName::TesPointMode) == Some(1),
        })
    }
}

/// The GLSL of an evaluation shader.
fn evaluation_glsl(shader: &Shader, options: &Options, glsl: &str) -> Result<String> {
    const STAGE: &str = "GLSL tessellation-evaluation";
    let layout = TessLayout::of(shader)?;
    let primitive = match layout.primitive {
        TessPrimitive::Triangles => "triangles",
        TessPrimitive::Quads => "quads",
        TessPrimitive::Isolines => "isolines",
    };
    let spacing = match layout.spacing {
        TessSpacing::FractionalOdd => "fractional_odd_spacing",
        TessSpacing::FractionalEven => "fractional_even_spacing",
        TessSpacing::Equal => "equal_spacing",
    };
    let order = if layout.clockwise { "cw" } else { "ccw" };
    let points = if layout.points { ", point_mode" } else { "" };
    let mut declarations = format!("layout({primitive}, {spacing}, {order}{points}) in;\n");
    let (stride, _) = vertex_io_strides(shader);
    let inputs = declared(shader, File::Input);
    let mut prologue = format!(
        "    {VERTICES_IN} = uint(gl_PatchVerticesIn);\n    {PRIMITIVE} = uint(gl_PrimitiveID);\n\
         \x20   {TESS_COORD} = uvec4(floatBitsToUint(gl_TessCoord), 0u);\n\
         \x20   {TESS_OUTER} = {OUTER_WORDS};\n    {TESS_INNER} = {INNER_WORDS};\n"
    );
    prologue.push_str(&per_vertex_prologue(
        options,
        &inputs,
        stride,
        "_tcs2tes_location",
        STAGE,
        &mut declarations,
    )?);
    for d in inputs.iter().filter(|d| !d.per_vertex) {
        let Some(semantic) = d.semantic else {
            return Err(d.refuse("IN", "an input needs a semantic"));
        };
        let words = match semantic {
            Semantic::PrimId => "uvec4(uint(gl_PrimitiveID))".to_string(),
            _ => patch_words(semantic, d.semantic_index, "patch in", &mut declarations)
                .ok_or_else(|| {
                    d.refuse("IN", format!("a per-patch {semantic} has no {STAGE} input"))
                })?,
        };
        let _ = writeln!(prologue, "    {INPUTS}.inputs[{}] = {words};", 1 + d.index);
    }
    let target = OutputTarget {
        options,
        builtins: "",
        varying: &|location| format!("_vs2fs_location{location}"),
        element: "",
        clip_distances: None,
    };
    let outputs = declared(shader, File::Output);
    let mut end = String::new();
    for (k, &index) in declared_outputs(shader).iter().enumerate() {
        let Some(d) = outputs.iter().find(|d| d.index == index) else {
            continue;
        };
        let words = format!("{OUTPUTS}[{k}]");
        let (lines, _) = output_statements(d, &words, &target, STAGE, &mut declarations)?;
        for line in lines.lines() {
            let _ = writeln!(end, "    {line}");
        }
    }
    let text = replace_body(glsl, PROLOGUE, &prologue)?;
    let text = replace_body(&text, END, &end)?;
    stage_layout(&text, &declarations)
}

/// The GLSL of a control shader.
fn control_glsl(shader: &Shader, options: &Options, glsl: &str) -> Result<String> {
    const STAGE: &str = "GLSL tessellation-control";
    let n = control_vertices_out(shader)?;
    let (input_stride, stride) = vertex_io_strides(shader);
    // The per-patch outputs as last gathered (written by the GLSL alone).
    let mut declarations = format!(
        "layout(vertices = {n}) out;\nuvec4 {SEEN}[{}];\n",
        stride.max(1)
    );
    let mut prologue = format!(
        "    {VERTICES_IN} = uint(gl_PatchVerticesIn);\n    {PRIMITIVE} = uint(gl_PrimitiveID);\n\
         \x20   {INVOCATION} = uint(gl_InvocationID);\n"
    );
    prologue.push_str(&per_vertex_prologue(
        options,
        &declared(shader, File::Input),
        input_stride,
        "_vs2fs_location",
        STAGE,
        &mut declarations,
    )?);
    if let Some(d) = declared(shader, File::Input).iter().find(|d| !d.per_vertex) {
        return Err(d.refuse("IN", format!("a per-patch input has no {STAGE} input")));
    }
    let own =
        |i: u32| format!("{OUTPUT_FILE}.outputs[1u + uint(gl_InvocationID) * {stride}u + {i}u]");
    let target = OutputTarget {
        options,
        builtins: "gl_out[gl_InvocationID].",
        varying: &|location| format!("_tcs2tes_location{location}"),
        element: "[gl_InvocationID]",
        clip_distances: None,
    };
    let (mut publish, mut gather, mut zero) = (String::new(), String::new(), String::new());
    for d in declared(shader, File::Output) {
        let Some(semantic) = d.semantic else {
            return Err(d.refuse("OUT", "an output needs a semantic"));
        };
        if d.per_vertex {
            let (lines, location) =
                output_statements(&d, &own(d.index), &target, STAGE, &mut declarations)?;
            for line in lines.lines() {
                let _ = writeln!(publish, "    {line}");
            }
            let read = match (semantic, location) {
                (Semantic::Position, _) => "floatBitsToUint(gl_out[v].gl_Position)".to_string(),
                (Semantic::PSize, _) => {
                    "uvec4(floatBitsToUint(gl_out[v].gl_PointSize), 0u, 0u, 0u)".to_string()
                }
                (_, Some(l)) => format!("floatBitsToUint(_tcs2tes_location{l}[v])"),
                (_, None) => continue,
            };
            let slot = format!(
                "{OUTPUT_FILE}.outputs[uint(1 + v * {stride} + {})]",
                d.index
            );
            let _ = writeln!(
                gather,
                "    for (int v = 0; v < {n}; v++) {{\n        {slot} = {read};\n    }}"
            );
            continue;
        }
        let Some(words) = patch_words(semantic, d.semantic_index, "patch out", &mut declarations)
        else {
            return Err(d.refuse(
                "OUT",
                format!("a per-patch {semantic} has no {STAGE} output"),
            ));
        };
        let slot = format!("{OUTPUT_FILE}.outputs[{}]", 1 + d.index);
        let seen = format!("{SEEN}[{}]", d.index);
        let channels: u32 = if semantic == Semantic::TessInner {
            2
        } else {
            4
        };
        for c in 0..channels {
            let letter = ["x", "y", "z", "w"][c as usize];
            let to = match semantic {
                Semantic::TessOuter => format!("gl_TessLevelOuter[{c}]"),
                Semantic::TessInner => format!("gl_TessLevelInner[{c}]"),
                _ => format!("_tcs2tes_patch{}.{letter}", d.semantic_index),
            };
            let word = format!("{slot}.{letter}");
            let _ = writeln!(
                publish,
                "    if ({word} != {seen}.{letter}) {{\n        {to} = uintBitsToFloat({word});\n    }}"
            );
            let _ = writeln!(zero, "        {to} = 0.0;");
        }
        let _ = writeln!(gather, "    {slot} = {words};\n    {seen} = {slot};");
    }
    let _ = write!(prologue, "    if (gl_InvocationID == 0) {{\n{zero}    }}\n");
    let text = replace_body(glsl, PROLOGUE, &prologue)?;
    let text = replace_body(&text, PUBLISH, &publish)?;
    let text = replace_body(&text, GATHER, &gather)?;
    let text = replace_calls(
        &text,
        BARRIER,
        &format!("{PUBLISH}();\nbarrier();\n{GATHER}();"),
    );
    stage_layout(&text, &declarations)
}
