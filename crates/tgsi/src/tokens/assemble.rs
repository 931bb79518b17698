//! Text straight to token words: the parser hands each statement to the encoder as soon as
//! it is read, so no [`Shader`](crate::Shader) is built. The result, words or error, is
//! exactly that of [`encode`](fn@super::encode) after [`parse`](crate::parse).

use super::encode::Assembler;
use super::EncodeError;
use crate::enums::Processor;
use crate::ir::Item;
use crate::limits::Limits;
use crate::text::{parse_into, ParseError, Sink};

/// Why text could not be assembled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssembleError {
    /// The text is not a shader.
    Parse(ParseError),
    /// The shader has no Mesa 22.3 token form.
    Encode(EncodeError),
}

impl std::fmt::Display for AssembleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AssembleError::Parse(e) => e.fmt(f),
            AssembleError::Encode(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AssembleError {}

impl Sink for Assembler {
    fn processor(&mut self, processor: Processor) {
        Assembler::processor(self, processor);
    }

    fn item(&mut self, item: Item<'_>) {
        Assembler::item(self, item);
    }

    fn words(&mut self) -> Option<&mut Vec<u32>> {
        self.words_so_far()
    }
}

/// Parses TGSI text and encodes it as Mesa token words, with default [`Limits`]:
/// `encode(&parse(text)?)` without building the IR in between.
pub fn assemble(text: &str) -> Result<Vec<u32>, AssembleError> {
    assemble_with_limits(text, &Limits::DEFAULT)
}

/// [`assemble`], enforcing `limits`. A syntax error anywhere wins over a statement that
/// does not fit the token format, as it does when parsing comes first.
pub fn assemble_with_limits(text: &str, limits: &Limits) -> Result<Vec<u32>, AssembleError> {
    // About one word per five bytes of typical text.
    let mut words = Assembler::with_capacity(text.len() / 5);
    parse_into(text, limits, &mut words).map_err(AssembleError::Parse)?;
    words.finish().map_err(AssembleError::Encode)
}
