//! What compiled code sees at run time: the [`Frame`] it is called with (register files,
//! constant buffers, budget, results) and the host functions it calls back into for the
//! instructions it does not compile natively — the interpreter's lane kernels and
//! per-lane vector functions (so their scalar semantics are the interpreter's own; its
//! 64-bit kernels are called per lane directly, `crate::native_wide`), its sampling of a
//! quad for texture instructions with direct operands, and the interpreter's
//! single-instruction step for everything else (memory, DFRACEXP, indirect operands).

use crate::sampler::{self, TexDesc};
use std::mem::offset_of;
use std::rc::Rc;
use tgsi_exec::isa::Isa;
use tgsi_exec::ops::Kind;
use tgsi_exec::resource::Storage;
use tgsi_exec::{Env, ExecError, Machine, Program, WAVE};

/// Lanes per 128-bit vector.
pub(crate) const CHUNK: usize = 4;

/// 128-bit vectors per channel of a register.
pub(crate) const CHUNKS: usize = WAVE / CHUNK;

/// Bytes of one channel of one register (all lanes).
pub(crate) const CHANNEL_BYTES: i32 = (WAVE * 4) as i32;

/// Bytes of one register (four channels).
pub(crate) const REGISTER_BYTES: i32 = 4 * CHANNEL_BYTES;

/// A constant buffer as compiled code reads it.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct ConstBuffer {
    /// First word of `CONST[b][0]`.
    pub words: *const u32,
    /// Registers in the buffer.
    pub len: u64,
}

impl ConstBuffer {
    /// No buffer: no registers.
    pub const NONE: ConstBuffer = ConstBuffer {
        words: std::ptr::null(),
        len: 0,
    };

    /// The table entry of a bound buffer.
    pub fn of(buffer: &[[u32; 4]]) -> ConstBuffer {
        ConstBuffer {
            words: buffer.as_ptr().cast(),
            len: buffer.len() as u64,
        }
    }

    /// A buffer of `len` registers shown through `words`, which holds them and zeros after
    /// them (`len ≤ words.len()`): the unchecked reads may reach past `len`, the checked
    /// ones stop there.
    pub fn padded(words: &[[u32; 4]], len: usize) -> ConstBuffer {
        ConstBuffer {
            words: words.as_ptr().cast(),
            len: len.min(words.len()) as u64,
        }
    }
}

/// Bytes that compiled LOAD and STORE address directly: the workgroup's shared memory or
/// the view of a bound buffer (`tgsi_exec`'s rules: a view reaching past its resource
/// shows nothing).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Bytes {
    /// The storage's first word.
    pub words: *mut u32,
    /// The first visible byte.
    pub base: u64,
    /// Visible bytes.
    pub size: u64,
    /// 1 when every visible byte lies in whole words of the storage (compiled code reads
    /// and writes them); 0 sends the instruction to the interpreter.
    pub direct: u64,
}

impl Bytes {
    /// Nothing: no visible bytes.
    pub const NONE: Bytes = Bytes {
        words: std::ptr::null_mut(),
        base: 0,
        size: 0,
        direct: 1,
    };

    /// `size` bytes of `data` from byte `base`.
    pub fn of(data: &Storage, base: u64, size: u64) -> Bytes {
        let words = data.whole_words();
        let inside = base
            .checked_add(size)
            .is_some_and(|end| end <= 4 * words.len() as u64);
        Bytes {
            // Writes go through the storage's atomics' cells (x86-64 plain loads and stores
            // are what relaxed atomic ones compile to).
            words: words.as_ptr().cast::<u32>().cast_mut(),
            base,
            size,
            direct: u64::from(inside),
        }
    }

    /// Table entry `1 + i`: `BUFFER[i]` of `resources`.
    pub fn buffer(resources: &tgsi_exec::resource::Resources, i: u32) -> Bytes {
        let Some(v) = resources.buffer(i).filter(|v| v.shows_bytes()) else {
            return Bytes::NONE;
        };
        Bytes::of(&v.resource.data, v.offset.into(), v.size.into())
    }
}

/// The argument of a compiled wave function.
#[repr(C)]
pub(crate) struct Frame {
    /// Base of each per-lane register file (TEMP, IN, OUT, ADDR, SV).
    pub files: [*mut u32; 5],
    /// Constant buffers.
    pub consts: *const ConstBuffer,
    /// Number of constant buffers.
    pub num_consts: u64,
    /// Instruction budget.
    pub budget: u64,
    /// Out: instructions executed (programs counted by sites: 0, see `visited`).
    pub executed: u64,
    /// The group of quads this call runs: its first lane is `4 · group`.
    pub group: u64,
    /// Lanes of the group that execute (FuncMask at the start), from bit 0; at a barrier
    /// (status [`status::BARRIER`]), out: the lanes that have not returned.
    pub active: u32,
    /// Compute programs: in, the barriers already passed (0: start at the beginning); out,
    /// at a barrier, the barriers passed including it.
    pub resume: u32,
    /// Out: lanes of the group discarded, from bit 0.
    pub kill: u32,
    /// The host side, for callbacks.
    pub host: *mut Host<'static>,
    /// Four zero words: what out-of-range constant reads load.
    pub zero: [u32; 4],
    /// An empty buffer: what reads of unbound constant buffers look up.
    pub no_buffer: ConstBuffer,
    /// What LOAD and STORE address: entry 0 the workgroup's shared memory, entry `1 + i`
    /// `BUFFER[i]`.
    pub spaces: *const Bytes,
    /// Entries of `spaces`.
    pub num_spaces: u64,
    /// What entries past the table read: nothing.
    pub no_space: Bytes,
    /// Helper lanes of the group, from bit 0 (they never store).
    pub helpers: u32,
    /// Where the stores of lanes that do not store go.
    pub sink: [u32; 4],
    /// Programs counted by sites (`support::counts_sites`): one byte per counted stretch
    /// of code, set to 1 when the call passes it; null for the others.
    pub visited: *mut u8,
    /// The bindings of the texture instructions a sampling kernel may take, in instruction
    /// order (`sampler::kernel_instructions`): each one's description, whose kernel the
    /// code calls itself, or null where the host samples.
    pub kernels: *const *const TexDesc,
}

/// Byte offsets of [`Frame`] fields, for the code generator.
pub(crate) mod field {
    use super::*;
    pub const FILES: i32 = offset_of!(Frame, files) as i32;
    pub const CONSTS: i32 = offset_of!(Frame, consts) as i32;
    pub const NUM_CONSTS: i32 = offset_of!(Frame, num_consts) as i32;
    pub const BUDGET: i32 = offset_of!(Frame, budget) as i32;
    pub const EXECUTED: i32 = offset_of!(Frame, executed) as i32;
    pub const GROUP: i32 = offset_of!(Frame, group) as i32;
    pub const ACTIVE: i32 = offset_of!(Frame, active) as i32;
    pub const RESUME: i32 = offset_of!(Frame, resume) as i32;
    pub const KILL: i32 = offset_of!(Frame, kill) as i32;
    pub const HOST: i32 = offset_of!(Frame, host) as i32;
    pub const ZERO: i32 = offset_of!(Frame, zero) as i32;
    pub const NO_BUFFER: i32 = offset_of!(Frame, no_buffer) as i32;
    pub const SPACES: i32 = offset_of!(Frame, spaces) as i32;
    pub const NUM_SPACES: i32 = offset_of!(Frame, num_spaces) as i32;
    pub const NO_SPACE: i32 = offset_of!(Frame, no_space) as i32;
    pub const HELPERS: i32 = offset_of!(Frame, helpers) as i32;
    pub const SINK: i32 = offset_of!(Frame, sink) as i32;
    pub const VISITED: i32 = offset_of!(Frame, visited) as i32;
    pub const KERNELS: i32 = offset_of!(Frame, kernels) as i32;
    pub const BYTES_WORDS: i32 = offset_of!(Bytes, words) as i32;
    pub const BYTES_BASE: i32 = offset_of!(Bytes, base) as i32;
    pub const BYTES_SIZE: i32 = offset_of!(Bytes, size) as i32;
    pub const CONST_WORDS: i32 = offset_of!(ConstBuffer, words) as i32;
    pub const CONST_LEN: i32 = offset_of!(ConstBuffer, len) as i32;
}

/// Status a compiled function returns.
pub(crate) mod status {
    /// The program ended.
    pub const DONE: i32 = 0;
    /// The instruction budget ran out.
    pub const BUDGET: i32 = 1;
    /// A host call failed; the error is in [`super::Host::error`].
    pub const HOST_ERROR: i32 = 2;
    /// A compute program reached a barrier (`Frame::resume` says which); the temporaries
    /// are in the machine's memory.
    pub const BARRIER: i32 = 3;
}

/// The Rust side of a run, reached by the callbacks.
pub(crate) struct Host<'a> {
    pub machine: *mut Machine<WAVE>,
    pub program: &'a Program,
    pub env: &'a Env<'a>,
    /// The workgroup's shared memory (compute).
    pub shared: Option<&'a Storage>,
    /// The texture instructions a sampling kernel takes with this call's bindings, in
    /// instruction order (`crate::sampler`).
    pub textures: &'a [(usize, Rc<TexDesc>)],
    pub error: Option<ExecError>,
}

/// A compiled wave function.
pub(crate) type WaveFn = unsafe extern "C" fn(*mut Frame) -> i32;

/// Run instruction `pc` on the interpreter for the lanes in `exec` (registers are in the
/// machine's memory). Returns 0, or 1 after storing the error in the host.
///
/// # Safety
/// `host` is the live [`Host`] of the running wave and no Rust reference to its machine
/// exists while compiled code runs.
pub(crate) unsafe extern "C" fn step(host: *mut Host<'static>, pc: u64, exec: u32) -> u32 {
    // SAFETY: the caller guarantees `host` is valid and exclusively ours during the call.
    let host = unsafe { &mut *host };
    // SAFETY: the machine outlives the run and compiled code holds no reference to it.
    let machine = unsafe { &mut *host.machine };
    match machine.execute_instruction(host.program, pc as usize, host.env, exec, host.shared) {
        Ok(()) => 0,
        Err(e) => {
            host.error = Some(e);
            1
        }
    }
}

/// Value sources of a texture instruction passed to [`texture`] (TXD and SAMPLE_D have
/// three, none has more than four).
pub(crate) const TEXTURE_SOURCES: usize = 4;
/// The scratch channel of [`texture`]'s texel offsets (x, y, z), after its sources.
pub(crate) const TEXTURE_OFFSETS_CHANNEL: usize = 4 * TEXTURE_SOURCES;
/// The scratch channel of [`texture`]'s results, after the offsets.
pub(crate) const TEXTURE_OUT_CHANNEL: usize = TEXTURE_OFFSETS_CHANNEL + 3;
/// Scratch channels [`texture`] uses.
pub(crate) const TEXTURE_SCRATCH_CHANNELS: usize = TEXTURE_OUT_CHANNEL + 4;

/// Sample texture instruction `pc` (direct operands only) on the quads of the group that
/// have a lane in `active` (bit `l`: the group's lane `l`): `src` holds four sources × four
/// channels, then the texel offsets' three channels, of [`WAVE`] words each (lane `l` of
/// the group at word `l`); `out` receives four channels before the destination's mask.
///
/// # Safety
/// `host` as for [`step`]; `out` and `src` point to buffers of those sizes.
pub(crate) unsafe extern "C" fn texture(
    host: *mut Host<'static>,
    pc: u64,
    out: *mut u32,
    src: *const u32,
    active: u64,
) {
    // SAFETY: see the function's contract.
    let (host, out, src) =
        unsafe { kernel_args(host, out, 4 * WAVE, src, TEXTURE_OUT_CHANNEL * WAVE) };
    let Some(inst) = host.program.insts.get(pc as usize) else {
        return;
    };
    let sources = inst.src.len().min(TEXTURE_SOURCES);
    // SAFETY: the machine outlives the run and compiled code holds no reference to it.
    let machine = unsafe { &mut *host.machine };
    // Quads a sampling kernel takes, then those the interpreter's direct path takes, then
    // the rest.
    let mut done = 0u64;
    let kernel = host
        .textures
        .binary_search_by_key(&(pc as usize), |(p, _)| *p)
        .ok()
        .and_then(|k| host.textures.get(k));
    if let Some((_, desc)) = kernel {
        let channel = |c: usize| src.get(c * WAVE..(c + 1) * WAVE).unwrap_or(&[]);
        let (s, t, lod) = (channel(0), channel(1), channel(3));
        done = sampler::sample_quads(desc, s, t, lod, active, |base, r| {
            for (channel, r) in out.chunks_exact_mut(WAVE).zip(r) {
                channel[base..base + 4].copy_from_slice(r);
            }
        });
    }
    let active = active & !spread(done);
    if active == 0 {
        return;
    }
    let quads = (0..WAVE / 4).fold(0u64, |m, q| {
        m | u64::from((active >> (4 * q)) & 0xf != 0) << q
    });
    // The four lanes of a channel are adjacent.
    let lanes = |k: usize, c: usize, base: usize| -> [u32; 4] {
        let at = (4 * k + (c & 3)) * WAVE + base;
        match src.get(at..at + 4) {
            Some(l) if k < sources => [l[0], l[1], l[2], l[3]],
            _ => [0; 4],
        }
    };
    let direct = machine.texture_quads_direct(
        host.program,
        pc as usize,
        host.env,
        quads,
        lanes,
        |base, r| {
            for (channel, r) in out.chunks_exact_mut(WAVE).zip(r) {
                channel[base..base + 4].copy_from_slice(r);
            }
        },
    );
    let mut srcs = [[[0u32; 4]; 4]; TEXTURE_SOURCES];
    for base in (0..WAVE).step_by(4) {
        if (active >> base) & 0xf == 0 || direct & (1 << (base / 4)) != 0 {
            continue;
        }
        // The four lanes of a channel are adjacent: transpose them into the quad's lanes.
        let lanes = |channel: usize| {
            let at = channel * WAVE + base;
            src.get(at..at + 4).unwrap_or(&[0; 4])
        };
        for (k, quad) in srcs.iter_mut().enumerate().take(sources) {
            for c in 0..4 {
                for (lane, &w) in quad.iter_mut().zip(lanes(4 * k + c)) {
                    lane[c] = w;
                }
            }
        }
        let offsets = std::array::from_fn(|c| lanes(TEXTURE_OFFSETS_CHANNEL + c)[0] as i32);
        let Some(r) = machine.texture_quad(
            host.program,
            pc as usize,
            host.env,
            &srcs[..sources],
            offsets,
            base,
        ) else {
            return;
        };
        for (c, channel) in out.chunks_exact_mut(WAVE).enumerate() {
            for (l, lane) in r.iter().enumerate() {
                channel[base + l] = lane[c];
            }
        }
    }
}

/// Lane bits of the quads in `quads` (bit q: lanes `4q..4q + 4`).
fn spread(quads: u64) -> u64 {
    (0..WAVE / 4).fold(0, |m, q| m | (((quads >> q) & 1) * (0xf << (4 * q))))
}

/// The arguments of a kernel call as references: the host, `out_len` result words and
/// `src_len` source words.
///
/// # Safety
/// As for [`component`] and [`vector`]: valid pointers to buffers of those lengths.
unsafe fn kernel_args<'h>(
    host: *mut Host<'static>,
    out: *mut u32,
    out_len: usize,
    src: *const u32,
    src_len: usize,
) -> (&'h Host<'static>, &'h mut [u32], &'h [u32]) {
    // SAFETY: the caller guarantees the pointers and lengths.
    unsafe {
        (
            &*host,
            std::slice::from_raw_parts_mut(out, out_len),
            std::slice::from_raw_parts(src, src_len),
        )
    }
}

/// Run the interpreter's lane kernel of instruction `pc` (a [`Kind::Component`]) over one
/// channel of `lanes` lanes: `out` has [`WAVE`] words, `src` four sources of [`WAVE`] words
/// each, of which the first `lanes` are set.
///
/// # Safety
/// `host` as for [`step`]; `out` and `src` point to buffers of those sizes.
pub(crate) unsafe extern "C" fn component(
    host: *mut Host<'static>,
    pc: u64,
    out: *mut u32,
    src: *const u32,
    lanes: u64,
) {
    // SAFETY: see the function's contract.
    let (host, out, src) = unsafe { kernel_args(host, out, WAVE, src, 4 * WAVE) };
    let n = (lanes as usize).min(WAVE);
    if let Some(Kind::Component(kernel)) = host.program.insts.get(pc as usize).map(|i| i.kind) {
        let s = |k: usize| &src[k * WAVE..k * WAVE + n];
        kernel.run(Isa::host(), &mut out[..n], [s(0), s(1), s(2), s(3)]);
    }
}

/// Run the interpreter's per-lane vector function of instruction `pc` (a [`Kind::Vector`])
/// on the first `lanes` lanes: `src` holds three sources × four channels × [`WAVE`] words,
/// `out` four channels.
///
/// # Safety
/// `host` as for [`step`]; `out` and `src` point to buffers of those sizes.
pub(crate) unsafe extern "C" fn vector(
    host: *mut Host<'static>,
    pc: u64,
    out: *mut u32,
    src: *const u32,
    lanes: u64,
) {
    // SAFETY: see the function's contract.
    let (host, out, src) = unsafe { kernel_args(host, out, 4 * WAVE, src, 12 * WAVE) };
    if let Some(Kind::Vector(f)) = host.program.insts.get(pc as usize).map(|i| i.kind) {
        for l in 0..(lanes as usize).min(WAVE) {
            let lane: [[u32; 4]; 3] =
                std::array::from_fn(|k| std::array::from_fn(|c| src[(4 * k + c) * WAVE + l]));
            let r = (f.f)(&lane);
            for (c, v) in r.into_iter().enumerate() {
                out[c * WAVE + l] = v;
            }
        }
    }
}
