//! Translation of TGSI shaders into [`naga::Module`]s, and through naga's back ends into
//! SPIR-V, WGSL, GLSL, MSL and HLSL.
//!
//! ```
//! let shader = tgsi::text::parse("FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.5, 0.0, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n").unwrap();
//! let module = tgsi_naga::translate(&shader).unwrap();
//! let info = tgsi_naga::validate(&module).unwrap();
//! let glsl = tgsi_naga::write(&module, &info, tgsi_naga::Target::Glsl, &Default::default()).unwrap();
//! ```
//!
//! Registers are four untyped 32-bit words, so each TEMP/OUT/ADDR/IN/SV register becomes a
//! function-local `vec4<u32>` and every instruction bit-casts what it reads to its operand
//! type; the translation gives TGSI's (the interpreter's) result wherever the target languages
//! leave a case undefined or differ (division by zero, shift counts, float-to-integer
//! conversion, MIN/MAX with NaN, saturation). Vertex, fragment and compute shaders translate;
//! naga has no geometry or tessellation stages, so geometry shaders translate as compute
//! shaders that record what they emit ([`Options::geometry_as_compute`], [`GeometryLayout`])
//! and tessellation shaders as compute shaders a host runs around its tessellator
//! ([`Options::tessellation_as_compute`]). GLSL has those stages:
//! [`geometry_glsl`](fn@geometry_glsl) and [`tessellation_glsl`](fn@tessellation_glsl)
//! write GLSL geometry and tessellation shaders around naga's GLSL of a one-invocation
//! translation (see `glsl_stage`), and [`geometry_hlsl`](fn@geometry_hlsl) and
//! [`tessellation_hlsl`](fn@tessellation_hlsl) HLSL geometry, hull and domain shaders around
//! naga's HLSL of the same translations.

mod alu;
mod body;
mod error;
mod flow;
mod fragment;
mod geometry_compute;
mod geometry_glsl;
mod geometry_hlsl;
mod glsl_builtins;
mod glsl_stage;
mod hlsl_repair;
mod hlsl_stage;
pub mod image_buffer;
mod integer_sampling;
mod interface;
mod link;
mod lod;
mod memory;
mod pack;
mod per_vertex;
mod registers;
mod resources;
mod split64;
mod spv_builtins;
mod spv_repair;
mod targets;
pub mod tess_compute;
mod tess_glsl;
mod tess_hlsl;
mod texture;
mod translate;
mod vertex_compute;
mod wide;

pub use error::Error;
pub use flow::LOOP_BUDGET_BINDING;
pub use geometry_compute::{GeometryLayout, GEOMETRY_WORKGROUP_SIZE};
pub use geometry_glsl::geometry_glsl;
pub use geometry_hlsl::geometry_hlsl;
pub use image_buffer::IMAGE_BUFFER_HEADER_WORDS;
pub use interface::{varying_location, CLIP_PLANES_BINDING};
pub use link::pipeline_locations;
pub use resources::{
    BUFFER_BINDING_BASE, COVERAGE_BINDING_BASE, HW_ATOMIC_BINDING_BASE, SAMPLER_BINDING_BASE,
};
pub use targets::{validate, write, Output, Target, WriteError, WriteOptions};
pub use tess_compute::{control_vertices_out, TESS_EVAL_WORKGROUP_SIZE};
pub use tess_glsl::tessellation_glsl;
pub use tess_hlsl::tessellation_hlsl;
pub use texture::sampler_targets;
pub use translate::{
    CompareFunc, CoordinateWrap, DepthCompare, LodQuery, MipFilter, Options, TexelSampler, Wrap,
    ENTRY_POINT,
};
pub use vertex_compute::{vertex_io_strides, STAGE_IO_GROUP, VERTEX_WORKGROUP_SIZE};

/// Translates a shader into a naga module with one entry point named [`ENTRY_POINT`].
pub fn translate(shader: &tgsi::Shader) -> Result<naga::Module, Error> {
    translate::translate(shader, &Options::default())
}

/// [`translate`](fn@translate) with options.
pub fn translate_with(shader: &tgsi::Shader, options: &Options) -> Result<naga::Module, Error> {
    translate::translate(shader, options)
}

/// A geometry or tessellation shader written as a GLSL stage ([`geometry_glsl`](fn@geometry_glsl),
/// [`tessellation_glsl`](fn@tessellation_glsl)), unless `options` asks for it as a compute
/// shader; `None` for the shaders [`translate_with`] and [`write()`] take.
pub fn glsl_stage(
    shader: &tgsi::Shader,
    options: &Options,
    write_options: &WriteOptions,
) -> Option<Result<String, Error>> {
    use tgsi::Processor;
    match shader.processor {
        Processor::Geometry if !options.geometry_as_compute => {
            Some(geometry_glsl(shader, options, write_options))
        }
        Processor::TessCtrl | Processor::TessEval if !options.tessellation_as_compute => {
            Some(tessellation_glsl(shader, options, write_options))
        }
        _ => None,
    }
}

/// The translation options a target needs: GLSL (through naga) has no 64-bit integers, and
/// GLSL and SPIR-V have built-ins naga lacks ([`Options::glsl_builtins`],
/// [`Options::spirv_builtins`]). HLSL is taken at shader model 6.0
/// or later; [`options_for_model`] knows the model.
pub fn options_for(target: Target) -> Options {
    Options {
        native_int64: target != Target::Glsl,
        glsl_builtins: target == Target::Glsl,
        spirv_builtins: target == Target::SpirV,
        ..Options::default()
    }
}

/// [`options_for`] with the HLSL shader model (major, minor) the output is for: HLSL has
/// 64-bit integers from shader model 6.0 on, so below it 64-bit values are built from
/// their words as for GLSL.
pub fn options_for_model(target: Target, hlsl_shader_model: (u8, u8)) -> Options {
    Options {
        native_int64: target != Target::Glsl
            && (target != Target::Hlsl || hlsl_shader_model >= (6, 0)),
        ..options_for(target)
    }
}
