//! `tgsi fmt`: print shaders in Mesa's canonical text form, or with `--check` list the files
//! that are not already canonical.

use crate::input::{self, Failure, Form};

/// Options of `tgsi fmt`.
#[derive(clap::Args)]
pub struct FmtArgs {
    /// Shader files (text or tokens); `-` reads stdin.
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Print the names of files that are not canonical; exit 1 if any.
    #[arg(long)]
    pub check: bool,
    /// Rewrite the files in place instead of printing them.
    #[arg(short, long, conflicts_with = "check")]
    pub write: bool,
    /// Print FLT32 immediates as 0x raw bits (lossless).
    #[arg(long)]
    pub hex_floats: bool,
    /// Treat inputs as token streams even if they do not look like one.
    #[arg(long)]
    pub tokens: bool,
}

/// Runs `tgsi fmt`.
pub fn run(args: &FmtArgs) -> Result<(), Failure> {
    let options = tgsi::PrintOptions {
        hex_floats: args.hex_floats,
    };
    let mut not_canonical = false;
    let invalid = input::for_each_shader(&args.files, args.tokens, |input, shader| {
        if args.check {
            let printed = tgsi::print_with(&shader, options);
            if input.form(args.tokens) == Form::Tokens || input.bytes != printed.as_bytes() {
                println!("{}", input.name);
                not_canonical = true;
            }
            Ok(())
        } else if args.write && input.name != "<stdin>" {
            let printed = tgsi::print_with(&shader, options);
            if input.bytes == printed.as_bytes() {
                Ok(())
            } else {
                input::write(&input.name, printed.as_bytes())
            }
        } else {
            // Streamed to stdout: the text is never held whole.
            let mut out = std::io::stdout().lock();
            tgsi::print_to(&shader, options, &mut out)
                .and_then(|()| std::io::Write::flush(&mut out))
                .map_err(|e| Failure::Io(format!("<stdout>: {e}")))
        }
    })?;
    if invalid || not_canonical {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}
