//! Vertex processing: run a vertex shader once per vertex, the way the draw module feeds
//! softpipe's `tgsi_exec` — lanes are consecutive vertices, so each 2×2 quad of the wave
//! holds 4 consecutive vertices — and collect every declared output register per vertex.
//!
//! Inputs are given per `IN` register, either one vec4 per vertex or one vec4 for all of
//! them (all four channels as given, whatever the declaration's usage mask, like a vertex
//! fetch). Lanes past the vertex count are inactive: they are helper lanes (not in the
//! NonHelperMask) and outside the execution mask for the whole run, so they write nothing
//! and cannot keep a loop running.
//!
//! System values (SV declarations, and inputs declared with the same semantics) get their
//! value in the x channel, as in the draw module, and 0 in y, z, w:
//!
//! | semantic          | value                                   |
//! |-------------------|-----------------------------------------|
//! | `VERTEXID`        | vertex index + [`VertexOptions::base_vertex`] |
//! | `VERTEXID_NOBASE` | vertex index                            |
//! | `BASEVERTEX`      | [`VertexOptions::base_vertex`]          |
//! | `INSTANCEID`      | [`VertexOptions::instance_id`]          |
//!
//! Every other system value reads 0.

use std::fmt;

use crate::compile::Program;
use crate::engine::{Interpreter, WaveEngine, WAVE};
use crate::machine::{lane_of, Env, ExecError, Machine, Reg, DEFAULT_BUDGET};
use crate::resource::Resources;
use crate::vertices::Vertices;
use tgsi::{Processor, Semantic};

/// Largest accepted vertex count.
pub const MAX_VERTICES: usize = 1 << 24;

/// The value of one input register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexInput {
    /// One vec4 (raw 32-bit words) per vertex; at least [`VertexOptions::count`] of them.
    PerVertex(Vec<[u32; 4]>),
    /// The same vec4 for every vertex.
    Constant([u32; 4]),
}

/// What to run.
#[derive(Clone, Debug)]
pub struct VertexOptions {
    /// Number of vertices.
    pub count: usize,
    /// `inputs[i]` = the value of `IN[i]`; missing registers read 0.
    pub inputs: Vec<VertexInput>,
    /// Constant buffers: `constants[b][i]` = `CONST[b][i]` (missing slots read 0).
    pub constants: Vec<Vec<[u32; 4]>>,
    /// `INSTANCEID`.
    pub instance_id: u32,
    /// `BASEVERTEX`, added to the vertex index for `VERTEXID`.
    pub base_vertex: i32,
    /// Instruction budget of each wave run.
    pub budget: u64,
    /// Textures, samplers, images and buffers.
    pub resources: Resources,
}

impl Default for VertexOptions {
    fn default() -> Self {
        VertexOptions {
            count: 0,
            inputs: Vec::new(),
            constants: Vec::new(),
            instance_id: 0,
            base_vertex: 0,
            budget: DEFAULT_BUDGET,
            resources: Resources::default(),
        }
    }
}

/// A declared output register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputDecl {
    /// Register index (`OUT[index]`).
    pub index: u32,
    /// Semantic name and index, when declared with one.
    pub semantic: Option<(Semantic, u32)>,
}

impl fmt::Display for OutputDecl {
    /// `OUT[0] POSITION`, `OUT[1] GENERIC[0]`, `OUT[2]` (the semantic index is shown as
    /// `tgsi_dump` does: when non-zero, and always for GENERIC and TEXCOORD).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OUT[{}]", self.index)?;
        if let Some((name, index)) = self.semantic {
            write!(f, " {name}")?;
            if index != 0 || matches!(name, Semantic::Generic | Semantic::TexCoord) {
                write!(f, "[{index}]")?;
            }
        }
        Ok(())
    }
}

/// The result of [`run_vertices`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexOutputs {
    /// The declared output registers, by register index.
    pub decls: Vec<OutputDecl>,
    /// `values[vertex][d]` = the value of output `decls[d]` for that vertex (raw words).
    pub values: Vertices,
}

impl VertexOutputs {
    /// Little-endian words of all outputs: vertex-major, then declaration order, then x y z w.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        le_bytes(self.values.words().iter().copied())
    }
}

/// The little-endian bytes of the words of `vectors`, in order: what the drivers' raw
/// outputs write (four bytes appended at a time; a byte-by-byte `flat_map` took half of a
/// large `tgsi run`).
pub(crate) fn le_bytes(vectors: impl IntoIterator<Item = [u32; 4]>) -> Vec<u8> {
    let vectors = vectors.into_iter();
    let mut out = Vec::with_capacity(16 * vectors.size_hint().0);
    for v in vectors {
        for w in v {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    out
}

/// Run `program` (a vertex shader) over `opts.count` vertices with the interpreter, as
/// described in the module documentation.
pub fn run_vertices(program: &Program, opts: &VertexOptions) -> Result<VertexOutputs, ExecError> {
    run_vertices_with(&Interpreter(program), opts)
}

/// [`run_vertices`] on any engine (waves of [`WAVE`] lanes: quads of four consecutive
/// vertices).
pub fn run_vertices_with(
    engine: &dyn WaveEngine,
    opts: &VertexOptions,
) -> Result<VertexOutputs, ExecError> {
    let program = engine.program();
    check_options(program, opts)?;
    let mut m = Machine::<WAVE>::new(program);
    let decls = output_decls(program);
    let mut values = Vertices::with_capacity(decls.len(), opts.count);
    for first in (0..opts.count).step_by(WAVE) {
        let lanes = (opts.count - first).min(WAVE);
        let active = Machine::<WAVE>::ALL >> (WAVE - lanes);
        setup_wave(program, opts, &mut m, first);
        let env = Env {
            resources: &opts.resources,
            consts: &opts.constants,
            budget: opts.budget,
            helpers: !active,
        };
        engine.run_wave(&mut m, &env, active)?;
        push_lanes(&mut values, m.outputs(), &decls, lanes);
    }
    Ok(VertexOutputs { decls, values })
}

/// Append lanes `0..lanes` of the output file `outs` to `values`, a vertex a lane holding
/// the registers `decls` name (0 for one past the file).
pub(crate) fn push_lanes<const N: usize>(
    values: &mut Vertices,
    outs: &[Reg<N>],
    decls: &[OutputDecl],
    lanes: usize,
) {
    for l in 0..lanes {
        let vertex = values.push_zeroed();
        for (v, d) in vertex.iter_mut().zip(decls) {
            *v = outs.get(d.index as usize).map_or([0; 4], |r| lane_of(r, l));
        }
    }
}

/// Whether `opts` can run `program`: a vertex shader, at most [`MAX_VERTICES`] vertices,
/// inputs only for declared input registers, and per-vertex inputs for every vertex.
pub fn check_options(program: &Program, opts: &VertexOptions) -> Result<(), ExecError> {
    if program.processor != Processor::Vertex {
        return Err(ExecError::Setup(format!(
            "run_vertices needs a vertex shader, not {}",
            program.processor
        )));
    }
    if opts.count > MAX_VERTICES {
        return Err(ExecError::Setup(format!(
            "{} vertices is more than the limit of {MAX_VERTICES}",
            opts.count
        )));
    }
    let declared = program.register_counts()[1];
    if opts.inputs.len() > declared {
        return Err(ExecError::Setup(format!(
            "IN[{}] is given but the shader declares {declared} input register(s)",
            opts.inputs.len() - 1
        )));
    }
    for (i, input) in opts.inputs.iter().enumerate() {
        if let VertexInput::PerVertex(v) = input {
            if v.len() < opts.count {
                return Err(ExecError::Setup(format!(
                    "IN[{i}] has {} vertices, fewer than the {} to run",
                    v.len(),
                    opts.count
                )));
            }
        }
    }
    Ok(())
}

/// The output registers [`VertexOutputs::values`] holds, in register order.
pub fn output_decls(program: &Program) -> Vec<OutputDecl> {
    let mut decls: Vec<OutputDecl> = program
        .outputs
        .iter()
        .map(|d| OutputDecl {
            index: d.index,
            semantic: Some((d.semantic, d.semantic_index)),
        })
        .chain(program.plain_outputs.iter().map(|&index| OutputDecl {
            index,
            semantic: None,
        }))
        .collect();
    decls.sort_by_key(|d| d.index);
    decls
}

/// Fill the input and system-value registers for vertices `first..first + WAVE` (lanes past
/// the end read 0).
fn setup_wave(program: &Program, opts: &VertexOptions, m: &mut Machine<WAVE>, first: usize) {
    let inputs = m.inputs_mut();
    for (i, r) in inputs.iter_mut().enumerate() {
        *r = match opts.inputs.get(i) {
            Some(VertexInput::PerVertex(v)) => std::array::from_fn(|c| {
                std::array::from_fn(|l| {
                    v.get(first + l)
                        .filter(|_| first + l < opts.count)
                        .map_or(0, |x| x[c])
                })
            }),
            Some(VertexInput::Constant(k)) => k.map(|x| [x; WAVE]),
            None => [[0; WAVE]; 4],
        };
    }
    // Inputs keep their given value unless their semantic is a vertex system value.
    for d in &program.inputs {
        if let (Some(r), Some(x)) = (
            inputs.get_mut(d.index as usize),
            system_value(d.semantic, opts, first),
        ) {
            *r = [x, [0; WAVE], [0; WAVE], [0; WAVE]];
        }
    }
    let svs = m.system_values_mut();
    for d in &program.system_values {
        if let Some(r) = svs.get_mut(d.index as usize) {
            let x = system_value(d.semantic, opts, first).unwrap_or([0; WAVE]);
            *r = [x, [0; WAVE], [0; WAVE], [0; WAVE]];
        }
    }
}

/// The x channel of a vertex system value for the wave starting at vertex `first`, or `None`
/// when `semantic` is not one. Vertex indices wrap like the draw module's unsigned sums.
fn system_value(semantic: Semantic, opts: &VertexOptions, first: usize) -> Option<[u32; WAVE]> {
    let base = opts.base_vertex as u32;
    let index = |l: usize| (first + l) as u32;
    Some(match semantic {
        Semantic::VertexId => std::array::from_fn(|l| index(l).wrapping_add(base)),
        Semantic::VertexIdNoBase => std::array::from_fn(index),
        Semantic::BaseVertex => [base; WAVE],
        Semantic::InstanceId => [opts.instance_id; WAVE],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::le_bytes;

    #[test]
    fn raw_outputs_are_the_words_little_endian_in_order() {
        let bytes = le_bytes([[1, 0x0403_0201, 0, u32::MAX], [0x8000_0000, 2, 3, 4]]);
        assert_eq!(
            bytes,
            [
                1, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 128, 2, 0, 0, 0,
                3, 0, 0, 0, 4, 0, 0, 0
            ]
        );
        assert!(le_bytes([]).is_empty());
    }
}
