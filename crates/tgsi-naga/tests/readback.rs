//! naga's own front ends read back what the back ends wrote: WGSL, GLSL 4.50 and SPIR-V from
//! every corpus vertex, fragment and compute shader that translates are parsed again and the
//! re-read module passes naga's validator. Prints the counts and the failures grouped by
//! reason (GLSL mostly fails on limits of naga's GLSL front end: no double literals, one
//! binding namespace for all resource kinds, no `gl_VertexID`, no `atomicOr`); fails
//! below the floors recorded here. Skips (saying so) when `../shared` is absent. naga's
//! front ends are slow in debug builds, so there every 8th shader is read back (all in
//! release: `cargo test --release -p tgsi-naga --test readback`).

use std::path::{Path, PathBuf};

use naga::valid::{Capabilities, ValidationFlags, Validator};
use tgsi_naga::{Output, Target, WriteOptions};

/// Shaders re-read and valid today, per target: (target, all shaders, every 8th shader).
const FLOORS: [(Target, usize, usize); 3] = [
    (Target::Wgsl, 1534, 193),
    (Target::Glsl, 933, 117),
    (Target::SpirV, 1534, 193),
];

/// Every 8th shader in debug builds.
const STRIDE: usize = if cfg!(debug_assertions) { 8 } else { 1 };

fn shared() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// Parses a back end's output with naga's front end for that language.
fn reread(target: Target, out: Output, stage: naga::ShaderStage) -> Result<naga::Module, String> {
    match (target, out) {
        (Target::Wgsl, Output::Text(src)) => {
            naga::front::wgsl::parse_str(&src).map_err(|e| e.emit_to_string(&src))
        }
        (Target::Glsl, Output::Text(src)) => naga::front::glsl::Frontend::default()
            .parse(&naga::front::glsl::Options::from(stage), &src)
            .map_err(|e| e.emit_to_string(&src)),
        (Target::SpirV, out) => {
            naga::front::spv::parse_u8_slice(&out.into_bytes(), &Default::default())
                .map_err(|e| e.to_string())
        }
        _ => Err("unexpected output kind".to_string()),
    }
}

#[test]
fn front_ends_read_back_the_output() {
    let root = shared().join("corpus/mesa");
    if !root.is_dir() {
        eprintln!("skipped: {} is absent", root.display());
        return;
    }
    let mut files: Vec<PathBuf> = ["vs", "fs", "cs"]
        .iter()
        .flat_map(|s| std::fs::read_dir(root.join(s)).expect("stage dir"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "tgsi"))
        .collect();
    files.sort();
    let files: Vec<PathBuf> = files.into_iter().step_by(STRIDE).collect();
    let mut report = String::new();
    let mut below = Vec::new();
    for (target, all, sampled) in FLOORS {
        let floor = if STRIDE == 1 { all } else { sampled };
        let mut ok = 0;
        let mut written = 0;
        let mut failures: std::collections::BTreeMap<String, (usize, String)> = Default::default();
        for file in &files {
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            let Ok(shader) = tgsi::parse(&text) else {
                continue;
            };
            let Ok(module) = tgsi_naga::translate_with(&shader, &tgsi_naga::options_for(target))
            else {
                continue;
            };
            let Ok(info) = tgsi_naga::validate(&module) else {
                continue;
            };
            let Ok(out) = tgsi_naga::write(&module, &info, target, &WriteOptions::default()) else {
                continue;
            };
            written += 1;
            let stage = module.entry_points[0].stage;
            let result = reread(target, out, stage).and_then(|m| {
                Validator::new(ValidationFlags::all(), Capabilities::all())
                    .validate(&m)
                    .map(|_| ())
                    .map_err(|e| format!("{:?}", e.into_inner()))
            });
            match result {
                Ok(()) => ok += 1,
                Err(e) => {
                    // Group by the message with handles and numbers removed.
                    let first = e.lines().next().unwrap_or_default();
                    let key: String = first
                        .chars()
                        .filter(|c| !c.is_ascii_digit())
                        .take(140)
                        .collect();
                    let name = file.file_name().unwrap_or_default().to_string_lossy();
                    let entry = failures.entry(key).or_insert((0, name.into_owned()));
                    entry.0 += 1;
                }
            }
        }
        report.push_str(&format!(
            "{}: {ok} of {written} written shaders read back and valid\n",
            target.name()
        ));
        let mut groups: Vec<_> = failures.into_iter().collect();
        groups.sort_by_key(|(_, (n, _))| std::cmp::Reverse(*n));
        for (reason, (n, example)) in groups {
            report.push_str(&format!("  {n:4} × {reason}  (e.g. {example})\n"));
        }
        if ok < floor {
            below.push(format!("{}: {ok} (floor {floor})", target.name()));
        }
    }
    eprintln!("{report}");
    assert!(
        below.is_empty(),
        "read-back fell below the floor: {below:?}"
    );
}
