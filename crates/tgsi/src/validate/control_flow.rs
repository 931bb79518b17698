//! Control-flow rules: balanced IF/UIF/ELSE/ENDIF, loops, switches and subroutines; BRK,
//! CONT, CASE and DEFAULT in legal places; branch labels in range and in agreement with the
//! structure; nesting depth; exactly one END, at the top level of the main program.
//!
//! One pass over the instructions with an explicit stack: nothing recursive, and every
//! lookup is O(1), so a 100 000-deep input is checked in linear time.

use super::context::Ctx;
use super::Code;
use crate::enums::File;
use crate::ir::Instruction;
use crate::opcode::{self, Opcode};

/// What an open block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// IF, UIF or the legacy IFC; closed by ENDIF.
    If,
    /// A loop, closed by the given opcode (ENDLOOP, or legacy ENDFOR / ENDREP).
    Loop(Opcode),
    /// SWITCH … ENDSWITCH.
    Switch,
    /// BGNSUB … ENDSUB.
    Sub,
}

impl Kind {
    fn slot(self) -> usize {
        match self {
            Kind::If => 0,
            Kind::Loop(_) => 1,
            Kind::Switch => 2,
            Kind::Sub => 3,
        }
    }
}

/// One open block.
struct Frame {
    kind: Kind,
    /// Index of the opening instruction.
    at: usize,
    /// Index of the ELSE of an IF block.
    else_at: Option<usize>,
    /// Whether a DEFAULT was seen (switches).
    has_default: bool,
    /// Whether BRK is legal here.
    breakable: bool,
    /// Whether CONT is legal here.
    continuable: bool,
}

/// The walk's state.
struct Walk<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    stack: Vec<Frame>,
    /// Open frames per kind slot.
    open: [usize; 4],
    /// (instruction, index its label should hold) for IF/UIF/ELSE and loop ends.
    expected: Vec<(usize, usize)>,
    too_deep_reported: bool,
    /// The first END outside any block.
    first_end: Option<usize>,
}

impl Walk<'_, '_> {
    fn push(&mut self, kind: Kind, at: usize) {
        let (parent_brk, parent_cont) = self
            .stack
            .last()
            .map_or((false, false), |f| (f.breakable, f.continuable));
        let sub = kind == Kind::Sub;
        self.stack.push(Frame {
            kind,
            at,
            else_at: None,
            has_default: false,
            breakable: matches!(kind, Kind::Loop(_) | Kind::Switch) || (parent_brk && !sub),
            continuable: matches!(kind, Kind::Loop(_)) || (parent_cont && !sub),
        });
        self.open[kind.slot()] += 1;
        if self.stack.len() > self.ctx.limits.max_nesting && !self.too_deep_reported {
            self.too_deep_reported = true;
            let span = self.ctx.shader.instructions[at].span;
            self.ctx.report(
                Code::NestingTooDeep,
                span,
                format!(
                    "blocks nested deeper than the limit of {}",
                    self.ctx.limits.max_nesting
                ),
            );
        }
    }

    fn pop(&mut self) -> Option<Frame> {
        let frame = self.stack.pop()?;
        self.open[frame.kind.slot()] -= 1;
        Some(frame)
    }

    fn unclosed(&mut self, frame: &Frame, extra: &str) {
        let inst = &self.ctx.shader.instructions[frame.at];
        let (span, name) = (inst.span, inst.opcode.name());
        self.ctx.report(
            Code::UnbalancedControlFlow,
            span,
            format!("{name} at instruction {} is never closed{extra}", frame.at),
        );
    }

    /// Closes the innermost block of `kind` with instruction `at`, reporting blocks left
    /// open inside it; `None` (and an error) when no such block is open.
    fn close(&mut self, kind: Kind, at: usize) -> Option<Frame> {
        let inst = &self.ctx.shader.instructions[at];
        let (span, name) = (inst.span, inst.opcode.name());
        if self.open[kind.slot()] == 0 {
            self.ctx.report(
                Code::UnbalancedControlFlow,
                span,
                format!("{name} without a matching opener"),
            );
            return None;
        }
        while let Some(frame) = self.pop() {
            if frame.kind.slot() == kind.slot() {
                if frame.kind != kind {
                    let opener = self.ctx.shader.instructions[frame.at].opcode.name();
                    self.ctx.report(
                        Code::UnbalancedControlFlow,
                        span,
                        format!("{name} closes {opener} at instruction {}", frame.at),
                    );
                }
                return Some(frame);
            }
            let extra = format!(" before {name} at instruction {at}");
            self.unclosed(&frame, &extra);
        }
        None
    }

    fn instruction(&mut self, at: usize, inst: &Instruction) {
        let span = inst.span;
        match inst.opcode {
            Opcode::IF | Opcode::UIF | Opcode::IFC => self.push(Kind::If, at),
            Opcode::BGNLOOP => self.push(Kind::Loop(Opcode::ENDLOOP), at),
            Opcode::BGNFOR => self.push(Kind::Loop(Opcode::ENDFOR), at),
            Opcode::REP => self.push(Kind::Loop(Opcode::ENDREP), at),
            Opcode::SWITCH => self.push(Kind::Switch, at),
            Opcode::BGNSUB => {
                if let Some(top) = self.stack.last() {
                    let opener = self.ctx.shader.instructions[top.at].opcode.name();
                    self.ctx.report(
                        Code::NestedSubroutine,
                        span,
                        format!("BGNSUB inside {opener} at instruction {}", top.at),
                    );
                }
                self.push(Kind::Sub, at);
            }
            Opcode::ELSE => match self.stack.last_mut() {
                Some(top) if top.kind == Kind::If && top.else_at.is_none() => {
                    top.else_at = Some(at);
                    self.expected.push((top.at, at));
                }
                Some(top) if top.kind == Kind::If => {
                    let first = top.else_at.unwrap_or(at);
                    self.ctx.report(
                        Code::UnbalancedControlFlow,
                        span,
                        format!("second ELSE in one IF (first at instruction {first})"),
                    );
                }
                _ => self.ctx.report(
                    Code::UnbalancedControlFlow,
                    span,
                    "ELSE outside an IF block",
                ),
            },
            Opcode::ENDIF => {
                if let Some(frame) = self.close(Kind::If, at) {
                    match frame.else_at {
                        Some(e) => self.expected.push((e, at)),
                        None => self.expected.push((frame.at, at)),
                    }
                }
            }
            Opcode::ENDLOOP | Opcode::ENDFOR | Opcode::ENDREP => {
                if let Some(frame) = self.close(Kind::Loop(inst.opcode), at) {
                    self.expected.push((frame.at, at));
                    self.expected.push((at, frame.at));
                }
            }
            Opcode::ENDSWITCH => {
                self.close(Kind::Switch, at);
            }
            Opcode::ENDSUB => {
                self.close(Kind::Sub, at);
            }
            Opcode::CASE | Opcode::DEFAULT => self.case(inst),
            Opcode::BRK | Opcode::BREAKC if !self.stack.last().is_some_and(|f| f.breakable) => {
                self.ctx.report(
                    Code::BreakOutsideLoop,
                    span,
                    format!("{} outside any loop or switch", inst.opcode.name()),
                );
            }
            Opcode::CONT if !self.stack.last().is_some_and(|f| f.continuable) => {
                self.ctx
                    .report(Code::ContinueOutsideLoop, span, "CONT outside any loop");
            }
            Opcode::CAL | Opcode::CALLNZ => self.call(inst),
            Opcode::END => self.end(at),
            _ => {}
        }
    }

    /// END: at the top level, once.
    fn end(&mut self, at: usize) {
        let span = self.ctx.shader.instructions[at].span;
        if let Some(top) = self.stack.last() {
            let opener = self.ctx.shader.instructions[top.at].opcode.name();
            let message = format!("END inside {opener} at instruction {}", top.at);
            self.ctx.report(Code::EndInsideBlock, span, message);
        } else if let Some(first) = self.first_end {
            self.ctx.report(
                Code::DuplicateEnd,
                span,
                format!("second END in the main program (the first is instruction {first})"),
            );
        } else {
            self.first_end = Some(at);
        }
    }

    fn case(&mut self, inst: &Instruction) {
        let span = inst.span;
        let name = inst.opcode.name();
        let Some(top) = self.stack.last_mut().filter(|f| f.kind == Kind::Switch) else {
            self.ctx.report(
                Code::MisplacedCase,
                span,
                format!("{name} not directly inside a SWITCH"),
            );
            return;
        };
        if inst.opcode == Opcode::DEFAULT {
            if top.has_default {
                let switch_at = top.at;
                self.ctx.report(
                    Code::DuplicateDefault,
                    span,
                    format!("second DEFAULT in the SWITCH at instruction {switch_at}"),
                );
            }
            top.has_default = true;
        } else if let Some(src) = inst.src.first() {
            if src.reg.file != File::Immediate || src.reg.indirect.is_some() {
                self.ctx.report(
                    Code::CaseNotImmediate,
                    span,
                    format!(
                        "CASE value must be an integer immediate, found a {} register",
                        src.reg.file.name()
                    ),
                );
            }
        }
    }

    fn call(&mut self, inst: &Instruction) {
        let span = inst.span;
        let count = self.ctx.shader.instructions.len();
        match inst.label {
            None => self.ctx.report(
                Code::BadCallTarget,
                span,
                format!("{} without a target label", inst.opcode.name()),
            ),
            Some(l) if (l as usize) < count => {
                let target = self.ctx.shader.instructions[l as usize].opcode;
                if target != Opcode::BGNSUB {
                    self.ctx.report(
                        Code::BadCallTarget,
                        span,
                        format!("call target {l} is {}, not BGNSUB", target.name()),
                    );
                }
            }
            // Out of range: reported with the other labels.
            Some(_) => {}
        }
    }
}

/// Runs the control-flow rules.
pub(super) fn check(ctx: &mut Ctx) {
    let shader = ctx.shader;
    let count = shader.instructions.len();
    let mut walk = Walk {
        ctx,
        stack: Vec::new(),
        open: [0; 4],
        expected: Vec::new(),
        too_deep_reported: false,
        first_end: None,
    };
    for (at, inst) in shader.instructions.iter().enumerate() {
        walk.instruction(at, inst);
    }
    const SHOWN: usize = 8;
    let left = walk.stack.len();
    let frames = std::mem::take(&mut walk.stack);
    for (n, frame) in frames.iter().rev().take(SHOWN).enumerate() {
        let extra = if n + 1 == SHOWN && left > SHOWN {
            format!(" ({} more blocks are open outside it)", left - SHOWN)
        } else {
            String::new()
        };
        walk.unclosed(frame, &extra);
    }
    let expected = std::mem::take(&mut walk.expected);
    let ctx = walk.ctx;
    let mut structural: Vec<Option<usize>> = vec![None; count];
    for &(at, want) in &expected {
        structural[at] = Some(want);
    }
    for (at, inst) in shader.instructions.iter().enumerate() {
        check_label(ctx, at, inst, structural[at]);
    }
    if !shader.instructions.iter().any(|i| i.opcode == Opcode::END) {
        let span = shader
            .instructions
            .last()
            .map(|i| i.span)
            .unwrap_or_default();
        ctx.report(Code::MissingEnd, span, "the shader has no END instruction");
    }
}

/// Range and agreement of instruction `at`'s label with the structure (`want`).
fn check_label(ctx: &mut Ctx, at: usize, inst: &Instruction, want: Option<usize>) {
    let count = ctx.shader.instructions.len();
    let name = inst.opcode.name();
    let span = inst.span;
    let is_if = matches!(inst.opcode, Opcode::IF | Opcode::UIF | Opcode::ELSE);
    match inst.label {
        Some(l) if l as usize >= count => ctx.report(
            Code::LabelOutOfRange,
            span,
            format!(
                "{name} label {l} is past the last instruction ({})",
                count.saturating_sub(1)
            ),
        ),
        None if is_if => ctx.report(
            Code::MissingLabel,
            span,
            format!("{name} has no label; Mesa's interpreter would jump to instruction 0"),
        ),
        Some(l) if inst.opcode.info().has(opcode::BRANCH) => {
            let loop_zero = !is_if && l == 0;
            if let Some(want) = want.filter(|&w| w != l as usize && !loop_zero) {
                ctx.report(
                    Code::LabelMismatch,
                    span,
                    format!("{name} at instruction {at} has label {l}, but its block continues at {want}"),
                );
            }
        }
        _ => {}
    }
}
