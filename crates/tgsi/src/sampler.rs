//! Gallium's sampler-state enums (`pipe_sampler_state`'s wrap modes, filters and
//! comparison function), shared by the executors, which sample with them, and the
//! translation, which emulates what a target's samplers lack.

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
