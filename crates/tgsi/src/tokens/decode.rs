//! The token decoder: Mesa token words → [`Shader`]. It trusts no count or length field:
//! every group is walked by its flag bits, its `NrTokens` must agree with what was read,
//! every enum value must be known, and every read is bounds-checked. Errors carry the word
//! offset where the problem is.

use super::layout::{decl as d, group, header, imm, inst as i, prop, reg as r};
use super::{DecodeError, DecodeErrorKind as K};
use crate::enums::*;
use crate::ir::*;
use crate::limits::Limits;
use crate::opcode::Opcode;
use crate::pipe_format::Format;

/// Decodes token words with default [`Limits`].
pub fn decode(words: &[u32]) -> Result<Shader, DecodeError> {
    decode_with_limits(words, &Limits::DEFAULT)
}

/// Decodes token words, enforcing `limits`.
pub fn decode_with_limits(words: &[u32], limits: &Limits) -> Result<Shader, DecodeError> {
    if words.len().saturating_mul(4) > limits.max_input_bytes {
        return Err(DecodeError::new(
            0,
            K::LimitExceeded,
            format!("{} words exceed the input limit", words.len()),
        ));
    }
    let mut rd = Reader { words, pos: 0 };
    let head = rd.next("the header word")?;
    let header_size = header::HEADER_SIZE.get(head);
    if header_size != 2 {
        return Err(DecodeError::new(
            0,
            K::BadHeader,
            format!("HeaderSize is {header_size}, expected 2"),
        ));
    }
    let body = header::BODY_SIZE.get(head) as usize;
    let proc_word = rd.next("the processor word")?;
    let processor = Processor::from_number(header::PROCESSOR.get(proc_word)).ok_or_else(|| {
        DecodeError::new(
            1,
            K::BadEnum,
            format!("unknown processor {}", header::PROCESSOR.get(proc_word)),
        )
    })?;
    let end = 2 + body;
    if words.len() < end {
        return Err(DecodeError::new(
            words.len(),
            K::Truncated,
            format!(
                "BodySize says {body} words but only {} follow the header",
                words.len() - 2
            ),
        ));
    }
    if words.len() > end {
        return Err(DecodeError::new(
            end,
            K::Overlong,
            format!("{} words after the end of the body", words.len() - end),
        ));
    }
    let mut shader = Shader::new(processor);
    while rd.pos < end {
        let at = rd.pos;
        let head = rd.next("a token")?;
        match group::TYPE.get(head) {
            group::DECLARATION => {
                if shader.declarations.len() >= limits.max_declarations {
                    return Err(DecodeError::new(
                        at,
                        K::LimitExceeded,
                        "too many declarations",
                    ));
                }
                let decl = declaration(&mut rd, head, at)?;
                shader.declarations.push(decl);
                shader.order.push(ItemKind::Declaration);
            }
            group::IMMEDIATE => {
                if shader.immediates.len() >= limits.max_immediates {
                    return Err(DecodeError::new(
                        at,
                        K::LimitExceeded,
                        "too many immediates",
                    ));
                }
                let n = group::IMM_NR_TOKENS.get(head);
                if n != 5 {
                    return Err(DecodeError::new(
                        at,
                        K::CountMismatch,
                        format!("immediate has NrTokens {n}, expected 5"),
                    ));
                }
                let ty_num = imm::DATA_TYPE.get(head);
                let ty = ImmType::from_number(ty_num).ok_or_else(|| {
                    DecodeError::new(at, K::BadEnum, format!("unknown immediate type {ty_num}"))
                })?;
                let mut data = [0u32; 4];
                for w in data.iter_mut() {
                    *w = rd.next("immediate data")?;
                }
                shader.immediates.push(Immediate {
                    ty,
                    words: data,
                    span: Span::new(0, at as u32),
                });
                shader.order.push(ItemKind::Immediate);
            }
            group::INSTRUCTION => {
                if shader.instructions.len() >= limits.max_instructions {
                    return Err(DecodeError::new(
                        at,
                        K::LimitExceeded,
                        "too many instructions",
                    ));
                }
                let inst = instruction(&mut rd, head, at)?;
                shader.instructions.push(inst);
                shader.order.push(ItemKind::Instruction);
            }
            group::PROPERTY => {
                if shader.properties.len() >= limits.max_properties {
                    return Err(DecodeError::new(
                        at,
                        K::LimitExceeded,
                        "too many properties",
                    ));
                }
                let n = group::NR_TOKENS.get(head);
                if n != 2 {
                    return Err(DecodeError::new(
                        at,
                        K::CountMismatch,
                        format!("property has NrTokens {n}, expected 2"),
                    ));
                }
                let num = prop::NAME.get(head);
                let name = PropertyName::from_number(num).ok_or_else(|| {
                    DecodeError::new(at, K::BadEnum, format!("unknown property {num}"))
                })?;
                let value = rd.next("the property value")?;
                shader.properties.push(Property {
                    name,
                    value,
                    span: Span::new(0, at as u32),
                });
                shader.order.push(ItemKind::Property);
            }
            t => {
                return Err(DecodeError::new(
                    at,
                    K::UnknownTokenType,
                    format!("unknown token type {t}"),
                ))
            }
        }
        if rd.pos > end {
            return Err(DecodeError::new(
                at,
                K::Truncated,
                "a token group runs past the end of the body",
            ));
        }
    }
    Ok(shader)
}

struct Reader<'a> {
    words: &'a [u32],
    pos: usize,
}

impl Reader<'_> {
    fn next(&mut self, what: &str) -> Result<u32, DecodeError> {
        match self.words.get(self.pos) {
            Some(&w) => {
                self.pos += 1;
                Ok(w)
            }
            None => Err(DecodeError::new(
                self.pos,
                K::Truncated,
                format!("stream ends where {what} was expected"),
            )),
        }
    }
}

fn enum_value<T>(
    at: usize,
    value: u32,
    from: fn(u32) -> Option<T>,
    what: &str,
) -> Result<T, DecodeError> {
    from(value).ok_or_else(|| DecodeError::new(at, K::BadEnum, format!("unknown {what} {value}")))
}

fn file(at: usize, value: u32) -> Result<File, DecodeError> {
    match File::from_number(value) {
        Some(f) if !f.is_legacy() => Ok(f),
        _ => Err(DecodeError::new(
            at,
            K::BadEnum,
            format!("unknown register file {value}"),
        )),
    }
}

fn format(at: usize, value: u32) -> Result<Format, DecodeError> {
    let f = Format(value as u16);
    if f.is_known() {
        Ok(f)
    } else {
        Err(DecodeError::new(
            at,
            K::BadEnum,
            format!("unknown pipe_format {value}"),
        ))
    }
}

fn declaration(rd: &mut Reader, head: u32, at: usize) -> Result<Declaration, DecodeError> {
    let f = file(at, d::FILE.get(head))?;
    let range = rd.next("the declaration range")?;
    let mut decl = Declaration::new(f, d::RANGE_FIRST.get(range), d::RANGE_LAST.get(range));
    decl.span = Span::new(0, at as u32);
    if decl.last < decl.first {
        return Err(DecodeError::new(
            at + 1,
            K::Contradictory,
            format!("range {}..{} is empty", decl.first, decl.last),
        ));
    }
    decl.usage_mask = WriteMask(d::USAGE_MASK.get(head) as u8);
    decl.invariant = d::INVARIANT.get(head) != 0;
    decl.local = d::LOCAL.get(head) != 0;
    decl.atomic = d::ATOMIC.get(head) != 0;
    decl.memory_type = enum_value(
        at,
        d::MEM_TYPE.get(head),
        MemoryType::from_number,
        "memory type",
    )?;
    if d::DIMENSION.get(head) != 0 {
        let w = rd.next("the declaration dimension")?;
        decl.dimension = Some(d::DIM_INDEX.get(w));
    }
    if d::INTERPOLATE.get(head) != 0 {
        let w_at = rd.pos;
        let w = rd.next("the interpolation word")?;
        decl.interp = Some(InterpDecl {
            mode: enum_value(
                w_at,
                d::INTERP_MODE.get(w),
                Interpolate::from_number,
                "interpolation mode",
            )?,
            location: enum_value(
                w_at,
                d::INTERP_LOCATION.get(w),
                InterpLocation::from_number,
                "interpolation location",
            )?,
        });
    }
    if d::SEMANTIC.get(head) != 0 {
        let w_at = rd.pos;
        let w = rd.next("the semantic word")?;
        let mut streams = [0u8; 4];
        for (s, field) in streams.iter_mut().zip(d::STREAM) {
            *s = field.get(w) as u8;
        }
        decl.semantic = Some(SemanticDecl {
            name: enum_value(
                w_at,
                d::SEMANTIC_NAME.get(w),
                Semantic::from_number,
                "semantic",
            )?,
            index: d::SEMANTIC_INDEX.get(w),
            streams,
        });
    }
    match f {
        File::Image => {
            let w_at = rd.pos;
            let w = rd.next("the image word")?;
            decl.resource = Some(ResourceDecl::Image {
                target: enum_value(
                    w_at,
                    d::IMAGE_RESOURCE.get(w),
                    TextureTarget::from_number,
                    "texture target",
                )?,
                format: format(w_at, d::IMAGE_FORMAT.get(w))?,
                writable: d::IMAGE_WRITABLE.get(w) != 0,
                raw: d::IMAGE_RAW.get(w) != 0,
            });
        }
        File::SamplerView => {
            let w_at = rd.pos;
            let w = rd.next("the sampler view word")?;
            let mut return_types = [ReturnType::Unorm; 4];
            for (t, field) in return_types.iter_mut().zip(d::SVIEW_RETURN) {
                *t = enum_value(w_at, field.get(w), ReturnType::from_number, "return type")?;
            }
            decl.resource = Some(ResourceDecl::SamplerView {
                target: enum_value(
                    w_at,
                    d::SVIEW_RESOURCE.get(w),
                    TextureTarget::from_number,
                    "texture target",
                )?,
                return_types,
            });
        }
        _ => {}
    }
    if d::ARRAY.get(head) != 0 {
        let w = rd.next("the array word")?;
        decl.array_id = Some(d::ARRAY_ID.get(w) as u16);
    }
    let n = group::NR_TOKENS.get(head) as usize;
    if n != rd.pos - at {
        return Err(DecodeError::new(
            at,
            K::CountMismatch,
            format!(
                "declaration has NrTokens {n} but its flags describe {} words",
                rd.pos - at
            ),
        ));
    }
    Ok(decl)
}

fn indirect(rd: &mut Reader) -> Result<Indirect, DecodeError> {
    let at = rd.pos;
    let w = rd.next("an indirect register word")?;
    Ok(Indirect {
        file: file(at, r::IND_FILE.get(w))?,
        index: r::IND_INDEX.get_signed(w),
        component: r::IND_SWIZZLE.get(w) as u8,
        array_id: r::IND_ARRAY_ID.get(w) as u16,
    })
}

/// The indirect / dimension / dimension-indirect words after a register word.
fn register_tail(
    rd: &mut Reader,
    reg: &mut Register,
    has_indirect: bool,
    has_dim: bool,
) -> Result<(), DecodeError> {
    if has_indirect {
        reg.indirect = Some(indirect(rd)?);
    }
    if has_dim {
        let at = rd.pos;
        let w = rd.next("a dimension word")?;
        if r::DIM_DIMENSION.get(w) != 0 {
            return Err(DecodeError::new(
                at,
                K::Unsupported,
                "a dimension with its own dimension (3-D register) is not supported",
            ));
        }
        let mut dim = Dimension {
            index: r::DIM_INDEX.get_signed(w),
            indirect: None,
        };
        if r::DIM_INDIRECT.get(w) != 0 {
            dim.indirect = Some(indirect(rd)?);
        }
        reg.dimension = Some(dim);
    }
    Ok(())
}

fn instruction(rd: &mut Reader, head: u32, at: usize) -> Result<Instruction, DecodeError> {
    let number = i::OPCODE.get(head);
    let opcode = Opcode::from_number(number)
        .ok_or_else(|| DecodeError::new(at, K::BadEnum, format!("unknown opcode {number}")))?;
    let info = opcode.info();
    let num_dst = i::NUM_DST.get(head);
    let num_src = i::NUM_SRC.get(head);
    let legacy_no_stream = matches!(opcode, Opcode::EMIT | Opcode::ENDPRIM) && num_src == 0;
    if num_dst != info.num_dst as u32 || (num_src != info.num_src as u32 && !legacy_no_stream) {
        return Err(DecodeError::new(
            at,
            K::Contradictory,
            format!(
                "{} takes {} destinations and {} sources, the token says {num_dst} and {num_src}",
                info.name, info.num_dst, info.num_src
            ),
        ));
    }
    let mut inst = Instruction::new(opcode);
    inst.span = Span::new(0, at as u32);
    inst.saturate = i::SATURATE.get(head) != 0;
    inst.precise = i::PRECISE.get(head) != 0;
    if i::LABEL.get(head) != 0 {
        inst.label = Some(i::LABEL_VALUE.get(rd.next("the label word")?));
    }
    if i::TEXTURE.get(head) != 0 {
        let w_at = rd.pos;
        let w = rd.next("the texture word")?;
        let n = i::TEX_NUM_OFFSETS.get(w);
        if n > 4 {
            return Err(DecodeError::new(
                w_at,
                K::Contradictory,
                format!("{n} texel offsets; at most 4 are allowed"),
            ));
        }
        let mut tex = TextureInfo {
            target: enum_value(
                w_at,
                i::TEX_TARGET.get(w),
                TextureTarget::from_number,
                "texture target",
            )?,
            return_type: enum_value(
                w_at,
                i::TEX_RETURN_TYPE.get(w),
                ReturnType::from_number,
                "return type",
            )?,
            offsets: Vec::with_capacity(n as usize),
        };
        for _ in 0..n {
            let o_at = rd.pos;
            let o = rd.next("a texel offset word")?;
            let mut swizzle = [0u8; 3];
            for (s, field) in swizzle.iter_mut().zip(i::OFFSET_SWIZZLE) {
                *s = field.get(o) as u8;
            }
            tex.offsets.push(TexOffset {
                file: file(o_at, i::OFFSET_FILE.get(o))?,
                index: i::OFFSET_INDEX.get_signed(o),
                swizzle,
            });
        }
        inst.texture = Some(Box::new(tex));
    }
    if i::MEMORY.get(head) != 0 {
        let w_at = rd.pos;
        let w = rd.next("the memory word")?;
        inst.memory = Some(MemoryInfo {
            qualifiers: i::MEM_QUALIFIER.get(w) as u8,
            target: enum_value(
                w_at,
                i::MEM_TEXTURE.get(w),
                TextureTarget::from_number,
                "texture target",
            )?,
            format: format(w_at, i::MEM_FORMAT.get(w))?,
        });
    }
    for _ in 0..num_dst {
        let w_at = rd.pos;
        let w = rd.next("a destination register")?;
        let mut reg = Register::new(file(w_at, r::FILE.get(w))?, r::DST_INDEX.get_signed(w));
        register_tail(
            rd,
            &mut reg,
            r::DST_INDIRECT.get(w) != 0,
            r::DST_DIMENSION.get(w) != 0,
        )?;
        inst.dst.push(Dst {
            reg,
            write_mask: WriteMask(r::DST_WRITE_MASK.get(w) as u8),
        });
    }
    for _ in 0..num_src {
        let w_at = rd.pos;
        let w = rd.next("a source register")?;
        let mut reg = Register::new(file(w_at, r::FILE.get(w))?, r::SRC_INDEX.get_signed(w));
        register_tail(
            rd,
            &mut reg,
            r::SRC_INDIRECT.get(w) != 0,
            r::SRC_DIMENSION.get(w) != 0,
        )?;
        let mut swizzle = [0u8; 4];
        for (s, field) in swizzle.iter_mut().zip(r::SRC_SWIZZLE) {
            *s = field.get(w) as u8;
        }
        inst.src.push(Src {
            reg,
            swizzle: Swizzle(swizzle),
            absolute: r::SRC_ABSOLUTE.get(w) != 0,
            negate: r::SRC_NEGATE.get(w) != 0,
        });
    }
    let n = group::NR_TOKENS.get(head) as usize;
    if n != rd.pos - at - 1 {
        return Err(DecodeError::new(
            at,
            K::CountMismatch,
            format!(
                "instruction has NrTokens {n} but its flags describe {} words",
                rd.pos - at - 1
            ),
        ));
    }
    Ok(inst)
}
