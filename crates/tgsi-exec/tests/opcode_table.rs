//! Every opcode of the opcode table, accounted for, and every ALU opcode checked against a
//! reference formula.
//!
//! * [`every_opcode_is_covered`] walks [`tgsi::opcode::OPCODES`]: each opcode of the Core,
//!   Compute, Integer, Bitwise, GLSL, Double, 64-bit Integer, Interpolation and Legacy
//!   sections (less gaps and texturing) has a row in [`CASES`], or is a non-ALU opcode that
//!   a named test file runs as an instruction ([`COVERED_ELSEWHERE`]), or is [`REJECTED`] with its reason.
//!   The lists are checked against the table too, so they cannot rot.
//! * Each row of [`CASES`] gives the values each source takes and a reference written here
//!   from the spec formula (`shared/spec/tgsi.rst`, `opcodes.tsv`), with softpipe's bit-exact
//!   behaviour (`tgsi-formats.md` part C, the fsref cases) wherever the spec leaves a result
//!   open: NaN payloads, out-of-range conversions, division by zero, shift counts, operand
//!   order of MIN/MAX/MAD. Nothing here calls `tgsi_exec::scalar`.
//! * Each opcode runs through the whole machine: TGSI text → `Program::compile` →
//!   `Machine::<4>`. Every lane carries different values (component-wise opcodes: every
//!   channel too; 64-bit opcodes: both channel pairs), and all four channels of every lane
//!   of every destination are compared: written channels against the reference (replicated
//!   opcodes: the same scalar in every channel), unwritten ones against the sentinel the
//!   destination held before. Besides the full write mask, every partial mask runs on a few
//!   input batches.

mod common;

use tgsi::opcode::{OpcodeInfo, OperandType, OutputMode, Section, GAP};
use tgsi::Opcode;
use tgsi_exec::machine::Reg;
use tgsi_exec::ops::is_texture;
use tgsi_exec::{Env, Machine};

// ------------------------------------------------------------------------------------------
// Coverage
// ------------------------------------------------------------------------------------------

/// The sections whose opcodes this file accounts for.
const SECTIONS: &[Section] = &[
    Section::Core,
    Section::Compute,
    Section::Integer,
    Section::Bitwise,
    Section::Glsl,
    Section::Double,
    Section::Int64,
    Section::Interpolation,
    Section::Legacy,
];

/// Non-ALU opcodes and the test file that runs each of them as an instruction.
const COVERED_ELSEWHERE: &[(&str, &str)] = &[
    ("IF", "control.rs"),
    ("UIF", "control.rs"),
    ("ELSE", "control.rs"),
    ("ENDIF", "control.rs"),
    ("BGNLOOP", "control.rs"),
    ("ENDLOOP", "control.rs"),
    ("BRK", "control.rs"),
    ("CONT", "control.rs"),
    ("SWITCH", "control.rs"),
    ("CASE", "control.rs"),
    ("DEFAULT", "control.rs"),
    ("ENDSWITCH", "control.rs"),
    ("CAL", "control.rs"),
    ("RET", "control.rs"),
    ("BGNSUB", "control.rs"),
    ("ENDSUB", "control.rs"),
    ("NOP", "control.rs"),
    ("END", "control.rs"),
    ("KILL", "control.rs"),
    ("KILL_IF", "control.rs"),
    ("DDX", "control.rs"),
    ("DDY", "control.rs"),
    ("DDX_FINE", "control.rs"),
    ("DDY_FINE", "control.rs"),
    // No other file ran these; the tests at the end of this file do.
    ("DEMOTE", "opcode_table.rs"),
    ("READ_HELPER", "opcode_table.rs"),
    ("INTERP_CENTROID", "opcode_table.rs"),
    ("INTERP_SAMPLE", "opcode_table.rs"),
    ("BREAKC", "opcode_table.rs"),
    ("LFENCE", "opcode_table.rs"),
    ("MFENCE", "opcode_table.rs"),
    ("SFENCE", "opcode_table.rs"),
    // Legacy control flow and address stack, CLOCK, INTERP_OFFSET.
    ("ARA", "legacy.rs"),
    ("BGNFOR", "legacy.rs"),
    ("ENDFOR", "legacy.rs"),
    ("REP", "legacy.rs"),
    ("ENDREP", "legacy.rs"),
    ("BRA", "legacy.rs"),
    ("CALLNZ", "legacy.rs"),
    ("PUSHA", "legacy.rs"),
    ("POPA", "legacy.rs"),
    ("CLOCK", "legacy.rs"),
    ("INTERP_OFFSET", "legacy.rs"),
];

/// Opcodes `Program::compile` rejects on purpose, and the test file that checks the
/// rejection: IFC has no semantics in any spec version.
const REJECTED: &[(&str, &str)] = &[("IFC", "legacy.rs")];

/// The text of a test file named in [`COVERED_ELSEWHERE`].
fn test_source(file: &str) -> &'static str {
    match file {
        "control.rs" => include_str!("control.rs"),
        "opcodes.rs" => include_str!("opcodes.rs"),
        "vertex.rs" => include_str!("vertex.rs"),
        "opcode_table.rs" => include_str!("opcode_table.rs"),
        "legacy.rs" => include_str!("legacy.rs"),
        other => panic!("COVERED_ELSEWHERE names {other}; add it to test_source"),
    }
}

/// Whether `text` contains `op` as a whole word in instruction position (`  7: OP …`), not
/// merely mentioned.
fn runs_instruction(text: &str, op: &str) -> bool {
    text.match_indices(op).any(|(at, _)| {
        let after = &text[at + op.len()..];
        let label = text[..at].trim_end_matches(' ');
        !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && label
                .strip_suffix(':')
                .is_some_and(|l| l.ends_with(|c: char| c.is_ascii_digit()))
    })
}

/// An opcode this file must account for: texturing is left to its own tests.
fn in_scope(op: Opcode) -> bool {
    let info = op.info();
    SECTIONS.contains(&info.section) && !info.has(GAP) && !is_texture(op)
}

#[test]
fn every_opcode_is_covered() {
    let mut problems = Vec::new();
    let mut claims: Vec<(&str, &str)> = Vec::new();
    for case in CASES {
        claims.push((case.op, "CASES"));
    }
    for &(op, file) in COVERED_ELSEWHERE {
        claims.push((op, "COVERED_ELSEWHERE"));
        if !runs_instruction(test_source(file), op) {
            problems.push(format!("{op}: {file} does not run it as an instruction"));
        }
    }
    for &(op, file) in REJECTED {
        claims.push((op, "REJECTED"));
        if !runs_instruction(test_source(file), op) {
            problems.push(format!(
                "{op}: {file} does not compile it as an instruction"
            ));
        }
    }
    for &(op, list) in &claims {
        match Opcode::from_name(op) {
            None => problems.push(format!(
                "{list} names {op}, which is not in the opcode table"
            )),
            Some(o) if !in_scope(o) => problems.push(format!(
                "{list} names {op} ({:?}), which is outside the covered sections or texturing",
                o.info().section
            )),
            Some(_) => {}
        }
    }
    for info in Opcode::all().filter(|&o| in_scope(o)).map(Opcode::info) {
        let lists: Vec<&str> = claims
            .iter()
            .filter(|(op, _)| *op == info.name)
            .map(|&(_, l)| l)
            .collect();
        match lists.len() {
            1 => {}
            0 => problems.push(format!(
                "{} ({:?}) has no ALU case and is not covered elsewhere or rejected",
                info.name, info.section
            )),
            _ => problems.push(format!("{} is listed more than once: {lists:?}", info.name)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ------------------------------------------------------------------------------------------
// The table
// ------------------------------------------------------------------------------------------

/// A reference for one opcode. Sources and results are bit patterns.
#[derive(Clone, Copy)]
enum Ref {
    /// Component-wise: one result from one element of each source (a 32-bit word, or a
    /// 64-bit value of a channel pair, zero-extended to `u64`). Where sources and results
    /// sit (channel c, pair p, …) follows from the opcode's operand types.
    Scalar(fn(&[u64]) -> u64),
    /// A replicated opcode: one word from whole source vectors, expected in every channel.
    Replicated(fn(&[[u32; 4]]) -> u32),
    /// Whole source vectors to a whole result vector (channel-formula opcodes).
    Vector(fn(&[[u32; 4]]) -> [u32; 4]),
    /// DFRACEXP: significand (dst0, pair p) and exponent (dst1, channel p) of pair p.
    FracExp(fn(u64) -> (u64, u32)),
}

/// How a NaN result is compared. Results of arithmetic are always quiet NaNs, so a
/// signalling NaN in the reference (a bit copy) is always compared exactly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Nan {
    /// Bit for bit: softpipe's bits are known (one NaN operand is propagated quieted,
    /// invalid operations give x86's default NaN 0xffc00000, libm results are glibc's).
    Exact,
    /// One SSE operation on two NaN operands returns the first, but which operand
    /// softpipe's compiled C puts first is not documented: either operand's NaN, quieted.
    EitherOperand,
    /// A formula of several operations whose evaluation order softpipe does not document
    /// (or that softpipe does not implement): a NaN result must still be one of the input
    /// NaNs quieted or the default NaN.
    Propagated,
}

/// One row of the table.
struct Case {
    /// The opcode.
    op: &'static str,
    /// The values each source takes (32-bit patterns zero-extended).
    srcs: &'static [&'static [u64]],
    /// The reference.
    reference: Ref,
    /// NaN comparison.
    nan: Nan,
}

impl Case {
    const fn new(op: &'static str, srcs: &'static [&'static [u64]], reference: Ref) -> Case {
        Case {
            op,
            srcs,
            reference,
            nan: Nan::Exact,
        }
    }

    const fn nan(self, nan: Nan) -> Case {
        Case { nan, ..self }
    }
}

const fn scalar(op: &'static str, srcs: &'static [&'static [u64]], f: fn(&[u64]) -> u64) -> Case {
    Case::new(op, srcs, Ref::Scalar(f))
}

const fn replicated(
    op: &'static str,
    srcs: &'static [&'static [u64]],
    f: fn(&[[u32; 4]]) -> u32,
) -> Case {
    Case::new(op, srcs, Ref::Replicated(f))
}

const fn vector(
    op: &'static str,
    srcs: &'static [&'static [u64]],
    f: fn(&[[u32; 4]]) -> [u32; 4],
) -> Case {
    Case::new(op, srcs, Ref::Vector(f))
}

use Nan::{EitherOperand as EITHER, Propagated as PROPAGATED};

/// Every ALU opcode, in spec order. Formulas longer than a line are the reference functions
/// below; the comments say where a rule comes from when the spec leaves it open (C.n =
/// `tgsi-formats.md` part C).
#[rustfmt::skip]
static CASES: &[Case] = &[
    // ---- Core ----
    // ARL/ARR: (int)floorf(x) and (int)floorf(x + 0.5f) with x86's conversion (C.5, C.7).
    scalar("ARL", &[F32], |s| iw(cvt_i32(f(s[0]).floor().into()))),
    scalar("MOV", &[F32], |s| s[0]),
    vector("LIT", &[F32], lit),
    replicated("RCP", &[F32], |v| w32(div(1.0, fx(v[0])))),
    // RSQ: 1/sqrtf(x), no abs (C.5): negative → default NaN, −0 → −∞.
    replicated("RSQ", &[F32], |v| w32(div(1.0, sqrt(fx(v[0]))))),
    vector("EXP", &[F32], exp),
    vector("LOG", &[F32], log),
    scalar("MUL", &[F32, F32], |s| fw(mul(f(s[0]), f(s[1])))).nan(EITHER),
    scalar("ADD", &[F32, F32], |s| fw(add(f(s[0]), f(s[1])))).nan(EITHER),
    replicated("DP3", &[F32, F32], |v| w32(dot(v, 3))).nan(PROPAGATED),
    replicated("DP4", &[F32, F32], |v| w32(dot(v, 4))).nan(PROPAGATED),
    vector("DST", &[F32, F32], dst).nan(EITHER),
    // MIN/MAX: softpipe's results are glibc's fminf(src1, src0) (fsref exec-nan-minmax).
    scalar("MIN", &[F32, F32], |s| fw(c_fmin(f(s[1]), f(s[0])))),
    scalar("MAX", &[F32, F32], |s| fw(c_fmax(f(s[1]), f(s[0])))),
    scalar("SLT", &[F32, F32], |s| one(f(s[0]) < f(s[1]))),
    scalar("SGE", &[F32, F32], |s| one(f(s[0]) >= f(s[1]))),
    // MAD: src1·src0 + src2, two roundings (softpipe; fsref exec-rounding).
    scalar("MAD", &[F32, F32, F32], |s| fw(add(mul(f(s[1]), f(s[0])), f(s[2])))),
    // LRP: softpipe's form src0·(src1 − src2) + src2 (C.5; the spec's form rounds differently).
    scalar("LRP", &[F32, F32, F32], |s| fw(add(mul(f(s[0]), sub(f(s[1]), f(s[2]))), f(s[2]))))
        .nan(PROPAGATED),
    // FMA: one rounding (spec; softpipe skips it).
    scalar("FMA", &[F32, F32, F32], |s| fw(f(s[0]).mul_add(f(s[1]), f(s[2])))).nan(PROPAGATED),
    replicated("SQRT", &[F32], |v| w32(sqrt(fx(v[0])))),
    scalar("LDEXP", &[F32, EXPONENTS], |s| fw(ldexpf(f(s[0]), i(s[1])))),
    scalar("FRC", &[F32], |s| fw(sub(f(s[0]), f(s[0]).floor()))),
    scalar("FLR", &[F32], |s| fw(f(s[0]).floor())),
    // ROUND: half to even (softpipe's _mesa_roundevenf; the spec leaves ties open).
    scalar("ROUND", &[F32], |s| fw(f(s[0]).round_ties_even())),
    replicated("EX2", &[F32], |v| w32(ex2(fx(v[0])))),
    replicated("LG2", &[F32], |v| w32(lg2(fx(v[0])))),
    replicated("POW", &[F32, F32], |v| w32(fx(v[0]).powf(fx(v[1])))),
    replicated("COS", &[F32], |v| w32(fx(v[0]).cos())),
    replicated("PK2H", &[F32], |v| pack2(fv(v[0]).map(half))),
    replicated("PK2US", &[F32], |v| pack2(fv(v[0]).map(|x| unorm(x, 65535.0)))),
    replicated("PK4B", &[F32], |v| pack4(fv(v[0]).map(|x| snorm(x, 127.0)))),
    replicated("PK4UB", &[F32], |v| pack4(fv(v[0]).map(|x| unorm(x, 255.0)))),
    scalar("SEQ", &[F32, F32], |s| one(f(s[0]) == f(s[1]))),
    scalar("SGT", &[F32, F32], |s| one(f(s[0]) > f(s[1]))),
    replicated("SIN", &[F32], |v| w32(fx(v[0]).sin())),
    scalar("SLE", &[F32, F32], |s| one(f(s[0]) <= f(s[1]))),
    scalar("SNE", &[F32, F32], |s| one(f(s[0]) != f(s[1]))),
    vector("UP2H", &[U32], |v| vw(halves(v[0][0]).map(unhalf))),
    // UP2US/UP4B/UP4UB: TBD in every spec ("presumably the inverse of the pack"); the
    // documented choice of scalar::pack: n/65535, max(b/127, −1), b/255.
    vector("UP2US", &[U32], |v| vw(halves(v[0][0]).map(|n| n as f32 / 65535.0))),
    vector("UP4B", &[U32], |v| vw(bytes(v[0][0]).map(|b| (f32::from(b as i8) / 127.0).max(-1.0)))),
    vector("UP4UB", &[U32], |v| vw(bytes(v[0][0]).map(|b| f32::from(b) / 255.0))),
    scalar("ARR", &[F32], |s| iw(cvt_i32(add(f(s[0]), 0.5).floor().into()))),
    scalar("SSG", &[F32], |s| fw(sign(f(s[0])))),
    // CMP: src0 < 0 selects src1, a bit copy; NaN and −0 select src2.
    scalar("CMP", &[F32, F32, F32], |s| if f(s[0]) < 0.0 { s[1] } else { s[2] }),
    scalar("DIV", &[F32, F32], |s| fw(div(f(s[0]), f(s[1])))).nan(EITHER),
    replicated("DP2", &[F32, F32], |v| w32(dot(v, 2))).nan(PROPAGATED),
    // ---- Compute ----
    scalar("CEIL", &[F32], |s| fw(f(s[0]).ceil())),
    scalar("TRUNC", &[F32], |s| fw(f(s[0]).trunc())),
    scalar("MOD", &[I32, I32], |s| iw(imod(i(s[0]), i(s[1])))),
    scalar("UARL", &[I32], |s| s[0]),
    // ---- Integer ----
    scalar("I2F", &[I32], |s| fw(i(s[0]) as f32)),
    scalar("NOT", &[I32], |s| uw(!u(s[0]))),
    // SHL/ISHR/USHR: the count is masked with 31 (C.7).
    scalar("SHL", &[I32, I32], |s| uw(u(s[0]) << (u(s[1]) & 31))),
    scalar("AND", &[I32, I32], |s| s[0] & s[1]),
    scalar("OR", &[I32, I32], |s| s[0] | s[1]),
    scalar("XOR", &[I32, I32], |s| s[0] ^ s[1]),
    scalar("FSEQ", &[F32, F32], |s| mask(f(s[0]) == f(s[1]))),
    scalar("FSGE", &[F32, F32], |s| mask(f(s[0]) >= f(s[1]))),
    scalar("FSLT", &[F32, F32], |s| mask(f(s[0]) < f(s[1]))),
    scalar("FSNE", &[F32, F32], |s| mask(f(s[0]) != f(s[1]))),
    scalar("F2I", &[F32], |s| iw(cvt_i32(f(s[0]).into()))),
    scalar("IDIV", &[I32, I32], |s| iw(idiv(i(s[0]), i(s[1])))),
    scalar("IMAX", &[I32, I32], |s| iw(i(s[0]).max(i(s[1])))),
    scalar("IMIN", &[I32, I32], |s| iw(i(s[0]).min(i(s[1])))),
    scalar("INEG", &[I32], |s| iw(i(s[0]).wrapping_neg())),
    scalar("ISGE", &[I32, I32], |s| mask(i(s[0]) >= i(s[1]))),
    scalar("ISHR", &[I32, I32], |s| iw(i(s[0]) >> (u(s[1]) & 31))),
    scalar("ISLT", &[I32, I32], |s| mask(i(s[0]) < i(s[1]))),
    scalar("F2U", &[F32], |s| uw(f2u_softpipe(f(s[0])))),
    scalar("U2F", &[I32], |s| fw(u(s[0]) as f32)),
    scalar("UADD", &[I32, I32], |s| uw(u(s[0]).wrapping_add(u(s[1])))),
    // UDIV/UMOD: by 0 → 0xffffffff (C.7).
    scalar("UDIV", &[I32, I32], |s| uw(u(s[0]).checked_div(u(s[1])).unwrap_or(!0))),
    scalar("UMAD", &[I32, I32, I32], |s| uw(u(s[0]).wrapping_mul(u(s[1])).wrapping_add(u(s[2])))),
    scalar("UMAX", &[I32, I32], |s| s[0].max(s[1])),
    scalar("UMIN", &[I32, I32], |s| s[0].min(s[1])),
    scalar("UMOD", &[I32, I32], |s| uw(u(s[0]).checked_rem(u(s[1])).unwrap_or(!0))),
    scalar("UMUL", &[I32, I32], |s| uw(u(s[0]).wrapping_mul(u(s[1])))),
    scalar("USEQ", &[I32, I32], |s| mask(s[0] == s[1])),
    scalar("USGE", &[I32, I32], |s| mask(s[0] >= s[1])),
    scalar("USHR", &[I32, I32], |s| uw(u(s[0]) >> (u(s[1]) & 31))),
    scalar("USLT", &[I32, I32], |s| mask(s[0] < s[1])),
    scalar("USNE", &[I32, I32], |s| mask(s[0] != s[1])),
    // UCMP: src0 ≠ 0 selects src1, a bit copy (−0.0's bits are not 0).
    scalar("UCMP", &[I32, F32, F32], |s| if s[0] != 0 { s[1] } else { s[2] }),
    // IABS(INT_MIN) = INT_MIN (C.7).
    scalar("IABS", &[I32], |s| iw(i(s[0]).wrapping_abs())),
    scalar("ISSG", &[I32], |s| iw(i(s[0]).signum())),
    scalar("IMUL_HI", &[I32, I32], |s| iw(((i(s[0]) as i64 * i(s[1]) as i64) >> 32) as i32)),
    scalar("UMUL_HI", &[I32, I32], |s| (s[0] * s[1]) >> 32),
    // ---- Bitwise ----
    scalar("IBFE", &[BF_VALUES, BF_FIELDS, BF_FIELDS], |s| bfe(s, true)),
    scalar("UBFE", &[BF_VALUES, BF_FIELDS, BF_FIELDS], |s| bfe(s, false)),
    scalar("BFI", &[BF_VALUES, BF_VALUES, BF_FIELDS, BF_FIELDS], bfi),
    scalar("BREV", &[I32], |s| uw(u(s[0]).reverse_bits())),
    scalar("POPC", &[I32], |s| uw(u(s[0]).count_ones())),
    scalar("LSB", &[I32], |s| iw(if s[0] == 0 { -1 } else { u(s[0]).trailing_zeros() as i32 })),
    // IMSB: the highest bit differing from the sign bit; −1 for 0 and −1.
    scalar("IMSB", &[I32], |s| iw(msb(if i(s[0]) < 0 { !u(s[0]) } else { u(s[0]) }))),
    scalar("UMSB", &[I32], |s| iw(msb(u(s[0])))),
    // ---- Double: values in channel pairs xy, zw ----
    scalar("DFMA", &[F64, F64, F64_FEW], |s| dw(d(s[0]).mul_add(d(s[1]), d(s[2])))).nan(PROPAGATED),
    scalar("F2D", &[F32], |s| dw(widen(f(s[0])))),
    scalar("D2F", &[F64], |s| fw(narrow(d(s[0])))),
    // DABS: |x|, with softpipe's x >= 0 ? x : −x where the spec leaves the sign open: −0
    // stays negative and a NaN's sign flips (fsref case exec-fp64-abs-neg). DNEG: −x.
    scalar("DABS", &[F64], |s| if d(s[0]) >= 0.0 { s[0] } else { s[0] ^ 1 << 63 }),
    scalar("DNEG", &[F64], |s| s[0] ^ 1 << 63),
    scalar("DADD", &[F64, F64], |s| dw(dadd(d(s[0]), d(s[1])))).nan(EITHER),
    scalar("DMUL", &[F64, F64], |s| dw(dmul(d(s[0]), d(s[1])))).nan(EITHER),
    // DMAX/DMIN: glibc's fmax(src1, src0) and fmin(src1, src0), operands swapped like the
    // 32-bit MIN/MAX (fsref case exec-fp64-minmax-nan).
    scalar("DMAX", &[F64, F64], |s| dw(c_fmax64(d(s[1]), d(s[0])))),
    scalar("DMIN", &[F64, F64], |s| dw(c_fmin64(d(s[1]), d(s[0])))),
    scalar("DSLT", &[F64, F64], |s| mask(d(s[0]) < d(s[1]))),
    scalar("DSGE", &[F64, F64], |s| mask(d(s[0]) >= d(s[1]))),
    scalar("DSEQ", &[F64, F64], |s| mask(d(s[0]) == d(s[1]))),
    scalar("DSNE", &[F64, F64], |s| mask(d(s[0]) != d(s[1]))),
    scalar("DRCP", &[F64], |s| dw(ddiv(1.0, d(s[0])))),
    scalar("DSQRT", &[F64], |s| dw(dsqrt(d(s[0])))),
    scalar("DMAD", &[F64, F64, F64_FEW], |s| dw(dadd(dmul(d(s[0]), d(s[1])), d(s[2]))))
        .nan(PROPAGATED),
    scalar("DFRAC", &[F64], |s| dw(dsub(d(s[0]), d(s[0]).floor()))),
    // DLDEXP: the exponent is the 32-bit src1.x (xy) and src1.z (zw).
    scalar("DLDEXP", &[F64, EXPONENTS], |s| dw(ldexp(d(s[0]), i(s[1])))),
    Case::new("DFRACEXP", &[F64], Ref::FracExp(dfracexp)),
    scalar("D2I", &[F64], |s| iw(cvt_i32(d(s[0])))),
    scalar("I2D", &[I32], |s| dw(i(s[0]).into())),
    // D2U: `(unsigned)x` as GCC compiles it on x86-64 (C.7): the low word of the 64-bit
    // truncation, so NaN, ±∞ and |x| ≥ 2^63 give 0.
    scalar("D2U", &[F64], |s| uw(cvt_i64(d(s[0])) as u32)),
    scalar("U2D", &[I32], |s| dw(u(s[0]).into())),
    scalar("DRSQ", &[F64], |s| dw(ddiv(1.0, dsqrt(d(s[0]))))),
    // DTRUNC/DCEIL/DROUND/DSSG: the spec (softpipe skips them); DROUND ties to even like ROUND.
    scalar("DTRUNC", &[F64], |s| dw(d(s[0]).trunc())),
    scalar("DCEIL", &[F64], |s| dw(d(s[0]).ceil())),
    scalar("DFLR", &[F64], |s| dw(d(s[0]).floor())),
    scalar("DROUND", &[F64], |s| dw(d(s[0]).round_ties_even())),
    scalar("DSSG", &[F64], |s| dw(dsign(d(s[0])))),
    scalar("DDIV", &[F64, F64], |s| dw(ddiv(d(s[0]), d(s[1])))).nan(EITHER),
    // ---- 64-bit integer ----
    scalar("F2U64", &[F32], |s| cvt_u64(f(s[0]).into())),
    scalar("F2I64", &[F32], |s| cvt_i64(f(s[0]).into()) as u64),
    scalar("U2I64", &[I32], |s| s[0]),
    scalar("I2I64", &[I32], |s| i64::from(i(s[0])) as u64),
    scalar("D2U64", &[F64], |s| cvt_u64(d(s[0]))),
    scalar("D2I64", &[F64], |s| cvt_i64(d(s[0])) as u64),
    scalar("U642D", &[I64], |s| dw(s[0] as f64)),
    scalar("U642F", &[I64], |s| fw(s[0] as f32)),
    scalar("I642F", &[I64], |s| fw(s[0] as i64 as f32)),
    scalar("I642D", &[I64], |s| dw(s[0] as i64 as f64)),
    scalar("U64SEQ", &[I64, I64], |s| mask(s[0] == s[1])),
    scalar("U64SNE", &[I64, I64], |s| mask(s[0] != s[1])),
    scalar("I64SLT", &[I64, I64], |s| mask((s[0] as i64) < s[1] as i64)),
    scalar("U64SLT", &[I64, I64], |s| mask(s[0] < s[1])),
    scalar("I64SGE", &[I64, I64], |s| mask(s[0] as i64 >= s[1] as i64)),
    scalar("U64SGE", &[I64, I64], |s| mask(s[0] >= s[1])),
    scalar("I64MIN", &[I64, I64], |s| (s[0] as i64).min(s[1] as i64) as u64),
    scalar("U64MIN", &[I64, I64], |s| s[0].min(s[1])),
    scalar("I64MAX", &[I64, I64], |s| (s[0] as i64).max(s[1] as i64) as u64),
    scalar("U64MAX", &[I64, I64], |s| s[0].max(s[1])),
    scalar("I64ABS", &[I64], |s| (s[0] as i64).wrapping_abs() as u64),
    scalar("I64SSG", &[I64], |s| (s[0] as i64).signum() as u64),
    scalar("I64NEG", &[I64], |s| (s[0] as i64).wrapping_neg() as u64),
    scalar("U64ADD", &[I64, I64], |s| s[0].wrapping_add(s[1])),
    scalar("U64MUL", &[I64, I64], |s| s[0].wrapping_mul(s[1])),
    // 64-bit shifts: count & 63 from the low word of src1's pair, i.e. src1.x for xy and
    // src1.z for zw as softpipe reads it (the spec text says src1.y for zw).
    scalar("U64SHL", &[I64, I64], |s| s[0] << (s[1] & 63)),
    scalar("I64SHR", &[I64, I64], |s| ((s[0] as i64) >> (s[1] & 63)) as u64),
    scalar("U64SHR", &[I64, I64], |s| s[0] >> (s[1] & 63)),
    scalar("I64DIV", &[I64, I64], |s| i64div(s[0] as i64, s[1] as i64) as u64),
    // U64DIV/U64MOD: by 0 → all ones (C.7).
    scalar("U64DIV", &[I64, I64], |s| s[0].checked_div(s[1]).unwrap_or(!0)),
    scalar("I64MOD", &[I64, I64], |s| i64mod(s[0] as i64, s[1] as i64) as u64),
    scalar("U64MOD", &[I64, I64], |s| s[0].checked_rem(s[1]).unwrap_or(!0)),
    // ---- Legacy: not in softpipe 22.3, the older spec texts' formulas ----
    scalar("ABS", &[F32], |s| s[0] & 0x7fff_ffff),
    scalar("CLAMP", &[F32, F32, F32], |s| fw(clamp(f(s[0]), f(s[1]), f(s[2])))),
    // CND: the condition is src2 (src2 > 0.5 selects src0), a bit copy.
    scalar("CND", &[F32, F32, F32], |s| if f(s[2]) > 0.5 { s[0] } else { s[1] }),
    replicated("DP2A", &[F32, F32, F32], |v| w32(add(dot(v, 2), fx(v[2])))).nan(PROPAGATED),
    replicated("DPH", &[F32, F32], |v| w32(add(dot(v, 3), fv(v[1])[3]))).nan(PROPAGATED),
    vector("NRM", &[F32], nrm).nan(PROPAGATED),
    replicated("NRM4", &[F32], nrm4).nan(PROPAGATED),
    replicated("RCC", &[F32], rcc),
    vector("RFL", &[F32, F32], rfl).nan(PROPAGATED),
    // SAD: |src0 − src1| + src2 on unsigned values (opcodes.tsv).
    scalar("SAD", &[I32, I32, I32], |s| uw(u(s[0]).abs_diff(u(s[1])).wrapping_add(u(s[2])))),
    vector("SCS", &[F32], |v| vw([fx(v[0]).cos(), fx(v[0]).sin(), 0.0, 1.0])),
    replicated("SFL", &[F32, F32], |_| w32(0.0)),
    vector("SHR", &[I32, I32], shr),
    replicated("STR", &[F32, F32], |_| w32(1.0)),
    scalar("SUB", &[F32, F32], |s| fw(sub(f(s[0]), f(s[1])))).nan(EITHER),
    vector("X2D", &[F32, F32, F32], x2d).nan(PROPAGATED),
    vector("XPD", &[F32, F32], xpd).nan(PROPAGATED),
];

// ------------------------------------------------------------------------------------------
// Reference formulas longer than a table row
// ------------------------------------------------------------------------------------------

/// LIT (C.5): x = 1; y = fmaxf(s.x, 0); z = 0 < s.x ? powf(fmaxf(s.y, 0), fmaxf(fminf(s.w,
/// 128), −128)) : 0; w = 1 — softpipe's calls, constant second (as in its saturate, whose
/// −0 → +0 C.2 records).
fn lit(v: &[[u32; 4]]) -> [u32; 4] {
    let s = fv(v[0]);
    let e = c_fmax(c_fmin(s[3], 128.0), -128.0);
    let z = if 0.0 < s[0] {
        c_fmax(s[1], 0.0).powf(e)
    } else {
        0.0
    };
    vw([1.0, c_fmax(s[0], 0.0), z, 1.0])
}

/// EXP (C.5): 2^floor(x), x − floor(x), 2^x, 1, with 2^ = powf(2, ·).
fn exp(v: &[[u32; 4]]) -> [u32; 4] {
    let x = fx(v[0]);
    vw([ex2(x.floor()), sub(x, x.floor()), ex2(x), 1.0])
}

/// LOG (C.5) with a = |x|: floor(lg2 a), a / 2^floor(lg2 a), lg2 a, 1.
fn log(v: &[[u32; 4]]) -> [u32; 4] {
    let a = fx(v[0]).abs();
    let l = lg2(a);
    vw([l.floor(), div(a, ex2(l.floor())), l, 1.0])
}

/// DST: (1, src0.y·src1.y, src0.z, src1.w), z and w bit copies.
fn dst(v: &[[u32; 4]]) -> [u32; 4] {
    [
        w32(1.0),
        w32(mul(fv(v[0])[1], fv(v[1])[1])),
        v[0][2],
        v[1][3],
    ]
}

/// NRM: the spec text divides by the squared length, a documentation error (opcodes.tsv);
/// the real normalisation as softpipe's exec_nrm3 had it: xyz · 1/sqrt(x² + y² + z²), w = 1.
fn nrm(v: &[[u32; 4]]) -> [u32; 4] {
    let a = fv(v[0]);
    let r = div(1.0, sqrt(dot_of(&a[..3], &a[..3])));
    vw([mul(a[0], r), mul(a[1], r), mul(a[2], r), 1.0])
}

/// NRM4, replicated (the opcode table's REPL): x · 1/sqrt(x² + y² + z² + w²), see [`nrm`].
fn nrm4(v: &[[u32; 4]]) -> u32 {
    let a = fv(v[0]);
    w32(mul(a[0], div(1.0, sqrt(dot_of(&a, &a)))))
}

/// RCC: r = 1/x clamped to ±[5.42101e−20, 1.884467e+19] with the spec's clamp.
fn rcc(v: &[[u32; 4]]) -> u32 {
    let r = div(1.0, fx(v[0]));
    w32(if r > 0.0 {
        clamp(r, 5.42101e-20, 1.884467e+19)
    } else {
        clamp(r, -1.884467e+19, -5.42101e-20)
    })
}

/// RFL: 2·dot3(a, b) / dot3(a, a) · a − b, w = 1, evaluated left to right.
fn rfl(v: &[[u32; 4]]) -> [u32; 4] {
    let (a, b) = (fv(v[0]), fv(v[1]));
    let k = div(mul(2.0, dot(v, 3)), dot_of(&a[..3], &a[..3]));
    vw([
        sub(mul(k, a[0]), b[0]),
        sub(mul(k, a[1]), b[1]),
        sub(mul(k, a[2]), b[2]),
        1.0,
    ])
}

/// SHR: every spec version shifts each channel by src1.x (arithmetic, the table's i32 type);
/// a count ≥ 32 is left open by the spec: x86's `sar` masks it with 31.
fn shr(v: &[[u32; 4]]) -> [u32; 4] {
    v[0].map(|x| (x as i32 >> (v[1][0] & 31)) as u32)
}

/// X2D: x = a.x + b.x·c.x + b.y·c.y, y = a.y + b.x·c.z + b.y·c.w; (x, y, x, y).
fn x2d(v: &[[u32; 4]]) -> [u32; 4] {
    let (a, b, c) = (fv(v[0]), fv(v[1]), fv(v[2]));
    let x = add(add(a[0], mul(b[0], c[0])), mul(b[1], c[1]));
    let y = add(add(a[1], mul(b[0], c[2])), mul(b[1], c[3]));
    vw([x, y, x, y])
}

/// XPD: the cross product of the xyz parts as the spec writes it, w = 1.
fn xpd(v: &[[u32; 4]]) -> [u32; 4] {
    let (a, b) = (fv(v[0]), fv(v[1]));
    vw([
        sub(mul(a[1], b[2]), mul(b[1], a[2])),
        sub(mul(a[2], b[0]), mul(b[2], a[0])),
        sub(mul(a[0], b[1]), mul(b[0], a[1])),
        1.0,
    ])
}

/// DFRACEXP: C `frexp` of the pair, significand bits and exponent word.
fn dfracexp(x: u64) -> (u64, u32) {
    let (m, e) = frexp(d(x));
    (dw(m), e as u32)
}

/// IDIV: truncating; by 0 → 0 (C.7); INT_MIN / −1 → INT_MIN where softpipe traps (lib.rs).
fn idiv(a: i32, b: i32) -> i32 {
    if b == 0 {
        0
    } else {
        a.wrapping_div(b)
    }
}

/// MOD: C `%` (sign of the dividend); by 0 → −1 (C.7); INT_MIN % −1 → 0 (lib.rs).
fn imod(a: i32, b: i32) -> i32 {
    if b == 0 {
        -1
    } else {
        a.wrapping_rem(b)
    }
}

/// I64DIV: by 0 → 0 (C.7); MIN / −1 → MIN (lib.rs).
fn i64div(a: i64, b: i64) -> i64 {
    if b == 0 {
        0
    } else {
        a.wrapping_div(b)
    }
}

/// I64MOD: by 0 → −1 (C.7); MIN % −1 → 0 (lib.rs).
fn i64mod(a: i64, b: i64) -> i64 {
    if b == 0 {
        -1
    } else {
        a.wrapping_rem(b)
    }
}

/// The low and high halves of a word.
fn halves(x: u32) -> [u32; 4] {
    [x & 0xffff, x >> 16, x & 0xffff, x >> 16]
}

/// The four bytes of a word, x first.
fn bytes(x: u32) -> [u8; 4] {
    x.to_le_bytes()
}

/// Two halves into a word, x low.
fn pack2(h: [u32; 4]) -> u32 {
    h[0] | h[1] << 16
}

/// Four bytes into a word, x first.
fn pack4(b: [u32; 4]) -> u32 {
    b.iter()
        .enumerate()
        .fold(0, |acc, (k, &x)| acc | (x & 0xff) << (8 * k))
}

// ------------------------------------------------------------------------------------------
// Source values
// ------------------------------------------------------------------------------------------

const fn fl(x: f32) -> u64 {
    x.to_bits() as u64
}

const fn db(x: f64) -> u64 {
    x.to_bits()
}

const fn word(x: i32) -> u64 {
    x as u32 as u64
}

/// Floats: signed zeros, denormals and the smallest normal, rounding ties, ordinary values,
/// the integer-conversion limits, the largest finite values, infinities, and NaNs (quiet,
/// x86's default, with a payload, signalling).
#[rustfmt::skip]
const F32: &[u64] = &[
    fl(0.0), fl(-0.0), 0x0000_0001, 0x8000_0001, 0x007f_ffff, 0x0080_0000,
    fl(1.0), fl(-1.0), fl(0.5), fl(-0.5), fl(1.5), fl(2.5), fl(-2.5), fl(3.0), fl(-7.0),
    0x3eff_ffff,                // 0.49999997: + 0.5 rounds to 1
    fl(-1e-10),                 // FRC gives 1.0
    fl(0.1), 0x3eaa_aaab, 0x4049_0fdb, fl(100.0), fl(1e6), // 1/3, π
    0x4b00_0001,                // 8388609
    0x4eff_ffff,                // the largest float below 2^31
    fl(2147483648.0), fl(-2147483648.0), fl(3e9), fl(-3e9), fl(4294967296.0), fl(5e9),
    0x5f00_0000, 0xdf00_0000, 0x5f80_0000, fl(1e20), // ±2^63, 2^64
    0x7f7f_ffff, 0xff7f_ffff, 0x7f80_0000, 0xff80_0000,
    0x7fc0_0000, 0xffc0_0000, 0x7fc1_2345, 0x7f80_0001, 0xff81_2345,
];

/// 32-bit integers: small values and shift counts around 32 and 64, the signed limits,
/// negatives, bit patterns, and values whose float conversion rounds (2^24 + 1, 2^32 − 129
/// and the tie 2^32 − 128).
#[rustfmt::skip]
const I32: &[u64] = &[
    0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 255, 0x1_0000, 0x0100_0001,
    0x7fff_ffff, 0x8000_0000, 0x8000_0001, word(-1), word(-2), word(-7), word(-32),
    0xffff_ff7f, 0xffff_ff80, 0xdead_beef, 0x1234_5678, 0x5555_5555, 0x00ff_00f0,
];

/// Words of UP2H, UP2US, UP4B and UP4UB: halves and bytes of every kind.
#[rustfmt::skip]
const U32: &[u64] = &[
    0,
    0x3c00_c000,                // 1.0, −2.0
    0x7bff_0001,                // the largest half, the smallest subnormal
    0x8400_03ff,                // −(the smallest normal), the largest subnormal
    0x7c00_fc00,                // ±∞
    0x7e00_7c01,                // quiet NaN, signalling NaN
    0xfe3f_8000,                // NaN with a payload, −0
    0xffff_ffff, 0x7f80_817f, 0x0102_fe01, 0xdead_beef, 0x8000_0001,
];

/// Exponents of LDEXP and DLDEXP: around the float and double ranges, and the i32 limits.
#[rustfmt::skip]
const EXPONENTS: &[u64] = &[
    0, 1, word(-1), 2, 31, 32, word(-32), 127, 128, word(-126), word(-149), word(-150), 254,
    1023, 1024, word(-1022), word(-1074), word(-1075), 2000, word(-2000),
    0x7fff_ffff, 0x8000_0000,
];

/// Values of IBFE, UBFE and BFI.
#[rustfmt::skip]
const BF_VALUES: &[u64] = &[
    0, 0xffff_ffff, 0xdead_beef, 0x8000_0000, 0x7fff_ffff, 0xf0, 0x1234_5678,
];

/// Offsets and widths of IBFE, UBFE and BFI: in range, 32, beyond, and "negative".
#[rustfmt::skip]
const BF_FIELDS: &[u64] = &[
    0, 1, 4, 8, 16, 24, 28, 31, 32, 33, 36, 63, 0x8000_0000, 0xffff_ffe0, 0xffff_ffff,
];

/// Doubles: as [`F32`], plus the f32 overflow and subnormal rounding boundaries of D2F, the
/// i32/u32/i64/u64 conversion limits and 1 + 2^−52.
#[rustfmt::skip]
const F64: &[u64] = &[
    db(0.0), db(-0.0), 1, 0x8000_0000_0000_0001, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000,
    db(1.0), db(-1.0), db(0.5), db(-0.5), db(1.5), db(2.5), db(-2.5), db(3.0), db(-7.0),
    0x3ff0_0000_0000_0001,      // 1 + 2^-52
    db(0.1), 0x4009_21fb_5444_2d18, // π
    db(-1e-300),                // DFRAC gives 1.0
    db(2147483647.5), db(2147483648.0), db(-2147483648.9), db(-2147483649.0),
    db(4294967295.5), db(4294967296.0), db(-3e9), db(5e9), db(1e19),
    0x43df_ffff_ffff_ffff,      // the largest double below 2^63
    db(9223372036854775808.0), db(-9223372036854775808.0), db(18446744073709551616.0),
    0x47ef_ffff_e000_0000,      // f32::MAX
    0x47ef_ffff_efff_ffff,      // just below the f32 overflow tie
    0x47ef_ffff_f000_0000,      // the tie: rounds to ∞
    0x36a0_0000_0000_0000,      // 2^-149
    0x3690_0000_0000_0000,      // 2^-150: ties to 0
    0x3690_0000_0000_0001,
    db(1e300), 0x7fef_ffff_ffff_ffff, 0xffef_ffff_ffff_ffff,
    0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000, 0xfff8_0000_0000_0000, 0x7ff8_0000_dead_beef,
    0x7ff0_0000_0000_0001, 0xfff0_0000_1234_5678,
];

/// The third operand of DMAD and DFMA (all of [`F64`] would make 100 000 cases).
#[rustfmt::skip]
const F64_FEW: &[u64] = &[
    db(0.0), db(-0.0), 1, db(1.0), db(-1.5), 0x3ca0_0000_0000_0000, db(1e300), // 2^-53
    0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000, 0x7ff8_0000_dead_beef, 0x7ff0_0000_0000_0001,
];

/// 64-bit integers: shift counts around 64 (also with high bits set), the limits, the
/// 32-bit boundaries, and values whose float conversion rounds (2^24 + 1, 2^53 + 1, 2^64 − 1).
#[rustfmt::skip]
const I64: &[u64] = &[
    0, 1, 2, 7, 63, 64, 65, 0x1_0000_0001, 0x0100_0001, 0x0020_0000_0000_0001,
    0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x1_0000_0000, 0xffff_ffff_0000_0000,
    0x7fff_ffff_ffff_ffff, 0x8000_0000_0000_0000, 0x8000_0000_0000_0001, u64::MAX,
    (-2i64) as u64, (-7i64) as u64, (-64i64) as u64, 0xdead_beef_cafe_babe, 0x0123_4567_89ab_cdef,
];

// ------------------------------------------------------------------------------------------
// Reference models
// ------------------------------------------------------------------------------------------

fn f(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

fn fw(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn w32(x: f32) -> u32 {
    x.to_bits()
}

fn fx(v: [u32; 4]) -> f32 {
    f32::from_bits(v[0])
}

fn fv(v: [u32; 4]) -> [f32; 4] {
    v.map(f32::from_bits)
}

fn vw(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

fn d(x: u64) -> f64 {
    f64::from_bits(x)
}

fn dw(x: f64) -> u64 {
    x.to_bits()
}

fn i(x: u64) -> i32 {
    x as u32 as i32
}

fn u(x: u64) -> u32 {
    x as u32
}

fn iw(x: i32) -> u64 {
    u64::from(x as u32)
}

fn uw(x: u32) -> u64 {
    x.into()
}

/// The ~0 / 0 of the integer comparisons.
fn mask(b: bool) -> u64 {
    if b {
        0xffff_ffff
    } else {
        0
    }
}

/// The 1.0 / 0.0 of SLT and friends.
fn one(b: bool) -> u64 {
    fw(if b { 1.0 } else { 0.0 })
}

/// x86's default ("indefinite") NaN, the result of an invalid operation.
const DEFAULT_NAN: u32 = 0xffc0_0000;
const DEFAULT_NAN64: u64 = 0xfff8_0000_0000_0000;
const QUIET: u32 = 0x0040_0000;
const QUIET64: u64 = 1 << 51;

fn quiet(x: f32) -> f32 {
    f32::from_bits(x.to_bits() | QUIET)
}

fn quiet64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() | QUIET64)
}

/// One SSE arithmetic instruction on `$t` (`$sse`): a NaN operand comes out quieted (the
/// first one if both are NaN); an invalid operation (∞ − ∞, 0·∞, 0/0, √−x) gives the default
/// NaN. Then the four operations and the square root through it.
macro_rules! sse_ops {
    ($t:ty, $sse:ident, $quiet:ident, $default:expr, [$add:ident, $sub:ident, $mul:ident, $div:ident, $sqrt:ident]) => {
        fn $sse(a: $t, b: $t, op: impl Fn($t, $t) -> $t) -> $t {
            if a.is_nan() {
                $quiet(a)
            } else if b.is_nan() {
                $quiet(b)
            } else {
                let r = op(a, b);
                if r.is_nan() {
                    <$t>::from_bits($default)
                } else {
                    r
                }
            }
        }

        fn $add(a: $t, b: $t) -> $t {
            $sse(a, b, |a, b| a + b)
        }

        fn $sub(a: $t, b: $t) -> $t {
            $sse(a, b, |a, b| a - b)
        }

        fn $mul(a: $t, b: $t) -> $t {
            $sse(a, b, |a, b| a * b)
        }

        fn $div(a: $t, b: $t) -> $t {
            $sse(a, b, |a, b| a / b)
        }

        fn $sqrt(x: $t) -> $t {
            $sse(x, 0.0, |x, _| x.sqrt())
        }
    };
}

sse_ops!(f32, sse, quiet, DEFAULT_NAN, [add, sub, mul, div, sqrt]);
sse_ops!(
    f64,
    sse64,
    quiet64,
    DEFAULT_NAN64,
    [dadd, dsub, dmul, ddiv, dsqrt]
);

/// The dot product of the first `n` channels of sources 0 and 1 (DP2/DP3/DP4, C.5):
/// x0·x1, then + y0·y1, + z0·z1, + w0·w1, each product rounded.
fn dot(v: &[[u32; 4]], n: usize) -> f32 {
    dot_of(&fv(v[0])[..n], &fv(v[1])[..n])
}

fn dot_of(a: &[f32], b: &[f32]) -> f32 {
    (1..a.len()).fold(mul(a[0], b[0]), |acc, k| add(acc, mul(a[k], b[k])))
}

/// softpipe's EX2: `powf(2, x)` (release build: no clamping).
fn ex2(x: f32) -> f32 {
    2f32.powf(x)
}

/// softpipe's `1.442695f`, deliberately not `LOG2_E` (C.5).
#[allow(clippy::approx_constant)]
const LG2_FACTOR: f32 = 1.442695;

/// softpipe's LG2: `logf(x) · 1.442695f`.
fn lg2(x: f32) -> f32 {
    mul(x.ln(), LG2_FACTOR)
}

/// SSG: −1 / 0 / +1; NaN and −0 give 0.
fn sign(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// DSSG: −1 / 0 / +1; NaN and −0 give 0.
fn dsign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// The spec's clamp(x, lo, hi) = (x < lo) ? lo : (x > hi) ? hi : x.
fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// C `fminf`/`fmaxf` as glibc 2.36 computes them on x86-64 (run on the reference host): a
/// quiet NaN operand is ignored; a signalling NaN, or two NaNs, give the first NaN operand
/// quieted; of equal operands (±0) the second is returned.
fn c_minmax(a: f32, b: f32, take_a: bool) -> f32 {
    let signalling = |x: f32| x.is_nan() && x.to_bits() & QUIET == 0;
    if (a.is_nan() && b.is_nan()) || signalling(a) || signalling(b) {
        quiet(if a.is_nan() { a } else { b })
    } else if a.is_nan() {
        b
    } else if b.is_nan() || take_a {
        a
    } else {
        b
    }
}

fn c_fmin(a: f32, b: f32) -> f32 {
    c_minmax(a, b, a < b)
}

fn c_fmax(a: f32, b: f32) -> f32 {
    c_minmax(a, b, a > b)
}

/// C `fmin`/`fmax` on doubles: glibc's rules of [`c_minmax`] (checked on the host too).
fn c_minmax64(a: f64, b: f64, take_a: bool) -> f64 {
    let signalling = |x: f64| x.is_nan() && x.to_bits() & QUIET64 == 0;
    if (a.is_nan() && b.is_nan()) || signalling(a) || signalling(b) {
        quiet64(if a.is_nan() { a } else { b })
    } else if a.is_nan() {
        b
    } else if b.is_nan() || take_a {
        a
    } else {
        b
    }
}

fn c_fmin64(a: f64, b: f64) -> f64 {
    c_minmax64(a, b, a < b)
}

fn c_fmax64(a: f64, b: f64) -> f64 {
    c_minmax64(a, b, a > b)
}

/// `(int32_t)x` on x86-64 (`cvttss2si`/`cvttsd2si`): truncation; NaN and anything outside
/// the i32 range give 0x80000000 (C.7).
fn cvt_i32(x: f64) -> i32 {
    let t = x.trunc();
    if (-2147483648.0..2147483648.0).contains(&t) {
        t as i32
    } else {
        i32::MIN
    }
}

/// `(int64_t)x` on x86-64: truncation; NaN and out-of-range give `i64::MIN`.
fn cvt_i64(x: f64) -> i64 {
    let t = x.trunc();
    if (-9223372036854775808.0..9223372036854775808.0).contains(&t) {
        t as i64
    } else {
        i64::MIN
    }
}

/// `(uint64_t)x` as GCC compiles it on x86-64: below 2^63 (and NaN) the signed conversion,
/// otherwise the signed conversion of x − 2^63 with bit 63 flipped.
fn cvt_u64(x: f64) -> u64 {
    const TWO63: f64 = 9223372036854775808.0;
    if x >= TWO63 {
        (cvt_i64(x - TWO63) as u64) ^ 1 << 63
    } else {
        cvt_i64(x) as u64
    }
}

/// softpipe's F2U: GCC vectorises the `(uint32_t)x` loop as
/// `x >= 2^31 ? cvttps2dq(x − 2^31) ^ 0x80000000 : cvttps2dq(x)`,
/// so NaN, −∞ and x ≤ −2^31 give 0x80000000 and x ≥ 2^32 gives 0 (fsref exec-f2i-range,
/// bit-exact softpipe output; tgsi-formats.md C.7 describes the scalar 64-bit conversion,
/// which does not apply here).
fn f2u_softpipe(x: f32) -> u32 {
    if x >= 2147483648.0 {
        cvt_i32((x - 2147483648.0).into()) as u32 ^ 0x8000_0000
    } else {
        cvt_i32(x.into()) as u32
    }
}

/// f32 → f64 (`cvtss2sd`): exact; a NaN is quieted, its payload shifted up.
fn widen(x: f32) -> f64 {
    if x.is_nan() {
        let b = u64::from(x.to_bits());
        f64::from_bits((b & 0x8000_0000) << 32 | 0x7ff8_0000_0000_0000 | (b & 0x7f_ffff) << 29)
    } else {
        f64::from(x)
    }
}

/// f64 → f32 (`cvtsd2ss`): round to nearest even; a NaN is quieted, its payload truncated.
fn narrow(x: f64) -> f32 {
    if x.is_nan() {
        let b = x.to_bits();
        f32::from_bits(
            ((b >> 32) as u32 & 0x8000_0000) | 0x7fc0_0000 | (b >> 29) as u32 & 0x7f_ffff,
        )
    } else {
        x as f32
    }
}

/// A finite non-zero double as (sign bit, m, e) with |x| = m·2^e and m in [2^52, 2^53).
fn decompose(x: f64) -> (u64, u64, i64) {
    let b = x.to_bits();
    let exp = ((b >> 52) & 0x7ff) as i64;
    let (mut m, mut e) = if exp == 0 {
        (b & FRACTION, -1074)
    } else {
        (b & FRACTION | 1 << 52, exp - 1075)
    };
    while m < 1 << 52 {
        m <<= 1;
        e -= 1;
    }
    (b & 1 << 63, m, e)
}

const FRACTION: u64 = (1 << 52) - 1;

/// C `ldexp`, correctly rounded (as glibc computes it), by integer arithmetic on the
/// significand. Zeros and infinities are returned as they are, NaNs quieted.
fn ldexp(x: f64, n: i32) -> f64 {
    if x.is_nan() {
        return quiet64(x);
    }
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    let (sign, m, e) = decompose(x);
    let e = e + i64::from(n);
    if e + 52 > 1023 {
        return f64::from_bits(sign | 0x7ff0_0000_0000_0000);
    }
    if e >= -1074 {
        return f64::from_bits(sign | ((e + 1075) as u64) << 52 | m & FRACTION);
    }
    // Subnormal: keep m·2^e / 2^-1074, rounded to nearest even.
    let shift = -1074 - e;
    if shift > 53 {
        return f64::from_bits(sign);
    }
    let (q, rest, half) = (m >> shift, m & ((1 << shift) - 1), 1 << (shift - 1));
    let q = if rest > half || (rest == half && q & 1 == 1) {
        q + 1
    } else {
        q
    };
    f64::from_bits(sign | q)
}

/// `ldexpf`: exact in double precision, then one rounding to float.
fn ldexpf(x: f32, n: i32) -> f32 {
    if x.is_nan() {
        quiet(x)
    } else {
        ldexp(x.into(), n) as f32
    }
}

/// C `frexp` (glibc): x = m·2^e with |m| in [0.5, 1); zeros and infinities give (x, 0); a
/// NaN gives (x quieted, 0).
fn frexp(x: f64) -> (f64, i32) {
    if x.is_nan() {
        return (quiet64(x), 0);
    }
    if x == 0.0 || x.is_infinite() {
        return (x, 0);
    }
    let (sign, m, e) = decompose(x);
    (
        f64::from_bits(sign | 1022 << 52 | m & FRACTION),
        (e + 53) as i32,
    )
}

/// f32 → f16 bits as x86's `vcvtps2ph` (which Mesa uses): round to nearest even, overflow
/// to ∞, NaN quieted with the top payload bits kept.
fn half(x: f32) -> u32 {
    let b = x.to_bits();
    let sign = (b >> 16) & 0x8000;
    if x.is_nan() {
        return sign | 0x7e00 | (b >> 13) & 0x3ff;
    }
    let a = f64::from(x.abs());
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // Subnormal halves are multiples of 2^-24.
        return sign | (a * 2f64.powi(24)).round_ties_even() as u32;
    }
    let e = ((a.to_bits() >> 52) as i32) - 1023;
    let q = (a * 2f64.powi(10 - e)).round_ties_even() as u32; // in [1024, 2048]
    sign | ((((e + 15) as u32) << 10) + q - 1024)
}

/// f16 bits → f32 (`vcvtph2ps`): exact; NaN quieted with its payload.
fn unhalf(h: u32) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (e, m) = ((h >> 10) & 0x1f, h & 0x3ff);
    match e {
        31 if m == 0 => sign * f32::INFINITY,
        31 => f32::from_bits((h & 0x8000) << 16 | 0x7fc0_0000 | m << 13),
        0 => sign * m as f32 * 2f32.powi(-24),
        _ => sign * (1024 + m) as f32 * 2f32.powi(e as i32 - 25),
    }
}

/// A normalised pack: NaN → 0, clamp to [0, 1], scale in float, round half to even
/// (Mesa's `_mesa_float_to_unorm`; the spec leaves rounding and NaN open, this is the
/// documented choice of `scalar::pack`).
fn unorm(x: f32, scale: f32) -> u32 {
    let c = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    (c * scale).round_ties_even() as u32
}

/// The signed [`unorm`]: clamp to [−1, 1].
fn snorm(x: f32, scale: f32) -> u32 {
    let c = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
    (c * scale).round_ties_even() as i32 as u32
}

/// IBFE/UBFE as softpipe computes them (C.7, SM5 masking): offset &= 31; width 32 at offset
/// 0 is the whole value; otherwise width &= 31 and width 0 gives 0; a field running past
/// bit 31 ends there; IBFE sign-extends from the field's top bit.
fn bfe(s: &[u64], signed: bool) -> u64 {
    let (value, offset, width) = (u(s[0]), u(s[1]) & 31, u(s[2]));
    let width = if width == 32 && offset == 0 {
        32
    } else {
        width & 31
    };
    if width == 0 {
        return 0;
    }
    let width = width.min(32 - offset);
    let ones = (1u64 << width) - 1;
    let field = (u64::from(value) >> offset) & ones;
    let negative = signed && field >> (width - 1) & 1 == 1;
    uw((if negative { field | !ones } else { field }) as u32)
}

/// BFI as softpipe computes it (C.7): offset &= 31; width 32 inserts the whole value;
/// otherwise mask = ((1 << width) − 1) << offset, the shift by width masked with 31 as x86
/// does.
fn bfi(s: &[u64]) -> u64 {
    let (base, insert, offset, width) = (u(s[0]), u(s[1]), u(s[2]) & 31, u(s[3]));
    if width == 32 {
        return uw(insert);
    }
    let mask = (((1u64 << (width & 31)) - 1) << offset) as u32;
    uw((insert << offset) & mask | base & !mask)
}

/// The index of the highest set bit, −1 for 0.
fn msb(x: u32) -> i32 {
    if x == 0 {
        -1
    } else {
        31 - x.leading_zeros() as i32
    }
}

// ------------------------------------------------------------------------------------------
// Running the table
// ------------------------------------------------------------------------------------------

/// What OUT[0] and OUT[1] hold before the instruction: a different word per channel.
const SENTINEL: [u32; 4] = [0x5e47_1e00, 0x5e47_1e01, 0x5e47_1e02, 0x5e47_1e03];

/// What source channels the opcode does not read hold.
const UNREAD: u32 = 0x7fa5_a5a5;

/// Where an opcode reads its sources and writes its results, from the table's operand types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// 32-bit: channel c of the result from channel c of the sources.
    Words,
    /// 64-bit results in pair p (channels 2p, 2p+1, low word first) from source pair p; a
    /// 32-bit source beside 64-bit ones (DLDEXP's exponent) is read from channel 2p. A mask
    /// covering half a pair writes only that word (lib.rs; softpipe writes the whole pair).
    Pairs,
    /// 64-bit result in pair p from channel p of the 32-bit source (F2D, I2I64…).
    WordsToPairs,
    /// 32-bit result in channel p from source pair p (D2F, I642F…); z and w are untouched.
    PairsToWords,
    /// Comparison of pair p: a ~0/0 word in the first enabled channel of pair p (C.7).
    PairCompares,
}

fn layout(info: &OpcodeInfo) -> Layout {
    let src64 = (0..info.num_src as usize).any(|k| info.src_type(k).is_64bit());
    match (info.dst_type(0).is_64bit(), src64) {
        (false, false) => Layout::Words,
        (true, true) => Layout::Pairs,
        (true, false) => Layout::WordsToPairs,
        (false, true) if info.num_src == 1 => Layout::PairsToWords,
        (false, true) => Layout::PairCompares,
    }
}

/// One run's inputs: the source registers and, per result slot, the values it was built from
/// (one per source for scalar references; four words per source for vector ones).
struct Batch {
    regs: Vec<Reg<4>>,
    tuples: Vec<Vec<u64>>,
}

/// A deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn seeded(name: &str) -> Rng {
        Rng(name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }))
    }

    fn pick(&mut self, list: &[u64]) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        list[(self.0 % list.len() as u64) as usize]
    }
}

/// Every combination of the sources' values.
fn product(lists: &[&[u64]]) -> Vec<Vec<u64>> {
    lists.iter().fold(vec![Vec::new()], |acc, list| {
        acc.iter()
            .flat_map(|t| {
                list.iter().map(move |&v| {
                    let mut t = t.clone();
                    t.push(v);
                    t
                })
            })
            .collect()
    })
}

/// Whole source vectors for a vector reference: every combination of the x channels (or a
/// sample of 4096), every value in every channel of every source, and random vectors; the
/// channels not chosen are drawn at random from the source's values.
fn vector_tuples(case: &Case) -> Vec<Vec<u64>> {
    let mut rng = Rng::seeded(case.op);
    let random = |rng: &mut Rng| -> Vec<u64> {
        case.srcs
            .iter()
            .flat_map(|list| (0..4).map(|_| rng.pick(list)).collect::<Vec<_>>())
            .collect()
    };
    let mut out = Vec::new();
    let xs = product(case.srcs);
    if xs.len() <= 4096 {
        for x in xs {
            let mut t = random(&mut rng);
            for (k, v) in x.into_iter().enumerate() {
                t[4 * k] = v;
            }
            out.push(t);
        }
    } else {
        for _ in 0..4096 {
            let mut t = random(&mut rng);
            for (k, list) in case.srcs.iter().enumerate() {
                t[4 * k] = rng.pick(list);
            }
            out.push(t);
        }
    }
    for (k, list) in case.srcs.iter().enumerate() {
        for c in 1..4 {
            for &v in list.iter() {
                let mut t = random(&mut rng);
                t[4 * k + c] = v;
                out.push(t);
            }
        }
    }
    out.extend((0..1024).map(|_| random(&mut rng)));
    out
}

/// The inputs of a case, cut into runs of one quad.
fn batches(case: &Case, info: &OpcodeInfo, layout: Layout) -> Vec<Batch> {
    let is_vector = matches!(case.reference, Ref::Replicated(_) | Ref::Vector(_));
    let (tuples, per_run) = match (is_vector, layout) {
        (true, _) => (vector_tuples(case), 4),
        (false, Layout::Words) => (product(case.srcs), 16),
        (false, _) => (product(case.srcs), 8),
    };
    tuples
        .chunks(per_run)
        .map(|chunk| {
            let tuples: Vec<Vec<u64>> = (0..per_run)
                .map(|s| chunk[s % chunk.len()].clone())
                .collect();
            let mut regs = vec![[[UNREAD; 4]; 4]; case.srcs.len()];
            for (slot, t) in tuples.iter().enumerate() {
                for (k, reg) in regs.iter_mut().enumerate() {
                    if is_vector {
                        for (c, ch) in reg.iter_mut().enumerate() {
                            ch[slot] = t[4 * k + c] as u32;
                        }
                        continue;
                    }
                    let (lo, hi) = (t[k] as u32, (t[k] >> 32) as u32);
                    match layout {
                        Layout::Words => reg[slot % 4][slot / 4] = lo,
                        Layout::WordsToPairs => reg[slot % 2][slot / 2] = lo,
                        _ if info.src_type(k).is_64bit() => {
                            reg[2 * (slot % 2)][slot / 2] = lo;
                            reg[2 * (slot % 2) + 1][slot / 2] = hi;
                        }
                        _ => reg[2 * (slot % 2)][slot / 2] = lo,
                    }
                }
            }
            Batch { regs, tuples }
        })
        .collect()
}

/// The float format of a type, for NaN rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fmt {
    F32,
    F64,
}

impl Fmt {
    fn of(ty: OperandType) -> Option<Fmt> {
        match ty {
            OperandType::F32 => Some(Fmt::F32),
            OperandType::F64 => Some(Fmt::F64),
            _ => None,
        }
    }

    fn is_nan(self, x: u64) -> bool {
        match self {
            Fmt::F32 => f(x).is_nan(),
            Fmt::F64 => d(x).is_nan(),
        }
    }

    fn quiet_bit(self) -> u64 {
        match self {
            Fmt::F32 => u64::from(QUIET),
            Fmt::F64 => QUIET64,
        }
    }

    fn default_nan(self) -> u64 {
        match self {
            Fmt::F32 => u64::from(DEFAULT_NAN),
            Fmt::F64 => DEFAULT_NAN64,
        }
    }
}

/// One expected result: the channels (and the half of the value each holds) it occupies in
/// destination `dst` of `lane`.
struct Expect {
    dst: usize,
    lane: usize,
    parts: Vec<(usize, u32)>,
    want: u64,
    /// Other acceptable results (NaN payloads the spec and facts leave open).
    alternatives: Vec<u64>,
    /// The source values, for reports.
    sources: Vec<u64>,
}

/// The acceptable NaN payloads besides `want` (see [`Nan`]).
fn nan_alternatives(nan: Nan, fmt: Option<Fmt>, want: u64, inputs: &[u64]) -> Vec<u64> {
    let Some(fmt) = fmt else { return Vec::new() };
    if nan == Nan::Exact || !fmt.is_nan(want) || want & fmt.quiet_bit() == 0 {
        return Vec::new();
    }
    let mut alts: Vec<u64> = inputs
        .iter()
        .filter(|&&x| fmt.is_nan(x))
        .map(|&x| x | fmt.quiet_bit())
        .collect();
    if nan == Nan::Propagated {
        alts.push(fmt.default_nan());
    }
    alts
}

/// Channel c, if `mask` enables it, holding a 32-bit result.
fn channel(c: usize, mask: u8) -> Vec<(usize, u32)> {
    if mask & (1 << c) != 0 {
        vec![(c, 0)]
    } else {
        Vec::new()
    }
}

/// Channels of pair p a 64-bit result occupies under `mask`, with the half each holds.
fn pair_parts(p: usize, mask: u8) -> Vec<(usize, u32)> {
    [(2 * p, 0), (2 * p + 1, 32)]
        .into_iter()
        .filter(|&(c, _)| mask & (1 << c) != 0)
        .collect()
}

/// What each written channel of a run should hold.
fn expectations(
    case: &Case,
    info: &OpcodeInfo,
    layout: Layout,
    masks: [u8; 2],
    batch: &Batch,
) -> Vec<Expect> {
    let fmt = Fmt::of(info.dst_type(0));
    // The sources whose NaNs can propagate into the result.
    let float_sources = |t: &[u64], per_source: usize| -> Vec<u64> {
        (0..case.srcs.len())
            .filter(|&k| Fmt::of(info.src_type(k)) == fmt)
            .flat_map(|k| t[k * per_source..(k + 1) * per_source].to_vec())
            .collect()
    };
    let mut out = Vec::new();
    let mut push = |dst, lane, parts: Vec<(usize, u32)>, want: u64, inputs: &[u64], t: &[u64]| {
        if !parts.is_empty() {
            out.push(Expect {
                dst,
                lane,
                parts,
                want,
                alternatives: nan_alternatives(case.nan, fmt, want, inputs),
                sources: t.to_vec(),
            });
        }
    };
    match case.reference {
        Ref::Scalar(r) => {
            for (slot, t) in batch.tuples.iter().enumerate() {
                let (lane, parts) = match layout {
                    Layout::Words => (slot / 4, channel(slot % 4, masks[0])),
                    Layout::Pairs | Layout::WordsToPairs => {
                        (slot / 2, pair_parts(slot % 2, masks[0]))
                    }
                    Layout::PairsToWords => (slot / 2, channel(slot % 2, masks[0])),
                    Layout::PairCompares => {
                        let first = pair_parts(slot % 2, masks[0]).first().map(|&(c, _)| (c, 0));
                        (slot / 2, first.into_iter().collect())
                    }
                };
                push(0, lane, parts, r(t), &float_sources(t, 1), t);
            }
        }
        Ref::Replicated(r) => {
            for (lane, t) in batch.tuples.iter().enumerate() {
                let want = r(&vectors(t));
                let parts = (0..4)
                    .filter(|c| masks[0] & (1 << c) != 0)
                    .map(|c| (c, 0))
                    .collect();
                push(0, lane, parts, u64::from(want), &float_sources(t, 4), t);
            }
        }
        Ref::Vector(r) => {
            for (lane, t) in batch.tuples.iter().enumerate() {
                let want = r(&vectors(t));
                let inputs = float_sources(t, 4);
                for c in (0..4).filter(|c| masks[0] & (1 << c) != 0) {
                    push(0, lane, vec![(c, 0)], u64::from(want[c]), &inputs, t);
                }
            }
        }
        Ref::FracExp(r) => {
            for (slot, t) in batch.tuples.iter().enumerate() {
                let (lane, p) = (slot / 2, slot % 2);
                let (significand, exponent) = r(t[0]);
                push(0, lane, pair_parts(p, masks[0]), significand, &[], t);
                push(1, lane, channel(p, masks[1]), u64::from(exponent), &[], t);
            }
        }
    }
    out
}

/// Source vectors from a flattened tuple.
fn vectors(t: &[u64]) -> Vec<[u32; 4]> {
    t.chunks(4)
        .map(|c| std::array::from_fn(|k| c[k] as u32))
        .collect()
}

/// `[0x1, 0xff]`.
fn hex<T: std::fmt::LowerHex>(values: &[T]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("{v:#x}")).collect();
    format!("[{}]", items.join(", "))
}

/// `.xz` for 0b0101; nothing for the full mask.
fn suffix(mask: u8) -> String {
    if mask == 0xf {
        return String::new();
    }
    let chans: String = "xyzw"
        .chars()
        .enumerate()
        .filter(|&(c, _)| mask & (1 << c) != 0)
        .map(|(_, ch)| ch)
        .collect();
    format!(".{chans}")
}

/// `OP OUT[0].mask{, OUT[1].mask}, IN[0], …` after OUT[0] and OUT[1] are set to [`SENTINEL`].
fn shader_text(info: &OpcodeInfo, masks: [u8; 2]) -> String {
    let dsts = (0..info.num_dst as usize).map(|k| format!("OUT[{k}]{}", suffix(masks[k])));
    let srcs = (0..info.num_src as usize).map(|k| format!("IN[{k}]"));
    let operands: Vec<String> = dsts.chain(srcs).collect();
    let sentinel: Vec<String> = SENTINEL.iter().map(|x| x.to_string()).collect();
    format!(
        "FRAG\nDCL IN[0..{}], GENERIC[0], CONSTANT\nDCL OUT[0..1], COLOR\nIMM[0] UINT32 {{{}}}\n\
           0: MOV OUT[0], IMM[0]\n  1: MOV OUT[1], IMM[0]\n  2: {} {}\n  3: END\n",
        info.num_src.max(1) - 1,
        sentinel.join(", "),
        info.name,
        operands.join(", ")
    )
}

/// The write masks an opcode runs with: the full mask first, then every partial one (of
/// each destination).
fn mask_runs(info: &OpcodeInfo) -> Vec<[u8; 2]> {
    let mut runs = vec![[0xf, 0xf]];
    runs.extend((1..0xf).map(|m| [m, 0xf]));
    if info.num_dst == 2 {
        runs.extend((1..0xf).map(|m| [0xf, m]));
    }
    runs
}

/// Run one case; returns the mismatches found (at most a few dozen).
fn run_case(case: &Case) -> Vec<String> {
    let op = Opcode::from_name(case.op).unwrap_or_else(|| panic!("{} is not an opcode", case.op));
    let info = op.info();
    assert_eq!(
        case.srcs.len(),
        info.num_src as usize,
        "{}: one value list per source",
        case.op
    );
    let consistent = match (info.output, case.reference) {
        (OutputMode::Replicate, Ref::Replicated(_)) | (OutputMode::Channel, Ref::Vector(_)) => true,
        (OutputMode::Component, Ref::Scalar(_) | Ref::FracExp(_)) => true,
        // SHR: component-wise in the table, but its count is src1.x for every channel.
        (OutputMode::Component, Ref::Vector(_)) => case.op == "SHR",
        _ => false,
    };
    assert!(
        consistent,
        "{}: the reference does not match the table's output mode {:?}",
        case.op, info.output
    );
    let layout = layout(info);
    if !matches!(case.reference, Ref::Scalar(_) | Ref::FracExp(_)) {
        assert_eq!(
            layout,
            Layout::Words,
            "{}: vector references are 32-bit",
            case.op
        );
    }
    let batches = batches(case, info, layout);
    let env = Env {
        resources: &tgsi_exec::resource::NO_RESOURCES,
        consts: &[],
        budget: 100,
        helpers: 0,
    };
    let mut failures = Vec::new();
    for (run, masks) in mask_runs(info).into_iter().enumerate() {
        let program = common::compile(&shader_text(info, masks));
        let mut machine = Machine::<4>::new(&program);
        // Partial masks: three batches from across the inputs.
        let picks: Vec<usize> = if run == 0 {
            (0..batches.len()).collect()
        } else {
            let n = batches.len();
            vec![0, n / 2, n - 1]
        };
        for b in picks {
            let batch = &batches[b];
            machine.inputs_mut().copy_from_slice(&batch.regs);
            machine
                .run(&program, &env)
                .unwrap_or_else(|e| panic!("{}: {e}", case.op));
            check(
                case,
                info,
                layout,
                masks,
                batch,
                machine.outputs(),
                &mut failures,
            );
            if failures.len() >= 40 {
                return failures;
            }
        }
    }
    failures
}

/// Compare every channel of every lane of OUT[0] and OUT[1] with the expectations; channels
/// nothing writes must still hold the sentinel.
fn check(
    case: &Case,
    info: &OpcodeInfo,
    layout: Layout,
    masks: [u8; 2],
    batch: &Batch,
    out: &[Reg<4>],
    failures: &mut Vec<String>,
) {
    let mask_text: Vec<String> = (0..info.num_dst as usize)
        .map(|k| format!("OUT[{k}]{}", suffix(masks[k])))
        .collect();
    let name = format!("{} {}", case.op, mask_text.join(", "));
    let mut written = [[[false; 4]; 4]; 2];
    for e in expectations(case, info, layout, masks, batch) {
        let got: Vec<u32> = e
            .parts
            .iter()
            .map(|&(c, _)| out[e.dst][c][e.lane])
            .collect();
        let fits = |v: u64| {
            e.parts
                .iter()
                .zip(&got)
                .all(|(&(_, half), &g)| (v >> half) as u32 == g)
        };
        if !fits(e.want) && !e.alternatives.iter().any(|&a| fits(a)) {
            let chans: String = e.parts.iter().map(|&(c, _)| &"xyzw"[c..=c]).collect();
            let alts = if e.alternatives.is_empty() {
                String::new()
            } else {
                format!(" (or one of {})", hex(&e.alternatives))
            };
            failures.push(format!(
                "{name}: OUT[{}].{chans} lane {}: got {}, want {:#x}{alts}; sources {}",
                e.dst,
                e.lane,
                hex(&got),
                e.want,
                hex(&e.sources)
            ));
        }
        for &(c, _) in &e.parts {
            written[e.dst][c][e.lane] = true;
        }
    }
    for (dst, reg) in out.iter().enumerate().take(2) {
        for (c, ch) in reg.iter().enumerate() {
            for (lane, &got) in ch.iter().enumerate() {
                if !written[dst][c][lane] && got != SENTINEL[c] {
                    failures.push(format!(
                        "{name}: OUT[{dst}].{} lane {lane}: not written, but {got:#010x}",
                        &"xyzw"[c..=c]
                    ));
                }
            }
        }
    }
}

/// Run the rows of the given sections; known bugs must still fail.
fn run_sections(sections: &[Section]) {
    let mut report = Vec::new();
    let mut cases = 0;
    for case in CASES {
        let info = Opcode::from_name(case.op).map(|o| o.info());
        if !info.is_some_and(|i| sections.contains(&i.section)) {
            continue;
        }
        cases += 1;
        let failures = run_case(case);
        if !failures.is_empty() {
            report.push(failures.join("\n"));
        }
    }
    assert!(cases > 0, "no rows for {sections:?}");
    assert!(report.is_empty(), "{}", report.join("\n\n"));
}

#[test]
fn core_and_compute_opcodes() {
    run_sections(&[Section::Core, Section::Compute]);
}

#[test]
fn integer_and_bitwise_opcodes() {
    run_sections(&[Section::Integer, Section::Bitwise]);
}

#[test]
fn double_opcodes() {
    run_sections(&[Section::Double]);
}

#[test]
fn int64_opcodes() {
    run_sections(&[Section::Int64]);
}

#[test]
fn legacy_opcodes() {
    run_sections(&[Section::Legacy]);
}

// ------------------------------------------------------------------------------------------
// Non-ALU opcodes no other file runs
// ------------------------------------------------------------------------------------------

/// DEMOTE makes lanes helpers that keep running but no longer survive; READ_HELPER reads ~0
/// in helper lanes, given or demoted (spec: "like SV HELPER_INVOCATION but reflects DEMOTE").
#[test]
fn demote_and_read_helper() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0..2], COLOR\n\
                IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
                  0: READ_HELPER OUT[0]\n\
                  1: UIF IN[0].xxxx :3\n\
                  2:   DEMOTE\n\
                  3: ENDIF\n\
                  4: READ_HELPER OUT[1].xz\n\
                  5: MOV OUT[2].x, IMM[0].xxxx\n\
                  6: END\n";
    let program = common::compile(text);
    let mut machine = Machine::<4>::new(&program);
    machine.inputs_mut()[0] = common::lanes([0, 1, 0, 1]);
    // Lane 0 is a helper from the start; lanes 1 and 3 demote.
    let env = Env {
        resources: &tgsi_exec::resource::NO_RESOURCES,
        consts: &[],
        budget: 1000,
        helpers: 0b0001,
    };
    let alive = machine.run(&program, &env).unwrap();
    let out = machine.outputs();
    assert_eq!(alive, 0b0101);
    assert_eq!(out[0], [[!0, 0, 0, 0]; 4]);
    let helpers = [!0, !0, 0, !0];
    assert_eq!(out[1], [helpers, [0; 4], helpers, [0; 4]]);
    assert_eq!(out[2][0], [1f32.to_bits(); 4], "demoted lanes keep running");
}

/// softpipe is single-sample: INTERP_CENTROID and INTERP_SAMPLE give the input itself
/// (C.10), swizzled like any source.
#[test]
fn interp_centroid_and_sample_read_the_input() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0..1], COLOR\n\
                IMM[0] UINT32 {0, 3, 0, 0}\n\
                  0: INTERP_CENTROID OUT[0], IN[0].wzyx\n\
                  1: INTERP_SAMPLE OUT[1].xyw, IN[0], IMM[0].yyyy\n\
                  2: END\n";
    let input: Reg<4> = std::array::from_fn(|c| std::array::from_fn(|l| (10 * l + c) as u32));
    let (out, _) = common::run_wave::<4>(text, &[input], &[]).unwrap();
    assert_eq!(out[0], [input[3], input[2], input[1], input[0]]);
    assert_eq!(out[1], [input[0], input[1], [0; 4], input[3]]);
}

/// BREAKC (legacy) leaves the innermost loop or switch in the lanes whose src0.x is a
/// non-zero integer (−0.0's bits count as true).
#[test]
fn breakc_leaves_the_innermost_loop_or_switch() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
                IMM[0] FLT32 {1.0, 0.0, 2.0, 0.0}\n\
                IMM[1] UINT32 {0, 0, 0, 0}\n\
                  0: MOV TEMP[0].x, IMM[0].yyyy\n\
                  1: BGNLOOP :5\n\
                  2:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n\
                  3:   FSGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx\n\
                  4:   BREAKC TEMP[1].xxxx\n\
                  5: ENDLOOP :1\n\
                  6: MOV OUT[0].x, TEMP[0].xxxx\n\
                  7: SWITCH IN[0].yyyy\n\
                  8: CASE IMM[1].xxxx\n\
                  9:   BREAKC IN[0].zzzz\n\
                 10:   MOV OUT[0].y, IMM[0].xxxx\n\
                 11:   BRK\n\
                 12: DEFAULT\n\
                 13:   MOV OUT[0].y, IMM[0].zzzz\n\
                 14: ENDSWITCH\n\
                 15: END\n";
    let input = [
        [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits),
        [0, 0, 0, 1],
        [0, 1, 0x8000_0000, 0],
        [0; 4],
    ];
    let (out, _) = common::run_wave::<4>(text, &[input], &[]).unwrap();
    assert_eq!(out[0][0], input[0], "each lane loops until TEMP >= IN.x");
    assert_eq!(out[0][1], [1.0f32, 0.0, 0.0, 2.0].map(f32::to_bits));
}

/// The legacy fences order memory accesses; with no memory they do nothing, and they do not
/// write their operand. (The spec's operand is a resource, which the interpreter does not
/// support; any register compiles.)
#[test]
fn legacy_fences_do_nothing() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n\
                  0: MOV OUT[0], IN[0]\n\
                  1: LFENCE OUT[0]\n\
                  2: MFENCE OUT[0]\n\
                  3: SFENCE OUT[0]\n\
                  4: END\n";
    let input = common::lanes([1, 2, 3, 4]);
    let (out, alive) = common::run_wave::<4>(text, &[input], &[]).unwrap();
    assert_eq!(out[0], input);
    assert_eq!(alive, 0b1111);
}
