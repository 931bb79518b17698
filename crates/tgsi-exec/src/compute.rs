//! Compute dispatch: [`run_compute`] runs a `COMP` shader over a grid of workgroups the way
//! softpipe's `softpipe_launch_grid` (Mesa 22.3) does.
//!
//! * Workgroups run z-major, then y, then x (x innermost). Inside a workgroup, softpipe runs
//!   one 4-lane machine per 4 consecutive x threads (a quad), in (z, y, x) order; the lanes
//!   past the block width are helpers (they run, but never change memory and are not
//!   subgroup members).
//! * Each machine runs until END or until it executes BARRIER or MEMBAR (softpipe stops at
//!   both); then all machines that have not ended are resumed in the same order, until
//!   every one has ended. A wave stops at a BARRIER it reaches even when none of its lanes
//!   is active (inside a branch some lanes skip, the wave still stops there once); the
//!   others run on to their next BARRIER or to the end. This is softpipe's behaviour, and
//!   it makes a barrier in non-uniform control flow a plain reordering point rather than
//!   a deadlock.
//! * **Wide waves.** A dispatch whose results provably do not depend on the order between
//!   invocations inside a phase (the stretch between two barriers) runs eight quads per
//!   32-lane wave (consecutive quads, in the same order), which amortises each
//!   instruction's dispatch over eight times the lanes; results stay softpipe's bit for bit.
//!   The interpreter runs blocks whose quads fill at most 16 lanes on 16-lane waves
//!   instead, whose instructions cost half as much.
//!   [`crate::wave_width`] holds the proof and its conditions (barriers outside control
//!   flow; in each phase, accesses of different instructions to written memory at byte
//!   ranges that cannot overlap, from an interval analysis of the addresses; no subgroup
//!   opcodes or texture sampling, no atomics whose order matters). Other programs, and
//!   every program with [`ComputeOptions::softpipe_waves`], run on the 4-lane machines.
//! * Inside one instruction, atomics go lane 0 … 3, so order-dependent results (atomic
//!   return values, races) are softpipe's exactly when `threads` is 1.
//! * System values: THREAD_ID, BLOCK_ID, GRID_SIZE, BLOCK_SIZE (`.xyz`, `.w` = 0),
//!   WORK_DIM (`.x`), SUBGROUP_SIZE = 4, SUBGROUP_INVOCATION = the lane in its quad
//!   (0 … 3), and the SUBGROUP_*_MASK values as 64-bit masks in `.xy`. Others read 0.
//! * Shared memory (`MEMORY`): `shared_bytes` zeroed bytes per workgroup (softpipe keeps
//!   one block for the whole launch and never clears it; no result that is defined by GL
//!   depends on the difference). Registers start at zero in every workgroup.
//! * `threads` > 1 spreads workgroups over threads; each workgroup still runs as above on
//!   one thread. Results that depend on the order between workgroups (atomic return
//!   values, read-modify-write races) may then differ from run to run; atomics themselves
//!   stay atomic. The first error stops the dispatch.
//! * `budget` bounds the instructions one workgroup executes (summed over its waves, each
//!   wave instruction counted once, whatever the wave's width); a workgroup that exceeds it
//!   fails the dispatch.
//!
//! Limits ([`MAX_BLOCK_THREADS`], [`MAX_INVOCATIONS`], [`MAX_SHARED_BYTES`]) are checked
//! before anything runs.

use crate::compile::Program;
use crate::engine::{Interpreter, WaveEngine, HALF_WAVE, WAVE};
use crate::machine::{Env, ExecError, Machine, Stop, DEFAULT_BUDGET};
use crate::resource::{Resources, Storage, NO_RESOURCES};
use crate::wave_width::order_dependence;
use crate::workers;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use tgsi::{Processor, PropertyName, Semantic};

/// Largest accepted workgroup (threads per block; GL's and softpipe's maximum).
pub const MAX_BLOCK_THREADS: u64 = 1024;

/// Largest accepted dispatch (invocations over the whole grid).
pub const MAX_INVOCATIONS: u64 = 1 << 31;

/// Largest accepted shared memory per workgroup (64 MiB).
pub const MAX_SHARED_BYTES: usize = 1 << 26;

/// Lanes of softpipe's machines (a quad).
const QUAD: usize = 4;

/// How to dispatch.
#[derive(Clone, Debug)]
pub struct ComputeOptions<'a> {
    /// Workgroups in x, y, z (`pipe_grid_info.grid`); a 0 runs nothing.
    pub grid: [u32; 3],
    /// Threads per workgroup in x, y, z; the program's `CS_FIXED_BLOCK_*` properties win.
    pub block: [u32; 3],
    /// `WORK_DIM` (`pipe_grid_info.work_dim`).
    pub work_dim: u32,
    /// Constant buffers: `constants[b][i]` = `CONST[b][i]` (missing slots read 0).
    pub constants: Vec<Vec<[u32; 4]>>,
    /// Bound buffers, images, sampler views and samplers.
    pub resources: &'a Resources,
    /// Bytes of shared memory (`req_local_mem`) each workgroup gets for `MEMORY`.
    pub shared_bytes: usize,
    /// Worker threads (0: as many as the machine has; 1: softpipe's order exactly).
    pub threads: usize,
    /// Instruction budget of one workgroup.
    pub budget: u64,
    /// Run every program on softpipe's 4-lane machines, also those the dispatch would run
    /// in 32-lane waves (see the module documentation): for measuring what wide waves gain,
    /// or to rule them out when chasing a difference.
    pub softpipe_waves: bool,
}

impl Default for ComputeOptions<'_> {
    fn default() -> Self {
        ComputeOptions {
            grid: [1, 1, 1],
            block: [1, 1, 1],
            work_dim: 3,
            constants: Vec::new(),
            resources: &NO_RESOURCES,
            shared_bytes: 0,
            threads: 1,
            budget: DEFAULT_BUDGET,
            softpipe_waves: false,
        }
    }
}

/// What a dispatch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComputeStats {
    /// The block size used (the program's fixed size, or the options').
    pub block: [u32; 3],
    /// Workgroups run.
    pub workgroups: u64,
    /// Invocations run (workgroups × threads per block).
    pub invocations: u64,
    /// Wave instructions executed (each instruction of a wave counted once, whether the
    /// wave has 4, 16 or 32 lanes).
    pub instructions: u64,
    /// Lanes per wave the dispatch ran (4: softpipe's machines; 32: wide waves; 16: wide
    /// waves of blocks that fill no more, on the interpreter).
    pub wave_lanes: u32,
}

/// The block size: the program's `CS_FIXED_BLOCK_*` (absent ones 1) when it has any, else
/// `block`.
fn block_size(program_block: [Option<u32>; 3], block: [u32; 3]) -> [u32; 3] {
    if program_block.iter().any(Option::is_some) {
        program_block.map(|v| v.unwrap_or(1))
    } else {
        block
    }
}

/// Run `program` over `opts.grid` workgroups on the interpreter; resources change in place.
pub fn run_compute(program: &Program, opts: &ComputeOptions) -> Result<ComputeStats, ExecError> {
    run_compute_with(&Interpreter(program), opts)
}

/// [`run_compute`] with `engine` running the 32-lane waves of a dispatch that runs wide
/// (the 4-lane machines of the others run on the interpreter).
pub fn run_compute_with(
    engine: &dyn WaveEngine,
    opts: &ComputeOptions,
) -> Result<ComputeStats, ExecError> {
    let program = engine.program();
    if program.processor != Processor::Compute {
        return Err(ExecError::Setup(format!(
            "run_compute needs a COMP shader, not {}",
            program.processor
        )));
    }
    let block = block_size(program.fixed_block, opts.block);
    if block.contains(&0) {
        return Err(ExecError::Setup(format!(
            "empty block {}x{}x{}",
            block[0], block[1], block[2]
        )));
    }
    let per_group = block.iter().map(|&v| u64::from(v)).product::<u64>();
    if per_group > MAX_BLOCK_THREADS {
        return Err(ExecError::Setup(format!(
            "block {}x{}x{} has {per_group} threads; at most {MAX_BLOCK_THREADS} are supported",
            block[0], block[1], block[2]
        )));
    }
    let groups = opts.grid.iter().map(|&v| u64::from(v)).product::<u64>();
    let invocations = groups.saturating_mul(per_group);
    if invocations > MAX_INVOCATIONS {
        return Err(ExecError::Setup(format!(
            "grid {}x{}x{} of {per_group}-thread blocks has {invocations} invocations; at most {MAX_INVOCATIONS} are supported",
            opts.grid[0], opts.grid[1], opts.grid[2]
        )));
    }
    if opts.shared_bytes > MAX_SHARED_BYTES {
        return Err(ExecError::Setup(format!(
            "{} bytes of shared memory requested; at most {MAX_SHARED_BYTES} are supported",
            opts.shared_bytes
        )));
    }
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(usize::try_from(groups).unwrap_or(usize::MAX))
    .max(1);
    let dispatch = Dispatch {
        program,
        opts,
        block,
        threads,
        groups,
    };
    let narrow = opts.softpipe_waves || order_dependence(program, opts, block).is_some();
    let quads = block_quads(block);
    let mut stats = if narrow {
        dispatch.run::<QUAD>(&Interpreted(program))?
    } else if engine.interprets() && quads.saturating_mul(QUAD as u64) <= HALF_WAVE as u64 {
        dispatch.run::<HALF_WAVE>(&Interpreted(program))?
    } else {
        dispatch.run(&Wide(engine))?
    };
    stats.workgroups = groups;
    stats.invocations = invocations;
    Ok(stats)
}

/// The quads of a block of threads (each row of its threads in quads of four, the last
/// one padded), as the dispatch chunks them into waves.
pub fn block_quads([w, h, d]: [u32; 3]) -> u64 {
    u64::from(w.div_ceil(QUAD as u32)) * u64::from(h) * u64::from(d)
}

/// The shared description of a dispatch.
struct Dispatch<'a> {
    program: &'a Program,
    opts: &'a ComputeOptions<'a>,
    block: [u32; 3],
    /// Worker threads (at least 1, at most one per workgroup).
    threads: usize,
    /// Workgroups in the grid.
    groups: u64,
}

impl Dispatch<'_> {
    /// Run every workgroup on machines of `N` lanes; the statistics but the counts of
    /// workgroups and invocations.
    fn run<const N: usize>(&self, waves: &dyn Waves<N>) -> Result<ComputeStats, ExecError> {
        let (dispatch, threads, groups) = (self, self.threads, self.groups);
        let mut stats = ComputeStats {
            block: self.block,
            wave_lanes: N as u32,
            ..ComputeStats::default()
        };
        if threads == 1 {
            let mut worker = dispatch.worker::<N>();
            for g in 0..groups {
                stats.instructions += worker.run_group(dispatch, waves, g)?;
            }
        } else {
            let next = AtomicU64::new(0);
            let failed = AtomicBool::new(false);
            let error: Mutex<Option<ExecError>> = Mutex::new(None);
            let executed = AtomicU64::new(0);
            workers::run(threads, || {
                let mut worker = dispatch.worker::<N>();
                while !failed.load(Ordering::Relaxed) {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= groups {
                        break;
                    }
                    match worker.run_group(dispatch, waves, g) {
                        Ok(n) => {
                            executed.fetch_add(n, Ordering::Relaxed);
                        }
                        Err(e) => {
                            failed.store(true, Ordering::Relaxed);
                            if let Ok(mut slot) = error.lock() {
                                slot.get_or_insert(e);
                            }
                            break;
                        }
                    }
                }
                Ok(())
            })?;
            if let Some(e) = error.into_inner().ok().flatten() {
                return Err(e);
            }
            stats.instructions = executed.into_inner();
        }
        Ok(stats)
    }

    /// The quads of a workgroup in softpipe's order: the thread (x, y, z) of each quad's
    /// first lane.
    fn quads(&self) -> Vec<[u32; 3]> {
        let [bw, bh, bd] = self.block;
        let mut quads = Vec::new();
        for z in 0..bd {
            for y in 0..bh {
                for x in (0..bw).step_by(QUAD) {
                    quads.push([x, y, z]);
                }
            }
        }
        quads
    }

    /// One thread's machines of `N` lanes: their quads (consecutive in softpipe's order).
    fn worker<const N: usize>(&self) -> Worker<N> {
        let quads = self.quads();
        let waves: Vec<Vec<[u32; 3]>> = quads.chunks(N / QUAD).map(<[_]>::to_vec).collect();
        Worker {
            machines: waves.iter().map(|_| Machine::new(self.program)).collect(),
            waves,
        }
    }
}

/// How a worker resumes its machines of `N` lanes (each started by [`Machine::start`]).
trait Waves<const N: usize>: Sync {
    fn resume(
        &self,
        m: &mut Machine<N>,
        env: &Env,
        shared: Option<&Storage>,
    ) -> Result<Stop, ExecError>;
}

/// The interpreter's machines of any width: softpipe's 4-lane ones, or half waves for
/// blocks that fill no more.
struct Interpreted<'a>(&'a Program);

impl<const N: usize> Waves<N> for Interpreted<'_> {
    fn resume(
        &self,
        m: &mut Machine<N>,
        env: &Env,
        shared: Option<&Storage>,
    ) -> Result<Stop, ExecError> {
        m.resume(self.0, env, shared)
    }
}

/// 32-lane waves, on an engine.
struct Wide<'a>(&'a dyn WaveEngine);

impl Waves<WAVE> for Wide<'_> {
    fn resume(
        &self,
        m: &mut Machine<WAVE>,
        env: &Env,
        shared: Option<&Storage>,
    ) -> Result<Stop, ExecError> {
        self.0.resume_wave(m, env, shared)
    }
}

/// The machines one thread runs its workgroups on.
struct Worker<const N: usize> {
    machines: Vec<Machine<N>>,
    /// The quads of each machine's wave.
    waves: Vec<Vec<[u32; 3]>>,
}

impl<const N: usize> Worker<N> {
    /// Run workgroup number `g` (x fastest); returns the wave instructions executed.
    fn run_group(&mut self, d: &Dispatch, runner: &dyn Waves<N>, g: u64) -> Result<u64, ExecError> {
        let [gw, gh, _] = d.opts.grid.map(u64::from);
        let id = [g % gw, (g / gw) % gh, g / (gw * gh)].map(|v| v as u32);
        let bw = d.block[0];
        let shared = (d.opts.shared_bytes > 0).then(|| Storage::zeroed(d.opts.shared_bytes));
        let env = |helpers: u32, budget: u64| Env {
            consts: &d.opts.constants,
            budget,
            helpers,
            resources: d.opts.resources,
        };
        let mut waves = Vec::with_capacity(self.machines.len());
        for (k, (m, quads)) in self.machines.iter_mut().zip(&self.waves).enumerate() {
            // Lanes past the block width, and the lanes of quads the wave does not have.
            let mut helpers = Machine::<N>::ALL;
            for (q, &[x, ..]) in quads.iter().enumerate() {
                let real = (1u32 << (bw - x).min(QUAD as u32)) - 1;
                helpers &= !(real << (QUAD * q));
            }
            set_system_values(m, d, quads, id);
            let lanes = Machine::<N>::ALL >> (N - QUAD * quads.len());
            m.start(&env(helpers, d.opts.budget), lanes);
            waves.push((k, helpers));
        }
        let mut running = vec![true; waves.len()];
        let mut used = 0u64;
        loop {
            let mut stopped = false;
            for (i, &(k, helpers)) in waves.iter().enumerate() {
                if !running[i] {
                    continue;
                }
                let Some(m) = self.machines.get_mut(k) else {
                    continue;
                };
                let before = m.executed();
                let others = used - before;
                let budget = d.opts.budget.saturating_sub(others);
                let result = runner.resume(m, &env(helpers, budget), shared.as_ref());
                used = others + m.executed();
                match result {
                    Ok(Stop::End(_)) => running[i] = false,
                    Ok(Stop::Barrier) => stopped = true,
                    Err(ExecError::Budget { at, .. }) => {
                        return Err(ExecError::Budget {
                            at: format!("{at} in workgroup ({}, {}, {})", id[0], id[1], id[2]),
                            budget: d.opts.budget,
                        })
                    }
                    Err(e) => return Err(e),
                }
            }
            if !stopped {
                break;
            }
        }
        Ok(used)
    }
}

/// Load the compute system values of a wave whose quads start at the threads `quads` of
/// workgroup `id`.
fn set_system_values<const N: usize>(
    m: &mut Machine<N>,
    d: &Dispatch,
    quads: &[[u32; 3]],
    id: [u32; 3],
) {
    // Lane l's thread, and its lane in its quad.
    let thread = |l: usize| {
        let [x, y, z] = quads.get(l / QUAD).copied().unwrap_or_default();
        [x.wrapping_add((l % QUAD) as u32), y, z]
    };
    let quad_lane = |l: usize| (l % QUAD) as u32;
    let sv = m.system_values_mut();
    for decl in &d.program.system_values {
        let Some(reg) = sv.get_mut(decl.index as usize) else {
            continue;
        };
        let mut v = [[0u32; N]; 4];
        let xyz = |v: &mut [[u32; N]; 4], w: [u32; 3]| {
            for c in 0..3 {
                v[c] = [w[c]; N];
            }
        };
        let per_lane = |f: &dyn Fn(u32) -> u32| std::array::from_fn(|l| f(quad_lane(l)));
        match decl.semantic {
            Semantic::ThreadId => {
                for (c, v) in v.iter_mut().take(3).enumerate() {
                    *v = std::array::from_fn(|l| thread(l)[c]);
                }
            }
            Semantic::BlockId => xyz(&mut v, id),
            Semantic::GridSize => xyz(&mut v, d.opts.grid),
            Semantic::BlockSize => xyz(&mut v, d.block),
            Semantic::WorkDim => v[0] = [d.opts.work_dim; N],
            Semantic::SubgroupSize => v[0] = [QUAD as u32; N],
            Semantic::SubgroupInvocation => v[0] = per_lane(&|j| j),
            Semantic::SubgroupEqMask => v[0] = per_lane(&|j| 1 << j),
            Semantic::SubgroupGeMask => v[0] = per_lane(&|j| 0xf & !((1 << j) - 1)),
            Semantic::SubgroupGtMask => v[0] = per_lane(&|j| 0xf & !((2 << j) - 1)),
            Semantic::SubgroupLeMask => v[0] = per_lane(&|j| (2 << j) - 1),
            Semantic::SubgroupLtMask => v[0] = per_lane(&|j| (1 << j) - 1),
            _ => {}
        }
        *reg = v;
    }
}

/// The `CS_FIXED_BLOCK_*` properties of a shader.
pub(crate) fn fixed_block(shader: &tgsi::Shader) -> [Option<u32>; 3] {
    [
        PropertyName::CsFixedBlockWidth,
        PropertyName::CsFixedBlockHeight,
        PropertyName::CsFixedBlockDepth,
    ]
    .map(|p| shader.property(p))
}
