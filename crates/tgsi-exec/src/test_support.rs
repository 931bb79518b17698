//! Helpers shared by the crate's unit tests.

/// A xorshift generator from `seed` (not 0): the pseudo-random words the tests draw
/// inputs from, the same sequence on every run.
pub(crate) fn xorshift(mut x: u32) -> impl FnMut() -> u32 {
    move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    }
}
