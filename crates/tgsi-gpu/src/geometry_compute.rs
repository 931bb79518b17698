//! Geometry shaders run with the inputs of `tgsi_exec::run_geometry`: tgsi-naga translates
//! the shader as a compute shader (`Options::geometry_as_compute`, one invocation per input
//! primitive and GS invocation; WebGPU has no geometry stage) that reads the primitives'
//! vertices from a storage buffer and records each vertex it emits, tagged with its stream
//! and primitive, in another ([`tgsi_naga::GeometryLayout`]). The records are gathered
//! back into the interpreter's [`GeometryOutputs`]: by input primitive, then invocation,
//! then emission. Chained behind a vertex shader ([`run_pipeline`]), both stages run on the
//! GPU and the draw module's work between them (primitive assembly, linking) is
//! `tgsi_exec`'s.

use tgsi_exec::emit::STREAMS;
use tgsi_exec::geometry::{check_geometry_options, geometry_output_decls};
use tgsi_exec::geometry::{EmittedPrimitive, StreamOutput};
use tgsi_exec::{
    run_pipeline_with, GeometryOptions, GeometryOutputs, PipelineOptions, Program, Stages,
    VertexInput, VertexOptions, VertexOutputs,
};

use crate::bindings;
use crate::device::Gpu;
use crate::error::{Error, Result};
use crate::stage_io::{word, workgroups, StageRun};

/// Runs `shader` (compiled for the interpreter as `program`) over `opts.count` input
/// primitives.
pub fn run_geometry(
    gpu: &Gpu,
    shader: &tgsi::Shader,
    program: &Program,
    opts: &GeometryOptions,
) -> Result<GeometryOutputs> {
    let info = check_geometry_options(program, opts)?;
    let layout = tgsi_naga::GeometryLayout::of(shader)?;
    let options = tgsi_naga::Options {
        geometry_as_compute: true,
        ..bindings::translation_options(gpu, &opts.resources, opts.budget)
    };
    let module = tgsi_naga::translate_with(shader, &options)?;
    let invocations = opts.count as u64 * u64::from(layout.invocations);
    let (groups, row) = workgroups(gpu, invocations, tgsi_naga::GEOMETRY_WORKGROUP_SIZE)?;
    // The input buffer: the header, the zero slot, then each vertex's input registers.
    let (vertices, stride) = (
        layout.vertices_per_primitive as usize,
        layout.input_stride as usize,
    );
    let mut words: Vec<u32> = vec![opts.count as u32, row, 0, 0, 0, 0, 0, 0];
    for vertex in 0..opts.count * vertices {
        for i in 0..stride {
            words.extend(match opts.inputs.get(i) {
                Some(VertexInput::PerVertex(values)) => {
                    values.get(vertex).copied().unwrap_or([0; 4])
                }
                Some(VertexInput::Constant(value)) => *value,
                None => [0; 4],
            });
        }
    }
    let record = layout.record_vec4s();
    let bytes = StageRun {
        what: "the geometry shader",
        shader,
        module,
        constants: &opts.constants,
        resources: &opts.resources,
        budget: opts.budget,
        input: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        output_len: (invocations * record * 16).max(16),
        groups,
    }
    .run(gpu)?;
    let decls = geometry_output_decls(program);
    let d = decls.len();
    let mut streams: [StreamOutput; STREAMS] = Default::default();
    for g in 0..invocations {
        let (p, invocation) = (
            g / u64::from(layout.invocations),
            g % u64::from(layout.invocations),
        );
        let base = (g * record) as usize;
        let emitted = word(&bytes, 4 * base).min(layout.max_vertices) as usize;
        // The open primitive number of each stream, from the previous vertex on it.
        let mut open: [Option<u32>; STREAMS] = [None; STREAMS];
        for k in 0..emitted {
            let at = base + 1 + k * (d + 1);
            let (stream, number) = (word(&bytes, 4 * at) as usize, word(&bytes, 4 * at + 1));
            let Some(out) = streams.get_mut(stream) else {
                return Err(Error::Setup(format!(
                    "the geometry shader recorded stream {stream}"
                )));
            };
            if open[stream] != Some(number) {
                open[stream] = Some(number);
                let first = out
                    .primitives
                    .last()
                    .map_or(0, |q| q.first + q.vertices as usize);
                out.primitives.push(EmittedPrimitive {
                    input: p as u32,
                    invocation: invocation as u32,
                    first,
                    vertices: 0,
                });
            }
            if let Some(last) = out.primitives.last_mut() {
                last.vertices += 1;
            }
            out.values.extend(
                (0..d).map(|r| std::array::from_fn(|c| word(&bytes, 4 * (at + 1 + r) + c))),
            );
        }
    }
    Ok(GeometryOutputs {
        decls,
        output_primitive: info.output,
        streams,
    })
}

/// The stages of a chained draw on the GPU: both shaders as compute shaders.
struct GpuStages<'a> {
    gpu: &'a Gpu,
    vs: &'a tgsi::Shader,
    gs: &'a tgsi::Shader,
}

impl Stages for GpuStages<'_> {
    type Error = Error;

    fn vertices(&mut self, vs: &Program, opts: &VertexOptions) -> Result<VertexOutputs> {
        crate::run_vertices(self.gpu, self.vs, vs, opts)
    }

    fn geometry(&mut self, gs: &Program, opts: &GeometryOptions) -> Result<GeometryOutputs> {
        run_geometry(self.gpu, self.gs, gs, opts)
    }
}

/// Runs the draw `opts` through `vs` and `gs` (compiled for the interpreter as
/// `vs_program` and `gs_program`) like `tgsi_exec::run_pipeline`, both stages on `gpu`: the
/// geometry shader's outputs of each instance.
pub fn run_pipeline(
    gpu: &Gpu,
    (vs, vs_program): (&tgsi::Shader, &Program),
    (gs, gs_program): (&tgsi::Shader, &Program),
    opts: &PipelineOptions,
) -> Result<Vec<GeometryOutputs>> {
    run_pipeline_with(vs_program, gs_program, opts, &mut GpuStages { gpu, vs, gs })
}
