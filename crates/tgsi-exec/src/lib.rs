//! # tgsi-exec
//!
//! The reference interpreter for TGSI shaders, bit-compatible with Mesa softpipe's
//! `tgsi_exec` on x86-64 (see `tgsi-formats.md` part C).
//!
//! * [`scalar`]: the semantics of every ALU opcode as plain functions, shared with the JIT.
//! * [`Program::compile`]: lowering a [`tgsi::Shader`] into an executable form.
//! * [`Machine`]: a wave of `N` lanes (2×2 quads) with structured execution masks.
//! * [`render_fragment`]: run a fragment shader over a W×H grid into an RGBA32F [`Image`].
//! * [`parse_consts`]: the `consts.txt` constant-buffer format.
//!
//! ```
//! let shader = tgsi::parse("FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n").unwrap();
//! let program = tgsi_exec::Program::compile(&shader).unwrap();
//! let opts = tgsi_exec::RenderOptions { width: 2, height: 2, ..Default::default() };
//! let image = tgsi_exec::render_fragment(&program, &opts).unwrap();
//! assert_eq!(image.pixels[3], [0.25, 0.5, 0.75, 1.0]);
//! ```
#![warn(missing_docs)]

mod alu;
pub mod compile;
pub mod consts;
pub mod machine;
mod operand;
pub mod ops;
pub mod render;
pub mod scalar;

pub use compile::{CompileError, Program};
pub use consts::{parse_consts, ConstsError};
pub use machine::{Env, ExecError, Machine, DEFAULT_BUDGET};
pub use render::{render_fragment, Image, RenderOptions};
