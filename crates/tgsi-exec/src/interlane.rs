//! The inter-lane opcodes over a wave, following the spec (softpipe skips them): the
//! subgroup is the machine's wave of `N` lanes, and its active invocations are the lanes of
//! the execution mask that are neither helpers nor discarded.
//!
//! * VOTE_ANY / VOTE_ALL / VOTE_EQ, per enabled channel: `~0` when some / every active lane
//!   has a non-zero value / the same value, else 0 (an empty subgroup: ALL and EQ true).
//! * BALLOT: the 64-bit mask of active lanes whose `src0.x` is non-zero, low word in `.x`,
//!   high word in `.y`.
//! * READ_FIRST: `src0` of the lowest active lane; READ_INVOC: `src0` of lane `src1.x` as
//!   read by the lowest active lane (0 for a lane number past the wave).
//!
//! Every active lane receives the result.

use crate::compile::Inst;
use crate::machine::{Machine, Res};
use crate::ops::{Kind, Vote};

impl<const N: usize> Machine<N> {
    /// Execute an inter-lane opcode.
    pub(crate) fn interlane(&mut self, inst: &Inst, res: &Res) {
        let exec = self.exec();
        let active = exec & !self.helpers & !self.kill;
        let lanes = || (0..N).filter(move |l| active & (1 << l) != 0);
        let Some(src) = inst.src.first() else { return };
        let mut out = [[0u32; N]; 4];
        match inst.kind {
            Kind::Vote(v) => {
                let mask = inst.dst.first().map_or(0, |d| d.mask);
                for (c, o) in out.iter_mut().enumerate() {
                    if mask & (1 << c) == 0 {
                        continue;
                    }
                    let x = self.fetch(src, c, exec, res);
                    let first = lanes().next().map_or(0, |l| x[l]);
                    let yes = match v {
                        Vote::Any => lanes().any(|l| x[l] != 0),
                        Vote::All => lanes().all(|l| x[l] != 0),
                        Vote::Eq => lanes().all(|l| x[l] == first),
                    };
                    *o = [if yes { !0 } else { 0 }; N];
                }
            }
            Kind::Ballot => {
                let x = self.fetch(src, 0, exec, res);
                let bits = lanes().filter(|&l| x[l] != 0).fold(0u64, |m, l| m | 1 << l);
                out[0] = [bits as u32; N];
                out[1] = [(bits >> 32) as u32; N];
            }
            Kind::ReadFirst | Kind::ReadInvoc => {
                let first = lanes().next();
                let from = if matches!(inst.kind, Kind::ReadInvoc) {
                    let Some(which) = inst.src.get(1) else { return };
                    let idx = self.fetch(which, 0, exec, res);
                    first.map(|l| idx[l] as usize)
                } else {
                    first
                };
                for (c, o) in out.iter_mut().enumerate() {
                    let x = self.fetch(src, c, exec, res);
                    *o = [from.and_then(|l| x.get(l).copied()).unwrap_or(0); N];
                }
            }
            _ => return,
        }
        let mask = if matches!(inst.kind, Kind::Ballot) {
            0b0011
        } else {
            0xf
        };
        self.write(inst, 0, &out, mask, exec);
    }
}
