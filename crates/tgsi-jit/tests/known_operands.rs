//! MIN, MAX, saturation and rounding where the JIT knows something of an operand
//! (`src/known.rs`): an immediate of every sign, zero, infinity and NaN flavour (after
//! swizzle, `-` and `|·|`) in either operand position, against registers that may hold
//! anything (inputs), no signalling NaN (products by 1), or no NaN (MAX with −∞), each
//! holding every flavour, with and without `_SAT`, inside and outside a branch. The JIT's
//! output words must be the interpreter's.

mod common;

use common::{assert_same_vertices, compile};
use tgsi_exec::{VertexInput, VertexOptions};

/// The flavours of float words, four per immediate.
const WORDS: [u32; 16] = [
    0x0000_0000, // +0
    0x8000_0000, // −0
    0x3f80_0000, // 1
    0xbf80_0000, // −1
    0x7f80_0000, // +∞
    0xff80_0000, // −∞
    0x3f00_0000, // 0.5
    0x0000_0001, // smallest denormal
    0x7fc0_0000, // quiet NaN
    0xffc0_0001, // negative quiet NaN with payload
    0x7f80_0001, // signalling NaN
    0xffa0_0000, // negative signalling NaN
    0x4000_0000, // 2
    0x807f_ffff, // negative denormal
    0x7f7f_ffff, // largest finite
    0x3fc0_0000, // 1.5
];

/// The declarations: two inputs, `outs` outputs, temporaries, [`WORDS`] as `IMM[0..4]`
/// and 1.0 and −∞ as `IMM[4].xy`.
fn head(outs: usize) -> String {
    let mut t = String::from("VERT\nDCL IN[0]\nDCL IN[1]\n");
    for i in 0..outs {
        t += &format!("DCL OUT[{i}], GENERIC[{i}]\n");
    }
    t += "DCL TEMP[0..11]\n";
    for (i, w) in WORDS.chunks(4).enumerate() {
        t += &format!(
            "IMM[{i}] UINT32 {{{}, {}, {}, {}}}\n",
            w[0], w[1], w[2], w[3]
        );
    }
    t += "IMM[4] UINT32 {1065353216, 4286578688, 0, 0}\n";
    t
}

/// Registers of each kind, every flavour in each: TEMP[0]/TEMP[1] are IN[0]/IN[1] times
/// 1 (signalling NaNs quieted, nothing else changed), TEMP[2]/TEMP[3] those with quiet
/// NaNs replaced by −∞ (MAX with −∞: the other operand, or −∞ for a NaN).
const PRELUDE: [&str; 4] = [
    "MUL TEMP[0], IN[0], IMM[4].xxxx",
    "MUL TEMP[1], IN[1], IMM[4].xxxx",
    "MAX TEMP[2], TEMP[0], IMM[4].yyyy",
    "MAX TEMP[3], TEMP[1], IMM[4].yyyy",
];

/// Runs `body` (instructions writing `OUT[0..outs]`) after [`PRELUDE`] on every pair of
/// [`WORDS`] (IN[0] and IN[1]; each channel a different pair) on both engines.
fn compare(body: &[String], outs: usize) {
    let mut text = head(outs);
    let lines = PRELUDE
        .iter()
        .map(|s| s.to_string())
        .chain(body.iter().cloned());
    for (pc, line) in lines.enumerate() {
        text += &format!("  {pc}: {line}\n");
    }
    text += "  END\n";
    let (program, engine) = compile(&text);
    let k = WORDS.len();
    let count = k * k;
    let input = |s: usize| {
        let v = (0..count)
            .map(|i| {
                let (a, b) = (i / k, i % k);
                std::array::from_fn(|c| match s {
                    0 => WORDS[(a + c) % k],
                    _ => WORDS[(b + 3 * c) % k],
                })
            })
            .collect();
        VertexInput::PerVertex(v)
    };
    let opts = VertexOptions {
        count,
        inputs: vec![input(0), input(1)],
        ..Default::default()
    };
    assert_same_vertices(&text, &program, &engine, &opts);
}

/// The source modifiers, as a function of the operand text.
const MODIFIERS: [fn(&str) -> String; 4] = [
    |s| s.to_string(),
    |s| format!("-{s}"),
    |s| format!("|{s}|"),
    |s| format!("-|{s}|"),
];

#[test]
fn min_and_max_with_an_immediate_match_the_interpreter() {
    // Every immediate word in every channel (through the swizzles), with every modifier,
    // in both positions, against registers of each kind.
    let others = ["IN[0]", "TEMP[0]", "TEMP[2]", "-TEMP[0]", "|TEMP[2]|"];
    for op in ["MIN", "MAX"] {
        for sat in ["", "_SAT"] {
            for imm in 0..4 {
                for (m, modify) in MODIFIERS.iter().enumerate() {
                    let swizzle = [".xyzw", ".wzyx", ".yxwz", ".zwxy"][m];
                    let c = modify(&format!("IMM[{imm}]{swizzle}"));
                    let mut body = Vec::new();
                    for r in others {
                        body.push(format!("{op}{sat} OUT[{}], {r}, {c}", body.len()));
                        body.push(format!("{op}{sat} OUT[{}], {c}, {r}", body.len()));
                    }
                    compare(&body, body.len());
                }
            }
        }
    }
}

#[test]
fn min_and_max_of_registers_of_each_kind_match_the_interpreter() {
    let regs = ["IN[0]", "TEMP[0]", "TEMP[2]"];
    let others = ["IN[1]", "TEMP[1]", "TEMP[3]"];
    for op in ["MIN", "MAX"] {
        for sat in ["", "_SAT"] {
            let mut body = Vec::new();
            for a in regs {
                for b in others {
                    body.push(format!("{op}{sat} OUT[{}], {a}, {b}", body.len()));
                    body.push(format!("{op}{sat} OUT[{}], {b}, -{a}", body.len()));
                }
            }
            compare(&body, body.len());
        }
    }
}

#[test]
fn chained_min_max_saturation_and_rounding_match_the_interpreter() {
    let body: Vec<String> = [
        // Saturation of each kind of value, and of a saturated one.
        "MOV_SAT OUT[0], IN[0]",
        "MOV_SAT OUT[1], TEMP[0]",
        "MOV_SAT OUT[2], -TEMP[2]",
        "ADD_SAT OUT[3], IN[0], IN[1]",
        "MOV_SAT TEMP[4], IN[0]",
        "MOV_SAT OUT[4], -TEMP[4]",
        // Clamps with immediates: the inner result is never a signalling NaN, and a
        // number unless the input was a signalling NaN.
        "MAX TEMP[5], IN[0], IMM[0].xxxx",
        "MIN OUT[5], TEMP[5], IMM[0].zzzz",
        "MIN TEMP[6], IMM[2].zzzz, TEMP[0]",
        "MAX OUT[6], TEMP[6], IMM[0].yyyy",
        "MAX TEMP[7], TEMP[0], IMM[0].yyyy",
        "MAX OUT[7], -TEMP[7], IMM[1].xyzw",
        "MIN_SAT OUT[8], TEMP[7], IN[1]",
        // Selections and bit copies keep what is known of their operands.
        "CMP TEMP[8], IN[1], TEMP[2], IN[0]",
        "MIN OUT[9], TEMP[8], IMM[0].yxwz",
        "UCMP TEMP[8], IN[1], TEMP[2], TEMP[0]",
        "MAX OUT[10], IMM[0].yxwz, TEMP[8]",
        "SLT TEMP[9], IN[0], IN[1]",
        "MIN OUT[11], -TEMP[9], IMM[0].yxwz",
        "MOV TEMP[9], IN[0]",
        "MAX OUT[19], IMM[1].wzyx, TEMP[9]",
        "ABS TEMP[9], TEMP[1]",
        "MIN OUT[20], TEMP[9], IMM[3].zxwy",
        // Rounding keeps a NaN: quiet ones unchanged.
        "FLR OUT[12], TEMP[0]",
        "CEIL OUT[13], -TEMP[1]",
        "TRUNC OUT[14], TEMP[2]",
        "ROUND OUT[15], |TEMP[0]|",
        "FLR TEMP[9], IN[0]",
        "MIN OUT[16], TEMP[9], IMM[1].zwxy",
        // Written under a mask: what is known of the blend of new and old values.
        "UIF IN[1].xxxx",
        "MUL TEMP[10], IN[0], IMM[4].xxxx",
        "MIN TEMP[11], IMM[0].yxwz, TEMP[10]",
        "MAX_SAT TEMP[10], TEMP[10], IMM[1].xxxx",
        "ENDIF",
        "MOV OUT[17], TEMP[10]",
        "MOV OUT[18], TEMP[11]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    compare(&body, 21);
}
