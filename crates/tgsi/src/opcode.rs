//! The opcode table: the single list of every TGSI opcode, with Mesa 22.3's token number,
//! operand counts and types, output mode, text/printer flags, spec section and stage.
//!
//! Everything that needs to know about an opcode (parser, printer, token codec, validator,
//! scan, executors) reads [`OpcodeInfo`] through [`Opcode::info`]. Opcodes whose slot was
//! removed before Mesa 22.3 but that older spec versions define (SUB, ABS, XPD…) are in the
//! table too, marked [`LEGACY`], with no token number.

use std::collections::HashMap;
use std::sync::OnceLock;

/// An opcode: an index into [`OPCODES`]. For opcodes with a Mesa token number the index
/// equals that number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Opcode(u16);

/// How an instruction's result maps onto its destination channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputMode {
    /// No destination.
    None,
    /// Component-wise: channel c of the result depends on channel c of the sources.
    Component,
    /// A scalar result replicated to every enabled channel.
    Replicate,
    /// Channel-dependent formula (LIT, EXP, LOG, DST…).
    Channel,
    /// Texture, resource, or otherwise special.
    Other,
}

/// Operand data types, as Mesa infers them for modifiers and execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandType {
    /// Bit copy (MOV, UCMP data); float for the purpose of modifiers.
    Untyped,
    /// 32-bit float.
    F32,
    /// 32-bit signed integer.
    I32,
    /// 32-bit unsigned integer.
    U32,
    /// 64-bit float in a channel pair.
    F64,
    /// 64-bit signed integer in a channel pair.
    I64,
    /// 64-bit unsigned integer in a channel pair.
    U64,
}

impl OperandType {
    /// Whether abs/negate act on the float sign (true) or as integer negation (false).
    pub const fn is_float_like(self) -> bool {
        matches!(
            self,
            OperandType::Untyped | OperandType::F32 | OperandType::F64
        )
    }

    /// Whether values occupy a pair of channels.
    pub const fn is_64bit(self) -> bool {
        matches!(self, OperandType::F64 | OperandType::I64 | OperandType::U64)
    }
}

/// The section of the spec an opcode is documented in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Section {
    Core,
    Compute,
    Integer,
    Bitwise,
    Glsl,
    Double,
    Int64,
    Interpolation,
    ResourceAccess,
    ResourceSampling,
    Atomic,
    Bindless,
    Geometry,
    InterLane,
    Sync,
    /// Only in older spec versions.
    Legacy,
    /// A removed slot in Mesa's numbering (`UNKnn`).
    Gap,
}

/// Which shader stages may use an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageRestriction {
    /// Any stage.
    Any,
    /// Fragment shaders only (discard, derivatives, interpolation).
    Fragment,
    /// Geometry shaders only (EMIT, ENDPRIM).
    Geometry,
    /// Compute shaders only (legacy fences).
    Compute,
    /// Compute and tessellation-control shaders (BARRIER).
    ComputeOrTessCtrl,
}

/// Takes a texture target operand in text and has a texture token.
pub const TEX: u32 = 1 << 0;
/// Writes memory.
pub const STORE: u32 = 1 << 1;
/// May carry a branch label (`:n`).
pub const BRANCH: u32 = 1 << 2;
/// The printer indents the following instructions.
pub const INDENT: u32 = 1 << 3;
/// The printer dedents before this instruction.
pub const DEDENT: u32 = 1 << 4;
/// Carries a memory token (qualifiers, image target and format).
pub const MEM: u32 = 1 << 5;
/// Has a texture token for offsets only, with no target in text (SAMPLE…GATHER4).
pub const SVIEW_OFFSETS: u32 = 1 << 6;
/// A removed slot of Mesa's numbering (`UNKnn`): parses, but is not an operation.
pub const GAP: u32 = 1 << 7;
/// Defined only by older spec versions; no token number in Mesa 22.3.
pub const LEGACY: u32 = 1 << 8;
/// Sampling that computes derivatives implicitly (meaningful in fragment shaders).
pub const IMPLICIT_DERIVATIVES: u32 = 1 << 9;
/// An explicit screen-space derivative (DDX, DDY and their fine variants).
pub const DERIVATIVE: u32 = 1 << 10;
/// Removes the invocation (KILL, KILL_IF, DEMOTE).
pub const KILLS: u32 = 1 << 11;

/// Everything known about one opcode.
#[derive(Clone, Copy, Debug)]
pub struct OpcodeInfo {
    /// Upper-case mnemonic.
    pub name: &'static str,
    /// Mesa 22.3 token number (`None` for legacy opcodes).
    pub number: Option<u8>,
    /// Number of destination operands.
    pub num_dst: u8,
    /// Number of source operands.
    pub num_src: u8,
    /// Output mode.
    pub output: OutputMode,
    /// Operand types: destinations then sources.
    types: [OperandType; 8],
    /// Flag bits ([`TEX`], [`STORE`], …).
    pub flags: u32,
    /// Spec section.
    pub section: Section,
    /// Stage restriction.
    pub stage: StageRestriction,
    /// Older spellings accepted by the parser.
    pub aliases: &'static [&'static str],
}

impl OpcodeInfo {
    /// Whether a flag bit is set.
    pub const fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// Type of destination `i`.
    pub fn dst_type(&self, i: usize) -> OperandType {
        self.types[i.min(self.num_dst.saturating_sub(1) as usize)]
    }

    /// Type of source `i`.
    pub fn src_type(&self, i: usize) -> OperandType {
        let base = self.num_dst.max(1) as usize;
        let last = base + (self.num_src as usize).saturating_sub(1);
        self.types[(base + i).min(last)]
    }
}

const fn operand_type(c: u8) -> OperandType {
    match c {
        b'U' => OperandType::Untyped,
        b'F' => OperandType::F32,
        b'I' => OperandType::I32,
        b'W' => OperandType::U32,
        b'D' => OperandType::F64,
        b'L' => OperandType::I64,
        b'Q' => OperandType::U64,
        // 'N': no operand in that slot.
        _ => OperandType::F32,
    }
}

const fn types(spec: &str) -> [OperandType; 8] {
    let bytes = spec.as_bytes();
    let mut out = [OperandType::F32; 8];
    let mut i = 0;
    while i < bytes.len() && i < 8 {
        out[i] = operand_type(bytes[i]);
        i += 1;
    }
    out
}

use OutputMode::{
    Channel as CHAN, Component as COMP, None as NONE, Other as OTHR, Replicate as REPL,
};

macro_rules! opcode_table {
    ($( $idx:literal $ident:ident = $num:expr, $nd:literal, $ns:literal, $mode:ident,
        $ty:literal, $flags:expr, $sec:ident, $stage:ident, [$($alias:literal),*]; )*) => {
        /// Named opcode constants.
        #[allow(missing_docs)]
        impl Opcode {
            $( pub const $ident: Opcode = Opcode($idx); )*
        }

        /// The mnemonics, indexed by [`Opcode`], for tables built at compile time (a
        /// constant cannot read [`OPCODES`]).
        pub(crate) const NAMES: &[&str] = &[ $( stringify!($ident), )* ];

        /// The opcode table, indexed by [`Opcode`].
        pub static OPCODES: &[OpcodeInfo] = &[
            $( OpcodeInfo {
                name: stringify!($ident),
                number: $num,
                num_dst: $nd,
                num_src: $ns,
                output: $mode,
                types: types($ty),
                flags: $flags,
                section: Section::$sec,
                stage: StageRestriction::$stage,
                aliases: &[$($alias),*],
            }, )*
        ];
    };
}

opcode_table! {
      0 ARL = Some(0), 1, 1, COMP, "IF", 0, Core, Any, [];
      1 MOV = Some(1), 1, 1, COMP, "UU", 0, Core, Any, [];
      2 LIT = Some(2), 1, 1, CHAN, "FF", 0, Core, Any, [];
      3 RCP = Some(3), 1, 1, REPL, "FF", 0, Core, Any, [];
      4 RSQ = Some(4), 1, 1, REPL, "FF", 0, Core, Any, [];
      5 EXP = Some(5), 1, 1, CHAN, "FF", 0, Core, Any, [];
      6 LOG = Some(6), 1, 1, CHAN, "FF", 0, Core, Any, [];
      7 MUL = Some(7), 1, 2, COMP, "FFF", 0, Core, Any, [];
      8 ADD = Some(8), 1, 2, COMP, "FFF", 0, Core, Any, [];
      9 DP3 = Some(9), 1, 2, REPL, "FFF", 0, Core, Any, [];
     10 DP4 = Some(10), 1, 2, REPL, "FFF", 0, Core, Any, [];
     11 DST = Some(11), 1, 2, CHAN, "FFF", 0, Core, Any, [];
     12 MIN = Some(12), 1, 2, COMP, "FFF", 0, Core, Any, [];
     13 MAX = Some(13), 1, 2, COMP, "FFF", 0, Core, Any, [];
     14 SLT = Some(14), 1, 2, COMP, "FFF", 0, Core, Any, [];
     15 SGE = Some(15), 1, 2, COMP, "FFF", 0, Core, Any, [];
     16 MAD = Some(16), 1, 3, COMP, "FFFF", 0, Core, Any, [];
     17 TEX_LZ = Some(17), 1, 2, OTHR, "FFF", TEX, Core, Any, [];
     18 LRP = Some(18), 1, 3, COMP, "FFFF", 0, Core, Any, [];
     19 FMA = Some(19), 1, 3, COMP, "FFFF", 0, Core, Any, [];
     20 SQRT = Some(20), 1, 1, REPL, "FF", 0, Core, Any, [];
     21 LDEXP = Some(21), 1, 2, COMP, "FFI", 0, Core, Any, [];
     22 F2U64 = Some(22), 1, 1, COMP, "QF", 0, Int64, Any, [];
     23 F2I64 = Some(23), 1, 1, COMP, "LF", 0, Int64, Any, [];
     24 FRC = Some(24), 1, 1, COMP, "FF", 0, Core, Any, ["FRAC"];
     25 TXF_LZ = Some(25), 1, 2, OTHR, "FWW", TEX, Compute, Any, [];
     26 FLR = Some(26), 1, 1, COMP, "FF", 0, Core, Any, [];
     27 ROUND = Some(27), 1, 1, COMP, "FF", 0, Core, Any, [];
     28 EX2 = Some(28), 1, 1, REPL, "FF", 0, Core, Any, [];
     29 LG2 = Some(29), 1, 1, REPL, "FF", 0, Core, Any, [];
     30 POW = Some(30), 1, 2, REPL, "FFF", 0, Core, Any, [];
     31 DEMOTE = Some(31), 0, 0, NONE, "N", KILLS, Core, Fragment, [];
     32 U2I64 = Some(32), 1, 1, COMP, "LW", 0, Int64, Any, [];
     33 CLOCK = Some(33), 1, 0, OTHR, "F", 0, Compute, Any, [];
     34 I2I64 = Some(34), 1, 1, COMP, "LI", 0, Int64, Any, [];
     35 READ_HELPER = Some(35), 1, 0, COMP, "F", 0, Core, Fragment, [];
     36 COS = Some(36), 1, 1, REPL, "FF", 0, Core, Any, [];
     37 DDX = Some(37), 1, 1, COMP, "FF", DERIVATIVE, Core, Fragment, [];
     38 DDY = Some(38), 1, 1, COMP, "FF", DERIVATIVE, Core, Fragment, [];
     39 KILL = Some(39), 0, 0, NONE, "N", KILLS, Core, Fragment, ["KILP"];
     40 PK2H = Some(40), 1, 1, REPL, "FF", 0, Core, Any, [];
     41 PK2US = Some(41), 1, 1, REPL, "FF", 0, Core, Any, [];
     42 PK4B = Some(42), 1, 1, REPL, "FF", 0, Core, Any, [];
     43 PK4UB = Some(43), 1, 1, REPL, "FF", 0, Core, Any, [];
     44 D2U64 = Some(44), 1, 1, COMP, "QD", 0, Int64, Any, [];
     45 SEQ = Some(45), 1, 2, COMP, "FFF", 0, Core, Any, [];
     46 D2I64 = Some(46), 1, 1, COMP, "LD", 0, Int64, Any, [];
     47 SGT = Some(47), 1, 2, COMP, "FFF", 0, Core, Any, [];
     48 SIN = Some(48), 1, 1, REPL, "FF", 0, Core, Any, [];
     49 SLE = Some(49), 1, 2, COMP, "FFF", 0, Core, Any, [];
     50 SNE = Some(50), 1, 2, COMP, "FFF", 0, Core, Any, [];
     51 U642D = Some(51), 1, 1, COMP, "DQ", 0, Int64, Any, [];
     52 TEX = Some(52), 1, 2, OTHR, "FFF", TEX | IMPLICIT_DERIVATIVES, Core, Any, [];
     53 TXD = Some(53), 1, 4, OTHR, "FFFFF", TEX, Core, Any, [];
     54 TXP = Some(54), 1, 2, OTHR, "FFF", TEX | IMPLICIT_DERIVATIVES, Core, Any, [];
     55 UP2H = Some(55), 1, 1, CHAN, "FW", 0, Core, Any, [];
     56 UP2US = Some(56), 1, 1, CHAN, "FF", 0, Core, Any, [];
     57 UP4B = Some(57), 1, 1, CHAN, "FF", 0, Core, Any, [];
     58 UP4UB = Some(58), 1, 1, CHAN, "FF", 0, Core, Any, [];
     59 U642F = Some(59), 1, 1, COMP, "FQ", 0, Int64, Any, [];
     60 I642F = Some(60), 1, 1, COMP, "FL", 0, Int64, Any, [];
     61 ARR = Some(61), 1, 1, COMP, "IF", 0, Core, Any, [];
     62 I642D = Some(62), 1, 1, COMP, "DL", 0, Int64, Any, [];
     63 CAL = Some(63), 0, 0, NONE, "N", BRANCH, Glsl, Any, [];
     64 RET = Some(64), 0, 0, NONE, "N", 0, Glsl, Any, [];
     65 SSG = Some(65), 1, 1, COMP, "FF", 0, Core, Any, [];
     66 CMP = Some(66), 1, 3, COMP, "FFFF", 0, Core, Any, [];
     67 UNK67 = Some(67), 0, 0, NONE, "N", GAP, Gap, Any, [];
     68 TXB = Some(68), 1, 2, OTHR, "FFF", TEX | IMPLICIT_DERIVATIVES, Core, Any, [];
     69 FBFETCH = Some(69), 1, 1, OTHR, "FF", 0, ResourceAccess, Fragment, [];
     70 DIV = Some(70), 1, 2, COMP, "FFF", 0, Core, Any, [];
     71 DP2 = Some(71), 1, 2, REPL, "FFF", 0, Core, Any, [];
     72 TXL = Some(72), 1, 2, OTHR, "FFF", TEX, Core, Any, [];
     73 BRK = Some(73), 0, 0, NONE, "N", 0, Glsl, Any, [];
     74 IF = Some(74), 0, 1, NONE, "NF", BRANCH | INDENT, Glsl, Any, [];
     75 UIF = Some(75), 0, 1, NONE, "NW", BRANCH | INDENT, Glsl, Any, [];
     76 READ_INVOC = Some(76), 1, 2, COMP, "FFF", 0, InterLane, Any, [];
     77 ELSE = Some(77), 0, 0, NONE, "N", BRANCH | DEDENT | INDENT, Glsl, Any, [];
     78 ENDIF = Some(78), 0, 0, NONE, "N", DEDENT, Glsl, Any, [];
     79 DDX_FINE = Some(79), 1, 1, COMP, "FF", DERIVATIVE, Core, Fragment, [];
     80 DDY_FINE = Some(80), 1, 1, COMP, "FF", DERIVATIVE, Core, Fragment, [];
     81 UNK81 = Some(81), 0, 0, NONE, "N", GAP, Gap, Any, [];
     82 UNK82 = Some(82), 0, 0, NONE, "N", GAP, Gap, Any, [];
     83 CEIL = Some(83), 1, 1, COMP, "FF", 0, Compute, Any, [];
     84 I2F = Some(84), 1, 1, COMP, "FI", 0, Integer, Any, [];
     85 NOT = Some(85), 1, 1, COMP, "WW", 0, Integer, Any, [];
     86 TRUNC = Some(86), 1, 1, COMP, "FF", 0, Compute, Any, [];
     87 SHL = Some(87), 1, 2, COMP, "WWW", 0, Integer, Any, [];
     88 BALLOT = Some(88), 1, 1, OTHR, "FF", 0, InterLane, Any, [];
     89 AND = Some(89), 1, 2, COMP, "WWW", 0, Integer, Any, [];
     90 OR = Some(90), 1, 2, COMP, "WWW", 0, Integer, Any, [];
     91 MOD = Some(91), 1, 2, COMP, "III", 0, Compute, Any, [];
     92 XOR = Some(92), 1, 2, COMP, "WWW", 0, Integer, Any, [];
     93 UNK93 = Some(93), 0, 0, NONE, "N", GAP, Gap, Any, [];
     94 TXF = Some(94), 1, 2, OTHR, "FWW", TEX, Compute, Any, [];
     95 TXQ = Some(95), 1, 2, OTHR, "WWW", TEX, Compute, Any, [];
     96 CONT = Some(96), 0, 0, NONE, "N", 0, Glsl, Any, [];
     97 EMIT = Some(97), 0, 1, NONE, "NF", 0, Geometry, Geometry, [];
     98 ENDPRIM = Some(98), 0, 1, NONE, "NF", 0, Geometry, Geometry, [];
     99 BGNLOOP = Some(99), 0, 0, NONE, "N", BRANCH | INDENT, Glsl, Any, [];
    100 BGNSUB = Some(100), 0, 0, NONE, "N", INDENT, Glsl, Any, [];
    101 ENDLOOP = Some(101), 0, 0, NONE, "N", BRANCH | DEDENT, Glsl, Any, [];
    102 ENDSUB = Some(102), 0, 0, NONE, "N", DEDENT, Glsl, Any, [];
    103 ATOMFADD = Some(103), 1, 3, OTHR, "FFFF", STORE, Atomic, Any, [];
    104 TXQS = Some(104), 1, 1, OTHR, "WW", TEX, Compute, Any, [];
    105 RESQ = Some(105), 1, 1, OTHR, "FF", MEM, ResourceAccess, Any, [];
    106 READ_FIRST = Some(106), 1, 1, COMP, "FF", 0, InterLane, Any, [];
    107 NOP = Some(107), 0, 0, NONE, "N", 0, Glsl, Any, [];
    108 FSEQ = Some(108), 1, 2, COMP, "IFF", 0, Integer, Any, [];
    109 FSGE = Some(109), 1, 2, COMP, "IFF", 0, Integer, Any, [];
    110 FSLT = Some(110), 1, 2, COMP, "IFF", 0, Integer, Any, [];
    111 FSNE = Some(111), 1, 2, COMP, "IFF", 0, Integer, Any, [];
    112 MEMBAR = Some(112), 0, 1, OTHR, "NW", 0, Sync, Any, [];
    113 UNK113 = Some(113), 0, 0, NONE, "N", GAP, Gap, Any, [];
    114 UNK114 = Some(114), 0, 0, NONE, "N", GAP, Gap, Any, [];
    115 UNK115 = Some(115), 0, 0, NONE, "N", GAP, Gap, Any, [];
    116 KILL_IF = Some(116), 0, 1, NONE, "NF", KILLS, Core, Fragment, ["KIL"];
    117 END = Some(117), 0, 0, NONE, "N", 0, Core, Any, [];
    118 DFMA = Some(118), 1, 3, COMP, "DDDD", 0, Double, Any, [];
    119 F2I = Some(119), 1, 1, COMP, "IF", 0, Integer, Any, [];
    120 IDIV = Some(120), 1, 2, COMP, "III", 0, Integer, Any, [];
    121 IMAX = Some(121), 1, 2, COMP, "III", 0, Integer, Any, [];
    122 IMIN = Some(122), 1, 2, COMP, "III", 0, Integer, Any, [];
    123 INEG = Some(123), 1, 1, COMP, "II", 0, Integer, Any, [];
    124 ISGE = Some(124), 1, 2, COMP, "III", 0, Integer, Any, [];
    125 ISHR = Some(125), 1, 2, COMP, "III", 0, Integer, Any, [];
    126 ISLT = Some(126), 1, 2, COMP, "III", 0, Integer, Any, [];
    127 F2U = Some(127), 1, 1, COMP, "WF", 0, Integer, Any, [];
    128 U2F = Some(128), 1, 1, COMP, "FW", 0, Integer, Any, [];
    129 UADD = Some(129), 1, 2, COMP, "IWW", 0, Integer, Any, [];
    130 UDIV = Some(130), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    131 UMAD = Some(131), 1, 3, COMP, "WWWW", 0, Integer, Any, [];
    132 UMAX = Some(132), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    133 UMIN = Some(133), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    134 UMOD = Some(134), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    135 UMUL = Some(135), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    136 USEQ = Some(136), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    137 USGE = Some(137), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    138 USHR = Some(138), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    139 USLT = Some(139), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    140 USNE = Some(140), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    141 SWITCH = Some(141), 0, 1, NONE, "NW", 0, Glsl, Any, [];
    142 CASE = Some(142), 0, 1, NONE, "NW", 0, Glsl, Any, [];
    143 DEFAULT = Some(143), 0, 0, NONE, "N", 0, Glsl, Any, [];
    144 ENDSWITCH = Some(144), 0, 0, NONE, "N", 0, Glsl, Any, [];
    145 SAMPLE = Some(145), 1, 3, OTHR, "FFFF", SVIEW_OFFSETS | IMPLICIT_DERIVATIVES, ResourceSampling, Any, [];
    146 SAMPLE_I = Some(146), 1, 2, OTHR, "FWW", SVIEW_OFFSETS, ResourceSampling, Any, [];
    147 SAMPLE_I_MS = Some(147), 1, 3, OTHR, "FWWW", SVIEW_OFFSETS, ResourceSampling, Any, [];
    148 SAMPLE_B = Some(148), 1, 4, OTHR, "FFFFF", SVIEW_OFFSETS | IMPLICIT_DERIVATIVES, ResourceSampling, Any, [];
    149 SAMPLE_C = Some(149), 1, 4, OTHR, "FFFFF", SVIEW_OFFSETS | IMPLICIT_DERIVATIVES, ResourceSampling, Any, [];
    150 SAMPLE_C_LZ = Some(150), 1, 4, OTHR, "FFFFF", SVIEW_OFFSETS, ResourceSampling, Any, [];
    151 SAMPLE_D = Some(151), 1, 5, OTHR, "FFFFFF", SVIEW_OFFSETS, ResourceSampling, Any, [];
    152 SAMPLE_L = Some(152), 1, 4, OTHR, "FFFFF", SVIEW_OFFSETS, ResourceSampling, Any, [];
    153 GATHER4 = Some(153), 1, 3, OTHR, "FFFF", SVIEW_OFFSETS, ResourceSampling, Any, [];
    154 SVIEWINFO = Some(154), 1, 2, OTHR, "WWW", 0, ResourceSampling, Any, [];
    155 SAMPLE_POS = Some(155), 1, 2, OTHR, "FFF", 0, ResourceSampling, Any, [];
    156 SAMPLE_INFO = Some(156), 1, 2, OTHR, "FFF", 0, ResourceSampling, Any, [];
    157 UARL = Some(157), 1, 1, COMP, "II", 0, Compute, Any, [];
    158 UCMP = Some(158), 1, 3, COMP, "UFFF", 0, Integer, Any, [];
    159 IABS = Some(159), 1, 1, COMP, "II", 0, Integer, Any, [];
    160 ISSG = Some(160), 1, 1, COMP, "II", 0, Integer, Any, [];
    161 LOAD = Some(161), 1, 2, OTHR, "FFW", MEM, ResourceAccess, Any, [];
    162 STORE = Some(162), 1, 2, OTHR, "FWF", STORE | MEM, ResourceAccess, Any, [];
    163 IMG2HND = Some(163), 1, 1, OTHR, "WW", MEM, Bindless, Any, [];
    164 SAMP2HND = Some(164), 1, 1, OTHR, "WW", TEX | MEM, Bindless, Any, [];
    165 UNK165 = Some(165), 0, 0, NONE, "N", MEM | GAP, Gap, Any, [];
    166 BARRIER = Some(166), 0, 0, OTHR, "N", MEM, Sync, ComputeOrTessCtrl, [];
    167 ATOMUADD = Some(167), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    168 ATOMXCHG = Some(168), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    169 ATOMCAS = Some(169), 1, 4, OTHR, "FFWFF", STORE | MEM, Atomic, Any, [];
    170 ATOMAND = Some(170), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    171 ATOMOR = Some(171), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    172 ATOMXOR = Some(172), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    173 ATOMUMIN = Some(173), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    174 ATOMUMAX = Some(174), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    175 ATOMIMIN = Some(175), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    176 ATOMIMAX = Some(176), 1, 3, OTHR, "FFWF", STORE | MEM, Atomic, Any, [];
    177 TEX2 = Some(177), 1, 3, OTHR, "FFFF", TEX | IMPLICIT_DERIVATIVES, Core, Any, [];
    178 TXB2 = Some(178), 1, 3, OTHR, "FFFF", TEX | IMPLICIT_DERIVATIVES, Core, Any, [];
    179 TXL2 = Some(179), 1, 3, OTHR, "FFFF", TEX, Core, Any, [];
    180 IMUL_HI = Some(180), 1, 2, COMP, "III", 0, Integer, Any, [];
    181 UMUL_HI = Some(181), 1, 2, COMP, "WWW", 0, Integer, Any, [];
    182 TG4 = Some(182), 1, 3, OTHR, "FFFF", TEX, Compute, Any, [];
    183 LODQ = Some(183), 1, 2, OTHR, "FFF", TEX | IMPLICIT_DERIVATIVES, Compute, Any, [];
    184 IBFE = Some(184), 1, 3, COMP, "IIII", 0, Bitwise, Any, [];
    185 UBFE = Some(185), 1, 3, COMP, "WWWW", 0, Bitwise, Any, [];
    186 BFI = Some(186), 1, 4, COMP, "WWWWW", 0, Bitwise, Any, [];
    187 BREV = Some(187), 1, 1, COMP, "WW", 0, Bitwise, Any, [];
    188 POPC = Some(188), 1, 1, COMP, "II", 0, Bitwise, Any, [];
    189 LSB = Some(189), 1, 1, COMP, "II", 0, Bitwise, Any, [];
    190 IMSB = Some(190), 1, 1, COMP, "II", 0, Bitwise, Any, [];
    191 UMSB = Some(191), 1, 1, COMP, "IW", 0, Bitwise, Any, [];
    192 INTERP_CENTROID = Some(192), 1, 1, OTHR, "FF", 0, Interpolation, Fragment, [];
    193 INTERP_SAMPLE = Some(193), 1, 2, OTHR, "FFF", 0, Interpolation, Fragment, [];
    194 INTERP_OFFSET = Some(194), 1, 2, OTHR, "FFF", 0, Interpolation, Fragment, [];
    195 F2D = Some(195), 1, 1, COMP, "DF", 0, Double, Any, [];
    196 D2F = Some(196), 1, 1, COMP, "FD", 0, Double, Any, [];
    197 DABS = Some(197), 1, 1, COMP, "DD", 0, Double, Any, [];
    198 DNEG = Some(198), 1, 1, COMP, "DD", 0, Double, Any, [];
    199 DADD = Some(199), 1, 2, COMP, "DDD", 0, Double, Any, [];
    200 DMUL = Some(200), 1, 2, COMP, "DDD", 0, Double, Any, [];
    201 DMAX = Some(201), 1, 2, COMP, "DDD", 0, Double, Any, [];
    202 DMIN = Some(202), 1, 2, COMP, "DDD", 0, Double, Any, [];
    203 DSLT = Some(203), 1, 2, COMP, "IDD", 0, Double, Any, [];
    204 DSGE = Some(204), 1, 2, COMP, "IDD", 0, Double, Any, [];
    205 DSEQ = Some(205), 1, 2, COMP, "IDD", 0, Double, Any, [];
    206 DSNE = Some(206), 1, 2, COMP, "IDD", 0, Double, Any, [];
    207 DRCP = Some(207), 1, 1, COMP, "DD", 0, Double, Any, [];
    208 DSQRT = Some(208), 1, 1, COMP, "DD", 0, Double, Any, [];
    209 DMAD = Some(209), 1, 3, COMP, "DDDD", 0, Double, Any, [];
    210 DFRAC = Some(210), 1, 1, COMP, "DD", 0, Double, Any, [];
    211 DLDEXP = Some(211), 1, 2, COMP, "DDI", 0, Double, Any, [];
    212 DFRACEXP = Some(212), 2, 1, COMP, "DID", 0, Double, Any, [];
    213 D2I = Some(213), 1, 1, COMP, "FD", 0, Double, Any, [];
    214 I2D = Some(214), 1, 1, COMP, "DI", 0, Double, Any, [];
    215 D2U = Some(215), 1, 1, COMP, "FD", 0, Double, Any, [];
    216 U2D = Some(216), 1, 1, COMP, "DW", 0, Double, Any, [];
    217 DRSQ = Some(217), 1, 1, COMP, "DD", 0, Double, Any, [];
    218 DTRUNC = Some(218), 1, 1, COMP, "DD", 0, Double, Any, [];
    219 DCEIL = Some(219), 1, 1, COMP, "DD", 0, Double, Any, [];
    220 DFLR = Some(220), 1, 1, COMP, "DD", 0, Double, Any, [];
    221 DROUND = Some(221), 1, 1, COMP, "DD", 0, Double, Any, [];
    222 DSSG = Some(222), 1, 1, COMP, "DD", 0, Double, Any, [];
    223 VOTE_ANY = Some(223), 1, 1, COMP, "FF", 0, InterLane, Any, [];
    224 VOTE_ALL = Some(224), 1, 1, COMP, "FF", 0, InterLane, Any, [];
    225 VOTE_EQ = Some(225), 1, 1, COMP, "FF", 0, InterLane, Any, [];
    226 U64SEQ = Some(226), 1, 2, COMP, "IQQ", 0, Int64, Any, [];
    227 U64SNE = Some(227), 1, 2, COMP, "IQQ", 0, Int64, Any, [];
    228 I64SLT = Some(228), 1, 2, COMP, "ILL", 0, Int64, Any, [];
    229 U64SLT = Some(229), 1, 2, COMP, "IQQ", 0, Int64, Any, [];
    230 I64SGE = Some(230), 1, 2, COMP, "ILL", 0, Int64, Any, [];
    231 U64SGE = Some(231), 1, 2, COMP, "IQQ", 0, Int64, Any, [];
    232 I64MIN = Some(232), 1, 2, COMP, "LLL", 0, Int64, Any, [];
    233 U64MIN = Some(233), 1, 2, COMP, "QQQ", 0, Int64, Any, [];
    234 I64MAX = Some(234), 1, 2, COMP, "LLL", 0, Int64, Any, [];
    235 U64MAX = Some(235), 1, 2, COMP, "QQQ", 0, Int64, Any, [];
    236 I64ABS = Some(236), 1, 1, COMP, "LL", 0, Int64, Any, [];
    237 I64SSG = Some(237), 1, 1, COMP, "LL", 0, Int64, Any, [];
    238 I64NEG = Some(238), 1, 1, COMP, "LL", 0, Int64, Any, [];
    239 U64ADD = Some(239), 1, 2, COMP, "QQQ", 0, Int64, Any, [];
    240 U64MUL = Some(240), 1, 2, COMP, "QQQ", 0, Int64, Any, [];
    241 U64SHL = Some(241), 1, 2, COMP, "QQQ", 0, Int64, Any, [];
    242 I64SHR = Some(242), 1, 2, COMP, "LLL", 0, Int64, Any, [];
    243 U64SHR = Some(243), 1, 2, COMP, "QQQ", 0, Int64, Any, [];
    244 I64DIV = Some(244), 1, 2, COMP, "LLL", 0, Int64, Any, [];
    245 U64DIV = Some(245), 1, 2, COMP, "QQQ", 0, Int64, Any, [];
    246 I64MOD = Some(246), 1, 2, COMP, "LLL", 0, Int64, Any, [];
    247 U64MOD = Some(247), 1, 2, COMP, "QQQ", 0, Int64, Any, [];
    248 DDIV = Some(248), 1, 2, COMP, "DDD", 0, Double, Any, [];
    249 LOD = Some(249), 1, 3, OTHR, "FFFF", IMPLICIT_DERIVATIVES, ResourceSampling, Any, [];
    250 ATOMINC_WRAP = Some(250), 1, 3, OTHR, "FFWF", STORE, Atomic, Any, [];
    251 ATOMDEC_WRAP = Some(251), 1, 3, OTHR, "FFWF", STORE, Atomic, Any, [];
    252 ABS = None, 1, 1, COMP, "FF", LEGACY, Legacy, Any, [];
    253 ARA = None, 1, 1, COMP, "II", LEGACY, Legacy, Any, [];
    254 BGNFOR = None, 1, 1, COMP, "FF", LEGACY | INDENT, Legacy, Any, [];
    255 BRA = None, 0, 0, NONE, "N", LEGACY | BRANCH, Legacy, Any, [];
    256 BREAKC = None, 0, 1, NONE, "NW", LEGACY, Legacy, Any, [];
    257 CALLNZ = None, 0, 1, NONE, "NF", LEGACY | BRANCH, Legacy, Any, [];
    258 CLAMP = None, 1, 3, COMP, "FFFF", LEGACY, Legacy, Any, [];
    259 CND = None, 1, 3, COMP, "FFFF", LEGACY, Legacy, Any, [];
    260 DP2A = None, 1, 3, REPL, "FFFF", LEGACY, Legacy, Any, [];
    261 DPH = None, 1, 2, REPL, "FFF", LEGACY, Legacy, Any, [];
    262 ENDFOR = None, 1, 0, NONE, "F", LEGACY | DEDENT, Legacy, Any, [];
    263 ENDREP = None, 0, 0, NONE, "N", LEGACY | DEDENT, Legacy, Any, [];
    264 IFC = None, 0, 2, NONE, "NFF", LEGACY | INDENT, Legacy, Any, [];
    265 LFENCE = None, 1, 0, OTHR, "F", LEGACY, Legacy, Compute, [];
    266 MFENCE = None, 1, 0, OTHR, "F", LEGACY, Legacy, Compute, [];
    267 NRM = None, 1, 1, CHAN, "FF", LEGACY, Legacy, Any, [];
    268 NRM4 = None, 1, 1, REPL, "FF", LEGACY, Legacy, Any, [];
    269 POPA = None, 1, 0, NONE, "I", LEGACY, Legacy, Any, [];
    270 PUSHA = None, 0, 1, NONE, "NI", LEGACY, Legacy, Any, [];
    271 RCC = None, 1, 1, REPL, "FF", LEGACY, Legacy, Any, [];
    272 REP = None, 0, 1, NONE, "NF", LEGACY | INDENT, Legacy, Any, [];
    273 RFL = None, 1, 2, CHAN, "FFF", LEGACY, Legacy, Any, [];
    274 SAD = None, 1, 3, COMP, "WWWW", LEGACY, Legacy, Any, [];
    275 SCS = None, 1, 1, CHAN, "FF", LEGACY, Legacy, Any, [];
    276 SFENCE = None, 1, 0, OTHR, "F", LEGACY, Legacy, Compute, [];
    277 SFL = None, 1, 2, REPL, "FFF", LEGACY, Legacy, Any, [];
    278 SHR = None, 1, 2, COMP, "IIW", LEGACY, Legacy, Any, [];
    279 STR = None, 1, 2, REPL, "FFF", LEGACY, Legacy, Any, [];
    280 SUB = None, 1, 2, COMP, "FFF", LEGACY, Legacy, Any, [];
    281 X2D = None, 1, 3, CHAN, "FFFF", LEGACY, Legacy, Any, [];
    282 XPD = None, 1, 2, CHAN, "FFF", LEGACY, Legacy, Any, [];
    283 TXQ_LZ = None, 1, 1, OTHR, "II", LEGACY | TEX, Legacy, Any, [];
}

/// Number of slots in Mesa 22.3's numbering (`TGSI_OPCODE_LAST`).
pub const MESA_OPCODE_COUNT: usize = 252;

impl Opcode {
    /// The table entry.
    pub fn info(self) -> &'static OpcodeInfo {
        &OPCODES[self.0 as usize]
    }

    /// Upper-case mnemonic.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The destination channels the opcode writes, ANDed with the destination's write mask:
    /// LODQ writes only x and y (as softpipe); every other opcode all four.
    pub fn written_channels(self) -> u8 {
        if self == Opcode::LODQ {
            0b0011
        } else {
            0b1111
        }
    }

    /// Index into [`OPCODES`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The opcode with this Mesa 22.3 token number.
    pub fn from_number(n: u32) -> Option<Opcode> {
        if (n as usize) < MESA_OPCODE_COUNT {
            Some(Opcode(n as u16))
        } else {
            None
        }
    }

    /// Every opcode in table order.
    pub fn all() -> impl Iterator<Item = Opcode> {
        (0..OPCODES.len() as u16).map(Opcode)
    }

    /// Case-insensitive lookup of a mnemonic or an accepted older spelling.
    pub fn from_name(name: &str) -> Option<Opcode> {
        static BY_NAME: OnceLock<HashMap<&'static str, Opcode>> = OnceLock::new();
        let map = BY_NAME.get_or_init(|| {
            let mut map = HashMap::new();
            for op in Opcode::all() {
                map.insert(op.info().name, op);
                for alias in op.info().aliases {
                    map.insert(*alias, op);
                }
            }
            map
        });
        if name.bytes().any(|b| b.is_ascii_lowercase()) {
            map.get(name.to_ascii_uppercase().as_str()).copied()
        } else {
            map.get(name).copied()
        }
    }
}

impl std::fmt::Display for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_opcodes_sit_at_their_number() {
        for (i, info) in OPCODES.iter().enumerate() {
            match info.number {
                Some(n) => assert_eq!(n as usize, i, "{}", info.name),
                None => assert!(i >= MESA_OPCODE_COUNT && info.has(LEGACY), "{}", info.name),
            }
        }
        assert_eq!(OPCODES.len(), MESA_OPCODE_COUNT + 32);
    }

    #[test]
    fn names_are_unique_and_found() {
        let mut seen = std::collections::HashSet::new();
        for op in Opcode::all() {
            assert!(seen.insert(op.name()), "duplicate {}", op.name());
            assert_eq!(Opcode::from_name(&op.name().to_lowercase()), Some(op));
        }
        assert_eq!(Opcode::from_name("kilp"), Some(Opcode::KILL));
        assert_eq!(Opcode::from_name("FRAC"), Some(Opcode::FRC));
    }

    #[test]
    fn operand_types_follow_the_table() {
        let lde = Opcode::LDEXP.info();
        assert_eq!(lde.src_type(0), OperandType::F32);
        assert_eq!(lde.src_type(1), OperandType::I32);
        let fe = Opcode::DFRACEXP.info();
        assert_eq!(
            (fe.dst_type(0), fe.dst_type(1)),
            (OperandType::F64, OperandType::I32)
        );
        assert_eq!(Opcode::STORE.info().src_type(0), OperandType::U32);
        assert!(Opcode::TEX.info().has(TEX));
        assert!(Opcode::SAMPLE.info().has(SVIEW_OFFSETS));
    }
}
