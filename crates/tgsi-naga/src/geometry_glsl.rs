//! A geometry shader as a GLSL geometry shader ([`geometry_glsl`]), the way
//! [`crate::glsl_stage()`] writes the stages naga lacks, with these empty functions:
//!
//! - `tgsi_prologue()` first: it is to fill the input vertices and the primitive and
//!   invocation numbers;
//! - `tgsi_gs_emit_stream_k()` for EMIT on stream k, once the output registers are copied
//!   to `tgsi_outputs` (declared `OUT` registers in index order) and while fewer than
//!   `GS_MAX_OUTPUT_VERTICES` vertices were emitted over all streams (the interpreter drops
//!   the others);
//! - `tgsi_gs_end_stream_k()` for ENDPRIM on stream k;
//! - `tgsi_gs_finish()` where the shader ends.
//!
//! Their GLSL bodies read `gl_in`, `gl_PrimitiveIDIn`, `gl_InvocationID` and the input
//! varyings `_vs2fs_location{L}[]`, write the output varyings `_gs2fs_location{L}` and the
//! built-ins, and call `EmitStreamVertex(k)`, `EndStreamPrimitive(k)` (`EmitVertex()` and
//! `EndPrimitive()` when stream 0 is the only one). Registers, system values and the rules
//! for inputs out of range are those of [`crate::Options::geometry_as_compute`].
//!
//! A TGSI vertex of any stream records every output register; GLSL binds each output
//! variable to one stream, so an output is declared once per stream the shader emits on:
//! stream 0's as above, stream k's (k > 0; for transform feedback only, so without a
//! location and without the built-ins) as `_gs2fs_location{L}_stream{k}`. The stream an
//! EMIT or ENDPRIM names must be an immediate (GLSL's must be a constant); streams 4 and
//! up name none, as in the interpreter. The interpreter closes every stream's primitive at
//! the end, so `tgsi_gs_finish()` ends those of streams 1–3 (Mesa's softpipe closes only
//! stream 0's by itself).

use std::fmt::Write as _;
use std::rc::Rc;

use naga::{Expression, Function, GlobalVariable, Handle, Scalar, TypeInner};
use tgsi::enums::{File, Semantic};
use tgsi::ir::{Instruction, Register};
use tgsi::opcode::Opcode;
use tgsi::Shader;

use crate::error::{Error, Result};
use crate::glsl_stage::{
    declared, naga_text, output_statements, per_vertex_input, replace_body, stage_layout,
    OutputTarget, StageEnd, INPUTS, OUTPUTS, PROLOGUE,
};
use crate::interface::{clip_distances, CLIP_PLANES};
use crate::per_vertex::VertexCount;
use crate::targets::{Target, WriteOptions};
use crate::translate::{Options, Translator};
use crate::GeometryLayout;

/// The empty functions whose GLSL bodies the writer supplies (per stream: the name and
/// the stream number).
pub(crate) const EMIT: &str = "tgsi_gs_emit_stream_";
pub(crate) const END_PRIMITIVE: &str = "tgsi_gs_end_stream_";
pub(crate) const FINISH: &str = "tgsi_gs_finish";

/// The private variables those bodies read and write.
pub(crate) const CLIP_DISTANCES: &str = "tgsi_clip_distances";
pub(crate) const PRIMITIVE: &str = "tgsi_primitive";
pub(crate) const INVOCATION: &str = "tgsi_invocation";

/// Vertex streams EMIT and ENDPRIM may name.
const STREAMS: u32 = 4;

/// What the translation of a geometry shader for a GLSL geometry stage keeps.
pub(crate) struct GeometryStage {
    pub(crate) layout: GeometryLayout,
    /// The streams EMIT and ENDPRIM name, in order, with their emit and end functions.
    pub(crate) streams: Vec<(u32, Handle<Function>, Handle<Function>)>,
    outputs: Handle<GlobalVariable>,
    /// Vertices emitted so far.
    emitted: Handle<GlobalVariable>,
    /// A `CLIPVERTEX` output: its register, the user clip planes and the private
    /// distances to them that EMIT computes.
    pub(crate) clip_vertex: Option<(u32, Handle<GlobalVariable>, Handle<GlobalVariable>)>,
}

/// Translates a geometry shader into a GLSL geometry shader (see the module documentation):
/// naga validates the translation, its GLSL back end writes it with `write_options`, and
/// the geometry stage's parts are written around it. A vertex stream named by a register,
/// and inputs or outputs GLSL has no place for, are refused by name.
///
/// ```
/// let text = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
///             PROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n\
///             IMM[0] UINT32 {0, 0, 0, 0}\n  0: MOV OUT[0], IN[0][0]\n\
///               1: EMIT IMM[0].xxxx\n  2: END\n";
/// let shader = tgsi::parse(text).unwrap();
/// let options = tgsi_naga::options_for(tgsi_naga::Target::Glsl);
/// let glsl = tgsi_naga::geometry_glsl(&shader, &options, &Default::default()).unwrap();
/// assert!(glsl.contains("layout(points, max_vertices = 1) out;"));
/// assert!(glsl.contains("EmitVertex();"));
/// ```
pub fn geometry_glsl(
    shader: &Shader,
    options: &Options,
    write_options: &WriteOptions,
) -> Result<String> {
    let (module, stage) = translate_geometry_stage(shader, options)?;
    let text = naga_text(&module, "GEOM", Target::Glsl, write_options)?;
    stage.write_glsl(shader, options, &text)
}

/// The translation of a geometry shader for a geometry stage (GLSL's or HLSL's), and its
/// emitting functions.
pub(crate) fn translate_geometry_stage(
    shader: &Shader,
    options: &Options,
) -> Result<(naga::Module, Rc<GeometryStage>)> {
    if shader.processor != tgsi::Processor::Geometry {
        return Err(Error::new(
            tgsi::ir::Span::default(),
            shader.processor.name(),
            "is not a geometry shader",
        ));
    }
    let (module, stage) = crate::translate::translate_one_invocation(shader, options)?;
    let stage = stage.ok_or_else(|| Error::new(tgsi::ir::Span::default(), "GEOM", "no stage"))?;
    Ok((module, stage))
}

impl Translator<'_> {
    /// Declares the private state and the empty functions, and fills the registers the
    /// prologue leaves to the translation (the `SV` registers).
    pub(crate) fn declare_geometry_stage(&mut self) -> Result<Rc<GeometryStage>> {
        let layout = GeometryLayout::of(self.shader)?;
        let mut named = Vec::new();
        for inst in &self.shader.instructions {
            if matches!(inst.opcode, Opcode::EMIT | Opcode::ENDPRIM) {
                named.extend(stream_of(self.shader, inst)?);
            }
        }
        named.sort_unstable();
        named.dedup();
        let u32_ty = self.ty(TypeInner::Scalar(Scalar::U32));
        let primitive = self.private(PRIMITIVE, u32_ty);
        let invocation = self.private(INVOCATION, u32_ty);
        let outputs = self.private_outputs(layout.outputs.len());
        let emitted = self.private("tgsi_gs_emitted", u32_ty);
        let outputs_declared = declared(self.shader, File::Output);
        let clip_vertex = match outputs_declared
            .iter()
            .find(|o| o.semantic == Some(Semantic::ClipVertex))
        {
            Some(o) => {
                if let Some(d) = outputs_declared
                    .iter()
                    .find(|o| o.semantic == Some(Semantic::ClipDist))
                {
                    return Err(Error::new(
                        d.span,
                        format!("DCL OUT[{}]", d.index),
                        "clip distances and a clip vertex cannot both be written",
                    ));
                }
                let planes = self.clip_planes();
                let f32_ty = self.ty(TypeInner::Scalar(Scalar::F32));
                let distances_ty = self.array_of(f32_ty, CLIP_PLANES);
                let distances = self.private(CLIP_DISTANCES, distances_ty);
                Some((o.index, planes, distances))
            }
            None => None,
        };
        let prologue = self.empty_function(PROLOGUE);
        let finish = self.empty_function(FINISH);
        let streams = named
            .into_iter()
            .map(|k| {
                let emit = self.empty_function(&format!("{EMIT}{k}"));
                (k, emit, self.empty_function(&format!("{END_PRIMITIVE}{k}")))
            })
            .collect();
        self.call_empty(prologue);
        let primitive_id_inputs = declared(self.shader, File::Input)
            .into_iter()
            .filter(|i| i.semantic == Some(Semantic::PrimId))
            .map(|i| i.index)
            .collect();
        self.private_inputs(
            layout.vertices_per_primitive,
            VertexCount::Fixed(layout.vertices_per_primitive),
            layout.input_stride,
            Some((primitive, primitive_id_inputs)),
        )?;
        let b = &mut self.body;
        let zero = b.u32(0);
        let pointer = b.expr(Expression::GlobalVariable(emitted));
        b.store(pointer, zero);
        let p = b.expr(Expression::GlobalVariable(primitive));
        let p = b.load(p);
        let i = b.expr(Expression::GlobalVariable(invocation));
        let i = b.load(i);
        self.store_system_values(&[(Semantic::PrimId, p), (Semantic::InvocationId, i)], &[])?;
        self.glsl_stage_end = Some(StageEnd {
            function: finish,
            outputs: None,
        });
        Ok(Rc::new(GeometryStage {
            layout,
            streams,
            outputs,
            emitted,
            clip_vertex,
        }))
    }

    /// EMIT and ENDPRIM.
    pub(crate) fn emit_to_stage(&mut self, inst: &Instruction, gs: &GeometryStage) -> Result<()> {
        let call = |function| naga::Statement::Call {
            function,
            arguments: Vec::new(),
            result: None,
        };
        let stream = stream_of(self.shader, inst)?;
        let Some(&(_, emit, end)) = gs.streams.iter().find(|s| Some(s.0) == stream) else {
            // Streams 4 and up name none.
            return Ok(());
        };
        if inst.opcode == Opcode::ENDPRIM {
            self.body.stmt(call(end));
            return Ok(());
        }
        let b = &mut self.body;
        let emitted = b.expr(Expression::GlobalVariable(gs.emitted));
        let count = b.load(emitted);
        let limit = b.u32(gs.layout.max_vertices);
        let room = b.binary(naga::BinaryOperator::Less, count, limit);
        b.open();
        self.copy_outputs(gs.outputs, &gs.layout.outputs)?;
        if let Some((r, planes, distances)) = gs.clip_vertex {
            let pointer = self.register_pointer(&Register::new(File::Output, r as i32))?;
            let b = &mut self.body;
            let words = b.load(pointer);
            let parts = clip_distances(b, words, planes);
            let distances = b.expr(Expression::GlobalVariable(distances));
            for (i, part) in parts.into_iter().enumerate() {
                let slot = b.index(distances, i as u32);
                b.store(slot, part);
            }
        }
        let b = &mut self.body;
        b.stmt(call(emit));
        let one = b.u32(1);
        let counted = b.binary(naga::BinaryOperator::Add, count, one);
        b.store(emitted, counted);
        let accept = b.close();
        b.stmt(naga::Statement::If {
            condition: room,
            accept,
            reject: naga::Block::new(),
        });
        Ok(())
    }
}

/// The stream an EMIT or ENDPRIM names (`None`: 4 or more, none), which must be an
/// immediate.
pub(crate) fn stream_of(shader: &Shader, inst: &Instruction) -> Result<Option<u32>> {
    let word = inst
        .src
        .first()
        .filter(|src| src.reg.file == File::Immediate && src.reg.indirect.is_none())
        .and_then(|src| {
            let immediate = shader
                .immediates
                .get(usize::try_from(src.reg.index).ok()?)?;
            immediate.words.get(usize::from(src.swizzle.0[0])).copied()
        });
    match word {
        Some(k) => Ok((k < STREAMS).then_some(k)),
        None => Err(Error::new(
            inst.span,
            inst.opcode.name(),
            "a GLSL or HLSL geometry shader names its vertex stream by a constant: the \
             stream must be an immediate",
        )),
    }
}

impl GeometryStage {
    /// The geometry shader: naga's GLSL of the translation with the stage's parts.
    fn write_glsl(&self, shader: &Shader, options: &Options, glsl: &str) -> Result<String> {
        const STAGE: &str = "GLSL geometry-shader";
        let layout = &self.layout;
        let mut declarations = format!(
            "layout({}, invocations = {}) in;\nlayout({}, max_vertices = {}) out;\n",
            input_primitive(layout),
            layout.invocations,
            output_primitive(layout),
            layout.max_vertices
        );
        // The prologue: every input vertex's declared registers into the input slots.
        let mut prologue = format!(
            "    {PRIMITIVE} = uint(gl_PrimitiveIDIn);\n    {INVOCATION} = uint(gl_InvocationID);\n"
        );
        for d in declared(shader, File::Input) {
            let Some(semantic) = d.semantic else {
                return Err(d.refuse("IN", "a geometry-shader input needs a semantic"));
            };
            if semantic == Semantic::PrimId {
                continue;
            }
            let Some(value) = per_vertex_input(
                options,
                semantic,
                d.semantic_index,
                "_vs2fs_location",
                &mut declarations,
            ) else {
                return Err(d.refuse("IN", format!("{semantic} has no {STAGE} input")));
            };
            for v in 0..layout.vertices_per_primitive {
                let slot = 1 + v * layout.input_stride + d.index;
                let _ = writeln!(
                    prologue,
                    "    {INPUTS}.inputs[{slot}] = {};",
                    value(&v.to_string())
                );
            }
        }
        // EMIT on stream 0: the output registers into their varyings and built-ins; on
        // other streams into their own copies of the varyings.
        let mut emit = String::new();
        let mut varyings = Vec::new();
        let outputs = declared(shader, File::Output);
        let target = OutputTarget {
            options,
            builtins: "",
            varying: &|location| format!("_gs2fs_location{location}"),
            element: "",
            clip_distances: Some(CLIP_DISTANCES),
        };
        for (k, &index) in layout.outputs.iter().enumerate() {
            let Some(d) = outputs.iter().find(|d| d.index == index) else {
                continue;
            };
            let words = format!("{OUTPUTS}[{k}]");
            let (lines, location) =
                output_statements(d, &words, &target, STAGE, &mut declarations)?;
            varyings.extend(location.map(|l| (l, words)));
            for line in lines.lines() {
                let _ = writeln!(emit, "    {line}");
            }
        }
        let only_stream_0 = self.streams.iter().all(|s| s.0 == 0);
        let mut text = glsl.to_string();
        let mut finish = String::new();
        for &(k, _, _) in &self.streams {
            let (body, end) = if only_stream_0 {
                (
                    format!("{emit}    EmitVertex();\n"),
                    "EndPrimitive();".to_string(),
                )
            } else if k == 0 {
                (
                    format!("{emit}    EmitStreamVertex(0);\n"),
                    "EndStreamPrimitive(0);".into(),
                )
            } else {
                let mut body = String::new();
                for (location, words) in &varyings {
                    let name = format!("_gs2fs_location{location}_stream{k}");
                    let _ = writeln!(declarations, "layout(stream = {k}) out vec4 {name};");
                    let _ = writeln!(body, "    {name} = uintBitsToFloat({words});");
                }
                let _ = writeln!(body, "    EmitStreamVertex({k});");
                let _ = writeln!(finish, "    EndStreamPrimitive({k});");
                (body, format!("EndStreamPrimitive({k});"))
            };
            text = replace_body(&text, &format!("{EMIT}{k}"), &body)?;
            text = replace_body(
                &text,
                &format!("{END_PRIMITIVE}{k}"),
                &format!("    {end}\n"),
            )?;
        }
        let text = replace_body(&text, PROLOGUE, &prologue)?;
        let text = replace_body(&text, FINISH, &finish)?;
        stage_layout(&text, &declarations)
    }
}

/// GLSL's name of the input primitive.
fn input_primitive(layout: &GeometryLayout) -> &'static str {
    use tgsi::enums::Primitive as P;
    match layout.input {
        P::Points => "points",
        P::Lines => "lines",
        P::LinesAdjacency => "lines_adjacency",
        P::TrianglesAdjacency => "triangles_adjacency",
        _ => "triangles",
    }
}

/// GLSL's name of the output primitive.
fn output_primitive(layout: &GeometryLayout) -> &'static str {
    use tgsi::enums::Primitive as P;
    match layout.output {
        P::Points => "points",
        P::LineStrip => "line_strip",
        _ => "triangle_strip",
    }
}
