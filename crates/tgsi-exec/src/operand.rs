//! Operand access: source fetch (swizzle, indirect and 2-D indices — the constant buffer of
//! CONST and HWATOMIC, the vertex of geometry-shader inputs — abs then type-dependent
//! negate, 64-bit channel pairs) and destination writes (execution mask, write mask,
//! saturate, indirect destinations addressed by each quad's first lane; outputs shared by
//! the lanes of a tessellation-control wave, addressed per lane).
//!
//! Out-of-range register reads return 0 and out-of-range writes are dropped (softpipe does
//! not check them at all), so no shader can make the machine panic.

use crate::compile::{DstOp, Indirect, Read, RegFile, SrcOp};
use crate::isa::{compiled, kernel_type};
use crate::machine::{lanes_where, Machine, Reg, Res};
use crate::scalar::float::saturate;
use tgsi::opcode::OperandType;

impl SrcOp {
    /// Apply the modifiers to a 64-bit value: `|x|` clears the sign bit (F64) or takes the
    /// integer's absolute value, then negate flips the sign bit or negates the integer.
    fn modify_wide(&self, mut x: u64) -> u64 {
        let float = self.ty == OperandType::F64;
        if self.abs {
            x = if float {
                x & !(1 << 63)
            } else {
                (x as i64).wrapping_abs() as u64
            };
        }
        if self.neg {
            x = if float {
                x ^ (1 << 63)
            } else {
                x.wrapping_neg()
            };
        }
        x
    }

    /// The modifiers as operations on a word: `|x|` clears the sign bit, then negate flips
    /// it (float-like types) or negates the integer. Returns `(keep, flip, negate)`: the
    /// word becomes `x & keep ^ flip`, then its integer negation where `negate`.
    #[inline(always)]
    fn word_ops(&self) -> (u32, u32, bool) {
        let keep = if self.abs { 0x7fff_ffff } else { u32::MAX };
        let float = self.ty.is_float_like();
        let flip = if self.neg && float { 0x8000_0000 } else { 0 };
        (keep, flip, self.neg && !float)
    }

    /// Apply the modifiers to one word ([`SrcOp::word_ops`]).
    pub(crate) fn modify(&self, x: u32) -> u32 {
        let (keep, flip, negate) = self.word_ops();
        let x = x & keep ^ flip;
        if negate {
            x.wrapping_neg()
        } else {
            x
        }
    }

    /// [`SrcOp::modify`] of a row of lanes in place, the modifiers' choice made once for
    /// the row, so that the lane loop is one vector operation.
    #[inline(always)]
    pub(crate) fn modify_row<const N: usize>(&self, row: &mut [u32; N]) {
        let (keep, flip, negate) = self.word_ops();
        if negate {
            row.iter_mut().for_each(|x| *x = (*x & keep).wrapping_neg());
        } else {
            row.iter_mut().for_each(|x| *x = *x & keep ^ flip);
        }
    }
}

/// The channels (0 to 3) whose bits are set in `mask`.
#[inline]
pub(crate) fn mask_channels(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| mask & (1 << c) != 0)
}

/// A word clamped to [0, 1] as a float (`_SAT`).
#[inline]
pub(crate) fn saturate_word(x: u32) -> u32 {
    saturate(f32::from_bits(x)).to_bits()
}

kernel_type!(
    /// Write `vals` into `row` for the lanes in `exec`, saturated if `saturate`.
    MergeKernel,
    fn(row: &mut [u32], vals: &[u32], exec: u32, saturate: bool)
);

/// The one [`MergeKernel`]: a select per lane, no branch (with AVX2, a variable shift
/// makes each lane's mask).
pub(crate) const MERGE_ROW: MergeKernel =
    compiled!(MergeKernel, |row: &mut [u32],
                            vals: &[u32],
                            exec: u32,
                            saturate: bool| {
        for (l, (r, &v)) in row.iter_mut().zip(vals).enumerate() {
            let v = if saturate { saturate_word(v) } else { v };
            // All ones for a lane outside `exec`, which keeps its word.
            let keep = (exec >> l & 1).wrapping_sub(1);
            *r = *r & keep | v & !keep;
        }
    });

/// A 64-bit value from its words, low first.
#[inline(always)]
pub(crate) fn join([lo, hi]: [u32; 2]) -> u64 {
    u64::from(lo) | u64::from(hi) << 32
}

/// The words of a 64-bit value, low first.
#[inline(always)]
pub(crate) fn split(x: u64) -> [u32; 2] {
    [x as u32, (x >> 32) as u32]
}

/// Channels `reads` of `buf` set to the words of `v`, the same in every lane.
#[inline(always)]
fn spread<const N: usize>(buf: &mut Reg<N>, v: [u32; 4], reads: u8) {
    for c in mask_channels(reads) {
        buf[c] = [v[c]; N];
    }
}

/// The vector a directly addressed CONST or IMM source reads (`None` for other files and
/// out of range).
#[inline]
fn shared_vector<'r>(s: &SrcOp, res: &Res<'r>) -> Option<&'r [u32; 4]> {
    let index = usize::try_from(s.index).ok()?;
    match s.file {
        RegFile::Const => res.consts.get(usize::try_from(s.dim).ok()?)?.get(index),
        RegFile::Imm => res.imms.get(index),
        _ => None,
    }
}

impl<const N: usize> Machine<N> {
    /// Per-lane indices `base + ADDR[k].c`; lanes outside `exec` use index 0.
    fn lane_indices(&self, base: i32, ind: &Indirect, exec: u32) -> [i64; N] {
        let mut out = [0i64; N];
        let addr = ind
            .file
            .lane_file()
            .and_then(|f| self.regs[f].get(ind.index as usize));
        for (l, o) in out.iter_mut().enumerate() {
            if exec & (1 << l) != 0 {
                let a = addr.map_or(0, |r| r[ind.comp as usize & 3][l] as i32);
                *o = i64::from(base) + i64::from(a);
            }
        }
        out
    }

    /// Each lane's outer index (vertex or constant buffer) and register index of source
    /// `s`: the indirect ones where it has them.
    fn source_indices(&self, s: &SrcOp, exec: u32) -> ([i64; N], [i64; N]) {
        let at = |base: i32, ind: &Option<Indirect>| match ind {
            Some(ind) => self.lane_indices(base, ind, exec),
            None => [i64::from(base); N],
        };
        (at(s.dim, &s.dim_indirect), at(s.index, &s.indirect))
    }

    /// Raw words of channel `c` of a source register, before modifiers.
    #[inline(always)]
    fn fetch_raw(&self, s: &SrcOp, c: usize, exec: u32, res: &Res) -> [u32; N] {
        if !s.is_indirect() {
            self.fetch_direct(s, c, res)
        } else {
            self.fetch_indirect(s, c, exec, res)
        }
    }

    /// [`Machine::fetch_raw`] for a source with an indirect index: per lane.
    #[inline(never)]
    fn fetch_indirect(&self, s: &SrcOp, c: usize, exec: u32, res: &Res) -> [u32; N] {
        let mut out = [0u32; N];
        let (dims, idx) = self.source_indices(s, exec);
        match s.file {
            RegFile::Const => {
                for l in 0..N {
                    out[l] = usize::try_from(dims[l])
                        .ok()
                        .and_then(|b| res.consts.get(b))
                        .zip(usize::try_from(idx[l]).ok())
                        .and_then(|(buf, i)| buf.get(i))
                        .map_or(0, |v| v[c]);
                }
            }
            RegFile::Imm => {
                let imms = res.imms;
                for l in 0..N {
                    out[l] = usize::try_from(idx[l])
                        .ok()
                        .and_then(|i| imms.get(i))
                        .map_or(0, |v| v[c]);
                }
            }
            RegFile::Null => {}
            file => {
                if let Some(f) = file.lane_file() {
                    for l in 0..N {
                        out[l] = self.lane_reg(f, dims[l], idx[l]).map_or(0, |r| r[c][l]);
                    }
                }
            }
        }
        out
    }

    /// Source `s` as a register whose channel `s.swizzle[c]` holds result channel `c`: the
    /// register itself when the source reads a per-lane register as it is, otherwise `buf`
    /// with the register channels `s.reads` fetched and modified.
    #[inline(always)]
    pub(crate) fn operand<'a>(
        &'a self,
        s: &SrcOp,
        exec: u32,
        res: &Res,
        buf: &'a mut Reg<N>,
    ) -> &'a Reg<N> {
        let reads = s.reads;
        match s.read {
            Read::Lane {
                file,
                vertex,
                index,
            } => match self.lane_reg(file, vertex as i64, index as i64) {
                Some(r) if !(s.abs || s.neg) => return r,
                Some(r) => {
                    for c in mask_channels(reads) {
                        buf[c] = r[c];
                        s.modify_row(&mut buf[c]);
                    }
                    return buf;
                }
                None => {}
            },
            Read::Const { buffer, index } => {
                // Missing constants read 0, then take the modifiers (−0 for a negation).
                let v = res.consts.get(buffer).and_then(|b| b.get(index));
                let v = v.copied().unwrap_or([0; 4]);
                spread(buf, v.map(|x| s.modify(x)), reads);
                return buf;
            }
            Read::Imm(v) => {
                spread(buf, v, reads);
                return buf;
            }
            Read::Fetch => {}
        }
        self.fetch_into(s, reads, exec, res, buf);
        buf
    }

    /// The channels in `reads` of source `s`, modified, into `buf` (the general case of
    /// [`Machine::operand`]).
    fn fetch_into(&self, s: &SrcOp, reads: u8, exec: u32, res: &Res, buf: &mut Reg<N>) {
        if let (true, Some(f)) = (s.is_indirect(), s.file.lane_file()) {
            self.indirect_rows(s, f, reads, exec, buf);
            if s.abs || s.neg {
                for c in mask_channels(reads) {
                    s.modify_row(&mut buf[c]);
                }
            }
            return;
        }
        for c in mask_channels(reads) {
            buf[c] = self.fetch_raw(s, c, exec, res);
            if s.abs || s.neg {
                s.modify_row(&mut buf[c]);
            }
        }
    }

    /// The channels `reads` of an indirectly addressed source in per-lane file `f` (what
    /// [`Machine::fetch_indirect`] gives channel by channel), each lane's register found
    /// once for all its channels.
    fn indirect_rows(&self, s: &SrcOp, f: usize, reads: u8, exec: u32, buf: &mut Reg<N>) {
        let (dims, idx) = self.source_indices(s, exec);
        for l in 0..N {
            let reg = self.lane_reg(f, dims[l], idx[l]);
            for c in mask_channels(reads) {
                buf[c][l] = reg.map_or(0, |r| r[c][l]);
            }
        }
    }

    /// Register `index` of vertex `vertex` of per-lane file `f` (only the input file has
    /// more than one vertex), or `None` when either is out of range.
    #[inline]
    fn lane_reg(&self, f: usize, vertex: i64, index: i64) -> Option<&Reg<N>> {
        let index = usize::try_from(index).ok()?;
        let regs = &self.regs[f];
        let stride = match f {
            1 => self.input_stride,
            2 if self.output_stride > 0 => self.output_stride,
            _ => return regs.get(index),
        };
        if index >= stride {
            return None;
        }
        let vertex = usize::try_from(vertex).ok()?;
        regs.get(vertex.checked_mul(stride)?.checked_add(index)?)
    }

    /// [`Machine::fetch_raw`] for a source without indirect indices: one register for all
    /// lanes.
    #[inline(always)]
    fn fetch_direct(&self, s: &SrcOp, c: usize, res: &Res) -> [u32; N] {
        if let Some(f) = s.file.lane_file() {
            return self
                .lane_reg(f, i64::from(s.dim), i64::from(s.index))
                .map_or([0; N], |r| r[c]);
        }
        [shared_vector(s, res).map_or(0, |v| v[c]); N]
    }

    /// Channel `chan` (after swizzle) of a 32-bit source, with modifiers.
    #[inline(always)]
    pub(crate) fn fetch(&self, s: &SrcOp, chan: usize, exec: u32, res: &Res) -> [u32; N] {
        let c = s.swizzle[chan & 3] as usize & 3;
        let mut v = match s.read {
            Read::Lane {
                file,
                vertex,
                index,
            } => self
                .lane_reg(file, vertex as i64, index as i64)
                .map_or([0; N], |r| r[c]),
            Read::Const { buffer, index } => {
                let v = res.consts.get(buffer).and_then(|b| b.get(index));
                [v.map_or(0, |v| v[c]); N]
            }
            // Modified already.
            Read::Imm(v) => return [v[c]; N],
            Read::Fetch => self.fetch_raw(s, c, exec, res),
        };
        if s.abs || s.neg {
            s.modify_row(&mut v);
        }
        v
    }

    /// The register of a per-lane file that lane 0 of each quad addresses with `s` (`None`
    /// when it is out of range); at most 8 quads.
    pub(crate) fn quad_indices(&self, s: &SrcOp, exec: u32) -> [Option<usize>; 8] {
        let idx = match &s.indirect {
            Some(ind) => self.lane_indices(s.index, ind, exec),
            None => [i64::from(s.index); N],
        };
        std::array::from_fn(|q| idx.get(4 * q).and_then(|&i| usize::try_from(i).ok()))
    }

    /// The lanes where channel x of source `s` (modified) satisfies `p`: the tests of IF,
    /// UIF, BREAKC and CALLNZ, on the register's row in place when the source needs no
    /// modifier (a copy there cost a stall: the copy's stores and the test's loads did
    /// not line up).
    #[inline(always)]
    pub(crate) fn lanes_of(&self, s: &SrcOp, exec: u32, res: &Res, p: impl Fn(u32) -> bool) -> u32 {
        if let Read::Lane {
            file,
            vertex,
            index,
        } = s.read
        {
            if !s.abs && !s.neg {
                let c = s.swizzle[0] as usize & 3;
                return match self.lane_reg(file, vertex as i64, index as i64) {
                    Some(r) => lanes_where(&r[c], p),
                    None => lanes_where(&[0; N], p),
                };
            }
        }
        lanes_where(&self.fetch(s, 0, exec, res), p)
    }

    /// Pair `p` (channels 2p, 2p+1 after swizzle) of a 64-bit source, with 64-bit
    /// modifiers: its low and high words, read in place from a register where they need
    /// no conversion, else converted into `buf`.
    #[inline(always)]
    pub(crate) fn fetch_wide<'a>(
        &'a self,
        s: &SrcOp,
        p: usize,
        exec: u32,
        res: &Res,
        buf: &'a mut [[u32; N]; 2],
    ) -> [&'a [u32; N]; 2] {
        let [lo, hi] = [2 * p, 2 * p + 1].map(|c| s.swizzle[c] as usize & 3);
        let in_place = match s.read {
            Read::Lane {
                file,
                vertex,
                index,
            } => self.lane_reg(file, vertex as i64, index as i64),
            // An immediate's words spread straight into `buf` (its modifiers are 32-bit
            // ones: a modified 64-bit immediate takes the general path).
            Read::Imm(v) if !s.abs && !s.neg => {
                *buf = [[v[lo]; N], [v[hi]; N]];
                let [lo, hi] = buf;
                return [lo, hi];
            }
            _ => None,
        };
        match in_place {
            Some(r) if !s.abs && !s.neg => return [&r[lo], &r[hi]],
            Some(r) => *buf = [r[lo], r[hi]],
            None => *buf = [lo, hi].map(|c| self.fetch_raw(s, c, exec, res)),
        }
        if s.abs || s.neg {
            let [lo, hi] = buf;
            for (lo, hi) in lo.iter_mut().zip(hi) {
                [*lo, *hi] = split(s.modify_wide(join([*lo, *hi])));
            }
        }
        let [lo, hi] = buf;
        [lo, hi]
    }

    /// The register a directly addressed destination of a per-lane file writes, when every
    /// lane writes its own copy (`None` for other destinations, and out of range).
    #[inline]
    pub(crate) fn direct_dst(&mut self, d: &DstOp) -> Option<&mut Reg<N>> {
        let (f, index) = d.direct?;
        if f == 2 && self.output_stride > 0 {
            return None;
        }
        self.regs[f].get_mut(index)
    }

    /// Write channel `chan` of `d` for the lanes in `exec` (write mask checked by callers).
    pub(crate) fn store(&mut self, d: &DstOp, chan: usize, vals: &[u32; N], exec: u32) {
        let Some(f) = d.file.lane_file() else { return };
        if f == 2 && self.output_stride > 0 {
            return self.store_shared(d, chan, vals, exec);
        }
        match &d.indirect {
            None => {
                if let Some(r) = self.regs[f].get_mut(d.index as usize) {
                    if exec == Self::ALL {
                        r[chan] = *vals;
                    } else {
                        for l in 0..N {
                            if exec & (1 << l) != 0 {
                                r[chan][l] = vals[l];
                            }
                        }
                    }
                }
            }
            Some(ind) => {
                for q in 0..N / 4 {
                    let addr = ind
                        .file
                        .lane_file()
                        .and_then(|af| self.regs[af].get(ind.index as usize))
                        .map_or(0, |r| r[ind.comp as usize & 3][4 * q] as i32);
                    let idx = i64::from(d.index) + i64::from(addr);
                    let Some(r) = usize::try_from(idx)
                        .ok()
                        .and_then(|i| self.regs[f].get_mut(i))
                    else {
                        continue;
                    };
                    for l in 4 * q..4 * q + 4 {
                        if exec & (1 << l) != 0 {
                            r[chan][l] = vals[l];
                        }
                    }
                }
            }
        }
    }

    /// [`Machine::store`] to outputs the lanes share (tessellation control): each lane in
    /// `exec`, in lane order, writes its value into every lane's copy of the register it
    /// addresses (`OUT[v][i]`, vertex and index taken per lane), so the last writer wins.
    fn store_shared(&mut self, d: &DstOp, chan: usize, vals: &[u32; N], exec: u32) {
        let stride = self.output_stride as i64;
        let per_lane = |m: &Self, base: i32, ind: &Option<Indirect>| match ind {
            Some(ind) => m.lane_indices(base, ind, exec),
            None => [i64::from(base); N],
        };
        let index = per_lane(self, d.index, &d.indirect);
        let vertex = per_lane(self, d.dim, &d.dim_indirect);
        for l in 0..N {
            if exec & (1 << l) == 0 || !(0..stride).contains(&index[l]) || vertex[l] < 0 {
                continue;
            }
            let at = usize::try_from(vertex[l] * stride + index[l]).ok();
            if let Some(r) = at.and_then(|i| self.regs[2].get_mut(i)) {
                r[chan] = [vals[l]; N];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row's modifiers are each word's: `|x|`, `-x` and `-|x|` on float-like and integer
    /// sources, over signs, zeros, NaNs, denormals and the integer extremes.
    #[test]
    fn a_modified_row_is_each_word_modified() {
        let words = [
            0,
            0x8000_0000,
            1,
            0x7fff_ffff,
            0xffff_ffff,
            0x3f80_0000,
            0xbf80_0000,
            0x7fc0_0000,
            0xffc0_0001,
            0x0000_0001,
            0x8000_0001,
            0x7f80_0000,
            0xff80_0000,
            42,
            0xdead_beef,
            0x1234_5678,
        ];
        for ty in [OperandType::F32, OperandType::I32, OperandType::U32] {
            for (abs, neg) in [(false, false), (true, false), (false, true), (true, true)] {
                let s = SrcOp {
                    file: RegFile::Temp,
                    index: 0,
                    indirect: None,
                    dim: 0,
                    dim_indirect: None,
                    swizzle: [0, 1, 2, 3],
                    abs,
                    neg,
                    ty,
                    read: Read::Fetch,
                    reads: 0xf,
                };
                let mut row = words;
                s.modify_row(&mut row);
                assert_eq!(
                    row,
                    words.map(|x| s.modify(x)),
                    "{ty:?} abs {abs} neg {neg}"
                );
            }
        }
    }
}
