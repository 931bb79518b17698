//! LOAD and STORE on a directly named `MEMORY` or `BUFFER[i]`, compiled to a load or store
//! per lane with the interpreter's rules (`tgsi_exec`'s `memory.rs`): a LOAD of `k` words
//! at byte `x` reads them when `x + 4k` fits in the visible bytes and gives zeros
//! otherwise; a STORE writes, for each active lane that is neither a helper nor discarded,
//! in lane order, the enabled channels `c` with `x + 4c + 4` inside. Addresses need not be
//! aligned: an x86-64 load or store of four bytes at any address reads and writes the bytes
//! the interpreter's byte-wise path does. The bytes come from `Frame::spaces`, whose
//! entries the caller has checked to lie in whole words of their storage (otherwise the
//! interpreter runs the wave).
//!
//! A LOAD whose address is the same in every lane (an immediate or a directly named
//! constant) reads its words once for all the lanes of the call.
//!
//! Every address is made safe by data, not by a branch (a lane whose words do not fit
//! reads at the first byte, or the frame's zero words), so a LOAD in a stretch of the
//! program that writes no memory (between the stops at barriers, or the whole program:
//! [`unchanging_loads`]) is marked read-only and movable: Cranelift then places each load
//! with the insert that uses it instead of keeping every loaded word of the stretch alive
//! (spilled) from its load on.

use super::{bits_to_mask, mem_flags, Translator};
use crate::lanes::LaneOps;
use crate::runtime::{field, Bytes, CHUNK};
use crate::support;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use tgsi_exec::compile::{Inst, RegFile, SrcOp};
use tgsi_exec::ops::Kind;
use tgsi_exec::Program;

/// Per instruction, whether it is a LOAD whose memory no instruction of the same stretch
/// of the program writes (stretches end at the stops of compute programs,
/// `support::barriers`; a call runs at most one stretch): STOREs, atomics and whatever
/// runs on the interpreter's step count as writing anything.
pub(super) fn unchanging_loads(program: &Program) -> Vec<bool> {
    let stops = match program.processor {
        tgsi::Processor::Compute => support::barriers(program).unwrap_or_default(),
        _ => Vec::new(),
    };
    let writes =
        |i: &Inst| matches!(i.kind, Kind::Store | Kind::Atomic(_)) || support::runs_on_step(i);
    let mut out = vec![false; program.insts.len()];
    let mut from = 0;
    for end in stops.into_iter().chain([program.insts.len()]) {
        let stretch = program.insts.get(from..end).unwrap_or_default();
        if !stretch.iter().any(writes) {
            for (o, i) in out.iter_mut().skip(from).zip(stretch) {
                *o = matches!(i.kind, Kind::Load);
            }
        }
        from = end + 1;
    }
    out
}

/// Whether source `s` has one value in every lane: an immediate, or a constant named
/// directly in a directly named buffer (any modifiers apply to every lane alike).
fn same_in_every_lane(s: &SrcOp) -> bool {
    let direct = s.indirect.is_none() && s.dim_indirect.is_none();
    direct && matches!(s.file, RegFile::Imm | RegFile::Const)
}

/// An entry of the frame's memory table as the code uses it.
struct Space {
    /// The address of the first visible byte.
    first: Value,
    /// Visible bytes (at most u32: buffer views and shared memory are smaller).
    size: Value,
}

impl Translator<'_, '_> {
    /// LOAD or STORE `inst` on entry `space` of `Frame::spaces`.
    pub(super) fn memory(&mut self, inst: &Inst, space: usize) {
        let sp = self.space(space);
        if matches!(inst.kind, Kind::Store) {
            self.store(inst, &sp);
        } else {
            self.load(inst, &sp);
        }
    }

    /// The entry `space` of the frame's table (its empty entry past the table's end).
    fn space(&mut self, space: usize) -> Space {
        let b = &mut *self.b;
        let mem = MemFlagsData::trusted().with_readonly();
        let n = b.ins().load(I64, mem, self.frame, field::NUM_SPACES);
        let ok = b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThan, n, space as i64);
        let table = b.ins().load(self.ptr, mem, self.frame, field::SPACES);
        let entry = std::mem::size_of::<Bytes>() as i64 * space as i64;
        let bound = b.ins().iadd_imm_s(table, entry);
        let none = b.ins().iadd_imm_s(self.frame, i64::from(field::NO_SPACE));
        let at = b.ins().select(ok, bound, none);
        let words = b.ins().load(self.ptr, mem, at, field::BYTES_WORDS);
        let base = b.ins().load(self.ptr, mem, at, field::BYTES_BASE);
        let size = b.ins().load(I64, mem, at, field::BYTES_SIZE);
        Space {
            first: b.ins().iadd(words, base),
            size: b.ins().ireduce(I32, size),
        }
    }

    /// Per lane, all ones where `n` bytes from the lane's address `a` fit in the space.
    fn fits(&mut self, sp: &Space, a: Value, n: u32) -> Value {
        let b = &mut *self.b;
        let big = b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, sp.size, i64::from(n));
        let limit = b.ins().iadd_imm_s(sp.size, -i64::from(n));
        let limit = b.ins().splat(I32X4, limit);
        let below = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, a, limit);
        let zero = b.splat_word(0);
        let ones = b.splat_word(!0);
        let big = b.ins().select(big, ones, zero);
        b.ins().band(below, big)
    }

    /// `first` plus the address in lane `l` of `a`, plus `offset`.
    fn lane_address(&mut self, first: Value, a: Value, l: usize, offset: i32) -> Value {
        let b = &mut *self.b;
        let x = b.ins().extractlane(a, l as u8);
        let x = b.ins().uextend(self.ptr, x);
        let at = b.ins().iadd(first, x);
        if offset == 0 {
            at
        } else {
            b.ins().iadd_imm_s(at, i64::from(offset))
        }
    }

    fn load(&mut self, inst: &Inst, sp: &Space) {
        let (Some(dst), Some(addr_op)) = (inst.dst.first().copied(), inst.src.get(1)) else {
            return;
        };
        let flags = match self.unchanging.get(self.pc) {
            Some(true) => mem_flags().with_readonly().with_can_move(),
            _ => mem_flags(),
        };
        let mask = dst.mask & 0xf;
        let words = 8 - mask.leading_zeros() as usize;
        let addr = self.fetch(addr_op, 0);
        // Lanes whose words do not all fit read at the first byte (or, when even those
        // words do not fit, the frame's zero words) and give zeros.
        let n = 4 * words as u32;
        let b = &mut *self.b;
        let big = b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, sp.size, i64::from(n));
        let zero_words = b.ins().iadd_imm_s(self.frame, i64::from(field::ZERO));
        let first = b.ins().select(big, sp.first, zero_words);
        // An address the same in every lane (an immediate or a directly named constant)
        // reads the same words for all: once, for every quad.
        let uniform = same_in_every_lane(addr_op);
        let quads = if uniform {
            addr.len().min(1)
        } else {
            addr.len()
        };
        let mut out: Vec<Vec<Value>> = vec![Vec::new(); words];
        for &a in &addr[..quads] {
            let fits = self.fits(sp, a, n);
            let a = self.b.ins().band(a, fits);
            let vals: Vec<Value> = if uniform {
                let at = self.lane_address(first, a, 0, 0);
                (0..words)
                    .map(|c| {
                        let w = self.b.ins().load(I32, flags, at, 4 * c as i32);
                        self.b.ins().splat(I32X4, w)
                    })
                    .collect()
            } else {
                let mut vals: Vec<Value> = (0..words).map(|_| self.b.splat_word(0)).collect();
                for l in 0..CHUNK {
                    let at = self.lane_address(first, a, l, 0);
                    for (c, v) in vals.iter_mut().enumerate() {
                        let w = self.b.ins().load(I32, flags, at, 4 * c as i32);
                        *v = self.b.ins().insertlane(*v, w, l as u8);
                    }
                }
                vals
            };
            for (o, v) in out.iter_mut().zip(vals) {
                let v = self.b.ins().band(v, fits);
                o.push(v);
            }
        }
        // The uniform words serve every quad.
        for o in out.iter_mut() {
            if let Some(&v) = o.first() {
                o.resize(addr.len(), v);
            }
        }
        let exec = self.exec_all();
        for (c, vals) in out.iter().enumerate() {
            if mask & (1 << c) != 0 {
                self.write(&dst, c, vals, &exec);
            }
        }
    }

    fn store(&mut self, inst: &Inst, sp: &Space) {
        let (Some(dst), Some(addr), Some(src)) =
            (inst.dst.first().copied(), inst.src.first(), inst.src.get(1))
        else {
            return;
        };
        let mask = dst.mask & 0xf;
        let addr = self.fetch(addr, 0);
        let vals: Vec<Option<Vec<Value>>> = (0..4)
            .map(|c| (mask & (1 << c) != 0).then(|| self.fetch(src, c)))
            .collect();
        // Active lanes that are neither helpers nor discarded.
        let exec = self.exec_all();
        let helpers = self
            .b
            .ins()
            .load(I32, MemFlagsData::trusted(), self.frame, field::HELPERS);
        let sink = self.b.ins().iadd_imm_s(self.frame, i64::from(field::SINK));
        for (k, &a) in addr.iter().enumerate() {
            let helper = bits_to_mask(self.b, helpers, k);
            let kill = self.b.use_var(self.kill[k]);
            let gone = self.b.ins().bor(helper, kill);
            let lanes = self.b.ins().band_not(exec[k], gone);
            // Per channel, the lanes that store it.
            let stores: Vec<Option<Value>> = (0..4u32)
                .map(|c| {
                    vals[c as usize].as_ref()?;
                    let fits = self.fits(sp, a, 4 * c + 4);
                    Some(self.b.ins().band(fits, lanes))
                })
                .collect();
            for l in 0..CHUNK {
                for (c, (v, on)) in vals.iter().zip(&stores).enumerate() {
                    let (Some(v), Some(on)) = (v, on) else {
                        continue;
                    };
                    let at = self.lane_address(sp.first, a, l, 4 * c as i32);
                    let on = self.b.ins().extractlane(*on, l as u8);
                    let on = self.b.ins().icmp_imm_u(IntCC::NotEqual, on, 0);
                    let at = self.b.ins().select(on, at, sink);
                    let w = self.b.ins().extractlane(v[k], l as u8);
                    self.b.ins().store(mem_flags(), w, at, 0);
                }
            }
        }
    }
}
