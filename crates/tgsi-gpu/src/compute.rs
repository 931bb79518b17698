//! Compute dispatch on the GPU with the inputs of `tgsi_exec::run_compute`: the grid, the
//! block (the shader's `CS_FIXED_BLOCK_*` win; otherwise the dispatch's block is written
//! into the translation, which needs a fixed size), constants, shared memory and bound
//! buffers, which are copied back into their resources afterwards. The order of
//! invocations is the GPU's, so results that depend on it (atomic return values, races)
//! may differ from the interpreter's.

use std::borrow::Cow;

use tgsi::{Processor, Property, PropertyName};
use tgsi_exec::{ComputeOptions, Program};

use crate::bindings::{self, Bindings, Inputs};
use crate::device::Gpu;
use crate::error::{Error, Result};

/// A compute shader ready to dispatch; [`Dispatcher::dispatch`] may be called repeatedly.
pub struct Dispatcher<'g> {
    gpu: &'g Gpu,
    pipeline: wgpu::ComputePipeline,
    bindings: Bindings,
    grid: [u32; 3],
    /// The block size used.
    pub block: [u32; 3],
}

/// The block size: the program's fixed size (absent dimensions 1) if it has one, else the
/// dispatch's.
fn block_size(program: &Program, block: [u32; 3]) -> [u32; 3] {
    if program.fixed_block.iter().any(Option::is_some) {
        program.fixed_block.map(|v| v.unwrap_or(1))
    } else {
        block
    }
}

impl<'g> Dispatcher<'g> {
    /// Translates `shader` (compiled for the interpreter as `program`) and prepares it.
    pub fn new(
        gpu: &'g Gpu,
        shader: &tgsi::Shader,
        program: &Program,
        opts: &ComputeOptions,
    ) -> Result<Dispatcher<'g>> {
        if program.processor != Processor::Compute {
            return Err(Error::Setup(format!(
                "a dispatch needs a compute shader, not {}",
                program.processor
            )));
        }
        let block = block_size(program, opts.block);
        let limits = gpu.device.limits();
        let threads = u64::from(block[0]) * u64::from(block[1]) * u64::from(block[2]);
        let max = [
            limits.max_compute_workgroup_size_x,
            limits.max_compute_workgroup_size_y,
            limits.max_compute_workgroup_size_z,
        ];
        if block.contains(&0)
            || block.iter().zip(max).any(|(b, m)| *b > m)
            || threads > u64::from(limits.max_compute_invocations_per_workgroup)
        {
            return Err(Error::Setup(format!(
                "block {block:?} outside the device's limits (each dimension at most {max:?}, \
                 {} threads)",
                limits.max_compute_invocations_per_workgroup
            )));
        }
        let per_dim = limits.max_compute_workgroups_per_dimension;
        if opts.grid.iter().any(|&g| g > per_dim) {
            return Err(Error::Setup(format!(
                "grid {:?}: at most {per_dim} workgroups per dimension on this device",
                opts.grid
            )));
        }
        let mut fixed = shader.clone();
        let names = [
            PropertyName::CsFixedBlockWidth,
            PropertyName::CsFixedBlockHeight,
            PropertyName::CsFixedBlockDepth,
        ];
        for (name, value) in names.into_iter().zip(block) {
            if fixed.property(name).is_none() {
                fixed.properties.push(Property {
                    name,
                    value,
                    span: Default::default(),
                });
            }
        }
        let mut options = bindings::translation_options(gpu, opts.resources, opts.budget);
        if opts.shared_bytes > 0 {
            options.shared_memory_bytes = u32::try_from(opts.shared_bytes)
                .map_err(|_| Error::Setup("shared memory size over 4 GiB".into()))?;
        }
        let module = tgsi_naga::translate_with(&fixed, &options)?;
        gpu.checked("creating the pipeline", || {
            let bindings = bindings::bind(
                gpu,
                &module,
                &Inputs::new(
                    shader,
                    &opts.constants,
                    opts.resources,
                    wgpu::ShaderStages::COMPUTE,
                    opts.budget,
                ),
            )?;
            let device = &gpu.device;
            let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("compute"),
                source: wgpu::ShaderSource::Naga(Cow::Owned(module)),
            });
            let layouts: Vec<_> = bindings.layouts.iter().map(Option::as_ref).collect();
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &layouts,
                immediate_size: 0,
            });
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: None,
                layout: Some(&layout),
                module: &shader,
                entry_point: Some(tgsi_naga::ENTRY_POINT),
                compilation_options: Default::default(),
                cache: None,
            });
            Ok(Dispatcher {
                gpu,
                pipeline,
                bindings,
                grid: opts.grid,
                block,
            })
        })
    }

    /// Dispatches the grid once and copies the buffers back into their resources.
    pub fn dispatch(&self) -> Result<()> {
        let gpu = self.gpu;
        gpu.checked("dispatching", || {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            if !self.grid.contains(&0) {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&self.pipeline);
                for (i, g) in self.bindings.groups.iter().enumerate() {
                    if let Some(g) = g {
                        pass.set_bind_group(i as u32, g, &[]);
                    }
                }
                let [x, y, z] = self.grid;
                pass.dispatch_workgroups(x, y, z);
            }
            gpu.queue.submit([encoder.finish()]);
            gpu.wait()
        })?;
        bindings::read_back(gpu, &self.bindings.written)
    }
}
