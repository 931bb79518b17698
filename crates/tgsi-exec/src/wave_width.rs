//! Whether a compute dispatch may run in 32-lane waves and still give softpipe's results
//! bit for bit (see [`crate::compute`]): a proof, made once per dispatch, that no result
//! depends on the order between invocations inside one phase (the stretch between two
//! barriers).
//!
//! Softpipe runs each quad of a workgroup to its next barrier before the next quad starts;
//! a 32-lane wave runs eight quads an instruction at a time, lane after lane. Every quad
//! performs the same accesses in both, so only the order between accesses of different
//! quads inside one phase changes, and only in one way: a later quad's access made at an
//! earlier instruction than an earlier quad's. That changes a result only when both touch
//! the same bytes and one writes. The proof shows that this cannot happen:
//!
//! * every BARRIER and MEMBAR is outside all control flow (so the phases are the stretches
//!   of the program between them, the same for every quad), and the program has no
//!   inter-lane opcodes, texture sampling, CLOCK, subroutines, switches, legacy loops or
//!   jumps, and no atomics but integer additions, bitwise operations and minima/maxima on
//!   buffers and shared memory whose returned values nothing reads (updates whose final
//!   word does not depend on their order; exchanges, float additions and the wrapping
//!   counters do);
//! * in each phase, for each memory that is written (the workgroup's shared memory, or one
//!   bound resource, whichever slots name it; a slot chosen at run time stands for all of
//!   them), any two accesses by different instructions touch byte ranges that cannot
//!   overlap unless both are such atomics with the same operation, and an instruction that
//!   stores runs at most once per invocation in the phase (not inside a loop): one
//!   instruction writes lane after lane, in softpipe's quad order.
//!
//! Byte ranges come from an analysis of the integer registers that knows an interval and a
//! residue modulo a power of two for each channel: registers start at zero, system values
//! range over the block and grid, immediates and constants are the dispatch's values, and
//! the additions, multiplications, shifts and bitwise operations that compute addresses
//! narrow them; everything else can hold any word. Branches join their two sides, loops
//! let the registers they write hold any word. Two accesses cannot meet when their
//! intervals are apart or their residues leave room for both (interleaved records). Image
//! accesses count as touching the whole image.

use crate::compile::{Inst, Program, RegFile, SrcOp, LANE_FILES};
use crate::compute::ComputeOptions;
use crate::ops::{AtomicOp, Flow, Kind};
use crate::resource::Resource;
use std::sync::{Arc, Mutex};
use tgsi::{Opcode, Semantic};

/// Lanes of softpipe's machines.
const QUAD: u64 = 4;

/// Most (writing access, access) pairs one phase may need to compare; a bigger phase is
/// not analysed (it runs on softpipe's machines).
const MAX_PAIRS: usize = 1 << 20;

/// Why a result of `program`, dispatched with `opts` on blocks of `block` threads, could
/// differ between 32-lane waves and softpipe's 4-lane machines, naming the instruction;
/// `None` when the proof holds and the dispatch may run in wide waves.
///
/// The answer depends on the program, the block, the grid, the constants and which
/// resource slots share a resource at which offsets; the program keeps the last answer
/// with those, so dispatching it again with the same inputs costs no analysis.
pub fn order_dependence(
    program: &Program,
    opts: &ComputeOptions,
    block: [u32; 3],
) -> Option<String> {
    let key = DispatchKey::new(opts, block);
    // A poisoned memo (a panic while it was held) is not used.
    if let Ok(memo) = program.proof.0.lock() {
        if let Some((k, answer)) = memo.as_ref() {
            if *k == key {
                return answer.clone();
            }
        }
    }
    let answer = analyse(program, opts, block);
    if let Ok(mut memo) = program.proof.0.lock() {
        *memo = Some((key, answer.clone()));
    }
    answer
}

/// [`order_dependence`] without the memo.
fn analyse(program: &Program, opts: &ComputeOptions, block: [u32; 3]) -> Option<String> {
    let phases = match Analysis::new(program, opts, block).run() {
        Ok(phases) => phases,
        Err(why) => return Some(why),
    };
    phases.iter().find_map(|phase| {
        order_dependence_in(phase).map(|(w, a)| {
            if w == a {
                format!(
                    "{} may store twice per invocation between barriers",
                    program.describe(w)
                )
            } else {
                format!(
                    "{} and {} may touch the same bytes between barriers",
                    program.describe(w),
                    program.describe(a)
                )
            }
        })
    })
}

/// Everything of a dispatch the analysis reads: the block, the grid, `WORK_DIM`, the
/// constants, and the resource layout — which BUFFER and IMAGE slots are bound, which of
/// them view the same resource, and the buffers' offsets. (Resources are told apart by
/// address only to find which slots share one, so a freed resource's address taken by a
/// new one changes nothing.)
#[derive(Clone, Debug, PartialEq)]
struct DispatchKey {
    block: [u32; 3],
    grid: [u32; 3],
    work_dim: u32,
    constants: Vec<Vec<[u32; 4]>>,
    /// Per BUFFER slot: its offset and the first slot (buffers, then images) that views
    /// its resource.
    buffers: Vec<Option<(u32, usize)>>,
    /// Per IMAGE slot: the first slot that views its resource.
    images: Vec<Option<usize>>,
}

impl DispatchKey {
    fn new(opts: &ComputeOptions, block: [u32; 3]) -> DispatchKey {
        let r = opts.resources;
        let address = |v: &Arc<Resource>| Arc::as_ptr(v) as usize;
        let buffers = r
            .buffers
            .iter()
            .map(|b| b.as_ref().map(|v| address(&v.resource)));
        let images = r
            .images
            .iter()
            .map(|i| i.as_ref().map(|v| address(&v.resource)));
        let ids: Vec<Option<usize>> = buffers.chain(images).collect();
        let first = |k: usize| ids[k].and_then(|a| ids.iter().position(|&b| b == Some(a)));
        DispatchKey {
            block,
            grid: opts.grid,
            work_dim: opts.work_dim,
            constants: opts.constants.clone(),
            buffers: (r.buffers.iter().enumerate())
                .map(|(k, b)| b.as_ref().and_then(|v| Some((v.offset, first(k)?))))
                .collect(),
            images: (0..r.images.len())
                .map(|k| first(r.buffers.len() + k))
                .collect(),
        }
    }
}

/// The memo of [`order_dependence`] a [`Program`] carries: the last dispatch's key and
/// answer. A copy of a program starts with an empty one.
#[derive(Debug, Default)]
pub(crate) struct ProofMemo(Mutex<Option<(DispatchKey, Option<String>)>>);

impl Clone for ProofMemo {
    fn clone(&self) -> Self {
        ProofMemo::default()
    }
}

/// Every BARRIER and MEMBAR of `program` in order when all are outside branches and loops
/// (the places where every quad of a workgroup stops, the same for all), else the first
/// one inside. The JIT resumes its compute waves at these.
pub fn top_level_syncs(program: &Program) -> Result<Vec<usize>, usize> {
    let mut depth = 0usize;
    let mut out = Vec::new();
    for (pc, inst) in program.insts.iter().enumerate() {
        match inst.kind {
            Kind::Flow(Flow::If { .. } | Flow::BgnLoop) => depth += 1,
            Kind::Flow(Flow::EndIf | Flow::EndLoop) => depth = depth.saturating_sub(1),
            Kind::Sync if depth > 0 => return Err(pc),
            Kind::Sync => out.push(pc),
            _ => {}
        }
    }
    Ok(out)
}

/// What is known of a u32 value: it lies in `lo ..= hi` and is congruent to `r` modulo
/// `2^k` (`k` ≤ 32; `r` < `2^k`). The congruence survives wrapping arithmetic, so it stays
/// when the interval is lost; it tells apart interleaved accesses (`a[2i]` and `a[2i+1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    lo: u64,
    hi: u64,
    k: u32,
    r: u64,
}

/// `x` modulo `2^k` (`k` ≤ 32).
fn low(x: u64, k: u32) -> u64 {
    x & ((1u64 << k) - 1)
}

/// The trailing zero bits of `r`, at most `k`.
fn zeros(r: u64, k: u32) -> u32 {
    r.trailing_zeros().min(k)
}

impl Range {
    const ANY: Range = Range {
        lo: 0,
        hi: u32::MAX as u64,
        k: 0,
        r: 0,
    };

    fn exact(v: u32) -> Range {
        Range {
            lo: v.into(),
            hi: v.into(),
            k: 32,
            r: v.into(),
        }
    }

    /// `lo ..= hi` (any word when `hi` passes u32: the operation could wrap) and `r` modulo
    /// `2^k`.
    fn new(lo: u64, hi: u64, k: u32, r: u64) -> Range {
        let k = k.min(32);
        let (lo, hi) = if hi > u32::MAX as u64 {
            (0, u32::MAX as u64)
        } else {
            (lo, hi)
        };
        Range {
            lo,
            hi,
            k,
            r: low(r, k),
        }
    }

    fn join(self, o: Range) -> Range {
        let k = self.k.min(o.k).min(zeros(self.r ^ o.r, 32));
        Range::new(self.lo.min(o.lo), self.hi.max(o.hi), k, self.r)
    }

    fn add(self, o: Range) -> Range {
        Range::new(
            self.lo + o.lo,
            self.hi + o.hi,
            self.k.min(o.k),
            self.r + o.r,
        )
    }

    fn mul(self, o: Range) -> Range {
        // (ra + i·2^ka)(rb + j·2^kb) ≡ ra·rb modulo 2^(ka + tz(rb)) and 2^(kb + tz(ra)).
        let k = (self.k + zeros(o.r, o.k)).min(o.k + zeros(self.r, self.k));
        Range::new(
            self.lo * o.lo,
            self.hi * o.hi,
            k,
            low(self.r, 32) * low(o.r, 32),
        )
    }

    /// A bitwise operation: the low `min(ka, kb)` bits are `op` of the residues'.
    fn bitwise(self, o: Range, lo: u64, hi: u64, op: fn(u64, u64) -> u64) -> Range {
        Range::new(lo, hi, self.k.min(o.k), op(self.r, o.r))
    }

    /// All values below the next power of two above `hi` (the results of OR and XOR).
    fn bits_hi(self) -> u64 {
        let width = 64 - self.hi.leading_zeros();
        ((1u64 << width) - 1).min(u32::MAX as u64)
    }

    /// A shift count known to lie in 0..32 (TGSI uses the low five bits of the count).
    fn shift(self) -> Option<(u32, u32)> {
        (self.hi < 32).then_some((self.lo as u32, self.hi as u32))
    }

    fn shl(self, count: Range) -> Range {
        match count.shift() {
            Some((s, t)) if s == t => {
                Range::new(self.lo << s, self.hi << s, self.k + s, self.r << s)
            }
            Some((s, t)) => Range::new(self.lo << s, self.hi << t, 0, 0),
            None => Range::ANY,
        }
    }

    fn ushr(self, count: Range) -> Range {
        match count.shift() {
            // (r + i·2^k) >> s = (r >> s) + i·2^(k-s) when s ≤ k.
            Some((s, t)) if s == t && s <= self.k => {
                Range::new(self.lo >> s, self.hi >> s, self.k - s, self.r >> s)
            }
            Some((s, t)) => Range::new(self.lo >> t, self.hi >> s, 0, 0),
            None => Range::ANY,
        }
    }
}

/// The value ranges of the registers the program writes (TEMP, OUT, ADDR), by lane file
/// and index, starting at their initial zero.
#[derive(Clone, Debug, PartialEq)]
struct State {
    /// `regs[f][i]`: the channel ranges of register `i` of lane file `f` (the files
    /// instructions do not write stay empty).
    regs: [Vec<[Range; 4]>; LANE_FILES],
    /// Files written through an indirect index: any of their registers may hold any word.
    any: [bool; LANE_FILES],
}

impl State {
    /// Every register of `program` zero.
    fn new(program: &Program) -> State {
        let zero = [Range::exact(0); 4];
        let written = WRITTEN.map(writable);
        State {
            regs: std::array::from_fn(|f| match written.contains(&Some(f)) {
                true => vec![zero; program.sizes[f]],
                false => Vec::new(),
            }),
            any: [false; LANE_FILES],
        }
    }

    /// Register `index` of file `f`; outside the file, any word (the analysis assumes
    /// nothing about a register it does not track).
    fn get(&self, f: usize, index: i32) -> [Range; 4] {
        let reg = usize::try_from(index)
            .ok()
            .and_then(|i| self.regs[f].get(i));
        match reg {
            Some(r) if !self.any[f] => *r,
            _ => [Range::ANY; 4],
        }
    }

    /// Set register `index` of file `f` (outside the file, writes are dropped, as when
    /// the program runs).
    fn set(&mut self, f: usize, index: i32, v: [Range; 4]) {
        if let Some(r) = usize::try_from(index)
            .ok()
            .and_then(|i| self.regs[f].get_mut(i))
        {
            *r = v;
        }
    }

    /// What either state may hold.
    fn join(&self, o: &State) -> State {
        State {
            regs: std::array::from_fn(|f| {
                let pairs = self.regs[f].iter().zip(&o.regs[f]);
                pairs
                    .map(|(a, b)| std::array::from_fn(|c| a[c].join(b[c])))
                    .collect()
            }),
            any: std::array::from_fn(|f| self.any[f] || o.any[f]),
        }
    }
}

/// The per-lane file ([`RegFile::lane_file`]) of a register file instructions write.
fn writable(file: RegFile) -> Option<usize> {
    WRITTEN.contains(&file).then(|| file.lane_file()).flatten()
}

/// The register files instructions write.
const WRITTEN: [RegFile; 3] = [RegFile::Temp, RegFile::Output, RegFile::Addr];

/// Which memory an access touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Memory {
    /// The workgroup's shared memory (`MEMORY`, any index).
    Shared,
    /// A bound buffer or image resource, by address.
    Resource(usize),
    /// A resource slot chosen at run time: any bound resource.
    AnyResource,
}

impl Memory {
    fn may_alias(self, o: Memory) -> bool {
        match (self, o) {
            (Memory::Shared, Memory::Shared) => true,
            (Memory::Shared, _) | (_, Memory::Shared) => false,
            (Memory::Resource(a), Memory::Resource(b)) => a == b,
            _ => true,
        }
    }
}

/// One memory instruction of a phase.
#[derive(Clone, Copy, Debug)]
struct Access {
    memory: Memory,
    write: bool,
    /// An atomic whose returned value is never read and whose operation commutes: the
    /// final word is the same whatever the order of such updates.
    update: Option<AtomicOp>,
    /// It may touch the whole resource (an image, or a slot chosen at run time).
    whole: bool,
    /// Bytes it may touch, `lo .. end`.
    lo: u64,
    end: u64,
    /// Its address modulo `2^k` is `r`, and it touches `bytes` bytes from there.
    k: u32,
    r: u64,
    bytes: u64,
    /// Whether it may run more than once per invocation in the phase.
    in_loop: bool,
    /// The instruction.
    pc: usize,
}

impl Access {
    /// Whether the bytes of the two accesses can overlap: their ranges meet, and their
    /// addresses' residues modulo the coarser power of two leave no room between them.
    fn may_overlap(&self, o: &Access) -> bool {
        if self.end <= o.lo || o.end <= self.lo {
            return false;
        }
        let k = self.k.min(o.k);
        let m = 1u64 << k;
        // Where `o` starts after `self`'s start, modulo m.
        let d = low(o.r.wrapping_sub(self.r), k);
        !(d >= self.bytes && m - d >= o.bytes)
    }
}

/// Two accesses of a phase (instructions; the same one twice when it stores more than
/// once per invocation) that could meet in a different order (see the module
/// documentation), or `None`.
fn order_dependence_in(phase: &[Access]) -> Option<(usize, usize)> {
    let writes = phase.iter().filter(|a| a.write).count();
    if writes.saturating_mul(phase.len()) > MAX_PAIRS {
        let first = phase.iter().find(|a| a.write)?;
        return Some((first.pc, first.pc));
    }
    phase.iter().filter(|w| w.write).find_map(|w| {
        if w.in_loop && w.update.is_none() {
            return Some((w.pc, w.pc));
        }
        let commute = |a: &Access| w.update.is_some() && a.update == w.update;
        phase
            .iter()
            .find(|a| {
                a.pc != w.pc && !commute(a) && w.memory.may_alias(a.memory) && w.may_overlap(a)
            })
            .map(|a| (w.pc, a.pc))
    })
}

/// Whether updates by `op` give the same final word in any order (integer operations that
/// commute and associate; not the float add, exchanges or the wrapping counters).
fn commutes(op: AtomicOp) -> bool {
    use AtomicOp as A;
    matches!(
        op,
        A::Add | A::And | A::Or | A::Xor | A::UMin | A::UMax | A::IMin | A::IMax
    )
}

/// Whether the value atomic `pc` returns (to all four channels of its TEMP destination,
/// when it enables `.x`; otherwise it does nothing) can never be read: no instruction after
/// it reads the register, nor any instruction of a loop around it (the next iteration).
/// Indirectly addressed temporaries count as reads of every one.
fn result_unused(insts: &[Inst], pc: usize) -> bool {
    let Some(d) = insts.get(pc).and_then(|i| i.dst.first()) else {
        return false;
    };
    if d.mask & 1 == 0 {
        return true;
    }
    if d.file != RegFile::Temp || d.indirect.is_some() {
        return false;
    }
    let reads = |i: &Inst| {
        let temp =
            |s: &SrcOp| s.file == RegFile::Temp && (s.index == d.index || s.indirect.is_some());
        i.src.iter().any(temp) || i.tex.as_ref().is_some_and(|t| t.offsets.iter().any(temp))
    };
    if insts.iter().skip(pc + 1).any(reads) {
        return false;
    }
    // The loops around it, found walking back (constructs closed on the way are not).
    let mut depth = 0usize;
    for (i, inst) in insts.iter().enumerate().take(pc).rev() {
        match inst.kind {
            Kind::Flow(Flow::EndLoop | Flow::EndIf) => depth += 1,
            Kind::Flow(Flow::If { .. }) => depth = depth.saturating_sub(1),
            Kind::Flow(Flow::BgnLoop) if depth > 0 => depth -= 1,
            // A loop around the atomic.
            Kind::Flow(Flow::BgnLoop)
                if insts
                    .get(i..=inst.target)
                    .is_none_or(|body| body.iter().any(reads)) =>
            {
                return false
            }
            _ => {}
        }
    }
    true
}

/// The interval analysis over one dispatch.
struct Analysis<'a> {
    program: &'a Program,
    opts: &'a ComputeOptions<'a>,
    block: [u32; 3],
    state: State,
}

impl<'a> Analysis<'a> {
    fn new(program: &'a Program, opts: &'a ComputeOptions<'a>, block: [u32; 3]) -> Self {
        Analysis {
            program,
            opts,
            block,
            state: State::new(program),
        }
    }

    /// The accesses of each phase, or why the program is outside what the proof covers.
    fn run(mut self) -> Result<Vec<Vec<Access>>, String> {
        let program = self.program;
        let unmatched = |pc: usize| format!("{} is unmatched", program.describe(pc));
        top_level_syncs(program)
            .map_err(|pc| format!("{} is inside control flow", program.describe(pc)))?;
        let insts = &self.program.insts;
        let mut phases = vec![Vec::new()];
        // Open IFs: the state before the IF and, after ELSE, the state its THEN ended with.
        let mut ifs: Vec<(State, Option<State>)> = Vec::new();
        // Open loops: their end.
        let mut loops: Vec<usize> = Vec::new();
        for (pc, inst) in insts.iter().enumerate() {
            match inst.kind {
                Kind::Flow(flow) => match flow {
                    Flow::If { .. } => ifs.push((self.state.clone(), None)),
                    Flow::Else => {
                        let (before, then) = ifs.last_mut().ok_or_else(|| unmatched(pc))?;
                        *then = Some(std::mem::replace(&mut self.state, before.clone()));
                    }
                    Flow::EndIf => {
                        let (before, then) = ifs.pop().ok_or_else(|| unmatched(pc))?;
                        self.state = self.state.join(then.as_ref().unwrap_or(&before));
                    }
                    Flow::BgnLoop => {
                        let end = inst.target;
                        self.forget_writes(insts.get(pc..=end).ok_or_else(|| unmatched(pc))?);
                        loops.push(end);
                    }
                    Flow::EndLoop => {
                        loops.pop().ok_or_else(|| unmatched(pc))?;
                        let body = insts.get(inst.target..=pc);
                        self.forget_writes(body.ok_or_else(|| unmatched(pc))?);
                    }
                    Flow::Brk | Flow::Cont | Flow::Ret | Flow::End => {}
                    _ => return Err(format!("{} is not analysed", program.describe(pc))),
                },
                Kind::Sync => phases.push(Vec::new()),
                Kind::Atomic(op) if commutes(op) && result_unused(insts, pc) => {
                    let access = self.access(inst, !loops.is_empty(), pc);
                    match access {
                        Some(Some(a))
                            if matches!(a.memory, Memory::Shared | Memory::Resource(_))
                                && !a.whole =>
                        {
                            if let Some(phase) = phases.last_mut() {
                                phase.push(Access {
                                    update: Some(op),
                                    ..a
                                });
                            }
                        }
                        // An unbound buffer: nothing happens.
                        Some(None) => {}
                        _ => {
                            return Err(format!(
                                "{} depends on the order of invocations",
                                program.describe(pc)
                            ))
                        }
                    }
                    self.assign(inst);
                }
                Kind::Atomic(_)
                | Kind::Vote(_)
                | Kind::Ballot
                | Kind::ReadFirst
                | Kind::ReadInvoc
                | Kind::Texture
                | Kind::Clock => {
                    return Err(format!(
                        "{} depends on the order of invocations",
                        program.describe(pc)
                    ))
                }
                Kind::Load | Kind::Store => {
                    let access = self.access(inst, !loops.is_empty(), pc).ok_or_else(|| {
                        format!("{} addresses a memory not analysed", program.describe(pc))
                    })?;
                    if let (Some(access), Some(phase)) = (access, phases.last_mut()) {
                        phase.push(access);
                    }
                    self.assign(inst);
                }
                _ => self.assign(inst),
            }
        }
        Ok(phases)
    }

    /// Registers written by `insts` may hold any word.
    fn forget_writes(&mut self, insts: &[Inst]) {
        for inst in insts {
            for d in &inst.dst {
                if let Some(f) = writable(d.file) {
                    self.state.set(f, d.index, [Range::ANY; 4]);
                }
            }
        }
    }

    /// The memory and byte range of a LOAD or STORE (`None` inside: not analysable;
    /// `Some(None)`: touches no memory).
    fn access(&self, inst: &Inst, in_loop: bool, pc: usize) -> Option<Option<Access>> {
        let atomic = matches!(inst.kind, Kind::Atomic(_));
        let write = matches!(inst.kind, Kind::Store) || atomic;
        let (file, index, indirect, address) = if write && !atomic {
            let d = inst.dst.first()?;
            (d.file, d.index, d.indirect.is_some(), inst.src.first()?)
        } else {
            let s = inst.src.first()?;
            (s.file, s.index, s.indirect.is_some(), inst.src.get(1)?)
        };
        // Bytes from the address: the highest channel written or stored, plus one (an
        // atomic: one word).
        let mask = inst.dst.first().map_or(0, |d| d.mask & 0xf);
        let bytes = if atomic {
            4
        } else {
            4 * u64::from(8 - mask.leading_zeros())
        };
        let at = self.source(address)[0];
        let resources = self.opts.resources;
        let (memory, base, whole) = match file {
            RegFile::Memory => (Memory::Shared, 0, false),
            RegFile::Const => return Some(None),
            RegFile::Buffer | RegFile::Image if indirect => (Memory::AnyResource, 0, true),
            RegFile::Buffer => {
                let Some(view) = u32::try_from(index).ok().and_then(|i| resources.buffer(i)) else {
                    return Some(None);
                };
                let id = std::sync::Arc::as_ptr(&view.resource) as usize;
                (Memory::Resource(id), u64::from(view.offset), false)
            }
            RegFile::Image => {
                let Some(view) = u32::try_from(index).ok().and_then(|i| resources.image(i)) else {
                    return Some(None);
                };
                let id = std::sync::Arc::as_ptr(&view.resource) as usize;
                (Memory::Resource(id), 0, true)
            }
            _ => return None,
        };
        let (lo, end, k, r) = if whole {
            (0, u64::MAX, 0, 0)
        } else {
            (base + at.lo, base + at.hi + bytes, at.k, at.r + base)
        };
        Some(Some(Access {
            memory,
            write,
            update: None,
            whole,
            lo,
            end,
            k,
            r,
            bytes,
            in_loop,
            pc,
        }))
    }

    /// Record the ranges `inst` writes to its destinations.
    fn assign(&mut self, inst: &Inst) {
        let results = self.results(inst);
        for (k, d) in inst.dst.iter().enumerate() {
            let Some(f) = writable(d.file) else { continue };
            if d.is_indirect() {
                // Any register of the file: forget them all.
                self.state.any[f] = true;
                continue;
            }
            let mut reg = self.state.get(f, d.index);
            // Atomics write the old value to all four channels (softpipe's rule).
            let mask = match inst.kind {
                Kind::Atomic(_) => 0xf,
                _ => d.mask,
            };
            for (c, r) in reg.iter_mut().enumerate() {
                if mask & (1 << c) != 0 {
                    *r = match (k, inst.saturate) {
                        (0, false) => results[c],
                        _ => Range::ANY,
                    };
                }
            }
            self.state.set(f, d.index, reg);
        }
    }

    /// The ranges of destination 0's channels.
    fn results(&self, inst: &Inst) -> [Range; 4] {
        if !matches!(inst.kind, Kind::Component(_)) {
            return [Range::ANY; 4];
        }
        // A channel of the result from the same channel of the sources.
        let transfer: fn(Range, Range, Range) -> Range = match inst.opcode {
            Opcode::MOV => |a, _, _| a,
            Opcode::UADD => |a, b, _| a.add(b),
            Opcode::UMUL => |a, b, _| a.mul(b),
            Opcode::UMAD => |a, b, c| a.mul(b).add(c),
            Opcode::SHL => |a, b, _| a.shl(b),
            Opcode::USHR => |a, b, _| a.ushr(b),
            Opcode::AND => |a, b, _| a.bitwise(b, 0, a.hi.min(b.hi), |x, y| x & y),
            Opcode::OR => |a, b, _| a.bitwise(b, a.lo.max(b.lo), a.join(b).bits_hi(), |x, y| x | y),
            Opcode::XOR => |a, b, _| a.bitwise(b, 0, a.join(b).bits_hi(), |x, y| x ^ y),
            Opcode::UMIN => |a, b, _| Range {
                lo: a.lo.min(b.lo),
                hi: a.hi.min(b.hi),
                ..a.join(b)
            },
            Opcode::UMAX => |a, b, _| Range {
                lo: a.lo.max(b.lo),
                hi: a.hi.max(b.hi),
                ..a.join(b)
            },
            _ => return [Range::ANY; 4],
        };
        let srcs: [[Range; 4]; 3] = std::array::from_fn(|k| {
            inst.src
                .get(k)
                .map_or([Range::exact(0); 4], |s| self.source(s))
        });
        std::array::from_fn(|c| transfer(srcs[0][c], srcs[1][c], srcs[2][c]))
    }

    /// The ranges of a source's channels after swizzling.
    fn source(&self, s: &SrcOp) -> [Range; 4] {
        if s.abs || s.neg || s.is_indirect() {
            return [Range::ANY; 4];
        }
        let reg = self.register(s.file, s.index, s.dim);
        s.swizzle.map(|c| reg[c as usize & 3])
    }

    /// The ranges of the channels of a directly addressed register.
    fn register(&self, file: RegFile, index: i32, dim: i32) -> [Range; 4] {
        let words = |v: Option<&[u32; 4]>| v.map_or([Range::exact(0); 4], |v| v.map(Range::exact));
        if let Some(f) = writable(file) {
            return self.state.get(f, index);
        }
        let at = |i: i32| usize::try_from(i).ok();
        match file {
            RegFile::Imm => words(at(index).and_then(|i| self.program.imms.get(i))),
            RegFile::Const => words(
                at(dim)
                    .and_then(|b| self.opts.constants.get(b))
                    .and_then(|b| at(index).and_then(|i| b.get(i))),
            ),
            RegFile::SystemValue => self.system_value(index),
            _ => [Range::ANY; 4],
        }
    }

    /// The ranges of system value `index` over the dispatch.
    fn system_value(&self, index: i32) -> [Range; 4] {
        let decl = self
            .program
            .system_values
            .iter()
            .find(|d| i64::from(d.index) == i64::from(index));
        let upto = |n: u64| Range::new(0, n.saturating_sub(1), 0, 0);
        let [bw, bh, bd] = self.block.map(u64::from);
        let xyz = |v: [Range; 3]| [v[0], v[1], v[2], Range::exact(0)];
        let exact3 = |v: [u32; 3]| xyz(v.map(Range::exact));
        let zero = Range::exact(0);
        match decl.map(|d| d.semantic) {
            // Helper lanes past the block width included.
            Some(Semantic::ThreadId) => xyz([upto(bw.div_ceil(QUAD) * QUAD), upto(bh), upto(bd)]),
            Some(Semantic::BlockId) => xyz(self.opts.grid.map(|n| upto(n.into()))),
            Some(Semantic::GridSize) => exact3(self.opts.grid),
            Some(Semantic::BlockSize) => exact3(self.block),
            Some(Semantic::WorkDim) => [Range::exact(self.opts.work_dim), zero, zero, zero],
            Some(Semantic::SubgroupSize) => [Range::exact(QUAD as u32), zero, zero, zero],
            Some(Semantic::SubgroupInvocation) => [upto(QUAD), zero, zero, zero],
            _ => [Range::ANY; 4],
        }
    }
}
