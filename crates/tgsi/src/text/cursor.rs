//! A byte cursor over TGSI text that tracks line and column, matches case-insensitive
//! whole-word keywords, and describes what it is looking at for error messages.

use super::ParseError;
use crate::ir::Span;

/// Position in the input plus the line bookkeeping needed for spans.
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
}

/// Which bytes make up words: `[A-Za-z0-9_]`.
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b.is_ascii_alphanumeric() || b == b'_';
        c += 1;
    }
    table
};

#[inline]
pub fn is_word_byte(c: u8) -> bool {
    WORD_BYTES[c as usize]
}

/// Shortens user text quoted in a message.
pub fn clip(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head}…")
    }
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `src`.
    pub fn new(src: &'a [u8]) -> Cursor<'a> {
        Cursor {
            src,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The current position as a span.
    #[inline]
    pub fn span(&self) -> Span {
        Span::new(self.line, (self.pos - self.line_start + 1) as u32)
    }

    /// The byte at the cursor, or 0 at the end.
    #[inline]
    pub fn peek(&self) -> u8 {
        self.src.get(self.pos).copied().unwrap_or(0)
    }

    /// Whether the input is exhausted.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// The unread input.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.src.get(self.pos..).unwrap_or_default()
    }

    /// Moves forward by `n` bytes that contain no line feed.
    #[inline]
    pub fn advance(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.src.len());
    }

    /// The identifier-like word (`[A-Za-z0-9_]*`) at the cursor.
    #[inline]
    pub fn word(&self) -> &'a [u8] {
        let rest = self.rest();
        let n = rest
            .iter()
            .position(|&c| !is_word_byte(c))
            .unwrap_or(rest.len());
        &rest[..n]
    }

    /// [`Cursor::word`] as text (it is ASCII), for the lookups of rarely used names.
    pub fn word_str(&self) -> &'a str {
        std::str::from_utf8(self.word()).unwrap_or_default()
    }

    /// The run of decimal digits at the cursor.
    #[inline]
    pub fn digits(&self) -> &'a [u8] {
        let rest = self.rest();
        let n = rest
            .iter()
            .position(|c| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        &rest[..n]
    }

    /// Consumes `kw` if the next word equals it (case-insensitively).
    pub fn eat_word(&mut self, kw: &str) -> bool {
        let word = self.word();
        if word.eq_ignore_ascii_case(kw.as_bytes()) {
            self.advance(word.len());
            true
        } else {
            false
        }
    }

    /// Skips spaces, tabs and line feeds; returns whether any were skipped. A carriage
    /// return is an error, as in Mesa. (The error is boxed to keep the result small.)
    #[inline]
    pub fn skip_ws(&mut self) -> Result<bool, Box<ParseError>> {
        let skipped = match self.peek() {
            b' ' | b'\t' | b'\n' => self.skip_ws_lenient(),
            _ => false,
        };
        if self.peek() == b'\r' {
            return Err(self.carriage_return());
        }
        Ok(skipped)
    }

    #[cold]
    fn carriage_return(&self) -> Box<ParseError> {
        Box::new(ParseError {
            span: self.span(),
            message:
                "carriage return is not whitespace in TGSI text (convert CRLF line endings to LF)"
                    .into(),
        })
    }

    /// Skips whitespace without complaining about what follows.
    pub fn skip_ws_lenient(&mut self) -> bool {
        let start = self.pos;
        while let Some(&c) = self.src.get(self.pos) {
            match c {
                b' ' | b'\t' => self.pos += 1,
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.pos;
                }
                _ => break,
            }
        }
        self.pos > start
    }

    /// What is at the cursor, for "found …" in messages.
    pub fn describe_here(&self) -> String {
        if self.at_end() {
            return "the end of the input".into();
        }
        let word = self.word_str();
        if !word.is_empty() {
            return format!("'{}'", clip(word));
        }
        match self.peek() {
            b'\n' => "the end of the line".into(),
            b'\r' => "a carriage return".into(),
            0 => "a NUL byte".into(),
            c if c.is_ascii_graphic() => format!("'{}'", c as char),
            _ => {
                let ch = std::str::from_utf8(self.rest())
                    .ok()
                    .and_then(|s| s.chars().next())
                    .or_else(|| {
                        let end = (self.pos + 4).min(self.src.len());
                        (self.pos + 1..=end)
                            .find_map(|e| std::str::from_utf8(&self.src[self.pos..e]).ok())
                            .and_then(|s| s.chars().next())
                    });
                match ch {
                    // Name the code point too: U+00A0 or U+200B would otherwise look
                    // like a space or nothing at all.
                    Some(ch) if !ch.is_control() && ch != ' ' => {
                        format!("'{ch}' (U+{:04X})", ch as u32)
                    }
                    _ => format!("byte 0x{:02x}", self.peek()),
                }
            }
        }
    }
}
