//! Translation errors: what could not be translated, and where it was written.

use tgsi::ir::Span;

/// Why a shader could not be translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where the offending statement was written (line 0: no text origin).
    pub span: Span,
    /// The statement's name: an opcode (`TXQ`), a declaration (`DCL OUT[2], LAYER`), a
    /// property or a stage.
    pub item: String,
    /// What is missing or wrong.
    pub reason: String,
}

impl Error {
    /// An error about `item` at `span`.
    pub fn new(span: Span, item: impl Into<String>, reason: impl Into<String>) -> Error {
        Error {
            span,
            item: item.into(),
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.span, self.item, self.reason)
    }
}

impl std::error::Error for Error {}

/// Shorthand for translation results.
pub type Result<T> = std::result::Result<T, Error>;
