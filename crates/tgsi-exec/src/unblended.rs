//! Which writes to temporaries need no blend with the execution mask, for both engines.
//!
//! An engine writes a destination only in the active lanes: the interpreter merges each
//! result into the register under the execution mask, compiled code blends it with the
//! register's old value. The merge is only needed when an inactive lane will read that
//! old value later. A lane inactive at a write either never runs again (it was inactive
//! from the start or returned) or waits at a resume point of a structure enclosing the
//! write: the ELSE or ENDIF of an IF whose branch it did not take, the end of a loop it
//! continued (the next iteration) or the instruction after a loop it left. So when the
//! written channel is dead at every enclosing resume point (ordinary liveness over the
//! program's per-lane control-flow graph), the result can be written to every lane.
//!
//! Lanes see each other's values through the instructions the caller names
//! (`observes`): derivatives, texture instructions (sampling takes its LOD from the whole
//! quad, and register texel offsets and indirect slots from its first lane, active or
//! not), inter-lane opcodes, and for the JIT the instructions it hands to the
//! interpreter's step. The channels those read keep their merges wherever a lane may be
//! inactive, so what a neighbour sees is what a merging engine would show it (values reach
//! those channels only through merged writes, which leave inactive lanes alone); those
//! instructions' own writes keep their merges too. Outside every IF and loop of a program
//! without RET, only lanes inactive from the start can be inactive: an engine that runs
//! only waves whose lanes all start active may write such channels unmerged there too
//! ([`Unblended::full_waves_only`] says when that was done). Programs that address
//! temporaries indirectly, or whose control flow the analysis does not follow (switches,
//! subroutines, legacy jumps), keep every merge.

use crate::compile::{DstOp, Inst, RegFile, SrcOp};
use crate::ops::{Flow, Kind};
use crate::Program;

/// Largest number of temporary channels analysed (the temporaries the translator keeps
/// in SSA variables never exceed it); programs with more keep every blend.
const MAX_CHANNELS: usize = 1 << 14;

/// A set of temporary channels (`index · 4 + channel`).
#[derive(Clone, PartialEq)]
struct Set(Vec<u64>);

impl Set {
    fn empty(channels: usize) -> Set {
        Set(vec![0; channels.div_ceil(64)])
    }

    fn insert(&mut self, i: usize) {
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    fn remove(&mut self, i: usize) {
        if let Some(w) = self.0.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
    }

    fn contains(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    fn union(&mut self, other: &Set) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

/// The writes to temporaries that need no merge.
pub struct Unblended {
    /// For each instruction, the channels (bit c) of its temporary destination that may
    /// be written in every lane.
    pub writes: Vec<u8>,
    /// Some of those writes are correct only when every lane of the wave starts active.
    pub full_waves_only: bool,
}

/// Which component-wise, vector and 64-bit writes of `program` to temporaries need no merge, where
/// `observes` names the instructions whose reads may see other lanes than the ones they
/// write (their channels, and their own writes, keep the merges) and `full_waves` says
/// whether the caller runs only waves whose lanes all start active.
pub fn unblended_writes(
    program: &Program,
    observes: impl Fn(&Inst) -> bool,
    full_waves: bool,
) -> Unblended {
    let insts = &program.insts;
    let none = Unblended {
        writes: vec![0; insts.len()],
        full_waves_only: false,
    };
    let channels = program.register_counts()[0] * 4;
    if channels > MAX_CHANNELS || insts.iter().any(|i| i.indirect_temps().next().is_some()) {
        return none;
    }
    let returns = insts
        .iter()
        .any(|i| matches!(i.kind, Kind::Flow(Flow::Ret)));
    let mut observed = Set::empty(channels);
    for inst in insts.iter().filter(|i| observes(i)) {
        for (index, c) in temp_reads(inst) {
            observed.insert(index * 4 + c);
        }
    }
    let Some(succ) = successors(program) else {
        return none;
    };
    let live = live_in(program, &succ, channels);
    let continues = loops_continued(insts);
    let empty = Set::empty(channels);
    let live_at = |pc: usize| live.get(pc).unwrap_or(&empty);
    // The channels live at the resume points of the open structures, innermost last (each
    // entry holds its own and all enclosing ones).
    let mut waiting: Vec<Set> = Vec::new();
    let mut out = none;
    // Outside every structure, with no lane returned: only lanes inactive from the start
    // can be inactive.
    let settled = |waiting: &Vec<Set>| full_waves && waiting.is_empty() && !returns;
    for (pc, inst) in insts.iter().enumerate() {
        match inst.kind {
            Kind::Flow(Flow::If { .. }) => {
                // Lanes that do not take the branch wait at the ELSE part or the ENDIF.
                push(&mut waiting, live_at(not_taken(insts, inst)), &empty);
            }
            Kind::Flow(Flow::Else) => {
                // Now the lanes that took the branch wait at the ENDIF.
                waiting.pop();
                push(&mut waiting, live_at(inst.target), &empty);
            }
            Kind::Flow(Flow::BgnLoop) => {
                // Lanes that continue wait at the ENDLOOP (only where a CONT of this loop
                // can leave a lane waiting there); lanes that break, after it.
                let mut resume = live_at(inst.target + 1).clone();
                if continues.get(pc).copied().unwrap_or(true) {
                    resume.union(live_at(inst.target));
                }
                push(&mut waiting, &resume, &empty);
            }
            Kind::Flow(Flow::EndIf | Flow::EndLoop) => {
                waiting.pop();
            }
            Kind::Component(_) | Kind::Vector(_) | Kind::Wide(_) if !observes(inst) => {
                if let Some((index, mask)) = temp_writes(inst) {
                    let needed = waiting.last().unwrap_or(&empty);
                    for c in (0..4).filter(|&c| mask & (1 << c) != 0) {
                        let ch = index * 4 + c;
                        if needed.contains(ch) {
                            continue;
                        }
                        if observed.contains(ch) {
                            if !settled(&waiting) {
                                continue;
                            }
                            out.full_waves_only = true;
                        }
                        out.writes[pc] |= 1 << c;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Where the lanes that do not take an IF go: the instruction after its ELSE, or its
/// ENDIF (a target past the end is caught by [`successors`]).
fn not_taken(insts: &[Inst], inst: &Inst) -> usize {
    match insts.get(inst.target).map(|i| i.kind) {
        Some(Kind::Flow(Flow::Else)) => inst.target + 1,
        _ => inst.target,
    }
}

/// For each instruction, whether it is a BGNLOOP whose body has a CONT of its own (not of
/// a loop nested in it).
fn loops_continued(insts: &[Inst]) -> Vec<bool> {
    let mut continued = vec![false; insts.len()];
    let mut open: Vec<usize> = Vec::new();
    for (pc, inst) in insts.iter().enumerate() {
        match inst.kind {
            Kind::Flow(Flow::BgnLoop) => open.push(pc),
            Kind::Flow(Flow::EndLoop) => {
                open.pop();
            }
            Kind::Flow(Flow::Cont) => {
                if let Some(&l) = open.last() {
                    continued[l] = true;
                }
            }
            _ => {}
        }
    }
    continued
}

/// Push the resume set `own` joined with the enclosing ones.
fn push(waiting: &mut Vec<Set>, own: &Set, empty: &Set) {
    let mut s = waiting.last().unwrap_or(empty).clone();
    s.union(own);
    waiting.push(s);
}

/// The directly addressed temporary a component-wise, vector or 64-bit instruction
/// writes, with the channels it writes in every active lane: its write mask, or for a
/// 64-bit instruction the channels of its pairs it fills (`Inst::wide_writes`).
fn temp_writes(inst: &Inst) -> Option<(usize, u8)> {
    let [d] = inst.dst.as_slice() else {
        return None;
    };
    if d.file != RegFile::Temp || d.is_indirect() {
        return None;
    }
    let mask = match inst.kind {
        Kind::Component(_) | Kind::Vector(_) => d.mask,
        Kind::Wide(_) => inst.wide_writes(0).0 | inst.wide_writes(1).0,
        _ => return None,
    };
    Some((usize::try_from(d.index).ok()?, mask))
}

/// Where a lane goes after each instruction (at most two places), or `None` for control
/// flow the analysis does not follow.
fn successors(program: &Program) -> Option<Vec<[Option<usize>; 2]>> {
    let insts = &program.insts;
    let mut loops: Vec<usize> = Vec::new();
    let mut succ = Vec::with_capacity(insts.len());
    for (pc, inst) in insts.iter().enumerate() {
        let next = (pc + 1 < insts.len()).then_some(pc + 1);
        let s = match inst.kind {
            Kind::Flow(flow) => match flow {
                Flow::If { .. } => [next, Some(not_taken(insts, inst))],
                Flow::Else => [Some(inst.target), None],
                Flow::EndIf => [next, None],
                Flow::BgnLoop => {
                    loops.push(inst.target);
                    [next, None]
                }
                Flow::EndLoop => {
                    loops.pop();
                    [Some(inst.target), None]
                }
                Flow::Brk if !inst.in_switch => [Some(*loops.last()? + 1), None],
                Flow::Cont => [Some(*loops.last()?), None],
                Flow::Ret | Flow::End => [None, None],
                _ => return None,
            },
            _ => [next, None],
        };
        if s.iter().flatten().any(|&t| t >= insts.len()) {
            return None;
        }
        succ.push(s);
    }
    Some(succ)
}

/// The temporary channels live on entry to each instruction: read on some path before
/// being written.
fn live_in(program: &Program, succ: &[[Option<usize>; 2]], channels: usize) -> Vec<Set> {
    let insts = &program.insts;
    let mut live = vec![Set::empty(channels); insts.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for pc in (0..insts.len()).rev() {
            let mut s = Set::empty(channels);
            for &t in succ[pc].iter().flatten() {
                s.union(&live[t]);
            }
            let inst = &insts[pc];
            if let Some((index, mask)) = temp_writes(inst) {
                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                    s.remove(index * 4 + c);
                }
            }
            for (index, c) in temp_reads(inst) {
                s.insert(index * 4 + c);
            }
            if s != live[pc] {
                live[pc] = s;
                changed = true;
            }
        }
    }
    live
}

/// The temporary channels an instruction may read: every swizzled channel of each
/// temporary source (texture offsets included) and the temporaries that indirect operands
/// take their index from.
fn temp_reads(inst: &Inst) -> impl Iterator<Item = (usize, usize)> + '_ {
    let offsets = inst.tex.as_ref().and_then(|t| t.offsets.as_ref());
    let sources = inst.src.iter().chain(offsets);
    let values = sources
        .clone()
        .filter(|s| s.file == RegFile::Temp)
        .filter_map(|s| usize::try_from(s.index).ok().map(|i| (i, s.swizzle)))
        .flat_map(|(i, sw)| sw.into_iter().map(move |c| (i, c as usize & 3)));
    let addresses = sources
        .flat_map(|s| [s.indirect, s.dim_indirect])
        .chain(inst.dst.iter().flat_map(|d| [d.indirect, d.dim_indirect]))
        .flatten()
        .filter(|a| a.file == RegFile::Temp)
        .map(|a| (a.index as usize, a.comp as usize & 3));
    values.chain(addresses)
}

/// The interpreter's `observes` for [`unblended_writes`]: the instructions whose
/// temporary reads may see other lanes than the ones they write (derivatives, texture
/// instructions, INTERP_OFFSET, the inter-lane opcodes) and those with an indirect
/// operand (a destination takes its index from each quad's first lane).
pub(crate) fn interpreter_observes(inst: &Inst) -> bool {
    inst.src.iter().any(SrcOp::is_indirect)
        || inst.dst.iter().any(DstOp::is_indirect)
        || matches!(
            inst.kind,
            Kind::Deriv(_)
                | Kind::Texture
                | Kind::InterpOffset
                | Kind::Vote(_)
                | Kind::Ballot
                | Kind::ReadFirst
                | Kind::ReadInvoc
        )
}

#[cfg(test)]
mod tests {
    use super::{interpreter_observes, unblended_writes, Unblended};
    use crate::Program;

    fn analyse(body: &str, full_waves: bool) -> Unblended {
        let text = format!(
            "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\n\
             IMM[0] FLT32 {{0.5, 1.0, 2.0, 0.0}}\n{body}"
        );
        let shader = tgsi::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{e}"));
        let u = unblended_writes(&program, interpreter_observes, full_waves);
        // The interpreter's own analysis is the one without full waves.
        if !full_waves {
            let own: Vec<u8> = program.insts.iter().map(|i| i.unblended).collect();
            assert_eq!(own, u.writes);
        }
        u
    }

    #[test]
    fn values_local_to_an_iteration_need_no_blend_carried_ones_do() {
        let u = analyse(
            "  0: MOV TEMP[1], IMM[0].wwww\n  1: BGNLOOP\n  2: SGE TEMP[0].x, TEMP[1].xxxx, IN[0].xxxx\n\
               3: IF TEMP[0].xxxx\n  4: BRK\n  5: ENDIF\n  6: MUL TEMP[2].xy, TEMP[1].xxxx, IMM[0].xxxx\n\
               7: ADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].yyyy\n  8: ENDLOOP\n  9: MOV OUT[0], TEMP[1]\n 10: END\n",
            true,
        );
        let m = u.writes;
        assert!(!u.full_waves_only);
        // Top level: no lane waits anywhere.
        assert_eq!(m[0], 0b1111);
        // TEMP[0].x and TEMP[2] are dead where waiting lanes resume; TEMP[1].x is not.
        assert_eq!(m[2], 0b0001);
        assert_eq!(m[6], 0b0011);
        assert_eq!(m[7], 0);
    }

    /// A value carried from iteration to iteration but not read after the loop needs no
    /// blend when no lane can wait at the ENDLOOP (no CONT of this loop: a CONT of an
    /// inner loop does not count), and keeps it when one can.
    #[test]
    fn only_a_continue_makes_lanes_wait_at_the_loop_end() {
        let counter = |cont: &str| {
            let body = format!(
                "  0: MOV TEMP[1], IMM[0].wwww\n  1: BGNLOOP\n  2: SGE TEMP[0].x, TEMP[1].xxxx, IN[0].xxxx\n\
                   3: IF TEMP[0].xxxx\n  4: BRK\n  5: ENDIF\n  6: IF IN[0].yyyy\n  7: {cont}\n  8: ENDIF\n\
                   9: BGNLOOP\n 10: CONT\n 11: ENDLOOP\n 12: ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n\
                  13: ENDLOOP\n 14: MOV OUT[0], IMM[0]\n 15: END\n"
            );
            analyse(&body, true).writes[12]
        };
        assert_eq!(counter("NOP"), 0b0001);
        assert_eq!(counter("CONT"), 0);
    }

    /// 64-bit writes count by the channels they fill: a pair local to an iteration needs
    /// no blend, a carried one does; a comparison's one channel kills only that channel's
    /// liveness, so the other channel of its pair, carried, keeps its blend.
    #[test]
    fn wide_writes_are_analysed_by_the_channels_they_fill() {
        let u = analyse(
            "  0: F2D TEMP[1].xy, IMM[0].xxxx
  1: MOV TEMP[2].y, IMM[0].xxxx
  2: BGNLOOP
\
               3: DMUL TEMP[0].xy, TEMP[1].xyxy, TEMP[1].xyxy
  4: DADD TEMP[1].xy, TEMP[0].xyxy, TEMP[1].xyxy
\
               5: DSLT TEMP[2].x, TEMP[0].xyxy, TEMP[1].xyxy
  6: UIF TEMP[2].xxxx
  7: BRK
  8: ENDIF
\
               9: MOV TEMP[2].y, TEMP[2].yyyy
 10: ENDLOOP
 11: D2F OUT[0].x, TEMP[1].xyxy
 12: MOV OUT[0].y, TEMP[2].yyyy
 13: END
",
            true,
        );
        let m = u.writes;
        assert_eq!(m[0], 0b0011);
        // TEMP[0].xy lives within an iteration; TEMP[1].xy is carried and read after.
        assert_eq!(m[3], 0b0011);
        assert_eq!(m[4], 0);
        // TEMP[2].x (a comparison's word) is local; TEMP[2].y is carried.
        assert_eq!(m[5], 0b0001);
        assert_eq!(m[9], 0);
    }

    #[test]
    fn the_else_part_and_derivatives_keep_blends() {
        let u = analyse(
            "  0: MOV TEMP[1], IMM[0].xxxx\n  1: IF IN[0].xxxx\n  2: MOV TEMP[1].x, IMM[0].yyyy\n\
               3: MOV TEMP[2].x, IMM[0].yyyy\n  4: MOV TEMP[3].x, IN[0].xxxx\n  5: DDX TEMP[0].x, TEMP[3].xxxx\n\
               6: ELSE\n  7: MOV OUT[0], TEMP[1]\n  8: ENDIF\n  9: END\n",
            true,
        );
        // TEMP[1].x is read by the lanes waiting at the ELSE; TEMP[3].x by a derivative.
        let m = u.writes;
        assert_eq!(m[2], 0);
        assert_eq!(m[3], 0b0001);
        assert_eq!(m[4], 0);
        assert!(!u.full_waves_only);
    }

    #[test]
    fn outside_structures_derivative_sources_need_full_waves() {
        let body = "  0: MUL TEMP[0], IN[0], IMM[0].zzzz\n  1: DDX TEMP[1], TEMP[0]\n\
                      2: IF IN[0].xxxx\n  3: MOV TEMP[0], IMM[0].yyyy\n  4: ENDIF\n\
                      5: DDY TEMP[2], TEMP[0]\n  6: MOV OUT[0], TEMP[2]\n";
        let u = analyse(&format!("{body}  7: END\n"), true);
        assert_eq!((u.writes[0], u.writes[3]), (0b1111, 0));
        assert!(u.full_waves_only);
        // Without full waves (the interpreter) the derivative's source keeps its merge.
        let u = analyse(&format!("{body}  7: END\n"), false);
        assert_eq!((u.writes[0], u.writes[3]), (0, 0));
        assert!(!u.full_waves_only);
        // A lane that returned is inactive outside structures too.
        let u = analyse(&format!("{body}  7: RET\n  8: END\n"), true);
        assert_eq!((u.writes[0], u.writes[3]), (0, 0));
        assert!(!u.full_waves_only);
    }
}
