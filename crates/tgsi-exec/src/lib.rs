//! # tgsi-exec
//!
//! The reference interpreter for TGSI shaders, bit-compatible with Mesa softpipe's
//! `tgsi_exec` on x86-64 (see `tgsi-formats.md` part C).
//!
//! * [`scalar`]: the semantics of every ALU opcode as plain functions, shared with the JIT.
//! * [`Program::compile`]: lowering a [`tgsi::Shader`] into an executable form;
//!   [`unblended`] finds the writes no inactive lane can observe (both engines skip their
//!   masking).
//! * [`Machine`]: a wave of `N` lanes (2×2 quads) with structured execution masks.
//! * [`WaveEngine`]: what runs a wave; the [`Interpreter`] is one, `tgsi-jit` another.
//! * [`render_fragment`]: run a fragment shader over a W×H grid into an RGBA32F [`Image`].
//! * [`run_vertices`]: run a vertex shader over vertices and collect its outputs.
//! * [`run_geometry`]: run a geometry shader over input primitives and collect what it
//!   emits on each vertex stream ([`emit`] says how EMIT and ENDPRIM record vertices).
//! * [`run_pipeline`]: a vertex shader chained to a geometry shader through primitive
//!   assembly ([`assembly`]), as Gallium's draw module chains them.
//! * [`run_tess_pipeline`]: a vertex shader, an optional tessellation control shader, the
//!   fixed-function [`tessellator`] and a tessellation evaluation shader ([`tessellation`]),
//!   then an optional geometry shader; the result is what transform feedback captures.
//! * [`run_compute`]: one compute dispatch with softpipe's results, with barriers and
//!   shared memory, in 32-lane waves where [`wave_width`] proves the order between
//!   invocations cannot matter; [`run_compute_with`] runs those waves on any engine.
//! * [`resource`], [`bindings`]: textures, samplers, images and buffers bound to slots, and
//!   the `--bindings` JSON file that describes them; [`format`](mod@format) reads and writes texels;
//!   [`texture`] samples them exactly as softpipe does.
//! * [`run_compute`]: dispatch a compute shader over a grid in softpipe's order, with
//!   buffers, images and shared memory ([`resource`], [`compute`]); [`Machine::resume`] runs
//!   a wave up to its next BARRIER.
//! * [`parse_consts`]: the `consts.txt` constant-buffer format.
//!
//! ```
//! let shader = tgsi::parse("FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}\n  0: MOV OUT[0], IMM[0]\n  1: END\n").unwrap();
//! let program = tgsi_exec::Program::compile(&shader).unwrap();
//! let opts = tgsi_exec::RenderOptions { width: 2, height: 2, ..Default::default() };
//! let image = tgsi_exec::render_fragment(&program, &opts).unwrap();
//! assert_eq!(image.pixels[3], [0.25, 0.5, 0.75, 1.0]);
//! ```
//!
//! ## Defined where softpipe is not
//!
//! * `IDIV INT_MIN, -1` = `INT_MIN` and `MOD INT_MIN, -1` = 0 (softpipe traps); likewise for
//!   the 64-bit forms.
//! * FMA, DFMA, DTRUNC, DCEIL, DROUND, DSSG, PK2US, PK4B, PK4UB, UP2US, UP4B, UP4UB and DEMOTE
//!   follow the spec (softpipe skips them); see [`scalar::pack`] for the normalised packs.
//! * Out-of-range register reads give 0 and out-of-range writes are dropped; ADDR registers
//!   and input channels outside a declaration's usage mask are 0 at every run (softpipe keeps
//!   stale values).
//! * A switch `BRK` clears the switch mask of every lane of each quad whose condition mask
//!   is non-empty — exactly softpipe's behaviour for its 4-lane runs, and independent of
//!   the wave size `N`. Indirect destinations use the first lane of each quad for the same
//!   reason.
//! * 64-bit operations compute a channel pair when the write mask touches it and write only
//!   the enabled words; DFRACEXP writes the exponent of pair p to `dst1` channel p.
//! * Legacy SHR shifts every channel by `src1.x`, as every spec version says.
//! * CLOCK returns the number of instructions the wave has executed (softpipe skips it).
//! * The inter-lane opcodes (VOTE_*, BALLOT, READ_FIRST, READ_INVOC) follow the spec over
//!   the machine's wave; ATOMINC_WRAP returns the old value and stores `old < src ? old + 1
//!   : 0`, ATOMDEC_WRAP stores the spec's `0 < old < src ? old − 1 : 0`; IMG2HND and
//!   SAMP2HND return the slot number; ATOMFADD adds on `R32_FLOAT` images (softpipe skips
//!   all of these). RESQ channels softpipe leaves unset are 0; memory accesses never reach
//!   outside a resource.
//! * Tessellation (softpipe has none) follows llvmpipe, Gallium's tessellating driver: the
//!   D3D11 tessellator's vertex order and 16.16 coordinates, PRIM_ID counted per instance;
//!   control-shader invocations run in lockstep in one wave sharing their outputs (see
//!   [`tessellation`]).
//! * `HWATOMIC[b][c]` names hardware atomic counter `c` of buffer `b` by itself; the atomic
//!   or LOAD's address operand, which Mesa sets to the counter's byte offset `4·c`, is not
//!   added (virglrenderer reads these shaders so; softpipe has no hardware atomics).
//! * INTERP_OFFSET adds `ofs.x · d/dx + ofs.y · d/dy` to the input, with softpipe's lane rules
//!   (see [`Machine::input_gradients_mut`]).
//!
//! ## Legacy opcodes
//!
//! BGNFOR/ENDFOR follow the early spec's formulas per lane (the loop register is any
//! directly addressed writable register). The others have "TBD" as their spec text, so they
//! take the meaning of the D3D and NV instructions they were made for: REP/ENDREP repeat
//! their body `src0.x` times (truncated; NaN or negative: never), CALLNZ calls for the lanes
//! whose `src0.x` is not 0.0, ARA adds the halves of an address vector (NV_vertex_program2),
//! PUSHA/POPA use a stack per lane of at most [`machine::MAX_ADDRESS_STACK`] entries (an
//! error beyond it or when popping an empty one). BRA jumps the whole wave when any lane is
//! active, and only within its own block arm (checked when compiling). IFC is rejected: no
//! version says what it compares, and its token has no room for a comparison.
#![warn(missing_docs)]

mod alu;
pub mod assembly;
pub mod bindings;
pub mod compile;
pub mod compute;
pub mod consts;
pub mod emit;
pub mod engine;
pub mod format;
pub mod geometry;
mod image;
mod interlane;
pub mod isa;
pub mod machine;
mod memory;
mod operand;
pub mod ops;
pub mod pipeline;
pub mod render;
pub mod resource;
pub mod scalar;
#[cfg(target_arch = "x86_64")]
mod sse;
pub mod tess_pipeline;
pub mod tessellation;
pub mod tessellator;
#[cfg(test)]
mod test_support;
mod texop;
pub mod texture;
pub mod unblended;
pub mod vertex;
pub mod vertices;
pub mod wave_width;
mod workers;

pub use compile::{CompileError, Program};
pub use compute::{run_compute, run_compute_with, ComputeOptions, ComputeStats};
pub use consts::{parse_consts, ConstsError};
pub use engine::{Interpreter, WaveEngine, HALF_WAVE, WAVE};
pub use geometry::{run_geometry, GeometryOptions, GeometryOutputs};
pub use machine::{Env, ExecError, Machine, Stop, DEFAULT_BUDGET};
pub use pipeline::{run_pipeline, run_pipeline_with, PipelineOptions, Stages};
pub use render::{
    render_fragment, render_fragment_into, render_fragment_with, Image, RenderOptions,
};
pub use tess_pipeline::{
    run_tess_pipeline, run_tess_pipeline_with, CapturedOutputs, TessOptions, TessRunner, TessStages,
};
pub use vertex::{
    run_vertices, run_vertices_with, OutputDecl, VertexInput, VertexOptions, VertexOutputs,
};
pub use vertices::Vertices;
