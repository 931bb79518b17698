//! # tgsi-jit
//!
//! A Cranelift JIT for TGSI: a compiled [`tgsi_exec::Program`] becomes one native function
//! per shader that runs the 32-lane wave of the interpreter's drivers, a 128-bit vector per
//! quad and register channel, behind the same [`WaveEngine`] interface as the interpreter,
//! with bit-identical results.
//!
//! * [`JitProgram::compile`] compiles a program, or says why it runs on the interpreter
//!   ([`NotCompiled`]); [`Engine`] picks the JIT or the interpreter per shader.
//! * The scalar semantics stay the interpreter's: the opcodes compiled to vector code
//!   (`native.rs`; 64-bit ones on channel pairs, `native_wide.rs`) are exact vector forms
//!   of `tgsi_exec::scalar` (checked by tests), and everything else calls the interpreter's
//!   own kernels (64-bit ones once per lane), its sampling of a quad (texture
//!   instructions with direct operands, whose sources stay in registers) or its
//!   single-instruction step (memory, DFRACEXP, indirect operands other than constants
//!   and temporaries). MIN, MAX, saturation and rounding leave out the
//!   NaN cases that cannot occur: what each value can hold (a number, a quiet NaN, any word)
//!   is followed from immediates and opcodes (`known.rs`).
//! * Control flow keeps the interpreter's execution masks and jumps; the instruction
//!   budget is counted the same way and checked at every loop end. Results are blended
//!   into temporaries under the execution mask only where a lane inactive at the write
//!   could read the old value later (`tgsi_exec::unblended`: liveness at the points where waiting
//!   lanes resume).
//! * Programs whose quads do not interact (no loads, stores, atomics, inter-lane opcodes
//!   or CLOCK; texture sampling reads only its own quad) and that hand no instruction to
//!   the interpreter's step run a few quads per call instead of the whole wave: four in
//!   straight-line code, whose quads' dependency chains then interleave (two or one where
//!   the function would grow too big), and one or two with loops: which of those runs
//!   faster depends on the data (how far the quads' branches and trip counts diverge), so
//!   once such a program has run ten times as long as it took to compile, the other count
//!   is compiled too and the next waves, timed on the two forms by turns, choose
//!   (`tuning.rs`).
//! * LOAD and STORE on a directly named MEMORY or BUFFER compile to a load or store per
//!   lane with the interpreter's bounds (`translate/memory.rs`).
//! * The commonest sampling (TEX, TXB, TXL, TEX_LZ on 2-D RGBA8-like views with linear
//!   filters; `sampler.rs`) runs in sampling kernels: Cranelift functions specialised per
//!   LOD source, level rule, wrap modes and byte order, compiled once per process and called by the
//!   shader's code for each quad (the host's texture call samples what they refuse), bit
//!   for bit softpipe's steps (`tgsi_exec::texture::Compiled`).
//! * Compute shaders run the 32-lane waves of dispatches that `tgsi_exec::wave_width`
//!   proves order-free ([`tgsi_exec::run_compute_with`]): the code stops at each top-level
//!   BARRIER or MEMBAR with the temporaries written since the previous stop in the
//!   machine, and a later call resumes after it ([`WaveEngine::resume_wave`]). Loop-free
//!   programs whose lanes meet only through compiled LOADs and STOREs run a quad at a
//!   time, in softpipe's own order, and count the wave's instructions by the stretches of
//!   code any quad passed (`support::counts_sites`). Other programs that fix a block of
//!   fewer quads than a wave compile for those quads only.
//!
//! Environment: `TGSI_JIT_QUADS=1|2|4|8` sets the quads per call of such programs (one
//! form, untimed; `support::group_quads`); `TGSI_JIT_DUMP=1` prints the machine code of
//! every compiled shader and sampling kernel on stderr;
//! `JITOPT=none|speed|speed_and_size` sets Cranelift's optimisation level (default
//! `speed`), for measuring what the optimiser gains.
//!
//! ```
//! let shader = tgsi::parse("FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {0.25, 0.5, 0.75, 1.0}\n  0: MUL OUT[0], IMM[0], IMM[0].wwww\n  1: END\n").unwrap();
//! let program = tgsi_exec::Program::compile(&shader).unwrap();
//! let engine = tgsi_jit::Engine::new(program);
//! assert!(engine.is_compiled());
//! let opts = tgsi_exec::RenderOptions { width: 2, height: 2, ..Default::default() };
//! let image = tgsi_exec::render_fragment_with(&engine, &opts).unwrap();
//! assert_eq!(image.pixels[3], [0.25, 0.5, 0.75, 1.0]);
//! ```
#![warn(missing_docs)]

mod approx;
mod known;
mod lanes;
mod native;
mod native_wide;
mod runtime;
mod sampler;
mod scalar_lanes;
pub mod support;
mod translate;
mod tuning;
mod vector_int;

use cranelift_codegen::ir::{types, AbiParam, Function, Signature, UserFuncName};
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use runtime::{status, Bytes, ConstBuffer, Frame, Host, WaveFn};
use std::fmt;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tgsi_exec::resource::Storage;
use tgsi_exec::{Env, ExecError, Interpreter, Machine, Program, Stop, WaveEngine, WAVE};

/// A program compiled to native code.
pub struct JitProgram {
    program: Program,
    /// The compiled code, and for programs with loops the other count of quads per call,
    /// compiled once the first has run long enough ([`Options::tuning`]) and then timed
    /// against it until one is chosen (`crate::tuning`).
    first: Form,
    second: Option<Alternative>,
    /// Compute programs: the top-level BARRIER and MEMBAR instructions, where a call stops.
    barriers: Vec<usize>,
    /// Entries of the memory table the compiled LOADs and STOREs address (one more than
    /// the highest `support::memory_space`; 0 without them).
    spaces: usize,
    /// Registers of each constant buffer the code reads with no bounds check
    /// (`translate::direct_constants`), and zeros for as many as the most of them: what an
    /// unbound buffer shows there.
    const_registers: Vec<usize>,
    zeros: Vec<[u32; 4]>,
    /// The code is correct only for waves whose lanes all start active
    /// ([`tgsi_exec::unblended::Unblended::full_waves_only`]); the interpreter runs the others.
    full_waves_only: bool,
    /// The texture instructions a sampling kernel may take (`sampler::kernel_instructions`).
    kernel_textures: Vec<sampler::KernelTexture>,
    compile_time: Duration,
}

/// The other count of quads per call of a program with loops: what compiling it takes,
/// and its code once compiled.
struct Alternative {
    grouping: support::Grouping,
    options: Options,
    unmasked: Vec<u8>,
    tuned: tuning::Tuned<Form>,
}

/// A program's code for one count of quads per call.
struct Form {
    func: WaveFn,
    /// Quads per call (`support::group_quads`).
    group: usize,
    /// The code keeps every temporary in SSA values (`translate::memory_temps`), so the
    /// machine's TEMP file need not be cleared for each wave.
    temps_in_ssa: bool,
    /// Programs counted by sites (`support::counts_sites`): the instructions each site
    /// stands for; empty for the others.
    sites: Vec<u32>,
    /// Owns the code `func` points into.
    _code: Code,
}

/// The JIT module that owns compiled code; dropping it frees the code.
struct Code(Option<JITModule>);

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(module) = self.0.take() {
            // SAFETY: the code is freed with its owner, the `JitProgram`, so no function
            // pointer into it survives.
            unsafe { module.free_memory() };
        }
    }
}

// SAFETY: after `finalize_definitions` the module is only kept to own the executable
// memory, which is immutable; nothing else in it is touched again, from any thread.
unsafe impl Send for Code {}
// SAFETY: as above: shared references to it are never used.
unsafe impl Sync for Code {}

/// Why a program is not compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotCompiled(pub String);

impl fmt::Display for NotCompiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotCompiled {}

/// How the JIT compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Compute EX2, LG2, SIN and COS with the vector approximations of
    /// [`tgsi_exec::scalar::approx`] (error bounds there) instead of glibc's functions one
    /// lane at a time, no longer bit-identical to the interpreter for those opcodes; POW
    /// stays glibc's `powf`, which was faster than its approximation. Gains where those
    /// opcodes dominate (the transcendental benchmark 1.2×): glibc's single-precision
    /// functions, called for four lanes or more at once, cost about a nanosecond a lane
    /// here, these about half that. Off by default. Waves the
    /// interpreter runs (a program the JIT does not compile, or a wave re-run to report
    /// an exhausted instruction budget) keep the exact results.
    pub approximate_math: bool,
    /// Programs with loops run one or two quads per call, and which is faster depends on
    /// the data (see the crate's documentation): once such a program's code has run this
    /// many times as long as it took to compile, the other count is compiled too, the
    /// next waves run the two by turns, timed, and the faster is kept (`Some(0)`: from the
    /// first wave; `None`: never, one form only). Both compute the same bits. Default
    /// `Some(10)`.
    pub tuning: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            approximate_math: false,
            tuning: Some(tuning::PAYBACK),
        }
    }
}

impl JitProgram {
    /// Compile `program`, or say why it must run on the interpreter.
    pub fn compile(program: Program) -> Result<JitProgram, NotCompiled> {
        JitProgram::compile_with(program, Options::default())
    }

    /// [`JitProgram::compile`] with `options`.
    pub fn compile_with(program: Program, options: Options) -> Result<JitProgram, NotCompiled> {
        if let Some(why) = support::unsupported(&program) {
            return Err(NotCompiled(why));
        }
        let start = Instant::now();
        let grouping = support::group_quads(&program);
        let unmasked = tgsi_exec::unblended::unblended_writes(&program, support::observes, true);
        let full_waves_only = unmasked.full_waves_only;
        let first = build(&program, grouping, options, &unmasked.writes).map_err(NotCompiled)?;
        let compile_time = start.elapsed();
        let second = grouping
            .alternative
            .zip(options.tuning)
            .map(|(quads, payback)| Alternative {
                grouping: support::Grouping {
                    quads,
                    shrinks: false,
                    alternative: None,
                },
                options,
                unmasked: unmasked.writes.clone(),
                tuned: tuning::Tuned::new(compile_time, payback),
            });
        let const_registers = translate::direct_constants(&program);
        let zeros = vec![[0; 4]; const_registers.iter().copied().max().unwrap_or(0)];
        Ok(JitProgram {
            const_registers,
            zeros,
            spaces: program
                .insts
                .iter()
                .filter_map(support::memory_space)
                .max()
                .map_or(0, |m| m + 1),
            barriers: match program.processor {
                tgsi::Processor::Compute => support::barriers(&program).unwrap_or_default(),
                _ => Vec::new(),
            },
            full_waves_only,
            kernel_textures: sampler::kernel_instructions(&program),
            program,
            first,
            second,
            compile_time,
        })
    }

    /// Time spent compiling: [`JitProgram::compile`]'s, and the second form's of a program
    /// with loops once compiled ([`Options::tuning`]).
    pub fn compile_time(&self) -> Duration {
        let second = self
            .second
            .as_ref()
            .map_or(Duration::ZERO, |a| a.tuned.compile_time());
        self.compile_time + second
    }

    /// Quads each call of the compiled code runs: four for straight-line code (fewer
    /// where its function would be big), one or two with loops, the whole wave where
    /// lanes meet (see the crate's documentation). For a program with loops, the count
    /// timing chose between its two forms ([`Options::tuning`]), or until then the first.
    pub fn quads_per_call(&self) -> usize {
        let chosen = self.second.as_ref().and_then(|a| a.tuned.chosen());
        self.form(chosen.unwrap_or(0)).group
    }

    /// The counts of quads per call the program is compiled for so far: one, then for a
    /// program with loops whose second form is due ([`Options::tuning`]) two (a quad at a
    /// time and two at a time, the first the one that runs until timing chooses).
    pub fn quads_per_call_compiled(&self) -> Vec<usize> {
        let second = self.second.as_ref().and_then(|a| a.tuned.second());
        std::iter::once(&self.first)
            .chain(second)
            .map(|f| f.group)
            .collect()
    }

    /// Form `k` (0 or 1; the first where there is no second).
    fn form(&self, k: usize) -> &Form {
        match (k, self.second.as_ref().and_then(|a| a.tuned.second())) {
            (1, Some(second)) => second,
            _ => &self.first,
        }
    }
}

/// Largest function, in Cranelift instructions, the JIT compiles: compile time and memory
/// grow with the function (a hostile 4,000-instruction shader sampling textures every 50
/// instructions, 525,000 Cranelift instructions, took 11 s and 270 MB before this bound),
/// so bigger programs run on the interpreter. At the bound, compiling takes about 0.2 s.
pub const MAX_FUNCTION_SIZE: usize = 200_000;

/// Functions from this size on get Cranelift's single-pass register allocator, which
/// compiles several times faster than the default backtracking one (whose time grows
/// faster than the function) for code about half as fast. The benchmark shaders are below
/// 6,000; the corpus's largest (up to 65,000, texture-heavy whole-wave code) compiled in up
/// to 212 ms before.
pub const FAST_REGALLOC_FROM: usize = 12_000;

/// The ISA of this CPU with the JIT's settings and register allocator `regalloc`.
pub(crate) fn isa(regalloc: &str) -> Result<cranelift_codegen::isa::OwnedTargetIsa, String> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| {
        f.set(k, v)
            .map_err(|e| format!("cranelift setting {k}={v}: {e}"))
    };
    set(
        &mut flags,
        "opt_level",
        std::env::var("JITOPT").as_deref().unwrap_or("speed"),
    )?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    // The crate's tests and debug builds check every function Cranelift is given (an
    // ill-typed one may otherwise miscompile or panic in lowering); release builds do not
    // pay for it.
    let verify = cfg!(any(test, debug_assertions));
    set(
        &mut flags,
        "enable_verifier",
        if verify { "true" } else { "false" },
    )?;
    set(&mut flags, "regalloc_algorithm", regalloc)?;
    cranelift_native::builder()
        .map_err(|e| format!("this CPU is not supported by Cranelift: {e}"))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| format!("cranelift: {e}"))
}

/// The signature of a compiled wave: `fn(*mut Frame) -> i32` in `isa`'s calling convention.
fn wave_signature(isa: &dyn TargetIsa) -> Signature {
    let mut signature = Signature::new(isa.default_call_conv());
    signature.params.push(AbiParam::new(isa.pointer_type()));
    signature.returns.push(AbiParam::new(types::I32));
    signature
}

/// `program` translated for `isa` to the Cranelift function of a wave call running `group`
/// quads (not yet compiled), with the sizes of the sites it counts
/// (`translate::Translator::translate`).
fn translate_wave(
    isa: &dyn TargetIsa,
    program: &Program,
    group: usize,
    approximate: bool,
    unmasked: &[u8],
    fctx: &mut FunctionBuilderContext,
) -> (Function, Vec<u32>) {
    let mut func = Function::with_name_signature(UserFuncName::default(), wave_signature(isa));
    let mut b = FunctionBuilder::new(&mut func, fctx);
    let (ptr, call_conv) = (isa.pointer_type(), isa.default_call_conv());
    let sites = translate::Translator::translate(
        &mut b,
        program,
        group,
        approximate,
        unmasked,
        ptr,
        call_conv,
    );
    b.finalize(isa.frontend_config());
    (func, sites)
}

/// Translate and compile for `grouping`'s quads per call, or fewer where it shrinks.
fn build(
    program: &Program,
    grouping: support::Grouping,
    options: Options,
    unmasked: &[u8],
) -> Result<Form, String> {
    // Translate first: the function's size decides the quads per call, the register
    // allocator, or that the program is too big to compile.
    let probe = isa("backtracking")?;
    let signature = wave_signature(&*probe);
    let mut fctx = FunctionBuilderContext::new();
    let mut translate = |group: usize| {
        let approximate = options.approximate_math;
        translate_wave(&*probe, program, group, approximate, unmasked, &mut fctx)
    };
    let (mut func, sites, group) = if grouping.shrinks {
        // Translated for one quad first: the grouped function has about that size times
        // the quads, and a big program is not translated for more quads at all.
        let (func, sites) = translate(1);
        let size = func.dfg.num_insts();
        let fits = |g: &usize| size.saturating_mul(*g) <= support::GROUPED_SIZE;
        match (1..=grouping.quads.ilog2())
            .rev()
            .map(|k| 1 << k)
            .find(fits)
        {
            Some(group) => {
                let (func, sites) = translate(group);
                (func, sites, group)
            }
            None => (func, sites, 1),
        }
    } else {
        let (func, sites) = translate(grouping.quads);
        (func, sites, grouping.quads)
    };
    let size = func.dfg.num_insts();
    if size > MAX_FUNCTION_SIZE {
        return Err(format!(
            "its compiled form would have {size} Cranelift instructions, more than the JIT \
             compiles ({MAX_FUNCTION_SIZE})"
        ));
    }
    let regalloc = if size >= FAST_REGALLOC_FROM {
        "single_pass"
    } else {
        "backtracking"
    };
    let mut module = JITModule::new(JITBuilder::with_isa(
        isa(regalloc)?,
        default_libcall_names(),
    ));
    let id = module
        .declare_function("wave", Linkage::Local, &signature)
        .map_err(|e| format!("cranelift: {e}"))?;
    func.name = UserFuncName::user(0, id.as_u32());
    let mut ctx = module.make_context();
    ctx.func = func;
    let dump = std::env::var_os("TGSI_JIT_DUMP").is_some();
    ctx.set_disasm(dump);
    module
        .define_function(id, &mut ctx)
        .map_err(|e| format!("cranelift could not compile the shader: {e:?}"))?;
    if let Some(code) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
        // Only present when `dump` asked for it.
        eprintln!("{code}");
    }
    module.clear_context(&mut ctx);
    module
        .finalize_definitions()
        .map_err(|e| format!("cranelift: {e}"))?;
    let code = module.get_finalized_function(id);
    // SAFETY: the function was built with the signature `fn(*mut Frame) -> i32` in the
    // platform's C calling convention.
    let func = unsafe { std::mem::transmute::<*const u8, WaveFn>(code) };
    Ok(Form {
        func,
        group,
        temps_in_ssa: translate::memory_temps(program, group).is_empty(),
        sites,
        _code: Code(Some(module)),
    })
}

/// Constant buffers whose table `call` keeps on the stack (the usual few; a call clears
/// the whole array, so it stays small); more are allocated.
const INLINE_CONST_BUFFERS: usize = 8;

/// Entries of the memory table (`runtime::Frame::spaces`) kept on the stack: shared memory
/// and the first seven buffers; more are allocated.
const INLINE_SPACES: usize = 8;

/// Sites of a program counted by sites (`support::counts_sites`) whose marks `call` keeps
/// on the stack; more are allocated.
const INLINE_SITES: usize = 128;

/// What one call of the compiled code over a wave did.
struct Call {
    /// The last status of the groups' calls.
    status: i32,
    /// Lanes discarded.
    kill: u32,
    /// Instructions executed, summed over the groups.
    executed: u64,
    /// At a barrier: the lanes that have not returned, and the barriers passed.
    func: u32,
    resume: u32,
}

/// Where a call of the compiled code starts.
struct Start {
    /// The lanes active.
    active: u32,
    /// The barriers passed (0: the start of the program).
    resume: u32,
    /// Instructions the call may execute.
    budget: u64,
}

impl JitProgram {
    /// Run `form`'s code over the wave, group by group, from `start`; `shared` is the
    /// workgroup's `MEMORY`. `None` when a memory the code addresses has bytes outside
    /// whole words of its storage (the interpreter runs those waves).
    fn call(
        &self,
        form: &Form,
        m: &mut Machine<WAVE>,
        env: &Env,
        start: Start,
        shared: Option<&Storage>,
    ) -> Result<Option<Call>, ExecError> {
        let Start {
            active,
            resume,
            budget,
        } = start;
        // The constant table, on the stack for the usual few buffers (no allocation per
        // wave). Every buffer shows at least the registers the code reads unchecked: an
        // unbound one the zeros, a shorter one a copy padded with zeros (its length stays
        // its own, for the checked reads).
        let short = |d: usize| {
            let need = self.const_registers.get(d).copied().unwrap_or(0);
            let have = env.consts.get(d).map_or(0, Vec::len);
            (have > 0 && have < need).then_some(need)
        };
        // The usual case, no buffer short, is found by a scan: the collection's generic
        // path costs a cheap shader about 3 % even when it collects nothing.
        let padded: Vec<(usize, Vec<[u32; 4]>)> =
            if (0..env.consts.len()).any(|d| short(d).is_some()) {
                (0..env.consts.len())
                    .filter_map(|d| {
                        let need = short(d)?;
                        let mut copy = env.consts[d].clone();
                        copy.resize(need, [0; 4]);
                        Some((d, copy))
                    })
                    .collect()
            } else {
                Vec::new()
            };
        let entry = |d: usize| -> ConstBuffer {
            let buffer = env.consts.get(d).map_or(&[][..], Vec::as_slice);
            let need = self.const_registers.get(d).copied().unwrap_or(0);
            if buffer.len() >= need {
                ConstBuffer::of(buffer)
            } else if let Some((_, copy)) = padded.iter().find(|(p, _)| *p == d) {
                ConstBuffer::padded(copy, buffer.len())
            } else {
                ConstBuffer::padded(&self.zeros, 0)
            }
        };
        let count = env.consts.len().max(self.const_registers.len());
        let mut inline = [ConstBuffer::NONE; INLINE_CONST_BUFFERS];
        let heap: Vec<ConstBuffer>;
        let consts: &[ConstBuffer] = if count <= INLINE_CONST_BUFFERS {
            for (d, t) in inline.iter_mut().enumerate().take(count) {
                *t = entry(d);
            }
            &inline[..count]
        } else {
            heap = (0..count).map(entry).collect();
            &heap
        };
        // The bindings of the texture instructions a kernel may sample (none to describe
        // for most programs).
        let (kernels, textures) = if self.kernel_textures.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            self.texture_descriptions(m, env)
        };
        let [t, i, o, a, s] = m.register_files_mut().map(|f| f.as_mut_ptr().cast::<u32>());
        let mut host = Host {
            machine: m,
            program: &self.program,
            env,
            shared,
            textures: &textures,
            error: None,
        };
        // What LOAD and STORE address: shared memory, then the buffers the program names.
        let mut inline_spaces = [Bytes::NONE; INLINE_SPACES];
        let heap_spaces: Vec<Bytes>;
        let count = self.spaces.min(1 + env.resources.buffers.len());
        let space = |k: usize| match k {
            0 => shared.map_or(Bytes::NONE, |s| Bytes::of(s, 0, s.len() as u64)),
            k => Bytes::buffer(env.resources, (k - 1) as u32),
        };
        let spaces: &[Bytes] = if count <= INLINE_SPACES {
            for (k, e) in inline_spaces.iter_mut().enumerate().take(count) {
                *e = space(k);
            }
            &inline_spaces[..count]
        } else {
            heap_spaces = (0..count).map(space).collect();
            &heap_spaces
        };
        if spaces.iter().any(|s| s.direct == 0) {
            return Ok(None);
        }
        let lanes = 4 * form.group;
        let group_mask = u32::MAX >> (32 - lanes);
        // The sites passed, on the stack for the usual program.
        let mut inline_visited = [0u8; INLINE_SITES];
        let mut heap_visited: Vec<u8>;
        let visited: &mut [u8] = match inline_visited.get_mut(..form.sites.len()) {
            Some(v) => v,
            None => {
                heap_visited = vec![0; form.sites.len()];
                &mut heap_visited
            }
        };
        let mut out = Call {
            status: status::DONE,
            kill: 0,
            executed: 0,
            func: 0,
            resume,
        };
        // One frame for the groups: the code reads the rest and writes only the group's
        // count, lanes, barrier and discards, which each group starts afresh.
        let mut frame = Frame {
            files: [t, i, o, a, s],
            consts: consts.as_ptr(),
            num_consts: consts.len() as u64,
            budget,
            executed: 0,
            group: 0,
            active: 0,
            resume,
            kill: 0,
            host: std::ptr::null_mut(),
            zero: [0; 4],
            no_buffer: ConstBuffer::NONE,
            spaces: spaces.as_ptr(),
            num_spaces: spaces.len() as u64,
            no_space: Bytes::NONE,
            helpers: 0,
            sink: [0; 4],
            visited: visited.as_mut_ptr(),
            kernels: kernels.as_ptr(),
        };
        for group in 0..WAVE / lanes {
            let first = group * lanes;
            // A group none of whose lanes started has nothing to do (the first always
            // runs: a wave without lanes still stops at the barriers it reaches).
            if group > 0 && (active >> first) & group_mask == 0 {
                continue;
            }
            frame.executed = 0;
            frame.group = (group * form.group) as u64;
            frame.active = (active >> first) & group_mask;
            frame.resume = resume;
            frame.kill = 0;
            frame.host = (&mut host as *mut Host<'_>).cast();
            frame.helpers = (env.helpers >> first) & group_mask;
            // SAFETY: the frame points at the machine's register files (sized for this
            // program, which the code was compiled for; the group stays inside the wave),
            // the constant table, the host, the visited sites (one byte for each site the
            // code marks) and the kernels' descriptions (one entry for each instruction a
            // kernel may take, each null or held by `textures`, whose words the bindings
            // hold), all alive for the call; no Rust reference to the machine is used until
            // it returns.
            let st = unsafe { (form.func)(&mut frame) };
            match st {
                status::DONE | status::BUDGET | status::BARRIER => out.status = st,
                _ => {
                    return Err(host.error.take().unwrap_or_else(|| {
                        ExecError::Setup("the JIT's host call failed without an error".into())
                    }))
                }
            }
            out.kill |= (frame.kill & group_mask) << first;
            out.func |= (frame.active & group_mask) << first;
            out.resume = frame.resume;
            out.executed = out.executed.saturating_add(frame.executed);
        }
        // Programs counted by sites: the wave ran each site some quad passed.
        let passed: u64 = form
            .sites
            .iter()
            .zip(visited.iter())
            .map(|(&n, &v)| u64::from(n) * u64::from(v != 0))
            .sum();
        out.executed = out.executed.saturating_add(passed);
        Ok(Some(out))
    }

    /// The bindings of the texture instructions a kernel may sample, described for it:
    /// for the code by place (null: the host samples), for the host by instruction.
    /// Instructions of the same operands share their description.
    fn texture_descriptions(
        &self,
        m: &mut Machine<WAVE>,
        env: &Env,
    ) -> (
        Vec<*const sampler::TexDesc>,
        Vec<(usize, Rc<sampler::TexDesc>)>,
    ) {
        let mut descs: Vec<Option<Rc<sampler::TexDesc>>> =
            Vec::with_capacity(self.kernel_textures.len());
        for k in &self.kernel_textures {
            let desc = match k.same_as.and_then(|i| descs.get(i)) {
                Some(same) => same.clone(),
                None => m
                    .direct_texture(&self.program, k.pc, env)
                    .and_then(|direct| sampler::describe(direct, k.how)),
            };
            descs.push(desc);
        }
        let kernels: Vec<*const sampler::TexDesc> = descs
            .iter()
            .map(|d| {
                d.as_ref()
                    .filter(|d| d.has_kernel())
                    .map_or(std::ptr::null(), Rc::as_ptr)
            })
            .collect();
        let textures: Vec<(usize, Rc<sampler::TexDesc>)> = self
            .kernel_textures
            .iter()
            .zip(descs)
            .filter_map(|(k, d)| Some((k.pc, d?)))
            .collect();
        (kernels, textures)
    }
}

impl WaveEngine for JitProgram {
    fn program(&self) -> &Program {
        &self.program
    }

    fn run_wave(&self, m: &mut Machine<WAVE>, env: &Env, active: u32) -> Result<u32, ExecError> {
        if self.full_waves_only && active & Machine::<WAVE>::ALL != Machine::<WAVE>::ALL {
            return Interpreter(&self.program).run_wave(m, env, active);
        }
        let pick = self
            .second
            .as_ref()
            .map_or(tuning::Pick::Chosen(0), |a| a.tuned.pick());
        let form = self.form(pick.form());
        let clock = pick.timed().then(Instant::now);
        if form.temps_in_ssa {
            m.start_keeping_temps(env, active);
        } else {
            m.start(env, active);
        }
        let start = Start {
            active,
            resume: 0,
            budget: env.budget,
        };
        let Some(call) = self.call(form, m, env, start, None)? else {
            return Interpreter(&self.program).run_wave(m, env, active);
        };
        if call.status == status::BUDGET || call.executed > env.budget {
            // The interpreter counts instructions per wave, at most the groups' total: it
            // re-runs the wave to decide, and to name the instruction where the budget ran
            // out, so both engines report the same error (or the same result).
            return Interpreter(&self.program).run_wave(m, env, active);
        }
        if let (Some(clock), Some(a)) = (clock, &self.second) {
            a.tuned
                .report(pick, clock.elapsed(), active.count_ones(), || {
                    build(&self.program, a.grouping, a.options, &a.unmasked).ok()
                });
        }
        Ok(!call.kill & Machine::<WAVE>::ALL)
    }

    /// Compute waves: the whole wave in one call (`support::group_quads`), stopping at
    /// each top-level barrier with its temporaries in the machine. The waves start with a
    /// cleared TEMP file ([`Machine::start`]) even though the code keeps its temporaries:
    /// a wave whose memory the code cannot address runs on the interpreter, which reads
    /// them there. The instruction budget
    /// is checked at barriers, loop ends and the end; running out is an error naming the
    /// stretch of the program it happened in (the wave cannot be re-run on the interpreter
    /// to name the instruction, as it has changed memory).
    fn resume_wave(
        &self,
        m: &mut Machine<WAVE>,
        env: &Env,
        shared: Option<&Storage>,
    ) -> Result<Stop, ExecError> {
        let Some(pc) = m.resume_point() else {
            return Ok(Stop::End(Machine::<WAVE>::ALL));
        };
        // The barriers passed: those before the resume point.
        let passed = self.barriers.iter().take_while(|&&b| b < pc).count();
        let budget = env.budget.saturating_sub(m.executed());
        // Compute programs have one form (`support::group_quads`).
        let form = &self.first;
        let start = Start {
            active: m.func_mask(),
            resume: passed as u32,
            budget,
        };
        let Some(call) = self.call(form, m, env, start, shared)? else {
            return m.resume(&self.program, env, shared);
        };
        let stopped = call.status == status::BARRIER;
        let next = stopped
            .then(|| {
                let k = (call.resume as usize).checked_sub(1)?;
                self.barriers.get(k).map(|b| b + 1)
            })
            .flatten();
        m.stop_at(next, call.func, call.executed);
        if call.status == status::BUDGET || m.executed() > env.budget {
            let at = match passed {
                0 => "the compiled code before the first barrier".to_string(),
                n => format!(
                    "the compiled code after {}",
                    self.program.describe(self.barriers[n - 1])
                ),
            };
            return Err(ExecError::Budget {
                at,
                budget: env.budget,
            });
        }
        Ok(if stopped {
            Stop::Barrier
        } else {
            Stop::End(!call.kill & Machine::<WAVE>::ALL)
        })
    }
}

/// The JIT where it compiles and is worth it, else the interpreter: what `--engine jit`
/// runs. A program most of whose instructions the compiled code would hand to the
/// interpreter anyway runs on the interpreter (`JitProgram::compile` still compiles it).
pub enum Engine {
    /// Compiled.
    Compiled(Box<JitProgram>),
    /// Run on the interpreter, and why.
    Interpreted(Box<Program>, NotCompiled),
}

impl Engine {
    /// Compile `program` if the JIT supports it.
    pub fn new(program: Program) -> Engine {
        Engine::with_options(program, Options::default())
    }

    /// [`Engine::new`] with `options`.
    pub fn with_options(program: Program, options: Options) -> Engine {
        let why = support::unsupported(&program).or_else(|| support::mostly_stepped(&program));
        match why {
            Some(why) => Engine::Interpreted(Box::new(program), NotCompiled(why)),
            None => match JitProgram::compile_with(program.clone(), options) {
                Ok(j) => Engine::Compiled(Box::new(j)),
                Err(e) => Engine::Interpreted(Box::new(program), e),
            },
        }
    }

    /// Whether the JIT compiled the program.
    pub fn is_compiled(&self) -> bool {
        matches!(self, Engine::Compiled(_))
    }

    /// Why the program runs on the interpreter (`None` when compiled).
    pub fn fallback_reason(&self) -> Option<&NotCompiled> {
        match self {
            Engine::Compiled(_) => None,
            Engine::Interpreted(_, why) => Some(why),
        }
    }

    /// Compile time (zero when not compiled).
    pub fn compile_time(&self) -> Duration {
        match self {
            Engine::Compiled(j) => j.compile_time(),
            Engine::Interpreted(..) => Duration::ZERO,
        }
    }
}

impl WaveEngine for Engine {
    fn program(&self) -> &Program {
        match self {
            Engine::Compiled(j) => j.program(),
            Engine::Interpreted(p, _) => p,
        }
    }

    fn run_wave(&self, m: &mut Machine<WAVE>, env: &Env, active: u32) -> Result<u32, ExecError> {
        match self {
            Engine::Compiled(j) => j.run_wave(m, env, active),
            Engine::Interpreted(p, _) => Interpreter(p).run_wave(m, env, active),
        }
    }

    fn resume_wave(
        &self,
        m: &mut Machine<WAVE>,
        env: &Env,
        shared: Option<&Storage>,
    ) -> Result<Stop, ExecError> {
        match self {
            Engine::Compiled(j) => j.resume_wave(m, env, shared),
            Engine::Interpreted(p, _) => Interpreter(p).resume_wave(m, env, shared),
        }
    }

    fn interprets(&self) -> bool {
        matches!(self, Engine::Interpreted(..))
    }
}
