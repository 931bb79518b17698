//! Every component-wise and whole-vector opcode (those the JIT compiles to vector code and
//! those it hands to the interpreter's kernels), against the interpreter on the values
//! where float semantics are delicate: ±0, ±1, ±∞, quiet and signalling NaNs of both
//! signs and payloads, denormals, values at the edges of the integer range, with and
//! without `_SAT`, through vertex shaders whose lanes each get a different combination.

mod common;

use common::{assert_same_vertices, compile};
use tgsi_exec::ops::{kind, Kind};
use tgsi_exec::{Program, VertexInput, VertexOptions};
use tgsi_jit::Engine;

/// Words where float and integer semantics differ.
const SPECIAL: [u32; 25] = [
    0x0000_0000, // +0
    0x8000_0000, // −0
    0x3f80_0000, // 1
    0xbf80_0000, // −1
    0x3f00_0000, // 0.5
    0x4049_0fdb, // π
    0xc2c8_0000, // −100
    0x7f80_0000, // +∞
    0xff80_0000, // −∞
    0x7fc0_0000, // quiet NaN
    0xffc0_0001, // negative quiet NaN with payload
    0x7f80_0001, // signalling NaN
    0xffa0_0000, // negative signalling NaN
    0x0000_0001, // smallest denormal
    0x807f_ffff, // negative denormal
    0x4f00_0000, // 2^31
    0xcf00_0000, // −2^31
    0x4f80_0000, // 2^32
    0x7fff_ffff, // i32::MAX
    0x0000_001f, // 31
    0x0000_0021, // 33
    0xffff_fffe, // −2
    0xffff_ffff, // −1 (so INT_MIN / −1 occurs)
    0x0000_0020, // 32 (whole-word bit fields)
    0x0000_0008, // 8
];

/// Inputs for `n` sources: every pair of special values (the third and fourth sources
/// cycle through them too), one combination per vertex and channel.
fn inputs(n: usize) -> (usize, Vec<VertexInput>) {
    let k = SPECIAL.len();
    let count = k * k;
    let input = |s: usize| {
        let v = (0..count)
            .map(|i| {
                let (a, b) = (i / k, i % k);
                let pick = |c: usize| match s {
                    0 => SPECIAL[(a + c) % k],
                    1 => SPECIAL[(b + 3 * c) % k],
                    _ => SPECIAL[(a + b + 5 * c + s) % k],
                };
                [pick(0), pick(1), pick(2), pick(3)]
            })
            .collect();
        VertexInput::PerVertex(v)
    };
    (count, (0..n.max(1)).map(input).collect())
}

/// A deterministic sequence of words (xorshift64 from `seed`).
fn xorshift(seed: u64) -> impl FnMut() -> u32 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u32
    }
}

fn compare(text: &str, sources: usize) {
    let (program, engine) = compile(text);
    let (count, inputs) = inputs(sources);
    let opts = VertexOptions {
        count,
        inputs,
        ..Default::default()
    };
    assert_same_vertices(text, &program, &engine, &opts);
}

#[test]
fn every_per_lane_opcode_matches_the_interpreter_on_special_values() {
    let mut tested = 0;
    for op in tgsi::Opcode::all() {
        let info = op.info();
        let per_lane = matches!(kind(op), Some(Kind::Component(_) | Kind::Vector(_)));
        if !per_lane || info.num_dst != 1 || info.num_src == 0 {
            continue;
        }
        let n = info.num_src as usize;
        let decls: String = (0..n.max(1)).map(|i| format!("DCL IN[{i}]\n")).collect();
        let srcs: Vec<String> = (0..n).map(|i| format!("IN[{i}]")).collect();
        for sat in ["", "_SAT"] {
            for (swz, neg) in [("", ""), (".yzwx", "-"), (".wzyx", "|")] {
                let srcs: Vec<String> = srcs
                    .iter()
                    .map(|s| match neg {
                        "|" => format!("|{s}{swz}|"),
                        _ => format!("{neg}{s}{swz}"),
                    })
                    .collect();
                let text = format!(
                    "VERT\n{decls}DCL OUT[0], GENERIC[0]\n  0: {}{sat} OUT[0], {}\n  1: END\n",
                    op.name(),
                    srcs.join(", ")
                );
                compare(&text, n);
            }
        }
        tested += 1;
    }
    assert!(tested >= 60, "only {tested} opcodes tested");
}

#[test]
fn runs_of_transcendentals_match_the_interpreter() {
    // Consecutive EX2, LG2, SIN, COS and POW of one opcode share a host call: a run ends
    // where an instruction reads a register an earlier one of the run writes, writes land
    // in program order (TEMP[0].x twice), and saturation, masks and outputs are each
    // instruction's own.
    let body = "DCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\nDCL OUT[2], GENERIC[2]\n\
        DCL OUT[3], GENERIC[3]\nDCL TEMP[0..3]\n\
          0: SIN TEMP[0].x, IN[0].xxxx\n\
          1: SIN TEMP[0].y, IN[0].yyyy\n\
          2: SIN TEMP[0].x, IN[1].zzzz\n\
          3: SIN TEMP[1].z, TEMP[0].xxxx\n\
          4: SIN_SAT TEMP[0].w, IN[1].wwww\n\
          5: POW TEMP[2].x, IN[0].xxxx, IN[1].yyyy\n\
          6: POW TEMP[2].yz, IN[1].zzzz, -IN[0].wwww\n\
          7: POW OUT[2].x, TEMP[0].wwww, IN[0].zzzz\n\
          8: EX2 TEMP[3], IN[1].xxxx\n\
          9: EX2 TEMP[1].x, TEMP[3].yyyy\n\
         10: LG2 OUT[0].x, |IN[0].zzzz|\n\
         11: LG2 OUT[0].yzw, IN[0].wwww\n\
         12: COS TEMP[1].y, IN[1].xxxx\n\
         13: COS TEMP[1].w, TEMP[1].yyyy\n\
         14: COS_SAT TEMP[2].w, IN[0].yyyy\n\
         15: MOV OUT[1], TEMP[0]\n\
         16: MOV OUT[2].yzw, TEMP[2]\n\
         17: MOV OUT[3], TEMP[1]\n\
         18: END\n";
    let text = format!("VERT\nDCL IN[0]\nDCL IN[1]\n{body}");
    compare(&text, 2);
}

#[test]
fn shifts_by_immediates_match_the_interpreter() {
    for op in ["SHL", "USHR", "ISHR"] {
        let text = format!(
            "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nIMM[0] UINT32 {{0, 5, 31, 33}}\n  0: {op} OUT[0], IN[0], IMM[0].wzyx\n  1: END\n"
        );
        compare(&text, 1);
    }
}

#[test]
fn branches_on_comparisons_match_the_interpreter() {
    // IF and UIF on a comparison made in the same block use its mask as it is (no test
    // against zero): integer masks, SLT-style 1.0/0.0, their combinations, and a
    // condition that is not a mask (a plain source) beside them, on special values.
    let text = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..2]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n\
          0: MOV OUT[0], IN[1]\n\
          1: FSLT TEMP[0], IN[0], IN[1]\n\
          2: UIF TEMP[0].xxxx\n\
          3:   ADD OUT[0].x, OUT[0], IMM[0].xxxx\n\
          4: ENDIF\n\
          5: SLT TEMP[1], IN[1], IN[0]\n\
          6: IF TEMP[1].yyyy\n\
          7:   ADD OUT[0].y, OUT[0], IMM[0].yyyy\n\
          8: ENDIF\n\
          9: FSNE TEMP[0], IN[0], IN[1]\n\
         10: USEQ TEMP[2], IN[0], IN[1].yzwx\n\
         11: XOR TEMP[2], TEMP[0], TEMP[2]\n\
         12: UIF TEMP[2].zzzz\n\
         13:   ADD OUT[0].z, OUT[0], IMM[0].zzzz\n\
         14: ENDIF\n\
         15: IF IN[0].wwww\n\
         16:   ADD OUT[0].w, OUT[0], IMM[0].wwww\n\
         17: ENDIF\n\
         18: END\n";
    compare(text, 2);
}

#[test]
fn divisions_by_immediates_match_the_interpreter() {
    // A divisor known when compiling takes a multiplication by its reciprocal: every
    // dividend near a multiple of it (where a rounding error would show), the ends of
    // both integer ranges and random words, by small, large, negative and power-of-two
    // divisors and by 0. (49 · RN(1/49) rounds to 0.999…: a plain product truncates
    // 49 / 49 to 0.)
    let divisors: [u32; 24] = [
        0,
        1,
        2,
        3,
        7,
        49,
        641,
        1021,
        7919,
        65536,
        6_700_417,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_ffff,
        0xffff_fffe,
        (-3i32) as u32,
        (-7919i32) as u32,
        (-65536i32) as u32,
        0x5555_5555,
        0xaaaa_aaab,
        1_000_000_007,
        4_294_967_291,
        103,
    ];
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    for group in divisors.chunks(4) {
        let d: [u32; 4] = std::array::from_fn(|c| group[c % group.len()]);
        // Per channel: multiples of its divisor and their neighbours, as unsigned and
        // as signed numbers, then the range ends and random words.
        let mut dividends: Vec<[u32; 4]> = Vec::new();
        for k in 0..512u32 {
            dividends.push(std::array::from_fn(|c| {
                let m = d[c].wrapping_mul(next() >> (k % 32));
                let signed = (d[c] as i32).wrapping_mul((next() as i32) >> (k % 32)) as u32;
                match k % 8 {
                    0 => m,
                    1 => m.wrapping_add(1),
                    2 => m.wrapping_sub(1),
                    3 => signed,
                    4 => signed.wrapping_add(1),
                    5 => signed.wrapping_sub(1),
                    6 => [
                        0,
                        1,
                        0x7fff_ffff,
                        0x8000_0000,
                        0x8000_0001,
                        u32::MAX,
                        d[c],
                        d[c].wrapping_neg(),
                    ][k as usize / 8 % 8],
                    _ => next(),
                }
            }));
        }
        for op in ["UDIV", "UMOD", "IDIV", "MOD"] {
            let text = format!(
                "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nIMM[0] UINT32 {{{}, {}, {}, {}}}\n  0: {op} OUT[0], IN[0], IMM[0]\n  1: END\n",
                d[0], d[1], d[2], d[3]
            );
            let (program, engine) = compile(&text);
            let opts = VertexOptions {
                count: dividends.len(),
                inputs: vec![VertexInput::PerVertex(dividends.clone())],
                ..Default::default()
            };
            assert_same_vertices(&text, &program, &engine, &opts);
        }
    }
}

#[test]
fn derivatives_and_dot_products_match_the_interpreter() {
    for op in ["DDX", "DDY", "DDX_FINE", "DDY_FINE"] {
        let text = format!(
            "FRAG\nDCL IN[0], POSITION\nDCL OUT[0], COLOR\n  0: MUL TEMP[0], IN[0], IN[0].yxzw\n  1: {op} OUT[0], TEMP[0]\n  2: END\n"
        );
        let text = text.replace("FRAG\n", "FRAG\nDCL TEMP[0]\n");
        let shader = tgsi::parse(&text).unwrap();
        let program = Program::compile(&shader).unwrap();
        let engine = Engine::new(program.clone());
        assert!(engine.is_compiled());
        let opts = tgsi_exec::RenderOptions {
            width: 7,
            height: 5,
            ..Default::default()
        };
        let want = tgsi_exec::render_fragment(&program, &opts).unwrap();
        let got = tgsi_exec::render_fragment_with(&engine, &opts).unwrap();
        let bits = |i: &tgsi_exec::Image| -> Vec<u32> {
            i.pixels.iter().flat_map(|p| p.map(f32::to_bits)).collect()
        };
        assert_eq!(bits(&want), bits(&got), "{op}");
    }
}

#[test]
fn vector_integer_opcodes_match_the_interpreter_on_random_words() {
    // The vector forms of `src/vector_int.rs` over words of every magnitude: random words,
    // their small and shifted forms, negated ones, and the neighbours of powers of two;
    // shifts and bit fields by counts that differ in every lane.
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let count = 4096;
    let word = |r: u32, sel: u32| match sel % 6 {
        0 => r,
        1 => r >> (r % 32),
        2 => r % 1000,
        3 => (1u32 << (r % 32))
            .wrapping_add((r >> 5) % 3)
            .wrapping_sub(1),
        4 => (r >> (r % 32)).wrapping_neg(),
        _ => r | 0x8000_0000,
    };
    let counts: Vec<[u32; 4]> = (0..count)
        .map(|_| {
            std::array::from_fn(|_| match next() % 4 {
                0 => next(),
                _ => next() % 64,
            })
        })
        .collect();
    let mut vectors = || -> Vec<[u32; 4]> {
        (0..count)
            .map(|_| std::array::from_fn(|_| word(next(), next())))
            .collect()
    };
    let inputs = vec![
        VertexInput::PerVertex(vectors()),
        VertexInput::PerVertex(vectors()),
        VertexInput::PerVertex(counts),
    ];
    let ops = [
        "UDIV", "UMOD", "IDIV", "MOD", "POPC", "LSB", "UMSB", "IMSB", "SHL", "USHR", "ISHR",
        "UBFE", "IBFE", "BFI",
    ];
    for op in ops {
        // Shift counts, offsets and widths are the low bits of random words (0 to 63,
        // covering 32 and the counts masked with 31) or whole random words.
        let srcs = match op {
            "UDIV" | "UMOD" | "IDIV" | "MOD" => "IN[0], IN[1]",
            "SHL" | "USHR" | "ISHR" => "IN[0], IN[2].xyzw",
            "UBFE" | "IBFE" => "IN[0], IN[2].xyzw, IN[2].wzyx",
            "BFI" => "IN[0], IN[1], IN[2].yxwz, IN[2].zwxy",
            _ => "IN[0]",
        };
        let text = format!(
            "VERT\nDCL IN[0..2]\nDCL OUT[0], GENERIC[0]\n  0: {op} OUT[0], {srcs}\n  1: END\n"
        );
        let (program, engine) = compile(&text);
        let opts = VertexOptions {
            count,
            inputs: inputs.clone(),
            ..Default::default()
        };
        assert_same_vertices(&text, &program, &engine, &opts);
    }
}
