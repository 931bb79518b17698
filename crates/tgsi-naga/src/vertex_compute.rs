//! A vertex shader as a compute shader ([`crate::Options::vertex_as_compute`]), for hosts
//! that need a vertex shader's outputs and have no transform feedback (WebGPU): invocation
//! `v` of a one-dimensional dispatch of [`VERTEX_WORKGROUP_SIZE`]-wide workgroups runs
//! vertex `v`, reading its registers from and writing them to storage buffers in group
//! [`STAGE_IO_GROUP`]:
//!
//! - binding 0, read-only: `{ header: vec4<u32>, inputs: array<vec4<u32>> }`, the header
//!   holding (vertex count, base vertex, instance, 0) and `inputs[v · I + i]` the words of
//!   `IN[i]` of vertex `v`, `I` the input stride of [`vertex_io_strides`];
//! - binding 1: `{ outputs: array<vec4<u32>> }`, receiving at `outputs[v · O + i]` the words
//!   of `OUT[i]` at the end of vertex `v` (`O` the output stride).
//!
//! The system values are the interpreter's (`tgsi_exec::run_vertices`): `VERTEXID` = v +
//! base vertex (wrapping), `VERTEXID_NOBASE` = v, `BASEVERTEX`, `INSTANCEID`, each in x with
//! y, z, w zero; other system values read zero.

use naga::{
    AddressSpace, Binding, BuiltIn, Expression, FunctionArgument, GlobalVariable, Handle, Scalar,
    StorageAccess, TypeInner, VectorSize,
};
use tgsi::enums::{File, Semantic};
use tgsi::ir::Register;
use tgsi::Shader;

use crate::error::Result;
use crate::translate::Translator;

/// Invocations per workgroup of a vertex shader run as a compute shader.
pub const VERTEX_WORKGROUP_SIZE: u32 = 64;

/// The bind group of the input and output buffers of a vertex or geometry shader run as a
/// compute shader.
pub const STAGE_IO_GROUP: u32 = 3;

/// The input and output strides of a vertex shader run as a compute shader: one more than
/// the largest `IN` and `OUT` register index it declares (0 without any).
pub fn vertex_io_strides(shader: &Shader) -> (u32, u32) {
    let stride = |file: File| {
        shader
            .declarations
            .iter()
            .filter(|d| d.file == file)
            .map(|d| d.last.saturating_add(1))
            .max()
            .unwrap_or(0)
    };
    (stride(File::Input), stride(File::Output))
}

/// The declared `OUT` registers, in index order: what a vertex shader run as a compute
/// shader writes and what each vertex a geometry shader emits records.
pub(crate) fn declared_outputs(shader: &Shader) -> Vec<u32> {
    let mut outputs: Vec<u32> = shader
        .declarations
        .iter()
        .filter(|d| d.file == File::Output)
        .flat_map(|d| d.first..=d.last)
        .collect();
    outputs.sort_unstable();
    outputs.dedup();
    outputs
}

/// What the entry point keeps of the vertex it runs.
#[derive(Clone)]
pub(crate) struct VertexCompute {
    /// The vertex index `v`.
    pub vertex: Handle<Expression>,
    pub outputs: Handle<GlobalVariable>,
    pub output_stride: u32,
    /// The declared `OUT` registers.
    pub declared_outputs: Vec<u32>,
}

/// The buffers and the invocation id of a stage run as a compute shader.
pub(crate) struct StageIo {
    /// Binding 0, read-only.
    pub inputs: Handle<GlobalVariable>,
    /// Binding 1.
    pub outputs: Handle<GlobalVariable>,
    /// The global invocation id (`vec3<u32>`).
    pub id: Handle<Expression>,
}

impl Translator<'_> {
    /// Declares the input buffer (`inputs`: type and variable names; a header and words) and
    /// the output buffer (`outputs`: type, variable and array member names) of a stage run
    /// as a compute shader, in [`STAGE_IO_GROUP`], and the global invocation id argument.
    pub(crate) fn declare_stage_io(
        &mut self,
        inputs: (&str, &str),
        outputs: (&str, &str, &str),
    ) -> StageIo {
        let inputs_ty = self.word_vectors(inputs.0, true, "inputs");
        let outputs_ty = self.word_vectors(outputs.0, false, outputs.2);
        let buffer = |t: &mut Self, name: &str, access, ty, binding| {
            t.module.global_variables.append(
                GlobalVariable {
                    name: Some(name.to_string()),
                    space: AddressSpace::Storage { access },
                    binding: Some(naga::ResourceBinding {
                        group: STAGE_IO_GROUP,
                        binding,
                    }),
                    ty,
                    init: None,
                    memory_decorations: naga::MemoryDecorations::empty(),
                },
                naga::Span::UNDEFINED,
            )
        };
        let read_write = StorageAccess::LOAD | StorageAccess::STORE;
        let inputs = buffer(self, inputs.1, StorageAccess::LOAD, inputs_ty, 0);
        let outputs = buffer(self, outputs.1, read_write, outputs_ty, 1);
        let id_ty = self.ty(TypeInner::Vector {
            size: VectorSize::Tri,
            scalar: Scalar::U32,
        });
        self.body.function.arguments.push(FunctionArgument {
            name: Some("invocation".to_string()),
            ty: id_ty,
            binding: Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
        });
        let id = self.body.expr(Expression::FunctionArgument(0));
        StageIo {
            inputs,
            outputs,
            id,
        }
    }

    /// Declares the buffers and the invocation-id argument, returns early from invocations
    /// past the vertex count, and fills the `IN` and `SV` registers.
    pub(crate) fn declare_vertex_compute(&mut self) -> Result<()> {
        let (input_stride, output_stride) = vertex_io_strides(self.shader);
        let vec4 = self.vec4(Scalar::U32);
        let io = self.declare_stage_io(
            ("VertexInputs", "vertex_inputs"),
            ("VertexOutputs", "vertex_outputs", "outputs"),
        );
        let (inputs, outputs) = (io.inputs, io.outputs);
        let b = &mut self.body;
        let vertex = b.index(io.id, 0);
        let base = b.expr(Expression::GlobalVariable(inputs));
        let header = b.index(base, 0);
        let header = b.load(header);
        let count = b.index(header, 0);
        let past = b.binary(naga::BinaryOperator::GreaterEqual, vertex, count);
        b.if_then(past, |b| b.stmt(naga::Statement::Return { value: None }));
        let stride = b.u32(input_stride);
        let first_input = b.binary(naga::BinaryOperator::Multiply, vertex, stride);
        let base_vertex = b.index(header, 1);
        let instance = b.index(header, 2);
        let zero = b.u32(0);
        let seen_inputs: Vec<(File, u32, Option<Semantic>)> = self
            .shader
            .declarations
            .iter()
            .filter(|d| matches!(d.file, File::Input | File::SystemValue))
            .flat_map(|d| (d.first..=d.last).map(move |i| (d.file, i, d.semantic.map(|s| s.name))))
            .collect();
        let mut done = std::collections::HashSet::new();
        for (file, index, semantic) in seen_inputs {
            // Mesa repeats declarations (with narrower masks); the first one counts.
            if !done.insert((file, index)) {
                continue;
            }
            let b = &mut self.body;
            let x = match semantic {
                Some(Semantic::VertexId) => {
                    Some(b.binary(naga::BinaryOperator::Add, vertex, base_vertex))
                }
                Some(Semantic::VertexIdNoBase) => Some(vertex),
                Some(Semantic::BaseVertex) => Some(base_vertex),
                Some(Semantic::InstanceId) => Some(instance),
                _ => None,
            };
            let words = match (x, file) {
                (Some(x), _) => b.expr(Expression::Compose {
                    ty: vec4,
                    components: vec![x, zero, zero, zero],
                }),
                (None, File::Input) => {
                    let offset = b.u32(index);
                    let at = b.binary(naga::BinaryOperator::Add, first_input, offset);
                    let array = b.index(base, 1);
                    let pointer = b.access(array, at);
                    b.load(pointer)
                }
                (None, _) => b.expr(Expression::ZeroValue(vec4)),
            };
            let pointer = self.register_pointer(&Register::new(file, index as i32))?;
            self.body.store(pointer, words);
        }
        let declared_outputs = declared_outputs(self.shader);
        self.vertex_compute = Some(VertexCompute {
            vertex,
            outputs,
            output_stride,
            declared_outputs,
        });
        Ok(())
    }

    /// Stores the declared `OUT` registers of the vertex and returns.
    pub(crate) fn store_vertex_outputs_and_return(&mut self, vc: &VertexCompute) -> Result<()> {
        let stride = self.body.u32(vc.output_stride);
        let first = self
            .body
            .binary(naga::BinaryOperator::Multiply, vc.vertex, stride);
        let base = self.body.expr(Expression::GlobalVariable(vc.outputs));
        let array = self.body.index(base, 0);
        for &index in &vc.declared_outputs {
            let pointer = self.register_pointer(&Register::new(File::Output, index as i32))?;
            let words = self.body.load(pointer);
            let offset = self.body.u32(index);
            let at = self.body.binary(naga::BinaryOperator::Add, first, offset);
            let target = self.body.access(array, at);
            self.body.store(target, words);
        }
        self.body.stmt(naga::Statement::Return { value: None });
        Ok(())
    }
}
