//! A typed API to construct shaders in code, mostly for tests: declare registers, get
//! [`Reg`] handles back, emit instructions, and let the builder fill in branch labels the
//! way Mesa's producers do (IF → matching ELSE or ENDIF, ELSE → ENDIF, BGNLOOP ↔ ENDLOOP,
//! CAL → BGNSUB). [`Builder::finish`] runs the validator.
//!
//! Built statements carry the position where [`crate::print`] puts them (their line,
//! column 1), so diagnostics point into the printed text.
//!
//! ```
//! use tgsi::builder::Builder;
//! use tgsi::{Interpolate, Processor, Semantic};
//!
//! let mut b = Builder::new(Processor::Fragment);
//! let color = b.decl_input(0, Semantic::Color, 0, Some(Interpolate::Color));
//! let out = b.decl_output(0, Semantic::Color, 0);
//! let half = b.imm_f32([0.5, 0.0, 0.0, 0.0]);
//! b.mul(out, color, half.x());
//! b.end();
//! let shader = b.finish().unwrap();
//! assert_eq!(
//!     tgsi::print(&shader),
//!     "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n\
//!      IMM[0] FLT32 {    0.5000,     0.0000,     0.0000,     0.0000}\n\
//!      \x20 0: MUL OUT[0], IN[0], IMM[0].xxxx\n  1: END\n"
//! );
//! ```

use crate::enums::{
    File, ImmType, InterpLocation, Interpolate, Processor, PropertyName, ReturnType, Semantic,
    TextureTarget,
};
use crate::ir::{
    Declaration, Dimension, Dst, Immediate, Indirect, Instruction, InterpDecl, ItemKind,
    MemoryInfo, Property, Register, ResourceDecl, SemanticDecl, Shader, Span, Src, Swizzle,
    TextureInfo, WriteMask,
};
use crate::limits::Limits;
use crate::opcode::{self, Opcode};
use crate::validate::{self, Diagnostic};

/// A register handle: usable as a source (swizzle and modifiers apply) or as a destination
/// (the write mask applies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    reg: Register,
    swizzle: Swizzle,
    absolute: bool,
    negate: bool,
    mask: WriteMask,
}

/// Channel number of a swizzle or mask letter (`xyzw` or `rgba`).
fn channel(letter: char) -> Option<u8> {
    match letter.to_ascii_lowercase() {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

impl Reg {
    /// A handle on `FILE[index]` with identity swizzle and full mask.
    pub const fn new(file: File, index: i32) -> Reg {
        Reg {
            reg: Register::new(file, index),
            swizzle: Swizzle::IDENTITY,
            absolute: false,
            negate: false,
            mask: WriteMask::XYZW,
        }
    }

    /// The register part.
    pub const fn register(self) -> Register {
        self.reg
    }

    /// The same register with another index (`CONST[0][3]` from `CONST[0][0]`).
    pub const fn at(mut self, index: i32) -> Reg {
        self.reg.index = index;
        self
    }

    /// `.xxxx`.
    pub const fn x(self) -> Reg {
        self.splat(0)
    }

    /// `.yyyy`.
    pub const fn y(self) -> Reg {
        self.splat(1)
    }

    /// `.zzzz`.
    pub const fn z(self) -> Reg {
        self.splat(2)
    }

    /// `.wwww`.
    pub const fn w(self) -> Reg {
        self.splat(3)
    }

    /// `.xyzw` (identity).
    pub const fn xyzw(mut self) -> Reg {
        self.swizzle = Swizzle::IDENTITY;
        self
    }

    const fn splat(mut self, c: u8) -> Reg {
        self.swizzle = Swizzle::splat(c);
        self
    }

    /// A swizzle of one to four letters from `xyzw` (or `rgba`); shorter swizzles repeat
    /// their last letter (`"xy"` = `.xyyy`).
    ///
    /// # Panics
    /// On an empty string, more than four letters, or another letter: a programming error.
    pub fn swizzle(mut self, letters: &str) -> Reg {
        let chans: Vec<u8> = letters
            .chars()
            .map(|c| channel(c).unwrap_or_else(|| panic!("bad swizzle letter {c:?}")))
            .collect();
        assert!(
            (1..=4).contains(&chans.len()),
            "swizzle {letters:?} must have 1 to 4 letters"
        );
        for i in 0..4 {
            self.swizzle.0[i] = chans[i.min(chans.len() - 1)];
        }
        self
    }

    /// Negated source (`-x`); applied after [`Reg::abs`].
    pub const fn neg(mut self) -> Reg {
        self.negate = !self.negate;
        self
    }

    /// Absolute-value source (`|x|`).
    pub const fn abs(mut self) -> Reg {
        self.absolute = true;
        self
    }

    /// A destination write mask from letters of `xyzw` (or `rgba`), in any order.
    ///
    /// # Panics
    /// On an empty mask or another letter: a programming error.
    pub fn mask(mut self, letters: &str) -> Reg {
        let mut bits = 0u8;
        for c in letters.chars() {
            bits |= 1 << channel(c).unwrap_or_else(|| panic!("bad write-mask letter {c:?}"));
        }
        assert!(bits != 0, "empty write mask");
        self.mask = WriteMask(bits);
        self
    }

    /// Indirect addressing: `FILE[addr.c + index]`, restricted to `array_id` (0: none).
    pub const fn indirect(mut self, addr: Reg, component: u8, array_id: u16) -> Reg {
        self.reg.indirect = Some(Indirect {
            file: addr.reg.file,
            index: addr.reg.index,
            component,
            array_id,
        });
        self
    }

    /// The register as a destination.
    pub const fn dst(self) -> Dst {
        Dst {
            reg: self.reg,
            write_mask: self.mask,
        }
    }

    /// The register as a source.
    pub const fn src(self) -> Src {
        Src {
            reg: self.reg,
            swizzle: self.swizzle,
            absolute: self.absolute,
            negate: self.negate,
        }
    }
}

/// A subroutine to be called with [`Builder::cal`] and defined with [`Builder::bgnsub`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subroutine(usize);

/// What [`Builder::finish`] returns when the validator finds errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    /// Every diagnostic (errors and warnings).
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let errors: Vec<String> = self
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("[{}] {}", d.code.name(), d.message))
            .collect();
        write!(f, "invalid shader: {}", errors.join("; "))
    }
}

impl std::error::Error for BuildError {}

/// An open block whose label is filled in when it closes.
#[derive(Clone, Copy, Debug)]
enum Open {
    /// IF/UIF at this index, and its ELSE once seen.
    If(usize, Option<usize>),
    /// BGNLOOP at this index.
    Loop(usize),
}

/// Builds a [`Shader`] statement by statement.
#[derive(Clone, Debug)]
pub struct Builder {
    shader: Shader,
    open: Vec<Open>,
    /// Instruction index of each subroutine's BGNSUB, once defined.
    subs: Vec<Option<usize>>,
    /// CAL instructions and the subroutine they call.
    calls: Vec<(usize, Subroutine)>,
    next_temp: u32,
    next_array: u16,
}

impl Builder {
    /// An empty shader for `processor`.
    pub fn new(processor: Processor) -> Builder {
        Builder {
            shader: Shader::new(processor),
            open: Vec::new(),
            subs: Vec::new(),
            calls: Vec::new(),
            next_temp: 0,
            next_array: 0,
        }
    }

    /// `PROPERTY name value`.
    pub fn property(&mut self, name: PropertyName, value: u32) -> &mut Builder {
        self.shader.properties.push(Property {
            name,
            value,
            span: self.next_span(),
        });
        self.shader.order.push(ItemKind::Property);
        self
    }

    /// Adds a declaration and returns a handle on its first register.
    pub fn declare(&mut self, mut decl: Declaration) -> Reg {
        let mut reg = Reg::new(decl.file, decl.first as i32);
        if let Some(d) = decl.dimension {
            reg.reg.dimension = Some(Dimension {
                index: d as i32,
                indirect: None,
            });
        }
        decl.span = self.next_span();
        self.shader.declarations.push(decl);
        self.shader.order.push(ItemKind::Declaration);
        reg
    }

    /// `DCL IN[index], semantic[semantic_index][, interp]` (interpolation for fragment
    /// shaders).
    pub fn decl_input(
        &mut self,
        index: u32,
        semantic: Semantic,
        semantic_index: u32,
        interp: Option<Interpolate>,
    ) -> Reg {
        let mut decl = Declaration::new(File::Input, index, index);
        decl.semantic = Some(SemanticDecl {
            name: semantic,
            index: semantic_index,
            streams: [0; 4],
        });
        decl.interp = interp.map(|mode| InterpDecl {
            mode,
            location: InterpLocation::Center,
        });
        self.declare(decl)
    }

    /// `DCL IN[index]` of a vertex shader (no semantic).
    pub fn decl_vertex_input(&mut self, index: u32) -> Reg {
        self.declare(Declaration::new(File::Input, index, index))
    }

    /// `DCL OUT[index], semantic[semantic_index]`.
    pub fn decl_output(&mut self, index: u32, semantic: Semantic, semantic_index: u32) -> Reg {
        let mut decl = Declaration::new(File::Output, index, index);
        decl.semantic = Some(SemanticDecl {
            name: semantic,
            index: semantic_index,
            streams: [0; 4],
        });
        self.declare(decl)
    }

    /// `DCL SV[index], semantic`.
    pub fn decl_system_value(&mut self, index: u32, semantic: Semantic) -> Reg {
        let mut decl = Declaration::new(File::SystemValue, index, index);
        decl.semantic = Some(SemanticDecl {
            name: semantic,
            index: 0,
            streams: [0; 4],
        });
        self.declare(decl)
    }

    /// `DCL TEMP[a..b]` for `n` new temporaries (one declaration); empty for `n == 0`.
    pub fn decl_temps(&mut self, n: u32) -> Vec<Reg> {
        if n == 0 {
            return Vec::new();
        }
        let first = self.next_temp;
        let last = first.saturating_add(n - 1);
        self.next_temp = last.saturating_add(1);
        let base = self.declare(Declaration::new(File::Temporary, first, last));
        (first..=last).map(|i| base.at(i as i32)).collect()
    }

    /// `DCL TEMP[i]` for one new temporary.
    pub fn temp(&mut self) -> Reg {
        let first = self.next_temp;
        self.next_temp = first.saturating_add(1);
        self.declare(Declaration::new(File::Temporary, first, first))
    }

    /// `DCL TEMP[a..b], ARRAY(id)` for an array of `n` (at least 1) new temporaries; the
    /// handle is its first register, to be indexed with [`Reg::indirect`] and the returned
    /// ArrayID.
    pub fn decl_temp_array(&mut self, n: u32) -> (Reg, u16) {
        let first = self.next_temp;
        let last = first.saturating_add(n.max(1) - 1);
        self.next_temp = last.saturating_add(1);
        self.next_array = self.next_array.saturating_add(1);
        let mut decl = Declaration::new(File::Temporary, first, last);
        decl.array_id = Some(self.next_array);
        (self.declare(decl), self.next_array)
    }

    /// `DCL ADDR[index]`.
    pub fn decl_address(&mut self, index: u32) -> Reg {
        self.declare(Declaration::new(File::Address, index, index))
    }

    /// `DCL CONST[first..last]` (1-D, buffer 0); one handle per register.
    pub fn decl_const(&mut self, range: std::ops::RangeInclusive<u32>) -> Vec<Reg> {
        let (first, last) = (*range.start(), *range.end());
        let base = self.declare(Declaration::new(File::Constant, first, last));
        range.map(|i| base.at(i as i32)).collect()
    }

    /// `DCL CONST[buffer][first..last]` (2-D, as Mesa's nir_to_tgsi declares them).
    pub fn decl_const_buffer(
        &mut self,
        buffer: u32,
        range: std::ops::RangeInclusive<u32>,
    ) -> Vec<Reg> {
        let (first, last) = (*range.start(), *range.end());
        let mut decl = Declaration::new(File::Constant, first, last);
        decl.dimension = Some(buffer);
        let base = self.declare(decl);
        range.map(|i| base.at(i as i32)).collect()
    }

    /// `DCL SAMP[index]`.
    pub fn decl_sampler(&mut self, index: u32) -> Reg {
        self.declare(Declaration::new(File::Sampler, index, index))
    }

    /// `DCL SVIEW[index], target, return_type`.
    pub fn decl_sampler_view(
        &mut self,
        index: u32,
        target: TextureTarget,
        return_type: ReturnType,
    ) -> Reg {
        let mut decl = Declaration::new(File::SamplerView, index, index);
        decl.resource = Some(ResourceDecl::SamplerView {
            target,
            return_types: [return_type; 4],
        });
        self.declare(decl)
    }

    fn immediate(&mut self, ty: ImmType, words: [u32; 4]) -> Reg {
        let index = self.shader.immediates.len() as i32;
        self.shader.immediates.push(Immediate {
            ty,
            words,
            span: self.next_span(),
        });
        self.shader.order.push(ItemKind::Immediate);
        Reg::new(File::Immediate, index)
    }

    /// `IMM[n] FLT32 {…}`.
    pub fn imm_f32(&mut self, values: [f32; 4]) -> Reg {
        self.immediate(ImmType::Float32, values.map(f32::to_bits))
    }

    /// `IMM[n] UINT32 {…}`.
    pub fn imm_u32(&mut self, values: [u32; 4]) -> Reg {
        self.immediate(ImmType::Uint32, values)
    }

    /// `IMM[n] INT32 {…}`.
    pub fn imm_i32(&mut self, values: [i32; 4]) -> Reg {
        self.immediate(ImmType::Int32, values.map(|v| v as u32))
    }

    /// Appends an instruction, with the texture or memory token its opcode carries (as the
    /// text parser would); returns its index.
    pub fn emit(&mut self, opcode: Opcode, dst: &[Reg], src: &[Reg]) -> usize {
        let info = opcode.info();
        let mut inst = Instruction::new(opcode);
        inst.dst = dst.iter().map(|r| r.dst()).collect();
        inst.src = src.iter().map(|r| r.src()).collect();
        if info.has(opcode::TEX) || info.has(opcode::SVIEW_OFFSETS) {
            inst.texture = Some(Box::new(TextureInfo::unknown()));
        }
        if info.has(opcode::MEM) {
            inst.memory = Some(MemoryInfo::NONE);
        }
        self.push(inst)
    }

    /// Appends a prepared instruction; returns its index.
    pub fn push(&mut self, mut inst: Instruction) -> usize {
        inst.span = self.next_span();
        self.shader.instructions.push(inst);
        self.shader.order.push(ItemKind::Instruction);
        self.shader.instructions.len() - 1
    }

    /// The instruction at `index`, for adjustments (saturate, offsets, qualifiers…).
    pub fn instruction_mut(&mut self, index: usize) -> Option<&mut Instruction> {
        self.shader.instructions.get_mut(index)
    }

    /// A texture instruction with its target (TEX, TXB, TXL, TXF, TXQ…).
    pub fn emit_tex(
        &mut self,
        opcode: Opcode,
        dst: Reg,
        src: &[Reg],
        target: TextureTarget,
    ) -> usize {
        let at = self.emit(opcode, &[dst], src);
        if let Some(tex) = &mut self.shader.instructions[at].texture {
            tex.target = target;
        }
        at
    }

    /// `MOV dst, a`.
    pub fn mov(&mut self, dst: Reg, a: Reg) -> usize {
        self.emit(Opcode::MOV, &[dst], &[a])
    }

    /// `ADD dst, a, b`.
    pub fn add(&mut self, dst: Reg, a: Reg, b: Reg) -> usize {
        self.emit(Opcode::ADD, &[dst], &[a, b])
    }

    /// `MUL dst, a, b`.
    pub fn mul(&mut self, dst: Reg, a: Reg, b: Reg) -> usize {
        self.emit(Opcode::MUL, &[dst], &[a, b])
    }

    /// `MAD dst, a, b, c`.
    pub fn mad(&mut self, dst: Reg, a: Reg, b: Reg, c: Reg) -> usize {
        self.emit(Opcode::MAD, &[dst], &[a, b, c])
    }

    /// `TEX dst, coord, sampler, target`.
    pub fn tex(&mut self, dst: Reg, coord: Reg, sampler: Reg, target: TextureTarget) -> usize {
        self.emit_tex(Opcode::TEX, dst, &[coord, sampler], target)
    }

    /// `KILL_IF a`.
    pub fn kill_if(&mut self, a: Reg) -> usize {
        self.emit(Opcode::KILL_IF, &[], &[a])
    }

    /// `IF cond` (float test); its label is filled in by the matching ELSE or ENDIF.
    pub fn if_(&mut self, cond: Reg) -> usize {
        let at = self.emit(Opcode::IF, &[], &[cond]);
        self.open.push(Open::If(at, None));
        at
    }

    /// `UIF cond` (integer test).
    pub fn uif(&mut self, cond: Reg) -> usize {
        let at = self.emit(Opcode::UIF, &[], &[cond]);
        self.open.push(Open::If(at, None));
        at
    }

    /// `ELSE` of the innermost open IF: the IF's label becomes this index.
    pub fn else_(&mut self) -> usize {
        let at = self.emit(Opcode::ELSE, &[], &[]);
        if let Some(Open::If(if_at, else_at @ None)) = self.open.last_mut() {
            *else_at = Some(at);
            let if_at = *if_at;
            self.set_label(if_at, at);
        }
        at
    }

    /// `ENDIF`: the IF's (or its ELSE's) label becomes this index.
    pub fn endif(&mut self) -> usize {
        let at = self.emit(Opcode::ENDIF, &[], &[]);
        if let Some(Open::If(if_at, else_at)) = self.open.last().copied() {
            self.open.pop();
            self.set_label(else_at.unwrap_or(if_at), at);
        }
        at
    }

    /// `BGNLOOP`; labelled with its ENDLOOP once that is emitted.
    pub fn bgnloop(&mut self) -> usize {
        let at = self.emit(Opcode::BGNLOOP, &[], &[]);
        self.open.push(Open::Loop(at));
        at
    }

    /// `ENDLOOP`, labelled with its BGNLOOP (and the BGNLOOP with it).
    pub fn endloop(&mut self) -> usize {
        let at = self.emit(Opcode::ENDLOOP, &[], &[]);
        if let Some(Open::Loop(begin)) = self.open.last().copied() {
            self.open.pop();
            self.set_label(begin, at);
            self.set_label(at, begin);
        }
        at
    }

    /// `BRK`.
    pub fn brk(&mut self) -> usize {
        self.emit(Opcode::BRK, &[], &[])
    }

    /// `CONT`.
    pub fn cont(&mut self) -> usize {
        self.emit(Opcode::CONT, &[], &[])
    }

    /// A new subroutine, to be called with [`Builder::cal`] and defined later with
    /// [`Builder::bgnsub`].
    pub fn new_sub(&mut self) -> Subroutine {
        self.subs.push(None);
        Subroutine(self.subs.len() - 1)
    }

    /// `CAL :n`, labelled with the subroutine's BGNSUB when the shader is finished.
    pub fn cal(&mut self, sub: Subroutine) -> usize {
        let at = self.emit(Opcode::CAL, &[], &[]);
        self.calls.push((at, sub));
        at
    }

    /// `BGNSUB` starting the body of `sub`.
    pub fn bgnsub(&mut self, sub: Subroutine) -> usize {
        let at = self.emit(Opcode::BGNSUB, &[], &[]);
        if let Some(slot) = self.subs.get_mut(sub.0) {
            *slot = Some(at);
        }
        at
    }

    /// `ENDSUB`.
    pub fn endsub(&mut self) -> usize {
        self.emit(Opcode::ENDSUB, &[], &[])
    }

    /// `RET`.
    pub fn ret(&mut self) -> usize {
        self.emit(Opcode::RET, &[], &[])
    }

    /// `END`.
    pub fn end(&mut self) -> usize {
        self.emit(Opcode::END, &[], &[])
    }

    /// Where the next statement will be in `tgsi::print`'s output: its line, column 1.
    fn next_span(&self) -> Span {
        let line = self.shader.order.len().saturating_add(2);
        Span::new(u32::try_from(line).unwrap_or(u32::MAX), 1)
    }

    fn set_label(&mut self, at: usize, target: usize) {
        if let Some(inst) = self.shader.instructions.get_mut(at) {
            inst.label = u32::try_from(target).ok();
        }
    }

    /// The shader as built, with call labels resolved, without validation.
    pub fn finish_unchecked(mut self) -> Shader {
        for (at, sub) in std::mem::take(&mut self.calls) {
            if let Some(&Some(target)) = self.subs.get(sub.0) {
                self.set_label(at, target);
            }
        }
        self.shader
    }

    /// The shader, if the validator finds no error (warnings are allowed).
    pub fn finish(self) -> Result<Shader, BuildError> {
        let shader = self.finish_unchecked();
        let diagnostics = validate::validate(&shader, &Limits::DEFAULT);
        if validate::has_errors(&diagnostics) {
            Err(BuildError { diagnostics })
        } else {
            Ok(shader)
        }
    }
}
