//! Translation errors: what could not be translated, and where it was written.

use tgsi::ir::Span;

/// Why a shader could not be translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where the offending statement was written (`Span::default()` for the shader as a
    /// whole, e.g. its stage).
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

impl Error {
    /// The position, unless the error is about the shader as a whole.
    pub fn position(&self) -> Option<Span> {
        (self.span != Span::default()).then_some(self.span)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(span) = self.position() {
            write!(f, "{span}: ")?;
        }
        write!(f, "{}: {}", self.item, self.reason)
    }
}

impl std::error::Error for Error {}

/// Shorthand for translation results.
pub type Result<T> = std::result::Result<T, Error>;
