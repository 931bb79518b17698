//! The text form of TGSI: a parser that accepts what Mesa accepts (and older spec syntax),
//! and a printer whose output is byte-identical to Mesa's `tgsi_dump`.

mod cursor;
mod line;
mod names;
pub mod number;
mod parse;
mod print;

pub use parse::{parse, parse_with_limits};
pub(crate) use parse::{parse_into, Sink};
pub use print::{print, print_to, print_with, reformat, PrintOptions};

use crate::ir::Span;

/// A text syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where (1-based line and column).
    pub span: Span,
    /// What was expected and what was found.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

impl std::error::Error for ParseError {}
