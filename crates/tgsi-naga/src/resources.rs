//! Module-level resources: constant buffers, sampler views and samplers, images, buffers.
//!
//! Bindings (documented in the README): group 0 holds `CONST[d]` at binding `d` (a uniform
//! buffer, or a read-only storage buffer past `Options::max_uniform_buffer_bytes`); group 1 the
//! sampler views `SVIEW[i]` at binding `i`, samplers `SAMP[i]` at binding `128 + i` and the
//! coverage views of emulated border colours at `256 + i`;
//! group 2 the images `IMAGE[i]` at binding `i`, buffers `BUFFER[i]` at binding `64 + i` and
//! the hardware atomic counter buffers `HWATOMIC[b]` at binding `96 + b` (an array of
//! `atomic<u32>` counters each).

use std::collections::HashMap;

use naga::{
    AddressSpace, Expression, GlobalVariable, Handle, ImageClass, ImageDimension, ResourceBinding,
    Scalar, ScalarKind, StorageAccess, StorageFormat, StructMember, Type, TypeInner,
};
use tgsi::enums::{File, ReturnType, TextureTarget};
use tgsi::ir::{Declaration, Register, ResourceDecl};
use tgsi::opcode::Opcode;

use crate::error::{Error, Result};
use crate::translate::Translator;

/// Binding of the first sampler in group 1.
pub const SAMPLER_BINDING_BASE: u32 = 128;
/// Binding of the first buffer in group 2.
pub const BUFFER_BINDING_BASE: u32 = 64;
/// Binding of the first hardware atomic counter buffer (`HWATOMIC[b]`) in group 2.
pub const HW_ATOMIC_BINDING_BASE: u32 = 96;
/// Binding in group 1 of the first coverage view (see [`crate::Options::border_colors`]).
pub const COVERAGE_BINDING_BASE: u32 = 256;

/// A declared sampler view or image: its variable and what its target needs.
#[derive(Clone, Copy)]
pub(crate) struct ImageVar {
    pub var: Handle<GlobalVariable>,
    /// The declared target.
    pub target: TextureTarget,
    pub dim: ImageDimension,
    pub arrayed: bool,
    pub class: ImageClass,
    /// A 1-D view declared as 2-D of height 1 ([`crate::Options::one_d_as_2d`]).
    pub one_d: bool,
}

/// A `BUFFER` sampler view: naga has no texel buffers, so it is a read-only storage buffer
/// `{ header: vec4<u32>, texels: array<vec4<u32>> }` holding the view's elements decoded
/// to RGBA words (float bits, or integers), the header (element count, first element of
/// the resource, 0, 0); see the README's binding table.
#[derive(Clone, Copy)]
pub(crate) struct TexelBuffer {
    pub var: Handle<GlobalVariable>,
    /// The declared return type's kind.
    pub kind: ScalarKind,
}

/// The global variables of a shader's resources.
#[derive(Default)]
pub(crate) struct Resources {
    /// `CONST[d]` → (variable, number of registers).
    constants: HashMap<u32, (Handle<GlobalVariable>, u32)>,
    pub views: HashMap<u32, ImageVar>,
    pub samplers: HashMap<u32, Handle<GlobalVariable>>,
    /// The `BUFFER` sampler views.
    pub texel_buffers: HashMap<u32, TexelBuffer>,
    /// The coverage view beside `SVIEW[i]`, for emulated border colours.
    pub coverage: HashMap<u32, Handle<GlobalVariable>>,
    pub images: HashMap<u32, ImageVar>,
    /// Images held in storage buffers ([`crate::Options::image_atomics_as_buffers`]).
    pub image_buffers: HashMap<u32, crate::image_buffer::ImageBuffer>,
    pub buffers: HashMap<u32, Handle<GlobalVariable>>,
    /// The counter buffer of each `HWATOMIC[b]`.
    pub hw_atomics: HashMap<u32, Handle<GlobalVariable>>,
    /// The workgroup array of words behind every `MEMORY[i], SHARED` (one space, whatever
    /// the index, as in the interpreter).
    pub shared: Option<Handle<GlobalVariable>>,
}

/// naga's dimension and arrayedness of a TGSI texture target.
pub(crate) fn dimension(target: TextureTarget) -> Option<(ImageDimension, bool)> {
    use TextureTarget as T;
    Some(match target {
        T::Tex1D | T::Shadow1D => (ImageDimension::D1, false),
        T::Tex2D | T::Rect | T::Shadow2D | T::ShadowRect | T::Msaa2D => (ImageDimension::D2, false),
        T::Tex3D => (ImageDimension::D3, false),
        T::Cube | T::ShadowCube => (ImageDimension::Cube, false),
        T::Array1D | T::Shadow1DArray => (ImageDimension::D1, true),
        T::Array2D | T::Shadow2DArray | T::Msaa2DArray => (ImageDimension::D2, true),
        T::CubeArray | T::ShadowCubeArray => (ImageDimension::Cube, true),
        T::Buffer | T::Unknown => return None,
    })
}

/// The storage format of an image declaration's `PIPE_FORMAT`. `PIPE_FORMAT_NONE` (a
/// write-only image whose format the driver learns at bind time) is taken as RGBA32F.
fn storage_format(format: tgsi::pipe_format::Format) -> Option<StorageFormat> {
    use StorageFormat as S;
    let name = if format == tgsi::pipe_format::Format::NONE {
        "R32G32B32A32_FLOAT"
    } else {
        format.short_name()?
    };
    Some(match name {
        "R8_UNORM" => S::R8Unorm,
        "R8_SNORM" => S::R8Snorm,
        "R8_UINT" => S::R8Uint,
        "R8_SINT" => S::R8Sint,
        "R16_UINT" => S::R16Uint,
        "R16_SINT" => S::R16Sint,
        "R16_FLOAT" => S::R16Float,
        "R16_UNORM" => S::R16Unorm,
        "R16_SNORM" => S::R16Snorm,
        "R8G8_UNORM" => S::Rg8Unorm,
        "R8G8_SNORM" => S::Rg8Snorm,
        "R8G8_UINT" => S::Rg8Uint,
        "R8G8_SINT" => S::Rg8Sint,
        "R32_UINT" => S::R32Uint,
        "R32_SINT" => S::R32Sint,
        "R32_FLOAT" => S::R32Float,
        "R16G16_UINT" => S::Rg16Uint,
        "R16G16_SINT" => S::Rg16Sint,
        "R16G16_FLOAT" => S::Rg16Float,
        "R16G16_UNORM" => S::Rg16Unorm,
        "R16G16_SNORM" => S::Rg16Snorm,
        "R8G8B8A8_UNORM" => S::Rgba8Unorm,
        "R8G8B8A8_SNORM" => S::Rgba8Snorm,
        "R8G8B8A8_UINT" => S::Rgba8Uint,
        "R8G8B8A8_SINT" => S::Rgba8Sint,
        "B8G8R8A8_UNORM" => S::Bgra8Unorm,
        "R10G10B10A2_UINT" => S::Rgb10a2Uint,
        "R10G10B10A2_UNORM" => S::Rgb10a2Unorm,
        "R11G11B10_FLOAT" => S::Rg11b10Ufloat,
        "R32G32_UINT" => S::Rg32Uint,
        "R32G32_SINT" => S::Rg32Sint,
        "R32G32_FLOAT" => S::Rg32Float,
        "R16G16B16A16_UINT" => S::Rgba16Uint,
        "R16G16B16A16_SINT" => S::Rgba16Sint,
        "R16G16B16A16_FLOAT" => S::Rgba16Float,
        "R16G16B16A16_UNORM" => S::Rgba16Unorm,
        "R16G16B16A16_SNORM" => S::Rgba16Snorm,
        "R32G32B32A32_UINT" => S::Rgba32Uint,
        "R32G32B32A32_SINT" => S::Rgba32Sint,
        "R32G32B32A32_FLOAT" => S::Rgba32Float,
        _ => return None,
    })
}

/// The scalar kind a storage format reads and writes.
pub(crate) fn format_kind(format: StorageFormat) -> ScalarKind {
    use StorageFormat as S;
    match format {
        S::R8Uint
        | S::R16Uint
        | S::Rg8Uint
        | S::R32Uint
        | S::Rg16Uint
        | S::Rgba8Uint
        | S::Rgb10a2Uint
        | S::R64Uint
        | S::Rg32Uint
        | S::Rgba16Uint
        | S::Rgba32Uint => ScalarKind::Uint,
        S::R8Sint
        | S::R16Sint
        | S::Rg8Sint
        | S::R32Sint
        | S::Rg16Sint
        | S::Rgba8Sint
        | S::Rg32Sint
        | S::Rgba16Sint
        | S::Rgba32Sint => ScalarKind::Sint,
        _ => ScalarKind::Float,
    }
}

impl Translator<'_> {
    /// Creates the global variables of every resource declaration.
    pub(crate) fn declare_resources(&mut self) -> Result<()> {
        for d in &self.shader.declarations {
            self.span = d.span;
            self.item = format!("DCL {}[{}]", d.file, d.first);
            match d.file {
                File::Constant => self.declare_constants(d)?,
                File::SamplerView => self.declare_view(d)?,
                File::Sampler => self.declare_samplers(d),
                File::Image => self.declare_image(d)?,
                File::Buffer => self.declare_buffer(d)?,
                File::Memory => self.declare_memory(d)?,
                File::HwAtomic => self.declare_hw_atomics(d),
                File::ConstBuf | File::Resource => {
                    return Err(self.unsupported("is not translated yet"))
                }
                _ => {}
            }
        }
        Ok(())
    }

    pub(crate) fn global(
        &mut self,
        name: String,
        space: AddressSpace,
        ty: Handle<Type>,
        group: u32,
        binding: u32,
    ) -> Handle<GlobalVariable> {
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name),
                space,
                binding: Some(ResourceBinding { group, binding }),
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            naga::Span::UNDEFINED,
        )
    }

    fn declare_constants(&mut self, d: &Declaration) -> Result<()> {
        let dim = d.dimension.unwrap_or(0);
        let len = d.last + 1;
        let len = match self.resources.constants.get(&dim) {
            Some(&(_, old)) if old >= len => return Ok(()),
            _ => len,
        };
        let vec4u = self.vec4(Scalar::U32);
        let array = self.array_of(vec4u, len);
        let ty = self.module.types.insert(
            Type {
                name: Some(format!("Constants{dim}")),
                inner: TypeInner::Struct {
                    members: vec![StructMember {
                        name: Some("regs".to_string()),
                        ty: array,
                        binding: None,
                        offset: 0,
                    }],
                    span: 16 * len,
                },
            },
            naga::Span::UNDEFINED,
        );
        let space = match self.options.max_uniform_buffer_bytes {
            Some(max) if u64::from(len) * 16 > u64::from(max) => AddressSpace::Storage {
                access: naga::StorageAccess::LOAD,
            },
            _ => AddressSpace::Uniform,
        };
        match self.resources.constants.get(&dim) {
            Some(&(var, _)) => {
                // A later declaration extends the buffer: retype its variable.
                let global = &mut self.module.global_variables[var];
                global.ty = ty;
                global.space = space;
                self.resources.constants.insert(dim, (var, len));
            }
            None => {
                let var = self.global(format!("const{dim}"), space, ty, 0, dim);
                self.resources.constants.insert(dim, (var, len));
            }
        }
        Ok(())
    }

    /// A constant read through an indirect buffer index (`CONST[ADDR[0].x + k][i]`): the
    /// targets have no arrays of differently sized blocks, so every declared buffer is read
    /// at `i` and the one the index names is selected. An index naming no declared buffer
    /// reads 0 (the interpreter reads 0 from an unbound one), and so does a buffer whose
    /// declaration ends before a direct `i` (the translation knows only declared registers).
    fn load_constant_from_any_buffer(
        &mut self,
        reg: &Register,
        ind: &tgsi::ir::Indirect,
        offset: i32,
    ) -> Result<Handle<Expression>> {
        let which = self.address(ind, offset)?;
        let vec4u = self.vec4(Scalar::U32);
        let mut value = self.body.expr(Expression::ZeroValue(vec4u));
        let mut buffers: Vec<(u32, u32)> = self
            .resources
            .constants
            .iter()
            .map(|(&dim, &(_, len))| (dim, len))
            .collect();
        buffers.sort_unstable();
        for (dim, len) in buffers {
            if reg.indirect.is_none() && !u32::try_from(reg.index).is_ok_and(|i| i < len) {
                continue;
            }
            let direct = Register {
                dimension: Some(tgsi::ir::Dimension {
                    index: dim as i32,
                    indirect: None,
                }),
                ..*reg
            };
            let v = self.load_constant(&direct)?;
            let k = self.body.u32(dim);
            let hit = self.body.binary(naga::BinaryOperator::Equal, which, k);
            value = self.body.select(hit, v, value);
        }
        Ok(value)
    }

    /// The `vec4<u32>` of a constant register.
    pub(crate) fn load_constant(&mut self, reg: &Register) -> Result<Handle<Expression>> {
        let dim = match reg.dimension {
            Some(
                d @ tgsi::ir::Dimension {
                    indirect: Some(ind),
                    ..
                },
            ) => return self.load_constant_from_any_buffer(reg, &ind, d.index),
            Some(d) => d.index as u32,
            None => 0,
        };
        let Some(&(var, len)) = self.resources.constants.get(&dim) else {
            return Err(self.unsupported(format!("CONST[{dim}] is not declared")));
        };
        let base = self.body.expr(Expression::GlobalVariable(var));
        let regs = self.body.index(base, 0);
        let pointer = match reg.indirect {
            Some(ind) => {
                let i = self.address(&ind, reg.index)?;
                self.body.access(regs, i)
            }
            None => match u32::try_from(reg.index) {
                Ok(i) if i < len => self.body.index(regs, i),
                _ => {
                    return Err(
                        self.unsupported(format!("CONST[{dim}][{}] is not declared", reg.index))
                    )
                }
            },
        };
        Ok(self.body.load(pointer))
    }

    /// The scalar kind of `SVIEW[i]`'s texels: its return type in
    /// [`crate::Options::view_return_types`], or the `declared` one.
    fn view_kind(&self, i: u32, declared: ReturnType) -> ScalarKind {
        match self
            .options
            .view_return_types
            .get(&i)
            .copied()
            .unwrap_or(declared)
        {
            ReturnType::Sint => ScalarKind::Sint,
            ReturnType::Uint => ScalarKind::Uint,
            _ => ScalarKind::Float,
        }
    }

    fn declare_view(&mut self, d: &Declaration) -> Result<()> {
        let Some(ResourceDecl::SamplerView {
            target,
            return_types,
        }) = d.resource
        else {
            return Err(self.unsupported("has no target"));
        };
        if target == TextureTarget::Buffer {
            self.declare_texel_buffers(d, return_types[0]);
            return Ok(());
        }
        let Some((dim, arrayed)) = dimension(target) else {
            return Err(self.unsupported(format!("target {target} is not translated yet")));
        };
        let one_d = self.options.one_d_as_2d && dim == ImageDimension::D1;
        let dim = if one_d { ImageDimension::D2 } else { dim };
        for i in d.first..=d.last {
            let class = if target.is_shadow() && self.options.depth_compares.is_none() {
                ImageClass::Depth { multi: false }
            } else {
                ImageClass::Sampled {
                    kind: self.view_kind(i, return_types[0]),
                    multi: target.is_msaa(),
                }
            };
            let ty = self.ty(TypeInner::Image {
                dim,
                arrayed,
                class,
            });
            let var = self.global(format!("view{i}"), AddressSpace::Handle, ty, 1, i);
            self.resources.views.insert(
                i,
                ImageVar {
                    var,
                    target,
                    dim,
                    arrayed,
                    class,
                    one_d,
                },
            );
        }
        Ok(())
    }

    /// The coverage view beside `SVIEW[i]` (declared on first use): a float view of the
    /// same dimension (see [`crate::Options::border_colors`]).
    pub(crate) fn coverage_view(&mut self, i: u32, view: &ImageVar) -> Handle<GlobalVariable> {
        if let Some(&var) = self.resources.coverage.get(&i) {
            return var;
        }
        let ty = self.ty(TypeInner::Image {
            dim: view.dim,
            arrayed: view.arrayed,
            class: ImageClass::Sampled {
                kind: ScalarKind::Float,
                multi: false,
            },
        });
        let binding = COVERAGE_BINDING_BASE.saturating_add(i);
        let var = self.global(format!("coverage{i}"), AddressSpace::Handle, ty, 1, binding);
        self.resources.coverage.insert(i, var);
        var
    }

    fn declare_samplers(&mut self, d: &Declaration) {
        for i in d.first..=d.last {
            let comparison = self.options.depth_compares.is_none() && self.sampler_compares(i);
            let ty = self.ty(TypeInner::Sampler { comparison });
            let var = self.global(
                format!("sampler{i}"),
                AddressSpace::Handle,
                ty,
                1,
                SAMPLER_BINDING_BASE + i,
            );
            self.resources.samplers.insert(i, var);
        }
    }

    /// Whether sampler `i` is used for depth comparisons (a shadow view of the same index,
    /// a shadow target on a texture instruction using it, or SAMPLE_C with it).
    fn sampler_compares(&self, i: u32) -> bool {
        let view_is_shadow = self.shader.declarations.iter().any(|d| {
            d.file == File::SamplerView
                && d.first <= i
                && i <= d.last
                && matches!(d.resource, Some(ResourceDecl::SamplerView { target, .. }) if target.is_shadow())
        });
        view_is_shadow
            || self.shader.instructions.iter().any(|inst| {
                let compares = inst.texture.as_ref().is_some_and(|t| t.target.is_shadow())
                    || matches!(inst.opcode, Opcode::SAMPLE_C | Opcode::SAMPLE_C_LZ);
                compares
                    && inst
                        .src
                        .iter()
                        .any(|s| s.reg.file == File::Sampler && s.reg.index == i as i32)
            })
    }

    fn declare_image(&mut self, d: &Declaration) -> Result<()> {
        let Some(ResourceDecl::Image {
            target,
            format,
            writable,
            raw,
        }) = d.resource
        else {
            return Err(self.unsupported("has no target"));
        };
        if raw {
            return Err(self.unsupported("RAW images are not translated yet"));
        }
        // Images held in storage buffers, and the storage images.
        let (held, storage_images): (Vec<u32>, Vec<u32>) = (d.first..=d.last).partition(|&i| {
            self.options.image_atomics_as_buffers && self.held_in_buffer(i, target, format)
        });
        for i in held {
            self.declare_image_buffer(i, target, format)?;
        }
        if storage_images.is_empty() {
            return Ok(());
        }
        let Some((dim, arrayed)) = dimension(target) else {
            return Err(self.unsupported(format!("target {target} is not translated yet")));
        };
        let Some(format) = storage_format(format) else {
            return Err(self.unsupported(format!(
                "{} has no naga storage format",
                format.name().unwrap_or_default()
            )));
        };
        for i in storage_images {
            let (loads, stores) = self.image_use(i);
            let mut access = StorageAccess::empty();
            if loads || !writable {
                access |= StorageAccess::LOAD;
            }
            if writable && (stores || !loads) {
                access |= StorageAccess::STORE;
            }
            let class = ImageClass::Storage { format, access };
            let ty = self.ty(TypeInner::Image {
                dim,
                arrayed,
                class,
            });
            let var = self.global(format!("image{i}"), AddressSpace::Handle, ty, 2, i);
            self.resources.images.insert(
                i,
                ImageVar {
                    var,
                    target,
                    dim,
                    arrayed,
                    class,
                    one_d: false,
                },
            );
        }
        Ok(())
    }

    /// Whether `IMAGE[i]` is read and whether it is written by some instruction.
    fn image_use(&self, i: u32) -> (bool, bool) {
        let mut loads = false;
        let mut stores = false;
        for inst in &self.shader.instructions {
            let is_image = |r: &Register| r.file == File::Image && r.index == i as i32;
            if inst.opcode == Opcode::STORE && inst.dst.iter().any(|d| is_image(&d.reg)) {
                stores = true;
            } else if inst.src.iter().any(|s| is_image(&s.reg)) {
                loads = true;
            }
        }
        (loads, stores)
    }

    /// The word type of buffers and shared memory: atomic when the shader has atomics.
    fn word_type(&mut self) -> Handle<Type> {
        let atomic = self
            .shader
            .instructions
            .iter()
            .any(|inst| inst.opcode.info().section == tgsi::opcode::Section::Atomic);
        if atomic {
            self.ty(TypeInner::Atomic(Scalar::U32))
        } else {
            self.ty(TypeInner::Scalar(Scalar::U32))
        }
    }

    /// `DCL MEMORY[i], SHARED`: the workgroup array of [`crate::Options::shared_memory_bytes`]
    /// (TGSI does not say how large shared memory is; the driver is told at dispatch).
    fn declare_memory(&mut self, d: &Declaration) -> Result<()> {
        if d.memory_type != tgsi::enums::MemoryType::Shared {
            return Err(self.unsupported(format!("{} memory is not translated yet", d.memory_type)));
        }
        if self.shader.processor != tgsi::enums::Processor::Compute {
            return Err(self.unsupported("shared memory exists only in compute shaders"));
        }
        if self.resources.shared.is_some() {
            return Ok(());
        }
        let word = self.word_type();
        let len = std::num::NonZeroU32::new(self.options.shared_memory_bytes / 4)
            .ok_or_else(|| self.unsupported("shared memory size is less than one word"))?;
        let ty = self.ty(TypeInner::Array {
            base: word,
            size: naga::ArraySize::Constant(len),
            stride: 4,
        });
        let var = self.module.global_variables.append(
            GlobalVariable {
                name: Some("shared".to_string()),
                space: AddressSpace::WorkGroup,
                binding: None,
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            naga::Span::UNDEFINED,
        );
        self.resources.shared = Some(var);
        Ok(())
    }

    /// The struct `{ header: vec4<u32>, <array>: array<vec4<u32>> }` named `name` (without
    /// the header when `header` is false), of the storage buffers that hold vectors of words
    /// (texel buffers; a vertex shader's registers when it runs as a compute shader).
    pub(crate) fn word_vectors(&mut self, name: &str, header: bool, array: &str) -> Handle<Type> {
        let vec4 = self.vec4(Scalar::U32);
        let words = self.ty(TypeInner::Array {
            base: vec4,
            size: naga::ArraySize::Dynamic,
            stride: 16,
        });
        let member = |name: &str, ty, offset| StructMember {
            name: Some(name.to_string()),
            ty,
            binding: None,
            offset,
        };
        let members = if header {
            vec![member("header", vec4, 0), member(array, words, 16)]
        } else {
            vec![member(array, words, 0)]
        };
        let span = 16 * members.len() as u32;
        self.module.types.insert(
            Type {
                name: Some(name.to_string()),
                inner: TypeInner::Struct { members, span },
            },
            naga::Span::UNDEFINED,
        )
    }

    /// The storage buffers of `BUFFER` sampler views `d` declares ([`TexelBuffer`]), at the
    /// views' bindings in group 1.
    fn declare_texel_buffers(&mut self, d: &Declaration, declared: ReturnType) {
        let ty = self.word_vectors("TexelBuffer", true, "texels");
        let space = AddressSpace::Storage {
            access: StorageAccess::LOAD,
        };
        for i in d.first..=d.last {
            let kind = self.view_kind(i, declared);
            let var = self.global(format!("texel_buffer{i}"), space, ty, 1, i);
            self.resources
                .texel_buffers
                .insert(i, TexelBuffer { var, kind });
        }
    }

    fn declare_buffer(&mut self, d: &Declaration) -> Result<()> {
        let word = self.word_type();
        let ty = self.words_struct("Buffer", "words", word);
        let space = AddressSpace::Storage {
            access: StorageAccess::LOAD | StorageAccess::STORE,
        };
        for i in d.first..=d.last {
            let var = self.global(format!("buffer{i}"), space, ty, 2, BUFFER_BINDING_BASE + i);
            self.resources.buffers.insert(i, var);
        }
        Ok(())
    }

    /// `DCL HWATOMIC[b][first..last]`: the counter buffer bound for slot `b` (a
    /// one-dimensional `DCL HWATOMIC[first..last]` declares slots), whole: a counter is
    /// addressed by its index in the buffer, as the interpreter addresses it.
    fn declare_hw_atomics(&mut self, d: &Declaration) {
        let counter = self.ty(TypeInner::Atomic(Scalar::U32));
        let ty = self.words_struct("HwAtomics", "counters", counter);
        let space = AddressSpace::Storage {
            access: StorageAccess::LOAD | StorageAccess::STORE,
        };
        let slots = match d.dimension {
            Some(b) => b..=b,
            None => d.first..=d.last,
        };
        for b in slots {
            if !self.resources.hw_atomics.contains_key(&b) {
                let name = format!("hw_atomics{b}");
                let var = self.global(name, space, ty, 2, HW_ATOMIC_BINDING_BASE + b);
                self.resources.hw_atomics.insert(b, var);
            }
        }
    }

    /// `struct name { member: array<word> }`, a runtime-sized array of 4-byte `word`s.
    pub(crate) fn words_struct(
        &mut self,
        name: &str,
        member: &str,
        word: Handle<Type>,
    ) -> Handle<Type> {
        let array = self.ty(TypeInner::Array {
            base: word,
            size: naga::ArraySize::Dynamic,
            stride: 4,
        });
        self.module.types.insert(
            Type {
                name: Some(name.to_string()),
                inner: TypeInner::Struct {
                    members: vec![StructMember {
                        name: Some(member.to_string()),
                        ty: array,
                        binding: None,
                        offset: 0,
                    }],
                    span: 4,
                },
            },
            naga::Span::UNDEFINED,
        )
    }

    /// Reports a resource operand that is not declared.
    pub(crate) fn undeclared(&self, file: File, index: i32) -> Error {
        self.unsupported(format!("{file}[{index}] is not declared"))
    }
}
