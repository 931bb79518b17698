//! Control flow with divergent lanes (IF/ELSE, loops with per-lane BRK/CONT, SWITCH
//! fall-through, CAL/RET, KILL in divergent code), the instruction budget, compile-time
//! structure errors, and derivatives of known functions of the pixel position.

mod common;
use common::{compile, lanes, run_wave};
use tgsi_exec::machine::Reg;
use tgsi_exec::{render_fragment, ExecError, Program, RenderOptions};

/// IN[0] = (lane as float, lane as int, 0, 0) in lane l.
fn lane_ids() -> Reg<4> {
    [
        [0.0f32, 1.0, 2.0, 3.0].map(f32::to_bits),
        [0, 1, 2, 3],
        [0; 4],
        [0; 4],
    ]
}

/// Run on one quad with [`lane_ids`]; OUT[0].x per lane as floats.
fn run_x(body: &str) -> [f32; 4] {
    let text =
        format!("FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\n{body}");
    let (out, _) = run_wave::<4>(&text, &[lane_ids()], &[]).unwrap();
    out[0][0].map(f32::from_bits)
}

#[test]
fn if_else_with_divergent_lanes() {
    let got = run_x(
        "IMM[0] FLT32 {1.0, 2.0, 10.0, 100.0}\n\
         IMM[1] UINT32 {1, 0, 0, 0}\n\
           0: AND TEMP[0].x, IN[0].yyyy, IMM[1].xxxx\n\
           1: UIF TEMP[0].xxxx :4\n\
           2:   MOV OUT[0].x, IMM[0].xxxx\n\
           3: ELSE :8\n\
           4:   MOV OUT[0].x, IMM[0].yyyy\n\
           5:   IF IN[0].xxxx :7\n\
           6:     ADD OUT[0].x, OUT[0].xxxx, IMM[0].zzzz\n\
           7:   ENDIF\n\
           8: ENDIF\n\
           9: END\n",
    );
    assert_eq!(got, [2.0, 1.0, 12.0, 1.0]);
}

#[test]
fn labels_are_only_hints() {
    // Wrong labels everywhere: targets come from the structure.
    let got = run_x(
        "IMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
           0: IF IN[0].xxxx :0\n\
           1:   MOV OUT[0].x, IMM[0].xxxx\n\
           2: ELSE :0\n\
           3:   MOV OUT[0].x, IMM[0].yyyy\n\
           4: ENDIF\n\
           5: END\n",
    );
    assert_eq!(got, [2.0, 1.0, 1.0, 1.0]);
}

#[test]
fn loops_with_per_lane_break_and_continue() {
    // for (i = 0; ; i++) { if (i > lane) break; if (i == 1) continue; sum += 1 + i*10; }
    let got = run_x(
        "IMM[0] FLT32 {1.0, 10.0, 0.0, 0.0}\n\
           0: MOV TEMP[0].x, IMM[0].zzzz\n\
           1: MOV OUT[0].x, IMM[0].zzzz\n\
           2: BGNLOOP :13\n\
           3:   SLT TEMP[1].x, IN[0].xxxx, TEMP[0].xxxx\n\
           4:   IF TEMP[1].xxxx :6\n\
           5:     BRK\n\
           6:   ENDIF\n\
           7:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n\
           8:   SEQ TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx\n\
           9:   IF TEMP[1].xxxx :11\n\
          10:     CONT\n\
          11:   ENDIF\n\
          12:   MAD OUT[0].x, TEMP[0].xxxx, IMM[0].yyyy, OUT[0].xxxx\n\
          13: ENDLOOP :2\n\
          14: END\n",
    );
    // lane n runs i = 0..=n; after the increment i = 1..=n+1, skipping 1.
    assert_eq!(got, [0.0, 20.0, 50.0, 90.0]);
}

#[test]
fn switch_falls_through_until_break() {
    let got = run_x(
        "IMM[0] UINT32 {0, 1, 2, 0}\n\
         IMM[1] FLT32 {1.0, 10.0, 100.0, 1000.0}\n\
           0: MOV OUT[0].x, IMM[1].wwww\n\
           1: ADD OUT[0].x, OUT[0].xxxx, -OUT[0].xxxx\n\
           2: SWITCH IN[0].yyyy\n\
           3: CASE IMM[0].xxxx\n\
           4:   ADD OUT[0].x, OUT[0].xxxx, IMM[1].xxxx\n\
           5: CASE IMM[0].yyyy\n\
           6:   ADD OUT[0].x, OUT[0].xxxx, IMM[1].yyyy\n\
           7:   BRK\n\
           8: CASE IMM[0].zzzz\n\
           9:   ADD OUT[0].x, OUT[0].xxxx, IMM[1].zzzz\n\
          10:   BRK\n\
          11: DEFAULT\n\
          12:   ADD OUT[0].x, OUT[0].xxxx, IMM[1].wwww\n\
          13:   BRK\n\
          14: ENDSWITCH\n\
          15: END\n",
    );
    assert_eq!(got, [11.0, 10.0, 100.0, 1000.0]);
}

#[test]
fn call_and_return_with_divergent_early_return() {
    // sub: out = 1; if (lane odd) return; out = 5
    let got = run_x(
        "IMM[0] FLT32 {1.0, 5.0, 7.0, 0.0}\n\
         IMM[1] UINT32 {1, 0, 0, 0}\n\
           0: AND TEMP[0].x, IN[0].yyyy, IMM[1].xxxx\n\
           1: CAL :5\n\
           2: ADD OUT[0].x, OUT[0].xxxx, IMM[0].zzzz\n\
           3: END\n\
           4: NOP\n\
           5: BGNSUB\n\
           6:   MOV OUT[0].x, IMM[0].xxxx\n\
           7:   UIF TEMP[0].xxxx :9\n\
           8:     RET\n\
           9:   ENDIF\n\
          10:   MOV OUT[0].x, IMM[0].yyyy\n\
          11: ENDSUB\n",
    );
    assert_eq!(got, [12.0, 8.0, 12.0, 8.0]);
}

#[test]
fn return_from_main_stops_only_returned_lanes() {
    let got = run_x(
        "IMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
           0: MOV OUT[0].x, IMM[0].xxxx\n\
           1: IF IN[0].xxxx :3\n\
           2:   RET\n\
           3: ENDIF\n\
           4: MOV OUT[0].x, IMM[0].yyyy\n\
           5: END\n",
    );
    assert_eq!(got, [2.0, 1.0, 1.0, 1.0]);
}

#[test]
fn kill_in_divergent_code() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n\
                IMM[0] FLT32 {-1.0, 0.0, 0.0, 0.0}\n\
                  0: IF IN[0].xxxx :3\n\
                  1:   KILL_IF -IN[0].zzzx\n\
                  2: ENDIF\n\
                  3: KILL_IF IMM[0].yyyy\n\
                  4: END\n";
    let mut input = lane_ids();
    input[2] = [0.0f32, 0.0, -0.0, f32::NAN].map(f32::to_bits);
    let (_, alive) = run_wave::<4>(text, &[input], &[]).unwrap();
    // Lane 0 skips the IF. In lanes 1..3, -z is −0, +0 and −NaN (none kills) but -x < 0 kills.
    assert_eq!(alive, 0b0001);
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n\
                  0: IF IN[0].xxxx :2\n\
                  1:   KILL\n\
                  2: ENDIF\n\
                  3: END\n";
    let (_, alive) = run_wave::<4>(text, &[lane_ids()], &[]).unwrap();
    assert_eq!(alive, 0b0001);
}

#[test]
fn endless_loop_exhausts_the_budget() {
    let text = "FRAG\nDCL OUT[0], COLOR\n  0: BGNLOOP :1\n  1: ENDLOOP :0\n  2: END\n";
    let err = run_wave::<4>(text, &[], &[]).unwrap_err();
    match &err {
        ExecError::Budget { at, .. } => assert!(at.contains("instruction"), "{at}"),
        other => panic!("unexpected {other}"),
    }
    assert!(err.to_string().contains("budget"));
}

#[test]
fn recursion_is_bounded() {
    let text =
        "FRAG\nDCL OUT[0], COLOR\n  0: CAL :2\n  1: END\n  2: BGNSUB\n  3:   CAL :2\n  4: ENDSUB\n";
    let err = run_wave::<4>(text, &[], &[]).unwrap_err();
    assert!(matches!(err, ExecError::CallDepth { .. }), "{err}");
}

#[test]
fn malformed_structure_is_rejected() {
    for (body, what) in [
        ("  0: ENDIF\n  1: END\n", "ENDIF"),
        ("  0: BRK\n  1: END\n", "BRK"),
        ("  0: BGNLOOP :2\n  1: END\n", "unterminated"),
        ("  0: CAL :1\n  1: END\n", "BGNSUB"),
    ] {
        let text = format!("FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n{body}");
        let shader = tgsi::parse(&text).unwrap();
        let err = Program::compile(&shader).unwrap_err();
        assert!(err.to_string().contains(what), "{body}: {err}");
    }
}

#[test]
fn switch_break_behaves_the_same_in_wide_waves() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n\
                IMM[0] UINT32 {0, 1, 0, 0}\n\
                IMM[1] FLT32 {1.0, 2.0, 0.0, 0.0}\n\
                  0: SWITCH IN[0].yyyy\n\
                  1: CASE IMM[0].xxxx\n\
                  2:   MOV OUT[0].x, IMM[1].xxxx\n\
                  3:   BRK\n\
                  4: DEFAULT\n\
                  5:   MOV OUT[0].x, IMM[1].yyyy\n\
                  6: ENDSWITCH\n\
                  7: END\n";
    let quad: Reg<4> = lanes([0, 1, 0, 5]);
    let (q, _) = run_wave::<4>(text, &[quad], &[]).unwrap();
    let mut wide: Reg<16> = [[0; 16]; 4];
    for ch in wide.iter_mut() {
        for l in 0..16 {
            ch[l] = [0, 1, 0, 5][l % 4];
        }
    }
    let (w, _) = run_wave::<16>(text, &[wide], &[]).unwrap();
    for l in 0..16 {
        assert_eq!(w[0][0][l], q[0][0][l % 4]);
    }
}

/// Render `f` with derivatives: OUT[0] = (f, DDX f, DDY f, DDX_FINE f) and
/// OUT[1] = DDY_FINE f, where f = x·x + 3·y·x at the pixel centre.
#[test]
fn derivatives_of_known_functions() {
    let text = "FRAG\nPROPERTY FS_COORD_ORIGIN UPPER_LEFT\nDCL IN[0], POSITION, LINEAR\n\
                DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL TEMP[0..1]\n\
                IMM[0] FLT32 {3.0, 0.0, 0.0, 0.0}\n\
                  0: MUL TEMP[0].x, IN[0].xxxx, IN[0].xxxx\n\
                  1: MUL TEMP[1].x, IN[0].yyyy, IMM[0].xxxx\n\
                  2: MAD TEMP[0].x, TEMP[1].xxxx, IN[0].xxxx, TEMP[0].xxxx\n\
                  3: MOV OUT[0].x, TEMP[0].xxxx\n\
                  4: DDX OUT[0].y, TEMP[0].xxxx\n\
                  5: DDY OUT[0].z, TEMP[0].xxxx\n\
                  6: DDX_FINE OUT[0].w, TEMP[0].xxxx\n\
                  7: DDY_FINE OUT[1], TEMP[0].xxxx\n\
                  8: END\n";
    let program = compile(text);
    let (w, h) = (10u32, 6u32);
    let f = |x: usize, y: usize| {
        let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
        (y * 3.0) * x + x * x
    };
    let opts = RenderOptions {
        width: w,
        height: h,
        ..Default::default()
    };
    let img0 = render_fragment(&program, &opts).unwrap();
    let img1 = render_fragment(
        &program,
        &RenderOptions {
            color: 1,
            ..opts.clone()
        },
    )
    .unwrap();
    for y in 0..h as usize {
        for x in 0..w as usize {
            let (qx, qy) = (x & !1, y & !1);
            let p = img0.pixels[y * w as usize + x];
            assert_eq!(p[0], f(x, y));
            assert_eq!(p[1], f(qx + 1, qy + 1) - f(qx, qy + 1), "DDX at {x},{y}");
            assert_eq!(p[2], f(qx, qy + 1) - f(qx, qy), "DDY at {x},{y}");
            assert_eq!(p[3], f(qx + 1, y) - f(qx, y), "DDX_FINE at {x},{y}");
            let q = img1.pixels[y * w as usize + x];
            assert_eq!(q[0], f(x, qy + 1) - f(x, qy), "DDY_FINE at {x},{y}");
        }
    }
}

#[test]
fn lower_left_origin_and_integer_centres() {
    let text = "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n\
                DCL IN[0], POSITION, LINEAR\nDCL IN[1], FACE, CONSTANT\nDCL IN[2], GENERIC[0], PERSPECTIVE\n\
                DCL OUT[0], COLOR\n\
                  0: MOV OUT[0].xy, IN[0].xyyy\n\
                  1: MOV OUT[0].z, IN[1].xxxx\n\
                  2: MOV OUT[0].w, IN[2].wwww\n\
                  3: KILL_IF -IN[0].xxxx\n\
                  4: END\n";
    let program = compile(text);
    let opts = RenderOptions {
        width: 3,
        height: 3,
        inputs: vec![[0; 4], [0; 4], [0, 0, 0, 7.0f32.to_bits()]],
        clear: [9.0; 4],
        ..Default::default()
    };
    let img = render_fragment(&program, &opts).unwrap();
    // Column 0 survives (−0 is not < 0); columns 1 and 2 are discarded.
    assert_eq!(img.pixels[0], [0.0, 2.0, 1.0, 7.0]);
    assert_eq!(img.pixels[2 * 3 + 2], [9.0; 4]);
    assert_eq!(img.pixels[3], [0.0, 1.0, 1.0, 7.0]);
}

/// `depth` nested blocks cycling through BGNLOOP, UIF and SWITCH; lane l fails the first UIF
/// met at a depth ≥ 16·(l + 1). OUT[0].x counts the levels a lane entered, OUT[0].y is set
/// after everything closed.
fn nested_blocks(depth: usize) -> String {
    let mut open = String::new();
    let mut close = Vec::new();
    for k in 0..depth {
        match k % 3 {
            0 => {
                open += "BGNLOOP\n";
                close.push("BRK\nENDLOOP\n");
            }
            1 => {
                open += "ISLT TEMP[1].x, OUT[0].xxxx, TEMP[0].xxxx\nUIF TEMP[1].xxxx\n";
                close.push("ENDIF\n");
            }
            _ => {
                open += "SWITCH IMM[0].yyyy\nCASE IMM[0].yyyy\n";
                close.push("BRK\nENDSWITCH\n");
            }
        }
        open += "UADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx\n";
    }
    close.reverse();
    format!(
        "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
         IMM[0] INT32 {{1, 0, 16, 0}}\n\
         UADD TEMP[0].x, IN[0].yyyy, IMM[0].xxxx\n\
         UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz\n\
         {open}{}MOV OUT[0].y, IMM[0].xxxx\nEND\n",
        close.concat()
    )
}

#[test]
fn blocks_nested_to_the_limit_with_divergent_lanes() {
    let text = nested_blocks(tgsi_exec::compile::MAX_NESTING);
    let (out, alive) = run_wave::<4>(&text, &[lane_ids()], &[]).unwrap();
    assert_eq!(alive, 0b1111);
    // Lane 0 fails the UIF at depth 16, lane 1 at 34, lane 2 at 49; lane 3 enters all 64.
    assert_eq!(out[0][0], [16, 34, 49, 64]);
    assert_eq!(
        out[0][1], [1; 4],
        "every mask restored after the blocks close"
    );
    let deeper = tgsi::parse(&nested_blocks(tgsi_exec::compile::MAX_NESTING + 1)).unwrap();
    let err = Program::compile(&deeper).unwrap_err();
    assert!(err.message.contains("nested deeper than 64"), "{err}");
}

#[test]
fn calls_nest_to_the_limit() {
    let text = |calls: u32| {
        format!(
            "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\nIMM[0] INT32 {{1, {calls}, 0, 0}}\n\
               0: CAL :2\n\
               1: END\n\
               2: BGNSUB\n\
               3:   UADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx\n\
               4:   ISLT TEMP[1].x, OUT[0].xxxx, IMM[0].yyyy\n\
               5:   UIF TEMP[1].xxxx\n\
               6:     CAL :2\n\
               7:   ENDIF\n\
               8: ENDSUB\n"
        )
    };
    let limit = tgsi_exec::machine::MAX_CALL_DEPTH as u32;
    let (out, _) = run_wave::<4>(&text(limit), &[], &[]).unwrap();
    assert_eq!(out[0][0], [limit; 4]);
    let err = run_wave::<4>(&text(limit + 1), &[], &[]).unwrap_err();
    assert!(matches!(err, ExecError::CallDepth { .. }), "{err}");
}

#[test]
fn demoted_lanes_are_helpers_that_keep_feeding_derivatives() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
                IMM[0] INT32 {2, 0, 0, 0}\n\
                  0: ISLT TEMP[0].x, IN[0].yyyy, IMM[0].xxxx\n\
                  1: READ_HELPER TEMP[1].y\n\
                  2: UIF TEMP[0].xxxx\n\
                  3:   DEMOTE\n\
                  4: ENDIF\n\
                  5: READ_HELPER TEMP[1].x\n\
                  6: MOV OUT[0].xy, TEMP[1].xyyy\n\
                  7: DDX_FINE OUT[0].z, IN[0].xxxx\n\
                  8: DDY_FINE OUT[0].w, IN[0].xxxx\n\
                  9: END\n";
    let (out, alive) = run_wave::<4>(text, &[lane_ids()], &[]).unwrap();
    // Lanes 0 and 1 (the top row) are demoted: discarded, but still running.
    assert_eq!(alive, 0b1100);
    assert_eq!(out[0][0], [!0, !0, 0, 0]);
    assert_eq!(out[0][1], [0; 4], "no helper before the DEMOTE");
    assert_eq!(out[0][2], [1.0f32.to_bits(); 4]);
    assert_eq!(out[0][3], [2.0f32.to_bits(); 4]);
}

/// Each pixel loops `x + 16·y` times and then reads CLOCK, which counts the instructions
/// of its whole wave — as many as its slowest lane, helpers at the image's edges included.
const WAVE_CLOCK: &str = "FRAG
PROPERTY FS_COORD_PIXEL_CENTER INTEGER
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0..2]
IMM[0] FLT32 {0.0, 1.0, 16.0, 0.0}
  0: MAD TEMP[1].x, IN[0].yyyy, IMM[0].zzzz, IN[0].xxxx
  1: MOV TEMP[0].x, IMM[0].xxxx
  2: BGNLOOP :8
  3:   FSGE TEMP[2].x, TEMP[0].xxxx, TEMP[1].xxxx
  4:   UIF TEMP[2].xxxx :6
  5:     BRK
  6:   ENDIF
  7:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  8: ENDLOOP :2
  9: CLOCK TEMP[2].xy
 10: MOV OUT[0], TEMP[2].xxxx
 11: END
";

/// Waves cover 8×4 pixels (four quads in two rows), aligned to multiples of 8 columns and
/// 4 rows: two pixels share a wave exactly when they share such a block.
#[test]
fn waves_cover_blocks_of_8_by_4_pixels() {
    let program = compile(WAVE_CLOCK);
    let (w, h) = (20usize, 10usize);
    let opts = RenderOptions {
        width: w as u32,
        height: h as u32,
        ..Default::default()
    };
    let image = render_fragment(&program, &opts).expect("renders");
    let clock = |x: usize, y: usize| image.pixels[y * w + x][0].to_bits();
    for (x, y) in (0..h).flat_map(|y| (0..w).map(move |x| (x, y))) {
        for (u, v) in (0..h).flat_map(|v| (0..w).map(move |u| (u, v))) {
            let same_block = (x / 8, y / 4) == (u / 8, v / 4);
            assert_eq!(
                clock(x, y) == clock(u, v),
                same_block,
                "({x}, {y}) and ({u}, {v})"
            );
        }
    }
}

#[test]
fn the_rest_of_a_pass_no_lane_runs_is_counted_as_the_interpreter_runs_it() {
    // Every lane leaves at the BRK of instruction 3 in the first pass; the interpreter then
    // passes the rest of the pass with an empty mask: ENDIF, the IF to its ELSE, the ELSE
    // to its ENDIF, ENDIF, the inner loop once (BGNLOOP, the IF to its ENDIF, ENDIF,
    // ENDLOOP) and the outer ENDLOOP.
    let text = "FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
IMM[0] FLT32 {1.0, 2.0, 0.0, 0.0}
  0: MOV OUT[0], IMM[0].zzzz
  1: BGNLOOP
  2:   IF IMM[0].xxxx
  3:     BRK
  4:   ENDIF
  5:   IF IN[0].xxxx
  6:     MOV OUT[0].x, IMM[0].yyyy
  7:   ELSE
  8:     MOV OUT[0].x, IMM[0].xxxx
  9:   ENDIF
 10:   BGNLOOP
 11:     IF IMM[0].xxxx
 12:       BRK
 13:     ENDIF
 14:   ENDLOOP
 15: ENDLOOP
 16: MOV OUT[0].y, IMM[0].xxxx
 17: END
";
    let program = compile(text);
    assert_eq!(program.dead_loop_tail(3), Some(9));
    assert_eq!(program.dead_loop_tail(12), Some(2), "ENDIF, ENDLOOP");
    assert_eq!(program.dead_loop_tail(2), None, "not a BRK");
    let mut m = tgsi_exec::machine::Machine::<4>::new(&program);
    m.inputs_mut()[0] = lane_ids();
    let env = tgsi_exec::machine::Env {
        resources: &tgsi_exec::resource::NO_RESOURCES,
        consts: &[],
        budget: 1000,
        helpers: 0,
    };
    m.run(&program, &env).unwrap();
    // MOV, BGNLOOP, IF, BRK; the rest of the pass; MOV, END.
    assert_eq!(m.executed(), 4 + 9 + 2);
    assert_eq!(
        m.outputs()[0][0],
        [0; 4],
        "the rest of the pass wrote nothing"
    );

    // A BRK that leaves a switch, and a way through a call or a switch: no count.
    let program = compile(
        "FRAG
DCL OUT[0], COLOR
IMM[0] UINT32 {1, 0, 0, 0}
  0: BGNLOOP
  1:   SWITCH IMM[0].xxxx
  2:     CASE IMM[0].xxxx
  3:       BRK
  4:   ENDSWITCH
  5:   BRK
  6:   SWITCH IMM[0].xxxx
  7:     DEFAULT
  8:       BRK
  9:   ENDSWITCH
 10: ENDLOOP
 11: BGNLOOP
 12:   BRK
 13:   CAL :16
 14: ENDLOOP
 15: END
 16: BGNSUB
 17:   RET
 18: ENDSUB
",
    );
    assert_eq!(program.dead_loop_tail(3), None, "leaves the switch");
    assert_eq!(program.dead_loop_tail(5), None, "a switch on the way");
    assert_eq!(program.dead_loop_tail(12), None, "a call on the way");
}

/// Rows of waves are shared among the workers as they free up: the image is the same bits
/// on 1, 2, 3 and 5 threads for a shader whose cost grows down the image (a loop running
/// y times), and an endless loop stops every worker with the budget error.
#[test]
fn threads_share_the_rows_of_waves() {
    let text = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
        IMM[0] FLT32 {0.0, 1.0, 0.0, 0.0}\n\
        0: MOV TEMP[0], IMM[0].xxxx\n\
        1: BGNLOOP :4\n\
        2:   SGE TEMP[1].x, TEMP[0].xxxx, IN[0].yyyy\n\
        3:   IF TEMP[1].xxxx :5\n\
        4:     BRK\n\
        5:   ENDIF\n\
        6:   ADD TEMP[0], TEMP[0], IMM[0].yyyy\n\
        7: ENDLOOP :1\n\
        8: MUL OUT[0], TEMP[0], IN[0].xyxy\n\
        9: END\n";
    let program = compile(text);
    let render = |threads| {
        let opts = RenderOptions {
            width: 37,
            height: 53,
            threads,
            ..Default::default()
        };
        render_fragment(&program, &opts).expect("renders")
    };
    let bits = |img: &tgsi_exec::Image| -> Vec<[u32; 4]> {
        img.pixels.iter().map(|p| p.map(f32::to_bits)).collect()
    };
    let one = render(1);
    for threads in [2, 3, 5] {
        assert!(bits(&render(threads)) == bits(&one), "{threads} threads");
    }
    let endless = compile("FRAG\nDCL OUT[0], COLOR\n  0: BGNLOOP :1\n  1: ENDLOOP :0\n  2: END\n");
    let opts = RenderOptions {
        width: 64,
        height: 64,
        threads: 3,
        budget: 10_000,
        ..Default::default()
    };
    let err = render_fragment(&endless, &opts).unwrap_err();
    assert!(matches!(err, ExecError::Budget { .. }), "{err}");
}

/// `IF c; BRK; ENDIF` runs as one step (`Inst::breaks`): on a wave whose lanes leave two
/// nested loops at different passes through float and integer tests (and a test no lane
/// takes), the step gives the outputs, the instruction count and, for every budget up to
/// that count, the same success or budget error at the same instruction as the three
/// instructions run one by one.
#[test]
fn a_break_in_an_if_of_its_own_runs_as_the_three_instructions() {
    let text = "FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] FLT32 {1.0, 0.5, 0.0, 3.0}
IMM[1] UINT32 {1, 2, 0, 0}
  0: MOV TEMP[0], IMM[0].zzzz
  1: MOV TEMP[2].x, IMM[1].zzzz
  2: BGNLOOP
  3:   SGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
  4:   IF TEMP[1].xxxx
  5:     BRK
  6:   ENDIF
  7:   MOV TEMP[0].y, IMM[0].zzzz
  8:   BGNLOOP
  9:     USGE TEMP[1].y, TEMP[2].xxxx, IMM[1].yyyy
 10:     UIF TEMP[1].yyyy
 11:       BRK
 12:     ENDIF
 13:     IF IMM[0].zzzz
 14:       BRK
 15:     ENDIF
 16:     ADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy
 17:     UADD TEMP[2].x, TEMP[2].xxxx, IMM[1].xxxx
 18:   ENDLOOP
 19:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
 20:   ADD TEMP[0].z, TEMP[0].zzzz, TEMP[0].yyyy
 21: ENDLOOP
 22: CLOCK TEMP[3].xy
 23: MOV OUT[0], TEMP[0]
 24: MOV OUT[0].w, TEMP[3].xxxx
 25: END
";
    let fused = compile(text);
    let breaks: Vec<usize> = (0..fused.insts.len())
        .filter(|&i| fused.insts[i].breaks)
        .collect();
    assert_eq!(breaks, [4, 10, 13]);
    let mut plain = fused.clone();
    for inst in &mut plain.insts {
        inst.breaks = false;
    }
    let run = |program: &Program, budget: u64| {
        let mut m = tgsi_exec::machine::Machine::<4>::new(program);
        m.inputs_mut()[0] = lane_ids();
        let env = tgsi_exec::machine::Env {
            resources: &tgsi_exec::resource::NO_RESOURCES,
            consts: &[],
            budget,
            helpers: 0,
        };
        let result = m.run(program, &env).map_err(|e| e.to_string());
        (result, m.executed(), m.outputs()[0])
    };
    let (result, executed, out) = run(&plain, 100_000);
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(run(&fused, 100_000), (result, executed, out));
    // Lane l leaves the outer loop in pass l + 1; TEMP[2].x is not reset, so the inner
    // loop adds 0.5 twice in the first pass only.
    assert_eq!(
        out[0].map(f32::from_bits),
        [0.0, 1.0, 2.0, 3.0],
        "passes of the outer loop"
    );
    assert_eq!(out[2].map(f32::from_bits), [0.0, 1.0, 1.0, 1.0]);
    assert_eq!(
        out[3],
        [executed as u32 - 3; 4],
        "CLOCK, then two MOVs and END"
    );
    for budget in 0..=executed {
        assert_eq!(run(&fused, budget), run(&plain, budget), "budget {budget}");
    }
}
