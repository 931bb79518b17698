//! The text parser. It accepts what Mesa 22.3's `tgsi_text_translate` accepts (keywords
//! matched case-insensitively as whole words, whitespace rules, attribute order, legacy
//! opcode spellings) plus what older spec versions define, and rejects everything else with
//! a positioned error that says what was expected and what was found.
//!
//! The parser never recurses on input, never allocates more than the input justifies (see
//! [`Limits`]) and never panics.

use super::cursor::{clip, is_word_byte, Cursor};
use super::line;
use super::names;
use super::number;
use super::ParseError;
use crate::enums::*;
use crate::ir::*;
use crate::limits::Limits;
use crate::opcode::{self, Opcode};
use crate::pipe_format::Format;

/// Parses TGSI text with default [`Limits`].
pub fn parse(text: &str) -> Result<Shader, ParseError> {
    parse_with_limits(text, &Limits::DEFAULT)
}

/// Parses TGSI text, enforcing `limits`.
pub fn parse_with_limits(text: &str, limits: &Limits) -> Result<Shader, ParseError> {
    let mut shader = Shader::new(Processor::Vertex);
    // A line holds at most one statement; reserving for that many instructions up front
    // (only address space until written) saves regrowing the largest list, and lets a
    // large one be mapped in huge pages as it is filled. Oversized input is refused by
    // `parse_into` without being counted.
    if text.len() <= limits.max_input_bytes {
        let lines = 1 + text
            .as_bytes()
            .chunks(255)
            .map(|c| c.iter().map(|&b| (b == b'\n') as u8).sum::<u8>() as usize)
            .sum::<usize>();
        shader
            .instructions
            .reserve(lines.min(limits.max_instructions));
        crate::huge_pages::advise(&mut shader.instructions);
    }
    parse_into(text, limits, &mut shader)?;
    Ok(shader)
}

/// Where the parser delivers what it reads, statement by statement in text order: a
/// [`Shader`] collects them; the token assembler encodes them on the fly.
pub(crate) trait Sink {
    /// The stage named by the header, before any statement.
    fn processor(&mut self, processor: Processor);
    /// The next statement.
    fn item(&mut self, item: Item<'_>);
    /// Where the token words of an instruction go when this sink takes them straight from
    /// the text instead of as an [`Instruction`] (the token assembler does until its first
    /// error).
    fn words(&mut self) -> Option<&mut Vec<u32>> {
        None
    }
    /// Whether this sink wants to know which instruction lines are canonical (the printer,
    /// which copies them); the check costs time.
    const COPIES_CANONICAL: bool = false;
    /// The next statement, an instruction whose `text` from the opcode to the end of its
    /// line is exactly what the printer writes for it (the printer copies it). Only called
    /// on a sink that [`Sink::COPIES_CANONICAL`].
    fn canonical_instruction(&mut self, index: usize, inst: &Instruction, _text: &[u8]) {
        self.item(Item::Instruction(index, inst));
    }
}

impl Sink for Shader {
    fn processor(&mut self, processor: Processor) {
        self.processor = processor;
    }

    fn item(&mut self, item: Item<'_>) {
        let kind = match item {
            Item::Property(p) => {
                self.properties.push(*p);
                ItemKind::Property
            }
            Item::Declaration(d) => {
                self.declarations.push(d.clone());
                ItemKind::Declaration
            }
            Item::Immediate(_, m) => {
                self.immediates.push(*m);
                ItemKind::Immediate
            }
            Item::Instruction(_, i) => {
                // Operands are inline: a plain copy, no allocation.
                self.instructions.push(i.clone());
                ItemKind::Instruction
            }
        };
        self.order.push(kind);
    }
}

/// Parses TGSI text into `sink`, enforcing `limits`. On an error the sink holds the
/// statements before it.
pub(crate) fn parse_into(
    text: &str,
    limits: &Limits,
    sink: &mut impl Sink,
) -> Result<(), ParseError> {
    if text.len() > limits.max_input_bytes {
        return Err(ParseError {
            span: Span::new(1, 1),
            message: format!(
                "input is {} bytes, more than the limit of {}",
                text.len(),
                limits.max_input_bytes
            ),
        });
    }
    let mut parser = Parser {
        cur: Cursor::new(text.as_bytes()),
        limits,
        sink,
        processor: Processor::Vertex,
        counts: Counts::default(),
        inst: Instruction::new(Opcode::NOP),
        implied_array_size: 0,
    };
    parser.program().map_err(|e| *e)
}

/// `word` without `suffix` (matched ignoring ASCII case), and whether it was there.
fn strip_suffix<'w>(word: &'w [u8], suffix: &[u8]) -> (&'w [u8], bool) {
    match word.len().checked_sub(suffix.len()) {
        Some(n) if word[n..].eq_ignore_ascii_case(suffix) => (&word[..n], true),
        _ => (word, false),
    }
}

/// Splits `MAD_SAT_PRECISE` into (MAD, saturate, precise).
pub(super) fn split_opcode(word: &[u8]) -> Option<(Opcode, bool, bool)> {
    if word.first().is_none_or(u8::is_ascii_digit) {
        return None;
    }
    let table = names::opcodes();
    if let Some(op) = table.get(word) {
        return Some((op, false, false));
    }
    let (rest, precise) = strip_suffix(word, b"_PRECISE");
    let (rest, saturate) = strip_suffix(rest, b"_SAT");
    if !saturate && !precise {
        return None;
    }
    table.get(rest).map(|op| (op, saturate, precise))
}

/// Whether the byte after an operand read by a fast path leaves nothing more for the
/// operand's general path to read: a comma, a line feed, a space or the end. (A space or
/// line feed may be followed by anything: the callers have checked that no `.` or `[`
/// belonging to the operand comes after the whitespace.)
#[inline(always)]
fn ends_operand(next: Option<u8>) -> bool {
    matches!(next, None | Some(b',' | b'\n' | b' '))
}

/// The first byte at or after `rest[i]` that is not a space, tab or line feed.
#[inline(always)]
fn next_after_ws(rest: &[u8], i: usize) -> Option<u8> {
    rest.get(i..)?
        .iter()
        .copied()
        .find(|c| !matches!(c, b' ' | b'\t' | b'\n'))
}

/// A parsed `[...]` of an operand.
#[derive(Clone, Copy, Default)]
struct Bracket {
    index: i32,
    indirect: Option<Indirect>,
}

/// How many statements of each kind have been read.
#[derive(Default)]
struct Counts {
    properties: usize,
    declarations: usize,
    immediates: usize,
    instructions: usize,
}

struct Parser<'a, 'l, 's, S: Sink> {
    cur: Cursor<'a>,
    limits: &'l Limits,
    sink: &'s mut S,
    /// The stage named by the header.
    processor: Processor,
    counts: Counts,
    /// The instruction being read: one value reused for all, so reading one allocates and
    /// copies nothing.
    inst: Instruction,
    /// Size an empty `[]` stands for (GS input primitive, 32 for tessellation).
    implied_array_size: u32,
}

/// Errors travel boxed: a pointer keeps every result small on the hot, error-free path.
type PResult<T> = Result<T, Box<ParseError>>;

impl<'a, S: Sink> Parser<'a, '_, '_, S> {
    #[cold]
    fn error_at<T>(&self, span: Span, message: impl Into<String>) -> PResult<T> {
        Err(Box::new(ParseError {
            span,
            message: message.into(),
        }))
    }

    /// Fails when a list already holds `max` items.
    fn within_limit(&self, count: usize, max: usize, what: &str, span: Span) -> PResult<()> {
        if count >= max {
            return self.error_at(span, format!("more than {max} {what}"));
        }
        Ok(())
    }

    /// "expected X, found Y" at the current position.
    #[cold]
    fn expected<T>(&self, what: &str) -> PResult<T> {
        let found = self.cur.describe_here();
        self.error_at(self.cur.span(), format!("expected {what}, found {found}"))
    }

    fn program(&mut self) -> PResult<()> {
        self.cur.skip_ws()?;
        let header_span = self.cur.span();
        let word = self.cur.word_str();
        let Some(processor) = Processor::ALL
            .iter()
            .copied()
            .find(|p| p.name().eq_ignore_ascii_case(word))
        else {
            return self.expected("a header (FRAG, VERT, GEOM, TESS_CTRL, TESS_EVAL or COMP)");
        };
        self.cur.advance(word.len());
        self.processor = processor;
        self.sink.processor(processor);
        let _ = header_span;
        if matches!(processor, Processor::TessCtrl | Processor::TessEval) {
            self.implied_array_size = 32;
        }
        loop {
            let had_ws = self.cur.skip_ws()?;
            if self.cur.at_end() {
                return Ok(());
            }
            if !had_ws {
                return self.expected("whitespace between statements");
            }
            self.statement()?;
        }
    }

    fn statement(&mut self) -> PResult<()> {
        let span = self.cur.span();
        if self.cur.peek().is_ascii_digit() {
            let rest = self.cur.rest();
            // Within the instruction limit, a sink that takes words gets them straight.
            if self.counts.instructions < self.limits.max_instructions {
                if let Some(line) = self
                    .sink
                    .words()
                    .and_then(|words| line::words(rest, self.limits, words))
                {
                    self.cur.advance(line.len);
                    self.counts.instructions += 1;
                    return Ok(());
                }
            }
            let line = if S::COPIES_CANONICAL {
                line::instruction::<true>(rest, self.limits, &mut self.inst)
            } else {
                line::instruction::<false>(rest, self.limits, &mut self.inst)
            };
            if let Some(line) = line {
                self.cur.advance(line.opcode_at);
                self.inst.span = self.cur.span();
                self.cur.advance(line.len - line.opcode_at);
                return match rest.get(line.opcode_at..line.len) {
                    Some(text) if line.canonical => {
                        self.within_limit(
                            self.counts.instructions,
                            self.limits.max_instructions,
                            "instructions",
                            self.inst.span,
                        )?;
                        self.sink
                            .canonical_instruction(self.counts.instructions, &self.inst, text);
                        self.counts.instructions += 1;
                        Ok(())
                    }
                    _ => self.push_instruction(),
                };
            }
            // An instruction label: a number and ':', ignored.
            self.uint("a label number")?;
            self.cur.skip_ws()?;
            if self.cur.peek() != b':' {
                return self.expected("':' after the instruction label");
            }
            self.cur.advance(1);
            self.cur.skip_ws()?;
            return self.instruction(true);
        }
        let word = self.cur.word();
        if word.eq_ignore_ascii_case(b"DCL") {
            self.cur.advance(3);
            self.declaration(span)
        } else if word.eq_ignore_ascii_case(b"IMM") {
            self.cur.advance(3);
            self.immediate(span)
        } else if word.eq_ignore_ascii_case(b"PROPERTY") {
            self.cur.advance(8);
            self.property(span)
        } else {
            self.instruction(false)
        }
    }

    // ----- numbers --------------------------------------------------------------------

    /// An unsigned decimal number; overflow is an error (Mesa silently wraps).
    #[inline]
    fn uint(&mut self, what: &str) -> PResult<u32> {
        // Up to nine digits always fit: read them in place, and leave longer runs, limits
        // and errors to the general path.
        let rest = self.cur.rest();
        let mut value = 0u32;
        let mut n = 0;
        while let Some(&c) = rest.get(n).filter(|c| c.is_ascii_digit()) {
            if n == 9 {
                return self.any_uint(what);
            }
            value = value * 10 + (c - b'0') as u32;
            n += 1;
        }
        if n == 0 || n > self.limits.max_token_len {
            return self.any_uint(what);
        }
        self.cur.advance(n);
        Ok(value)
    }

    /// [`Parser::uint`] for any input.
    #[inline(never)]
    fn any_uint(&mut self, what: &str) -> PResult<u32> {
        let digits = self.cur.digits();
        if digits.is_empty() {
            return self.expected(what);
        }
        // Saturating, so leading zeros never make a small number overflow.
        let value = digits.iter().fold(0u64, |v, &d| {
            v.saturating_mul(10).saturating_add((d - b'0') as u64)
        });
        if digits.len() > self.limits.max_token_len {
            return self.error_at(
                self.cur.span(),
                format!("number of {} digits is too long", digits.len()),
            );
        }
        let Ok(value) = u32::try_from(value) else {
            return self.error_at(
                self.cur.span(),
                format!(
                    "number {} does not fit in 32 bits",
                    String::from_utf8_lossy(digits)
                ),
            );
        };
        self.cur.advance(digits.len());
        Ok(value)
    }

    /// `[+-]?digits` as an i32 (two's complement wrap of the magnitude, as Mesa).
    fn int(&mut self, what: &str) -> PResult<i32> {
        let negative = match self.cur.peek() {
            b'-' => {
                self.cur.advance(1);
                true
            }
            b'+' => {
                self.cur.advance(1);
                false
            }
            _ => false,
        };
        let magnitude = self.uint(what)?;
        Ok(if negative {
            (magnitude as i32).wrapping_neg()
        } else {
            magnitude as i32
        })
    }

    /// A register index of an operand, within [`Limits::max_register_index`].
    fn register_index(&mut self, what: &str) -> PResult<u32> {
        self.index_at_most(what, self.limits.max_register_index)
    }

    /// A register of a declaration range, within [`Limits::max_declared_index`].
    fn declared_index(&mut self, what: &str) -> PResult<u32> {
        self.index_at_most(what, self.limits.max_declared_index)
    }

    fn index_at_most(&mut self, what: &str, max: u32) -> PResult<u32> {
        let span = self.cur.span();
        let value = self.uint(what)?;
        if value > max {
            return self.error_at(
                span,
                format!("index {value} is larger than the limit of {max}"),
            );
        }
        Ok(value)
    }

    // ----- PROPERTY ----------------------------------------------------------------------

    fn property(&mut self, span: Span) -> PResult<()> {
        if !self.cur.skip_ws()? {
            return self.expected("whitespace after PROPERTY");
        }
        let name_span = self.cur.span();
        let word = self.cur.word_str();
        if word.is_empty() || word.as_bytes()[0].is_ascii_digit() {
            return self.expected("a property name");
        }
        let Some(name) = PropertyName::from_name(word) else {
            // Quote at most a few dozen characters of a hostile megabyte-long word.
            return self.error_at(name_span, format!("unknown property '{}'", clip(word)));
        };
        self.cur.advance(word.len());
        self.cur.skip_ws()?;
        let value = match name.value_kind() {
            PropertyValueKind::Primitive => self.named_value(
                Primitive::ALL,
                Primitive::name,
                Primitive::number,
                "a primitive name",
            )?,
            PropertyValueKind::CoordOrigin => self.named_value(
                CoordOrigin::ALL,
                CoordOrigin::name,
                CoordOrigin::number,
                "UPPER_LEFT or LOWER_LEFT",
            )?,
            PropertyValueKind::PixelCenter => self.named_value(
                PixelCenter::ALL,
                PixelCenter::name,
                PixelCenter::number,
                "HALF_INTEGER or INTEGER",
            )?,
            PropertyValueKind::Processor => self.named_value(
                Processor::ALL,
                Processor::name,
                Processor::number,
                "a processor name (VERT, FRAG, …)",
            )?,
            // Mesa (and this printer) write plain property values with `%d`, so a value
            // above i32::MAX comes out negative: read `-n` back as its two's complement.
            PropertyValueKind::Number if self.cur.peek() == b'-' => {
                let span = self.cur.span();
                self.cur.advance(1);
                let magnitude = self.uint("an integer property value")?;
                if magnitude > 1 << 31 {
                    return self.error_at(
                        span,
                        format!("property value -{magnitude} does not fit in 32 bits"),
                    );
                }
                magnitude.wrapping_neg()
            }
            PropertyValueKind::Number => self.uint("an unsigned integer property value")?,
        };
        if name == PropertyName::GsInputPrimitive && self.processor == Processor::Geometry {
            self.implied_array_size = Primitive::from_number(value).map_or(3, Primitive::vertices);
        }
        self.within_limit(
            self.counts.properties,
            self.limits.max_properties,
            "properties",
            span,
        )?;
        self.counts.properties += 1;
        self.sink
            .item(Item::Property(&Property { name, value, span }));
        Ok(())
    }

    fn named_value<T: Copy>(
        &mut self,
        all: &[T],
        name: fn(T) -> &'static str,
        number: fn(T) -> u32,
        what: &str,
    ) -> PResult<u32> {
        let word = self.cur.word_str();
        match all
            .iter()
            .copied()
            .find(|&v| name(v).eq_ignore_ascii_case(word))
        {
            Some(v) => {
                self.cur.advance(word.len());
                Ok(number(v))
            }
            None => self.expected(what),
        }
    }

    // ----- IMM -------------------------------------------------------------------------

    fn immediate(&mut self, span: Span) -> PResult<()> {
        if self.cur.peek() == b'[' {
            self.cur.advance(1);
            self.cur.skip_ws()?;
            let index_span = self.cur.span();
            let index = self.uint("an immediate index")?;
            if index as usize != self.counts.immediates {
                return self.error_at(
                    index_span,
                    format!(
                        "immediates must be numbered in order: expected IMM[{}], found IMM[{index}]",
                        self.counts.immediates
                    ),
                );
            }
            self.cur.skip_ws()?;
            self.expect_char(b']')?;
        }
        if !self.cur.skip_ws()? {
            return self.expected("whitespace before the immediate type");
        }
        let word = self.cur.word_str();
        let Some(ty) = ImmType::from_name(word) else {
            return self
                .expected("an immediate type (FLT32, UINT32, INT32, FLT64, UINT64 or INT64)");
        };
        self.cur.advance(word.len());
        self.cur.skip_ws()?;
        self.expect_char(b'{')?;
        let mut words = [0u32; 4];
        let count = if ty.is_64bit() { 2 } else { 4 };
        for i in 0..count {
            self.cur.skip_ws()?;
            if i > 0 {
                self.expect_char(b',')?;
                self.cur.skip_ws()?;
            }
            match ty {
                ImmType::Float32 => words[i] = self.float32()?,
                ImmType::Uint32 => words[i] = self.uint("an unsigned integer")?,
                ImmType::Int32 => words[i] = self.int("an integer")? as u32,
                ImmType::Float64 | ImmType::Uint64 | ImmType::Int64 => {
                    let rest = self.cur.rest();
                    let parsed = match ty {
                        ImmType::Float64 => number::strtod(rest).map(|(v, n)| (v.to_bits(), n)),
                        ImmType::Uint64 => number::strtoull(rest),
                        _ => number::strtoll(rest).map(|(v, n)| (v as u64, n)),
                    };
                    let Some((bits, len)) = parsed else {
                        return self.expected(&format!("a {} value", ty.name()));
                    };
                    self.cur.advance(len);
                    words[2 * i] = bits as u32;
                    words[2 * i + 1] = (bits >> 32) as u32;
                }
            }
        }
        self.cur.skip_ws()?;
        if self.cur.peek() == b',' {
            return self.error_at(
                self.cur.span(),
                format!(
                    "too many values: {} immediates take exactly {count}",
                    ty.name()
                ),
            );
        }
        self.expect_char(b'}')?;
        self.within_limit(
            self.counts.immediates,
            self.limits.max_immediates,
            "immediates",
            span,
        )?;
        self.sink.item(Item::Immediate(
            self.counts.immediates,
            &Immediate { ty, words, span },
        ));
        self.counts.immediates += 1;
        Ok(())
    }

    /// A FLT32 value: `0x` + 8 hex digits is a raw bit pattern (Mesa 22.3, virglrenderer);
    /// anything else is a decimal literal read like C `atof` and rounded to float.
    fn float32(&mut self) -> PResult<u32> {
        let rest = self.cur.rest();
        if rest.len() >= 2 && rest[0] == b'0' && rest[1] == b'x' {
            let hex = &rest[2..];
            let n = hex.iter().take_while(|c| c.is_ascii_hexdigit()).count();
            if n != 8 {
                return self.error_at(
                    self.cur.span(),
                    format!("expected 8 hex digits of raw float bits after '0x', found {n}"),
                );
            }
            let text = std::str::from_utf8(&hex[..8]).unwrap_or("0");
            let bits = u32::from_str_radix(text, 16).unwrap_or(0);
            self.cur.advance(10);
            return Ok(bits);
        }
        // The printer (like Mesa's `%10.4f`) writes infinities and NaNs as `inf`, `-inf`,
        // `nan`, `-nan`, which Mesa's own parser cannot read back. Accept exactly those
        // spellings (as the quiet NaN / infinity bit patterns) so printed text re-parses.
        let (negative, body) = match rest.first() {
            Some(b'-') => (true, &rest[1..]),
            Some(b'+') => (false, &rest[1..]),
            _ => (false, rest),
        };
        for (word, bits) in [(b"inf", 0x7f80_0000u32), (b"nan", 0x7fc0_0000)] {
            let whole_word = !body
                .get(3)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
            if body.len() >= 3 && body[..3].eq_ignore_ascii_case(word) && whole_word {
                self.cur.advance(rest.len() - body.len() + 3);
                return Ok(bits | (negative as u32) << 31);
            }
        }
        let Some(len) = number::scan_decimal_float(rest) else {
            return self.expected("a float value");
        };
        if len > self.limits.max_token_len {
            return self.error_at(
                self.cur.span(),
                format!("float literal of {len} characters is too long"),
            );
        }
        let value = number::decimal_to_f64(&rest[..len]) as f32;
        self.cur.advance(len);
        Ok(value.to_bits())
    }

    fn expect_char(&mut self, c: u8) -> PResult<()> {
        if self.cur.peek() == c {
            self.cur.advance(1);
            Ok(())
        } else {
            self.expected(&format!("'{}'", c as char))
        }
    }

    // ----- DCL -------------------------------------------------------------------------

    fn file(&mut self) -> PResult<File> {
        let word = self.cur.word();
        match names::files().get(word) {
            Some(f) => {
                self.cur.advance(word.len());
                Ok(f)
            }
            None => self.expected("a register file"),
        }
    }

    /// `n`, `first..last` or an empty `[]` (implied size) inside a declaration bracket,
    /// after the opening '['; consumes the closing ']'.
    fn dcl_bracket(&mut self) -> PResult<(u32, u32)> {
        self.cur.skip_ws()?;
        if self.cur.peek() == b']' && self.implied_array_size != 0 {
            self.cur.advance(1);
            return Ok((0, self.implied_array_size - 1));
        }
        let first_span = self.cur.span();
        let first = self.declared_index("a register index")?;
        self.cur.skip_ws()?;
        let mut last = first;
        if self.cur.rest().starts_with(b"..") {
            self.cur.advance(2);
            self.cur.skip_ws()?;
            last = self.declared_index("the last register of the range")?;
            self.cur.skip_ws()?;
            if last < first {
                return self.error_at(
                    first_span,
                    format!(
                        "range {first}..{last} is empty: the last register comes before the first"
                    ),
                );
            }
        }
        if self.cur.peek() != b']' {
            return self.expected("']' or '..'");
        }
        self.cur.advance(1);
        Ok((first, last))
    }

    fn declaration(&mut self, span: Span) -> PResult<()> {
        if !self.cur.skip_ws()? {
            return self.expected("whitespace after DCL");
        }
        let processor = self.processor;
        let file = self.file()?;
        self.cur.skip_ws()?;
        self.expect_char(b'[')?;
        let per_vertex = match processor {
            Processor::Geometry | Processor::TessEval => file == File::Input,
            Processor::TessCtrl => matches!(file, File::Input | File::Output),
            _ => false,
        };
        // The printer writes every geometry input as `IN[][i]`, also when no
        // GS_INPUT_PRIMITIVE gives `[]` a size (Mesa's parser then fails on its own print).
        // The vertex bracket of a per-vertex file is discarded anyway, so an empty one is
        // accepted without a size when the register bracket follows.
        let empty_span = self.cur.span();
        let mut p = self.cur;
        p.skip_ws()?;
        let unsized_vertex_bracket = per_vertex && self.implied_array_size == 0 && p.peek() == b']';
        let (mut first, mut last) = if unsized_vertex_bracket {
            self.cur = p;
            self.cur.advance(1);
            (0, 0)
        } else {
            self.dcl_bracket()?
        };
        let mut dimension = None;
        let mut probe = self.cur;
        probe.skip_ws()?;
        if unsized_vertex_bracket && probe.peek() != b'[' {
            return self.error_at(
                empty_span,
                "expected a register index: an empty [] needs PROPERTY GS_INPUT_PRIMITIVE first",
            );
        }
        if probe.peek() == b'[' {
            self.cur = probe;
            self.cur.advance(1);
            let second = self.dcl_bracket()?;
            if !per_vertex {
                dimension = Some(first);
            }
            (first, last) = second;
        }
        let usage_mask = self.opt_write_mask()?.unwrap_or(WriteMask::XYZW);
        let mut decl = Declaration::new(file, first, last);
        decl.dimension = dimension;
        decl.usage_mask = usage_mask;
        decl.span = span;
        // Mesa 22.3 refuses attributes on vertex-shader inputs; older versions accepted a
        // semantic there (`DCL IN[0], POSITION`), so this parser does too.
        let is_vs_input = false;

        // , ARRAY(n)
        if let Some(mut probe) = self.comma_then() {
            if probe.eat_word("ARRAY") {
                probe.skip_ws()?;
                self.cur = probe;
                self.expect_char(b'(')?;
                self.cur.skip_ws()?;
                let id_span = self.cur.span();
                let id = self.int("an array id")?;
                if id < 0 {
                    return self.error_at(id_span, format!("array id {id} is negative"));
                }
                // Ids of 1024 and more are read (the validator refuses them, naming the
                // 10-bit token field) up to what the IR holds.
                let Ok(id) = u16::try_from(id) else {
                    return self
                        .error_at(id_span, format!("array id {id} does not fit in 16 bits"));
                };
                self.cur.skip_ws()?;
                self.expect_char(b')')?;
                decl.array_id = Some(id);
            }
        }

        // File-specific part, or LOCAL and the semantic.
        if !is_vs_input {
            if let Some(probe) = self.comma_then() {
                let attr_cur = probe;
                match file {
                    File::Resource => {
                        self.cur = attr_cur;
                        let target = self.texture_target()?;
                        let (mut writable, mut raw, mut return_type) = (false, false, None);
                        while let Some(mut p) = self.comma_then() {
                            let word = p.word_str();
                            if word.eq_ignore_ascii_case("RAW") {
                                raw = true;
                            } else if word.eq_ignore_ascii_case("WR") {
                                writable = true;
                            } else if let Some(t) =
                                ReturnType::from_name(word).filter(|&t| t != ReturnType::Unknown)
                            {
                                return_type = Some(t);
                            } else {
                                break;
                            }
                            p.advance(word.len());
                            self.cur = p;
                        }
                        decl.resource = Some(match return_type {
                            Some(t) => ResourceDecl::SamplerView {
                                target,
                                return_types: [t; 4],
                            },
                            None => ResourceDecl::Image {
                                target,
                                format: Format::NONE,
                                writable,
                                raw,
                            },
                        });
                    }
                    File::Image => {
                        self.cur = attr_cur;
                        let target = self.texture_target()?;
                        let (mut format, mut writable, mut raw) = (Format::NONE, false, false);
                        while let Some(mut p) = self.comma_then() {
                            if p.eat_word("RAW") {
                                raw = true;
                            } else if p.eat_word("WR") {
                                writable = true;
                            } else if let Some(f) = Self::format_word(&mut p) {
                                format = f;
                            } else {
                                break;
                            }
                            self.cur = p;
                        }
                        decl.resource = Some(ResourceDecl::Image {
                            target,
                            format,
                            writable,
                            raw,
                        });
                    }
                    File::SamplerView => {
                        self.cur = attr_cur;
                        let target = self.texture_target()?;
                        self.cur.skip_ws()?;
                        self.expect_char(b',')?;
                        self.cur.skip_ws()?;
                        let first_type = self.return_type()?;
                        // Mesa parses up to four types but keeps only the first for all
                        // channels; later ones are accepted and dropped the same way.
                        for _ in 1..4 {
                            let Some(mut p) = self.comma_then() else {
                                break;
                            };
                            let word = p.word_str();
                            match ReturnType::from_name(word) {
                                Some(t) if t != ReturnType::Unknown => {
                                    p.advance(word.len());
                                    self.cur = p;
                                }
                                _ => break,
                            }
                        }
                        decl.resource = Some(ResourceDecl::SamplerView {
                            target,
                            return_types: [first_type; 4],
                        });
                    }
                    File::Buffer => {
                        let mut p = attr_cur;
                        if p.eat_word("ATOMIC") {
                            decl.atomic = true;
                            self.cur = p;
                        }
                    }
                    File::Memory => {
                        let mut p = attr_cur;
                        let word = p.word_str();
                        if let Some(t) = MemoryType::from_name(word) {
                            p.advance(word.len());
                            decl.memory_type = t;
                            self.cur = p;
                        }
                    }
                    _ => {
                        let mut p = attr_cur;
                        if p.eat_word("LOCAL") {
                            decl.local = true;
                            self.cur = p;
                        }
                        if let Some(mut p) = self.comma_then() {
                            let word = p.word_str();
                            if let Some(name) =
                                Semantic::from_name(word).filter(|s| s.has_text_name())
                            {
                                p.advance(word.len());
                                let mut index = 0;
                                let mut q = p;
                                q.skip_ws()?;
                                if q.peek() == b'[' {
                                    self.cur = q;
                                    self.cur.advance(1);
                                    self.cur.skip_ws()?;
                                    index = self.uint("a semantic index")?;
                                    self.cur.skip_ws()?;
                                    self.expect_char(b']')?;
                                } else {
                                    self.cur = p;
                                }
                                decl.semantic = Some(SemanticDecl {
                                    name,
                                    index,
                                    streams: [0; 4],
                                });
                            }
                        }
                    }
                }
            }
        }

        // , STREAM(a, b, c, d) on geometry outputs.
        if file == File::Output && processor == Processor::Geometry {
            if let Some(mut p) = self.comma_then() {
                if p.eat_word("STREAM") {
                    self.cur = p;
                    self.cur.skip_ws()?;
                    self.expect_char(b'(')?;
                    let mut streams = [0u8; 4];
                    for (i, stream) in streams.iter_mut().enumerate() {
                        self.cur.skip_ws()?;
                        let s_span = self.cur.span();
                        let s = self.uint("a stream number")?;
                        // The validator holds streams to `Limits::max_vertex_streams`.
                        let Ok(s) = u8::try_from(s) else {
                            return self.error_at(s_span, format!("stream {s} is too large"));
                        };
                        *stream = s;
                        self.cur.skip_ws()?;
                        if i < 3 {
                            self.expect_char(b',')?;
                        }
                    }
                    self.expect_char(b')')?;
                    let sem = decl.semantic.get_or_insert(SemanticDecl {
                        name: Semantic::Position,
                        index: 0,
                        streams: [0; 4],
                    });
                    sem.streams = streams;
                }
            }
        }

        if !is_vs_input {
            // , interpolation mode
            if let Some(mut p) = self.comma_then() {
                let word = p.word_str();
                if let Some(mode) = Interpolate::from_name(word) {
                    p.advance(word.len());
                    decl.interp = Some(InterpDecl {
                        mode,
                        location: InterpLocation::Center,
                    });
                    self.cur = p;
                }
            }
            // , location (kept only with an interpolation mode, as in Mesa's tokens)
            if let Some(mut p) = self.comma_then() {
                let word = p.word_str();
                if let Some(location) = InterpLocation::from_name(word) {
                    p.advance(word.len());
                    if let Some(interp) = decl.interp.as_mut() {
                        interp.location = location;
                    }
                    self.cur = p;
                }
            }
            // , INVARIANT
            if let Some(mut p) = self.comma_then() {
                if p.eat_word("INVARIANT") {
                    decl.invariant = true;
                    self.cur = p;
                } else {
                    self.cur = p;
                    return self.expected("a semantic, interpolation attribute or INVARIANT");
                }
            }
        }

        self.within_limit(
            self.counts.declarations,
            self.limits.max_declarations,
            "declarations",
            span,
        )?;
        self.counts.declarations += 1;
        self.sink.item(Item::Declaration(&decl));
        Ok(())
    }

    /// If optional whitespace and a comma follow, a cursor just past the comma and the
    /// whitespace after it.
    fn comma_then(&self) -> Option<Cursor<'a>> {
        let mut p = self.cur;
        p.skip_ws_lenient();
        if p.peek() != b',' {
            return None;
        }
        p.advance(1);
        p.skip_ws_lenient();
        Some(p)
    }

    fn texture_target(&mut self) -> PResult<TextureTarget> {
        let word = self.cur.word();
        match names::texture_targets().get(word) {
            Some(t) => {
                self.cur.advance(word.len());
                Ok(t)
            }
            None => self.expected("a texture target (2D, CUBE, SHADOW2D, …)"),
        }
    }

    fn return_type(&mut self) -> PResult<ReturnType> {
        let word = self.cur.word_str();
        match ReturnType::from_name(word).filter(|&t| t != ReturnType::Unknown) {
            Some(t) => {
                self.cur.advance(word.len());
                Ok(t)
            }
            None => self.expected("a return type (UNORM, SNORM, SINT, UINT or FLOAT)"),
        }
    }

    fn format_word(p: &mut Cursor<'_>) -> Option<Format> {
        let word = p.word_str();
        let format = Format::from_name(word)?;
        p.advance(word.len());
        Some(format)
    }

    #[inline]
    fn opt_write_mask(&mut self) -> PResult<Option<WriteMask>> {
        let mut p = self.cur;
        p.skip_ws()?;
        if p.peek() != b'.' {
            return Ok(None);
        }
        p.advance(1);
        p.skip_ws()?;
        let mut mask = 0u8;
        for (bit, letter) in [b'x', b'y', b'z', b'w'].iter().enumerate() {
            if p.peek().to_ascii_lowercase() == *letter {
                mask |= 1 << bit;
                p.advance(1);
            }
        }
        self.cur = p;
        if mask == 0 {
            return self.expected("a write mask (letters x, y, z, w in that order)");
        }
        if self.cur.peek().is_ascii_alphanumeric() || self.cur.peek() == b'_' {
            return self
                .expected("the end of the write mask (letters must be x, y, z, w in that order)");
        }
        Ok(Some(WriteMask(mask)))
    }

    // ----- instructions --------------------------------------------------------------

    fn instruction(&mut self, has_label: bool) -> PResult<()> {
        let span = self.cur.span();
        let word = self.cur.word();
        let (opcode, saturate, precise) = match split_opcode(word) {
            Some(found) => found,
            None => {
                return if word.is_empty() {
                    self.expected(if has_label {
                        "an opcode"
                    } else {
                        "DCL, IMM, PROPERTY, an opcode or a label"
                    })
                } else {
                    // Quote at most a few dozen characters of a hostile megabyte-long word.
                    self.error_at(
                        span,
                        format!("unknown opcode '{}'", clip(self.cur.word_str())),
                    )
                };
            }
        };
        let info = opcode.info();
        self.cur.advance(word.len());
        let takes_operands = info.num_dst + info.num_src > 0 || info.has(opcode::TEX);
        // The instruction is assembled in place in `self.inst` (reused, so its operand
        // lists are cleared rather than built anew).
        let inst = &mut self.inst;
        inst.opcode = opcode;
        inst.saturate = saturate;
        inst.precise = precise;
        inst.dst.clear();
        inst.src.clear();
        inst.label = None;
        inst.texture = info
            .has(opcode::SVIEW_OFFSETS)
            .then(|| Box::new(TextureInfo::unknown()));
        inst.memory = info.has(opcode::MEM).then_some(MemoryInfo::NONE);
        inst.span = span;

        // Pre-2017 geometry shaders wrote EMIT / ENDPRIM with no stream operand.
        let operands_omitted = matches!(opcode, Opcode::EMIT | Opcode::ENDPRIM) && {
            let mut p = self.cur;
            p.skip_ws_lenient();
            let w = p.word();
            !(p.peek() == b'-' || p.peek() == b'|' || names::files().get(w).is_some())
        };

        if takes_operands && !operands_omitted {
            if !self.cur.at_end() && !self.cur.skip_ws()? {
                return self.expected(&format!("whitespace after {}", info.name));
            }
            let total =
                info.num_dst as usize + info.num_src as usize + info.has(opcode::TEX) as usize;
            for i in 0..total {
                if i > 0 {
                    self.cur.skip_ws()?;
                    if self.cur.peek() != b',' {
                        return self.expected(&format!(
                            "',' and {} operand{} more for {}",
                            total - i,
                            if total - i == 1 { "" } else { "s" },
                            info.name
                        ));
                    }
                    self.cur.advance(1);
                    self.cur.skip_ws()?;
                }
                if i < info.num_dst as usize {
                    let dst = self.dst_operand()?;
                    self.inst.dst.push(dst);
                } else if i < (info.num_dst + info.num_src) as usize {
                    let src = self.src_operand()?;
                    self.inst.src.push(src);
                } else {
                    let target = self.texture_target()?;
                    self.inst.texture = Some(Box::new(TextureInfo {
                        target,
                        return_type: ReturnType::Unknown,
                        offsets: Vec::new(),
                    }));
                }
            }
        }

        // Texel offsets.
        if self.inst.texture.is_some() {
            while let Some(p) = self.comma_then() {
                let n = self.inst.texture.as_ref().map_or(0, |t| t.offsets.len());
                let mut q = p;
                let word = q.word();
                if names::files().get(word).is_none() || n >= 4 {
                    break;
                }
                q.advance(word.len());
                self.cur = p;
                let offset = self.tex_offset()?;
                if let Some(t) = self.inst.texture.as_mut() {
                    t.offsets.push(offset);
                }
            }
        }

        // Memory qualifiers, image target and format.
        if self.inst.memory.is_some() {
            while let Some(mut p) = self.comma_then() {
                let Some(mem) = self.inst.memory.as_mut() else {
                    break;
                };
                let word = p.word_str();
                if let Some(q) = MemoryQualifier::from_name(word) {
                    mem.qualifiers |= 1 << q.number();
                } else if let Some(t) = TextureTarget::from_name(word) {
                    mem.target = t;
                } else if let Some(f) = Format::from_name(word) {
                    mem.format = f;
                } else {
                    self.cur = p;
                    return self.expected("a memory qualifier, texture target or format");
                }
                p.advance(word.len());
                self.cur = p;
            }
        }

        // Branch label.
        if info.has(opcode::BRANCH) {
            let mut p = self.cur;
            p.skip_ws_lenient();
            if p.peek() == b':' {
                p.advance(1);
                p.skip_ws()?;
                self.cur = p;
                let label_span = self.cur.span();
                let label = self.uint("a label (instruction number)")?;
                if label >= 1 << 24 {
                    return self
                        .error_at(label_span, format!("label {label} does not fit in 24 bits"));
                }
                self.inst.label = Some(label);
            }
        }

        self.push_instruction()
    }

    /// Hands the instruction read into `self.inst` (its span set) to the sink.
    fn push_instruction(&mut self) -> PResult<()> {
        self.within_limit(
            self.counts.instructions,
            self.limits.max_instructions,
            "instructions",
            self.inst.span,
        )?;
        self.sink
            .item(Item::Instruction(self.counts.instructions, &self.inst));
        self.counts.instructions += 1;
        Ok(())
    }

    /// `[...]` after a file name: a literal index or `FILE[n].c±offset`, then `(arrayid)`.
    fn operand_bracket(&mut self) -> PResult<Bracket> {
        self.cur.skip_ws()?;
        let mut bracket = Bracket::default();
        // A literal index is the common case; a file name never starts with a digit.
        let ind_file = match self.cur.peek() {
            b'0'..=b'9' => None,
            _ => names::files().get(self.cur.word()),
        };
        if let Some(ind_file) = ind_file {
            self.cur.advance(self.cur.word().len());
            self.cur.skip_ws()?;
            self.expect_char(b'[')?;
            self.cur.skip_ws()?;
            let ind_index = self.register_index("the address register index")?;
            self.cur.skip_ws()?;
            self.expect_char(b']')?;
            self.cur.skip_ws()?;
            let mut component = 0;
            if self.cur.peek() == b'.' {
                self.cur.advance(1);
                self.cur.skip_ws()?;
                component = match self.cur.peek().to_ascii_lowercase() {
                    b'x' => 0,
                    b'y' => 1,
                    b'z' => 2,
                    b'w' => 3,
                    _ => return self.expected("an address component (x, y, z or w)"),
                };
                self.cur.advance(1);
                self.cur.skip_ws()?;
            }
            if matches!(self.cur.peek(), b'+' | b'-') {
                let off_span = self.cur.span();
                let negative = self.cur.peek() == b'-';
                self.cur.advance(1);
                // Older Mesa allowed whitespace between the sign and the digits.
                self.cur.skip_ws()?;
                let magnitude = self.uint("an offset")?;
                if magnitude > self.limits.max_register_index + 1 {
                    return self.error_at(off_span, format!("offset {magnitude} is out of range"));
                }
                bracket.index = if negative {
                    -(magnitude as i32)
                } else {
                    magnitude as i32
                };
            }
            bracket.indirect = Some(Indirect {
                file: ind_file,
                index: ind_index as i32,
                component,
                array_id: 0,
            });
        } else {
            bracket.index = self.register_index("a register index or an address register")? as i32;
        }
        self.cur.skip_ws()?;
        self.expect_char(b']')?;
        if self.cur.peek() == b'(' {
            self.cur.advance(1);
            self.cur.skip_ws()?;
            let id_span = self.cur.span();
            let id = self.uint("an array id")?;
            if id >= 1 << 10 {
                return self.error_at(id_span, format!("array id {id} does not fit in 10 bits"));
            }
            self.cur.skip_ws()?;
            self.expect_char(b')')?;
            if let Some(ind) = bracket.indirect.as_mut() {
                ind.array_id = id as u16;
            }
        }
        Ok(bracket)
    }

    /// `FILE[n]` as the printer writes most operands, at the start of `rest`: a literal
    /// index right after the file, no array id, no second index. Returns the register and
    /// its length, or `None` for anything else, which the general path of
    /// [`Parser::register`] reads (identically, for this form).
    #[inline(always)]
    fn plain_register_at(&self, rest: &[u8]) -> Option<(Register, usize)> {
        let word_len = rest.iter().position(|&c| !is_word_byte(c))?;
        let file = names::files().get(rest.get(..word_len)?)?;
        let mut i = word_len;
        if rest.get(i) != Some(&b'[') {
            return None;
        }
        i += 1;
        let start = i;
        let mut index = 0u32;
        while let Some(c) = rest.get(i).filter(|c| c.is_ascii_digit()) {
            if i - start == 5 {
                return None;
            }
            index = index * 10 + (c - b'0') as u32;
            i += 1;
        }
        let digits = i - start;
        if digits == 0
            || digits > self.limits.max_token_len
            || index > self.limits.max_register_index
            || rest.get(i) != Some(&b']')
        {
            return None;
        }
        i += 1;
        if rest.get(i) == Some(&b'(') {
            return None;
        }
        Some((Register::new(file, index as i32), i))
    }

    /// [`Parser::plain_register_at`] at the cursor, which it moves past the register.
    #[inline(always)]
    fn plain_register(&mut self) -> Option<Register> {
        let rest = self.cur.rest();
        let (reg, len) = self.plain_register_at(rest)?;
        if next_after_ws(rest, len) == Some(b'[') {
            return None;
        }
        self.cur.advance(len);
        Some(reg)
    }

    /// A destination as the printer writes it, `FILE[n]` and an optional `.mask` (at
    /// least one of x, y, z, w in that order), followed by a comma, a line feed, a space or
    /// the end. `None` (cursor untouched) leaves every other form, and every error, to
    /// [`Parser::dst_operand`]'s general path, which reads this form identically.
    #[inline(always)]
    fn plain_dst(&mut self) -> Option<Dst> {
        let rest = self.cur.rest();
        let (reg, mut i) = self.plain_register_at(rest)?;
        let mut write_mask = WriteMask::XYZW;
        if rest.get(i) == Some(&b'.') {
            i += 1;
            let mut mask = 0u8;
            for (bit, letter) in [b'x', b'y', b'z', b'w'].into_iter().enumerate() {
                if rest.get(i).map(u8::to_ascii_lowercase) == Some(letter) {
                    mask |= 1 << bit;
                    i += 1;
                }
            }
            if mask == 0 || !ends_operand(rest.get(i).copied()) {
                return None;
            }
            write_mask = WriteMask(mask);
        } else if matches!(next_after_ws(rest, i), Some(b'.' | b'[')) {
            return None;
        }
        if !ends_operand(rest.get(i).copied()) {
            return None;
        }
        self.cur.advance(i);
        Some(Dst { reg, write_mask })
    }

    /// A source as the printer writes it: `[-][|]FILE[n][.xyzw][|]` with no space inside,
    /// followed by a comma, a line feed, a space or the end. `None` (cursor untouched)
    /// leaves every other form, and every error, to [`Parser::src_operand`]'s general
    /// path, which reads this form identically.
    #[inline(always)]
    fn plain_src(&mut self) -> Option<Src> {
        let rest = self.cur.rest();
        let negate = rest.first() == Some(&b'-');
        let mut i = negate as usize;
        let absolute = rest.get(i) == Some(&b'|');
        i += absolute as usize;
        let (reg, len) = self.plain_register_at(rest.get(i..)?)?;
        i += len;
        let mut swizzle = Swizzle::IDENTITY;
        if rest.get(i) == Some(&b'.') {
            let letters = rest.get(i + 1..i + 5)?;
            for (slot, &c) in swizzle.0.iter_mut().zip(letters) {
                *slot = match c.to_ascii_lowercase() {
                    b'x' => 0,
                    b'y' => 1,
                    b'z' => 2,
                    b'w' => 3,
                    _ => return None,
                };
            }
            i += 5;
        } else if matches!(next_after_ws(rest, i), Some(b'.' | b'[')) {
            return None;
        }
        if absolute {
            if rest.get(i) != Some(&b'|') {
                return None;
            }
            i += 1;
        }
        if !ends_operand(rest.get(i).copied()) {
            return None;
        }
        self.cur.advance(i);
        Some(Src {
            reg,
            swizzle,
            absolute,
            negate,
        })
    }

    /// `FILE[...]` optionally followed by a second `[...]`.
    #[inline(always)]
    fn register(&mut self) -> PResult<Register> {
        match self.plain_register() {
            Some(reg) => Ok(reg),
            None => self.any_register(),
        }
    }

    /// [`Parser::register`] in all its forms.
    #[inline(never)]
    fn any_register(&mut self) -> PResult<Register> {
        let file = self.file()?;
        self.cur.skip_ws()?;
        self.expect_char(b'[')?;
        let first = self.operand_bracket()?;
        let mut p = self.cur;
        p.skip_ws_lenient();
        if p.peek() == b'[' {
            self.cur = p;
            self.cur.advance(1);
            let second = self.operand_bracket()?;
            return Ok(Register {
                file,
                index: second.index,
                indirect: second.indirect,
                dimension: Some(Dimension {
                    index: first.index,
                    indirect: first.indirect,
                }),
            });
        }
        Ok(Register {
            file,
            index: first.index,
            indirect: first.indirect,
            dimension: None,
        })
    }

    #[inline(always)]
    fn dst_operand(&mut self) -> PResult<Dst> {
        if let Some(dst) = self.plain_dst() {
            return Ok(dst);
        }
        self.any_dst_operand()
    }

    /// [`Parser::dst_operand`] in all its forms.
    #[inline(never)]
    fn any_dst_operand(&mut self) -> PResult<Dst> {
        let reg = self.register()?;
        let write_mask = self.opt_write_mask()?.unwrap_or(WriteMask::XYZW);
        Ok(Dst { reg, write_mask })
    }

    #[inline(always)]
    fn src_operand(&mut self) -> PResult<Src> {
        if let Some(src) = self.plain_src() {
            return Ok(src);
        }
        self.any_src_operand()
    }

    /// [`Parser::src_operand`] in all its forms.
    #[inline(never)]
    fn any_src_operand(&mut self) -> PResult<Src> {
        let mut negate = false;
        let mut absolute = false;
        if self.cur.peek() == b'-' {
            self.cur.advance(1);
            self.cur.skip_ws()?;
            negate = true;
        }
        if self.cur.peek() == b'|' {
            self.cur.advance(1);
            self.cur.skip_ws()?;
            absolute = true;
        }
        let reg = self.register()?;
        let swizzle = match self.opt_swizzle::<4>()? {
            Some(s) => Swizzle(s),
            None => Swizzle::IDENTITY,
        };
        if absolute {
            self.cur.skip_ws()?;
            if self.cur.peek() != b'|' {
                return self.expected("'|' closing the absolute value");
            }
            self.cur.advance(1);
        }
        Ok(Src {
            reg,
            swizzle,
            absolute,
            negate,
        })
    }

    /// `.` and exactly N swizzle letters.
    #[inline]
    fn opt_swizzle<const N: usize>(&mut self) -> PResult<Option<[u8; N]>> {
        let mut p = self.cur;
        p.skip_ws()?;
        if p.peek() != b'.' {
            return Ok(None);
        }
        p.advance(1);
        p.skip_ws()?;
        self.cur = p;
        let mut out = [0u8; N];
        for slot in out.iter_mut() {
            *slot = match self.cur.peek().to_ascii_lowercase() {
                b'x' => 0,
                b'y' => 1,
                b'z' => 2,
                b'w' => 3,
                _ => {
                    return self
                        .expected(&format!("a swizzle of exactly {N} letters from x, y, z, w"));
                }
            };
            self.cur.advance(1);
        }
        if self.cur.peek().is_ascii_alphanumeric() || self.cur.peek() == b'_' {
            return self.expected(&format!("the end of the swizzle (exactly {N} letters)"));
        }
        Ok(Some(out))
    }

    fn tex_offset(&mut self) -> PResult<TexOffset> {
        let span = self.cur.span();
        let reg = self.register()?;
        if reg.indirect.is_some() || reg.dimension.is_some() {
            return self.error_at(
                span,
                "a texel offset must be a plain register (no indirect or 2-D index)",
            );
        }
        let swizzle = self.opt_swizzle::<3>()?.unwrap_or([0, 1, 2]);
        Ok(TexOffset {
            file: reg.file,
            index: reg.index,
            swizzle,
        })
    }
}
