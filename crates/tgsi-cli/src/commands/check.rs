//! `tgsi check`: validate shaders and print every diagnostic on stderr as
//! `file:line:col: severity: message [code]`.

use crate::input::{self, Failure};
use tgsi::{Limits, Severity};

/// Runs `tgsi check`; invalid if any file fails to parse or has an error.
pub fn run(files: &[String], force_tokens: bool, quiet: bool, legacy: bool) -> Result<(), Failure> {
    let limits = Limits {
        allow_legacy: legacy,
        ..Limits::DEFAULT
    };
    let mut errors = 0;
    let invalid = input::for_each_shader(files, force_tokens, |input, shader| {
        for d in tgsi::validate(&shader, &limits) {
            if d.severity == Severity::Error {
                errors += 1;
            } else if quiet {
                continue;
            }
            let place = if d.span.is_text() {
                format!("{}:{}:{}", input.name, d.span.line, d.span.col)
            } else {
                format!("{}: word {}", input.name, d.span.col)
            };
            eprintln!("{place}: {}: {} [{}]", d.severity, d.message, d.code.name());
        }
        Ok(())
    })?;
    if invalid || errors > 0 {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}
