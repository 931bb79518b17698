//! The stage interface. IN and SV registers become entry-point arguments (locations or
//! built-ins chosen from their semantics) copied into their register variables at entry; OUT
//! registers become members of the entry point's result struct, gathered at every return.
//!
//! Varyings get fixed locations so that separately translated stages agree:
//! `GENERIC[n]` → n, `TEXCOORD[n]` → 32 + n, `COLOR[n]` → 40 + n (vertex outputs and fragment
//! inputs; fragment `COLOR[n]` outputs use location n), `BCOLOR[n]` → 42 + n, `FOG` → 44,
//! `CLIPDIST[n]` → 46 + n (naga has no clip-distance input, so a vertex shader writes its
//! clip distances both to the built-in and to these varyings, which fragment shaders read).
//!
//! A `CLIPVERTEX` output (GL's `gl_ClipVertex`) has no counterpart in the targets: the
//! vertex shader computes the eight clip distances itself, `dot(clip vertex, plane[i])`
//! (as x·a + y·b + z·c + w·d, left to right),
//! from a uniform block of eight `vec4<f32>` planes at group 0, binding
//! [`CLIP_PLANES_BINDING`], which the host fills with the enabled user clip planes and
//! zeros (never clipping) for the others.

use naga::{
    Binding, BuiltIn, Expression, FunctionArgument, Handle, Interpolation, Sampling, Scalar,
    ScalarKind, ShaderStage, StructMember, Type, TypeInner, VectorSize,
};
use tgsi::enums::{File, InterpLocation, Interpolate, Semantic};
use tgsi::ir::{Declaration, Register};

use crate::error::{Error, Result};
use crate::translate::Translator;

/// How an entry-point argument fills its register.
#[derive(Clone, Copy)]
enum Fill {
    /// A `vec4<f32>`, bit for bit.
    Vec4,
    /// A `vec2<f32>` as (x, y, 0, 1).
    Vec2,
    /// A `vec3<u32>` as (x, y, z, 0).
    Vec3,
    /// A scalar replicated to all channels.
    Splat,
    /// `bool` front facing as (±1.0, 0, 0, 0).
    Face,
}

/// Binding (in group 0, after the 32 constant buffers) of the user clip planes a
/// `CLIPVERTEX` output is clipped against.
pub const CLIP_PLANES_BINDING: u32 = 32;

/// Clip distances a `CLIPVERTEX` output produces (GL's user clip planes).
pub(crate) const CLIP_PLANES: u32 = 8;

/// How an output register becomes a result member.
#[derive(Clone, Copy)]
enum Gather {
    /// The register as `vec4<f32>`.
    Vec4,
    /// One channel as a scalar of the member's type.
    Channel(u32),
    /// `CLIPDIST[k]` registers gathered into one `array<f32, 4·k>`.
    ClipDistances,
    /// The clip vertex against the user clip planes (this global): `array<f32, 8>`.
    ClipPlanes(Handle<naga::GlobalVariable>),
    /// No register: zero.
    Zero,
}

/// One member of the result struct.
struct Output {
    /// Registers it is read from (several only for clip distances).
    registers: Vec<u32>,
    gather: Gather,
    member: StructMember,
}

/// The entry point's outputs.
#[derive(Default)]
pub(crate) struct Interface {
    outputs: Vec<Output>,
    result: Option<Handle<Type>>,
}

/// The location tgsi-naga gives a varying of `semantic[index]` (vertex outputs and fragment
/// inputs; see the module documentation), if its semantic has one.
pub fn varying_location(semantic: Semantic, index: u32) -> Option<u32> {
    match semantic {
        Semantic::Generic => Some(index),
        Semantic::TexCoord => Some(32 + index),
        Semantic::Color => Some(40 + index),
        Semantic::BColor => Some(42 + index),
        Semantic::Fog => Some(44),
        Semantic::ClipDist => Some(46 + index),
        _ => None,
    }
}

/// The distances of a clip vertex (its words) to the user clip planes of `planes`:
/// `x·a + y·b + z·c + w·d`, left to right, for each plane.
pub(crate) fn clip_distances(
    b: &mut crate::body::Body,
    vertex_words: Handle<Expression>,
    planes: Handle<naga::GlobalVariable>,
) -> Vec<Handle<Expression>> {
    let vertex = b.bitcast(vertex_words, ScalarKind::Float);
    let global = b.expr(Expression::GlobalVariable(planes));
    let array = b.index(global, 0);
    (0..CLIP_PLANES)
        .map(|i| {
            let pointer = b.index(array, i);
            let plane = b.load(pointer);
            let products = b.binary(naga::BinaryOperator::Multiply, vertex, plane);
            let mut sum = b.index(products, 0);
            for c in 1..4 {
                let term = b.index(products, c);
                sum = b.binary(naga::BinaryOperator::Add, sum, term);
            }
            sum
        })
        .collect()
}

/// The written form of a declaration, for errors.
fn describe(d: &Declaration) -> String {
    let mut s = format!("DCL {}[{}]", d.file, d.first);
    if let Some(sem) = d.semantic {
        s.push_str(&format!(", {}", sem.name));
        if sem.index != 0 {
            s.push_str(&format!("[{}]", sem.index));
        }
    }
    s
}

impl Translator<'_> {
    /// Declares the entry point's arguments and result, and copies the arguments into the
    /// IN and SV registers.
    pub(crate) fn declare_interface(&mut self, stage: ShaderStage) -> Result<()> {
        let decls: Vec<&Declaration> = self
            .shader
            .declarations
            .iter()
            .filter(|d| matches!(d.file, File::Input | File::SystemValue | File::Output))
            .collect();
        let mut seen = std::collections::HashSet::new();
        for d in decls {
            self.span = d.span;
            self.item = describe(d);
            for index in d.first..=d.last {
                // Mesa repeats declarations (with narrower masks); the first one counts.
                if !seen.insert((d.file, index)) {
                    continue;
                }
                match d.file {
                    File::Output => self.declare_output(stage, d, index)?,
                    _ => self.declare_input(stage, d, index)?,
                }
            }
        }
        if stage == ShaderStage::Vertex
            && !self.interface.outputs.iter().any(|o| {
                matches!(
                    o.member.binding,
                    Some(Binding::BuiltIn(BuiltIn::Position { .. }))
                )
            })
        {
            // naga requires a position; a vertex shader without one (feeding transform
            // feedback only) gets (0, 0, 0, 0).
            let ty = self.vec4(Scalar::F32);
            self.interface.outputs.push(Output {
                registers: Vec::new(),
                gather: Gather::Zero,
                member: StructMember {
                    name: Some("position".to_string()),
                    ty,
                    binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: false })),
                    offset: 0,
                },
            });
        }
        self.declare_result()
    }

    fn declare_input(&mut self, stage: ShaderStage, d: &Declaration, index: u32) -> Result<()> {
        let f32v = |size| TypeInner::Vector {
            size,
            scalar: Scalar::F32,
        };
        let semantic = d.semantic.map(|s| (s.name, s.index));
        if let (ShaderStage::Fragment, true, Some((name, _))) =
            (stage, self.options.writer_builtins(), semantic)
        {
            let value = match name {
                Semantic::Position => self.glsl_frag_coord().map(|v| (v, Fill::Vec4)),
                _ => self.glsl_builtin_input(name).map(|v| (v, Fill::Splat)),
            };
            if let Some((value, fill)) = value {
                let words = self.fill(value, fill)?;
                let pointer = self.register_pointer(&Register::new(d.file, index as i32))?;
                self.body.store(pointer, words);
                return Ok(());
            }
        }
        let varying = semantic.and_then(|(name, i)| self.options.varying_location(name, i));
        let (binding, inner, fill) = match (stage, d.file, semantic, varying) {
            (ShaderStage::Vertex, File::Input, _, _) => {
                (location(index, None), f32v(VectorSize::Quad), Fill::Vec4)
            }
            (ShaderStage::Fragment, File::Input, Some((Semantic::Position, _)), _)
            | (ShaderStage::Fragment, File::SystemValue, Some((Semantic::Position, _)), _) => (
                Binding::BuiltIn(BuiltIn::Position { invariant: false }),
                f32v(VectorSize::Quad),
                Fill::Vec4,
            ),
            (ShaderStage::Fragment, _, Some((Semantic::Face, _)), _) => (
                Binding::BuiltIn(BuiltIn::FrontFacing),
                TypeInner::Scalar(Scalar::BOOL),
                Fill::Face,
            ),
            (ShaderStage::Fragment, File::Input, Some((Semantic::PCoord, _)), _) => (
                Binding::BuiltIn(BuiltIn::PointCoord),
                f32v(VectorSize::Bi),
                Fill::Vec2,
            ),
            (ShaderStage::Fragment, File::Input, Some(_), Some(loc)) => {
                (location(loc, Some(d)), f32v(VectorSize::Quad), Fill::Vec4)
            }
            (_, _, Some((name, _)), _) => {
                let (builtin, fill) = match (stage, name) {
                    (ShaderStage::Vertex, Semantic::VertexId) => {
                        (BuiltIn::VertexIndex, Fill::Splat)
                    }
                    (ShaderStage::Vertex, Semantic::InstanceId) => {
                        (BuiltIn::InstanceIndex, Fill::Splat)
                    }
                    (ShaderStage::Vertex, Semantic::BaseVertex) => {
                        (BuiltIn::BaseVertex, Fill::Splat)
                    }
                    (ShaderStage::Vertex, Semantic::BaseInstance) => {
                        (BuiltIn::BaseInstance, Fill::Splat)
                    }
                    (ShaderStage::Vertex, Semantic::DrawId) => (BuiltIn::DrawIndex, Fill::Splat),
                    (ShaderStage::Fragment, Semantic::PrimId) => {
                        (BuiltIn::PrimitiveIndex, Fill::Splat)
                    }
                    (ShaderStage::Fragment, Semantic::SampleId) => {
                        (BuiltIn::SampleIndex, Fill::Splat)
                    }
                    (ShaderStage::Fragment, Semantic::SampleMask) => {
                        (BuiltIn::SampleMask, Fill::Splat)
                    }
                    (ShaderStage::Compute, Semantic::ThreadId) => {
                        (BuiltIn::LocalInvocationId, Fill::Vec3)
                    }
                    (ShaderStage::Compute, Semantic::BlockId) => (BuiltIn::WorkGroupId, Fill::Vec3),
                    (ShaderStage::Compute, Semantic::GridSize) => {
                        (BuiltIn::NumWorkGroups, Fill::Vec3)
                    }
                    (ShaderStage::Compute, Semantic::BlockSize) => {
                        (BuiltIn::WorkGroupSize, Fill::Vec3)
                    }
                    _ => {
                        return Err(Error::new(
                            d.span,
                            describe(d),
                            format!("{name} has no naga built-in in a {stage:?} shader"),
                        ))
                    }
                };
                let inner = match fill {
                    Fill::Vec3 => TypeInner::Vector {
                        size: VectorSize::Tri,
                        scalar: Scalar::U32,
                    },
                    _ => TypeInner::Scalar(Scalar::U32),
                };
                (Binding::BuiltIn(builtin), inner, fill)
            }
            _ => {
                return Err(Error::new(
                    d.span,
                    describe(d),
                    "an input without a semantic is only meaningful in vertex shaders",
                ))
            }
        };
        let ty = self.ty(inner);
        let arg = self.body.function.arguments.len() as u32;
        self.body.function.arguments.push(FunctionArgument {
            name: Some(format!(
                "{}{index}",
                if d.file == File::Input { "in" } else { "sv" }
            )),
            ty,
            binding: Some(binding),
        });
        let value = self.body.expr(Expression::FunctionArgument(arg));
        let words = self.fill(value, fill)?;
        let pointer = self.register_pointer(&Register::new(d.file, index as i32))?;
        self.body.store(pointer, words);
        Ok(())
    }

    /// The `vec4<u32>` a register receives from an argument.
    fn fill(&mut self, value: Handle<Expression>, fill: Fill) -> Result<Handle<Expression>> {
        let vec4u = self.vec4(Scalar::U32);
        let b = &mut self.body;
        let components = match fill {
            Fill::Vec4 => return Ok(b.bitcast(value, ScalarKind::Uint)),
            Fill::Vec2 => {
                let xy = b.bitcast(value, ScalarKind::Uint);
                let x = b.index(xy, 0);
                let y = b.index(xy, 1);
                let zero = b.u32(0);
                let one = b.u32(1.0f32.to_bits());
                vec![x, y, zero, one]
            }
            Fill::Vec3 => {
                let zero = b.u32(0);
                vec![
                    b.index(value, 0),
                    b.index(value, 1),
                    b.index(value, 2),
                    zero,
                ]
            }
            Fill::Splat => vec![value; 4],
            Fill::Face => {
                let front = b.u32(1.0f32.to_bits());
                let back = b.u32((-1.0f32).to_bits());
                let x = b.select(value, front, back);
                let zero = b.u32(0);
                vec![x, zero, zero, zero]
            }
        };
        Ok(b.expr(Expression::Compose {
            ty: vec4u,
            components,
        }))
    }

    fn declare_output(&mut self, stage: ShaderStage, d: &Declaration, index: u32) -> Result<()> {
        let Some(sem) = d.semantic else {
            return Err(Error::new(
                d.span,
                describe(d),
                "an output needs a semantic",
            ));
        };
        let f32v4 = TypeInner::Vector {
            size: VectorSize::Quad,
            scalar: Scalar::F32,
        };
        let scalar = |s| TypeInner::Scalar(s);
        let varying = self.options.varying_location(sem.name, sem.index);
        let (binding, inner, gather) = match (stage, sem.name, varying) {
            (ShaderStage::Vertex, Semantic::Position, _) => (
                Binding::BuiltIn(BuiltIn::Position {
                    invariant: d.invariant,
                }),
                f32v4,
                Gather::Vec4,
            ),
            (ShaderStage::Vertex, Semantic::PSize, _) => (
                Binding::BuiltIn(BuiltIn::PointSize),
                scalar(Scalar::F32),
                Gather::Channel(0),
            ),
            (ShaderStage::Vertex, Semantic::ClipDist, Some(location)) => {
                let ty = self.ty(f32v4);
                self.interface.outputs.push(Output {
                    registers: vec![index],
                    gather: Gather::Vec4,
                    member: StructMember {
                        name: Some(format!("clipdist{}", sem.index)),
                        ty,
                        binding: Some(varying_binding(location)),
                        offset: 0,
                    },
                });
                if self.clip_vertex().is_some() {
                    return Err(both_clip_outputs(d));
                }
                if let Some(o) = self
                    .interface
                    .outputs
                    .iter_mut()
                    .find(|o| matches!(o.gather, Gather::ClipDistances))
                {
                    o.registers.push(index);
                    return Ok(());
                }
                (
                    Binding::BuiltIn(BuiltIn::ClipDistances),
                    scalar(Scalar::F32),
                    Gather::ClipDistances,
                )
            }
            (ShaderStage::Vertex, Semantic::ClipVertex, _) => {
                if self
                    .interface
                    .outputs
                    .iter()
                    .any(|o| matches!(o.gather, Gather::ClipDistances))
                {
                    return Err(both_clip_outputs(d));
                }
                let planes = self.clip_planes();
                let f = self.ty(scalar(Scalar::F32));
                let array = self.array_of(f, CLIP_PLANES);
                self.interface.outputs.push(Output {
                    registers: vec![index],
                    gather: Gather::ClipPlanes(planes),
                    member: StructMember {
                        name: Some(format!("out{index}")),
                        ty: array,
                        binding: Some(Binding::BuiltIn(BuiltIn::ClipDistances)),
                        offset: 0,
                    },
                });
                return Ok(());
            }
            (ShaderStage::Vertex, _, Some(location)) => {
                (varying_binding(location), f32v4, Gather::Vec4)
            }
            (ShaderStage::Fragment, Semantic::Color, _) => {
                (location(sem.index, None), f32v4, Gather::Vec4)
            }
            (ShaderStage::Fragment, Semantic::Position, _) => (
                Binding::BuiltIn(BuiltIn::FragDepth),
                scalar(Scalar::F32),
                Gather::Channel(2),
            ),
            (ShaderStage::Fragment, Semantic::SampleMask, _) => (
                Binding::BuiltIn(BuiltIn::SampleMask),
                scalar(Scalar::U32),
                Gather::Channel(0),
            ),
            (_, name, _) => {
                return Err(Error::new(
                    d.span,
                    describe(d),
                    format!("{name} has no naga output in a {stage:?} shader"),
                ))
            }
        };
        let ty = self.ty(inner);
        self.interface.outputs.push(Output {
            registers: vec![index],
            gather,
            member: StructMember {
                name: Some(format!("out{index}")),
                ty,
                binding: Some(binding),
                offset: 0,
            },
        });
        Ok(())
    }

    /// The `CLIPVERTEX` output's planes, if there is one.
    fn clip_vertex(&self) -> Option<Handle<naga::GlobalVariable>> {
        self.interface.outputs.iter().find_map(|o| match o.gather {
            Gather::ClipPlanes(planes) => Some(planes),
            _ => None,
        })
    }

    /// The uniform block of user clip planes (see the module documentation).
    pub(crate) fn clip_planes(&mut self) -> Handle<naga::GlobalVariable> {
        let vec4f = self.vec4(Scalar::F32);
        let array = self.array_of(vec4f, CLIP_PLANES);
        let ty = self.module.types.insert(
            Type {
                name: Some("ClipPlanes".to_string()),
                inner: TypeInner::Struct {
                    members: vec![StructMember {
                        name: Some("planes".to_string()),
                        ty: array,
                        binding: None,
                        offset: 0,
                    }],
                    span: 16 * CLIP_PLANES,
                },
            },
            naga::Span::UNDEFINED,
        );
        self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some("clip_planes".to_string()),
                space: naga::AddressSpace::Uniform,
                binding: Some(naga::ResourceBinding {
                    group: 0,
                    binding: CLIP_PLANES_BINDING,
                }),
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            naga::Span::UNDEFINED,
        )
    }

    /// Builds the result struct once every output is known.
    fn declare_result(&mut self) -> Result<()> {
        if self.interface.outputs.is_empty() {
            return Ok(());
        }
        let mut offset = 0;
        let mut members = Vec::new();
        for i in 0..self.interface.outputs.len() {
            if let Gather::ClipDistances = self.interface.outputs[i].gather {
                let n = 4 * self.interface.outputs[i].registers.len() as u32;
                let f = self.ty(TypeInner::Scalar(Scalar::F32));
                self.interface.outputs[i].member.ty = self.array_of(f, n);
            }
            let out = &mut self.interface.outputs[i];
            out.member.offset = offset;
            let size = self.module.types[out.member.ty]
                .inner
                .size(self.module.to_ctx());
            offset += size.next_multiple_of(16);
            members.push(out.member.clone());
        }
        let ty = self.module.types.insert(
            Type {
                name: Some("Outputs".to_string()),
                inner: TypeInner::Struct {
                    members,
                    span: offset,
                },
            },
            naga::Span::UNDEFINED,
        );
        self.interface.result = Some(ty);
        self.body.function.result = Some(naga::FunctionResult { ty, binding: None });
        Ok(())
    }

    /// Returns from the entry point with the current output registers.
    pub(crate) fn store_outputs_and_return(&mut self) -> Result<()> {
        if let Some(vc) = self.vertex_compute.clone() {
            return self.store_vertex_outputs_and_return(&vc);
        }
        if let Some(gc) = self.geometry_compute.clone() {
            self.finish_geometry_and_return(&gc);
            return Ok(());
        }
        if let Some(end) = self.glsl_stage_end.clone() {
            // A GLSL stage's outputs leave through the function it calls at the end.
            if let Some((outputs, registers)) = &end.outputs {
                self.copy_outputs(*outputs, registers)?;
            }
            self.call_empty(end.function);
            self.body.stmt(naga::Statement::Return { value: None });
            return Ok(());
        }
        if self.shared_outputs.is_some() {
            // A control shader's outputs are in their buffer already.
            self.body.stmt(naga::Statement::Return { value: None });
            return Ok(());
        }
        let Some(ty) = self.interface.result else {
            self.body.stmt(naga::Statement::Return { value: None });
            return Ok(());
        };
        let mut components = Vec::new();
        for i in 0..self.interface.outputs.len() {
            let (gather, registers, member_ty) = {
                let o = &self.interface.outputs[i];
                (o.gather, o.registers.clone(), o.member.ty)
            };
            let mut words = Vec::new();
            for r in &registers {
                let pointer = self.register_pointer(&Register::new(File::Output, *r as i32))?;
                words.push(self.body.load(pointer));
            }
            let b = &mut self.body;
            let value = match gather {
                Gather::Zero => b.expr(Expression::ZeroValue(member_ty)),
                Gather::Vec4 => b.bitcast(words[0], ScalarKind::Float),
                Gather::Channel(c) => {
                    let w = b.index(words[0], c);
                    match self.module.types[member_ty].inner {
                        TypeInner::Scalar(s) if s.kind == ScalarKind::Float => {
                            b.bitcast(w, ScalarKind::Float)
                        }
                        _ => w,
                    }
                }
                Gather::ClipPlanes(planes) => {
                    let parts = clip_distances(b, words[0], planes);
                    b.expr(Expression::Compose {
                        ty: member_ty,
                        components: parts,
                    })
                }
                Gather::ClipDistances => {
                    let mut parts = Vec::new();
                    for w in words {
                        let f = b.bitcast(w, ScalarKind::Float);
                        parts.extend((0..4).map(|c| b.index(f, c)));
                    }
                    b.expr(Expression::Compose {
                        ty: member_ty,
                        components: parts,
                    })
                }
            };
            components.push(value);
        }
        let value = self.body.expr(Expression::Compose { ty, components });
        self.body
            .stmt(naga::Statement::Return { value: Some(value) });
        Ok(())
    }
}

/// The error for a vertex shader writing both `CLIPVERTEX` and `CLIPDIST` (GL forbids it;
/// the targets have one set of clip distances).
fn both_clip_outputs(d: &Declaration) -> Error {
    Error::new(
        d.span,
        describe(d),
        "a vertex shader cannot write both CLIPVERTEX and CLIPDIST",
    )
}

/// The binding of a vertex-shader varying output.
fn varying_binding(location: u32) -> Binding {
    Binding::Location {
        location,
        interpolation: Some(Interpolation::Perspective),
        sampling: Some(Sampling::Center),
        blend_src: None,
        per_primitive: false,
    }
}

/// A location binding; fragment inputs take their interpolation from the declaration.
fn location(location: u32, decl: Option<&Declaration>) -> Binding {
    let (interpolation, sampling) = match decl.and_then(|d| d.interp) {
        Some(i) => {
            let mode = match i.mode {
                Interpolate::Constant => Interpolation::Flat,
                Interpolate::Linear => Interpolation::Linear,
                Interpolate::Perspective | Interpolate::Color => Interpolation::Perspective,
            };
            let sampling = match (mode, i.location) {
                (Interpolation::Flat, _) => None,
                (_, InterpLocation::Center) => Some(Sampling::Center),
                (_, InterpLocation::Centroid) => Some(Sampling::Centroid),
                (_, InterpLocation::Sample) => Some(Sampling::Sample),
            };
            (Some(mode), sampling)
        }
        None if decl.is_some() => (Some(Interpolation::Perspective), Some(Sampling::Center)),
        None => (None, None),
    };
    Binding::Location {
        location,
        interpolation,
        sampling,
        blend_src: None,
        per_primitive: false,
    }
}
