//! Bind groups built from the translated module's own resource variables, so they match
//! tgsi-naga's layout by construction: group 0 holds `CONST[d]` at binding `d` (uniform
//! buffers), group 1 sampler views (buffer views as read-only storage buffers of decoded
//! texels) and samplers (see [`crate::textures`]), group 2 `IMAGE[i]`
//! at binding i (see [`crate::images`]) and `BUFFER[i]` at
//! [`tgsi_naga::BUFFER_BINDING_BASE`] + i (storage buffers).
//!
//! A buffer view is copied to a GPU buffer of its own and copied back after the run; two
//! views of one resource are therefore not aliased on the GPU.

use std::collections::BTreeMap;

use naga::{AddressSpace, Module};
use naga::{ImageClass, TypeInner};
use tgsi_exec::resource::{BufferView, ImageView, Resources};
use tgsi_naga::BUFFER_BINDING_BASE;

use crate::device::Gpu;
use crate::error::{Error, Result};
use crate::{images, textures};

/// One binding: its layout entry and the resource bound to it.
pub(crate) struct Slot {
    pub layout: wgpu::BindGroupLayoutEntry,
    pub resource: Bound,
}

/// What a binding holds.
pub(crate) enum Bound {
    Buffer(wgpu::Buffer),
    Texture(wgpu::TextureView),
    Sampler(wgpu::Sampler),
}

/// A GPU object the shader may write and the view whose bytes it holds.
pub(crate) enum Written {
    Buffer(wgpu::Buffer, BufferView),
    Image(wgpu::Texture, ImageView),
    /// An image held in a storage buffer (`tgsi_naga::Options::image_atomics_as_buffers`).
    ImageBuffer(wgpu::Buffer, ImageView),
    /// The flag of `tgsi_naga::Options::loop_budget`, and the budget.
    LoopBudget(wgpu::Buffer, u32),
}

/// The bind groups of one pipeline and what to copy back afterwards.
pub(crate) struct Bindings {
    pub layouts: Vec<Option<wgpu::BindGroupLayout>>,
    pub groups: Vec<Option<wgpu::BindGroup>>,
    pub written: Vec<Written>,
}

/// What a run binds: constant buffers and `tgsi_exec` resources.
pub(crate) struct Inputs<'a> {
    pub constants: &'a [Vec<[u32; 4]>],
    pub resources: &'a Resources,
    pub visibility: wgpu::ShaderStages,
    /// How the shader samples through each sampler ([`crate::samplers::uses`]).
    pub samplers: BTreeMap<u32, crate::samplers::SamplerUse>,
    /// The loop iterations each invocation may run ([`translation_options`]).
    pub loop_budget: u32,
}

impl<'a> Inputs<'a> {
    /// What a run of `shader` with `constants`, `resources` and the instruction budget
    /// `budget` binds for the stages `visibility`.
    pub(crate) fn new(
        shader: &tgsi::Shader,
        constants: &'a [Vec<[u32; 4]>],
        resources: &'a Resources,
        visibility: wgpu::ShaderStages,
        budget: u64,
    ) -> Inputs<'a> {
        Inputs {
            constants,
            resources,
            visibility,
            samplers: crate::samplers::uses(shader),
            loop_budget: loop_budget(budget),
        }
    }
}

/// The loop iterations each invocation may run for a run whose instruction budget (per
/// wave, in the interpreter) is `budget`: as many, as no loop iteration runs fewer than one
/// instruction, so a run the interpreter completes is not cut short.
fn loop_budget(budget: u64) -> u32 {
    u32::try_from(budget).unwrap_or(u32::MAX)
}

/// The translation options that make up for what wgpu's textures and samplers lack, from
/// the bound `resources` (view swizzles and texel types, LOD biases and queries, border
/// colours, wrap modes, 1-D textures as 2-D rows, depth comparisons after filtering), the
/// loop budget of a run whose instruction budget is `budget` (a GPU has none of its own),
/// and `gpu`'s uniform-buffer limit (larger constant buffers become storage buffers).
pub(crate) fn translation_options(
    gpu: &Gpu,
    resources: &Resources,
    budget: u64,
) -> tgsi_naga::Options {
    tgsi_naga::Options {
        max_uniform_buffer_bytes: Some(gpu.device.limits().max_uniform_buffer_binding_size as u32),
        loop_budget: Some(loop_budget(budget)),
        view_swizzles: textures::view_swizzles(resources),
        view_return_types: textures::view_return_types(resources),
        lod_biases: crate::samplers::lod_biases(resources),
        lod_queries: crate::samplers::lod_queries(resources),
        texel_samplers: crate::samplers::texel_samplers(resources),
        border_colors: crate::samplers::border_colors(resources),
        coordinate_wraps: crate::samplers::coordinate_wraps(resources),
        // WebGPU has neither 1-D arrays nor mipmapped 1-D textures.
        one_d_as_2d: true,
        // naga's image atomics return no value.
        image_atomics_as_buffers: true,
        depth_compares: Some(crate::samplers::depth_compares(resources)),
        ..Default::default()
    }
}

/// Creates the buffers, textures and samplers `module` uses and its bind groups.
pub(crate) fn bind(gpu: &Gpu, module: &Module, inputs: &Inputs) -> Result<Bindings> {
    let mut slots: BTreeMap<u32, Vec<Slot>> = BTreeMap::new();
    let mut written = Vec::new();
    for (_, var) in module.global_variables.iter() {
        let Some(rb) = var.binding else { continue };
        // A vertex shader's own buffers when it runs as a compute shader: the caller's.
        if rb.group == tgsi_naga::STAGE_IO_GROUP {
            continue;
        }
        let inner = &module.types[var.ty].inner;
        let slot = match var.space {
            AddressSpace::Uniform => {
                let size = inner.size(module.to_ctx());
                constants(gpu, rb.binding, size, inputs, false)
            }
            // A constant buffer past the device's uniform-buffer limit.
            AddressSpace::Storage { .. }
                if rb.group == 0 && rb.binding != tgsi_naga::LOOP_BUDGET_BINDING =>
            {
                let size = inner.size(module.to_ctx());
                constants(gpu, rb.binding, size, inputs, true)
            }
            // A BUFFER sampler view (tgsi-naga's texel buffers, group 1).
            AddressSpace::Storage { .. } if rb.group == 1 => {
                textures::texel_buffer(gpu, rb.binding, inputs)?
            }
            AddressSpace::Storage { .. }
                if rb.group == 0 && rb.binding == tgsi_naga::LOOP_BUDGET_BINDING =>
            {
                let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
                let buffer = gpu.buffer_with(&[0; 4], usage);
                written.push(Written::LoopBudget(buffer.clone(), inputs.loop_budget));
                storage_slot(rb.binding, buffer, false, inputs)
            }
            AddressSpace::Storage { access } => {
                // BUFFER[i] at 64 + i, HWATOMIC[b] at 96 + b, both buffer views.
                let view = match rb.binding {
                    b if b >= tgsi_naga::HW_ATOMIC_BINDING_BASE => inputs
                        .resources
                        .hw_atomic(b - tgsi_naga::HW_ATOMIC_BINDING_BASE),
                    b if b >= BUFFER_BINDING_BASE => {
                        inputs.resources.buffer(b - BUFFER_BINDING_BASE)
                    }
                    // IMAGE[i] at i, held in a buffer of words.
                    b if rb.group == 2 => {
                        let (slot, buffer, view) = images::buffer_slot(gpu, b, inputs)?;
                        written.push(Written::ImageBuffer(buffer, view));
                        slots.entry(rb.group).or_default().push(slot);
                        continue;
                    }
                    _ => return Err(Error::Unsupported(format!("storage binding {rb:?}"))),
                };
                let (slot, buffer) = storage(gpu, rb.binding, view, access, inputs);
                if let Some(v) = view {
                    written.push(Written::Buffer(buffer, v.clone()));
                }
                slot
            }
            AddressSpace::Handle => match *inner {
                TypeInner::Image {
                    dim,
                    arrayed,
                    class: ImageClass::Storage { access, .. },
                } => {
                    let (slot, texture) =
                        images::slot(gpu, rb.binding, (dim, arrayed), access, inputs)?;
                    if let (Some(t), Some(v)) = (texture, inputs.resources.image(rb.binding)) {
                        written.push(Written::Image(t, v.clone()));
                    }
                    slot
                }
                _ => textures::slot(gpu, rb.binding, inner, inputs)?,
            },
            other => {
                return Err(Error::Unsupported(format!(
                    "resource variable in address space {other:?}"
                )))
            }
        };
        slots.entry(rb.group).or_default().push(slot);
    }
    let count = slots.keys().next_back().map_or(0, |g| g + 1) as usize;
    let mut layouts: Vec<Option<wgpu::BindGroupLayout>> = (0..count).map(|_| None).collect();
    let mut groups: Vec<Option<wgpu::BindGroup>> = (0..count).map(|_| None).collect();
    for (group, slots) in slots {
        let entries: Vec<_> = slots.iter().map(|s| s.layout).collect();
        let layout = gpu
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: None,
                entries: &entries,
            });
        let bound: Vec<_> = slots
            .iter()
            .map(|s| wgpu::BindGroupEntry {
                binding: s.layout.binding,
                resource: match &s.resource {
                    Bound::Buffer(b) => b.as_entire_binding(),
                    Bound::Texture(t) => wgpu::BindingResource::TextureView(t),
                    Bound::Sampler(s) => wgpu::BindingResource::Sampler(s),
                },
            })
            .collect();
        let group_object = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &bound,
        });
        layouts[group as usize] = Some(layout);
        groups[group as usize] = Some(group_object);
    }
    Ok(Bindings {
        layouts,
        groups,
        written,
    })
}

/// `CONST[d]` as a uniform buffer (or a read-only storage buffer, `storage`) of `size`
/// bytes (missing registers read 0).
fn constants(gpu: &Gpu, binding: u32, size: u32, inputs: &Inputs, storage: bool) -> Slot {
    let mut bytes: Vec<u8> = inputs
        .constants
        .get(binding as usize)
        .map(|regs| {
            regs.iter()
                .flatten()
                .flat_map(|w| w.to_le_bytes())
                .collect()
        })
        .unwrap_or_default();
    bytes.resize(size as usize, 0);
    let (usage, ty) = if storage {
        (
            wgpu::BufferUsages::STORAGE,
            wgpu::BufferBindingType::Storage { read_only: true },
        )
    } else {
        (
            wgpu::BufferUsages::UNIFORM,
            wgpu::BufferBindingType::Uniform,
        )
    };
    let buffer = gpu.buffer_with(&bytes, usage);
    Slot {
        layout: wgpu::BindGroupLayoutEntry {
            binding,
            visibility: inputs.visibility,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        },
        resource: Bound::Buffer(buffer),
    }
}

/// `BUFFER[i]` as a storage buffer holding the view's bytes (an unbound slot gets one zero
/// word whose writes are dropped).
fn storage(
    gpu: &Gpu,
    binding: u32,
    view: Option<&BufferView>,
    access: naga::StorageAccess,
    inputs: &Inputs,
) -> (Slot, wgpu::Buffer) {
    let bytes = view.map_or_else(Vec::new, |v| {
        let all = v.resource.data.to_bytes();
        let start = (v.offset as usize).min(all.len());
        let end = start.saturating_add(v.size as usize).min(all.len());
        all[start..end].to_vec()
    });
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let buffer = gpu.buffer_with(&bytes, usage);
    let read_only = !access.contains(naga::StorageAccess::STORE);
    (
        storage_slot(binding, buffer.clone(), read_only, inputs),
        buffer,
    )
}

/// The binding of a storage buffer.
pub(crate) fn storage_slot(
    binding: u32,
    buffer: wgpu::Buffer,
    read_only: bool,
    inputs: &Inputs,
) -> Slot {
    Slot {
        layout: wgpu::BindGroupLayoutEntry {
            binding,
            visibility: inputs.visibility,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        },
        resource: Bound::Buffer(buffer),
    }
}

/// The bytes of a storage buffer, through a staging copy.
pub(crate) fn storage_bytes(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Vec<u8>> {
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: buffer.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, buffer.size());
    gpu.queue.submit([encoder.finish()]);
    gpu.read_buffer(&staging, buffer.size())
}

/// Copies every written buffer and image back into its `tgsi_exec` resource.
pub(crate) fn read_back(gpu: &Gpu, written: &[Written]) -> Result<()> {
    for w in written {
        match w {
            Written::Buffer(buffer, view) => read_back_buffer(gpu, buffer, view)?,
            Written::Image(texture, view) => images::read_back(gpu, texture, view)?,
            Written::ImageBuffer(buffer, view) => images::read_back_words(gpu, buffer, view)?,
            Written::LoopBudget(buffer, budget) => {
                let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size: 4,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, 4);
                gpu.queue.submit([encoder.finish()]);
                if gpu.read_buffer(&staging, 4)? != [0; 4] {
                    return Err(Error::Budget(*budget));
                }
            }
        }
    }
    Ok(())
}

/// Copies a storage buffer back into the bytes its view shows.
fn read_back_buffer(gpu: &Gpu, buffer: &wgpu::Buffer, view: &BufferView) -> Result<()> {
    let bytes = storage_bytes(gpu, buffer)?;
    let len = (view.size as usize).min(bytes.len());
    let visible = view
        .resource
        .data
        .len()
        .saturating_sub(view.offset as usize)
        .min(len);
    view.resource
        .data
        .write(view.offset as usize, &bytes[..visible]);
    Ok(())
}
