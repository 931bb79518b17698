//! Which programs the JIT compiles (on x86-64 with SSE4.1). Control flow it does not
//! structure itself (switches, subroutines, the legacy jumps and counted loops), geometry
//! and tessellation stages, compute programs with a barrier inside control flow, and the
//! instructions whose results depend on interpreter state it does not keep (CLOCK, DEMOTE,
//! EMIT) make the whole program run on the interpreter instead; everything else compiles,
//! natively or through a call into the interpreter.

use tgsi::Processor;
use tgsi_exec::compile::{Indirect, Inst, RegFile, SlotOp, SrcOp};
use tgsi_exec::ops::{Flow, Kind};
use tgsi_exec::Program;

/// Longest program the JIT compiles: code generation time and memory grow with the
/// program, and a hostile one must not make compiling the slow part.
pub const MAX_INSTRUCTIONS: usize = 4096;

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
    if let Some(&n) = program
        .register_counts()
        .iter()
        .max()
        .filter(|&&n| n > MAX_REGISTERS)
    {
        return Some(format!(
            "a register file of {n} registers is more than the JIT addresses ({MAX_REGISTERS})"
        ));
    }
    if !matches!(
        program.processor,
        Processor::Fragment | Processor::Vertex | Processor::Compute
    ) {
        return Some(format!(
            "{} shaders run on the interpreter",
            program.processor
        ));
    }
    if program.processor == Processor::Compute {
        if let Some(pc) = barriers(program).err() {
            return Some(format!(
                "{} (instruction {pc}) inside control flow runs on the interpreter",
                program.insts[pc].opcode
            ));
        }
    }
    for (pc, inst) in program.insts.iter().enumerate() {
        let indirect = inst.src.iter().any(SrcOp::is_indirect);
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

/// Where the compiled code of a compute program stops and resumes: each top-level BARRIER
/// or MEMBAR, but of several in a row only the last (the stretches between them are empty,
/// so one stop orders the same accesses); or the first one inside control flow (the
/// compiled code resumes only at the top level, where every mask but the lanes that
/// returned is full).
pub(crate) fn barriers(program: &Program) -> Result<Vec<usize>, usize> {
    let mut syncs = tgsi_exec::wave_width::top_level_syncs(program)?;
    let next_syncs = |pc: usize| {
        program
            .insts
            .get(pc + 1)
            .is_some_and(|i| matches!(i.kind, Kind::Sync))
    };
    syncs.retain(|&pc| !next_syncs(pc));
    Ok(syncs)
}

/// Why the interpreter would run `program` faster than compiled code, or `None`: when most
/// of its instructions would be handed to the interpreter's step anyway (each such hand-off
/// also writes back and reloads the temporaries it touches).
pub(crate) fn mostly_stepped(program: &Program) -> Option<String> {
    let work = program
        .insts
        .iter()
        .filter(|i| !matches!(i.kind, Kind::Flow(_) | Kind::Nop))
        .count();
    let stepped = program.insts.iter().filter(|i| runs_on_step(i)).count();
    (stepped * 2 > work).then(|| {
        format!(
            "{stepped} of its {work} instructions would run on the interpreter's step \
             (memory, indirect operands), so the interpreter runs it faster"
        )
    })
}

/// How many quads each call of the compiled code runs ([`group_quads`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Grouping {
    /// Quads per call, the count to try first.
    pub quads: usize,
    /// Whether fewer quads serve as well: straight-line code is grouped only for the
    /// independent work it gives the processor, so where its function would have more
    /// than [`GROUPED_SIZE`] Cranelift instructions it takes fewer quads (down to one)
    /// rather than grow compile time and the values competing for registers.
    pub shrinks: bool,
    /// Another count of quads per call to compile later, when the faster of the two can
    /// only be found by timing them (`crate::tuning`).
    pub alternative: Option<usize>,
}

/// Quads each call of the compiled code runs. Lanes are independent except through
/// instructions that see the whole wave ([`sees_the_wave`]): programs with one run the
/// whole wave in one call, in the interpreter's order; programs with instructions handed
/// to the interpreter's step run half a wave per call ([`STEPPED_QUADS`]: the step works
/// on whatever lanes a call hands it, and fewer calls per wave would not pay for the
/// bigger function).
///
/// The others run a few quads per call, each instruction's operations for one quad
/// beside those for the next, so that their dependency chains interleave: one quad's
/// 128-bit vectors alone leave most of the processor's floating-point units waiting on
/// latencies (a long ALU chain runs 1.3–1.6 times as fast with four quads, and a host call
/// of an exact transcendental then serves 16 lanes instead of 4).
/// * Straight-line programs run [`STRAIGHT_QUADS`] ([`MEMORY_TEMPS_QUADS`] when their
///   temporaries live in memory), fewer where the function would outgrow
///   [`GROUPED_SIZE`] ([`Grouping::shrinks`]).
/// * Programs with loops are compiled both for a quad at a time, so each quad leaves its
///   loops on its own and fewer values compete for registers, and for two quads, whose
///   chains overlap; which is faster depends on the data, so once the first form has
///   run a while the second is compiled and waves time both ([`Grouping::alternative`],
///   `crate::tuning`). Two quads come first when the program keeps few 32-bit values
///   ([`SMALL_FOOTPRINT`]).
/// * 64-bit values take two vectors a quad already: such programs run a quad at a time
///   (the doubles benchmark: 5–15 % slower with two quads).
///
/// `TGSI_JIT_QUADS` (1, 2, 4 or 8) overrides. Texture instructions are among these: a
/// quad's samples depend on its own lanes only (derivatives, the first lane's slots and
/// offsets), and the interpreter's step samples only quads with an active lane.
///
/// Compute programs run a quad at a time when they have no loops and see other lanes only
/// through compiled LOADs and STOREs and top-level barriers ([`counts_sites`]): each quad
/// then runs to the next barrier before the next quad starts, which is softpipe's own
/// order (the order a 32-lane wave may replace only where `tgsi_exec::wave_width` proves
/// the results the same).
pub(crate) fn group_quads(program: &Program) -> Grouping {
    let fixed = |quads| Grouping {
        quads,
        shrinks: false,
        alternative: None,
    };
    let tuned = |quads: usize| Grouping {
        alternative: Some(3 - quads),
        ..fixed(quads)
    };
    if counts_sites(program) {
        return fixed(1);
    }
    // Other compute waves stop at barriers as a whole, and memory sees every lane in
    // order. The interpreter's step works on the whole wave whatever the lanes: a program
    // that hands it instructions calls it once a wave, not once a quad.
    if program.processor == Processor::Compute {
        return fixed(compute_wave_quads(program));
    }
    if program.insts.iter().any(sees_the_wave) {
        return fixed(tgsi_exec::WAVE / 4);
    }
    if program.insts.iter().any(runs_on_step) {
        return fixed(STEPPED_QUADS);
    }
    let has = |f: fn(&Kind) -> bool| program.insts.iter().any(|i| f(&i.kind));
    let loops = has(|k| matches!(k, Kind::Flow(Flow::BgnLoop)));
    let wide = has(|k| matches!(k, Kind::Wide(_)));
    let chosen = if wide {
        fixed(1)
    } else if !loops {
        Grouping {
            quads: if addresses_temps_indirectly(program) {
                MEMORY_TEMPS_QUADS
            } else {
                STRAIGHT_QUADS
            },
            shrinks: true,
            alternative: None,
        }
    } else if written_temp_channels(program) <= SMALL_FOOTPRINT {
        tuned(2)
    } else {
        tuned(1)
    };
    std::env::var("TGSI_JIT_QUADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n: &usize| n.is_power_of_two() && *n <= tgsi_exec::WAVE / 4)
        .map_or(chosen, fixed)
}

/// Most registers in one per-lane file of a program the JIT compiles: the text's own bound
/// on declared indices, so that every register's byte offset in a file (512 bytes a
/// register) fits 32 bits with room to spare, as the compiled code computes it.
pub const MAX_REGISTERS: usize = 1 << 16;

/// Quads per call of straight-line fragment and vertex programs ([`group_quads`]).
const STRAIGHT_QUADS: usize = 4;

/// Quads per call of straight-line programs whose temporaries live in memory (some are
/// addressed indirectly): their operations are mostly loads, blends and stores, which
/// more quads side by side hardly overlap better. Over such virgl fragment shaders, two
/// quads ran at 0.85–1.05 times the speed of four and compiled in 0.5–0.9 times the time;
/// one quad lost up to 20 % more.
const MEMORY_TEMPS_QUADS: usize = 2;

/// Largest function, in Cranelift instructions, that straight-line code is grouped into
/// ([`Grouping::shrinks`]), estimated as its size for one quad times the quads (which is
/// a little more than the real size: the ALU-chain benchmark has 2,000 for one quad and
/// 6,600 for four). The raytrace benchmark has 3,700 for one quad: at four, 12,300 took
/// the single-pass register allocator and ran at 0.55 times the speed of two.
pub(crate) const GROUPED_SIZE: usize = 10_000;

/// Whether some operand of `program` addresses a temporary indirectly (the temporaries
/// then live in the machine's memory, some or all: `translate::memory_temps`).
pub(crate) fn addresses_temps_indirectly(program: &Program) -> bool {
    program
        .insts
        .iter()
        .any(|i| i.indirect_temps().next().is_some())
}

/// Quads of the one call that runs a compute wave: the whole wave, or, when the program
/// fixes a block of fewer quads ([`tgsi_exec::compute::block_quads`]), the smallest power
/// of two that holds them. A call covers the
/// wave's lanes that run (the others are never started, and [`crate::JitProgram`] skips
/// groups without a started lane), so small blocks do not pay for a wave's empty quads.
fn compute_wave_quads(program: &Program) -> usize {
    let wave = tgsi_exec::WAVE / 4;
    if program.fixed_block.iter().all(Option::is_none) {
        return wave;
    }
    let quads = tgsi_exec::compute::block_quads(program.fixed_block.map(|v| v.unwrap_or(1)));
    let quads = usize::try_from(quads).unwrap_or(usize::MAX);
    quads.clamp(1, wave).next_power_of_two()
}

/// Whether `program` is a compute program whose code runs a quad at a time
/// ([`group_quads`]) and counts instructions by the places it passes: a loop-free program
/// runs each instruction at most once per call, and a 32-lane wave runs an instruction
/// exactly when one of its quads does (every branch is taken when any lane takes it), so
/// the interpreter's count for the wave is the sum over the counted stretches of code that
/// some quad passed, not the sum of the quads' counts.
pub(crate) fn counts_sites(program: &Program) -> bool {
    program.processor == Processor::Compute
        && !program.insts.iter().any(|i| {
            matches!(i.kind, Kind::Flow(Flow::BgnLoop))
                || runs_on_step(i)
                || (sees_the_wave(i) && !matches!(i.kind, Kind::Load | Kind::Store | Kind::Sync))
        })
}

/// Temporary channels written, at most, for two quads of a program with loops to be the
/// first choice (the one that runs until timing decides, and wherever it cannot): their
/// values then mostly fit the 16 vector registers together.
const SMALL_FOOTPRINT: usize = 32;

/// Quads per call of a fragment or vertex program that hands instructions to the
/// interpreter's step: half a wave, so its function is no bigger than with 16-lane waves
/// (whole-wave functions took twice as long to compile), at the price of two steps per
/// wave.
const STEPPED_QUADS: usize = tgsi_exec::HALF_WAVE / 4;

/// How many distinct temporary channels the program writes directly.
fn written_temp_channels(program: &Program) -> usize {
    let mut written = std::collections::BTreeSet::new();
    for d in program.insts.iter().flat_map(|i| &i.dst) {
        if d.file == RegFile::Temp {
            for c in 0..4 {
                if d.mask & (1 << c) != 0 {
                    written.insert((d.index, c));
                }
            }
        }
    }
    written.len()
}

/// Whether an instruction sees lanes of other quads or their order: memory (whose accesses
/// other lanes observe), inter-lane opcodes, CLOCK (the wave's count), barriers, vertex
/// emission and INTERP_OFFSET.
fn sees_the_wave(inst: &Inst) -> bool {
    matches!(
        inst.kind,
        Kind::Load
            | Kind::Store
            | Kind::Atomic(_)
            | Kind::Resq
            | Kind::Vote(_)
            | Kind::Ballot
            | Kind::ReadFirst
            | Kind::ReadInvoc
            | Kind::Clock
            | Kind::Sync
            | Kind::Emit
            | Kind::EndPrim
            | Kind::InterpOffset
    )
}

/// The entry of `Frame::spaces` that a LOAD or STORE compiled natively addresses: a
/// directly named `MEMORY` (0) or `BUFFER[i]` (`1 + i`), with direct operands and no
/// saturation; `None` for every other instruction.
pub(crate) fn memory_space(inst: &Inst) -> Option<usize> {
    let (file, index) = match (inst.kind, inst.src.first(), inst.dst.first()) {
        (Kind::Load, Some(s), _) => (s.file, s.index),
        (Kind::Store, _, Some(d)) => (d.file, d.index),
        _ => return None,
    };
    if has_indirect(inst) || inst.saturate {
        return None;
    }
    match file {
        RegFile::Memory => Some(0),
        RegFile::Buffer => usize::try_from(index)
            .ok()
            .filter(|&i| i < MAX_BUFFER_SLOTS)
            .map(|i| i + 1),
        _ => None,
    }
}

/// Buffer slots whose LOAD and STORE compile natively (Gallium's `PIPE_MAX_SHADER_BUFFERS`
/// is 32).
pub(crate) const MAX_BUFFER_SLOTS: usize = 64;

/// The instructions whose temporary reads may see other lanes than the ones they write,
/// for [`tgsi_exec::unblended::unblended_writes`]: derivatives, texture instructions and
/// what runs on the interpreter's step (which also writes its own results, merged).
pub(crate) fn observes(inst: &Inst) -> bool {
    matches!(inst.kind, Kind::Deriv(_) | Kind::Texture) || runs_on_step(inst)
}

/// Whether the compiled code hands `inst` to the interpreter's single-instruction step
/// (memory, DFRACEXP and other whole-wave operations, texture instructions with an
/// indirect operand, and indirect operands other than those [`compiles_indirect`] takes)
/// rather than compiling it or calling a lane kernel (64-bit instructions compile,
/// natively or calling their kernel per lane).
pub(crate) fn runs_on_step(inst: &Inst) -> bool {
    match inst.kind {
        Kind::Flow(_) | Kind::Nop | Kind::Sync | Kind::Kill | Kind::KillIf => false,
        Kind::Texture => !samples_directly(inst),
        _ if has_indirect(inst) => !compiles_indirect(inst),
        Kind::Component(_) | Kind::Vector(_) | Kind::Deriv(_) | Kind::Wide(_) => false,
        _ => memory_space(inst).is_none(),
    }
}

/// Whether a texture instruction has only direct operands (sources, texel offsets, sampler
/// and view), so that compiled code passes its sources to the interpreter's sampling of a
/// quad ([`tgsi_exec::Machine::texture_quad`]) instead of stepping it.
fn samples_directly(inst: &Inst) -> bool {
    let Some(tex) = inst.tex.as_deref() else {
        return false;
    };
    let direct_slot = |s: &Option<SlotOp>| s.is_none_or(|s| s.indirect.is_none());
    !has_indirect(inst)
        && tex.offsets.as_ref().is_none_or(|o| !o.is_indirect())
        && direct_slot(&tex.sampler)
        && direct_slot(&tex.view)
}

/// Whether the only indirect operands of a component-wise or whole-vector instruction are
/// ones the compiled code addresses itself (`translate/indirect.rs`): constants of a
/// directly named buffer, and temporaries, read or written, through a per-lane address
/// register. A temporary's offset must lie within ±2³⁰ (the text's limits keep it far
/// smaller), so that adding any 32-bit address to it in 32 bits lands inside the file
/// only where the exact sum does.
fn compiles_indirect(inst: &Inst) -> bool {
    let lane_address = |i: Option<Indirect>| i.is_none_or(|i| i.file.lane_file().is_some());
    let temp = |index: i32, i| index.unsigned_abs() < 1 << 30 && lane_address(i);
    matches!(inst.kind, Kind::Component(_) | Kind::Vector(_))
        && inst.dst.iter().all(|d| {
            d.dim_indirect.is_none()
                && (d.indirect.is_none() || d.file == RegFile::Temp && temp(d.index, d.indirect))
        })
        && inst.src.iter().all(|s| {
            s.dim_indirect.is_none()
                && match (s.indirect, s.file) {
                    (None, _) => true,
                    (Some(_), RegFile::Const) => lane_address(s.indirect),
                    (Some(_), RegFile::Temp) => temp(s.index, s.indirect),
                    _ => false,
                }
        })
}

/// Whether an instruction has an indirectly addressed operand.
fn has_indirect(inst: &Inst) -> bool {
    inst.src.iter().any(SrcOp::is_indirect) || inst.dst.iter().any(|d| d.indirect.is_some())
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
