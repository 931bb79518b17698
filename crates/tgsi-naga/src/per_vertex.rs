//! Two-dimensional input registers, `IN[v][i]`, read from a stage's input buffer: the
//! input vertices of a geometry shader's primitive, or of a tessellation shader's patch,
//! when those stages run as compute shaders. A primitive's (patch's) inputs are `V · I`
//! consecutive vec4s from a slot `first` on: `IN[v][i]` at `first + v · I + i`, a
//! one-dimensional `IN[i]` being vertex 0's. An indirect vertex or register index out of
//! range reads the buffer's zero slot (`inputs[0]`), as the interpreter reads 0.

use naga::{AddressSpace, BinaryOperator, Expression, GlobalVariable, Handle, Scalar, VectorSize};
use tgsi::enums::{File, Semantic};
use tgsi::ir::Register;

use crate::body::Body;
use crate::error::Result;
use crate::translate::Translator;

/// How many vertices a primitive or patch has.
#[derive(Clone, Copy)]
pub(crate) enum VertexCount {
    /// Known when translating (a geometry shader's input primitive).
    Fixed(u32),
    /// Known when running: a private `u32` (a patch's size, from the dispatch).
    Private(Handle<GlobalVariable>),
}

/// Where a primitive's or patch's input vertices are.
pub(crate) struct PerVertexInputs {
    /// The input buffer: `{ header, inputs: array<vec4<u32>> }`.
    pub buffer: Handle<GlobalVariable>,
    /// A private `u32`: the slot of `IN[0][0]`.
    pub first: Handle<GlobalVariable>,
    /// Vertices, `V`.
    pub vertices: VertexCount,
    /// Registers per vertex, `I`.
    pub stride: u32,
    /// `IN` registers that read a private `u32` (the primitive) in all four channels instead
    /// of the buffer, and that variable: a geometry shader's `PRIM_ID` inputs.
    pub primitive_ids: Option<(Handle<GlobalVariable>, Vec<u32>)>,
}

/// Whether every index checked so far is below its limit (`None`: nothing checked).
#[derive(Default)]
pub(crate) struct InRange(pub Option<Handle<Expression>>);

impl InRange {
    /// Adds `index < limit` to the checks; returns `index`.
    pub fn check(
        &mut self,
        b: &mut Body,
        index: Handle<Expression>,
        limit: Handle<Expression>,
    ) -> Handle<Expression> {
        let ok = b.binary(BinaryOperator::Less, index, limit);
        self.0 = Some(match self.0 {
            Some(both) => b.binary(BinaryOperator::LogicalAnd, both, ok),
            None => ok,
        });
        index
    }
}

impl Translator<'_> {
    /// A private variable of the invocation (state that subroutines share).
    pub(crate) fn private(&mut self, name: &str, ty: Handle<naga::Type>) -> Handle<GlobalVariable> {
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.to_string()),
                space: AddressSpace::Private,
                binding: None,
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            naga::Span::UNDEFINED,
        )
    }

    /// Sets every declared `SV` register: those of a semantic in `x_values` to (that `u32`,
    /// 0, 0, 0), those in `vectors` to that `vec4<u32>`, the others to zero.
    pub(crate) fn store_system_values(
        &mut self,
        x_values: &[(Semantic, Handle<Expression>)],
        vectors: &[(Semantic, Handle<Expression>)],
    ) -> Result<()> {
        let vec4 = self.vec4(Scalar::U32);
        let system_values: Vec<(u32, Option<Semantic>)> = self
            .shader
            .declarations
            .iter()
            .filter(|d| d.file == File::SystemValue)
            .flat_map(|d| (d.first..=d.last).map(move |i| (i, d.semantic.map(|s| s.name))))
            .collect();
        for (index, semantic) in system_values {
            let find = |list: &[(Semantic, Handle<Expression>)]| {
                list.iter()
                    .find(|(s, _)| Some(*s) == semantic)
                    .map(|&(_, h)| h)
            };
            let b = &mut self.body;
            let words = match (find(x_values), find(vectors)) {
                (Some(x), _) => {
                    let zero = b.u32(0);
                    b.expr(Expression::Compose {
                        ty: vec4,
                        components: vec![x, zero, zero, zero],
                    })
                }
                (None, Some(v)) => v,
                (None, None) => b.expr(Expression::ZeroValue(vec4)),
            };
            let pointer = self.register_pointer(&Register::new(File::SystemValue, index as i32))?;
            self.body.store(pointer, words);
        }
        Ok(())
    }

    /// The words of `IN[v][i]` (a one-dimensional `IN[i]` is vertex 0's).
    pub(crate) fn load_per_vertex_input(
        &mut self,
        pv: &PerVertexInputs,
        reg: &Register,
    ) -> Result<Handle<Expression>> {
        let (vertex, v_indirect) = match &reg.dimension {
            Some(d) => (d.index, d.indirect),
            None => (0, None),
        };
        let stride = pv.stride;
        let known = |i: i32, limit: u32| u32::try_from(i).is_ok_and(|i| i < limit);
        if reg.indirect.is_none() && !known(reg.index, stride) {
            return Err(self.unsupported(format!("IN[{}] is not declared", reg.index)));
        }
        let outside = match pv.vertices {
            VertexCount::Fixed(n) => v_indirect.is_none() && !known(vertex, n),
            VertexCount::Private(_) => vertex < 0 && v_indirect.is_none(),
        };
        if outside {
            // A vertex the primitive does not have reads zero.
            let vec4 = self.vec4(Scalar::U32);
            return Ok(self.body.expr(Expression::ZeroValue(vec4)));
        }
        let v = v_indirect
            .map(|ind| self.address(&ind, vertex))
            .transpose()?;
        let i = reg
            .indirect
            .map(|ind| self.address(&ind, reg.index))
            .transpose()?;
        // Which PRIM_ID registers the operand may read.
        let primitive_ids: Vec<u32> = match (&pv.primitive_ids, i) {
            (None, _) => Vec::new(),
            (Some((_, ids)), Some(_)) => ids.clone(),
            (Some((_, ids)), None) => ids
                .iter()
                .copied()
                .filter(|&k| k == reg.index as u32)
                .collect(),
        };
        let b = &mut self.body;
        let splat_p = match (&pv.primitive_ids, primitive_ids.is_empty()) {
            (Some((primitive, _)), false) => {
                let primitive = b.expr(Expression::GlobalVariable(*primitive));
                let p = b.load(primitive);
                Some(b.expr(Expression::Splat {
                    size: VectorSize::Quad,
                    value: p,
                }))
            }
            _ => None,
        };
        if let (None, None, Some(splat_p)) = (v, i, splat_p) {
            return Ok(splat_p);
        }
        // Whether the (v, i) read is in range; out of range reads the zero slot.
        let mut in_range = InRange::default();
        let i_value = match i {
            Some(i) => {
                let limit = b.u32(stride);
                in_range.check(b, i, limit)
            }
            None => b.u32(reg.index as u32),
        };
        let v_value = match (v, pv.vertices) {
            (Some(v), VertexCount::Fixed(n)) => {
                let limit = b.u32(n);
                in_range.check(b, v, limit)
            }
            (None, VertexCount::Fixed(_)) => b.u32(vertex as u32),
            (v, VertexCount::Private(count)) => {
                let v = v.unwrap_or_else(|| b.u32(vertex as u32));
                let count = b.expr(Expression::GlobalVariable(count));
                let limit = b.load(count);
                in_range.check(b, v, limit)
            }
        };
        let in_range = in_range.0;
        let first = b.expr(Expression::GlobalVariable(pv.first));
        let first = b.load(first);
        let stride_value = b.u32(stride);
        let skipped = b.binary(BinaryOperator::Multiply, v_value, stride_value);
        let within = b.binary(BinaryOperator::Add, skipped, i_value);
        let mut slot = b.binary(BinaryOperator::Add, first, within);
        if let Some(ok) = in_range {
            let zero_slot = b.u32(0);
            slot = b.select(ok, slot, zero_slot);
        }
        let base = b.expr(Expression::GlobalVariable(pv.buffer));
        let array = b.index(base, 1);
        let pointer = b.access(array, slot);
        let mut value = b.load(pointer);
        if let Some(splat_p) = splat_p {
            for k in primitive_ids {
                let mut hit = in_range;
                if let Some(i) = i {
                    let k = b.u32(k);
                    let is_k = b.binary(BinaryOperator::Equal, i, k);
                    hit = Some(match hit {
                        Some(ok) => b.binary(BinaryOperator::LogicalAnd, is_k, ok),
                        None => is_k,
                    });
                }
                if let Some(hit) = hit {
                    value = b.select(hit, splat_p, value);
                }
            }
        }
        Ok(value)
    }
}
