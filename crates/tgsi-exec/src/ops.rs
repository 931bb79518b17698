//! The one opcode dispatch: [`kind`] maps every opcode the interpreter runs to a [`Kind`]
//! (how to execute it, with the scalar function from [`crate::scalar`]). Operand counts and
//! types, replication and channel pairing come from [`tgsi::Opcode::info`]; nothing else in
//! the crate lists opcodes.

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

/// How to execute an instruction.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Component-wise float functions.
    F1(fn(f32) -> f32),
    /// Component-wise float binary function.
    F2(fn(f32, f32) -> f32),
    /// Component-wise float ternary function.
    F3(fn(f32, f32, f32) -> f32),
    /// Component-wise function on raw words.
    U1(fn(u32) -> u32),
    /// Component-wise binary function on raw words.
    U2(fn(u32, u32) -> u32),
    /// Component-wise ternary function on raw words.
    U3(fn(u32, u32, u32) -> u32),
    /// Component-wise 4-source function on raw words.
    U4(fn(u32, u32, u32, u32) -> u32),
    /// Per-lane function of whole source vectors (replicated and channel-formula opcodes).
    Vector(fn(&[[u32; 4]; 3]) -> [u32; 4]),
    /// 64-bit operation on channel pairs; the shape (pair → pair, pair → word, word → pair)
    /// follows the operand types of the opcode table.
    Wide(fn([u64; 3]) -> u64),
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
    /// INTERP_CENTROID / INTERP_SAMPLE: the input itself (inputs are uniform over a
    /// single-sample pixel).
    Interp,
    /// INTERP_OFFSET: the input moved by `src1.xy` pixels along its screen gradients.
    InterpOffset,
    /// PUSHA (legacy): push `src0` on the lane's address stack.
    PushA,
    /// POPA (legacy): pop the lane's address stack into `dst`.
    PopA,
    /// CLOCK: `dst.xy` = the 64-bit count of instructions the wave has executed.
    Clock,
    /// Does nothing (NOP, MEMBAR, fences).
    Nop,
    /// Control flow.
    Flow(Flow),
}

/// Why [`kind`] has no answer for `op`.
pub fn unsupported_reason(op: Opcode) -> &'static str {
    let info = op.info();
    match op {
        Opcode::IFC => {
            "has no semantics in any spec version (its text is TBD and a token cannot hold the comparison it needs)"
        }
        _ if info.has(tgsi::opcode::TEX) || info.has(tgsi::opcode::MEM) => {
            "needs textures, images or buffers, which the interpreter does not provide yet"
        }
        _ => "is not supported by the interpreter",
    }
}

/// The execution kind of an opcode, or `None` when the interpreter cannot run it.
pub fn kind(op: Opcode) -> Option<Kind> {
    use Kind::*;
    Some(match op {
        Opcode::MOV => U1(|a| a),
        Opcode::ADD => F2(fl::add),
        Opcode::SUB => F2(fl::sub),
        Opcode::MUL => F2(fl::mul),
        Opcode::DIV => F2(fl::div),
        Opcode::MAD => F3(fl::mad),
        Opcode::FMA => F3(fl::fma),
        Opcode::LRP => F3(fl::lrp),
        Opcode::CMP => F3(fl::cmp),
        Opcode::CND => F3(fl::cnd),
        Opcode::CLAMP => F3(fl::clamp),
        Opcode::ABS => F1(fl::abs),
        Opcode::MIN => F2(fl::min_op),
        Opcode::MAX => F2(fl::max_op),
        Opcode::SLT => F2(fl::slt),
        Opcode::SGE => F2(fl::sge),
        Opcode::SGT => F2(fl::sgt),
        Opcode::SLE => F2(fl::sle),
        Opcode::SEQ => F2(fl::seq),
        Opcode::SNE => F2(fl::sne),
        Opcode::FSLT => U2(|a, b| fl::fslt(f(a), f(b))),
        Opcode::FSGE => U2(|a, b| fl::fsge(f(a), f(b))),
        Opcode::FSEQ => U2(|a, b| fl::fseq(f(a), f(b))),
        Opcode::FSNE => U2(|a, b| fl::fsne(f(a), f(b))),
        Opcode::FLR => F1(fl::flr),
        Opcode::CEIL => F1(fl::ceil),
        Opcode::TRUNC => F1(fl::trunc),
        Opcode::ROUND => F1(fl::round),
        Opcode::FRC => F1(fl::frc),
        Opcode::SSG => F1(fl::ssg),
        Opcode::LDEXP => U2(|a, b| u(fl::ldexp(f(a), b as i32))),
        Opcode::ARL => U1(|a| fl::arl(f(a)) as u32),
        Opcode::ARR => U1(|a| fl::arr(f(a)) as u32),
        Opcode::UARL => U1(|a| a),
        Opcode::F2I => U1(|a| fl::f2i(f(a)) as u32),
        Opcode::F2U => U1(|a| fl::f2u(f(a))),
        Opcode::I2F => U1(|a| u(fl::i2f(a as i32))),
        Opcode::U2F => U1(|a| u(fl::u2f(a))),
        Opcode::RCP => Vector(|s| rep(fl::rcp(f(s[0][0])))),
        Opcode::RSQ => Vector(|s| rep(fl::rsq(f(s[0][0])))),
        Opcode::SQRT => Vector(|s| rep(fl::sqrt(f(s[0][0])))),
        Opcode::EX2 => Vector(|s| rep(fl::ex2(f(s[0][0])))),
        Opcode::LG2 => Vector(|s| rep(fl::lg2(f(s[0][0])))),
        Opcode::POW => Vector(|s| rep(fl::pow(f(s[0][0]), f(s[1][0])))),
        Opcode::SIN => Vector(|s| rep(fl::sin(f(s[0][0])))),
        Opcode::COS => Vector(|s| rep(fl::cos(f(s[0][0])))),
        // ARA's TGSI text was never written; NV_vertex_program2, where it comes from, adds
        // the two halves of an address vector: (x + z, y + w, z + x, w + y).
        Opcode::ARA => Vector(|s| {
            let a = s[0];
            [0, 1, 2, 3].map(|c| a[c].wrapping_add(a[(c + 2) & 3]))
        }),
        Opcode::RCC => Vector(|s| rep(fl::rcc(f(s[0][0])))),
        Opcode::DP2 => Vector(|s| rep(fl::dp(&fv(s[0])[..2], &fv(s[1])[..2]))),
        Opcode::DP3 => Vector(|s| rep(fl::dp(&fv(s[0])[..3], &fv(s[1])[..3]))),
        Opcode::DP4 => Vector(|s| rep(fl::dp(&fv(s[0]), &fv(s[1])))),
        Opcode::DPH => Vector(|s| rep(fl::dp(&fv(s[0])[..3], &fv(s[1])[..3]) + f(s[1][3]))),
        Opcode::DP2A => Vector(|s| rep(fl::dp(&fv(s[0])[..2], &fv(s[1])[..2]) + f(s[2][0]))),
        Opcode::NRM4 => Vector(|s| rep(fl::nrm4(fv(s[0])))),
        Opcode::SFL => Vector(|_| rep(0.0)),
        Opcode::STR => Vector(|_| rep(1.0)),
        Opcode::EXP => Vector(|s| uv(fl::exp(f(s[0][0])))),
        Opcode::LOG => Vector(|s| uv(fl::log(f(s[0][0])))),
        Opcode::LIT => Vector(|s| uv(fl::lit(f(s[0][0]), f(s[0][1]), f(s[0][3])))),
        Opcode::DST => Vector(|s| uv(fl::dst(fv(s[0]), fv(s[1])))),
        Opcode::XPD => Vector(|s| uv(fl::xpd(fv(s[0]), fv(s[1])))),
        Opcode::SCS => Vector(|s| uv(fl::scs(f(s[0][0])))),
        Opcode::NRM => Vector(|s| uv(fl::nrm(fv(s[0])))),
        Opcode::RFL => Vector(|s| uv(fl::rfl(fv(s[0]), fv(s[1])))),
        Opcode::X2D => Vector(|s| uv(fl::x2d(fv(s[0]), fv(s[1]), fv(s[2])))),
        Opcode::PK2H => Vector(|s| [pack::pk2h(f(s[0][0]), f(s[0][1])); 4]),
        Opcode::PK2US => Vector(|s| [pack::pk2us(f(s[0][0]), f(s[0][1])); 4]),
        Opcode::PK4B => Vector(|s| [pack::pk4b(fv(s[0])); 4]),
        Opcode::PK4UB => Vector(|s| [pack::pk4ub(fv(s[0])); 4]),
        Opcode::UP2H => Vector(|s| uv(pack::up2h(s[0][0]))),
        Opcode::UP2US => Vector(|s| uv(pack::up2us(s[0][0]))),
        Opcode::UP4B => Vector(|s| uv(pack::up4b(s[0][0]))),
        Opcode::UP4UB => Vector(|s| uv(pack::up4ub(s[0][0]))),
        Opcode::UADD => U2(int::uadd),
        Opcode::UMUL => U2(int::umul),
        Opcode::UMAD => U3(int::umad),
        Opcode::IMUL_HI => U2(|a, b| int::imul_hi(a as i32, b as i32) as u32),
        Opcode::UMUL_HI => U2(int::umul_hi),
        Opcode::IDIV => U2(|a, b| int::idiv(a as i32, b as i32) as u32),
        Opcode::UDIV => U2(int::udiv),
        Opcode::MOD => U2(|a, b| int::imod(a as i32, b as i32) as u32),
        Opcode::UMOD => U2(int::umod),
        Opcode::SHL => U2(int::shl),
        Opcode::USHR => U2(int::ushr),
        Opcode::ISHR => U2(|a, b| int::ishr(a as i32, b as i32) as u32),
        Opcode::SHR => U2(|a, b| int::shr_legacy(a as i32, b) as u32),
        Opcode::IMAX => U2(|a, b| int::imax(a as i32, b as i32) as u32),
        Opcode::IMIN => U2(|a, b| int::imin(a as i32, b as i32) as u32),
        Opcode::UMAX => U2(int::umax),
        Opcode::UMIN => U2(int::umin),
        Opcode::ISGE => U2(|a, b| int::isge(a as i32, b as i32)),
        Opcode::ISLT => U2(|a, b| int::islt(a as i32, b as i32)),
        Opcode::USGE => U2(int::usge),
        Opcode::USLT => U2(int::uslt),
        Opcode::USEQ => U2(int::useq),
        Opcode::USNE => U2(int::usne),
        Opcode::INEG => U1(|a| int::ineg(a as i32) as u32),
        Opcode::IABS => U1(|a| int::iabs(a as i32) as u32),
        Opcode::ISSG => U1(|a| int::issg(a as i32) as u32),
        Opcode::NOT => U1(int::not),
        Opcode::AND => U2(int::and),
        Opcode::OR => U2(int::or),
        Opcode::XOR => U2(int::xor),
        Opcode::UCMP => U3(int::ucmp),
        Opcode::SAD => U3(int::sad),
        Opcode::IBFE => U3(|a, b, c| int::ibfe(a as i32, b, c) as u32),
        Opcode::UBFE => U3(int::ubfe),
        Opcode::BFI => U4(int::bfi),
        Opcode::BREV => U1(int::brev),
        Opcode::POPC => U1(int::popc),
        Opcode::LSB => U1(|a| int::lsb(a) as u32),
        Opcode::IMSB => U1(|a| int::imsb(a as i32) as u32),
        Opcode::UMSB => U1(|a| int::umsb(a) as u32),
        Opcode::DADD => Wide(|s| d::dadd(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DMUL => Wide(|s| d::dmul(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DDIV => Wide(|s| d::ddiv(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DMAD => Wide(|s| d::dmad(fd(s[0]), fd(s[1]), fd(s[2])).to_bits()),
        Opcode::DFMA => Wide(|s| d::dfma(fd(s[0]), fd(s[1]), fd(s[2])).to_bits()),
        Opcode::DMAX => Wide(|s| d::dmax(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DMIN => Wide(|s| d::dmin(fd(s[0]), fd(s[1])).to_bits()),
        Opcode::DABS => Wide(|s| d::dabs(fd(s[0])).to_bits()),
        Opcode::DNEG => Wide(|s| d::dneg(fd(s[0])).to_bits()),
        Opcode::DRCP => Wide(|s| d::drcp(fd(s[0])).to_bits()),
        Opcode::DSQRT => Wide(|s| d::dsqrt(fd(s[0])).to_bits()),
        Opcode::DRSQ => Wide(|s| d::drsq(fd(s[0])).to_bits()),
        Opcode::DFRAC => Wide(|s| d::dfrac(fd(s[0])).to_bits()),
        Opcode::DFLR => Wide(|s| d::dflr(fd(s[0])).to_bits()),
        Opcode::DCEIL => Wide(|s| d::dceil(fd(s[0])).to_bits()),
        Opcode::DTRUNC => Wide(|s| d::dtrunc(fd(s[0])).to_bits()),
        Opcode::DROUND => Wide(|s| d::dround(fd(s[0])).to_bits()),
        Opcode::DSSG => Wide(|s| d::dssg(fd(s[0])).to_bits()),
        Opcode::DLDEXP => Wide(|s| d::dldexp(fd(s[0]), s[1] as i32).to_bits()),
        Opcode::DSLT => Wide(|s| u64::from(d::dslt(fd(s[0]), fd(s[1])))),
        Opcode::DSGE => Wide(|s| u64::from(d::dsge(fd(s[0]), fd(s[1])))),
        Opcode::DSEQ => Wide(|s| u64::from(d::dseq(fd(s[0]), fd(s[1])))),
        Opcode::DSNE => Wide(|s| u64::from(d::dsne(fd(s[0]), fd(s[1])))),
        Opcode::F2D => Wide(|s| f64::from(f(s[0] as u32)).to_bits()),
        Opcode::D2F => Wide(|s| u64::from(u(fd(s[0]) as f32))),
        Opcode::I2D => Wide(|s| f64::from(s[0] as i32).to_bits()),
        Opcode::U2D => Wide(|s| f64::from(s[0] as u32).to_bits()),
        Opcode::D2I => Wide(|s| u64::from(d::d2i(fd(s[0])) as u32)),
        Opcode::D2U => Wide(|s| u64::from(d::d2u(fd(s[0])))),
        Opcode::I2I64 => Wide(|s| s[0] as i32 as i64 as u64),
        Opcode::U2I64 => Wide(|s| s[0] & 0xffff_ffff),
        Opcode::F2I64 => Wide(|s| fl::f2i64(f(s[0] as u32)) as u64),
        Opcode::F2U64 => Wide(|s| fl::f2u64(f(s[0] as u32))),
        Opcode::D2I64 => Wide(|s| d::d2i64(fd(s[0])) as u64),
        Opcode::D2U64 => Wide(|s| d::d2u64(fd(s[0]))),
        Opcode::I642F => Wide(|s| u64::from(u(s[0] as i64 as f32))),
        Opcode::U642F => Wide(|s| u64::from(u(s[0] as f32))),
        Opcode::I642D => Wide(|s| (s[0] as i64 as f64).to_bits()),
        Opcode::U642D => Wide(|s| (s[0] as f64).to_bits()),
        Opcode::U64SEQ => Wide(|s| u64::from(d::u64seq(s[0], s[1]))),
        Opcode::U64SNE => Wide(|s| u64::from(d::u64sne(s[0], s[1]))),
        Opcode::U64SLT => Wide(|s| u64::from(d::u64slt(s[0], s[1]))),
        Opcode::U64SGE => Wide(|s| u64::from(d::u64sge(s[0], s[1]))),
        Opcode::I64SLT => Wide(|s| u64::from(d::i64slt(s[0] as i64, s[1] as i64))),
        Opcode::I64SGE => Wide(|s| u64::from(d::i64sge(s[0] as i64, s[1] as i64))),
        Opcode::I64MIN => Wide(|s| (s[0] as i64).min(s[1] as i64) as u64),
        Opcode::I64MAX => Wide(|s| (s[0] as i64).max(s[1] as i64) as u64),
        Opcode::U64MIN => Wide(|s| s[0].min(s[1])),
        Opcode::U64MAX => Wide(|s| s[0].max(s[1])),
        Opcode::I64ABS => Wide(|s| (s[0] as i64).wrapping_abs() as u64),
        Opcode::I64SSG => Wide(|s| (s[0] as i64).signum() as u64),
        Opcode::I64NEG => Wide(|s| (s[0] as i64).wrapping_neg() as u64),
        Opcode::U64ADD => Wide(|s| s[0].wrapping_add(s[1])),
        Opcode::U64MUL => Wide(|s| s[0].wrapping_mul(s[1])),
        Opcode::U64SHL => Wide(|s| d::u64shl(s[0], s[1])),
        Opcode::U64SHR => Wide(|s| d::u64shr(s[0], s[1])),
        Opcode::I64SHR => Wide(|s| d::i64shr(s[0] as i64, s[1] as i64) as u64),
        Opcode::I64DIV => Wide(|s| d::i64div(s[0] as i64, s[1] as i64) as u64),
        Opcode::U64DIV => Wide(|s| d::u64div(s[0], s[1])),
        Opcode::I64MOD => Wide(|s| d::i64mod(s[0] as i64, s[1] as i64) as u64),
        Opcode::U64MOD => Wide(|s| d::u64mod(s[0], s[1])),
        Opcode::DFRACEXP => FracExp,
        Opcode::DDX => Deriv(self::Deriv::CoarseX),
        Opcode::DDY => Deriv(self::Deriv::CoarseY),
        Opcode::DDX_FINE => Deriv(self::Deriv::FineX),
        Opcode::DDY_FINE => Deriv(self::Deriv::FineY),
        Opcode::KILL => Kill,
        Opcode::KILL_IF => KillIf,
        Opcode::DEMOTE => Demote,
        Opcode::READ_HELPER => ReadHelper,
        Opcode::INTERP_CENTROID | Opcode::INTERP_SAMPLE => Interp,
        Opcode::INTERP_OFFSET => InterpOffset,
        Opcode::PUSHA => PushA,
        Opcode::POPA => PopA,
        Opcode::CLOCK => Clock,
        Opcode::NOP | Opcode::MEMBAR | Opcode::LFENCE | Opcode::MFENCE | Opcode::SFENCE => Nop,
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
