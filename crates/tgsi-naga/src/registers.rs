//! Register storage. Every TGSI register is four untyped 32-bit words, so each becomes a
//! function-local `vec4<u32>` (module-level `Private` variables when the shader calls
//! subroutines, which share the registers); an instruction bit-casts the channels it reads to
//! the type its opcode works on. A file that is ever addressed indirectly is one
//! `array<vec4<u32>, N>` instead, indexed by the address register. Immediates are literals,
//! constants come from uniform buffers (see [`crate::resources`]).

use std::collections::HashMap;

use naga::{
    AddressSpace, Expression, GlobalVariable, Handle, LocalVariable, ScalarKind, Span, TypeInner,
    VectorSize,
};
use tgsi::enums::File;
use tgsi::ir::{Dst, Indirect, Register, Src};
use tgsi::opcode::OperandType;

use crate::error::{Error, Result};
use crate::translate::Translator;

/// The files that live in function-local variables.
const LOCAL_FILES: [File; 5] = [
    File::Temporary,
    File::Output,
    File::Address,
    File::Input,
    File::SystemValue,
];

/// A register variable.
#[derive(Clone, Copy)]
enum Var {
    /// In the entry point.
    Local(Handle<LocalVariable>),
    /// At module level, shared with subroutines.
    Private(Handle<GlobalVariable>),
}

impl Var {
    fn expression(self) -> Expression {
        match self {
            Var::Local(h) => Expression::LocalVariable(h),
            Var::Private(h) => Expression::GlobalVariable(h),
        }
    }
}

/// Where the registers of one file are kept.
enum FileStorage {
    /// One variable per declared register.
    Separate(HashMap<u32, Var>),
    /// One array covering registers `0..len`.
    Array { var: Var, len: u32 },
}

/// The variables behind the register files of one function.
#[derive(Default)]
pub(crate) struct Registers {
    files: HashMap<File, FileStorage>,
}

/// The lower-case name used for a file's variables.
fn var_prefix(file: File) -> &'static str {
    match file {
        File::Temporary => "temp",
        File::Output => "out",
        File::Address => "addr",
        File::Input => "in",
        _ => "sv",
    }
}

/// Whether an operand's register (or the register holding its address) is `file` and
/// indirectly addressed.
fn indirect_in(reg: &Register, file: File) -> bool {
    reg.file == file && reg.indirect.is_some()
}

impl Translator<'_> {
    /// Creates the variables for every declared TEMP, OUT, ADDR, IN and SV register.
    pub(crate) fn declare_registers(&mut self) -> Result<()> {
        let vec4u = self.vec4(naga::Scalar::U32);
        for file in LOCAL_FILES {
            let mut indices: Vec<u32> = Vec::new();
            if self.in_stage_buffers(file) {
                // Read from (and written to) the stage's buffers where they are used.
                continue;
            }
            for d in self.shader.declarations.iter().filter(|d| d.file == file) {
                if d.dimension.is_some() {
                    return Err(Error::new(
                        d.span,
                        format!("DCL {file}"),
                        "two-dimensional (per-vertex) registers belong to geometry and \
                         tessellation stages, which are not translated yet",
                    ));
                }
                indices.extend(d.first..=d.last);
            }
            if indices.is_empty() {
                continue;
            }
            let indirect = self.shader.instructions.iter().any(|i| {
                i.src.iter().any(|s| indirect_in(&s.reg, file))
                    || i.dst.iter().any(|d| indirect_in(&d.reg, file))
            });
            let storage = if indirect {
                let len = indices.iter().max().map_or(1, |m| m + 1);
                let ty = self.array_of(vec4u, len);
                let var = self.register_var(var_prefix(file).to_string(), ty);
                FileStorage::Array { var, len }
            } else {
                let mut vars = HashMap::new();
                for i in indices {
                    if let std::collections::hash_map::Entry::Vacant(slot) = vars.entry(i) {
                        slot.insert(self.register_var(format!("{}{i}", var_prefix(file)), vec4u));
                    }
                }
                FileStorage::Separate(vars)
            };
            self.registers.files.insert(file, storage);
        }
        Ok(())
    }

    /// Whether the registers of `file` live in the buffers of a stage run as a compute
    /// shader: the `IN` registers of geometry and tessellation shaders (per-vertex inputs),
    /// the `OUT` registers of tessellation control shaders (shared by the invocations).
    fn in_stage_buffers(&self, file: File) -> bool {
        use tgsi::Processor::{Geometry, TessCtrl, TessEval};
        let processor = self.shader.processor;
        match file {
            File::Input => {
                (self.options.geometry_as_compute && processor == Geometry)
                    || (self.options.tessellation_as_compute
                        && matches!(processor, TessCtrl | TessEval))
                    || (self.for_glsl_stage && matches!(processor, Geometry | TessCtrl | TessEval))
            }
            File::Output => {
                (self.options.tessellation_as_compute || self.for_glsl_stage)
                    && processor == TessCtrl
            }
            _ => false,
        }
    }

    /// A register variable: local, or private when subroutines share the registers.
    fn register_var(&mut self, name: String, ty: Handle<naga::Type>) -> Var {
        if self.subroutines {
            Var::Private(self.module.global_variables.append(
                GlobalVariable {
                    name: Some(name),
                    space: AddressSpace::Private,
                    binding: None,
                    ty,
                    init: None,
                    memory_decorations: naga::MemoryDecorations::empty(),
                },
                Span::UNDEFINED,
            ))
        } else {
            Var::Local(self.body.function.local_variables.append(
                LocalVariable {
                    name: Some(name),
                    ty,
                    init: None,
                },
                Span::UNDEFINED,
            ))
        }
    }

    /// A pointer to the `vec4<u32>` behind a TEMP/OUT/ADDR/IN/SV register (a control
    /// shader's `OUT[v][i]` in its output buffer, [`Translator::shared_output`]).
    pub(crate) fn register_pointer(&mut self, reg: &Register) -> Result<Handle<Expression>> {
        if reg.file == File::Output && self.in_stage_buffers(File::Output) {
            return Ok(self.shared_output(reg)?.0);
        }
        let not_declared = |t: &Self| {
            Error::new(
                t.span,
                t.item(),
                format!("{}[{}] is not declared", reg.file, reg.index),
            )
        };
        if reg.dimension.is_some() {
            return Err(Error::new(
                self.span,
                self.item(),
                format!(
                    "two-dimensional {} registers are not translated yet",
                    reg.file
                ),
            ));
        }
        let index = match reg.indirect {
            Some(ind) => Some(self.address(&ind, reg.index)?),
            None => None,
        };
        match self.registers.files.get(&reg.file) {
            Some(FileStorage::Separate(vars)) => {
                let var = u32::try_from(reg.index)
                    .ok()
                    .and_then(|i| vars.get(&i).copied())
                    .ok_or_else(|| not_declared(self))?;
                Ok(self.body.expr(var.expression()))
            }
            Some(&FileStorage::Array { var, len }) => {
                let base = self.body.expr(var.expression());
                match index {
                    Some(i) => Ok(self.body.access(base, i)),
                    None => match u32::try_from(reg.index) {
                        Ok(i) if i < len => Ok(self.body.index(base, i)),
                        _ => Err(not_declared(self)),
                    },
                }
            }
            None => Err(not_declared(self)),
        }
    }

    /// The register index `ADDR[i].c + offset`, as `u32` (a negative index wraps to a large
    /// one, which is out of range either way).
    pub(crate) fn address(&mut self, ind: &Indirect, offset: i32) -> Result<Handle<Expression>> {
        let reg = Register::new(ind.file, ind.index);
        let word = self.load_register(&reg)?;
        let value = self.body.index(word, u32::from(ind.component));
        if offset == 0 {
            return Ok(value);
        }
        let offset = self.body.u32(offset as u32);
        Ok(self.body.binary(naga::BinaryOperator::Add, value, offset))
    }

    /// The `vec4<u32>` value of a register, loaded once per instruction.
    pub(crate) fn load_register(&mut self, reg: &Register) -> Result<Handle<Expression>> {
        if let Some(&h) = self.loaded.get(reg) {
            return Ok(h);
        }
        let value = match reg.file {
            File::Constant => self.load_constant(reg)?,
            File::Input if self.in_stage_buffers(File::Input) => {
                let Some(pv) = self.per_vertex_inputs.clone() else {
                    return Err(self.unsupported("internal: inputs read before their buffer"));
                };
                self.load_per_vertex_input(&pv, reg)?
            }
            File::Output if self.in_stage_buffers(File::Output) => self.load_shared_output(reg)?,
            File::Immediate => {
                let words = self.immediate(reg)?;
                let ty = self.vec4(naga::Scalar::U32);
                let components = words.iter().map(|&w| self.body.u32(w)).collect();
                self.body.expr(Expression::Compose { ty, components })
            }
            _ => {
                let pointer = self.register_pointer(reg)?;
                self.body.load(pointer)
            }
        };
        self.loaded.insert(*reg, value);
        Ok(value)
    }

    /// The words of an immediate operand.
    fn immediate(&self, reg: &Register) -> Result<[u32; 4]> {
        if reg.indirect.is_some() {
            return Err(Error::new(
                self.span,
                self.item(),
                "indirectly addressed immediates are not translated yet",
            ));
        }
        usize::try_from(reg.index)
            .ok()
            .and_then(|i| self.shader.immediates.get(i))
            .map(|imm| imm.words)
            .ok_or_else(|| {
                Error::new(
                    self.span,
                    self.item(),
                    format!("IMM[{}] does not exist", reg.index),
                )
            })
    }

    /// The raw 32-bit word of channel `chan` (after swizzling) of a source, as `u32`.
    pub(crate) fn fetch_word(&mut self, src: &Src, chan: usize) -> Result<Handle<Expression>> {
        let c = src.swizzle.0[chan];
        if src.reg.file == File::Immediate {
            let words = self.immediate(&src.reg)?;
            return Ok(self.body.u32(words[usize::from(c)]));
        }
        let v = self.load_register(&src.reg)?;
        Ok(self.body.index(v, u32::from(c)))
    }

    /// Channel `chan` of a 32-bit source as the operand type `ty`, with `|x|` and `-x`
    /// applied as TGSI defines them for that type (sign-bit operations for floats, so no
    /// NaN is ever changed; two's-complement for integers).
    pub(crate) fn fetch(
        &mut self,
        src: &Src,
        chan: usize,
        ty: OperandType,
    ) -> Result<Handle<Expression>> {
        if src.reg.file == File::Immediate {
            return self.fetch_immediate(src, chan, ty);
        }
        let word = self.fetch_word(src, chan)?;
        if ty.is_float_like() {
            let bits = self.float_modifiers(src, word);
            return Ok(if ty == OperandType::Untyped {
                bits
            } else {
                self.body.bitcast(bits, ScalarKind::Float)
            });
        }
        if !src.absolute && !src.negate {
            return Ok(if ty == OperandType::I32 {
                self.body.bitcast(word, ScalarKind::Sint)
            } else {
                word
            });
        }
        let mut v = self.body.bitcast(word, ScalarKind::Sint);
        if src.absolute {
            v = self.body.math(naga::MathFunction::Abs, &[v]);
        }
        if src.negate {
            v = self.body.unary(naga::UnaryOperator::Negate, v);
        }
        Ok(if ty == OperandType::I32 {
            v
        } else {
            self.body.bitcast(v, ScalarKind::Uint)
        })
    }

    /// `src`'s float modifiers applied to the `u32` bits `word`: `|x|` clears the sign bit,
    /// then negation flips it (so no NaN is ever changed).
    pub(crate) fn float_modifiers(
        &mut self,
        src: &Src,
        word: Handle<Expression>,
    ) -> Handle<Expression> {
        let mut bits = word;
        if src.absolute {
            let m = self.body.u32(0x7fff_ffff);
            bits = self.body.binary(naga::BinaryOperator::And, bits, m);
        }
        if src.negate {
            let m = self.body.u32(0x8000_0000);
            bits = self.body.binary(naga::BinaryOperator::ExclusiveOr, bits, m);
        }
        bits
    }

    /// An immediate operand as a literal of the operand type, modifiers applied here.
    fn fetch_immediate(
        &mut self,
        src: &Src,
        chan: usize,
        ty: OperandType,
    ) -> Result<Handle<Expression>> {
        let word = self.immediate(&src.reg)?[usize::from(src.swizzle.0[chan])];
        Ok(match ty {
            OperandType::I32 | OperandType::U32 => {
                let mut v = word as i32;
                if src.absolute {
                    v = v.wrapping_abs();
                }
                if src.negate {
                    v = v.wrapping_neg();
                }
                if ty == OperandType::I32 {
                    self.body.i32(v)
                } else {
                    self.body.u32(v as u32)
                }
            }
            _ => {
                let mut bits = word;
                if src.absolute {
                    bits &= 0x7fff_ffff;
                }
                if src.negate {
                    bits ^= 0x8000_0000;
                }
                if ty == OperandType::Untyped {
                    self.body.u32(bits)
                } else {
                    self.body.f32(f32::from_bits(bits))
                }
            }
        })
    }

    /// Writes a 32-bit value (of any 32-bit scalar type) to channel `chan` of `dst`.
    pub(crate) fn write(
        &mut self,
        dst: &Dst,
        chan: usize,
        value: Handle<Expression>,
    ) -> Result<()> {
        let word = self.word_of(value)?;
        if dst.reg.file == File::Null {
            return Ok(());
        }
        let pointer = self.register_pointer(&dst.reg)?;
        let pointer = self.body.index(pointer, chan as u32);
        self.body.store(pointer, word);
        Ok(())
    }

    /// The `u32` bits of a 32-bit scalar value.
    pub(crate) fn word_of(&mut self, value: Handle<Expression>) -> Result<Handle<Expression>> {
        Ok(match self.scalar_of(value)?.kind {
            ScalarKind::Uint => value,
            _ => self.body.bitcast(value, ScalarKind::Uint),
        })
    }

    /// The scalar type of a scalar or vector expression.
    pub(crate) fn scalar_of(&mut self, value: Handle<Expression>) -> Result<naga::Scalar> {
        let inner = self.type_of(value)?;
        match inner {
            TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => Ok(s),
            _ => Err(Error::new(
                self.span,
                self.item(),
                "internal: operand is not a scalar",
            )),
        }
    }

    /// The type of an expression built so far.
    pub(crate) fn type_of(&mut self, value: Handle<Expression>) -> Result<TypeInner> {
        let function = &self.body.function;
        let ctx = naga::proc::ResolveContext::with_locals(
            &self.module,
            &function.local_variables,
            &function.arguments,
        );
        if let Err(e) = self.typifier.grow(value, &function.expressions, &ctx) {
            return Err(Error::new(self.span, self.item(), format!("internal: {e}")));
        }
        Ok(self.typifier.get(value, &self.module.types).clone())
    }

    /// A `vec4` of `scalar`.
    pub(crate) fn vec4(&mut self, scalar: naga::Scalar) -> Handle<naga::Type> {
        self.ty(TypeInner::Vector {
            size: VectorSize::Quad,
            scalar,
        })
    }
}
