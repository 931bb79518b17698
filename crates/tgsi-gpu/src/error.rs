//! Why a GPU run failed: no adapter, a shader the translation or the engine does not take, or
//! an error reported by wgpu or the driver.

/// A failed GPU run.
#[derive(Debug)]
pub enum Error {
    /// No Vulkan adapter was found.
    NoAdapter(String),
    /// The shader could not be translated into a naga module.
    Translate(tgsi_naga::Error),
    /// Something the shader or the run needs that the GPU engine does not do.
    Unsupported(String),
    /// Bad run options (image size, grid).
    Setup(String),
    /// wgpu or the driver rejected the work.
    Device(String),
    /// An invocation ran more loop iterations than the run's budget (its results are
    /// meaningless).
    Budget(u32),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NoAdapter(why) => write!(
                f,
                "no GPU adapter: install mesa-vulkan-drivers and libvulkan1 (lavapipe) or a \
                 Vulkan driver ({why})"
            ),
            Error::Translate(e) => write!(f, "translation: {e}"),
            Error::Unsupported(what) => write!(f, "not supported by the gpu engine: {what}"),
            Error::Setup(what) => write!(f, "{what}"),
            Error::Device(what) => write!(f, "GPU: {what}"),
            Error::Budget(n) => write!(
                f,
                "loop budget exhausted: an invocation ran more than {n} loop iterations"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<tgsi_naga::Error> for Error {
    fn from(e: tgsi_naga::Error) -> Error {
        Error::Translate(e)
    }
}

impl From<tgsi_exec::ExecError> for Error {
    /// A draw the chained stages cannot run (its setup, checked by `tgsi_exec`).
    fn from(e: tgsi_exec::ExecError) -> Error {
        Error::Setup(e.to_string())
    }
}

/// Shorthand for GPU results.
pub type Result<T> = std::result::Result<T, Error>;
