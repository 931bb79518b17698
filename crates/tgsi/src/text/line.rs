//! The parser's statement-level fast path: one labelled instruction line exactly as the
//! printer writes it (`  7:   MAD_SAT TEMP[1].xy, -|CONST[1][ADDR[0].x+2]|, IN[0], IMM[3].xxxx`,
//! texture targets and offsets, ` :label`), read in a single pass over its bytes.
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
use crate::enums::{File, ReturnType};
use crate::ir::*;
use crate::limits::Limits;
use crate::opcode::{self, Opcode};

/// Where an instruction line read by [`instruction`] ends.
pub(super) struct Line {
    /// Offset of the opcode (the instruction's span) after the label and indentation.
    pub opcode_at: usize,
    /// Bytes read: the whole line up to, not including, its line feed.
    pub len: usize,
}

/// Reads the labelled instruction line at the start of `text` into `inst` (whose `span` is
/// left to the caller). `None` (with `inst` in any state) leaves the statement to the
/// general path.
#[inline]
pub(super) fn instruction(text: &[u8], limits: &Limits, inst: &mut Instruction) -> Option<Line> {
    let mut s = Scan {
        text,
        at: 0,
        max_digits: limits.max_token_len.min(9),
        max_index: limits.max_register_index,
    };
    // `  7: ` and the indentation; the label's value is ignored, as by the general path.
    s.uint()?;
    s.eat(b':')?;
    while s.peek() == b' ' {
        s.at += 1;
    }
    let opcode_at = s.at;
    let (opcode, saturate, precise) = match s.name(names::opcodes()) {
        Some(opcode) => (opcode, false, false),
        None => split_opcode(text.get(opcode_at..s.at)?)?,
    };
    let info = opcode.info();
    // Memory operands and the operand-less EMIT / ENDPRIM of old shaders: general path.
    if info.has(opcode::MEM) || matches!(opcode, Opcode::EMIT | Opcode::ENDPRIM) {
        return None;
    }
    inst.opcode = opcode;
    inst.saturate = saturate;
    inst.precise = precise;
    inst.dst.clear();
    inst.src.clear();
    inst.label = None;
    inst.texture = info.has(opcode::SVIEW_OFFSETS).then(TextureInfo::unknown);
    inst.memory = None;

    let (num_dst, num_src) = (info.num_dst as usize, info.num_src as usize);
    let total = num_dst + num_src + info.has(opcode::TEX) as usize;
    for k in 0..total {
        if k > 0 {
            s.eat(b',')?;
        }
        s.eat(b' ')?;
        // Operands are read into their slots: no copy of a value built elsewhere.
        if k < num_dst {
            inst.dst.push(Dst::FILLER);
            s.dst(inst.dst.last_mut()?)?;
        } else if k < num_dst + num_src {
            inst.src.push(Src::FILLER);
            s.src(inst.src.last_mut()?)?;
        } else {
            let target = s.name(names::texture_targets())?;
            inst.texture = Some(TextureInfo {
                target,
                return_type: ReturnType::Unknown,
                offsets: Vec::new(),
            });
        }
        s.operand_end()?;
    }
    if let Some(texture) = inst.texture.as_mut() {
        while s.peek() == b',' {
            if texture.offsets.len() == 4 {
                return None;
            }
            s.at += 1;
            s.eat(b' ')?;
            let offset = s.tex_offset()?;
            texture.offsets.push(offset);
            s.operand_end()?;
        }
    }
    if info.has(opcode::BRANCH) && s.peek() == b' ' {
        s.at += 1;
        s.eat(b':')?;
        let label = s.uint()?;
        if label >= 1 << 24 {
            return None;
        }
        inst.label = Some(label);
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
    Some(Line { opcode_at, len })
}

/// A position in the line being read.
struct Scan<'a> {
    text: &'a [u8],
    at: usize,
    /// Digits a number may have here: within [`Limits::max_token_len`] and few enough
    /// that any value fits in 32 bits.
    max_digits: usize,
    max_index: u32,
}

/// The channel a letter names, in either case.
#[inline(always)]
fn channel(c: u8) -> Option<u8> {
    match c.to_ascii_lowercase() {
        b'x' => Some(0),
        b'y' => Some(1),
        b'z' => Some(2),
        b'w' => Some(3),
        _ => None,
    }
}

impl<'a> Scan<'a> {
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

    /// A decimal number of one to `max_digits` digits.
    #[inline(always)]
    fn uint(&mut self) -> Option<u32> {
        let start = self.at;
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
        let rest = self.text.get(self.at..).unwrap_or_default();
        let (file, len) = match rest.first() {
            Some(b'T') if rest.starts_with(b"TEMP[") => (File::Temporary, 4),
            Some(b'C') if rest.starts_with(b"CONST[") => (File::Constant, 5),
            Some(b'I') if rest.starts_with(b"IMM[") => (File::Immediate, 3),
            Some(b'I') if rest.starts_with(b"IN[") => (File::Input, 2),
            Some(b'O') if rest.starts_with(b"OUT[") => (File::Output, 3),
            Some(b'A') if rest.starts_with(b"ADDR[") => (File::Address, 4),
            Some(b'S') if rest.starts_with(b"SAMP[") => (File::Sampler, 4),
            Some(b'S') if rest.starts_with(b"SVIEW[") => (File::SamplerView, 5),
            _ => return self.name(names::files()),
        };
        self.at += len;
        Some(file)
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
        let file = self.file()?;
        self.eat(b'[')?;
        let index = self.index()?;
        self.eat(b']')?;
        self.eat(b'.')?;
        let component = channel(self.peek())?;
        self.at += 1;
        let offset = match self.peek() {
            sign @ (b'+' | b'-') => {
                self.at += 1;
                let magnitude = self.uint()?;
                if magnitude > self.max_index + 1 {
                    return None;
                }
                if sign == b'-' {
                    -(magnitude as i32)
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
            array_id = self.uint().filter(|&id| id < 1 << 10)?;
            self.eat(b')')?;
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
            let mut mask = 0u8;
            for (bit, letter) in [b'x', b'y', b'z', b'w'].into_iter().enumerate() {
                if self.peek().to_ascii_lowercase() == letter {
                    mask |= 1 << bit;
                    self.at += 1;
                }
            }
            if mask == 0 {
                return None;
            }
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
            self.at += 1;
            for slot in &mut src.swizzle.0 {
                *slot = channel(self.peek())?;
                self.at += 1;
            }
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
        if self.peek() == b'.' {
            self.at += 1;
            for slot in &mut swizzle {
                *slot = channel(self.peek())?;
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
            let mut scan = Scan {
                text: text.as_bytes(),
                at: 0,
                max_digits: 9,
                max_index: 10,
            };
            assert_eq!(scan.file(), Some(file), "{text}");
            assert_eq!(names::files().get(&text.as_bytes()[..scan.at]), Some(file));
            assert_eq!(scan.peek(), b'[');
        }
    }
}
