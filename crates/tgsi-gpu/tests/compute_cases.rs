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

/// Hardware atomic counters as Mesa's `nir_to_tgsi` writes them (the register names the
/// counter, the address operand repeats its byte offset): 64 invocations add to counters
/// chosen directly and through an address register, take a maximum, and add to a 1-D
/// `HWATOMIC[1]`; the counters end as the interpreter leaves them, and as computed here.
#[test]
fn hw_atomic_counters_match_the_interpreter() {
    use std::sync::Arc;
    use tgsi_exec::resource::{BufferView, Resource, Resources};
    let Some(gpu) = common::gpu() else { return };
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL HWATOMIC[0][0..4]
DCL HWATOMIC[1][0]
DCL TEMP[0..1]
DCL ADDR[0]
IMM[0] UINT32 {3, 1, 12, 16}
IMM[1] UINT32 {2, 0, 0, 0}
  0: UMOD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: SHL TEMP[0].y, TEMP[0].xxxx, IMM[1].xxxx
  2: UARL ADDR[0].x, TEMP[0].xxxx
  3: ATOMUADD TEMP[1].x, HWATOMIC[0][ADDR[0].x], TEMP[0].yyyy, IMM[0].yyyy
  4: ATOMUADD TEMP[1].x, HWATOMIC[0][3], IMM[0].zzzz, SV[0].xxxx
  5: ATOMUMAX TEMP[1].x, HWATOMIC[0][4], IMM[0].wwww, SV[0].xxxx
  6: ATOMUADD TEMP[1].x, HWATOMIC[1], IMM[1].yyyy, IMM[0].yyyy
  7: END
";
    let shader = tgsi::parse(text).expect("parses");
    let program = Program::compile(&shader).expect("compiles");
    let counters = |words: &[u32]| {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        Arc::new(Resource::buffer(&bytes))
    };
    let view = |r: &Arc<Resource>| Some(BufferView::whole(r));
    let words = |r: &Resource| -> Vec<u32> {
        r.data
            .to_bytes()
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let run = |on_gpu: bool| {
        let (first, second) = (counters(&[100, 200, 300, 0, 7]), counters(&[5]));
        let resources = Resources {
            hw_atomics: vec![view(&first), view(&second)],
            ..Resources::default()
        };
        let opts = ComputeOptions {
            resources: &resources,
            ..ComputeOptions::default()
        };
        if on_gpu {
            tgsi_gpu::run_compute(&gpu, &shader, &program, &opts).expect("gpu");
        } else {
            tgsi_exec::run_compute(&program, &opts).expect("interpreter");
        }
        (words(&first), words(&second))
    };
    let want = run(false);
    // 22, 21 and 21 invocations add 1 to counters 0, 1, 2; all add their id to counter 3.
    assert_eq!(want.0, [122, 221, 321, (0..64).sum::<u32>(), 63]);
    assert_eq!(want.1, [69]);
    assert_eq!(run(true), want);
}
