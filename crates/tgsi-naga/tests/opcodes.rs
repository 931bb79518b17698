//! Differential test of every ALU opcode the translator handles against the interpreter: for
//! each opcode of the table (no list of our own), a vertex shader applies it to IN[0..2] and
//! writes the result to OUT[1]; the translation runs on the reference evaluator of naga IR
//! (`support/eval.rs`) and `tgsi_exec` runs the TGSI, over edge-case operands (zero, ±1,
//! INT_MIN, shift counts ≥ 32, NaN, ±∞, −0, subnormals, values outside the integer range,
//! doubles and 64-bit integers). Results must agree bit for bit, except that two NaNs are
//! equal (NaN payloads are not preserved by GPUs and are not part of the translation), and
//! except the opcodes listed in [`KNOWN`] with the reason.

#[path = "support/eval.rs"]
mod eval;
#[path = "support/vertex.rs"]
mod vertex;

use tgsi::opcode::{OperandType, OutputMode, Section, StageRestriction, GAP, LEGACY, TEX};
use tgsi::Opcode;
use vertex::{interpreted, operand, translated, VERTICES};

/// Opcodes whose translation cannot give the interpreter's bits, and why.
const KNOWN: &[(&str, &str)] = &[];

/// What does not translate yet, (opcode, with native 64-bit integers): the list must stay
/// exactly this, so a regression or a newly translated opcode shows here.
const NOT_YET: &[(&str, bool)] = &[];

fn same(a: u32, b: u32) -> bool {
    let nan = |w: u32| f32::from_bits(w).is_nan();
    a == b || (nan(a) && nan(b))
}

/// Whether two 64-bit results (words lo, hi) agree, NaNs equal.
fn same64(a: [u32; 2], b: [u32; 2]) -> bool {
    let d = |w: [u32; 2]| f64::from_bits(u64::from(w[0]) | u64::from(w[1]) << 32);
    a == b || (d(a).is_nan() && d(b).is_nan())
}

fn shader(op: Opcode) -> String {
    let info = op.info();
    let dsts: Vec<String> = (0..info.num_dst).map(|i| format!("TEMP[{i}]")).collect();
    let srcs: Vec<String> = (0..info.num_src).map(|i| format!("IN[{i}]")).collect();
    let mut text = String::from("VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL IN[3]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL OUT[2], GENERIC[1]\nDCL TEMP[0..1]\n");
    text.push_str(&format!(
        "  0: {} {}\n  1: MOV OUT[1], TEMP[0]\n  2: MOV OUT[2], TEMP[1]\n  3: END\n",
        op.name(),
        dsts.into_iter().chain(srcs).collect::<Vec<_>>().join(", ")
    ));
    text
}

/// Whether the opcode is plain arithmetic this test can drive.
fn is_alu(op: Opcode) -> bool {
    let info = op.info();
    info.num_dst >= 1
        && info.flags & (GAP | LEGACY | TEX) == 0
        && info.stage == StageRestriction::Any
        && matches!(
            info.output,
            OutputMode::Component | OutputMode::Replicate | OutputMode::Channel
        )
        && !matches!(
            info.section,
            Section::InterLane | Section::ResourceAccess | Section::Bindless
        )
        && !matches!(op, Opcode::CLOCK)
}

#[test]
fn alu_opcodes_agree_with_the_interpreter() {
    let mut checked = Vec::new();
    let mut untranslated = Vec::new();
    let mut failures = Vec::new();
    for op in Opcode::all().filter(|&op| is_alu(op)) {
        let text = shader(op);
        let want = interpreted(&text);
        let info = op.info();
        let wide = info.dst_type(0).is_64bit();
        let mut ok = true;
        for options in [
            tgsi_naga::Options {
                native_int64: true,
                ..Default::default()
            },
            tgsi_naga::Options {
                native_int64: false,
                ..Default::default()
            },
        ] {
            let got = match translated(&text, &options) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!(
                        "not translated: {} ({}): {e}",
                        op.name(),
                        options.native_int64
                    );
                    untranslated.push((op.name(), options.native_int64));
                    ok = false;
                    break;
                }
            };
            let mut bad = 0;
            let mut example = String::new();
            for (v, (g, w)) in got.iter().zip(&want).enumerate() {
                for o in 0..info.num_dst as usize {
                    let equal = if wide && info.dst_type(o) != OperandType::I32 {
                        same64([g[o][0], g[o][1]], [w[o][0], w[o][1]])
                            && same64([g[o][2], g[o][3]], [w[o][2], w[o][3]])
                    } else {
                        (0..4).all(|c| same(g[o][c], w[o][c]))
                    };
                    if !equal {
                        if bad == 0 {
                            let ins: Vec<String> = (0..info.num_src as usize)
                                .map(|k| {
                                    format!(
                                        "{:08x?}",
                                        std::array::from_fn::<u32, 4, _>(|c| operand(v, k, c))
                                    )
                                })
                                .collect();
                            example = format!(
                                "in {} -> got {:08x?}, want {:08x?}",
                                ins.join(" "),
                                g[o],
                                w[o]
                            );
                        }
                        bad += 1;
                    }
                }
            }
            if bad > 0 {
                ok = false;
                let known = KNOWN.iter().find(|(n, _)| *n == op.name());
                let line = format!(
                    "{} (native_int64 {}): {bad} of {VERTICES} vertices differ, e.g. {example}",
                    op.name(),
                    options.native_int64
                );
                match known {
                    Some((_, why)) => eprintln!("known: {line} ({why})"),
                    None => failures.push(line),
                }
            }
        }
        if ok {
            checked.push(op.name());
        }
    }
    eprintln!(
        "{} opcodes agree bit for bit: {}",
        checked.len(),
        checked.join(" ")
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(untranslated, NOT_YET);
}
