//! Chained stages, the vertex half of Gallium's draw module: a vertex shader runs over the
//! vertices ([`crate::run_vertices`]), its outputs are assembled into primitives of the draw
//! mode ([`crate::assembly`]) and linked to the geometry shader's inputs by semantic name
//! and index (as draw's `draw_gs_get_input_index` does; an input no vertex output matches
//! reads 0, a `PRIM_ID` input holds the primitive), and the geometry shader runs over them
//! ([`crate::run_geometry`]), instance after instance (`INSTANCEID` counts the instances;
//! `PRIM_ID` starts again at 0 in each). The stages run on the interpreter
//! ([`run_pipeline`]) or on any executor of both ([`Stages`], [`run_pipeline_with`]).

use crate::assembly::{assemble, draw_positions, input_primitive};
use crate::compile::Program;
use crate::geometry::{run_geometry, GeometryOptions, GeometryOutputs};
use crate::machine::ExecError;
use crate::tess_pipeline::{MAX_CAPTURED_WORDS, MAX_INSTANCES};
use crate::vertex::{output_decls, run_vertices, VertexInput, VertexOptions, VertexOutputs};
use tgsi::{Primitive, Semantic};

/// What to run.
#[derive(Clone, Debug)]
pub struct PipelineOptions {
    /// How the drawn vertices form primitives.
    pub mode: Primitive,
    /// The vertex buffer (`count` vertices), the vertex shader's inputs, constants,
    /// `BASEVERTEX`, budget and the resources of both stages (`instance_id` is ignored:
    /// see `instances`).
    pub vertex: VertexOptions,
    /// An indexed draw: the vertex of each draw position (`None`: position `k` is vertex
    /// `k` of the vertex buffer).
    pub indices: Option<Vec<u32>>,
    /// Instances (`INSTANCEID` 0, 1, …); 0 draws nothing.
    pub instances: u32,
    /// The provoking vertex is the first (GL's `GL_FIRST_VERTEX_CONVENTION`), which orders
    /// the vertices of strip and fan triangles differently ([`crate::assembly`]).
    pub provoking_first: bool,
    /// The geometry shader's constant buffers.
    pub geometry_constants: Vec<Vec<[u32; 4]>>,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            mode: Primitive::Triangles,
            vertex: VertexOptions::default(),
            indices: None,
            instances: 1,
            provoking_first: false,
            geometry_constants: Vec::new(),
        }
    }
}

/// What runs the two stages of a chained draw: [`run_vertices`] and [`run_geometry`]'s
/// work, with their results.
pub trait Stages {
    /// Why a stage failed (a setup error of the draw itself is an [`ExecError`]).
    type Error: From<ExecError>;
    /// Runs the vertex shader `vs` as [`run_vertices`] does.
    fn vertices(
        &mut self,
        vs: &Program,
        opts: &VertexOptions,
    ) -> Result<VertexOutputs, Self::Error>;
    /// Runs the geometry shader `gs` as [`run_geometry`] does.
    fn geometry(
        &mut self,
        gs: &Program,
        opts: &GeometryOptions,
    ) -> Result<GeometryOutputs, Self::Error>;
}

/// Every stage on the interpreter.
pub(crate) struct Interpreted;

impl Stages for Interpreted {
    type Error = ExecError;

    fn vertices(&mut self, vs: &Program, opts: &VertexOptions) -> Result<VertexOutputs, ExecError> {
        run_vertices(vs, opts)
    }

    fn geometry(
        &mut self,
        gs: &Program,
        opts: &GeometryOptions,
    ) -> Result<GeometryOutputs, ExecError> {
        run_geometry(gs, opts)
    }
}

/// Run `vs` then `gs` on the interpreter as described in the module documentation: the
/// geometry shader's outputs of each instance.
pub fn run_pipeline(
    vs: &Program,
    gs: &Program,
    opts: &PipelineOptions,
) -> Result<Vec<GeometryOutputs>, ExecError> {
    run_pipeline_with(vs, gs, opts, &mut Interpreted)
}

/// [`run_pipeline`] with the stages run by `stages`.
pub fn run_pipeline_with<S: Stages>(
    vs: &Program,
    gs: &Program,
    opts: &PipelineOptions,
    stages: &mut S,
) -> Result<Vec<GeometryOutputs>, S::Error> {
    let info = gs.geometry.as_ref().ok_or_else(|| {
        ExecError::Setup(format!(
            "the second stage must be a geometry shader, not {}",
            gs.processor
        ))
    })?;
    let class = input_primitive(opts.mode);
    if class != Some(info.input) {
        return Err(ExecError::Setup(format!(
            "{} primitives cannot feed a geometry shader whose GS_INPUT_PRIMITIVE is {}",
            opts.mode, info.input
        ))
        .into());
    }
    if opts.instances > MAX_INSTANCES {
        return Err(ExecError::Setup(format!(
            "{} instances is more than the limit of {MAX_INSTANCES}",
            opts.instances
        ))
        .into());
    }
    let positions = draw_positions(opts.indices.as_deref(), opts.vertex.count)?;
    let prims = assemble(opts.mode, positions.len(), opts.provoking_first).unwrap_or_default();
    let per_prim = info.input.vertices() as usize;
    // Each GS input register linked to a vertex-shader output slot, by semantic.
    let vs_outputs = output_decls(vs);
    let linked: Vec<Option<usize>> = (0..gs.sizes[1] as u32)
        .map(|i| {
            let d = gs
                .inputs
                .iter()
                .find(|d| d.index == i && d.semantic != Semantic::PrimId)?;
            vs_outputs
                .iter()
                .position(|o| o.semantic == Some((d.semantic, d.semantic_index)))
        })
        .collect();
    let mut words = 0usize;
    let mut out = Vec::new();
    for instance in 0..opts.instances {
        let vertices = stages.vertices(
            vs,
            &VertexOptions {
                instance_id: instance,
                ..opts.vertex.clone()
            },
        )?;
        let inputs = linked
            .iter()
            .map(|slot| match slot {
                Some(slot) => VertexInput::PerVertex(
                    prims
                        .iter()
                        .map(|&k| vertices.values[positions[k as usize]][*slot])
                        .collect(),
                ),
                None => VertexInput::Constant([0; 4]),
            })
            .collect();
        let result = stages.geometry(
            gs,
            &GeometryOptions {
                count: prims.len() / per_prim,
                inputs,
                constants: opts.geometry_constants.clone(),
                budget: opts.vertex.budget,
                resources: opts.vertex.resources.clone(),
            },
        )?;
        words = words.saturating_add(result.streams.iter().map(|s| s.values.len() * 4).sum());
        if words > MAX_CAPTURED_WORDS {
            return Err(ExecError::Setup(format!(
                "the draw produces more than {MAX_CAPTURED_WORDS} output words"
            ))
            .into());
        }
        out.push(result);
    }
    Ok(out)
}
