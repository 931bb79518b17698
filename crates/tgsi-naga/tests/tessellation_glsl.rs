//! Tessellation shaders translated to GLSL tessellation shaders
//! (`tgsi_naga::tessellation_glsl`) run on Mesa's OpenGL (llvmpipe; softpipe has no
//! tessellation) and give the results of `../shared/corpus/tessref`: for every case, the
//! case's `vs.tgsi`, `tcs.tgsi` and `tes.tgsi` (`gs.tgsi` where there is one) — the TGSI a
//! virgl guest sent for the case's GLSL — are translated to GLSL and drawn by the
//! repository's `tools/glrun` as the case was drawn (patches, instances, attributes,
//! default levels, uniforms as constant buffer 0), and every transform-feedback word the
//! case recorded, and its primitive counts, must come back. glrun is built here (Debian
//! `build-essential libegl-dev libgl-dev`, Mesa's `libgl1-mesa-dri`); without it, the
//! corpus, or a context Mesa gives it, the test says so and is skipped.

#[path = "support/gl_harness.rs"]
mod gl_harness;

use std::path::{Path, PathBuf};
use std::process::Command;

use gl_harness::shared;
use serde_json::Value;
use tgsi::enums::{File, Semantic};
use tgsi_naga::{Target, WriteOptions};

fn tmp() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("tessellation-glsl")
}

/// Builds glrun into the test's temporary directory, or says why it cannot.
fn build_glrun() -> Result<PathBuf, String> {
    gl_harness::build(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/glrun/glrun.c"),
        &tmp(),
        "glrun",
    )
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn num(v: &Value) -> usize {
    v.as_u64().unwrap_or(0) as usize
}

/// What glrun needs besides the shaders: the draw of a case.
fn draw_args(case: &Path, meta: &Value) -> Result<Vec<String>, String> {
    let mut args = vec![
        "--patch-vertices".to_string(),
        num(&meta["patch_vertices"]).to_string(),
        "--patches".to_string(),
        num(&meta["patches"]).to_string(),
        "--instances".to_string(),
        num(&meta["instances"]).max(1).to_string(),
        "--mode".to_string(),
        match meta["tf_primitive_mode"].as_str() {
            Some("GL_POINTS") => "points",
            Some("GL_LINES") => "lines",
            _ => "triangles",
        }
        .to_string(),
    ];
    for input in meta["inputs"].as_array().ok_or("no inputs")? {
        let file = case.join(input["file"].as_str().ok_or("input without file")?);
        args.push("--attrib".into());
        args.push(format!("{}:{}", num(&input["location"]), file.display()));
    }
    let levels = &meta["tess_levels"];
    for (key, option) in [
        ("default_outer", "--default-outer"),
        ("default_inner", "--default-inner"),
    ] {
        if let Some(list) = levels[key].as_array() {
            let list: Vec<String> = list.iter().map(|v| v.to_string()).collect();
            args.push(option.into());
            args.push(list.join(","));
        }
    }
    Ok(args)
}

/// `uniforms.txt` (`vec4 u_outer 2.5 3.25 1.75 4.0`, one uniform per line) as constant
/// buffer 0, a vec4 slot per uniform in order (as Mesa lays these cases out), padded.
fn uniform_buffer(case: &Path) -> Option<Vec<u8>> {
    let text = std::fs::read_to_string(case.join("uniforms.txt")).ok()?;
    let mut bytes = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut slot = [0u8; 16];
        for (c, value) in line.split_whitespace().skip(2).take(4).enumerate() {
            let bits = value.parse::<f32>().unwrap_or(0.0).to_bits();
            slot[4 * c..4 * c + 4].copy_from_slice(&bits.to_le_bytes());
        }
        bytes.extend_from_slice(&slot);
    }
    bytes.resize(bytes.len().max(4096), 0);
    Some(bytes)
}

/// The varyings that capture the last stage's declared outputs, and the word offset of
/// each output register in a captured vertex.
fn captured(last: &tgsi::Shader, prefix: &str) -> (Vec<String>, Vec<(u32, usize)>) {
    let mut registers: Vec<(u32, Semantic, u32)> = Vec::new();
    for d in last.declarations.iter().filter(|d| d.file == File::Output) {
        let Some(s) = d.semantic else { continue };
        for r in d.first..=d.last {
            if !registers.iter().any(|&(x, _, _)| x == r) {
                registers.push((r, s.name, s.index));
            }
        }
    }
    registers.sort_by_key(|&(r, _, _)| r);
    let (mut names, mut offsets, mut at) = (Vec::new(), Vec::new(), 0);
    for (r, semantic, index) in registers {
        let (name, size) = match semantic {
            Semantic::Position => ("gl_Position".to_string(), 4),
            Semantic::PSize => ("gl_PointSize".to_string(), 1),
            _ => match tgsi_naga::varying_location(semantic, index) {
                Some(location) => (format!("{prefix}{location}"), 4),
                None => continue,
            },
        };
        names.push(name);
        offsets.push((r, at));
        at += size;
    }
    (names, offsets)
}

/// Translates a case's shaders, draws them and compares; returns the words compared.
fn run_case(glrun: &Path, case: &Path) -> Result<usize, String> {
    let meta = json(&case.join("meta.json"));
    let parse = |name: &str| -> Result<Option<tgsi::Shader>, String> {
        match std::fs::read_to_string(case.join(name)) {
            Ok(text) => tgsi::parse(&text)
                .map(Some)
                .map_err(|e| format!("{name}: {e}")),
            Err(_) => Ok(None),
        }
    };
    let options = tgsi_naga::options_for(Target::Glsl);
    let write = WriteOptions::default();
    let vs = parse("vs.tgsi")?.ok_or("no vs.tgsi")?;
    let tes = parse("tes.tgsi")?.ok_or("no tes.tgsi")?;
    let vertex = gl_harness::vertex_glsl(&vs, &options)?;
    let dir = tmp().join(case.file_name().unwrap_or_default());
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut args: Vec<String> = Vec::new();
    let mut stage = |option: &str, file: &str, text: String| -> Result<(), String> {
        let path = dir.join(file);
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        args.push(option.to_string());
        args.push(path.display().to_string());
        Ok(())
    };
    stage("--vs", "shader.vert", vertex)?;
    let glsl = |s: &tgsi::Shader, name: &str| {
        tgsi_naga::tessellation_glsl(s, &options, &write).map_err(|e| format!("{name}: {e}"))
    };
    if let Some(tcs) = parse("tcs.tgsi")? {
        stage("--tcs", "shader.tesc", glsl(&tcs, "tcs.tgsi")?)?;
    }
    stage("--tes", "shader.tese", glsl(&tes, "tes.tgsi")?)?;
    let (names, offsets) = match parse("gs.tgsi")? {
        Some(gs) => {
            let text = tgsi_naga::geometry_glsl(&gs, &options, &write)
                .map_err(|e| format!("gs.tgsi: {e}"))?;
            stage("--gs", "shader.geom", text)?;
            captured(&gs, "_gs2fs_location")
        }
        None => captured(&tes, "_vs2fs_location"),
    };
    if let Some(bytes) = uniform_buffer(case) {
        let path = dir.join("constants.bin");
        std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
        args.push("--ubo".into());
        args.push(format!("0:{}", path.display()));
    }
    for name in names {
        args.push("--varying".into());
        args.push(name);
    }
    args.extend(draw_args(case, &meta)?);
    let tf = dir.join("tf.bin");
    let drawn = gl_harness::glrun(glrun, &args, &tf, &[("GALLIUM_DRIVER", "llvmpipe")])?;
    for (query, ours) in [
        ("primitives_generated", drawn.generated),
        ("primitives_written", drawn.written),
    ] {
        if meta[query].as_u64() != Some(ours) {
            return Err(format!(
                "{query}: llvmpipe {}, translation {ours}",
                meta[query]
            ));
        }
    }
    let reference = words(&std::fs::read(case.join("tf.bin")).map_err(|e| e.to_string())?);
    let ours = words(&std::fs::read(&tf).map_err(|e| e.to_string())?);
    let ref_stride = (num(&meta["tf_stride_bytes"]) / 4).max(1);
    let our_stride = (drawn.stride as usize / 4).max(1);
    let vertices = reference.len() / ref_stride;
    if ours.len() / our_stride != vertices {
        return Err(format!(
            "{} vertices captured, llvmpipe {vertices}",
            ours.len() / our_stride
        ));
    }
    let mut compared = 0;
    for k in 0..vertices {
        for varying in meta["varyings"].as_array().ok_or("no varyings")? {
            for piece in varying["tgsi"].as_array().ok_or("no tgsi pieces")? {
                let register = num(&piece["out"]) as u32;
                let &(_, offset) = offsets
                    .iter()
                    .find(|&&(r, _)| r == register)
                    .ok_or(format!("OUT[{register}] is not captured"))?;
                for c in 0..num(&piece["num_components"]) {
                    let a = reference[k * ref_stride + num(&piece["dst_offset_dwords"]) + c];
                    let channel = num(&piece["start_component"]) + c;
                    let b = ours[k * our_stride + offset + channel];
                    if a != b {
                        return Err(format!(
                            "vertex {k}, OUT[{register}] channel {channel}: llvmpipe {a:#010x}, \
                             translation {b:#010x}"
                        ));
                    }
                    compared += 1;
                }
            }
        }
    }
    Ok(compared)
}

/// Whether glrun can draw here: the first case's own GLSL (`shader.*`) must run.
fn can_draw(glrun: &Path, case: &Path) -> Result<(), String> {
    let meta = json(&case.join("meta.json"));
    let mut args: Vec<String> = Vec::new();
    for (option, file) in [
        ("--vs", "shader.vert"),
        ("--tcs", "shader.tesc"),
        ("--tes", "shader.tese"),
    ] {
        if case.join(file).is_file() {
            args.push(option.into());
            args.push(case.join(file).display().to_string());
        }
    }
    for v in meta["varyings"].as_array().into_iter().flatten() {
        args.push("--varying".into());
        args.push(v["name"].as_str().unwrap_or("").to_string());
    }
    args.extend(draw_args(case, &meta)?);
    let run = Command::new(glrun)
        .args(&args)
        .arg("--out")
        .arg(tmp().join("probe.bin"))
        .env("GALLIUM_DRIVER", "llvmpipe")
        .output()
        .map_err(|e| e.to_string())?;
    if run.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&run.stderr).trim().to_string())
    }
}

#[test]
fn translated_tessellation_shaders_run_on_mesa_as_llvmpipe_ran_them() {
    let root = shared().join("corpus/tessref");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("meta.json").is_file())
        .collect();
    cases.sort();
    let Some(first) = cases.first() else {
        eprintln!("skipped: no tessref cases ({} absent)", root.display());
        return;
    };
    let glrun = match build_glrun() {
        Ok(t) => t,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    if let Err(why) = can_draw(&glrun, first) {
        eprintln!("skipped: glrun cannot draw here (Mesa's EGL and llvmpipe): {why}");
        return;
    }
    let (mut identical, mut words, mut failures) = (0, 0, Vec::new());
    for case in &cases {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        match run_case(&glrun, case) {
            Ok(n) => {
                identical += 1;
                words += n;
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "{identical} of {} tessref cases identical to llvmpipe's run of the original GLSL \
         ({words} words)",
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
