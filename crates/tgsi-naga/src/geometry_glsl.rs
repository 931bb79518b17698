//! A geometry shader as a GLSL geometry shader ([`geometry_glsl`]). naga has no geometry
//! stage, so the shader is translated as a compute entry point of one invocation whose
//! stage-specific parts are private variables and calls of empty functions:
//!
//! - `tgsi_gs_prologue()` first: it is to fill `tgsi_gs_inputs` (`{ header, inputs }`, the
//!   layout of [`crate::GeometryLayout`]'s input buffer with the primitive's vertices from
//!   slot 1 on) and the primitive and invocation numbers;
//! - `tgsi_gs_emit_stream_k()` for EMIT on stream k, once the output registers are copied
//!   to `tgsi_gs_outputs` (declared `OUT` registers in index order) and while fewer than
//!   `GS_MAX_OUTPUT_VERTICES` vertices were emitted over all streams (the interpreter drops
//!   the others);
//! - `tgsi_gs_end_stream_k()` for ENDPRIM on stream k;
//! - `tgsi_gs_finish()` where the shader ends.
//!
//! naga's GLSL back end writes that module; the writer then replaces the compute layout
//! with the geometry layout and the input and output varyings, and gives the functions
//! their bodies (`gl_in`, `gl_PrimitiveIDIn`, `gl_InvocationID`, the varyings,
//! `EmitStreamVertex(k)`, `EndStreamPrimitive(k)`; `EmitVertex()` and `EndPrimitive()`
//! when stream 0 is the only one). Registers, system values and the rules for inputs
//! out of range are those of [`crate::Options::geometry_as_compute`]. Varyings use
//! [`crate::varying_location`]'s locations, as vertex and fragment shaders do, and the
//! names naga's GLSL gives them: input `_vs2fs_location{L}[]` (a vertex shader's output
//! `_vs2fs_location{L}`), output `_gs2fs_location{L}`.
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

use naga::{Expression, Function, GlobalVariable, Handle, Scalar, StructMember, TypeInner};
use tgsi::enums::{File, Semantic};
use tgsi::ir::{Instruction, Register, Span};
use tgsi::opcode::Opcode;
use tgsi::Shader;

use crate::error::{Error, Result};
use crate::interface::{clip_distances, CLIP_PLANES};
use crate::per_vertex::{PerVertexInputs, VertexCount};
use crate::targets::{validate, write, Output, Target, WriteOptions};
use crate::translate::{Options, Translator};
use crate::{varying_location, GeometryLayout};

/// The empty functions whose GLSL bodies the writer supplies (per stream: the name and
/// the stream number).
const PROLOGUE: &str = "tgsi_gs_prologue";
const EMIT: &str = "tgsi_gs_emit_stream_";
const END_PRIMITIVE: &str = "tgsi_gs_end_stream_";
const FINISH: &str = "tgsi_gs_finish";

/// Vertex streams EMIT and ENDPRIM may name.
const STREAMS: u32 = 4;

/// The private variables those bodies read and write.
const INPUTS: &str = "tgsi_gs_inputs";
const OUTPUTS: &str = "tgsi_gs_outputs";
const CLIP_DISTANCES: &str = "tgsi_gs_clip_distances";
const PRIMITIVE: &str = "tgsi_gs_primitive";
const INVOCATION: &str = "tgsi_gs_invocation";

/// What the translation of a geometry shader for a GLSL geometry stage keeps.
pub(crate) struct GeometryStage {
    layout: GeometryLayout,
    /// The streams EMIT and ENDPRIM name, in order, with their emit and end functions.
    streams: Vec<(u32, Handle<Function>, Handle<Function>)>,
    /// Called where the shader ends.
    pub(crate) finish: Handle<Function>,
    outputs: Handle<GlobalVariable>,
    /// Vertices emitted so far.
    emitted: Handle<GlobalVariable>,
    /// A `CLIPVERTEX` output: its register, the user clip planes and the private
    /// distances to them that EMIT computes.
    clip_vertex: Option<(u32, Handle<GlobalVariable>, Handle<GlobalVariable>)>,
}

/// Translates a geometry shader into a GLSL geometry shader (see the module documentation):
/// naga validates the translation, its GLSL back end writes it with `write_options`, and
/// the geometry stage's parts are written around it. A vertex stream named by a register,
/// and inputs or outputs GLSL has no place for, are refused by name.
pub fn geometry_glsl(
    shader: &Shader,
    options: &Options,
    write_options: &WriteOptions,
) -> Result<String> {
    let (module, stage) = crate::translate::translate_geometry_stage(shader, options)?;
    let defect = |e: crate::WriteError| Error::new(Span::default(), "GEOM", e.to_string());
    let info = validate(&module).map_err(defect)?;
    let Output::Text(text) = write(&module, &info, Target::Glsl, write_options).map_err(defect)?
    else {
        return Err(Error::new(Span::default(), "GEOM", "GLSL is text"));
    };
    stage.write_glsl(shader, &text)
}

impl Translator<'_> {
    /// Declares the private state and the empty functions, and fills the registers the
    /// prologue leaves to the translation (the `SV` registers).
    pub(crate) fn declare_geometry_stage(&mut self) -> Result<Rc<GeometryStage>> {
        let layout = GeometryLayout::of(self.shader)?;
        let most = tgsi::Limits::default().max_shader_inputs;
        if layout.input_stride > most {
            // The inputs are a private array: keep it (and its GLSL) small.
            return Err(Error::new(
                Span::default(),
                "GEOM",
                format!("declares IN registers past Gallium's {most} inputs"),
            ));
        }
        let mut named = Vec::new();
        for inst in &self.shader.instructions {
            if matches!(inst.opcode, Opcode::EMIT | Opcode::ENDPRIM) {
                named.extend(stream_of(self.shader, inst)?);
            }
        }
        named.sort_unstable();
        named.dedup();
        let u32_ty = self.ty(TypeInner::Scalar(Scalar::U32));
        let vec4 = self.vec4(Scalar::U32);
        let slots = 1 + layout.vertices_per_primitive * layout.input_stride;
        let input_array = self.array_of(vec4, slots);
        let inputs_ty = self.module.types.insert(
            naga::Type {
                name: Some("TgsiGsInputs".to_string()),
                inner: TypeInner::Struct {
                    members: vec![
                        StructMember {
                            name: Some("header".to_string()),
                            ty: vec4,
                            binding: None,
                            offset: 0,
                        },
                        StructMember {
                            name: Some("inputs".to_string()),
                            ty: input_array,
                            binding: None,
                            offset: 16,
                        },
                    ],
                    span: 16 * (slots + 1),
                },
            },
            naga::Span::UNDEFINED,
        );
        let inputs = self.private(INPUTS, inputs_ty);
        let first = self.private("tgsi_gs_first", u32_ty);
        let primitive = self.private(PRIMITIVE, u32_ty);
        let invocation = self.private(INVOCATION, u32_ty);
        let outputs_ty = self.array_of(vec4, (layout.outputs.len() as u32).max(1));
        let outputs = self.private(OUTPUTS, outputs_ty);
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
        let mut empty_function = |name: String| {
            let mut function = Function {
                name: Some(name),
                ..Function::default()
            };
            function.body.push(
                naga::Statement::Return { value: None },
                naga::Span::UNDEFINED,
            );
            self.module
                .functions
                .append(function, naga::Span::UNDEFINED)
        };
        let prologue = empty_function(PROLOGUE.to_string());
        let finish = empty_function(FINISH.to_string());
        let streams = named
            .into_iter()
            .map(|k| {
                let emit = empty_function(format!("{EMIT}{k}"));
                (k, emit, empty_function(format!("{END_PRIMITIVE}{k}")))
            })
            .collect();
        self.body.stmt(naga::Statement::Call {
            function: prologue,
            arguments: Vec::new(),
            result: None,
        });
        let b = &mut self.body;
        let one = b.u32(1);
        let zero = b.u32(0);
        for (var, value) in [(first, one), (emitted, zero)] {
            let pointer = b.expr(Expression::GlobalVariable(var));
            b.store(pointer, value);
        }
        let p = b.expr(Expression::GlobalVariable(primitive));
        let p = b.load(p);
        let i = b.expr(Expression::GlobalVariable(invocation));
        let i = b.load(i);
        self.store_system_values(&[(Semantic::PrimId, p), (Semantic::InvocationId, i)], &[])?;
        let primitive_id_inputs = declared(self.shader, File::Input)
            .into_iter()
            .filter(|i| i.semantic == Some(Semantic::PrimId))
            .map(|i| i.index)
            .collect();
        self.per_vertex_inputs = Some(Rc::new(PerVertexInputs {
            buffer: inputs,
            first,
            vertices: VertexCount::Fixed(layout.vertices_per_primitive),
            stride: layout.input_stride,
            primitive_ids: Some((primitive, primitive_id_inputs)),
        }));
        Ok(Rc::new(GeometryStage {
            layout,
            streams,
            finish,
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
        for (k, &r) in gs.layout.outputs.iter().enumerate() {
            let pointer = self.register_pointer(&Register::new(File::Output, r as i32))?;
            let b = &mut self.body;
            let words = b.load(pointer);
            let outputs = b.expr(Expression::GlobalVariable(gs.outputs));
            let slot = b.index(outputs, k as u32);
            b.store(slot, words);
        }
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
fn stream_of(shader: &Shader, inst: &Instruction) -> Result<Option<u32>> {
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
            "a GLSL geometry shader names its vertex stream by a constant: the stream must \
             be an immediate",
        )),
    }
}

/// A declared register (the first declaration of a register counts, as in the other
/// translations).
struct Declared {
    index: u32,
    semantic: Option<Semantic>,
    semantic_index: u32,
    span: Span,
}

/// The declared registers of `file`, in declaration order.
fn declared(shader: &Shader, file: File) -> Vec<Declared> {
    let mut seen = std::collections::HashSet::new();
    shader
        .declarations
        .iter()
        .filter(|d| d.file == file)
        .flat_map(|d| (d.first..=d.last).map(move |i| (i, d)))
        .filter(|&(i, _)| seen.insert(i))
        .map(|(index, d)| Declared {
            index,
            semantic: d.semantic.map(|s| s.name),
            semantic_index: d.semantic.map_or(0, |s| s.index),
            span: d.span,
        })
        .collect()
}

impl GeometryStage {
    /// The geometry shader: naga's GLSL of the translation with the stage's parts.
    fn write_glsl(&self, shader: &Shader, glsl: &str) -> Result<String> {
        let refuse = |d: &Declared, file: &str, what: String| {
            Error::new(d.span, format!("DCL {file}[{}]", d.index), what)
        };
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
                return Err(refuse(
                    &d,
                    "IN",
                    "a geometry-shader input needs a semantic".into(),
                ));
            };
            let value: Box<dyn Fn(u32) -> String> = match semantic {
                Semantic::PrimId => continue,
                Semantic::Position => {
                    Box::new(|v| format!("floatBitsToUint(gl_in[{v}].gl_Position)"))
                }
                Semantic::PSize => Box::new(|v| {
                    format!("uvec4(floatBitsToUint(gl_in[{v}].gl_PointSize), 0u, 0u, 0u)")
                }),
                _ => {
                    let Some(location) = varying_location(semantic, d.semantic_index) else {
                        return Err(refuse(
                            &d,
                            "IN",
                            format!("{semantic} has no GLSL geometry-shader input"),
                        ));
                    };
                    let _ = writeln!(
                        declarations,
                        "layout(location = {location}) in vec4 _vs2fs_location{location}[];"
                    );
                    Box::new(move |v| format!("floatBitsToUint(_vs2fs_location{location}[{v}])"))
                }
            };
            for v in 0..layout.vertices_per_primitive {
                let slot = 1 + v * layout.input_stride + d.index;
                let _ = writeln!(prologue, "    {INPUTS}.inputs[{slot}] = {};", value(v));
            }
        }
        // EMIT on stream 0: the output registers into their varyings and built-ins; on
        // other streams into their own copies of the varyings.
        let mut emit = String::new();
        let mut varyings = Vec::new();
        let outputs = declared(shader, File::Output);
        for (k, &index) in layout.outputs.iter().enumerate() {
            let Some(d) = outputs.iter().find(|d| d.index == index) else {
                continue;
            };
            let Some(semantic) = d.semantic else {
                return Err(refuse(d, "OUT", "an output needs a semantic".into()));
            };
            let words = format!("{OUTPUTS}[{k}]");
            let line = match semantic {
                Semantic::Position => format!("gl_Position = uintBitsToFloat({words});"),
                Semantic::PSize => format!("gl_PointSize = uintBitsToFloat({words}.x);"),
                Semantic::Layer => format!("gl_Layer = int({words}.x);"),
                Semantic::ViewportIndex => format!("gl_ViewportIndex = int({words}.x);"),
                Semantic::PrimId => format!("gl_PrimitiveID = int({words}.x);"),
                Semantic::ClipVertex => (0..CLIP_PLANES)
                    .map(|i| format!("gl_ClipDistance[{i}] = {CLIP_DISTANCES}[{i}];"))
                    .collect::<Vec<_>>()
                    .join("\n    "),
                _ => {
                    let Some(location) = varying_location(semantic, d.semantic_index) else {
                        return Err(refuse(
                            d,
                            "OUT",
                            format!("{semantic} has no GLSL geometry-shader output"),
                        ));
                    };
                    let _ = writeln!(
                        declarations,
                        "layout(location = {location}) out vec4 _gs2fs_location{location};"
                    );
                    varyings.push((location, words.clone()));
                    let mut line = format!("_gs2fs_location{location} = uintBitsToFloat({words});");
                    if semantic == Semantic::ClipDist {
                        // Fragment shaders read the varying; clipping uses the built-in.
                        for c in 0..4 {
                            let i = 4 * d.semantic_index + c;
                            let _ = write!(
                                line,
                                "\n    gl_ClipDistance[{i}] = uintBitsToFloat({words}[{c}]);"
                            );
                        }
                    }
                    line
                }
            };
            let _ = writeln!(emit, "    {line}");
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
        let compute_layout = text
            .lines()
            .find(|l| l.starts_with("layout(local_size_x"))
            .ok_or_else(|| defect("no compute layout"))?;
        Ok(text
            .replacen(compute_layout, declarations.trim_end(), 1)
            .replacen("#extension GL_ARB_compute_shader : require\n", "", 1))
    }
}

/// A failure to find what naga's GLSL back end is known to write (a translator defect).
fn defect(what: &str) -> Error {
    Error::new(
        Span::default(),
        "GEOM",
        format!("naga's GLSL is not as expected: {what}"),
    )
}

/// Gives the parameterless function `name` of naga's GLSL the body `body` (then `return;`).
fn replace_body(glsl: &str, name: &str, body: &str) -> Result<String> {
    // naga separates a name's final digits from the suffixes it adds for uniqueness.
    let separator = if name.ends_with(|c: char| c.is_ascii_digit()) {
        "_"
    } else {
        ""
    };
    let head = format!("void {name}{separator}() {{\n");
    let start = glsl.find(&head).ok_or_else(|| defect(name))? + head.len();
    let end = glsl[start..]
        .find("\n}\n")
        .map(|e| start + e + 1)
        .ok_or_else(|| defect(name))?;
    Ok(format!(
        "{}{body}    return;\n{}",
        &glsl[..start],
        &glsl[end..]
    ))
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
