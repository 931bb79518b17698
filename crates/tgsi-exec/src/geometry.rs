//! Geometry processing: run a geometry shader over input primitives the way Gallium's draw
//! module drives softpipe's `tgsi_exec` — one input primitive at a time in lane 0 of a
//! 4-lane machine (draw's `vector_length` is 1 for `tgsi_exec`), all invocations of a
//! primitive back to back — and collect what every invocation emits, per vertex stream, in
//! the order draw produces it: by input primitive, then invocation, then emission. Where
//! lane 0 cannot see the other lanes (no derivatives, sampling, inter-lane opcodes,
//! atomics or CLOCK), lanes 1–3 run beside it as helpers holding the same values, which
//! gives lane 0 the same results while its writes need no merging under a one-lane mask;
//! and where such a shader also stores nothing, 32 runs go side by side on a wave, one a
//! lane, recorded in run order.
//!
//! Inputs are given per `IN` register like vertex inputs ([`VertexInput`]): one vec4 per
//! input vertex, primitive after primitive (vertex `v` of primitive `p` is entry `p·V + v`,
//! `V` = the vertices of `GS_INPUT_PRIMITIVE`), or one vec4 for all. The values the draw
//! module provides itself:
//!
//! | register                  | value                                          |
//! |---------------------------|------------------------------------------------|
//! | `IN[][i], PRIM_ID`        | the input primitive `p` in all four channels of every vertex |
//! | `SV[i], PRIMID`           | `p` in x                                       |
//! | `SV[i], INVOCATIONID`     | the invocation in x                            |
//!
//! Other system values read 0. `GS_INVOCATIONS` 0 (or absent) means 1, as the spec says;
//! a missing `GS_MAX_OUTPUT_VERTICES` is 0, so nothing is emitted, as in `tgsi_exec`. How
//! EMIT and ENDPRIM record vertices, and where that follows the spec rather than softpipe,
//! is described in [`crate::emit`].

use std::fmt;

use crate::compile::Program;
use crate::emit::{Emission, STREAMS};
use crate::machine::{Env, ExecError, Machine, DEFAULT_BUDGET};
use crate::ops::Kind;
use crate::resource::Resources;
use crate::vertex::{le_bytes, OutputDecl, VertexInput};
use tgsi::{Primitive, Processor, PropertyName, Semantic, Shader};

/// Largest `GS_MAX_OUTPUT_VERTICES` accepted (softpipe's
/// `PIPE_CAP_MAX_GEOMETRY_OUTPUT_VERTICES`).
pub const MAX_OUTPUT_VERTICES: u32 = 1024;

/// Largest `GS_INVOCATIONS` accepted (softpipe's `GL_MAX_GEOMETRY_SHADER_INVOCATIONS`).
pub const MAX_INVOCATIONS: u32 = 32;

/// Largest number of words one invocation may emit: `GS_MAX_OUTPUT_VERTICES` × declared
/// output registers × 4 must stay within it.
pub const MAX_INVOCATION_WORDS: usize = 1 << 20;

/// Largest accepted input primitive count.
pub const MAX_PRIMITIVES: usize = 1 << 24;

/// Largest number of output words a whole run may collect (all streams).
pub const MAX_OUTPUT_WORDS: usize = 1 << 26;

/// What a geometry shader's properties and declarations say about its execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeometryInfo {
    /// `GS_INPUT_PRIMITIVE`: points, lines, lines_adjacency, triangles or
    /// triangles_adjacency.
    pub input: Primitive,
    /// `GS_OUTPUT_PRIMITIVE`.
    pub output: Primitive,
    /// `GS_MAX_OUTPUT_VERTICES`: vertices an invocation may emit over all streams.
    pub max_vertices: u32,
    /// `GS_INVOCATIONS` (at least 1).
    pub invocations: u32,
    /// The declared output registers, in index order: what each emitted vertex records.
    pub outputs: Vec<u32>,
}

impl GeometryInfo {
    /// The geometry information of `shader` (`None` for other stages), or why it cannot
    /// run. `outputs` are the declared output registers.
    pub(crate) fn of(shader: &Shader, outputs: &[u32]) -> Result<Option<GeometryInfo>, String> {
        if shader.processor != Processor::Geometry {
            return Ok(None);
        }
        let prop = |name| shader.property(name).unwrap_or(0);
        let primitive = |name| {
            let value = prop(name);
            Primitive::from_number(value).ok_or_else(|| format!("{name} {value} is no primitive"))
        };
        let input = primitive(PropertyName::GsInputPrimitive)?;
        if !matches!(
            input,
            Primitive::Points
                | Primitive::Lines
                | Primitive::LinesAdjacency
                | Primitive::Triangles
                | Primitive::TrianglesAdjacency
        ) {
            return Err(format!(
                "GS_INPUT_PRIMITIVE {input} is not a geometry-shader input primitive"
            ));
        }
        let output = primitive(PropertyName::GsOutputPrimitive)?;
        if !matches!(
            output,
            Primitive::Points | Primitive::LineStrip | Primitive::TriangleStrip
        ) {
            return Err(format!(
                "GS_OUTPUT_PRIMITIVE {output} is not POINTS, LINE_STRIP or TRIANGLE_STRIP"
            ));
        }
        let max_vertices = prop(PropertyName::GsMaxOutputVertices);
        if max_vertices > MAX_OUTPUT_VERTICES {
            return Err(format!(
                "GS_MAX_OUTPUT_VERTICES {max_vertices} is more than the limit of \
                 {MAX_OUTPUT_VERTICES}"
            ));
        }
        let words = max_vertices as usize * outputs.len() * 4;
        if words > MAX_INVOCATION_WORDS {
            return Err(format!(
                "{max_vertices} output vertices of {} registers each is more than the limit \
                 of {MAX_INVOCATION_WORDS} words per invocation",
                outputs.len()
            ));
        }
        let invocations = prop(PropertyName::GsInvocations).max(1);
        if invocations > MAX_INVOCATIONS {
            return Err(format!(
                "GS_INVOCATIONS {invocations} is more than the limit of {MAX_INVOCATIONS}"
            ));
        }
        Ok(Some(GeometryInfo {
            input,
            output,
            max_vertices,
            invocations,
            outputs: outputs.to_vec(),
        }))
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct GeometryOptions {
    /// Number of input primitives.
    pub count: usize,
    /// `inputs[i]` = the value of `IN[][i]`; missing registers read 0.
    pub inputs: Vec<VertexInput>,
    /// Constant buffers: `constants[b][i]` = `CONST[b][i]` (missing slots read 0).
    pub constants: Vec<Vec<[u32; 4]>>,
    /// Instruction budget of each invocation.
    pub budget: u64,
    /// Textures, samplers, images and buffers.
    pub resources: Resources,
}

impl Default for GeometryOptions {
    fn default() -> Self {
        GeometryOptions {
            count: 0,
            inputs: Vec::new(),
            constants: Vec::new(),
            budget: DEFAULT_BUDGET,
            resources: Resources::default(),
        }
    }
}

/// One emitted primitive (the vertices between two cuts of its stream).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmittedPrimitive {
    /// The input primitive whose invocation emitted it.
    pub input: u32,
    /// The invocation.
    pub invocation: u32,
    /// Its first vertex in the stream's vertex sequence.
    pub first: usize,
    /// Its vertex count.
    pub vertices: u32,
}

/// Everything emitted on one vertex stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamOutput {
    /// The primitives, in draw's order.
    pub primitives: Vec<EmittedPrimitive>,
    /// The vertices' outputs: vertex `k` is `values[k·d .. (k+1)·d]`, one vec4 per declared
    /// output register (`d` of them).
    pub values: Vec<[u32; 4]>,
}

/// The result of [`run_geometry`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeometryOutputs {
    /// The declared output registers, by register index.
    pub decls: Vec<OutputDecl>,
    /// `GS_OUTPUT_PRIMITIVE`.
    pub output_primitive: Primitive,
    /// Streams 0 to 3.
    pub streams: [StreamOutput; STREAMS],
}

impl GeometryOutputs {
    /// The outputs of vertex `k` of `stream` (one vec4 per declaration).
    pub fn vertex(&self, stream: usize, k: usize) -> &[[u32; 4]] {
        let d = self.decls.len();
        self.streams
            .get(stream)
            .and_then(|s| s.values.get(k * d..(k + 1) * d))
            .unwrap_or(&[])
    }

    /// Little-endian words of every vertex of `stream`: vertex after vertex, declaration
    /// order, x y z w.
    pub fn to_le_bytes(&self, stream: usize) -> Vec<u8> {
        self.streams
            .get(stream)
            .map_or_else(Vec::new, |s| le_bytes(s.values.iter().copied()))
    }

    /// Little-endian words of `stream` the way transform feedback captures it: every
    /// primitive decomposed into independent points, lines or triangles
    /// ([`crate::assembly::decompose`] with the provoking-vertex convention), each vertex as
    /// in [`GeometryOutputs::to_le_bytes`].
    pub fn captured_le_bytes(&self, stream: usize, provoking_first: bool) -> Vec<u8> {
        let Some(s) = self.streams.get(stream) else {
            return Vec::new();
        };
        le_bytes(
            s.primitives
                .iter()
                .flat_map(|p| {
                    crate::assembly::decompose(self.output_primitive, p.vertices, provoking_first)
                        .into_iter()
                        .map(move |v| p.first + v as usize)
                })
                .flat_map(|k| self.vertex(stream, k).iter().copied()),
        )
    }

    /// One little-endian u32 per primitive of `stream`: its vertex count.
    pub fn primitive_lengths_le_bytes(&self, stream: usize) -> Vec<u8> {
        self.streams.get(stream).map_or_else(Vec::new, |s| {
            s.primitives
                .iter()
                .flat_map(|p| p.vertices.to_le_bytes())
                .collect()
        })
    }
}

impl fmt::Display for GeometryOutputs {
    /// A summary: `3 primitives (triangle_strip, 9 vertices) on stream 0, 1 primitives
    /// (triangle_strip, 1 vertices) on stream 1`;
    /// stream 0 always, the others when they have primitives.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.streams.iter().enumerate() {
            if i > 0 && s.primitives.is_empty() {
                continue;
            }
            let v: u64 = s.primitives.iter().map(|p| u64::from(p.vertices)).sum();
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(
                f,
                "{} primitives ({}, {v} vertices) on stream {i}",
                s.primitives.len(),
                self.output_primitive.name().to_ascii_lowercase()
            )?;
        }
        Ok(())
    }
}

/// Lanes of the machine that runs one run at a time in lane 0, as softpipe's.
const WAVE: usize = 4;

/// Run `program` (a geometry shader) over `opts.count` input primitives as described in
/// the module documentation.
pub fn run_geometry(
    program: &Program,
    opts: &GeometryOptions,
) -> Result<GeometryOutputs, ExecError> {
    run_geometry_lanes(program, opts, Lanes::of(program))
}

/// Lanes of the machine that runs a program's runs side by side ([`Lanes::Runs`]): the
/// drivers' wave, whose instructions cost little more than four lanes' (the geometry
/// benchmarks of `scripts/bench-stages.sh` ran 1.5–3× faster on 32 lanes than on 4).
const RUNS: usize = crate::engine::WAVE;

/// How a geometry shader's runs (one per input primitive and invocation) use the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lanes {
    /// Lane 0 alone, as softpipe runs it.
    Alone,
    /// Lane 0, with lanes 1–3 beside it as helper replicas ([`lanes_replicate`]).
    Replicas,
    /// [`RUNS`] consecutive runs side by side, one a lane: for programs whose lanes replicate
    /// and that store nothing (so no run can see another's memory writes). Lane order is
    /// run order (primitive, then invocation), so what the lanes emit is recorded in the
    /// order one run after another gives. A group that fails — an exhausted budget,
    /// counted for the lanes together — is run again one run at a time, which gives the
    /// error (or the results) of those runs alone.
    Runs,
}

impl Lanes {
    /// The most lanes `program` can use.
    fn of(program: &Program) -> Lanes {
        if !lanes_replicate(program) {
            Lanes::Alone
        } else if program.insts.iter().any(|i| matches!(i.kind, Kind::Store)) {
            Lanes::Replicas
        } else {
            Lanes::Runs
        }
    }
}

/// [`run_geometry`] with the lanes used as `lanes` says: [`RUNS`] runs side by side, or
/// one run at a time on softpipe's four lanes. Each lane of a machine may hold up to
/// [`MAX_INVOCATION_WORDS`] emitted words, so side-by-side runs whose lanes could emit more
/// than four lanes' worth in all take the four lanes: the memory a draw may take stays
/// what it was with one run at a time.
fn run_geometry_lanes(
    program: &Program,
    opts: &GeometryOptions,
    lanes: Lanes,
) -> Result<GeometryOutputs, ExecError> {
    match lanes {
        Lanes::Runs if wide_runs_fit(program) => run_on::<RUNS>(program, opts, lanes),
        _ => run_on::<WAVE>(program, opts, lanes),
    }
}

/// Whether [`RUNS`] lanes of `program`'s emissions fit in the words four lanes may hold.
fn wide_runs_fit(program: &Program) -> bool {
    let words = program
        .geometry
        .as_ref()
        .map_or(0, |g| g.max_vertices as usize * g.outputs.len() * 4);
    words * RUNS <= WAVE * MAX_INVOCATION_WORDS
}

/// [`run_geometry_lanes`] on a machine of `N` lanes.
fn run_on<const N: usize>(
    program: &Program,
    opts: &GeometryOptions,
    lanes: Lanes,
) -> Result<GeometryOutputs, ExecError> {
    let info = check_geometry_options(program, opts)?;
    let mut m = Machine::<N>::new(program);
    let mut out = Collected::default();
    let env = |helpers: u32| Env {
        resources: &opts.resources,
        consts: &opts.constants,
        budget: opts.budget,
        helpers,
    };
    // Run `r` is invocation `r % I` of primitive `r / I`.
    let per_input = info.invocations as usize;
    let runs = opts.count * per_input;
    let of_run = |r: usize| (r / per_input, (r % per_input) as u32);
    let single = if lanes == Lanes::Alone {
        1
    } else {
        Machine::<N>::ALL
    };
    let width = if lanes == Lanes::Runs { N } else { 1 };
    let mut r = 0;
    while r < runs {
        let k = width.min(runs - r);
        let group: [(usize, u32); N] = std::array::from_fn(|l| of_run(r + l.min(k - 1)));
        if k > 1 {
            let active = Machine::<N>::ALL >> (N - k);
            set_lanes(program, opts, &mut m, info, &group);
            if m.run_lanes(program, &env(!active), active).is_ok() {
                for (l, &(p, invocation)) in group.iter().enumerate().take(k) {
                    if let Some(e) = m.emission(l) {
                        out.add(p, invocation, e)?;
                    }
                }
                r += k;
                continue;
            }
        }
        for &(p, invocation) in group.iter().take(k) {
            set_lanes(program, opts, &mut m, info, &[(p, invocation); N]);
            m.run_lanes(program, &env(!1), single)?;
            if let Some(e) = m.emission(0) {
                out.add(p, invocation, e)?;
            }
        }
        r += k;
    }
    Ok(GeometryOutputs {
        decls: geometry_output_decls(program),
        output_primitive: info.output,
        streams: out.streams,
    })
}

/// What the runs emitted, in run order.
#[derive(Default)]
struct Collected {
    streams: [StreamOutput; STREAMS],
    /// Output words so far (bounded by [`MAX_OUTPUT_WORDS`]).
    words: usize,
}

impl Collected {
    /// Append what invocation `invocation` of input primitive `p` emitted.
    fn add(&mut self, p: usize, invocation: u32, e: &Emission) -> Result<(), ExecError> {
        self.words += e.streams.iter().map(|s| s.values.len() * 4).sum::<usize>();
        if self.words > MAX_OUTPUT_WORDS {
            return Err(ExecError::Setup(format!(
                "the geometry shader emitted more than {MAX_OUTPUT_WORDS} output words"
            )));
        }
        for (out, s) in self.streams.iter_mut().zip(&e.streams) {
            let mut first = out
                .primitives
                .last()
                .map_or(0, |p| p.first + p.vertices as usize);
            for &n in &s.primitives {
                out.primitives.push(EmittedPrimitive {
                    input: p as u32,
                    invocation,
                    first,
                    vertices: n,
                });
                first += n as usize;
            }
            out.values.extend_from_slice(&s.values);
        }
        Ok(())
    }
}

/// Whether the machine's other three lanes may run beside lane 0, as helpers: they hold
/// lane 0's inputs and system values, so every instruction of such a program gives them
/// lane 0's results and takes them down lane 0's paths, while only lane 0 records what it
/// emits and stores (helpers never do); with every lane executing, results are written
/// without merging under a one-lane mask, and lane 0 computes exactly what it computes
/// alone. Not for programs where lane 0 could see the other lanes — derivatives, texture
/// sampling (implicit LODs), inter-lane opcodes, helper tests, CLOCK — or where they could
/// part from it: atomics (not performed for helpers, so their results would differ), and
/// discards.
fn lanes_replicate(program: &Program) -> bool {
    program.insts.iter().all(|inst| {
        matches!(
            inst.kind,
            Kind::Component(_)
                | Kind::Vector(_)
                | Kind::Wide(_)
                | Kind::FracExp
                | Kind::PushA
                | Kind::PopA
                | Kind::Nop
                | Kind::Flow(_)
                | Kind::Load
                | Kind::Store
                | Kind::Resq
                | Kind::Handle
                | Kind::Emit
                | Kind::EndPrim
        )
    })
}

/// The geometry information of `program`, if `opts` can run it: a geometry shader, at most
/// [`MAX_PRIMITIVES`] primitives, no input register past the declared ones, and per-vertex
/// inputs for every vertex of every primitive.
pub fn check_geometry_options<'p>(
    program: &'p Program,
    opts: &GeometryOptions,
) -> Result<&'p GeometryInfo, ExecError> {
    let Some(info) = program.geometry.as_ref() else {
        return Err(ExecError::Setup(format!(
            "run_geometry needs a geometry shader, not {}",
            program.processor
        )));
    };
    if opts.count > MAX_PRIMITIVES {
        return Err(ExecError::Setup(format!(
            "{} primitives is more than the limit of {MAX_PRIMITIVES}",
            opts.count
        )));
    }
    let stride = program.register_counts()[1];
    if opts.inputs.len() > stride {
        return Err(ExecError::Setup(format!(
            "IN[{}] is given but the shader declares {stride} input register(s)",
            opts.inputs.len() - 1
        )));
    }
    let needed = opts.count * info.input.vertices() as usize;
    for (i, input) in opts.inputs.iter().enumerate() {
        if let VertexInput::PerVertex(v) = input {
            if v.len() < needed {
                return Err(ExecError::Setup(format!(
                    "IN[{i}] has {} vertices, fewer than the {needed} of {} {} primitives",
                    v.len(),
                    opts.count,
                    info.input
                )));
            }
        }
    }
    Ok(info)
}

/// What each vertex a geometry shader emits records: its declared output registers in index
/// order, with their semantics.
pub fn geometry_output_decls(program: &Program) -> Vec<OutputDecl> {
    let outputs = program.geometry.as_ref().map_or(&[][..], |g| &g.outputs);
    outputs
        .iter()
        .map(|&index| OutputDecl {
            index,
            semantic: program
                .outputs
                .iter()
                .find(|d| d.index == index)
                .map(|d| (d.semantic, d.semantic_index)),
        })
        .collect()
}

/// Fill the input registers of every vertex of each lane's input primitive, and the
/// lane's PRIMID and INVOCATIONID (x; the other channels and system values read 0): lane
/// `l` runs invocation `runs[l].1` of primitive `runs[l].0`.
fn set_lanes<const N: usize>(
    program: &Program,
    opts: &GeometryOptions,
    m: &mut Machine<N>,
    info: &GeometryInfo,
    runs: &[(usize, u32); N],
) {
    let per_prim = info.input.vertices() as usize;
    let stride = m.input_stride();
    let inputs = m.inputs_mut();
    for v in 0..per_prim {
        for i in 0..stride {
            let Some(r) = inputs.get_mut(v * stride + i) else {
                continue;
            };
            match opts.inputs.get(i) {
                Some(VertexInput::PerVertex(list)) => {
                    for (l, &(p, _)) in runs.iter().enumerate() {
                        let value = list.get(p * per_prim + v).copied().unwrap_or([0; 4]);
                        for (row, x) in r.iter_mut().zip(value) {
                            row[l] = x;
                        }
                    }
                }
                Some(VertexInput::Constant(k)) => *r = k.map(|x| [x; N]),
                None => *r = [[0; N]; 4],
            }
        }
        for d in &program.inputs {
            if d.semantic == Semantic::PrimId {
                if let Some(r) = inputs.get_mut(v * stride + d.index as usize) {
                    *r = [runs.map(|(p, _)| p as u32); 4];
                }
            }
        }
    }
    let svs = m.system_values_mut();
    for d in &program.system_values {
        let x = match d.semantic {
            Semantic::PrimId => runs.map(|(p, _)| p as u32),
            Semantic::InvocationId => runs.map(|(_, invocation)| invocation),
            _ => [0; N],
        };
        if let Some(r) = svs.get_mut(d.index as usize) {
            *r = [x, [0; N], [0; N], [0; N]];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn program(text: &str) -> Program {
        Program::compile(&tgsi::parse(text).expect("parses")).expect("compiles")
    }

    /// The geometry shaders of the repository's gsref cases and of the shared corpus
    /// (when present).
    fn geometry_shaders() -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut walk = vec![
            root.join("tests/data/gsref"),
            root.join("../../../shared/corpus/mesa/gs"),
            root.join("../../../shared/corpus/virgl/gs"),
        ];
        while let Some(dir) = walk.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for p in entries.flatten().map(|e| e.path()) {
                if p.is_dir() {
                    walk.push(p);
                } else if p.extension().is_some_and(|x| x == "tgsi") {
                    files.push(p);
                }
            }
        }
        files.sort();
        files
    }

    #[test]
    fn lanes_replicate_only_where_lane_0_cannot_see_the_others() {
        let head = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\nDCL TEMP[0]\n";
        let with = |body: &str| program(&format!("{head}{body}  9: END\n"));
        assert!(lanes_replicate(&with(
            "  0: ADD TEMP[0], IN[0][0], IN[0][0]\n  1: MOV OUT[0], TEMP[0]\n  2: EMIT IN[0][0].xxxx\n"
        )));
        for other_lanes in [
            "  0: DDX TEMP[0], IN[0][0]\n",
            "  0: CLOCK TEMP[0].xy\n",
            "  0: READ_FIRST TEMP[0], IN[0][0]\n",
        ] {
            assert!(!lanes_replicate(&with(other_lanes)), "{other_lanes}");
        }
    }

    /// Runs go 32 side by side only where 32 lanes' emissions fit in what four lanes may
    /// hold.
    #[test]
    fn wide_runs_only_where_their_emissions_fit() {
        let with = |max: u32, outputs: usize| {
            let decls: String = (0..outputs)
                .map(|i| format!("DCL OUT[{i}], GENERIC[{i}]\n"))
                .collect();
            program(&format!(
                "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
                 PROPERTY GS_MAX_OUTPUT_VERTICES {max}\n{decls}  0: END\n"
            ))
        };
        assert!(wide_runs_fit(&with(24, 4)));
        assert!(wide_runs_fit(&with(1024, 32)));
        assert!(!wide_runs_fit(&with(1024, 33)));
        assert!(!wide_runs_fit(&with(1024, 64)));
    }

    /// Every geometry shader whose lanes may replicate lane 0 emits with its lanes used
    /// (replicas, or runs side by side: a whole wave of them and a partial one) exactly
    /// what it emits with lane 0 alone — vertices, primitives, streams — or fails alike
    /// (a small budget included), over primitives of varied inputs.
    #[test]
    fn replicated_lanes_emit_what_lane_0_alone_emits() {
        let files = geometry_shaders();
        let mut next = crate::test_support::xorshift(0x2545_f491);
        // Beside the files: a shader that emits its system values, over three invocations
        // (the corpus's read PRIMID as an input).
        let system_values = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE LINES\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 2\nPROPERTY GS_INVOCATIONS 3\nDCL IN[][0], POSITION\nDCL SV[0], PRIM_ID\nDCL SV[1], INVOCATIONID\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 1, 0, 0}\n  0: MOV OUT[0], IN[0][0]\n  1: UADD TEMP[0].x, SV[0].xxxx, SV[1].xxxx\n  2: MOV OUT[1].xy, TEMP[0].xxxx\n  3: MOV OUT[1].zw, SV[1].xxxx\n  4: EMIT IMM[0].xxxx\n  5: USLT TEMP[0].x, SV[1].xxxx, SV[0].xxxx\n  6: UIF TEMP[0].xxxx :8\n  7:   EMIT IMM[0].xxxx\n  8: ENDIF\n  9: END\n";
        let texts = files
            .iter()
            .map(|f| {
                (
                    f.display().to_string(),
                    std::fs::read_to_string(f).expect("readable"),
                )
            })
            .chain([("system values".to_string(), system_values.to_string())]);
        let mut compared = 0;
        for (f, text) in texts {
            let Ok(shader) = tgsi::parse(&text) else {
                continue;
            };
            let Ok(program) = Program::compile(&shader) else {
                continue;
            };
            let Some(info) = program.geometry.as_ref() else {
                continue;
            };
            if !lanes_replicate(&program) {
                continue;
            }
            let count = RUNS + 5;
            let vertices = count * info.input.vertices() as usize;
            let inputs: Vec<VertexInput> = (0..program.register_counts()[1])
                .map(|_| {
                    // Floats in [-2, 2) and small integers, vertex by vertex.
                    VertexInput::PerVertex(
                        (0..vertices)
                            .map(|_| {
                                let f = (next() % 4096) as f32 / 1024.0 - 2.0;
                                [f.to_bits(), next() % 8, (-f).to_bits(), next() % 3]
                            })
                            .collect(),
                    )
                })
                .collect();
            let constants = vec![
                (0..64)
                    .map(|i| [i % 5, 0x3f80_0000, 0x3f00_0000, 2])
                    .collect();
                4
            ];
            for budget in [DEFAULT_BUDGET, 40] {
                let opts = GeometryOptions {
                    count,
                    inputs: inputs.clone(),
                    constants: constants.clone(),
                    budget,
                    ..GeometryOptions::default()
                };
                let alone = run_geometry_lanes(&program, &opts, Lanes::Alone);
                for lanes in [Lanes::Replicas, Lanes::of(&program)] {
                    let run = run_geometry_lanes(&program, &opts, lanes);
                    assert_eq!(run, alone, "{f} {lanes:?} (budget {budget})");
                }
            }
            compared += 1;
        }
        assert!(compared >= 4, "only {compared} geometry shaders compared");
        println!(
            "{compared} of {} geometry shaders compared",
            files.len() + 1
        );
    }
}
