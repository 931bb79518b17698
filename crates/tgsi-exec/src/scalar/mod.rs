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

/// The bits of `if_true` where `cond` holds, else those of `if_false`. Written as a mask,
/// not a branch: in a loop over lanes, LLVM turns `if cond { b[i] } else { c[i] }` into a
/// load through a selected pointer, one lane at a time, where this stays a vector blend.
#[inline(always)]
pub fn select(cond: bool, if_true: u32, if_false: u32) -> u32 {
    let m = u32::from(cond).wrapping_neg();
    if_true & m | if_false & !m
}
