//! The binary form of TGSI: Mesa's `struct tgsi_token` stream of 32-bit words, encoded and
//! decoded bit for bit in Mesa 22.3's layout (`layout`), with a decoder hardened against
//! hostile input.
//!
//! ```
//! let shader = tgsi::parse("FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IMM[0]\n  1: END\n").unwrap();
//! let words = tgsi::tokens::encode(&shader).unwrap();
//! assert_eq!(words[0] & 0xff, 2); // HeaderSize
//! let back = tgsi::tokens::decode(&words).unwrap();
//! assert_eq!(tgsi::print(&back), tgsi::print(&shader));
//! ```

mod assemble;
mod decode;
mod encode;
pub(crate) mod layout;

pub use assemble::{assemble, assemble_with_limits, AssembleError};
pub use decode::{decode, decode_with_limits};
pub(crate) use encode::body_words;
pub use encode::encode;

use crate::ir::Span;

/// Why a shader cannot be expressed as Mesa tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// The item that does not fit.
    pub span: Span,
    /// What does not fit, and why.
    pub message: String,
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.span.is_text() {
            write!(f, "{}: {}", self.span, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for EncodeError {}

/// The class of a decoding failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The stream ends inside a header or group.
    Truncated,
    /// Words follow the end that BodySize announces.
    Overlong,
    /// The header is malformed.
    BadHeader,
    /// A group head has an unknown type.
    UnknownTokenType,
    /// A field holds a value outside its enumeration.
    BadEnum,
    /// A group's NrTokens disagrees with its content.
    CountMismatch,
    /// Fields contradict each other or the opcode table.
    Contradictory,
    /// A feature of the format that this decoder refuses.
    Unsupported,
    /// The stream exceeds a configured [`crate::Limits`] bound.
    LimitExceeded,
}

/// A token stream that could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Word offset of the problem.
    pub offset: usize,
    /// Class of problem.
    pub kind: DecodeErrorKind,
    /// Details.
    pub message: String,
}

impl DecodeError {
    fn new(offset: usize, kind: DecodeErrorKind, message: impl Into<String>) -> DecodeError {
        DecodeError {
            offset,
            kind,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "word {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for DecodeError {}

/// Reads little-endian 32-bit words; `None` if the length is not a multiple of 4.
pub fn words_from_le_bytes(bytes: &[u8]) -> Option<Vec<u32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// Writes words as little-endian bytes.
pub fn words_to_le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Whether bytes look like a token stream rather than text: a whole number of words whose
/// first byte is the header size 2 (a control character that never starts TGSI text).
pub fn looks_like_tokens(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && bytes.len().is_multiple_of(4) && bytes[0] == 2
}
