//! Translates every vertex, fragment, compute and geometry shader of `../shared/corpus/mesa`
//! and of `../shared/corpus/virgl` (TGSI as virgl guests send it to a host), and virgl's
//! tessellation shaders (geometry and tessellation shaders as compute shaders,
//! `Options::geometry_as_compute`, `Options::tessellation_as_compute`; images with atomics
//! in storage buffers, `Options::image_atomics_as_buffers`), runs
//! naga's validator, writes SPIR-V, GLSL 4.50 and HLSL (shader model 5.1, `tgsi translate`'s
//! default) and checks them with `spirv-val`, `glslangValidator` (Debian `spirv-tools`,
//! `glslang-tools`) and Slang (`tools/hlslc`, see `support/hlsl_check.rs`; geometry
//! shaders as HLSL geometry shaders, [`tgsi_naga::geometry_hlsl`], tessellation shaders as
//! hull and domain shaders, [`tgsi_naga::tessellation_hlsl`], each paired with a partner
//! from the corpus); each target's translation
//! has its options ([`tgsi_naga::options_for`]: GLSL without 64-bit integers, built-ins
//! naga lacks through each writer), and geometry and tessellation
//! shaders become GLSL geometry and tessellation shaders ([`tgsi_naga::geometry_glsl`],
//! [`tgsi_naga::tessellation_glsl`]). Prints the counts per stage
//! and target, the failures grouped by reason and the median translation time, and fails
//! when a count drops below the floor recorded here. Skips (saying so) when the corpus or a
//! tool is missing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use tgsi_naga::{Output, Target, WriteOptions};

#[path = "support/hlsl_check.rs"]
#[allow(dead_code)] // Each test uses a part of it.
mod hlsl_check;
use hlsl_check::{Hlslc, Stage};

/// Counts this translator reaches today: (corpus/stage, translated and valid, spirv-val,
/// glslang, Slang): every shader, in both languages (what naga's IR cannot hold, SPIR-V and
/// GLSL get through their writers: `Options::spirv_builtins`, `Options::glsl_builtins`);
/// as HLSL, all but those that need such built-ins (LAYER and HELPER_INVOCATION in a
/// fragment shader, CLOCK), read or write PSIZE (HLSL has no point size), have control
/// points wait for each other (BARRIER) or make a biased depth comparison
/// (HLSL's `SampleCmpBias` is shader model 6.8's; naga writes none).
const FLOORS: [(&str, usize, usize, usize, usize); 10] = [
    ("mesa/vs", 700, 700, 700, 700),
    ("mesa/fs", 586, 586, 586, 585),
    ("mesa/cs", 257, 257, 257, 257),
    ("mesa/gs", 347, 347, 347, 347),
    ("virgl/vs", 538, 538, 538, 535),
    ("virgl/fs", 563, 563, 563, 558),
    ("virgl/cs", 228, 228, 228, 227),
    ("virgl/gs", 304, 304, 304, 303),
    ("virgl/tcs", 238, 238, 238, 233),
    ("virgl/tes", 30, 30, 30, 29),
];

fn shared() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

/// Per-stage tallies.
#[derive(Default)]
struct Tally {
    total: usize,
    valid: usize,
    spirv_written: usize,
    spirv_ok: usize,
    glsl_written: usize,
    glsl_ok: usize,
    hlsl_written: usize,
    hlsl_ok: usize,
    failures: BTreeMap<String, Vec<String>>,
}

impl Tally {
    fn fail(&mut self, reason: String, file: &Path) {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.failures.entry(reason).or_default().push(name);
    }
}

/// A reason with its position and numbers removed, so equal causes group together.
fn reason_key(what: &str, text: &str) -> String {
    let mut t = text.to_string();
    if let Some(i) = t.find(": ") {
        // Drop a leading `line:col` position.
        if t[..i]
            .chars()
            .all(|c| c.is_ascii_digit() || c == ':' || c == ' ' || c.is_alphabetic() && c == 'w')
        {
            t = t[i + 2..].to_string();
        }
    }
    let t: String = t.chars().take(160).collect();
    format!("{what}: {t}")
}

#[test]
fn corpus_translates_and_validates() {
    let root = shared().join("corpus");
    if !root.join("mesa").is_dir() {
        eprintln!("skipped: {} is absent", root.join("mesa").display());
        return;
    }
    let have_spirv_val = tool("spirv-val");
    let have_glslang = tool("glslangValidator");
    if !have_spirv_val {
        eprintln!("skipped: spirv-val not found (install spirv-tools); SPIR-V is not validated");
    }
    if !have_glslang {
        eprintln!(
            "skipped: glslangValidator not found (install glslang-tools); GLSL is not validated"
        );
    }
    let hlslc =
        Hlslc::build(&std::env::temp_dir().join(format!("tgsi-naga-hlslc-{}", std::process::id())));
    if let Err(e) = &hlslc {
        eprintln!("skipped: HLSL is not compiled: {e}");
    }
    let out_dir = std::env::temp_dir().join(format!("tgsi-naga-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("temp dir");
    let options = WriteOptions::default();
    let mut times: Vec<Duration> = Vec::new();
    let mut report = String::new();
    let mut below_floor = Vec::new();
    let stages = [
        ("vs", "vert"),
        ("fs", "frag"),
        ("cs", "comp"),
        ("gs", "geom"),
        ("tcs", "tesc"),
        ("tes", "tese"),
    ];
    // Only the virgl corpus has tessellation shaders.
    let all = ["mesa", "virgl"]
        .into_iter()
        .flat_map(|corpus| stages.map(|(stage, ext)| (corpus, stage, ext)))
        .filter(|&(corpus, _, _)| root.join(corpus).is_dir())
        .filter(|&(corpus, stage, _)| root.join(corpus).join(stage).is_dir());
    // HLSL needs a tessellation shader's partner: each control shader of the corpus is
    // paired with an evaluation shader of the corpus and each evaluation shader with a
    // control shader (the k-th with the k-th, round the list; partners the translation
    // refuses, such as control shaders with BARRIER, are passed over).
    let pool = |stage: &str| -> Vec<tgsi::Shader> {
        let dir = root.join("virgl").join(stage);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .filter_map(|f| tgsi::parse(&std::fs::read_to_string(f).ok()?).ok())
            .collect()
    };
    let (controls, evaluations) = (pool("tcs"), pool("tes"));
    for (corpus, stage, ext) in all {
        let stage_options = |options: tgsi_naga::Options| tgsi_naga::Options {
            geometry_as_compute: stage == "gs",
            tessellation_as_compute: matches!(stage, "tcs" | "tes"),
            image_atomics_as_buffers: true,
            ..options
        };
        let label = format!("{corpus}/{stage}");
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(&label))
            .expect("stage dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "tgsi"))
            .collect();
        files.sort();
        let mut tally = Tally::default();
        let mut spirv_files = Vec::new();
        let mut glsl_files = Vec::new();
        let mut hlsl_files = Vec::new();
        for (k, file) in files.iter().enumerate() {
            tally.total += 1;
            let text = std::fs::read_to_string(file).expect("read shader");
            let shader = match tgsi::parse(&text) {
                Ok(s) => s,
                Err(e) => {
                    tally.fail(format!("parse: {e}"), file);
                    continue;
                }
            };
            let start = Instant::now();
            let spirv_options = stage_options(tgsi_naga::options_for(Target::SpirV));
            let module = tgsi_naga::translate_with(&shader, &spirv_options);
            times.push(start.elapsed());
            // SPIR-V from the SPIR-V translation; GLSL is tried even where it fails.
            let validated = match module {
                Ok(module) => match tgsi_naga::validate(&module) {
                    Ok(info) => Some((module, info)),
                    Err(e) => {
                        tally.fail(reason_key("naga validation", &e.to_string()), file);
                        None
                    }
                },
                Err(e) => {
                    tally.fail(
                        reason_key("translate", &format!("{}: {}", e.item, e.reason)),
                        file,
                    );
                    None
                }
            };
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            // GLSL gets its own translation: 64-bit values without 64-bit integers.
            // Geometry and tessellation shaders become GLSL stages.
            let glsl_options = tgsi_naga::Options {
                geometry_as_compute: false,
                tessellation_as_compute: false,
                ..stage_options(tgsi_naga::options_for(Target::Glsl))
            };
            let glsl = if let Some(text) = tgsi_naga::glsl_stage(&shader, &glsl_options, &options) {
                text.map(Output::Text)
                    .map_err(|e| format!("{}: {}", e.item, e.reason))
            } else {
                tgsi_naga::translate_with(&shader, &glsl_options)
                    .map_err(|e| format!("{}: {}", e.item, e.reason))
                    .and_then(|m| {
                        let info = tgsi_naga::validate(&m).map_err(|e| e.to_string())?;
                        tgsi_naga::write(&m, &info, Target::Glsl, &options)
                            .map_err(|e| e.to_string())
                    })
            };
            // HLSL as `tgsi translate --to hlsl` writes it (shader model 5.1).
            let hlsl_write = WriteOptions::default();
            let hlsl_options = stage_options(tgsi_naga::options_for_model(
                Target::Hlsl,
                hlsl_write.hlsl_shader_model,
            ));
            // Geometry shaders as HLSL geometry shaders, tessellation shaders as hull and
            // domain shaders.
            let tessellation = |control: &tgsi::Shader, evaluation: &tgsi::Shader| {
                let options = tgsi_naga::Options {
                    tessellation_as_compute: false,
                    ..hlsl_options.clone()
                };
                let n = tgsi_naga::control_vertices_out(control).map_err(|e| e.to_string())?;
                tgsi_naga::tessellation_hlsl(control, evaluation, n, &options, &hlsl_write)
                    .map_err(|(p, e)| (p, format!("{}: {}", e.item, e.reason)))
                    .map_err(|(p, e)| format!("{}: {e}", p.name()))
            };
            let partnered = |pool: &[tgsi::Shader], half: usize| {
                let tries = pool.len().max(1);
                let mut last = Err("no partner in the corpus".to_string());
                for i in 0..tries {
                    let Some(partner) = pool.get((k + i) % pool.len().max(1)) else {
                        break;
                    };
                    let pair = if half == 0 {
                        tessellation(&shader, partner)
                    } else {
                        tessellation(partner, &shader)
                    };
                    let own = if half == 0 { "TESS_CTRL" } else { "TESS_EVAL" };
                    match pair {
                        Ok(texts) => return Ok(Output::Text(texts[half].clone())),
                        Err(e) if e.starts_with(own) => return Err(e),
                        Err(e) => last = Err(e),
                    }
                }
                last
            };
            let hlsl = if stage == "tcs" {
                partnered(&evaluations, 0)
            } else if stage == "tes" {
                partnered(&controls, 1)
            } else if stage == "gs" {
                let options = tgsi_naga::Options {
                    geometry_as_compute: false,
                    ..hlsl_options.clone()
                };
                tgsi_naga::geometry_hlsl(&shader, &options, &hlsl_write)
                    .map(Output::Text)
                    .map_err(|e| format!("{}: {}", e.item, e.reason))
            } else {
                tgsi_naga::translate_with(&shader, &hlsl_options)
                    .map_err(|e| format!("{}: {}", e.item, e.reason))
                    .and_then(|m| {
                        let info = tgsi_naga::validate(&m).map_err(|e| e.to_string())?;
                        tgsi_naga::write(&m, &info, Target::Hlsl, &hlsl_write)
                            .map_err(|e| e.to_string())
                    })
            };
            match hlsl {
                Ok(Output::Text(src)) => {
                    let path = out_dir.join(format!("{corpus}-{stage}-{stem}.hlsl"));
                    std::fs::write(&path, hlsl_check::for_slang(&src)).expect("write hlsl");
                    tally.hlsl_written += 1;
                    hlsl_files.push((path, file.clone()));
                }
                Ok(Output::Words(_)) => unreachable!("HLSL is text"),
                Err(e) => tally.fail(reason_key("hlsl", &e), file),
            }
            if let Some((module, info)) = &validated {
                tally.valid += 1;
                match tgsi_naga::write(module, info, Target::SpirV, &options) {
                    Ok(out) => {
                        let path = out_dir.join(format!("{corpus}-{stage}-{stem}.spv"));
                        std::fs::write(&path, out.into_bytes()).expect("write spv");
                        tally.spirv_written += 1;
                        spirv_files.push((path, file.clone()));
                    }
                    Err(e) => tally.fail(reason_key("spirv", &e.to_string()), file),
                }
            }
            match glsl {
                Ok(Output::Text(src)) => {
                    let path = out_dir.join(format!("{corpus}-{stage}-{stem}.{ext}"));
                    std::fs::write(&path, src).expect("write glsl");
                    tally.glsl_written += 1;
                    glsl_files.push((path, file.clone()));
                }
                Ok(Output::Words(_)) => unreachable!("GLSL is text"),
                Err(e) => tally.fail(reason_key("glsl", &e), file),
            }
        }
        if have_spirv_val {
            for (path, file) in &spirv_files {
                let out = Command::new("spirv-val")
                    .args(["--target-env", "vulkan1.1"])
                    .arg(path)
                    .output()
                    .expect("spirv-val runs");
                if out.status.success() {
                    tally.spirv_ok += 1;
                } else {
                    let msg = String::from_utf8_lossy(&out.stderr);
                    let first = msg.lines().next().unwrap_or("").to_string();
                    tally.fail(reason_key("spirv-val", &first), file);
                }
            }
        }
        if have_glslang {
            for chunk in glsl_files.chunks(64) {
                let out = Command::new("glslangValidator")
                    .args(chunk.iter().map(|(p, _)| p.as_os_str()))
                    .output()
                    .expect("glslangValidator runs");
                let log = String::from_utf8_lossy(&out.stdout);
                for (path, file) in chunk {
                    let p = path.to_string_lossy();
                    let error = log
                        .lines()
                        .find(|l| l.starts_with("ERROR: ") && l.contains(p.as_ref()));
                    match error {
                        None => tally.glsl_ok += 1,
                        Some(line) => {
                            let msg = line.split_once(&format!("{p}:")).map_or(line, |(_, m)| m);
                            tally.fail(reason_key("glslang", msg), file);
                        }
                    }
                }
            }
        }
        if let Ok(hlslc) = &hlslc {
            let hlsl_stage = match stage {
                "vs" => Stage::Vertex,
                "fs" => Stage::Fragment,
                "gs" => Stage::Geometry,
                "tcs" => Stage::Hull,
                "tes" => Stage::Domain,
                _ => Stage::Compute,
            };
            let paths: Vec<PathBuf> = hlsl_files.iter().map(|(p, _)| p.clone()).collect();
            for ((_, file), result) in hlsl_files.iter().zip(hlslc.check(hlsl_stage, &paths)) {
                match result {
                    Ok(()) => tally.hlsl_ok += 1,
                    Err(e) => tally.fail(reason_key("slang", &e), file),
                }
            }
        }
        report.push_str(&format!(
            "{label}: {} shaders, {} translated and valid, SPIR-V {} written / {} spirv-val, GLSL 450 {} written / {} glslang, HLSL 5.1 {} written / {} Slang\n",
            tally.total, tally.valid, tally.spirv_written, tally.spirv_ok, tally.glsl_written, tally.glsl_ok, tally.hlsl_written, tally.hlsl_ok
        ));
        let mut groups: Vec<_> = tally.failures.iter().collect();
        groups.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
        for (reason, files) in groups {
            report.push_str(&format!(
                "  {:4} × {reason}  (e.g. {})\n",
                files.len(),
                files[0]
            ));
        }
        if let Some(&(_, valid, spv, glsl, hlsl)) = FLOORS.iter().find(|f| f.0 == label) {
            let spv_seen = if have_spirv_val { tally.spirv_ok } else { spv };
            let glsl_seen = if have_glslang { tally.glsl_ok } else { glsl };
            let hlsl_seen = if hlslc.is_ok() { tally.hlsl_ok } else { hlsl };
            if tally.valid < valid || spv_seen < spv || glsl_seen < glsl || hlsl_seen < hlsl {
                below_floor.push(format!(
                    "{label}: valid {} (floor {valid}), spirv-val {spv_seen} (floor {spv}), glslang {glsl_seen} (floor {glsl}), Slang {hlsl_seen} (floor {hlsl})",
                    tally.valid
                ));
            }
        }
    }
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    report.push_str(&format!(
        "median translation time: {median:?} over {} shaders\n",
        times.len()
    ));
    eprintln!("{report}");
    let _ = std::fs::remove_dir_all(&out_dir);
    assert!(
        below_floor.is_empty(),
        "coverage fell below the floor:\n{}",
        below_floor.join("\n")
    );
}
