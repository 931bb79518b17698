//! The memory opcodes over a wave: LOAD, STORE, the ATOM* family and RESQ on BUFFER,
//! MEMORY, HWATOMIC and CONST resources (IMAGE resources are in [`crate::image`]), and
//! IMG2HND / SAMP2HND. Behaviour follows softpipe's `tgsi_exec` (Mesa 22.3) wherever it is
//! defined:
//!
//! * Addresses are bytes (`src.x`); they need not be aligned. The resource slot is the
//!   operand's index plus, when indirect, the address of the first active lane of each quad.
//! * A bound `BUFFER` shows its view's `size` bytes; a view reaching past its resource, or
//!   an unbound slot, has size 0. `MEMORY[i]` is the workgroup's shared memory whatever `i`
//!   and its declared type (softpipe has no other memory); outside compute runs it has size
//!   0. `CONST[b]` (LOAD only) is constant buffer `b` as bytes.
//! * LOAD reads, for every lane, the words `x .. x + 4·k` where `k` is the highest written
//!   channel + 1, or zeros when they do not all fit.
//! * STORE writes, for each active non-helper lane in lane order, the enabled channels `c`
//!   whose word `x + 4c` fits (`4c + 4 ≤ size − x`); the others are dropped.
//! * Atomics run lane by lane in lane order on `.x`; an address whose word does not fit
//!   returns 0 and writes nothing. As in softpipe, nothing happens unless the destination
//!   enables `.x`, and then all four destination channels receive the old value.
//!   Misaligned words are updated by a plain read-modify-write (atomic only within one
//!   thread); aligned ones atomically. ATOMINC_WRAP / ATOMDEC_WRAP (which softpipe skips)
//!   follow [`AtomicOp::apply`].
//! * `HWATOMIC[b][c]` is counter `c` (4 bytes each; `c` with its indirect address added) of
//!   the buffer bound to `hw_atomics[b]`, and a 1-D `HWATOMIC[b]` is its counter 0. The
//!   register names the counter: the address operand is not added. Mesa's `nir_to_tgsi`
//!   folds a counter's byte offset into the register index (`offset / 4`, or an address
//!   register holding `offset >> 2`) and passes the same byte offset again as the address
//!   operand (`ATOMUADD …, HWATOMIC[0][3], 12`), which virglrenderer, the host that
//!   receives these shaders, ignores; softpipe has no hardware atomics.
//! * RESQ writes the size in bytes to `.x` only.
//! * IMG2HND and SAMP2HND return the slot number as the 64-bit handle in `.xy` (the
//!   interpreter has no bindless resources; the handle only names the slot).

use crate::compile::{Indirect, Inst, RegFile};
use crate::machine::{Machine, Reg, Res, Scratch};
use crate::ops::{AtomicOp, Kind};
use crate::resource::{BufferView, Storage};
use std::sync::atomic::Ordering::Relaxed;

/// Bytes a memory opcode can address.
#[derive(Clone, Copy)]
pub(crate) enum Space<'a> {
    /// `size` bytes of `data` from byte `base`.
    Bytes {
        /// The storage.
        data: &'a Storage,
        /// First byte.
        base: usize,
        /// Visible bytes.
        size: u32,
    },
    /// A constant buffer (read only).
    Const(&'a [[u32; 4]]),
    /// Nothing: size 0.
    Empty,
}

impl Space<'_> {
    /// Visible bytes.
    pub(crate) fn size(&self) -> u32 {
        match *self {
            Space::Bytes { size, .. } => size,
            Space::Const(c) => u32::try_from(c.len().saturating_mul(16)).unwrap_or(u32::MAX),
            Space::Empty => 0,
        }
    }

    /// The word at byte `at` (which lies inside: checked by callers), 0 if unreadable.
    #[inline]
    pub(crate) fn read(&self, at: u32) -> u32 {
        // Aligned words of storage, the common case, without the general path's call.
        if let Space::Bytes { data, base, .. } = *self {
            if let Some(w) = data.load_u32(base.saturating_add(at as usize)) {
                return w;
            }
        }
        self.read_unaligned(at)
    }

    /// [`Space::read`] of a word that is not an aligned word of storage.
    #[inline(never)]
    fn read_unaligned(&self, at: u32) -> u32 {
        match *self {
            Space::Bytes { data, base, .. } => {
                let abs = base.saturating_add(at as usize);
                if let Some(w) = data.load_u32(abs) {
                    return w;
                }
                let mut b = [0u8; 4];
                if data.read(abs, &mut b) {
                    u32::from_le_bytes(b)
                } else {
                    0
                }
            }
            Space::Const(c) => {
                let byte = |i: u32| {
                    let at = at as usize + i as usize;
                    c.get(at / 16)
                        .map_or(0, |v| v[(at % 16) / 4].to_le_bytes()[at % 4])
                };
                u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)])
            }
            Space::Empty => 0,
        }
    }

    /// Write the word at byte `at` (inside: checked by callers).
    pub(crate) fn write(&self, at: u32, value: u32) {
        if let Space::Bytes { data, base, .. } = *self {
            let abs = base.saturating_add(at as usize);
            if !data.store_u32(abs, value) {
                data.write(abs, &value.to_le_bytes());
            }
        }
    }

    /// The atomic read-modify-write of the word at `at` (inside: checked by callers);
    /// returns the old word.
    pub(crate) fn update(&self, at: u32, f: impl Fn(u32) -> u32) -> u32 {
        let Space::Bytes { data, base, .. } = *self else {
            return 0;
        };
        let abs = base.saturating_add(at as usize);
        if let Some(old) = data.update_u32(abs, |old| Some(f(old))) {
            return old;
        }
        let old = self.read(at);
        self.write(at, f(old));
        old
    }

    /// Whether `n` bytes at `at` lie inside.
    pub(crate) fn fits(&self, at: u32, n: u32) -> bool {
        let size = self.size();
        size >= n && at <= size - n
    }
}

/// The bytes a `pipe_shader_buffer` shows: nothing when the view reaches past its resource
/// (softpipe's check).
fn buffer_space(view: Option<&BufferView>) -> Space<'_> {
    let Some(v) = view.filter(|v| v.shows_bytes()) else {
        return Space::Empty;
    };
    Space::Bytes {
        data: &v.resource.data,
        base: v.offset as usize,
        size: v.size,
    }
}

impl<const N: usize> Machine<N> {
    /// Lanes that may change memory: active, not helpers, not discarded.
    pub(crate) fn memory_lanes(&self) -> u32 {
        self.exec() & !self.helpers & !self.kill
    }

    /// The slot each lane addresses: `index`, plus with an indirect index the address of
    /// the first lane of `exec` in the lane's quad (`None`: negative, or no active lane).
    pub(crate) fn units(
        &self,
        index: i32,
        indirect: Option<&Indirect>,
        exec: u32,
    ) -> [Option<u32>; N] {
        let Some(ind) = indirect else {
            return [u32::try_from(index).ok(); N];
        };
        let mut out = [None; N];
        for q in 0..N / 4 {
            let first = (4 * q..4 * q + 4).find(|l| exec & (1 << l) != 0);
            let unit = first.and_then(|l| self.indirect_unit(index, ind, l));
            out[4 * q..4 * q + 4].fill(unit);
        }
        out
    }

    /// The hardware atomic counter each lane addresses: `index`, plus with an indirect
    /// index the lane's own address (`None`: negative). Unlike a resource slot, a counter
    /// index is an address within the buffer (Mesa makes it from the counter's byte offset).
    fn counters(&self, index: i32, indirect: Option<&Indirect>) -> [Option<u32>; N] {
        match indirect {
            None => [u32::try_from(index).ok(); N],
            Some(ind) => std::array::from_fn(|l| self.indirect_unit(index, ind, l)),
        }
    }

    /// `index` plus lane `l`'s address in `ind` (`None`: negative).
    fn indirect_unit(&self, index: i32, ind: &Indirect, l: usize) -> Option<u32> {
        let a = ind
            .file
            .lane_file()
            .and_then(|f| self.regs[f].get(ind.index as usize))
            .map_or(0, |r| r[ind.comp as usize & 3][l] as i32);
        u32::try_from(i64::from(index) + i64::from(a)).ok()
    }

    /// The bytes `file` slot `unit` shows.
    fn space<'r>(file: RegFile, unit: Option<u32>, res: &Res<'r>) -> Space<'r> {
        let Some(unit) = unit else {
            return Space::Empty;
        };
        match file {
            RegFile::Buffer => buffer_space(res.resources.buffer(unit)),
            RegFile::HwAtomic => buffer_space(res.resources.hw_atomic(unit)),
            RegFile::Memory => res.shared.map_or(Space::Empty, |data| Space::Bytes {
                data,
                base: 0,
                size: u32::try_from(data.len()).unwrap_or(u32::MAX),
            }),
            RegFile::Const => res
                .consts
                .get(unit as usize)
                .map_or(Space::Empty, |c| Space::Const(c)),
            _ => Space::Empty,
        }
    }

    /// Execute LOAD, STORE, an atomic, RESQ or a handle opcode.
    pub(crate) fn memory(&mut self, inst: &Inst, res: &Res, scratch: &mut Scratch<N>) {
        let exec = self.exec();
        if self.direct_load_store(inst, res, exec, scratch) {
            return;
        }
        let (file, units, counters) = if matches!(inst.kind, Kind::Store) {
            let Some(d) = inst.dst.first() else { return };
            if d.file == RegFile::Image {
                self.image(inst, res, exec, d.index, d.indirect.as_ref());
                return;
            }
            (
                d.file,
                self.units(d.index, d.indirect.as_ref(), exec),
                [Some(0); N],
            )
        } else {
            let Some(s) = inst.src.first() else { return };
            match s.file {
                RegFile::Image if !matches!(inst.kind, Kind::Handle) => {
                    self.image(inst, res, exec, s.index, s.indirect.as_ref());
                    return;
                }
                // The slot is the outer index, the counter the inner one.
                RegFile::HwAtomic => (
                    s.file,
                    self.units(s.dim, s.dim_indirect.as_ref(), exec),
                    self.counters(s.index, s.indirect.as_ref()),
                ),
                _ => (
                    s.file,
                    self.units(s.index, s.indirect.as_ref(), exec),
                    [Some(0); N],
                ),
            }
        };
        // Without an indirect index every lane addresses the same slot.
        let uniform = units.iter().all(|&u| u == units[0]);
        let first = Self::space(file, units[0], res);
        let space_of = |l: usize| {
            if uniform {
                first
            } else {
                Self::space(file, units[l], res)
            }
        };
        match inst.kind {
            Kind::Handle => {
                let mut out = [[0u32; N]; 4];
                out[0] = units.map(|u| u.unwrap_or(0));
                self.write(inst, 0, &out, 0b0011, exec);
            }
            Kind::Load => {
                let mask = inst.dst.first().map_or(0, |d| d.mask & 0xf);
                let words = 8 - mask.leading_zeros() as usize;
                let n = 4 * words as u32;
                let addr = self.fetch_src(inst, 1, 0, exec, res);
                let mut out = [[0u32; N]; 4];
                for l in 0..N {
                    let space = space_of(l);
                    let at = if file == RegFile::HwAtomic {
                        hw_counter_offset(counters[l])
                    } else {
                        Some(addr[l])
                    };
                    let Some(at) = at else { continue };
                    if n > 0 && space.fits(at, n) {
                        for (c, o) in out.iter_mut().enumerate().take(words) {
                            o[l] = space.read(at + 4 * c as u32);
                        }
                    }
                }
                self.write(inst, 0, &out, 0xf, exec);
            }
            Kind::Store => {
                let lanes = self.memory_lanes();
                let mask = inst.dst.first().map_or(0, |d| d.mask);
                let addr = self.fetch_src(inst, 0, 0, exec, res);
                // Only the channels the mask stores are read.
                let mut vals = [[0u32; N]; 4];
                for (c, v) in vals.iter_mut().enumerate() {
                    if mask & (1 << c) != 0 {
                        *v = self.fetch_src(inst, 1, c, exec, res);
                    }
                }
                for l in (0..N).filter(|l| lanes & (1 << l) != 0) {
                    let space = space_of(l);
                    let size = space.size();
                    if size < addr[l] {
                        continue;
                    }
                    let fit = ((size - addr[l]) / 4).min(4) as usize;
                    for (c, v) in vals.iter().enumerate().take(fit) {
                        if mask & (1 << c) != 0 {
                            space.write(addr[l] + 4 * c as u32, v[l]);
                        }
                    }
                }
            }
            Kind::Atomic(op) => {
                if inst.dst.first().is_none_or(|d| d.mask & 1 == 0) {
                    return;
                }
                let lanes = self.memory_lanes();
                let addr = self.fetch_src(inst, 1, 0, exec, res);
                let a = self.fetch_src(inst, 2, 0, exec, res);
                let b = match inst.src.get(3) {
                    Some(s) if op == AtomicOp::Cas => self.fetch(s, 0, exec, res),
                    _ => [0; N],
                };
                let mut old = a;
                for l in (0..N).filter(|l| lanes & (1 << l) != 0) {
                    let space = space_of(l);
                    let at = if file == RegFile::HwAtomic {
                        hw_counter_offset(counters[l])
                    } else {
                        Some(addr[l])
                    };
                    old[l] = match at {
                        Some(at) if space.fits(at, 4) => {
                            space.update(at, |v| op.apply(v, a[l], b[l], false))
                        }
                        _ => 0,
                    };
                }
                self.write_unmasked(inst, &old, exec);
            }
            Kind::Resq => {
                let mut out = [[0u32; N]; 4];
                out[0] = std::array::from_fn(|l| space_of(l).size());
                self.write(inst, 0, &out, 0b0001, exec);
            }
            _ => {}
        }
    }

    /// LOAD or STORE on a directly named buffer or shared memory that shows bytes (the
    /// common case, without working out a slot per lane); `false` for the others.
    #[inline(always)]
    fn direct_load_store(
        &mut self,
        inst: &Inst,
        res: &Res,
        exec: u32,
        scratch: &mut Scratch<N>,
    ) -> bool {
        let store = matches!(inst.kind, Kind::Store);
        let (file, index, indirect) = match (inst.kind, inst.src.first(), inst.dst.first()) {
            (Kind::Load, Some(s), _) => (s.file, s.index, s.indirect.is_some()),
            (Kind::Store, _, Some(d)) => (d.file, d.index, d.indirect.is_some()),
            _ => return false,
        };
        if indirect || !matches!(file, RegFile::Buffer | RegFile::Memory) {
            return false;
        }
        let Space::Bytes { data, base, size } = Self::space(file, u32::try_from(index).ok(), res)
        else {
            return false;
        };
        let mask = inst.dst.first().map_or(0, |d| d.mask & 0xf);
        let Scratch { src, out, .. } = scratch;
        let [buf0, buf1, ..] = src;
        if store {
            let (Some(a), Some(v)) = (inst.src.first(), inst.src.get(1)) else {
                return false;
            };
            // The address and value rows read in place (no copy of a register).
            let addr = &self.operand(a, exec, res, buf0)[a.swizzle[0] as usize & 3];
            let value = self.operand(v, exec, res, buf1);
            let vals = v.swizzle.map(|c| &value[c as usize & 3]);
            store_bytes(data, base, size, addr, vals, mask, self.memory_lanes());
        } else {
            let Some(a) = inst.src.get(1) else {
                return false;
            };
            // The address row read in place (no copy of a register).
            let addr = &self.operand(a, exec, res, buf1)[a.swizzle[0] as usize & 3];
            let words = 8 - mask.leading_zeros() as usize;
            load_bytes(out, data, base, size, addr, words);
            self.write(inst, 0, out, mask, exec);
        }
        true
    }

    /// Channel `c` of source `k`, or zeros when the instruction has no such source.
    pub(crate) fn fetch_src(
        &self,
        inst: &Inst,
        k: usize,
        c: usize,
        exec: u32,
        res: &Res,
    ) -> [u32; N] {
        inst.src
            .get(k)
            .map_or([0; N], |s| self.fetch(s, c, exec, res))
    }

    /// Write `vals` to all four channels of `dst0` whatever its write mask (softpipe's
    /// atomics do so), with `_SAT`.
    pub(crate) fn write_unmasked(&mut self, inst: &Inst, vals: &[u32; N], exec: u32) {
        let Some(mut dst) = inst.dst.first().copied() else {
            return;
        };
        dst.mask = 0xf;
        let v = if inst.saturate {
            vals.map(|x| crate::scalar::float::saturate(f32::from_bits(x)).to_bits())
        } else {
            *vals
        };
        for c in 0..4 {
            self.store(&dst, c, &v, exec);
        }
    }
}

/// LOAD of `words` words at `addr[l]` for every lane from the `size` bytes of `data` from
/// byte `base` into channels `0..words` of `out` (every lane's: zeros where they do not
/// fit): [`Machine::memory`]'s rule, with each lane's aligned words read straight from the
/// storage.
#[inline(always)]
fn load_bytes<const N: usize>(
    out: &mut Reg<N>,
    data: &Storage,
    base: usize,
    size: u32,
    addr: &[u32; N],
    words: usize,
) {
    if words == 1 && load_aligned_words(&mut out[0], data, base, size, addr) {
        return;
    }
    let n = 4 * words as u32;
    let whole = data.whole_words();
    let space = Space::Bytes { data, base, size };
    for (l, &at) in addr.iter().enumerate() {
        if size < n || at > size - n {
            out.iter_mut().take(words).for_each(|o| o[l] = 0);
            continue;
        }
        let abs = base.saturating_add(at as usize);
        let aligned = abs
            .is_multiple_of(4)
            .then(|| whole.get(abs / 4..abs / 4 + words));
        match aligned.flatten() {
            Some(ws) => {
                for (o, w) in out.iter_mut().zip(ws) {
                    o[l] = w.load(Relaxed);
                }
            }
            None => {
                for (c, o) in out.iter_mut().enumerate().take(words) {
                    o[l] = space.read(at + 4 * c as u32);
                }
            }
        }
    }
}

/// LOAD of one word for every lane where each lane's word is aligned and inside the `size`
/// bytes of `data` from byte `base` (the usual case: one check for the wave, then a plain
/// read per lane), into `row`; `false`, with `row` untouched, where some lane's is not.
#[inline(always)]
fn load_aligned_words<const N: usize>(
    row: &mut [u32; N],
    data: &Storage,
    base: usize,
    size: u32,
    addr: &[u32; N],
) -> bool {
    if !all_aligned_inside(addr, base, size) {
        return false;
    }
    let (whole, first) = (data.whole_words(), base / 4);
    for (o, &at) in row.iter_mut().zip(addr) {
        *o = whole
            .get(first + (at / 4) as usize)
            .map_or(0, |w| w.load(Relaxed));
    }
    true
}

/// Whether the word at `addr[l]` of every lane is aligned and inside the `size` bytes
/// from byte `base` (one check for the wave, which compiles to vector code).
#[inline(always)]
fn all_aligned_inside<const N: usize>(addr: &[u32; N], base: usize, size: u32) -> bool {
    let Some(last) = size.checked_sub(4) else {
        return false;
    };
    let misfit = addr
        .iter()
        .fold(0, |bad, &at| bad | u32::from(at > last) | at & 3);
    misfit == 0 && base.is_multiple_of(4)
}

/// STORE of the channels `mask` of `vals` at `addr[l]` for the lanes `lanes`, in lane
/// order, into the `size` bytes of `data` from byte `base`: [`Machine::memory`]'s rule,
/// aligned words written straight into the storage.
#[inline(always)]
fn store_bytes<const N: usize>(
    data: &Storage,
    base: usize,
    size: u32,
    addr: &[u32; N],
    vals: [&[u32; N]; 4],
    mask: u8,
    lanes: u32,
) {
    let whole = data.whole_words();
    // One channel, every lane's word aligned and inside (the usual STORE): one check for
    // the wave, then a plain write per storing lane.
    if mask == 1 && all_aligned_inside(addr, base, size) {
        let first = base / 4;
        for (l, (&at, &v)) in addr.iter().zip(vals[0]).enumerate() {
            if lanes & (1 << l) != 0 {
                if let Some(w) = whole.get(first + (at / 4) as usize) {
                    w.store(v, Relaxed);
                }
            }
        }
        return;
    }
    let space = Space::Bytes { data, base, size };
    for (l, &at) in addr.iter().enumerate() {
        if lanes & (1 << l) == 0 || size < at {
            continue;
        }
        let fit = ((size - at) / 4).min(4) as usize;
        let abs = base.saturating_add(at as usize);
        let aligned = abs
            .is_multiple_of(4)
            .then(|| whole.get(abs / 4..abs / 4 + fit));
        for c in (0..fit).filter(|c| mask & (1 << c) != 0) {
            match aligned.flatten() {
                Some(ws) => ws[c].store(vals[c][l], Relaxed),
                None => space.write(at + 4 * c as u32, vals[c][l]),
            }
        }
    }
}

/// The byte offset of hardware atomic counter `counter` (`HWATOMIC[slot][counter]`), `None`
/// when it overflows.
fn hw_counter_offset(counter: Option<u32>) -> Option<u32> {
    counter.and_then(|c| c.checked_mul(4))
}
