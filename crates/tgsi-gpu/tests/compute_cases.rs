//! Every compute reference case (`csref`: the shared corpus's, tgsi-exec's and the `matmul`
//! benchmark) dispatched on the GPU and by the interpreter with the same bindings: every
//! resource must end with the same bytes, except the cases of [`EXPLAINED`]. Cases the GPU
//! engine cannot run are counted and listed with the reason. Skips without an adapter.

mod common;
#[path = "../../tgsi-cli/tests/support/reference_bindings.rs"]
mod reference_bindings;

use std::path::Path;

use reference_bindings::csref_bindings;
use tgsi_exec::{parse_consts, ComputeOptions, Program};

/// Cases whose results may differ on lavapipe, and why.
const EXPLAINED: &[(&str, &str)] = &[
    (
        "ssbo-robust-resq",
        "an atomic counter's return values depend on the order invocations run in",
    ),
    (
        "sysvals-odd-block",
        "each record's w is an atomicAdd's return value, which depends on the order \
         invocations run in (the case's SOURCE says so): identical when lavapipe runs them in \
         softpipe's order, as it usually does on an idle machine",
    ),
    (
        "ssbo-atomics-contended",
        "the compare-exchange chain word and the returned values depend on the order \
         invocations run in (the case's SOURCE says so); the totals — sum, or, signed min and \
         max, xor, histogram — are the interpreter's",
    ),
    (
        "image-formats-load-store",
        "stores to an RGBA16F image of values beyond the half range (llvmpipe's conversion)",
    ),
];

/// One case's outcome.
enum Outcome {
    Same,
    Differ(String),
    NotRun(String),
}

/// Dispatches one case on both engines and compares every resource.
fn run_case(gpu: &tgsi_gpu::Gpu, dir: &Path) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(dir.join("shader.tgsi")).map_err(|e| e.to_string())?;
    let shader = tgsi::parse(&text).map_err(|e| e.to_string())?;
    let program = Program::compile(&shader).map_err(|e| e.to_string())?;
    let constants = match std::fs::read_to_string(dir.join("consts.txt")) {
        Ok(t) => parse_consts(&t).map_err(|e| e.to_string())?,
        Err(_) => Vec::new(),
    };
    let doc = csref_bindings(dir, None)
        .ok_or("bindings.json unreadable")?
        .to_string();
    let load = || tgsi_exec::bindings::parse(&doc, dir).map_err(|e| e.to_string());
    let (cpu, on_gpu) = (load()?, load()?);
    let options = |b: &tgsi_exec::bindings::Bindings| ComputeOptions {
        grid: b.grid.unwrap_or([1, 1, 1]),
        block: b.block.unwrap_or([1, 1, 1]),
        constants: constants.clone(),
        shared_bytes: b.req_local_mem.map_or(0, |m| m as usize),
        ..Default::default()
    };
    let mut cpu_opts = options(&cpu);
    cpu_opts.resources = &cpu.resources;
    tgsi_exec::run_compute(&program, &cpu_opts).map_err(|e| e.to_string())?;
    let mut gpu_opts = options(&on_gpu);
    gpu_opts.resources = &on_gpu.resources;
    if let Err(e) = tgsi_gpu::run_compute(gpu, &shader, &program, &gpu_opts) {
        return Ok(Outcome::NotRun(e.to_string()));
    }
    let mut differ = Vec::new();
    let pairs = cpu
        .resources
        .bound_resources()
        .zip(on_gpu.resources.bound_resources());
    for (i, (want, got)) in pairs.enumerate() {
        let (w, g) = (want.data.to_bytes(), got.data.to_bytes());
        if w != g {
            let at: Vec<usize> = w
                .chunks(4)
                .zip(g.chunks(4))
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(k, _)| k)
                .collect();
            let first = at.first().copied().unwrap_or(0);
            differ.push(format!(
                "binding {i}: {} words differ (the first is word {first})",
                at.len()
            ));
        }
    }
    Ok(if differ.is_empty() {
        Outcome::Same
    } else {
        Outcome::Differ(differ.join(", "))
    })
}

#[test]
fn gpu_dispatches_match_the_interpreter() {
    let Some(gpu) = common::gpu() else { return };
    let exec_data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tgsi-exec/tests/data/csref");
    let mut dirs = common::cases(&common::shared().join("corpus/csref"), "bindings.json");
    dirs.extend(common::cases(&exec_data, "bindings.json"));
    dirs.extend(common::cases(&common::bench_dir(), "bindings.json"));
    let (mut same, mut explained, mut not_run, mut failures) = (0, 0, 0, Vec::new());
    for dir in &dirs {
        let name = common::name(dir);
        let why = EXPLAINED.iter().find(|(n, _)| *n == name).map(|(_, w)| *w);
        match (run_case(&gpu, dir), why) {
            (Ok(Outcome::Same), _) => {
                same += 1;
                eprintln!("same    {name}");
            }
            (Ok(Outcome::Differ(d)), Some(why)) => {
                explained += 1;
                eprintln!("explain {name}: {d}: {why}");
            }
            (Ok(Outcome::Differ(d)), None) => failures.push(format!("DIFF    {name}: {d}")),
            (Ok(Outcome::NotRun(why)), _) => {
                not_run += 1;
                eprintln!("not run {name}: {why}");
            }
            (Err(e), _) => failures.push(format!("ERROR   {name}: {e}")),
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!(
        "csref: {} cases: {same} identical, {explained} explained differences, {} unexplained \
         differences or errors, {not_run} not run by the gpu engine",
        dirs.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{} cases failed", failures.len());
}
