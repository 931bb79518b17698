//! `tgsi run` of a geometry shader: input primitives from `--input` files (one f32 vec4 per
//! input vertex, primitive after primitive) or constants, run with
//! [`tgsi_exec::run_geometry`] (or, `--engine gpu`, [`tgsi_gpu::run_geometry`]); prints
//! every emitted primitive of every stream with its vertices' outputs, or writes one
//! stream's vertices (`-o`) and primitive lengths (`--primitives`) as raw little-endian u32
//! words. Chained with a vertex shader ([`tgsi_exec::run_pipeline`], or both stages on the
//! GPU with `--engine gpu`), `-o` writes the stream as transform feedback captures it.

use std::fmt::Write as _;

use super::render::compile;
use super::run::{parse_inputs, push_value, stage_consts, vertex_inputs, RunArgs};
use super::tessellation::read_indices;
use crate::engine::EngineChoice;
use crate::input::{self, Failure};
use crate::resources::write_outputs;
use tgsi_exec::{GeometryOptions, GeometryOutputs, Program};

/// Every emitted primitive: a header line, then one line per vertex and output register.
fn table(outputs: &GeometryOutputs, hex: bool) -> String {
    let mut text = String::new();
    let kind = outputs.output_primitive.name().to_ascii_lowercase();
    for (s, stream) in outputs.streams.iter().enumerate() {
        for (k, p) in stream.primitives.iter().enumerate() {
            let _ = writeln!(
                text,
                "stream {s} primitive {k} ({kind}, input primitive {}, invocation {}): {} \
                 vertices",
                p.input, p.invocation, p.vertices
            );
            for v in 0..p.vertices as usize {
                let values = outputs.vertex(s, p.first + v);
                for (decl, value) in outputs.decls.iter().zip(values) {
                    let _ = write!(text, "  vertex {v} {decl}:");
                    push_value(&mut text, value, hex);
                }
            }
        }
    }
    text
}

/// Runs `tgsi run` for a geometry shader.
pub fn run(
    args: &RunArgs,
    program: &Program,
    shader: &tgsi::Shader,
    name: &str,
) -> Result<(), Failure> {
    let Some(info) = &program.geometry else {
        return Err(Failure::Invalid);
    };
    if args.stream > 3 {
        return Err(Failure::Io(format!(
            "--stream {} names no vertex stream (0 to 3)",
            args.stream
        )));
    }
    let per_prim = info.input.vertices() as usize;
    let (inputs, file_vertices) = parse_inputs(&args.inputs)?;
    let count = match (file_vertices, args.count) {
        (Some(n), Some(c)) if n < c.saturating_mul(per_prim) => {
            return Err(Failure::Io(format!(
                "--count {c} needs {} vertices of {} primitives, the input files hold {n}",
                c.saturating_mul(per_prim),
                info.input
            )))
        }
        (_, Some(c)) => c,
        (Some(n), None) if n % per_prim == 0 => n / per_prim,
        (Some(n), None) => {
            return Err(Failure::Io(format!(
                "the input files hold {n} vertices, not a whole number of {} primitives \
                 ({per_prim} vertices each)",
                info.input
            )))
        }
        (None, None) => {
            return Err(Failure::Io(
                "no input file gives the primitive count: pass --count N".into(),
            ))
        }
    };
    let bindings = args.resources.load(shader)?;
    let mut options = GeometryOptions {
        count,
        inputs,
        constants: stage_consts(args, "gs")?,
        resources: bindings.resources.clone(),
        ..GeometryOptions::default()
    };
    if let Some(budget) = args.budget {
        options.budget = budget;
    }
    let outputs = if args.engine == EngineChoice::Gpu {
        let gpu = crate::gpu::open()?;
        tgsi_gpu::run_geometry(&gpu, shader, program, &options)
            .map_err(|e| crate::gpu::failed(name, e))?
    } else {
        tgsi_exec::run_geometry(program, &options).map_err(|e| {
            eprintln!("{name}: error: {e}");
            Failure::Invalid
        })?
    };
    write_outputs(&bindings)?;
    let invocations = info.invocations;
    eprintln!("{name}: {count} input primitives × {invocations} invocation(s): {outputs}");
    if let Some(path) = &args.primitives {
        input::write(path, &outputs.primitive_lengths_le_bytes(args.stream))?;
    }
    match &args.output {
        Some(path) => input::write(path, &outputs.to_le_bytes(args.stream)),
        None if args.primitives.as_deref() == Some("-") => Ok(()),
        None => input::write("-", table(&outputs, args.hex).as_bytes()),
    }
}

/// Runs `tgsi run VS GS --prim MODE`: the vertex shader over the vertices, primitive
/// assembly (`--indices`, `--provoking-first`), the geometry shader, `--instances` times;
/// prints like a geometry run (per instance when there are several), and `-o` writes the
/// stream decomposed into independent primitives, as transform feedback captures it.
pub fn run_chained(args: &RunArgs) -> Result<(), Failure> {
    let [vs_file, gs_file] = [&args.files[0], &args.files[1]];
    let vs_input = input::read(vs_file)?;
    let gs_input = input::read(gs_file)?;
    let vs = compile(&vs_input, args.tokens)?;
    let gs = compile(&gs_input, args.tokens)?;
    let stages = (vs.processor, gs.processor);
    if stages != (tgsi::Processor::Vertex, tgsi::Processor::Geometry) {
        eprintln!(
            "error: chained stages must be a vertex then a geometry shader, not {} then {}",
            stages.0, stages.1
        );
        return Err(Failure::Invalid);
    }
    if args.stream > 3 {
        return Err(Failure::Io(format!(
            "--stream {} names no vertex stream (0 to 3)",
            args.stream
        )));
    }
    if args.instance != 0 {
        return Err(Failure::Io(
            "--instance is for a shader run alone; a chain draws --instances N".into(),
        ));
    }
    let mode = draw_mode(args.prim.as_deref())?;
    let (inputs, count) = vertex_inputs(args)?;
    let vs_shader = vs_input.shader(args.tokens)?;
    let bindings = args.resources.load(&vs_shader)?;
    let mut vertex = tgsi_exec::VertexOptions {
        count,
        inputs,
        constants: stage_consts(args, "vs")?,
        base_vertex: args.base_vertex,
        resources: bindings.resources.clone(),
        ..tgsi_exec::VertexOptions::default()
    };
    if let Some(budget) = args.budget {
        vertex.budget = budget;
    }
    let options = tgsi_exec::PipelineOptions {
        mode,
        vertex,
        indices: args.indices.as_deref().map(read_indices).transpose()?,
        instances: args.instances,
        provoking_first: args.provoking_first,
        geometry_constants: stage_consts(args, "gs")?,
    };
    let instances = if args.engine == EngineChoice::Gpu {
        let gpu = crate::gpu::open()?;
        let gs_shader = gs_input.shader(args.tokens)?;
        tgsi_gpu::run_pipeline(&gpu, (&vs_shader, &vs), (&gs_shader, &gs), &options)
            .map_err(|e| crate::gpu::failed(&gs_input.name, e))?
    } else {
        tgsi_exec::run_pipeline(&vs, &gs, &options).map_err(|e| {
            eprintln!("{}: error: {e}", gs_input.name);
            Failure::Invalid
        })?
    };
    write_outputs(&bindings)?;
    let drawn = options.indices.as_ref().map_or(count, Vec::len);
    for (i, outputs) in instances.iter().enumerate() {
        let of = if instances.len() > 1 {
            format!(" (instance {i})")
        } else {
            String::new()
        };
        eprintln!(
            "{}: {drawn} vertices as {mode}{of}: {outputs}",
            gs_input.name
        );
    }
    let concat = |bytes: &dyn Fn(&GeometryOutputs) -> Vec<u8>| -> Vec<u8> {
        instances.iter().flat_map(bytes).collect()
    };
    if let Some(path) = &args.primitives {
        input::write(
            path,
            &concat(&|o| o.primitive_lengths_le_bytes(args.stream)),
        )?;
    }
    match &args.output {
        Some(path) => input::write(
            path,
            &concat(&|o| o.captured_le_bytes(args.stream, args.provoking_first)),
        ),
        None if args.primitives.as_deref() == Some("-") => Ok(()),
        None => {
            let several = instances.len() > 1;
            let text: String = instances
                .iter()
                .enumerate()
                .map(|(i, o)| match several {
                    true => format!("instance {i}\n{}", table(o, args.hex)),
                    false => table(o, args.hex),
                })
                .collect();
            input::write("-", text.as_bytes())
        }
    }
}

/// The `--prim` of a VS GS chain: a draw mode that feeds a geometry shader.
pub(super) fn draw_mode(name: Option<&str>) -> Result<tgsi::Primitive, Failure> {
    let Some(name) = name else {
        return Err(Failure::Io("chained stages need --prim MODE".into()));
    };
    tgsi::Primitive::from_name(&name.to_ascii_uppercase())
        .filter(|m| tgsi_exec::assembly::input_primitive(*m).is_some())
        .ok_or_else(|| Failure::Io(format!("--prim {name}: unknown draw mode")))
}
