//! Texture instructions. The TEX family (TEX, TXP, TXB, TXL, TEX_LZ, TXD, TG4, TEX2, TXB2,
//! TXL2, TXF, TXF_LZ, TXQ) uses the sampler view and sampler of the same index and names its target; the
//! SAMPLE family (SAMPLE, SAMPLE_B, SAMPLE_C, SAMPLE_C_LZ, SAMPLE_D, SAMPLE_L, GATHER4,
//! SAMPLE_I, SAMPLE_I_MS, SVIEWINFO) names a sampler view and a sampler and takes the target
//! from the view's declaration. Coordinates, layer and depth reference are read from the
//! channels the target assigns them; vertex and compute shaders sample level 0 where TGSI
//! would use implicit derivatives. RECT targets read texel coordinates: they are divided by
//! the texture's size (exact for power-of-two sizes; otherwise the GPU's own rounding of
//! the normalised coordinate decides at texel boundaries). naga takes constant texel offsets
//! only; an offset in a register is added to a texel fetch's coordinates, and moves a
//! gather's coordinates to the offset footprint.

use naga::{
    BinaryOperator as B, DerivativeAxis, DerivativeControl, Expression, Handle, ImageClass,
    ImageDimension, ImageQuery, MathFunction, SampleLevel, Scalar, ScalarKind, TypeInner,
    VectorSize,
};
use tgsi::enums::{File, Processor, TextureTarget};
use tgsi::ir::{Dst, Instruction, Src};
use tgsi::opcode::{Opcode, OperandType};

use crate::error::Result;
use crate::resources::{dimension, ImageVar, TexelBuffer};
use crate::translate::{CompareFunc, CoordinateWrap, Translator};

type H = Handle<Expression>;

/// A texture instruction's texel offset.
pub(crate) enum TexelOffset {
    /// An immediate's components: naga's constant offset.
    Constant(Vec<i32>),
    /// A register's components, as `i32` expressions.
    Register(Vec<H>),
}

/// Where a target keeps its coordinates.
struct Layout {
    /// Number of coordinate channels (x…).
    coords: usize,
    /// Channel of the array layer.
    layer: Option<usize>,
    /// Channel of the depth reference (`Some(4)`: `src1.x`, the cube-array shadow target).
    reference: Option<usize>,
    /// RECT targets: coordinates in texels, not normalised.
    texels: bool,
}

fn layout(target: TextureTarget) -> Option<Layout> {
    use TextureTarget as T;
    let l = |coords, layer, reference| Layout {
        coords,
        layer,
        reference,
        texels: false,
    };
    Some(match target {
        T::Rect => Layout {
            texels: true,
            ..l(2, None, None)
        },
        T::ShadowRect => Layout {
            texels: true,
            ..l(2, None, Some(2))
        },
        T::ShadowCubeArray => l(3, Some(3), Some(4)),
        T::Tex1D => l(1, None, None),
        T::Tex2D | T::Msaa2D => l(2, None, None),
        T::Tex3D | T::Cube => l(3, None, None),
        T::Array1D => l(1, Some(1), None),
        T::Array2D | T::Msaa2DArray => l(2, Some(2), None),
        T::CubeArray => l(3, Some(3), None),
        T::Shadow1D => l(1, None, Some(2)),
        T::Shadow2D => l(2, None, Some(2)),
        T::Shadow1DArray => l(1, Some(1), Some(2)),
        T::Shadow2DArray => l(2, Some(2), Some(3)),
        T::ShadowCube => l(3, None, Some(3)),
        _ => return None,
    })
}

/// The index of the first source of `file` of a texture instruction.
fn operand(inst: &Instruction, file: File) -> Option<u32> {
    inst.src
        .iter()
        .find(|s| s.reg.file == file)
        .and_then(|s| u32::try_from(s.reg.index).ok())
}

/// The sampler unit (`SAMP[i]`) a texture instruction samples through, and the target it
/// samples with: for the SAMPLE family (an `SVIEW` operand) the target that view is
/// declared with (`declared`; unknown when it is not), otherwise the instruction's own.
pub(crate) fn sampling(
    inst: &Instruction,
    declared: impl Fn(u32) -> Option<TextureTarget>,
) -> (Option<u32>, TextureTarget) {
    let target = match operand(inst, File::SamplerView) {
        Some(v) => declared(v).unwrap_or(TextureTarget::Unknown),
        None => inst
            .texture
            .as_ref()
            .map_or(TextureTarget::Unknown, |t| t.target),
    };
    (operand(inst, File::Sampler), target)
}

/// For hosts that set up samplers: the sampler unit and target of every texture
/// instruction of `shader` that names a sampler, by the translation's own rule (the SAMPLE
/// family samples with its view's declared target).
pub fn sampler_targets(shader: &tgsi::Shader) -> Vec<(u32, TextureTarget)> {
    let declared = |v: u32| {
        shader.declarations.iter().find_map(|d| match d.resource {
            Some(tgsi::ResourceDecl::SamplerView { target, .. })
                if d.file == File::SamplerView && (d.first..=d.last).contains(&v) =>
            {
                Some(target)
            }
            _ => None,
        })
    };
    shader
        .instructions
        .iter()
        .filter(|inst| inst.texture.is_some() || operand(inst, File::SamplerView).is_some())
        .filter_map(|inst| match sampling(inst, declared) {
            (Some(unit), target) => Some((unit, target)),
            (None, _) => None,
        })
        .collect()
}

impl Translator<'_> {
    /// Translates a texture instruction.
    pub(crate) fn texture(&mut self, inst: &Instruction) -> Result<()> {
        let Some(dst) = inst.dst.first() else {
            return Err(self.unsupported("has no destination"));
        };
        let (unit, target) = sampling(inst, |v| self.resources.views.get(&v).map(|x| x.target));
        let view_index = operand(inst, File::SamplerView).or(unit);
        let swizzle = view_index.and_then(|i| self.options.view_swizzles.get(&i).copied());
        let buffer = view_index.and_then(|i| self.resources.texel_buffers.get(&i).copied());
        if let Some(buffer) = buffer {
            let (texel, swizzle) = match inst.opcode {
                Opcode::TXF | Opcode::TXF_LZ | Opcode::SAMPLE_I => {
                    (self.buffer_fetch(inst, buffer)?, swizzle)
                }
                Opcode::TXQ | Opcode::SVIEWINFO => (self.buffer_size(buffer), None),
                _ => {
                    return Err(self.unsupported(
                        "samples a buffer view (texel fetches and size queries read one)",
                    ))
                }
            };
            return self.write_texel(dst, texel, swizzle);
        }
        let view = match operand(inst, File::SamplerView) {
            // The SAMPLE family: the view's own target.
            Some(v) => self.view(v, TextureTarget::Unknown)?,
            None => {
                let u = unit.ok_or_else(|| self.unsupported("has no sampler operand"))?;
                self.view(u, target)?
            }
        };
        let texel = match inst.opcode {
            Opcode::TEX
            | Opcode::TXP
            | Opcode::TXB
            | Opcode::TXL
            | Opcode::TEX_LZ
            | Opcode::TXD
            | Opcode::TG4
            | Opcode::TEX2
            | Opcode::TXB2
            | Opcode::TXL2
            | Opcode::SAMPLE
            | Opcode::SAMPLE_B
            | Opcode::SAMPLE_C
            | Opcode::SAMPLE_C_LZ
            | Opcode::SAMPLE_D
            | Opcode::SAMPLE_L
            | Opcode::GATHER4 => self.sample(inst, target, (&view, view_index), unit, swizzle)?,
            Opcode::TXF | Opcode::TXF_LZ | Opcode::SAMPLE_I | Opcode::SAMPLE_I_MS => {
                self.fetch_texel(inst, target, &view)?
            }
            Opcode::TXQ | Opcode::SVIEWINFO => self.query(inst, &view)?,
            Opcode::LODQ | Opcode::LOD => {
                let u = unit.ok_or_else(|| self.unsupported("has no sampler operand"))?;
                self.lod_query(inst, &view, u)?
            }
            _ => return Err(self.unsupported("is not translated yet")),
        };
        let swizzle = match inst.opcode {
            Opcode::TXQ
            | Opcode::SVIEWINFO
            | Opcode::TG4
            | Opcode::GATHER4
            | Opcode::LODQ
            | Opcode::LOD => None,
            _ => swizzle,
        };
        // The SAMPLE family's results (but SVIEWINFO's) go through the swizzle of its
        // SVIEW operand, after the view's.
        let swizzle = match inst.src.iter().find(|s| s.reg.file == File::SamplerView) {
            Some(view) if inst.opcode != Opcode::SVIEWINFO => {
                let inner = swizzle.unwrap_or([0, 1, 2, 3]);
                Some(view.swizzle.0.map(|c| inner[usize::from(c & 3)]))
            }
            _ => swizzle,
        };
        let mut dst = *dst;
        dst.write_mask.0 &= inst.opcode.written_channels();
        self.write_texel(&dst, texel, swizzle)
    }

    /// Writes a texture instruction's result `texel` (a vector, or a depth comparison's
    /// scalar) to `dst`, through the view's `swizzle` where it has one.
    fn write_texel(&mut self, dst: &Dst, texel: H, swizzle: Option<[u8; 4]>) -> Result<()> {
        let (vector, scalar) = match self.type_of(texel)? {
            TypeInner::Vector { scalar, .. } => (true, scalar),
            TypeInner::Scalar(scalar) => (false, scalar),
            _ => (false, Scalar::F32),
        };
        let mut results = Vec::new();
        for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
            // The texel's channel (a depth comparison is (k, k, k, 1)), through the view's
            // swizzle when it has one.
            let from = swizzle.map_or(c as u8, |s| s[c]);
            let v = match from {
                4 => self.constant(scalar, 0),
                5 => self.constant(scalar, 1),
                _ if vector => self.body.index(texel, u32::from(from & 3)),
                3 => self.body.f32(1.0),
                _ => texel,
            };
            results.push((c, v));
        }
        for (c, v) in results {
            self.write(dst, c, v)?;
        }
        Ok(())
    }

    /// TXF / SAMPLE_I of a buffer view: element `x` (plus the texel offset) of the view,
    /// as softpipe fetches it: `x + first` clamped, unsigned, to the view's elements; zeros
    /// from a view without elements.
    fn buffer_fetch(&mut self, inst: &Instruction, buffer: TexelBuffer) -> Result<H> {
        let mut x = self.fetch(&inst.src[0], 0, OperandType::I32)?;
        if let Some(offset) = self.texel_offsets(inst, 1)? {
            if let Some(&o) = self.offset_terms(offset).first() {
                x = self.body.binary(B::Add, x, o);
            }
        }
        let base = self.body.expr(Expression::GlobalVariable(buffer.var));
        let header = self.body.index(base, 0);
        let header = self.body.load(header);
        let (count, first) = (self.body.index(header, 0), self.body.index(header, 1));
        let x = self.body.bitcast(x, ScalarKind::Uint);
        let x = self.body.binary(B::Add, x, first);
        let one = self.body.u32(1);
        let end = self.body.binary(B::Add, first, count);
        let last = self.body.binary(B::Subtract, end, one);
        let x = self.body.math(MathFunction::Clamp, &[x, first, last]);
        let index = self.body.binary(B::Subtract, x, first);
        let texels = self.body.index(base, 1);
        let texel = self.body.access(texels, index);
        let texel = self.body.load(texel);
        let zero = self.body.u32(0);
        let empty = self.body.binary(B::Equal, count, zero);
        let ty = self.vec4(Scalar::U32);
        let zeros = self.body.expr(Expression::Compose {
            ty,
            components: vec![zero; 4],
        });
        let texel = self.body.select(empty, zeros, texel);
        Ok(match buffer.kind {
            ScalarKind::Uint => texel,
            kind => self.body.bitcast(texel, kind),
        })
    }

    /// TXQ / SVIEWINFO of a buffer view: `(elements, 0, 0, 0)`.
    fn buffer_size(&mut self, buffer: TexelBuffer) -> H {
        let base = self.body.expr(Expression::GlobalVariable(buffer.var));
        let header = self.body.index(base, 0);
        let header = self.body.load(header);
        let count = self.body.index(header, 0);
        let zero = self.body.u32(0);
        let ty = self.vec4(Scalar::U32);
        self.body.expr(Expression::Compose {
            ty,
            components: vec![count, zero, zero, zero],
        })
    }

    /// The sampler view for a unit: the declared SVIEW, which must match the target.
    fn view(&self, unit: u32, target: TextureTarget) -> Result<ImageVar> {
        let view = self
            .resources
            .views
            .get(&unit)
            .copied()
            .ok_or_else(|| self.undeclared(File::SamplerView, unit as i32))?;
        let declared = if view.one_d {
            ImageDimension::D1
        } else {
            view.dim
        };
        if target != TextureTarget::Unknown && dimension(target) != Some((declared, view.arrayed)) {
            return Err(self.unsupported(format!(
                "target {target} does not match the declaration of SVIEW[{unit}]"
            )));
        }
        Ok(view)
    }

    /// Zero or one of a texel's scalar type (one is 1.0, or integer 1).
    fn constant(&mut self, scalar: Scalar, v: u8) -> H {
        match scalar.kind {
            naga::ScalarKind::Sint => self.body.i32(i32::from(v)),
            naga::ScalarKind::Uint => self.body.u32(u32::from(v)),
            _ => self.body.f32(f32::from(v)),
        }
    }

    fn sample(
        &mut self,
        inst: &Instruction,
        target: TextureTarget,
        (view, view_index): (&ImageVar, Option<u32>),
        unit: Option<u32>,
        swizzle: Option<[u8; 4]>,
    ) -> Result<H> {
        let Some(l) = layout(target) else {
            return Err(self.unsupported(format!("target {target} is not translated yet")));
        };
        let src = &inst.src[0];
        let mut coords = Vec::new();
        for c in 0..l.coords {
            coords.push(self.fetch(src, c, OperandType::F32)?);
        }
        // The SAMPLE family keeps the reference and level in a scalar operand (src3.x).
        let sample_family = inst.src.iter().any(|s| s.reg.file == File::SamplerView);
        let mut reference = match (sample_family, l.reference) {
            (true, _) if matches!(inst.opcode, Opcode::SAMPLE_C | Opcode::SAMPLE_C_LZ) => {
                Some(self.fetch(&inst.src[3], 0, OperandType::F32)?)
            }
            (false, Some(4)) => Some(self.fetch(&inst.src[1], 0, OperandType::F32)?),
            (false, Some(c)) => Some(self.fetch(src, c, OperandType::F32)?),
            _ => None,
        };
        if inst.opcode == Opcode::TXP {
            let w = self.fetch(src, 3, OperandType::F32)?;
            for c in coords.iter_mut() {
                *c = self.body.binary(B::Divide, *c, w);
            }
            if let Some(r) = reference.as_mut() {
                *r = self.body.binary(B::Divide, *r, w);
            }
        }
        let gathers = matches!(inst.opcode, Opcode::TG4 | Opcode::GATHER4);
        if !gathers
            && matches!(
                view.class,
                ImageClass::Sampled {
                    kind: ScalarKind::Sint | ScalarKind::Uint,
                    ..
                }
            )
        {
            // naga samples float textures only: texel loads instead.
            let unit = unit.ok_or_else(|| self.unsupported("has no sampler operand"))?;
            let layer = match l.layer {
                Some(c) => Some(self.fetch(src, c, OperandType::F32)?),
                None => None,
            };
            return self.sample_integer(inst, (view, unit), coords, layer, l.texels);
        }
        // A register texel offset moves a gather's coordinates instead (naga takes constant
        // offsets only).
        let (offset, moved) = match self.texel_offsets(inst, l.coords)? {
            Some(TexelOffset::Register(o)) if gathers => {
                coords = self.offset_footprint(view, coords, o, l.texels)?;
                (None, true)
            }
            Some(TexelOffset::Register(_)) => {
                return Err(self.unsupported(
                    "naga needs a constant texel offset, not a register (gathers and texel \
                     fetches take one)",
                ))
            }
            Some(TexelOffset::Constant(words)) => (Some(words), false),
            None => (None, false),
        };
        if view.one_d {
            // The middle of the one row.
            coords.push(self.body.f32(0.5));
        }
        if l.texels {
            // Texel coordinates: divided by the size of level 0, the one level of a RECT
            // texture.
            let image = self.body.expr(Expression::GlobalVariable(view.var));
            let level = self.body.i32(0);
            let size = self.body.expr(Expression::ImageQuery {
                image,
                query: ImageQuery::Size { level: Some(level) },
            });
            for (k, c) in coords.iter_mut().enumerate() {
                let n = self.body.index(size, k as u32);
                let n = self.body.convert(n, Scalar::F32);
                *c = self.body.binary(B::Divide, *c, n);
            }
        }
        let array_index = match l.layer {
            Some(c) => Some(self.layer(src, c)?),
            None => None,
        };
        let implicit = self.shader.processor == Processor::Fragment;
        // Depth comparisons made here, after filtering (`Options::depth_compares`).
        let in_shader = self.options.depth_compares.is_some();
        let gather = match inst.opcode {
            Opcode::TG4 | Opcode::GATHER4 if reference.is_some() && in_shader => {
                Some(naga::SwizzleComponent::X)
            }
            Opcode::TG4 | Opcode::GATHER4 if reference.is_some() => {
                return Err(self.unsupported("gathering depth comparisons is not translated yet"))
            }
            Opcode::TG4 => Some(self.gather_component(&inst.src[1])?),
            Opcode::GATHER4 => Some(naga::SwizzleComponent::X),
            _ => None,
        };
        // The view swizzle chooses the channel a gather reads, or a constant result.
        let gather = match (gather, swizzle) {
            (Some(g), Some(s)) => match s[g as usize] {
                k @ (4 | 5) => {
                    let scalar = match view.class {
                        ImageClass::Sampled { kind, .. } => Scalar { kind, width: 4 },
                        _ => Scalar::F32,
                    };
                    let one = self.constant(scalar, k - 4);
                    let ty = self.vec4(scalar);
                    return Ok(self.body.expr(Expression::Compose {
                        ty,
                        components: vec![one; 4],
                    }));
                }
                k => Some(
                    [
                        naga::SwizzleComponent::X,
                        naga::SwizzleComponent::Y,
                        naga::SwizzleComponent::Z,
                        naga::SwizzleComponent::W,
                    ][usize::from(k & 3)],
                ),
            },
            (g, _) => g,
        };
        let offset = offset.map(|words| {
            let parts = words.into_iter().map(|o| self.body.i32(o)).collect();
            let o = self.compose_ints(parts);
            if view.one_d {
                self.widen(o, false)
            } else {
                o
            }
        });
        let level = match inst.opcode {
            Opcode::TXB if implicit => SampleLevel::Bias(self.fetch(src, 3, OperandType::F32)?),
            Opcode::TXL => SampleLevel::Exact(self.fetch(src, 3, OperandType::F32)?),
            Opcode::TXB2 if implicit => {
                SampleLevel::Bias(self.fetch(&inst.src[1], 0, OperandType::F32)?)
            }
            Opcode::TXL2 => SampleLevel::Exact(self.fetch(&inst.src[1], 0, OperandType::F32)?),
            Opcode::TXD => {
                let x = self.gradient(&inst.src[1], l.coords)?;
                let y = self.gradient(&inst.src[2], l.coords)?;
                SampleLevel::Gradient { x, y }
            }
            Opcode::SAMPLE_B if implicit => {
                SampleLevel::Bias(self.fetch(&inst.src[3], 0, OperandType::F32)?)
            }
            Opcode::SAMPLE_L => {
                SampleLevel::Exact(self.fetch(&inst.src[3], 0, OperandType::F32)?)
            }
            Opcode::SAMPLE_D => {
                let x = self.gradient(&inst.src[3], l.coords)?;
                let y = self.gradient(&inst.src[4], l.coords)?;
                SampleLevel::Gradient { x, y }
            }
            Opcode::TEX
            | Opcode::TXP
            | Opcode::TXB
            | Opcode::TEX2
            | Opcode::TXB2
            | Opcode::SAMPLE
            | Opcode::SAMPLE_C
                if implicit =>
            {
                SampleLevel::Auto
            }
            _ => SampleLevel::Zero,
        };
        let level = match level {
            SampleLevel::Gradient { x, y } if view.one_d => SampleLevel::Gradient {
                x: self.widen(x, true),
                y: self.widen(y, true),
            },
            level => level,
        };
        // The sampler's LOD bias, added where softpipe adds it.
        let bias = unit
            .and_then(|u| self.options.lod_biases.get(&u).copied())
            .filter(|&b| b != 0.0);
        if let (Some(_), Some(_)) = (bias, gather) {
            return Err(self.unsupported("a gather through a sampler with a LOD bias"));
        }
        let level = match (bias, level) {
            (None, level) | (Some(_), level @ SampleLevel::Gradient { .. }) => level,
            (Some(b), SampleLevel::Auto) => SampleLevel::Bias(self.body.f32(b)),
            (Some(b), SampleLevel::Zero) => SampleLevel::Exact(self.body.f32(b)),
            (Some(b), SampleLevel::Bias(x)) => {
                let b = self.body.f32(b);
                SampleLevel::Bias(self.body.binary(B::Add, x, b))
            }
            (Some(b), SampleLevel::Exact(x)) => {
                let b = self.body.f32(b);
                SampleLevel::Exact(self.body.binary(B::Add, x, b))
            }
        };
        // A gather has no level of its own in naga (it reads level 0). Otherwise, level zero
        // is given as 0.0: naga's HLSL writer names a sample at `SampleLevel::Zero` without a
        // depth reference `SampleLevelZero`, which HLSL lacks.
        let level = match level {
            _ if gather.is_some() => SampleLevel::Zero,
            SampleLevel::Zero if reference.is_none() || in_shader => {
                SampleLevel::Exact(self.body.f32(0.0))
            }
            level => level,
        };
        let unit = unit.ok_or_else(|| self.unsupported("has no sampler operand"))?;
        let (coords, level) =
            self.wrap_coordinates(unit, view, coords, level, offset.is_some() || moved)?;
        let biased_compare = match (reference, level) {
            (Some(r), SampleLevel::Bias(b)) if !in_shader && self.options.writer_builtins() => {
                Some((r, b))
            }
            _ => None,
        };
        if reference.is_some()
            && !in_shader
            && biased_compare.is_none()
            && !matches!(level, SampleLevel::Auto | SampleLevel::Zero)
        {
            return Err(
                self.unsupported("naga compares depth only at the implicit level or level 0")
            );
        }
        let coordinate = self.compose_floats(coords);
        let sampler = *self
            .resources
            .samplers
            .get(&unit)
            .ok_or_else(|| self.undeclared(File::Sampler, unit as i32))?;
        if let Some((reference, bias)) = biased_compare {
            if offset.is_some() || self.options.border_colors.contains_key(&unit) {
                return Err(self.unsupported(
                    "a biased depth comparison with a texel offset or an emulated border colour",
                ));
            }
            // GLSL's texture() takes the bias that naga's comparisons lack.
            return self.glsl_biased_compare(
                view.var,
                sampler,
                coordinate,
                array_index,
                reference,
                bias,
            );
        }
        if !in_shader && matches!(view.class, ImageClass::Depth { .. }) != reference.is_some() {
            return Err(self.unsupported("shadow target and sampler view disagree"));
        }
        let border = self.options.border_colors.get(&unit).copied();
        if border.is_some() && reference.is_some() && !in_shader {
            return Err(self.unsupported(format!(
                "a depth comparison by SAMP[{unit}], whose border colour is emulated"
            )));
        }
        let sampler = self.body.expr(Expression::GlobalVariable(sampler));
        let sample = |image, gather| Expression::ImageSample {
            image,
            sampler,
            gather,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref: if in_shader { None } else { reference },
            clamp_to_edge: false,
        };
        let image = self.body.expr(Expression::GlobalVariable(view.var));
        let mut texel = self.body.expr(sample(image, gather));
        if let (Some(border), Some(index)) = (border, view_index) {
            // The weight the filter gave texels inside the texture: the same sample of the
            // coverage view, which is 1.0 everywhere (gathered: each texel's 1 or 0).
            let coverage = self.coverage_view(index, view);
            let coverage = self.body.expr(Expression::GlobalVariable(coverage));
            let x = gather.map(|_| naga::SwizzleComponent::X);
            let covered = self.body.expr(sample(coverage, x));
            let c = match gather {
                Some(_) => covered,
                None => self.body.index(covered, 0),
            };
            texel = self.add_border(texel, c, border, gather);
        }
        Ok(match reference {
            Some(r) if in_shader => self.compare_depth(texel, r, gather.is_some(), unit),
            _ => texel,
        })
    }

    /// The depth comparison of `SAMP[unit]` of `reference` with the filtered depth in
    /// channel x of `texel`, or with each gathered depth (see
    /// [`crate::Options::depth_compares`]); `texel` itself where the sampler compares
    /// nothing.
    fn compare_depth(&mut self, texel: H, reference: H, gathered: bool, unit: u32) -> H {
        let Some(cmp) = self
            .options
            .depth_compares
            .as_ref()
            .and_then(|m| m.get(&unit))
            .copied()
        else {
            return texel;
        };
        let (zero, one) = (self.body.f32(0.0), self.body.f32(1.0));
        let r = if cmp.clamp_reference {
            self.body.math(MathFunction::Clamp, &[reference, zero, one])
        } else {
            reference
        };
        let pass = |t: &mut Self, c: u32| {
            let d = t.body.index(texel, c);
            let op = match cmp.func {
                CompareFunc::Never => return zero,
                CompareFunc::Always => return one,
                CompareFunc::Less => B::Less,
                CompareFunc::Equal => B::Equal,
                CompareFunc::Lequal => B::LessEqual,
                CompareFunc::Greater => B::Greater,
                CompareFunc::NotEqual => B::NotEqual,
                CompareFunc::Gequal => B::GreaterEqual,
            };
            let condition = t.body.binary(op, r, d);
            t.body.expr(Expression::Select {
                condition,
                accept: one,
                reject: zero,
            })
        };
        let components = if gathered {
            (0..4).map(|c| pass(self, c)).collect()
        } else {
            let k = pass(self, 0);
            vec![k, k, k, one]
        };
        let ty = self.vec4(Scalar::F32);
        self.body.expr(Expression::Compose { ty, components })
    }

    /// The coordinates transformed for the wrap modes of `SAMP[unit]` that WebGPU lacks,
    /// and the level to sample at (see [`crate::Options::coordinate_wraps`]).
    fn wrap_coordinates(
        &mut self,
        unit: u32,
        view: &ImageVar,
        coords: Vec<H>,
        level: SampleLevel,
        offset: bool,
    ) -> Result<(Vec<H>, SampleLevel)> {
        let wraps = self
            .options
            .coordinate_wraps
            .get(&unit)
            .copied()
            .unwrap_or_default();
        let used = &wraps[..coords.len().min(3)];
        if view.dim == ImageDimension::Cube || used.iter().all(|&w| w == CoordinateWrap::Keep) {
            return Ok((coords, level));
        }
        if offset {
            return Err(self.unsupported(format!(
                "a texel offset through SAMP[{unit}], whose wrap mode is emulated"
            )));
        }
        let level = match level {
            // The implicit LOD of the coordinates as given.
            SampleLevel::Auto => {
                let original = self.compose_floats(coords.clone());
                let [x, y] = [DerivativeAxis::X, DerivativeAxis::Y].map(|axis| {
                    self.body.expr(Expression::Derivative {
                        axis,
                        ctrl: DerivativeControl::None,
                        expr: original,
                    })
                });
                SampleLevel::Gradient { x, y }
            }
            SampleLevel::Bias(_) => {
                return Err(self.unsupported(format!(
                    "a biased sample through SAMP[{unit}], whose wrap mode is emulated"
                )))
            }
            other => other,
        };
        let mut out = coords;
        for (c, &wrap) in out.iter_mut().zip(used) {
            let (zero, one) = (self.body.f32(0.0), self.body.f32(1.0));
            *c = match wrap {
                CoordinateWrap::Keep => *c,
                CoordinateWrap::Clamp => self.body.math(MathFunction::Clamp, &[*c, zero, one]),
                CoordinateWrap::Mirror => self.body.math(MathFunction::Abs, &[*c]),
                CoordinateWrap::MirrorClamp => {
                    let a = self.body.math(MathFunction::Abs, &[*c]);
                    self.body.math(MathFunction::Clamp, &[a, zero, one])
                }
            };
        }
        Ok((out, level))
    }

    /// `texel` with the border colour where the filter reached outside the texture, `c`
    /// being the weight inside (see [`crate::Options::border_colors`]): `texel + border ·
    /// (1 − c)`; for a `gather` of one channel, that channel of the border for each of the
    /// four texels, `c` their four coverages.
    fn add_border(
        &mut self,
        texel: H,
        c: H,
        border: [u32; 4],
        gather: Option<naga::SwizzleComponent>,
    ) -> H {
        let ty = self.vec4(Scalar::F32);
        let words = match gather {
            Some(g) => [border[g as usize]; 4],
            None => border,
        };
        let components = words
            .iter()
            .map(|&w| self.body.f32(f32::from_bits(w)))
            .collect();
        let border = self.body.expr(Expression::Compose { ty, components });
        let one = self.body.f32(1.0);
        // `c` is a vector of four coverages for a gather.
        let one = match gather {
            Some(_) => self.body.expr(Expression::Splat {
                size: VectorSize::Quad,
                value: one,
            }),
            None => one,
        };
        let outside = self.body.binary(B::Subtract, one, c);
        let weighted = self.body.binary(B::Multiply, border, outside);
        self.body.binary(B::Add, texel, weighted)
    }

    /// A 1-D coordinate, gradient (`float`) or offset made 2-D with a zero second component
    /// ([`crate::Options::one_d_as_2d`]).
    fn widen(&mut self, x: H, float: bool) -> H {
        if float {
            let zero = self.body.f32(0.0);
            self.compose_floats(vec![x, zero])
        } else {
            let zero = self.body.i32(0);
            self.compose_ints(vec![x, zero])
        }
    }

    /// The component TG4 gathers: an immediate's `.x`, 0 to 3.
    fn gather_component(&self, src: &Src) -> Result<naga::SwizzleComponent> {
        let imm = (src.reg.file == File::Immediate)
            .then(|| usize::try_from(src.reg.index).ok())
            .flatten()
            .and_then(|i| self.shader.immediates.get(i))
            .ok_or_else(|| self.unsupported("component is not an immediate"))?;
        Ok(match imm.words[usize::from(src.swizzle.0[0])] {
            0 => naga::SwizzleComponent::X,
            1 => naga::SwizzleComponent::Y,
            2 => naga::SwizzleComponent::Z,
            3 => naga::SwizzleComponent::W,
            other => return Err(self.unsupported(format!("component {other} is not 0 to 3"))),
        })
    }

    /// The first `n` (at most 3) components of the texture token's texel offset: an
    /// immediate's, or a register's truncated to signed 8 bits as softpipe truncates them.
    /// softpipe reads a register offset from the first lane of a quad; each invocation
    /// reads its own here.
    pub(crate) fn texel_offsets(
        &mut self,
        inst: &Instruction,
        n: usize,
    ) -> Result<Option<TexelOffset>> {
        let offsets = inst.texture.as_ref().map_or(&[][..], |t| &t.offsets[..]);
        let Some(&offset) = offsets.first() else {
            return Ok(None);
        };
        if offsets.len() > 1 {
            return Err(self.unsupported("four gather offsets are not translated yet"));
        }
        let n = n.min(3);
        if offset.file == File::Immediate {
            let imm = usize::try_from(offset.index)
                .ok()
                .and_then(|i| self.shader.immediates.get(i))
                .ok_or_else(|| self.undeclared(File::Immediate, offset.index))?
                .words;
            let words = (0..n).map(|c| imm[usize::from(offset.swizzle[c])] as i32);
            return Ok(Some(TexelOffset::Constant(words.collect())));
        }
        let [x, y, z] = offset.swizzle;
        let src = Src {
            reg: tgsi::ir::Register::new(offset.file, offset.index),
            swizzle: tgsi::ir::Swizzle([x, y, z, z]),
            absolute: false,
            negate: false,
        };
        let eight = self.body.u32(24);
        let mut parts = Vec::with_capacity(n);
        for c in 0..n {
            let v = self.fetch(&src, c, OperandType::I32)?;
            let v = self.body.binary(B::ShiftLeft, v, eight);
            parts.push(self.body.binary(B::ShiftRight, v, eight));
        }
        Ok(Some(TexelOffset::Register(parts)))
    }

    /// The components of a texel offset as `i32` expressions.
    pub(crate) fn offset_terms(&mut self, offset: TexelOffset) -> Vec<H> {
        match offset {
            TexelOffset::Constant(words) => words.into_iter().map(|o| self.body.i32(o)).collect(),
            TexelOffset::Register(parts) => parts,
        }
    }

    /// Normalised (`texels`: unnormalised) gather coordinates moved by a register texel
    /// offset, which naga cannot take: the footprint's first texel `floor(u − 0.5) + o` in
    /// each dimension, `u` the coordinate in texels of level 0, as softpipe finds it; the
    /// coordinate returned lies between that texel and the next, where a gather takes the
    /// same footprint (the sampler's wrap mode applies to its texels as to offset ones).
    fn offset_footprint(
        &mut self,
        view: &ImageVar,
        coords: Vec<H>,
        offsets: Vec<H>,
        texels: bool,
    ) -> Result<Vec<H>> {
        if view.dim == ImageDimension::Cube {
            return Err(self.unsupported("a texel offset on a cube map is not defined"));
        }
        let size = if texels {
            None
        } else {
            let image = self.body.expr(Expression::GlobalVariable(view.var));
            let level = self.body.i32(0);
            Some(self.body.expr(Expression::ImageQuery {
                image,
                query: ImageQuery::Size { level: Some(level) },
            }))
        };
        let (half, one) = (self.body.f32(0.5), self.body.f32(1.0));
        let mut out = Vec::with_capacity(coords.len());
        for (k, (c, o)) in coords.into_iter().zip(offsets).enumerate() {
            let n = size.map(|size| {
                let n = self.body.index(size, k as u32);
                self.body.convert(n, Scalar::F32)
            });
            let u = match n {
                Some(n) => self.body.binary(B::Multiply, c, n),
                None => c,
            };
            let u = self.body.binary(B::Subtract, u, half);
            let first = self.body.math(MathFunction::Floor, &[u]);
            let o = self.body.convert(o, Scalar::F32);
            let first = self.body.binary(B::Add, first, o);
            let between = self.body.binary(B::Add, first, one);
            out.push(match n {
                Some(n) => self.body.binary(B::Divide, between, n),
                None => between,
            });
        }
        Ok(out)
    }

    /// The integer layer `floor(layer + 0.5)` of an array coordinate.
    fn layer(&mut self, src: &Src, c: usize) -> Result<H> {
        let f = self.fetch(src, c, OperandType::F32)?;
        let half = self.body.f32(0.5);
        let f = self.body.binary(B::Add, f, half);
        let f = self.body.math(MathFunction::Floor, &[f]);
        let zero = self.body.f32(0.0);
        let f = self.body.math(MathFunction::Max, &[f, zero]);
        Ok(self.body.convert(f, Scalar::I32))
    }

    fn gradient(&mut self, src: &Src, n: usize) -> Result<H> {
        let mut parts = Vec::new();
        for c in 0..n {
            parts.push(self.fetch(src, c, OperandType::F32)?);
        }
        Ok(self.compose_floats(parts))
    }

    fn compose_floats(&mut self, parts: Vec<H>) -> H {
        if parts.len() == 1 {
            return parts[0];
        }
        let size = match parts.len() {
            2 => VectorSize::Bi,
            3 => VectorSize::Tri,
            _ => VectorSize::Quad,
        };
        let ty = self.ty(TypeInner::Vector {
            size,
            scalar: Scalar::F32,
        });
        self.body.expr(Expression::Compose {
            ty,
            components: parts,
        })
    }

    /// TXF / TXF_LZ: integer coordinates, level in `.w` (TXF).
    fn fetch_texel(
        &mut self,
        inst: &Instruction,
        target: TextureTarget,
        view: &ImageVar,
    ) -> Result<H> {
        let Some(l) = layout(target).filter(|l| l.reference.is_none()) else {
            return Err(self.unsupported(format!("target {target} is not translated yet")));
        };
        if view.dim == ImageDimension::Cube {
            return Err(self.unsupported("texel fetch from a cube is not defined"));
        }
        let src = &inst.src[0];
        let offsets = match self.texel_offsets(inst, l.coords)? {
            Some(offset) => self.offset_terms(offset),
            None => Vec::new(),
        };
        let mut coords = Vec::new();
        for c in 0..l.coords {
            let mut x = self.fetch(src, c, OperandType::I32)?;
            if let Some(&o) = offsets.get(c) {
                x = self.body.binary(B::Add, x, o);
            }
            coords.push(x);
        }
        if view.one_d {
            coords.push(self.body.i32(0));
        }
        let array_index = match l.layer {
            Some(c) => Some(self.fetch(src, c, OperandType::I32)?),
            None => None,
        };
        let multi = matches!(view.class, ImageClass::Sampled { multi: true, .. });
        let w = match inst.opcode {
            Opcode::TXF | Opcode::SAMPLE_I => self.fetch(src, 3, OperandType::I32)?,
            Opcode::SAMPLE_I_MS => self.fetch(&inst.src[2], 0, OperandType::I32)?,
            _ => self.body.i32(0),
        };
        let (sample, level) = if multi {
            (Some(w), None)
        } else {
            (None, Some(w))
        };
        let coordinate = self.compose_ints(coords);
        let image = self.body.expr(Expression::GlobalVariable(view.var));
        Ok(self.body.expr(Expression::ImageLoad {
            image,
            coordinate,
            array_index,
            sample,
            level,
        }))
    }

    /// TXQ: width, height, depth (or layers) of level `src.x`, and the number of levels.
    fn query(&mut self, inst: &Instruction, view: &ImageVar) -> Result<H> {
        let lod = self.fetch(&inst.src[0], 0, OperandType::I32)?;
        let image = self.body.expr(Expression::GlobalVariable(view.var));
        let multi = matches!(
            view.class,
            ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true }
        );
        let level = if multi { None } else { Some(lod) };
        let size = self.body.expr(Expression::ImageQuery {
            image,
            query: ImageQuery::Size { level },
        });
        let (n, vector) = match self.type_of(size)? {
            // The height of a 1-D view's row is no size of the view's.
            TypeInner::Vector { .. } if view.one_d => (1, true),
            TypeInner::Vector { size, .. } => (size as usize, true),
            _ => (1, false),
        };
        let mut parts: Vec<H> = (0..n)
            .map(|c| {
                if vector {
                    self.body.index(size, c as u32)
                } else {
                    size
                }
            })
            .collect();
        if view.arrayed {
            let layers = self.body.expr(Expression::ImageQuery {
                image,
                query: ImageQuery::NumLayers,
            });
            parts.push(layers);
        }
        while parts.len() < 3 {
            parts.push(self.body.u32(0));
        }
        let levels = if multi {
            self.body.u32(1)
        } else {
            self.body.expr(Expression::ImageQuery {
                image,
                query: ImageQuery::NumLevels,
            })
        };
        parts.truncate(3);
        parts.push(levels);
        let ty = self.vec4(Scalar::U32);
        let v = self.body.expr(Expression::Compose {
            ty,
            components: parts,
        });
        Ok(v)
    }
}
