//! A geometry shader as a compute shader ([`crate::Options::geometry_as_compute`]): naga
//! has no geometry stage, and WebGPU and Metal none either, so invocation `g` of a
//! dispatch of [`GEOMETRY_WORKGROUP_SIZE`]-wide workgroups runs invocation `g mod N` of
//! input primitive `g div N` (`N` = `GS_INVOCATIONS`), reading the primitive's vertices
//! from and recording what it emits in storage buffers in group [`crate::STAGE_IO_GROUP`]
//! ([`GeometryLayout`] gives the sizes):
//!
//! - binding 0, read-only: `{ header: vec4<u32>, inputs: array<vec4<u32>> }`. The header
//!   holds (primitive count, invocations per row of the dispatch, 0, 0): invocation `g` is
//!   `id.x + id.y · header.y` of the global invocation id. `inputs[0]` is zero (what an
//!   input out of range reads) and `inputs[1 + (p · V + v) · I + i]` holds the words of
//!   `IN[v][i]` of primitive `p` (`V` vertices per primitive, `I` the input stride).
//! - binding 1: `{ records: array<vec4<u32>> }`, `R` vec4s per invocation from `g · R` on:
//!   first (emitted vertex count, 0, 0, 0), then for each emitted vertex `k` a tag (stream,
//!   primitive number on that stream, 0, 0) followed by the words of the declared output
//!   registers in index order ([`GeometryLayout::outputs`]).
//!
//! EMIT and ENDPRIM keep the interpreter's rules (`tgsi_exec`'s `emit` module): a stream of
//! 4 or more names none; `GS_MAX_OUTPUT_VERTICES` bounds the vertices emitted over all
//! streams; ENDPRIM closes its stream's primitive if it has vertices, which starts the
//! stream's next primitive number. A host groups each stream's vertices by their tags'
//! primitive numbers; the end of the invocation closes every stream's open primitive.
//!
//! Registers and system values are the interpreter's (`tgsi_exec::run_geometry`): `IN[v][i]`
//! with `v` or `i` out of range reads zero, an `IN` register declared `PRIM_ID` reads the
//! primitive in all four channels, `SV` `PRIMID` and `INVOCATIONID` read the primitive and
//! the invocation in x (other system values read zero).

use std::rc::Rc;

use naga::{BinaryOperator, Expression, GlobalVariable, Handle, Scalar, TypeInner};
use tgsi::enums::{File, Primitive, PropertyName, Semantic};
use tgsi::ir::{Instruction, Register, Span};
use tgsi::opcode::Opcode;
use tgsi::{Limits, Shader};

use crate::error::{Error, Result};
use crate::per_vertex::{PerVertexInputs, VertexCount};
use crate::translate::Translator;
use crate::vertex_compute::{declared_outputs, vertex_io_strides};

/// Invocations per workgroup of a geometry shader run as a compute shader.
pub const GEOMETRY_WORKGROUP_SIZE: u32 = 64;

/// Vertex streams EMIT and ENDPRIM may name.
const STREAMS: u32 = 4;

/// What a geometry shader run as a compute shader reads and records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeometryLayout {
    /// `GS_INPUT_PRIMITIVE`.
    pub input: Primitive,
    /// `GS_OUTPUT_PRIMITIVE`.
    pub output: Primitive,
    /// Vertices per input primitive, `V`.
    pub vertices_per_primitive: u32,
    /// Input registers per vertex, `I`: one more than the largest declared `IN` index.
    pub input_stride: u32,
    /// `GS_INVOCATIONS` (at least 1).
    pub invocations: u32,
    /// `GS_MAX_OUTPUT_VERTICES`: vertices an invocation may emit over all streams.
    pub max_vertices: u32,
    /// The declared output registers in index order: what each emitted vertex records.
    pub outputs: Vec<u32>,
}

impl GeometryLayout {
    /// The layout of a geometry shader, or why it cannot run (properties that name no
    /// geometry primitive, or limits past Gallium's, [`tgsi::Limits`]).
    pub fn of(shader: &Shader) -> Result<GeometryLayout> {
        // The last statement of a property counts, as in `Shader::property`; errors point
        // at it.
        let written = |name: PropertyName| shader.properties.iter().rev().find(|p| p.name == name);
        let fail = |name: PropertyName, reason: String| {
            let span = written(name).map_or(Span::default(), |p| p.span);
            Error::new(span, name.name(), reason)
        };
        let primitive = |name: PropertyName, allowed: &[Primitive]| {
            let Some(value) = written(name).map(|p| p.value) else {
                return Err(fail(name, "is missing: a geometry shader needs it".into()));
            };
            Primitive::from_number(value)
                .filter(|p| allowed.contains(p))
                .ok_or_else(|| {
                    fail(
                        name,
                        format!("{value} is not a geometry-shader primitive here"),
                    )
                })
        };
        let input = primitive(
            PropertyName::GsInputPrimitive,
            &[
                Primitive::Points,
                Primitive::Lines,
                Primitive::LinesAdjacency,
                Primitive::Triangles,
                Primitive::TrianglesAdjacency,
            ],
        )?;
        let output = primitive(
            PropertyName::GsOutputPrimitive,
            &[
                Primitive::Points,
                Primitive::LineStrip,
                Primitive::TriangleStrip,
            ],
        )?;
        let limits = Limits::default();
        // A missing count is 0 (nothing is emitted) or, for invocations, 1.
        let bounded = |name: PropertyName, least: u32, limit: u32| {
            let value = written(name).map_or(0, |p| p.value).max(least);
            if value > limit {
                Err(fail(
                    name,
                    format!("{value} is more than Gallium's limit of {limit}"),
                ))
            } else {
                Ok(value)
            }
        };
        let max_vertices = bounded(
            PropertyName::GsMaxOutputVertices,
            0,
            limits.max_gs_output_vertices,
        )?;
        let invocations = bounded(PropertyName::GsInvocations, 1, limits.max_gs_invocations)?;
        Ok(GeometryLayout {
            input,
            output,
            vertices_per_primitive: input.vertices(),
            input_stride: vertex_io_strides(shader).0,
            invocations,
            max_vertices,
            outputs: declared_outputs(shader),
        })
    }

    /// vec4s of one invocation's record: the count, then a tag and the outputs per vertex.
    pub fn record_vec4s(&self) -> u64 {
        1 + u64::from(self.max_vertices) * (self.outputs.len() as u64 + 1)
    }
}

/// What the translation keeps of the invocation it runs (shared, as every input load and
/// EMIT reads it): per-invocation state lives in private variables, so that subroutines can
/// emit too.
pub(crate) struct GeometryCompute {
    layout: GeometryLayout,
    records: Handle<GlobalVariable>,
    /// `g · R`: where the invocation's record starts.
    record: Handle<GlobalVariable>,
    /// Vertices emitted so far, all streams.
    emitted: Handle<GlobalVariable>,
    /// Per stream: vertices of the open primitive.
    open: Handle<GlobalVariable>,
    /// Per stream: the open primitive's number.
    sequence: Handle<GlobalVariable>,
}

impl Translator<'_> {
    /// Declares the buffers and the invocation-id argument, returns early from invocations
    /// past the primitive count, and sets up the state and the `SV` registers.
    pub(crate) fn declare_geometry_compute(&mut self) -> Result<()> {
        let layout = GeometryLayout::of(self.shader)?;
        let u32_ty = self.ty(TypeInner::Scalar(Scalar::U32));
        let per_stream = self.array_of(u32_ty, STREAMS);
        let io = self.declare_stage_io(
            ("GeometryInputs", "geometry_inputs"),
            ("GeometryRecords", "geometry_records", "records"),
        );
        let (inputs, records) = (io.inputs, io.outputs);
        let primitive = self.private("gs_primitive", u32_ty);
        let first_input = self.private("gs_first_input", u32_ty);
        let record = self.private("gs_record", u32_ty);
        let emitted = self.private("gs_emitted", u32_ty);
        let open = self.private("gs_open", per_stream);
        let sequence = self.private("gs_sequence", per_stream);
        let b = &mut self.body;
        // g = id.x + id.y · row; p = g / N, the invocation g mod N.
        let id = io.id;
        let header_base = b.expr(Expression::GlobalVariable(inputs));
        let header = b.index(header_base, 0);
        let header = b.load(header);
        let count = b.index(header, 0);
        let row = b.index(header, 1);
        let (x, y) = (b.index(id, 0), b.index(id, 1));
        let above = b.binary(BinaryOperator::Multiply, y, row);
        let g = b.binary(BinaryOperator::Add, x, above);
        let n = b.u32(layout.invocations);
        let p = b.binary(BinaryOperator::Divide, g, n);
        let invocation = b.binary(BinaryOperator::Modulo, g, n);
        let past = b.binary(BinaryOperator::GreaterEqual, p, count);
        b.if_then(past, |b| b.stmt(naga::Statement::Return { value: None }));
        let per_primitive = b.u32(layout.vertices_per_primitive * layout.input_stride);
        let skipped = b.binary(BinaryOperator::Multiply, p, per_primitive);
        let one = b.u32(1);
        let first = b.binary(BinaryOperator::Add, skipped, one);
        // The record size fits in u32: at most 1 + 1024 · (outputs + 1) vec4s.
        let r = b.u32(u32::try_from(layout.record_vec4s()).unwrap_or(u32::MAX));
        let at = b.binary(BinaryOperator::Multiply, g, r);
        let zero = b.u32(0);
        let zeros = b.expr(Expression::ZeroValue(per_stream));
        for (var, value) in [
            (primitive, p),
            (first_input, first),
            (record, at),
            (emitted, zero),
            (open, zeros),
            (sequence, zeros),
        ] {
            let pointer = b.expr(Expression::GlobalVariable(var));
            b.store(pointer, value);
        }
        // System values: PRIMID and INVOCATIONID in x, the others zero.
        self.store_system_values(
            &[(Semantic::PrimId, p), (Semantic::InvocationId, invocation)],
            &[],
        )?;
        let primitive_id_inputs = self
            .shader
            .declarations
            .iter()
            .filter(|d| {
                d.file == File::Input && d.semantic.is_some_and(|s| s.name == Semantic::PrimId)
            })
            .flat_map(|d| d.first..=d.last)
            .collect();
        self.per_vertex_inputs = Some(Rc::new(PerVertexInputs {
            buffer: inputs,
            first: first_input,
            vertices: VertexCount::Fixed(layout.vertices_per_primitive),
            stride: layout.input_stride,
            primitive_ids: Some((primitive, primitive_id_inputs)),
        }));
        self.geometry_compute = Some(Rc::new(GeometryCompute {
            layout,
            records,
            record,
            emitted,
            open,
            sequence,
        }));
        Ok(())
    }

    /// EMIT and ENDPRIM.
    pub(crate) fn emit(&mut self, inst: &Instruction) -> Result<()> {
        if let Some(gs) = self.geometry_stage.clone() {
            return self.emit_to_stage(inst, &gs);
        }
        let Some(gc) = self.geometry_compute.clone() else {
            return Err(self.unsupported("belongs to geometry shaders"));
        };
        let src = inst
            .src
            .first()
            .ok_or_else(|| self.unsupported("needs a stream operand"))?;
        let stream = self.fetch(src, 0, inst.opcode.info().src_type(0))?;
        let stream = self.word_of(stream)?;
        let b = &mut self.body;
        let streams = b.u32(STREAMS);
        let named = b.binary(BinaryOperator::Less, stream, streams);
        let open_base = b.expr(Expression::GlobalVariable(gc.open));
        let sequence_base = b.expr(Expression::GlobalVariable(gc.sequence));
        b.open();
        let open = b.access(open_base, stream);
        let sequence = b.access(sequence_base, stream);
        let open_now = b.load(open);
        let sequence_now = b.load(sequence);
        let one = b.u32(1);
        let zero = b.u32(0);
        if inst.opcode == Opcode::ENDPRIM {
            let has_vertices = b.binary(BinaryOperator::NotEqual, open_now, zero);
            b.if_then(has_vertices, |b| {
                let next = b.binary(BinaryOperator::Add, sequence_now, one);
                b.store(sequence, next);
                b.store(open, zero);
            });
        } else {
            let emitted = b.expr(Expression::GlobalVariable(gc.emitted));
            let count = b.load(emitted);
            let limit = b.u32(gc.layout.max_vertices);
            let room = b.binary(BinaryOperator::Less, count, limit);
            b.open();
            let record = b.expr(Expression::GlobalVariable(gc.record));
            let record = b.load(record);
            let per_vertex = b.u32(gc.layout.outputs.len() as u32 + 1);
            let skipped = b.binary(BinaryOperator::Multiply, count, per_vertex);
            let after_count = b.binary(BinaryOperator::Add, skipped, one);
            let at = b.binary(BinaryOperator::Add, record, after_count);
            let records = b.expr(Expression::GlobalVariable(gc.records));
            let array = b.index(records, 0);
            let vec4 = self.vec4(Scalar::U32);
            let b = &mut self.body;
            let tag = b.expr(Expression::Compose {
                ty: vec4,
                components: vec![stream, sequence_now, zero, zero],
            });
            let slot = b.access(array, at);
            b.store(slot, tag);
            for (k, &r) in gc.layout.outputs.iter().enumerate() {
                let pointer = self.register_pointer(&Register::new(File::Output, r as i32))?;
                let b = &mut self.body;
                let words = b.load(pointer);
                let offset = b.u32(k as u32 + 1);
                let to = b.binary(BinaryOperator::Add, at, offset);
                let slot = b.access(array, to);
                b.store(slot, words);
            }
            let b = &mut self.body;
            let counted = b.binary(BinaryOperator::Add, count, one);
            b.store(emitted, counted);
            let opened = b.binary(BinaryOperator::Add, open_now, one);
            b.store(open, opened);
            let accept = b.close();
            b.stmt(naga::Statement::If {
                condition: room,
                accept,
                reject: naga::Block::new(),
            });
        }
        let b = &mut self.body;
        let accept = b.close();
        b.stmt(naga::Statement::If {
            condition: named,
            accept,
            reject: naga::Block::new(),
        });
        Ok(())
    }

    /// Records the emitted vertex count and returns.
    pub(crate) fn finish_geometry_and_return(&mut self, gc: &GeometryCompute) {
        let b = &mut self.body;
        let emitted = b.expr(Expression::GlobalVariable(gc.emitted));
        let count = b.load(emitted);
        let zero = b.u32(0);
        let vec4 = self.vec4(Scalar::U32);
        let b = &mut self.body;
        let header = b.expr(Expression::Compose {
            ty: vec4,
            components: vec![count, zero, zero, zero],
        });
        let record = b.expr(Expression::GlobalVariable(gc.record));
        let record = b.load(record);
        let records = b.expr(Expression::GlobalVariable(gc.records));
        let array = b.index(records, 0);
        let slot = b.access(array, record);
        b.store(slot, header);
        b.stmt(naga::Statement::Return { value: None });
    }
}
