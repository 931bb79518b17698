//! The wave machine: `N` lanes (a multiple of 4, made of 2×2 quads) executing a [`Program`]
//! together, registers stored structure-of-arrays (`[channel][lane]`), per-lane execution
//! masks with softpipe's structured stacks (cond, loop, cont, switch, call, func), kill
//! masks, an instruction budget and a bounded call depth. The legacy counted loops (BGNFOR,
//! REP) share the loop stack; their per-lane iteration counts live in its frames.

use crate::compile::{Inst, Program, LANE_FILES};
use crate::emit::Emission;
use crate::isa::Isa;
use crate::ops::{Flow, Kind};
use crate::resource::{Resources, Storage};
use crate::scalar::float::{add, flr, sub};
use std::fmt;

/// One vec4 register across the lanes of a wave: `[channel][lane]`.
pub type Reg<const N: usize> = [[u32; N]; 4];

/// The four channels of lane `l` of `reg`, read in place (`reg.map(|ch| ch[l])` copies the
/// whole register first, which the drivers' per-vertex loops paid for every output).
#[inline]
pub(crate) fn lane_of<const N: usize>(reg: &Reg<N>, l: usize) -> [u32; 4] {
    [reg[0][l], reg[1][l], reg[2][l], reg[3][l]]
}

/// Working registers of the instructions of a run, reused from one to the next (so never
/// cleared between instructions): the sources converted for an instruction (modifiers
/// applied, shared values spread over the lanes) and its result; for 64-bit instructions,
/// the sources and result of one channel pair.
pub(crate) struct Scratch<const N: usize> {
    /// Converted sources.
    pub src: [Reg<N>; 4],
    /// The result.
    pub out: Reg<N>,
    /// Zero, read for missing sources (never written).
    pub zero: Reg<N>,
    /// 64-bit instructions: three sources of a channel pair (low and high words), and
    /// the high words of a 32-bit result.
    pub wide: [[[u32; N]; 2]; 4],
}

impl<const N: usize> Scratch<N> {
    /// Zeroed registers.
    fn boxed() -> Box<Self> {
        Box::new(Scratch {
            src: [[[0; N]; 4]; 4],
            out: [[0; N]; 4],
            zero: [[0; N]; 4],
            wide: [[[0; N]; 2]; 4],
        })
    }
}

/// Deepest CAL nesting before the run fails.
pub const MAX_CALL_DEPTH: usize = 64;

/// Deepest per-lane PUSHA stack before the run fails.
pub const MAX_ADDRESS_STACK: usize = 64;

/// Default instruction budget of one wave run.
pub const DEFAULT_BUDGET: u64 = 1 << 28;

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The instruction budget ran out (an endless or very long loop).
    Budget {
        /// Instruction executing when the budget ran out, e.g. `ENDLOOP (instruction 27)`.
        at: String,
        /// The budget.
        budget: u64,
    },
    /// CAL nested deeper than [`MAX_CALL_DEPTH`].
    CallDepth {
        /// The CAL, e.g. `CAL (instruction 3)`.
        at: String,
    },
    /// PUSHA beyond [`MAX_ADDRESS_STACK`] entries, or POPA on an empty stack.
    AddressStack {
        /// The instruction, e.g. `POPA (instruction 5)`.
        at: String,
        /// Overflow (true) or underflow (false).
        overflow: bool,
    },
    /// The request cannot be served (wrong stage, missing output, bad size…).
    Setup(String),
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Budget { at, budget } => {
                write!(f, "instruction budget of {budget} exhausted at {at}")
            }
            ExecError::CallDepth { at } => {
                write!(f, "calls nested deeper than {MAX_CALL_DEPTH} at {at}")
            }
            ExecError::AddressStack { at, overflow: true } => write!(
                f,
                "address stack deeper than {MAX_ADDRESS_STACK} entries at {at}"
            ),
            ExecError::AddressStack {
                at,
                overflow: false,
            } => {
                write!(f, "address stack empty at {at}")
            }
            ExecError::Setup(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ExecError {}

/// What a run reads besides registers.
#[derive(Clone, Copy, Debug)]
pub struct Env<'a> {
    /// Constant buffers: `consts[b][i]` is `CONST[b][i]`.
    pub consts: &'a [Vec<[u32; 4]>],
    /// Instruction budget for the run.
    pub budget: u64,
    /// Helper lanes (bit per lane): they run fully but are not real invocations.
    pub helpers: u32,
    /// Textures, samplers, images and buffers ([`crate::resource::NO_RESOURCES`]: none).
    pub resources: &'a Resources,
}

/// Shared data of a run.
pub(crate) struct Res<'a> {
    /// Constant buffers.
    pub consts: &'a [Vec<[u32; 4]>],
    /// Immediates.
    pub imms: &'a [[u32; 4]],
    /// Bound resources.
    pub resources: &'a Resources,
    /// Whether implicit-LOD sampling takes λ from the quad (fragment shaders).
    pub implicit_lod: bool,
    /// The workgroup's shared memory (`MEMORY`), if any.
    pub shared: Option<&'a Storage>,
}

/// Where a resumable run ([`Machine::resume`]) stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The program ended (END, or RET from the main program); the lanes not discarded.
    End(u32),
    /// The wave executed BARRIER or MEMBAR; [`Machine::resume`] goes on after it.
    Barrier,
}

/// Switch state (softpipe's `Switch`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SwitchState<const N: usize> {
    /// Lanes currently executing case bodies.
    pub mask: u32,
    /// Lanes matched by some CASE so far.
    pub matched: u32,
    /// Selector per lane.
    pub selector: [u32; N],
}

/// A loop frame: the masks to restore when the loop ends, and the remaining iterations of
/// each lane for REP.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LoopFrame<const N: usize> {
    loop_: u32,
    cont: u32,
    count: [u32; N],
}

/// A CAL frame: stack depths and masks to restore on return.
#[derive(Clone, Copy, Debug)]
struct Frame<const N: usize> {
    cond_depth: usize,
    loop_depth: usize,
    switch_depth: usize,
    ret: usize,
    cond: u32,
    loop_: u32,
    cont: u32,
    switch: SwitchState<N>,
    func: u32,
}

/// A wave of `N` lanes. `N` must be a multiple of 4 and at most 32.
pub struct Machine<const N: usize> {
    /// Per-lane register files: TEMP, IN, OUT, ADDR, SV.
    pub(crate) regs: [Vec<Reg<N>>; LANE_FILES],
    pub(crate) cond: u32,
    loop_: u32,
    cont: u32,
    pub(crate) switch: SwitchState<N>,
    func: u32,
    /// Discarded lanes.
    pub(crate) kill: u32,
    /// Helper (or demoted) lanes.
    pub(crate) helpers: u32,
    cond_stack: Vec<u32>,
    loop_stack: Vec<LoopFrame<N>>,
    pub(crate) switch_stack: Vec<SwitchState<N>>,
    calls: Vec<Frame<N>>,
    /// PUSHA/POPA stacks, one per lane.
    pub(crate) address_stacks: [Vec<[u32; 4]>; N],
    /// Screen-space gradients of each input, `[d/dx, d/dy][channel]` (INTERP_OFFSET).
    pub(crate) gradients: Vec<[[f32; 4]; 2]>,
    /// Registers per vertex of the input file (inputs of vertex v start at v × stride).
    pub(crate) input_stride: usize,
    /// Registers per vertex of the output file when the lanes share their outputs
    /// (tessellation control, see [`crate::tessellation`]); 0 when every lane has its own.
    pub(crate) output_stride: usize,
    /// What each lane has emitted (geometry shaders).
    pub(crate) emission: [Emission; N],
    /// Whether the program has PUSHA/POPA or EMIT/ENDPRIM, so that [`Machine::start`] must
    /// reset the address stacks and the emission (other programs never touch them).
    lane_stacks: bool,
    /// Next instruction of a resumable run; `None` once it has ended.
    pc: Option<usize>,
    /// Instructions executed since the run started.
    executed: u64,
    /// Working registers of the instructions (taken while a run uses them).
    scratch: Option<Box<Scratch<N>>>,
    /// The sampler views and samplers the texture instructions have prepared, kept from
    /// wave to wave.
    pub(crate) textures: crate::texture::Prepared,
    /// The instruction set the lane kernels run with.
    pub(crate) isa: Isa,
}

impl<const N: usize> Machine<N> {
    /// All lanes.
    pub const ALL: u32 = if N >= 32 { u32::MAX } else { (1u32 << N) - 1 };

    /// A machine sized for `program`.
    pub fn new(program: &Program) -> Machine<N> {
        const {
            assert!(
                N.is_multiple_of(4) && N > 0 && N <= 32,
                "wave size must be 4, 8, … 32"
            )
        };
        let input_vertices = program.input_vertices();
        Machine {
            regs: std::array::from_fn(|f| {
                let vertices = if f == 1 { input_vertices } else { 1 };
                vec![[[0; N]; 4]; program.sizes[f] * vertices]
            }),
            isa: Isa::host(),
            cond: Self::ALL,
            loop_: Self::ALL,
            cont: Self::ALL,
            switch: SwitchState {
                mask: Self::ALL,
                matched: 0,
                selector: [0; N],
            },
            func: Self::ALL,
            kill: 0,
            helpers: 0,
            cond_stack: Vec::new(),
            loop_stack: Vec::new(),
            switch_stack: Vec::new(),
            calls: Vec::new(),
            address_stacks: std::array::from_fn(|_| Vec::new()),
            gradients: vec![[[0.0; 4]; 2]; program.sizes[1]],
            input_stride: program.sizes[1],
            output_stride: 0,
            emission: std::array::from_fn(|_| Emission::default()),
            lane_stacks: program.insts.iter().any(|i| {
                matches!(
                    i.kind,
                    Kind::PushA | Kind::PopA | Kind::Emit | Kind::EndPrim
                )
            }),
            pc: None,
            executed: 0,
            scratch: Some(Scratch::boxed()),
            textures: crate::texture::Prepared::default(),
        }
    }

    /// Input registers (set them before [`Machine::run`]). Geometry shaders read a vertex
    /// of registers per input vertex: `IN[v][i]` is entry `v · input_stride() + i`.
    pub fn inputs_mut(&mut self) -> &mut [Reg<N>] {
        &mut self.regs[1]
    }

    /// How much each input changes per pixel, `[d/dx, d/dy][channel]` per input register
    /// (x to the right, y down the memory rows); INTERP_OFFSET reads them. Zero unless set.
    pub fn input_gradients_mut(&mut self) -> &mut [[[f32; 4]; 2]] {
        &mut self.gradients
    }

    /// Input registers per vertex (see [`Machine::inputs_mut`]).
    pub fn input_stride(&self) -> usize {
        self.input_stride
    }

    /// System-value registers (set them before [`Machine::run`]).
    pub fn system_values_mut(&mut self) -> &mut [Reg<N>] {
        &mut self.regs[4]
    }

    /// Output registers after a run.
    pub fn outputs(&self) -> &[Reg<N>] {
        &self.regs[2]
    }

    /// The current execution mask.
    pub(crate) fn exec(&self) -> u32 {
        self.cond & self.loop_ & self.cont & self.switch.mask & self.func
    }

    /// Run `program` once over the wave. Temporaries, outputs and address registers are
    /// zeroed first; inputs and system values are left as set. Returns the lanes that were
    /// not discarded. BARRIER and MEMBAR do not stop this run.
    pub fn run(&mut self, program: &Program, env: &Env) -> Result<u32, ExecError> {
        self.run_lanes(program, env, Self::ALL)
    }

    /// Like [`Machine::run`], but only the lanes in `active` execute: the others start with
    /// their FuncMask bit clear (as if they had already returned), so they are outside the
    /// execution mask for the whole run, never write a register and never keep a loop going.
    /// Used for the last, partial wave of a vertex run (see [`crate::run_vertices`]).
    pub fn run_lanes(
        &mut self,
        program: &Program,
        env: &Env,
        active: u32,
    ) -> Result<u32, ExecError> {
        self.start(env, active);
        match self.execute(program, env, None, false)? {
            Stop::End(alive) => Ok(alive),
            // Not reached: this run does not stop at barriers.
            Stop::Barrier => Ok(!self.kill & Self::ALL),
        }
    }

    /// Prepare a resumable run: registers and masks as [`Machine::run_lanes`] sets them
    /// (`env.helpers` are the helper lanes). Nothing executes until [`Machine::resume`].
    pub fn start(&mut self, env: &Env, active: u32) {
        self.regs[0].iter_mut().for_each(|r| *r = [[0; N]; 4]);
        self.start_keeping_temps(env, active);
    }

    /// [`Machine::start`] without clearing the TEMP file, for engines that keep the
    /// temporaries elsewhere and write each one here before anything reads it here.
    pub fn start_keeping_temps(&mut self, env: &Env, active: u32) {
        for f in [2, 3] {
            self.regs[f].iter_mut().for_each(|r| *r = [[0; N]; 4]);
        }
        self.cond = Self::ALL;
        self.loop_ = Self::ALL;
        self.cont = Self::ALL;
        self.func = active & Self::ALL;
        self.switch = SwitchState {
            mask: Self::ALL,
            matched: 0,
            selector: [0; N],
        };
        self.kill = 0;
        self.helpers = env.helpers & Self::ALL;
        self.cond_stack.clear();
        self.loop_stack.clear();
        self.switch_stack.clear();
        self.calls.clear();
        if self.lane_stacks {
            self.address_stacks.iter_mut().for_each(Vec::clear);
            self.emission.iter_mut().for_each(Emission::clear);
        }
        self.pc = Some(0);
        self.executed = 0;
    }

    /// Continue the run prepared by [`Machine::start`] until the program ends or the wave
    /// executes BARRIER or MEMBAR (whatever its execution mask: like softpipe, the wave
    /// stops when the instruction is reached). `shared` is the workgroup's `MEMORY`.
    /// `env.budget` bounds the instructions executed since [`Machine::start`]. After the end,
    /// further calls return [`Stop::End`] at once.
    pub fn resume(
        &mut self,
        program: &Program,
        env: &Env,
        shared: Option<&Storage>,
    ) -> Result<Stop, ExecError> {
        self.execute(program, env, shared, true)
    }

    /// Instructions the wave has executed since [`Machine::start`].
    pub fn executed(&self) -> u64 {
        self.executed
    }

    /// The instruction loop behind [`Machine::run_lanes`] and [`Machine::resume`].
    fn execute(
        &mut self,
        program: &Program,
        env: &Env,
        shared: Option<&Storage>,
        stop_at_barrier: bool,
    ) -> Result<Stop, ExecError> {
        let res = Res {
            consts: env.consts,
            imms: &program.imms,
            resources: env.resources,
            implicit_lod: program.processor == tgsi::Processor::Fragment,
            shared,
        };
        self.with_scratch(|m, scratch| m.instructions(program, env, &res, stop_at_barrier, scratch))
    }

    /// Run `f` with the machine's scratch registers (out of the machine meanwhile).
    fn with_scratch<R>(&mut self, f: impl FnOnce(&mut Self, &mut Scratch<N>) -> R) -> R {
        let mut scratch = self.scratch.take().unwrap_or_else(Scratch::boxed);
        let result = f(self, &mut scratch);
        self.scratch = Some(scratch);
        result
    }

    /// The body of [`Machine::execute`]: run instructions from `self.pc` on.
    fn instructions(
        &mut self,
        program: &Program,
        env: &Env,
        res: &Res,
        stop_at_barrier: bool,
        scratch: &mut Scratch<N>,
    ) -> Result<Stop, ExecError> {
        // `self.pc` stays `None` while running: a run that fails cannot be resumed.
        let mut next = self.pc.take();
        while let Some(pc) = next {
            let Some(inst) = program.insts.get(pc) else {
                break;
            };
            self.executed += 1;
            if self.executed > env.budget {
                return Err(ExecError::Budget {
                    at: program.describe(pc),
                    budget: env.budget,
                });
            }
            next = match inst.kind {
                // The fused form counts the BRK and ENDIF too: both within the budget.
                Kind::Flow(Flow::If { int }) if inst.breaks && self.executed + 2 <= env.budget => {
                    Some(self.break_if(inst, int, pc, res))
                }
                Kind::Flow(flow) => self.flow(program, inst, flow, pc, res)?,
                Kind::Sync if stop_at_barrier => {
                    self.pc = Some(pc + 1);
                    return Ok(Stop::Barrier);
                }
                _ => {
                    self.step(program, inst, pc, res, scratch)?;
                    Some(pc + 1)
                }
            };
        }
        if program.geometry.is_some() {
            self.emission.iter_mut().for_each(Emission::close);
        }
        Ok(Stop::End(!self.kill & Self::ALL))
    }

    /// Execute instruction `pc`, which is not control flow (BARRIER and MEMBAR do nothing
    /// here), with the current masks.
    fn step(
        &mut self,
        program: &Program,
        inst: &Inst,
        pc: usize,
        res: &Res,
        scratch: &mut Scratch<N>,
    ) -> Result<(), ExecError> {
        let exec = self.exec();
        // With no lane executing, an instruction changes nothing: every write, memory
        // access, emission and stack operation is limited to the executing lanes. (It
        // still counts: the remainder of a loop's last pass after every lane has left by
        // BRK runs with no lane, as in softpipe.)
        if exec == 0 {
            return Ok(());
        }
        match inst.kind {
            Kind::Component(op) => self.component(inst, res, exec, op, scratch),
            Kind::Vector(op) => self.vector(inst, res, exec, op, scratch),
            Kind::Wide(op) => self.wide(inst, res, exec, op, scratch),
            Kind::Deriv(d) => self.deriv(inst, res, exec, d, &mut scratch.out),
            _ => return self.step_other(program, inst, pc, res, scratch),
        }
        Ok(())
    }

    /// [`Machine::step`] for the instructions that are neither component-wise nor vector,
    /// out of line so that the common path stays small.
    #[inline(never)]
    fn step_other(
        &mut self,
        program: &Program,
        inst: &Inst,
        pc: usize,
        res: &Res,
        scratch: &mut Scratch<N>,
    ) -> Result<(), ExecError> {
        match inst.kind {
            Kind::PushA | Kind::PopA => {
                self.address_stack(inst, res)
                    .map_err(|overflow| ExecError::AddressStack {
                        at: program.describe(pc),
                        overflow,
                    })?
            }
            Kind::Clock => self.clock(inst, self.executed),
            Kind::Load | Kind::Store | Kind::Atomic(_) | Kind::Resq | Kind::Handle => {
                self.memory(inst, res, scratch)
            }
            Kind::Vote(_) | Kind::Ballot | Kind::ReadFirst | Kind::ReadInvoc => {
                self.interlane(inst, res)
            }
            Kind::Texture => self.texture(inst, res, scratch),
            Kind::Emit | Kind::EndPrim => {
                if let Some(g) = &program.geometry {
                    let end = matches!(inst.kind, Kind::EndPrim);
                    self.emit(inst, res, end, &g.outputs, g.max_vertices);
                }
            }
            _ => self.alu(inst, res),
        }
        Ok(())
    }

    /// Where a resumable run goes on: the next instruction, or `None` once it has ended.
    pub fn resume_point(&self) -> Option<usize> {
        self.pc
    }

    /// The lanes that have not returned from the main program (FuncMask).
    pub fn func_mask(&self) -> u32 {
        self.func
    }

    /// Record where an engine that runs the program itself stopped a resumable run, at the
    /// top level of the program (outside every branch and loop, so every other mask is
    /// full): the instruction to go on from (`None`: the run ended), the lanes that have
    /// not returned, and the instructions it executed meanwhile (added to
    /// [`Machine::executed`]).
    pub fn stop_at(&mut self, next: Option<usize>, func: u32, executed: u64) {
        self.pc = next;
        self.cond = Self::ALL;
        self.loop_ = Self::ALL;
        self.cont = Self::ALL;
        self.switch.mask = Self::ALL;
        self.func = func & Self::ALL;
        self.executed = self.executed.saturating_add(executed);
    }

    /// Execute the single instruction `pc` of `program` for the lanes in `exec`, as the
    /// interpreter would inside a run prepared by [`Machine::start`]: for engines that run
    /// control flow themselves (the JIT) and hand the other instructions here. It reads and
    /// writes the machine's registers; the machine's own masks are replaced by `exec`.
    /// `shared` is the workgroup's `MEMORY` of a compute run. Control-flow instructions,
    /// BARRIER and MEMBAR do nothing.
    pub fn execute_instruction(
        &mut self,
        program: &Program,
        pc: usize,
        env: &Env,
        exec: u32,
        shared: Option<&Storage>,
    ) -> Result<(), ExecError> {
        let Some(inst) = program.insts.get(pc) else {
            return Ok(());
        };
        if matches!(inst.kind, Kind::Flow(_)) {
            return Ok(());
        }
        self.cond = exec & Self::ALL;
        self.loop_ = Self::ALL;
        self.cont = Self::ALL;
        self.func = Self::ALL;
        self.switch.mask = Self::ALL;
        let res = Res {
            consts: env.consts,
            imms: &program.imms,
            resources: env.resources,
            implicit_lod: program.processor == tgsi::Processor::Fragment,
            shared,
        };
        self.with_scratch(|m, scratch| m.step(program, inst, pc, &res, scratch))
    }

    /// The per-lane register files (TEMP, IN, OUT, ADDR, SV) as mutable slices, for engines
    /// that access registers directly. Register `r`, channel `c`, lane `l` of a file is
    /// `file[r][c][l]`.
    pub fn register_files_mut(&mut self) -> [&mut [Reg<N>]; LANE_FILES] {
        let [t, i, o, a, s] = &mut self.regs;
        [t, i, o, a, s]
    }

    /// Execute a control-flow instruction; returns the next pc, or `None` to stop. Inlined
    /// into the run loop, where loops and branches make it a large share of the instructions.
    #[inline(always)]
    fn flow(
        &mut self,
        program: &Program,
        inst: &Inst,
        flow: Flow,
        pc: usize,
        res: &Res,
    ) -> Result<Option<usize>, ExecError> {
        let exec = self.exec();
        let next = pc + 1;
        Ok(Some(match flow {
            Flow::If { int } => {
                self.cond_stack.push(self.cond);
                let s = &inst.src[0];
                self.cond &= if int {
                    self.lanes_of(s, exec, res, |x| x != 0)
                } else {
                    self.lanes_of(s, exec, res, |x| f32::from_bits(x) != 0.0)
                };
                // A side no lane executes is skipped: a lane that is not executing has no
                // say, whatever its registers hold (so the instructions counted do not
                // depend on them either).
                if self.exec() == 0 {
                    inst.target
                } else {
                    next
                }
            }
            Flow::Else => {
                let prev = self.cond_stack.last().copied().unwrap_or(Self::ALL);
                self.cond = !self.cond & prev;
                if self.exec() == 0 {
                    inst.target
                } else {
                    next
                }
            }
            Flow::EndIf => {
                self.cond = self.cond_stack.pop().unwrap_or(Self::ALL);
                next
            }
            Flow::BgnLoop => {
                self.push_loop([0; N]);
                next
            }
            Flow::BgnFor => {
                self.push_loop([0; N]);
                let dst = inst.dst[0];
                let mut y = [0; N];
                for c in 0..3 {
                    let v = self
                        .fetch(&inst.src[0], c, exec, res)
                        .map(|x| flr(f32::from_bits(x)).to_bits());
                    if dst.mask & (1 << c) != 0 {
                        self.store(&dst, c, &v, exec);
                    }
                    if c == 1 {
                        y = v;
                    }
                }
                self.loop_ &= !(exec & lanes_where(&y, |y| f32::from_bits(y) <= 0.0));
                self.enter_loop(inst, next)
            }
            Flow::Rep => {
                // A saturating conversion: NaN and negative counts run no iteration.
                let count = self
                    .fetch(&inst.src[0], 0, exec, res)
                    .map(|x| f32::from_bits(x) as u32);
                self.push_loop(count);
                self.loop_ &= !(exec & lanes_where(&count, |n| n == 0));
                self.enter_loop(inst, next)
            }
            Flow::EndLoop => {
                self.restore_cont();
                self.loop_again(inst, next)
            }
            Flow::EndFor => {
                self.restore_cont();
                let exec = self.exec();
                let dst = inst.dst[0];
                let [x, y, z] = [0, 1, 2].map(|c| self.fetch(&inst.src[0], c, exec, res));
                let x: [u32; N] = std::array::from_fn(|l| {
                    add(f32::from_bits(x[l]), f32::from_bits(z[l])).to_bits()
                });
                let y = y.map(|y| sub(f32::from_bits(y), 1.0).to_bits());
                for (c, v) in [(0, &x), (1, &y)] {
                    if dst.mask & (1 << c) != 0 {
                        self.store(&dst, c, v, exec);
                    }
                }
                self.loop_ &= !(exec
                    & lanes_where(&y, |y| {
                        f32::from_bits(y) <= 0.0 || f32::from_bits(y).is_nan()
                    }));
                self.loop_again(inst, next)
            }
            Flow::EndRep => {
                self.restore_cont();
                let exec = self.exec();
                let mut done = 0;
                if let Some(frame) = self.loop_stack.last_mut() {
                    for (l, n) in frame.count.iter_mut().enumerate() {
                        if exec & (1 << l) != 0 {
                            *n = n.saturating_sub(1);
                            if *n == 0 {
                                done |= 1 << l;
                            }
                        }
                    }
                }
                self.loop_ &= !done;
                self.loop_again(inst, next)
            }
            Flow::Bra => {
                if exec != 0 {
                    inst.target
                } else {
                    next
                }
            }
            Flow::Brk => {
                self.brk(inst, exec);
                next
            }
            Flow::BreakC => {
                let lanes = exec & self.lanes_of(&inst.src[0], exec, res, |x| x != 0);
                if inst.in_switch {
                    self.switch.mask &= !lanes;
                } else {
                    self.loop_ &= !lanes;
                }
                next
            }
            Flow::Cont => {
                self.cont &= !exec;
                next
            }
            Flow::Switch => {
                let selector = self.fetch(&inst.src[0], 0, exec, res);
                self.switch_stack.push(self.switch);
                self.switch = SwitchState {
                    mask: 0,
                    matched: 0,
                    selector,
                };
                next
            }
            Flow::Case => {
                let prev = self.switch_stack.last().map_or(Self::ALL, |s| s.mask);
                let v = self.fetch(&inst.src[0], 0, exec, res);
                let sel = self.switch.selector;
                let m = (0..N).fold(0, |m, l| if sel[l] == v[l] { m | 1 << l } else { m });
                self.switch.matched |= m;
                self.switch.mask |= m & prev;
                next
            }
            Flow::Default => {
                let prev = self.switch_stack.last().map_or(Self::ALL, |s| s.mask);
                self.switch.mask |= !self.switch.matched & prev;
                next
            }
            Flow::EndSwitch => {
                if let Some(s) = self.switch_stack.pop() {
                    self.switch = s;
                }
                next
            }
            Flow::Cal => self.call(program, inst, pc, exec)?,
            Flow::CallNz => {
                let s = &inst.src[0];
                let lanes = exec & self.lanes_of(s, exec, res, |x| f32::from_bits(x) != 0.0);
                self.call(program, inst, pc, lanes)?
            }
            Flow::Ret => {
                self.func &= !exec;
                if self.func != 0 {
                    next
                } else {
                    match self.ret() {
                        Some(r) => r,
                        None => return Ok(None),
                    }
                }
            }
            Flow::EndSub => match self.ret() {
                Some(r) => r,
                None => return Ok(None),
            },
            Flow::BgnSub => next,
            Flow::End => return Ok(None),
        }))
    }

    /// `IF c; BRK; ENDIF` at `pc` ([`Inst::breaks`]) in one step: the executing lanes where
    /// `c` holds leave the loop, and the instructions the three would count are counted
    /// (the BRK only where some lane reaches it). Returns the pc after the ENDIF.
    fn break_if(&mut self, inst: &Inst, int: bool, pc: usize, res: &Res) -> usize {
        let exec = self.exec();
        let s = &inst.src[0];
        let leaving = exec
            & if int {
                self.lanes_of(s, exec, res, |x| x != 0)
            } else {
                self.lanes_of(s, exec, res, |x| f32::from_bits(x) != 0.0)
            };
        self.loop_ &= !leaving;
        self.executed += if leaving == 0 { 1 } else { 2 };
        pc + 3
    }

    /// BRK: leave the loop for the active lanes, or end the switch case. Like softpipe, a
    /// switch break clears the switch mask of every lane of each quad that reaches it
    /// (a quad reaches it when its condition mask is not empty).
    fn brk(&mut self, inst: &Inst, exec: u32) {
        if inst.in_switch {
            for q in 0..N / 4 {
                let quad = 0xf << (4 * q);
                if self.cond & quad != 0 {
                    self.switch.mask &= !quad;
                }
            }
        } else {
            self.loop_ &= !exec;
        }
    }

    /// Enter a loop: save the masks, with the iteration count of each lane (REP).
    fn push_loop(&mut self, count: [u32; N]) {
        self.loop_stack.push(LoopFrame {
            loop_: self.loop_,
            cont: self.cont,
            count,
        });
    }

    /// Leave the innermost loop: restore the masks saved by [`Machine::push_loop`].
    fn pop_loop(&mut self) {
        if let Some(f) = self.loop_stack.pop() {
            self.loop_ = f.loop_;
            self.cont = f.cont;
        }
    }

    /// At a loop end: lanes that did CONT take part again.
    fn restore_cont(&mut self) {
        self.cont = self.loop_stack.last().map_or(Self::ALL, |f| f.cont);
    }

    /// After a loop start: run the body, or skip past the loop end if no lane enters.
    fn enter_loop(&mut self, inst: &Inst, next: usize) -> usize {
        if self.exec() != 0 {
            next
        } else {
            self.pop_loop();
            inst.target + 1
        }
    }

    /// At a loop end: back to the first body instruction while a lane is still looping.
    fn loop_again(&mut self, inst: &Inst, next: usize) -> usize {
        if self.exec() != 0 {
            inst.target + 1
        } else {
            self.pop_loop();
            next
        }
    }

    /// CAL (and CALLNZ) for `lanes` ⊆ the execution mask: skipped when empty; otherwise the
    /// other active lanes sit the call out (their FuncMask bit is clear until the return).
    fn call(
        &mut self,
        program: &Program,
        inst: &Inst,
        pc: usize,
        lanes: u32,
    ) -> Result<usize, ExecError> {
        if lanes == 0 {
            return Ok(pc + 1);
        }
        if self.calls.len() >= MAX_CALL_DEPTH {
            return Err(ExecError::CallDepth {
                at: program.describe(pc),
            });
        }
        self.calls.push(Frame {
            cond_depth: self.cond_stack.len(),
            loop_depth: self.loop_stack.len(),
            switch_depth: self.switch_stack.len(),
            ret: pc + 1,
            cond: self.cond,
            loop_: self.loop_,
            cont: self.cont,
            switch: self.switch,
            func: self.func,
        });
        self.func &= lanes | !self.exec();
        Ok(inst.target + 1)
    }

    /// Pop a call frame; `None` at top level (the program ends).
    fn ret(&mut self) -> Option<usize> {
        let f = self.calls.pop()?;
        self.cond_stack.truncate(f.cond_depth);
        self.loop_stack.truncate(f.loop_depth);
        self.switch_stack.truncate(f.switch_depth);
        self.cond = f.cond;
        self.loop_ = f.loop_;
        self.cont = f.cont;
        self.switch = f.switch;
        self.func = f.func;
        Some(f.ret)
    }
}

/// Lanes whose word satisfies `p`.
pub(crate) fn lanes_where<const N: usize>(v: &[u32; N], p: impl Fn(u32) -> bool) -> u32 {
    v.iter()
        .enumerate()
        .fold(0, |m, (l, &x)| if p(x) { m | 1 << l } else { m })
}
