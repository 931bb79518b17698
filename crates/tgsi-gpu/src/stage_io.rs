//! Running a vertex or geometry shader that tgsi-naga translated as a compute shader
//! (`Options::vertex_as_compute`, `Options::geometry_as_compute`): its input buffer
//! (binding 0, read-only) and output buffer (binding 1) in group
//! [`tgsi_naga::STAGE_IO_GROUP`], beside the shader's own resources; one dispatch, then the
//! output buffer's bytes and the written resources are read back.

use std::borrow::Cow;

use tgsi_exec::resource::Resources;

use crate::bindings::{self, Inputs};
use crate::device::Gpu;
use crate::error::{Error, Result};

/// One dispatch of a stage run as a compute shader.
pub(crate) struct StageRun<'a> {
    /// What runs, for labels and errors ("the vertex shader").
    pub what: &'a str,
    pub shader: &'a tgsi::Shader,
    pub module: naga::Module,
    pub constants: &'a [Vec<[u32; 4]>],
    pub resources: &'a Resources,
    pub budget: u64,
    /// The input buffer's bytes (at least 16).
    pub input: Vec<u8>,
    /// The output buffer's size in bytes (at least 16).
    pub output_len: u64,
    /// Workgroups in x and y.
    pub groups: [u32; 2],
}

/// Workgroups in x and y for `invocations` invocations in workgroups of `size`: as many rows
/// of the device's largest x as needed. The second value is the invocations per row.
pub(crate) fn workgroups(gpu: &Gpu, invocations: u64, size: u32) -> Result<([u32; 2], u32)> {
    let per_dim = gpu.device.limits().max_compute_workgroups_per_dimension;
    let groups = invocations.div_ceil(u64::from(size));
    let x = groups.min(u64::from(per_dim)).max(1);
    let y = groups.div_ceil(x);
    match (u32::try_from(x), u32::try_from(y)) {
        (Ok(x), Ok(y)) if y <= per_dim && x.checked_mul(size).is_some() => Ok(([x, y], x * size)),
        _ => Err(Error::Setup(format!(
            "{invocations} invocations need {groups} workgroups, more than the device's \
             {per_dim} × {per_dim}"
        ))),
    }
}

impl StageRun<'_> {
    /// Dispatches and returns the output buffer's bytes.
    pub(crate) fn run(self, gpu: &Gpu) -> Result<Vec<u8>> {
        let limit = gpu.device.limits().max_storage_buffer_binding_size;
        for (name, len) in [
            ("input", self.input.len() as u64),
            ("output", self.output_len),
        ] {
            if len > limit {
                return Err(Error::Setup(format!(
                    "{} needs a {len}-byte {name} buffer, more than the device's {limit}",
                    self.what
                )));
            }
        }
        gpu.checked(&format!("running {}", self.what), || {
            let device = &gpu.device;
            let bindings = bindings::bind(
                gpu,
                &self.module,
                &Inputs::new(
                    self.shader,
                    self.constants,
                    self.resources,
                    wgpu::ShaderStages::COMPUTE,
                    self.budget,
                ),
            )?;
            let inputs = gpu.buffer_with(&self.input, wgpu::BufferUsages::STORAGE);
            let outputs = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("stage outputs"),
                size: self.output_len,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let entry = |binding, read_only| wgpu::BindGroupLayoutEntry {
                binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            };
            let io_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("stage io"),
                entries: &[entry(0, true), entry(1, false)],
            });
            let io_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("stage io"),
                layout: &io_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: inputs.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: outputs.as_entire_binding(),
                    },
                ],
            });
            let io = tgsi_naga::STAGE_IO_GROUP as usize;
            let mut layouts: Vec<Option<&wgpu::BindGroupLayout>> =
                bindings.layouts.iter().map(Option::as_ref).collect();
            layouts.resize(layouts.len().max(io + 1), None);
            layouts[io] = Some(&io_layout);
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &layouts,
                immediate_size: 0,
            });
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(self.what),
                source: wgpu::ShaderSource::Naga(Cow::Owned(self.module)),
            });
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: None,
                layout: Some(&layout),
                module: &module,
                entry_point: Some(tgsi_naga::ENTRY_POINT),
                compilation_options: Default::default(),
                cache: None,
            });
            let staging = device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: self.output_len,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let mut encoder = device.create_command_encoder(&Default::default());
            if self.groups.iter().all(|&g| g > 0) {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                for (i, g) in bindings.groups.iter().enumerate() {
                    if let Some(g) = g {
                        pass.set_bind_group(i as u32, g, &[]);
                    }
                }
                pass.set_bind_group(io as u32, &io_group, &[]);
                pass.dispatch_workgroups(self.groups[0], self.groups[1], 1);
            }
            encoder.copy_buffer_to_buffer(&outputs, 0, &staging, 0, self.output_len);
            gpu.queue.submit([encoder.finish()]);
            bindings::read_back(gpu, &bindings.written)?;
            gpu.read_buffer(&staging, self.output_len)
        })
    }
}

/// Little-endian word `at` of `bytes` (0 past the end).
pub(crate) fn word(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(4 * at..4 * at + 4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}
