//! Samples of integer views, which naga cannot make (it samples float textures only): texel
//! loads in the shader, as softpipe samples an integer texture with nearest filters (GL
//! allows no other). The level is the one the sampler's mip filter picks from softpipe's
//! LOD ([`crate::Options::lod_queries`]: no mipmapping or nearest mipmapping, the latter
//! for a sampler without an entry; linear mipmapping is refused); each
//! coordinate is wrapped as softpipe's `wrap_nearest_*` wraps it for the sampler's mode
//! ([`crate::Options::texel_samplers`]), RECT coordinates as unnormalised ones; a texel past
//! the edge of a border mode is the border colour; the layer is rounded and clamped to the
//! view's. Texel offsets, constant or in a register, are added where softpipe adds them.

use naga::{BinaryOperator as B, Expression, Handle, ImageQuery, MathFunction, Scalar, ScalarKind};
use naga::{ImageClass, ImageDimension, TypeInner};
use tgsi::enums::Processor;
use tgsi::ir::Instruction;
use tgsi::opcode::{Opcode, OperandType};

use crate::error::Result;
use crate::lod::lambda_coordinates;
use crate::resources::ImageVar;
use crate::translate::{LodQuery, MipFilter, Translator, Wrap};

type H = Handle<Expression>;

impl Translator<'_> {
    /// The texel an integer `view` gives at `coords` (projected already) through
    /// `SAMP[unit]`, `layer` the array coordinate, `texels` for RECT (unnormalised)
    /// coordinates.
    pub(crate) fn sample_integer(
        &mut self,
        inst: &Instruction,
        (view, unit): (&ImageVar, u32),
        coords: Vec<H>,
        layer: Option<H>,
        texels: bool,
    ) -> Result<H> {
        if view.dim == ImageDimension::Cube {
            return Err(self.unsupported("sampling an integer cube map is not translated yet"));
        }
        let ImageClass::Sampled { kind, .. } = view.class else {
            return Err(self.unsupported("samples an integer view of another class"));
        };
        // Without the sampler's state, nearest mipmapping (integer texels do not blend).
        let query = self
            .options
            .lod_queries
            .get(&unit)
            .copied()
            .unwrap_or(LodQuery {
                mip_filter: MipFilter::Nearest,
                ..LodQuery::default()
            });
        let level = match query.mip_filter {
            MipFilter::None => self.body.i32(0),
            MipFilter::Nearest => {
                let lod = self.integer_lod(inst, view, unit, &coords)?;
                let level = self.relative_level(view, query, lod);
                self.body.convert(level, Scalar::I32)
            }
            MipFilter::Linear => {
                return Err(self.unsupported(format!(
                    "an integer view sampled through SAMP[{unit}], which mipmaps linearly"
                )))
            }
        };
        let sampler = self
            .options
            .texel_samplers
            .get(&unit)
            .copied()
            .unwrap_or_default();
        // The level's size from level 0's, `max(1, size >> level)` as Vulkan sizes levels
        // (lavapipe answers a size query with one level per quad).
        let image = self.body.expr(Expression::GlobalVariable(view.var));
        let base = self.body.i32(0);
        let size = self.body.expr(Expression::ImageQuery {
            image,
            query: ImageQuery::Size { level: Some(base) },
        });
        let shift = self.body.bitcast(level, ScalarKind::Uint);
        let unit_size = self.body.u32(1);
        let vector = matches!(self.type_of(size)?, TypeInner::Vector { .. });
        let n = lambda_coordinates(view).min(coords.len());
        let offsets = match self.texel_offsets(inst, n)? {
            Some(offset) => self.offset_terms(offset),
            None => Vec::new(),
        };
        let (zero, one) = (self.body.i32(0), self.body.i32(1));
        let mut indices = Vec::with_capacity(3);
        let mut outside = None;
        for (k, &s) in coords.iter().take(n).enumerate() {
            let extent = if vector {
                self.body.index(size, k as u32)
            } else {
                size
            };
            let extent = self.body.binary(B::ShiftRight, extent, shift);
            let extent = self.body.math(MathFunction::Max, &[extent, unit_size]);
            let i = self.wrap_nearest(sampler.wrap[k], !texels, s, extent, offsets.get(k));
            // Past the edge (border modes only): the border colour; the load reads a texel
            // inside.
            let extent = self.body.bitcast(extent, ScalarKind::Sint);
            let below = self.body.binary(B::Less, i, zero);
            let beyond = self.body.binary(B::GreaterEqual, i, extent);
            let out = self.body.binary(B::LogicalOr, below, beyond);
            outside = Some(match outside {
                Some(o) => self.body.binary(B::LogicalOr, o, out),
                None => out,
            });
            let last = self.body.binary(B::Subtract, extent, one);
            indices.push(self.body.math(MathFunction::Clamp, &[i, zero, last]));
        }
        if view.one_d {
            indices.push(zero);
        }
        let array_index = match layer {
            Some(r) => {
                // softpipe's `coord_to_layer`: ifloor(r + 0.5) clamped to the view's layers.
                let half = self.body.f32(0.5);
                let r = self.body.binary(B::Add, r, half);
                let r = self.ifloor(r);
                let layers = self.body.expr(Expression::ImageQuery {
                    image,
                    query: ImageQuery::NumLayers,
                });
                let layers = self.body.bitcast(layers, ScalarKind::Sint);
                let last = self.body.binary(B::Subtract, layers, one);
                Some(self.body.math(MathFunction::Clamp, &[r, zero, last]))
            }
            None => None,
        };
        let coordinate = self.compose_ints(indices);
        let texel = self.body.expr(Expression::ImageLoad {
            image,
            coordinate,
            array_index,
            sample: None,
            level: Some(level),
        });
        let Some(outside) = outside else {
            return Ok(texel);
        };
        let ty = self.vec4(Scalar::U32);
        let components = sampler.border.iter().map(|&w| self.body.u32(w)).collect();
        let border = self.body.expr(Expression::Compose { ty, components });
        let border = self.body.bitcast(border, kind);
        Ok(self.body.select(outside, border, texel))
    }

    /// The LOD of an integer sample, as softpipe takes it for the opcode: the implicit λ
    /// (plus a TXB-like bias) in fragment shaders, an explicit LOD, or 0; plus the sampler's
    /// bias.
    fn integer_lod(
        &mut self,
        inst: &Instruction,
        view: &ImageVar,
        unit: u32,
        coords: &[H],
    ) -> Result<H> {
        let fragment = self.shader.processor == Processor::Fragment;
        let implicit = |t: &mut Self| {
            let n = lambda_coordinates(view).min(coords.len());
            let lambda = if fragment {
                t.implicit_lambda(view, &coords[..n])?
            } else {
                t.body.f32(0.0)
            };
            Ok::<H, crate::error::Error>(t.plus_sampler_bias(lambda, unit))
        };
        Ok(match inst.opcode {
            Opcode::TEX | Opcode::TXP | Opcode::SAMPLE => implicit(self)?,
            Opcode::TXB | Opcode::TXB2 | Opcode::SAMPLE_B => {
                let bias = self.lod_operand(inst)?;
                let lambda = implicit(self)?;
                self.body.binary(B::Add, lambda, bias)
            }
            Opcode::TXL | Opcode::TXL2 | Opcode::SAMPLE_L => {
                let lod = self.lod_operand(inst)?;
                self.plus_sampler_bias(lod, unit)
            }
            Opcode::TXD | Opcode::SAMPLE_D => {
                return Err(self
                    .unsupported("explicit gradients on an integer view are not translated yet"))
            }
            _ => {
                let zero = self.body.f32(0.0);
                self.plus_sampler_bias(zero, unit)
            }
        })
    }

    /// The bias or explicit LOD operand of TXB/TXL (`src0.w`), TXB2/TXL2 (`src1.x`) and
    /// SAMPLE_B/SAMPLE_L (`src3.x`).
    fn lod_operand(&mut self, inst: &Instruction) -> Result<H> {
        let (src, c) = match inst.opcode {
            Opcode::TXB | Opcode::TXL => (0, 3),
            Opcode::TXB2 | Opcode::TXL2 => (1, 0),
            _ => (3, 0),
        };
        let operand = inst
            .src
            .get(src)
            .ok_or_else(|| self.unsupported("has no LOD operand"))?;
        self.fetch(operand, c, OperandType::F32)
    }

    /// softpipe's `util_ifloor` as a floor converted to `i32`.
    fn ifloor(&mut self, x: H) -> H {
        let f = self.body.math(MathFunction::Floor, &[x]);
        self.body.convert(f, Scalar::I32)
    }

    /// The texel index softpipe's `wrap_nearest_*` (`normalized`) or its unnormalised
    /// variant gives coordinate `s` in a dimension of `size` (`u32`) texels, with `offset`.
    fn wrap_nearest(
        &mut self,
        mode: Wrap,
        normalized: bool,
        s: H,
        size: H,
        offset: Option<&H>,
    ) -> H {
        let offset = offset.copied().unwrap_or_else(|| self.body.i32(0));
        let offset_f = self.body.convert(offset, Scalar::F32);
        let sz = self.body.convert(size, Scalar::F32);
        let size_i = self.body.bitcast(size, ScalarKind::Sint);
        let (zero, one) = (self.body.i32(0), self.body.i32(1));
        let last = self.body.binary(B::Subtract, size_i, one);
        let (fzero, half, fone) = (self.body.f32(0.0), self.body.f32(0.5), self.body.f32(1.0));
        // `lo_test(u) ? lo : hi_test(u) ? hi : ifloor(u)`.
        let pick =
            |t: &mut Self, u: H, (lo_op, lo_at, lo): (B, H, H), (hi_op, hi_at, hi): (B, H, H)| {
                let floor = t.ifloor(u);
                let high = t.body.binary(hi_op, u, hi_at);
                let inner = t.body.select(high, hi, floor);
                let low = t.body.binary(lo_op, u, lo_at);
                t.body.select(low, lo, inner)
            };
        if !normalized {
            return match mode {
                Wrap::ClampToEdge | Wrap::ClampToBorder => {
                    let (lo, hi) = if mode == Wrap::ClampToEdge {
                        (half, self.body.binary(B::Subtract, sz, half))
                    } else {
                        let minus = self.body.f32(-0.5);
                        (minus, self.body.binary(B::Add, sz, half))
                    };
                    let u = self.body.binary(B::Add, s, offset_f);
                    let u = self.clampf(u, lo, hi);
                    self.ifloor(u)
                }
                _ => {
                    let i = self.ifloor(s);
                    let i = self.body.binary(B::Add, i, offset);
                    let low = self.body.math(MathFunction::Min, &[i, last]);
                    let positive = self.body.binary(B::Greater, i, zero);
                    self.body.select(positive, low, zero)
                }
            };
        }
        let scaled = self.body.binary(B::Multiply, s, sz);
        let u = self.body.binary(B::Add, scaled, offset_f);
        // The mirror-clamp modes clamp |u| as the clamp modes clamp u.
        let u = match mode {
            Wrap::MirrorClamp | Wrap::MirrorClampToEdge | Wrap::MirrorClampToBorder => {
                self.body.math(MathFunction::Abs, &[u])
            }
            _ => u,
        };
        match mode {
            Wrap::Repeat => {
                // repeat(i, size) = (i + size · 1024) % size in unsigned arithmetic.
                let i = self.ifloor(scaled);
                let i = self.body.binary(B::Add, i, offset);
                let i = self.body.bitcast(i, ScalarKind::Uint);
                let k = self.body.u32(1024);
                let far = self.body.binary(B::Multiply, size, k);
                let i = self.body.binary(B::Add, i, far);
                let i = self.body.binary(B::Modulo, i, size);
                self.body.bitcast(i, ScalarKind::Sint)
            }
            Wrap::Clamp | Wrap::MirrorClamp => {
                let low = (B::LessEqual, fzero, zero);
                pick(self, u, low, (B::GreaterEqual, sz, last))
            }
            Wrap::ClampToEdge | Wrap::MirrorClampToEdge => {
                let top = self.body.binary(B::Subtract, sz, half);
                pick(self, u, (B::Less, half, zero), (B::Greater, top, last))
            }
            Wrap::ClampToBorder | Wrap::MirrorClampToBorder => {
                // softpipe compares inclusively for CLAMP_TO_BORDER only.
                let (low, high) = if mode == Wrap::ClampToBorder {
                    (B::LessEqual, B::GreaterEqual)
                } else {
                    (B::Less, B::Greater)
                };
                let minus = self.body.f32(-0.5);
                let top = self.body.binary(B::Add, sz, half);
                let below = self.body.i32(-1);
                pick(self, u, (low, minus, below), (high, top, size_i))
            }
            Wrap::MirrorRepeat => {
                let two = self.body.f32(2.0);
                let twice = self.body.binary(B::Multiply, two, sz);
                let min = self.body.binary(B::Divide, fone, twice);
                let max = self.body.binary(B::Subtract, fone, min);
                let shift = self.body.binary(B::Divide, offset_f, sz);
                let s = self.body.binary(B::Add, s, shift);
                let flr = self.ifloor(s);
                let floor = self.body.math(MathFunction::Floor, &[s]);
                let frac = self.body.binary(B::Subtract, s, floor);
                let odd = self.body.binary(B::And, flr, one);
                let odd = self.body.binary(B::NotEqual, odd, zero);
                let mirrored = self.body.binary(B::Subtract, fone, frac);
                let u = self.body.select(odd, mirrored, frac);
                let inside = self.body.binary(B::Multiply, u, sz);
                let index = self.ifloor(inside);
                let high = self.body.binary(B::Greater, u, max);
                let index = self.body.select(high, last, index);
                let low = self.body.binary(B::Less, u, min);
                self.body.select(low, zero, index)
            }
        }
    }
}
