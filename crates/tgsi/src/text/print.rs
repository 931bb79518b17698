//! The printer: writes a [`Shader`] exactly as Mesa's `tgsi_dump` does (instruction
//! numbers, indentation, omitted identity swizzles and full masks, `%10.4f` floats), or,
//! with [`PrintOptions::hex_floats`], with FLT32 immediates as raw bits so that the text
//! round-trips losslessly.

use std::fmt::Write;

use super::number::write_fixed;
use super::{parse_into, ParseError, Sink};
use crate::enums::*;
use crate::ir::*;
use crate::limits::Limits;
use crate::opcode::{self, Opcode, OpcodeInfo};
use crate::pipe_format::Format;

/// Printer settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print FLT32 immediates as `0x3f800000` bit patterns (lossless, and read back as bits
    /// by the parser) instead of Mesa's lossy `%10.4f`.
    pub hex_floats: bool,
}

/// Prints a shader in Mesa's canonical form.
pub fn print(shader: &Shader) -> String {
    print_with(shader, PrintOptions::default())
}

/// Prints a shader with options.
pub fn print_with(shader: &Shader, options: PrintOptions) -> String {
    let capacity = 4096 + shader.declarations.len() * 64 + shader.instructions.len() * 80;
    let bytes = print_blocks(shader, options, capacity, |_| Ok(())).unwrap_or_default();
    // Only `&str`s and ASCII characters were appended.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes what [`print_with`] returns to `out`, 64 KiB at a time, without holding the
/// whole text in memory.
pub fn print_to(
    shader: &Shader,
    options: PrintOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    const BLOCK: usize = 64 << 10;
    let rest = print_blocks(shader, options, 2 * BLOCK, |buf| {
        if buf.len() >= BLOCK {
            out.write_all(buf)?;
            buf.clear();
        }
        Ok(())
    })?;
    out.write_all(&rest)
}

/// Prints into a buffer of `capacity` bytes, handing it to `block` after each statement
/// (which may write it out and clear it); returns what is left in it.
fn print_blocks(
    shader: &Shader,
    options: PrintOptions,
    capacity: usize,
    mut block: impl FnMut(&mut Vec<u8>) -> std::io::Result<()>,
) -> std::io::Result<Vec<u8>> {
    let mut p = Printer::new(options, capacity);
    p.processor(shader.processor);
    for item in shader.items() {
        p.item(item);
        block(&mut p.out.0)?;
    }
    Ok(p.out.0)
}

/// Parses TGSI text and prints it in canonical form (with default [`Limits`]), statement
/// by statement as it is read, without building a [`Shader`]: exactly
/// `print_with(&parse(text)?, options)`, in the time and memory of the text alone.
///
/// ```
/// let text = "FRAG\nDCL OUT[0], COLOR\nMOV OUT[0], IMM[0].xyzw\nEND\n";
/// let printed = tgsi::text::reformat(text, tgsi::PrintOptions::default()).unwrap();
/// assert_eq!(printed, tgsi::print(&tgsi::parse(text).unwrap()));
/// ```
///
/// [`Limits`]: crate::Limits
pub fn reformat(text: &str, options: PrintOptions) -> Result<String, ParseError> {
    // The canonical form is about as long as the text it is printed from.
    let mut p = Printer::new(options, text.len().saturating_add(4096));
    parse_into(text, &Limits::DEFAULT, &mut p)?;
    // Only `&str`s and ASCII characters were appended.
    Ok(String::from_utf8(p.out.0)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

impl Sink for Printer {
    const COPIES_CANONICAL: bool = true;

    fn processor(&mut self, processor: Processor) {
        self.processor = processor;
        self.out.push_str(processor.name());
        self.out.push('\n');
    }

    fn item(&mut self, item: Item<'_>) {
        match item {
            Item::Property(prop) => self.property(prop),
            Item::Declaration(decl) => self.declaration(self.processor, decl),
            Item::Immediate(i, imm) => self.immediate(i, imm),
            Item::Instruction(i, inst) => self.instruction(i, inst),
        }
    }

    fn canonical_instruction(&mut self, index: usize, inst: &Instruction, text: &[u8]) {
        // The text after the number and indentation is what `instruction` would print.
        self.instruction_start(index, inst.opcode.info());
        self.out.0.extend_from_slice(text);
        self.out.push('\n');
    }
}

/// The output: bytes appended without UTF-8 encoding work per character (the printer only
/// ever appends whole `&str`s and ASCII characters).
struct Buf(Vec<u8>);

/// A short piece of text in a fixed-size block: the first `len` bytes are the text, the rest
/// filler. Appending it stores the whole block and then cuts the length back, a few fixed
/// stores where appending a slice of varying length calls `memcpy` (the printer's names,
/// numbers and instruction numbers).
#[derive(Clone, Copy)]
struct Chunk<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Chunk<N> {
    /// `text` as a chunk; fails to compile (in a constant) when it does not fit.
    const fn new(text: &str) -> Chunk<N> {
        let text = text.as_bytes();
        assert!(text.len() <= N, "a name longer than its chunk");
        let mut bytes = [0; N];
        let mut i = 0;
        while i < text.len() {
            bytes[i] = text[i];
            i += 1;
        }
        Chunk {
            bytes,
            len: text.len(),
        }
    }

    /// A chunk of each of `names`, in order.
    const fn table<const M: usize>(names: &[&str]) -> [Chunk<N>; M] {
        let mut table = [Chunk {
            bytes: [0; N],
            len: 0,
        }; M];
        let mut i = 0;
        while i < M {
            table[i] = Chunk::new(names[i]);
            i += 1;
        }
        table
    }
}

/// Opcode mnemonics as chunks, indexed by [`Opcode`].
const OPCODE_NAMES: [Chunk<16>; opcode::NAMES.len()] = Chunk::table(opcode::NAMES);

/// Write masks as chunks for [`Printer::write_mask`]: entry 16 + c is `.` and the letters
/// of the channels c; entry c the same, except the full mask's, which is empty.
const WRITE_MASKS: [Chunk<8>; 32] = {
    let mut masks = [Chunk {
        bytes: [0; 8],
        len: 0,
    }; 32];
    let mut m = 0;
    while m < 32 {
        let mut chunk = Chunk {
            bytes: [0; 8],
            len: 1,
        };
        chunk.bytes[0] = b'.';
        let mut c = 0;
        while c < 4 {
            if m & 0xf & (1 << c) != 0 {
                chunk.bytes[chunk.len] = channel_letter(c) as u8;
                chunk.len += 1;
            }
            c += 1;
        }
        if m != 0xf {
            masks[m as usize] = chunk;
        }
        m += 1;
    }
    masks
};

/// Register file names as chunks, indexed by [`File`] (declaration order is `File::ALL`'s).
const FILE_NAMES: [Chunk<8>; File::ALL.len()] = {
    let mut names = [""; File::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = File::ALL[i].name();
        i += 1;
    }
    Chunk::table(&names)
};

impl Buf {
    #[inline]
    fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }

    #[inline(always)]
    fn push_chunk<const N: usize>(&mut self, chunk: &Chunk<N>) {
        let len = self.0.len() + chunk.len;
        self.0.extend_from_slice(&chunk.bytes);
        self.0.truncate(len);
    }

    #[inline(always)]
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            self.0.push(c as u8);
        } else {
            self.push_str(c.encode_utf8(&mut [0; 4]));
        }
    }
}

impl Write for Buf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

/// Appends the decimal digits of `value` (as `{}` would print it).
#[inline(always)]
fn push_u64(out: &mut Buf, value: u64) {
    // Register indices and operand numbers are mostly one or two digits.
    if value < 10 {
        out.0.push(b'0' + value as u8);
        return;
    }
    if value < 100 {
        out.0.push(b'0' + (value / 10) as u8);
        out.0.push(b'0' + (value % 10) as u8);
        return;
    }
    push_number(out, value, 0);
}

/// Appends `value` in decimal, right-aligned in `width` characters (`%*u`).
#[inline(always)]
fn push_number(out: &mut Buf, value: u64, width: usize) {
    // Up to eight characters are built in a register, the first in its lowest byte, and
    // stored at once (digits stored one by one and read back as a block would stall).
    let (mut rest, mut text, mut len) = (value, 0u64, 0);
    while len < 8 {
        text = text << 8 | u64::from(b'0' + (rest % 10) as u8);
        rest /= 10;
        len += 1;
        if rest == 0 {
            break;
        }
    }
    if rest == 0 && width <= 8 {
        let pad = width.saturating_sub(len);
        if pad > 0 {
            let spaces = 0x2020_2020_2020_2020u64 & ((1 << (8 * pad)) - 1);
            text = text << (8 * pad) | spaces;
            len += pad;
        }
        out.push_chunk(&Chunk {
            bytes: text.to_le_bytes(),
            len,
        });
        return;
    }
    // Longer: right to left in a block.
    let mut bytes = [b' '; 24];
    let digits = value.max(1).ilog10() as usize + 1;
    let len = width.min(4).max(digits);
    let mut value = value;
    for at in (len - digits..len).rev() {
        bytes[at] = b'0' + (value % 10) as u8;
        value /= 10;
    }
    out.push_chunk(&Chunk { bytes, len });
}

/// Appends a signed number as `{}` prints it.
#[inline(always)]
fn push_i64(out: &mut Buf, value: i64) {
    if value < 0 {
        out.push('-');
    }
    push_u64(out, value.unsigned_abs());
}

/// Appends `[value]`.
#[inline(always)]
fn push_index(out: &mut Buf, value: i64) {
    // Most indices are below 100: one chunk.
    if let Ok(v @ 0..100) = u8::try_from(value) {
        let (tens, ones) = (b'0' + v / 10, b'0' + v % 10);
        out.push_chunk(&if v < 10 {
            Chunk {
                bytes: [b'[', ones, b']', 0],
                len: 3,
            }
        } else {
            Chunk {
                bytes: [b'[', tens, ones, b']'],
                len: 4,
            }
        });
        return;
    }
    out.push('[');
    push_i64(out, value);
    out.push(']');
}

/// Nesting depth beyond which the printer stops indenting further.
const MAX_PRINTED_INDENT: usize = 64;

struct Printer {
    out: Buf,
    options: PrintOptions,
    indent: usize,
    /// The stage, which decides how some declarations print.
    processor: Processor,
}

/// Writes the name of an enum value, or its number when it has no name.
fn enum_text<T: Copy>(
    value: u32,
    from: fn(u32) -> Option<T>,
    name: fn(T) -> &'static str,
) -> String {
    match from(value) {
        Some(v) => name(v).to_string(),
        None => value.to_string(),
    }
}

fn format_text(format: Format) -> String {
    format
        .name()
        .unwrap_or_else(|| format!("PIPE_FORMAT_{}", format.0))
}

impl Printer {
    fn new(options: PrintOptions, capacity: usize) -> Printer {
        let mut out = Vec::with_capacity(capacity);
        crate::huge_pages::advise(&mut out);
        Printer {
            out: Buf(out),
            options,
            indent: 0,
            processor: Processor::Vertex,
        }
    }

    fn property(&mut self, prop: &Property) {
        let value = match prop.name.value_kind() {
            PropertyValueKind::Primitive => {
                enum_text(prop.value, Primitive::from_number, Primitive::name)
            }
            PropertyValueKind::CoordOrigin => {
                enum_text(prop.value, CoordOrigin::from_number, CoordOrigin::name)
            }
            PropertyValueKind::PixelCenter => {
                enum_text(prop.value, PixelCenter::from_number, PixelCenter::name)
            }
            PropertyValueKind::Processor => {
                enum_text(prop.value, Processor::from_number, Processor::name)
            }
            PropertyValueKind::Number => (prop.value as i32).to_string(),
        };
        let _ = writeln!(self.out, "PROPERTY {} {}", prop.name.name(), value);
    }

    /// `.` and the letters of `mask`'s channels, unless it is the full mask.
    #[inline(always)]
    fn write_mask(&mut self, mask: WriteMask) {
        // Masks up to 0xf index their own entry (0xf: nothing); larger ones, which only
        // code can build, the entry of their channels that always prints (16 + channels,
        // never above the mask itself). No branch: masks vary from line to line.
        let m = mask.0;
        self.out
            .push_chunk(&WRITE_MASKS[usize::from(m.min(16 + (m & 0xf)))]);
    }

    fn declaration(&mut self, processor: Processor, decl: &Declaration) {
        self.out.push_str("DCL ");
        self.out.push_str(decl.file.name());
        let per_patch = decl.semantic.is_some_and(|s| s.name.is_per_patch());
        let vertex_dim = match (processor, decl.file) {
            (Processor::Geometry, File::Input) => true,
            (Processor::TessCtrl | Processor::TessEval, File::Input) => !per_patch,
            (Processor::TessCtrl, File::Output) => !per_patch,
            _ => false,
        };
        if vertex_dim {
            self.out.push_str("[]");
        }
        if let Some(dim) = decl.dimension {
            push_index(&mut self.out, dim as i32 as i64);
        }
        if decl.first == decl.last {
            push_index(&mut self.out, decl.first as i32 as i64);
        } else {
            self.out.push('[');
            push_i64(&mut self.out, decl.first as i32 as i64);
            self.out.push_str("..");
            push_i64(&mut self.out, decl.last as i32 as i64);
            self.out.push(']');
        }
        self.write_mask(decl.usage_mask);
        if let Some(id) = decl.array_id {
            let _ = write!(self.out, ", ARRAY({})", id as i32);
        }
        if decl.local {
            self.out.push_str(", LOCAL");
        }
        if let Some(sem) = decl.semantic {
            self.out.push_str(", ");
            self.out.push_str(if sem.name.has_text_name() {
                sem.name.name()
            } else {
                ""
            });
            if !sem.name.has_text_name() {
                let _ = write!(self.out, "{}", sem.name.number());
            }
            if sem.index != 0 || matches!(sem.name, Semantic::Generic | Semantic::TexCoord) {
                let _ = write!(self.out, "[{}]", sem.index);
            }
            if sem.streams != [0; 4] {
                let s = sem.streams;
                let _ = write!(self.out, ", STREAM({}, {}, {}, {})", s[0], s[1], s[2], s[3]);
            }
        }
        match (decl.file, decl.resource) {
            (
                File::Image,
                Some(ResourceDecl::Image {
                    target,
                    format,
                    writable,
                    raw,
                }),
            ) => {
                let _ = write!(self.out, ", {}, {}", target.name(), format_text(format));
                if writable {
                    self.out.push_str(", WR");
                }
                if raw {
                    self.out.push_str(", RAW");
                }
            }
            (File::Image, _) => self.out.push_str(", BUFFER, PIPE_FORMAT_NONE"),
            (
                File::Resource,
                Some(ResourceDecl::Image {
                    target,
                    writable,
                    raw,
                    ..
                }),
            ) => {
                self.out.push_str(", ");
                self.out.push_str(target.name());
                if writable {
                    self.out.push_str(", WR");
                }
                if raw {
                    self.out.push_str(", RAW");
                }
            }
            _ => {}
        }
        if decl.file == File::Buffer && decl.atomic {
            self.out.push_str(", ATOMIC");
        }
        if decl.file == File::Memory {
            self.out.push_str(", ");
            self.out.push_str(decl.memory_type.name());
        }
        let sview_like = matches!(
            (decl.file, decl.resource),
            (File::SamplerView, _) | (File::Resource, Some(ResourceDecl::SamplerView { .. }))
        );
        if sview_like {
            let (target, types) = match decl.resource {
                Some(ResourceDecl::SamplerView {
                    target,
                    return_types,
                }) => (target, return_types),
                _ => (TextureTarget::Buffer, [ReturnType::Unorm; 4]),
            };
            let _ = write!(self.out, ", {}, ", target.name());
            if types.iter().all(|&t| t == types[0]) {
                self.out.push_str(types[0].name());
            } else {
                let names: Vec<_> = types.iter().map(|t| t.name()).collect();
                self.out.push_str(&names.join(", "));
            }
        }
        if let Some(interp) = decl.interp {
            if processor == Processor::Fragment && decl.file == File::Input {
                self.out.push_str(", ");
                self.out.push_str(interp.mode.name());
            }
            if interp.location != InterpLocation::Center {
                self.out.push_str(", ");
                self.out.push_str(interp.location.name());
            }
        }
        if decl.invariant {
            self.out.push_str(", INVARIANT");
        }
        self.out.push('\n');
    }

    fn immediate(&mut self, index: usize, imm: &Immediate) {
        self.out.push_str("IMM");
        push_index(&mut self.out, index as i64);
        self.out.push(' ');
        self.out.push_str(imm.ty.name());
        self.out.push_str(" {");
        let w = imm.words;
        let count = if imm.ty.is_64bit() { 2 } else { 4 };
        for i in 0..count {
            if i > 0 {
                self.out.push_str(", ");
            }
            // The i-th 64-bit value (low word first); only read for 64-bit types.
            let bits = || w[2 * i] as u64 | (w[2 * i + 1] as u64) << 32;
            match imm.ty {
                ImmType::Float32 if self.options.hex_floats => {
                    let _ = write!(self.out, "0x{:08x}", w[i]);
                }
                ImmType::Float32 => write_fixed(&mut self.out, f32::from_bits(w[i]) as f64, 4),
                ImmType::Uint32 => push_u64(&mut self.out, w[i] as u64),
                ImmType::Int32 => push_i64(&mut self.out, w[i] as i32 as i64),
                ImmType::Float64 => write_fixed(&mut self.out, f64::from_bits(bits()), 8),
                ImmType::Uint64 => push_u64(&mut self.out, bits()),
                ImmType::Int64 => push_i64(&mut self.out, bits() as i64),
            }
        }
        self.out.push_str("}\n");
    }

    fn indirect(&mut self, ind: &Indirect, offset: i32) {
        self.out.push('[');
        self.out.push_str(ind.file.name());
        push_index(&mut self.out, ind.index as i64);
        self.out.push('.');
        self.out.push(channel_letter(ind.component));
        if offset > 0 {
            self.out.push('+');
        }
        if offset != 0 {
            push_i64(&mut self.out, offset as i64);
        }
        self.out.push(']');
        if ind.array_id != 0 {
            self.out.push('(');
            push_u64(&mut self.out, ind.array_id as u64);
            self.out.push(')');
        }
    }

    #[inline(always)]
    fn register(&mut self, reg: &Register) {
        self.out.push_chunk(&FILE_NAMES[reg.file as usize]);
        if let Some(dim) = &reg.dimension {
            match &dim.indirect {
                Some(ind) => self.indirect(ind, dim.index),
                None => push_index(&mut self.out, dim.index as i64),
            }
        }
        match &reg.indirect {
            Some(ind) => self.indirect(ind, reg.index),
            None => push_index(&mut self.out, reg.index as i64),
        }
    }

    /// The `%3d: ` instruction number.
    #[inline(always)]
    fn instruction_number(&mut self, index: usize) {
        push_number(&mut self.out, index as u64, 3);
        self.out.push_str(": ");
    }

    /// The instruction number and the indentation, which the opcode may change.
    #[inline(always)]
    fn instruction_start(&mut self, index: usize, info: &OpcodeInfo) {
        self.instruction_number(index);
        if info.has(opcode::DEDENT) {
            self.indent = self.indent.saturating_sub(1);
        }
        // Mesa indents without bound, which makes the print of a hostile, deeply nested
        // shader quadratic in its size (100k nested IFs would be ~10 GB of spaces). No real
        // shader nests this deep, so stopping the indentation there changes no real output.
        for _ in 0..self.indent.min(MAX_PRINTED_INDENT) {
            self.out.push_str("  ");
        }
        if info.has(opcode::INDENT) {
            self.indent += 1;
        }
    }

    fn instruction(&mut self, index: usize, inst: &Instruction) {
        let info = inst.opcode.info();
        self.instruction_start(index, info);
        self.out.push_chunk(&OPCODE_NAMES[inst.opcode.index()]);
        if inst.saturate {
            self.out.push_str("_SAT");
        }
        if inst.precise {
            self.out.push_str("_PRECISE");
        }
        let mut first = true;
        let mut sep = |out: &mut Buf| {
            if !first {
                out.push(',');
            }
            out.push(' ');
            first = false;
        };
        for dst in &inst.dst {
            sep(&mut self.out);
            self.register(&dst.reg);
            self.write_mask(dst.write_mask);
        }
        for src in &inst.src {
            sep(&mut self.out);
            if src.negate {
                self.out.push('-');
            }
            if src.absolute {
                self.out.push('|');
            }
            self.register(&src.reg);
            if src.swizzle != Swizzle::IDENTITY {
                let [x, y, z, w] = src.swizzle.0.map(|c| channel_letter(c) as u8);
                self.out.push_chunk(&Chunk {
                    bytes: [b'.', x, y, z, w, 0, 0, 0],
                    len: 5,
                });
            }
            if src.absolute {
                self.out.push('|');
            }
        }
        if let Some(tex) = &inst.texture {
            if !info.has(opcode::SVIEW_OFFSETS) {
                self.out.push_str(", ");
                self.out.push_str(tex.target.name());
            }
            for off in &tex.offsets {
                self.out.push_str(", ");
                self.out.push_str(off.file.name());
                push_index(&mut self.out, off.index as i64);
                self.out.push('.');
                for c in off.swizzle {
                    self.out.push(channel_letter(c));
                }
            }
        }
        if let Some(mem) = &inst.memory {
            for q in MemoryQualifier::ALL {
                if mem.qualifiers & (1 << q.number()) != 0 {
                    self.out.push_str(", ");
                    self.out.push_str(q.name());
                }
            }
            if mem.target != TextureTarget::Buffer {
                self.out.push_str(", ");
                self.out.push_str(mem.target.name());
            }
            if mem.format != Format::NONE {
                self.out.push_str(", ");
                self.out.push_str(&format_text(mem.format));
            }
        }
        if let Some(label) = inst.label {
            if info.has(opcode::BRANCH) || inst.opcode == Opcode::BGNSUB {
                self.out.push_str(" :");
                push_u64(&mut self.out, label as u64);
            }
        }
        self.out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers and instruction numbers, written as fixed-size chunks, read as `format!`
    /// writes them: every digit count, each side of every power of ten, the extremes.
    #[test]
    fn chunked_numbers_print_as_format_does() {
        let mut values = vec![0, 1, 9, u64::from(u32::MAX), i64::MAX as u64, u64::MAX];
        for k in 1..20 {
            let p = 10u64.pow(k);
            values.extend([p - 1, p, p + 1]);
        }
        for v in values {
            let mut out = Buf(Vec::new());
            push_u64(&mut out, v);
            assert_eq!(out.0, v.to_string().into_bytes(), "{v}");
            let mut p = Printer::new(PrintOptions::default(), 0);
            p.instruction_number(v as usize);
            assert_eq!(p.out.0, format!("{v:3}: ").into_bytes(), "{v}");
        }
        for v in [i64::MIN, -1, -100, 0, 100] {
            let mut out = Buf(Vec::new());
            push_i64(&mut out, v);
            assert_eq!(out.0, v.to_string().into_bytes(), "{v}");
        }
    }

    /// Write masks (every byte, those a token cannot hold included) and small indices
    /// print as the letter-by-letter form does.
    #[test]
    fn chunked_masks_and_indices_print_as_spelled_out() {
        for m in 0..=u8::MAX {
            let mut p = Printer::new(PrintOptions::default(), 0);
            p.write_mask(WriteMask(m));
            let want = if m == 0xf {
                String::new()
            } else {
                let letters: String = (0..4)
                    .filter(|&c| m & (1 << c) != 0)
                    .map(|c| b"xyzw"[c] as char)
                    .collect();
                format!(".{letters}")
            };
            assert_eq!(p.out.0, want.into_bytes(), "mask {m:#x}");
        }
        for v in [-1000, -1, 0, 9, 10, 99, 100, 255, 256, 32767] {
            let mut out = Buf(Vec::new());
            push_index(&mut out, v);
            assert_eq!(out.0, format!("[{v}]").into_bytes());
        }
    }

    /// Every opcode and register-file name comes out of its chunk whole.
    #[test]
    fn name_chunks_hold_the_names() {
        for (i, info) in opcode::OPCODES.iter().enumerate() {
            let c = &OPCODE_NAMES[i];
            assert_eq!(&c.bytes[..c.len], info.name.as_bytes());
        }
        for &file in File::ALL {
            let c = &FILE_NAMES[file as usize];
            assert_eq!(&c.bytes[..c.len], file.name().as_bytes());
        }
    }
}
