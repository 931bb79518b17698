//! Vertex shaders run with the inputs of `tgsi_exec::run_vertices`: tgsi-naga translates
//! the shader as a compute shader (`Options::vertex_as_compute`, one invocation per vertex)
//! whose input and output registers are storage buffers in group
//! [`tgsi_naga::STAGE_IO_GROUP`], since WebGPU has no transform feedback. The outputs are
//! the declared output registers' raw words, as the interpreter returns them.

use tgsi_exec::vertex::{check_options, output_decls};
use tgsi_exec::{Program, VertexInput, VertexOptions, VertexOutputs, Vertices};

use crate::bindings;
use crate::device::Gpu;
use crate::error::{Error, Result};
use crate::stage_io::{word, StageRun};

/// Runs `shader` (compiled for the interpreter as `program`) over `opts.count` vertices.
pub fn run_vertices(
    gpu: &Gpu,
    shader: &tgsi::Shader,
    program: &Program,
    opts: &VertexOptions,
) -> Result<VertexOutputs> {
    check_options(program, opts)?;
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
        ..bindings::translation_options(gpu, &opts.resources, opts.budget)
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
    let bytes = StageRun {
        what: "the vertex shader",
        shader,
        module,
        constants: &opts.constants,
        resources: &opts.resources,
        budget: opts.budget,
        input: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        output_len: (opts.count * output_stride as usize * 16).max(16) as u64,
        groups: [groups, 1],
    }
    .run(gpu)?;
    let decls = output_decls(program);
    let values = Vertices::from_fn(decls.len(), opts.count, |v, d| {
        let at = 4 * (v * output_stride as usize + decls[d].index as usize);
        std::array::from_fn(|c| word(&bytes, at + c))
    });
    Ok(VertexOutputs { decls, values })
}
