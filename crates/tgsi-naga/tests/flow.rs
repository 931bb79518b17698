//! Control flow, addressing and the stage interface, run two ways (translated on the
//! reference evaluator of naga IR, and on the interpreter) over the edge-case operands of
//! `support/vertex.rs`: loops with BRK and CONT, SWITCH with fall-through and a DEFAULT in
//! the middle, IF on float conditions (NaN is true, −0 false), indirect TEMP arrays,
//! saturation, and subroutines (CAL, RET inside a condition, ENDSUB). Both translations (with and without 64-bit integers) must give the
//! interpreter's words.

#[path = "support/eval.rs"]
mod eval;
#[path = "support/vertex.rs"]
mod vertex;

use vertex::{interpreted, translated};

const HEADER: &str = "VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL IN[3]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL OUT[2], GENERIC[1]
";

/// Runs `body` both ways; words must be equal, or both NaN when `nan_equal` (arithmetic on
/// NaNs, whose payload and sign GPUs do not keep).
fn check_with(name: &str, body: &str, nan_equal: bool) {
    let text = format!("{HEADER}{body}");
    let want = interpreted(&text);
    let same = |a: u32, b: u32| {
        a == b || (nan_equal && f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
    };
    for native_int64 in [true, false] {
        let got = translated(
            &text,
            &tgsi_naga::Options {
                native_int64,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        for (v, (g, w)) in got.iter().zip(&want).enumerate() {
            let equal = (0..2).all(|o| (0..4).all(|c| same(g[o][c], w[o][c])));
            assert!(
                equal,
                "{name} (native_int64 {native_int64}): vertex {v}: got {g:08x?}, want {w:08x?}"
            );
        }
    }
}

fn check(name: &str, body: &str) {
    check_with(name, body, false);
}

#[test]
fn source_modifiers_are_bit_operations_on_floats() {
    check(
        "modifiers",
        "DCL TEMP[0..1]
  0: MOV TEMP[0], -IN[0]
  1: MOV TEMP[1], -|IN[1]|
  2: UADD TEMP[1].x, -IN[2].xxxx, IN[3].xxxx
  3: MOV OUT[1], TEMP[0]
  4: MOV OUT[2], TEMP[1]
  5: END
",
    );
}

#[test]
fn loops_with_break_and_continue() {
    check(
        "loop",
        "DCL TEMP[0..2]
IMM[0] UINT32 {0, 1, 7, 3}
  0: AND TEMP[0].x, IN[0].xxxx, IMM[0].zzzz
  1: MOV TEMP[1], IMM[0].xxxx
  2: BGNLOOP
  3:   USGE TEMP[2].x, TEMP[1].xxxx, TEMP[0].xxxx
  4:   UIF TEMP[2].xxxx
  5:     BRK
  6:   ENDIF
  7:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
  8:   AND TEMP[2].x, TEMP[1].xxxx, IMM[0].yyyy
  9:   UIF TEMP[2].xxxx
 10:     CONT
 11:   ENDIF
 12:   UADD TEMP[1].y, TEMP[1].yyyy, TEMP[1].xxxx
 13: ENDLOOP
 14: MOV OUT[1], TEMP[1]
 15: MOV OUT[2], TEMP[0]
 16: END
",
    );
}

#[test]
fn switch_falls_through_and_defaults() {
    check(
        "switch",
        "DCL TEMP[0..1]
IMM[0] UINT32 {0, 1, 2, 3}
IMM[1] UINT32 {10, 20, 30, 7}
  0: AND TEMP[0].x, IN[0].xxxx, IMM[1].wwww
  1: MOV TEMP[1], IMM[0].xxxx
  2: SWITCH TEMP[0].xxxx
  3:   CASE IMM[0].xxxx
  4:     MOV TEMP[1].x, IMM[1].xxxx
  5:   CASE IMM[0].yyyy
  6:     UADD TEMP[1].y, TEMP[1].yyyy, IMM[1].yyyy
  7:     BRK
  8:   DEFAULT
  9:     MOV TEMP[1].z, IMM[1].zzzz
 10:   CASE IMM[0].zzzz
 11:   CASE IMM[0].wwww
 12:     UADD TEMP[1].w, TEMP[1].wwww, IMM[0].yyyy
 13:     BRK
 14: ENDSWITCH
 15: MOV OUT[1], TEMP[1]
 16: MOV OUT[2], TEMP[0]
 17: END
",
    );
}

#[test]
fn float_and_integer_conditions() {
    check(
        "if",
        "DCL TEMP[0..1]
IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}
  0: MOV TEMP[0], IMM[0].xxxx
  1: IF IN[0].xxxx
  2:   MOV TEMP[0].x, IMM[0].yyyy
  3: ELSE
  4:   MOV TEMP[0].y, IMM[0].zzzz
  5: ENDIF
  6: UIF IN[1].yyyy
  7:   IF -IN[2].zzzz
  8:     MOV TEMP[0].z, IN[2].zzzz
  9:   ENDIF
 10: ENDIF
 11: MOV_SAT TEMP[1], IN[3]
 12: MOV OUT[1], TEMP[0]
 13: MOV OUT[2], TEMP[1]
 14: END
",
    );
}

#[test]
fn indirect_temporaries() {
    check_with(
        "indirect",
        "DCL TEMP[0..3], ARRAY(1)
DCL TEMP[4..5]
DCL ADDR[0]
IMM[0] UINT32 {3, 1, 2, 0}
  0: MOV TEMP[0], IN[0]
  1: MOV TEMP[1], IN[1]
  2: MOV TEMP[2], IN[2]
  3: MOV TEMP[3], IN[3]
  4: AND TEMP[4].x, IN[0].yyyy, IMM[0].xxxx
  5: UARL ADDR[0].x, TEMP[4].xxxx
  6: MOV TEMP[5], TEMP[ADDR[0].x](1)
  7: MOV TEMP[ADDR[0].x](1), -TEMP[5].wzyx
  8: MOV OUT[1], TEMP[5]
  9: ADD OUT[2], TEMP[0], TEMP[3]
 10: END
",
        true,
    );
}

#[test]
fn indirect_constant_buffers() {
    // The buffer index is IN[0].y & 3, plus 1 for OUT[1] (buffer 4, neither declared nor
    // bound, reads 0); the register index is direct, or indirect.
    check(
        "indirect-buffer",
        "DCL CONST[0][0..3]
DCL CONST[1][0..7]
DCL CONST[2][0..5]
DCL CONST[3][0..7]
DCL TEMP[0]
DCL ADDR[0..1]
IMM[0] UINT32 {3, 7, 2, 0}
  0: AND TEMP[0].x, IN[0].yyyy, IMM[0].xxxx
  1: UARL ADDR[0].x, TEMP[0].xxxx
  2: AND TEMP[0].y, IN[1].xxxx, IMM[0].xxxx
  3: UARL ADDR[1].x, TEMP[0].yyyy
  4: MOV OUT[1], CONST[ADDR[0].x+1][3]
  5: MOV OUT[2], CONST[ADDR[0].x][ADDR[1].x]
  6: END
",
    );
}

#[test]
fn subroutines_share_the_registers() {
    check(
        "subroutine",
        "DCL TEMP[0..1]
IMM[0] UINT32 {1, 2, 3, 0}
  0: MOV TEMP[0], IN[0]
  1: MOV TEMP[1], IMM[0].wwww
  2: CAL :7
  3: CAL :7
  4: MOV OUT[1], TEMP[0]
  5: MOV OUT[2], TEMP[1]
  6: END
  7: BGNSUB
  8:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  9:   UIF IN[1].xxxx
 10:     RET
 11:   ENDIF
 12:   UADD TEMP[1].y, TEMP[1].yyyy, IMM[0].yyyy
 13: ENDSUB
",
    );
}
