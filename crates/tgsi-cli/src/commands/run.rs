//! `tgsi run`: run a vertex shader over vertices on the reference interpreter
//! ([`tgsi_exec::run_vertices`]) and print every output register per vertex, or write them
//! all as raw little-endian words; a compute shader runs one dispatch, a geometry shader
//! goes to [`super::geometry`].
//!
//! Inputs come from files of little-endian f32 vec4s (one per vertex; the vertex count is
//! taken from them) or from inline constants; the system values VERTEXID, INSTANCEID,
//! BASEVERTEX and VERTEXID_NOBASE are provided.

use std::fmt::Write as _;

use super::render::{compile, input_index, read_consts, vec4};
use crate::engine::{self, EngineChoice};
use crate::input::{self, Failure};
use crate::resources::{write_outputs, ResourceArgs};
use tgsi::Processor;
use tgsi_exec::{VertexInput, VertexOptions, VertexOutputs};

/// Options of `tgsi run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// Vertex, geometry or compute shader (text or tokens); or chained stages: a vertex
    /// shader then a geometry shader (needs --prim), or a vertex shader, an optional
    /// tessellation control shader, a tessellation evaluation shader and an optional
    /// geometry shader (needs --patch-vertices).
    #[arg(required = true, num_args = 1..=4, value_name = "FILE")]
    pub files: Vec<String>,
    /// Chained stages: how the vertices form primitives (points, lines, line_strip,
    /// line_loop, triangles, triangle_strip, triangle_fan, lines_adjacency,
    /// line_strip_adjacency, triangles_adjacency, triangle_strip_adjacency).
    #[arg(long, value_name = "MODE")]
    pub prim: Option<String>,
    /// An input: `IN[0]=FILE` (f32 vec4 per vertex; for a geometry shader per input vertex,
    /// primitive after primitive) or `IN[1]=x,y,z,w` (floats or 0x words, same for all
    /// vertices). Repeatable.
    #[arg(long = "input", value_name = "IN[i]=FILE|x,y,z,w")]
    pub inputs: Vec<String>,
    /// Number of vertices, or of input primitives for a geometry shader (required when no
    /// input file gives it).
    #[arg(long)]
    pub count: Option<usize>,
    /// Constants file; with chained stages `vs=FILE`, `tcs=FILE`, `tes=FILE` or `gs=FILE`
    /// for one stage (a plain FILE is for every stage). Repeatable.
    #[arg(long, value_name = "[STAGE=]FILE")]
    pub consts: Vec<String>,
    /// INSTANCEID of a shader run alone (chains draw --instances instead).
    #[arg(long, default_value_t = 0)]
    pub instance: u32,
    /// Tessellation: vertices per patch (1-32); patch p is draw vertices p*N .. p*N+N-1.
    #[arg(long, value_name = "N")]
    pub patch_vertices: Option<usize>,
    /// Chained stages: instances to draw (INSTANCEID 0, 1, ...).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub instances: u32,
    /// Chained stages: an indexed draw, the vertex of each draw position: a list like
    /// 0,1,2,2,1,3 or a file of little-endian u32 words.
    #[arg(long, value_name = "LIST|FILE")]
    pub indices: Option<String>,
    /// Tessellation without a control shader: the default outer levels.
    #[arg(long, value_name = "X,Y,Z,W", default_value = super::tessellation::DEFAULT_OUTER)]
    pub tess_outer: String,
    /// Tessellation without a control shader: the default inner levels.
    #[arg(long, value_name = "X,Y", default_value = super::tessellation::DEFAULT_INNER)]
    pub tess_inner: String,
    /// Chained stages: the provoking vertex is the first (GL_FIRST_VERTEX_CONVENTION),
    /// which orders the vertices of strip and fan triangles differently, both those drawn
    /// and those a geometry shader emits.
    #[arg(long)]
    pub provoking_first: bool,
    /// BASEVERTEX, added to the vertex index for VERTEXID.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub base_vertex: i32,
    /// Instruction budget per wave of 16 vertices, per geometry-shader invocation or per
    /// compute workgroup (default: generous).
    #[arg(long)]
    pub budget: Option<u64>,
    /// Print raw 32-bit words in hex instead of floats.
    #[arg(long, conflicts_with = "output")]
    pub hex: bool,
    /// Write all outputs as raw little-endian u32 words instead of printing (`-` for
    /// stdout); for a geometry shader every emitted vertex of --stream.
    #[arg(short, long)]
    pub output: Option<String>,
    /// Geometry: the vertex stream (0-3) that -o and --primitives write.
    #[arg(long, default_value_t = 0)]
    pub stream: usize,
    /// Geometry: write one little-endian u32 per emitted primitive of --stream, its vertex
    /// count (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub primitives: Option<String>,
    /// Treat the input as a token stream.
    #[arg(long)]
    pub tokens: bool,
    /// Executor of a vertex shader run on its own: the Cranelift JIT (with a note when it
    /// falls back to the interpreter) or the reference interpreter, identical results; or
    /// `gpu`: the naga translation on a Vulkan device (a vertex shader as a compute shader
    /// over storage buffers). Geometry and compute shaders and chains run on the
    /// interpreter, except that `gpu` dispatches a compute shader on a Vulkan device and
    /// runs a geometry shader (alone or behind a vertex shader) as a compute shader
    /// recording what it emits, and runs tessellation chains with the control and
    /// evaluation shaders as compute shaders around the interpreter's tessellator.
    #[arg(long, value_enum, default_value = "jit")]
    pub engine: EngineChoice,
    #[command(flatten)]
    pub math: engine::MathArgs,
    #[command(flatten)]
    pub dispatch: DispatchArgs,
    /// Compute: worker threads for workgroups (1 reproduces softpipe's order exactly; 0 =
    /// all cores; results that depend on the order of atomics may then differ).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub resources: ResourceArgs,
}

/// Shared memory given to a compute shader that declares MEMORY when nothing says how much
/// (GL's minimum `MAX_COMPUTE_SHARED_MEMORY_SIZE`).
const DEFAULT_SHARED_BYTES: usize = 32768;

/// `X,Y,Z` → three positive integers.
fn dims(text: &str, what: &str) -> Result<[u32; 3], Failure> {
    let parts: Vec<Option<u32>> = text.split(',').map(|p| p.trim().parse().ok()).collect();
    match parts.as_slice() {
        [Some(x), Some(y), Some(z)] => Ok([*x, *y, *z]),
        _ => Err(Failure::Io(format!(
            "{what} must be three integers like 4,2,1, got '{text}'"
        ))),
    }
}

/// The dispatch options shared by `tgsi run` and `tgsi bench`.
#[derive(clap::Args)]
pub struct DispatchArgs {
    /// Compute: workgroups in x,y,z (default: the bindings file's `grid`, else 1,1,1).
    #[arg(long, value_name = "X,Y,Z")]
    pub grid: Option<String>,
    /// Compute: threads per workgroup (default: the bindings file's `block`, else 1,1,1;
    /// the shader's CS_FIXED_BLOCK_* properties win).
    #[arg(long, value_name = "X,Y,Z")]
    pub block: Option<String>,
    /// Compute: bytes of shared memory per workgroup (default: the bindings file's
    /// `req_local_mem`, else 32768 when the shader declares MEMORY).
    #[arg(long)]
    pub shared_bytes: Option<usize>,
    /// Compute: run every shader on softpipe's 4-lane machines. By default a dispatch whose
    /// results provably do not depend on the order of invocations between barriers runs
    /// in 32-lane waves (same results, faster); this flag turns that off.
    #[arg(long)]
    pub softpipe_waves: bool,
}

impl DispatchArgs {
    /// The dispatch these options, the bindings and the shader ask for (threads and budget
    /// at their defaults).
    pub(crate) fn options<'a>(
        &self,
        shader: &tgsi::Shader,
        bindings: &'a tgsi_exec::bindings::Bindings,
        constants: Vec<Vec<[u32; 4]>>,
    ) -> Result<tgsi_exec::ComputeOptions<'a>, Failure> {
        let grid = match &self.grid {
            Some(g) => dims(g, "--grid")?,
            None => bindings.grid.unwrap_or([1, 1, 1]),
        };
        let block = match &self.block {
            Some(b) => dims(b, "--block")?,
            None => bindings.block.unwrap_or([1, 1, 1]),
        };
        let declares_memory = shader
            .declarations
            .iter()
            .any(|d| d.file == tgsi::File::Memory);
        let shared_bytes = self
            .shared_bytes
            .or(bindings.req_local_mem.map(|b| b as usize))
            .unwrap_or(if declares_memory {
                DEFAULT_SHARED_BYTES
            } else {
                0
            });
        Ok(tgsi_exec::ComputeOptions {
            grid,
            block,
            constants,
            resources: &bindings.resources,
            shared_bytes,
            softpipe_waves: self.softpipe_waves,
            ..tgsi_exec::ComputeOptions::default()
        })
    }
}

/// `tgsi run` of a compute shader: one dispatch, then the bindings' output files.
fn run_compute(
    args: &RunArgs,
    program: &tgsi_exec::Program,
    shader: &tgsi::Shader,
    name: &str,
) -> Result<(), Failure> {
    let bindings = args.resources.load(shader)?;
    let mut options = args
        .dispatch
        .options(shader, &bindings, stage_consts(args, "cs")?)?;
    options.threads = args.threads;
    if let Some(budget) = args.budget {
        options.budget = budget;
    }
    if args.engine == EngineChoice::Gpu {
        let gpu = crate::gpu::open()?;
        let [bx, by, bz] = tgsi_gpu::run_compute(&gpu, shader, program, &options)
            .map_err(|e| crate::gpu::failed(name, e))?;
        write_outputs(&bindings)?;
        let [gx, gy, gz] = options.grid;
        eprintln!(
            "{name}: {} workgroups of {bx}x{by}x{bz} on {}",
            u64::from(gx) * u64::from(gy) * u64::from(gz),
            gpu.name()
        );
        return Ok(());
    }
    let (engine, _) = engine::prepare(args.engine, args.math, program, name)?;
    let stats = tgsi_exec::run_compute_with(engine.wave(), &options).map_err(|e| {
        eprintln!("{name}: error: {e}");
        Failure::Invalid
    })?;
    write_outputs(&bindings)?;
    let [bx, by, bz] = stats.block;
    let why = match tgsi_exec::wave_width::order_dependence(program, &options, stats.block) {
        _ if options.softpipe_waves => " (--softpipe-waves)".to_string(),
        Some(why) => format!(" (softpipe's order: {why})"),
        None => String::new(),
    };
    eprintln!(
        "{name}: {} workgroups of {bx}x{by}x{bz}, {} invocations, {} instructions in {}-lane waves{why}",
        stats.workgroups, stats.invocations, stats.instructions, stats.wave_lanes
    );
    Ok(())
}

/// Bytes per vertex in an input file: one f32 vec4.
const VEC4_BYTES: usize = 16;

/// An input file's vec4s, or an error naming the file.
fn read_vectors(path: &str) -> Result<Vec<[u32; 4]>, Failure> {
    let bytes = input::read(path)?.bytes;
    if bytes.len() % VEC4_BYTES != 0 {
        return Err(Failure::Io(format!(
            "{path}: {} bytes is not a whole number of vec4s ({VEC4_BYTES} bytes each: \
             little-endian f32 x, y, z, w per vertex)",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(VEC4_BYTES)
        .map(|v| std::array::from_fn(|c| u32::from_le_bytes([0, 1, 2, 3].map(|b| v[4 * c + b]))))
        .collect())
}

/// The `--input` values and the vertex count: from the per-vertex input files, else from
/// `--count`, and both must agree.
pub(super) fn vertex_inputs(args: &RunArgs) -> Result<(Vec<VertexInput>, usize), Failure> {
    let (inputs, file_count) = parse_inputs(&args.inputs)?;
    let count = match (file_count, args.count) {
        (Some(n), Some(c)) if n != c => {
            return Err(Failure::Io(format!(
                "--count {c} disagrees with the input files, which hold {n} vertices"
            )))
        }
        (Some(n), _) | (None, Some(n)) => n,
        (None, None) => {
            return Err(Failure::Io(
                "no input file gives the vertex count: pass --count N".into(),
            ))
        }
    };
    Ok((inputs, count))
}

/// The inputs by register index (gaps read 0) and the vertex count the files give, if any.
pub(super) fn parse_inputs(specs: &[String]) -> Result<(Vec<VertexInput>, Option<usize>), Failure> {
    let mut inputs: Vec<Option<VertexInput>> = Vec::new();
    // (file, vertex count) of the first file input, to check the others against.
    let mut counted: Option<(String, usize)> = None;
    for spec in specs {
        let bad = || {
            Failure::Io(format!(
                "--input must look like IN[0]=FILE or IN[1]=x,y,z,w, got '{spec}'"
            ))
        };
        let (reg, value) = spec.split_once('=').ok_or_else(bad)?;
        let index = input_index(reg).ok_or_else(bad)?;
        let input = if value.contains(',') {
            VertexInput::Constant(vec4(value, "--input")?)
        } else {
            let vectors = read_vectors(value)?;
            match &counted {
                Some((first, n)) if *n != vectors.len() => {
                    return Err(Failure::Io(format!(
                        "input files disagree on the vertex count: {first} has {n} vertices, \
                         {value} has {}",
                        vectors.len()
                    )))
                }
                Some(_) => {}
                None => counted = Some((value.to_string(), vectors.len())),
            }
            VertexInput::PerVertex(vectors)
        };
        if inputs.len() <= index {
            inputs.resize_with(index + 1, || None);
        }
        if inputs[index].replace(input).is_some() {
            return Err(Failure::Io(format!("IN[{index}] is given more than once")));
        }
    }
    let inputs = inputs
        .into_iter()
        .map(|i| i.unwrap_or(VertexInput::Constant([0; 4])))
        .collect();
    Ok((inputs, counted.map(|(_, n)| n)))
}

/// One line per vertex and output: `vertex 0 OUT[0] POSITION: 1.0000 2.0000 3.0000 1.0000`
/// (or `0x3f800000 …` with `hex`).
fn table(outputs: &VertexOutputs, hex: bool) -> String {
    let mut text = String::new();
    for (v, values) in outputs.values.iter().enumerate() {
        for (decl, value) in outputs.decls.iter().zip(values) {
            let _ = write!(text, "vertex {v} {decl}:");
            push_value(&mut text, value, hex);
        }
    }
    text
}

/// One register's four words as ` 1.0000 …` (or ` 0x3f800000 …` with `hex`), then a
/// newline. Shared with the geometry table.
pub(super) fn push_value(text: &mut String, value: &[u32; 4], hex: bool) {
    for w in value {
        let _ = if hex {
            write!(text, " 0x{w:08x}")
        } else {
            write!(text, " {:.4}", f32::from_bits(*w))
        };
    }
    text.push('\n');
}

/// The constants for `stage` (`vs`, `tcs`, `tes`, `gs`, `cs`): the last
/// `--consts STAGE=FILE` or plain `--consts FILE`.
pub(super) fn stage_consts(args: &RunArgs, stage: &str) -> Result<Vec<Vec<[u32; 4]>>, Failure> {
    let path = args
        .consts
        .iter()
        .rev()
        .find_map(|c| match c.split_once('=') {
            Some((s, file)) if s.eq_ignore_ascii_case(stage) => Some(file),
            Some((s, _)) if STAGES.iter().any(|k| s.eq_ignore_ascii_case(k)) => None,
            _ => Some(c.as_str()),
        });
    read_consts(path)
}

/// The stage names `--consts STAGE=FILE` knows.
const STAGES: [&str; 5] = ["vs", "tcs", "tes", "gs", "cs"];

/// Runs `tgsi run`.
pub fn run(args: &RunArgs) -> Result<(), Failure> {
    args.math.check(args.engine)?;
    if args.files.len() >= 2 {
        return super::tessellation::run_chained(args);
    }
    super::tessellation::refuse_tess_options(args, true)?;
    if args.prim.is_some() {
        return Err(Failure::Io(
            "--prim is for chained stages: tgsi run VS.tgsi GS.tgsi --prim MODE".into(),
        ));
    }
    let input = input::read(&args.files[0])?;
    let program = compile(&input, args.tokens)?;
    let shader = input.shader(args.tokens)?;
    if program.processor == Processor::Compute {
        return run_compute(args, &program, &shader, &input.name);
    }
    if program.processor == Processor::Geometry {
        return super::geometry::run(args, &program, &shader, &input.name);
    }
    if program.processor != Processor::Vertex {
        eprintln!(
            "{}: error: tgsi run needs a vertex (VERT), geometry (GEOM) or compute (COMP) \
             shader, not {}{}",
            input.name,
            program.processor,
            match program.processor {
                Processor::Fragment => "; use tgsi render for fragment shaders",
                Processor::TessCtrl | Processor::TessEval => {
                    "; tessellation shaders run chained: tgsi run VS.tgsi [TCS.tgsi] TES.tgsi \
                     [GS.tgsi] --patch-vertices N"
                }
                _ => "",
            }
        );
        return Err(Failure::Invalid);
    }
    let (inputs, count) = vertex_inputs(args)?;
    let constants = stage_consts(args, "vs")?;
    let bindings = args.resources.load(&shader)?;
    let mut options = VertexOptions {
        count,
        inputs,
        constants,
        instance_id: args.instance,
        base_vertex: args.base_vertex,
        resources: bindings.resources.clone(),
        ..VertexOptions::default()
    };
    if let Some(budget) = args.budget {
        options.budget = budget;
    }
    let outputs = if args.engine == EngineChoice::Gpu {
        let gpu = crate::gpu::open()?;
        tgsi_gpu::run_vertices(&gpu, &shader, &program, &options)
            .map_err(|e| crate::gpu::failed(&input.name, e))?
    } else {
        let (engine, _) = engine::prepare(args.engine, args.math, &program, &input.name)?;
        tgsi_exec::run_vertices_with(engine.wave(), &options).map_err(|e| {
            eprintln!("{}: error: {e}", input.name);
            Failure::Invalid
        })?
    };
    write_outputs(&bindings)?;
    match &args.output {
        Some(path) => input::write(path, &outputs.to_le_bytes()),
        None => input::write("-", table(&outputs, args.hex).as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_inline_inputs() {
        let specs = ["IN[2]=1,0.5,0,0x7fc00000".to_string()];
        let (inputs, count) = parse_inputs(&specs).expect("valid specs");
        assert_eq!(count, None);
        assert_eq!(inputs.len(), 3);
        assert_eq!(inputs[0], VertexInput::Constant([0; 4]));
        assert_eq!(
            inputs[2],
            VertexInput::Constant([0x3f80_0000, 0x3f00_0000, 0, 0x7fc0_0000])
        );
        let twice = ["IN[0]=1,2,3,4".to_string(), "IN[0]=1,2,3,4".to_string()];
        assert!(parse_inputs(&twice).is_err());
        assert!(parse_inputs(&["OUT[0]=1,2,3,4".to_string()]).is_err());
    }
}
