//! Every compute reference case (`csref`: the shared corpus's, tgsi-exec's and the `matmul`
//! benchmark) dispatched on the GPU and by the interpreter with the same bindings: every
//! resource must end with the same bytes, except the cases of [`EXPLAINED`]. Cases the GPU
//! engine cannot run are counted and listed with the reason. Skips without an adapter.

mod common;
#[path = "../../tgsi-cli/tests/support/reference_bindings.rs"]
mod reference_bindings;

use std::path::Path;
use std::sync::Arc;

use reference_bindings::csref_bindings;
use tgsi_exec::resource::{Access, BufferView, ImageView, Resource, Resources, Storage, Target};
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
    (
        "image-atomic-exchange",
        "four invocations exchange and compare-exchange each texel, so what they return and \
         which value each texel keeps depend on the order invocations run in (the case's \
         SOURCE says so; llvmpipe's results differ from softpipe's too)",
    ),
    (
        "image-atomics-r32i-r32f",
        "the values its image atomics return (binding 5, the records) depend on the order \
         invocations run in (the case's SOURCE says so), and so do the texels that contended \
         compare-exchanges (the 2-D R32I image, binding 0) and exchanges (the R32F images, \
         bindings 2 and 3) leave; the 3-D and array images end as the interpreter leaves them",
    ),
    (
        "image-atomics-r32ui-targets",
        "the values its contended image atomics return (binding 7, the records) depend on the \
         order invocations run in (the case's SOURCE says so), and so do the texels that \
         contended exchanges (the buffer image, binding 6) and compare-swaps (the 2-D image, \
         binding 1) leave; the other five images end as the interpreter leaves them",
    ),
    (
        "image-3d-array",
        "each counts texel (binding 2) is read and written by two invocations of different \
         workgroups, a read-modify-write race well defined only when workgroups run one after \
         another, as on softpipe (the case's SOURCE says so): lavapipe, running workgroups in \
         parallel, may lose one of the two additions; the other images end as the \
         interpreter leaves them",
    ),
];

/// The bindings an [`EXPLAINED`] case may differ in (`None`: any).
const EXPLAINED_BINDINGS: &[(&str, &[usize])] = &[
    ("image-3d-array", &[2]),
    ("image-atomics-r32i-r32f", &[0, 2, 3, 5]),
    ("image-atomics-r32ui-targets", &[1, 6, 7]),
];

/// One case's outcome.
enum Outcome {
    Same,
    /// What differs, and in which bindings.
    Differ(String, Vec<usize>),
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
    let mut bindings = Vec::new();
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
            bindings.push(i);
            differ.push(format!(
                "binding {i}: {} words differ (the first is word {first})",
                at.len()
            ));
        }
    }
    Ok(if differ.is_empty() {
        Outcome::Same
    } else {
        Outcome::Differ(differ.join(", "), bindings)
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
        let allowed = EXPLAINED_BINDINGS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| *b);
        let outcome = match run_case(&gpu, dir) {
            // Differences beyond the bindings an explanation covers are not explained.
            Ok(Outcome::Differ(d, b))
                if allowed.is_some_and(|a| b.iter().any(|i| !a.contains(i))) =>
            {
                failures.push(format!(
                    "DIFF    {name}: {d} (beyond the explained bindings)"
                ));
                continue;
            }
            other => other,
        };
        match (outcome, why) {
            (Ok(Outcome::Same), _) => {
                same += 1;
                eprintln!("same    {name}");
            }
            (Ok(Outcome::Differ(d, _)), Some(why)) => {
                explained += 1;
                eprintln!("explain {name}: {d}: {why}");
            }
            (Ok(Outcome::Differ(d, _)), None) => failures.push(format!("DIFF    {name}: {d}")),
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

/// One workgroup of `program` with `resources`, on the GPU or the interpreter.
fn dispatch(
    gpu: &tgsi_gpu::Gpu,
    shader: &tgsi::Shader,
    program: &Program,
    resources: &Resources,
    on_gpu: bool,
) {
    let opts = ComputeOptions {
        resources,
        ..ComputeOptions::default()
    };
    if on_gpu {
        tgsi_gpu::run_compute(gpu, shader, program, &opts).expect("gpu");
    } else {
        tgsi_exec::run_compute(program, &opts).expect("interpreter");
    }
}

/// The little-endian words of a resource.
fn words(r: &Resource) -> Vec<u32> {
    r.data
        .to_bytes()
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A one-level 2-D image (a 2-D array when `layers` > 1) of 4-byte texels of `format`
/// holding `texels`.
fn image(format: &str, [width, height, layers]: [u32; 3], texels: &[u32]) -> Arc<Resource> {
    let bytes: Vec<u8> = texels.iter().flat_map(|w| w.to_le_bytes()).collect();
    Arc::new(Resource {
        target: if layers > 1 {
            Target::Array2D
        } else {
            Target::Tex2D
        },
        format: tgsi::Format::from_name(format).expect("format"),
        width0: width,
        height0: height,
        depth0: 1,
        array_size: layers,
        last_level: 0,
        nr_samples: 0,
        data: Storage::from_bytes(&bytes),
    })
}

/// A read-write view of level 0 of `r`, layers `first..=last`.
fn image_view(r: &Arc<Resource>, first_layer: u32, last_layer: u32) -> Option<ImageView> {
    Some(ImageView {
        resource: Arc::clone(r),
        format: r.format,
        access: Access::ReadWrite,
        level: 0,
        first_layer,
        last_layer,
        offset: 0,
        size: 0,
    })
}

/// Hardware atomic counters as Mesa's `nir_to_tgsi` writes them (the register names the
/// counter, the address operand repeats its byte offset): 64 invocations add to counters
/// chosen directly and through an address register, take a maximum, and add to a 1-D
/// `HWATOMIC[1]`; the counters end as the interpreter leaves them, and as computed here.
#[test]
fn hw_atomic_counters_match_the_interpreter() {
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
    let run = |on_gpu: bool| {
        let (first, second) = (counters(&[100, 200, 300, 0, 7]), counters(&[5]));
        let resources = Resources {
            hw_atomics: vec![view(&first), view(&second)],
            ..Resources::default()
        };
        dispatch(&gpu, &shader, &program, &resources, on_gpu);
        (words(&first), words(&second))
    };
    let want = run(false);
    // 22, 21 and 21 invocations add 1 to counters 0, 1, 2; all add their id to counter 3.
    assert_eq!(want.0, [122, 221, 321, (0..64).sum::<u32>(), 63]);
    assert_eq!(want.1, [69]);
    assert_eq!(run(true), want);
}

/// Image atomics (whose old texels naga cannot return) through images held in storage
/// buffers: 64 invocations combine their own texels of an R32_UINT image (add, maximum,
/// compare-exchange) and return the old values, all add to one shared texel whose result
/// nothing reads, reach outside the image (nothing changes, `(0, 0, 0, 1)` comes back,
/// stores are dropped), take a signed minimum through ATOMUMIN on an R32_SINT array view
/// that starts at layer 1, query its size, exchange floats on an R32_FLOAT image (the old
/// value comes back through `int`, out-of-range and NaN as `INT_MIN`) and load them back.
/// Every image and the result buffer end as the interpreter leaves them.
#[test]
fn image_atomics_match_the_interpreter() {
    let Some(gpu) = common::gpu() else { return };
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 8
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[1], 2D_ARRAY, PIPE_FORMAT_R32_SINT, WR
DCL IMAGE[2], 2D, PIPE_FORMAT_R32_FLOAT, WR
DCL BUFFER[0]
DCL TEMP[0..9]
IMM[0] UINT32 {8, 1, 64, 7}
IMM[1] UINT32 {0, 1, 4294967295, 8}
IMM[2] UINT32 {16, 32, 48, 64}
IMM[3] UINT32 {80, 96, 4294967264, 0}
IMM[4] FLT32 {0.75, -3.5, 0.0, 0.0}
  0: MOV TEMP[0].xy, SV[0].xyyy
  1: MOV TEMP[0].zw, IMM[1].xxxx
  2: UMAD TEMP[1].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx
  3: SHL TEMP[1].y, TEMP[1].xxxx, IMM[0].wwww
  4: ATOMUADD TEMP[2], IMAGE[0], TEMP[0], TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
  5: ATOMUMAX TEMP[3].xy, IMAGE[0], TEMP[0], IMM[0].zzzz, 2D, PIPE_FORMAT_R32_UINT
  6: ATOMCAS TEMP[3].zw, IMAGE[0], TEMP[0], IMM[0].zzzz, TEMP[1].xxxx, 2D, PIPE_FORMAT_R32_UINT
  7: MOV TEMP[5].xy, IMM[1].xwww
  8: ATOMUADD TEMP[9].x, IMAGE[0], TEMP[5], IMM[1].yyyy, 2D, PIPE_FORMAT_R32_UINT
  9: UADD TEMP[5].xy, TEMP[0].xyyy, IMM[0].xxxx
 10: ATOMXOR TEMP[4], IMAGE[0], TEMP[5], IMM[1].zzzz, 2D, PIPE_FORMAT_R32_UINT
 11: STORE IMAGE[0], TEMP[5], IMM[1].zzzz, 2D, PIPE_FORMAT_R32_UINT
 12: MOV TEMP[5].xy, TEMP[0].xyyy
 13: AND TEMP[5].z, TEMP[1].xxxx, IMM[0].yyyy
 14: UADD TEMP[6].x, TEMP[1].xxxx, IMM[3].zzzz
 15: ATOMUMIN TEMP[6], IMAGE[1], TEMP[5], TEMP[6].xxxx, 2D_ARRAY, PIPE_FORMAT_R32_SINT
 16: RESQ TEMP[7], IMAGE[1]
 17: U2F TEMP[8].x, TEMP[1].xxxx
 18: MAD TEMP[8].x, TEMP[8].xxxx, IMM[4].xxxx, IMM[4].yyyy
 19: ATOMXCHG TEMP[8], IMAGE[2], TEMP[0], TEMP[8].xxxx, 2D, PIPE_FORMAT_R32_FLOAT
 20: LOAD TEMP[9], IMAGE[2], TEMP[0], 2D, PIPE_FORMAT_R32_FLOAT
 21: STORE BUFFER[0], TEMP[1].yyyy, TEMP[2]
 22: UADD TEMP[1].z, TEMP[1].yyyy, IMM[2].xxxx
 23: STORE BUFFER[0], TEMP[1].zzzz, TEMP[3]
 24: UADD TEMP[1].z, TEMP[1].yyyy, IMM[2].yyyy
 25: STORE BUFFER[0], TEMP[1].zzzz, TEMP[4]
 26: UADD TEMP[1].z, TEMP[1].yyyy, IMM[2].zzzz
 27: STORE BUFFER[0], TEMP[1].zzzz, TEMP[6]
 28: UADD TEMP[1].z, TEMP[1].yyyy, IMM[2].wwww
 29: STORE BUFFER[0], TEMP[1].zzzz, TEMP[7]
 30: UADD TEMP[1].z, TEMP[1].yyyy, IMM[3].xxxx
 31: STORE BUFFER[0], TEMP[1].zzzz, TEMP[8]
 32: UADD TEMP[1].z, TEMP[1].yyyy, IMM[3].yyyy
 33: STORE BUFFER[0], TEMP[1].zzzz, TEMP[9]
 34: END
";
    let shader = tgsi::parse(text).expect("parses");
    let program = Program::compile(&shader).expect("compiles");
    let floats: Vec<u32> = (0..64u32)
        .map(|i| match i {
            5 => f32::NAN.to_bits(),
            6 => 3e10f32.to_bits(),
            7 => (-3e10f32).to_bits(),
            _ => (i as f32 * 1.37 - 20.0).to_bits(),
        })
        .collect();
    let run = |on_gpu: bool| {
        let uint = image(
            "PIPE_FORMAT_R32_UINT",
            [8, 9, 1],
            &(0..72).map(|i| i * 3 % 70).collect::<Vec<_>>(),
        );
        let sint = image(
            "PIPE_FORMAT_R32_SINT",
            [8, 8, 3],
            &(0..192)
                .map(|i: u32| (i * 37 % 101).wrapping_sub(50))
                .collect::<Vec<_>>(),
        );
        let float = image("PIPE_FORMAT_R32_FLOAT", [8, 8, 1], &floats);
        let out = Arc::new(Resource::buffer(&[0; 64 * 128]));
        let resources = Resources {
            images: vec![
                image_view(&uint, 0, 0),
                image_view(&sint, 1, 2),
                image_view(&float, 0, 0),
            ],
            buffers: vec![Some(BufferView::whole(&out))],
            ..Resources::default()
        };
        dispatch(&gpu, &shader, &program, &resources, on_gpu);
        [words(&uint), words(&sint), words(&float), words(&out)]
    };
    let want = run(false);
    // The shared texel (0, 8) counted every invocation; nothing outside changed.
    assert_eq!(want[0][64], (64 * 3 % 70) + 64);
    assert_eq!(
        want[0][65..],
        (65..72).map(|i| i * 3 % 70).collect::<Vec<_>>()[..]
    );
    // Invocation 9 (x 1, y 1): the outside XOR came back as (0, 0, 0, 1); RESQ (8, 8, 2, 0);
    // its exchange returned the old float through `int` (and the value's y, z, w); the
    // load read the new value.
    let record = &want[3][9 * 32..9 * 32 + 28];
    assert_eq!(record[8..12], [0, 0, 0, 1]);
    assert_eq!(record[16..20], [8, 8, 2, 0]);
    assert_eq!(
        f32::from_bits(record[20]),
        (9.0f32 * 1.37 - 20.0) as i32 as f32
    );
    assert_eq!(f32::from_bits(record[21]), 9.0 * 0.75 - 3.5);
    assert_eq!(f32::from_bits(record[24]), 9.0 * 0.75 - 3.5);
    assert_eq!(record[25..28], [0, 0, 1.0f32.to_bits()]);
    // NaN and out-of-range floats come back as INT_MIN.
    assert_eq!(f32::from_bits(want[3][5 * 32 + 20]), i32::MIN as f32);
    assert_eq!(f32::from_bits(want[3][6 * 32 + 20]), i32::MIN as f32);
    let got = run(true);
    for (k, name) in ["IMAGE[0]", "IMAGE[1]", "IMAGE[2]", "BUFFER[0]"]
        .iter()
        .enumerate()
    {
        assert_eq!(got[k], want[k], "{name}");
    }
}

/// A view whose first layer is so large that the layer of a texel passes 2³²: the
/// interpreter finds it outside, and so must the image held in a storage buffer (a wrapped
/// layer would land on a real texel).
#[test]
fn a_layer_past_two_to_the_32_is_outside() {
    let Some(gpu) = common::gpu() else { return };
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 1
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL IMAGE[0], 2D_ARRAY, PIPE_FORMAT_R32_UINT, WR
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 0, 1, 16}
IMM[1] UINT32 {5, 0, 0, 0}
  0: ATOMUADD TEMP[0], IMAGE[0], IMM[0], IMM[1].xxxx, 2D_ARRAY, PIPE_FORMAT_R32_UINT
  1: LOAD TEMP[1], IMAGE[0], IMM[0], 2D_ARRAY, PIPE_FORMAT_R32_UINT
  2: STORE BUFFER[0], IMM[0].xxxx, TEMP[0]
  3: STORE BUFFER[0], IMM[0].wwww, TEMP[1]
  4: END
";
    let shader = tgsi::parse(text).expect("parses");
    let program = Program::compile(&shader).expect("compiles");
    let run = |on_gpu: bool| {
        let layers = image(
            "PIPE_FORMAT_R32_UINT",
            [2, 2, 3],
            &(1..=12).collect::<Vec<_>>(),
        );
        let out = Arc::new(Resource::buffer(&[0xee; 32]));
        let resources = Resources {
            images: vec![image_view(&layers, u32::MAX, u32::MAX)],
            buffers: vec![Some(BufferView::whole(&out))],
            ..Resources::default()
        };
        dispatch(&gpu, &shader, &program, &resources, on_gpu);
        (words(&layers), words(&out))
    };
    let want = run(false);
    assert_eq!(
        want.1,
        [0, 0, 0, 1, 0, 0, 0, 1],
        "outside, as the interpreter has it"
    );
    assert_eq!(run(true), want);
}
