//! The JIT engine's contract: what it compiles and what it leaves to the interpreter (with
//! a reason), the same error as the interpreter when the budget runs out, and discards,
//! early returns and nested loops giving the interpreter's bits.

use tgsi_exec::{render_fragment, render_fragment_with, Program, RenderOptions};
use tgsi_jit::Engine;

fn engine(text: &str) -> (Program, Engine) {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{e}"));
    (program.clone(), Engine::new(program))
}

/// Both engines' output words for the same vertices are equal (`what` names the case).
fn same_vertices(program: &Program, jit: &Engine, opts: &tgsi_exec::VertexOptions, what: &str) {
    let want = tgsi_exec::run_vertices(program, opts).unwrap();
    let got = tgsi_exec::run_vertices_with(jit, opts).unwrap();
    assert_eq!(want.values, got.values, "{what}");
}

fn same_image(text: &str, opts: &RenderOptions) {
    let (program, jit) = engine(text);
    assert!(jit.is_compiled(), "{:?}", jit.fallback_reason());
    let want = render_fragment(&program, opts).map(|i| i.to_le_bytes());
    let got = render_fragment_with(&jit, opts).map(|i| i.to_le_bytes());
    assert_eq!(want, got);
}

#[test]
fn falls_back_with_a_reason() {
    let (_, e) = engine("GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\n  0: END\n");
    assert_eq!(
        e.fallback_reason().map(|r| r.0.as_str()),
        Some("GEOM shaders run on the interpreter")
    );
    // Compute programs compile unless a barrier is inside control flow.
    let (_, e) = engine("COMP\nDCL SV[0], THREAD_ID\n  0: BARRIER\n  1: END\n");
    assert!(e.is_compiled(), "{:?}", e.fallback_reason());
    let (_, e) = engine(
        "COMP\nDCL SV[0], THREAD_ID\n  0: UIF SV[0].xxxx\n  1: BARRIER\n  2: ENDIF\n  3: END\n",
    );
    assert!(e
        .fallback_reason()
        .is_some_and(|r| r.0.contains("BARRIER (instruction 1) inside control flow")));
    let (_, e) = engine(
        "FRAG\nDCL OUT[0], COLOR\n  0: BGNSUB\n  1: RET\n  2: ENDSUB\n  3: CAL :0\n  4: END\n",
    );
    assert!(e
        .fallback_reason()
        .is_some_and(|r| r.0.contains("BGNSUB (instruction 0)")));
    let (_, e) = engine(
        "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n",
    );
    assert!(e.is_compiled());
}

#[test]
fn an_endless_loop_fails_exactly_as_on_the_interpreter() {
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n  0: BGNLOOP\n  1: ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n  2: ENDLOOP\n  3: MOV OUT[0], TEMP[0]\n  4: END\n";
    let opts = RenderOptions {
        width: 4,
        height: 2,
        budget: 1000,
        ..Default::default()
    };
    let (program, jit) = engine(text);
    let want = render_fragment(&program, &opts).map(|_| ()).unwrap_err();
    let got = render_fragment_with(&jit, &opts).map(|_| ()).unwrap_err();
    assert_eq!(want, got);
    assert!(want.to_string().contains("budget of 1000"), "{want}");
}

#[test]
fn leaving_a_loop_early_restores_the_masks() {
    // Half the lanes run a loop that every lane leaves in its second pass, the upper row of
    // each quad at one BRK and the lower row (last) at another, in the ELSE of the first,
    // with an IF/ELSE and an inner loop still ahead: the JIT goes to the loop's end at once, and after it the
    // condition mask must be the loop's own again (the lanes of both BRKs), then the
    // outer ELSE's.
    same_image(
        "FRAG
DCL IN[0], POSITION
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT32 {1.0, 3.0, 0.5, 0.0}
IMM[1] FLT32 {4.0, 0.25, 2.0, 0.0}
  0: MOV TEMP[0], IMM[0].wwww
  1: MOV TEMP[1], IN[0]
  2: SLT TEMP[3].x, IN[0].xxxx, IMM[1].xxxx
  3: IF TEMP[3].xxxx
  4:   BGNLOOP
  5:     SGE TEMP[2].x, TEMP[0].xxxx, IMM[0].zzzz
  6:     IF TEMP[2].xxxx
  7:       SLT TEMP[2].w, IN[0].yyyy, IMM[0].xxxx
  8:       IF TEMP[2].wwww
  9:         BRK
 10:       ELSE
 11:         BRK
 12:       ENDIF
 13:     ENDIF
 14:     ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
 15:     SLT TEMP[2].y, TEMP[1].yyyy, IMM[1].zzzz
 16:     IF TEMP[2].yyyy
 17:       MUL TEMP[1], TEMP[1], IMM[0].zzzz
 18:     ELSE
 19:       ADD TEMP[1], TEMP[1], IMM[0].zzzz
 20:     ENDIF
 21:     MOV TEMP[0].y, IMM[0].wwww
 22:     BGNLOOP
 23:       ADD TEMP[0].y, TEMP[0].yyyy, IMM[0].xxxx
 24:       SGE TEMP[2].z, TEMP[0].yyyy, IMM[0].yyyy
 25:       IF TEMP[2].zzzz
 26:         BRK
 27:       ENDIF
 28:       MAD TEMP[1], TEMP[1], IMM[0].zzzz, IMM[0].xxxx
 29:     ENDLOOP
 30:   ENDLOOP
 31:   MUL TEMP[1], TEMP[1], IMM[1].yyyy
 32: ELSE
 33:   MOV TEMP[1], IMM[1]
 34: ENDIF
 35: MOV OUT[0], TEMP[1]
 36: END
",
        &RenderOptions {
            width: 8,
            height: 8,
            clear: [-1.0, -2.0, -3.0, -4.0],
            ..Default::default()
        },
    );
}

#[test]
fn kills_returns_and_nested_loops_match_the_interpreter() {
    let opts = RenderOptions {
        width: 11,
        height: 7,
        clear: [-1.0, -2.0, -3.0, -4.0],
        ..Default::default()
    };
    // Discards on a checkerboard, an early RET on a diagonal band, and a loop whose trip
    // count depends on the pixel, with CONT and BRK inside an IF/ELSE.
    same_image(
        "FRAG
DCL IN[0], POSITION
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] FLT32 {0.5, 1.0, 3.0, 0.0}
IMM[1] FLT32 {7.0, 0.25, 2.0, -1.0}
  0: MUL TEMP[0].xy, IN[0].xyyy, IMM[0].xxxx
  1: FRC TEMP[0].xy, TEMP[0].xyyy
  2: ADD TEMP[0].z, TEMP[0].xxxx, TEMP[0].yyyy
  3: SEQ TEMP[0].w, TEMP[0].zzzz, IMM[0].yyyy
  4: KILL_IF -TEMP[0].wwww
  5: MOV TEMP[1], IMM[0].wwww
  6: MOV TEMP[2].x, IMM[0].wwww
  7: BGNLOOP
  8:   ADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
  9:   SGE TEMP[0].w, TEMP[2].xxxx, IN[0].xxxx
 10:   IF TEMP[0].wwww
 11:     BRK
 12:   ELSE
 13:     SLT TEMP[0].w, TEMP[2].xxxx, IMM[0].zzzz
 14:     IF TEMP[0].wwww
 15:       CONT
 16:     ENDIF
 17:   ENDIF
 18:   MAD TEMP[1], TEMP[1], IMM[1].yyyy, IMM[1].zzzz
 19: ENDLOOP
 20: ADD TEMP[0].w, IN[0].xxxx, -IN[0].yyyy
 21: ABS TEMP[0].w, TEMP[0].wwww
 22: SLT TEMP[0].w, TEMP[0].wwww, IMM[0].yyyy
 23: MOV OUT[0], TEMP[1]
 24: IF TEMP[0].wwww
 25:   MOV OUT[0], IMM[1]
 26:   RET
 27: ENDIF
 28: MUL_SAT OUT[0], TEMP[1], IMM[1].wwww
 29: END
",
        &opts,
    );
}

#[test]
fn constants_outside_the_bound_buffers_read_zero() {
    let text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\nDCL OUT[2], GENERIC[2]\nDCL CONST[0][0..3]\nDCL CONST[5][2]\n  0: ADD OUT[0], IN[0], CONST[0][1]\n  1: MOV OUT[1], CONST[5][2]\n  2: MOV OUT[2], CONST[0][3000]\n  3: END\n";
    let (program, jit) = engine(text);
    assert!(jit.is_compiled());
    for constants in [vec![], vec![vec![[0x3f80_0000, 2, 3, 4]; 2]]] {
        let opts = tgsi_exec::VertexOptions {
            count: 5,
            inputs: vec![tgsi_exec::VertexInput::Constant([1, 2, 3, 4])],
            constants,
            ..Default::default()
        };
        same_vertices(&program, &jit, &opts, "");
    }
}

#[test]
fn very_long_programs_run_on_the_interpreter() {
    let n = tgsi_jit::support::MAX_INSTRUCTIONS + 1;
    let mut text = String::from("FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n");
    for i in 0..n {
        text.push_str(&format!("{i:5}: ADD TEMP[0], TEMP[0], TEMP[0]\n"));
    }
    text.push_str(&format!("{n:5}: END\n"));
    let (_, e) = engine(&text);
    assert!(e
        .fallback_reason()
        .is_some_and(|r| r.0.contains("more than the JIT compiles")));
}

/// A register file past the JIT's bound (which the text's limits never reach, but a
/// program built in memory may) runs on the interpreter.
#[test]
fn huge_register_files_run_on_the_interpreter() {
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL ADDR[0]\nDCL TEMP[0..3], ARRAY(1)\n\
                0: MOV OUT[0], TEMP[ADDR[0].x+1](1)\n1: END\n";
    let mut shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let within = Program::compile(&shader).unwrap_or_else(|e| panic!("{e}"));
    assert!(Engine::new(within).is_compiled());
    let temps = shader
        .declarations
        .iter_mut()
        .find(|d| d.file == tgsi::File::Temporary)
        .expect("a TEMP declaration");
    temps.last = tgsi_jit::support::MAX_REGISTERS as u32;
    let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{e}"));
    let why = Engine::new(program).fallback_reason().cloned();
    assert!(
        why.as_ref().is_some_and(|r| r.0.contains("register file")),
        "{why:?}"
    );
}

#[test]
fn programs_whose_compiled_form_is_too_big_run_on_the_interpreter() {
    // Within the instruction limit, but integer divisions (a long vector sequence each,
    // per channel) with a sample every 50 instructions: far more Cranelift code than the
    // JIT compiles (such programs once took seconds).
    let n = tgsi_jit::support::MAX_INSTRUCTIONS - 100;
    let mut text = String::from(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
         DCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..63]\nIMM[0] FLT32 {0.5, 0.25, 1.0, 2.0}\n",
    );
    for i in 0..n {
        let (d, a, b) = (i * 7 % 64, i * 13 % 64, i * 29 % 64);
        if i % 50 == 0 {
            text.push_str(&format!("{i}: TEX TEMP[{d}], TEMP[{a}], SAMP[0], 2D\n"));
        } else {
            text.push_str(&format!("{i}: UDIV TEMP[{d}], TEMP[{a}], TEMP[{b}]\n"));
        }
    }
    text.push_str(&format!("{n}: MOV OUT[0], TEMP[0]\n{}: END\n", n + 1));
    let (_, e) = engine(&text);
    let why = e.fallback_reason().expect("runs on the interpreter");
    assert!(why.0.contains("Cranelift instructions"), "{why}");
}

#[test]
fn indirect_constants_match_the_interpreter_in_and_out_of_range() {
    let text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\nDCL ADDR[0]\nDCL CONST[0][0..3]\nDCL TEMP[0]\n  0: ARL ADDR[0].xy, IN[0].xyyy\n  1: MOV OUT[0], CONST[0][ADDR[0].x+2]\n  2: IF IN[0].zzzz\n  3:   ADD OUT[1], IN[0], -CONST[0][ADDR[0].y]\n  4: ENDIF\n  5: END\n";
    let (program, jit) = engine(text);
    assert!(jit.is_compiled());
    let inputs = (0..23)
        .map(|v| {
            let f = |x: f32| x.to_bits();
            [
                f(v as f32 - 5.0),
                f(3.0 - v as f32 * 0.5),
                f((v % 3) as f32),
                0,
            ]
        })
        .collect();
    let opts = tgsi_exec::VertexOptions {
        count: 23,
        inputs: vec![tgsi_exec::VertexInput::PerVertex(inputs)],
        constants: vec![(0..4).map(|i| [i, i + 10, i + 20, i + 30]).collect()],
        ..Default::default()
    };
    same_vertices(&program, &jit, &opts, "");
}

/// Indirect constant registers are loaded whole once per instruction and operand: every
/// channel and swizzle of them, two operands of one instruction at different offsets, a
/// second buffer, an unbound one, the address register rewritten in the same block and
/// reads in a branch give the interpreter's words.
#[test]
fn indirect_constant_rows_serve_every_channel_and_operand() {
    let text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\nDCL OUT[2], GENERIC[2]\nDCL OUT[3], GENERIC[3]\nDCL ADDR[0]\nDCL CONST[0][0..3]\nDCL CONST[1][0..5]\nDCL CONST[2][0..1]\n\
          0: ARL ADDR[0].xy, IN[0].xyyy\n\
          1: MAD OUT[0], CONST[0][ADDR[0].x].wzyx, CONST[0][ADDR[0].y], CONST[0][ADDR[0].x].xxxx\n\
          2: DP4 OUT[1].x, CONST[1][ADDR[0].x+1], CONST[1][ADDR[0].x]\n\
          3: MAD OUT[1].yzw, CONST[0][ADDR[0].y].zzyx, CONST[1][ADDR[0].x], -CONST[2][ADDR[0].x]\n\
          4: ARL ADDR[0].x, IN[0].zzzz\n\
          5: MOV OUT[2], CONST[1][ADDR[0].x].ywzx\n\
          6: IF IN[0].wwww\n\
          7:   ARL ADDR[0].x, IN[0].yyyy\n\
          8:   MOV OUT[3], |CONST[0][ADDR[0].x+1].yxwz|\n\
          9: ENDIF\n\
          10: END\n";
    let (program, jit) = engine(text);
    assert!(jit.is_compiled());
    let inputs = (0..23)
        .map(|v| {
            [
                v as f32 * 0.5 - 3.0,
                4.0 - (v % 9) as f32,
                (v % 7) as f32 - 1.0,
                (v % 2) as f32,
            ]
            .map(f32::to_bits)
        })
        .collect();
    let reg = |i: u32| [0.5, -1.25, 3.0, 7.5].map(|x: f32| (x * (i as f32 + 1.0)).to_bits());
    let opts = tgsi_exec::VertexOptions {
        count: 23,
        inputs: vec![tgsi_exec::VertexInput::PerVertex(inputs)],
        constants: vec![(0..4).map(reg).collect(), (10..16).map(reg).collect()],
        ..Default::default()
    };
    same_vertices(&program, &jit, &opts, "");
}

/// Temporaries read and written through ADDR give the interpreter's words: reads lane by
/// lane inside, below and past the file, a lane outside the execution mask reading
/// `TEMP[0]`; writes at the index of each quad's first lane (whatever the other lanes'
/// addresses), dropped for a quad whose index lies outside the file, blended under the
/// execution mask in a branch.
#[test]
fn indirect_temporaries_match_the_interpreter_in_and_out_of_range() {
    let mut text = String::from(
        "VERT\nDCL IN[0]\nDCL ADDR[0]\nDCL TEMP[0..5], ARRAY(1)\nDCL TEMP[6..7]\n\
         IMM[0] FLT32 {1.5, -2.0, 0.25, 8.0}\n",
    );
    for o in 0..11 {
        text.push_str(&format!("DCL OUT[{o}], GENERIC[{o}]\n"));
    }
    let body = [
        "MOV TEMP[0], IN[0]",
        "MOV TEMP[1], IN[0].yzwx",
        "MUL TEMP[2], IN[0], IMM[0]",
        "ADD TEMP[3], IN[0].wzyx, IMM[0].wzyx",
        "MOV TEMP[4], IMM[0]",
        "MOV TEMP[5], -IN[0]",
        "MOV TEMP[6], IMM[0].yxwz",
        "MOV TEMP[7], IMM[0].zzzz",
        "ARL ADDR[0].xy, IN[0].xyyy",
        "MOV OUT[0], TEMP[ADDR[0].x+1]",
        "ADD TEMP[ADDR[0].y+2].xz, IN[0], TEMP[ADDR[0].x](1).wzyx",
        "IF IN[0].zzzz",
        "  MOV TEMP[ADDR[0].x].yw, IN[0].xxyy",
        "  MOV OUT[1], TEMP[ADDR[0].y](1)",
        "ENDIF",
        "MOV OUT[2], TEMP[0]",
        "MOV OUT[3], TEMP[1]",
        "MOV OUT[4], TEMP[2]",
        "MOV OUT[5], TEMP[3]",
        "MOV OUT[6], TEMP[4]",
        "MOV OUT[7], TEMP[5]",
        "MOV OUT[8], TEMP[6]",
        "MOV OUT[9], TEMP[7]",
        "MOV OUT[10], TEMP[ADDR[0].y+3]",
        "END",
    ];
    for (i, line) in body.iter().enumerate() {
        text.push_str(&format!("{i}: {line}\n"));
    }
    let (program, jit) = engine(&text);
    assert!(jit.is_compiled());
    assert!(jit.fallback_reason().is_none());
    // Addresses: the first lanes of the quads (vertices 0, 4, 8…) name registers −1 and 8
    // (just outside the file of 8) as well as inside it; then every lane the same address
    // (one load a quad), inside the file and just outside it.
    let xs = [
        -1, 5, 8, 2, 8, -3, 0, 7, 7, 1, 9, -2, 0, 3, 6, 4, -1, 2, 8, 5, 3, 10, 6,
    ];
    let ys = [
        6, 0, 1, -2, -3, 4, 2, 5, -2, 3, 0, 6, 2, -1, 4, 3, 6, 1, 0, 2, 5, 4, -2,
    ];
    let per_lane: Vec<(i32, i32)> = xs.into_iter().zip(ys).collect();
    for addresses in [
        per_lane,
        vec![(2, 1); 23],
        vec![(7, -2); 23],
        vec![(-1, 6); 23],
    ] {
        let inputs = (0..23)
            .map(|v| {
                let (x, y) = addresses[v];
                [
                    x as f32,
                    y as f32,
                    (v % 3 == 1) as u32 as f32,
                    v as f32 * 0.5,
                ]
                .map(f32::to_bits)
            })
            .collect();
        let opts = tgsi_exec::VertexOptions {
            count: 23,
            inputs: vec![tgsi_exec::VertexInput::PerVertex(inputs)],
            ..Default::default()
        };
        same_vertices(
            &program,
            &jit,
            &opts,
            &format!("addresses {:?}", &addresses[..4]),
        );
    }
}

#[test]
fn direct_constants_read_zero_past_short_and_unbound_buffers() {
    // The compiled code reads direct constants with no bounds check, from buffers the host
    // pads: past the end of a short buffer, in an unbound one, in a buffer the program
    // reads beyond the direct limit (checked), with and without modifiers.
    let text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\nDCL OUT[2], GENERIC[2]\nDCL CONST[0][0..5000]\nDCL CONST[1][0..7]\nDCL CONST[3][0..2]\n\
          0: MUL OUT[0], IN[0], CONST[0][1]\n\
          1: ADD OUT[0].yw, OUT[0], -CONST[0][6].wzyx\n\
          2: MAD OUT[1], CONST[1][7], -CONST[3][2], CONST[1][2].zzzz\n\
          3: ADD OUT[2], -CONST[0][4095], CONST[0][5000]\n\
          4: END\n";
    let (program, jit) = engine(text);
    assert!(jit.is_compiled());
    let inputs = (0..9)
        .map(|v| [v as f32, 1.5, -2.0, v as f32 * 0.25].map(f32::to_bits))
        .collect::<Vec<_>>();
    let word = |i: u32| (i as f32 * 0.5 + 1.0).to_bits();
    // Buffer 0: 3 registers (reads up to 5000); buffer 1: 4 (reads 7); 2 and 3 unbound.
    for constants in [
        vec![
            (0..3).map(|i| [word(i); 4]).collect::<Vec<_>>(),
            (0..4).map(|i| [word(i + 10); 4]).collect(),
        ],
        vec![(0..5001).map(|i| [word(i), 0, word(2 * i), 1]).collect()],
        Vec::new(),
    ] {
        let opts = tgsi_exec::VertexOptions {
            count: inputs.len(),
            inputs: vec![tgsi_exec::VertexInput::PerVertex(inputs.clone())],
            constants,
            ..Default::default()
        };
        same_vertices(&program, &jit, &opts, "");
    }
}

/// Found by the `jit_text` fuzz target: LRP's NaN result depends on its operation order,
/// which the scalar definition now fixes and the JIT follows.
#[test]
fn lrp_of_two_nans_keeps_the_defined_one() {
    let text = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: ABS TEMP[0], IN[0]\n  1: LRP OUT[0], TEMP[0], IN[1].xxxx, IN[1].yyyy\n  2: END\n";
    let (program, jit) = engine(text);
    let words = [
        0x7fc0_0000,
        0xffff_ffff,
        0x3f80_0000,
        0xffc0_0000,
        0x7f80_0001,
    ];
    let pairs: Vec<[u32; 4]> = words
        .iter()
        .flat_map(|&a| words.iter().map(move |&b| [a, b, a, b]))
        .collect();
    let opts = tgsi_exec::VertexOptions {
        count: pairs.len(),
        inputs: vec![
            tgsi_exec::VertexInput::PerVertex(pairs.clone()),
            tgsi_exec::VertexInput::PerVertex(pairs.iter().map(|p| [p[1], p[0], 0, 0]).collect()),
        ],
        ..Default::default()
    };
    same_vertices(&program, &jit, &opts, "");
}

#[test]
fn a_temporary_read_through_an_address_with_no_temporaries_declared_reads_zero() {
    // Found by fuzzing (`jit_text`): the lane-by-lane read took register 0 for an index
    // outside the file, and a program without temporaries has no register 0 — the
    // compiled code read outside the machine's memory and crashed the process.
    let text = "FRAG\nDCL IN[0], GENERIC[1]\n  0: UARL ADDR[0].x, IN[0].xxxx\n\
                  1: MOV OUT[0], TEMP[ADDR[0].x+7](1)\n  2: END\n";
    let opts = RenderOptions {
        width: 6,
        height: 4,
        inputs: vec![[0, 1, 2, 3]; 4],
        ..Default::default()
    };
    same_image(text, &opts);
}

/// Quads per call of the JIT's code for `text`.
fn quads_per_call(text: &str) -> usize {
    let (program, _) = engine(text);
    tgsi_jit::JitProgram::compile(program)
        .unwrap_or_else(|e| panic!("{e}"))
        .quads_per_call()
}

/// A straight-line fragment shader of `n` vec4 multiply-adds over a few temporaries.
fn straight_line(n: usize) -> String {
    let mut text = String::from(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\n\
         IMM[0] FLT32 {0.5, 0.25, 1.0, 2.0}\n0: MOV TEMP[0], IN[0]\n1: MOV TEMP[1], IN[0].yzwx\n",
    );
    for i in 0..n {
        let (d, a, b) = ((i + 2) % 4, i % 4, (i + 1) % 4);
        text.push_str(&format!(
            "{}: MAD TEMP[{d}], TEMP[{a}], IMM[0].yxwz, TEMP[{b}].wzyx\n",
            i + 2
        ));
    }
    text.push_str(&format!(
        "{}: MOV OUT[0], TEMP[{}]\n{}: END\n",
        n + 2,
        (n + 1) % 4,
        n + 3
    ));
    text
}

#[test]
fn straight_line_code_runs_several_quads_per_call_unless_it_is_big() {
    let opts = RenderOptions {
        width: 13,
        height: 7,
        ..Default::default()
    };
    // Four quads per call, their dependency chains side by side; fewer where the function
    // would be big (and a quad at a time for a very big one); the same bits in every case,
    // on an image whose last calls have quads without lanes.
    let small = straight_line(20);
    assert_eq!(quads_per_call(&small), 4);
    same_image(&small, &opts);
    let big = straight_line(150);
    assert!(
        (2..4).contains(&quads_per_call(&big)),
        "{}",
        quads_per_call(&big)
    );
    same_image(&big, &opts);
    let huge = straight_line(2000);
    assert_eq!(quads_per_call(&huge), 1);
    same_image(&huge, &opts);
}

/// A fragment shader whose loop halves its input until its x falls under a quarter (a
/// trip count that differs from pixel to pixel), writing `extra` more temporaries (four
/// channels each) on every trip.
fn looped(extra: usize) -> String {
    let mut text = format!(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..{extra}]\n\
         IMM[0] FLT32 {{0.5, 0.25, 1.0, 2.0}}\n0: MOV TEMP[0], IN[0]\n1: BGNLOOP\n\
         2: MUL TEMP[0], TEMP[0], IMM[0].xxxx\n"
    );
    let mut pc = 3;
    for t in 1..=extra {
        text.push_str(&format!(
            "{pc}: ADD TEMP[{t}], TEMP[{}], TEMP[0].yzwx\n",
            t - 1
        ));
        pc += 1;
    }
    text.push_str(&format!(
        "{pc}: FSLT TEMP[0].w, TEMP[0].xxxx, IMM[0].yyyy\n{}: UIF TEMP[0].wwww\n{}: BRK\n\
         {}: ENDIF\n{}: ENDLOOP\n{}: ADD OUT[0], TEMP[0], TEMP[{extra}]\n{}: END\n",
        pc + 1,
        pc + 2,
        pc + 3,
        pc + 4,
        pc + 5,
        pc + 6
    ));
    text
}

#[test]
fn loops_are_compiled_for_one_and_two_quads_and_timing_chooses() {
    // Two quads first where the loop keeps few values, one where it keeps many (36
    // channels); the other count compiled when due, here at the first wave.
    let tuning_at_once = tgsi_jit::Options {
        tuning: Some(0),
        ..Default::default()
    };
    for (extra, compiled) in [(0, [2, 1]), (8, [1, 2])] {
        let (program, _) = engine(&looped(extra));
        let jit = tgsi_jit::JitProgram::compile_with(program.clone(), tuning_at_once)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            jit.quads_per_call_compiled(),
            [compiled[0]],
            "{extra} more temporaries"
        );
        assert_eq!(jit.quads_per_call(), compiled[0]);
        // The first wave compiles the second form, the next alternate the two until the
        // timing of enough pairs chooses, and the rest run the chosen one: the
        // interpreter's bits throughout (a small image, then 512 waves: 256 timed, the
        // rest the chosen form).
        for (width, height) in [(13, 7), (128, 128)] {
            let opts = RenderOptions {
                width,
                height,
                ..Default::default()
            };
            let want = render_fragment(&program, &opts).map(|i| i.to_le_bytes());
            let got = render_fragment_with(&jit, &opts).map(|i| i.to_le_bytes());
            assert_eq!(want, got, "{extra} more temporaries, {width}x{height}");
            assert_eq!(jit.quads_per_call_compiled(), compiled);
        }
        assert!(compiled.contains(&jit.quads_per_call()));
    }
    // By default the second form waits until the first has run ten times its compile time;
    // with tuning off it never comes.
    let (program, _) = engine(&looped(0));
    let off = tgsi_jit::Options {
        tuning: None,
        ..Default::default()
    };
    let jit = tgsi_jit::JitProgram::compile_with(program.clone(), off).unwrap();
    let opts = RenderOptions {
        width: 128,
        height: 128,
        ..Default::default()
    };
    render_fragment_with(&jit, &opts).unwrap();
    assert_eq!(jit.quads_per_call_compiled(), [2]);
}
