//! The token encoder: [`Shader`] → Mesa 22.3 token words, word for word what Mesa's own
//! text translator produces for the same shader.

use super::layout::{decl as d, group, header, imm, inst as i, prop, reg as r, Field};
use super::EncodeError;
use crate::enums::*;
use crate::ir::*;

/// Encodes a shader as Mesa token words.
pub fn encode(shader: &Shader) -> Result<Vec<u32>, EncodeError> {
    let mut words = Assembler::with_capacity(body_words(shader));
    words.processor(shader.processor);
    for item in shader.items() {
        words.item(item);
    }
    words.finish()
}

/// Token words built statement by statement, as [`encode`] does for a shader and
/// [`super::assemble()`] for text while it is parsed. After the first statement that does
/// not fit, later ones are ignored and [`Assembler::finish`] reports that one.
pub(crate) struct Assembler {
    out: Vec<u32>,
    error: Option<EncodeError>,
}

impl Assembler {
    /// An assembler with room for `body` words after the header.
    pub(crate) fn with_capacity(body: usize) -> Assembler {
        let mut out = Vec::with_capacity(2usize.saturating_add(body));
        out.push(header::HEADER_SIZE.put(2));
        out.push(0);
        crate::huge_pages::advise(&mut out);
        Assembler { out, error: None }
    }

    /// Sets the header's processor.
    pub(crate) fn processor(&mut self, processor: Processor) {
        self.out[1] = header::PROCESSOR.put(processor.number());
    }

    /// Appends one statement.
    pub(crate) fn item(&mut self, item: Item<'_>) {
        if self.error.is_some() {
            return;
        }
        let out = &mut self.out;
        let result = match item {
            Item::Property(p) => {
                out.push(
                    group::TYPE.put(group::PROPERTY)
                        | group::NR_TOKENS.put(2)
                        | prop::NAME.put(p.name.number()),
                );
                out.push(p.value);
                Ok(())
            }
            Item::Declaration(decl) => declaration(decl, out),
            Item::Immediate(_, m) => {
                out.push(
                    group::TYPE.put(group::IMMEDIATE)
                        | group::IMM_NR_TOKENS.put(5)
                        | imm::DATA_TYPE.put(m.ty.number()),
                );
                out.extend_from_slice(&m.words);
                Ok(())
            }
            Item::Instruction(index, inst) => instruction(index, inst, out),
        };
        self.error = result.err();
    }

    /// The words so far, to append a statement's words to directly (see
    /// [`crate::text`]'s line reader), while no statement has failed.
    pub(crate) fn words_so_far(&mut self) -> Option<&mut Vec<u32>> {
        self.error.is_none().then_some(&mut self.out)
    }

    /// The words, with the header's BodySize filled in, or the first error.
    pub(crate) fn finish(self) -> Result<Vec<u32>, EncodeError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let mut out = self.out;
        let body = out.len() - 2;
        if !header::BODY_SIZE.fits(body as u32) || body > u32::MAX as usize {
            return Err(EncodeError {
                span: Span::default(),
                message: format!("{body} body words do not fit in the 24-bit BodySize field"),
            });
        }
        out[0] |= header::BODY_SIZE.put(body as u32);
        Ok(out)
    }
}

/// The number of body words `encode` writes for `shader` (whether or not every field
/// fits): what the header's 24-bit BodySize must hold.
pub(crate) fn body_words(shader: &Shader) -> usize {
    let reg = |r: &Register| {
        1 + usize::from(r.indirect.is_some())
            + r.dimension
                .map_or(0, |d| 1 + usize::from(d.indirect.is_some()))
    };
    let decls = shader.declarations.iter().map(|d| {
        2 + usize::from(d.dimension.is_some())
            + usize::from(d.interp.is_some())
            + usize::from(d.semantic.is_some())
            + usize::from(matches!(d.file, File::Image | File::SamplerView))
            + usize::from(d.array_id.is_some())
    });
    let insts = shader.instructions.iter().map(|i| {
        1 + usize::from(i.label.is_some())
            + i.texture.as_ref().map_or(0, |t| 1 + t.offsets.len())
            + usize::from(i.memory.is_some())
            + i.dst.iter().map(|d| reg(&d.reg)).sum::<usize>()
            + i.src.iter().map(|s| reg(&s.reg)).sum::<usize>()
    });
    2 * shader.properties.len()
        + 5 * shader.immediates.len()
        + decls.sum::<usize>()
        + insts.sum::<usize>()
}

#[inline(always)]
fn check(span: Span, field: Field, value: u32, what: &str) -> Result<u32, EncodeError> {
    if field.fits(value) {
        Ok(field.put(value))
    } else {
        Err(too_wide(
            span,
            format_args!("{what} {value} does not fit in {} bits", field.width),
        ))
    }
}

#[inline(always)]
fn check_signed(span: Span, field: Field, value: i32, what: &str) -> Result<u32, EncodeError> {
    if field.fits_signed(value) {
        Ok(field.put(value as u32))
    } else {
        Err(too_wide(
            span,
            format_args!(
                "{what} {value} does not fit in a signed {}-bit field",
                field.width
            ),
        ))
    }
}

/// The error of a value too wide for its field (kept out of the encoding fast path).
#[cold]
fn too_wide(span: Span, message: std::fmt::Arguments<'_>) -> EncodeError {
    EncodeError {
        span,
        message: message.to_string(),
    }
}

#[inline(always)]
fn file_number(span: Span, file: File) -> Result<u32, EncodeError> {
    if file.is_legacy() {
        return Err(legacy_file(span, file));
    }
    Ok(file.number())
}

/// The error of a file that has no token number (kept out of the encoding fast path).
#[cold]
fn legacy_file(span: Span, file: File) -> EncodeError {
    EncodeError {
        span,
        message: format!(
            "register file {} of older spec versions has no Mesa 22.3 token number",
            file.name()
        ),
    }
}

fn declaration(decl: &Declaration, out: &mut Vec<u32>) -> Result<(), EncodeError> {
    let span = decl.span;
    let head_at = out.len();
    out.push(0);
    out.push(
        check(span, d::RANGE_FIRST, decl.first, "range start")?
            | check(span, d::RANGE_LAST, decl.last, "range end")?,
    );
    if let Some(dim) = decl.dimension {
        out.push(check(span, d::DIM_INDEX, dim, "dimension")?);
    }
    if let Some(interp) = decl.interp {
        out.push(
            d::INTERP_MODE.put(interp.mode.number())
                | d::INTERP_LOCATION.put(interp.location.number()),
        );
    }
    if let Some(sem) = decl.semantic {
        let mut word = d::SEMANTIC_NAME.put(sem.name.number())
            | check(span, d::SEMANTIC_INDEX, sem.index, "semantic index")?;
        for (field, &stream) in d::STREAM.iter().zip(&sem.streams) {
            word |= check(span, *field, stream as u32, "stream")?;
        }
        out.push(word);
    }
    match (decl.file, decl.resource) {
        (File::Image, res) => {
            let (target, format, writable, raw) = match res {
                Some(ResourceDecl::Image {
                    target,
                    format,
                    writable,
                    raw,
                }) => (target, format, writable, raw),
                _ => (TextureTarget::Buffer, crate::Format::NONE, false, false),
            };
            out.push(
                d::IMAGE_RESOURCE.put(target.number())
                    | d::IMAGE_RAW.put(raw as u32)
                    | d::IMAGE_WRITABLE.put(writable as u32)
                    | check(span, d::IMAGE_FORMAT, format.0 as u32, "format")?,
            );
        }
        (File::SamplerView, res) => {
            let (target, types) = match res {
                Some(ResourceDecl::SamplerView {
                    target,
                    return_types,
                }) => (target, return_types),
                _ => (TextureTarget::Buffer, [ReturnType::Unorm; 4]),
            };
            let mut word = d::SVIEW_RESOURCE.put(target.number());
            for (field, t) in d::SVIEW_RETURN.iter().zip(types) {
                word |= field.put(t.number());
            }
            out.push(word);
        }
        _ => {}
    }
    if let Some(id) = decl.array_id {
        out.push(check(span, d::ARRAY_ID, id.into(), "array id")?);
    }
    let count = (out.len() - head_at) as u32;
    out[head_at] = group::TYPE.put(group::DECLARATION)
        | check(span, group::NR_TOKENS, count, "declaration length")?
        | d::FILE.put(file_number(span, decl.file)?)
        | check(span, d::USAGE_MASK, decl.usage_mask.0 as u32, "usage mask")?
        | d::DIMENSION.put(decl.dimension.is_some() as u32)
        | d::SEMANTIC.put(decl.semantic.is_some() as u32)
        | d::INTERPOLATE.put(decl.interp.is_some() as u32)
        | d::INVARIANT.put(decl.invariant as u32)
        | d::LOCAL.put(decl.local as u32)
        | d::ARRAY.put(decl.array_id.is_some() as u32)
        | d::ATOMIC.put(decl.atomic as u32)
        | d::MEM_TYPE.put(decl.memory_type.number());
    Ok(())
}

fn indirect_word(span: Span, ind: &Indirect) -> Result<u32, EncodeError> {
    Ok(r::IND_FILE.put(file_number(span, ind.file)?)
        | check_signed(span, r::IND_INDEX, ind.index, "address register index")?
        | check(
            span,
            r::IND_SWIZZLE,
            ind.component as u32,
            "address component",
        )?
        | check(span, r::IND_ARRAY_ID, ind.array_id.into(), "array id")?)
}

/// The swizzle fields of a source word, or the error of the first channel that does not
/// fit.
#[cold]
fn swizzle_bits(span: Span, swizzle: Swizzle) -> Result<u32, EncodeError> {
    let mut bits = 0;
    for (field, &c) in r::SRC_SWIZZLE.iter().zip(&swizzle.0) {
        bits |= check(span, *field, c as u32, "swizzle")?;
    }
    Ok(bits)
}

/// Words that follow a register word: its indirect, its dimension, the dimension's indirect.
#[inline(always)]
fn register_tail(span: Span, reg: &Register, out: &mut Vec<u32>) -> Result<(), EncodeError> {
    if reg.indirect.is_none() && reg.dimension.is_none() {
        return Ok(());
    }
    register_tail_words(span, reg, out)
}

/// [`register_tail`] of a register that has one.
fn register_tail_words(span: Span, reg: &Register, out: &mut Vec<u32>) -> Result<(), EncodeError> {
    if let Some(ind) = &reg.indirect {
        out.push(indirect_word(span, ind)?);
    }
    if let Some(dim) = &reg.dimension {
        out.push(
            r::DIM_INDIRECT.put(dim.indirect.is_some() as u32)
                | check_signed(span, r::DIM_INDEX, dim.index, "dimension index")?,
        );
        if let Some(ind) = &dim.indirect {
            out.push(indirect_word(span, ind)?);
        }
    }
    Ok(())
}

fn instruction(index: usize, inst: &Instruction, out: &mut Vec<u32>) -> Result<(), EncodeError> {
    let span = inst.span;
    let info = inst.opcode.info();
    let Some(number) = info.number else {
        return Err(EncodeError {
            span,
            message: format!(
                "instruction {index}: {} is a legacy opcode with no Mesa 22.3 token number",
                info.name
            ),
        });
    };
    let head_at = out.len();
    out.push(0);
    if let Some(label) = inst.label {
        out.push(check(span, i::LABEL_VALUE, label, "label")?);
    }
    if let Some(tex) = &inst.texture {
        let n = tex.offsets.len() as u32;
        if n > 4 {
            return Err(EncodeError {
                span,
                message: format!("{n} texel offsets; at most 4 are allowed"),
            });
        }
        out.push(
            i::TEX_TARGET.put(tex.target.number())
                | i::TEX_NUM_OFFSETS.put(n)
                | i::TEX_RETURN_TYPE.put(tex.return_type.number()),
        );
        for off in &tex.offsets {
            let mut word = check_signed(span, i::OFFSET_INDEX, off.index, "texel offset index")?
                | i::OFFSET_FILE.put(file_number(span, off.file)?);
            for (field, &c) in i::OFFSET_SWIZZLE.iter().zip(&off.swizzle) {
                word |= check(span, *field, c as u32, "texel offset swizzle")?;
            }
            out.push(word);
        }
    }
    if let Some(mem) = &inst.memory {
        out.push(
            check(
                span,
                i::MEM_QUALIFIER,
                mem.qualifiers as u32,
                "memory qualifier",
            )? | i::MEM_TEXTURE.put(mem.target.number())
                | check(span, i::MEM_FORMAT, mem.format.0 as u32, "format")?,
        );
    }
    for dst in &inst.dst {
        let reg = &dst.reg;
        out.push(
            r::FILE.put(file_number(span, reg.file)?)
                | check(
                    span,
                    r::DST_WRITE_MASK,
                    dst.write_mask.0 as u32,
                    "write mask",
                )?
                | r::DST_INDIRECT.put(reg.indirect.is_some() as u32)
                | r::DST_DIMENSION.put(reg.dimension.is_some() as u32)
                | check_signed(span, r::DST_INDEX, reg.index, "register index")?,
        );
        register_tail(span, reg, out)?;
    }
    for src in &inst.src {
        let reg = &src.reg;
        let mut word = r::FILE.put(file_number(span, reg.file)?)
            | r::SRC_INDIRECT.put(reg.indirect.is_some() as u32)
            | r::SRC_DIMENSION.put(reg.dimension.is_some() as u32)
            | check_signed(span, r::SRC_INDEX, reg.index, "register index")?
            | r::SRC_ABSOLUTE.put(src.absolute as u32)
            | r::SRC_NEGATE.put(src.negate as u32);
        let [x, y, z, w] = src.swizzle.0;
        word |= if (x | y | z | w) < 4 {
            // All four fit their 2-bit fields: no check one by one.
            r::SRC_SWIZZLE[0].put(x as u32)
                | r::SRC_SWIZZLE[1].put(y as u32)
                | r::SRC_SWIZZLE[2].put(z as u32)
                | r::SRC_SWIZZLE[3].put(w as u32)
        } else {
            swizzle_bits(span, src.swizzle)?
        };
        out.push(word);
        register_tail(span, reg, out)?;
    }
    let count = (out.len() - head_at - 1) as u32;
    out[head_at] = group::TYPE.put(group::INSTRUCTION)
        | check(span, group::NR_TOKENS, count, "instruction length")?
        | i::OPCODE.put(number as u32)
        | i::SATURATE.put(inst.saturate as u32)
        | check(span, i::NUM_DST, inst.dst.len() as u32, "destination count")?
        | check(span, i::NUM_SRC, inst.src.len() as u32, "source count")?
        | i::LABEL.put(inst.label.is_some() as u32)
        | i::TEXTURE.put(inst.texture.is_some() as u32)
        | i::MEMORY.put(inst.memory.is_some() as u32)
        | i::PRECISE.put(inst.precise as u32);
    Ok(())
}
