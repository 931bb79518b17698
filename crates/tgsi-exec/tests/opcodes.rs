//! Per-opcode edge values (NaN, ±∞, −0, denormals, INT_MIN/−1, division by zero,
//! out-of-range conversions, shifts ≥ 32, RSQ/LG2 of ≤ 0), run through the whole machine,
//! checking every written channel of every lane.

mod common;
use common::{lanes, run_wave};
use tgsi_exec::scalar::float::LG2_FACTOR;

const NAN: u32 = 0x7fc0_0000;

/// Run `OP OUT[0], IN[0]{, IN[1]{, IN[2]}}` on one quad; lane l of source k is `args[k][l]`.
fn eval(op: &str, args: &[[u32; 4]]) -> [[u32; 4]; 4] {
    let srcs: Vec<String> = (0..args.len()).map(|k| format!("IN[{k}]")).collect();
    let text = format!(
        "FRAG\nDCL IN[0..{}], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n  0: {op} OUT[0], {}\n  1: END\n",
        args.len().max(1) - 1,
        srcs.join(", ")
    );
    let inputs: Vec<_> = args.iter().map(|a| lanes(*a)).collect();
    let (out, _) = run_wave::<4>(&text, &inputs, &[]).unwrap();
    out[0]
}

/// Every channel of every lane equals `want[lane]`.
fn check(op: &str, args: &[[u32; 4]], want: [u32; 4]) {
    let got = eval(op, args);
    for (c, ch) in got.iter().enumerate() {
        for l in 0..4 {
            assert_eq!(
                ch[l], want[l],
                "{op} {args:x?}: channel {c} lane {l}: got {:#x} want {:#x}",
                ch[l], want[l]
            );
        }
    }
}

fn f(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

fn i(v: [i32; 4]) -> [u32; 4] {
    v.map(|x| x as u32)
}

#[test]
fn reciprocal_square_root_and_logarithm_of_non_positive_values() {
    let a = f([0.0, -0.0, -4.0, 4.0]);
    // x86's default NaN ("indefinite") is negative.
    check(
        "RSQ",
        &[a],
        [
            f32::INFINITY.to_bits(),
            f32::NEG_INFINITY.to_bits(),
            NAN | 0x8000_0000,
            0.5f32.to_bits(),
        ],
    );
    let l = eval("LG2", &[f([0.0, -1.0, 8.0, f32::INFINITY])]);
    for ch in l {
        assert_eq!(ch[0], f32::NEG_INFINITY.to_bits());
        assert!(f32::from_bits(ch[1]).is_nan());
        assert_eq!(ch[2], (8f32.ln() * LG2_FACTOR).to_bits());
        assert_eq!(ch[3], f32::INFINITY.to_bits());
    }
    check(
        "RCP",
        &[f([0.0, -0.0, 2.0, f32::INFINITY])],
        f([f32::INFINITY, f32::NEG_INFINITY, 0.5, 0.0]),
    );
    check(
        "SQRT",
        &[f([4.0, -0.0, 0.0, f32::INFINITY])],
        f([2.0, -0.0, 0.0, f32::INFINITY]),
    );
    check(
        "EX2",
        &[f([3.0, -1.0, 200.0, f32::NEG_INFINITY])],
        f([8.0, 0.5, f32::INFINITY, 0.0]),
    );
}

#[test]
fn rsq_of_negative_is_nan() {
    let got = eval("RSQ", &[f([-1.0, -4.0, f32::NEG_INFINITY, -1e-30])]);
    for ch in got {
        assert!(ch.iter().all(|&x| f32::from_bits(x).is_nan()));
    }
}

#[test]
fn float_to_integer_conversions_follow_x86() {
    let a = f([f32::NAN, 3e9, -3e9, -1.5]);
    check(
        "F2I",
        &[a],
        [0x8000_0000, 0x8000_0000, 0x8000_0000, (-1i32) as u32],
    );
    let b = f([-1.0, -3e9, 5e9, f32::NAN]);
    // softpipe (fsref exec-f2i-range): x <= -2^31 and NaN give 0x80000000, x >= 2^32 gives 0.
    check("F2U", &[b], [0xffff_ffff, 0x8000_0000, 0, 0x8000_0000]);
    check(
        "F2U",
        &[f([f32::INFINITY, 4294967296.0, 2.9, -0.0])],
        [0, 0, 2, 0],
    );
    check(
        "I2F",
        &[i([i32::MIN, -1, 16777217, 0])],
        f([-2147483648.0, -1.0, 16777216.0, 0.0]),
    );
    check(
        "U2F",
        &[[u32::MAX, 1, 0, 16777217]],
        f([4294967296.0, 1.0, 0.0, 16777216.0]),
    );
    check(
        "ARL",
        &[f([-0.5, 1.9, f32::NAN, -1.0])],
        i([-1, 1, i32::MIN, -1]),
    );
}

#[test]
fn integer_division_edges() {
    let a = i([i32::MIN, 7, -7, 7]);
    let b = i([-1, 0, 2, -2]);
    check("IDIV", &[a, b], i([i32::MIN, 0, -3, -3]));
    check("MOD", &[a, b], i([0, -1, -1, 1]));
    check(
        "UDIV",
        &[[7, 7, 0, u32::MAX], [0, 2, 0, 16]],
        [u32::MAX, 3, u32::MAX, 0x0fff_ffff],
    );
    check(
        "UMOD",
        &[[7, 7, 0, u32::MAX], [0, 2, 0, 16]],
        [u32::MAX, 1, u32::MAX, 15],
    );
    check(
        "IMUL_HI",
        &[i([-1, i32::MIN, 65536, 3]), i([1, i32::MIN, 65536, 5])],
        i([-1, 0x4000_0000, 1, 0]),
    );
}

#[test]
fn shift_counts_are_masked() {
    let a = [1, 0x8000_0000, 0xffff_fff0, 3];
    let n = [33, 32, 36, 31];
    check("SHL", &[a, n], [2, 0x8000_0000, 0xffff_ff00, 0x8000_0000]);
    check("USHR", &[a, n], [0, 0x8000_0000, 0x0fff_ffff, 0]);
    check("ISHR", &[a, n], [0, 0x8000_0000, 0xffff_ffff, 0]);
}

#[test]
fn min_max_ignore_nan_and_saturate_maps_nan_to_zero() {
    let a = f([f32::NAN, 1.0, -0.0, 0.0]);
    let b = f([2.0, f32::NAN, 0.0, -0.0]);
    // Ties keep the first operand (softpipe = fminf(src1, src0); fsref exec-nan-minmax).
    check("MIN", &[a, b], f([2.0, 1.0, -0.0, 0.0]));
    check("MAX", &[a, b], f([2.0, 1.0, -0.0, 0.0]));
    // A signalling NaN is not ignored: it comes out quieted; two NaNs give the second.
    let s = f32::from_bits(0x7f80_0001);
    let qn = f32::from_bits(0xffc0_0000);
    check(
        "MIN",
        &[f([s, 1.0, qn, s]), f([0.0, s, f32::NAN, qn])],
        [0x7fc0_0001, 0x7fc0_0001, 0x7fc0_0000, 0xffc0_0000],
    );
    check(
        "MAX",
        &[f([s, 1.0, qn, s]), f([0.0, s, f32::NAN, qn])],
        [0x7fc0_0001, 0x7fc0_0001, 0x7fc0_0000, 0xffc0_0000],
    );
    check(
        "MOV_SAT",
        &[f([f32::NAN, -0.0, f32::INFINITY, 0.5])],
        f([0.0, 0.0, 1.0, 0.5]),
    );
    check(
        "ADD_SAT",
        &[f([f32::NEG_INFINITY, 2.0, -3.0, 0.25]), f([0.0; 4])],
        f([0.0, 1.0, 0.0, 0.25]),
    );
}

#[test]
fn comparisons_and_selects_with_nan_and_negative_zero() {
    let a = f([f32::NAN, -0.0, 1.0, -1.0]);
    let z = f([0.0; 4]);
    check("SLT", &[a, z], f([0.0, 0.0, 0.0, 1.0]));
    check("SNE", &[a, z], f([1.0, 0.0, 1.0, 1.0]));
    check("FSEQ", &[a, z], [0, !0, 0, 0]);
    check(
        "CMP",
        &[a, f([1.0; 4]), f([2.0; 4])],
        f([2.0, 2.0, 2.0, 1.0]),
    );
    check("SSG", &[a], f([0.0, 0.0, 1.0, -1.0]));
    check(
        "UCMP",
        &[[0, 1, 0x8000_0000, 0], [5; 4], [6; 4]],
        [6, 5, 5, 6],
    );
}

#[test]
fn denormals_are_kept() {
    let d = f32::from_bits(1);
    check(
        "MUL",
        &[f([d, d, -d, 1e-38]), f([1.0, 0.5, 1.0, 0.5])],
        [1, 0, 0x8000_0001, (1e-38f32 * 0.5).to_bits()],
    );
    check(
        "ADD",
        &[f([d, d, -d, 0.0]), f([d, -d, 0.0, -0.0])],
        [2, 0, 0x8000_0001, 0],
    );
    check("FLR", &[f([-d, d, -0.0, -1.5])], f([-1.0, 0.0, -0.0, -2.0]));
    check(
        "FRC",
        &[f([-1e-10, 2.5, -0.25, 0.0])],
        f([1.0, 0.5, 0.75, 0.0]),
    );
    check(
        "ROUND",
        &[f([2.5, -2.5, 3.5, -0.4])],
        f([2.0, -2.0, 4.0, -0.0]),
    );
}

#[test]
fn bit_field_and_bit_counting() {
    check(
        "IBFE",
        &[[0xf0, 0x70, 0xffff_fff8, 5], [4, 4, 0, 0], [4, 4, 32, 0]],
        i([-1, 7, -8, 0]),
    );
    check(
        "UBFE",
        &[
            [0xf0, 0x8000_0000, 5, 0xabcd],
            [4, 31, 0, 36],
            [4, 1, 32, 4],
        ],
        [15, 1, 5, 0xc],
    );
    check(
        "BFI",
        &[
            [u32::MAX, 1, 0, 0],
            [0, 2, 1, 0xff],
            [4, 7, 31, 4],
            [8, 32, 1, 4],
        ],
        [0xffff_f00f, 2, 0x8000_0000, 0xf0],
    );
    check(
        "BREV",
        &[[1, 0, 0x8000_0000, 0xf]],
        [0x8000_0000, 0, 1, 0xf000_0000],
    );
    check("POPC", &[[0, u32::MAX, 0x11, 0x8000_0001]], [0, 32, 2, 2]);
    check("LSB", &[[0, 1, 8, 0x8000_0000]], i([-1, 0, 3, 31]));
    check("IMSB", &[i([0, -1, -2, i32::MAX])], i([-1, -1, 0, 30]));
    check("UMSB", &[[0, 1, u32::MAX, 0x100]], i([-1, 0, 31, 8]));
}

#[test]
fn source_modifiers_depend_on_operand_type() {
    // Integer sources: negate is two's complement; float-like ones flip the sign bit.
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0..3], COLOR\n\
                  0: UADD OUT[0], -IN[0], IN[0].xxxx\n\
                  1: MOV OUT[1], -IN[0]\n\
                  2: MOV OUT[2], -|IN[0]|\n\
                  3: I2F OUT[3], -IN[0]\n\
                  4: END\n";
    let (out, _) = run_wave::<4>(text, &[lanes([1, 5, 0xc000_0000, 0x8000_0000])], &[]).unwrap();
    assert_eq!(out[0][0], [0, 0, 0, 0]);
    assert_eq!(out[1][0], [0x8000_0001, 0x8000_0005, 0x4000_0000, 0]);
    assert_eq!(
        out[2][0],
        [0x8000_0001, 0x8000_0005, 0xc000_0000, 0x8000_0000]
    );
    assert_eq!(out[3][0], f([-1.0, -5.0, 1073741824.0, -2147483648.0]));
}

#[test]
fn write_masks_replication_and_overlapping_operands() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0..2], COLOR\nDCL TEMP[0]\n\
                  0: MOV TEMP[0], IN[0]\n\
                  1: ADD TEMP[0], TEMP[0].yxwz, TEMP[0]\n\
                  2: MOV OUT[0], TEMP[0]\n\
                  3: RCP OUT[1].yw, IN[0].yyyy\n\
                  4: DP3 OUT[2].xz, IN[0], IN[0]\n\
                  5: END\n";
    let v = [1.0f32, 2.0, 3.0, 4.0];
    let input = v.map(|x| [x.to_bits(); 4]);
    let (out, _) = run_wave::<4>(text, &[input], &[]).unwrap();
    let lane = |r: [[u32; 4]; 4]| r.map(|ch| f32::from_bits(ch[0]));
    assert_eq!(lane(out[0]), [3.0, 3.0, 7.0, 7.0]);
    assert_eq!(lane(out[1]), [0.0, 0.5, 0.0, 0.5]);
    assert_eq!(lane(out[2]), [14.0, 0.0, 14.0, 0.0]);
}

#[test]
fn channel_formula_opcodes() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0..3], COLOR\n\
                  0: LIT OUT[0], IN[0]\n\
                  1: EXP OUT[1], IN[0].zzzz\n\
                  2: LOG OUT[2], IN[0].wwww\n\
                  3: DST OUT[3], IN[0], IN[0]\n\
                  4: END\n";
    let input = [2.0f32, 3.0, 2.5, -8.0].map(|x| [x.to_bits(); 4]);
    let (out, _) = run_wave::<4>(text, &[input], &[]).unwrap();
    let lane = |r: [[u32; 4]; 4]| r.map(|ch| f32::from_bits(ch[0]));
    assert_eq!(lane(out[0]), [1.0, 2.0, 3f32.powf(-8.0), 1.0]);
    assert_eq!(lane(out[1]), [4.0, 0.5, 2f32.powf(2.5), 1.0]);
    assert_eq!(lane(out[2]), [3.0, 1.0, 8f32.ln() * LG2_FACTOR, 1.0]);
    assert_eq!(lane(out[3]), [1.0, 9.0, 2.5, -8.0]);
}

#[test]
fn half_packing_and_doubles() {
    check(
        "PK2H",
        &[f([1.0, -2.0, 65520.0, f32::NAN])],
        [0x3c00, 0xc000, 0x7c00, 0x7e00].map(|x| x | x << 16),
    );
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0..1], COLOR\nDCL TEMP[0..1]\n\
                  0: F2D TEMP[0], IN[0].xyxy\n\
                  1: DADD TEMP[1], TEMP[0], TEMP[0].zwxy\n\
                  2: D2F OUT[0].xy, TEMP[1]\n\
                  3: DSLT OUT[1], TEMP[0], TEMP[0].zwxy\n\
                  4: END\n";
    let input = [1.5f32, 2.25, 0.0, 0.0].map(|x| [x.to_bits(); 4]);
    let (out, _) = run_wave::<4>(text, &[input], &[]).unwrap();
    assert_eq!(f32::from_bits(out[0][0][0]), 3.75);
    assert_eq!(f32::from_bits(out[0][1][0]), 3.75);
    assert_eq!(out[1].map(|ch| ch[0]), [!0, 0, 0, 0]);
}

#[test]
fn constant_reads_out_of_range_are_zero_and_indirect_uses_addr() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0..1], COLOR\nDCL CONST[0][0..1]\nDCL ADDR[0]\n\
                  0: UARL ADDR[0].x, IN[0].xxxx\n\
                  1: MOV OUT[0], CONST[0][ADDR[0].x]\n\
                  2: MOV OUT[1], CONST[1][0]\n\
                  3: END\n";
    let consts = vec![vec![[10; 4], [11; 4]]];
    let (out, _) = run_wave::<4>(text, &[lanes([0, 1, 2, (-1i32) as u32])], &consts).unwrap();
    assert_eq!(out[0][0], [10, 11, 0, 0]);
    assert_eq!(out[1][2], [0; 4]);
}

#[test]
fn spec_defined_opcodes_softpipe_skips() {
    let big = 1.0 + f32::EPSILON;
    check(
        "FMA",
        &[f([big; 4]), f([big; 4]), f([-1.0; 4])],
        [(big.mul_add(big, -1.0)).to_bits(); 4],
    );
    check(
        "PK4UB",
        &[f([1.0, 0.0, 0.5, 2.0])],
        [0xffff_ffff, 0, 0x8080_8080, 0xffff_ffff],
    );
    check(
        "PK2US",
        &[f([1.0, 0.0, -1.0, f32::NAN])],
        [0xffff_ffff, 0, 0, 0],
    );
    let up = eval("UP2H", &[[0xc000_3c00; 4]]);
    assert_eq!(up.map(|ch| ch[3]), f([1.0, -2.0, 1.0, -2.0]));
}

#[test]
fn missing_constants_read_zero_before_their_modifiers() {
    // CONST[5] is past the one bound register: it reads 0, which negation makes −0.0 (for
    // the component-wise fast path of MOV as for the general fetch of DP4's vector path).
    let text = "VERT\nDCL CONST[0..5]\nDCL OUT[0]\nDCL OUT[1]\n\
                IMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n\
                0: MOV OUT[0], -CONST[5]\n1: DP4 OUT[1], -CONST[5], IMM[0]\n2: END\n";
    let consts = vec![vec![[0x3f80_0000; 4]]];
    let (out, _) = run_wave::<4>(text, &[], &consts).expect("runs");
    assert_eq!(out[0], [[0x8000_0000; 4]; 4]);
    // −0 · 1 + −0 · 1 + … = −0.
    assert_eq!(out[1], [[0x8000_0000; 4]; 4]);
}
