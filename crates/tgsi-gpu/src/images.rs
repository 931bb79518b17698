//! Storage images (`IMAGE[i]`, bind group 2 at binding i): a texture holding the view's
//! resource (all levels, uploaded byte for byte), bound at the view's level and layers, and
//! copied back into the resource after the run when the shader may write it. Buffer images
//! are not translated by tgsi-naga; unbound slots are refused by name.

use naga::{ImageDimension, StorageAccess};
use tgsi_exec::resource::{ImageView, Target};

use crate::bindings::{Bound, Inputs, Slot};
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
