//! Images read and written through a storage buffer
//! ([`crate::Options::image_atomics_as_buffers`]): naga's image atomics return no value,
//! while a TGSI atomic returns the texel it replaced (and naga has no texel buffers). An
//! `IMAGE[i]` that some atomic names, or a `BUFFER` image of a format a buffer holds, is
//! declared instead as a storage buffer at the image's group and binding (group 2, binding
//! i) of `atomic<u32>` words:
//!
//! | words | holds |
//! |---|---|
//! | 0 | width of the bound level (buffer images: the view's texels) |
//! | 1 | its height (1 for 1-D and buffer resources) |
//! | 2 | the bound on the layer or depth coordinate: the level's depth (3-D), the resource's `array_size` (others) |
//! | 3 | the view's first layer for layered resources (1-D and 2-D arrays, cubes, 3-D), else 0 |
//! | 4 | the view's layer count (`last_layer − first_layer + 1`), for RESQ |
//! | 5 | the number of slices that follow |
//! | 6, 7 | 0 |
//! | 8 … | the texels of the bound level, a word a channel, row by row, slice by slice (buffer images: the view's bytes) |
//!
//! Only images of 32-bit channels can be held this way — with atomics, single-channel ones
//! (`R32_UINT`, `R32_SINT`, `R32_FLOAT`, the formats atomics are defined on); buffer images
//! also `R32G32`, `R32G32B32` and `R32G32B32A32` of `UINT`, `SINT` or `FLOAT`, a texel taking
//! as many words — and the instructions must access the image with its declared target and
//! format. Every LOAD, STORE, RESQ and atomic on such an image follows the interpreter
//! (`tgsi_exec`'s `image` module, softpipe's rules): the texel `(s, t, r)` lies inside when
//! `s < width`, `t < height`, `r < word 2` (unsigned, so negative coordinates are outside)
//! and its slice `r + word 3` exists (a sum past 2³² does not); loads of texels outside give `(0, 0, 0, 1)`, stores to them are
//! dropped, atomics on them change nothing and return `(0, 0, 0, 1)` (four-channel formats:
//! `(0, 0, 0, 0)`). Inside, a load gives the texel's channels, then 0 and 1 for the missing
//! ones (`(texel, 0, 0, 1)`), and an atomic returns `(old texel, src.y, src.z, src.w)`: integer
//! formats combine the texel with `src.x` (`ATOMUMIN`/`ATOMUMAX` compare as signed on
//! `R32_SINT`, as softpipe does; `ATOMFADD` changes nothing and returns `src`); `R32_FLOAT`
//! exchanges with `ATOMXCHG` (returning the old value truncated to an integer and back to a
//! float, softpipe's conversion through `int`) and adds with `ATOMFADD` (returning the old
//! bits); its other atomics change nothing and return `src`. The 1.0 of `w` is the integer
//! 1 for integer formats.

use naga::{AddressSpace, GlobalVariable, Statement, StorageAccess, TypeInner};
use naga::{AtomicFunction, BinaryOperator as B, Block, Expression, Handle, Scalar, ScalarKind};
use tgsi::enums::TextureTarget;
use tgsi::ir::{Instruction, Src};
use tgsi::opcode::{Opcode, OperandType};
use tgsi::Format;

use crate::error::Result;
use crate::translate::Translator;

type H = Handle<Expression>;

/// Words before the texels of an image held in a storage buffer (see the module docs).
pub const IMAGE_BUFFER_HEADER_WORDS: u32 = 8;

/// An `IMAGE[i]` held in a storage buffer.
#[derive(Clone, Copy)]
pub(crate) struct ImageBuffer {
    pub var: Handle<GlobalVariable>,
    /// The declared target.
    pub target: TextureTarget,
    /// The declared format.
    pub format: Format,
    /// The texels' kind.
    pub kind: ScalarKind,
    /// Words (channels) per texel.
    pub channels: u32,
}

/// The kind and channel count of a format an image buffer can hold: 32-bit channels.
fn texel_layout(format: Format) -> Option<(ScalarKind, u32)> {
    let name = format.short_name()?;
    let (channels, kind) = name.split_once('_')?;
    let kind = match kind {
        "UINT" => ScalarKind::Uint,
        "SINT" => ScalarKind::Sint,
        "FLOAT" => ScalarKind::Float,
        _ => return None,
    };
    let n = match channels {
        "R32" => 1,
        "R32G32" => 2,
        "R32G32B32" => 3,
        "R32G32B32A32" => 4,
        _ => return None,
    };
    Some((kind, n))
}

/// Where an access lands: whether the texel lies inside, and its word (a header word when
/// it does not, so that the access itself stays in bounds).
struct Texel {
    inside: H,
    word: H,
}

impl Translator<'_> {
    /// Whether `IMAGE[i]` is held in a storage buffer: an atomic names it, or it is a buffer
    /// image of a format a buffer holds (naga has no texel buffers).
    pub(crate) fn held_in_buffer(&self, i: u32, target: TextureTarget, format: Format) -> bool {
        let texel_buffer = target == TextureTarget::Buffer && texel_layout(format).is_some();
        texel_buffer || self.image_has_atomics(i)
    }

    /// Whether an atomic names `IMAGE[i]`.
    fn image_has_atomics(&self, i: u32) -> bool {
        self.shader.instructions.iter().any(|inst| {
            inst.opcode.info().section == tgsi::opcode::Section::Atomic
                && inst.src.first().is_some_and(|s| {
                    s.reg.file == tgsi::enums::File::Image && s.reg.index == i as i32
                })
        })
    }

    /// Declares `IMAGE[i]` as a storage buffer of words.
    pub(crate) fn declare_image_buffer(
        &mut self,
        i: u32,
        target: TextureTarget,
        format: Format,
    ) -> Result<()> {
        use TextureTarget as T;
        let layout = texel_layout(format).filter(|&(_, n)| n == 1 || !self.image_has_atomics(i));
        let (kind, channels) = layout.ok_or_else(|| {
            self.unsupported(format!(
                "an image with atomics is held in a storage buffer, which needs 32-bit \
                 single-channel texels (R32_UINT, R32_SINT or R32_FLOAT), not {}",
                format.name().unwrap_or_default()
            ))
        })?;
        if !matches!(
            target,
            T::Buffer
                | T::Tex1D
                | T::Tex2D
                | T::Rect
                | T::Tex3D
                | T::Array1D
                | T::Array2D
                | T::Cube
                | T::CubeArray
        ) {
            return Err(self.unsupported(format!(
                "an image with atomics is held in a storage buffer, which does not hold \
                 {target} images yet"
            )));
        }
        let word = self.ty(TypeInner::Atomic(Scalar::U32));
        let ty = self.words_struct("ImageBuffer", "words", word);
        let space = AddressSpace::Storage {
            access: StorageAccess::LOAD | StorageAccess::STORE,
        };
        let var = self.global(format!("image{i}"), space, ty, 2, i);
        self.resources.image_buffers.insert(
            i,
            ImageBuffer {
                var,
                target,
                format,
                kind,
                channels,
            },
        );
        Ok(())
    }

    /// The image buffer of an instruction's IMAGE operand, refusing an access with another
    /// target or format than the declaration's.
    fn checked(&self, inst: &Instruction, buf: ImageBuffer) -> Result<ImageBuffer> {
        if let Some(m) = inst.memory {
            let other_target = m.target != TextureTarget::Buffer && m.target != buf.target;
            let other_format = m.format != Format::NONE && m.format != buf.format;
            if other_target || other_format {
                return Err(self.unsupported(
                    "accesses an image held in a storage buffer with another target or \
                     format than its declaration's",
                ));
            }
        }
        Ok(buf)
    }

    /// A pointer to word `index` of an image buffer.
    fn image_word(&mut self, buf: &ImageBuffer, index: H) -> H {
        let b = &mut self.body;
        let base = b.expr(Expression::GlobalVariable(buf.var));
        let words = b.index(base, 0);
        b.access(words, index)
    }

    /// Header word `k` of an image buffer.
    fn header_word(&mut self, buf: &ImageBuffer, k: u32) -> H {
        let index = self.body.u32(k);
        let pointer = self.image_word(buf, index);
        self.body.load(pointer)
    }

    /// The texel an address names (the interpreter's `coords` and `Bound::locate`).
    fn image_texel(&mut self, buf: &ImageBuffer, address: &Src) -> Result<Texel> {
        use TextureTarget as T;
        let x = self.fetch(address, 0, OperandType::U32)?;
        let y = self.fetch(address, 1, OperandType::U32)?;
        let z = self.fetch(address, 2, OperandType::U32)?;
        let zero = self.body.u32(0);
        let one_coordinate = matches!(buf.target, T::Buffer | T::Tex1D | T::Array1D);
        let t = if one_coordinate { zero } else { y };
        let r = match buf.target {
            T::Tex3D | T::Array2D | T::Cube | T::CubeArray => z,
            T::Array1D => y,
            _ => zero,
        };
        let [w, h, d, first, _, slices] = [0, 1, 2, 3, 4, 5].map(|k| self.header_word(buf, k));
        let b = &mut self.body;
        let layer = b.binary(B::Add, r, first);
        // A layer past 2³² is outside, as in the interpreter (r + first does not wrap when
        // r ≤ the sum).
        let r_plus_one = {
            let one = b.u32(1);
            b.binary(B::Add, layer, one)
        };
        let checks = [(x, w), (t, h), (r, d), (layer, slices), (r, r_plus_one)];
        let mut inside = None;
        for (v, n) in checks {
            let ok = b.binary(B::Less, v, n);
            inside = Some(match inside {
                Some(all) => b.binary(B::LogicalAnd, all, ok),
                None => ok,
            });
        }
        let inside = inside.unwrap_or(zero);
        // ((layer · h + t) · w + x) · channels + header: no overflow for a texel inside
        // (the buffer holds slices · h · w texels).
        let row = b.binary(B::Multiply, layer, h);
        let row = b.binary(B::Add, row, t);
        let at = b.binary(B::Multiply, row, w);
        let at = b.binary(B::Add, at, x);
        let channels = b.u32(buf.channels);
        let at = b.binary(B::Multiply, at, channels);
        let header = b.u32(IMAGE_BUFFER_HEADER_WORDS);
        let at = b.binary(B::Add, at, header);
        let word = b.select(inside, at, zero);
        Ok(Texel { inside, word })
    }

    /// A pointer to channel `c` of a texel.
    fn channel_word(&mut self, buf: &ImageBuffer, texel: &Texel, c: usize) -> H {
        let index = if c == 0 {
            texel.word
        } else {
            let c = self.body.u32(c as u32);
            self.body.binary(B::Add, texel.word, c)
        };
        self.image_word(buf, index)
    }

    /// The `w` of a loaded texel: 1, or 1.0 for float texels.
    fn texel_one(&mut self, buf: &ImageBuffer) -> H {
        match buf.kind {
            ScalarKind::Float => self.body.u32(1.0f32.to_bits()),
            _ => self.body.u32(1),
        }
    }

    /// LOAD and STORE on an image held in a storage buffer.
    pub(crate) fn image_buffer_memory(
        &mut self,
        inst: &Instruction,
        buf: ImageBuffer,
    ) -> Result<()> {
        let buf = self.checked(inst, buf)?;
        let (Some(dst), Some(s0), Some(s1)) = (inst.dst.first(), inst.src.first(), inst.src.get(1))
        else {
            return Err(self.unsupported("needs a destination and two sources"));
        };
        let n = buf.channels as usize;
        if inst.opcode == Opcode::STORE {
            let ty = inst.opcode.info().src_type(1);
            let values: Vec<H> = (0..n)
                .map(|c| self.fetch_bits(s1, c, ty))
                .collect::<Result<_>>()?;
            let texel = self.image_texel(&buf, s0)?;
            let pointers: Vec<H> = (0..n).map(|c| self.channel_word(&buf, &texel, c)).collect();
            self.body.if_then(texel.inside, |b| {
                for (&p, &v) in pointers.iter().zip(&values) {
                    b.store(p, v);
                }
            });
            return Ok(());
        }
        let texel = self.image_texel(&buf, s1)?;
        let zero = self.body.u32(0);
        let one = self.texel_one(&buf);
        // The format's channels inside, zeros outside; missing channels 0, alpha 1.
        let mut channels = [zero, zero, zero, one];
        for (c, ch) in channels.iter_mut().enumerate().take(n) {
            let pointer = self.channel_word(&buf, &texel, c);
            let v = self.body.load(pointer);
            *ch = self.body.select(texel.inside, v, zero);
        }
        for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
            self.write(dst, c, channels[c])?;
        }
        Ok(())
    }

    /// RESQ on an image held in a storage buffer (the interpreter's `resq`).
    pub(crate) fn image_buffer_query(
        &mut self,
        inst: &Instruction,
        buf: ImageBuffer,
    ) -> Result<()> {
        use TextureTarget as T;
        let Some(dst) = inst.dst.first() else {
            return Err(self.unsupported("needs a destination"));
        };
        let [w, h, d, _, layers] = [0, 1, 2, 3, 4].map(|k| self.header_word(&buf, k));
        let zero = self.body.u32(0);
        let size = match buf.target {
            T::Buffer | T::Tex1D => [w, zero, zero, zero],
            T::Array1D => [w, layers, zero, zero],
            T::Array2D => [w, h, layers, zero],
            T::Tex3D => [w, h, d, zero],
            T::CubeArray => {
                let six = self.body.u32(6);
                let cubes = self.body.binary(B::Divide, layers, six);
                [w, h, cubes, zero]
            }
            _ => [w, h, zero, zero],
        };
        for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
            self.write(dst, c, size[c])?;
        }
        Ok(())
    }

    /// An atomic on an image held in a storage buffer.
    pub(crate) fn image_buffer_atomic(
        &mut self,
        inst: &Instruction,
        buf: ImageBuffer,
    ) -> Result<()> {
        let buf = self.checked(inst, buf)?;
        let (Some(dst), Some(addr), Some(val)) =
            (inst.dst.first(), inst.src.get(1), inst.src.get(2))
        else {
            return Err(self.unsupported("needs a destination, an address and a value"));
        };
        let op = inst.opcode;
        let float = buf.kind == ScalarKind::Float;
        // What the texel becomes: a word function, or nothing (the value comes back).
        let changes = if float {
            matches!(op, Opcode::ATOMXCHG | Opcode::ATOMFADD)
        } else if matches!(op, Opcode::ATOMINC_WRAP | Opcode::ATOMDEC_WRAP) {
            return Err(self.unsupported("on an image is not translated yet"));
        } else {
            op != Opcode::ATOMFADD
        };
        let info = op.info();
        let src: Vec<H> = (0..4)
            .map(|c| self.fetch_bits(val, c, info.src_type(2)))
            .collect::<Result<_>>()?;
        let texel = self.image_texel(&buf, addr)?;
        let result = self.local_u32("image_atomic");
        if changes {
            let cas_new = match inst.src.get(3) {
                Some(s) if op == Opcode::ATOMCAS => {
                    Some(self.fetch_bits(s, 0, info.src_type(3))?)
                }
                _ => None,
            };
            self.body.open();
            let pointer = self.image_word(&buf, texel.word);
            let value = src[0];
            let x = match (op, buf.kind) {
                (Opcode::ATOMXCHG, ScalarKind::Float) => {
                    let old = self.atomic_word(
                        pointer,
                        AtomicFunction::Exchange { compare: None },
                        value,
                    );
                    let f = self.body.bitcast(old, ScalarKind::Float);
                    let i = self.f2i(f);
                    let back = self.body.convert(i, Scalar::F32);
                    self.body.bitcast(back, ScalarKind::Uint)
                }
                (Opcode::ATOMFADD, _) => self.atomic_update(pointer, |b, old| {
                    let (o, v) = (
                        b.bitcast(old, ScalarKind::Float),
                        b.bitcast(value, ScalarKind::Float),
                    );
                    let sum = b.binary(B::Add, o, v);
                    b.bitcast(sum, ScalarKind::Uint)
                }),
                (Opcode::ATOMCAS, _) => {
                    let new = cas_new.ok_or_else(|| self.unsupported("needs a value to store"))?;
                    self.compare_exchange(pointer, value, new)
                }
                (Opcode::ATOMIMIN | Opcode::ATOMIMAX, _)
                | (Opcode::ATOMUMIN | Opcode::ATOMUMAX, ScalarKind::Sint) => {
                    let min = matches!(op, Opcode::ATOMIMIN | Opcode::ATOMUMIN);
                    self.signed_min_max(pointer, value, min)
                }
                _ => {
                    let fun = crate::memory::word_atomic(op)
                        .ok_or_else(|| self.unsupported("on an image is not translated yet"))?;
                    self.atomic_word(pointer, fun, value)
                }
            };
            self.body.store(result, x);
            let accept = self.body.close();
            self.body.stmt(Statement::If {
                condition: texel.inside,
                accept,
                reject: Block::new(),
            });
        }
        let zero = self.body.u32(0);
        let one = self.texel_one(&buf);
        let x = if changes {
            let old = self.body.load(result);
            self.body.select(texel.inside, old, zero)
        } else {
            self.body.select(texel.inside, src[0], zero)
        };
        let outside = [x, zero, zero, one];
        for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
            let v = match c {
                0 => x,
                _ => self.body.select(texel.inside, src[c], outside[c]),
            };
            self.write(dst, c, v)?;
        }
        Ok(())
    }

    /// Channel `chan` of `src` read as `ty` (modifiers applied), as its `u32` bits.
    fn fetch_bits(&mut self, src: &Src, chan: usize, ty: OperandType) -> Result<H> {
        let v = self.fetch(src, chan, ty)?;
        self.word_of(v)
    }
}
