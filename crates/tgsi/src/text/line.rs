//! The parser's statement-level fast path: one labelled instruction line exactly as the
//! printer writes it (`  7:   MAD_SAT TEMP[1].xy, -|CONST[1][ADDR[0].x+2]|, IN[0], IMM[3].xxxx`,
//! texture targets and offsets, ` :label`), read in a single pass over its bytes, either
//! into the parser's reused [`Instruction`] or, for the token assembler, straight into
//! token words.
//!
//! It accepts only text that the general path reads to the same instruction: single spaces
//! where the printer puts them, operands in the printer's form, values within the
//! [`Limits`], and a line end after which the general path could not continue the
//! statement (the next statement starts with a word, or the input ends). On anything else it
//! answers `None` without consuming input, and the general path reads the statement again,
//! with its exact errors.

use super::cursor::is_word_byte;
use super::names::{self, NameTable};
use super::parse::split_opcode;
use crate::enums::{File, ReturnType, TextureTarget};
use crate::ir::*;
use crate::limits::Limits;
use crate::opcode::{self, Opcode};
use crate::tokens::layout::{group, inst as i, reg as r, Field};

/// Where an instruction line read by [`instruction`] ends.
pub(super) struct Line {
    /// Offset of the opcode (the instruction's span) after the label and indentation.
    pub opcode_at: usize,
    /// Bytes read: the whole line up to, not including, its line feed.
    pub len: usize,
    /// Whether the line from the opcode on is exactly what the printer writes for the
    /// instruction read (no other spelling, no leading zeros, no full mask or identity
    /// swizzle written out, …), so that it can be copied instead of printed.
    pub canonical: bool,
}

/// Reads the labelled instruction line at the start of `text` into `inst` (whose `span` is
/// left to the caller), telling whether it is canonical only if `CANONICAL` (the check
/// costs time). `None` (with `inst` in any state) leaves the statement to the general path.
#[inline]
pub(super) fn instruction<const CANONICAL: bool>(
    text: &[u8],
    limits: &Limits,
    inst: &mut Instruction,
) -> Option<Line> {
    read_line::<CANONICAL>(text, limits, &mut IrOut(inst))
}

/// Reads the labelled instruction line at the start of `text` and appends its token words
/// to `words`, exactly as the encoder would from [`instruction`]'s result. `None` (with
/// `words` untouched) leaves the statement to the general path: also when a field does not
/// fit, so that the encoder reports it.
#[inline]
pub(super) fn words(text: &[u8], limits: &Limits, words: &mut Vec<u32>) -> Option<Line> {
    let mut out = WordsOut {
        words,
        head: 0,
        operands: [0; 16],
        len: 0,
        texture: None,
        label: None,
    };
    let line = read_line::<false>(text, limits, &mut out)?;
    out.finish()?;
    Some(line)
}

/// Where [`read_line`] puts what it reads.
trait Out {
    /// The opcode; `None` if this output cannot hold its instruction.
    fn opcode(&mut self, opcode: Opcode, saturate: bool, precise: bool) -> Option<()>;
    /// The next destination, read by `scan`.
    fn dst<const C: bool>(&mut self, scan: &mut Scan<'_, C>) -> Option<()>;
    /// The next source, read by `scan`.
    fn src<const C: bool>(&mut self, scan: &mut Scan<'_, C>) -> Option<()>;
    /// The texture target operand.
    fn target(&mut self, target: TextureTarget);
    /// Texel offsets so far (a texture is there).
    fn offsets(&self) -> Option<usize>;
    /// The next texel offset.
    fn offset(&mut self, offset: TexOffset) -> Option<()>;
    /// The branch label.
    fn label(&mut self, label: u32);
}

/// The line reader shared by [`instruction`] and [`words`].
#[inline(always)]
fn read_line<const CANONICAL: bool>(
    text: &[u8],
    limits: &Limits,
    out: &mut impl Out,
) -> Option<Line> {
    let mut s = Scan::<CANONICAL> {
        text,
        at: 0,
        max_digits: limits.max_token_len.min(9),
        max_index: limits.max_register_index,
        // Where it is not wanted, it stays false.
        canonical: CANONICAL,
    };
    // `  7: ` and the indentation; the label's value is ignored, as by the general path.
    s.uint()?;
    s.eat(b':')?;
    s.spaces();
    let opcode_at = s.at;
    let (opcode, saturate, precise) = match s.name(names::opcodes()) {
        Some(opcode) => (opcode, false, false),
        None => split_opcode(text.get(opcode_at..s.at)?)?,
    };
    let info = opcode.info();
    if CANONICAL {
        // The printer's spelling: the name (not an alias, upper case), then the suffixes.
        let word = text.get(opcode_at..s.at)?;
        let suffixes = [(saturate, &b"_SAT"[..]), (precise, b"_PRECISE")];
        let spelled = word
            .strip_prefix(info.name.as_bytes())
            .is_some_and(|mut rest| {
                for (present, suffix) in suffixes {
                    if present {
                        let Some(after) = rest.strip_prefix(suffix) else {
                            return false;
                        };
                        rest = after;
                    }
                }
                rest.is_empty()
            });
        s.note(spelled);
    }
    // Memory operands and the operand-less EMIT / ENDPRIM of old shaders: general path.
    if info.has(opcode::MEM) || matches!(opcode, Opcode::EMIT | Opcode::ENDPRIM) {
        return None;
    }
    out.opcode(opcode, saturate, precise)?;

    let (num_dst, num_src) = (info.num_dst as usize, info.num_src as usize);
    let total = num_dst + num_src + info.has(opcode::TEX) as usize;
    for k in 0..total {
        if k > 0 {
            s.eat(b',')?;
        }
        s.eat(b' ')?;
        if k < num_dst {
            out.dst(&mut s)?;
        } else if k < num_dst + num_src {
            out.src(&mut s)?;
        } else {
            let start = s.at;
            let target = s.name(names::texture_targets())?;
            if CANONICAL {
                s.note(text.get(start..s.at) == Some(target.name().as_bytes()));
            }
            out.target(target);
        }
        s.operand_end()?;
    }
    if let Some(mut n) = out.offsets() {
        while s.peek() == b',' {
            if n == 4 {
                return None;
            }
            s.at += 1;
            s.eat(b' ')?;
            let offset = s.tex_offset()?;
            out.offset(offset)?;
            s.operand_end()?;
            n += 1;
        }
    }
    if info.has(opcode::BRANCH) && s.peek() == b' ' {
        s.at += 1;
        s.eat(b':')?;
        let label = s.uint()?;
        if label >= 1 << 24 {
            return None;
        }
        out.label(label);
    }
    let len = s.at;
    // The line ends here, and nothing the general path would still read follows: it only
    // looks beyond a line end for punctuation (`.`, `[`, `,`, `|`, `:`).
    let next = match text.get(len) {
        None => None,
        Some(b'\n') => text
            .get(len..)?
            .iter()
            .copied()
            .find(|c| !matches!(c, b' ' | b'\t' | b'\n')),
        Some(_) => return None,
    };
    if next.is_some_and(|c| !is_word_byte(c)) {
        return None;
    }
    Some(Line {
        opcode_at,
        len,
        canonical: s.canonical,
    })
}

/// [`read_line`] into the IR: the parser's reused instruction.
struct IrOut<'i>(&'i mut Instruction);

impl Out for IrOut<'_> {
    #[inline(always)]
    fn opcode(&mut self, opcode: Opcode, saturate: bool, precise: bool) -> Option<()> {
        let inst = &mut *self.0;
        inst.opcode = opcode;
        inst.saturate = saturate;
        inst.precise = precise;
        inst.dst.clear();
        inst.src.clear();
        inst.label = None;
        inst.texture = opcode
            .info()
            .has(opcode::SVIEW_OFFSETS)
            .then(|| Box::new(TextureInfo::unknown()));
        inst.memory = None;
        Some(())
    }

    #[inline(always)]
    fn dst<const C: bool>(&mut self, scan: &mut Scan<'_, C>) -> Option<()> {
        // Read into its slot: no copy of a value built elsewhere.
        self.0.dst.push(Dst::FILLER);
        scan.dst(self.0.dst.last_mut()?)
    }

    #[inline(always)]
    fn src<const C: bool>(&mut self, scan: &mut Scan<'_, C>) -> Option<()> {
        self.0.src.push(Src::FILLER);
        scan.src(self.0.src.last_mut()?)
    }

    #[inline(always)]
    fn target(&mut self, target: TextureTarget) {
        self.0.texture = Some(Box::new(TextureInfo {
            target,
            return_type: ReturnType::Unknown,
            offsets: Vec::new(),
        }));
    }

    #[inline(always)]
    fn offsets(&self) -> Option<usize> {
        self.0.texture.as_ref().map(|t| t.offsets.len())
    }

    #[inline(always)]
    fn offset(&mut self, offset: TexOffset) -> Option<()> {
        self.0.texture.as_mut()?.offsets.push(offset);
        Some(())
    }

    #[inline(always)]
    fn label(&mut self, label: u32) {
        self.0.label = Some(label);
    }
}

/// [`read_line`] into token words, as `tokens::encode` writes an instruction: the head, label,
/// texture and offset words come first but are known last, so the operand words wait in
/// a small buffer.
struct WordsOut<'w> {
    words: &'w mut Vec<u32>,
    /// The head word without its token count and label, texture and memory bits.
    head: u32,
    /// Operand words (at most one destination and three sources of four words each).
    operands: [u32; 16],
    len: usize,
    /// The texture word and its offset words.
    texture: Option<(u32, [u32; 4], usize)>,
    label: Option<u32>,
}

impl WordsOut<'_> {
    /// Appends `word` to the operand words; `None` when they are full.
    #[inline(always)]
    fn push(&mut self, word: u32) -> Option<()> {
        *self.operands.get_mut(self.len)? = word;
        self.len += 1;
        Some(())
    }

    /// The words after a register's word: its indirect, dimension, dimension's indirect.
    #[inline(always)]
    fn register_tail(&mut self, reg: &Register) -> Option<()> {
        if let Some(ind) = &reg.indirect {
            self.push(indirect_word(ind)?)?;
        }
        if let Some(dim) = &reg.dimension {
            self.push(
                r::DIM_INDIRECT.put(dim.indirect.is_some() as u32)
                    | signed(r::DIM_INDEX, dim.index)?,
            )?;
            if let Some(ind) = &dim.indirect {
                self.push(indirect_word(ind)?)?;
            }
        }
        Some(())
    }

    /// Appends the words in the encoder's order.
    #[inline(always)]
    fn finish(self) -> Option<()> {
        let (tex_words, offsets) = match &self.texture {
            Some((_, offsets, n)) => (1 + n, offsets.get(..*n)?),
            None => (0, &[][..]),
        };
        let count = self.label.is_some() as usize + tex_words + self.len;
        let head = self.head
            | unsigned(group::NR_TOKENS, count as u32)?
            | i::LABEL.put(self.label.is_some() as u32)
            | i::TEXTURE.put(self.texture.is_some() as u32);
        self.words.push(head);
        if let Some(label) = self.label {
            self.words.push(i::LABEL_VALUE.put(label));
        }
        if let Some((word, _, _)) = self.texture {
            self.words.push(word);
            self.words.extend_from_slice(offsets);
        }
        self.words.extend_from_slice(self.operands.get(..self.len)?);
        Some(())
    }
}

/// `value` in `field`, if it fits.
#[inline(always)]
fn unsigned(field: Field, value: u32) -> Option<u32> {
    field.fits(value).then(|| field.put(value))
}

/// `value` in the signed `field`, if it fits.
#[inline(always)]
fn signed(field: Field, value: i32) -> Option<u32> {
    field.fits_signed(value).then(|| field.put(value as u32))
}

/// The token number of `file`, unless it is a legacy file.
#[inline(always)]
fn file_number(file: File) -> Option<u32> {
    (!file.is_legacy()).then(|| file.number())
}

/// The word of an indirect address.
#[inline(always)]
fn indirect_word(ind: &Indirect) -> Option<u32> {
    Some(
        r::IND_FILE.put(file_number(ind.file)?)
            | signed(r::IND_INDEX, ind.index)?
            | unsigned(r::IND_SWIZZLE, ind.component as u32)?
            | unsigned(r::IND_ARRAY_ID, ind.array_id.into())?,
    )
}

impl Out for WordsOut<'_> {
    #[inline(always)]
    fn opcode(&mut self, opcode: Opcode, saturate: bool, precise: bool) -> Option<()> {
        let info = opcode.info();
        // The operand buffer holds one destination and three sources.
        if info.num_dst > 1 || info.num_src > 3 {
            return None;
        }
        self.head = group::TYPE.put(group::INSTRUCTION)
            | i::OPCODE.put(info.number? as u32)
            | i::SATURATE.put(saturate as u32)
            | i::NUM_DST.put(info.num_dst as u32)
            | i::NUM_SRC.put(info.num_src as u32)
            | i::PRECISE.put(precise as u32);
        if info.has(opcode::SVIEW_OFFSETS) {
            self.target(TextureTarget::Unknown);
        }
        Some(())
    }

    #[inline(always)]
    fn dst<const C: bool>(&mut self, scan: &mut Scan<'_, C>) -> Option<()> {
        let mut dst = Dst::FILLER;
        scan.dst(&mut dst)?;
        let reg = &dst.reg;
        self.push(
            r::FILE.put(file_number(reg.file)?)
                | r::DST_WRITE_MASK.put(dst.write_mask.0 as u32)
                | r::DST_INDIRECT.put(reg.indirect.is_some() as u32)
                | r::DST_DIMENSION.put(reg.dimension.is_some() as u32)
                | signed(r::DST_INDEX, reg.index)?,
        )?;
        self.register_tail(reg)
    }

    #[inline(always)]
    fn src<const C: bool>(&mut self, scan: &mut Scan<'_, C>) -> Option<()> {
        let mut src = Src::FILLER;
        scan.src(&mut src)?;
        let reg = &src.reg;
        let [x, y, z, w] = src.swizzle.0;
        self.push(
            r::FILE.put(file_number(reg.file)?)
                | r::SRC_INDIRECT.put(reg.indirect.is_some() as u32)
                | r::SRC_DIMENSION.put(reg.dimension.is_some() as u32)
                | signed(r::SRC_INDEX, reg.index)?
                | r::SRC_ABSOLUTE.put(src.absolute as u32)
                | r::SRC_NEGATE.put(src.negate as u32)
                | r::SRC_SWIZZLE[0].put(x as u32)
                | r::SRC_SWIZZLE[1].put(y as u32)
                | r::SRC_SWIZZLE[2].put(z as u32)
                | r::SRC_SWIZZLE[3].put(w as u32),
        )?;
        self.register_tail(reg)
    }

    #[inline(always)]
    fn target(&mut self, target: TextureTarget) {
        let word = i::TEX_TARGET.put(target.number())
            | i::TEX_RETURN_TYPE.put(ReturnType::Unknown.number());
        self.texture = Some((word, [0; 4], 0));
    }

    #[inline(always)]
    fn offsets(&self) -> Option<usize> {
        self.texture.as_ref().map(|t| t.2)
    }

    #[inline(always)]
    fn offset(&mut self, offset: TexOffset) -> Option<()> {
        let (word, offsets, n) = self.texture.as_mut()?;
        let mut bits =
            signed(i::OFFSET_INDEX, offset.index)? | i::OFFSET_FILE.put(file_number(offset.file)?);
        for (field, &c) in i::OFFSET_SWIZZLE.iter().zip(&offset.swizzle) {
            bits |= field.put(c as u32);
        }
        *offsets.get_mut(*n)? = bits;
        *n += 1;
        *word = (*word & !i::TEX_NUM_OFFSETS.put(u32::MAX)) | i::TEX_NUM_OFFSETS.put(*n as u32);
        Some(())
    }

    #[inline(always)]
    fn label(&mut self, label: u32) {
        self.label = Some(label);
    }
}

/// A position in the line being read, which notes whether the text is canonical only if
/// `CANONICAL` (otherwise the checks compile to nothing).
struct Scan<'a, const CANONICAL: bool> {
    text: &'a [u8],
    at: usize,
    /// Digits a number may have here: within [`Limits::max_token_len`] and few enough
    /// that any value fits in 32 bits.
    max_digits: usize,
    max_index: u32,
    /// Nothing read so far is spelled otherwise than the printer writes it.
    canonical: bool,
}

/// The channel each byte names as a swizzle letter (x, y, z, w in either case), or 4.
static CHANNELS: [u8; 256] = {
    let mut table = [4u8; 256];
    let mut c = 0;
    while c < 4 {
        table[b"xyzw"[c] as usize] = c as u8;
        table[b"XYZW"[c] as usize] = c as u8;
        c += 1;
    }
    table
};

/// The channel a letter names, in either case.
#[inline(always)]
fn channel(c: u8) -> Option<u8> {
    Some(CHANNELS[c as usize]).filter(|&c| c < 4)
}

/// The register files the printer writes most, matched in place by [`Scan::file`].
const COMMON_FILES: [File; 8] = [
    File::Temporary,
    File::Constant,
    File::Immediate,
    File::Input,
    File::Output,
    File::Address,
    File::Sampler,
    File::SamplerView,
];

/// A common file's name and `[`, as the first bytes of a little-endian word.
struct FileSlot {
    pattern: u64,
    mask: u64,
    len: usize,
    file: File,
}

/// The slot of the name starting with the two low bytes of `x`: a perfect hash of the
/// [`COMMON_FILES`] (the table's construction fails to compile on a collision).
#[inline(always)]
const fn file_slot(x: u64) -> usize {
    ((x as u16 as u32 * 68) & 0xffff) as usize >> 13
}

/// [`COMMON_FILES`] by [`file_slot`]; an unused slot matches nothing.
static FILE_SLOTS: [FileSlot; 8] = {
    const NONE: FileSlot = FileSlot {
        pattern: u64::MAX,
        mask: 0,
        len: 0,
        file: File::Null,
    };
    let mut slots = [NONE; 8];
    let mut k = 0;
    while k < COMMON_FILES.len() {
        let file = COMMON_FILES[k];
        let name = file.name().as_bytes();
        let mut pattern = (b'[' as u64) << (8 * name.len());
        let mut i = 0;
        while i < name.len() {
            pattern |= (name[i] as u64) << (8 * i);
            i += 1;
        }
        let slot = file_slot(pattern);
        assert!(slots[slot].mask == 0 && name.len() < 8);
        slots[slot] = FileSlot {
            pattern,
            mask: (1 << (8 * (name.len() + 1))) - 1,
            len: name.len(),
            file,
        };
        k += 1;
    }
    slots
};

/// How many of the eight bytes of `x` (first byte lowest) are decimal digits before the
/// first one that is not. A byte is a digit when its high nibble is 3 and stays 3 when 6 is
/// added; a carry out of a non-digit byte only disturbs the bytes after it.
#[inline(always)]
fn leading_digits(x: u64) -> usize {
    const HIGH_NIBBLES: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    const THREES: u64 = 0x3030_3030_3030_3030;
    let high = x & HIGH_NIBBLES;
    let high_plus_6 = x.wrapping_add(0x0606_0606_0606_0606) & HIGH_NIBBLES;
    let not_digit = (high ^ THREES) | (high_plus_6 ^ THREES);
    (not_digit.trailing_zeros() / 8) as usize
}

/// The value of the first `n` (1 to 7) bytes of `x`, which are digits: moved to the top
/// (the bytes below become leading zeros), then pairs, quads and the octet are combined.
#[inline(always)]
fn digits_value(x: u64, n: usize) -> u32 {
    // The digits borrow nothing: each is at least b'0'.
    let v = x.wrapping_sub(0x3030_3030_3030_3030) << (8 * (8 - n));
    let v = (v.wrapping_mul(10) + (v >> 8)) & 0x00ff_00ff_00ff_00ff;
    let v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_ffff_0000_ffff;
    (v.wrapping_mul(10_000) + (v >> 32)) as u32
}

impl<'a, const CANONICAL: bool> Scan<'a, CANONICAL> {
    /// Notes whether what was just read is spelled as the printer writes it.
    #[inline(always)]
    fn note(&mut self, canonical: bool) {
        if CANONICAL {
            self.canonical &= canonical;
        }
    }

    /// The byte at the position, or 0 at the end (a NUL byte is never accepted either).
    #[inline(always)]
    fn peek(&self) -> u8 {
        self.text.get(self.at).copied().unwrap_or(0)
    }

    /// Consumes `c`.
    #[inline(always)]
    fn eat(&mut self, c: u8) -> Option<()> {
        if self.peek() != c {
            return None;
        }
        self.at += 1;
        Some(())
    }

    /// Consumes the word (`[A-Za-z0-9_]*`) at the position and looks it up in `table`.
    #[inline(always)]
    fn name<T: Copy>(&mut self, table: &NameTable<T>) -> Option<T> {
        let rest = self.text.get(self.at..).unwrap_or_default();
        let n = rest
            .iter()
            .position(|&c| !is_word_byte(c))
            .unwrap_or(rest.len());
        self.at += n;
        table.get_at(rest, n)
    }

    /// Skips spaces: up to seven counted at once, more one by one.
    #[inline(always)]
    fn spaces(&mut self) {
        if let Some(&chunk) = self.text.get(self.at..).and_then(<[u8]>::first_chunk::<8>) {
            let n = (u64::from_le_bytes(chunk) ^ 0x2020_2020_2020_2020).trailing_zeros() / 8;
            self.at += n as usize;
            if n < 8 {
                return;
            }
        }
        while self.peek() == b' ' {
            self.at += 1;
        }
    }

    /// The byte `k` places after the position, or 0 past the end.
    #[inline(always)]
    fn byte(&self, k: usize) -> u8 {
        self.text.get(self.at + k).copied().unwrap_or(0)
    }

    /// A decimal number of one to `max_digits` digits. Up to seven are read eight bytes at
    /// a time, without a branch per digit.
    #[inline(always)]
    fn uint(&mut self) -> Option<u32> {
        let chunk = self.text.get(self.at..).and_then(<[u8]>::first_chunk::<8>);
        if let Some(&chunk) = chunk {
            let x = u64::from_le_bytes(chunk);
            let n = leading_digits(x);
            if n < 8 {
                if n == 0 || n > self.max_digits {
                    return None;
                }
                self.note(n == 1 || chunk[0] != b'0');
                self.at += n;
                return Some(digits_value(x, n));
            }
        }
        self.uint_bytewise()
    }

    /// [`Scan::uint`] a byte at a time: near the end of the text, and for eight digits or
    /// more.
    #[cold]
    fn uint_bytewise(&mut self) -> Option<u32> {
        let start = self.at;
        self.note(self.peek() != b'0' || !self.byte(1).is_ascii_digit());
        let mut value = 0u32;
        while let Some(d) = self.peek().checked_sub(b'0').filter(|&d| d < 10) {
            if self.at - start == self.max_digits {
                return None;
            }
            value = value * 10 + d as u32;
            self.at += 1;
        }
        (self.at > start).then_some(value)
    }

    /// A register index within [`Limits::max_register_index`].
    #[inline(always)]
    fn index(&mut self) -> Option<u32> {
        self.uint().filter(|&n| n <= self.max_index)
    }

    /// What may follow an operand: a comma, a space (before a branch label), the line
    /// end or the input end. A word byte or a `.`, `[`, `(` or `|` here would belong to the
    /// operand.
    #[inline(always)]
    fn operand_end(&self) -> Option<()> {
        match self.text.get(self.at) {
            None | Some(b',' | b' ' | b'\n') => Some(()),
            Some(_) => None,
        }
    }

    /// A register file name (always followed by `[` here): the printer's spelling of the
    /// common files is matched in place, any other word looked up.
    #[inline(always)]
    fn file(&mut self) -> Option<File> {
        if let Some(&chunk) = self.text.get(self.at..).and_then(<[u8]>::first_chunk::<8>) {
            let x = u64::from_le_bytes(chunk);
            let slot = &FILE_SLOTS[file_slot(x)];
            if x & slot.mask == slot.pattern {
                self.at += slot.len;
                return Some(slot.file);
            }
        }
        // Other files, and other spellings: read, but not copied.
        self.note(false);
        self.name(names::files())
    }

    /// One `[...]` after `[`, through its `]` and an array id: a literal index or an
    /// address register with its component and optional offset.
    #[inline(always)]
    fn bracket(&mut self) -> Option<(i32, Option<Indirect>)> {
        if self.peek().is_ascii_digit() {
            let index = self.index()?;
            self.eat(b']')?;
            // An array id on a literal index is read and dropped: general path.
            return (self.peek() != b'(').then_some((index as i32, None));
        }
        self.indirect_bracket()
    }

    /// [`Scan::bracket`] holding an address register (less common: kept out of line).
    #[inline(never)]
    fn indirect_bracket(&mut self) -> Option<(i32, Option<Indirect>)> {
        let file = self.file()?;
        self.eat(b'[')?;
        let index = self.index()?;
        self.eat(b']')?;
        self.eat(b'.')?;
        let component = channel(self.peek())?;
        self.note(self.peek().is_ascii_lowercase());
        self.at += 1;
        let offset = match self.peek() {
            sign @ (b'+' | b'-') => {
                self.at += 1;
                let magnitude = self.uint()?;
                if magnitude as u64 > self.max_index as u64 + 1 {
                    return None;
                }
                // The printer writes no offset of 0.
                self.note(magnitude != 0);
                if sign == b'-' {
                    (magnitude as i32).wrapping_neg()
                } else {
                    magnitude as i32
                }
            }
            _ => 0,
        };
        self.eat(b']')?;
        let mut array_id = 0;
        if self.peek() == b'(' {
            self.at += 1;
            array_id = self.uint().filter(|&id| id < 1 << 10)? as u16;
            self.eat(b')')?;
            // The printer writes no array id of 0.
            self.note(array_id != 0);
        }
        let indirect = Indirect {
            file,
            index: index as i32,
            component,
            array_id,
        };
        Some((offset, Some(indirect)))
    }

    /// `FILE[...]` and an optional second `[...]`, into `reg`.
    #[inline(always)]
    fn register(&mut self, reg: &mut Register) -> Option<()> {
        reg.file = self.file()?;
        self.eat(b'[')?;
        let (index, indirect) = self.bracket()?;
        if self.peek() != b'[' {
            reg.index = index;
            reg.indirect = indirect;
            reg.dimension = None;
            return Some(());
        }
        self.at += 1;
        (reg.index, reg.indirect) = self.bracket()?;
        reg.dimension = Some(Dimension { index, indirect });
        Some(())
    }

    /// No word byte follows a mask or swizzle.
    #[inline(always)]
    fn letters_end(&self) -> Option<()> {
        (!is_word_byte(self.peek())).then_some(())
    }

    /// A destination, into `dst`: the register and an optional `.mask` (x, y, z, w in that
    /// order).
    #[inline(always)]
    fn dst(&mut self, dst: &mut Dst) -> Option<()> {
        self.register(&mut dst.reg)?;
        dst.write_mask = WriteMask::XYZW;
        if self.peek() == b'.' {
            self.at += 1;
            // Each letter in turn, without branches: `c | 0x20` is the letter exactly for
            // the letter in either case.
            let mut mask = 0u8;
            let mut len = 0;
            let mut lower = true;
            for (bit, letter) in [b'x', b'y', b'z', b'w'].into_iter().enumerate() {
                let c = self.byte(len);
                let hit = c | 0x20 == letter;
                lower &= !hit || c == letter;
                mask |= (hit as u8) << bit;
                len += hit as usize;
            }
            self.at += len;
            if mask == 0 {
                return None;
            }
            // The printer writes no full mask, and lower-case letters.
            self.note(lower && mask != WriteMask::XYZW.0);
            self.letters_end()?;
            dst.write_mask = WriteMask(mask);
        }
        Some(())
    }

    /// A source, into `src`: `[-][|]` register `[.xyzw][|]`.
    #[inline(always)]
    fn src(&mut self, src: &mut Src) -> Option<()> {
        let negate = self.peek() == b'-';
        self.at += negate as usize;
        let absolute = self.peek() == b'|';
        self.at += absolute as usize;
        src.negate = negate;
        src.absolute = absolute;
        self.register(&mut src.reg)?;
        src.swizzle = Swizzle::IDENTITY;
        if self.peek() == b'.' {
            let channel = |k| CHANNELS[self.byte(k) as usize];
            let channels = [channel(1), channel(2), channel(3), channel(4)];
            if (channels[0] | channels[1] | channels[2] | channels[3]) > 3 {
                return None;
            }
            src.swizzle = Swizzle(channels);
            // The printer writes no identity swizzle, and lower-case letters.
            let lower = (1..=4).all(|k| self.byte(k).is_ascii_lowercase());
            self.note(lower && src.swizzle != Swizzle::IDENTITY);
            self.at += 5;
            self.letters_end()?;
        }
        if absolute {
            self.eat(b'|')?;
        }
        Some(())
    }

    /// A texel offset: `FILE[n]` and an optional `.xyz`.
    #[inline(always)]
    fn tex_offset(&mut self) -> Option<TexOffset> {
        let file = self.file()?;
        self.eat(b'[')?;
        let index = self.index()?;
        self.eat(b']')?;
        let mut swizzle = [0, 1, 2];
        // The printer always writes the swizzle, in lower case.
        self.note(self.peek() == b'.');
        if self.peek() == b'.' {
            self.at += 1;
            for slot in &mut swizzle {
                *slot = channel(self.peek())?;
                self.note(self.peek().is_ascii_lowercase());
                self.at += 1;
            }
            self.letters_end()?;
        }
        Some(TexOffset {
            file,
            index: index as i32,
            swizzle,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_eight_bytes_at_a_time_equal_the_bytewise_reading() {
        let texts: [&[u8]; 22] = [
            b"0",
            b"7",
            b"12]",
            b"0042]",
            b"1234567,",
            b"9999999 ",
            b"12345678]",
            b"123456789",
            b"1234567890",
            b"99999999999",
            b"/",
            b":",
            b"]",
            b"",
            b"5",
            b"5:",
            b"0x1",
            b"3\xff",
            b"1234567\xfa",
            b"\xfa1",
            b"07\0",
            b"9:\n",
        ];
        for text in texts {
            for pad in [&b""[..], b"        ", b"\n  5: END"] {
                let bytes = [text, pad].concat();
                for max_digits in [1, 2, 7, 9] {
                    let scan = |fast: bool| {
                        let mut scan = Scan::<true> {
                            text: &bytes,
                            at: 0,
                            max_digits,
                            max_index: 0,
                            canonical: true,
                        };
                        let value = if fast {
                            scan.uint()
                        } else {
                            scan.uint_bytewise()
                        };
                        // Where a refused number leaves the position does not matter.
                        value.map(|v| (v, scan.at))
                    };
                    assert_eq!(scan(true), scan(false), "{bytes:?} {max_digits}");
                }
            }
        }
        for value in [
            0u32, 1, 9, 10, 99, 100, 12345, 999_999, 1_000_000, 9_999_999,
        ] {
            let text = format!("{value}]       ");
            let x = u64::from_le_bytes(*text.as_bytes().first_chunk::<8>().unwrap());
            assert_eq!(leading_digits(x), value.to_string().len());
            assert_eq!(digits_value(x, value.to_string().len()), value);
        }
    }

    #[test]
    fn file_spellings_matched_in_place_are_the_files_names() {
        for (text, file) in [
            ("TEMP[", File::Temporary),
            ("CONST[", File::Constant),
            ("IMM[", File::Immediate),
            ("IN[", File::Input),
            ("OUT[", File::Output),
            ("ADDR[", File::Address),
            ("SAMP[", File::Sampler),
            ("SVIEW[", File::SamplerView),
            ("SV[", File::SystemValue),
            ("temp[", File::Temporary),
        ] {
            let mut scan = Scan::<true> {
                text: text.as_bytes(),
                at: 0,
                max_digits: 9,
                max_index: 10,
                canonical: true,
            };
            assert_eq!(scan.file(), Some(file), "{text}");
            assert_eq!(names::files().get(&text.as_bytes()[..scan.at]), Some(file));
            assert_eq!(scan.peek(), b'[');
        }
    }
}
