//! The one opcode dispatch: [`kind`] maps every opcode the interpreter runs to a [`Kind`]
//! (how to execute it, with the scalar function from [`crate::scalar`]). Operand counts and
//! types, replication and channel pairing come from [`tgsi::Opcode::info`]; nothing else in
//! the crate lists opcodes.

use crate::isa::{compiled, kernel_type};
use crate::operand::{join, split};
use crate::scalar::{double as d, float as fl, int, pack};
use tgsi::Opcode;

/// Reinterpret a word as a float.
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

/// A float as its word.
fn u(x: f32) -> u32 {
    x.to_bits()
}

/// A float vector as words.
fn uv(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// A float source vector.
fn fv(v: [u32; 4]) -> [f32; 4] {
    v.map(f32::from_bits)
}

/// A scalar replicated to four channels.
fn rep(x: f32) -> [u32; 4] {
    [x.to_bits(); 4]
}

/// A double from its bits.
fn fd(x: u64) -> f64 {
    f64::from_bits(x)
}

/// Derivative direction and precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deriv {
    /// DDX: bottom row for the whole quad.
    CoarseX,
    /// DDY: left column for the whole quad.
    CoarseY,
    /// DDX_FINE: per row.
    FineX,
    /// DDY_FINE: per column.
    FineY,
}

/// Structured control-flow operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// IF (float test) or UIF (integer test).
    If {
        /// Integer (UIF) test.
        int: bool,
    },
    /// ELSE.
    Else,
    /// ENDIF.
    EndIf,
    /// BGNLOOP.
    BgnLoop,
    /// ENDLOOP.
    EndLoop,
    /// BGNFOR (legacy): `dst.xyz = floor(src.xyz)`, then a loop that the lanes with
    /// `dst.y <= 0` skip.
    BgnFor,
    /// ENDFOR (legacy): `dst.x += dst.z; dst.y -= 1`; lanes with `dst.y > 0` loop again.
    EndFor,
    /// REP (legacy): a loop whose body runs `src0.x` times (truncated; NaN or ≤ 0: never).
    Rep,
    /// ENDREP (legacy).
    EndRep,
    /// BRA (legacy): the wave jumps to the label (only within the same block, checked when
    /// compiling).
    Bra,
    /// BRK.
    Brk,
    /// BREAKC (legacy): break the lanes whose `src0.x` is non-zero.
    BreakC,
    /// CONT.
    Cont,
    /// SWITCH.
    Switch,
    /// CASE.
    Case,
    /// DEFAULT.
    Default,
    /// ENDSWITCH.
    EndSwitch,
    /// CAL.
    Cal,
    /// CALLNZ (legacy): CAL for the lanes whose `src0.x` is not 0.0 (the test of IF).
    CallNz,
    /// RET.
    Ret,
    /// BGNSUB (no-op when reached).
    BgnSub,
    /// ENDSUB reached by fall-through: a full return.
    EndSub,
    /// END.
    End,
}

kernel_type!(
    /// A component-wise operation over one channel of a wave: `out[l] = op(src0[l],
    /// src1[l], …)`. Sources the opcode does not have are passed as zeros; all slices have
    /// the wave's length.
    LaneKernel,
    fn(out: &mut [u32], src: [&[u32]; 4])
);

/// The loop of a component-wise kernel: `out[l] = $e`, where `$a`, `$b`, … are the words of
/// lane `l` of sources 0, 1, … in `s`. Four and sixteen lanes (the geometry and control
/// stages' machines; the evaluation stage's and small compute blocks') take a loop whose
/// length the compiler knows, so that it is whole vector instructions: over a slice of
/// unknown length the loop is vectorised for many lanes at a time, and short waves were
/// left to its remainder.
macro_rules! lane_loop {
    ($out:ident, $s:ident, [$($x:ident),+], $e:expr) => {{
        let n = $out.len();
        if n == 4 {
            lane_zip!(&mut $out[..4], $s, 0..4, [$($x),+], $e);
        } else if n == 16 {
            lane_zip!(&mut $out[..16], $s, 0..16, [$($x),+], $e);
        } else {
            lane_zip!($out, $s, 0..n, [$($x),+], $e);
        }
    }};
}

/// The lanes `$r` of [`lane_loop!`]'s sources into `$o`.
macro_rules! lane_zip {
    ($o:expr, $s:ident, $r:expr, [$a:ident], $e:expr) => {
        for (o, &$a) in $o.iter_mut().zip(&$s[0][$r]) {
            *o = $e;
        }
    };
    ($o:expr, $s:ident, $r:expr, [$a:ident, $b:ident], $e:expr) => {
        for ((o, &$a), &$b) in $o.iter_mut().zip(&$s[0][$r]).zip(&$s[1][$r]) {
            *o = $e;
        }
    };
    ($o:expr, $s:ident, $r:expr, [$a:ident, $b:ident, $c:ident], $e:expr) => {
        let lanes = $o
            .iter_mut()
            .zip(&$s[0][$r])
            .zip(&$s[1][$r])
            .zip(&$s[2][$r]);
        for (((o, &$a), &$b), &$c) in lanes {
            *o = $e;
        }
    };
    ($o:expr, $s:ident, $r:expr, [$a:ident, $b:ident, $c:ident, $d:ident], $e:expr) => {{
        let lanes = $o
            .iter_mut()
            .zip(&$s[0][$r])
            .zip(&$s[1][$r])
            .zip(&$s[2][$r])
            .zip(&$s[3][$r]);
        for ((((o, &$a), &$b), &$c), &$d) in lanes {
            *o = $e;
        }
    }};
}

/// A [`Kind::Component`] from a per-lane expression over the source words `a`, `b`, `c`, `d`:
/// the scalar function is inlined into a loop over the lanes (compiled for each
/// [`Isa`](crate::isa::Isa)), so one indirect call runs a whole channel.
macro_rules! lanes {
    (|$($x:ident),+| $e:expr) => {
        Kind::Component(compiled!(LaneKernel, |out: &mut [u32], s: [&[u32]; 4]| {
            lane_loop!(out, s, [$($x),+], $e)
        }))
    };
}

/// A [`Kind::Wide`]: the 64-bit function of one lane, and the same inlined into a loop over
/// the lanes of a wave.
#[derive(Clone, Copy, Debug)]
pub struct WideOp {
    /// `f([src0, src1, src2])`: 64-bit values (a 32-bit source in the low word), a 64-bit
    /// result (a 32-bit one in the low word).
    pub f: fn([u64; 3]) -> u64,
    /// `f` inlined into a loop over the lanes.
    pub lanes: WideKernel,
}

kernel_type!(
    /// A [`WideOp`] over a wave: `out[l] = f([src0[l], src1[l], src2[l]])`, each 64-bit
    /// value as two rows of words, `[low, high]`, as the registers hold them; all slices
    /// have the wave's length.
    WideKernel,
    fn(out: [&mut [u32]; 2], src: [[&[u32]; 2]; 3])
);

/// A [`Kind::Wide`] from a per-lane expression over the sources `s: [u64; 3]`.
macro_rules! wide {
    (|$s:ident| $e:expr) => {{
        #[inline]
        fn lane($s: [u64; 3]) -> u64 {
            $e
        }
        Kind::Wide(WideOp {
            f: lane,
            lanes: compiled!(WideKernel, |out: [&mut [u32]; 2], src: [[&[u32]; 2]; 3]| {
                let [lo, hi] = out;
                let rows = src.iter().flatten().map(|r| r.len());
                let n = rows.fold(lo.len().min(hi.len()), usize::min);
                // Slices of one length: the compiler drops the bounds checks in the loop.
                let (lo, hi) = (&mut lo[..n], &mut hi[..n]);
                let src = src.map(|[l, h]| [&l[..n], &h[..n]]);
                for l in 0..n {
                    let words = |k: usize| join([src[k][0][l], src[k][1][l]]);
                    [lo[l], hi[l]] = split(lane([words(0), words(1), words(2)]));
                }
            }),
        })
    }};
}

/// The read-modify-write of an atomic opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// ATOMUADD.
    Add,
    /// ATOMFADD.
    FAdd,
    /// ATOMXCHG.
    Xchg,
    /// ATOMCAS (compare with `src2`, store `src3`).
    Cas,
    /// ATOMAND.
    And,
    /// ATOMOR.
    Or,
    /// ATOMXOR.
    Xor,
    /// ATOMUMIN.
    UMin,
    /// ATOMUMAX.
    UMax,
    /// ATOMIMIN.
    IMin,
    /// ATOMIMAX.
    IMax,
    /// ATOMINC_WRAP: `old < src ? old + 1 : 0`.
    IncWrap,
    /// ATOMDEC_WRAP: `0 < old < src ? old - 1 : 0` (the spec's formula).
    DecWrap,
}

impl AtomicOp {
    /// The new word from the old one, the operand `a` (`src2`) and, for CAS, the value `b`
    /// (`src3`). `signed` makes UMIN/UMAX compare as signed integers (softpipe does that for
    /// signed-integer image formats).
    pub fn apply(self, old: u32, a: u32, b: u32, signed: bool) -> u32 {
        let (so, sa) = (old as i32, a as i32);
        match self {
            AtomicOp::Add => old.wrapping_add(a),
            AtomicOp::FAdd => fl::add(f(old), f(a)).to_bits(),
            AtomicOp::Xchg => a,
            AtomicOp::Cas => {
                if old == a {
                    b
                } else {
                    old
                }
            }
            AtomicOp::And => old & a,
            AtomicOp::Or => old | a,
            AtomicOp::Xor => old ^ a,
            AtomicOp::UMin if signed => so.min(sa) as u32,
            AtomicOp::UMax if signed => so.max(sa) as u32,
            AtomicOp::UMin => old.min(a),
            AtomicOp::UMax => old.max(a),
            AtomicOp::IMin => so.min(sa) as u32,
            AtomicOp::IMax => so.max(sa) as u32,
            AtomicOp::IncWrap => {
                if old < a {
                    old + 1
                } else {
                    0
                }
            }
            AtomicOp::DecWrap => {
                if old > 0 && old < a {
                    old - 1
                } else {
                    0
                }
            }
        }
    }
}

/// Which vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vote {
    /// VOTE_ANY: some active lane has a non-zero value.
    Any,
    /// VOTE_ALL: every active lane has a non-zero value.
    All,
    /// VOTE_EQ: every active lane has the same value.
    Eq,
}

/// A [`Kind::Vector`]: a per-lane function of up to three whole source vectors, and the
/// channels it reads of each (the others need not be fetched; they are passed as zero).
#[derive(Clone, Copy, Debug)]
pub struct VectorOp {
    /// The function: `f(&[src0, src1, src2])` with each source's four channels.
    pub f: fn(&[[u32; 4]; 3]) -> [u32; 4],
    /// Bit c of `reads[k]`: `f` reads channel c of source k.
    pub reads: [u8; 3],
    /// `f` inlined into a loop over the lanes of a wave.
    pub lanes: VectorKernel,
}

kernel_type!(
    /// A [`VectorOp`] over a wave: `out[c][l] = f(sources of lane l)[c]`, where `src[k][c]`
    /// is channel c of source k (zeros where `f` does not read). All slices have the
    /// wave's length.
    VectorKernel,
    fn(out: [&mut [u32]; 4], src: &[[&[u32]; 4]; 3])
);

/// The loop of a [`VectorKernel`] with the per-lane function `f` inlined: the lanes' words
/// are gathered channel by channel, so that the loop vectorises where `f` allows.
#[inline(always)]
fn each_lane(out: [&mut [u32]; 4], src: &[[&[u32]; 4]; 3], f: impl Fn(&[[u32; 4]; 3]) -> [u32; 4]) {
    let [o0, o1, o2, o3] = out;
    let n = o0.len();
    // Slices of one length: the compiler drops the bounds checks in the loop.
    let rows = src.map(|s| s.map(|r| &r[..n]));
    let (o1, o2, o3) = (&mut o1[..n], &mut o2[..n], &mut o3[..n]);
    for l in 0..n {
        let lane = std::array::from_fn(|k| std::array::from_fn(|c| rows[k][c][l]));
        let [r0, r1, r2, r3] = f(&lane);
        o0[l] = r0;
        o1[l] = r1;
        o2[l] = r2;
        o3[l] = r3;
    }
}

/// A [`Kind::Component`] whose baseline kernel runs the per-lane expression (as [`lanes!`])
/// and whose AVX2 kernel is `$avx2` from [`crate::sse`]: the SSE instruction the expression
/// defines, eight lanes at a time.
macro_rules! sse {
    (|$($x:ident),+| $e:expr, $avx2:path) => {{
        fn base(out: &mut [u32], s: [&[u32]; 4]) {
            lane_loop!(out, s, [$($x),+], $e)
        }
        Kind::Component(LaneKernel {
            base,
            #[cfg(target_arch = "x86_64")]
            avx2: $avx2,
        })
    }};
}

/// Channel masks of [`VectorOp::reads`].
const X: u8 = 0b0001;
const XY: u8 = 0b0011;
const XYZ: u8 = 0b0111;
const XYW: u8 = 0b1011;
const XYZW: u8 = 0b1111;

/// A [`Kind::Vector`] reading the channels `reads` of its sources, from a per-lane
/// expression over the source vectors `s`: the one definition serves as [`VectorOp::f`] and,
/// inlined into [`each_lane`], as [`VectorOp::lanes`].
///
/// `out_of_line` formulas (`vector!(out_of_line, reads, |s| …)`) are called, not inlined:
/// they apply plain float arithmetic to two values that can both be NaN, where which NaN
/// comes out is the compiler's choice of operand order; compiled once, they give the same
/// bits wherever they run (the JIT calls [`VectorOp::f`] too).
macro_rules! vector {
    (@with #[$inline:meta], $reads:expr, |$s:ident| $e:expr) => {{
        #[$inline]
        fn lane($s: &[[u32; 4]; 3]) -> [u32; 4] {
            $e
        }
        Kind::Vector(VectorOp {
            f: lane,
            reads: $reads,
            lanes: compiled!(VectorKernel, |out: [&mut [u32]; 4], src: &[[&[u32]; 4]; 3]| {
                each_lane(out, src, lane)
            }),
        })
    }};
    (out_of_line, $reads:expr, |$s:ident| $e:expr) => {
        vector!(@with #[inline(never)], $reads, |$s| $e)
    };
    ($reads:expr, |$s:ident| $e:expr) => {
        vector!(@with #[inline], $reads, |$s| $e)
    };
}

/// How to execute an instruction.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Component-wise: channel c of the result from channel c of each source.
    Component(LaneKernel),
    /// Per-lane function of whole source vectors (replicated and channel-formula opcodes).
    Vector(VectorOp),
    /// 64-bit operation on channel pairs; the shape (pair → pair, pair → word, word → pair)
    /// follows the operand types of the opcode table.
    Wide(WideOp),
    /// DFRACEXP: significand to dst0, exponent to dst1.
    FracExp,
    /// Quad derivative.
    Deriv(Deriv),
    /// KILL: discard active lanes.
    Kill,
    /// KILL_IF: discard active lanes with a negative component.
    KillIf,
    /// DEMOTE: like KILL (lanes keep running as helpers).
    Demote,
    /// READ_HELPER: `~0` for helper or demoted lanes.
    ReadHelper,
    /// INTERP_OFFSET: the input moved by `src1.xy` pixels along its screen gradients.
    InterpOffset,
    /// PUSHA (legacy): push `src0` on the lane's address stack.
    PushA,
    /// POPA (legacy): pop the lane's address stack into `dst`.
    PopA,
    /// CLOCK: `dst.xy` = the 64-bit count of instructions the wave has executed.
    Clock,
    /// Does nothing (NOP, the legacy fences).
    Nop,
    /// LOAD from a BUFFER, IMAGE, MEMORY or CONST resource (`src0`) at address `src1`.
    Load,
    /// STORE `src1` into the resource `dst0` at address `src0`.
    Store,
    /// An atomic read-modify-write of `src0` at address `src1` with `src2` (and `src3`).
    Atomic(AtomicOp),
    /// RESQ: the size of a buffer or image.
    Resq,
    /// IMG2HND / SAMP2HND: the "handle" of an image or sampler slot (its index).
    Handle,
    /// BARRIER and MEMBAR: compute runs stop here and resume when the whole workgroup has
    /// stopped (softpipe stops at both); other runs go on.
    Sync,
    /// VOTE_ANY / VOTE_ALL / VOTE_EQ over the wave.
    Vote(Vote),
    /// BALLOT: the 64-bit mask of active lanes whose `src0.x` is non-zero, in `dst.xy`.
    Ballot,
    /// READ_FIRST: `src0` of the lowest active lane.
    ReadFirst,
    /// READ_INVOC: `src0` of lane `src1.x` (taken from the lowest active lane).
    ReadInvoc,
    /// Control flow.
    Flow(Flow),
    /// Texture sampling, fetches and queries ([`crate::texture`]).
    Texture,
    /// EMIT: a vertex on stream `src0.x` ([`crate::emit`]).
    Emit,
    /// ENDPRIM: close the primitive of stream `src0.x`.
    EndPrim,
}

/// Whether `op` samples, fetches from or queries a sampler view ([`Kind::Texture`]): the
/// resource-sampling section, the opcodes with a texture token, and the legacy TXQ_LZ.
pub fn is_texture(op: Opcode) -> bool {
    use tgsi::opcode::{Section, TEX};
    let info = op.info();
    (info.section == Section::ResourceSampling || info.has(TEX) || op == Opcode::TXQ_LZ)
        && info.section != Section::Bindless
}

/// Why [`kind`] has no answer for `op`.
pub fn unsupported_reason(op: Opcode) -> &'static str {
    if op == Opcode::IFC {
        "has no semantics in any spec version (its text is TBD and a token cannot hold the comparison it needs)"
    } else if op == Opcode::FBFETCH {
        "reads the framebuffer, which the interpreter does not model"
    } else {
        "is not supported by the interpreter"
    }
}

/// The execution kind of an opcode, or `None` when the interpreter cannot run it.
pub fn kind(op: Opcode) -> Option<Kind> {
    use Kind::*;
    if is_texture(op) {
        return Some(Texture);
    }
    Some(match op {
        Opcode::MOV => lanes!(|a| a),
        Opcode::ADD => sse!(|a, b| u(fl::add(f(a), f(b))), crate::sse::add),
        Opcode::SUB => sse!(|a, b| u(fl::sub(f(a), f(b))), crate::sse::sub),
        Opcode::MUL => sse!(|a, b| u(fl::mul(f(a), f(b))), crate::sse::mul),
        Opcode::DIV => sse!(|a, b| u(fl::div(f(a), f(b))), crate::sse::div),
        Opcode::MAD => sse!(|a, b, c| u(fl::mad(f(a), f(b), f(c))), crate::sse::mad),
        Opcode::FMA => lanes!(|a, b, c| u(fl::fma(f(a), f(b), f(c)))),
        Opcode::LRP => lanes!(|a, b, c| u(fl::lrp(f(a), f(b), f(c)))),
        Opcode::CMP => lanes!(|a, b, c| u(fl::cmp(f(a), f(b), f(c)))),
        Opcode::CND => lanes!(|a, b, c| u(fl::cnd(f(a), f(b), f(c)))),
        Opcode::CLAMP => lanes!(|a, b, c| u(fl::clamp(f(a), f(b), f(c)))),
        Opcode::ABS => lanes!(|a| u(fl::abs(f(a)))),
        Opcode::MIN => lanes!(|a, b| u(fl::min_op(f(a), f(b)))),
        Opcode::MAX => lanes!(|a, b| u(fl::max_op(f(a), f(b)))),
        Opcode::SLT => lanes!(|a, b| u(fl::slt(f(a), f(b)))),
        Opcode::SGE => lanes!(|a, b| u(fl::sge(f(a), f(b)))),
        Opcode::SGT => lanes!(|a, b| u(fl::sgt(f(a), f(b)))),
        Opcode::SLE => lanes!(|a, b| u(fl::sle(f(a), f(b)))),
        Opcode::SEQ => lanes!(|a, b| u(fl::seq(f(a), f(b)))),
        Opcode::SNE => lanes!(|a, b| u(fl::sne(f(a), f(b)))),
        Opcode::FSLT => lanes!(|a, b| fl::fslt(f(a), f(b))),
        Opcode::FSGE => lanes!(|a, b| fl::fsge(f(a), f(b))),
        Opcode::FSEQ => lanes!(|a, b| fl::fseq(f(a), f(b))),
        Opcode::FSNE => lanes!(|a, b| fl::fsne(f(a), f(b))),
        Opcode::FLR => lanes!(|a| u(fl::flr(f(a)))),
        Opcode::CEIL => lanes!(|a| u(fl::ceil(f(a)))),
        Opcode::TRUNC => lanes!(|a| u(fl::trunc(f(a)))),
        Opcode::ROUND => lanes!(|a| u(fl::round(f(a)))),
        Opcode::FRC => lanes!(|a| u(fl::frc(f(a)))),
        Opcode::SSG => lanes!(|a| u(fl::ssg(f(a)))),
        Opcode::LDEXP => lanes!(|a, b| u(fl::ldexp(f(a), b as i32))),
        Opcode::ARL => lanes!(|a| fl::arl(f(a)) as u32),
        Opcode::ARR => lanes!(|a| fl::arr(f(a)) as u32),
        Opcode::UARL => lanes!(|a| a),
        Opcode::F2I => lanes!(|a| fl::f2i(f(a)) as u32),
        Opcode::F2U => lanes!(|a| fl::f2u(f(a))),
        Opcode::I2F => lanes!(|a| u(fl::i2f(a as i32))),
        Opcode::U2F => lanes!(|a| u(fl::u2f(a))),
        Opcode::RCP => vector!([X, 0, 0], |s| rep(fl::rcp(f(s[0][0])))),
        Opcode::RSQ => vector!([X, 0, 0], |s| rep(fl::rsq(f(s[0][0])))),
        Opcode::SQRT => vector!([X, 0, 0], |s| rep(fl::sqrt(f(s[0][0])))),
        Opcode::EX2 => vector!([X, 0, 0], |s| rep(fl::ex2(f(s[0][0])))),
        Opcode::LG2 => vector!([X, 0, 0], |s| rep(fl::lg2(f(s[0][0])))),
        Opcode::POW => vector!([X, X, 0], |s| rep(fl::pow(f(s[0][0]), f(s[1][0])))),
        Opcode::SIN => vector!([X, 0, 0], |s| rep(fl::sin(f(s[0][0])))),
        Opcode::COS => vector!([X, 0, 0], |s| rep(fl::cos(f(s[0][0])))),
        // ARA's TGSI text was never written; NV_vertex_program2, where it comes from, adds
        // the two halves of an address vector: (x + z, y + w, z + x, w + y).
        Opcode::ARA => vector!([XYZW, 0, 0], |s| {
            let a = s[0];
            [0, 1, 2, 3].map(|c| a[c].wrapping_add(a[(c + 2) & 3]))
        }),
        Opcode::RCC => vector!([X, 0, 0], |s| rep(fl::rcc(f(s[0][0])))),
        Opcode::DP2 => vector!([XY, XY, 0], |s| rep(fl::dp(&fv(s[0])[..2], &fv(s[1])[..2]))),
        Opcode::DP3 => vector!([XYZ, XYZ, 0], |s| {
            rep(fl::dp(&fv(s[0])[..3], &fv(s[1])[..3]))
        }),
        Opcode::DP4 => vector!([XYZW, XYZW, 0], |s| rep(fl::dp(&fv(s[0]), &fv(s[1])))),
        Opcode::DPH => vector!([XYZ, XYZW, 0], |s| {
            rep(fl::add(fl::dp(&fv(s[0])[..3], &fv(s[1])[..3]), f(s[1][3])))
        }),
        Opcode::DP2A => vector!([XY, XY, X], |s| {
            rep(fl::add(fl::dp(&fv(s[0])[..2], &fv(s[1])[..2]), f(s[2][0])))
        }),
        Opcode::NRM4 => vector!(out_of_line, [XYZW, 0, 0], |s| rep(fl::nrm4(fv(s[0])))),
        Opcode::SFL => vector!([0, 0, 0], |_s| rep(0.0)),
        Opcode::STR => vector!([0, 0, 0], |_s| rep(1.0)),
        Opcode::EXP => vector!(out_of_line, [X, 0, 0], |s| uv(fl::exp(f(s[0][0])))),
        Opcode::LOG => vector!(out_of_line, [X, 0, 0], |s| uv(fl::log(f(s[0][0])))),
        Opcode::LIT => vector!(out_of_line, [XYW, 0, 0], |s| {
            uv(fl::lit(f(s[0][0]), f(s[0][1]), f(s[0][3])))
        }),
        Opcode::DST => vector!(out_of_line, [XYZW, XYZW, 0], |s| uv(fl::dst(
            fv(s[0]),
            fv(s[1])
        ))),
        Opcode::XPD => vector!(out_of_line, [XYZW, XYZW, 0], |s| uv(fl::xpd(
            fv(s[0]),
            fv(s[1])
        ))),
        Opcode::SCS => vector!(out_of_line, [X, 0, 0], |s| uv(fl::scs(f(s[0][0])))),
        Opcode::NRM => vector!(out_of_line, [XYZW, 0, 0], |s| uv(fl::nrm(fv(s[0])))),
        Opcode::RFL => vector!(out_of_line, [XYZW, XYZW, 0], |s| uv(fl::rfl(
            fv(s[0]),
            fv(s[1])
        ))),
        Opcode::X2D => vector!(out_of_line, [XYZW, XYZW, XYZW], |s| {
            uv(fl::x2d(fv(s[0]), fv(s[1]), fv(s[2])))
        }),
        Opcode::PK2H => vector!(
            out_of_line,
            [XY, 0, 0],
            |s| [pack::pk2h(f(s[0][0]), f(s[0][1])); 4]
        ),
        Opcode::PK2US => vector!(
            out_of_line,
            [XY, 0, 0],
            |s| [pack::pk2us(f(s[0][0]), f(s[0][1])); 4]
        ),
        Opcode::PK4B => vector!(out_of_line, [XYZW, 0, 0], |s| [pack::pk4b(fv(s[0])); 4]),
        Opcode::PK4UB => vector!(out_of_line, [XYZW, 0, 0], |s| [pack::pk4ub(fv(s[0])); 4]),
        Opcode::UP2H => vector!(out_of_line, [X, 0, 0], |s| uv(pack::up2h(s[0][0]))),
        Opcode::UP2US => vector!(out_of_line, [X, 0, 0], |s| uv(pack::up2us(s[0][0]))),
        Opcode::UP4B => vector!(out_of_line, [X, 0, 0], |s| uv(pack::up4b(s[0][0]))),
        Opcode::UP4UB => vector!(out_of_line, [X, 0, 0], |s| uv(pack::up4ub(s[0][0]))),
        Opcode::UADD => lanes!(|a, b| int::uadd(a, b)),
        Opcode::UMUL => lanes!(|a, b| int::umul(a, b)),
        Opcode::UMAD => lanes!(|a, b, c| int::umad(a, b, c)),
        Opcode::IMUL_HI => lanes!(|a, b| int::imul_hi(a as i32, b as i32) as u32),
        Opcode::UMUL_HI => lanes!(|a, b| int::umul_hi(a, b)),
        Opcode::IDIV => lanes!(|a, b| int::idiv(a as i32, b as i32) as u32),
        Opcode::UDIV => lanes!(|a, b| int::udiv(a, b)),
        Opcode::MOD => lanes!(|a, b| int::imod(a as i32, b as i32) as u32),
        Opcode::UMOD => lanes!(|a, b| int::umod(a, b)),
        Opcode::SHL => lanes!(|a, b| int::shl(a, b)),
        Opcode::USHR => lanes!(|a, b| int::ushr(a, b)),
        Opcode::ISHR => lanes!(|a, b| int::ishr(a as i32, b as i32) as u32),
        // Every channel shifts by src1.x (legacy SHR; ISHR/USHR use src1.c).
        Opcode::SHR => vector!([XYZW, X, 0], |s| {
            s[0].map(|a| int::shr_legacy(a as i32, s[1][0]) as u32)
        }),
        Opcode::IMAX => lanes!(|a, b| int::imax(a as i32, b as i32) as u32),
        Opcode::IMIN => lanes!(|a, b| int::imin(a as i32, b as i32) as u32),
        Opcode::UMAX => lanes!(|a, b| int::umax(a, b)),
        Opcode::UMIN => lanes!(|a, b| int::umin(a, b)),
        Opcode::ISGE => lanes!(|a, b| int::isge(a as i32, b as i32)),
        Opcode::ISLT => lanes!(|a, b| int::islt(a as i32, b as i32)),
        Opcode::USGE => lanes!(|a, b| int::usge(a, b)),
        Opcode::USLT => lanes!(|a, b| int::uslt(a, b)),
        Opcode::USEQ => lanes!(|a, b| int::useq(a, b)),
        Opcode::USNE => lanes!(|a, b| int::usne(a, b)),
        Opcode::INEG => lanes!(|a| int::ineg(a as i32) as u32),
        Opcode::IABS => lanes!(|a| int::iabs(a as i32) as u32),
        Opcode::ISSG => lanes!(|a| int::issg(a as i32) as u32),
        Opcode::NOT => lanes!(|a| int::not(a)),
        Opcode::AND => lanes!(|a, b| int::and(a, b)),
        Opcode::OR => lanes!(|a, b| int::or(a, b)),
        Opcode::XOR => lanes!(|a, b| int::xor(a, b)),
        Opcode::UCMP => lanes!(|a, b, c| int::ucmp(a, b, c)),
        Opcode::SAD => lanes!(|a, b, c| int::sad(a, b, c)),
        Opcode::IBFE => lanes!(|a, b, c| int::ibfe(a as i32, b, c) as u32),
        Opcode::UBFE => lanes!(|a, b, c| int::ubfe(a, b, c)),
        Opcode::BFI => lanes!(|a, b, c, d| int::bfi(a, b, c, d)),
        Opcode::BREV => lanes!(|a| int::brev(a)),
        Opcode::POPC => lanes!(|a| int::popc(a)),
        Opcode::LSB => lanes!(|a| int::lsb(a) as u32),
        Opcode::IMSB => lanes!(|a| int::imsb(a as i32) as u32),
        Opcode::UMSB => lanes!(|a| int::umsb(a) as u32),
        Opcode::DADD => wide!(|s| d::dadd(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DMUL => wide!(|s| d::dmul(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DDIV => wide!(|s| d::ddiv(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DMAD => wide!(|s| d::dmad(fd(s[0]), fd(s[1]), fd(s[2])).to_bits()),
        Opcode::DFMA => wide!(|s| d::dfma(fd(s[0]), fd(s[1]), fd(s[2])).to_bits()),
        Opcode::DMAX => wide!(|s| d::dmax(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DMIN => wide!(|s| d::dmin(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DABS => wide!(|s| d::dabs(fd(s[0])).to_bits()),
        Opcode::DNEG => wide!(|s| d::dneg(fd(s[0])).to_bits()),
        Opcode::DRCP => wide!(|s| d::drcp(fd(s[0])).to_bits()),
        Opcode::DSQRT => wide!(|s| d::dsqrt(fd(s[0])).to_bits()),
        Opcode::DRSQ => wide!(|s| d::drsq(fd(s[0])).to_bits()),
        Opcode::DFRAC => wide!(|s| d::dfrac(fd(s[0])).to_bits()),
        Opcode::DFLR => wide!(|s| d::dflr(fd(s[0])).to_bits()),
        Opcode::DCEIL => wide!(|s| d::dceil(fd(s[0])).to_bits()),
        Opcode::DTRUNC => wide!(|s| d::dtrunc(fd(s[0])).to_bits()),
        Opcode::DROUND => wide!(|s| d::dround(fd(s[0])).to_bits()),
        Opcode::DSSG => wide!(|s| d::dssg(fd(s[0])).to_bits()),
        Opcode::DLDEXP => wide!(|s| d::dldexp(fd(s[0]), s[1] as i32).to_bits()),
        Opcode::DSLT => wide!(|s| u64::from(d::dslt(fd(s[0]), fd(s[1])))),
        Opcode::DSGE => wide!(|s| u64::from(d::dsge(fd(s[0]), fd(s[1])))),
        Opcode::DSEQ => wide!(|s| u64::from(d::dseq(fd(s[0]), fd(s[1])))),
        Opcode::DSNE => wide!(|s| u64::from(d::dsne(fd(s[0]), fd(s[1])))),
        Opcode::F2D => wide!(|s| f64::from(f(s[0] as u32)).to_bits()),
        Opcode::D2F => wide!(|s| u64::from(u(fd(s[0]) as f32))),
        Opcode::I2D => wide!(|s| f64::from(s[0] as i32).to_bits()),
        Opcode::U2D => wide!(|s| f64::from(s[0] as u32).to_bits()),
        Opcode::D2I => wide!(|s| u64::from(d::d2i(fd(s[0])) as u32)),
        Opcode::D2U => wide!(|s| u64::from(d::d2u(fd(s[0])))),
        Opcode::I2I64 => wide!(|s| s[0] as i32 as i64 as u64),
        Opcode::U2I64 => wide!(|s| s[0] & 0xffff_ffff),
        Opcode::F2I64 => wide!(|s| fl::f2i64(f(s[0] as u32)) as u64),
        Opcode::F2U64 => wide!(|s| fl::f2u64(f(s[0] as u32))),
        Opcode::D2I64 => wide!(|s| d::d2i64(fd(s[0])) as u64),
        Opcode::D2U64 => wide!(|s| d::d2u64(fd(s[0]))),
        Opcode::I642F => wide!(|s| u64::from(u(s[0] as i64 as f32))),
        Opcode::U642F => wide!(|s| u64::from(u(s[0] as f32))),
        Opcode::I642D => wide!(|s| (s[0] as i64 as f64).to_bits()),
        Opcode::U642D => wide!(|s| (s[0] as f64).to_bits()),
        Opcode::U64SEQ => wide!(|s| u64::from(d::u64seq(s[0], s[1]))),
        Opcode::U64SNE => wide!(|s| u64::from(d::u64sne(s[0], s[1]))),
        Opcode::U64SLT => wide!(|s| u64::from(d::u64slt(s[0], s[1]))),
        Opcode::U64SGE => wide!(|s| u64::from(d::u64sge(s[0], s[1]))),
        Opcode::I64SLT => wide!(|s| u64::from(d::i64slt(s[0] as i64, s[1] as i64))),
        Opcode::I64SGE => wide!(|s| u64::from(d::i64sge(s[0] as i64, s[1] as i64))),
        Opcode::I64MIN => wide!(|s| (s[0] as i64).min(s[1] as i64) as u64),
        Opcode::I64MAX => wide!(|s| (s[0] as i64).max(s[1] as i64) as u64),
        Opcode::U64MIN => wide!(|s| s[0].min(s[1])),
        Opcode::U64MAX => wide!(|s| s[0].max(s[1])),
        Opcode::I64ABS => wide!(|s| (s[0] as i64).wrapping_abs() as u64),
        Opcode::I64SSG => wide!(|s| (s[0] as i64).signum() as u64),
        Opcode::I64NEG => wide!(|s| (s[0] as i64).wrapping_neg() as u64),
        Opcode::U64ADD => wide!(|s| s[0].wrapping_add(s[1])),
        Opcode::U64MUL => wide!(|s| s[0].wrapping_mul(s[1])),
        Opcode::U64SHL => wide!(|s| d::u64shl(s[0], s[1])),
        Opcode::U64SHR => wide!(|s| d::u64shr(s[0], s[1])),
        Opcode::I64SHR => wide!(|s| d::i64shr(s[0] as i64, s[1] as i64) as u64),
        Opcode::I64DIV => wide!(|s| d::i64div(s[0] as i64, s[1] as i64) as u64),
        Opcode::U64DIV => wide!(|s| d::u64div(s[0], s[1])),
        Opcode::I64MOD => wide!(|s| d::i64mod(s[0] as i64, s[1] as i64) as u64),
        Opcode::U64MOD => wide!(|s| d::u64mod(s[0], s[1])),
        Opcode::DFRACEXP => FracExp,
        Opcode::DDX => Deriv(self::Deriv::CoarseX),
        Opcode::DDY => Deriv(self::Deriv::CoarseY),
        Opcode::DDX_FINE => Deriv(self::Deriv::FineX),
        Opcode::DDY_FINE => Deriv(self::Deriv::FineY),
        Opcode::KILL => Kill,
        Opcode::KILL_IF => KillIf,
        Opcode::DEMOTE => Demote,
        Opcode::READ_HELPER => ReadHelper,
        // Inputs are uniform over a single-sample pixel: the input itself.
        Opcode::INTERP_CENTROID | Opcode::INTERP_SAMPLE => lanes!(|a| a),
        Opcode::INTERP_OFFSET => InterpOffset,
        Opcode::PUSHA => PushA,
        Opcode::POPA => PopA,
        Opcode::CLOCK => Clock,
        Opcode::NOP | Opcode::LFENCE | Opcode::MFENCE | Opcode::SFENCE => Nop,
        Opcode::BARRIER | Opcode::MEMBAR => Sync,
        Opcode::EMIT => Emit,
        Opcode::ENDPRIM => EndPrim,
        Opcode::LOAD => Load,
        Opcode::STORE => Store,
        Opcode::RESQ => Resq,
        Opcode::IMG2HND | Opcode::SAMP2HND => Handle,
        Opcode::ATOMUADD => Atomic(AtomicOp::Add),
        Opcode::ATOMFADD => Atomic(AtomicOp::FAdd),
        Opcode::ATOMXCHG => Atomic(AtomicOp::Xchg),
        Opcode::ATOMCAS => Atomic(AtomicOp::Cas),
        Opcode::ATOMAND => Atomic(AtomicOp::And),
        Opcode::ATOMOR => Atomic(AtomicOp::Or),
        Opcode::ATOMXOR => Atomic(AtomicOp::Xor),
        Opcode::ATOMUMIN => Atomic(AtomicOp::UMin),
        Opcode::ATOMUMAX => Atomic(AtomicOp::UMax),
        Opcode::ATOMIMIN => Atomic(AtomicOp::IMin),
        Opcode::ATOMIMAX => Atomic(AtomicOp::IMax),
        Opcode::ATOMINC_WRAP => Atomic(AtomicOp::IncWrap),
        Opcode::ATOMDEC_WRAP => Atomic(AtomicOp::DecWrap),
        Opcode::VOTE_ANY => Vote(self::Vote::Any),
        Opcode::VOTE_ALL => Vote(self::Vote::All),
        Opcode::VOTE_EQ => Vote(self::Vote::Eq),
        Opcode::BALLOT => Ballot,
        Opcode::READ_FIRST => ReadFirst,
        Opcode::READ_INVOC => ReadInvoc,
        Opcode::IF => Flow(self::Flow::If { int: false }),
        Opcode::UIF => Flow(self::Flow::If { int: true }),
        Opcode::ELSE => Flow(self::Flow::Else),
        Opcode::ENDIF => Flow(self::Flow::EndIf),
        Opcode::BGNLOOP => Flow(self::Flow::BgnLoop),
        Opcode::ENDLOOP => Flow(self::Flow::EndLoop),
        Opcode::BGNFOR => Flow(self::Flow::BgnFor),
        Opcode::ENDFOR => Flow(self::Flow::EndFor),
        Opcode::REP => Flow(self::Flow::Rep),
        Opcode::ENDREP => Flow(self::Flow::EndRep),
        Opcode::BRA => Flow(self::Flow::Bra),
        Opcode::CALLNZ => Flow(self::Flow::CallNz),
        Opcode::BRK => Flow(self::Flow::Brk),
        Opcode::BREAKC => Flow(self::Flow::BreakC),
        Opcode::CONT => Flow(self::Flow::Cont),
        Opcode::SWITCH => Flow(self::Flow::Switch),
        Opcode::CASE => Flow(self::Flow::Case),
        Opcode::DEFAULT => Flow(self::Flow::Default),
        Opcode::ENDSWITCH => Flow(self::Flow::EndSwitch),
        Opcode::CAL => Flow(self::Flow::Cal),
        Opcode::RET => Flow(self::Flow::Ret),
        Opcode::BGNSUB => Flow(self::Flow::BgnSub),
        Opcode::ENDSUB => Flow(self::Flow::EndSub),
        Opcode::END => Flow(self::Flow::End),
        _ => return None,
    })
}
