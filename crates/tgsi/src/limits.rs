//! Caps on what one shader may contain, so hostile input is rejected instead of exhausting
//! memory or time, and the fixed limits of Gallium that a shader handed to a driver must
//! respect. Every front end (text parser, token decoder) and the validator take a
//! [`Limits`]; embedders can tighten or relax them.
//!
//! The resource caps (`max_*` below `max_token_len`) default to Gallium's compile-time
//! limits from `p_state.h` (`PIPE_MAX_*`); where Gallium has no constant but a screen cap,
//! the default is softpipe's cap (the reference driver), as noted per field.

/// Upper bounds enforced while reading and validating a shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of text, or 4 × words of tokens.
    pub max_input_bytes: usize,
    /// Instructions.
    pub max_instructions: usize,
    /// Declarations.
    pub max_declarations: usize,
    /// Immediates.
    pub max_immediates: usize,
    /// Properties.
    pub max_properties: usize,
    /// Largest register index an operand may name (the token format's signed 16-bit
    /// operand index holds at most 32767).
    pub max_register_index: u32,
    /// Largest register a declaration range may reach (its two unsigned 16-bit fields hold
    /// up to 65535).
    pub max_declared_index: u32,
    /// Nesting depth of IF/loop/switch/subroutine blocks.
    pub max_nesting: usize,
    /// Length of one identifier or number in text.
    pub max_token_len: usize,
    /// Input registers (`PIPE_MAX_SHADER_INPUTS`).
    pub max_shader_inputs: u32,
    /// Vertex-shader inputs, i.e. vertex attributes (`PIPE_MAX_ATTRIBS`).
    pub max_vertex_attribs: u32,
    /// Output registers (`PIPE_MAX_SHADER_OUTPUTS`).
    pub max_shader_outputs: u32,
    /// Sampler states, `SAMP` (`PIPE_MAX_SAMPLERS`).
    pub max_samplers: u32,
    /// Sampler views, `SVIEW` (`PIPE_MAX_SHADER_SAMPLER_VIEWS`).
    pub max_sampler_views: u32,
    /// Images, `IMAGE` (`PIPE_MAX_SHADER_IMAGES`).
    pub max_shader_images: u32,
    /// Shader buffers, `BUFFER` (`PIPE_MAX_SHADER_BUFFERS`).
    pub max_shader_buffers: u32,
    /// Constant buffers: the outer index of `CONST[b][i]` and `CONSTBUF`
    /// (`PIPE_MAX_CONSTANT_BUFFERS`).
    pub max_constant_buffers: u32,
    /// Hardware atomic-counter buffers: the outer index of `HWATOMIC[b][i]`
    /// (`PIPE_MAX_HW_ATOMIC_BUFFERS`).
    pub max_hw_atomic_buffers: u32,
    /// Render targets a fragment shader writes, `COLOR[0..n]` outputs
    /// (`PIPE_MAX_COLOR_BUFS`).
    pub max_color_buffers: u32,
    /// Clip plus cull distances (`PIPE_MAX_CLIP_OR_CULL_DISTANCE_COUNT`); `CLIPDIST`
    /// registers hold four each.
    pub max_clip_cull_distances: u32,
    /// Vertex streams of a geometry shader (`PIPE_MAX_VERTEX_STREAMS`).
    pub max_vertex_streams: u32,
    /// `GS_MAX_OUTPUT_VERTICES` (softpipe's `PIPE_CAP_MAX_GEOMETRY_OUTPUT_VERTICES`).
    pub max_gs_output_vertices: u32,
    /// `GS_INVOCATIONS` (softpipe's `PIPE_CAP_MAX_GS_INVOCATIONS`).
    pub max_gs_invocations: u32,
    /// `TCS_VERTICES_OUT`, vertices of an output patch (`PIPE_CAP_MAX_PATCH_VERTICES` of
    /// every Gallium driver, GL's `MAX_PATCH_VERTICES`).
    pub max_patch_vertices: u32,
    /// Threads of a compute block, the product of `CS_FIXED_BLOCK_*` (softpipe's
    /// `PIPE_COMPUTE_CAP_MAX_THREADS_PER_BLOCK`).
    pub max_block_threads: u32,
    /// Accept opcodes and register files that only older spec versions define (`SUB`,
    /// `RES`…): the interpreter runs them, but Mesa tokens cannot hold them, so by default
    /// the validator rejects them (`legacy-opcode`, `legacy-file`); with this set it does
    /// not report them at all.
    pub allow_legacy: bool,
}

impl Limits {
    /// Generous caps on sizes (far beyond any real shader, small enough to bound memory),
    /// and Gallium's own limits on resources.
    pub const DEFAULT: Limits = Limits {
        max_input_bytes: 64 << 20,
        max_instructions: 1 << 20,
        max_declarations: 1 << 16,
        max_immediates: 1 << 16,
        max_properties: 1024,
        max_register_index: 32767,
        max_declared_index: 65535,
        max_nesting: 256,
        max_token_len: 256,
        max_shader_inputs: 80,
        max_vertex_attribs: 32,
        max_shader_outputs: 80,
        max_samplers: 32,
        max_sampler_views: 128,
        max_shader_images: 64,
        max_shader_buffers: 32,
        max_constant_buffers: 32,
        max_hw_atomic_buffers: 32,
        max_color_buffers: 8,
        max_clip_cull_distances: 8,
        max_vertex_streams: 4,
        max_gs_output_vertices: 1024,
        max_gs_invocations: 32,
        max_patch_vertices: 32,
        max_block_threads: 1024,
        allow_legacy: false,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}
