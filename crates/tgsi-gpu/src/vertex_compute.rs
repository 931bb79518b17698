//! Vertex shaders run with the inputs of `tgsi_exec::run_vertices`: tgsi-naga translates
//! the shader as a compute shader (`Options::vertex_as_compute`, one invocation per vertex)
//! whose input and output registers are storage buffers in group
//! [`tgsi_naga::VERTEX_IO_GROUP`], since WebGPU has no transform feedback. The outputs are
//! the declared output registers' raw words, as the interpreter returns them.

use std::borrow::Cow;

use tgsi_exec::vertex::{check_options, output_decls};
use tgsi_exec::{Program, VertexInput, VertexOptions, VertexOutputs};

use crate::bindings::{self, Inputs};
use crate::device::Gpu;
use crate::error::{Error, Result};

/// Runs `shader` (compiled for the interpreter as `program`) over `opts.count` vertices.
pub fn run_vertices(
    gpu: &Gpu,
    shader: &tgsi::Shader,
    program: &Program,
    opts: &VertexOptions,
) -> Result<VertexOutputs> {
    check_options(program, opts).map_err(|e| Error::Setup(e.to_string()))?;
    let (input_stride, output_stride) = tgsi_naga::vertex_io_strides(shader);
    let count = u32::try_from(opts.count).map_err(|_| Error::Setup("too many vertices".into()))?;
    let groups = count.div_ceil(tgsi_naga::VERTEX_WORKGROUP_SIZE);
    let per_dim = gpu.device.limits().max_compute_workgroups_per_dimension;
    if groups > per_dim {
        return Err(Error::Setup(format!(
            "{count} vertices need {groups} workgroups, more than the device's {per_dim}"
        )));
    }
    let options = tgsi_naga::Options {
        vertex_as_compute: true,
        ..bindings::translation_options(&opts.resources, opts.budget)
    };
    let module = tgsi_naga::translate_with(shader, &options)?;
    // The input buffer: the header, then each vertex's input registers.
    let mut words: Vec<u32> = vec![count, opts.base_vertex as u32, opts.instance_id, 0];
    for v in 0..opts.count {
        for i in 0..input_stride as usize {
            words.extend(match opts.inputs.get(i) {
                Some(VertexInput::PerVertex(values)) => values.get(v).copied().unwrap_or([0; 4]),
                Some(VertexInput::Constant(value)) => *value,
                None => [0; 4],
            });
        }
    }
    if words.len() == 4 {
        words.extend([0; 4]);
    }
    let input_bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let output_len = (opts.count * output_stride as usize * 16).max(16) as u64;
    gpu.checked("running the vertex shader", || {
        let device = &gpu.device;
        let bindings = bindings::bind(
            gpu,
            &module,
            &Inputs::new(
                shader,
                &opts.constants,
                &opts.resources,
                wgpu::ShaderStages::COMPUTE,
                opts.budget,
            ),
        )?;
        let inputs = gpu.buffer_with(&input_bytes, wgpu::BufferUsages::STORAGE);
        let outputs = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vertex outputs"),
            size: output_len,
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
            label: Some("vertex io"),
            entries: &[entry(0, true), entry(1, false)],
        });
        let io_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("vertex io"),
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
        let io = tgsi_naga::VERTEX_IO_GROUP as usize;
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
            label: Some("vertex"),
            source: wgpu::ShaderSource::Naga(Cow::Owned(module)),
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
            size: output_len,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        if groups > 0 {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            for (i, g) in bindings.groups.iter().enumerate() {
                if let Some(g) = g {
                    pass.set_bind_group(i as u32, g, &[]);
                }
            }
            pass.set_bind_group(io as u32, &io_group, &[]);
            pass.dispatch_workgroups(groups, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&outputs, 0, &staging, 0, output_len);
        gpu.queue.submit([encoder.finish()]);
        bindings::read_back(gpu, &bindings.written)?;
        let bytes = gpu.read_buffer(&staging, output_len)?;
        let word = |at: usize| {
            bytes
                .get(4 * at..4 * at + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let decls = output_decls(program);
        let values = (0..opts.count)
            .map(|v| {
                decls
                    .iter()
                    .map(|d| {
                        let at = 4 * (v * output_stride as usize + d.index as usize);
                        std::array::from_fn(|c| word(at + c))
                    })
                    .collect()
            })
            .collect();
        Ok(VertexOutputs { decls, values })
    })
}
