//! `tgsi bench VS.tgsi [TCS.tgsi] [TES.tgsi] [GS.tgsi]`: the speed of chained stages on the
//! interpreter. The whole draw — vertex shader, primitive assembly or tessellation,
//! geometry shader, capture of the last stage — runs once to warm up, then again and again
//! for at least `--min-time` seconds; the rate is primitives and vertices of the last stage
//! per second (decomposed as transform feedback captures them, and as Mesa's
//! `GL_PRIMITIVES_GENERATED` counts them), what `tools/stageref` measures on softpipe and
//! llvmpipe.

use std::time::Duration;

use super::bench::{repeat, BenchArgs};
use super::render::{compile, read_consts};
use super::run::parse_inputs;
use super::tessellation::chain;
use crate::input::{self, Failure};
use tgsi::Processor;
use tgsi_exec::assembly::decompose;
use tgsi_exec::{PipelineOptions, TessOptions, TessStages, VertexOptions};

/// Primitives and vertices the last stage produces per draw.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Work {
    primitives: u64,
    vertices: u64,
}

/// Runs `tgsi bench` on a chain (two to four files).
pub fn run(args: &BenchArgs, min_time: Duration) -> Result<(), Failure> {
    let mut programs = Vec::new();
    for file in &args.files {
        let input = input::read(file)?;
        programs.push((input.name.clone(), compile(&input, args.tokens)?));
    }
    let last = programs.last().map(|(n, _)| n.clone()).unwrap_or_default();
    let (inputs, file_count) = parse_inputs(&args.inputs)?;
    let count = args.count.or(file_count).ok_or_else(|| {
        Failure::Io("a chain needs --count N (vertices) or per-vertex --input files".into())
    })?;
    let constants = read_consts(args.consts.as_deref())?;
    let vertex = VertexOptions {
        count,
        inputs,
        constants: constants.clone(),
        ..VertexOptions::default()
    };
    let fail = |e: tgsi_exec::ExecError| {
        eprintln!("{last}: error: {e}");
        Failure::Invalid
    };
    let tessellated = programs
        .iter()
        .any(|(_, p)| matches!(p.processor, Processor::TessCtrl | Processor::TessEval));
    let mut work = Work::default();
    let (runs, elapsed) = if tessellated {
        let chain = chain(programs)?;
        let patch_vertices = args
            .patch_vertices
            .ok_or_else(|| Failure::Io("a tessellation chain needs --patch-vertices N".into()))?;
        let stages = TessStages {
            vertex: &chain.vertex.1,
            control: chain.control.as_ref().map(|c| &c.1),
            eval: &chain.eval.1,
            geometry: chain.geometry.as_ref().map(|g| &g.1),
        };
        let opts = TessOptions {
            patch_vertices,
            vertex,
            control_constants: constants.clone(),
            eval_constants: constants.clone(),
            geometry_constants: constants,
            ..TessOptions::default()
        };
        repeat(min_time, || {
            let out = tgsi_exec::run_tess_pipeline(&stages, &opts).map_err(fail)?;
            work = Work {
                primitives: out.primitives() as u64,
                vertices: out.vertices.len() as u64,
            };
            Ok(())
        })?
    } else {
        let [(_, vs), (_, gs)] = <[_; 2]>::try_from(programs).map_err(|p: Vec<_>| {
            Failure::Io(format!(
                "{} files without tessellation: a chain is VS GS (with --prim) or VS [TCS] TES \
                 [GS]",
                p.len()
            ))
        })?;
        let mode = super::geometry::draw_mode(args.prim.as_deref())?;
        let opts = PipelineOptions {
            mode,
            vertex,
            geometry_constants: constants,
            ..PipelineOptions::default()
        };
        repeat(min_time, || {
            let outs = tgsi_exec::run_pipeline(&vs, &gs, &opts).map_err(fail)?;
            work = Work::default();
            for out in &outs {
                let per = out.output_primitive.vertices().max(1) as usize;
                for p in &out.streams[0].primitives {
                    let vertices = decompose(out.output_primitive, p.vertices, false).len();
                    work.primitives += (vertices / per) as u64;
                    work.vertices += vertices as u64;
                }
            }
            Ok(())
        })?
    };
    let seconds = elapsed.as_secs_f64();
    let rate = |n: u64| n as f64 * runs as f64 / seconds;
    let (prims, verts) = (rate(work.primitives), rate(work.vertices));
    if args.json {
        println!(
            "{{\"engine\":\"interp\",\"threads\":1,\"primitives_per_s\":{prims:.1},\"vertices_per_s\":{verts:.1},\"primitives\":{},\"vertices\":{},\"runs\":{runs},\"seconds\":{seconds:.4}}}",
            work.primitives, work.vertices
        );
    } else {
        println!(
            "interp  threads 1: {:10.3} k primitives/s, {:10.3} k vertices/s ({} primitives, {} \
             vertices per draw; {runs} draws in {seconds:.2} s)",
            prims / 1e3,
            verts / 1e3,
            work.primitives,
            work.vertices
        );
    }
    Ok(())
}
