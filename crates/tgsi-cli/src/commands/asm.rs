//! `tgsi asm` and `tgsi disasm`: convert between text and Mesa token words
//! (little-endian u32).

use crate::input::{self, Failure, Form};
use tgsi::tokens::AssembleError;

/// `tgsi asm IN -o OUT`: text (or tokens) → token words. Text is assembled statement by
/// statement (`tgsi::tokens::assemble`), without building the IR.
pub fn asm(file: &str, output: &str, force_tokens: bool) -> Result<(), Failure> {
    let input = input::read(file)?;
    let words = match input.form(force_tokens) {
        Form::Text => tgsi::tokens::assemble(input.text()?).map_err(|e| {
            match e {
                AssembleError::Parse(e) => eprintln!(
                    "{}:{}:{}: error: {}",
                    input.name, e.span.line, e.span.col, e.message
                ),
                AssembleError::Encode(e) => eprintln!("{}: error: {e}", input.name),
            }
            Failure::Invalid
        })?,
        Form::Tokens => {
            let shader = input.shader(true)?;
            tgsi::tokens::encode(&shader).map_err(|e| {
                eprintln!("{}: error: {e}", input.name);
                Failure::Invalid
            })?
        }
    };
    input::write_words(output, &words)
}

/// `tgsi disasm IN [-o OUT]`: token words (or text) → canonical text.
pub fn disasm(file: &str, output: &str, hex_floats: bool) -> Result<(), Failure> {
    let input = input::read(file)?;
    let shader = input.shader(true)?;
    let text = tgsi::print_with(&shader, tgsi::PrintOptions { hex_floats });
    input::write(output, text.as_bytes())
}
