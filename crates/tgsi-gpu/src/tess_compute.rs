//! Tessellation chains on the GPU: tgsi-naga translates control and evaluation shaders as
//! compute shaders (`Options::tessellation_as_compute`; naga and WebGPU have no
//! tessellation stages), a workgroup per patch and an invocation per domain point, whose
//! buffers are laid out as `tgsi_naga::tess_compute` describes. Between them the
//! tessellator, and around them the draw module's work (patch assembly, linking, capture),
//! are `tgsi_exec`'s ([`tgsi_exec::run_tess_pipeline_with`]); the vertex and geometry
//! shaders run as compute shaders too, so every shader of the chain runs on the GPU.

use tgsi_exec::tessellation::{
    control_vertices_out, eval_mode, patch_input_file, ControlOutputs, Patch, PointOutputs,
};
use tgsi_exec::tessellator::{TessMode, Tessellation};
use tgsi_exec::{
    run_tess_pipeline_with, CapturedOutputs, Env, GeometryOptions, GeometryOutputs, Program,
    Stages, TessOptions, TessRunner, TessStages, VertexOptions, VertexOutputs, Vertices,
};

use crate::bindings;
use crate::device::Gpu;
use crate::error::{Error, Result};
use crate::stage_io::{word, workgroups, StageRun};

/// A tessellation shader translated for a run, and what its dispatches need of it.
struct Translated<'a> {
    shader: &'a tgsi::Shader,
    program: &'a Program,
    module: naga::Module,
    /// Output registers per invocation, `O`.
    output_stride: usize,
}

impl<'a> Translated<'a> {
    /// `shader` (compiled for the interpreter as `program`) translated as a compute shader
    /// for a run with `env`'s resources and budget.
    fn new(
        gpu: &Gpu,
        shader: &'a tgsi::Shader,
        program: &'a Program,
        env: &Env,
    ) -> Result<Translated<'a>> {
        let options = tgsi_naga::Options {
            tessellation_as_compute: true,
            ..bindings::translation_options(gpu, env.resources, env.budget)
        };
        Ok(Translated {
            shader,
            program,
            module: tgsi_naga::translate_with(shader, &options)?,
            output_stride: tgsi_naga::vertex_io_strides(shader).1 as usize,
        })
    }

    /// Appends `patch`'s input registers as the shader reads them (the program's input
    /// file re-laid with the translation's stride).
    fn push_patch_inputs(&self, words: &mut Vec<u32>, patch: &Patch) {
        let (stride, _) = tgsi_naga::vertex_io_strides(self.shader);
        let (file_stride, file) = patch_input_file(self.program, patch);
        for v in 0..patch.vertices.len() {
            for i in 0..stride as usize {
                let value = (i < file_stride)
                    .then(|| file.get(v * file_stride + i))
                    .flatten();
                words.extend(value.copied().unwrap_or([0; 4]));
            }
        }
    }

    /// One dispatch of `groups` workgroups over the input buffer `words`, with an output
    /// buffer of `output_vec4s` vec4s: its bytes.
    fn dispatch(
        &self,
        gpu: &Gpu,
        what: &str,
        env: &Env,
        words: &[u32],
        output_vec4s: usize,
        groups: [u32; 2],
    ) -> Result<Vec<u8>> {
        StageRun {
            what,
            shader: self.shader,
            module: self.module.clone(),
            constants: env.consts,
            resources: env.resources,
            budget: env.budget,
            input: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            output_len: (output_vec4s.max(1) * 16) as u64,
            groups,
        }
        .run(gpu)
    }
}

/// The vertices every patch of a batch has (`V`), which the dispatch gives the shader.
fn patch_vertices<'a>(mut patches: impl Iterator<Item = &'a Patch>) -> Result<u32> {
    let first = patches.next().map_or(0, |p| p.vertices.len());
    if patches.any(|p| p.vertices.len() != first) {
        return Err(Error::Setup(
            "the patches of a batch have different vertex counts".into(),
        ));
    }
    u32::try_from(first).map_err(|_| Error::Setup("too many vertices per patch".into()))
}

/// A count as the `u32` a header holds.
fn count(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::Setup(format!("too many {what} for one dispatch")))
}

/// Runs the control shader `shader` (compiled for the interpreter as `program`) over
/// `patches` like `tgsi_exec::tessellation::ControlStage::run`, patch `k` with `PRIM_ID`
/// `first_id + k`.
pub fn run_control(
    gpu: &Gpu,
    shader: &tgsi::Shader,
    program: &Program,
    patches: &[Patch],
    first_id: u32,
    env: &Env,
) -> Result<Vec<Patch>> {
    let vertices_out = control_vertices_out(program)?;
    let n = vertices_out as usize;
    let stage = Translated::new(gpu, shader, program, env)?;
    let o = stage.output_stride;
    let invocations = patches.len() as u64 * u64::from(vertices_out);
    let (groups, row) = workgroups(gpu, invocations, vertices_out)?;
    let vertices = patch_vertices(patches.iter())?;
    // The header, the zero slot, then per patch its PRIM_ID and its inputs.
    let mut words: Vec<u32> = vec![count(patches.len(), "patches")?, row, vertices, 0];
    words.extend([0; 4]);
    for (id, patch) in (first_id..).zip(patches) {
        words.extend([id, 0, 0, 0]);
        stage.push_patch_inputs(&mut words, patch);
    }
    let file = n * o;
    let what = "the tessellation control shader";
    let bytes = stage.dispatch(gpu, what, env, &words, 1 + patches.len() * file, groups)?;
    let outputs = ControlOutputs::of(program);
    Ok(patches
        .iter()
        .enumerate()
        .map(|(p, input)| {
            let first = 1 + p * file;
            outputs.patch(n, input.levels, |v, i| {
                let at = 4 * (first + v * o + i);
                std::array::from_fn(|c| if i < o { word(&bytes, at + c) } else { 0 })
            })
        })
        .collect())
}

/// Domain points one evaluation dispatch takes at most (a patch has a few thousand), which
/// keeps its buffers within the storage-buffer sizes devices bind.
const POINTS_PER_DISPATCH: usize = 1 << 18;

/// Runs the evaluation shader `shader` (compiled for the interpreter as `program`) over
/// the points of each patch's tessellation like
/// `tgsi_exec::tessellation::EvalStage::run`, patch `k` with `PRIM_ID` `first_id + k`: per
/// patch, per point, the declared outputs. Patches go to the GPU in dispatches of at most
/// `POINTS_PER_DISPATCH` points (or one patch).
pub fn run_eval(
    gpu: &Gpu,
    shader: &tgsi::Shader,
    program: &Program,
    patches: &[(Patch, &Tessellation)],
    first_id: u32,
    env: &Env,
) -> Result<Vec<PointOutputs>> {
    let mode = eval_mode(program)?;
    let stage = Translated::new(gpu, shader, program, env)?;
    let mut outputs = Vec::with_capacity(patches.len());
    let mut first = 0;
    while first < patches.len() {
        let mut points = 0;
        let end = (first..patches.len())
            .find(|&k| {
                points += patches[k].1.points.len();
                k > first && points > POINTS_PER_DISPATCH
            })
            .unwrap_or(patches.len());
        let id = first_id.wrapping_add(count(first, "patches")?);
        let batch = &patches[first..end];
        outputs.extend(eval_dispatch(gpu, &stage, mode, batch, id, env)?);
        first = end;
    }
    Ok(outputs)
}

/// [`run_eval`] in one dispatch.
fn eval_dispatch(
    gpu: &Gpu,
    stage: &Translated,
    mode: TessMode,
    patches: &[(Patch, &Tessellation)],
    first_id: u32,
    env: &Env,
) -> Result<Vec<PointOutputs>> {
    let o = stage.output_stride;
    let points: usize = patches.iter().map(|(_, t)| t.points.len()).sum();
    let (groups, row) = workgroups(gpu, points as u64, tgsi_naga::TESS_EVAL_WORKGROUP_SIZE)?;
    let vertices = patch_vertices(patches.iter().map(|(p, _)| p))?;
    // The header, the zero slot, the points, then per patch its levels, vertex count and
    // PRIM_ID, and its inputs.
    let mut words: Vec<u32> = vec![count(points, "domain points")?, row, vertices, 0];
    words.extend([0; 4]);
    for (k, (_, tess)) in patches.iter().enumerate() {
        let k = count(k, "patches")?;
        for j in 0..tess.points.len() {
            let [u, v, w] = tess.coord(j, mode.domain).map(f32::to_bits);
            words.extend([u, v, w, k]);
        }
    }
    for (id, (patch, _)) in (first_id..).zip(patches) {
        let inner = patch.levels.inner;
        words.extend(patch.levels.outer);
        words.extend([inner[0], inner[1], vertices, id]);
        stage.push_patch_inputs(&mut words, patch);
    }
    let what = "the tessellation evaluation shader";
    let bytes = stage.dispatch(gpu, what, env, &words, points * o, groups)?;
    let decls = tgsi_exec::vertex::output_decls(stage.program);
    let mut first = 0;
    Ok(patches
        .iter()
        .map(|(_, tess)| {
            let points = Vertices::from_fn(decls.len(), tess.points.len(), |k, d| {
                let at = 4 * ((first + k) * o + decls[d].index as usize);
                std::array::from_fn(|c| word(&bytes, at + c))
            });
            first += tess.points.len();
            points
        })
        .collect())
}

/// The shaders of a tessellation chain on the GPU.
struct GpuTess<'a> {
    gpu: &'a Gpu,
    vs: &'a tgsi::Shader,
    tcs: Option<&'a tgsi::Shader>,
    tes: &'a tgsi::Shader,
    gs: Option<&'a tgsi::Shader>,
}

impl Stages for GpuTess<'_> {
    type Error = Error;

    fn vertices(&mut self, vs: &Program, opts: &VertexOptions) -> Result<VertexOutputs> {
        crate::run_vertices(self.gpu, self.vs, vs, opts)
    }

    fn geometry(&mut self, gs: &Program, opts: &GeometryOptions) -> Result<GeometryOutputs> {
        let shader = self
            .gs
            .ok_or_else(|| Error::Setup("no geometry shader was given".into()))?;
        crate::run_geometry(self.gpu, shader, gs, opts)
    }
}

impl TessRunner for GpuTess<'_> {
    fn control(
        &mut self,
        tcs: &Program,
        patches: &[Patch],
        first_id: u32,
        env: &Env,
    ) -> Result<Vec<Patch>> {
        let shader = self
            .tcs
            .ok_or_else(|| Error::Setup("no control shader was given".into()))?;
        run_control(self.gpu, shader, tcs, patches, first_id, env)
    }

    fn eval(
        &mut self,
        tes: &Program,
        patches: &[(Patch, &Tessellation)],
        first_id: u32,
        env: &Env,
    ) -> Result<Vec<PointOutputs>> {
        run_eval(self.gpu, self.tes, tes, patches, first_id, env)
    }
}

/// The shaders of a tessellation chain and their programs (compiled for the
/// interpreter), by role.
#[derive(Clone, Copy)]
pub struct TessShaders<'a> {
    /// The vertex shader.
    pub vertex: (&'a tgsi::Shader, &'a Program),
    /// The control shader, if any.
    pub control: Option<(&'a tgsi::Shader, &'a Program)>,
    /// The evaluation shader.
    pub eval: (&'a tgsi::Shader, &'a Program),
    /// The geometry shader, if any.
    pub geometry: Option<(&'a tgsi::Shader, &'a Program)>,
}

/// Runs the draw `opts` through the chain like `tgsi_exec::run_tess_pipeline`, every
/// shader on `gpu`: what transform feedback captures from the last stage.
pub fn run_tess_pipeline(
    gpu: &Gpu,
    shaders: &TessShaders,
    opts: &TessOptions,
) -> Result<CapturedOutputs> {
    let stages = TessStages {
        vertex: shaders.vertex.1,
        control: shaders.control.map(|c| c.1),
        eval: shaders.eval.1,
        geometry: shaders.geometry.map(|g| g.1),
    };
    let mut runner = GpuTess {
        gpu,
        vs: shaders.vertex.0,
        tcs: shaders.control.map(|c| c.0),
        tes: shaders.eval.0,
        gs: shaders.geometry.map(|g| g.0),
    };
    run_tess_pipeline_with(&stages, opts, &mut runner)
}
