//! `tgsi run VS.tgsi [TCS.tgsi] TES.tgsi [GS.tgsi] --patch-vertices N`: a tessellation
//! chain on the reference interpreter ([`tgsi_exec::run_tess_pipeline`]) or, with
//! `--engine gpu`, every shader on the GPU ([`tgsi_gpu::run_tess_pipeline`]). Each file's
//! processor header says which stage it is. The vertex shader runs over the vertex buffer
//! (`--input` files, or `--count`), the draw takes its vertices in order or through
//! `--indices`, `--instances` times; prints every captured primitive with its vertices'
//! outputs, or writes them (`-o`) as transform feedback captures the last stage.

use std::fmt::Write as _;

use super::render::compile;
use super::run::{push_value, stage_consts, vertex_inputs, RunArgs};
use crate::engine::EngineChoice;
use crate::input::{self, Failure};
use crate::resources::write_outputs;
use tgsi::Processor;
use tgsi_exec::tessellation::Levels;
use tgsi_exec::{CapturedOutputs, Program, TessOptions, TessStages};

/// Every captured primitive: a header line, then one line per vertex and output register.
fn table(outputs: &CapturedOutputs, hex: bool) -> String {
    let mut text = String::new();
    let kind = outputs.primitive.name().to_ascii_lowercase();
    let per = outputs.vertices_per_primitive();
    let vertices: Vec<&[[u32; 4]]> = outputs.vertices.iter().collect();
    for (k, prim) in vertices.chunks(per).enumerate() {
        let _ = writeln!(text, "primitive {k} ({kind}): {} vertices", prim.len());
        for (v, values) in prim.iter().enumerate() {
            for (decl, value) in outputs.decls.iter().zip(values.iter()) {
                let _ = write!(text, "  vertex {v} {decl}:");
                push_value(&mut text, value, hex);
            }
        }
    }
    text
}

/// `--indices`: a comma-separated list (`0,1,2`) or a file of little-endian u32 words.
pub(super) fn read_indices(spec: &str) -> Result<Vec<u32>, Failure> {
    let list = spec.contains(',') || spec.trim().parse::<u32>().is_ok();
    if list {
        return spec
            .split(',')
            .map(|s| {
                s.trim().parse::<u32>().map_err(|_| {
                    Failure::Io(format!(
                        "--indices must be a list of vertex indices like 0,1,2 or a file of \
                         little-endian u32 words, got '{spec}'"
                    ))
                })
            })
            .collect();
    }
    let bytes = input::read(spec)?.bytes;
    if bytes.len() % 4 != 0 {
        return Err(Failure::Io(format!(
            "{spec}: {} bytes is not a whole number of little-endian u32 indices",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect())
}

/// `x,y,…` → `N` floats (the default levels).
fn levels<const N: usize>(text: &str, what: &str) -> Result<[f32; N], Failure> {
    let values: Vec<f32> = text
        .split(',')
        .map(|p| p.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            Failure::Io(format!(
                "{what} must be {N} numbers like 2,3.5, got '{text}'"
            ))
        })?;
    values
        .try_into()
        .map_err(|_| Failure::Io(format!("{what} must be {N} numbers, got '{text}'")))
}

/// A chain's stages by role (programs, or shaders with their programs).
pub(super) struct Chain<T> {
    pub vertex: T,
    pub control: Option<T>,
    pub eval: T,
    pub geometry: Option<T>,
}

/// Sort `stages` (in command-line order, each with its compiled program) into a VS [TCS]
/// TES [GS] chain.
pub(super) fn chain<T>(stages: Vec<(T, Program)>) -> Result<Chain<(T, Program)>, Failure> {
    let order: Vec<Processor> = stages.iter().map(|(_, p)| p.processor).collect();
    let bad = || {
        let names: Vec<String> = order.iter().map(ToString::to_string).collect();
        eprintln!(
            "error: a tessellation chain is VERT [TESS_CTRL] TESS_EVAL [GEOM], not {}",
            names.join(" then ")
        );
        Failure::Invalid
    };
    let is = |want: Processor| move |s: &(T, Program)| s.1.processor == want;
    let mut it = stages.into_iter().peekable();
    let vertex = it.next().filter(is(Processor::Vertex)).ok_or_else(bad)?;
    let control = it.next_if(is(Processor::TessCtrl));
    let eval = it.next().filter(is(Processor::TessEval)).ok_or_else(bad)?;
    let geometry = it.next_if(is(Processor::Geometry));
    if it.next().is_some() {
        return Err(bad());
    }
    Ok(Chain {
        vertex,
        control,
        eval,
        geometry,
    })
}

/// A stage's shader and program, as the GPU engine takes them.
fn pair(stage: &((String, tgsi::Shader), Program)) -> (&tgsi::Shader, &Program) {
    (&stage.0 .1, &stage.1)
}

/// Runs `tgsi run` with several files: a tessellation chain when any file is a
/// tessellation shader, else the vertex → geometry chain.
pub fn run_chained(args: &RunArgs) -> Result<(), Failure> {
    let mut programs = Vec::new();
    for file in &args.files {
        let input = input::read(file)?;
        let program = compile(&input, args.tokens)?;
        programs.push(((input.name.clone(), input.shader(args.tokens)?), program));
    }
    let tessellated = programs
        .iter()
        .any(|(_, p)| matches!(p.processor, Processor::TessCtrl | Processor::TessEval));
    if !tessellated {
        if programs.len() != 2 {
            eprintln!(
                "error: {} chained stages without tessellation: only VS GS (--prim) chains \
                 have two, tessellation chains are VS [TCS] TES [GS]",
                programs.len()
            );
            return Err(Failure::Invalid);
        }
        refuse_tess_options(args, false)?;
        return super::geometry::run_chained(args);
    }
    let misplaced = [
        ("--prim", args.prim.is_some()),
        ("--instance", args.instance != 0),
        ("--stream", args.stream != 0),
        ("--primitives", args.primitives.is_some()),
    ];
    if let Some((name, _)) = misplaced.iter().find(|(_, set)| *set) {
        return Err(Failure::Io(format!(
            "{name} does not apply to a tessellation chain (it draws --patch-vertices N \
             patches, --instances K times, and captures stream 0)"
        )));
    }
    let last = programs
        .last()
        .map(|((n, _), _)| n.clone())
        .unwrap_or_default();
    let chain = chain(programs)?;
    let Some(patch_vertices) = args.patch_vertices else {
        return Err(Failure::Io(
            "a tessellation chain needs --patch-vertices N (vertices per patch)".into(),
        ));
    };
    let (inputs, count) = vertex_inputs(args)?;
    let bindings = args.resources.load(&chain.vertex.0 .1)?;
    let mut opts = TessOptions {
        patch_vertices,
        instances: args.instances,
        indices: args.indices.as_deref().map(read_indices).transpose()?,
        default_levels: Levels::from_floats(
            levels::<4>(&args.tess_outer, "--tess-outer")?,
            levels::<2>(&args.tess_inner, "--tess-inner")?,
        ),
        control_constants: stage_consts(args, "tcs")?,
        eval_constants: stage_consts(args, "tes")?,
        geometry_constants: stage_consts(args, "gs")?,
        provoking_first: args.provoking_first,
        ..TessOptions::default()
    };
    opts.vertex = tgsi_exec::VertexOptions {
        count,
        inputs,
        constants: stage_consts(args, "vs")?,
        base_vertex: args.base_vertex,
        resources: bindings.resources.clone(),
        ..tgsi_exec::VertexOptions::default()
    };
    if let Some(budget) = args.budget {
        opts.vertex.budget = budget;
    }
    let outputs = if args.engine == EngineChoice::Gpu {
        let gpu = crate::gpu::open()?;
        let shaders = tgsi_gpu::TessShaders {
            vertex: pair(&chain.vertex),
            control: chain.control.as_ref().map(pair),
            eval: pair(&chain.eval),
            geometry: chain.geometry.as_ref().map(pair),
        };
        tgsi_gpu::run_tess_pipeline(&gpu, &shaders, &opts)
            .map_err(|e| crate::gpu::failed(&last, e))?
    } else {
        let stages = TessStages {
            vertex: &chain.vertex.1,
            control: chain.control.as_ref().map(|c| &c.1),
            eval: &chain.eval.1,
            geometry: chain.geometry.as_ref().map(|g| &g.1),
        };
        tgsi_exec::run_tess_pipeline(&stages, &opts).map_err(|e| {
            eprintln!("{last}: error: {e}");
            Failure::Invalid
        })?
    };
    write_outputs(&bindings)?;
    eprintln!("{last}: {outputs}");
    match &args.output {
        Some(path) => input::write(path, &outputs.to_le_bytes()),
        None => input::write("-", table(&outputs, args.hex).as_bytes()),
    }
}

/// An error naming the first option `args` sets that the run does not take: the
/// tessellation options outside tessellation chains, and also the draw options
/// (`--instances`, `--indices`, `--provoking-first`) when `single` (one shader, no draw).
pub fn refuse_tess_options(args: &RunArgs, single: bool) -> Result<(), Failure> {
    let tess = [
        ("--patch-vertices", args.patch_vertices.is_some()),
        ("--tess-outer", args.tess_outer != DEFAULT_OUTER),
        ("--tess-inner", args.tess_inner != DEFAULT_INNER),
    ];
    if let Some((name, _)) = tess.iter().find(|(_, set)| *set) {
        return Err(Failure::Io(format!(
            "{name} is for tessellation chains: tgsi run VS.tgsi [TCS.tgsi] TES.tgsi \
             [GS.tgsi] --patch-vertices N"
        )));
    }
    let draw = [
        ("--instances", args.instances != 1),
        ("--indices", args.indices.is_some()),
        ("--provoking-first", args.provoking_first),
    ];
    match draw.iter().find(|(_, set)| *set && single) {
        Some((name, _)) => Err(Failure::Io(format!(
            "{name} is for chained stages: tgsi run VS.tgsi GS.tgsi --prim MODE, or a \
             tessellation chain"
        ))),
        None => Ok(()),
    }
}

/// The default `--tess-outer` and `--tess-inner` text (GL's default patch levels).
pub const DEFAULT_OUTER: &str = "1,1,1,1";
/// See [`DEFAULT_OUTER`].
pub const DEFAULT_INNER: &str = "1,1";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_indices_and_levels() {
        assert_eq!(read_indices("3, 4,5").ok(), Some(vec![3, 4, 5]));
        assert_eq!(read_indices("7").ok(), Some(vec![7]));
        assert!(read_indices("1,x").is_err());
        assert_eq!(levels::<2>("2,3.5", "--tess-inner").ok(), Some([2.0, 3.5]));
        assert!(levels::<4>("1,2,3", "--tess-outer").is_err());
    }
}
