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

/// Runs `tgsi fmt`. Text inputs are printed as they are parsed, without the IR.
pub fn run(args: &FmtArgs) -> Result<(), Failure> {
    let options = tgsi::PrintOptions {
        hex_floats: args.hex_floats,
    };
    let (mut invalid, mut not_canonical) = (false, false);
    for path in &args.files {
        let input = input::read(path)?;
        let printed = match input.canonical_text(args.tokens, options) {
            Ok(printed) => printed,
            Err(Failure::Invalid) => {
                invalid = true;
                continue;
            }
            Err(e) => return Err(e),
        };
        if args.check {
            if input.form(args.tokens) == Form::Tokens || input.bytes != printed.as_bytes() {
                println!("{}", input.name);
                not_canonical = true;
            }
        } else if args.write && input.name != "<stdin>" {
            if input.bytes != printed.as_bytes() {
                input::write(&input.name, printed.as_bytes())?;
            }
        } else {
            let mut out = std::io::stdout().lock();
            std::io::Write::write_all(&mut out, printed.as_bytes())
                .and_then(|()| std::io::Write::flush(&mut out))
                .map_err(|e| Failure::Io(format!("<stdout>: {e}")))?;
        }
    }
    if invalid || not_canonical {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}
