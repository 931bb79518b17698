//! The `tgsi` command line: format, check, inspect, assemble and disassemble TGSI shaders.

mod commands;
mod input;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use input::Failure;

const EXAMPLES: &str = "\
Examples:
  tgsi fmt shader.tgsi                  print the canonical (Mesa tgsi_dump) form
  tgsi fmt --check shaders/*.tgsi       list files that are not canonical (exit 1 if any)
  tgsi fmt --hex-floats shader.tgsi     lossless print: FLT32 immediates as raw bits
  tgsi check shader.tgsi                validate; diagnostics on stderr
  tgsi info --json shader.tgsi          what a driver wants to know, as JSON
  tgsi asm shader.tgsi -o shader.bin    text -> Mesa token words (little-endian u32)
  tgsi disasm shader.bin                token words -> text
  cat shader.tgsi | tgsi check -        read from stdin

Exit status: 0 valid (warnings allowed), 1 invalid input, 2 usage or I/O error.";

/// TGSI (Gallium shader IR) tools: parse, print, validate, assemble.
#[derive(Parser)]
#[command(name = "tgsi", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print shaders in Mesa's canonical text form (byte-identical to tgsi_dump).
    Fmt {
        /// Shader files (text or tokens); `-` reads stdin.
        #[arg(required = true)]
        files: Vec<String>,
        /// Print the names of files that are not canonical; exit 1 if any.
        #[arg(long)]
        check: bool,
        /// Rewrite the files in place instead of printing them.
        #[arg(short, long, conflicts_with = "check")]
        write: bool,
        /// Print FLT32 immediates as 0x raw bits (lossless).
        #[arg(long)]
        hex_floats: bool,
        /// Treat inputs as token streams even if they do not look like one.
        #[arg(long)]
        tokens: bool,
    },
    /// Assemble text into Mesa token words (little-endian u32).
    Asm {
        /// Input shader.
        file: String,
        /// Output file (`-` for stdout).
        #[arg(short, long)]
        output: String,
        /// Treat the input as a token stream.
        #[arg(long)]
        tokens: bool,
    },
    /// Disassemble Mesa token words into canonical text.
    Disasm {
        /// Input token file (little-endian u32 words).
        file: String,
        /// Output file (`-` for stdout).
        #[arg(short, long, default_value = "-")]
        output: String,
        /// Print FLT32 immediates as 0x raw bits (lossless).
        #[arg(long)]
        hex_floats: bool,
    },
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Fmt {
            files,
            check,
            write,
            hex_floats,
            tokens,
        } => commands::fmt::run(&commands::fmt::FmtArgs {
            files,
            check,
            write,
            hex_floats,
            tokens,
        }),
        Command::Asm {
            file,
            output,
            tokens,
        } => commands::asm::asm(&file, &output, tokens),
        Command::Disasm {
            file,
            output,
            hex_floats,
        } => commands::asm::disasm(&file, &output, hex_floats),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid) => ExitCode::from(1),
        Err(Failure::Io(message)) => {
            eprintln!("tgsi: error: {message}");
            ExitCode::from(2)
        }
    }
}
