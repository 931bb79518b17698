//! Every 64-bit opcode (`Kind::Wide`: doubles and 64-bit integers), compiled by the JIT
//! (to vector code or to per-lane calls of the interpreter's kernel), against the
//! interpreter on hostile values: NaNs of both kinds and signs with payloads, ±0, ±∞,
//! denormals, rounding ties, values at and beyond the ranges of the integer conversions,
//! zero divisors and shift counts past 63. Each opcode runs with source modifiers and
//! swizzles, every write-mask shape, with and without `_SAT`, into temporaries and
//! outputs, and with some lanes switched off by a branch; every output word must be the
//! same.

mod common;

use common::{assert_same_vertices, compile};
use tgsi_exec::ops::{kind, Kind};
use tgsi_exec::{VertexInput, VertexOptions};

/// 64-bit values where double and integer semantics are delicate.
fn specials64() -> Vec<u64> {
    let d = |x: f64| x.to_bits();
    vec![
        d(0.0),
        d(-0.0), // also i64::MIN
        d(1.0),
        d(-1.0),
        d(0.5),
        d(2.5),
        d(-2.5),
        d(std::f64::consts::PI),
        d(f64::INFINITY),
        d(f64::NEG_INFINITY),
        0x7ff8_0000_0000_0000, // quiet NaN
        0xfff8_0000_0000_0001, // negative quiet NaN with payload
        0x7ff8_dead_beef_0000, // quiet NaN, another payload
        0x7ff0_0000_0000_0001, // signalling NaN
        0xfff4_0000_0000_0000, // negative signalling NaN
        1,                     // smallest denormal (also the integer 1)
        0x800f_ffff_ffff_ffff, // largest negative denormal
        d(f64::MIN_POSITIVE),
        d(f64::MAX),
        d(2147483648.0),
        d(-2147483648.0),
        d(-2147483648.5),
        d(-2147483649.0),
        d(2147483647.5),
        d(4294967295.5),
        d(4294967296.0),
        d(9223372036854775808.0),
        d(-9223372036854775808.0),
        d(18446744073709551616.0),
        d(1e19),
        d(1e300),
        d(-1e-300),
        d(1.0 + f64::EPSILON / 2.0 * 2f64.powi(29)), // a float32 rounding tie
        d(3.4028235677973366e38),                    // just above f32::MAX
        d(1e-40),                                    // a float32 denormal
        d(1e-46),                                    // below float32's range
        63,
        64,
        65,
        (-7i64) as u64,
        u64::MAX,
        i64::MAX as u64,
        0xffff_ffff,
        0x1_0000_0000,
    ]
}

/// 32-bit words for the 32-bit sources (conversions, DLDEXP's exponent).
const SPECIAL32: [u32; 24] = [
    0x0000_0000, // +0
    0x8000_0000, // −0, i32::MIN
    0x3f80_0000, // 1
    0xbf80_0000, // −1
    0x4049_0fdb, // π
    0x7f80_0000, // +∞
    0xff80_0000, // −∞
    0x7fc0_0000, // quiet NaN
    0xffc0_0001, // negative quiet NaN with payload
    0x7f80_0001, // signalling NaN
    0x0000_0001, // smallest denormal
    0x807f_ffff, // negative denormal
    0x5f00_0000, // 2^63
    0xdf00_0000, // −2^63
    0x5f80_0000, // 2^64
    0x7fff_ffff, // i32::MAX
    0xffff_ffff, // −1
    1023,
    1024,
    (-1022i32) as u32,
    (-1074i32) as u32,
    (-1075i32) as u32,
    2000,
    (-2000i32) as u32,
];

/// The input of a source: for 64-bit sources two values per vertex (xy, zw), for 32-bit
/// ones four words, cycling through the special values so that every pair of the first
/// two sources occurs.
fn input(source: usize, wide: bool, count: usize, k: usize) -> VertexInput {
    let v64 = specials64();
    let v = (0..count)
        .map(|i| {
            let (a, b) = (i / k, i % k);
            let pick = |c: usize| match source {
                0 => a + 3 * c,
                1 => b + 5 * c,
                _ => a + b + 7 * c + source,
            };
            if wide {
                let [x, y] = [0, 1].map(|c| v64[pick(c) % v64.len()]);
                [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32]
            } else {
                std::array::from_fn(|c| SPECIAL32[pick(c) % SPECIAL32.len()])
            }
        })
        .collect();
    VertexInput::PerVertex(v)
}

/// Write masks: every shape of a pair, word and comparison result.
const MASKS: [&str; 8] = [".x", ".y", ".xy", ".z", ".w", ".zw", ".xyzw", ".yz"];

/// Source modifier and swizzle variants.
fn operand(reg: &str, variant: usize) -> String {
    match variant {
        0 => reg.to_string(),
        1 => format!("-{reg}.zwxy"),
        2 => format!("|{reg}.xyxy|"),
        _ => format!("-|{reg}.zwzw|"),
    }
}

fn compare(text: &str, wide: &[bool]) {
    let (program, engine) = compile(text);
    let k = specials64().len().max(SPECIAL32.len());
    let count = k * k;
    let mut inputs: Vec<VertexInput> = wide
        .iter()
        .enumerate()
        .map(|(s, &w)| input(s, w, count, k))
        .collect();
    // The branch condition: two lanes of three run the guarded instructions.
    let cond = (0..count)
        .map(|i| [if i % 3 == 0 { 0 } else { !0 }; 4])
        .collect();
    inputs.push(VertexInput::PerVertex(cond));
    let opts = VertexOptions {
        count,
        inputs,
        ..Default::default()
    };
    assert_same_vertices(text, &program, &engine, &opts);
}

#[test]
fn every_wide_opcode_matches_the_interpreter_on_special_values() {
    let mut tested = 0;
    for op in tgsi::Opcode::all() {
        let info = op.info();
        if !matches!(kind(op), Some(Kind::Wide(_))) {
            continue;
        }
        let n = info.num_src as usize;
        let wide: Vec<bool> = (0..n).map(|i| info.src_type(i).is_64bit()).collect();
        let decls: String = (0..=n).map(|i| format!("DCL IN[{i}]\n")).collect();
        for variant in 0..4 {
            let operands = |first: &str| -> String {
                let srcs: Vec<String> = (0..n)
                    .map(|i| match i {
                        0 => operand(first, variant),
                        _ => operand(&format!("IN[{i}]"), variant),
                    })
                    .collect();
                srcs.join(", ")
            };
            let srcs = operands("IN[0]");
            let mut body = String::new();
            let mut line = 0;
            let mut emit = |body: &mut String, s: String| {
                body.push_str(&format!("{line:3}: {s}\n"));
                line += 1;
            };
            let mut outs = 0;
            for (m, mask) in MASKS.iter().enumerate() {
                for sat in ["", "_SAT"] {
                    let t = outs;
                    outs += 1;
                    emit(&mut body, format!("MOV TEMP[{t}], IMM[0]"));
                    // The second half of the masks runs under a branch.
                    let guarded = m >= MASKS.len() / 2;
                    if guarded {
                        emit(&mut body, format!("UIF IN[{n}].xxxx"));
                    }
                    emit(
                        &mut body,
                        format!("{}{sat} TEMP[{t}]{mask}, {srcs}", op.name()),
                    );
                    if guarded {
                        emit(&mut body, "ENDIF".into());
                    }
                    emit(&mut body, format!("MOV OUT[{t}], TEMP[{t}]"));
                }
            }
            // Straight into an output, and into the register it reads (pairs alias).
            emit(&mut body, format!("{} OUT[{outs}], {srcs}", op.name()));
            emit(&mut body, "MOV TEMP[0], IN[0]".into());
            let aliased = operands("TEMP[0]");
            emit(&mut body, format!("{} TEMP[0], {aliased}", op.name()));
            emit(&mut body, format!("MOV OUT[{}], TEMP[0]", outs + 1));
            emit(&mut body, "END".into());
            let out_decls: String = (0..outs + 2)
                .map(|o| format!("DCL OUT[{o}], GENERIC[{o}]\n"))
                .collect();
            let text = format!(
                "VERT\n{decls}{out_decls}DCL TEMP[0..{}]\nIMM[0] UINT32 {{286331153, 572662306, 858993459, 1145324612}}\n{body}",
                outs - 1
            );
            compare(&text, &wide);
        }
        tested += 1;
    }
    assert!(tested >= 60, "only {tested} 64-bit opcodes tested");
}

#[test]
fn chained_wide_instructions_under_branches_and_loops_match_the_interpreter() {
    // Pairs written by one 64-bit instruction and read by the next, blended under IF/ELSE,
    // partly overwritten by 32-bit instructions and carried around a loop with breaks.
    let text = "VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
DCL OUT[2], GENERIC[2]
DCL TEMP[0..4]
IMM[0] UINT32 {0, 1072693248, 1, 0}
IMM[1] UINT32 {0, 1073741824, 4, 0}
  0: DMUL TEMP[0], IN[0], IN[1]
  1: UIF IN[2].xxxx
  2:   DADD TEMP[0].xy, TEMP[0], IN[0].zwxy
  3: ELSE
  4:   DMAD TEMP[0].zw, TEMP[0], IN[1], TEMP[0].zwxy
  5: ENDIF
  6: DSQRT TEMP[1], |TEMP[0]|
  7: MOV TEMP[1].y, IN[1].xxxx
  8: DADD TEMP[2], TEMP[1], -TEMP[0]
  9: MOV TEMP[3].x, IMM[0].wwww
 10: BGNLOOP
 11:   ISGE TEMP[4].x, TEMP[3].xxxx, IMM[1].zzzz
 12:   UIF TEMP[4].xxxx
 13:     BRK
 14:   ENDIF
 15:   DMUL TEMP[2], TEMP[2], IMM[1].xyxy
 16:   DSLT TEMP[4].x, TEMP[2].xyxy, IMM[0].xyxy
 17:   UIF TEMP[4].xxxx
 18:     BRK
 19:   ENDIF
 20:   DADD TEMP[2].zw, TEMP[2], IMM[0].xyxy
 21:   UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].zzzz
 22: ENDLOOP
 23: MOV OUT[0], TEMP[0]
 24: DADD OUT[1], TEMP[2], -IMM[0].xyxy
 25: D2F OUT[2].xy, TEMP[1]
 26: MOV OUT[2].zw, TEMP[3].xxxx
 27: END
";
    compare(text, &[true, true]);
}

#[test]
fn pairs_moved_whole_and_rewritten_by_the_interpreters_step_match_the_interpreter() {
    // 32-bit MOVs of whole pairs under a branch; DFRACEXP, which runs on the interpreter's
    // step, rewriting temporaries that 64-bit instructions then read as pairs.
    let text = "VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL OUT[0], GENERIC[0]
DCL OUT[1], GENERIC[1]
DCL OUT[2], GENERIC[2]
DCL OUT[3], GENERIC[3]
DCL TEMP[0..3]
  0: DADD TEMP[0], IN[0], IN[1]
  1: UIF IN[2].xxxx
  2:   MOV TEMP[1].xy, TEMP[0].zwzw
  3:   MOV TEMP[1].zw, TEMP[0].xyxy
  4: ELSE
  5:   MOV TEMP[1].yzw, -TEMP[0].xxyx
  6: ENDIF
  7: DMUL TEMP[2], TEMP[1], TEMP[0]
  8: DFRACEXP TEMP[3], TEMP[1].xy, TEMP[2]
  9: DADD TEMP[2], TEMP[2], TEMP[3]
 10: MOV TEMP[0].xy, TEMP[2].zwzw
 11: DMUL TEMP[1], TEMP[1], TEMP[0]
 12: MOV OUT[0], TEMP[0]
 13: MOV OUT[1], TEMP[1]
 14: MOV OUT[2], TEMP[2]
 15: MOV OUT[3], TEMP[3]
 16: END
";
    compare(text, &[true, true]);
}
