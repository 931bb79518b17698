//! Storage images (`IMAGE[i]`, bind group 2 at binding i): a texture holding the view's
//! resource (all levels, uploaded byte for byte), bound at the view's level and layers, and
//! copied back into the resource after the run when the shader may write it; an image that
//! an atomic names is held in a storage buffer instead (`tgsi_naga::image_buffer`: a
//! header of sizes, then the bound level's texels), copied back likewise. Buffer images
//! are not translated by tgsi-naga; unbound slots are refused by name.

use naga::{ImageDimension, StorageAccess};
use tgsi_exec::resource::{ImageView, Target};

use crate::bindings::{storage_bytes, storage_slot, Bound, Inputs, Slot};
use crate::device::Gpu;
use crate::error::{Error, Result};
use crate::textures;

/// The binding of `IMAGE[slot]` and, when the shader stores to it, the texture to copy back.
pub(crate) fn slot(
    gpu: &Gpu,
    slot: u32,
    (dim, arrayed): (ImageDimension, bool),
    access: StorageAccess,
    inputs: &Inputs,
) -> Result<(Slot, Option<wgpu::Texture>)> {
    let what = format!("IMAGE[{slot}]");
    let view = inputs
        .resources
        .image(slot)
        .ok_or_else(|| Error::Unsupported(format!("{what} is not bound")))?;
    let format = textures::format(view.format).ok_or_else(|| {
        Error::Unsupported(format!(
            "{what}: format {} has no wgpu format of the same layout",
            view.format.name().unwrap_or_default()
        ))
    })?;
    let dimension = textures::view_dimension(dim, arrayed)
        .ok_or_else(|| Error::Unsupported(format!("{what}: {dim:?} arrays")))?;
    let texture = textures::create(gpu, &view.resource, format, textures::Usage::Storage, &what)?;
    let layers = match dimension {
        wgpu::TextureViewDimension::D3 => None,
        _ => Some(view.last_layer.saturating_sub(view.first_layer) + 1),
    };
    let texture_view = texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(dimension),
        base_mip_level: view.level,
        mip_level_count: Some(1),
        base_array_layer: if layers.is_some() {
            view.first_layer
        } else {
            0
        },
        array_layer_count: layers,
        ..Default::default()
    });
    let stores = access.contains(StorageAccess::STORE);
    let storage_access = match (access.contains(StorageAccess::LOAD), stores) {
        (true, true) => wgpu::StorageTextureAccess::ReadWrite,
        (false, true) => wgpu::StorageTextureAccess::WriteOnly,
        _ => wgpu::StorageTextureAccess::ReadOnly,
    };
    let slot = Slot {
        layout: wgpu::BindGroupLayoutEntry {
            binding: slot,
            visibility: inputs.visibility,
            ty: wgpu::BindingType::StorageTexture {
                access: storage_access,
                format,
                view_dimension: dimension,
            },
            count: None,
        },
        resource: Bound::Texture(texture_view),
    };
    Ok((slot, stores.then_some(texture)))
}

/// Copies the view's level and layers of `texture` back into its resource.
pub(crate) fn read_back(gpu: &Gpu, texture: &wgpu::Texture, view: &ImageView) -> Result<()> {
    let r = &view.resource;
    let texel = texture.format().block_copy_size(None).unwrap_or(0) as usize;
    let Some(level) = r.level(view.level, texel) else {
        return Ok(());
    };
    let (first, count) = match r.target {
        Target::Tex3D => (0, level.slices),
        _ => (
            view.first_layer,
            view.last_layer.saturating_sub(view.first_layer) + 1,
        ),
    };
    let aligned = (level.row_bytes as u32).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let image_bytes = u64::from(aligned) * u64::from(level.height);
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: image_bytes * u64::from(count),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: view.level,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: first,
            },
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(aligned),
                rows_per_image: Some(level.height),
            },
        },
        wgpu::Extent3d {
            width: level.width,
            height: level.height,
            depth_or_array_layers: count,
        },
    );
    gpu.queue.submit([encoder.finish()]);
    let bytes = gpu.read_buffer(&staging, staging.size())?;
    for s in 0..count as usize {
        for y in 0..level.height as usize {
            let src = s * image_bytes as usize + y * aligned as usize;
            let dst = level.offset + (first as usize + s) * level.slice_bytes + y * level.row_bytes;
            if let Some(row) = bytes.get(src..src + level.row_bytes) {
                r.data.write(dst, row);
            }
        }
    }
    Ok(())
}

/// The bound level of an image held in a storage buffer, and the header words
/// `tgsi_naga::image_buffer` describes; refused where the buffer cannot hold it.
fn held_level(slot: u32, view: &ImageView) -> Result<(tgsi_exec::resource::Level, [u32; 8])> {
    let r = &view.resource;
    let what = format!("IMAGE[{slot}]");
    if r.target == Target::Buffer {
        // The view's texels (of one to four 32-bit channels), as the interpreter bounds a
        // buffer image.
        let texel = tgsi_exec::format::texel_bytes(view.format)
            .filter(|t| [4, 8, 12, 16].contains(t))
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "{what}: a buffer image is held in a buffer of 32-bit channels; {} has none",
                    view.format.name().unwrap_or_default()
                ))
            })? as u32;
        let width = view.size / texel;
        let bytes = u64::from(width) * u64::from(texel);
        let res_bytes =
            u64::from(r.width0) * tgsi_exec::format::texel_bytes(r.format).unwrap_or(1) as u64;
        if bytes > res_bytes || u64::from(view.offset) + bytes > r.data.len() as u64 {
            return Err(Error::Unsupported(format!(
                "{what}: the buffer image's texels lie outside its resource"
            )));
        }
        let bytes = bytes as usize;
        let level = tgsi_exec::resource::Level {
            offset: view.offset as usize,
            width,
            height: 1,
            slices: 1,
            row_bytes: bytes,
            slice_bytes: bytes,
        };
        return Ok((level, [width, 1, 1, 0, 1, 1, 0, 0]));
    }
    if tgsi_exec::format::texel_bytes(r.format) != Some(4) {
        return Err(Error::Unsupported(format!(
            "{what}: an image with atomics is held in a buffer of 32-bit texels; {:?} {} is not one",
            r.target,
            r.format.name().unwrap_or_default()
        )));
    }
    let level = r.level(view.level, 4).ok_or_else(|| {
        Error::Unsupported(format!("{what}: level {} does not exist", view.level))
    })?;
    let layered = matches!(
        r.target,
        Target::Array1D | Target::Array2D | Target::CubeArray | Target::Cube | Target::Tex3D
    );
    let depth = match r.target {
        Target::Tex3D => level.slices,
        _ => r.array_size,
    };
    let header = [
        level.width,
        level.height,
        depth,
        if layered { view.first_layer } else { 0 },
        view.last_layer
            .wrapping_sub(view.first_layer)
            .wrapping_add(1),
        level.slices,
        0,
        0,
    ];
    Ok((level, header))
}

/// The binding of `IMAGE[slot]` held in a storage buffer, the buffer, and the view to copy
/// it back into.
pub(crate) fn buffer_slot(
    gpu: &Gpu,
    slot: u32,
    inputs: &Inputs,
) -> Result<(Slot, wgpu::Buffer, ImageView)> {
    let view = inputs
        .resources
        .image(slot)
        .ok_or_else(|| Error::Unsupported(format!("IMAGE[{slot}] is not bound")))?;
    let (level, header) = held_level(slot, view)?;
    debug_assert_eq!(header.len() as u32, tgsi_naga::IMAGE_BUFFER_HEADER_WORDS);
    let texels = level.slice_bytes * level.slices as usize;
    let mut bytes: Vec<u8> = header.iter().flat_map(|w| w.to_le_bytes()).collect();
    let start = bytes.len();
    bytes.resize(start + texels, 0);
    view.resource.data.read(level.offset, &mut bytes[start..]);
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let buffer = gpu.buffer_with(&bytes, usage);
    let slot = storage_slot(slot, buffer.clone(), false, inputs);
    Ok((slot, buffer, view.clone()))
}

/// Copies the texels of an image held in a storage buffer back into its resource.
pub(crate) fn read_back_words(gpu: &Gpu, buffer: &wgpu::Buffer, view: &ImageView) -> Result<()> {
    let (level, _) = held_level(0, view)?;
    let bytes = storage_bytes(gpu, buffer)?;
    let start = 4 * tgsi_naga::IMAGE_BUFFER_HEADER_WORDS as usize;
    let texels = level.slice_bytes * level.slices as usize;
    if let Some(b) = bytes.get(start..start + texels) {
        view.resource.data.write(level.offset, b);
    }
    Ok(())
}
