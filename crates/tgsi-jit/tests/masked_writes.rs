//! Writes to temporaries without the execution-mask blend (`tgsi_exec::unblended`) keep the
//! interpreter's bits wherever a lane could see the old value: lanes waiting at an ELSE,
//! after a loop they left, at the next iteration of a loop they continued, and neighbours
//! read by derivatives. Each shader diverges per pixel, and the image must be the
//! interpreter's, and both the image of an interpreter that merges every write (the
//! analysis, which the two engines share, turned off).

use tgsi_exec::resource::NO_RESOURCES;
use tgsi_exec::{
    render_fragment, render_fragment_with, Env, Interpreter, Machine, Program, RenderOptions,
    WaveEngine, WAVE,
};
use tgsi_jit::Engine;

const HEAD: &str = "FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL TEMP[0..4]
IMM[0] FLT32 {0.5, 3.0, 7.0, 0.0}
IMM[1] FLT32 {1.0, 0.25, 2.0, -1.0}
";

/// Render `body` (after [`HEAD`]) on both engines at an odd size and compare every bit,
/// and with the interpreter merging every write under the mask (the analysis turned off),
/// which both must equal.
fn same_image(body: &str) {
    let text = format!("{HEAD}{body}");
    let shader = tgsi::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{e}"));
    let jit = Engine::new(program.clone());
    assert!(jit.is_compiled(), "{:?}", jit.fallback_reason());
    let opts = RenderOptions {
        width: 11,
        height: 7,
        budget: 1 << 20,
        ..Default::default()
    };
    let mut merging = program.clone();
    for inst in &mut merging.insts {
        inst.unblended = 0;
    }
    let reference = render_fragment(&merging, &opts).map(|i| i.to_le_bytes());
    let want = render_fragment(&program, &opts).map(|i| i.to_le_bytes());
    let got = render_fragment_with(&jit, &opts).map(|i| i.to_le_bytes());
    assert_eq!(reference, want, "interpreter, {body}");
    assert_eq!(want, got, "JIT, {body}");
}

/// TEMP[0].x = 1.0 in even pixel columns, 0.0 in odd ones.
const EVEN_COLUMNS: &str = "  0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx
  1: FRC TEMP[0].x, TEMP[0].xxxx
  2: SLT TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
";

#[test]
fn a_derivative_sees_the_old_value_of_lanes_that_skipped_the_write() {
    same_image(&format!(
        "{EVEN_COLUMNS}  3: IF TEMP[0].xxxx
  4:   MUL TEMP[1], IN[0], IMM[0].yyyy
  5:   DDX TEMP[2], TEMP[1]
  6:   DDY_FINE TEMP[3], TEMP[1]
  7:   ADD OUT[0], TEMP[2], TEMP[3]
  8: ENDIF
  9: END
"
    ));
}

#[test]
fn lanes_waiting_at_else_keep_the_old_value() {
    same_image(&format!(
        "{EVEN_COLUMNS}  3: MOV TEMP[1], IMM[0].zzzz
  4: IF TEMP[0].xxxx
  5:   MUL TEMP[1], IN[0], IMM[0].yyyy
  6:   MOV OUT[0], TEMP[1]
  7: ELSE
  8:   ADD OUT[0], TEMP[1], IMM[1].yyyy
  9: ENDIF
 10: END
"
    ));
}

#[test]
fn lanes_that_left_or_continued_a_loop_keep_their_values() {
    // TEMP[1]: counter; TEMP[2]: sum over the iterations not continued; TEMP[3]: written
    // late in the body and read at its start, so lanes that continued must keep it;
    // TEMP[4]: local to an iteration.
    same_image(
        "  0: MOV TEMP[1], IMM[0].wwww
  1: MOV TEMP[2], IMM[0].wwww
  2: MOV TEMP[3], IMM[1].xxxx
  3: BGNLOOP
  4:   ADD TEMP[2], TEMP[2], TEMP[3]
  5:   SGE TEMP[0].x, TEMP[1].xxxx, IN[0].xxxx
  6:   IF TEMP[0].xxxx
  7:     BRK
  8:   ENDIF
  9:   ADD TEMP[1].x, TEMP[1].xxxx, IMM[1].xxxx
 10:   MUL TEMP[4].x, TEMP[1].xxxx, IMM[0].xxxx
 11:   FRC TEMP[4].x, TEMP[4].xxxx
 12:   SLT TEMP[0].x, TEMP[4].xxxx, IMM[0].xxxx
 13:   IF TEMP[0].xxxx
 14:     CONT
 15:   ENDIF
 16:   MUL TEMP[3], TEMP[1].xxxx, IN[0].yxyx
 17: ENDLOOP
 18: MOV OUT[0], TEMP[2]
 19: END
",
    );
}

#[test]
fn lanes_that_returned_never_need_their_values() {
    same_image(&format!(
        "{EVEN_COLUMNS}  3: MOV OUT[0], IMM[1].wwww
  4: IF TEMP[0].xxxx
  5:   RET
  6: ENDIF
  7: MUL TEMP[1], IN[0], IMM[1].yyyy
  8: MOV OUT[0], TEMP[1]
  9: END
"
    ));
}

#[test]
fn a_wave_with_lanes_inactive_from_the_start_keeps_their_zeros_for_derivatives() {
    // TEMP[1] is written outside every structure and read by DDX, so its write is
    // unblended only for waves whose lanes all start active; other waves must still show
    // the derivatives the interpreter's zeros give.
    let text = format!(
        "{HEAD}  0: MUL TEMP[1], IN[0], IN[0]\n  1: DDX TEMP[2], TEMP[1]\n  2: DDY_FINE TEMP[3], TEMP[1]\n  3: ADD OUT[0], TEMP[2], TEMP[3]\n  4: END\n"
    );
    let shader = tgsi::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{e}"));
    let jit = Engine::new(program.clone());
    assert!(jit.is_compiled(), "{:?}", jit.fallback_reason());
    let env = Env {
        consts: &[],
        budget: 1 << 20,
        helpers: 0,
        resources: &NO_RESOURCES,
    };
    for active in [Machine::<WAVE>::ALL, 0b1011_0111_1110_1101] {
        let run = |engine: &dyn WaveEngine| {
            let mut m = Machine::<WAVE>::new(&program);
            m.inputs_mut()[0] = std::array::from_fn(|c| {
                std::array::from_fn(|l| ((l * 7 + c * 3) as f32 * 0.37).to_bits())
            });
            let alive = engine.run_wave(&mut m, &env, active);
            (alive.map_err(|e| e.to_string()), m.outputs()[0])
        };
        assert_eq!(run(&Interpreter(&program)), run(&jit), "active {active:#x}");
    }
}

/// 64-bit results written without their blends where no waiting lane reads them: a pair
/// local to an iteration (TEMP[3].xy), a pair carried and read after the loop (TEMP[2].xy,
/// blended), a counter and a pair written after the CONT point, carried but dead after the
/// loop (TEMP[1].x, TEMP[3].zw: written in every lane without a CONT, blended with one, as
/// lanes that continued read them in the next iteration); lanes leave the loop at
/// different iterations.
#[test]
fn pairs_and_counters_keep_what_waiting_lanes_read() {
    for cont in ["NOP", "CONT"] {
        same_image(&format!(
            "  0: MOV TEMP[1], IMM[0].wwww
  1: F2D TEMP[2].xy, IMM[1].yyyy
  2: F2D TEMP[4].xy, IN[0].xxxx
  3: F2D TEMP[3].zw, IMM[1].xxxx
  4: BGNLOOP
  5:   SGE TEMP[0].x, TEMP[1].xxxx, IN[0].yyyy
  6:   IF TEMP[0].xxxx
  7:     BRK
  8:   ENDIF
  9:   DMUL TEMP[3].xy, TEMP[2].xyxy, TEMP[4].xyxy
 10:   DADD TEMP[2].xy, TEMP[3].xyxy, TEMP[3].zwzw
 11:   ADD TEMP[1].x, TEMP[1].xxxx, IMM[1].xxxx
 12:   SLT TEMP[0].x, IN[0].xxxx, TEMP[1].xxxx
 13:   IF TEMP[0].xxxx
 14:     {cont}
 15:   ENDIF
 16:   DMUL TEMP[3].zw, TEMP[2].xyxy, TEMP[4].xyxy
 17: ENDLOOP
 18: D2F OUT[0].x, TEMP[2].xyxy
 19: MOV OUT[0].yzw, IMM[0].xxxx
 20: END
"
        ));
    }
}
