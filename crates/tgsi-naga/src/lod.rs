//! LODQ and LOD: the mip level and the level of detail a sample would use, computed in the
//! shader as softpipe computes them (naga has no LOD query, and a GPU's own would differ):
//! the implicit λ = `util_fast_log2(ρ)` of the coordinates' screen derivatives scaled by the
//! size of the view's first level (0 outside fragment shaders), plus the sampler's LOD bias;
//! the level is that LOD clamped to the sampler's `[min_lod, max_lod]` and the view's
//! levels, rounded for a nearest mip filter, 0 without mipmapping
//! ([`crate::Options::lod_queries`]).

use naga::{
    BinaryOperator as B, DerivativeAxis, DerivativeControl, Expression, GlobalVariable, Handle,
    ImageDimension, ImageQuery, Literal, MathFunction, Scalar, ScalarKind, Span, TypeInner,
};
use tgsi::enums::Processor;
use tgsi::ir::Instruction;
use tgsi::opcode::OperandType;
use tgsi::sampler::{fast_log2_table, FAST_LOG2_TABLE_LEN};

use crate::error::Result;
use crate::resources::ImageVar;
use crate::translate::{LodQuery, MipFilter, Translator};

type H = Handle<Expression>;

/// How many coordinates the implicit λ of `view` takes: s (1-D), s and t (2-D, RECT),
/// s, t and r (3-D, cube).
pub(crate) fn lambda_coordinates(view: &ImageVar) -> usize {
    match view.dim {
        ImageDimension::D1 => 1,
        _ if view.one_d => 1,
        ImageDimension::D2 => 2,
        ImageDimension::D3 | ImageDimension::Cube => 3,
    }
}

impl Translator<'_> {
    /// LODQ / LOD of `view` through `SAMP[unit]`: `(level, lod, 0, 0)`, the level relative
    /// to the view's first.
    pub(crate) fn lod_query(
        &mut self,
        inst: &Instruction,
        view: &ImageVar,
        unit: u32,
    ) -> Result<H> {
        let lambda = if self.shader.processor == Processor::Fragment {
            let mut coords = Vec::new();
            for c in 0..lambda_coordinates(view) {
                coords.push(self.fetch(&inst.src[0], c, OperandType::F32)?);
            }
            self.implicit_lambda(view, &coords)?
        } else {
            self.body.f32(0.0)
        };
        let lod = self.plus_sampler_bias(lambda, unit);
        let query = self
            .options
            .lod_queries
            .get(&unit)
            .copied()
            .unwrap_or_default();
        let level = self.relative_level(view, query, lod);
        let zero = self.body.f32(0.0);
        let ty = self.vec4(Scalar::F32);
        Ok(self.body.expr(Expression::Compose {
            ty,
            components: vec![level, lod, zero, zero],
        }))
    }

    /// `lod` plus the LOD bias of `SAMP[unit]` ([`crate::Options::lod_biases`]).
    pub(crate) fn plus_sampler_bias(&mut self, lod: H, unit: u32) -> H {
        let bias = self.options.lod_biases.get(&unit).copied().unwrap_or(0.0);
        let bias = self.body.f32(bias);
        self.body.binary(B::Add, lod, bias)
    }

    /// The level relative to the view's first that a sampler's mip filter uses for `lod`
    /// (softpipe's `mip_rel_level_*`), as a float: `lod` clamped to the sampler's LOD range
    /// and the view's levels, rounded for a nearest mip filter, 0 without mipmapping.
    pub(crate) fn relative_level(&mut self, view: &ImageVar, query: LodQuery, lod: H) -> H {
        let LodQuery {
            mip_filter,
            min_lod,
            max_lod,
        } = query;
        let image = self.body.expr(Expression::GlobalVariable(view.var));
        let levels = self.body.expr(Expression::ImageQuery {
            image,
            query: ImageQuery::NumLevels,
        });
        let levels = self.body.convert(levels, Scalar::F32);
        let (zero, one) = (self.body.f32(0.0), self.body.f32(1.0));
        let last = self.body.binary(B::Subtract, levels, one);
        let (min_lod, max_lod) = (self.body.f32(min_lod), self.body.f32(max_lod));
        let clamped = self.clampf(lod, min_lod, max_lod);
        let clamped = self.clampf(clamped, zero, last);
        match mip_filter {
            MipFilter::None => zero,
            MipFilter::Nearest => {
                let half = self.body.f32(0.5);
                let l = self.body.binary(B::Add, clamped, half);
                self.body.math(MathFunction::Trunc, &[l])
            }
            MipFilter::Linear => clamped,
        }
    }

    /// softpipe's implicit λ of `coords` ([`lambda_coordinates`] of them;
    /// `compute_lambda_*`): ρ is the largest derivative of each coordinate times the first
    /// level's size in that dimension, the largest of those (cube maps: the largest
    /// derivative times half the face size).
    pub(crate) fn implicit_lambda(&mut self, view: &ImageVar, coords: &[H]) -> Result<H> {
        let n = coords.len();
        let image = self.body.expr(Expression::GlobalVariable(view.var));
        let level = self.body.i32(0);
        let size = self.body.expr(Expression::ImageQuery {
            image,
            query: ImageQuery::Size { level: Some(level) },
        });
        let vector = matches!(self.type_of(size)?, TypeInner::Vector { .. });
        let mut extents = Vec::with_capacity(n);
        let mut largest = Vec::with_capacity(n);
        for (c, &x) in coords.iter().enumerate() {
            let [dx, dy] = [DerivativeAxis::X, DerivativeAxis::Y].map(|axis| {
                let d = self.body.expr(Expression::Derivative {
                    axis,
                    ctrl: DerivativeControl::None,
                    expr: x,
                });
                self.body.math(MathFunction::Abs, &[d])
            });
            largest.push(self.max2(dx, dy));
            // A cube's faces are square; its size has two components.
            let k = if view.dim == ImageDimension::Cube {
                0
            } else {
                c
            };
            let extent = if vector {
                self.body.index(size, k as u32)
            } else {
                size
            };
            extents.push(self.body.convert(extent, Scalar::F32));
        }
        let rho = if view.dim == ImageDimension::Cube {
            // MAX3(m) · w / 2.
            let m = self.largest(&largest);
            let m = self.body.binary(B::Multiply, m, extents[0]);
            let two = self.body.f32(2.0);
            self.body.binary(B::Divide, m, two)
        } else {
            let scaled: Vec<H> = largest
                .iter()
                .zip(&extents)
                .map(|(&m, &e)| self.body.binary(B::Multiply, m, e))
                .collect();
            self.largest(&scaled)
        };
        Ok(self.fast_log2(rho))
    }

    /// The largest of `values` by `MAX2` (`MAX3(a, b, c)` is `MAX2(MAX2(a, b), c)`).
    fn largest(&mut self, values: &[H]) -> H {
        let mut it = values.iter().copied();
        let first = it.next().unwrap_or_else(|| self.body.f32(0.0));
        it.fold(first, |acc, v| self.max2(acc, v))
    }

    /// `MAX2(a, b) = a > b ? a : b`.
    fn max2(&mut self, a: H, b: H) -> H {
        let greater = self.body.binary(B::Greater, a, b);
        self.body.select(greater, a, b)
    }

    /// `CLAMP(x, lo, hi) = x > lo ? (x > hi ? hi : x) : lo` (NaN gives `lo`).
    pub(crate) fn clampf(&mut self, x: H, lo: H, hi: H) -> H {
        let above = self.body.binary(B::Greater, x, hi);
        let high = self.body.select(above, hi, x);
        let over = self.body.binary(B::Greater, x, lo);
        self.body.select(over, high, lo)
    }

    /// `util_fast_log2(x)`: `(exponent − 127) + log2_table[(mantissa + 2¹⁴) >> 15]`, the
    /// sign ignored.
    fn fast_log2(&mut self, x: H) -> H {
        let bits = self.body.bitcast(x, ScalarKind::Uint);
        let exponent_mask = self.body.u32(0x7f80_0000);
        let exponent = self.body.binary(B::And, bits, exponent_mask);
        let shift = self.body.u32(23);
        let exponent = self.body.binary(B::ShiftRight, exponent, shift);
        let exponent = self.body.bitcast(exponent, ScalarKind::Sint);
        let bias = self.body.i32(127);
        let exponent = self.body.binary(B::Subtract, exponent, bias);
        let exponent = self.body.convert(exponent, Scalar::F32);
        let mantissa_mask = self.body.u32(0x007f_ffff);
        let mantissa = self.body.binary(B::And, bits, mantissa_mask);
        let round = self.body.u32(1 << 14);
        let index = self.body.binary(B::Add, mantissa, round);
        let shift = self.body.u32(15);
        let index = self.body.binary(B::ShiftRight, index, shift);
        let table = self.log2_table();
        let table = self.body.expr(Expression::GlobalVariable(table));
        let entry = self.body.access(table, index);
        let entry = self.body.load(entry);
        self.body.binary(B::Add, exponent, entry)
    }

    /// The module's private copy of `util_fast_log2`'s table, made on first use.
    fn log2_table(&mut self) -> Handle<GlobalVariable> {
        if let Some(table) = self.log2_table {
            return table;
        }
        let f32_ty = self.ty(TypeInner::Scalar(Scalar::F32));
        let ty = self.array_of(f32_ty, FAST_LOG2_TABLE_LEN as u32);
        let components = fast_log2_table()
            .iter()
            .map(|&entry| {
                let entry = Literal::F32(entry);
                self.module
                    .global_expressions
                    .append(Expression::Literal(entry), Span::UNDEFINED)
            })
            .collect();
        let init = self
            .module
            .global_expressions
            .append(Expression::Compose { ty, components }, Span::UNDEFINED);
        let table = self.module.global_variables.append(
            GlobalVariable {
                name: Some("fast_log2_table".into()),
                space: naga::AddressSpace::Private,
                binding: None,
                ty,
                init: Some(init),
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
        self.log2_table = Some(table);
        table
    }
}
