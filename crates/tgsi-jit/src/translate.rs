//! Translating a [`Program`] into one Cranelift function that runs a group of quads of a
//! wave (the whole wave, or one quad: [`crate::support`] decides), given by the frame.
//!
//! Each quad is one `i32x4` vector per register channel. Temporaries live in SSA variables,
//! except the declared arrays that indirect operands name (or all of them, when those
//! operands may reach any or the temporaries are very many: [`memory_temps`]), which live
//! like every other register file in the machine's memory ([`indirect`] compiles the
//! accesses). The execution masks of the interpreter (cond,
//! loop, cont, func) are variables too, one vector per four lanes, updated at the same
//! instructions and by the same rules, so every instruction sees the mask the interpreter
//! would give it; IF, ELSE and loop ends jump exactly where the interpreter jumps. A
//! result is blended with the register's old value under the execution mask unless
//! [`tgsi_exec::unblended`] finds that no lane inactive there reads the old value. The
//! instruction count follows the interpreter's as well, and is checked against the budget
//! at every loop end and at the exit.
//!
//! Instructions not compiled natively ([`crate::native`]) call the interpreter: its lane
//! kernel, vector function or sampling of a quad on values passed through a scratch
//! buffer, or its single-instruction step on the machine's registers (SSA temporaries are written back
//! before and reloaded after).
//!
//! 64-bit instructions join each source channel pair into `i64x2` vectors of two lanes,
//! compute them natively ([`crate::native_wide`]) or through the interpreter's kernel per
//! lane, and blend and split the results back into the pair's channels. The pairs of SSA
//! temporaries that 64-bit instructions read whole also live in 64-bit variables, kept equal
//! to the channels at every write (a MOV of whole pairs from them moves 64-bit values), and
//! the translator remembers the vectors each other written pair was split from, so 64-bit
//! values flow from instruction to instruction, and around loops, without being joined
//! again.

use crate::known::{self, Known};
use crate::lanes::LaneOps;
use crate::native;
use crate::native_wide::{self as nw, Quad64, Wide};
use crate::runtime::{self, field, status, CHANNEL_BYTES, CHUNK, CHUNKS, REGISTER_BYTES};
use crate::support;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{I32, I32X4, I64, I64X2, I8};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, ConstantData, InstBuilder, MemFlagsData, SigRef, Signature,
    StackSlot, StackSlotData, StackSlotKind, Type, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, Variable};
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use tgsi::opcode::OperandType;
use tgsi::Opcode;
use tgsi_exec::compile::{DstOp, Indirect, Inst, RegFile, SrcOp};
use tgsi_exec::ops::{Deriv, Flow, Kind};
use tgsi_exec::Program;

mod indirect;
mod memory;
mod transcendental;

/// A channel of a register over the chunks compiled (one `i32x4` per four lanes).
type Channel = Vec<Value>;

/// Masks kept per four lanes (only the first `Translator::g` entries are used).
type Mask = [Variable; CHUNKS];

/// Temporaries kept in SSA variables, at most this many vectors (more live in memory), so
/// that spilling them all fits a worker thread's stack (16 bytes each: 256 KiB).
const MAX_SSA_VECTORS: usize = 1 << 14;

/// A stop of a compute program at a barrier.
struct Resume {
    /// Its number, from 1 (`Frame::resume`).
    number: u32,
    /// Where a call resuming after it starts.
    block: Block,
    /// The temporaries written since the previous stop (the machine holds the others).
    spill: Vec<usize>,
    /// The channels of temporaries the rest of the program may read before it writes
    /// them at the top level ([`live_after`]) that some earlier stretch wrote (the others
    /// still hold their initial zero, which the machine's memory does not: the compiled
    /// code keeps its temporaries, so the machine's copy is not cleared for each wave),
    /// as (temporary, channel mask).
    reload: Vec<(usize, u8)>,
}

/// Constant buffers below this index and registers below [`DIRECT_CONST_REGISTERS`]
/// read directly are read with no bounds check: the host makes sure those registers exist
/// ([`direct_constants`]; zeros past a bound buffer's end, as the checked reads give).
pub(crate) const DIRECT_CONST_BUFFERS: usize = 32;
/// See [`DIRECT_CONST_BUFFERS`].
pub(crate) const DIRECT_CONST_REGISTERS: usize = 4096;

/// An open block structure.
enum Open {
    If {
        saved: Mask,
        else_block: Option<Block>,
        end: Block,
    },
    Loop {
        saved_loop: Mask,
        saved_cont: Mask,
        body: Block,
        exit: Block,
        /// Where a BRK that leaves no lane in the loop goes: the ENDLOOP, which then
        /// leaves (created by the first such BRK).
        dead: Option<Block>,
    },
}

/// Signatures of the host calls.
struct Calls {
    step: SigRef,
    kernel: SigRef,
    /// A sampling kernel (`sampler::Kernel`).
    sample: SigRef,
}

/// The translation state.
pub(crate) struct Translator<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    program: &'a Program,
    /// Chunks of four lanes one call runs (a whole wave, or a group of quads).
    g: usize,
    /// [`crate::Options::approximate_math`].
    approximate: bool,
    ptr: Type,
    frame: Value,
    files: [Value; 5],
    sizes: [usize; 5],
    /// SSA variables of the temporaries (`(index·4 + channel)·g + chunk`), or `None`
    /// when they all live in memory.
    temps: Option<Vec<Variable>>,
    /// The temporaries that live in memory even so ([`memory_temps`]).
    memory: Range<usize>,
    cond: Mask,
    loop_: Mask,
    cont: Mask,
    func: Mask,
    kill: Mask,
    executed: Variable,
    pending: i64,
    /// Programs counted by sites (`support::counts_sites`): the frame's `visited` bytes,
    /// and the instructions each counted stretch of code stands for.
    sites: Option<(Value, Vec<u32>)>,
    scratch: Value,
    /// The first word of each constant buffer read directly ([`direct_constants`]),
    /// loaded at the entry.
    const_bases: HashMap<i32, Value>,
    exit: Block,
    host_error: Block,
    opens: Vec<Open>,
    calls: Calls,
    /// The 64-bit values that channel pairs written by 64-bit instructions were split from,
    /// by their (low, high) word vectors: [`Translator::pair_of`].
    pairs: HashMap<(Value, Value), Quad64>,
    /// The channel pairs of SSA temporaries that 64-bit instructions read as one value, by
    /// (temporary, pair): variables holding them as 64-bit values too (`i64x2` per chunk and
    /// half), kept equal to the channels at every write, so those reads need no joining.
    shadows: HashMap<(usize, usize), Vec<[Variable; 2]>>,
    /// Per instruction, the temporary channels written without a blend
    /// ([`tgsi_exec::unblended`]).
    unmasked: &'a [u8],
    /// The instruction being translated.
    pc: usize,
    /// The execution mask last computed, and the block it was computed in: valid until a
    /// mask variable changes or code moves to another block.
    exec_cache: Option<(Block, Channel)>,
    /// What is known of the register values computed ([`crate::known`]; values not listed,
    /// other than constants, can be any word).
    known: HashMap<Value, Known>,
    /// Compute programs: each stop (`support::barriers`, by instruction).
    resumes: HashMap<usize, Resume>,
    /// Runs of transcendental instructions computed in one host call, by first
    /// instruction ([`transcendental::runs`]), and the end of the run being translated.
    runs: HashMap<usize, usize>,
    run_end: usize,
    /// Per instruction, a LOAD of memory that does not change during the call
    /// ([`memory::unchanging_loads`]).
    unchanging: Vec<bool>,
    /// The texture instructions a sampling kernel may take, in order: their place is
    /// their entry in `Frame::kernels` ([`crate::sampler::kernel_instructions`]).
    kernel_pcs: Vec<usize>,
    /// The `io` buffer of the sampling kernels the code calls.
    kernel_io: StackSlot,
    /// Sixteen bytes that writes to a register outside its file go to
    /// ([`Translator::scatter_temp`]).
    sink: StackSlot,
    /// The constant registers the instruction being translated has read through an
    /// address register since it began or last wrote a register ([`indirect`]).
    rows: Vec<indirect::Row>,
    /// The indirect temporary operands (address, offset) of the instruction being
    /// translated that have made sure the SSA temporaries they may reach are in memory.
    spilled: Vec<(Indirect, i32)>,
}

/// Scratch bytes for host calls: sources (three × four channels, or four channels) and
/// results (four channels) for kernels; for texture instructions four sources × four
/// channels, the texel offsets' three channels and the results.
const SCRATCH_BYTES: u32 = (runtime::TEXTURE_SCRATCH_CHANNELS * CHANNEL_BYTES as usize) as u32;
/// Offset of the results in the scratch buffer.
const SCRATCH_OUT: i32 = 12 * CHANNEL_BYTES;
/// Offset of a texture instruction's results in the scratch buffer.
const SCRATCH_TEXTURE_OUT: i32 = runtime::TEXTURE_OUT_CHANNEL as i32 * CHANNEL_BYTES;

impl<'a, 'b> Translator<'a, 'b> {
    /// Translate `program` into the function `b` builds (signature: frame pointer → status).
    /// Returns the instructions each site stands for when `program` is counted by sites
    /// (`support::counts_sites`; `Frame::visited` has one byte per site), else nothing.
    pub(crate) fn translate(
        b: &'a mut FunctionBuilder<'b>,
        program: &'a Program,
        g: usize,
        approximate: bool,
        unmasked: &'a [u8],
        ptr: Type,
        call_conv: CallConv,
    ) -> Vec<u32> {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let frame = b.block_params(entry)[0];
        let mem = MemFlagsData::trusted();
        // The group's first lane: register files are addressed from there.
        let group = b.ins().load(I64, mem, frame, field::GROUP);
        let lane_bytes = b.ins().imul_imm_s(group, (CHUNK * 4) as i64);
        let files = std::array::from_fn(|f| {
            let base = b.ins().load(
                ptr,
                mem,
                frame,
                field::FILES + (f * ptr.bytes() as usize) as i32,
            );
            b.ins().iadd(base, lane_bytes)
        });
        let calls = Calls {
            step: b.import_signature(signature(call_conv, &[ptr, I64, I32], &[I32])),
            kernel: b.import_signature(signature(call_conv, &[ptr, I64, ptr, ptr, I64], &[])),
            sample: b.import_signature(signature(call_conv, &[ptr, ptr], &[I32])),
        };
        let slot = b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            SCRATCH_BYTES,
            4,
        ));
        let scratch = b.ins().stack_addr(ptr, slot, 0);
        let kernel_io = b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (4 * crate::sampler::IO_WORDS) as u32,
            4,
        ));
        let sink =
            b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 4));
        let sizes = program.register_counts();
        let memory = memory_temps(program, g);
        let ssa = memory.len() < sizes[0] || memory.is_empty();
        let zero = b.splat_word(0);
        let ones = b.splat_word(!0);
        let cond = mask(b, g, ones);
        let loop_ = mask(b, g, ones);
        let cont = mask(b, g, ones);
        let kill = mask(b, g, zero);
        let active = b.ins().load(I32, mem, frame, field::ACTIVE);
        let func = mask(b, g, zero);
        for (k, &v) in func.iter().enumerate().take(g) {
            let m = bits_to_mask(b, active, k);
            b.def_var(v, m);
        }
        let temps = ssa.then(|| {
            (0..sizes[0] * 4 * g)
                .map(|_| {
                    let v = b.declare_var(I32X4);
                    b.def_var(v, zero);
                    v
                })
                .collect()
        });
        let shadows = match &temps {
            Some(_) => wide_pairs(program, sizes[0])
                .into_iter()
                .filter(|(i, _)| !memory.contains(i))
                .map(|key| {
                    let zero = b.ins().iconst(I64, 0);
                    let zero = b.ins().splat(I64X2, zero);
                    let vars = (0..g)
                        .map(|_| {
                            [0, 1].map(|_| {
                                let v = b.declare_var(I64X2);
                                b.def_var(v, zero);
                                v
                            })
                        })
                        .collect();
                    (key, vars)
                })
                .collect(),
            None => HashMap::new(),
        };
        let executed = b.declare_var(I64);
        let z64 = b.ins().iconst(I64, 0);
        b.def_var(executed, z64);
        let sites = support::counts_sites(program).then(|| {
            let visited = b.ins().load(ptr, mem, frame, field::VISITED);
            (visited, Vec::new())
        });
        let exit = b.create_block();
        let host_error = b.create_block();
        let mut t = Translator {
            b,
            program,
            g,
            approximate,
            ptr,
            memory,
            frame,
            files,
            sizes,
            temps,
            cond,
            loop_,
            cont,
            func,
            kill,
            executed,
            pending: 0,
            sites,
            scratch,
            const_bases: HashMap::new(),
            exit,
            host_error,
            opens: Vec::new(),
            calls,
            pairs: HashMap::new(),
            shadows,
            unmasked,
            pc: 0,
            exec_cache: None,
            known: HashMap::new(),
            resumes: HashMap::new(),
            runs: transcendental::runs(program, approximate),
            run_end: 0,
            unchanging: memory::unchanging_loads(program),
            kernel_pcs: crate::sampler::kernel_instructions(program)
                .into_iter()
                .map(|k| k.pc)
                .collect(),
            kernel_io,
            sink,
            rows: Vec::new(),
            spilled: Vec::new(),
        };
        t.load_const_bases();
        t.resume_entries();
        for pc in 0..program.insts.len() {
            t.instruction(pc);
        }
        t.flush();
        t.b.ins().jump(exit, &[]);
        t.finish();
        t.sites.map(|(_, lengths)| lengths).unwrap_or_default()
    }

    /// The first word of each constant buffer the program reads directly, at the entry.
    fn load_const_bases(&mut self) {
        for (dim, &registers) in direct_constants(self.program).iter().enumerate() {
            if registers == 0 {
                continue;
            }
            let b = &mut *self.b;
            let mem = MemFlagsData::trusted().with_readonly();
            let table = b.ins().load(self.ptr, mem, self.frame, field::CONSTS);
            let entry = std::mem::size_of::<runtime::ConstBuffer>() * dim;
            let words = b
                .ins()
                .load(self.ptr, mem, table, entry as i32 + field::CONST_WORDS);
            self.const_bases.insert(dim as i32, words);
        }
    }

    /// `CONST[dim][index]` channel `c` in every lane, read where it is used (x86 loads
    /// and broadcasts it in one instruction) from a buffer the host has made long enough.
    fn direct_const(&mut self, dim: i32, index: i32, c: usize) -> Option<Value> {
        let base = *self.const_bases.get(&dim)?;
        let index = usize::try_from(index)
            .ok()
            .filter(|&i| i < DIRECT_CONST_REGISTERS)?;
        // Movable: the buffer holds the register wherever the load goes.
        let mem = MemFlagsData::trusted().with_readonly().with_can_move();
        let offset = (16 * index + 4 * c) as i32;
        let w = self.b.ins().load(I32, mem, base, offset);
        Some(self.b.ins().splat(I32X4, w))
    }

    /// `CONST[dim][index]` channel `c` in every lane: 0 outside the bound buffers.
    fn load_const(&mut self, dim: i32, index: i32, c: usize) -> Value {
        if dim < 0 || index < 0 {
            return self.b.splat_word(0);
        }
        let b = &mut *self.b;
        let mem = MemFlagsData::trusted().with_readonly();
        let nbufs = b.ins().load(I64, mem, self.frame, field::NUM_CONSTS);
        let dim_v = b.ins().iconst(I64, i64::from(dim));
        let ok_buf = b.ins().icmp(IntCC::UnsignedLessThan, dim_v, nbufs);
        let table = b.ins().load(self.ptr, mem, self.frame, field::CONSTS);
        // Buffer `dim` of the table, or the frame's empty buffer when it is not bound.
        let entry_size = std::mem::size_of::<runtime::ConstBuffer>() as i64;
        let bound = b.ins().iadd_imm_s(table, i64::from(dim) * entry_size);
        let unbound = b.ins().iadd_imm_s(self.frame, i64::from(field::NO_BUFFER));
        let entry = b.ins().select(ok_buf, bound, unbound);
        let zero_words = b.ins().iadd_imm_s(self.frame, i64::from(field::ZERO));
        let len = b.ins().load(I64, mem, entry, field::CONST_LEN);
        let idx = b.ins().iconst(I64, i64::from(index));
        let ok = b.ins().icmp(IntCC::UnsignedLessThan, idx, len);
        let words = b.ins().load(self.ptr, mem, entry, field::CONST_WORDS);
        let addr = b
            .ins()
            .iadd_imm_s(words, i64::from(index) * 16 + 4 * c as i64);
        let addr = b.ins().select(ok, addr, zero_words);
        let w = b.ins().load(I32, MemFlagsData::trusted(), addr, 0);
        b.ins().splat(I32X4, w)
    }

    /// Compute programs: where a call resuming after barrier `k` (`Frame::resume`) goes,
    /// chosen at the entry; the blocks start at the barriers ([`Translator::barrier`]).
    fn resume_entries(&mut self) {
        if self.program.processor != tgsi::Processor::Compute {
            return;
        }
        let Ok(barriers) = support::barriers(self.program) else {
            return;
        };
        if barriers.is_empty() {
            return;
        }
        let resume = self
            .b
            .ins()
            .load(I32, MemFlagsData::trusted(), self.frame, field::RESUME);
        let insts = &self.program.insts;
        // The temporaries a stretch of the program writes.
        let written = |range: &[Inst]| -> Vec<usize> {
            let mut out = BTreeSet::new();
            for d in range.iter().flat_map(|inst| &inst.dst) {
                if d.file != RegFile::Temp {
                    continue;
                }
                match (d.indirect.is_some(), usize::try_from(d.index)) {
                    (false, Ok(i)) => {
                        out.insert(i);
                    }
                    // Any of them (not reached: such programs keep temporaries in memory).
                    _ => out.extend(0..self.sizes[0]),
                }
            }
            out.into_iter().filter(|&i| i < self.sizes[0]).collect()
        };
        let mut from = 0;
        for (k, pc) in (1u32..).zip(barriers) {
            let block = self.b.create_block();
            let next = self.b.create_block();
            let here = self.b.ins().icmp_imm_u(IntCC::Equal, resume, i64::from(k));
            self.b.ins().brif(here, block, &[], next, &[]);
            self.b.switch_to_block(next);
            let before = written(insts.get(..pc).unwrap_or_default());
            let live = live_after(insts, pc + 1, self.sizes[0]);
            let reload = before
                .iter()
                .filter_map(|&i| live.get(i).filter(|&&m| m != 0).map(|&m| (i, m)))
                .collect();
            let stop = Resume {
                number: k,
                block,
                spill: written(insts.get(from..pc).unwrap_or_default()),
                reload,
            };
            self.resumes.insert(pc, stop);
            from = pc + 1;
        }
    }

    /// A top-level BARRIER or MEMBAR of a compute program: leave everything in the machine
    /// (temporaries, the lanes that have not returned, the count) and return
    /// [`status::BARRIER`]; a call resuming after it starts in its block, which reloads the
    /// temporaries (every other mask is full at the top level).
    fn barrier(&mut self, stop: &Resume) {
        for &i in &stop.spill {
            self.spill(i);
        }
        self.flush();
        let func = self.get_mask(self.func);
        let bits = self.mask_bits(&func);
        let b = &mut *self.b;
        let mem = MemFlagsData::trusted();
        b.ins().store(mem, bits, self.frame, field::ACTIVE);
        let k = b.ins().iconst(I32, i64::from(stop.number));
        b.ins().store(mem, k, self.frame, field::RESUME);
        self.return_counted(status::BARRIER);
        self.b.switch_to_block(stop.block);
        for &(i, channels) in &stop.reload {
            self.reload_channels(i, channels);
        }
    }

    /// Count executed instructions not yet added to the counter; in programs counted by
    /// sites, mark this site passed instead.
    fn flush(&mut self) {
        if self.pending == 0 {
            return;
        }
        match &mut self.sites {
            Some((visited, lengths)) => {
                let site = lengths.len() as i32;
                lengths.push(self.pending.max(0) as u32);
                let one = self.b.ins().iconst(I8, 1);
                self.b
                    .ins()
                    .store(MemFlagsData::trusted(), one, *visited, site);
            }
            None => {
                let e = self.b.use_var(self.executed);
                let e = self.b.ins().iadd_imm_s(e, self.pending);
                self.b.def_var(self.executed, e);
            }
        }
        self.pending = 0;
    }

    /// Jump to `target` (counting first) and continue in `next`.
    fn jump_and_switch(&mut self, target: Block, next: Block) {
        self.flush();
        self.b.ins().jump(target, &[]);
        self.b.switch_to_block(next);
    }

    /// Store the instruction count in the frame and return `ok`, or [`status::BUDGET`] when
    /// the count passes the budget.
    fn return_counted(&mut self, ok: i32) {
        let b = &mut *self.b;
        let mem = MemFlagsData::trusted();
        let executed = b.use_var(self.executed);
        b.ins().store(mem, executed, self.frame, field::EXECUTED);
        let budget = b.ins().load(I64, mem, self.frame, field::BUDGET);
        let over = b.ins().icmp(IntCC::UnsignedGreaterThan, executed, budget);
        let ok = b.ins().iconst(I32, i64::from(ok));
        let out = b.ins().iconst(I32, i64::from(status::BUDGET));
        let st = b.ins().select(over, out, ok);
        b.ins().return_(&[st]);
    }

    /// The exit paths: results to the frame, the budget check, the status.
    fn finish(&mut self) {
        self.b.switch_to_block(self.exit);
        let kill = self.get_mask(self.kill);
        let bits = self.mask_bits(&kill);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), bits, self.frame, field::KILL);
        self.return_counted(status::DONE);
        let b = &mut *self.b;
        b.switch_to_block(self.host_error);
        let st = b.ins().iconst(I32, i64::from(status::HOST_ERROR));
        b.ins().return_(&[st]);
        b.seal_all_blocks();
    }

    /// The lane bits of a mask (bit `4k + l` for lane `l` of chunk `k`).
    fn mask_bits(&mut self, m: &Channel) -> Value {
        let mut bits = self.b.ins().iconst(I32, 0);
        for (k, &v) in m.iter().enumerate() {
            let hb = self.b.ins().vhigh_bits(I32, v);
            let hb = self.b.ins().ishl_imm_u(hb, (CHUNK * k) as i64);
            bits = self.b.ins().bor(bits, hb);
        }
        bits
    }

    /// The execution mask of chunk `k`.
    fn exec(&mut self, k: usize) -> Value {
        self.exec_all()[k]
    }

    /// The execution mask of every chunk (computed once per block and mask change).
    fn exec_all(&mut self) -> Channel {
        let block = self.b.current_block();
        if let (Some((b, m)), Some(block)) = (&self.exec_cache, block) {
            if *b == block {
                return m.clone();
            }
        }
        let m: Channel = (0..self.g)
            .map(|k| {
                let b = &mut *self.b;
                let c = b.use_var(self.cond[k]);
                let l = b.use_var(self.loop_[k]);
                let t = b.use_var(self.cont[k]);
                let f = b.use_var(self.func[k]);
                let cl = b.ins().band(c, l);
                let tf = b.ins().band(t, f);
                b.ins().band(cl, tf)
            })
            .collect();
        self.exec_cache = block.map(|b| (b, m.clone()));
        m
    }

    /// Whether any lane of `m` is set (an `i8`).
    fn any_of(&mut self, m: &Channel) -> Value {
        let mut acc = m[0];
        for &v in &m[1..] {
            acc = self.b.ins().bor(acc, v);
        }
        self.b.any(acc)
    }

    /// After a BRK: when no lane is left in the innermost loop (every lane has left it or
    /// returned), go to the loop's end at once, counting what the interpreter counts on
    /// the way there with no lane executing ([`Program::dead_loop_tail`]), with the
    /// condition mask the loop's end would have (that before the outermost IF around the
    /// BRK inside the loop): the rest of a loop's last pass costs nothing. Lanes that never
    /// entered the loop keep their loop bits, so the test holds for loops every running
    /// lane entered (those outside any IF).
    fn leave_dead_loop(&mut self) {
        let Some(tail) = self.program.dead_loop_tail(self.pc) else {
            return;
        };
        let Some(loop_at) = self
            .opens
            .iter()
            .rposition(|o| matches!(o, Open::Loop { .. }))
        else {
            return;
        };
        let outer_if = match self.opens.get(loop_at + 1) {
            Some(Open::If { saved, .. }) => Some(*saved),
            _ => None,
        };
        let Open::Loop { dead, .. } = &mut self.opens[loop_at] else {
            return;
        };
        let dead = *dead.get_or_insert_with(|| self.b.create_block());
        let left: Channel = (0..self.g)
            .map(|k| {
                let l = self.b.use_var(self.loop_[k]);
                let f = self.b.use_var(self.func[k]);
                self.b.ins().band(l, f)
            })
            .collect();
        let any = self.any_of(&left);
        let (skip, go_on) = (self.b.create_block(), self.b.create_block());
        self.flush();
        self.b.ins().brif(any, go_on, &[], skip, &[]);
        self.b.switch_to_block(skip);
        self.b.seal_block(skip);
        if let Some(saved) = outer_if {
            let cond = self.get_mask(saved);
            self.set_mask(self.cond, &cond);
        }
        self.pending = tail as i64 - 1;
        self.flush();
        self.b.ins().jump(dead, &[]);
        self.b.switch_to_block(go_on);
        self.b.seal_block(go_on);
    }

    /// Copy mask variables.
    fn copy_mask(&mut self, from: Mask) -> Mask {
        let mut to = from;
        for k in 0..self.g {
            let v = self.b.use_var(from[k]);
            to[k] = self.b.declare_var(I32X4);
            self.b.def_var(to[k], v);
        }
        to
    }

    /// Set mask variables.
    fn set_mask(&mut self, m: Mask, v: &Channel) {
        self.exec_cache = None;
        for k in 0..self.g {
            self.b.def_var(m[k], v[k]);
        }
    }

    /// Read mask variables.
    fn get_mask(&mut self, m: Mask) -> Channel {
        (0..self.g).map(|k| self.b.use_var(m[k])).collect()
    }

    /// Translate instruction `pc`.
    fn instruction(&mut self, pc: usize) {
        let inst = &self.program.insts[pc];
        self.pc = pc;
        self.rows.clear();
        self.spilled.clear();
        self.pending += 1;
        if pc < self.run_end {
            // Translated with the first instruction of its run.
            return;
        }
        if let Some(&n) = self.runs.get(&pc) {
            self.run_end = pc + n;
            self.transcendentals(pc, n);
            return;
        }
        match inst.kind {
            Kind::Flow(flow) => self.flow(inst, flow),
            Kind::Sync => {
                if let Some(stop) = self.resumes.remove(&pc) {
                    self.barrier(&stop);
                }
            }
            Kind::Nop => {}
            Kind::Kill => {
                for k in 0..self.g {
                    let e = self.exec(k);
                    let old = self.b.use_var(self.kill[k]);
                    let n = self.b.ins().bor(old, e);
                    self.b.def_var(self.kill[k], n);
                }
            }
            Kind::KillIf => {
                let exec = self.exec_all();
                for c in 0..4 {
                    let v = self.fetch(&inst.src[0], c);
                    for k in 0..self.g {
                        let zero = self.b.splat_word(0);
                        let neg = self.b.fcmp_mask(FloatCC::LessThan, v[k], zero);
                        let hit = self.b.ins().band(neg, exec[k]);
                        let old = self.b.use_var(self.kill[k]);
                        let n = self.b.ins().bor(old, hit);
                        self.b.def_var(self.kill[k], n);
                    }
                }
            }
            Kind::Load | Kind::Store if support::memory_space(inst).is_some() => {
                if let Some(space) = support::memory_space(inst) {
                    self.memory(inst, space);
                }
            }
            _ if support::runs_on_step(inst) => self.step(pc, inst),
            Kind::Texture => self.texture(pc, inst),
            Kind::Component(_) => self.component(pc, inst),
            Kind::Vector(_) => self.vector(pc, inst),
            Kind::Deriv(d) => self.deriv(inst, d),
            Kind::Wide(op) => self.wide(inst, op.f),
            _ => self.step(pc, inst),
        }
    }

    /// Control flow, with the interpreter's mask rules.
    fn flow(&mut self, inst: &Inst, flow: Flow) {
        match flow {
            Flow::If { int } => {
                let v = self.fetch(&inst.src[0], 0);
                let saved = self.copy_mask(self.cond);
                let mut cond = self.get_mask(self.cond);
                for k in 0..self.g {
                    let zero = self.b.splat_word(0);
                    let taken = match known::nonzero_mask(self.b.func, v[k], !int) {
                        Some(mask) => mask,
                        None if int => self.b.ins().icmp(IntCC::NotEqual, v[k], zero),
                        None => self.b.fcmp_mask(FloatCC::NotEqual, v[k], zero),
                    };
                    cond[k] = self.b.ins().band(cond[k], taken);
                }
                self.set_mask(self.cond, &cond);
                // The interpreter's rule: a side no lane executes is skipped.
                let exec = self.exec_all();
                let any = self.any_of(&exec);
                let has_else = matches!(
                    self.program.insts.get(inst.target).map(|i| i.kind),
                    Some(Kind::Flow(Flow::Else))
                );
                let else_block = has_else.then(|| self.b.create_block());
                let end = self.b.create_block();
                let then = self.b.create_block();
                self.flush();
                self.b
                    .ins()
                    .brif(any, then, &[], else_block.unwrap_or(end), &[]);
                self.b.switch_to_block(then);
                // Each block of an IF is sealed once its predecessors are all known, so that
                // a register read in it is the value written before the IF, with what is
                // known of that value (`known::nonzero_mask`), not a new block parameter.
                self.b.seal_block(then);
                self.opens.push(Open::If {
                    saved,
                    else_block,
                    end,
                });
            }
            Flow::Else => {
                let Some(Open::If {
                    saved,
                    else_block: Some(else_block),
                    end,
                }) = self.opens.last()
                else {
                    return;
                };
                let (saved, else_block, end) = (*saved, *else_block, *end);
                // The ELSE itself was counted by `instruction`; count it on its own block.
                self.pending -= 1;
                self.jump_and_switch(else_block, else_block);
                self.b.seal_block(else_block);
                self.pending += 1;
                let prev = self.get_mask(saved);
                let cond = self.get_mask(self.cond);
                let new: Channel = (0..self.g)
                    .map(|k| self.b.ins().band_not(prev[k], cond[k]))
                    .collect();
                self.set_mask(self.cond, &new);
                let exec = self.exec_all();
                let any = self.any_of(&exec);
                let body = self.b.create_block();
                self.flush();
                self.b.ins().brif(any, body, &[], end, &[]);
                self.b.switch_to_block(body);
                self.b.seal_block(body);
            }
            Flow::EndIf => {
                let Some(Open::If { saved, end, .. }) = self.opens.pop() else {
                    return;
                };
                self.pending -= 1;
                self.jump_and_switch(end, end);
                self.b.seal_block(end);
                self.pending += 1;
                let prev = self.get_mask(saved);
                self.set_mask(self.cond, &prev);
            }
            Flow::BgnLoop => {
                let saved_loop = self.copy_mask(self.loop_);
                let saved_cont = self.copy_mask(self.cont);
                let body = self.b.create_block();
                let exit = self.b.create_block();
                self.jump_and_switch(body, body);
                self.opens.push(Open::Loop {
                    saved_loop,
                    saved_cont,
                    body,
                    exit,
                    dead: None,
                });
            }
            Flow::EndLoop => {
                let Some(Open::Loop {
                    saved_loop,
                    saved_cont,
                    body,
                    exit,
                    dead,
                }) = self.opens.pop()
                else {
                    return;
                };
                if let Some(dead) = dead {
                    // The loop's end is also where a BRK that leaves no lane in the loop
                    // goes, counted there but for this ENDLOOP.
                    self.pending -= 1;
                    self.jump_and_switch(dead, dead);
                    self.pending = 1;
                }
                let cont = self.get_mask(saved_cont);
                self.set_mask(self.cont, &cont);
                let exec = self.exec_all();
                let any = self.any_of(&exec);
                let again = self.b.create_block();
                let leave = self.b.create_block();
                self.flush();
                self.b.ins().brif(any, again, &[], leave, &[]);
                // Loop again, unless the budget is spent.
                self.b.switch_to_block(again);
                let executed = self.b.use_var(self.executed);
                let budget =
                    self.b
                        .ins()
                        .load(I64, MemFlagsData::trusted(), self.frame, field::BUDGET);
                let over = self
                    .b
                    .ins()
                    .icmp(IntCC::UnsignedGreaterThan, executed, budget);
                self.b.ins().brif(over, self.exit, &[], body, &[]);
                self.b.switch_to_block(leave);
                let l = self.get_mask(saved_loop);
                self.set_mask(self.loop_, &l);
                let c = self.get_mask(saved_cont);
                self.set_mask(self.cont, &c);
                self.jump_and_switch(exit, exit);
            }
            Flow::Brk => {
                let exec = self.exec_all();
                for (k, e) in exec.into_iter().enumerate() {
                    let l = self.b.use_var(self.loop_[k]);
                    let n = self.b.ins().band_not(l, e);
                    self.b.def_var(self.loop_[k], n);
                }
                self.exec_cache = None;
                self.leave_dead_loop();
            }
            Flow::Cont => {
                let exec = self.exec_all();
                for (k, e) in exec.into_iter().enumerate() {
                    let c = self.b.use_var(self.cont[k]);
                    let n = self.b.ins().band_not(c, e);
                    self.b.def_var(self.cont[k], n);
                }
                self.exec_cache = None;
            }
            Flow::Ret => {
                let exec = self.exec_all();
                let func = self.get_mask(self.func);
                let new: Channel = (0..self.g)
                    .map(|k| self.b.ins().band_not(func[k], exec[k]))
                    .collect();
                self.set_mask(self.func, &new);
                let any = self.any_of(&new);
                let next = self.b.create_block();
                self.flush();
                self.b.ins().brif(any, next, &[], self.exit, &[]);
                self.b.switch_to_block(next);
            }
            Flow::End => {
                let dead = self.b.create_block();
                self.jump_and_switch(self.exit, dead);
            }
            // Rejected by `support::unsupported`.
            _ => {}
        }
    }

    /// Channel `chan` (after swizzle) of a directly addressed source, with modifiers
    /// (applied at compile time to a constant, so that it stays one).
    fn fetch(&mut self, s: &SrcOp, chan: usize) -> Channel {
        let c = s.swizzle[chan & 3] as usize & 3;
        let v = match s.indirect {
            Some(ind) if s.file == RegFile::Const => self.gather_const(s, ind, c),
            Some(ind) if s.file == RegFile::Temp => self.gather_temp(s, ind, c),
            _ => self.read(s.file, s.index, s.dim, c),
        };
        if !s.abs && !s.neg {
            return v;
        }
        let float_neg = s.ty.is_float_like();
        v.into_iter()
            .map(|x| {
                if let Some(w) = known::constant(self.b.func, x) {
                    let w = if s.abs { w & 0x7fff_ffff } else { w };
                    let w = match (s.neg, float_neg) {
                        (false, _) => w,
                        (true, true) => w ^ 0x8000_0000,
                        (true, false) => w.wrapping_neg(),
                    };
                    return self.b.splat_word(w);
                }
                let k = self.known(x);
                let mut x = x;
                if s.abs {
                    let m = self.b.splat_word(0x7fff_ffff);
                    x = self.b.ins().band(x, m);
                }
                if s.neg && float_neg {
                    let m = self.b.splat_word(0x8000_0000);
                    x = self.b.ins().bxor(x, m);
                } else if s.neg {
                    return self.b.ins().ineg(x);
                }
                // Changing the sign keeps a NaN, and its kind.
                self.note(x, k);
                x
            })
            .collect()
    }

    /// What is known of `v`.
    fn known(&self, v: Value) -> Known {
        match self.known.get(&v) {
            Some(&k) => k,
            None => known::constant(self.b.func, v).map_or(Known::Any, Known::of_word),
        }
    }

    /// Record that `v` is known to be `k`.
    fn note(&mut self, v: Value, k: Known) {
        if k > self.known(v) {
            self.known.insert(v, k);
        }
    }

    /// The memory offset of register `index`, channel `c`, chunk `k` of a per-lane file.
    fn offset(index: usize, c: usize, k: usize) -> i32 {
        index as i32 * REGISTER_BYTES + c as i32 * CHANNEL_BYTES + (k * CHUNK * 4) as i32
    }

    /// Whether register `index` of per-lane file `f` exists (2-D index `dim`).
    fn in_range(&self, f: usize, index: i32, dim: i32) -> Option<usize> {
        let index = usize::try_from(index).ok()?;
        if f == 1 && dim != 0 {
            return None;
        }
        (index < self.sizes[f]).then_some(index)
    }

    /// Raw words of channel `c` of a directly addressed register.
    fn read(&mut self, file: RegFile, index: i32, dim: i32, c: usize) -> Channel {
        match file {
            RegFile::Imm => {
                let w = usize::try_from(index)
                    .ok()
                    .and_then(|i| self.program.imms.get(i))
                    .map_or(0, |v| v[c]);
                let v = self.b.splat_word(w);
                vec![v; self.g]
            }
            RegFile::Const => {
                let v = match self.direct_const(dim, index, c) {
                    Some(v) => v,
                    None => self.load_const(dim, index, c),
                };
                vec![v; self.g]
            }
            _ => {
                let Some(f) = file.lane_file() else {
                    let v = self.b.splat_word(0);
                    return vec![v; self.g];
                };
                let Some(i) = self.in_range(f, index, dim) else {
                    let v = self.b.splat_word(0);
                    return vec![v; self.g];
                };
                if let (0, Some(vars), false) = (f, &self.temps, self.memory.contains(&i)) {
                    let g = self.g;
                    let vars: Vec<Variable> = (0..g).map(|k| vars[(i * 4 + c) * g + k]).collect();
                    return vars.iter().map(|&v| self.b.use_var(v)).collect();
                }
                let base = self.files[f];
                // Nothing writes inputs and system values during a call (they are not
                // writable: `Program::compile`), so their loads are free to move: each is
                // placed by its use rather than where the instruction reading it stands
                // (where a long program's loads of many inputs would all come first and
                // stay live across it).
                let flags = match file {
                    RegFile::Input | RegFile::SystemValue => {
                        mem_flags().with_readonly().with_can_move()
                    }
                    _ => mem_flags(),
                };
                (0..self.g)
                    .map(|k| self.b.ins().load(I32X4, flags, base, Self::offset(i, c, k)))
                    .collect()
            }
        }
    }

    /// Write channel `c` of a directly addressed destination for the lanes in `exec` (in
    /// every lane when [`tgsi_exec::unblended`] says no lane needs the old value).
    fn write(&mut self, d: &DstOp, c: usize, vals: &Channel, exec: &Channel) {
        debug_assert!(d.indirect.is_none(), "indirect destinations: scatter_temp");
        self.rows.clear();
        let Some(f) = d.file.lane_file() else { return };
        let Some(i) = self.in_range(f, d.index, 0) else {
            return;
        };
        let unmasked = f == 0
            && self
                .unmasked
                .get(self.pc)
                .is_some_and(|m| m & (1 << c) != 0);
        if unmasked {
            self.put(d, c, vals);
            return;
        }
        if let (0, Some(vars), false) = (f, &self.temps, self.memory.contains(&i)) {
            let g = self.g;
            let vars: Vec<Variable> = (0..g).map(|k| vars[(i * 4 + c) * g + k]).collect();
            for k in 0..self.g {
                let old = self.b.use_var(vars[k]);
                let n = self.b.ins().blendv(exec[k], vals[k], old);
                let either = self.known(vals[k]).either(self.known(old));
                self.note(n, either);
                self.b.def_var(vars[k], n);
            }
            self.refresh(i, c / 2);
            return;
        }
        let base = self.files[f];
        for k in 0..self.g {
            let off = Self::offset(i, c, k);
            let old = self.b.ins().load(I32X4, mem_flags(), base, off);
            let n = self.b.ins().blendv(exec[k], vals[k], old);
            self.b.ins().store(mem_flags(), n, base, off);
        }
    }

    /// Set channel `c` of a directly addressed destination in every lane.
    fn put(&mut self, d: &DstOp, c: usize, vals: &Channel) {
        self.rows.clear();
        let Some(f) = d.file.lane_file() else { return };
        let Some(i) = self.in_range(f, d.index, 0) else {
            return;
        };
        if let (0, Some(vars), false) = (f, &self.temps, self.memory.contains(&i)) {
            let g = self.g;
            let vars: Vec<Variable> = (0..g).map(|k| vars[(i * 4 + c) * g + k]).collect();
            for (&var, &v) in vars.iter().zip(vals) {
                self.b.def_var(var, v);
            }
            self.refresh(i, c / 2);
            return;
        }
        let base = self.files[f];
        for (k, &v) in vals.iter().enumerate() {
            self.b
                .ins()
                .store(mem_flags(), v, base, Self::offset(i, c, k));
        }
    }

    /// Write every channel of `out` enabled in `dst0`'s write mask, saturating as the
    /// instruction says.
    fn write_all(&mut self, inst: &Inst, out: &[Option<Channel>; 4]) {
        let Some(dst) = inst.dst.first().copied() else {
            return;
        };
        let exec = self.exec_all();
        let mut vals_of: [Option<Channel>; 4] = Default::default();
        for (c, vals) in out.iter().enumerate() {
            let Some(mut vals) = vals.clone() else {
                continue;
            };
            if dst.mask & (1 << c) == 0 {
                continue;
            }
            if inst.saturate && !dst.ty.is_64bit() {
                vals = vals.iter().map(|&v| self.saturate(v)).collect();
            }
            vals_of[c] = Some(vals);
        }
        if let (RegFile::Temp, Some(ind)) = (dst.file, dst.indirect) {
            self.scatter_temp(&dst, ind, &vals_of, &exec);
            return;
        }
        for (c, vals) in vals_of.iter().enumerate() {
            if let Some(vals) = vals {
                self.write(&dst, c, vals, &exec);
            }
        }
    }

    /// `x` saturated; the result is never a NaN.
    fn saturate(&mut self, x: Value) -> Value {
        let k = self.known(x);
        let r = self.b.saturate(x, k);
        self.note(r, Known::Number);
        r
    }

    /// A component-wise opcode: natively, or through the interpreter's lane kernel.
    fn component(&mut self, pc: usize, inst: &Inst) {
        let mut mask = inst.dst.first().map_or(0, |d| d.mask);
        // Whole pairs that a MOV copies from a temporary kept as 64-bit values move as such.
        let mut moved = Vec::new();
        let direct_dst = inst.dst.first().is_some_and(|d| d.indirect.is_none());
        if let (Opcode::MOV, false, true, Some(src)) =
            (inst.opcode, inst.saturate, direct_dst, inst.src.first())
        {
            for p in 0..2 {
                let both = 3 << (2 * p);
                let vars = (!src.abs && !src.neg && mask & both == both)
                    .then(|| self.shadow_of(src, p))
                    .flatten();
                if let Some(vars) = vars {
                    let vals: Vec<Quad64> = vars
                        .iter()
                        .map(|v| v.map(|var| self.b.use_var(var)))
                        .collect();
                    moved.push((p, vals));
                    mask &= !both;
                }
            }
        }
        let second = self.immediate_second(inst);
        let mut out: [Option<Channel>; 4] = Default::default();
        for (c, o) in out.iter_mut().enumerate() {
            if mask & (1 << c) == 0 {
                continue;
            }
            let srcs: Vec<Channel> = inst.src.iter().take(4).map(|s| self.fetch(s, c)).collect();
            let knowns: Vec<Vec<Known>> = (0..self.g)
                .map(|k| srcs.iter().map(|s| self.known(s[k])).collect())
                .collect();
            let native: Option<Channel> = (0..self.g)
                .map(|k| {
                    let args: Vec<Value> = srcs.iter().map(|s| s[k]).collect();
                    let second = second.map(|s| s[c]);
                    native::component(self.b, inst.opcode, &args, &knowns[k], second)
                })
                .collect();
            *o = Some(match native {
                Some(ch) => {
                    for (&v, kn) in ch.iter().zip(&knowns) {
                        self.note(v, known::result(inst.opcode, kn));
                    }
                    ch
                }
                None => {
                    for (k, s) in srcs.iter().enumerate() {
                        self.store_scratch(k as i32 * CHANNEL_BYTES, s);
                    }
                    self.call_kernel(runtime::component as *const () as usize, pc, SCRATCH_OUT);
                    self.load_scratch(SCRATCH_OUT)
                }
            });
        }
        self.write_all(inst, &out);
        if let (false, Some(dst)) = (moved.is_empty(), inst.dst.first()) {
            let exec = self.exec_all();
            for (p, vals) in moved {
                self.write_pair(dst, p, &vals, &exec);
            }
        }
    }

    /// The second source's words when it is an immediate without modifiers (per channel):
    /// shift counts and divisors compile to simpler code.
    fn immediate_second(&self, inst: &Inst) -> Option<[u32; 4]> {
        let s = inst.src.get(1)?;
        if s.file != RegFile::Imm || s.abs || s.neg {
            return None;
        }
        let imm = self.program.imms.get(usize::try_from(s.index).ok()?)?;
        Some(std::array::from_fn(|c| imm[s.swizzle[c] as usize & 3]))
    }

    /// The result of a replicated opcode (one channel's lanes) written to every channel
    /// of `inst`'s destination mask.
    fn write_replicated(&mut self, inst: &Inst, ch: Channel) {
        for &v in &ch {
            self.note(v, known::result(inst.opcode, &[]));
        }
        let out = [
            Some(ch.clone()),
            Some(ch.clone()),
            Some(ch.clone()),
            Some(ch),
        ];
        self.write_all(inst, &out);
    }

    /// A whole-vector opcode: natively when replicated and simple, else through the
    /// interpreter's per-lane function.
    fn vector(&mut self, pc: usize, inst: &Inst) {
        let srcs: Vec<[Channel; 4]> = inst
            .src
            .iter()
            .take(3)
            .map(|s| std::array::from_fn(|c| self.fetch(s, c)))
            .collect();
        let native: Option<Channel> = (0..self.g)
            .map(|k| {
                let args: Vec<[Value; 4]> = srcs
                    .iter()
                    .map(|s| std::array::from_fn(|c| s[c][k]))
                    .collect();
                native::replicated(self.b, inst.opcode, &args, self.approximate)
            })
            .collect();
        if let Some(ch) = native {
            self.write_replicated(inst, ch);
            return;
        }
        for (k, s) in srcs.iter().enumerate() {
            for (c, ch) in s.iter().enumerate() {
                self.store_scratch((4 * k + c) as i32 * CHANNEL_BYTES, ch);
            }
        }
        self.call_kernel(runtime::vector as *const () as usize, pc, SCRATCH_OUT);
        let out: [Option<Channel>; 4] = std::array::from_fn(|c| {
            Some(self.load_scratch(SCRATCH_OUT + c as i32 * CHANNEL_BYTES))
        });
        self.write_all(inst, &out);
    }

    /// A texture instruction with direct operands: its sources and texel offsets through
    /// the scratch buffer to the interpreter's sampling of each quad with an active lane
    /// ([`runtime::texture`]), the results written as any other's; an instruction a
    /// sampling kernel may take first calls the kernel its binding has, if any, quad by
    /// quad ([`Translator::kernel_texture`]). Temporaries stay in their variables.
    fn texture(&mut self, pc: usize, inst: &Inst) {
        let offsets = inst.tex.as_ref().and_then(|t| t.offsets.as_ref());
        let mut coords: Vec<Channel> = Vec::new();
        for (k, s) in inst.src.iter().take(runtime::TEXTURE_SOURCES).enumerate() {
            for c in 0..4 {
                let ch = self.fetch(s, c);
                self.store_scratch((4 * k + c) as i32 * CHANNEL_BYTES, &ch);
                if k == 0 {
                    coords.push(ch);
                }
            }
        }
        if let Some(o) = offsets {
            for c in 0..3 {
                let ch = self.fetch(o, c);
                let at = (runtime::TEXTURE_OFFSETS_CHANNEL + c) as i32 * CHANNEL_BYTES;
                self.store_scratch(at, &ch);
            }
        }
        let exec = self.exec_all();
        let active = self.mask_bits(&exec);
        let active = self.b.ins().uextend(I64, active);
        let written = inst.opcode.written_channels();
        let coords = <[Channel; 4]>::try_from(coords);
        let out = match (self.kernel_pcs.binary_search(&pc), coords) {
            (Ok(k), Ok([s, t, _, lod])) => self.kernel_texture(k, [s, t, lod], pc, active, written),
            _ => self.host_texture(pc, active, written),
        };
        self.write_all(inst, &out);
    }

    /// The host's sampling of texture instruction `pc` ([`runtime::texture`]), its sources
    /// in the scratch buffer: the channels in `written`.
    fn host_texture(&mut self, pc: usize, active: Value, written: u8) -> [Option<Channel>; 4] {
        let texture = runtime::texture as *const () as usize;
        self.call_host(texture, pc, SCRATCH_TEXTURE_OUT, active);
        std::array::from_fn(|c| {
            (written & (1 << c) != 0)
                .then(|| self.load_scratch(SCRATCH_TEXTURE_OUT + c as i32 * CHANNEL_BYTES))
        })
    }

    /// Kernel instruction number `k` (`Frame::kernels`) with coordinates and LOD `[s, t,
    /// lod]`: its binding's kernel called for each quad straight from this code, which
    /// saves the host call; the host samples the instruction when the binding has no
    /// kernel or a quad needs the interpreter (the kernel refuses it before reading).
    fn kernel_texture(
        &mut self,
        k: usize,
        [s, t, lod]: [Channel; 3],
        pc: usize,
        active: Value,
        written: u8,
    ) -> [Option<Channel>; 4] {
        let mem = MemFlagsData::trusted();
        let channels: Vec<usize> = (0..4).filter(|c| written & (1 << c) != 0).collect();
        let merge = self.b.create_block();
        for _ in 0..channels.len() * self.g {
            self.b.append_block_param(merge, I32X4);
        }
        let host = self.b.create_block();
        let call = self.b.create_block();
        let table = self.b.ins().load(self.ptr, mem, self.frame, field::KERNELS);
        let entry = self
            .b
            .ins()
            .iadd_imm_s(table, (k * self.ptr.bytes() as usize) as i64);
        let desc = self.b.ins().load(self.ptr, mem, entry, 0);
        self.b.ins().brif(desc, call, &[], host, &[]);
        self.b.switch_to_block(call);
        self.b.seal_block(call);
        let kernel = self
            .b
            .ins()
            .load(self.ptr, mem, desc, crate::sampler::KERNEL_AT);
        let io = self.b.ins().stack_addr(self.ptr, self.kernel_io, 0);
        let mut results: Vec<Vec<Value>> = vec![Vec::new(); channels.len()];
        for q in 0..self.g {
            for (at, v) in [(0, &s), (16, &t), (32, &lod)] {
                self.b.ins().store(mem, v[q], io, at);
            }
            let status = self
                .b
                .ins()
                .call_indirect(self.calls.sample, kernel, &[desc, io]);
            let status = self.b.inst_results(status)[0];
            let next = self.b.create_block();
            self.b.ins().brif(status, host, &[], next, &[]);
            self.b.switch_to_block(next);
            self.b.seal_block(next);
            for (r, &c) in results.iter_mut().zip(&channels) {
                let at = 4 * (crate::sampler::IO_OUT + 4 * c) as i32;
                r.push(self.b.ins().load(I32X4, mem, io, at));
            }
        }
        let args: Vec<BlockArg> = results.iter().flatten().map(|&v| v.into()).collect();
        self.b.ins().jump(merge, &args);
        self.b.switch_to_block(host);
        self.b.seal_block(host);
        let sampled = self.host_texture(pc, active, written);
        let args: Vec<BlockArg> = sampled
            .iter()
            .flatten()
            .flatten()
            .map(|&v| v.into())
            .collect();
        self.b.ins().jump(merge, &args);
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        let params = self.b.block_params(merge).to_vec();
        let mut params = params.chunks_exact(self.g);
        std::array::from_fn(|c| {
            (written & (1 << c) != 0)
                .then(|| params.next().map(<[Value]>::to_vec).unwrap_or_default())
        })
    }

    /// Pair `p` (channels 2p, 2p+1 after swizzle) of a directly addressed 64-bit source,
    /// with the 64-bit modifiers: the sign of a double, or integer abs/negate.
    fn fetch_pair(&mut self, s: &SrcOp, p: usize) -> Vec<Quad64> {
        let float = s.ty == OperandType::F64;
        let word =
            |t: &mut Self, c: usize| t.read(s.file, s.index, s.dim, s.swizzle[c] as usize & 3);
        // The channels are read only where needed, so a pair kept whole stays unsplit.
        let pairs: Vec<Quad64> = match self.shadow_of(s, p) {
            Some(vars) => vars
                .iter()
                .map(|v| v.map(|var| self.b.use_var(var)))
                .collect(),
            None => {
                let (lo, hi) = (word(self, 2 * p), word(self, 2 * p + 1));
                lo.into_iter()
                    .zip(hi)
                    .map(|(l, h)| self.pair_of(l, h))
                    .collect()
            }
        };
        let high = (s.abs && !float).then(|| word(self, 2 * p + 1));
        pairs
            .into_iter()
            .enumerate()
            .map(|(k, mut v)| {
                if s.abs && float {
                    v = nw::bitwise(self.b, v, !nw::SIGN, false);
                } else if let Some(high) = &high {
                    // (x ^ m) − m with m the sign of each value, from its high word.
                    let n = self.b.ins().iconst(I32, 31);
                    let sign = self.b.ins().sshr(high[k], n);
                    let m = nw::join(self.b, sign, sign);
                    v = [0, 1].map(|i| {
                        let x = self.b.ins().bxor(v[i], m[i]);
                        self.b.ins().isub(x, m[i])
                    });
                }
                if s.neg && float {
                    v = nw::bitwise(self.b, v, nw::SIGN, true);
                } else if s.neg {
                    v = v.map(|x| self.b.ins().ineg(x));
                }
                v
            })
            .collect()
    }

    /// The 64-bit values whose low and high words are `lo` and `hi`: the vectors they were
    /// split from when a 64-bit instruction wrote them (those are computed just before
    /// them, so they are available wherever `lo` and `hi` are), else joined.
    fn pair_of(&mut self, lo: Value, hi: Value) -> Quad64 {
        match self.pairs.get(&(lo, hi)) {
            Some(&v) => v,
            None => nw::join(self.b, lo, hi),
        }
    }

    /// A 64-bit instruction on channel pairs, in the interpreter's shapes: pair → pair
    /// (channels 2p, 2p+1), pair → word (one source: channel p; comparisons: the first
    /// enabled channel of pair p), word → pair (source channel p, or 2p beside 64-bit
    /// sources). Natively ([`crate::native_wide`]) or through `kernel` per lane; every
    /// result is computed before any is written.
    fn wide(&mut self, inst: &Inst, kernel: fn([u64; 3]) -> u64) {
        let info = inst.opcode.info();
        let Some(dst) = inst.dst.first().copied() else {
            return;
        };
        let dst64 = info.dst_type(0).is_64bit();
        let dsat = dst64 && inst.saturate && info.dst_type(0) == OperandType::F64;
        let any64 = inst.src.iter().any(|s| s.ty.is_64bit());
        // (pair, the word channel of a 32-bit result, the results per chunk)
        let mut results = Vec::new();
        for p in 0..2 {
            let (write, word) = inst.wide_writes(p);
            if write == 0 {
                continue;
            }
            let srcs: Vec<Vec<Wide>> = inst
                .src
                .iter()
                .take(3)
                .map(|s| {
                    if s.ty.is_64bit() {
                        self.fetch_pair(s, p).into_iter().map(Wide::Pair).collect()
                    } else {
                        let chan = if any64 { 2 * p } else { p };
                        self.fetch(s, chan).into_iter().map(Wide::Word).collect()
                    }
                })
                .collect();
            let chunks: Vec<Wide> = (0..self.g)
                .map(|k| {
                    let args: Vec<Wide> = srcs.iter().map(|s| s[k]).collect();
                    let r = nw::wide(self.b, inst.opcode, &args)
                        .unwrap_or_else(|| Wide::Pair(nw::per_lane(self.b, &args, kernel)));
                    match word {
                        Some(_) => Wide::Word(nw::low_words(self.b, r)),
                        None if dsat => {
                            let v = nw::as_pair(self.b, r);
                            Wide::Pair(nw::dsaturate(self.b, v))
                        }
                        None => Wide::Pair(nw::as_pair(self.b, r)),
                    }
                })
                .collect();
            results.push((p, word, chunks));
        }
        // Words are saturated as floats only when the result is 32-bit; doubles were
        // saturated above.
        let sat32 = !dst64 && inst.saturate && !dst.ty.is_64bit();
        let exec = self.exec_all();
        for (p, word, chunks) in results {
            if let Some(c) = word {
                let mut vals: Channel = chunks
                    .into_iter()
                    .map(|r| nw::low_words(self.b, r))
                    .collect();
                if sat32 {
                    vals = vals.iter().map(|&v| self.saturate(v)).collect();
                }
                self.write(&dst, c, &vals, &exec);
                continue;
            }
            let pairs: Vec<Quad64> = chunks.into_iter().map(|r| nw::as_pair(self.b, r)).collect();
            if dst.mask & (3 << (2 * p)) == 3 << (2 * p) {
                self.write_pair(&dst, p, &pairs, &exec);
                continue;
            }
            let (lo, hi): (Channel, Channel) = pairs.iter().map(|&v| nw::split(self.b, v)).unzip();
            for (c, vals) in [(2 * p, lo), (2 * p + 1, hi)] {
                if dst.mask & (1 << c) != 0 {
                    self.write(&dst, c, &vals, &exec);
                }
            }
        }
    }

    /// Write 64-bit values to both channels of pair `p` of a directly addressed destination
    /// for the lanes in `exec`, blending as 64-bit values (with the temporary's 64-bit copy
    /// when it has one) and remembering them for [`Translator::pair_of`].
    fn write_pair(&mut self, d: &DstOp, p: usize, vals: &[Quad64], exec: &Channel) {
        self.rows.clear();
        let Some(f) = d.file.lane_file() else { return };
        let Some(i) = self.in_range(f, d.index, 0) else {
            return;
        };
        // Written in every lane where no lane needs the old value (`tgsi_exec::unblended`),
        // else blended with it under the mask.
        let unmasked = f == 0
            && self
                .unmasked
                .get(self.pc)
                .is_some_and(|m| m & (3 << (2 * p)) == 3 << (2 * p));
        let news: Vec<Quad64> = if unmasked {
            vals.to_vec()
        } else {
            let shadow = match (f, &self.temps) {
                (0, Some(_)) => self.shadows.get(&(i, p)),
                _ => None,
            };
            let olds: Vec<Quad64> = match shadow.cloned() {
                Some(vars) => vars
                    .iter()
                    .map(|v| v.map(|var| self.b.use_var(var)))
                    .collect(),
                None => {
                    let [lo, hi] = [2 * p, 2 * p + 1].map(|c| self.read(d.file, d.index, 0, c));
                    lo.into_iter()
                        .zip(hi)
                        .map(|(l, h)| self.pair_of(l, h))
                        .collect()
                }
            };
            vals.iter()
                .zip(olds)
                .zip(exec)
                .map(|((v, old), &e)| {
                    let e = nw::join(self.b, e, e);
                    [0, 1].map(|h| self.b.ins().blendv(e[h], v[h], old[h]))
                })
                .collect()
        };
        let (mut lo, mut hi) = (Vec::new(), Vec::new());
        for new in news {
            let (l, h) = nw::split(self.b, new);
            self.pairs.insert((l, h), new);
            lo.push(l);
            hi.push(h);
        }
        self.put(d, 2 * p, &lo);
        self.put(d, 2 * p + 1, &hi);
    }

    /// Quad derivatives: each chunk is one quad (TL, TR, BL, BR).
    fn deriv(&mut self, inst: &Inst, d: Deriv) {
        let mask = inst.dst.first().map_or(0, |d| d.mask);
        let (hi, lo) = match d {
            Deriv::CoarseX => ([3, 3, 3, 3], [2, 2, 2, 2]),
            Deriv::CoarseY => ([2, 2, 2, 2], [0, 0, 0, 0]),
            Deriv::FineX => ([1, 1, 3, 3], [0, 0, 2, 2]),
            Deriv::FineY => ([2, 3, 2, 3], [0, 1, 0, 1]),
        };
        let mut out: [Option<Channel>; 4] = Default::default();
        for (c, o) in out.iter_mut().enumerate() {
            if mask & (1 << c) == 0 {
                continue;
            }
            let v = self.fetch(&inst.src[0], c);
            *o = Some(
                v.iter()
                    .map(|&x| {
                        let a = self.b.lanes(x, hi);
                        let b = self.b.lanes(x, lo);
                        let (af, bf) = (self.b.f(a), self.b.f(b));
                        let r = self.b.ins().fsub(af, bf);
                        self.b.w(r)
                    })
                    .collect(),
            );
        }
        self.write_all(inst, &out);
    }

    /// Store a channel into the scratch buffer at byte `at`.
    fn store_scratch(&mut self, at: i32, v: &Channel) {
        for (k, &x) in v.iter().enumerate() {
            self.b.ins().store(
                MemFlagsData::trusted(),
                x,
                self.scratch,
                at + (k * CHUNK * 4) as i32,
            );
        }
    }

    /// Load a channel from the scratch buffer at byte `at`.
    fn load_scratch(&mut self, at: i32) -> Channel {
        (0..self.g)
            .map(|k| {
                self.b.ins().load(
                    I32X4,
                    MemFlagsData::trusted(),
                    self.scratch,
                    at + (k * CHUNK * 4) as i32,
                )
            })
            .collect()
    }

    /// Call a kernel host function `(host, pc, out, src, lanes)` with the scratch buffer.
    fn call_kernel(&mut self, func: usize, pc: usize, out_at: i32) {
        let lanes = self.b.ins().iconst(I64, (self.g * CHUNK) as i64);
        self.call_host(func, pc, out_at, lanes);
    }

    /// Call a host function `(host, pc, out, src, last)` with the scratch buffer: `out` at
    /// `out_at` in it, `src` its start.
    fn call_host(&mut self, func: usize, pc: usize, out_at: i32, last: Value) {
        let host = self
            .b
            .ins()
            .load(self.ptr, MemFlagsData::trusted(), self.frame, field::HOST);
        let pc = self.b.ins().iconst(I64, pc as i64);
        let out = self.b.ins().iadd_imm_s(self.scratch, i64::from(out_at));
        let callee = self.b.ins().iconst(self.ptr, func as i64);
        let args = [host, pc, out, self.scratch, last];
        self.b.ins().call_indirect(self.calls.kernel, callee, &args);
    }

    /// Run instruction `pc` on the interpreter's step, with the machine's memory up to date.
    fn step(&mut self, pc: usize, inst: &Inst) {
        let touched = self.touched_temps(inst);
        for &(i, _) in &touched {
            self.spill(i);
        }
        let exec = self.exec_all();
        let bits = self.mask_bits(&exec);
        // The step takes the wave's lane mask: this group's lanes start at lane 4·group.
        let group = self
            .b
            .ins()
            .load(I64, MemFlagsData::trusted(), self.frame, field::GROUP);
        let group = self.b.ins().ireduce(I32, group);
        let shift = self.b.ins().imul_imm_s(group, CHUNK as i64);
        let bits = self.b.ins().ishl(bits, shift);
        let host = self
            .b
            .ins()
            .load(self.ptr, MemFlagsData::trusted(), self.frame, field::HOST);
        let pcv = self.b.ins().iconst(I64, pc as i64);
        let callee = self
            .b
            .ins()
            .iconst(self.ptr, runtime::step as *const () as usize as i64);
        let call = self
            .b
            .ins()
            .call_indirect(self.calls.step, callee, &[host, pcv, bits]);
        let failed = self.b.inst_results(call)[0];
        let next = self.b.create_block();
        self.flush();
        self.b.ins().brif(failed, self.host_error, &[], next, &[]);
        self.b.switch_to_block(next);
        for &(i, written) in &touched {
            if written {
                self.reload(i);
            }
        }
    }

    /// The SSA temporaries an instruction reads or writes (index, written).
    fn touched_temps(&self, inst: &Inst) -> Vec<(usize, bool)> {
        if self.temps.is_none() {
            return Vec::new();
        }
        let mut out: Vec<(usize, bool)> = Vec::new();
        let offsets = inst.tex.as_ref().and_then(|t| t.offsets.as_ref());
        let reads = inst
            .src
            .iter()
            .chain(offsets)
            .map(|s| (s.file, s.index, false));
        let writes = inst.dst.iter().map(|d| (d.file, d.index, true));
        for (file, index, written) in reads.chain(writes) {
            if file != RegFile::Temp {
                continue;
            }
            let Some(i) = self.in_range(0, index, 0) else {
                continue;
            };
            if self.memory.contains(&i) {
                continue;
            }
            match out.iter_mut().find(|(j, _)| *j == i) {
                Some(e) => e.1 |= written,
                None => out.push((i, written)),
            }
        }
        out
    }

    /// Write SSA temporary `i` to the machine's memory.
    fn spill(&mut self, i: usize) {
        let Some(vars) = self.temps.as_ref().filter(|_| !self.memory.contains(&i)) else {
            return;
        };
        let g = self.g;
        let vars: Vec<Variable> = vars[i * 4 * g..(i + 1) * 4 * g].to_vec();
        for c in 0..4 {
            for k in 0..g {
                let v = self.b.use_var(vars[c * g + k]);
                self.b
                    .ins()
                    .store(mem_flags(), v, self.files[0], Self::offset(i, c, k));
            }
        }
    }

    /// Read SSA temporary `i` back from the machine's memory.
    fn reload(&mut self, i: usize) {
        self.reload_channels(i, 0xf);
    }

    /// Read the `channels` (a mask) of SSA temporary `i` back from the machine's memory.
    fn reload_channels(&mut self, i: usize, channels: u8) {
        let Some(vars) = self.temps.as_ref().filter(|_| !self.memory.contains(&i)) else {
            return;
        };
        let g = self.g;
        let vars: Vec<Variable> = vars[i * 4 * g..(i + 1) * 4 * g].to_vec();
        for c in (0..4).filter(|c| channels & (1 << c) != 0) {
            for k in 0..g {
                let v = self
                    .b
                    .ins()
                    .load(I32X4, mem_flags(), self.files[0], Self::offset(i, c, k));
                self.b.def_var(vars[c * g + k], v);
            }
        }
        self.refresh(i, 0);
        self.refresh(i, 1);
    }

    /// Set the 64-bit copy of pair `p` of SSA temporary `i`, if it has one, from its
    /// channels.
    fn refresh(&mut self, i: usize, p: usize) {
        let (Some(shadow), Some(vars)) = (self.shadows.get(&(i, p)), &self.temps) else {
            return;
        };
        let g = self.g;
        let at = |c: usize, k: usize| vars[(i * 4 + c) * g + k];
        let pairs: Vec<(Variable, Variable, [Variable; 2])> = (0..g)
            .map(|k| (at(2 * p, k), at(2 * p + 1, k), shadow[k]))
            .collect();
        for (lo, hi, shadow) in pairs {
            let (l, h) = (self.b.use_var(lo), self.b.use_var(hi));
            let v = self.pair_of(l, h);
            for (var, x) in shadow.into_iter().zip(v) {
                self.b.def_var(var, x);
            }
        }
    }

    /// The 64-bit copy of the pair of a directly addressed SSA temporary that pair `p` of
    /// the source `s` reads whole, when it has one (a variable per chunk and half).
    fn shadow_of(&self, s: &SrcOp, p: usize) -> Option<Vec<[Variable; 2]>> {
        if s.file != RegFile::Temp || s.is_indirect() {
            return None;
        }
        let i = self.in_range(0, s.index, 0)?;
        self.shadows.get(&(i, pair_read(s, p)?)).cloned()
    }
}

/// The pair `q` of the register that pair `p` of `s` reads whole (channels 2q, 2q+1 in
/// order), if it does.
fn pair_read(s: &SrcOp, p: usize) -> Option<usize> {
    let [lo, hi] = [2 * p, 2 * p + 1].map(|c| s.swizzle[c] as usize & 3);
    (lo % 2 == 0 && hi == lo + 1).then_some(lo / 2)
}

/// The (temporary, pair) that compiled 64-bit instructions read whole, among the first
/// `count` temporaries.
fn wide_pairs(program: &Program, count: usize) -> BTreeSet<(usize, usize)> {
    let mut out = BTreeSet::new();
    for inst in &program.insts {
        if !matches!(inst.kind, Kind::Wide(_)) || support::runs_on_step(inst) {
            continue;
        }
        for s in &inst.src {
            let temp = s.file == RegFile::Temp && s.indirect.is_none() && s.ty.is_64bit();
            let Some(i) = usize::try_from(s.index).ok().filter(|&i| temp && i < count) else {
                continue;
            };
            out.extend((0..2).filter_map(|p| pair_read(s, p)).map(|q| (i, q)));
        }
    }
    out
}

/// Flags of register accesses: in bounds (checked when compiling), not 16-byte aligned.
fn mem_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// The lane mask (`i32x4`) of lanes `4k .. 4k + 4` of the bit mask `bits`.
fn bits_to_mask(b: &mut FunctionBuilder, bits: Value, k: usize) -> Value {
    let s = b.ins().splat(I32X4, bits);
    let mut data = Vec::with_capacity(16);
    for l in 0..CHUNK {
        data.extend_from_slice(&(1u32 << (CHUNK * k + l)).to_le_bytes());
    }
    let handle = b.func.dfg.constants.insert(ConstantData::from(data));
    let sel = b.ins().vconst(I32X4, handle);
    let m = b.ins().band(s, sel);
    let zero = b.splat_word(0);
    b.ins().icmp(IntCC::NotEqual, m, zero)
}

/// Mask variables holding `init` for the first `g` chunks (the others repeat the first
/// variable and are never used).
fn mask(b: &mut FunctionBuilder, g: usize, init: Value) -> Mask {
    let first = b.declare_var(I32X4);
    b.def_var(first, init);
    let mut m = [first; CHUNKS];
    for v in m.iter_mut().take(g).skip(1) {
        *v = b.declare_var(I32X4);
        b.def_var(*v, init);
    }
    m
}

/// A host-call signature.
fn signature(call_conv: CallConv, params: &[Type], returns: &[Type]) -> Signature {
    let mut sig = Signature::new(call_conv);
    sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    sig.returns
        .extend(returns.iter().map(|&t| AbiParam::new(t)));
    sig
}

/// For each temporary (`count` of them), the channels (a mask) that the program from
/// instruction `from` on may read before writing them at the top level, where every lane
/// that can still read them is active (compute programs, resuming after a top-level
/// barrier: only lanes that returned are inactive, and they read nothing more). Reads
/// count every channel their swizzle names; any control flow other than IF, ELSE, ENDIF,
/// loops, BRK, CONT and RET, or an indirectly addressed temporary, makes every channel
/// live.
fn live_after(insts: &[Inst], from: usize, count: usize) -> Vec<u8> {
    let all = vec![0xf; count];
    let mut live = vec![0u8; count];
    let mut written = vec![0u8; count];
    let mut depth = 0usize;
    for inst in insts.get(from..).unwrap_or_default() {
        let offsets = inst.tex.as_ref().and_then(|t| t.offsets.as_ref());
        for s in inst.src.iter().chain(offsets) {
            if s.file != RegFile::Temp {
                continue;
            }
            if s.is_indirect() {
                return all;
            }
            let Some(i) = usize::try_from(s.index).ok().filter(|&i| i < count) else {
                continue;
            };
            let read = s.swizzle.iter().fold(0u8, |m, &c| m | 1 << (c & 3));
            live[i] |= read & !written[i];
        }
        match inst.kind {
            Kind::Flow(Flow::If { .. } | Flow::BgnLoop) => depth += 1,
            Kind::Flow(Flow::EndIf | Flow::EndLoop) => depth = depth.saturating_sub(1),
            Kind::Flow(Flow::Else | Flow::Brk | Flow::Cont | Flow::Ret) => {}
            Kind::Flow(Flow::End) => break,
            Kind::Flow(_) => return all,
            _ => {}
        }
        for d in &inst.dst {
            if d.file != RegFile::Temp {
                continue;
            }
            if d.indirect.is_some() {
                return all;
            }
            if let Some(i) = usize::try_from(d.index).ok().filter(|&i| i < count) {
                if depth == 0 {
                    written[i] |= d.mask & 0xf;
                }
            }
        }
    }
    live
}

/// For each constant buffer below [`DIRECT_CONST_BUFFERS`], the registers the program
/// reads directly (one past the highest below [`DIRECT_CONST_REGISTERS`]; 0 for none):
/// the compiled code reads them with no bounds check, so the host must make that many
/// registers readable in each buffer (zeros past a bound buffer's end or in an unbound
/// one).
pub(crate) fn direct_constants(program: &Program) -> Vec<usize> {
    let mut registers = Vec::new();
    for inst in &program.insts {
        let offsets = inst.tex.as_ref().and_then(|t| t.offsets.as_ref());
        for s in inst.src.iter().chain(offsets) {
            if s.file != RegFile::Const || s.is_indirect() {
                continue;
            }
            let (Ok(dim), Ok(index)) = (usize::try_from(s.dim), usize::try_from(s.index)) else {
                continue;
            };
            if dim >= DIRECT_CONST_BUFFERS || index >= DIRECT_CONST_REGISTERS {
                continue;
            }
            if registers.len() <= dim {
                registers.resize(dim + 1, 0);
            }
            registers[dim] = registers[dim].max(index + 1);
        }
    }
    registers
}

/// The temporaries the compiled code keeps in the machine's memory, for groups of `g`
/// quads; the others live in SSA variables (and the machine's TEMP memory is written only
/// to hand values to the interpreter's step, or to an indirect access that reaches them).
///
/// None when no operand addresses a temporary indirectly. Otherwise the span of the
/// declared arrays (`DCL TEMP[a..b], ARRAY(n)`) that hold the offsets of the indirect
/// operands, which `translate/indirect.rs` reads and writes in memory, leaving the rest
/// to a slower path that moves every SSA temporary through memory around the access; every
/// temporary when an offset lies in no declared array or an instruction handed to the
/// interpreter's step addresses one indirectly (the step may reach any). Every temporary,
/// too, when the SSA ones would be too many, or those slow paths too long.
pub(crate) fn memory_temps(program: &Program, g: usize) -> Range<usize> {
    let count = program.register_counts()[0];
    let all = 0..count;
    // The arrays by first register, looked up by halving (a hostile program may declare
    // many); overlapping ones name no single array.
    let mut arrays = program.temp_arrays.clone();
    arrays.sort_unstable();
    if arrays.windows(2).any(|w| w[0].1 >= w[1].0) {
        return all;
    }
    let mut span: Option<Range<usize>> = None;
    // Vectors the slow paths move, per SSA vector: one a read, two a write.
    let mut moves = 0usize;
    for inst in &program.insts {
        for (index, written) in inst.indirect_temps() {
            moves += if written { 2 } else { 1 };
            if support::runs_on_step(inst) {
                return all;
            }
            let Ok(index) = u32::try_from(index) else {
                return all;
            };
            let at = arrays.partition_point(|&(first, _)| first <= index);
            let Some(&(first, last)) = at.checked_sub(1).and_then(|i| arrays.get(i)) else {
                return all;
            };
            if index > last {
                return all;
            }
            let (first, last) = (first as usize, (last as usize + 1).min(count));
            span = Some(match span {
                None => first..last,
                Some(r) => r.start.min(first)..r.end.max(last),
            });
        }
    }
    let span = span.unwrap_or(0..0);
    let ssa = (count - span.len()) * 4 * g;
    if ssa > MAX_SSA_VECTORS || ssa.saturating_mul(moves) > MAX_SLOW_PATH_VECTORS {
        return all;
    }
    span
}

/// Most vectors the slow paths of indirect temporary accesses may move in and out of memory
/// together (each moves every SSA temporary, [`memory_temps`], and so keeps them all live
/// up to it); more, and every temporary lives in memory instead. Over virgl fragment
/// shaders, those at 256 or fewer compiled in about the time of all in memory and ran
/// 1.1–3 times as fast; those at 896 and more took twice the time or longer (up to 45 ms
/// against 6), some running slower.
const MAX_SLOW_PATH_VECTORS: usize = 512;

#[cfg(test)]
mod tests {
    use super::{live_after, memory_temps};
    use cranelift_codegen::ir::Function;
    use cranelift_frontend::FunctionBuilderContext;
    use tgsi_exec::Program;

    /// The Cranelift function the JIT translates `program` to, one quad per call.
    fn translated(program: &Program) -> Function {
        let isa = crate::isa("backtracking").unwrap_or_else(|e| panic!("{e}"));
        let unmasked =
            tgsi_exec::unblended::unblended_writes(program, crate::support::observes, true);
        let mut fctx = FunctionBuilderContext::new();
        crate::translate_wave(&*isa, program, 1, false, &unmasked.writes, &mut fctx).0
    }

    /// A comparison made before an IF is a mask inside the IF's blocks too (they are
    /// sealed as their predecessors become known, so a register read there is the value
    /// from before): the UIFs and the UCMP nested in other UIFs test it without comparing
    /// it with zero.
    #[test]
    fn masks_made_before_an_if_are_tested_inside_it_without_a_compare() {
        let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
              IMM[0] FLT32 {0.5, 1.0, 2.0, 0.0}\n\
              0: FSLT TEMP[0], IMM[0].xxxx, IN[0]\n\
              1: UIF TEMP[0].xxxx\n\
              2:   UIF TEMP[0].yyyy\n\
              3:     MOV OUT[0], IMM[0].yyyy\n\
              4:   ELSE\n\
              5:     UIF TEMP[0].zzzz\n\
              6:       UCMP OUT[0], TEMP[0].wwww, IMM[0].zzzz, IN[0]\n\
              7:     ENDIF\n\
              8:   ENDIF\n\
              9: ENDIF\n\
             10: END\n";
        let compares = |text: &str| {
            let func = translated(&program(text)).display().to_string();
            let compare = |l: &&str| l.contains("icmp") && l.contains(" ne ");
            func.lines().filter(compare).count()
        };
        // The lanes of the wave that run are found with one compare at the start.
        let entry = compares("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n");
        assert_eq!(compares(text), entry);
        // A register that is not a mask is compared at each test: three UIFs, and UCMP in
        // each of its four channels.
        let not_mask = text.replace(
            "0: FSLT TEMP[0], IMM[0].xxxx, IN[0]",
            "0: MOV TEMP[0], IN[0]",
        );
        assert_eq!(compares(&not_mask), entry + 7);
    }

    fn program(text: &str) -> Program {
        let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{e}"));
        Program::compile(&shader).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The temporaries in memory: none without indirect operands; the span of the arrays
    /// the indirect operands name; all of them when an offset is in no array or arrays
    /// overlap.
    #[test]
    fn temporaries_in_memory_span_the_arrays_indirect_operands_name() {
        let head = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL ADDR[0]\n";
        let arrays = "DCL TEMP[0..1]\nDCL TEMP[2..5], ARRAY(1)\nDCL TEMP[6..7]\n\
                      DCL TEMP[8..9], ARRAY(2)\nDCL TEMP[10..11]\n";
        let with = |decls: &str, body: &str| {
            program(&format!(
                "{head}{decls}  0: UARL ADDR[0].x, IN[0].xxxx\n{body}  9: END\n"
            ))
        };
        let direct = with(arrays, "  1: MOV OUT[0], TEMP[3]\n");
        assert_eq!(memory_temps(&direct, 2), 0..0);
        let one = with(arrays, "  1: MOV OUT[0], TEMP[ADDR[0].x+3](1)\n");
        assert_eq!(memory_temps(&one, 2), 2..6);
        let two = with(
            arrays,
            "  1: MOV TEMP[ADDR[0].x+8](2), IN[0]\n  2: MOV OUT[0], TEMP[ADDR[0].x+2](1)\n",
        );
        assert_eq!(memory_temps(&two, 2), 2..10);
        let stray = with(arrays, "  1: MOV OUT[0], TEMP[ADDR[0].x+6]\n");
        assert_eq!(memory_temps(&stray, 2), 0..12);
        let overlapping = with(
            "DCL TEMP[0..5], ARRAY(1)\nDCL TEMP[4..7], ARRAY(2)\n",
            "  1: MOV OUT[0], TEMP[ADDR[0].x+1](1)\n",
        );
        assert_eq!(memory_temps(&overlapping, 2), 0..8);
    }

    #[test]
    fn channels_written_at_the_top_level_before_any_read_are_not_live() {
        let text = "COMP\nDCL TEMP[0..4]\nDCL SV[0], THREAD_ID\nIMM[0] UINT32 {1, 2, 3, 4}\n\
              0: BARRIER\n\
              1: MOV TEMP[0].x, IMM[0].xxxx\n\
              2: UADD TEMP[1].xy, TEMP[0].xxxx, TEMP[2].yyyy\n\
              3: UIF SV[0].xxxx\n\
              4:   MOV TEMP[3].y, IMM[0].yyyy\n\
              5: ENDIF\n\
              6: UADD TEMP[4].x, TEMP[3].yyyy, TEMP[0].zwzw\n\
              7: UADD TEMP[1].x, TEMP[1].xxxx, TEMP[1].xxxx\n\
              8: END\n";
        let live = live_after(&program(text).insts, 1, 5);
        // TEMP[0].x is written first; .z and .w are read later. TEMP[1] is written before
        // it is read; TEMP[2].y is read; TEMP[3].y is written only inside the branch, so
        // lanes that skip it read the old value.
        assert_eq!(live, [0b1100, 0, 0b0010, 0b0010, 0]);
    }
}
