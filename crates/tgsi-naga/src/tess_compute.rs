//! Tessellation shaders as compute shaders ([`crate::Options::tessellation_as_compute`]):
//! naga has no tessellation stages (nor has WebGPU), so a host runs the control shader
//! (TCS) as a compute shader, tessellates on its side, and runs the evaluation shader (TES)
//! as another, with the registers of `tgsi_exec`'s tessellation (`tgsi_exec::tessellation`)
//! in storage buffers in group [`crate::STAGE_IO_GROUP`]. Both read a patch's input
//! vertices as `per_vertex` lays them out: `V · I` vec4s, `IN[v][i]` at
//! `v · I + i`, per-patch inputs (`PATCH`, `TESSOUTER`, `TESSINNER`) in vertex 0's slots.
//! `V` (vertices per patch) is the dispatch's; `I` and the output stride `O` are one more
//! than the largest `IN` and `OUT` index declared ([`crate::vertex_io_strides`]).
//!
//! **Control**: one workgroup of `TCS_VERTICES_OUT` = `n` invocations per patch, invocation
//! `g` of the dispatch running invocation `g mod n` of patch `g div n` (`g = id.x + id.y ·
//! header.y` of the global invocation id; the host makes `header.y` a multiple of `n`, so
//! a workgroup is one patch).
//! - binding 0, read-only: `{ header: vec4<u32>, inputs: array<vec4<u32>> }`, the header
//!   holding (patches, invocations per row, `V`, 0); `inputs[0]` is zero (what a read out
//!   of range gives); patch `p` from `1 + p · (1 + V · I)` on: (primitive id, 0, 0, 0),
//!   then its inputs.
//! - binding 1: `{ outputs: array<vec4<u32>> }`: `outputs[0]` receives writes out of range
//!   (never read); patch `p`'s output file from `1 + p · n · O` on, with `OUT[v][i]` at
//!   `v · O + i` (a one-dimensional `OUT[i]` is vertex 0's), zero before the dispatch.
//!   The invocations read and write it there, a channel at a time, so each sees the
//!   others' writes after a `BARRIER` (a workgroup and storage barrier), as GL requires.
//!   Writes of one register channel by several invocations between barriers race (the
//!   interpreter runs them in lockstep, the last invocation winning); in Mesa's shaders
//!   they write the same value.
//! - system values: `INVOCATIONID`, `VERTICESIN` (= `V`), `PRIM_ID` in x, others zero.
//!
//! **Evaluation**: invocation `k` of a dispatch of [`TESS_EVAL_WORKGROUP_SIZE`]-wide
//! workgroups (`k = id.x + id.y · header.y`) evaluates domain point `k`.
//! - binding 0, read-only: the header holds (points, invocations per row, `V`, 0);
//!   `inputs[0]` is zero; point `k` at `inputs[1 + k]`: (u, v, w as floats, patch `p`);
//!   patch `p` from `1 + points + p · (2 + V · I)` on: its four outer levels, (inner x,
//!   inner y, vertices in, primitive id), then its inputs.
//! - binding 1: `{ outputs: array<vec4<u32>> }`: the declared `OUT[i]` of point `k` at
//!   `outputs[k · O + i]`, as a vertex shader run as a compute shader writes them.
//! - system values: `TESSCOORD` = (u, v, w, 0), `TESSOUTER` the outer levels, `TESSINNER`
//!   (inner x, inner y, 0, 0), `VERTICESIN` and `PRIM_ID` in x, others zero.

use std::rc::Rc;

use naga::{BinaryOperator, Expression, GlobalVariable, Handle, Scalar, TypeInner};
use tgsi::enums::{PropertyName, Semantic};
use tgsi::ir::{Register, Span};
use tgsi::Shader;

use crate::error::{Error, Result};
use crate::per_vertex::{InRange, PerVertexInputs, VertexCount};
use crate::translate::Translator;
use crate::vertex_compute::{declared_outputs, vertex_io_strides, StageIo, VertexCompute};

/// Invocations per workgroup of an evaluation shader run as a compute shader.
pub const TESS_EVAL_WORKGROUP_SIZE: u32 = 64;

/// The `TCS_VERTICES_OUT` of a control shader: its workgroup size.
pub fn control_vertices_out(shader: &Shader) -> Result<u32> {
    let property = shader
        .properties
        .iter()
        .rev()
        .find(|p| p.name == PropertyName::TcsVerticesOut);
    let (value, span) = property.map_or((0, Span::default()), |p| (p.value, p.span));
    let limit = tgsi::Limits::default().max_patch_vertices;
    if (1..=limit).contains(&value) {
        Ok(value)
    } else {
        Err(Error::new(
            span,
            PropertyName::TcsVerticesOut.name(),
            format!("{value} is not 1 to {limit}: a control shader needs it"),
        ))
    }
}

/// What a control shader run as a compute shader keeps: its output file in the output
/// buffer.
pub(crate) struct SharedOutputs {
    /// The variable holding the output file (`{ outputs: array<vec4<u32>> }`).
    pub buffer: Handle<GlobalVariable>,
    /// A private `u32`: the slot of the patch's `OUT[0][0]`.
    pub first: Handle<GlobalVariable>,
    /// `n`.
    pub vertices: u32,
    /// `O`.
    pub stride: u32,
}

impl Translator<'_> {
    /// Declares a tessellation stage's buffers (types `{ty}Inputs`, `{ty}Outputs`, variables
    /// `{var}_inputs`, `{var}_outputs`) and the invocation id; returns them, the invocation
    /// `g = id.x + id.y · header.y`, and the header's count (`header.x`) and vertices per
    /// patch (`header.z`).
    fn tess_stage_io(
        &mut self,
        ty: &str,
        var: &str,
    ) -> (StageIo, Handle<Expression>, [Handle<Expression>; 2]) {
        let (inputs_ty, outputs_ty) = (format!("{ty}Inputs"), format!("{ty}Outputs"));
        let (inputs_var, outputs_var) = (format!("{var}_inputs"), format!("{var}_outputs"));
        let io = self.declare_stage_io(
            (&inputs_ty, &inputs_var),
            (&outputs_ty, &outputs_var, "outputs"),
        );
        let b = &mut self.body;
        let base = b.expr(Expression::GlobalVariable(io.inputs));
        let header = b.index(base, 0);
        let header = b.load(header);
        let row = b.index(header, 1);
        let (x, y) = (b.index(io.id, 0), b.index(io.id, 1));
        let above = b.binary(BinaryOperator::Multiply, y, row);
        let g = b.binary(BinaryOperator::Add, x, above);
        let count = b.index(header, 0);
        let vertices = b.index(header, 2);
        (io, g, [count, vertices])
    }

    /// Stores `value` in a new private `u32` and returns the variable.
    fn keep(&mut self, name: &str, value: Handle<Expression>) -> Handle<GlobalVariable> {
        let u32_ty = self.ty(TypeInner::Scalar(Scalar::U32));
        let var = self.private(name, u32_ty);
        let pointer = self.body.expr(Expression::GlobalVariable(var));
        self.body.store(pointer, value);
        var
    }

    /// Makes `IN[v][i]` read the patch whose `stride` registers per vertex start at slot
    /// `first` of `buffer`, `vertices` vertices (both kept in private variables named after
    /// `stage`, as subroutines read inputs too).
    fn patch_inputs(
        &mut self,
        stage: &str,
        buffer: Handle<GlobalVariable>,
        first: Handle<Expression>,
        vertices: Handle<Expression>,
        stride: u32,
    ) {
        let first = self.keep(&format!("{stage}_first_input"), first);
        let vertices = self.keep(&format!("{stage}_vertices_in"), vertices);
        self.per_vertex_inputs = Some(Rc::new(PerVertexInputs {
            buffer,
            first,
            vertices: VertexCount::Private(vertices),
            stride,
            primitive_ids: None,
        }));
    }

    /// Declares a control shader's buffers and invocation id, returns early from the
    /// workgroups past the patch count, and sets up its inputs, outputs and `SV` registers.
    pub(crate) fn declare_tess_control_compute(&mut self) -> Result<()> {
        let n = control_vertices_out(self.shader)?;
        let (input_stride, output_stride) = vertex_io_strides(self.shader);
        let (io, g, [patches, vertices_in]) = self.tess_stage_io("TessControl", "tess_control");
        let b = &mut self.body;
        let n_value = b.u32(n);
        let p = b.binary(BinaryOperator::Divide, g, n_value);
        let invocation = b.binary(BinaryOperator::Modulo, g, n_value);
        let past = b.binary(BinaryOperator::GreaterEqual, p, patches);
        b.if_then(past, |b| b.stmt(naga::Statement::Return { value: None }));
        // Patch p's header at 1 + p · (1 + V · I), its inputs after it.
        let one = b.u32(1);
        let stride = b.u32(input_stride);
        let per_vertex = b.binary(BinaryOperator::Multiply, vertices_in, stride);
        let per_patch = b.binary(BinaryOperator::Add, per_vertex, one);
        let skipped = b.binary(BinaryOperator::Multiply, p, per_patch);
        let at = b.binary(BinaryOperator::Add, skipped, one);
        let first_input = b.binary(BinaryOperator::Add, at, one);
        let base = b.expr(Expression::GlobalVariable(io.inputs));
        let array = b.index(base, 1);
        let info = b.access(array, at);
        let info = b.load(info);
        let primitive = b.index(info, 0);
        // The output file at 1 + p · n · O (n · O ≤ 32 · 81 words of the declared limits).
        let file = b.u32(n.saturating_mul(output_stride));
        let skipped = b.binary(BinaryOperator::Multiply, p, file);
        let first_output = b.binary(BinaryOperator::Add, skipped, one);
        self.patch_inputs("tcs", io.inputs, first_input, vertices_in, input_stride);
        let first_output = self.keep("tcs_first_output", first_output);
        self.store_system_values(
            &[
                (Semantic::InvocationId, invocation),
                (Semantic::VerticesIn, vertices_in),
                (Semantic::PrimId, primitive),
            ],
            &[],
        )?;
        self.shared_outputs = Some(Rc::new(SharedOutputs {
            buffer: io.outputs,
            first: first_output,
            vertices: n,
            stride: output_stride,
        }));
        Ok(())
    }

    /// Declares an evaluation shader's buffers and invocation id, returns early from
    /// invocations past the point count, and sets up its inputs and `SV` registers; its
    /// outputs are stored as a vertex shader's ([`Translator::store_outputs_and_return`]).
    pub(crate) fn declare_tess_eval_compute(&mut self) -> Result<()> {
        let (input_stride, output_stride) = vertex_io_strides(self.shader);
        let vec4 = self.vec4(Scalar::U32);
        let (io, k, [points, vertices_in]) = self.tess_stage_io("TessEval", "tess_eval");
        let b = &mut self.body;
        let past = b.binary(BinaryOperator::GreaterEqual, k, points);
        b.if_then(past, |b| b.stmt(naga::Statement::Return { value: None }));
        let one = b.u32(1);
        let two = b.u32(2);
        let base = b.expr(Expression::GlobalVariable(io.inputs));
        let array = b.index(base, 1);
        let point_at = b.binary(BinaryOperator::Add, k, one);
        let point = b.access(array, point_at);
        let point = b.load(point);
        let p = b.index(point, 3);
        // Patch p at 1 + points + p · (2 + V · I).
        let stride = b.u32(input_stride);
        let per_vertex = b.binary(BinaryOperator::Multiply, vertices_in, stride);
        let per_patch = b.binary(BinaryOperator::Add, per_vertex, two);
        let skipped = b.binary(BinaryOperator::Multiply, p, per_patch);
        let patches_at = b.binary(BinaryOperator::Add, points, one);
        let outer_at = b.binary(BinaryOperator::Add, patches_at, skipped);
        let info_at = b.binary(BinaryOperator::Add, outer_at, one);
        let first_input = b.binary(BinaryOperator::Add, outer_at, two);
        let outer = b.access(array, outer_at);
        let outer = b.load(outer);
        let info = b.access(array, info_at);
        let info = b.load(info);
        let zero = b.u32(0);
        let coord = [0, 1, 2].map(|c| b.index(point, c));
        let coord = b.expr(Expression::Compose {
            ty: vec4,
            components: vec![coord[0], coord[1], coord[2], zero],
        });
        let inner = [0, 1].map(|c| b.index(info, c));
        let inner = b.expr(Expression::Compose {
            ty: vec4,
            components: vec![inner[0], inner[1], zero, zero],
        });
        let patch_vertices = b.index(info, 2);
        let primitive = b.index(info, 3);
        self.patch_inputs("tes", io.inputs, first_input, vertices_in, input_stride);
        self.store_system_values(
            &[
                (Semantic::VerticesIn, patch_vertices),
                (Semantic::PrimId, primitive),
            ],
            &[
                (Semantic::TessCoord, coord),
                (Semantic::TessOuter, outer),
                (Semantic::TessInner, inner),
            ],
        )?;
        self.vertex_compute = Some(VertexCompute {
            vertex: k,
            outputs: io.outputs,
            output_stride,
            declared_outputs: declared_outputs(self.shader),
        });
        Ok(())
    }

    /// A pointer to a control shader's `OUT[v][i]` in the output buffer (the slot for writes
    /// out of range when `v` or `i` is), and whether it is in range when only the run
    /// knows.
    pub(crate) fn shared_output(
        &mut self,
        reg: &Register,
    ) -> Result<(Handle<Expression>, Option<Handle<Expression>>)> {
        let Some(so) = self.shared_outputs.clone() else {
            return Err(self.unsupported("internal: outputs used before their buffer"));
        };
        let (vertex, v_indirect) = match &reg.dimension {
            Some(d) => (d.index, d.indirect),
            None => (0, None),
        };
        let known = |i: i32, limit: u32| u32::try_from(i).is_ok_and(|i| i < limit);
        if reg.indirect.is_none() && !known(reg.index, so.stride) {
            return Err(self.unsupported(format!("OUT[{}] is not declared", reg.index)));
        }
        let v = v_indirect
            .map(|ind| self.address(&ind, vertex))
            .transpose()?;
        let i = reg
            .indirect
            .map(|ind| self.address(&ind, reg.index))
            .transpose()?;
        let b = &mut self.body;
        let mut range = InRange::default();
        let i_value = match i {
            Some(i) => {
                let limit = b.u32(so.stride);
                range.check(b, i, limit)
            }
            None => b.u32(reg.index as u32),
        };
        let v_value = match v {
            Some(v) => {
                let limit = b.u32(so.vertices);
                range.check(b, v, limit)
            }
            None => b.u32(vertex as u32),
        };
        let mut in_range = range.0;
        let first = b.expr(Expression::GlobalVariable(so.first));
        let first = b.load(first);
        let stride = b.u32(so.stride);
        let skipped = b.binary(BinaryOperator::Multiply, v_value, stride);
        let within = b.binary(BinaryOperator::Add, skipped, i_value);
        let mut slot = b.binary(BinaryOperator::Add, first, within);
        if v_indirect.is_none() && !known(vertex, so.vertices) {
            // A vertex the patch does not have: reads zero, writes are dropped.
            let f = b.expr(Expression::Literal(naga::Literal::Bool(false)));
            in_range = Some(f);
        }
        if let Some(ok) = in_range {
            let sink = b.u32(0);
            slot = b.select(ok, slot, sink);
        }
        let base = b.expr(Expression::GlobalVariable(so.buffer));
        let array = b.index(base, 0);
        Ok((b.access(array, slot), in_range))
    }

    /// The words of a control shader's `OUT[v][i]` (zero out of range).
    pub(crate) fn load_shared_output(&mut self, reg: &Register) -> Result<Handle<Expression>> {
        let (pointer, in_range) = self.shared_output(reg)?;
        let value = self.body.load(pointer);
        Ok(match in_range {
            Some(ok) => {
                let vec4 = self.vec4(Scalar::U32);
                let zero = self.body.expr(Expression::ZeroValue(vec4));
                self.body.select(ok, value, zero)
            }
            None => value,
        })
    }
}
