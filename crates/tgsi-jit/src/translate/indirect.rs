//! Operands addressed through an address register, with the interpreter's rules
//! (`tgsi_exec`'s `operand.rs`). Every address is made safe by data, not by a branch.
//!
//! * Constants, `CONST[dim][index + ADDR[i].c]`, lane by lane: a lane outside the
//!   execution mask reads register 0 of the buffer, and a register outside the bound
//!   buffer, or any register of an unbound one, reads as zeros. Each lane's register is
//!   loaded whole (one 16-byte load; the frame's zero words stand in for a register out of
//!   range) and the four lanes' registers are transposed into the four channels, once for
//!   all the channels an instruction reads of that operand: the rows loaded are
//!   remembered, by block, execution mask and operand, until the instruction ends or
//!   writes a register (which may be the address register).
//! * Temporaries, which live in the machine's memory whenever one is addressed indirectly
//!   (`temps_in_ssa`): a source `TEMP[index + ADDR[i].c]` lane by lane (a lane outside the
//!   execution mask reads `TEMP[0]`, an index outside the file zero, and every lane zero
//!   where the program has no temporaries); a destination per
//!   quad, at the index its first lane's address gives, active or not, blended into the
//!   register under the execution mask, and not written at all when that index is outside
//!   the file (the store then goes to a stack slot).

use super::{mem_flags, Channel, Translator};
use crate::lanes::{transpose, LaneOps};
use crate::runtime::{self, field, CHANNEL_BYTES, CHUNK, REGISTER_BYTES};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64, I8};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, MemFlagsData, Value};
use tgsi_exec::compile::{DstOp, Indirect, SrcOp};

/// The four channels of an indirectly read constant operand, as loaded in `block` under
/// the execution mask `exec` through the address register `ind`.
pub(super) struct Row {
    block: Block,
    exec: Channel,
    ind: Indirect,
    dim: i32,
    index: i32,
    channels: [Channel; 4],
}

impl Translator<'_, '_> {
    /// `CONST[dim][index + ADDR]` channel `c` (the register's channel, after the swizzle).
    pub(super) fn gather_const(&mut self, s: &SrcOp, ind: Indirect, c: usize) -> Channel {
        let exec = self.exec_all();
        let block = self.b.current_block();
        let same = |r: &&Row| {
            Some(r.block) == block
                && r.dim == s.dim
                && r.index == s.index
                && r.ind == ind
                && r.exec == exec
        };
        if let Some(row) = self.rows.iter().find(same) {
            return row.channels[c & 3].clone();
        }
        let addr = self.read(ind.file, ind.index as i32, 0, ind.comp as usize & 3);
        let channels = self.load_rows(s, &addr, &exec);
        let out = channels[c & 3].clone();
        if let Some(block) = block {
            self.rows.push(Row {
                block,
                exec,
                ind,
                dim: s.dim,
                index: s.index,
                channels,
            });
        }
        out
    }

    /// The registers `index + addr` of constant buffer `s.dim` for every lane (register 0
    /// for a lane outside `exec`, zeros for one outside the buffer), as four channels.
    fn load_rows(&mut self, s: &SrcOp, addr: &[Value], exec: &[Value]) -> [Channel; 4] {
        let mem = MemFlagsData::trusted().with_readonly();
        let b = &mut *self.b;
        let dim = i64::from(s.dim.max(0));
        let ok_buf = if s.dim < 0 {
            b.ins().iconst(I8, 0)
        } else {
            let nbufs = b.ins().load(I64, mem, self.frame, field::NUM_CONSTS);
            let dim_v = b.ins().iconst(I64, dim);
            b.ins().icmp(IntCC::UnsignedLessThan, dim_v, nbufs)
        };
        let table = b.ins().load(self.ptr, mem, self.frame, field::CONSTS);
        let entry_size = std::mem::size_of::<runtime::ConstBuffer>() as i64;
        let bound = b.ins().iadd_imm_s(table, dim * entry_size);
        let unbound = b.ins().iadd_imm_s(self.frame, i64::from(field::NO_BUFFER));
        let entry = b.ins().select(ok_buf, bound, unbound);
        let len = b.ins().load(I64, mem, entry, field::CONST_LEN);
        let words = b.ins().load(self.ptr, mem, entry, field::CONST_WORDS);
        let zero_words = b.ins().iadd_imm_s(self.frame, i64::from(field::ZERO));
        let zero = b.ins().iconst(I64, 0);
        // Registers need not be 16-byte aligned: no `aligned` flag, so no SSE instruction
        // takes the load as an aligned memory operand.
        let row_flags = MemFlagsData::new().with_notrap().with_readonly();
        let mut channels: [Channel; 4] = Default::default();
        for (&a, &e) in addr.iter().zip(exec) {
            let active = b.ins().vhigh_bits(I32, e);
            let rows: [Value; CHUNK] = std::array::from_fn(|l| {
                let lane = b.ins().extractlane(a, l as u8);
                let lane = b.ins().sextend(I64, lane);
                let idx = b.ins().iadd_imm_s(lane, i64::from(s.index));
                let on = b.ins().band_imm_u(active, 1 << l);
                let idx = b.ins().select(on, idx, zero);
                let ok = b.ins().icmp(IntCC::UnsignedLessThan, idx, len);
                let off = b.ins().imul_imm_s(idx, 16);
                let at = b.ins().iadd(words, off);
                let at = b.ins().select(ok, at, zero_words);
                b.ins().load(I32X4, row_flags, at, 0)
            });
            for (ch, v) in channels.iter_mut().zip(transpose(b, rows)) {
                ch.push(v);
            }
        }
        channels
    }

    /// `TEMP[index + ADDR]` channel `c`, lane by lane; when every lane's address is the
    /// same and names a register of the file, one vector load a quad (a lane outside the
    /// execution mask then reads that register rather than `TEMP[0]`, which no compiled
    /// instruction lets it see: their results are blended into the destination).
    pub(super) fn gather_temp(&mut self, s: &SrcOp, ind: Indirect, c: usize) -> Channel {
        if self.sizes[0] == 0 {
            // No temporaries: every index lies outside the file and reads zero (there is no
            // register 0 to read instead).
            return vec![self.b.splat_word(0); self.g];
        }
        let addr = self.read(ind.file, ind.index as i32, 0, ind.comp as usize & 3);
        let exec = self.exec_all();
        if self.temps.is_some() && !self.spilled.contains(&(ind, s.index)) {
            self.spilled.push((ind, s.index));
            // Some active lane's index outside the temporaries in memory: bring every SSA
            // one there first (a lane whose index is outside the file reads zero anyway;
            // the instruction's other reads through the same operand find them there).
            let b = &mut *self.b;
            let index = b.splat_word(s.index as u32);
            let start = b.splat_word(self.memory.start as u32);
            let len = b.splat_word(self.memory.len() as u32);
            let outs: Vec<Value> = addr
                .iter()
                .zip(&exec)
                .map(|(&a, &e)| {
                    let idx = b.ins().iadd(a, index);
                    let rel = b.ins().isub(idx, start);
                    let out = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, rel, len);
                    b.ins().band(out, e)
                })
                .collect();
            if let Some(outside) = outs.into_iter().reduce(|x, y| b.ins().bor(x, y)) {
                let any = b.ins().vany_true(outside);
                self.move_all_if(any, true);
            }
        }
        let (base, count, g) = (self.files[0], self.sizes[0] as i64, self.g);
        let b = &mut *self.b;
        let count = b.ins().iconst(I64, count);
        let channel_bytes = i64::from(c as i32 * CHANNEL_BYTES);
        // One address in every lane, inside the file?
        let first = b.ins().extractlane(addr[0], 0);
        let splat = b.ins().splat(I32X4, first);
        let first = b.ins().sextend(I64, first);
        let idx = b.ins().iadd_imm_s(first, i64::from(s.index));
        let mut uniform = b.ins().icmp(IntCC::UnsignedLessThan, idx, count);
        for &a in &addr {
            let eq = b.ins().icmp(IntCC::Equal, a, splat);
            let all = b.ins().vall_true(eq);
            uniform = b.ins().band(uniform, all);
        }
        let (one, lanes, merge) = (b.create_block(), b.create_block(), b.create_block());
        for _ in 0..g {
            b.append_block_param(merge, I32X4);
        }
        b.ins().brif(uniform, one, &[], lanes, &[]);
        b.switch_to_block(one);
        b.seal_block(one);
        let off = b.ins().imul_imm_s(idx, i64::from(REGISTER_BYTES));
        let row = b.ins().iadd(base, off);
        let row = b.ins().iadd_imm_s(row, channel_bytes);
        let words: Vec<BlockArg> = (0..g)
            .map(|k| {
                let at = (k * CHUNK * 4) as i32;
                b.ins().load(I32X4, mem_flags(), row, at).into()
            })
            .collect();
        b.ins().jump(merge, &words);
        b.switch_to_block(lanes);
        b.seal_block(lanes);
        // Lane by lane: the register index (0 outside the execution mask, like the
        // interpreter's), its byte offset computed in vectors, register 0 read and the word
        // cleared where the index lies outside the file.
        // (No sum wraps into the file: `support::compiles_indirect` keeps offsets small.)
        let index = b.splat_word(s.index as u32);
        let count = b.splat_word(self.sizes[0] as u32);
        let register = b.splat_word(REGISTER_BYTES as u32);
        let zero = b.splat_word(0);
        let mut words = Vec::with_capacity(g);
        for (k, (&a, &e)) in addr.iter().zip(&exec).enumerate() {
            let idx = b.ins().iadd(a, index);
            let idx = b.ins().band(idx, e);
            let ok = b.ins().icmp(IntCC::UnsignedLessThan, idx, count);
            let idx = b.ins().band(idx, ok);
            let off = b.ins().imul(idx, register);
            let lane_bytes: [u32; CHUNK] =
                std::array::from_fn(|l| (channel_bytes as usize + (k * CHUNK + l) * 4) as u32);
            let lane_bytes = b.words(lane_bytes);
            let off = b.ins().iadd(off, lane_bytes);
            let mut v = zero;
            for l in 0..CHUNK as u8 {
                let o = b.ins().extractlane(off, l);
                let o = b.ins().uextend(I64, o);
                let at = b.ins().iadd(base, o);
                let w = b.ins().load(I32, mem_flags(), at, 0);
                v = b.ins().insertlane(v, w, l);
            }
            words.push(b.ins().band(v, ok).into());
        }
        b.ins().jump(merge, &words);
        b.switch_to_block(merge);
        b.seal_block(merge);
        b.block_params(merge).to_vec()
    }

    /// Write the channels of `vals` (those given) to `TEMP[index + ADDR]` for the lanes in
    /// `exec`: each quad at the register its first lane's address names.
    pub(super) fn scatter_temp(
        &mut self,
        d: &DstOp,
        ind: Indirect,
        vals: &[Option<Channel>; 4],
        exec: &[Value],
    ) {
        self.rows.clear();
        let addr = self.read(ind.file, ind.index as i32, 0, ind.comp as usize & 3);
        let (count, start, len) = (
            self.sizes[0] as i64,
            self.memory.start as i64,
            self.memory.len() as i64,
        );
        let b = &mut *self.b;
        let count = b.ins().iconst(I64, count);
        let len = b.ins().iconst(I64, len);
        let indices: Vec<Value> = addr
            .iter()
            .map(|&a| {
                let first = b.ins().extractlane(a, 0);
                let first = b.ins().sextend(I64, first);
                b.ins().iadd_imm_s(first, i64::from(d.index))
            })
            .collect();
        // A quad's register inside the file but outside the temporaries in memory: write
        // every SSA temporary there first and read them all back after.
        let outs: Vec<Value> = match self.temps {
            Some(_) => indices
                .iter()
                .map(|&idx| {
                    let rel = b.ins().iadd_imm_s(idx, -start);
                    let out = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, rel, len);
                    let inside_file = b.ins().icmp(IntCC::UnsignedLessThan, idx, count);
                    b.ins().band(out, inside_file)
                })
                .collect(),
            None => Vec::new(),
        };
        let outside = outs.into_iter().reduce(|x, y| b.ins().bor(x, y));
        if let Some(outside) = outside {
            self.move_all_if(outside, true);
        }
        let base = self.files[0];
        let b = &mut *self.b;
        let sink = b.ins().stack_addr(self.ptr, self.sink, 0);
        for (c, vals) in vals.iter().enumerate() {
            let Some(vals) = vals else { continue };
            for (k, ((&idx, &v), &e)) in indices.iter().zip(vals).zip(exec).enumerate() {
                let ok = b.ins().icmp(IntCC::UnsignedLessThan, idx, count);
                let off = b.ins().imul_imm_s(idx, i64::from(REGISTER_BYTES));
                let at = b.ins().iadd(base, off);
                let quad_bytes = c as i32 * CHANNEL_BYTES + (k * CHUNK * 4) as i32;
                let at = b.ins().iadd_imm_s(at, i64::from(quad_bytes));
                let at = b.ins().select(ok, at, sink);
                let old = b.ins().load(I32X4, mem_flags(), at, 0);
                let n = b.ins().blendv(e, v, old);
                b.ins().store(mem_flags(), n, at, 0);
            }
        }
        if let Some(outside) = outside {
            self.move_all_if(outside, false);
        }
    }

    /// Where `cond` (an `i8`) is set, write every SSA temporary to the machine's memory
    /// (`to_memory`) or read them all back from it.
    fn move_all_if(&mut self, cond: Value, to_memory: bool) {
        let (moves, next) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(moves);
        self.b.ins().brif(cond, moves, &[], next, &[]);
        self.b.switch_to_block(moves);
        self.b.seal_block(moves);
        for i in 0..self.sizes[0] {
            if to_memory {
                self.spill(i);
            } else {
                self.reload(i);
            }
        }
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(next);
        self.b.seal_block(next);
    }
}
