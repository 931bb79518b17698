//! `tgsi fmt`: print shaders in Mesa's canonical text form, or with `--check` list the files
//! that are not already canonical.

use crate::input::{self, Failure, Form};

/// Options of `tgsi fmt`.
pub struct FmtArgs {
    /// Input files (`-` = stdin).
    pub files: Vec<String>,
    /// Only report non-canonical files.
    pub check: bool,
    /// Rewrite files in place.
    pub write: bool,
    /// Lossless FLT32 immediates.
    pub hex_floats: bool,
    /// Inputs are token streams.
    pub tokens: bool,
}

/// Runs `tgsi fmt`.
pub fn run(args: &FmtArgs) -> Result<(), Failure> {
    let options = tgsi::PrintOptions {
        hex_floats: args.hex_floats,
    };
    let mut not_canonical = false;
    let invalid = input::for_each_shader(&args.files, args.tokens, |input, shader| {
        let printed = tgsi::print_with(&shader, options);
        if args.check {
            if input.form(args.tokens) == Form::Tokens || input.bytes != printed.as_bytes() {
                println!("{}", input.name);
                not_canonical = true;
            }
            Ok(())
        } else if args.write && input.name != "<stdin>" {
            if input.bytes == printed.as_bytes() {
                Ok(())
            } else {
                input::write(&input.name, printed.as_bytes())
            }
        } else {
            input::write("-", printed.as_bytes())
        }
    })?;
    if invalid || not_canonical {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}
