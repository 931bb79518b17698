//! Lowering a [`tgsi::Shader`] into an executable [`Program`]: operands resolved to register
//! files and offsets, swizzles and modifiers pre-decoded with their operand types, execution
//! kinds chosen by [`crate::ops::kind`], and jump targets computed from the block structure
//! (labels in the text are only hints). Anything the machine cannot run is rejected here.

use crate::geometry::GeometryInfo;
use crate::ops::{self, Flow, Kind};
use crate::tessellation::TessInfo;
use crate::unblended::{interpreter_observes, unblended_writes};
use std::fmt;
use tgsi::opcode::{OperandType, StageRestriction};
use tgsi::{
    CoordOrigin, File, Format, PixelCenter, Processor, PropertyName, ResourceDecl, Semantic,
    Shader, Span, TextureTarget,
};

/// Deepest block nesting accepted inside one subroutine.
pub const MAX_NESTING: usize = 64;

/// Register files the machine reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// TEMP.
    Temp,
    /// IN.
    Input,
    /// OUT.
    Output,
    /// ADDR.
    Addr,
    /// SV.
    SystemValue,
    /// CONST (shared by all lanes).
    Const,
    /// IMM (shared by all lanes).
    Imm,
    /// NULL: writes are discarded.
    Null,
    /// BUFFER (a resource operand of the memory opcodes).
    Buffer,
    /// IMAGE (a resource operand).
    Image,
    /// MEMORY (a resource operand: the workgroup's shared memory, whatever the index).
    Memory,
    /// HWATOMIC (a resource operand of the atomic opcodes).
    HwAtomic,
    /// SVIEW (a resource operand).
    SamplerView,
    /// SAMP (a resource operand).
    Sampler,
}

impl RegFile {
    /// Whether the file names resources rather than registers.
    pub fn is_resource(self) -> bool {
        matches!(
            self,
            RegFile::Buffer
                | RegFile::Image
                | RegFile::Memory
                | RegFile::HwAtomic
                | RegFile::SamplerView
                | RegFile::Sampler
        )
    }

    /// Index into the machine's per-lane register files (TEMP, IN, OUT, ADDR, SV; see
    /// [`crate::Machine::register_files_mut`]), `None` for shared, null and resource files.
    pub fn lane_file(self) -> Option<usize> {
        match self {
            RegFile::Temp => Some(0),
            RegFile::Input => Some(1),
            RegFile::Output => Some(2),
            RegFile::Addr => Some(3),
            RegFile::SystemValue => Some(4),
            _ => None,
        }
    }
}

/// Number of per-lane register files.
pub const LANE_FILES: usize = 5;

/// An indirect index: `FILE[index].comp` added to the literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Indirect {
    /// File of the address register (sources always read ADDR, like softpipe).
    pub file: RegFile,
    /// Register index.
    pub index: u32,
    /// Channel.
    pub comp: u8,
}

/// A resolved source operand.
#[derive(Clone, Copy, Debug)]
pub struct SrcOp {
    /// File.
    pub file: RegFile,
    /// Register index (offset when indirect).
    pub index: i32,
    /// Indirect index.
    pub indirect: Option<Indirect>,
    /// Constant-buffer number (offset when indirect).
    pub dim: i32,
    /// Indirect constant-buffer number.
    pub dim_indirect: Option<Indirect>,
    /// Channel read for each result channel.
    pub swizzle: [u8; 4],
    /// `|x|`.
    pub abs: bool,
    /// `-x`.
    pub neg: bool,
    /// Operand type from the opcode table (decides integer vs float negation).
    pub ty: OperandType,
    /// How the interpreter reads it.
    pub(crate) read: Read,
    /// The register channels the interpreter's component-wise and vector instructions read
    /// (bit c: channel c before swizzling; see [`SrcOp::swizzle_reads`]).
    pub(crate) reads: u8,
}

/// How the interpreter reads a source, decided when compiling: the directly addressed
/// operands get a fast path ([`crate::Machine`]'s `operand`), the others go through its
/// `fetch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Read {
    /// Register `index` of vertex `vertex` of the per-lane file `file` (see
    /// [`RegFile::lane_file`]; only the input and output files of the patch and
    /// primitive stages have more than one vertex).
    Lane {
        /// The per-lane file.
        file: usize,
        /// The vertex (the 2-D index).
        vertex: usize,
        /// The register.
        index: usize,
    },
    /// `CONST[buffer][index]`.
    Const {
        /// The constant buffer.
        buffer: usize,
        /// The constant.
        index: usize,
    },
    /// An immediate: its words with the modifiers applied.
    Imm([u32; 4]),
    /// Everything else.
    Fetch,
}

impl SrcOp {
    /// Whether the register or its outer index is addressed indirectly.
    pub fn is_indirect(&self) -> bool {
        self.indirect.is_some() || self.dim_indirect.is_some()
    }

    /// The register channels read for the result channels in `mask`.
    pub(crate) fn swizzle_reads(&self, mask: u8) -> u8 {
        (0..4)
            .filter(|c| mask & (1 << c) != 0)
            .fold(0, |m, c| m | 1 << (self.swizzle[c] & 3))
    }

    /// `self` with its [`Read`] decided; `imms` are the program's immediates.
    fn with_read(mut self, imms: &[[u32; 4]]) -> SrcOp {
        let index = usize::try_from(self.index)
            .ok()
            .filter(|_| !self.is_indirect());
        let dim = usize::try_from(self.dim).ok();
        self.read = match (self.file.lane_file(), self.file, index, dim) {
            (Some(file), _, Some(index), Some(vertex)) => Read::Lane {
                file,
                vertex,
                index,
            },
            (None, RegFile::Const, Some(index), Some(buffer)) => Read::Const { buffer, index },
            (None, RegFile::Imm, Some(index), _) => match imms.get(index) {
                Some(v) => Read::Imm(v.map(|x| self.modify(x))),
                None => Read::Fetch,
            },
            _ => Read::Fetch,
        };
        self
    }
}

/// A resolved destination operand.
#[derive(Clone, Copy, Debug)]
pub struct DstOp {
    /// File (TEMP, OUT, ADDR or NULL).
    pub file: RegFile,
    /// Register index (offset when indirect).
    pub index: i32,
    /// Indirect index (value taken from the first lane of each quad).
    pub indirect: Option<Indirect>,
    /// Vertex index of a tessellation-control output (`OUT[v][i]`); 0 when 1-D.
    pub dim: i32,
    /// Indirect vertex index (value taken from each lane).
    pub dim_indirect: Option<Indirect>,
    /// Write mask, bit c = channel c.
    pub mask: u8,
    /// Operand type from the opcode table.
    pub ty: OperandType,
    /// The per-lane file (see [`RegFile::lane_file`]) and register a directly addressed
    /// destination writes, decided when compiling for the machine's common write path.
    pub(crate) direct: Option<(usize, usize)>,
}

impl DstOp {
    /// Whether the register or its outer index is addressed indirectly.
    pub fn is_indirect(&self) -> bool {
        self.indirect.is_some() || self.dim_indirect.is_some()
    }
}

/// A `SAMP[i]` or `SVIEW[i]` operand of a texture instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SlotOp {
    /// Slot (offset when indirect).
    pub index: i32,
    /// Indirect slot, read from the first lane of each quad.
    pub indirect: Option<Indirect>,
    /// The operand's swizzle (the SAMPLE family swizzles its results with the view's).
    pub swizzle: [u8; 4],
}

/// What a texture instruction needs besides its value sources.
#[derive(Clone, Debug)]
pub struct TexOp {
    /// The instruction's texture target, or for the SAMPLE family the target declared for
    /// its sampler view.
    pub target: tgsi::TextureTarget,
    /// `SAMP[i]`.
    pub sampler: Option<SlotOp>,
    /// `SVIEW[i]`.
    pub view: Option<SlotOp>,
    /// Texel offsets (x, y, z of the register, read as integers from the first lane of
    /// each quad).
    pub offsets: Option<SrcOp>,
}

/// How an IMAGE operand is accessed: the memory token's target and format, or the
/// declaration's where the token names neither (see [`Program::compile`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageAccess {
    /// Target (decides which address channels are coordinates).
    pub target: TextureTarget,
    /// Format (`NONE`: the bound view's).
    pub format: Format,
    /// Declared `RAW`: words in memory order at byte address `x`.
    pub raw: bool,
}

/// One executable instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    /// The opcode (for messages and operand types).
    pub opcode: tgsi::Opcode,
    /// How to execute it.
    pub kind: Kind,
    /// `_SAT`.
    pub saturate: bool,
    /// Destinations.
    pub dst: Vec<DstOp>,
    /// Sources.
    pub src: Vec<SrcOp>,
    /// Jump target: IF/UIF → its ELSE or ENDIF, ELSE → ENDIF, a loop start
    /// (BGNLOOP, BGNFOR, REP) → its end, a loop end → its start, CAL/CALLNZ → BGNSUB,
    /// BRA → the labelled instruction.
    pub target: usize,
    /// BRK/BREAKC: whether the innermost breakable block is a SWITCH.
    pub in_switch: bool,
    /// IF/UIF: its block is only a BRK out of a loop (`IF c; BRK; ENDIF`, the exit test of
    /// most loops), which the interpreter runs as one step (`Machine::break_if`).
    pub breaks: bool,
    /// Texture instructions: sampler, view, target and offsets (`src` then holds only the
    /// value sources, in operand order).
    pub tex: Option<Box<TexOp>>,
    /// The IMAGE access of a memory opcode whose resource is an image.
    pub image: Option<ImageAccess>,
    /// The channels of destination 0 (a directly addressed temporary) that the
    /// interpreter writes in every lane, whatever the execution mask: no lane inactive at
    /// the write reads the old value later ([`crate::unblended`]).
    pub unblended: u8,
    /// Where it was written.
    pub span: Span,
}

impl Inst {
    /// The temporaries it addresses through a register (sources, texel offsets and
    /// destinations): each such operand's offset, and whether it is written.
    pub fn indirect_temps(&self) -> impl Iterator<Item = (i32, bool)> + '_ {
        let offsets = self.tex.as_ref().and_then(|t| t.offsets.as_ref());
        let reads = self.src.iter().chain(offsets);
        let reads = reads.filter(|s| s.file == RegFile::Temp && s.is_indirect());
        let writes = self.dst.iter();
        let writes = writes.filter(|d| d.file == RegFile::Temp && d.is_indirect());
        reads
            .map(|s| (s.index, false))
            .chain(writes.map(|d| (d.index, true)))
    }

    /// The destination channels pair `p` (0: x and y, 1: z and w) of a 64-bit instruction
    /// (`Kind::Wide`) writes, and the channel of a 32-bit result: a 64-bit result fills
    /// the enabled channels of the pair; a 32-bit one goes to channel p when the
    /// instruction has one source (`D2F`-like) and otherwise (comparisons) to the first
    /// enabled channel of the pair. Shared by every engine.
    pub fn wide_writes(&self, p: usize) -> (u8, Option<usize>) {
        let Some(dst) = self.dst.first() else {
            return (0, None);
        };
        // `dst.ty` is the opcode table's type of destination 0.
        if dst.ty.is_64bit() {
            (dst.mask & (3 << (2 * p)), None)
        } else if self.src.len() == 1 {
            (dst.mask & (1 << p), Some(p))
        } else {
            let c = if dst.mask & (1 << (2 * p)) != 0 {
                2 * p
            } else {
                2 * p + 1
            };
            (dst.mask & (1 << c), Some(c))
        }
    }
}

/// A fragment-shader input or output declaration the renderer needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoDecl {
    /// Register index.
    pub index: u32,
    /// Semantic name.
    pub semantic: Semantic,
    /// Semantic index.
    pub semantic_index: u32,
    /// Declared channels.
    pub usage_mask: u8,
}

/// A compiled shader, ready to run on a [`crate::Machine`].
#[derive(Clone, Debug)]
pub struct Program {
    /// Stage.
    pub processor: Processor,
    /// Instructions; index = the instruction number of the source shader.
    pub insts: Vec<Inst>,
    /// Immediates as words.
    pub imms: Vec<[u32; 4]>,
    /// Registers per lane file (TEMP, IN, OUT, ADDR, SV).
    pub(crate) sizes: [usize; LANE_FILES],
    /// The temporaries declared as arrays (`DCL TEMP[first..last], ARRAY(n)`), as
    /// `(first, last)`, in declaration order. Executors need not keep to them: an indirect
    /// index may reach any temporary of the file.
    pub temp_arrays: Vec<(u32, u32)>,
    /// Input declarations.
    pub inputs: Vec<IoDecl>,
    /// Output declarations.
    pub outputs: Vec<IoDecl>,
    /// Output registers declared without a semantic (`DCL OUT[1]`), which `outputs` omits;
    /// [`crate::run_vertices`] reports them too.
    pub plain_outputs: Vec<u32>,
    /// System-value declarations.
    pub system_values: Vec<IoDecl>,
    /// `FS_COORD_ORIGIN`.
    pub origin: CoordOrigin,
    /// `FS_COORD_PIXEL_CENTER`.
    pub pixel_center: PixelCenter,
    /// `FS_COLOR0_WRITES_ALL_CBUFS`.
    pub color0_writes_all: bool,
    /// `CS_FIXED_BLOCK_WIDTH`, `_HEIGHT`, `_DEPTH`.
    pub fixed_block: [Option<u32>; 3],
    /// Geometry shaders: primitives, limits and the registers a vertex records.
    pub geometry: Option<GeometryInfo>,
    /// Tessellation shaders: output vertices (TCS) or the tessellator's mode (TES).
    pub tessellation: Option<TessInfo>,
    /// Compute shaders: the last dispatch's proof of [`crate::wave_width`], kept for the
    /// next dispatch with the same inputs.
    pub(crate) proof: crate::wave_width::ProofMemo,
}

/// Why a shader cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// Instruction number, when the problem is in one.
    pub instruction: Option<usize>,
    /// Source position.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.span.is_text() {
            write!(f, "{}: ", self.span)?;
        }
        if let Some(i) = self.instruction {
            write!(f, "instruction {i}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for CompileError {}

/// An open block during structural matching.
#[derive(Clone, Copy, Debug)]
enum Open {
    If {
        at: usize,
        else_at: Option<usize>,
    },
    /// A loop started at `at` (BGNLOOP, BGNFOR or REP), closed by `end`.
    Loop {
        at: usize,
        end: Flow,
    },
    Switch,
    Sub,
}

impl Program {
    /// Lower `shader`, or explain what cannot be run.
    pub fn compile(shader: &Shader) -> Result<Program, CompileError> {
        Lowering::new(shader).run()
    }

    /// What the interpreter counts after the BRK at `brk` once no lane executes (every lane
    /// of its loop has left): the instructions up to and including the ENDLOOP of its loop,
    /// as it passes them — an IF or ELSE that no lane executes goes to its ELSE or ENDIF,
    /// an inner loop runs its body once and leaves. An engine may go to the loop's end at
    /// once and add this count. `None` when the BRK leaves a switch, or the way holds other
    /// control flow (switches, subroutines, legacy flow), a barrier or the end.
    pub fn dead_loop_tail(&self, brk: usize) -> Option<u64> {
        let at = self.insts.get(brk)?;
        if !matches!(at.kind, Kind::Flow(Flow::Brk)) || at.in_switch {
            return None;
        }
        let (mut pc, mut count, mut depth) = (brk + 1, 0u64, 0usize);
        loop {
            let inst = self.insts.get(pc)?;
            count += 1;
            let next = match inst.kind {
                Kind::Flow(Flow::EndLoop) if depth == 0 => return Some(count),
                Kind::Flow(Flow::EndLoop) => {
                    depth -= 1;
                    pc + 1
                }
                Kind::Flow(Flow::BgnLoop) => {
                    depth += 1;
                    pc + 1
                }
                Kind::Flow(Flow::If { .. } | Flow::Else) => inst.target,
                Kind::Flow(Flow::Brk) if inst.in_switch => return None,
                Kind::Flow(Flow::EndIf | Flow::Brk | Flow::BreakC | Flow::Cont) => pc + 1,
                Kind::Flow(_) | Kind::Sync => return None,
                _ => pc + 1,
            };
            if next <= pc {
                return None;
            }
            pc = next;
        }
    }

    /// Whether the instruction at `at` is an IF or UIF whose block is only a BRK that leaves
    /// a loop: `IF c; BRK; ENDIF`.
    fn is_break_if(&self, at: usize) -> bool {
        let kind = |pc: usize| self.insts.get(pc).map(|i| (i.kind, i.in_switch));
        matches!(kind(at), Some((Kind::Flow(Flow::If { .. }), _)))
            && self.insts[at].target == at + 2
            && matches!(kind(at + 1), Some((Kind::Flow(Flow::Brk), false)))
            && matches!(kind(at + 2), Some((Kind::Flow(Flow::EndIf), _)))
    }

    /// Vertices of one input primitive: how many copies of the input registers the machine
    /// holds (`IN[v][i]`); 1 except for geometry shaders.
    pub(crate) fn input_vertices(&self) -> usize {
        self.geometry
            .as_ref()
            .map_or(1, |g| g.input.vertices() as usize)
    }

    /// Registers per lane file (TEMP, IN, OUT, ADDR, SV) of the machine that runs it; the
    /// input file holds this many registers per input vertex.
    pub fn register_counts(&self) -> [usize; LANE_FILES] {
        self.sizes
    }

    /// The instruction budget error message helper: `"MOV (instruction 3)"`.
    pub fn describe(&self, pc: usize) -> String {
        match self.insts.get(pc) {
            Some(i) => format!("{} (instruction {pc})", i.opcode),
            None => format!("instruction {pc}"),
        }
    }
}

/// Lowering state.
struct Lowering<'a> {
    shader: &'a Shader,
    sizes: [usize; LANE_FILES],
    /// The immediates as words.
    imms: Vec<[u32; 4]>,
}

impl<'a> Lowering<'a> {
    fn new(shader: &'a Shader) -> Self {
        Lowering {
            shader,
            sizes: [0; LANE_FILES],
            imms: shader.immediates.iter().map(|i| i.words).collect(),
        }
    }

    fn err(&self, at: usize, message: impl Into<String>) -> CompileError {
        CompileError {
            instruction: Some(at),
            span: self.shader.instructions[at].span,
            message: message.into(),
        }
    }

    fn run(mut self) -> Result<Program, CompileError> {
        let sh = self.shader;
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        let mut system_values = Vec::new();
        let mut plain_outputs = Vec::new();
        let mut temp_arrays = Vec::new();
        for d in &sh.declarations {
            if d.file == File::Temporary && d.array_id.is_some() {
                temp_arrays.push((d.first, d.last));
            }
            let file = match d.file {
                File::Temporary => Some(RegFile::Temp),
                File::Input => Some(RegFile::Input),
                File::Output => Some(RegFile::Output),
                File::Address => Some(RegFile::Addr),
                File::SystemValue => Some(RegFile::SystemValue),
                _ => None,
            };
            let Some(lf) = file.and_then(RegFile::lane_file) else {
                continue;
            };
            if d.dimension.is_some() && file != Some(RegFile::Temp) {
                return Err(CompileError {
                    instruction: None,
                    span: d.span,
                    message: format!("2-D {} declarations are not supported", d.file),
                });
            }
            self.sizes[lf] = self.sizes[lf].max(d.last as usize + 1);
            let list = match file {
                Some(RegFile::Input) => &mut inputs,
                Some(RegFile::Output) => &mut outputs,
                Some(RegFile::SystemValue) => &mut system_values,
                _ => continue,
            };
            if let Some(sem) = d.semantic {
                for index in d.first..=d.last {
                    list.push(IoDecl {
                        index,
                        semantic: sem.name,
                        semantic_index: sem.index + (index - d.first),
                        usage_mask: d.usage_mask.0,
                    });
                }
            } else if file == Some(RegFile::Output) {
                plain_outputs.extend(d.first..=d.last);
            }
        }
        let kinds = sh
            .instructions
            .iter()
            .enumerate()
            .map(|(at, ins)| {
                ops::kind(ins.opcode).ok_or_else(|| {
                    let why = ops::unsupported_reason(ins.opcode);
                    self.err(at, format!("{} {why}", ins.opcode))
                })
            })
            .collect::<Result<Vec<Kind>, _>>()?;
        let geometry_stage = sh.processor == Processor::Geometry;
        for (at, ins) in sh.instructions.iter().enumerate() {
            if ins.opcode.info().stage == StageRestriction::Geometry && !geometry_stage {
                return Err(self.err(
                    at,
                    format!("{} is only valid in geometry shaders", ins.opcode),
                ));
            }
        }
        let links = self.structure(&kinds)?;
        let mut insts = Vec::with_capacity(sh.instructions.len());
        for (at, ins) in sh.instructions.iter().enumerate() {
            insts.push(self.lower(at, ins, kinds[at], links[at])?);
        }
        let mut declared: Vec<u32> = outputs
            .iter()
            .map(|d| d.index)
            .chain(plain_outputs.iter().copied())
            .collect();
        declared.sort_unstable();
        declared.dedup();
        let geometry = GeometryInfo::of(sh, &declared).map_err(|message| CompileError {
            instruction: None,
            span: sh.properties.first().map_or(Span::default(), |p| p.span),
            message,
        })?;
        let tessellation = TessInfo::of(sh).map_err(|message| CompileError {
            instruction: None,
            span: sh.properties.first().map_or(Span::default(), |p| p.span),
            message,
        })?;
        let prop = |name| sh.property(name).unwrap_or(0);
        let mut program = Program {
            processor: sh.processor,
            insts,
            imms: std::mem::take(&mut self.imms),
            sizes: self.sizes,
            temp_arrays,
            inputs,
            outputs,
            plain_outputs,
            system_values,
            origin: CoordOrigin::from_number(prop(PropertyName::FsCoordOrigin))
                .unwrap_or(CoordOrigin::UpperLeft),
            pixel_center: PixelCenter::from_number(prop(PropertyName::FsCoordPixelCenter))
                .unwrap_or(PixelCenter::HalfInteger),
            color0_writes_all: prop(PropertyName::FsColor0WritesAllCbufs) != 0,
            fixed_block: crate::compute::fixed_block(sh),
            geometry,
            tessellation,
            proof: Default::default(),
        };
        let unblended = unblended_writes(&program, interpreter_observes, false);
        for (inst, channels) in program.insts.iter_mut().zip(unblended.writes) {
            inst.unblended = channels;
        }
        for at in 0..program.insts.len() {
            program.insts[at].breaks = program.is_break_if(at);
        }
        Ok(program)
    }

    /// Match blocks; returns per instruction `(target, in_switch)`.
    ///
    /// Every instruction also gets a region: the arm of the innermost block it runs in (the
    /// opening instruction of a block belongs to the enclosing arm, ELSE and the closing
    /// instruction to the inner one). A BRA may only jump within its own region, so the
    /// mask stacks are the same at both ends of the jump.
    fn structure(&self, kinds: &[Kind]) -> Result<Vec<(usize, bool)>, CompileError> {
        let ins = &self.shader.instructions;
        let mut links = vec![(0usize, false); ins.len()];
        let mut stack: Vec<Open> = Vec::new();
        let mut regions = vec![0u32; ins.len()];
        let mut region_stack = vec![0u32];
        let mut next_region = 0u32;
        let mut new_region = || {
            next_region += 1;
            next_region
        };
        let mut branches = Vec::new();
        for (at, i) in ins.iter().enumerate() {
            regions[at] = region_stack.last().copied().unwrap_or(0);
            let Kind::Flow(flow) = kinds[at] else {
                continue;
            };
            match flow {
                Flow::If { .. }
                | Flow::BgnLoop
                | Flow::BgnFor
                | Flow::Rep
                | Flow::Switch
                | Flow::BgnSub => {
                    region_stack.push(new_region());
                }
                Flow::Else => {
                    region_stack.pop();
                    region_stack.push(new_region());
                }
                // An unmatched end is reported just below.
                Flow::EndIf
                | Flow::EndLoop
                | Flow::EndFor
                | Flow::EndRep
                | Flow::EndSwitch
                | Flow::EndSub => {
                    region_stack.pop();
                }
                _ => {}
            }
            match flow {
                Flow::If { .. } => stack.push(Open::If { at, else_at: None }),
                Flow::Else => match stack.last_mut() {
                    Some(Open::If { else_at, .. }) if else_at.is_none() => *else_at = Some(at),
                    _ => return Err(self.err(at, "ELSE without a matching IF")),
                },
                Flow::EndIf => match stack.pop() {
                    Some(Open::If { at: if_at, else_at }) => {
                        links[if_at].0 = else_at.unwrap_or(at);
                        if let Some(e) = else_at {
                            links[e].0 = at;
                        }
                    }
                    _ => return Err(self.err(at, "ENDIF without a matching IF")),
                },
                Flow::BgnLoop => stack.push(Open::Loop {
                    at,
                    end: Flow::EndLoop,
                }),
                Flow::BgnFor => stack.push(Open::Loop {
                    at,
                    end: Flow::EndFor,
                }),
                Flow::Rep => stack.push(Open::Loop {
                    at,
                    end: Flow::EndRep,
                }),
                Flow::EndLoop | Flow::EndFor | Flow::EndRep => match stack.pop() {
                    Some(Open::Loop { at: begin, end }) if end == flow => {
                        links[begin].0 = at;
                        links[at].0 = begin;
                    }
                    _ => {
                        let begin = match flow {
                            Flow::EndFor => "BGNFOR",
                            Flow::EndRep => "REP",
                            _ => "BGNLOOP",
                        };
                        return Err(
                            self.err(at, format!("{} without a matching {begin}", i.opcode))
                        );
                    }
                },
                Flow::Brk | Flow::BreakC => {
                    let inner = stack
                        .iter()
                        .rev()
                        .take_while(|o| !matches!(o, Open::Sub))
                        .find(|o| matches!(o, Open::Loop { .. } | Open::Switch));
                    match inner {
                        Some(o) => links[at].1 = matches!(o, Open::Switch),
                        None => return Err(self.err(at, "BRK outside a loop or switch")),
                    }
                }
                Flow::Cont => {
                    let inside = stack
                        .iter()
                        .rev()
                        .take_while(|o| !matches!(o, Open::Sub))
                        .any(|o| matches!(o, Open::Loop { .. }));
                    if !inside {
                        return Err(self.err(at, "CONT outside a loop"));
                    }
                }
                Flow::Switch => stack.push(Open::Switch),
                Flow::Case | Flow::Default => {
                    if !matches!(stack.last(), Some(Open::Switch)) {
                        return Err(self.err(at, "CASE or DEFAULT outside a SWITCH"));
                    }
                }
                Flow::EndSwitch => {
                    if !matches!(stack.pop(), Some(Open::Switch)) {
                        return Err(self.err(at, "ENDSWITCH without a matching SWITCH"));
                    }
                }
                Flow::BgnSub => {
                    if !stack.is_empty() {
                        return Err(self.err(at, "BGNSUB inside another block"));
                    }
                    stack.push(Open::Sub);
                }
                Flow::EndSub => {
                    if !matches!(stack.pop(), Some(Open::Sub)) {
                        return Err(self.err(at, "ENDSUB without a matching BGNSUB"));
                    }
                }
                Flow::Cal | Flow::CallNz => links[at].0 = self.call_target(at, i.label)?,
                Flow::Bra => branches.push(at),
                Flow::Ret | Flow::End => {}
            }
            if stack.len() > MAX_NESTING {
                return Err(self.err(at, format!("blocks nested deeper than {MAX_NESTING}")));
            }
        }
        if let Some(open) = stack.last() {
            let at = match *open {
                Open::If { at, .. } | Open::Loop { at, .. } => at,
                _ => ins.len().saturating_sub(1),
            };
            return Err(self.err(at, format!("unterminated block ({open:?})")));
        }
        for at in branches {
            let target = ins[at].label.map(|l| l as usize);
            match target {
                Some(t) if t < ins.len() && regions[t] == regions[at] => links[at].0 = t,
                Some(t) if t < ins.len() => {
                    return Err(self.err(
                        at,
                        format!("BRA target {t} is not in the same block as the BRA"),
                    ))
                }
                Some(t) => return Err(self.err(at, format!("BRA target {t} is past the end"))),
                None => return Err(self.err(at, "BRA without a label")),
            }
        }
        Ok(links)
    }

    /// The BGNSUB a CAL label designates (the BGNSUB itself or the instruction after it).
    fn call_target(&self, at: usize, label: Option<u32>) -> Result<usize, CompileError> {
        let ins = &self.shader.instructions;
        let is_sub = |i: usize| ins.get(i).is_some_and(|x| x.opcode == tgsi::Opcode::BGNSUB);
        match label.map(|l| l as usize) {
            Some(l) if is_sub(l) => Ok(l),
            Some(l) if l > 0 && is_sub(l - 1) => Ok(l - 1),
            Some(l) => Err(self.err(at, format!("CAL target {l} is not a BGNSUB"))),
            None => Err(self.err(at, "CAL without a label")),
        }
    }

    fn lower(
        &mut self,
        at: usize,
        ins: &tgsi::Instruction,
        kind: Kind,
        (target, in_switch): (usize, bool),
    ) -> Result<Inst, CompileError> {
        let info = ins.opcode.info();
        if ins.dst.len() != info.num_dst as usize || ins.src.len() != info.num_src as usize {
            return Err(self.err(
                at,
                format!(
                    "{} takes {} destination(s) and {} source(s)",
                    ins.opcode, info.num_dst, info.num_src
                ),
            ));
        }
        let mut src = Vec::with_capacity(ins.src.len());
        let mut tex = matches!(kind, Kind::Texture).then(|| TexOp {
            target: ins
                .texture
                .as_ref()
                .map_or(tgsi::TextureTarget::Unknown, |t| t.target),
            sampler: None,
            view: None,
            offsets: None,
        });
        for (k, s) in ins.src.iter().enumerate() {
            match (&mut tex, s.reg.file) {
                (Some(t), File::Sampler) => t.sampler = Some(self.slot(at, s)?),
                (Some(t), File::SamplerView) => {
                    let view = self.slot(at, s)?;
                    if let Some(d) = self.sview_target(view.index) {
                        t.target = d;
                    }
                    t.view = Some(view);
                }
                _ => src.push(self.lower_src(at, s, info.src_type(k))?),
            }
        }
        if let (Some(t), Some(o)) = (
            &mut tex,
            ins.texture.as_ref().and_then(|t| t.offsets.first()),
        ) {
            let reg = tgsi::Src {
                reg: tgsi::Register::new(o.file, o.index),
                swizzle: tgsi::Swizzle([o.swizzle[0], o.swizzle[1], o.swizzle[2], o.swizzle[2]]),
                absolute: false,
                negate: false,
            };
            t.offsets = Some(self.lower_src(at, &reg, OperandType::I32)?);
        }
        let mut dst = Vec::with_capacity(ins.dst.len());
        for (k, d) in ins.dst.iter().enumerate() {
            let resource = matches!(kind, Kind::Store) && k == 0;
            dst.push(self.lower_dst(at, d, info.dst_type(k), resource)?);
        }
        let image = self.check_resources(at, ins, kind, &src, &dst)?;
        let dst_mask = dst.first().map_or(0, |d| d.mask);
        for (k, s) in src.iter_mut().enumerate() {
            s.reads = match kind {
                Kind::Component(_) => s.swizzle_reads(dst_mask),
                Kind::Vector(op) => s.swizzle_reads(op.reads.get(k).copied().unwrap_or(0)),
                _ => 0xf,
            };
        }
        if matches!(kind, Kind::Flow(Flow::BgnFor | Flow::EndFor)) {
            // The loop register is read back as well as written.
            let d = dst[0];
            if d.indirect.is_some() || d.file == RegFile::Null {
                return Err(self.err(at, "the loop register must be addressed directly"));
            }
            if matches!(kind, Kind::Flow(Flow::EndFor)) {
                src.push(
                    SrcOp {
                        file: d.file,
                        index: d.index,
                        indirect: None,
                        dim: 0,
                        dim_indirect: None,
                        swizzle: [0, 1, 2, 3],
                        abs: false,
                        neg: false,
                        ty: OperandType::F32,
                        read: Read::Fetch,
                        reads: 0xf,
                    }
                    .with_read(&self.imms),
                );
            }
        }
        Ok(Inst {
            opcode: ins.opcode,
            kind,
            saturate: ins.saturate,
            dst,
            src,
            target,
            in_switch,
            breaks: false,
            tex: tex.map(Box::new),
            image,
            unblended: 0,
            span: ins.span,
        })
    }

    /// A `SAMP[i]` / `SVIEW[i]` operand.
    fn slot(&mut self, at: usize, s: &tgsi::Src) -> Result<SlotOp, CompileError> {
        let indirect = self.indirect(at, &s.reg.indirect, true)?;
        if let Some(a) = indirect {
            self.touch(at, RegFile::Addr, a.index as i32, true)?;
        } else if s.reg.index < 0 {
            return Err(self.err(at, format!("negative {} index", s.reg.file)));
        }
        Ok(SlotOp {
            index: s.reg.index,
            indirect,
            swizzle: s.swizzle.0.map(|c| c & 3),
        })
    }

    /// The target declared for `SVIEW[index]`.
    fn sview_target(&self, index: i32) -> Option<tgsi::TextureTarget> {
        let index = u32::try_from(index).ok()?;
        self.shader
            .declarations
            .iter()
            .find_map(|d| match d.resource {
                Some(tgsi::ResourceDecl::SamplerView { target, .. })
                    if d.file == File::SamplerView && (d.first..=d.last).contains(&index) =>
                {
                    Some(target)
                }
                _ => None,
            })
    }

    /// Check that resource files appear exactly where the opcode takes its resource, and
    /// resolve an IMAGE access: the memory token's target and format; where the token names
    /// neither (no target, format NONE) the declaration's; a format still NONE means the
    /// bound view's.
    fn check_resources(
        &self,
        at: usize,
        ins: &tgsi::Instruction,
        kind: Kind,
        src: &[SrcOp],
        dst: &[DstOp],
    ) -> Result<Option<ImageAccess>, CompileError> {
        use RegFile::*;
        let (resource, allowed): (Option<RegFile>, &[RegFile]) = match kind {
            Kind::Load => (
                src.first().map(|s| s.file),
                &[Buffer, Image, Memory, Const, HwAtomic],
            ),
            Kind::Store => (dst.first().map(|d| d.file), &[Buffer, Image, Memory]),
            Kind::Atomic(_) => (
                src.first().map(|s| s.file),
                &[Buffer, Image, Memory, HwAtomic],
            ),
            Kind::Resq => (src.first().map(|s| s.file), &[Buffer, Image, Memory]),
            Kind::Handle if ins.opcode == tgsi::Opcode::IMG2HND => {
                (src.first().map(|s| s.file), &[Image])
            }
            Kind::Handle => (src.first().map(|s| s.file), &[Sampler]),
            _ => (None, &[]),
        };
        if let Some(file) = resource {
            if !allowed.contains(&file) {
                let names: Vec<String> = allowed.iter().map(|f| format!("{f:?}")).collect();
                return Err(self.err(
                    at,
                    format!(
                        "{} takes a {} resource, not {file:?}",
                        ins.opcode,
                        names.join(" or ")
                    ),
                ));
            }
        }
        let skip_src = usize::from(resource.is_some() && !matches!(kind, Kind::Store));
        let skip_dst = usize::from(matches!(kind, Kind::Store));
        let stray = src
            .iter()
            .skip(skip_src)
            .map(|s| s.file)
            .chain(dst.iter().skip(skip_dst).map(|d| d.file))
            .find(|f| f.is_resource());
        if let Some(f) = stray {
            return Err(self.err(
                at,
                format!("{f:?} is not an operand {} can read or write", ins.opcode),
            ));
        }
        if resource != Some(Image) {
            return Ok(None);
        }
        let index = if matches!(kind, Kind::Store) {
            dst.first().map(|d| d.index)
        } else {
            src.first().map(|s| s.index)
        };
        let decl = self
            .shader
            .declarations
            .iter()
            .find_map(|d| match d.resource {
                Some(ResourceDecl::Image {
                    target,
                    format,
                    raw,
                    ..
                }) if d.file == File::Image
                    && index.is_some_and(|i| i >= 0 && d.contains(0, i as u32)) =>
                {
                    Some((target, format, raw))
                }
                _ => None,
            });
        let (decl_target, decl_format, raw) =
            decl.unwrap_or((TextureTarget::Buffer, Format::NONE, false));
        let token = ins.memory.unwrap_or(tgsi::MemoryInfo::NONE);
        let unnamed = token.target == TextureTarget::Buffer && token.format == Format::NONE;
        let target = if unnamed { decl_target } else { token.target };
        let format = if token.format == Format::NONE {
            decl_format
        } else {
            token.format
        };
        Ok(Some(ImageAccess {
            target,
            format,
            raw,
        }))
    }

    fn indirect(
        &self,
        at: usize,
        ind: &Option<tgsi::Indirect>,
        src: bool,
    ) -> Result<Option<Indirect>, CompileError> {
        let Some(i) = ind else { return Ok(None) };
        let file = if src {
            RegFile::Addr
        } else {
            self.file(at, i.file)?
        };
        if i.index < 0 || i.component > 3 {
            return Err(self.err(at, "bad address register"));
        }
        Ok(Some(Indirect {
            file,
            index: i.index as u32,
            comp: i.component,
        }))
    }

    fn file(&self, at: usize, file: File) -> Result<RegFile, CompileError> {
        Ok(match file {
            File::Temporary => RegFile::Temp,
            File::Input => RegFile::Input,
            File::Output => RegFile::Output,
            File::Address => RegFile::Addr,
            File::SystemValue => RegFile::SystemValue,
            File::Constant => RegFile::Const,
            File::Immediate => RegFile::Imm,
            File::Null => RegFile::Null,
            File::Buffer => RegFile::Buffer,
            File::Image => RegFile::Image,
            File::Memory => RegFile::Memory,
            File::HwAtomic => RegFile::HwAtomic,
            File::SamplerView => RegFile::SamplerView,
            File::Sampler => RegFile::Sampler,
            other => return Err(self.err(at, format!("register file {other} is not supported"))),
        })
    }

    /// Record a directly addressed register so the file is sized to hold it.
    fn touch(
        &mut self,
        at: usize,
        file: RegFile,
        index: i32,
        direct: bool,
    ) -> Result<(), CompileError> {
        if direct && index < 0 {
            return Err(self.err(at, format!("negative register index {index}")));
        }
        if let (Some(lf), true) = (file.lane_file(), direct) {
            let need = index as usize + 1;
            if need > tgsi::Limits::DEFAULT.max_register_index as usize + 1 {
                return Err(self.err(at, format!("register index {index} too large")));
            }
            self.sizes[lf] = self.sizes[lf].max(need);
        }
        if file == RegFile::Imm && direct && index as usize >= self.shader.immediates.len() {
            return Err(self.err(at, format!("IMM[{index}] is not defined")));
        }
        Ok(())
    }

    fn lower_src(
        &mut self,
        at: usize,
        s: &tgsi::Src,
        ty: OperandType,
    ) -> Result<SrcOp, CompileError> {
        let file = self.file(at, s.reg.file)?;
        if file == RegFile::Null {
            return Err(self.err(at, "NULL is not a source"));
        }
        let indirect = self.indirect(at, &s.reg.indirect, true)?;
        if let Some(a) = indirect {
            self.touch(at, RegFile::Addr, a.index as i32, true)?;
        }
        self.touch(at, file, s.reg.index, indirect.is_none())?;
        let per_vertex = self.per_vertex(file);
        let (dim, dim_indirect) = match &s.reg.dimension {
            None => (0, None),
            Some(_) if !(per_vertex || matches!(file, RegFile::Const | RegFile::HwAtomic)) => {
                return Err(self.err(
                    at,
                    "2-D operands are only supported for CONST, HWATOMIC, geometry and \
                     tessellation inputs and tessellation-control outputs",
                ))
            }
            Some(d) if per_vertex && d.indirect.is_none() && d.index < 0 => {
                return Err(self.err(at, format!("negative vertex index {}", d.index)))
            }
            Some(d) => {
                let di = self.indirect(at, &d.indirect, true)?;
                if let Some(a) = di {
                    self.touch(at, RegFile::Addr, a.index as i32, true)?;
                }
                (d.index, di)
            }
        };
        if s.swizzle.0.iter().any(|&c| c > 3) {
            return Err(self.err(at, "bad swizzle"));
        }
        // A 1-D `HWATOMIC[b]` is counter 0 of slot b: keep the slot as the outer index.
        let (index, indirect, dim, dim_indirect) =
            if file == RegFile::HwAtomic && s.reg.dimension.is_none() {
                (0, None, s.reg.index, indirect)
            } else {
                (s.reg.index, indirect, dim, dim_indirect)
            };
        Ok(SrcOp {
            file,
            index,
            indirect,
            dim,
            dim_indirect,
            swizzle: s.swizzle.0,
            abs: s.absolute,
            neg: s.negate,
            ty,
            read: Read::Fetch,
            reads: 0xf,
        }
        .with_read(&self.imms))
    }

    fn lower_dst(
        &mut self,
        at: usize,
        d: &tgsi::Dst,
        ty: OperandType,
        resource: bool,
    ) -> Result<DstOp, CompileError> {
        let file = self.file(at, d.reg.file)?;
        let writable = matches!(
            file,
            RegFile::Temp | RegFile::Output | RegFile::Addr | RegFile::Null
        );
        if !(writable || resource && file.is_resource()) {
            return Err(self.err(at, format!("{} is not writable", d.reg.file)));
        }
        let indirect = self.indirect(at, &d.reg.indirect, false)?;
        if let Some(a) = indirect {
            self.touch(at, a.file, a.index as i32, true)?;
            if a.file.lane_file().is_none() {
                return Err(self.err(
                    at,
                    "indirect destination addresses must be per-lane registers",
                ));
            }
        }
        self.touch(at, file, d.reg.index, indirect.is_none())?;
        let (dim, dim_indirect) = match &d.reg.dimension {
            None => (0, None),
            Some(_) if !(file == RegFile::Output && self.per_vertex(file)) => {
                return Err(self.err(
                    at,
                    "2-D destinations are only supported for tessellation-control outputs",
                ))
            }
            Some(v) if v.indirect.is_none() && v.index < 0 => {
                return Err(self.err(at, format!("negative vertex index {}", v.index)))
            }
            Some(v) => {
                let di = self.indirect(at, &v.indirect, true)?;
                if let Some(a) = di {
                    self.touch(at, RegFile::Addr, a.index as i32, true)?;
                }
                (v.index, di)
            }
        };
        let direct = file
            .lane_file()
            .filter(|_| indirect.is_none() && dim_indirect.is_none())
            .zip(usize::try_from(d.reg.index).ok());
        Ok(DstOp {
            file,
            index: d.reg.index,
            indirect,
            dim,
            dim_indirect,
            mask: d.write_mask.0 & 0xf,
            ty,
            direct,
        })
    }

    /// Whether `file` holds a register per vertex (`IN[v][i]`, `OUT[v][i]`) in this stage.
    fn per_vertex(&self, file: RegFile) -> bool {
        match self.shader.processor {
            Processor::Geometry | Processor::TessEval => file == RegFile::Input,
            Processor::TessCtrl => matches!(file, RegFile::Input | RegFile::Output),
            _ => false,
        }
    }
}
