//! The scalar semantics of every ALU opcode, defined once as plain functions on
//! `f32`/`u32`/`i32`/`f64`/`u64`/`i64`. The interpreter's dispatch and the JIT both call
//! these, so NaN, division-by-zero, conversion and shift-count rules live in one place.
//!
//! Where softpipe's result depends on the host, the x86-64 / glibc result is reproduced;
//! where softpipe traps or skips an opcode, the spec's (or a documented) definition is used.

pub mod approx;
pub mod double;
pub mod float;
pub mod int;
pub mod pack;
