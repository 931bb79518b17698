//! Runs tgsi-naga's translations of TGSI shaders on a real GPU API: wgpu on Vulkan,
//! headless (e.g. Mesa's lavapipe). Fragment shaders render like
//! `tgsi_exec::render_fragment_with` ([`Renderer`], [`render`]); compute shaders dispatch
//! like `tgsi_exec::run_compute` ([`run_compute`]); vertex shaders run like
//! `tgsi_exec::run_vertices` ([`run_vertices`], as compute shaders); geometry shaders run
//! like `tgsi_exec::run_geometry` ([`run_geometry`], as compute shaders recording what they
//! emit); tessellation chains run like `tgsi_exec::run_tess_pipeline`
//! ([`run_tess_pipeline`], control and evaluation shaders as compute shaders around the
//! interpreter's tessellator). The naga module goes to wgpu as is
//! (`ShaderSource::Naga`); bind groups are built from its resource variables.

mod bindings;
mod compute;
mod device;
mod error;
mod fragment;
mod geometry_compute;
mod images;
mod samplers;
mod stage_io;
mod tess_compute;
mod textures;
mod vertex;
mod vertex_compute;
mod wrap;

pub use compute::Dispatcher;
pub use device::Gpu;
pub use error::{Error, Result};
pub use fragment::Renderer;
pub use geometry_compute::{run_geometry, run_pipeline};
pub use tess_compute::{run_control, run_eval, run_tess_pipeline, TessShaders};
pub use vertex_compute::run_vertices;

/// Renders `shader` (compiled for the interpreter as `program`) once on `gpu`.
pub fn render(
    gpu: &Gpu,
    shader: &tgsi::Shader,
    program: &tgsi_exec::Program,
    opts: &tgsi_exec::RenderOptions,
) -> Result<tgsi_exec::Image> {
    Renderer::new(gpu, shader, program, opts)?.render()
}

/// Dispatches `shader` (compiled for the interpreter as `program`) once on `gpu`; bound
/// buffers change in place. Returns the block size used.
pub fn run_compute(
    gpu: &Gpu,
    shader: &tgsi::Shader,
    program: &tgsi_exec::Program,
    opts: &tgsi_exec::ComputeOptions,
) -> Result<[u32; 3]> {
    let dispatcher = Dispatcher::new(gpu, shader, program, opts)?;
    dispatcher.dispatch()?;
    Ok(dispatcher.block)
}
