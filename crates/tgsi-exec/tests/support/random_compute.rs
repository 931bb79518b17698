//! Random compute programs for the tests of 32-lane waves (`tests/wave_width.rs`) and of
//! the JIT's compute waves (`tgsi-jit/tests/compute_cases.rs`): address arithmetic on the
//! thread and block ids, loads and stores of shared memory and two buffers at those
//! addresses, branches, and barriers at the top level; and the buffers they run on.

use std::sync::Arc;
use tgsi_exec::resource::{BufferView, Resource, Resources};

/// A buffer resource of `words` words counting up from 1000.
pub fn buffer(words: usize) -> Arc<Resource> {
    let bytes: Vec<u8> = (0..words as u32)
        .flat_map(|w| (1000 + w).to_le_bytes())
        .collect();
    Arc::new(Resource::buffer(&bytes))
}

/// `BUFFER[i]` = all of `bound[i]` (the same resource may be bound twice).
pub fn buffers(bound: &[&Arc<Resource>]) -> Resources {
    Resources {
        buffers: bound.iter().map(|r| Some(BufferView::whole(r))).collect(),
        ..Resources::default()
    }
}

/// The declarations every program starts with: an 8x4 block, the thread and block ids,
/// two buffers, shared memory and nine temporaries (atomics that return into TEMP[8]
/// return into a register nothing reads).
pub const HEADER: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL MEMORY[0], SHARED
DCL TEMP[0..8]
";

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }

    pub fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

/// A random instruction of address arithmetic, or a load or store at a computed address.
fn random_line(rng: &mut Rng) -> String {
    let t = 1 + rng.below(6);
    let s = rng.below(7);
    let chan = ["xxxx", "yyyy", "zzzz", "wwww"][rng.below(4) as usize];
    let file = ["MEMORY[0]", "BUFFER[0]", "BUFFER[1]"][rng.below(3) as usize];
    let atomic = ["ATOMUADD", "ATOMOR", "ATOMUMAX", "ATOMXOR", "ATOMXCHG"][rng.below(5) as usize];
    match rng.below(24) {
        0 | 1 => format!("SHL TEMP[{t}].x, TEMP[0].xxxx, IMM[0].{chan}"),
        2 | 3 => format!("UADD TEMP[{t}].x, TEMP[{s}].xxxx, IMM[0].{chan}"),
        4 | 5 => format!("UMUL TEMP[{t}].x, TEMP[0].xxxx, IMM[0].{chan}"),
        6 | 7 => format!("AND TEMP[{t}].x, TEMP[{s}].xxxx, IMM[0].{chan}"),
        8 | 9 => format!("XOR TEMP[{t}].x, TEMP[0].xxxx, IMM[0].{chan}"),
        10 | 11 => format!("UADD TEMP[{t}].x, TEMP[0].yyyy, TEMP[{s}].xxxx"),
        12..=15 => format!("LOAD TEMP[{t}].y, {file}, TEMP[{s}].xxxx"),
        16..=20 => format!("STORE {file}.x, TEMP[{s}].xxxx, TEMP[{t}].yyyy"),
        // Atomics returning where nothing reads, and where something may.
        21 | 22 => format!("{atomic} TEMP[8].x, {file}, TEMP[{s}].xxxx, TEMP[{t}].yyyy"),
        _ => format!("{atomic} TEMP[{t}].x, {file}, TEMP[{s}].xxxx, TEMP[0].xxxx"),
    }
}

/// A random program of address arithmetic on the thread and block ids, loads and stores
/// of shared memory and both buffers at those addresses, and barriers, biased towards
/// addresses that differ per invocation (so that many programs are order-free).
pub fn random_program(rng: &mut Rng) -> String {
    let mut lines = vec![format!(
        "IMM[0] UINT32 {{{}, {}, {}, {}}}",
        rng.below(4) + 1,
        4 * rng.below(40),
        rng.below(3),
        rng.below(64)
    )];
    let mut pc = 0;
    let mut emit = |lines: &mut Vec<String>, s: String| {
        lines.push(format!("{pc:3}: {s}"));
        pc += 1;
    };
    // TEMP[0].x: a flat thread index, TEMP[0].y: the block.
    emit(&mut lines, "SHL TEMP[0].x, SV[0].yyyy, IMM[0].xxxx".into());
    emit(
        &mut lines,
        "UADD TEMP[0].x, TEMP[0].xxxx, SV[0].xxxx".into(),
    );
    emit(&mut lines, "MOV TEMP[0].y, SV[1].xxxx".into());
    let n = 6 + rng.below(14);
    for _ in 0..n {
        match rng.below(14) {
            0 => emit(&mut lines, "BARRIER".into()),
            // A branch on a per-invocation value, with or without ELSE.
            1 => {
                let s = rng.below(7);
                emit(&mut lines, format!("UIF TEMP[{s}].xxxx"));
                for _ in 0..1 + rng.below(2) {
                    emit(&mut lines, random_line(rng));
                }
                if rng.below(2) == 0 {
                    emit(&mut lines, "ELSE".into());
                    emit(&mut lines, random_line(rng));
                }
                emit(&mut lines, "ENDIF".into());
            }
            _ => emit(&mut lines, random_line(rng)),
        }
    }
    // Leave shared memory where it can be compared.
    emit(&mut lines, "BARRIER".into());
    emit(
        &mut lines,
        "SHL TEMP[7].x, TEMP[0].xxxx, IMM[0].zzzz".into(),
    );
    emit(&mut lines, "LOAD TEMP[7].y, MEMORY[0], TEMP[7].xxxx".into());
    emit(
        &mut lines,
        "UADD TEMP[7].x, TEMP[7].xxxx, IMM[0].yyyy".into(),
    );
    emit(
        &mut lines,
        "STORE BUFFER[1].x, TEMP[7].xxxx, TEMP[7].yyyy".into(),
    );
    emit(&mut lines, "END".into());
    format!("{HEADER}{}\n", lines.join("\n"))
}
