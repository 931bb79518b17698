//! Structured control flow. TGSI's IF/UIF/ELSE/ENDIF, BGNLOOP/ENDLOOP, SWITCH/CASE/DEFAULT/
//! ENDSWITCH map one to one onto naga's `If`, `Loop` and `Switch` (a CASE whose body does not
//! end in BRK falls through, as in TGSI); BRK and CONT become `Break` and `Continue`, and RET
//! in the main program returns the outputs.

use naga::{Block, Expression, Handle, Statement, SwitchCase, SwitchValue};
use tgsi::enums::File;
use tgsi::ir::Instruction;
use tgsi::opcode::{Opcode, OperandType};

use crate::body::ends_in_jump;
use crate::error::{Error, Result};
use crate::translate::Translator;

/// An open control-flow construct.
pub(crate) enum Frame {
    /// IF/UIF; `accept` is set once ELSE was seen.
    If {
        condition: Handle<Expression>,
        accept: Option<Block>,
    },
    /// BGNLOOP.
    Loop,
    /// SWITCH: the cases closed so far and the labels of the one being built.
    Switch {
        selector: Handle<Expression>,
        cases: Vec<SwitchCase>,
        labels: Vec<SwitchValue>,
    },
}

impl Frame {
    /// The opcode that opened the construct.
    pub fn name(&self) -> &'static str {
        match self {
            Frame::If { .. } => "IF",
            Frame::Loop => "BGNLOOP",
            Frame::Switch { .. } => "SWITCH",
        }
    }
}

impl Translator<'_> {
    /// Translates a control-flow instruction.
    pub(crate) fn flow(&mut self, inst: &Instruction) -> Result<()> {
        match inst.opcode {
            Opcode::IF | Opcode::UIF => {
                let condition = self.condition(inst)?;
                self.flow.push(Frame::If {
                    condition,
                    accept: None,
                });
                self.body.open();
            }
            Opcode::ELSE => match self.flow.last_mut() {
                Some(Frame::If {
                    accept: accept @ None,
                    ..
                }) => {
                    *accept = Some(self.body.close());
                    self.body.open();
                }
                _ => return Err(self.unsupported("without an open IF")),
            },
            Opcode::ENDIF => match self.flow.pop() {
                Some(Frame::If { condition, accept }) => {
                    let last = self.body.close();
                    let (accept, reject) = match accept {
                        Some(accept) => (accept, last),
                        None => (last, Block::new()),
                    };
                    self.body.stmt(Statement::If {
                        condition,
                        accept,
                        reject,
                    });
                }
                _ => return Err(self.unsupported("without an open IF")),
            },
            Opcode::BGNLOOP => {
                self.flow.push(Frame::Loop);
                self.body.open();
                self.count_iteration();
            }
            Opcode::ENDLOOP => match self.flow.pop() {
                Some(Frame::Loop) => {
                    let body = self.body.close();
                    self.body.stmt(Statement::Loop {
                        body,
                        continuing: Block::new(),
                        break_if: None,
                    });
                }
                _ => return Err(self.unsupported("without an open BGNLOOP")),
            },
            Opcode::BRK => {
                if !self
                    .flow
                    .iter()
                    .any(|f| matches!(f, Frame::Loop | Frame::Switch { .. }))
                {
                    return Err(self.unsupported("outside a loop or switch"));
                }
                self.body.stmt(Statement::Break);
            }
            Opcode::CONT => {
                if !self.flow.iter().any(|f| matches!(f, Frame::Loop)) {
                    return Err(self.unsupported("outside a loop"));
                }
                self.body.stmt(Statement::Continue);
            }
            Opcode::SWITCH => {
                let src = inst
                    .src
                    .first()
                    .ok_or_else(|| self.unsupported("has no selector"))?;
                let selector = self.fetch(src, 0, OperandType::U32)?;
                self.flow.push(Frame::Switch {
                    selector,
                    cases: Vec::new(),
                    labels: Vec::new(),
                });
                self.body.open();
            }
            Opcode::CASE | Opcode::DEFAULT => {
                let value = match inst.src.first() {
                    Some(src) if inst.opcode == Opcode::CASE => {
                        SwitchValue::U32(self.case_label(src)?)
                    }
                    _ => SwitchValue::Default,
                };
                // DEFAULT takes every invocation not matched by a CASE *before* it (the
                // interpreter's rule), so a CASE after DEFAULT is no entry of its own: it
                // continues the default's block.
                let after_default = match self.flow.last() {
                    Some(Frame::Switch { cases, labels, .. }) => cases
                        .iter()
                        .map(|c| &c.value)
                        .chain(labels.iter())
                        .any(|v| *v == SwitchValue::Default),
                    _ => return Err(self.unsupported("outside a SWITCH")),
                };
                if after_default {
                    return Ok(());
                }
                self.close_case()?;
                if let Some(Frame::Switch { labels, .. }) = self.flow.last_mut() {
                    labels.push(value);
                }
                self.body.open();
            }
            Opcode::ENDSWITCH => {
                self.close_case()?;
                self.body.close();
                match self.flow.pop() {
                    Some(Frame::Switch {
                        selector,
                        mut cases,
                        ..
                    }) => {
                        if !cases.iter().any(|c| c.value == SwitchValue::Default) {
                            cases.push(SwitchCase {
                                value: SwitchValue::Default,
                                body: Block::new(),
                                fall_through: false,
                            });
                        }
                        if let Some(last) = cases.last_mut() {
                            last.fall_through = false;
                        }
                        self.body.stmt(Statement::Switch { selector, cases });
                    }
                    _ => return Err(self.unsupported("without an open SWITCH")),
                }
            }
            Opcode::RET if self.in_subroutine.is_some() => {
                self.body.stmt(Statement::Return { value: None });
            }
            Opcode::RET | Opcode::END => {
                // In the main program (END at the top level ends the translation).
                self.store_outputs_and_return()?;
            }
            _ => return Err(self.unsupported("is not a control-flow opcode")),
        }
        Ok(())
    }

    /// Closes the case being built: its labels become cases sharing the body (all but the
    /// last empty and falling through); a body not ending in a jump falls through.
    fn close_case(&mut self) -> Result<()> {
        let Some(Frame::Switch { labels, .. }) = self.flow.last() else {
            return Err(self.unsupported("outside a SWITCH"));
        };
        if labels.is_empty() {
            // Statements between SWITCH and the first CASE never run.
            return Ok(());
        }
        let body = self.body.close();
        let falls = !ends_in_jump(&body);
        let Some(Frame::Switch { cases, labels, .. }) = self.flow.last_mut() else {
            return Err(self.unsupported("outside a SWITCH"));
        };
        let n = labels.len();
        let mut body = Some(body);
        for (i, value) in labels.drain(..).enumerate() {
            if cases.iter().any(|c| c.value == value) {
                return Err(Error::new(self.span, "CASE", "repeats a label"));
            }
            let last = i + 1 == n;
            cases.push(SwitchCase {
                value,
                body: if last {
                    body.take().unwrap_or_default()
                } else {
                    Block::new()
                },
                fall_through: !last || falls,
            });
        }
        Ok(())
    }

    /// The constant of a CASE label (an immediate).
    fn case_label(&self, src: &tgsi::ir::Src) -> Result<u32> {
        if src.reg.file != File::Immediate || src.reg.indirect.is_some() {
            return Err(self.unsupported("label is not an immediate"));
        }
        let imm = usize::try_from(src.reg.index)
            .ok()
            .and_then(|i| self.shader.immediates.get(i))
            .ok_or_else(|| self.unsupported("label immediate does not exist"))?;
        Ok(imm.words[usize::from(src.swizzle.0[0])])
    }

    /// The `bool` condition of IF (float `x ≠ 0.0`; NaN is true) or UIF (`x ≠ 0`).
    fn condition(&mut self, inst: &Instruction) -> Result<Handle<Expression>> {
        let src = inst
            .src
            .first()
            .ok_or_else(|| self.unsupported("has no condition"))?;
        let (ty, zero) = if inst.opcode == Opcode::UIF {
            (OperandType::U32, self.body.u32(0))
        } else {
            (OperandType::F32, self.body.f32(0.0))
        };
        let x = self.fetch(src, 0, ty)?;
        Ok(self.body.binary(naga::BinaryOperator::NotEqual, x, zero))
    }
}

/// Binding in group 0 of the flag buffer of [`crate::Options::loop_budget`].
pub const LOOP_BUDGET_BINDING: u32 = 33;

/// The state of [`crate::Options::loop_budget`].
#[derive(Clone, Copy)]
pub(crate) struct LoopBudget {
    /// Iterations so far (module-level, so subroutines count too).
    counter: Handle<naga::GlobalVariable>,
    /// `{ exceeded: u32 }`, set to 1 when the budget runs out.
    flag: Handle<naga::GlobalVariable>,
    budget: u32,
}

impl Translator<'_> {
    /// Declares the counter and the flag of a loop budget and zeroes the counter at entry.
    pub(crate) fn declare_loop_budget(&mut self, budget: u32) {
        let word = self.ty(naga::TypeInner::Scalar(naga::Scalar::U32));
        let counter = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some("loop_iterations".to_string()),
                space: naga::AddressSpace::Private,
                binding: None,
                ty: word,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            naga::Span::UNDEFINED,
        );
        let flag_ty = self.module.types.insert(
            naga::Type {
                name: Some("LoopBudget".to_string()),
                inner: naga::TypeInner::Struct {
                    members: vec![naga::StructMember {
                        name: Some("exceeded".to_string()),
                        ty: word,
                        binding: None,
                        offset: 0,
                    }],
                    span: 4,
                },
            },
            naga::Span::UNDEFINED,
        );
        let flag = self.module.global_variables.append(
            naga::GlobalVariable {
                name: Some("loop_budget".to_string()),
                space: naga::AddressSpace::Storage {
                    access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE,
                },
                binding: Some(naga::ResourceBinding {
                    group: 0,
                    binding: LOOP_BUDGET_BINDING,
                }),
                ty: flag_ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            naga::Span::UNDEFINED,
        );
        let pointer = self.body.expr(Expression::GlobalVariable(counter));
        let zero = self.body.u32(0);
        self.body.store(pointer, zero);
        self.loop_budget = Some(LoopBudget {
            counter,
            flag,
            budget,
        });
    }

    /// At the top of a loop body: one more iteration, and past the budget, the flag set and
    /// the loop left.
    fn count_iteration(&mut self) {
        let Some(lb) = self.loop_budget else { return };
        let b = &mut self.body;
        let pointer = b.expr(Expression::GlobalVariable(lb.counter));
        let count = b.load(pointer);
        let one = b.u32(1);
        let count = b.binary(naga::BinaryOperator::Add, count, one);
        b.store(pointer, count);
        let budget = b.u32(lb.budget);
        let over = b.binary(naga::BinaryOperator::Greater, count, budget);
        b.if_then(over, |b| {
            let flag = b.expr(Expression::GlobalVariable(lb.flag));
            let exceeded = b.index(flag, 0);
            let one = b.u32(1);
            b.store(exceeded, one);
            b.stmt(Statement::Break);
        });
    }
}
