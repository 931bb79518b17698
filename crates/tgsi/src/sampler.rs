//! Gallium's sampler-state enums (`pipe_sampler_state`'s wrap modes, filters and
//! comparison function) and the table of softpipe's LOD logarithm, shared by the
//! executors, which sample with them, and the translation, which emulates what a target's
//! samplers lack.

use std::sync::OnceLock;

/// Entries of [`fast_log2_table`].
pub const FAST_LOG2_TABLE_LEN: usize = 257;

/// The table of Mesa's `util_fast_log2` (softpipe's LOD logarithm):
/// `log2(1 + i/256)` in f64, rounded to f32, for i = 0…256. `util_fast_log2(x)` is
/// `(exponent − 127) + table[(mantissa + 2¹⁴) >> 15]`, the sign ignored.
#[inline]
pub fn fast_log2_table() -> &'static [f32; FAST_LOG2_TABLE_LEN] {
    static TABLE: OnceLock<[f32; FAST_LOG2_TABLE_LEN]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let x = std::hint::black_box(1.0 + i as f64 * (1.0 / 256.0));
            x.log2() as f32
        })
    })
}

/// `PIPE_TEX_WRAP_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wrap {
    /// `REPEAT` (the zero value).
    #[default]
    Repeat,
    /// `CLAMP`.
    Clamp,
    /// `CLAMP_TO_EDGE`.
    ClampToEdge,
    /// `CLAMP_TO_BORDER`.
    ClampToBorder,
    /// `MIRROR_REPEAT`.
    MirrorRepeat,
    /// `MIRROR_CLAMP`.
    MirrorClamp,
    /// `MIRROR_CLAMP_TO_EDGE`.
    MirrorClampToEdge,
    /// `MIRROR_CLAMP_TO_BORDER`.
    MirrorClampToBorder,
}

impl Wrap {
    /// Every wrap mode, in `PIPE_TEX_WRAP_*` order.
    pub const ALL: [Wrap; 8] = [
        Wrap::Repeat,
        Wrap::Clamp,
        Wrap::ClampToEdge,
        Wrap::ClampToBorder,
        Wrap::MirrorRepeat,
        Wrap::MirrorClamp,
        Wrap::MirrorClampToEdge,
        Wrap::MirrorClampToBorder,
    ];
}

/// `PIPE_TEX_FILTER_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    /// `NEAREST`.
    #[default]
    Nearest,
    /// `LINEAR`.
    Linear,
}

/// `PIPE_TEX_MIPFILTER_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MipFilter {
    /// `NEAREST` (the zero value).
    #[default]
    Nearest,
    /// `LINEAR`.
    Linear,
    /// `NONE`.
    None,
}

/// `PIPE_FUNC_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CompareFunc {
    /// `NEVER` (the zero value).
    #[default]
    Never,
    /// `LESS`.
    Less,
    /// `EQUAL`.
    Equal,
    /// `LEQUAL`.
    Lequal,
    /// `GREATER`.
    Greater,
    /// `NOTEQUAL`.
    NotEqual,
    /// `GEQUAL`.
    Gequal,
    /// `ALWAYS`.
    Always,
}
