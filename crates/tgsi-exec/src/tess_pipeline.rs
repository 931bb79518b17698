//! Tessellation chains, the tessellation half of Gallium's draw module: a vertex shader
//! over the draw's vertices, then patch by patch an optional control shader, the
//! [`crate::tessellator`] and the evaluation shader ([`crate::tessellation`]), then an
//! optional geometry shader over the tessellated primitives. The result is what transform
//! feedback captures from the last stage: independent points, lines or triangles,
//! instance by instance, patch by patch (patch `p` = draw positions `p·V … p·V + V − 1`,
//! `V` = vertices per patch; a trailing partial patch is dropped), in the tessellator's
//! order inside a patch. Geometry-shader strips are split as GL specifies (triangle `k` of
//! a strip is `(k, k+1, k+2)` for even `k`, `(k+1, k, k+2)` for odd `k`, or
//! `(k, k+2, k+1)` when the provoking vertex is the first).
//!
//! The shaders run on the interpreter ([`run_tess_pipeline`]) or on any [`TessRunner`]
//! ([`run_tess_pipeline_with`]). Stages are linked by semantic name and index. Without a control shader the evaluation
//! shader reads the vertex shader's outputs as its patch vertices and the default levels
//! (GL's `glPatchParameterfv`, Gallium's `set_tess_state`).

use std::fmt;

use crate::assembly::{decompose, draw_positions};
use crate::compile::Program;
use crate::geometry::GeometryOptions;
use crate::machine::{Env, ExecError};
use crate::pipeline::{Interpreted, Stages};
use crate::tessellation::{
    control_vertices_out, eval_mode, ControlStage, EvalStage, Levels, Patch, PointOutputs,
    MAX_PATCH_VERTICES,
};
use crate::tessellator::{Domain, Tessellation};
use crate::vertex::{OutputDecl, VertexInput, VertexOptions};
use crate::vertices::Vertices;
use tgsi::{Primitive, Processor, Semantic};

/// Largest accepted instance count.
pub const MAX_INSTANCES: u32 = 1 << 16;

/// Largest number of patches (over all instances) one run may draw.
pub const MAX_PATCHES: usize = 1 << 24;

/// Largest number of output words a run may capture.
pub const MAX_CAPTURED_WORDS: usize = 1 << 26;

/// The shaders of a tessellation chain.
#[derive(Clone, Copy, Debug)]
pub struct TessStages<'a> {
    /// The vertex shader.
    pub vertex: &'a Program,
    /// The tessellation control shader, if any.
    pub control: Option<&'a Program>,
    /// The tessellation evaluation shader.
    pub eval: &'a Program,
    /// The geometry shader, if any.
    pub geometry: Option<&'a Program>,
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct TessOptions {
    /// Vertices per patch (1 to 32).
    pub patch_vertices: usize,
    /// Instances (`INSTANCEID` 0, 1, …); 0 draws nothing.
    pub instances: u32,
    /// An indexed draw: the vertex of each draw position (`None`: position `k` is vertex
    /// `k` of the vertex buffer).
    pub indices: Option<Vec<u32>>,
    /// The levels the evaluation shader gets without a control shader.
    pub default_levels: Levels,
    /// The vertex buffer (`count` vertices), the vertex shader's inputs, constants,
    /// `BASEVERTEX`, budget and the resources of every stage (`instance_id` is ignored).
    pub vertex: VertexOptions,
    /// The control shader's constant buffers.
    pub control_constants: Vec<Vec<[u32; 4]>>,
    /// The evaluation shader's constant buffers.
    pub eval_constants: Vec<Vec<[u32; 4]>>,
    /// The geometry shader's constant buffers.
    pub geometry_constants: Vec<Vec<[u32; 4]>>,
    /// The provoking vertex is the first (GL's `GL_FIRST_VERTEX_CONVENTION`); it changes
    /// how geometry-shader triangle strips are split.
    pub provoking_first: bool,
}

impl Default for TessOptions {
    fn default() -> Self {
        TessOptions {
            patch_vertices: 3,
            instances: 1,
            indices: None,
            default_levels: Levels::from_floats([1.0; 4], [1.0; 2]),
            vertex: VertexOptions::default(),
            control_constants: Vec::new(),
            eval_constants: Vec::new(),
            geometry_constants: Vec::new(),
            provoking_first: false,
        }
    }
}

/// What the last stage produced, as transform feedback captures it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapturedOutputs {
    /// The last stage's declared output registers, by register index.
    pub decls: Vec<OutputDecl>,
    /// Points, lines or triangles.
    pub primitive: Primitive,
    /// `vertices[k][d]`: output `decls[d]` of captured vertex `k`, primitive after
    /// primitive.
    pub vertices: Vertices,
    /// Patches drawn (culled ones included), over all instances.
    pub patches: usize,
}

impl CapturedOutputs {
    /// Vertices per captured primitive.
    pub fn vertices_per_primitive(&self) -> usize {
        self.primitive.vertices().max(1) as usize
    }

    /// Captured primitives.
    pub fn primitives(&self) -> usize {
        self.vertices.len() / self.vertices_per_primitive()
    }

    /// Little-endian words of every captured vertex: vertex after vertex, declaration
    /// order, x y z w.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        crate::vertex::le_bytes(self.vertices.words().iter().copied())
    }
}

impl fmt::Display for CapturedOutputs {
    /// `26 primitives (triangles, 78 vertices) from 2 patches`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} primitives ({}, {} vertices) from {} patches",
            self.primitives(),
            self.primitive.name().to_ascii_lowercase(),
            self.vertices.len(),
            self.patches
        )
    }
}

/// Patches a control or evaluation shader is given at once ([`TessRunner`]), which bounds
/// the memory a batch takes.
pub const PATCH_BATCH: usize = 1024;

/// What runs the stages of a tessellation chain ([`run_tess_pipeline_with`]): the vertex
/// and geometry shaders as [`Stages`] runs them, and the control and evaluation shaders over
/// the work [`run_tess_pipeline`] gives them, a batch at a time; the draw module's work
/// between them (patch assembly, linking, tessellation, capture) is this module's.
pub trait TessRunner: Stages {
    /// Runs the control shader `tcs` over `patches` as [`ControlStage::run`] does, patch
    /// `k` with `PRIM_ID` `first_id + k`.
    fn control(
        &mut self,
        tcs: &Program,
        patches: &[Patch],
        first_id: u32,
        env: &Env,
    ) -> Result<Vec<Patch>, Self::Error>;
    /// Runs the evaluation shader `tes` over the points of each patch's tessellation as
    /// [`EvalStage::run`] does, patch `k` with `PRIM_ID` `first_id + k`: per patch, per
    /// point, the declared outputs.
    fn eval(
        &mut self,
        tes: &Program,
        patches: &[(Patch, &Tessellation)],
        first_id: u32,
        env: &Env,
    ) -> Result<Vec<PointOutputs>, Self::Error>;
}

impl TessRunner for Interpreted {
    fn control(
        &mut self,
        tcs: &Program,
        patches: &[Patch],
        first_id: u32,
        env: &Env,
    ) -> Result<Vec<Patch>, ExecError> {
        let mut stage = ControlStage::new(tcs)?;
        (first_id..)
            .zip(patches)
            .map(|(id, patch)| stage.run(patch, id, env))
            .collect()
    }

    fn eval(
        &mut self,
        tes: &Program,
        patches: &[(Patch, &Tessellation)],
        first_id: u32,
        env: &Env,
    ) -> Result<Vec<PointOutputs>, ExecError> {
        let mut stage = EvalStage::new(tes)?;
        (first_id..)
            .zip(patches)
            .map(|(id, (patch, tess))| stage.run(patch, tess, id, env))
            .collect()
    }
}

/// Check that `program` is a `want` shader for the `role` stage.
fn expect(program: &Program, want: Processor, role: &str) -> Result<(), ExecError> {
    if program.processor == want {
        Ok(())
    } else {
        Err(ExecError::Setup(format!(
            "the {role} stage must be a {want} shader, not {}",
            program.processor
        )))
    }
}

/// Run the chain as described in the module documentation, every stage on the
/// interpreter.
pub fn run_tess_pipeline(
    stages: &TessStages,
    opts: &TessOptions,
) -> Result<CapturedOutputs, ExecError> {
    run_tess_pipeline_with(stages, opts, &mut Interpreted)
}

/// [`run_tess_pipeline`] with the shaders run by `runner`.
pub fn run_tess_pipeline_with<R: TessRunner>(
    stages: &TessStages,
    opts: &TessOptions,
    runner: &mut R,
) -> Result<CapturedOutputs, R::Error> {
    expect(stages.vertex, Processor::Vertex, "first")?;
    if let Some(tcs) = stages.control {
        expect(tcs, Processor::TessCtrl, "control")?;
    }
    expect(stages.eval, Processor::TessEval, "evaluation")?;
    let pv = opts.patch_vertices;
    if !(1..=MAX_PATCH_VERTICES as usize).contains(&pv) {
        return Err(ExecError::Setup(format!(
            "{pv} vertices per patch is not 1 to {MAX_PATCH_VERTICES}"
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
    let patches = positions.len() / pv;
    if patches.saturating_mul(opts.instances as usize) > MAX_PATCHES {
        return Err(ExecError::Setup(format!(
            "{patches} patches × {} instances is more than the limit of {MAX_PATCHES}",
            opts.instances
        ))
        .into());
    }
    if let Some(tcs) = stages.control {
        control_vertices_out(tcs)?;
    }
    let mode = eval_mode(stages.eval)?;
    let eval_outputs = crate::vertex::output_decls(stages.eval);
    let tess_primitive = match (mode.point_mode, mode.domain) {
        (true, _) => Primitive::Points,
        (false, Domain::Isolines) => Primitive::Lines,
        (false, _) => Primitive::Triangles,
    };
    let geometry = match stages.geometry {
        None => None,
        Some(gs) => {
            let info = gs.geometry.as_ref().ok_or_else(|| {
                ExecError::Setup(format!(
                    "the last stage must be a geometry shader, not {}",
                    gs.processor
                ))
            })?;
            if info.input != tess_primitive {
                return Err(ExecError::Setup(format!(
                    "tessellated {tess_primitive} cannot feed a geometry shader whose \
                     GS_INPUT_PRIMITIVE is {}",
                    info.input
                ))
                .into());
            }
            Some((gs, info.output))
        }
    };
    let decls = match geometry {
        Some((gs, _)) => crate::vertex::output_decls(gs),
        None => eval_outputs.clone(),
    };
    let mut out = CapturedOutputs {
        vertices: Vertices::new(decls.len()),
        decls,
        primitive: match geometry {
            Some((_, Primitive::LineStrip)) => Primitive::Lines,
            Some((_, Primitive::TriangleStrip)) => Primitive::Triangles,
            Some(_) => Primitive::Points,
            None => tess_primitive,
        },
        patches: patches * opts.instances as usize,
    };
    let control_env = Env {
        resources: &opts.vertex.resources,
        consts: &opts.control_constants,
        budget: opts.vertex.budget,
        helpers: 0,
    };
    let eval_env = Env {
        consts: &opts.eval_constants,
        ..control_env
    };
    let mut words = 0usize;
    let mut count_words = |n: usize, width: usize| {
        words = words.saturating_add(n.saturating_mul(width * 4));
        if words > MAX_CAPTURED_WORDS {
            Err(ExecError::Setup(format!(
                "the draw produces more than {MAX_CAPTURED_WORDS} output words"
            )))
        } else {
            Ok(())
        }
    };
    for instance in 0..opts.instances {
        let vs = runner.vertices(
            stages.vertex,
            &VertexOptions {
                instance_id: instance,
                ..opts.vertex.clone()
            },
        )?;
        let linked: Vec<usize> = (0..vs.decls.len())
            .filter(|&d| vs.decls[d].semantic.is_some())
            .collect();
        let semantics: Vec<(Semantic, u32)> = linked
            .iter()
            .filter_map(|&d| vs.decls[d].semantic)
            .collect();
        let mut emitted = Vertices::new(eval_outputs.len());
        for first in (0..patches).step_by(PATCH_BATCH) {
            let batch = first..patches.min(first + PATCH_BATCH);
            let inputs: Vec<Patch> = batch
                .map(|p| Patch {
                    semantics: semantics.clone(),
                    vertices: Vertices::from_fn(linked.len(), pv, |k, s| {
                        vs.values[positions[p * pv + k]][linked[s]]
                    }),
                    per_patch: Vec::new(),
                    levels: opts.default_levels,
                })
                .collect();
            // At most MAX_PATCHES patches, so ids fit in u32.
            let first_id = first as u32;
            let patches = match stages.control {
                Some(tcs) => runner.control(tcs, &inputs, first_id, &control_env)?,
                None => inputs,
            };
            // A tessellation depends only on the levels, and patches in a row mostly share
            // theirs (constant or default levels): each distinct run of levels is
            // tessellated once and shared.
            let mut tessellations: Vec<(Levels, Tessellation)> = Vec::new();
            let mut which = Vec::with_capacity(patches.len());
            for patch in &patches {
                if tessellations.last().is_none_or(|(l, _)| *l != patch.levels) {
                    tessellations.push((patch.levels, patch.levels.tessellate(&mode)));
                }
                let k = tessellations.len() - 1;
                count_words(tessellations[k].1.indices.len(), eval_outputs.len())?;
                which.push(k);
            }
            let work: Vec<(Patch, &Tessellation)> = patches
                .into_iter()
                .zip(which)
                .map(|(patch, k)| (patch, &tessellations[k].1))
                .collect();
            let values = runner.eval(stages.eval, &work, first_id, &eval_env)?;
            for ((_, tess), values) in work.iter().zip(&values) {
                if values.width() != emitted.width() {
                    return Err(ExecError::Setup(format!(
                        "the evaluation stage gave {} outputs a point, not the {} it declares",
                        values.width(),
                        emitted.width()
                    ))
                    .into());
                }
                emitted.reserve(tess.indices.len());
                for &i in &tess.indices {
                    emitted.push_from(values, i as usize);
                }
            }
        }
        match geometry {
            None if out.vertices.is_empty() => out.vertices = emitted,
            None => out.vertices.append(&mut emitted),
            Some((gs, kind)) => {
                // The geometry shader's input registers, linked by semantic; each linked one
                // is a copy of a column of `emitted`, counted against the output limit.
                let slots: Vec<Option<usize>> = (0..gs.sizes[1] as u32)
                    .map(|i| {
                        gs.inputs
                            .iter()
                            .find(|d| d.index == i && d.semantic != Semantic::PrimId)
                            .and_then(|d| {
                                eval_outputs.iter().position(|o| {
                                    o.semantic == Some((d.semantic, d.semantic_index))
                                })
                            })
                    })
                    .collect();
                count_words(emitted.len(), slots.iter().flatten().count())?;
                let inputs = slots
                    .iter()
                    .map(|slot| match slot {
                        Some(s) => VertexInput::PerVertex(emitted.column(*s).collect()),
                        None => VertexInput::Constant([0; 4]),
                    })
                    .collect();
                let result = runner.geometry(
                    gs,
                    &GeometryOptions {
                        count: emitted.len() / tess_primitive.vertices().max(1) as usize,
                        inputs,
                        constants: opts.geometry_constants.clone(),
                        budget: opts.vertex.budget,
                        resources: opts.vertex.resources.clone(),
                    },
                )?;
                for p in &result.streams[0].primitives {
                    let order = decompose(kind, p.vertices, opts.provoking_first);
                    count_words(order.len(), out.decls.len())?;
                    for &v in &order {
                        let vertex = result.vertex(0, p.first + v as usize);
                        if vertex.len() != out.vertices.width() {
                            return Err(ExecError::Setup(format!(
                                "the geometry stage's vertex {} is missing",
                                p.first + v as usize
                            ))
                            .into());
                        }
                        out.vertices.push(vertex);
                    }
                }
            }
        }
    }
    Ok(out)
}
