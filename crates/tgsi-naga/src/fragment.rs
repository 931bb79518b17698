//! Fragment-only operations: discarding the invocation, screen-space derivatives and
//! interpolation at an offset.

use naga::{
    BinaryOperator as B, DerivativeAxis, DerivativeControl, Expression, ScalarKind, Statement,
};
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

    /// INTERP_OFFSET: the input moved by `src1.xy` pixels along its screen gradients,
    /// `IN + (ofs.x · d/dx + ofs.y · d/dy)` per channel, then the source modifiers, as the
    /// interpreter computes it. naga has no interpolate-at-offset; the gradients are the
    /// fine derivatives of the interpolated input, which are its plane's for linearly
    /// interpolated inputs (perspective-correct ones are approximated to first order, flat
    /// ones do not move). The interpreter takes, like softpipe, each result channel's offset
    /// from one lane of the quad; with an offset the quad shares (the usual constant one)
    /// the two agree.
    pub(crate) fn interp_offset(&mut self, inst: &Instruction) -> Result<()> {
        self.fragment_only()?;
        let (Some(dst), Some(input), Some(ofs)) =
            (inst.dst.first(), inst.src.first(), inst.src.get(1))
        else {
            return Err(self.unsupported("needs a destination, an input and an offset"));
        };
        let ox = self.fetch(ofs, 0, OperandType::F32)?;
        let oy = self.fetch(ofs, 1, OperandType::F32)?;
        let mut results = Vec::new();
        for c in (0..4).filter(|&c| dst.write_mask.has(c)) {
            let word = self.fetch_word(input, c)?;
            let b = &mut self.body;
            let v = b.bitcast(word, ScalarKind::Float);
            let [dx, dy] = [DerivativeAxis::X, DerivativeAxis::Y].map(|axis| {
                b.expr(Expression::Derivative {
                    axis,
                    ctrl: DerivativeControl::Fine,
                    expr: v,
                })
            });
            let along_x = b.binary(B::Multiply, dx, ox);
            let along_y = b.binary(B::Multiply, dy, oy);
            let delta = b.binary(B::Add, along_x, along_y);
            let moved = b.binary(B::Add, v, delta);
            let bits = b.bitcast(moved, ScalarKind::Uint);
            results.push((c, self.float_modifiers(input, bits)));
        }
        for (c, r) in results {
            self.write(dst, c, r)?;
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
