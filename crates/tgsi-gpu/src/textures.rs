//! Sampler views and samplers (bind group 1): a `tgsi_exec` sampler view becomes a wgpu
//! texture holding its resource's levels and layers — uploaded byte for byte where wgpu has
//! a format of the same layout, else decoded to the RGBA32 texels the interpreter reads
//! (depth formats too: the translation compares depth itself) — and a view of its levels,
//! layers and dimension (1-D as 2-D of height 1). View swizzles are applied by the translation
//! ([`view_swizzles`]); multisampling and buffer views are refused with their names. Unbound slots read zero,
//! as in the interpreter (except shadow views: refused).

use naga::{ImageClass, ImageDimension, ScalarKind, TypeInner};
use std::collections::BTreeMap;
use tgsi::enums::ReturnType;
use tgsi_exec::format::NumClass;
use tgsi_exec::resource::{
    Resource, Resources, SamplerState, SamplerView, Storage, Swizzle, Target,
};

use crate::bindings::{storage_slot, Bound, Inputs, Slot};
use crate::device::Gpu;
use crate::error::{Error, Result};
use crate::samplers;

/// The wgpu format with the same texel layout as a `PIPE_FORMAT`.
pub(crate) fn format(pipe: tgsi::Format) -> Option<wgpu::TextureFormat> {
    use wgpu::TextureFormat as F;
    Some(match pipe.short_name()? {
        "R8G8B8A8_UNORM" => F::Rgba8Unorm,
        "R8G8B8A8_SRGB" => F::Rgba8UnormSrgb,
        "R8G8B8A8_SNORM" => F::Rgba8Snorm,
        "R8G8B8A8_UINT" => F::Rgba8Uint,
        "R8G8B8A8_SINT" => F::Rgba8Sint,
        "B8G8R8A8_UNORM" => F::Bgra8Unorm,
        "B8G8R8A8_SRGB" => F::Bgra8UnormSrgb,
        "R8_UNORM" => F::R8Unorm,
        "R8_SNORM" => F::R8Snorm,
        "R8_UINT" => F::R8Uint,
        "R8_SINT" => F::R8Sint,
        "R8G8_UNORM" => F::Rg8Unorm,
        "R8G8_SNORM" => F::Rg8Snorm,
        "R8G8_UINT" => F::Rg8Uint,
        "R8G8_SINT" => F::Rg8Sint,
        "R16_UNORM" => F::R16Unorm,
        "R16_SNORM" => F::R16Snorm,
        "R16_UINT" => F::R16Uint,
        "R16_SINT" => F::R16Sint,
        "R16_FLOAT" => F::R16Float,
        "R16G16_UNORM" => F::Rg16Unorm,
        "R16G16_SNORM" => F::Rg16Snorm,
        "R16G16_UINT" => F::Rg16Uint,
        "R16G16_SINT" => F::Rg16Sint,
        "R16G16_FLOAT" => F::Rg16Float,
        "R16G16B16A16_UNORM" => F::Rgba16Unorm,
        "R16G16B16A16_SNORM" => F::Rgba16Snorm,
        "R16G16B16A16_UINT" => F::Rgba16Uint,
        "R16G16B16A16_SINT" => F::Rgba16Sint,
        "R16G16B16A16_FLOAT" => F::Rgba16Float,
        "R32_UINT" => F::R32Uint,
        "R32_SINT" => F::R32Sint,
        "R32_FLOAT" => F::R32Float,
        "R32G32_UINT" => F::Rg32Uint,
        "R32G32_SINT" => F::Rg32Sint,
        "R32G32_FLOAT" => F::Rg32Float,
        "R32G32B32A32_UINT" => F::Rgba32Uint,
        "R32G32B32A32_SINT" => F::Rgba32Sint,
        "R32G32B32A32_FLOAT" => F::Rgba32Float,
        "R10G10B10A2_UNORM" => F::Rgb10a2Unorm,
        "R10G10B10A2_UINT" => F::Rgb10a2Uint,
        "R11G11B10_FLOAT" => F::Rg11b10Ufloat,
        "R9G9B9E5_FLOAT" => F::Rgb9e5Ufloat,
        _ => return None,
    })
}

/// The binding of a texture or sampler variable.
pub(crate) fn slot(gpu: &Gpu, binding: u32, inner: &TypeInner, inputs: &Inputs) -> Result<Slot> {
    let (entry, resource) = match *inner {
        TypeInner::Sampler { comparison } => {
            let i = binding.saturating_sub(tgsi_naga::SAMPLER_BINDING_BASE);
            // Unbound: any state does (the view reads zero), comparing if the shader compares.
            let unbound = SamplerState {
                compare: comparison,
                ..SamplerState::default()
            };
            let state = inputs.resources.sampler(i).unwrap_or(&unbound);
            let ty = if comparison {
                wgpu::SamplerBindingType::Comparison
            } else if samplers::filters(state) {
                wgpu::SamplerBindingType::Filtering
            } else {
                wgpu::SamplerBindingType::NonFiltering
            };
            let usage = inputs.samplers.get(&i).copied().unwrap_or_default();
            let sampler = samplers::sampler(&gpu.device, state, i, usage)?;
            (wgpu::BindingType::Sampler(ty), Bound::Sampler(sampler))
        }
        TypeInner::Image { dim, arrayed, .. } if binding >= tgsi_naga::COVERAGE_BINDING_BASE => {
            let i = binding - tgsi_naga::COVERAGE_BINDING_BASE;
            let view = inputs.resources.sampler_view(i).ok_or_else(|| {
                Error::Unsupported(format!(
                    "SVIEW[{i}] is not bound (views sampled with an emulated border colour must be)"
                ))
            })?;
            let (texture_view, dimension) = coverage(gpu, view, i, dim, arrayed)?;
            let ty = wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: dimension,
                multisampled: false,
            };
            (ty, Bound::Texture(texture_view))
        }
        TypeInner::Image {
            dim,
            arrayed,
            class:
                class @ (ImageClass::Sampled { multi: false, .. } | ImageClass::Depth { multi: false }),
        } => {
            let (texture_view, format, view_dimension) =
                match inputs.resources.sampler_view(binding) {
                    Some(view) => texture(gpu, view, binding, (dim, arrayed))?,
                    None => zero_texture(gpu, binding, dim, arrayed, class)?,
                };
            let sample_type = match class {
                ImageClass::Depth { .. } => wgpu::TextureSampleType::Depth,
                ImageClass::Sampled {
                    kind: ScalarKind::Uint,
                    ..
                } => wgpu::TextureSampleType::Uint,
                ImageClass::Sampled {
                    kind: ScalarKind::Sint,
                    ..
                } => wgpu::TextureSampleType::Sint,
                _ => format
                    .sample_type(None, Some(gpu.device.features()))
                    .unwrap_or(wgpu::TextureSampleType::Float { filterable: false }),
            };
            // A view declared FLOAT over an integer format (or the reverse) has no binding.
            let declared_integer = matches!(
                class,
                ImageClass::Sampled {
                    kind: ScalarKind::Uint | ScalarKind::Sint,
                    ..
                }
            );
            let bound_integer = matches!(
                format.sample_type(None, Some(gpu.device.features())),
                Some(wgpu::TextureSampleType::Uint | wgpu::TextureSampleType::Sint)
            );
            if declared_integer != bound_integer {
                return Err(Error::Unsupported(format!(
                    "SVIEW[{binding}]: declared with {} return type, bound to the format \
                     {format:?}",
                    if declared_integer {
                        "an integer"
                    } else {
                        "a float"
                    }
                )));
            }
            let ty = wgpu::BindingType::Texture {
                sample_type,
                view_dimension,
                multisampled: false,
            };
            (ty, Bound::Texture(texture_view))
        }
        ref other => {
            return Err(Error::Unsupported(format!(
                "binding {binding}: {other:?} (multisampled textures)"
            )))
        }
    };
    Ok(Slot {
        layout: wgpu::BindGroupLayoutEntry {
            binding,
            visibility: inputs.visibility,
            ty: entry,
            count: None,
        },
        resource,
    })
}

/// An unbound view: a zero-filled 1×1 texture (6 layers for cubes) of the shader's kind,
/// so it reads zero as in the interpreter (its size queries give 1, not 0). Unbound shadow
/// views are refused.
fn zero_texture(
    gpu: &Gpu,
    slot: u32,
    dim: ImageDimension,
    arrayed: bool,
    class: ImageClass,
) -> Result<(
    wgpu::TextureView,
    wgpu::TextureFormat,
    wgpu::TextureViewDimension,
)> {
    let dimension = view_dimension(dim, arrayed)
        .ok_or_else(|| Error::Unsupported(format!("SVIEW[{slot}]: {dim:?} arrays")))?;
    let format = match class {
        // The translation makes (d, d, d, 1) of a comparison, where the interpreter's unbound
        // view gives (0, 0, 0, 0).
        ImageClass::Depth { .. } => {
            return Err(Error::Unsupported(format!(
                "SVIEW[{slot}] is not bound (shadow views must be)"
            )))
        }
        ImageClass::Sampled {
            kind: ScalarKind::Uint,
            ..
        } => wgpu::TextureFormat::Rgba8Uint,
        ImageClass::Sampled {
            kind: ScalarKind::Sint,
            ..
        } => wgpu::TextureFormat::Rgba8Sint,
        _ => wgpu::TextureFormat::Rgba8Unorm,
    };
    let (tex_dim, layers) = match dim {
        ImageDimension::D1 => (wgpu::TextureDimension::D1, 1),
        ImageDimension::D3 => (wgpu::TextureDimension::D3, 1),
        ImageDimension::Cube => (wgpu::TextureDimension::D2, 6),
        ImageDimension::D2 => (wgpu::TextureDimension::D2, 1),
    };
    // wgpu clears new textures to zero.
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("unbound view"),
        size: wgpu::Extent3d {
            width: 1,
            height: 1,
            depth_or_array_layers: layers,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: tex_dim,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(dimension),
        ..Default::default()
    });
    Ok((view, format, dimension))
}

/// The view dimension of a shader's image type.
pub(crate) fn view_dimension(
    dim: ImageDimension,
    arrayed: bool,
) -> Option<wgpu::TextureViewDimension> {
    use wgpu::TextureViewDimension as V;
    Some(match (dim, arrayed) {
        (ImageDimension::D1, false) => V::D1,
        (ImageDimension::D2, false) => V::D2,
        (ImageDimension::D2, true) => V::D2Array,
        (ImageDimension::D3, false) => V::D3,
        (ImageDimension::Cube, false) => V::Cube,
        (ImageDimension::Cube, true) => V::CubeArray,
        _ => return None,
    })
}

/// The swizzles of the bound views that have one, in `PIPE_SWIZZLE_*` numbering: WebGPU
/// views have none, so the translation applies them ([`tgsi_naga::Options::view_swizzles`]).
pub(crate) fn view_swizzles(resources: &Resources) -> BTreeMap<u32, [u8; 4]> {
    let number = |s: Swizzle| match s {
        Swizzle::X => 0,
        Swizzle::Y => 1,
        Swizzle::Z => 2,
        Swizzle::W => 3,
        Swizzle::Zero => 4,
        Swizzle::One => 5,
    };
    (0u32..)
        .zip(&resources.sampler_views)
        .filter_map(|(i, v)| Some((i, v.as_ref()?.swizzle.map(number))))
        .filter(|(_, s)| *s != [0, 1, 2, 3])
        .collect()
}

/// The texel type of each bound view's format, which the translation declares the view
/// with ([`tgsi_naga::Options::view_return_types`]): Mesa declares some views of integer
/// textures FLOAT, and a WebGPU binding must have the texture's own sample type.
pub(crate) fn view_return_types(resources: &Resources) -> BTreeMap<u32, ReturnType> {
    (0u32..)
        .zip(&resources.sampler_views)
        .filter_map(|(i, v)| {
            let t = match tgsi_exec::format::class(v.as_ref()?.format)? {
                NumClass::Uint => ReturnType::Uint,
                NumClass::Sint => ReturnType::Sint,
                NumClass::Float | NumClass::Unorm | NumClass::Snorm => ReturnType::Float,
            };
            Some((i, t))
        })
        .collect()
}

/// A texture holding `view`'s resource, and the view the shader samples.
fn texture(
    gpu: &Gpu,
    view: &SamplerView,
    slot: u32,
    (dim, arrayed): (ImageDimension, bool),
) -> Result<(
    wgpu::TextureView,
    wgpu::TextureFormat,
    wgpu::TextureViewDimension,
)> {
    let what = format!("SVIEW[{slot}]");
    let dimension = view_dimension(dim, arrayed)
        .ok_or_else(|| Error::Unsupported(format!("{what}: {dim:?} arrays")))?;
    let (texture, format) = match format(view.format) {
        Some(f) => (create(gpu, &view.resource, f, Usage::Sampled, &what)?, f),
        None => decoded(gpu, view, &what)?,
    };
    Ok((subresource(&texture, view, dimension), format, dimension))
}

/// Most bytes a decoded texture may take.
const MAX_DECODED_BYTES: usize = 1 << 30;

/// A texture holding `view`'s texels as the interpreter reads them
/// (`tgsi_exec::format::unpack` of the view's format) in RGBA32 float, uint or sint words,
/// for formats without a wgpu twin of the same layout: sampling then starts from softpipe's
/// own texel values.
fn decoded(
    gpu: &Gpu,
    view: &SamplerView,
    what: &str,
) -> Result<(wgpu::Texture, wgpu::TextureFormat)> {
    use tgsi_exec::format as pf;
    let (format, pipe) = if pf::is_pure_uint(view.format) {
        (
            wgpu::TextureFormat::Rgba32Uint,
            "PIPE_FORMAT_R32G32B32A32_UINT",
        )
    } else if pf::is_pure_sint(view.format) {
        (
            wgpu::TextureFormat::Rgba32Sint,
            "PIPE_FORMAT_R32G32B32A32_SINT",
        )
    } else {
        (
            wgpu::TextureFormat::Rgba32Float,
            "PIPE_FORMAT_R32G32B32A32_FLOAT",
        )
    };
    let r = &view.resource;
    let texel = texel_size(view.format, what)?;
    let len = r
        .layout_bytes(texel)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| Error::Unsupported(format!("{what}: texture too large")))?;
    let bytes = r.data.to_bytes();
    if bytes.len() < len {
        return Err(Error::Setup(format!(
            "{what}: texture data shorter than its levels"
        )));
    }
    let words = decode(view.format, &bytes, 0..len / texel, what)?;
    let out: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let format_of =
        tgsi::Format::from_name(pipe).ok_or_else(|| Error::Setup(format!("no {pipe}")))?;
    let texture = create(
        gpu,
        &shaped(r, format_of, &out),
        format,
        Usage::Sampled,
        what,
    )?;
    Ok((texture, format))
}

/// `SVIEW[slot]`, a buffer view, as tgsi-naga's texel buffer: a read-only storage buffer
/// with the header (elements, first element, 0, 0) and then each element of the view
/// decoded as the interpreter reads it (RGBA words; zeros past the resource's bytes), at
/// least one. An unbound view has no elements.
pub(crate) fn texel_buffer(gpu: &Gpu, slot: u32, inputs: &Inputs) -> Result<Slot> {
    let view = inputs
        .resources
        .sampler_view(slot)
        .filter(|v| v.target == Target::Buffer);
    let mut words: Vec<u32> = vec![0; 4];
    if let Some(v) = view {
        let what = format!("SVIEW[{slot}]");
        let texel = texel_size(v.format, &what)?;
        let (count, first) = (v.size as usize / texel, v.offset as usize / texel);
        words = vec![count as u32, first as u32, 0, 0];
        let bytes = v.resource.data.to_bytes();
        words.extend(decode(
            v.format,
            &bytes,
            first..first.saturating_add(count),
            &what,
        )?);
    }
    if words.len() == 4 {
        words.extend([0; 4]);
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let buffer = gpu.buffer_with(&bytes, wgpu::BufferUsages::STORAGE);
    Ok(storage_slot(slot, buffer, true, inputs))
}

/// The bytes of one texel of `format` (`what` names the view in the error).
fn texel_size(format: tgsi::Format, what: &str) -> Result<usize> {
    tgsi_exec::format::texel_bytes(format)
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            Error::Unsupported(format!(
                "{what}: format {} cannot be decoded",
                format.name().unwrap_or_default()
            ))
        })
}

/// Elements `range` of `bytes` (texels of `format`) as the interpreter reads them
/// (`tgsi_exec::format::unpack`: RGBA words), zeros past the end of `bytes`; refused when
/// they would take more than [`MAX_DECODED_BYTES`].
fn decode(
    format: tgsi::Format,
    bytes: &[u8],
    range: std::ops::Range<usize>,
    what: &str,
) -> Result<Vec<u32>> {
    let texel = texel_size(format, what)?;
    if range.len().saturating_mul(16) > MAX_DECODED_BYTES {
        return Err(Error::Unsupported(format!(
            "{what}: {} texels decoded would take more than {MAX_DECODED_BYTES} bytes",
            range.len()
        )));
    }
    Ok(range
        .flat_map(|x| {
            let texel = x
                .checked_mul(texel)
                .and_then(|at| bytes.get(at..at.checked_add(texel)?));
            texel.map_or([0; 4], |t| tgsi_exec::format::unpack(format, t))
        })
        .collect())
}

/// A resource of `r`'s target, size and levels holding `bytes` in `format`.
fn shaped(r: &Resource, format: tgsi::Format, bytes: &[u8]) -> Resource {
    Resource {
        target: r.target,
        format,
        width0: r.width0,
        height0: r.height0,
        depth0: r.depth0,
        array_size: r.array_size,
        last_level: r.last_level,
        nr_samples: r.nr_samples,
        data: Storage::from_bytes(bytes),
    }
}

/// The coverage view beside `SVIEW[slot]` for a sampler whose border colour the translation
/// emulates ([`tgsi_naga::Options::border_colors`]): 1.0 in every texel of a texture shaped
/// as the view's resource, viewed as the view is. Half floats filter in float precision and
/// hold 1.0 exactly.
fn coverage(
    gpu: &Gpu,
    view: &SamplerView,
    slot: u32,
    dim: ImageDimension,
    arrayed: bool,
) -> Result<(wgpu::TextureView, wgpu::TextureViewDimension)> {
    let dimension = view_dimension(dim, arrayed)
        .ok_or_else(|| Error::Unsupported(format!("SVIEW[{slot}]: {dim:?} arrays")))?;
    let r = &view.resource;
    let bytes = r.levels(2).last().map_or(0, |l| {
        let slices = if r.target == Target::Tex1D {
            1
        } else {
            l.slices
        };
        l.offset
            .saturating_add(l.slice_bytes.saturating_mul(slices as usize))
    });
    // 1.0 as a little-endian binary16.
    let ones: Vec<u8> = [0x00, 0x3c].into_iter().cycle().take(bytes).collect();
    let format = tgsi::Format::from_name("PIPE_FORMAT_R16_FLOAT")
        .ok_or_else(|| Error::Setup("no PIPE_FORMAT_R16_FLOAT".into()))?;
    let texture = create(
        gpu,
        &shaped(r, format, &ones),
        wgpu::TextureFormat::R16Float,
        Usage::Sampled,
        &format!("coverage of SVIEW[{slot}]"),
    )?;
    Ok((subresource(&texture, view, dimension), dimension))
}

/// The view of `texture` (holding `view`'s resource) that shows `view`'s levels and layers.
fn subresource(
    texture: &wgpu::Texture,
    view: &SamplerView,
    dimension: wgpu::TextureViewDimension,
) -> wgpu::TextureView {
    let layers = match dimension {
        wgpu::TextureViewDimension::D2 | wgpu::TextureViewDimension::D1 => Some(1),
        wgpu::TextureViewDimension::Cube => Some(6),
        wgpu::TextureViewDimension::D3 => None,
        _ => Some(view.last_layer.saturating_sub(view.first_layer) + 1),
    };
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(dimension),
        base_mip_level: view.first_level,
        mip_level_count: Some(view.last_level.saturating_sub(view.first_level) + 1),
        base_array_layer: if layers.is_some() {
            view.first_layer
        } else {
            0
        },
        array_layer_count: layers,
        ..Default::default()
    })
}

/// How a texture is bound.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Usage {
    /// A sampler view: 1-D resources become 2-D textures of height 1, as the translation
    /// declares them ([`tgsi_naga::Options::one_d_as_2d`]).
    Sampled,
    /// A storage image (copied back after the run).
    Storage,
}

/// A texture of `r`'s target, size and levels in `format`, holding its bytes (`what` names
/// the slot in errors), bound as `usage` says.
pub(crate) fn create(
    gpu: &Gpu,
    r: &Resource,
    format: wgpu::TextureFormat,
    usage: Usage,
    what: &str,
) -> Result<wgpu::Texture> {
    let refuse = |why: String| Error::Unsupported(format!("{what}: {why}"));
    let (tex_dim, size) = match (r.target, usage) {
        (Target::Tex1D | Target::Array1D, Usage::Sampled) => (
            wgpu::TextureDimension::D2,
            [r.width0, 1, r.array_size.max(1)],
        ),
        (Target::Tex1D, Usage::Storage) => (wgpu::TextureDimension::D1, [r.width0, 1, 1]),
        (Target::Tex2D | Target::Rect | Target::Array2D | Target::Cube | Target::CubeArray, _) => (
            wgpu::TextureDimension::D2,
            [r.width0, r.height0, r.array_size.max(1)],
        ),
        (Target::Tex3D, _) => (wgpu::TextureDimension::D3, [r.width0, r.height0, r.depth0]),
        (other, _) => return Err(refuse(format!("resource target {other:?}"))),
    };
    let usage = match usage {
        Usage::Sampled => wgpu::TextureUsages::TEXTURE_BINDING,
        Usage::Storage => wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
    };
    let levels = r.last_level + 1;
    if tex_dim == wgpu::TextureDimension::D1 && levels > 1 {
        return Err(refuse("1-D textures with mipmaps".into()));
    }
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width: size[0],
            height: size[1],
            depth_or_array_layers: size[2],
        },
        mip_level_count: levels,
        sample_count: 1,
        dimension: tex_dim,
        format,
        usage: usage | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    upload(gpu, &texture, r, format)?;
    Ok(texture)
}

/// Copies every level of the resource's bytes into the texture.
fn upload(
    gpu: &Gpu,
    texture: &wgpu::Texture,
    r: &Resource,
    format: wgpu::TextureFormat,
) -> Result<()> {
    let texel = format
        .block_copy_size(None)
        .ok_or_else(|| Error::Unsupported(format!("texture format {format:?}")))?
        as usize;
    let bytes = r.data.to_bytes();
    for level in 0..=r.last_level {
        let Some(l) = r.level(level, texel) else {
            break;
        };
        let depth = if r.target == Target::Tex1D {
            1
        } else {
            l.slices
        };
        let len = l.slice_bytes.saturating_mul(depth as usize);
        let data = l
            .offset
            .checked_add(len)
            .and_then(|end| bytes.get(l.offset..end))
            .ok_or_else(|| Error::Setup(format!("texture data shorter than level {level}")))?;
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(l.row_bytes as u32),
                rows_per_image: Some(l.height),
            },
            wgpu::Extent3d {
                width: l.width,
                height: l.height,
                depth_or_array_layers: depth,
            },
        );
    }
    Ok(())
}
