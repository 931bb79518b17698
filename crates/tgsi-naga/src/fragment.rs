//! Fragment-only operations: discarding the invocation and screen-space derivatives.

use naga::{DerivativeAxis, DerivativeControl, Expression, Statement};
use tgsi::ir::Instruction;
use tgsi::opcode::{Opcode, OperandType};

use crate::error::Result;
use crate::translate::Translator;

impl Translator<'_> {
    /// KILL, KILL_IF (discard when any channel of the source is negative) and DEMOTE (also a
    /// discard: naga has no demote-to-helper).
    pub(crate) fn kill(&mut self, inst: &Instruction) -> Result<()> {
        self.fragment_only()?;
        let Some(src) = inst.src.first().filter(|_| inst.opcode == Opcode::KILL_IF) else {
            self.body.stmt(Statement::Kill);
            return Ok(());
        };
        let mut any = None;
        for c in 0..4 {
            let x = self.fetch(src, c, OperandType::F32)?;
            let zero = self.body.f32(0.0);
            let negative = self.body.binary(naga::BinaryOperator::Less, x, zero);
            any = Some(match any {
                Some(a) => self
                    .body
                    .binary(naga::BinaryOperator::LogicalOr, a, negative),
                None => negative,
            });
        }
        if let Some(condition) = any {
            self.body.if_then(condition, |b| b.stmt(Statement::Kill));
        }
        Ok(())
    }

    /// DDX, DDY (naga's default derivative) and DDX_FINE, DDY_FINE.
    pub(crate) fn derivative(&mut self, inst: &Instruction) -> Result<()> {
        self.fragment_only()?;
        let (axis, ctrl) = match inst.opcode {
            Opcode::DDX => (DerivativeAxis::X, DerivativeControl::None),
            Opcode::DDY => (DerivativeAxis::Y, DerivativeControl::None),
            Opcode::DDX_FINE => (DerivativeAxis::X, DerivativeControl::Fine),
            _ => (DerivativeAxis::Y, DerivativeControl::Fine),
        };
        let (Some(dst), Some(src)) = (inst.dst.first(), inst.src.first()) else {
            return Err(self.unsupported("needs a destination and a source"));
        };
        let mut results = Vec::new();
        for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
            let x = self.fetch(src, c, OperandType::F32)?;
            let d = self.body.expr(Expression::Derivative {
                axis,
                ctrl,
                expr: x,
            });
            results.push((c, d));
        }
        for (c, d) in results {
            self.write(dst, c, d)?;
        }
        Ok(())
    }

    fn fragment_only(&self) -> Result<()> {
        if self.shader.processor == tgsi::enums::Processor::Fragment {
            Ok(())
        } else {
            Err(self.unsupported("is only defined in fragment shaders"))
        }
    }
}
