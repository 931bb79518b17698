//! Call rules: no recursion. GLSL forbids it and every executor's call stack is finite, so
//! a subroutine that reaches itself through CAL/CALLNZ, directly or through other
//! subroutines, is an error.
//!
//! The call graph has one node per BGNSUB plus the main program; a call belongs to the
//! innermost open BGNSUB. Cycles are found by an iterative depth-first search (an explicit
//! stack, no recursion) in time linear in the number of instructions.

use super::context::Ctx;
use super::Code;
use crate::opcode::Opcode;

/// One call: from the subroutine (or main) `from` to the BGNSUB `to`, by instruction `at`.
#[derive(Clone, Copy)]
struct Call {
    from: usize,
    to: usize,
    at: usize,
}

/// Depth-first search colours.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Unvisited,
    Active,
    Done,
}

/// Runs the call rules.
pub(super) fn check(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let count = shader.instructions.len();
    // Node `count` is the main program; node `i < count` the BGNSUB at instruction `i`.
    let main = count;
    let mut open: Vec<usize> = Vec::new();
    let mut calls: Vec<Call> = Vec::new();
    for (at, inst) in shader.instructions.iter().enumerate() {
        match inst.opcode {
            Opcode::BGNSUB => open.push(at),
            Opcode::ENDSUB => {
                open.pop();
            }
            Opcode::CAL | Opcode::CALLNZ => {
                let Some(to) = inst.label.map(|l| l as usize).filter(|&l| l < count) else {
                    continue;
                };
                if shader.instructions[to].opcode == Opcode::BGNSUB {
                    let from = open.last().copied().unwrap_or(main);
                    calls.push(Call { from, to, at });
                }
            }
            _ => {}
        }
    }
    if calls.is_empty() {
        return;
    }
    calls.sort_by_key(|c| (c.from, c.at));
    // `first[n]..first[n + 1]` are the calls made by node `n`.
    let mut first = vec![0usize; count + 2];
    for c in &calls {
        first[c.from + 1] += 1;
    }
    for n in 1..first.len() {
        first[n] += first[n - 1];
    }
    let mut mark = vec![Mark::Unvisited; count + 1];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in calls.iter().map(|c| c.from) {
        if mark[root] != Mark::Unvisited {
            continue;
        }
        mark[root] = Mark::Active;
        stack.push((root, first[root]));
        while let Some(top) = stack.last_mut() {
            let node = top.0;
            if top.1 == first[node + 1] {
                mark[node] = Mark::Done;
                stack.pop();
                continue;
            }
            let call = calls[top.1];
            top.1 += 1;
            match mark[call.to] {
                Mark::Unvisited => {
                    mark[call.to] = Mark::Active;
                    stack.push((call.to, first[call.to]));
                }
                Mark::Active => report(ctx, call),
                Mark::Done => {}
            }
        }
    }
}

fn report(ctx: &mut Ctx, call: Call) {
    let inst = &ctx.shader.instructions[call.at];
    let (span, name) = (inst.span, inst.opcode.name());
    let how = if call.from == call.to {
        "from inside itself"
    } else {
        "while it is active (through other subroutines)"
    };
    ctx.report(
        Code::RecursiveCall,
        span,
        format!(
            "recursion: {name} at instruction {} calls the subroutine at instruction {} {how}",
            call.at, call.to
        ),
    );
}
