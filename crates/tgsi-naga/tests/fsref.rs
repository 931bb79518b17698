//! Runs translated fragment shaders on the CPU (a reference evaluator of naga IR,
//! `support/eval.rs`) over every `../shared/corpus/fsref` case and compares each pixel, bit
//! for bit, with the image Mesa's softpipe rendered. Both translations are checked: with
//! 64-bit integers and without (the GLSL one). Transcendental functions are evaluated with
//! Rust's `f32` methods, as the interpreter does; a GPU's own `sin`/`exp2`/`log` differ in
//! the last bits, which no translation can prevent. Skips when `../shared` is absent; in
//! debug builds every 31st pixel is run (all in release).

#[path = "support/eval.rs"]
mod eval;

use std::path::{Path, PathBuf};

use eval::{Evaluator, Outcome, V};
use naga::{Binding, BuiltIn};

fn shared() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// `CONST[0][k] = 0x… 0x… 0x… 0x…` lines.
fn constants(text: &str) -> Vec<[u32; 4]> {
    let mut regs = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        let Some((lhs, rhs)) = line.split_once('=') else {
            continue;
        };
        let k: usize = lhs
            .trim()
            .trim_start_matches("CONST[0][")
            .trim_end_matches(']')
            .parse()
            .expect("constant index");
        let words: Vec<u32> = rhs
            .split_whitespace()
            .map(|w| u32::from_str_radix(w.trim_start_matches("0x"), 16).expect("hex word"))
            .collect();
        if regs.len() <= k {
            regs.resize(k + 1, [0; 4]);
        }
        regs[k].copy_from_slice(&words[..4]);
    }
    regs
}

fn meta_number(meta: &str, key: &str) -> usize {
    let at = meta.find(&format!("\"{key}\"")).expect("meta key");
    meta[at..]
        .split(':')
        .nth(1)
        .and_then(|v| v.split([',', '}', '\n']).next())
        .and_then(|v| v.trim().parse().ok())
        .expect("meta number")
}

/// Renders one case with one translation; returns the number of pixels that differ.
fn render(
    case: &Path,
    options: &tgsi_naga::Options,
    stride: usize,
) -> Result<(usize, usize), String> {
    let text = std::fs::read_to_string(case.join("shader.tgsi")).map_err(|e| e.to_string())?;
    let shader = tgsi::parse(&text).map_err(|e| e.message)?;
    let module = tgsi_naga::translate_with(&shader, options).map_err(|e| e.to_string())?;
    tgsi_naga::validate(&module).map_err(|e| e.to_string())?;
    let regs = std::fs::read_to_string(case.join("consts.txt"))
        .map(|t| constants(&t))
        .unwrap_or_default();
    let meta = std::fs::read_to_string(case.join("meta.json")).map_err(|e| e.to_string())?;
    let (w, h) = (meta_number(&meta, "W"), meta_number(&meta, "H"));
    let reference = std::fs::read(case.join("ref.f32")).map_err(|e| e.to_string())?;
    let mut evaluator = Evaluator {
        module: &module,
        globals: Default::default(),
    };
    for (handle, var) in module.global_variables.iter() {
        let mut value = eval::zero(&module, var.ty)?;
        if let (Some(rb), V::Agg(members)) = (var.binding, &mut value) {
            if rb.group == 0 && rb.binding == 0 {
                if let Some(V::Agg(slots)) = members.get_mut(0) {
                    for (slot, words) in slots.iter_mut().zip(&regs) {
                        *slot = V::Agg(words.iter().map(|&w| V::U32(w)).collect());
                    }
                }
            }
        }
        evaluator.globals.insert(handle, value);
    }
    let entry = &module.entry_points[0];
    // The member holding COLOR[0], if the shader writes one.
    let color = entry
        .function
        .result
        .as_ref()
        .and_then(|r| match module.types[r.ty].inner {
            naga::TypeInner::Struct { ref members, .. } => members
                .iter()
                .position(|m| matches!(m.binding, Some(Binding::Location { location: 0, .. }))),
            _ => None,
        });
    let (mut checked, mut differ) = (0, 0);
    for r in 0..h {
        for x in 0..w {
            if (r * w + x) % stride != 0 {
                continue;
            }
            let mut args = Vec::new();
            for arg in &entry.function.arguments {
                args.push(match arg.binding {
                    Some(Binding::BuiltIn(BuiltIn::Position { .. })) => V::Agg(vec![
                        V::F32(x as f32 + 0.5),
                        V::F32(h as f32 - r as f32 - 0.5),
                        V::F32(0.5),
                        V::F32(1.0),
                    ]),
                    Some(Binding::BuiltIn(BuiltIn::FrontFacing)) => V::Bool(true),
                    _ => eval::zero(&module, arg.ty)?,
                });
            }
            let got: Vec<u32> = match evaluator.run(&entry.function, args)? {
                Outcome::Killed => [-1.0f32, -2.0, -3.0, -4.0]
                    .iter()
                    .map(|v| v.to_bits())
                    .collect(),
                Outcome::Returned(Some(V::Agg(members))) => {
                    match color.and_then(|c| members.get(c)) {
                        Some(V::Agg(c)) => c
                            .iter()
                            .map(|v| match v {
                                V::F32(f) => Ok(f.to_bits()),
                                other => Err(format!("colour component {other:?}")),
                            })
                            .collect::<Result<_, _>>()?,
                        other => return Err(format!("colour {other:?}")),
                    }
                }
                Outcome::Returned(other) => return Err(format!("result {other:?}")),
            };
            let at = (r * w + x) * 16;
            let want: Vec<u32> = reference[at..at + 16]
                .chunks(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            checked += 1;
            if got != want {
                differ += 1;
            }
        }
    }
    Ok((checked, differ))
}

#[test]
fn translated_fragment_shaders_match_softpipe() {
    let root = shared().join("corpus/fsref");
    let Ok(dir) = std::fs::read_dir(&root) else {
        eprintln!("skipped: {} is absent", root.display());
        return;
    };
    let mut cases: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
    cases.sort();
    let stride = if cfg!(debug_assertions) { 31 } else { 1 };
    let mut failures = Vec::new();
    for case in &cases {
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for (label, options) in [
            (
                "int64",
                tgsi_naga::Options {
                    native_int64: true,
                    ..Default::default()
                },
            ),
            (
                "no-int64",
                tgsi_naga::Options {
                    native_int64: false,
                    ..Default::default()
                },
            ),
        ] {
            match render(case, &options, stride) {
                Ok((checked, 0)) => eprintln!("{name} ({label}): {checked} pixels exact"),
                Ok((checked, differ)) => {
                    eprintln!("{name} ({label}): {differ} of {checked} pixels differ");
                    failures.push(format!(
                        "{name} ({label}): {differ} of {checked} pixels differ"
                    ));
                }
                Err(e) => {
                    eprintln!("{name} ({label}): {e}");
                    failures.push(format!("{name} ({label}): {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
