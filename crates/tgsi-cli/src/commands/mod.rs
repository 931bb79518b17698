//! One module per subcommand.

pub mod asm;
pub mod bench;
pub mod bench_stages;
pub mod check;
pub mod fmt;
pub mod geometry;
pub mod info;
pub mod render;
pub mod run;
pub mod tessellation;
pub mod translate;
