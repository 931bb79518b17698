//! # tgsi
//!
//! TGSI — the Tungsten Graphics Shader Infrastructure of Mesa's Gallium — as a Rust library:
//! the IR ([`Shader`]), the one opcode table ([`opcode::OPCODES`]), a text parser and a
//! printer byte-identical to Mesa's `tgsi_dump`, the binary token codec in Mesa's exact
//! layout, a validator and a scanner.
//!
//! ```
//! let text = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
//! let shader = tgsi::parse(text).unwrap();
//! assert_eq!(shader.instructions.len(), 2);
//! assert_eq!(tgsi::print(&shader), text);
//! ```
#![warn(missing_docs)]

pub mod builder;
pub mod enums;
mod huge_pages;
pub mod ir;
pub mod limits;
pub mod opcode;
pub mod pipe_format;
pub mod pipe_format_layout;
mod pipe_format_table;
pub mod sampler;
pub mod scan;
pub mod text;
pub mod tokens;
pub mod validate;

pub use builder::Builder;
pub use enums::*;
pub use ir::*;
pub use limits::Limits;
pub use opcode::{Opcode, OpcodeInfo};
pub use pipe_format::Format;
pub use scan::{scan, ShaderInfo};
pub use text::{parse, parse_with_limits, print, print_to, print_with, ParseError, PrintOptions};
pub use validate::{validate, Diagnostic, Severity};
