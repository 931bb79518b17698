//! Running a vertex shader two ways for the differential tests: translated, on the
//! reference evaluator of naga IR, and on the interpreter. IN[k] of vertex v comes from
//! [`operand`], `CONST[b][i]` from [`constant`]; the results are OUT[1] and OUT[2]
//! (GENERIC[0] and GENERIC[1]).

use crate::eval::{Evaluator, Outcome, V};
use naga::Binding;
use tgsi_exec::{run_vertices, Program, VertexInput, VertexOptions};

/// Operand words: integers, shift counts, floats and their edges.
const WORDS: &[u32] = &[
    0,
    1,
    2,
    31,
    32,
    33,
    0xffff_ffff,
    0x8000_0000,
    0x7fff_ffff,
    0xffff_fff9, // -7
    0x3f80_0000, // 1.0
    0xbf00_0000, // -0.5
    0x3fc0_0000, // 1.5
    0xc020_0000, // -2.5
    0x4f32_d05e, // 3e9
    0xcf32_d05e, // -3e9
    0x4f95_02f9, // 5e9
    0x7fc0_0000, // NaN
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x8000_0000, // -0.0
    0x0000_0001, // smallest subnormal
    0x4049_0fdb, // pi
    0x4140_0000, // 12.0
];

/// The lanes of one run: vertex v's IN[k] channel c.
pub fn operand(v: usize, k: usize, c: usize) -> u32 {
    let i = v * 7 + k * 13 + c * 5 + (v / WORDS.len()) * (k + 1);
    WORDS[i % WORDS.len()]
}

/// Constant buffers bound in both runs, and registers in each.
const BUFFERS: usize = 4;
const REGISTERS: usize = 16;

/// Word `c` of `CONST[b][i]` (buffers 0–3, registers 0–15): distinct small integers.
pub fn constant(b: usize, i: usize, c: usize) -> u32 {
    (1000 * b + 10 * i + c) as u32
}

/// Vertices per run.
pub const VERTICES: usize = 96;

/// OUT[1] and OUT[2] of every vertex from the translated shader.
pub fn translated(text: &str, options: &tgsi_naga::Options) -> Result<Vec<[[u32; 4]; 2]>, String> {
    let shader = tgsi::parse(text).map_err(|e| e.message)?;
    let module = tgsi_naga::translate_with(&shader, options).map_err(|e| e.to_string())?;
    tgsi_naga::validate(&module).map_err(|e| e.to_string())?;
    let entry = &module.entry_points[0];
    let members = match entry
        .function
        .result
        .as_ref()
        .map(|r| &module.types[r.ty].inner)
    {
        Some(naga::TypeInner::Struct { members, .. }) => members.clone(),
        _ => return Err("no result struct".into()),
    };
    let at = |loc: u32| {
        members.iter().position(
            |m| matches!(m.binding, Some(Binding::Location { location, .. }) if location == loc),
        )
    };
    let (o1, o2) = (at(0).ok_or("no GENERIC[0]")?, at(1).ok_or("no GENERIC[1]")?);
    let mut evaluator = Evaluator {
        module: &module,
        globals: Default::default(),
    };
    for (handle, var) in module.global_variables.iter() {
        let mut value = crate::eval::zero(&module, var.ty)?;
        // `const{b}`: a struct whose one member is the array of registers.
        let buffer = var.name.as_deref().and_then(|n| n.strip_prefix("const"));
        if let (Some(b), V::Agg(members)) = (buffer.and_then(|b| b.parse().ok()), &mut value) {
            if let Some(V::Agg(regs)) = members.first_mut() {
                for (i, reg) in regs.iter_mut().enumerate().take(REGISTERS) {
                    if b < BUFFERS {
                        *reg = V::Agg((0..4).map(|c| V::U32(constant(b, i, c))).collect());
                    }
                }
            }
        }
        evaluator.globals.insert(handle, value);
    }
    let mut out = Vec::new();
    for v in 0..VERTICES {
        let mut args = Vec::new();
        for arg in &entry.function.arguments {
            let Some(Binding::Location { location, .. }) = arg.binding else {
                return Err("unexpected built-in input".into());
            };
            args.push(V::Agg(
                (0..4)
                    .map(|c| V::F32(f32::from_bits(operand(v, location as usize, c))))
                    .collect(),
            ));
        }
        let Outcome::Returned(Some(V::Agg(result))) = evaluator.run(&entry.function, args)? else {
            return Err("no result".into());
        };
        let words = |m: usize| -> Result<[u32; 4], String> {
            match result.get(m) {
                Some(V::Agg(c)) => {
                    let mut w = [0; 4];
                    for (i, x) in c.iter().enumerate() {
                        w[i] = match x {
                            V::F32(f) => f.to_bits(),
                            other => return Err(format!("{other:?}")),
                        };
                    }
                    Ok(w)
                }
                other => Err(format!("{other:?}")),
            }
        };
        out.push([words(o1)?, words(o2)?]);
    }
    Ok(out)
}

/// OUT[1] and OUT[2] of every vertex from the interpreter, each vertex run alone: softpipe
/// lets lanes of a wave affect each other (an indirect destination uses the first lane's
/// address, BRK in a SWITCH leaves for the whole quad), which a per-invocation target does
/// not reproduce.
pub fn interpreted(text: &str) -> Vec<[[u32; 4]; 2]> {
    let shader = tgsi::parse(text).expect("parse");
    let program = Program::compile(&shader).expect("compile");
    (0..VERTICES)
        .map(|v| {
            let inputs = (0..4)
                .map(|k| VertexInput::Constant(std::array::from_fn(|c| operand(v, k, c))))
                .collect();
            let opts = VertexOptions {
                count: 1,
                inputs,
                constants: (0..BUFFERS)
                    .map(|b| {
                        (0..REGISTERS)
                            .map(|i| std::array::from_fn(|c| constant(b, i, c)))
                            .collect()
                    })
                    .collect(),
                ..VertexOptions::default()
            };
            let out = run_vertices(&program, &opts).expect("run");
            [out.values[0][1], out.values[0][2]]
        })
        .collect()
}
