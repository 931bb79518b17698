//! Runs of EX2, LG2, SIN, COS or POW instructions, computed in one host call.
//!
//! These opcodes give glibc's results, so the compiled code hands their lanes to the
//! interpreter's scalar functions (`crate::scalar_lanes`), and every call saves the
//! vector registers live across it. Mesa writes a vector `sin(v)` as four SIN
//! instructions in a row, one per channel; such a run — the same opcode, consecutive, no
//! instruction reading a register an earlier one of the run writes — fetches every
//! source first, computes all the lanes in one call and then writes the results in
//! program order, which is what running the instructions one by one gives. A run (of one
//! instruction or more) where no lane executes makes no call: its results are not written
//! to any lane that reads them (the rest of a loop's last pass after every lane has left
//! by BRK runs so, as in the interpreter, which skips such instructions' work too).

use super::Translator;
use crate::scalar_lanes as sl;
use cranelift_codegen::ir::Value;
use std::collections::HashMap;
use tgsi_exec::compile::Inst;
use tgsi_exec::ops::Kind;
use tgsi_exec::Program;

/// The runs of `program` (first instruction → length); with `approximate`, only of the
/// opcodes computed exactly even then (POW: the others are vector code).
pub(super) fn runs(program: &Program, approximate: bool) -> HashMap<usize, usize> {
    let mut out = HashMap::new();
    let insts = &program.insts;
    let mut pc = 0;
    while pc < insts.len() {
        let vector_code = approximate && crate::approx::approximates(insts[pc].opcode);
        let n = if vector_code { 0 } else { run_at(insts, pc) };
        if n > 0 {
            out.insert(pc, n);
        }
        pc += n.max(1);
    }
    out
}

/// Most instructions in a run: a vector's channels and then some, while the lanes' stack
/// slot stays small (at most 2 KiB: 16 instructions of 4 chunks of POW's two operands).
const MAX_RUN: usize = 16;

/// The length of the run starting at `first` (0 or 1: none).
fn run_at(insts: &[Inst], first: usize) -> usize {
    let Some(head) = insts.get(first).filter(|i| member(i)) else {
        return 0;
    };
    let mut n = 1;
    while let Some(next) = insts.get(first + n).filter(|_| n < MAX_RUN) {
        let reads_the_run = insts[first..first + n].iter().any(|earlier| {
            earlier.dst.iter().any(|d| {
                next.src
                    .iter()
                    .any(|s| s.file == d.file && s.index == d.index)
            })
        });
        if !member(next) || next.opcode != head.opcode || reads_the_run {
            break;
        }
        n += 1;
    }
    n
}

/// Whether `inst` may be part of a run: one of the opcodes with all its sources, compiled
/// as a replicated vector instruction with direct operands and a 32-bit destination in a
/// lane file.
fn member(inst: &Inst) -> bool {
    matches!(inst.kind, Kind::Vector(_))
        && sl::host_function(inst.opcode).is_some()
        && inst.src.len() == inst.opcode.info().num_src as usize
        && !crate::support::runs_on_step(inst)
        && inst.dst.len() == 1
        && inst
            .dst
            .iter()
            .all(|d| d.indirect.is_none() && d.file.lane_file().is_some() && !d.ty.is_64bit())
        && inst.src.iter().all(|s| !s.is_indirect())
}

impl Translator<'_, '_> {
    /// The `n` instructions of the run from `first` ([`runs`]).
    pub(super) fn transcendentals(&mut self, first: usize, n: usize) {
        let program = self.program;
        let insts = &program.insts[first..first + n];
        let op = insts[0].opcode;
        let Some(func) = sl::host_function(op) else {
            return;
        };
        // Per source operand (POW has two), the lanes of every instruction of the run.
        let mut operands: Vec<Vec<Value>> = vec![Vec::new(); op.info().num_src as usize];
        for inst in insts {
            for (lanes, s) in operands.iter_mut().zip(&inst.src) {
                lanes.extend(self.fetch(s, 0));
            }
        }
        let operands: Vec<&[Value]> = operands.iter().map(Vec::as_slice).collect();
        let exec = self.exec_all();
        let any = self.any_of(&exec);
        let results = sl::call_on_lanes(self.b, &operands, func, Some(any));
        for (k, (inst, ch)) in insts.iter().zip(results.chunks(self.g)).enumerate() {
            self.pc = first + k;
            self.write_replicated(inst, ch.to_vec());
        }
    }
}
