//! One module per subcommand.

pub mod asm;
pub mod fmt;
pub mod render;
