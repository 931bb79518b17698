//! The JIT against the interpreter, word for word: every fragment and vertex shader of
//! `../shared/corpus` (skipped when absent) and of the repository's test data, run on both
//! engines with the same inputs, constants and budget; every output word and every error
//! must be the same, and the same as the interpreter's with every write merged under the
//! execution mask (the analysis of the writes that need no merge, which both engines use,
//! turned off) and every `IF c; BRK; ENDIF` run as three instructions. Also reports how many shaders the JIT compiles, and requires all of the
//! shaders its support rules accept to compile.

use std::path::{Path, PathBuf};
use tgsi::Processor;
use tgsi_exec::{
    render_fragment_with, run_vertices_with, Interpreter, Program, RenderOptions, VertexInput,
    VertexOptions, WaveEngine,
};
use tgsi_jit::{JitProgram, Options};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() {
            if name != "golden" && name != "golden-mesa-24.3" {
                collect(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "tgsi") {
            out.push(p);
        }
    }
}

/// Every shader file: the shared corpus and the repository's test data.
fn shaders() -> (Vec<PathBuf>, bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../../../shared/corpus");
    let mut files = Vec::new();
    collect(&shared, &mut files);
    let has_shared = !files.is_empty();
    collect(&root.join("../tgsi-exec/tests/data"), &mut files);
    collect(&root.join("../../examples"), &mut files);
    files.sort();
    files.dedup();
    (files, has_shared)
}

/// A deterministic word sequence: small floats of both signs, with some integers and
/// special values mixed in, so both float and integer paths see varied data.
fn words(seed: u32, n: usize) -> Vec<u32> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12345);
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            match i % 11 {
                3 => x % 7,
                7 => [0, 0x8000_0000, 0x7f80_0000, 0x3f80_0000][x as usize % 4],
                _ => ((x % 4001) as f32 / 1000.0 - 2.0).to_bits(),
            }
        })
        .collect()
}

fn vec4s(w: &[u32]) -> Vec<[u32; 4]> {
    w.chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

/// Run `program` on `engine` and return every output word (or the error message).
fn run(engine: &dyn WaveEngine, seed: u32) -> Result<Vec<u32>, String> {
    let program = engine.program();
    let constants = vec![vec4s(&words(seed, 4 * 64)), vec4s(&words(seed + 1, 4 * 16))];
    let budget = 1 << 20;
    match program.processor {
        Processor::Fragment => {
            let opts = RenderOptions {
                width: 13,
                height: 6,
                constants,
                inputs: vec4s(&words(seed + 2, 4 * 32)),
                budget,
                threads: 1,
                ..Default::default()
            };
            let image = render_fragment_with(engine, &opts).map_err(|e| e.to_string())?;
            Ok(image
                .pixels
                .iter()
                .flat_map(|p| p.map(f32::to_bits))
                .collect())
        }
        _ => {
            let n_in = program.register_counts()[1];
            let count = 37;
            let inputs = (0..n_in)
                .map(|i| VertexInput::PerVertex(vec4s(&words(seed + 3 + i as u32, 4 * count))))
                .collect();
            let opts = VertexOptions {
                count,
                inputs,
                constants,
                budget,
                ..Default::default()
            };
            let out = run_vertices_with(engine, &opts).map_err(|e| e.to_string())?;
            Ok(out
                .values
                .iter()
                .flat_map(|v| v.iter().flat_map(|r| r.iter().copied()))
                .collect())
        }
    }
}

#[test]
fn jit_matches_interpreter_on_every_shader() {
    let (files, has_shared) = shaders();
    if !has_shared {
        eprintln!("skipped the shared corpus: ../shared is absent");
    }
    let (mut compiled, mut interpreted, mut compared, mut two_forms) = (0, 0, 0, 0);
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    let mut failures = Vec::new();
    for (n, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(shader) = tgsi::parse(&text) else {
            continue;
        };
        if !matches!(shader.processor, Processor::Fragment | Processor::Vertex) {
            continue;
        }
        let Ok(program) = Program::compile(&shader) else {
            continue;
        };
        // The writes the shared analysis leaves unmerged and the loop exits run as one
        // step change nothing: the interpreter merging every write and running every
        // `IF c; BRK; ENDIF` as three instructions gives the same words.
        let seed = n as u32 * 7;
        let want = run(&Interpreter(&program), seed);
        let mut merging = program.clone();
        for inst in &mut merging.insts {
            inst.unblended = 0;
            inst.breaks = false;
        }
        if run(&Interpreter(&merging), seed) != want {
            failures.push(format!(
                "{}: the interpreter differs with every write merged and every break unfused",
                path.display()
            ));
        }
        // Compiled whenever the JIT can, even where `Engine` would prefer the interpreter
        // for speed, so every compiled path is compared; a program with loops compiles its
        // second form (the other count of quads per call) at its first wave, whose next
        // waves run the two by turns, so that both are compared.
        let tuning_at_once = Options {
            tuning: Some(0),
            ..Default::default()
        };
        let engine = match JitProgram::compile_with(program.clone(), tuning_at_once) {
            Ok(jit) => jit,
            Err(why) => {
                interpreted += 1;
                let key = why
                    .0
                    .split(" (instruction")
                    .next()
                    .unwrap_or("")
                    .to_string();
                *reasons.entry(key).or_default() += 1;
                continue;
            }
        };
        compiled += 1;
        let mut got = run(&engine, seed);
        compared += 1;
        if engine.quads_per_call_compiled().len() == 2 {
            // Two more runs: the turns go 0, 1, 1, 0, 0…, and a run has two waves or more.
            two_forms += 1;
            for _ in 0..2 {
                if got == want {
                    got = run(&engine, seed);
                }
            }
        }
        if want != got {
            let detail = match (&want, &got) {
                (Ok(w), Ok(g)) => {
                    let i = w.iter().zip(g).position(|(a, b)| a != b).unwrap_or(0);
                    format!(
                        "word {i}: interpreter {:#010x}, jit {:#010x} ({} words)",
                        w.get(i).copied().unwrap_or(0),
                        g.get(i).copied().unwrap_or(0),
                        w.len()
                    )
                }
                _ => format!("interpreter {want:?}, jit {got:?}")
                    .chars()
                    .take(300)
                    .collect(),
            };
            failures.push(format!("{}: {detail}", path.display()));
        }
    }
    eprintln!(
        "{compiled} shaders compiled and compared ({compared}; {two_forms} with two forms, \
         each form compared), {interpreted} on the interpreter"
    );
    for (why, n) in &reasons {
        eprintln!("  {n:5} {why}");
    }
    // Debug builds verify every function given to Cranelift: none may be ill-formed.
    assert!(
        !reasons.keys().any(|why| why.contains("Verifier")),
        "functions the Cranelift verifier refuses: {reasons:?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {compared} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if has_shared {
        assert!(compiled >= 2000, "only {compiled} shaders compiled");
        assert!(two_forms >= 20, "only {two_forms} shaders with two forms");
    }
}
