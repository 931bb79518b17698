//! `tgsi check`: validate shaders and print every diagnostic on stderr as
//! `file:line:col: severity: message [code]`.

use crate::input::{self, Failure};
use tgsi::{Limits, Severity};

/// Runs `tgsi check`; invalid if any file fails to parse or has an error.
pub fn run(files: &[String], force_tokens: bool, quiet: bool) -> Result<(), Failure> {
    let mut invalid = false;
    for path in files {
        let input = input::read(path)?;
        let shader = match input.shader(force_tokens) {
            Ok(s) => s,
            Err(Failure::Invalid) => {
                invalid = true;
                continue;
            }
            Err(e) => return Err(e),
        };
        let diagnostics = tgsi::validate(&shader, &Limits::DEFAULT);
        let errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        for d in &diagnostics {
            if quiet && d.severity != Severity::Error {
                continue;
            }
            let place = if d.span.is_text() {
                format!("{}:{}:{}", input.name, d.span.line, d.span.col)
            } else {
                format!("{}: word {}", input.name, d.span.col)
            };
            eprintln!("{place}: {}: {} [{}]", d.severity, d.message, d.code.name());
        }
        if errors > 0 {
            invalid = true;
        }
    }
    if invalid {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}
