//! `--engine gpu`: opening the device and running fragment, vertex and compute shaders on it
//! through `tgsi-gpu`, with its errors turned into the command line's.

use tgsi::Processor;
use tgsi_gpu::Gpu;

use crate::input::Failure;

/// Opens the GPU, or fails with wgpu's reason and how to get a Vulkan driver (exit 2).
pub fn open() -> Result<Gpu, Failure> {
    Gpu::new().map_err(|e| Failure::Io(e.to_string()))
}

/// A GPU error for a shader named `name`: printed, exit 1.
pub fn failed(name: &str, e: tgsi_gpu::Error) -> Failure {
    eprintln!("{name}: error: {e}");
    Failure::Invalid
}

/// The error for a stage the GPU engine does not run.
pub fn unsupported_stage(processor: Processor) -> Failure {
    Failure::Io(format!(
        "--engine gpu runs fragment shaders (tgsi render, tgsi bench), vertex and geometry \
         shaders (tgsi run) and compute shaders (tgsi run, tgsi bench), not {processor} \
         shaders; use --engine jit or interp"
    ))
}
