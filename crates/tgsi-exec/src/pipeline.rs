//! Chained stages, the vertex half of Gallium's draw module: a vertex shader runs over the
//! vertices ([`crate::run_vertices`]), its outputs are assembled into primitives of the draw
//! mode ([`crate::assembly`]) and linked to the geometry shader's inputs by semantic name
//! and index (as draw's `draw_gs_get_input_index` does; an input no vertex output matches
//! reads 0, a `PRIM_ID` input holds the primitive), and the geometry shader runs over them
//! ([`crate::run_geometry`]).

use crate::assembly::{assemble, input_primitive};
use crate::compile::Program;
use crate::geometry::{run_geometry, GeometryOptions, GeometryOutputs};
use crate::machine::ExecError;
use crate::vertex::{run_vertices, VertexInput, VertexOptions};
use tgsi::{Primitive, Semantic};

/// What to run.
#[derive(Clone, Debug)]
pub struct PipelineOptions {
    /// How the vertices form primitives.
    pub mode: Primitive,
    /// The vertices (`count`), the vertex shader's inputs, constants, system values, budget
    /// and the resources of both stages.
    pub vertex: VertexOptions,
    /// The geometry shader's constant buffers.
    pub geometry_constants: Vec<Vec<[u32; 4]>>,
}

/// Run `vs` then `gs` as described in the module documentation.
pub fn run_pipeline(
    vs: &Program,
    gs: &Program,
    opts: &PipelineOptions,
) -> Result<GeometryOutputs, ExecError> {
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
        )));
    }
    let vertices = run_vertices(vs, &opts.vertex)?;
    let prims = assemble(opts.mode, opts.vertex.count).unwrap_or_default();
    let per_prim = info.input.vertices() as usize;
    let registers = gs.sizes[1];
    let inputs = (0..registers as u32)
        .map(|i| {
            let linked = gs
                .inputs
                .iter()
                .find(|d| d.index == i && d.semantic != Semantic::PrimId)
                .and_then(|d| {
                    vertices
                        .decls
                        .iter()
                        .position(|o| o.semantic == Some((d.semantic, d.semantic_index)))
                });
            match linked {
                Some(slot) => VertexInput::PerVertex(
                    prims
                        .iter()
                        .map(|&v| vertices.values[v as usize][slot])
                        .collect(),
                ),
                None => VertexInput::Constant([0; 4]),
            }
        })
        .collect();
    run_geometry(
        gs,
        &GeometryOptions {
            count: prims.len() / per_prim,
            inputs,
            constants: opts.geometry_constants.clone(),
            budget: opts.vertex.budget,
            resources: opts.vertex.resources.clone(),
        },
    )
}
