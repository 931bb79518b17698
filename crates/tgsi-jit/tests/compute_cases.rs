//! Compute dispatches on the JIT: the 32-lane waves of a dispatch that runs wide
//! (`tgsi_exec::wave_width`) run compiled code, which stops at each top-level barrier with
//! its temporaries and returned lanes in the machine and resumes after it. Every resource
//! must end with the interpreter's bytes: on random programs (address arithmetic, shared
//! memory and buffers, branches, barriers), on a program written to keep values, 64-bit
//! values and returned lanes across barriers, and on every csref case.

#[path = "../../tgsi-exec/tests/support/random_compute.rs"]
mod random_compute;
#[path = "../../tgsi-cli/tests/support/reference_bindings.rs"]
mod reference_bindings;

use random_compute::{buffer, buffers, random_program, Rng, HEADER};
use reference_bindings::csref_bindings;
use std::path::{Path, PathBuf};
use tgsi_exec::{
    parse_consts, run_compute, run_compute_with, ComputeOptions, ExecError, Program, WAVE,
};
use tgsi_jit::JitProgram;

/// The two buffers' bytes after dispatching `program` over `grid` on `engine` (`None`: the
/// interpreter), the lanes per wave and the wave instructions executed.
fn dispatch(
    program: &Program,
    jit: Option<&JitProgram>,
    grid: [u32; 3],
) -> Result<(Vec<Vec<u8>>, u32, u64), ExecError> {
    dispatch_with(program, jit, grid, tgsi_exec::DEFAULT_BUDGET, 4096)
}

/// [`dispatch`] with an instruction budget per workgroup and `shared` bytes of shared
/// memory (not a multiple of 4: the compiled code cannot address its last bytes, and the
/// JIT's waves run on the interpreter).
fn dispatch_with(
    program: &Program,
    jit: Option<&JitProgram>,
    grid: [u32; 3],
    budget: u64,
    shared: usize,
) -> Result<(Vec<Vec<u8>>, u32, u64), ExecError> {
    let bufs = [buffer(256), buffer(256)];
    let resources = buffers(&[&bufs[0], &bufs[1]]);
    let opts = ComputeOptions {
        grid,
        resources: &resources,
        shared_bytes: shared,
        budget,
        ..ComputeOptions::default()
    };
    let stats = match jit {
        Some(j) => run_compute_with(j, &opts)?,
        None => run_compute(program, &opts)?,
    };
    Ok((
        bufs.iter().map(|r| r.data.to_bytes()).collect(),
        stats.wave_lanes,
        stats.instructions,
    ))
}

/// Compile `text` for both engines (the JIT compiles every instruction it can, even when
/// most would run on the interpreter's step).
fn compile(text: &str) -> (Program, JitProgram) {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let jit = JitProgram::compile(program.clone()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (program, jit)
}

#[test]
fn random_compute_programs_match_the_interpreter() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut wide = 0;
    for _ in 0..300 {
        let text = random_program(&mut rng);
        let (program, jit) = compile(&text);
        let want = dispatch(&program, None, [3, 1, 1]).expect("interpreter");
        let got = dispatch(&program, Some(&jit), [3, 1, 1]).expect("jit");
        assert!(want == got, "the JIT differs:\n{text}");
        wide += usize::from(got.1 == WAVE as u32);
        // Shared memory the code cannot address: the waves fall back to the interpreter
        // on machines the JIT's waves have used.
        let budget = tgsi_exec::DEFAULT_BUDGET;
        let want = dispatch_with(&program, None, [3, 1, 1], budget, 4094).expect("interpreter");
        let got = dispatch_with(&program, Some(&jit), [3, 1, 1], budget, 4094).expect("jit");
        assert!(want == got, "the JIT's fallback differs:\n{text}");
    }
    assert!(
        wide >= 30,
        "only {wide} of 300 programs ran in 32-lane waves"
    );
}

#[test]
fn instruction_counts_and_budgets_match_the_interpreter() {
    // Loop-free programs run a quad at a time on the JIT, which must still count each
    // wave's instructions as the interpreter does: a budget of exactly that count is
    // enough on both engines, one less runs out on both.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for _ in 0..500 {
        let text = random_program(&mut rng);
        let (program, jit) = compile(&text);
        let (_, lanes, count) = dispatch(&program, None, [1, 1, 1]).expect("interpreter");
        if lanes != WAVE as u32 {
            continue;
        }
        for budget in [count, count - 1] {
            let want = dispatch_with(&program, None, [1, 1, 1], budget, 4096);
            let got = dispatch_with(&program, Some(&jit), [1, 1, 1], budget, 4096);
            match (&want, &got) {
                (Ok(w), Ok(g)) => assert!(w == g, "the JIT differs:\n{text}"),
                (Err(ExecError::Budget { .. }), Err(ExecError::Budget { .. })) => {}
                _ => panic!(
                    "budget {budget}: the interpreter gave {:?}, the JIT {:?}\n{text}",
                    want.map(|r| r.2),
                    got.map(|r| r.2)
                ),
            }
        }
        checked += 1;
    }
    assert!(
        checked >= 20,
        "only {checked} programs ran in 32-lane waves"
    );
}

#[test]
fn leaving_a_loop_early_counts_what_the_interpreter_counts() {
    // Every lane leaves at the same BRK with the rest of the pass (an IF/ELSE the lanes
    // disagree on, an inner loop) still ahead: the JIT goes to the loop's end at once and
    // must count what the interpreter passes with no lane executing
    // (`Program::dead_loop_tail`).
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 32
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL TEMP[0..2]
IMM[0] UINT32 {1, 3, 8, 0}
  0: MOV TEMP[0], IMM[0].wwww
  1: MOV TEMP[1], IMM[0].wwww
  2: BGNLOOP
  3:   USGE TEMP[2].x, TEMP[0].xxxx, IMM[0].yyyy
  4:   UIF TEMP[2].xxxx
  5:     BRK
  6:   ENDIF
  7:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  8:   USLT TEMP[2].y, SV[0].xxxx, IMM[0].zzzz
  9:   UIF TEMP[2].yyyy
 10:     UADD TEMP[1].x, TEMP[1].xxxx, SV[0].xxxx
 11:   ELSE
 12:     UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx
 13:   ENDIF
 14:   MOV TEMP[0].y, IMM[0].wwww
 15:   BGNLOOP
 16:     UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].xxxx
 17:     USGE TEMP[2].z, TEMP[0].yyyy, IMM[0].yyyy
 18:     UIF TEMP[2].zzzz
 19:       BRK
 20:     ENDIF
 21:     UADD TEMP[1].y, TEMP[1].yyyy, TEMP[0].yyyy
 22:   ENDLOOP
 23: ENDLOOP
 24: UMUL TEMP[2].x, SV[0].xxxx, IMM[0].zzzz
 25: STORE BUFFER[0].xy, TEMP[2].xxxx, TEMP[1].xyyy
 26: END
";
    let (program, jit) = compile(text);
    // ENDIF, UADD, USLT, the UIF (to its ELSE), the ELSE (to its ENDIF), the ENDIF, MOV,
    // the inner loop once (BGNLOOP, UADD, USGE, the UIF to its ENDIF, ENDIF, UADD,
    // ENDLOOP) and the outer ENDLOOP; ENDIF, UADD, ENDLOOP.
    assert_eq!(program.dead_loop_tail(5), Some(15));
    assert_eq!(program.dead_loop_tail(19), Some(3));
    let want = dispatch(&program, None, [1, 1, 1]).expect("interpreter");
    let got = dispatch(&program, Some(&jit), [1, 1, 1]).expect("jit");
    assert_eq!(got.1, WAVE as u32, "one 32-lane wave");
    assert!(
        want == got,
        "{:?} instructions on the interpreter, {:?} on the JIT",
        want.2,
        got.2
    );
    // The count is the budget's edge on both engines.
    let count = want.2;
    assert!(dispatch_with(&program, Some(&jit), [1, 1, 1], count, 4096).is_ok());
    let short = dispatch_with(&program, Some(&jit), [1, 1, 1], count - 1, 4096);
    assert!(matches!(short, Err(ExecError::Budget { .. })), "{short:?}");
}

#[test]
fn branches_and_returns_count_once_per_wave() {
    // Quads take different sides of nested branches and return at different places; the
    // wave runs an instruction when any of its quads does.
    let body = "IMM[0] UINT32 {3, 2, 5, 12}
IMM[1] UINT32 {4, 8, 1, 0}
  0: SHL TEMP[0].x, SV[0].yyyy, IMM[0].xxxx
  1: UADD TEMP[0].x, TEMP[0].xxxx, SV[0].xxxx
  2: SHL TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  3: USLT TEMP[2].x, TEMP[0].xxxx, IMM[1].xxxx
  4: UIF TEMP[2].xxxx
  5:   AND TEMP[2].y, TEMP[0].xxxx, IMM[0].yyyy
  6:   UIF TEMP[2].yyyy
  7:     STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].xxxx
  8:   ELSE
  9:     RET
 10:   ENDIF
 11: ELSE
 12:   USLT TEMP[2].z, TEMP[0].xxxx, IMM[0].wwww
 13:   UIF TEMP[2].zzzz
 14:     RET
 15:   ENDIF
 16:   STORE BUFFER[1].x, TEMP[1].xxxx, TEMP[0].xxxx
 17: ENDIF
 18: BARRIER
 19: USLT TEMP[2].w, TEMP[0].xxxx, IMM[1].yyyy
 20: UIF TEMP[2].wwww
 21:   LOAD TEMP[3].x, BUFFER[1], TEMP[1].xxxx
 22:   STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[3].xxxx
 23: ENDIF
 24: END
";
    let text = format!("{HEADER}{body}");
    let (program, jit) = compile(&text);
    for grid in [[1, 1, 1], [2, 1, 1]] {
        let want = dispatch(&program, None, grid).expect("interpreter");
        let got = dispatch(&program, Some(&jit), grid).expect("jit");
        assert_eq!(got.1, WAVE as u32, "runs in wide waves");
        assert_eq!(want.2, got.2, "instructions counted");
        assert!(want == got, "the JIT's buffers differ");
    }
}

#[test]
fn lanes_that_do_not_execute_do_not_decide_branches() {
    // Two threads: lanes 2-15 of the wave never execute, and the JIT leaves their
    // TEMP[5] as it likes (no lane reads it). The ELSE side has no executing lane and is
    // skipped by both engines, so both count the same instructions.
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 1
PROPERTY CS_FIXED_BLOCK_HEIGHT 2
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..5]
IMM[0] UINT32 {0, 7, 256, 4294967295}
  0: BGNLOOP
  1:   USEQ TEMP[5], TEMP[5].xxxx, IMM[0].xxxx
  2:   UIF TEMP[5]
  3:     BRK
  4:   ENDIF
  5: ENDLOOP
  6: UIF TEMP[5]
  7: ELSE
  8:   USEQ TEMP[5], TEMP[0].yyyy, IMM[0].xxxx
  9:   UIF TEMP[5]
 10:     STORE BUFFER[0].x, IMM[0].xxxx, TEMP[5].xxxx
 11:   ENDIF
 12: ENDIF
 13: END
";
    let (program, jit) = compile(text);
    let want = dispatch(&program, None, [2, 1, 1]).expect("interpreter");
    let got = dispatch(&program, Some(&jit), [2, 1, 1]).expect("jit");
    assert_eq!(got.1, WAVE as u32, "runs in wide waves");
    assert_eq!(want.2, got.2, "instructions counted");
    assert!(want.0 == got.0, "the JIT's buffers differ");
}

#[test]
fn values_and_returned_lanes_survive_barriers() {
    // Temporaries (32- and 64-bit) computed before barriers and used after them; lanes
    // that return before a barrier; a loop between barriers; shared memory passed on.
    let body = "IMM[0] UINT32 {3, 2, 5, 1}
IMM[1] UINT32 {13, 0, 7, 31}
IMM[2] FLT64 {1.5, 0.25}
  0: SHL TEMP[0].x, SV[0].yyyy, IMM[0].xxxx
  1: UADD TEMP[0].x, TEMP[0].xxxx, SV[0].xxxx
  2: SHL TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  3: UMUL TEMP[2].x, TEMP[0].xxxx, IMM[1].xxxx
  4: U2D TEMP[3].xy, TEMP[0].xxxx
  5: DMUL TEMP[3].xy, TEMP[3].xyxy, IMM[2].xyxy
  6: STORE MEMORY[0].x, TEMP[1].xxxx, TEMP[2].xxxx
  7: BARRIER
  8: USEQ TEMP[4].x, SV[0].xxxx, IMM[0].zzzz
  9: UIF TEMP[4].xxxx :11
 10:   RET
 11: ENDIF
 12: XOR TEMP[5].x, TEMP[0].xxxx, IMM[1].wwww
 13: SHL TEMP[5].x, TEMP[5].xxxx, IMM[0].yyyy
 14: LOAD TEMP[6].x, MEMORY[0], TEMP[5].xxxx
 15: MOV TEMP[6].y, IMM[1].yyyy
 16: BGNLOOP :24
 17:   UADD TEMP[6].y, TEMP[6].yyyy, IMM[0].wwww
 18:   UADD TEMP[2].x, TEMP[2].xxxx, TEMP[6].xxxx
 19:   USGE TEMP[4].y, TEMP[6].yyyy, IMM[1].zzzz
 20:   UIF TEMP[4].yyyy :22
 21:     BRK
 22:   ENDIF
 23: ENDLOOP :16
 24: MEMBAR IMM[0].wwww
 25: BARRIER
 26: D2F TEMP[7].x, TEMP[3].xyxy
 27: SHL TEMP[5].x, SV[1].xxxx, IMM[0].zzzz
 28: UADD TEMP[5].x, TEMP[5].xxxx, TEMP[0].xxxx
 29: SHL TEMP[5].x, TEMP[5].xxxx, IMM[0].xxxx
 30: STORE BUFFER[1].xy, TEMP[5].xxxx, TEMP[2].xxxx
 31: UADD TEMP[5].x, TEMP[5].xxxx, IMM[0].wwww
 32: END
";
    let text = format!("{HEADER}{body}");
    let (program, jit) = compile(&text);
    let want = dispatch(&program, None, [2, 1, 1]).expect("interpreter");
    let got = dispatch(&program, Some(&jit), [2, 1, 1]).expect("jit");
    assert_eq!(got.1, WAVE as u32, "runs in wide waves");
    assert!(want == got, "the JIT differs from the interpreter");
    // The stores happened (lanes that returned left their slots).
    assert_ne!(got.0[1], buffer(256).data.to_bytes());
}

#[test]
fn an_endless_compute_loop_runs_out_of_budget() {
    let text = format!(
        "{HEADER}IMM[0] UINT32 {{1, 0, 0, 0}}
  0: BARRIER
  1: BGNLOOP :3
  2:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  3: ENDLOOP :1
  4: END
"
    );
    let (program, jit) = compile(&text);
    for engine in [None, Some(&jit)] {
        match dispatch_with(&program, engine, [1, 1, 1], 100_000, 4096) {
            Err(ExecError::Budget { .. }) => {}
            other => panic!(
                "expected the budget to run out, got {:?}",
                other.map(|r| r.1)
            ),
        }
    }
}

/// Directories of csref cases: the shared corpus's, tgsi-exec's and the matmul benchmark.
fn csref_cases() -> Vec<PathBuf> {
    let shared = match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        shared.join("corpus/csref"),
        here.join("../tgsi-exec/tests/data/csref"),
        here.join("benches/shaders"),
    ] {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        cases.retain(|p| p.join("bindings.json").is_file());
        cases.sort();
        out.extend(cases);
    }
    out
}

#[test]
fn csref_cases_match_the_interpreter() {
    let (mut compared, mut wide) = (0, 0);
    for dir in csref_cases() {
        let name = dir.display().to_string();
        let read = |f: &str| std::fs::read_to_string(dir.join(f));
        let text = read("shader.tgsi").expect("shader");
        let shader = tgsi::parse(&text).expect("parses");
        let program = Program::compile(&shader).expect("compiles");
        let Ok(jit) = JitProgram::compile(program.clone()) else {
            continue;
        };
        let constants =
            read("consts.txt").map_or(Vec::new(), |t| parse_consts(&t).expect("consts"));
        let doc = csref_bindings(&dir, None).expect("bindings").to_string();
        let run = |engine: Option<&JitProgram>| {
            let b = tgsi_exec::bindings::parse(&doc, &dir).expect("bindings load");
            let opts = ComputeOptions {
                grid: b.grid.unwrap_or([1, 1, 1]),
                block: b.block.unwrap_or([1, 1, 1]),
                constants: constants.clone(),
                shared_bytes: b.req_local_mem.map_or(0, |m| m as usize),
                resources: &b.resources,
                ..ComputeOptions::default()
            };
            let stats = match engine {
                Some(j) => run_compute_with(j, &opts),
                None => run_compute(&program, &opts),
            }
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            let bytes: Vec<Vec<u8>> = b
                .resources
                .bound_resources()
                .map(|r| r.data.to_bytes())
                .collect();
            (bytes, stats.wave_lanes, stats.instructions)
        };
        let (want, got) = (run(None), run(Some(&jit)));
        // The same results and counts; both on softpipe's machines or both wide (the
        // interpreter's waves of small blocks are half as wide).
        assert!(
            want.0 == got.0 && want.2 == got.2,
            "{name}: the JIT differs from the interpreter"
        );
        assert_eq!(want.1 == 4, got.1 == 4, "{name}: wave widths");
        compared += 1;
        wide += usize::from(got.1 == WAVE as u32);
    }
    if compared == 0 {
        eprintln!("skipped: no csref case found");
        return;
    }
    eprintln!("{compared} csref cases compared, {wide} in 32-lane waves on the JIT");
    // matmul, fp64-dot-matrix and others run wide.
    assert!(wide >= 2, "only {wide} cases ran on the JIT");
}

/// LOADs at an address the same in every lane (immediates) read their words once for all
/// lanes: inside, unaligned, partly past the end of a buffer or of shared memory (zeros),
/// far past it, one to four channels; the buffers end with the interpreter's bytes, the
/// waves running compiled.
#[test]
fn loads_at_one_address_for_every_lane_match_the_interpreter() {
    let text = format!(
        "{HEADER}IMM[0] UINT32 {{0, 3, 250, 252}}
IMM[1] UINT32 {{253, 256, 4294967292, 4092}}
IMM[2] UINT32 {{3, 8, 128, 0}}
  0: LOAD TEMP[1].x, BUFFER[0], IMM[0].yyyy
  1: LOAD TEMP[2].xy, BUFFER[0], IMM[0].zzzz
  2: LOAD TEMP[3], BUFFER[0], IMM[0].wwww
  3: LOAD TEMP[4].x, BUFFER[0], IMM[0].wwww
  4: LOAD TEMP[5].yw, BUFFER[0], IMM[1].xxxx
  5: LOAD TEMP[6].x, BUFFER[0], IMM[1].zzzz
  6: LOAD TEMP[7].xy, MEMORY[0], IMM[1].wwww
  7: LOAD TEMP[8].xyz, BUFFER[0], IMM[2].zzzz
  8: UADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx
  9: UADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].yyyy
 10: UADD TEMP[1].x, TEMP[1].xxxx, TEMP[3].xxxx
 11: UADD TEMP[1].x, TEMP[1].xxxx, TEMP[3].wwww
 12: XOR TEMP[1].y, TEMP[4].xxxx, TEMP[5].yyyy
 13: XOR TEMP[1].y, TEMP[1].yyyy, TEMP[5].wwww
 14: XOR TEMP[1].y, TEMP[1].yyyy, TEMP[6].xxxx
 15: XOR TEMP[1].y, TEMP[1].yyyy, TEMP[7].xxxx
 16: XOR TEMP[1].y, TEMP[1].yyyy, TEMP[7].yyyy
 17: UADD TEMP[1].z, TEMP[8].xxxx, TEMP[8].zzzz
 18: UMAD TEMP[0].x, SV[0].yyyy, IMM[2].yyyy, SV[0].xxxx
 19: SHL TEMP[0].x, TEMP[0].xxxx, IMM[2].xxxx
 20: STORE BUFFER[1].xyz, TEMP[0].xxxx, TEMP[1]
 21: END
"
    );
    let (program, jit) = compile(&text);
    let want = dispatch(&program, None, [2, 1, 1]).expect("interpreter");
    let got = dispatch(&program, Some(&jit), [2, 1, 1]).expect("jit");
    assert!(want == got, "the JIT differs:\n{text}");
    assert_eq!(got.1, WAVE as u32, "the waves ran compiled");
    // Not all zeros: the loads inside read the buffer's words.
    assert!(want.0[1].iter().any(|&b| b != 0));
}
