//! Executing the non-control-flow [`Kind`]s over a wave: component-wise functions,
//! whole-vector (replicated and channel-formula) functions, 64-bit channel pairs, quad
//! derivatives, kill and demote, INTERP_OFFSET, the legacy address stack (PUSHA/POPA) and
//! CLOCK. Every result channel is computed before any is written.

use crate::compile::{DstOp, Inst};
use crate::machine::Scratch;
use crate::machine::{lanes_where, Machine, Reg, Res, MAX_ADDRESS_STACK};
use crate::operand::{join, mask_channels, saturate_word, split, MERGE_ROW};
use crate::ops::{Deriv, Kind, LaneKernel, VectorOp, WideOp};
use crate::scalar::{double::dfracexp, double::dsaturate};
use tgsi::opcode::OperandType;
use tgsi::Opcode;

impl<const N: usize> Machine<N> {
    /// Execute one of the other ALU instructions (kill, DFRACEXP, …; the machine loop runs
    /// the component-wise, vector, 64-bit and derivative ones).
    pub(crate) fn alu(&mut self, inst: &Inst, res: &Res) {
        let exec = self.exec();
        match inst.kind {
            Kind::FracExp => self.fracexp(inst, res, exec),
            Kind::Kill => self.kill |= exec,
            Kind::Demote => {
                self.kill |= exec;
                self.helpers |= exec;
            }
            Kind::KillIf => {
                for c in 0..4 {
                    let v = self.fetch(&inst.src[0], c, exec, res);
                    self.kill |= exec & lanes_where(&v, |x| f32::from_bits(x) < 0.0);
                }
            }
            Kind::ReadHelper => {
                let v: [u32; N] =
                    std::array::from_fn(|l| if self.helpers & (1 << l) != 0 { !0 } else { 0 });
                self.write(inst, 0, &[v; 4], 0xf, exec);
            }
            Kind::InterpOffset => self.interp_offset(inst, res, exec),
            // Run by the machine loop, which reports their errors and counts instructions.
            Kind::Component(_)
            | Kind::Vector(_)
            | Kind::Wide(_)
            | Kind::Deriv(_)
            | Kind::PushA
            | Kind::PopA
            | Kind::Clock
            | Kind::Nop
            | Kind::Flow(_)
            | Kind::Sync
            | Kind::Load
            | Kind::Store
            | Kind::Atomic(_)
            | Kind::Resq
            | Kind::Handle
            | Kind::Vote(_)
            | Kind::Ballot
            | Kind::ReadFirst
            | Kind::ReadInvoc
            | Kind::Texture
            | Kind::Emit
            | Kind::EndPrim => {}
        }
    }

    /// PUSHA / POPA on the stacks of the active lanes; `Err(true)` on overflow,
    /// `Err(false)` when a lane pops an empty stack.
    pub(crate) fn address_stack(&mut self, inst: &Inst, res: &Res) -> Result<(), bool> {
        let exec = self.exec();
        let active = (0..N).filter(move |l| exec & (1 << l) != 0);
        if let Some(src) = inst.src.first() {
            let v: [[u32; N]; 4] = std::array::from_fn(|c| self.fetch(src, c, exec, res));
            for l in active {
                let stack = &mut self.address_stacks[l];
                if stack.len() >= MAX_ADDRESS_STACK {
                    return Err(true);
                }
                stack.push(std::array::from_fn(|c| v[c][l]));
            }
        } else {
            let mut out = [[0u32; N]; 4];
            for l in active {
                let top = self.address_stacks[l].pop().ok_or(false)?;
                for c in 0..4 {
                    out[c][l] = top[c];
                }
            }
            self.write(inst, 0, &out, 0xf, exec);
        }
        Ok(())
    }

    /// CLOCK: `executed` (the instructions run so far, this one included) as a 64-bit value,
    /// low word in x, high word in y.
    pub(crate) fn clock(&mut self, inst: &Inst, executed: u64) {
        let words = [executed as u32, (executed >> 32) as u32, 0, 0];
        self.write(inst, 0, &words.map(|w| [w; N]), 0b0011, self.exec());
    }

    /// INTERP_OFFSET: `IN[i] + (ofs.x · d/dx + ofs.y · d/dy)` per channel, then the source
    /// modifiers. Like softpipe, the offset for result channel c is the one of lane c of each
    /// quad, and the input register is the one lane 0 of the quad addresses.
    fn interp_offset(&mut self, inst: &Inst, res: &Res, exec: u32) {
        let (Some(input), Some(ofs)) = (inst.src.first(), inst.src.get(1)) else {
            return;
        };
        let [ox, oy] = [0, 1].map(|c| self.fetch(ofs, c, exec, res).map(f32::from_bits));
        let index = self.quad_indices(input, exec);
        let mut out = [[0u32; N]; 4];
        for (c, o) in out.iter_mut().enumerate() {
            let chan = input.swizzle[c] as usize;
            for (q, &i) in index.iter().enumerate().take(N / 4) {
                let reg = i.and_then(|i| self.regs[1].get(i));
                let [dx, dy] = i
                    .and_then(|i| self.gradients.get(i))
                    .map_or([0.0; 2], |g| [g[0][chan], g[1][chan]]);
                let delta = dx * ox[4 * q + c] + dy * oy[4 * q + c];
                for l in 4 * q..4 * q + 4 {
                    let v = reg.map_or(0.0, |r| f32::from_bits(r[chan][l])) + delta;
                    o[l] = input.modify(v.to_bits());
                }
            }
        }
        self.write(inst, 0, &out, 0xf, exec);
    }

    /// Write the channels of `mask` (within the destination's write mask) of `out`. The
    /// common case (a register every lane owns, all lanes active or no inactive lane
    /// reading the old value later, no saturation) is a copy inlined into the caller;
    /// [`Machine::write_lanes`] does the rest.
    #[inline(always)]
    pub(crate) fn write(&mut self, inst: &Inst, d: usize, out: &Reg<N>, mask: u8, exec: u32) {
        let Some(dst) = inst.dst.get(d) else {
            return;
        };
        let mask = dst.mask & mask;
        let saturate = inst.saturate && !dst.ty.is_64bit();
        // The channels written in every lane (`Inst::unblended` is destination 0's).
        let every_lane = if exec == Self::ALL {
            mask
        } else if d == 0 {
            mask & inst.unblended
        } else {
            0
        };
        let mut rest = mask;
        if every_lane != 0 && !saturate {
            if let Some(reg) = self.direct_dst(dst) {
                for c in mask_channels(every_lane) {
                    reg[c] = out[c];
                }
                rest &= !every_lane;
                if rest == 0 {
                    return;
                }
            }
        }
        self.write_lanes(dst, out, rest, exec, saturate);
    }

    /// [`Machine::write`] for the channels `mask` of `dst`, lane by lane.
    fn write_lanes(&mut self, dst: &DstOp, out: &Reg<N>, mask: u8, exec: u32, saturate: bool) {
        let isa = self.isa;
        if let Some(reg) = self.direct_dst(dst) {
            for c in mask_channels(mask) {
                MERGE_ROW.run(isa, &mut reg[c], &out[c], exec, saturate);
            }
            return;
        }
        for c in mask_channels(mask) {
            if saturate {
                let v = out[c].map(saturate_word);
                self.store(dst, c, &v, exec);
            } else {
                self.store(dst, c, &out[c], exec);
            }
        }
    }

    /// Component-wise: channel c of the result from channel c of each source (missing
    /// sources read as zero).
    pub(crate) fn component(
        &mut self,
        inst: &Inst,
        res: &Res,
        exec: u32,
        op: LaneKernel,
        scratch: &mut Scratch<N>,
    ) {
        let mask = inst.dst.first().map_or(0, |d| d.mask);
        let Scratch { src, out, zero, .. } = scratch;
        let mut regs: [&Reg<N>; 4] = [zero; 4];
        let mut swizzles = [[0u8; 4]; 4];
        for (k, (s, buf)) in inst.src.iter().zip(src).enumerate() {
            regs[k] = self.operand(s, exec, res, buf);
            swizzles[k] = s.swizzle;
        }
        // MOV copies whole rows inline: its kernel, a loop over slices of a length known
        // only at run time, is a `memcpy` call, a third of a short instruction's time on
        // the geometry and tessellation stages' four-lane machines.
        let copy = inst.opcode == Opcode::MOV;
        for c in mask_channels(mask) {
            let row = |k: usize| &regs[k][swizzles[k][c] as usize & 3];
            if copy {
                out[c] = *row(0);
            } else {
                op.run(self.isa, &mut out[c], [row(0), row(1), row(2), row(3)]);
            }
        }
        self.write(inst, 0, out, mask, exec);
    }

    /// Whole vectors in, vector out, per lane.
    /// Only the channels the function reads are fetched (the others read as zero).
    pub(crate) fn vector(
        &mut self,
        inst: &Inst,
        res: &Res,
        exec: u32,
        op: VectorOp,
        scratch: &mut Scratch<N>,
    ) {
        let Scratch {
            src: bufs,
            out,
            zero,
            ..
        } = scratch;
        let mut rows: [[&[u32]; 4]; 3] = [[&zero[0]; 4]; 3];
        for (k, (s, buf)) in inst.src.iter().zip(bufs).take(3).enumerate() {
            let reads = op.reads[k];
            if reads != 0 {
                let reg = self.operand(s, exec, res, buf);
                for c in mask_channels(reads) {
                    rows[k][c] = &reg[s.swizzle[c] as usize & 3];
                }
            }
        }
        let [o0, o1, o2, o3] = out;
        op.lanes.run(self.isa, [o0, o1, o2, o3], &rows);
        self.write(inst, 0, out, 0xf, exec);
    }

    /// 64-bit operations on channel pairs. Shapes, from the opcode's operand types:
    /// pair → pair (both 64-bit); pair → word (`D2F`-like: channel p; comparisons: first
    /// enabled channel of pair p); word → pair (`F2D`-like: source channel p); a 32-bit
    /// source beside 64-bit ones (`DLDEXP`) reads channel 2p.
    ///
    /// Out of line, so that the machine loop's common path stays small.
    #[inline(never)]
    pub(crate) fn wide(
        &mut self,
        inst: &Inst,
        res: &Res,
        exec: u32,
        op: WideOp,
        scratch: &mut Scratch<N>,
    ) {
        let Some(dst) = inst.dst.first().copied() else {
            return;
        };
        let saturate = inst.saturate && dst.ty == OperandType::F64;
        let any64 = inst.src.iter().any(|s| s.ty.is_64bit());
        let isa = self.isa;
        let Scratch {
            out, wide, zero, ..
        } = scratch;
        let [b0, b1, b2, spare] = wide;
        let mut mask = 0u8;
        for p in 0..2 {
            let (write, word_chan) = inst.wide_writes(p);
            if write == 0 {
                continue;
            }
            mask |= write;
            let mut rows: [[&[u32]; 2]; 3] = [[&zero[0], &zero[0]]; 3];
            for (k, buf) in [&mut *b0, &mut *b1, &mut *b2].into_iter().enumerate() {
                match inst.src.get(k) {
                    Some(src) if src.ty.is_64bit() => {
                        let [lo, hi] = self.fetch_wide(src, p, exec, res, buf);
                        rows[k] = [lo, hi];
                    }
                    Some(src) => {
                        let chan = if any64 { 2 * p } else { p };
                        buf[0] = self.fetch(src, chan, exec, res);
                        rows[k] = [&buf[0], &zero[0]];
                    }
                    None => {}
                }
            }
            match word_chan {
                None => {
                    let (lo, hi) = out.split_at_mut(2 * p + 1);
                    let (lo, hi) = (&mut lo[2 * p], &mut hi[0]);
                    op.lanes.run(isa, [lo, hi], rows);
                    if saturate {
                        for (lo, hi) in lo.iter_mut().zip(hi) {
                            let d = dsaturate(f64::from_bits(join([*lo, *hi])));
                            [*lo, *hi] = split(d.to_bits());
                        }
                    }
                }
                // A 32-bit result: the low words (the high ones are dropped).
                Some(c) => op.lanes.run(isa, [&mut out[c], &mut spare[0]], rows),
            }
        }
        if inst.saturate && dst.ty.is_64bit() {
            // Already saturated as doubles; do not apply the 32-bit rule on top.
            for c in mask_channels(mask & dst.mask) {
                self.store(&dst, c, &out[c], exec);
            }
        } else {
            self.write(inst, 0, out, mask, exec);
        }
    }

    /// DFRACEXP: significand of pair p to dst0 pair p, exponent to dst1 channel p.
    fn fracexp(&mut self, inst: &Inst, res: &Res, exec: u32) {
        let (Some(d0), Some(d1), Some(src)) = (inst.dst.first(), inst.dst.get(1), inst.src.first())
        else {
            return;
        };
        let (m0, m1) = (d0.mask, d1.mask);
        let mut sig = [[0u32; N]; 4];
        let mut exp = [[0u32; N]; 4];
        let mut buf = [[0; N]; 2];
        for p in 0..2 {
            let [lo, hi] = self.fetch_wide(src, p, exec, res, &mut buf);
            for l in 0..N {
                let (m, e) = dfracexp(f64::from_bits(join([lo[l], hi[l]])));
                let [lo, hi] = split(m.to_bits());
                sig[2 * p][l] = lo;
                sig[2 * p + 1][l] = hi;
                exp[p][l] = e as u32;
            }
        }
        let (d0, d1) = (*d0, *d1);
        for c in 0..4 {
            if m0 & (1 << c) != 0 {
                self.store(&d0, c, &sig[c], exec);
            }
            if m1 & (1 << c) != 0 && c < 2 {
                self.store(&d1, c, &exp[c], exec);
            }
        }
    }

    /// Quad derivatives (lanes of a quad: TL, TR, BL, BR).
    pub(crate) fn deriv(&mut self, inst: &Inst, res: &Res, exec: u32, d: Deriv, out: &mut Reg<N>) {
        let mask = inst.dst.first().map_or(0, |d| d.mask);
        // Only the channels of `mask` are computed, and only they are written.
        for (c, o) in out.iter_mut().enumerate() {
            if mask & (1 << c) == 0 {
                continue;
            }
            let v = self.fetch(&inst.src[0], c, exec, res).map(f32::from_bits);
            for q in 0..N / 4 {
                let b = 4 * q;
                let (v0, v1, v2, v3) = (v[b], v[b + 1], v[b + 2], v[b + 3]);
                let r = match d {
                    Deriv::CoarseX => [v3 - v2; 4],
                    Deriv::CoarseY => [v2 - v0; 4],
                    Deriv::FineX => [v1 - v0, v1 - v0, v3 - v2, v3 - v2],
                    Deriv::FineY => [v2 - v0, v3 - v1, v2 - v0, v3 - v1],
                };
                for k in 0..4 {
                    o[b + k] = r[k].to_bits();
                }
            }
        }
        self.write(inst, 0, out, mask, exec);
    }
}
