//! Buffers, images and synchronisation: LOAD/STORE on BUFFER and shared MEMORY (byte
//! addresses, one `u32` word per channel) and IMAGE (typed texels), the atomics on buffers
//! and shared memory, BARRIER and MEMBAR.

use naga::{
    AtomicFunction, Barrier, BinaryOperator as B, Expression, Handle, ImageClass, ImageDimension,
    Scalar, ScalarKind, Statement,
};
use tgsi::enums::File;
use tgsi::ir::{Instruction, Src};
use tgsi::opcode::{Opcode, OperandType};

use crate::error::Result;
use crate::resources::{format_kind, ImageVar};
use crate::translate::Translator;

type H = Handle<Expression>;

/// `TGSI_MEMBAR_*` bits.
const MEMBAR_SHADER_BUFFER: u32 = 1 << 0;
const MEMBAR_ATOMIC_BUFFER: u32 = 1 << 1;
const MEMBAR_SHADER_IMAGE: u32 = 1 << 2;
const MEMBAR_SHARED: u32 = 1 << 3;
const MEMBAR_THREAD_GROUP: u32 = 1 << 4;

impl Translator<'_> {
    /// BARRIER (an execution barrier for the workgroup) and MEMBAR (memory ordering for the
    /// kinds of memory its immediate names).
    pub(crate) fn barrier(&mut self, inst: &Instruction) -> Result<()> {
        if inst.opcode == Opcode::BARRIER {
            if let Some(barrier) = self.glsl_stage_barrier {
                // A GLSL control shader's barrier, written in `main` (crate::tess_glsl).
                self.call_empty(barrier);
                return Ok(());
            }
            // A control shader's invocations share their outputs through a storage buffer.
            let barrier = if self.shared_outputs.is_some() {
                Barrier::WORK_GROUP | Barrier::STORAGE
            } else {
                Barrier::WORK_GROUP
            };
            self.body.stmt(Statement::ControlBarrier(barrier));
            return Ok(());
        }
        let src = inst
            .src
            .first()
            .ok_or_else(|| self.unsupported("has no flags"))?;
        if src.reg.file != File::Immediate {
            return Err(self.unsupported("flags are not an immediate"));
        }
        let imm = usize::try_from(src.reg.index)
            .ok()
            .and_then(|i| self.shader.immediates.get(i))
            .ok_or_else(|| self.unsupported("flags immediate does not exist"))?;
        let flags = imm.words[usize::from(src.swizzle.0[0])];
        let mut barrier = Barrier::empty();
        if flags & (MEMBAR_SHADER_BUFFER | MEMBAR_ATOMIC_BUFFER) != 0 {
            barrier |= Barrier::STORAGE;
        }
        if flags & MEMBAR_SHADER_IMAGE != 0 {
            barrier |= Barrier::TEXTURE;
        }
        if flags & (MEMBAR_SHARED | MEMBAR_THREAD_GROUP) != 0 {
            barrier |= Barrier::WORK_GROUP;
        }
        if !barrier.is_empty() {
            self.body.stmt(Statement::MemoryBarrier(barrier));
        }
        Ok(())
    }

    /// LOAD and STORE.
    pub(crate) fn memory(&mut self, inst: &Instruction) -> Result<()> {
        let (Some(dst), Some(s0)) = (inst.dst.first(), inst.src.first()) else {
            return Err(self.unsupported("needs a destination and a source"));
        };
        let resource = if inst.opcode == Opcode::STORE {
            dst.reg
        } else {
            s0.reg
        };
        let index = u32::try_from(resource.index)
            .map_err(|_| self.undeclared(resource.file, resource.index))?;
        if resource.file == File::Image {
            if let Some(&buf) = self.resources.image_buffers.get(&index) {
                return self.image_buffer_memory(inst, buf);
            }
        }
        match (inst.opcode, resource.file) {
            (Opcode::LOAD, File::Buffer | File::Memory) => {
                let src = inst
                    .src
                    .get(1)
                    .ok_or_else(|| self.unsupported("has no address"))?;
                let mut results = Vec::new();
                for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
                    let pointer = self.buffer_word(resource.file, index, src, c)?;
                    results.push((c, self.body.load(pointer)));
                }
                for (c, v) in results {
                    self.write(dst, c, v)?;
                }
            }
            (Opcode::STORE, File::Buffer | File::Memory) => {
                let value = inst
                    .src
                    .get(1)
                    .ok_or_else(|| self.unsupported("has no value"))?;
                let mut stores = Vec::new();
                for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
                    let v = self.fetch_word(value, c)?;
                    stores.push((c, v));
                }
                for (c, v) in stores {
                    let pointer = self.buffer_word(resource.file, index, s0, c)?;
                    self.body.store(pointer, v);
                }
            }
            (Opcode::LOAD, File::HwAtomic) => {
                let mut results = Vec::new();
                for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
                    let pointer = self.hw_counter(&resource, c as u32)?;
                    results.push((c, self.body.load(pointer)));
                }
                for (c, v) in results {
                    self.write(dst, c, v)?;
                }
            }
            (Opcode::LOAD, File::Image) => {
                let image = self.image(index)?;
                let src = inst
                    .src
                    .get(1)
                    .ok_or_else(|| self.unsupported("has no coordinate"))?;
                let (coordinate, array_index) = self.image_coordinate(&image, src)?;
                let handle = self.body.expr(Expression::GlobalVariable(image.var));
                let texel = self.body.expr(Expression::ImageLoad {
                    image: handle,
                    coordinate,
                    array_index,
                    sample: None,
                    level: None,
                });
                let mut results = Vec::new();
                for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
                    results.push((c, self.body.index(texel, c as u32)));
                }
                for (c, v) in results {
                    self.write(dst, c, v)?;
                }
            }
            (Opcode::STORE, File::Image) => {
                let image = self.image(index)?;
                let value = inst
                    .src
                    .get(1)
                    .ok_or_else(|| self.unsupported("has no value"))?;
                let (coordinate, array_index) = self.image_coordinate(&image, s0)?;
                let kind = match image.class {
                    ImageClass::Storage { format, .. } => format_kind(format),
                    _ => ScalarKind::Float,
                };
                let mut words = Vec::new();
                for c in 0..4 {
                    words.push(self.fetch_word(value, c)?);
                }
                let ty = self.vec4(Scalar::U32);
                let v = self.body.expr(Expression::Compose {
                    ty,
                    components: words,
                });
                let v = if kind == ScalarKind::Uint {
                    v
                } else {
                    self.body.bitcast(v, kind)
                };
                let handle = self.body.expr(Expression::GlobalVariable(image.var));
                self.body.stmt(Statement::ImageStore {
                    image: handle,
                    coordinate,
                    array_index,
                    value: v,
                });
            }
            _ => {
                return Err(self.unsupported(format!("on {} is not translated yet", resource.file)))
            }
        }
        Ok(())
    }

    /// Translates an atomic on a BUFFER or shared-memory word: the old value goes to every
    /// channel of `dst`. ATOMCAS is a compare-exchange; ATOMIMIN / ATOMIMAX, which the
    /// targets have only on signed words, are a compare-exchange loop on the `u32` word.
    pub(crate) fn atomic(&mut self, inst: &Instruction) -> Result<()> {
        let (Some(dst), Some(res), Some(addr), Some(val)) = (
            inst.dst.first(),
            inst.src.first(),
            inst.src.get(1),
            inst.src.get(2),
        ) else {
            return Err(self.unsupported("needs a destination, a resource, an address and a value"));
        };
        let value = self.fetch(val, 0, OperandType::U32)?;
        let pointer = match res.reg.file {
            File::Buffer | File::Memory => {
                let index = u32::try_from(res.reg.index)
                    .map_err(|_| self.undeclared(res.reg.file, res.reg.index))?;
                self.buffer_word(res.reg.file, index, addr, 0)?
            }
            File::HwAtomic => self.hw_counter(&res.reg, 0)?,
            File::Image => {
                let held = u32::try_from(res.reg.index)
                    .ok()
                    .and_then(|i| self.resources.image_buffers.get(&i).copied());
                return match held {
                    Some(buf) => self.image_buffer_atomic(inst, buf),
                    None => Err(self.unsupported(
                        "on IMAGE is not translated (naga's image atomics return no value; \
                         Options::image_atomics_as_buffers, `tgsi translate \
                         --image-atomics-as-buffers`, holds the image in a storage buffer)",
                    )),
                };
            }
            file => return Err(self.unsupported(format!("on {file} is not translated yet"))),
        };
        match inst.opcode {
            Opcode::ATOMCAS => {
                let Some(new) = inst.src.get(3) else {
                    return Err(self.unsupported("needs a value to store"));
                };
                let new = self.fetch(new, 0, OperandType::U32)?;
                let old = self.compare_exchange(pointer, value, new);
                return self.write_old_value(dst, old);
            }
            Opcode::ATOMIMIN | Opcode::ATOMIMAX => {
                let old = self.signed_min_max(pointer, value, inst.opcode == Opcode::ATOMIMIN);
                return self.write_old_value(dst, old);
            }
            _ => {}
        }
        let fun =
            word_atomic(inst.opcode).ok_or_else(|| self.unsupported("is not translated yet"))?;
        let old = self.atomic_word(pointer, fun, value);
        self.write_old_value(dst, old)
    }

    /// The atomic `fun` with `value` on the word `pointer` points to; the old word.
    pub(crate) fn atomic_word(
        &mut self,
        pointer: Handle<Expression>,
        fun: AtomicFunction,
        value: Handle<Expression>,
    ) -> Handle<Expression> {
        let ty = self.ty(naga::TypeInner::Scalar(Scalar::U32));
        let result = self.body.expr(Expression::AtomicResult {
            ty,
            comparison: false,
        });
        self.body.stmt(Statement::Atomic {
            pointer,
            fun,
            value,
            result: Some(result),
        });
        result
    }

    /// softpipe (and the interpreter) write an atomic's old value to all four channels,
    /// whatever the write mask.
    fn write_old_value(&mut self, dst: &tgsi::ir::Dst, old: Handle<Expression>) -> Result<()> {
        let all = tgsi::ir::Dst {
            write_mask: tgsi::ir::WriteMask::XYZW,
            ..*dst
        };
        for c in 0..4 {
            self.write(&all, c, old)?;
        }
        Ok(())
    }

    /// `atomicCompareExchange(pointer, compare, value)`: the old word (the targets'
    /// compare-exchange is strong, except WGSL's `atomicCompareExchangeWeak`, which may fail
    /// spuriously).
    pub(crate) fn compare_exchange(
        &mut self,
        pointer: Handle<Expression>,
        compare: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Handle<Expression> {
        let ty = self.module.generate_predeclared_type(
            naga::PredeclaredType::AtomicCompareExchangeWeakResult(Scalar::U32),
        );
        let result = self.body.expr(Expression::AtomicResult {
            ty,
            comparison: true,
        });
        self.body.stmt(Statement::Atomic {
            pointer,
            fun: AtomicFunction::Exchange {
                compare: Some(compare),
            },
            value,
            result: Some(result),
        });
        self.body.expr(Expression::AccessIndex {
            base: result,
            index: 0,
        })
    }

    /// A signed atomic minimum or maximum on a `u32` word (the smaller or larger of the
    /// word and `value` as signed integers, by [`Translator::atomic_update`]). The old word.
    pub(crate) fn signed_min_max(
        &mut self,
        pointer: Handle<Expression>,
        value: Handle<Expression>,
        min: bool,
    ) -> Handle<Expression> {
        self.atomic_update(pointer, |b, old| {
            let (v, o) = (
                b.bitcast(value, ScalarKind::Sint),
                b.bitcast(old, ScalarKind::Sint),
            );
            let keep_value = b.binary(if min { B::Less } else { B::Greater }, v, o);
            b.select(keep_value, value, old)
        })
    }

    /// An atomic update of the `u32` word `pointer` points to that the targets have no
    /// atomic for: read the word, and swap in `new(word)` if the word is still what was
    /// read, until it was. The old word.
    pub(crate) fn atomic_update(
        &mut self,
        pointer: Handle<Expression>,
        new: impl FnOnce(&mut crate::body::Body, Handle<Expression>) -> Handle<Expression>,
    ) -> Handle<Expression> {
        let seen = self.local_u32("atomic_old");
        let ty = self.module.generate_predeclared_type(
            naga::PredeclaredType::AtomicCompareExchangeWeakResult(Scalar::U32),
        );
        let b = &mut self.body;
        b.open();
        let old = b.load(pointer);
        let new = new(b, old);
        let result = b.expr(Expression::AtomicResult {
            ty,
            comparison: true,
        });
        b.stmt(Statement::Atomic {
            pointer,
            fun: AtomicFunction::Exchange { compare: Some(old) },
            value: new,
            result: Some(result),
        });
        let previous = b.expr(Expression::AccessIndex {
            base: result,
            index: 0,
        });
        b.store(seen, previous);
        let exchanged = b.expr(Expression::AccessIndex {
            base: result,
            index: 1,
        });
        b.if_then(exchanged, |b| b.stmt(Statement::Break));
        let body = b.close();
        b.stmt(Statement::Loop {
            body,
            continuing: naga::Block::new(),
            break_if: None,
        });
        b.load(seen)
    }

    /// A pointer to a new function-local `u32` variable named `name`.
    pub(crate) fn local_u32(&mut self, name: &str) -> Handle<Expression> {
        let ty = self.ty(naga::TypeInner::Scalar(Scalar::U32));
        let var = self.body.function.local_variables.append(
            naga::LocalVariable {
                name: Some(name.to_string()),
                ty,
                init: None,
            },
            naga::Span::UNDEFINED,
        );
        self.body.expr(Expression::LocalVariable(var))
    }

    /// RESQ: a buffer's (or shared memory's) size in bytes in `.x`; an image's width, height
    /// and depth or layer count (cube arrays: cubes), the rest 0.
    pub(crate) fn resource_query(&mut self, inst: &Instruction) -> Result<()> {
        let (Some(dst), Some(res)) = (inst.dst.first(), inst.src.first()) else {
            return Err(self.unsupported("needs a destination and a resource"));
        };
        let index = u32::try_from(res.reg.index)
            .map_err(|_| self.undeclared(res.reg.file, res.reg.index))?;
        match res.reg.file {
            File::Buffer | File::Memory => {
                let size = if res.reg.file == File::Memory {
                    self.resources
                        .shared
                        .ok_or_else(|| self.undeclared(File::Memory, res.reg.index))?;
                    self.body.u32(self.options.shared_memory_bytes & !3)
                } else {
                    let var = *self
                        .resources
                        .buffers
                        .get(&index)
                        .ok_or_else(|| self.undeclared(File::Buffer, res.reg.index))?;
                    let base = self.body.expr(Expression::GlobalVariable(var));
                    let words = self.body.index(base, 0);
                    let len = self.body.expr(Expression::ArrayLength(words));
                    let four = self.body.u32(4);
                    self.body.binary(B::Multiply, len, four)
                };
                if dst.write_mask.has(0) {
                    self.write(dst, 0, size)?;
                }
            }
            File::Image if self.resources.image_buffers.contains_key(&index) => {
                let buf = self.resources.image_buffers[&index];
                return self.image_buffer_query(inst, buf);
            }
            File::Image => {
                let image = self.image(index)?;
                let handle = self.body.expr(Expression::GlobalVariable(image.var));
                let size = self.body.expr(Expression::ImageQuery {
                    image: handle,
                    query: naga::ImageQuery::Size { level: None },
                });
                let n = match image.dim {
                    ImageDimension::D1 => 1,
                    ImageDimension::D2 | ImageDimension::Cube => 2,
                    ImageDimension::D3 => 3,
                };
                let mut parts: Vec<H> = if n == 1 {
                    vec![size]
                } else {
                    (0..n).map(|c| self.body.index(size, c)).collect()
                };
                if image.arrayed {
                    let layers = self.body.expr(Expression::ImageQuery {
                        image: handle,
                        query: naga::ImageQuery::NumLayers,
                    });
                    parts.push(layers);
                }
                let mut results = Vec::new();
                for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
                    let v = match parts.get(c) {
                        Some(&p) => p,
                        None => self.body.u32(0),
                    };
                    results.push((c, v));
                }
                for (c, v) in results {
                    self.write(dst, c, v)?;
                }
            }
            file => return Err(self.unsupported(format!("on {file} is not translated yet"))),
        }
        Ok(())
    }

    /// A pointer to word `(address.x >> 2) + chan` of `BUFFER[index]` or (shared) `MEMORY[index]`.
    fn buffer_word(&mut self, file: File, index: u32, address: &Src, chan: usize) -> Result<H> {
        let var = match file {
            File::Memory => self.resources.shared,
            _ => self.resources.buffers.get(&index).copied(),
        };
        let var = var.ok_or_else(|| self.undeclared(file, index as i32))?;
        let addr = self.fetch(address, 0, OperandType::U32)?;
        let b = &mut self.body;
        let two = b.u32(2);
        let word = b.binary(B::ShiftRight, addr, two);
        let word = if chan == 0 {
            word
        } else {
            let c = b.u32(chan as u32);
            b.binary(B::Add, word, c)
        };
        let base = b.expr(Expression::GlobalVariable(var));
        // A buffer is a struct around its runtime-sized array; shared memory is the array.
        let words = if file == File::Memory {
            base
        } else {
            b.index(base, 0)
        };
        Ok(b.access(words, word))
    }

    /// A pointer to the counter `HWATOMIC[b][c]` names (`c` with its indirect address
    /// added; a one-dimensional `HWATOMIC[b]` is counter 0), plus `chan`: the register
    /// names the counter, the instruction's address operand (Mesa's byte offset of the same
    /// counter) is not added, as in the interpreter.
    fn hw_counter(&mut self, reg: &tgsi::ir::Register, chan: u32) -> Result<H> {
        let (slot, counter, indirect) = match &reg.dimension {
            Some(d) if d.indirect.is_some() => {
                return Err(self
                    .unsupported("an indirectly addressed HWATOMIC buffer is not translated yet"))
            }
            Some(d) => (d.index, reg.index, reg.indirect),
            None => (reg.index, 0, None),
        };
        let var = u32::try_from(slot)
            .ok()
            .and_then(|b| self.resources.hw_atomics.get(&b).copied())
            .ok_or_else(|| self.undeclared(File::HwAtomic, slot))?;
        let index = match indirect {
            Some(ind) => self.address(&ind, counter)?,
            None => {
                let c = u32::try_from(counter)
                    .map_err(|_| self.unsupported(format!("counter {counter} is negative")))?;
                self.body.u32(c)
            }
        };
        let b = &mut self.body;
        let index = if chan == 0 {
            index
        } else {
            let c = b.u32(chan);
            b.binary(B::Add, index, c)
        };
        let base = b.expr(Expression::GlobalVariable(var));
        let counters = b.index(base, 0);
        Ok(b.access(counters, index))
    }

    fn image(&self, index: u32) -> Result<ImageVar> {
        self.resources
            .images
            .get(&index)
            .copied()
            .ok_or_else(|| self.undeclared(File::Image, index as i32))
    }

    /// The integer texel coordinate (and layer) of an image access.
    fn image_coordinate(&mut self, image: &ImageVar, src: &Src) -> Result<(H, Option<H>)> {
        let n = match image.dim {
            ImageDimension::D1 => 1,
            ImageDimension::D2 => 2,
            ImageDimension::D3 | ImageDimension::Cube => 3,
        };
        let mut parts = Vec::new();
        for c in 0..n {
            parts.push(self.fetch(src, c, OperandType::I32)?);
        }
        let layer = if image.arrayed {
            Some(self.fetch(src, n, OperandType::I32)?)
        } else {
            None
        };
        Ok((self.compose_ints(parts), layer))
    }

    /// A scalar or vector of the given `i32` scalars.
    pub(crate) fn compose_ints(&mut self, parts: Vec<H>) -> H {
        if parts.len() == 1 {
            return parts[0];
        }
        let size = match parts.len() {
            2 => naga::VectorSize::Bi,
            3 => naga::VectorSize::Tri,
            _ => naga::VectorSize::Quad,
        };
        let ty = self.ty(naga::TypeInner::Vector {
            size,
            scalar: Scalar::I32,
        });
        self.body.expr(Expression::Compose {
            ty,
            components: parts,
        })
    }
}

/// The target languages' atomic on a `u32` word for a TGSI atomic opcode, where they have
/// one.
pub(crate) fn word_atomic(op: Opcode) -> Option<AtomicFunction> {
    Some(match op {
        Opcode::ATOMUADD => AtomicFunction::Add,
        Opcode::ATOMXCHG => AtomicFunction::Exchange { compare: None },
        Opcode::ATOMAND => AtomicFunction::And,
        Opcode::ATOMOR => AtomicFunction::InclusiveOr,
        Opcode::ATOMXOR => AtomicFunction::ExclusiveOr,
        Opcode::ATOMUMIN => AtomicFunction::Min,
        Opcode::ATOMUMAX => AtomicFunction::Max,
        _ => return None,
    })
}
