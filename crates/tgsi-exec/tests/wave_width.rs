//! Compute dispatches in 32-lane waves (`tgsi_exec::wave_width`): programs whose results
//! cannot depend on the order of invocations between barriers run wide and give exactly
//! the results of softpipe's 4-lane machines; programs that could (races, stores repeated
//! in a loop, barriers in control flow, aliased buffers, atomics) keep softpipe's machines,
//! with the reason named; and random programs never give a different result wide.

use tgsi_exec::wave_width::order_dependence;
use tgsi_exec::{run_compute, ComputeOptions, Program, HALF_WAVE, WAVE};

#[path = "support/random_compute.rs"]
mod random_compute;
use random_compute::{buffer, buffers, random_program, Rng, HEADER};

fn compile(text: &str) -> Program {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    Program::compile(&shader).unwrap_or_else(|e| panic!("compile: {e}\n{text}"))
}

/// What a dispatch leaves: the lanes per wave and every buffer's bytes.
struct Outcome {
    lanes: u32,
    buffers: Vec<Vec<u8>>,
}

/// Dispatch `text` over `grid` on fresh buffers of `words` words; `aliased` binds
/// BUFFER[1] to BUFFER[0]'s resource.
fn dispatch(text: &str, grid: [u32; 3], words: usize, aliased: bool, softpipe: bool) -> Outcome {
    let program = compile(text);
    let (a, b) = (buffer(words), buffer(words));
    let bound = if aliased { [&a, &a] } else { [&a, &b] };
    let res = buffers(&bound);
    let stats = run_compute(
        &program,
        &ComputeOptions {
            grid,
            resources: &res,
            shared_bytes: 4096,
            softpipe_waves: softpipe,
            ..ComputeOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
    Outcome {
        lanes: stats.wave_lanes,
        buffers: [&a, &b].iter().map(|r| r.data.to_bytes()).collect(),
    }
}

/// Why `text` keeps softpipe's machines (`None`: it runs wide).
fn why(text: &str, aliased: bool) -> Option<String> {
    let program = compile(text);
    let (a, b) = (buffer(64), buffer(64));
    let bound = if aliased { [&a, &a] } else { [&a, &b] };
    let res = buffers(&bound);
    let opts = ComputeOptions {
        grid: [2, 1, 1],
        resources: &res,
        ..ComputeOptions::default()
    };
    order_dependence(&program, &opts, program.fixed_block.map(|b| b.unwrap_or(1)))
}

/// A tile through shared memory: each invocation stores its word and its neighbour's
/// slot holds another table (two stores at disjoint ranges), a barrier, then every
/// invocation reads another's words and writes its own output slot.
const TILE: &str = "IMM[0] UINT32 {3, 2, 128, 4}
IMM[1] UINT32 {5, 7, 31, 1}
  0: SHL TEMP[0].x, SV[0].yyyy, IMM[0].xxxx
  1: UADD TEMP[0].x, TEMP[0].xxxx, SV[0].xxxx
  2: SHL TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  3: SHL TEMP[2].x, SV[1].xxxx, IMM[1].xxxx
  4: UADD TEMP[2].x, TEMP[2].xxxx, TEMP[0].xxxx
  5: SHL TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
  6: LOAD TEMP[3].x, BUFFER[0], TEMP[2].xxxx
  7: STORE MEMORY[0].x, TEMP[1].xxxx, TEMP[3].xxxx
  8: UADD TEMP[4].x, TEMP[1].xxxx, IMM[0].zzzz
  9: UMUL TEMP[5].x, TEMP[3].xxxx, IMM[1].yyyy
 10: STORE MEMORY[0].x, TEMP[4].xxxx, TEMP[5].xxxx
 11: BARRIER
 12: XOR TEMP[6].x, TEMP[0].xxxx, IMM[1].zzzz
 13: SHL TEMP[6].x, TEMP[6].xxxx, IMM[0].yyyy
 14: LOAD TEMP[3].x, MEMORY[0], TEMP[6].xxxx
 15: UADD TEMP[6].x, TEMP[6].xxxx, IMM[0].zzzz
 16: LOAD TEMP[3].y, MEMORY[0], TEMP[6].xxxx
 17: UADD TEMP[3].x, TEMP[3].xxxx, TEMP[3].yyyy
 18: STORE BUFFER[1].x, TEMP[2].xxxx, TEMP[3].xxxx
 19: END
";

/// Interleaved records: invocation i writes words 2i and 2i + 1 of BUFFER[1] by two
/// instructions (their ranges overlap; their residues modulo 8 bytes do not), reading
/// BUFFER[0] at the same places.
const INTERLEAVED: &str = "IMM[0] UINT32 {3, 3, 4, 1}
  0: SHL TEMP[0].x, SV[0].yyyy, IMM[0].xxxx
  1: UADD TEMP[0].x, TEMP[0].xxxx, SV[0].xxxx
  2: SHL TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  3: LOAD TEMP[2].xy, BUFFER[0], TEMP[1].xxxx
  4: UADD TEMP[2].x, TEMP[2].xxxx, TEMP[0].xxxx
  5: STORE BUFFER[1].x, TEMP[1].xxxx, TEMP[2].xxxx
  6: UADD TEMP[3].x, TEMP[1].xxxx, IMM[0].zzzz
  7: STORE BUFFER[1].x, TEMP[3].xxxx, TEMP[2].yyyy
  8: END
";

/// A histogram: every invocation adds 1 to one of 4 bins of BUFFER[1] and ORs its id into
/// a shared word, inside a loop, never reading what the atomics return (in TEMP[8]).
const HISTOGRAM: &str = "IMM[0] UINT32 {3, 2, 1, 0}
  0: AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: SHL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  2: MOV TEMP[1].x, IMM[0].wwww
  3: BGNLOOP :9
  4:   ATOMUADD TEMP[8].x, BUFFER[1], TEMP[0].xxxx, IMM[0].zzzz
  5:   ATOMOR TEMP[8].x, MEMORY[0], IMM[0].wwww, SV[0].yyyy
  6:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].zzzz
  7:   USGE TEMP[2].x, TEMP[1].xxxx, IMM[0].yyyy
  8:   UIF TEMP[2].xxxx :10
  9:     BRK
 10:   ENDIF
 11: ENDLOOP :3
 12: MOV TEMP[3], IMM[0].wwww
 13: BARRIER
 14: LOAD TEMP[3].x, MEMORY[0], IMM[0].wwww
 15: STORE BUFFER[1].x, IMM[0].wwww, TEMP[3].xxxx
 16: END
";

#[test]
fn order_free_programs_run_wide_with_softpipes_results() {
    for (name, body) in [
        ("tile", TILE),
        ("interleaved", INTERLEAVED),
        ("histogram", HISTOGRAM),
    ] {
        let text = format!("{HEADER}{body}");
        assert_eq!(why(&text, false), None, "{name}");
        let wide = dispatch(&text, [2, 1, 1], 128, false, false);
        let quads = dispatch(&text, [2, 1, 1], 128, false, true);
        assert_eq!((wide.lanes, quads.lanes), (WAVE as u32, 4), "{name}");
        assert!(wide.buffers == quads.buffers, "{name}: results differ");
        // Every invocation wrote its slot.
        let initial = buffer(128).data.to_bytes();
        assert_ne!(wide.buffers[1], initial, "{name}");
    }
}

#[test]
fn order_dependent_programs_keep_softpipes_machines() {
    let cases = [
        // A neighbour's word read between the same barriers as it is written.
        (
            "race",
            "IMM[0] UINT32 {2, 4, 0, 0}
  0: SHL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: STORE MEMORY[0].x, TEMP[0].xxxx, SV[0].xxxx
  2: UADD TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  3: LOAD TEMP[2].x, MEMORY[0], TEMP[1].xxxx
  4: STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[2].xxxx
  5: END
",
            false,
            "STORE (instruction 1) and LOAD (instruction 3) may touch the same bytes",
        ),
        // One store, run twice per invocation.
        (
            "loop",
            "IMM[0] UINT32 {2, 4, 1, 0}
  0: SHL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: BGNLOOP :0
  2:   STORE BUFFER[1].x, TEMP[0].xxxx, SV[0].xxxx
  3:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  4:   USGE TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  5:   UIF TEMP[1].xxxx :7
  6:     BRK
  7:   ENDIF
  8: ENDLOOP :1
  9: END
",
            false,
            "STORE (instruction 2) may store twice per invocation",
        ),
        // Some invocations move their address onto the other store's words in a branch:
        // after the branch the address may hold either.
        (
            "branch",
            "IMM[0] UINT32 {3, 4, 1, 0}
  0: SHL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: UADD TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  2: UIF SV[0].yyyy :4
  3:   MOV TEMP[1].x, TEMP[0].xxxx
  4: ENDIF
  5: STORE BUFFER[1].x, TEMP[1].xxxx, SV[0].xxxx
  6: UADD TEMP[2].x, TEMP[0].xxxx, IMM[0].yyyy
  7: STORE BUFFER[1].x, TEMP[2].xxxx, SV[0].yyyy
  8: END
",
            false,
            "STORE (instruction 5) and STORE (instruction 7) may touch the same bytes",
        ),
        // The histogram's count returned and stored.
        (
            "returned count",
            "IMM[0] UINT32 {3, 2, 1, 0}
  0: AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: SHL TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  2: ATOMUADD TEMP[3].x, BUFFER[1], TEMP[0].xxxx, IMM[0].zzzz
  3: SHL TEMP[1].x, SV[0].xxxx, IMM[0].yyyy
  4: STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[3].xxxx
  5: END
",
            false,
            "ATOMUADD (instruction 2) depends on the order",
        ),
        // Lanes that leave the loop before the overwrite read the returned value after it.
        (
            "returned value past a BRK",
            "IMM[0] UINT32 {3, 2, 1, 0}
  0: BGNLOOP :7
  1:   ATOMUADD TEMP[3].x, BUFFER[1], IMM[0].wwww, IMM[0].zzzz
  2:   UIF SV[0].xxxx :4
  3:     BRK
  4:   ENDIF
  5:   MOV TEMP[3], IMM[0].wwww
  6:   BRK
  7: ENDLOOP :0
  8: SHL TEMP[1].x, SV[0].xxxx, IMM[0].yyyy
  9: STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[3].xxxx
 10: END
",
            false,
            "ATOMUADD (instruction 1) depends on the order",
        ),
        // An exchange: the last one wins.
        (
            "exchange",
            "IMM[0] UINT32 {3, 2, 1, 0}
  0: ATOMXCHG TEMP[3].x, BUFFER[1], IMM[0].wwww, SV[0].xxxx
  1: END
",
            false,
            "ATOMXCHG (instruction 0) depends on the order",
        ),
        // Counting into words another instruction reads between the same barriers.
        (
            "count read back",
            "IMM[0] UINT32 {3, 2, 1, 0}
  0: ATOMUADD TEMP[3].x, BUFFER[1], IMM[0].wwww, IMM[0].zzzz
  1: LOAD TEMP[4].x, BUFFER[1], IMM[0].wwww
  2: SHL TEMP[1].x, SV[0].xxxx, IMM[0].yyyy
  3: STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[4].xxxx
  4: END
",
            false,
            "ATOMUADD (instruction 0) and LOAD (instruction 1) may touch the same bytes",
        ),
        (
            "barrier in a branch",
            "IMM[0] UINT32 {2, 4, 1, 0}
  0: UIF SV[0].xxxx :2
  1:   BARRIER
  2: ENDIF
  3: END
",
            false,
            "BARRIER (instruction 1) is inside control flow",
        ),
        // BUFFER[1] is BUFFER[0]: a store into the words others load.
        (
            "aliased buffers",
            "IMM[0] UINT32 {2, 4, 1, 0}
  0: SHL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: UADD TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
  2: LOAD TEMP[2].x, BUFFER[0], TEMP[1].xxxx
  3: STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[2].xxxx
  4: END
",
            true,
            "STORE (instruction 3) and LOAD (instruction 2) may touch the same bytes",
        ),
    ];
    for (name, body, aliased, reason) in cases {
        let text = format!("{HEADER}{body}");
        let why = why(&text, aliased).unwrap_or_else(|| panic!("{name}: proved order-free"));
        assert!(why.contains(reason), "{name}: {why}");
        let run = dispatch(&text, [2, 1, 1], 128, aliased, false);
        assert_eq!(run.lanes, 4, "{name}");
    }
    // The same program on two distinct buffers is order-free.
    let text = format!("{HEADER}{}", cases.last().expect("cases").1);
    assert_eq!(why(&text, false), None);
}

#[test]
fn random_programs_proved_order_free_give_softpipes_results() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut wide, mut with_atomics, mut total) = (0, 0, 0);
    for _ in 0..1500 {
        let text = random_program(&mut rng);
        let a = dispatch(&text, [3, 1, 1], 256, false, false);
        let b = dispatch(&text, [3, 1, 1], 256, false, true);
        total += 1;
        if a.lanes == WAVE as u32 {
            wide += 1;
            with_atomics += usize::from(text.contains("ATOM"));
            assert!(
                a.buffers == b.buffers,
                "wide waves changed a result:\n{text}"
            );
        }
    }
    // The generator must exercise the wide path, atomics included, not only the fallback.
    assert!(
        wide * 10 >= total,
        "only {wide} of {total} programs ran wide"
    );
    assert!(
        with_atomics >= 20,
        "only {with_atomics} programs with atomics ran wide"
    );
}

#[test]
fn small_blocks_run_on_half_waves_with_softpipes_results() {
    // A block of 4×4 threads fills four quads: the interpreter runs it on 16-lane waves;
    // 5×3 threads make six quads (rows of four threads), which need the whole wave.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut half = 0;
    for k in 0..300 {
        let (w, h, lanes) = if k % 3 == 0 {
            (5, 3, WAVE)
        } else {
            (4, 4, HALF_WAVE)
        };
        let text = random_program(&mut rng)
            .replace(
                "CS_FIXED_BLOCK_WIDTH 8",
                &format!("CS_FIXED_BLOCK_WIDTH {w}"),
            )
            .replace(
                "CS_FIXED_BLOCK_HEIGHT 4",
                &format!("CS_FIXED_BLOCK_HEIGHT {h}"),
            );
        let a = dispatch(&text, [3, 1, 1], 256, false, false);
        let b = dispatch(&text, [3, 1, 1], 256, false, true);
        if a.lanes == 4 {
            continue;
        }
        assert_eq!(a.lanes, lanes as u32, "{w}x{h}:\n{text}");
        assert!(a.buffers == b.buffers, "{w}x{h} changed a result:\n{text}");
        half += usize::from(lanes == HALF_WAVE);
    }
    assert!(half >= 20, "only {half} programs ran on half waves");
}

/// Two stores per invocation at `tid << CONST[0][0].x` and 4 bytes further in BUFFER[1],
/// and a load at the first place in BUFFER[0]: order-free when the shift makes records of
/// 8 bytes or more and the two slots' bytes are apart.
const STRIDED: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL CONST[0][0]
DCL TEMP[0..2]
IMM[0] UINT32 {4, 0, 0, 0}
  0: SHL TEMP[0].x, SV[0].xxxx, CONST[0][0].xxxx
  1: STORE BUFFER[1].x, TEMP[0].xxxx, SV[0].xxxx
  2: UADD TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx
  3: STORE BUFFER[1].x, TEMP[1].xxxx, SV[0].xxxx
  4: LOAD TEMP[2].x, BUFFER[0], TEMP[0].xxxx
  5: END
";

#[test]
fn a_kept_proof_follows_every_input_it_depends_on() {
    use std::sync::Arc;
    use tgsi_exec::resource::{BufferView, Resources};
    let kept = compile(STRIDED);
    let (a, b) = (buffer(64), buffer(64));
    let view = |r: &Arc<_>, offset: u32| {
        Some(BufferView {
            offset,
            ..BufferView::whole(r)
        })
    };
    let apart = Resources {
        buffers: vec![view(&a, 0), view(&b, 0)],
        ..Resources::default()
    };
    let shared = Resources {
        buffers: vec![view(&a, 0), view(&a, 0)],
        ..Resources::default()
    };
    let shared_apart = Resources {
        buffers: vec![view(&a, 0), view(&a, 128)],
        ..Resources::default()
    };
    // (shift, resources, block width, grid): each differs from the one before in one input.
    let dispatches = [
        (3, &apart, 8, 1, true),
        (3, &apart, 8, 1, true),
        (2, &apart, 8, 1, false),
        (3, &apart, 8, 1, true),
        (3, &shared, 8, 1, false),
        (3, &shared_apart, 8, 1, true),
        (3, &shared_apart, 32, 1, false),
        (3, &shared_apart, 8, 1, true),
        (3, &shared_apart, 8, 2, true),
        (3, &shared, 8, 2, false),
    ];
    for (i, &(shift, res, width, groups, wide)) in dispatches.iter().enumerate() {
        let opts = ComputeOptions {
            grid: [groups, 1, 1],
            constants: vec![vec![[shift, 0, 0, 0]]],
            resources: res,
            ..ComputeOptions::default()
        };
        let block = [width, 1, 1];
        let fresh = order_dependence(&compile(STRIDED), &opts, block);
        let answer = order_dependence(&kept, &opts, block);
        assert_eq!(answer, fresh, "dispatch {i}");
        assert_eq!(answer.is_none(), wide, "dispatch {i}: {answer:?}");
    }
}
