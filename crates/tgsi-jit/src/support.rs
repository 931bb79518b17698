//! Which programs the JIT compiles. Control flow it does not structure itself (switches,
//! subroutines, the legacy jumps and counted loops), geometry and compute stages, and the
//! instructions whose results depend on interpreter state it does not keep (CLOCK, DEMOTE,
//! EMIT) make the whole program run on the interpreter instead; everything else compiles,
//! natively or through a call into the interpreter.

use tgsi::Processor;
use tgsi_exec::ops::{Flow, Kind};
use tgsi_exec::Program;

/// Why `program` runs on the interpreter, or `None` when the JIT compiles it.
pub(crate) fn unsupported(program: &Program) -> Option<String> {
    if !matches!(program.processor, Processor::Fragment | Processor::Vertex) {
        return Some(format!(
            "{} shaders run on the interpreter",
            program.processor
        ));
    }
    for (pc, inst) in program.insts.iter().enumerate() {
        let indirect = inst
            .src
            .iter()
            .any(|s| s.indirect.is_some() || s.dim_indirect.is_some());
        let ok = match inst.kind {
            Kind::Flow(_) if indirect => false,
            Kind::Flow(flow) => {
                matches!(
                    flow,
                    Flow::If { .. }
                        | Flow::Else
                        | Flow::EndIf
                        | Flow::BgnLoop
                        | Flow::EndLoop
                        | Flow::Cont
                        | Flow::Ret
                        | Flow::End
                ) || (flow == Flow::Brk && !inst.in_switch)
            }
            // Compiled natively, so their sources must be directly addressed.
            Kind::KillIf => !indirect,
            Kind::Clock | Kind::Demote | Kind::Emit | Kind::EndPrim => false,
            _ => true,
        };
        if !ok {
            return Some(format!(
                "{} (instruction {pc}) runs on the interpreter",
                inst.opcode
            ));
        }
    }
    None
}
