//! Shared helpers for the tgsi fuzz targets: the predicate that says whether a shader's
//! printed text can be expected to parse back to the same print, and the structured
//! generator that builds IR shaders from `arbitrary` input, and the edge-value words the
//! execution targets feed shaders.

pub mod generate;

/// Input words that include edge values (NaN, −0, INT_MIN, 1.0, …).
pub const EDGES: [u32; 8] = [
    0x7fc0_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x0000_0001,
    0x7f80_0000,
    0xffff_ffff,
    0x4120_0000,
];

use tgsi::opcode;
use tgsi::{CoordOrigin, InterpLocation, Interpolate, PixelCenter, Primitive, ResourceDecl};
use tgsi::{File, Item, Processor, PropertyValueKind, ReturnType, Shader};

/// Whether a register file takes the plain `LOCAL` / semantic / interpolation attributes in
/// text (the resource-like files have their own attribute syntax instead).
fn plain_attrs(file: File) -> bool {
    !matches!(
        file,
        File::Resource | File::Image | File::SamplerView | File::Buffer | File::Memory
    )
}

/// Whether Mesa's printed text of `shader` is expected to parse back and print identically.
///
/// Token streams can hold things that the text form (Mesa's as much as ours) cannot spell;
/// each exclusion below is such a case, not a parser shortcoming:
/// - negative register, dimension or address indices (`TEMP[-1]`: indices are unsigned in text);
/// - empty write / usage masks (Mesa prints a bare `.`);
/// - semantics 47/48 (no text name; printed as a number), enum-valued properties outside
///   their enumeration (printed as a number);
/// - attributes that the printer writes but the parser only reads for other files or stages
///   (semantic / LOCAL on resource files, `STREAM` outside geometry outputs, an interpolation
///   location without the mode that only fragment inputs print);
/// - a 2-D declaration of a per-vertex file (`IN[][d][i]`);
/// - the COLOR interpolation mode on a fragment input without a semantic (reads back as
///   the COLOR semantic);
/// - mixed or UNKNOWN sampler-view return types (Mesa keeps only the first);
/// - a texture or memory token on an opcode whose text has no place for it, a texture
///   opcode without its texture token, a BGNSUB label (printed, never parsed);
/// - a texture target or texel offset the text cannot carry (negative offset index).
pub fn text_expressible(shader: &Shader) -> bool {
    let processor = shader.processor;
    let per_vertex = |file: File| match processor {
        Processor::Geometry | Processor::TessEval => file == File::Input,
        Processor::TessCtrl => matches!(file, File::Input | File::Output),
        _ => false,
    };
    for item in shader.items() {
        match item {
            Item::Property(p) => {
                let ok = match p.name.value_kind() {
                    PropertyValueKind::Primitive => Primitive::from_number(p.value).is_some(),
                    PropertyValueKind::CoordOrigin => CoordOrigin::from_number(p.value).is_some(),
                    PropertyValueKind::PixelCenter => PixelCenter::from_number(p.value).is_some(),
                    PropertyValueKind::Processor => Processor::from_number(p.value).is_some(),
                    PropertyValueKind::Number => true,
                };
                if !ok {
                    return false;
                }
            }
            Item::Declaration(d) => {
                if d.usage_mask.0 == 0 {
                    return false;
                }
                if per_vertex(d.file) && d.dimension.is_some() {
                    return false;
                }
                if !plain_attrs(d.file) && (d.local || d.semantic.is_some()) {
                    return false;
                }
                if let Some(sem) = d.semantic {
                    if !sem.name.has_text_name() {
                        return false;
                    }
                    let gs_out = processor == Processor::Geometry && d.file == File::Output;
                    if sem.streams != [0; 4] && !gs_out {
                        return false;
                    }
                }
                if let Some(interp) = d.interp {
                    let fs_in = processor == Processor::Fragment && d.file == File::Input;
                    if !fs_in && interp.location != InterpLocation::Center {
                        return false;
                    }
                    // `DCL IN[0], COLOR` reads as the COLOR semantic, not the mode.
                    if fs_in && d.semantic.is_none() && interp.mode == Interpolate::Color {
                        return false;
                    }
                }
                if let Some(ResourceDecl::SamplerView { return_types, .. }) = d.resource {
                    let sview_like = matches!(d.file, File::SamplerView | File::Resource);
                    if sview_like
                        && (return_types.iter().any(|&t| t != return_types[0])
                            || return_types[0] == ReturnType::Unknown)
                    {
                        return false;
                    }
                }
            }
            Item::Immediate(..) => {}
            Item::Instruction(_, inst) => {
                let info = inst.opcode.info();
                let tex_op = info.has(opcode::TEX) || info.has(opcode::SVIEW_OFFSETS);
                if (inst.texture.is_some() && !tex_op)
                    || (inst.texture.is_none() && info.has(opcode::TEX))
                {
                    return false;
                }
                if let Some(tex) = &inst.texture {
                    if tex.offsets.iter().any(|o| o.index < 0) {
                        return false;
                    }
                }
                if let Some(mem) = &inst.memory {
                    let empty = mem.qualifiers == 0
                        && mem.target == tgsi::TextureTarget::Buffer
                        && mem.format == tgsi::Format::NONE;
                    if !info.has(opcode::MEM) && !empty {
                        return false;
                    }
                }
                if inst.opcode == tgsi::Opcode::BGNSUB && inst.label.is_some() {
                    return false;
                }
                let regs = inst
                    .dst
                    .iter()
                    .map(|d| &d.reg)
                    .chain(inst.src.iter().map(|s| &s.reg));
                for reg in regs {
                    if reg.indirect.is_none() && reg.index < 0 {
                        return false;
                    }
                    if reg.indirect.is_some_and(|i| i.index < 0) {
                        return false;
                    }
                    if let Some(dim) = reg.dimension {
                        if dim.indirect.is_none() && dim.index < 0 {
                            return false;
                        }
                        if dim.indirect.is_some_and(|i| i.index < 0) {
                            return false;
                        }
                    }
                }
                if inst.dst.iter().any(|d| d.write_mask.0 == 0) {
                    return false;
                }
            }
        }
    }
    true
}

/// Drops what Mesa's printer never writes, so that a shader can be compared with what its
/// printed text parses back to: an interpolation attribute is printed only on fragment
/// inputs (Mesa's `tgsi_dump` does the same).
pub fn drop_unprinted(shader: &mut Shader) {
    let fs = shader.processor == Processor::Fragment;
    for d in &mut shader.declarations {
        if !(fs && d.file == File::Input) {
            d.interp = None;
        }
    }
}

/// Runs the validator (which must not panic) and checks it against the encoder: the
/// encoder refuses only shaders with a validator error, so every shader `tgsi check`
/// accepts can be encoded.
pub fn check_validator_agrees_with_encoder(shader: &Shader) {
    use tgsi::validate::has_errors;
    let diags = tgsi::validate(shader, &tgsi::Limits::DEFAULT);
    if let Err(e) = tgsi::tokens::encode(shader) {
        assert!(
            has_errors(&diags),
            "encode refuses a shader the validator accepts: {e}\n{}",
            tgsi::print(shader)
        );
    }
}
