//! Which programs the JIT compiles (on x86-64 with SSE4.1). Control flow it does not structure itself (switches,
//! subroutines, the legacy jumps and counted loops), geometry and compute stages, and the
//! instructions whose results depend on interpreter state it does not keep (CLOCK, DEMOTE,
//! EMIT) make the whole program run on the interpreter instead; everything else compiles,
//! natively or through a call into the interpreter.

use tgsi::Processor;
use tgsi_exec::ops::{Flow, Kind};
use tgsi_exec::Program;

/// Longest program the JIT compiles: code generation time and memory grow with the
/// program, and a hostile one must not make compiling the slow part.
pub const MAX_INSTRUCTIONS: usize = 16384;

/// Why `program` runs on the interpreter, or `None` when the JIT compiles it.
pub(crate) fn unsupported(program: &Program) -> Option<String> {
    if !cpu_supported() {
        return Some("the JIT needs an x86-64 CPU with SSE4.1".into());
    }
    if program.insts.len() > MAX_INSTRUCTIONS {
        return Some(format!(
            "{} instructions are more than the JIT compiles ({MAX_INSTRUCTIONS})",
            program.insts.len()
        ));
    }
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

/// Quads each call of the compiled code runs. Lanes are independent except through
/// resources: texture sampling goes through softpipe's tile cache, whose state depends on
/// the order of every lane's accesses, and stores, atomics and inter-lane operations see
/// other lanes; programs with those run the whole wave in one call, in the interpreter's
/// order. Others run a quad at a time (`TGSI_JIT_QUADS` overrides: 1, 2 or 4), so each
/// quad leaves loops and skips branches on its own and fewer values compete for registers.
pub(crate) fn group_quads(program: &Program) -> usize {
    let wave = tgsi_exec::WAVE / 4;
    let shared = program.insts.iter().any(|i| {
        matches!(
            i.kind,
            Kind::Texture
                | Kind::Store
                | Kind::Atomic(_)
                | Kind::Vote(_)
                | Kind::Ballot
                | Kind::ReadFirst
                | Kind::ReadInvoc
        )
    });
    if shared {
        return wave;
    }
    std::env::var("TGSI_JIT_QUADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| [1, 2, 4].contains(n))
        .unwrap_or(1)
}

/// Whether the code generator's vector instructions run on this CPU (x86-64 with SSE4.1:
/// rounding, blends, 32-bit multiplies and min/max).
fn cpu_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("sse4.1")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
