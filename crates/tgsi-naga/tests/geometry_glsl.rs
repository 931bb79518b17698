//! Geometry shaders translated to GLSL geometry shaders (`tgsi_naga::geometry_glsl`) run on
//! Mesa's OpenGL (softpipe) and give softpipe's own results: for every gsref case (the
//! shared corpus's `gsref/` and tgsi-exec's `tests/data/gsref/`), the case's `vs.tgsi` and
//! `gs.tgsi` — the TGSI softpipe ran for the case's GLSL — are translated to GLSL, drawn
//! by `../shared/tools/gsref` exactly as the case was (same draw, attributes, provoking
//! vertex), and every transform-feedback word the case recorded, and its primitive
//! counts, must come back. gsref is built from its source here (Debian
//! `build-essential libegl-dev libgl-dev`, Mesa's `libgl1-mesa-dri`); without it, or
//! without the corpus, the test says so and is skipped.
//!
//! Where softpipe departs from the spec (the `spec-*` cases), the spec's result — the
//! companion case the case's `spec.json` names — is expected, as from the interpreter.
//! gsref sets a case's constants as GLSL uniforms by name, while the translation reads a
//! uniform buffer, so cases with constants are drawn by the repository's `tools/glrun`
//! instead (the same draw on softpipe, the case's constant buffer 0 bound). Cases the
//! translation refuses are listed with their reason and not compared. Varyings whose
//! default location GL does not have (clip distances at 46 + n) get locations below 32
//! through `Options::varying_locations`, as a GL host would give them.
//!
//! The HLSL geometry shaders of `tgsi_naga::geometry_hlsl` are run the same way, through the
//! GLSL Slang makes of them (`tools/hlslc --target glsl`; skipped, saying so, without
//! Slang's library): a check of the HLSL's meaning, not only of its syntax, as far as
//! Slang translates it faithfully.

#[path = "support/gl_harness.rs"]
mod gl_harness;
#[path = "support/hlsl_check.rs"]
#[allow(dead_code)] // Each test uses a part of it.
mod hlsl_check;

use std::path::{Path, PathBuf};
use std::process::Command;

use gl_harness::shared;
use serde_json::Value;
use tgsi::enums::{File, Semantic};
use tgsi_naga::{Target, WriteOptions};

/// Builds gsref into the test's temporary directory, or says why it cannot.
fn build_gsref() -> Result<PathBuf, String> {
    gl_harness::build(
        &shared().join("tools/gsref/gsref.c"),
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        "gsref",
    )
}

/// The gsref case directories.
fn cases() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for root in [
        shared().join("corpus/gsref"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tgsi-exec/tests/data/gsref"),
    ] {
        let Ok(entries) = std::fs::read_dir(&root) else {
            continue;
        };
        dirs.extend(
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join("meta.json").is_file()),
        );
    }
    dirs.sort();
    dirs
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn words(path: &Path) -> Vec<u32> {
    std::fs::read(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The word offset of each output register (by index) in a transform-feedback record.
type Offsets = Vec<(u32, usize)>;

/// The transform-feedback varyings that capture the translated geometry shader's declared
/// outputs on `stream`, and the word offset of each output register in a record (on
/// streams other than 0 only the varyings exist).
fn captured(
    gs: &tgsi::Shader,
    options: &tgsi_naga::Options,
    stream: u64,
) -> Result<(Vec<String>, Offsets), String> {
    let mut names = Vec::new();
    let mut offsets = Vec::new();
    let mut at = 0usize;
    let mut clip_distances = None;
    let mut registers: Vec<(u32, Semantic, u32)> = Vec::new();
    for d in gs.declarations.iter().filter(|d| d.file == File::Output) {
        let s = d.semantic.ok_or("an output without a semantic")?;
        for r in d.first..=d.last {
            if !registers.iter().any(|&(x, _, _)| x == r) {
                registers.push((r, s.name, s.index));
            }
        }
    }
    registers.sort_by_key(|&(r, _, _)| r);
    for (r, semantic, index) in registers {
        if stream != 0 {
            if let Some(location) = options.varying_location(semantic, index) {
                names.push(format!("_gs2fs_location{location}_stream{stream}"));
                offsets.push((r, at));
                at += 4;
            }
            continue;
        }
        let (name, size) = match semantic {
            Semantic::Position => ("gl_Position".to_string(), 4),
            Semantic::PSize => ("gl_PointSize".to_string(), 1),
            Semantic::ClipDist => {
                let first = *clip_distances.get_or_insert_with(|| {
                    names.push("gl_ClipDistance".to_string());
                    at += 8;
                    at - 8
                });
                offsets.push((r, first + 4 * index as usize));
                continue;
            }
            _ => match options.varying_location(semantic, index) {
                Some(location) => (format!("_gs2fs_location{location}"), 4),
                None => return Err(format!("{semantic} outputs are not captured")),
            },
        };
        names.push(name);
        offsets.push((r, at));
        at += size;
    }
    Ok((names, offsets))
}

/// The `spec-*` cases whose departure from the spec is in softpipe's draw module, which
/// runs the translation too: with interleaved streams it reads a stream's vertices from
/// the wrong slots whatever the shader emitted. (The other departures depend on what the
/// shader emits, where the translation follows the spec.)
const DRAW_MODULE_DEPARTURES: [&str; 1] = ["spec-streams-interleaved"];

/// What became of one case.
enum Outcome {
    Identical(usize),
    /// Identical to softpipe's own run of the case where softpipe departs from the spec.
    AsSoftpipeDeparts(usize),
    Skipped(String),
}

/// The harnesses that draw a case: gsref, and glrun for cases with constants (gsref sets
/// GLSL uniforms by name; the translation reads a uniform buffer, which glrun binds).
struct Harnesses {
    gsref: PathBuf,
    glrun: Option<PathBuf>,
}

/// Writes a geometry shader as GLSL for a case with these options: the text, or why the
/// translation refuses it (`Ok(Err(_))`), or a failure.
type Writer<'a> =
    dyn Fn(&tgsi::Shader, &tgsi_naga::Options) -> Result<Result<String, String>, String> + 'a;

/// The GLSL geometry shader of [`tgsi_naga::geometry_glsl`].
fn glsl_writer(
    gs: &tgsi::Shader,
    options: &tgsi_naga::Options,
) -> Result<Result<String, String>, String> {
    match tgsi_naga::geometry_glsl(gs, options, &WriteOptions::default()) {
        Ok(text) => Ok(Ok(text)),
        Err(e) if e.reason.contains("stream 0") => Ok(Err(format!("refused: {e}"))),
        Err(e) => Err(format!("gs.tgsi: {e}")),
    }
}

fn run_case(
    harnesses: &Harnesses,
    case: &Path,
    work: &Path,
    writer: &Writer,
) -> Result<Outcome, String> {
    let parse = |name: &str| {
        let text = std::fs::read_to_string(case.join(name)).map_err(|e| e.to_string())?;
        tgsi::parse(&text).map_err(|e| format!("{name}: {e}"))
    };
    let (vs, gs) = (parse("vs.tgsi")?, parse("gs.tgsi")?);
    let constants = gs.declarations.iter().any(|d| d.file == File::Constant);
    if constants && harnesses.glrun.is_none() {
        return Ok(Outcome::Skipped(
            "constants (gsref sets GLSL uniforms by name; glrun did not build)".into(),
        ));
    }
    // GL has 32 varying locations and tgsi-naga's fixed scheme puts some semantics past
    // them: place those as a GL host would, below 32 where the others leave room.
    let options = tgsi_naga::Options {
        varying_locations: tgsi_naga::pipeline_locations(&[&vs, &gs], 32)
            .map_err(|e| e.to_string())?,
        ..tgsi_naga::options_for(Target::Glsl)
    };
    let geometry = match writer(&gs, &options)? {
        Ok(text) => text,
        Err(why) => return Ok(Outcome::Skipped(why)),
    };
    let vertex = gl_harness::vertex_glsl(&vs, &options)?;
    // The translated vertex shader reads IN[i] at location i: give attribute i that name.
    let mut case_json = json(&case.join("case.json"));
    let attribs = case_json["attribs"].as_array_mut().ok_or("no attribs")?;
    let inputs = vs
        .declarations
        .iter()
        .filter(|d| d.file == File::Input)
        .map(|d| d.last + 1)
        .max()
        .unwrap_or(0);
    if inputs as usize != attribs.len() {
        return Ok(Outcome::Skipped(format!(
            "the vertex shader reads {inputs} of {} attributes",
            attribs.len()
        )));
    }
    for (i, a) in attribs.iter_mut().enumerate() {
        a["name"] = Value::from(format!("_p2vs_location{i}"));
    }
    // The varyings of each buffer the case captured, on that buffer's stream.
    let buffers = json(&case.join("meta.json"))["tf_buffers"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut varyings = Vec::new();
    let mut offsets = Vec::new();
    for (b, buffer) in buffers.iter().enumerate() {
        let stream = buffer["stream"].as_u64().unwrap_or(0);
        let (names, at) = captured(&gs, &options, stream)?;
        if b > 0 {
            varyings.push("gl_NextBuffer".to_string());
        }
        varyings.extend(names);
        offsets.push(at);
    }
    case_json["varyings"] = Value::from(varyings);
    let input = work.join("in");
    let output = work.join("out");
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(&input).map_err(|e| e.to_string())?;
    for (name, text) in [
        ("shader.vert", vertex),
        ("shader.geom", geometry),
        ("case.json", case_json.to_string()),
        (
            "SOURCE.txt",
            "tgsi-naga geometry_glsl round trip".to_string(),
        ),
    ] {
        std::fs::write(input.join(name), text).map_err(|e| e.to_string())?;
    }
    match (&harnesses.glrun, constants) {
        (Some(glrun), true) => run_glrun(glrun, case, &input, &output, &case_json)?,
        _ => {
            let run = Command::new(&harnesses.gsref)
                .arg(&input)
                .arg(&output)
                .output()
                .map_err(|e| e.to_string())?;
            if !run.status.success() {
                return Err(format!(
                    "gsref failed: {}{}",
                    String::from_utf8_lossy(&run.stdout),
                    String::from_utf8_lossy(&run.stderr)
                ));
            }
        }
    }
    // Where softpipe departs from the spec, the spec's result is a companion case's
    // (tgsi-exec's `tests/data/gsref/README.md`); softpipe running the translation departs
    // alike where the departure is in its draw module rather than in the shader.
    let own = compare(case, &output, &offsets);
    let Ok(spec) = std::fs::read_to_string(case.join("spec.json")) else {
        return own.map(Outcome::Identical);
    };
    let spec: Value = serde_json::from_str(&spec).map_err(|e| e.to_string())?;
    let companion = spec["spec_expected"]
        .as_str()
        .ok_or("spec.json names no case")?;
    let in_draw = case
        .file_name()
        .is_some_and(|name| DRAW_MODULE_DEPARTURES.iter().any(|d| name == *d));
    match (
        compare(&case.with_file_name(companion), &output, &offsets),
        own,
    ) {
        (Ok(n), _) => Ok(Outcome::Identical(n)),
        (Err(_), Ok(n)) if in_draw => Ok(Outcome::AsSoftpipeDeparts(n)),
        (Err(e), _) => Err(e),
    }
}

/// Draws a case with constants through glrun on softpipe: the translated shaders in
/// `input`, the case's attribute words (`meta.json`) and constant buffer 0 (`consts.txt`),
/// the varyings `case_json` names; leaves the capture and the counts in `output` as gsref
/// would (`tf.bin`, and the `meta.json` fields [`compare`] reads).
fn run_glrun(
    glrun: &Path,
    case: &Path,
    input: &Path,
    output: &Path,
    case_json: &Value,
) -> Result<(), String> {
    let meta = json(&case.join("meta.json"));
    std::fs::create_dir_all(output).map_err(|e| e.to_string())?;
    let mut args: Vec<String> = vec![
        "--vs".into(),
        input.join("shader.vert").display().to_string(),
        "--gs".into(),
        input.join("shader.geom").display().to_string(),
    ];
    for (i, attribute) in meta["attributes"]
        .as_array()
        .ok_or("no attributes")?
        .iter()
        .enumerate()
    {
        let bytes: Vec<u8> = attribute["data"]
            .as_array()
            .ok_or("attribute without data")?
            .iter()
            .filter_map(|w| u32::from_str_radix(w.as_str()?.trim_start_matches("0x"), 16).ok())
            .flat_map(u32::to_le_bytes)
            .collect();
        let file = input.join(format!("attribute{i}.f32"));
        std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
        args.extend(["--attrib".into(), format!("{i}:{}", file.display())]);
    }
    // consts.txt: `CONST[0][i] = 0x… 0x… 0x… 0x…   # name`.
    let consts = std::fs::read_to_string(case.join("consts.txt")).map_err(|e| e.to_string())?;
    let mut buffer = vec![0u8; 4096];
    for line in consts.lines() {
        let Some((register, words)) = line.split_once('=') else {
            continue;
        };
        let slot: usize = register
            .trim()
            .strip_prefix("CONST[0][")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|r| r.parse().ok())
            .ok_or(format!("consts.txt: {line}"))?;
        let words = words.split('#').next().unwrap_or("").split_whitespace();
        for (c, w) in words.enumerate().take(4) {
            let w = u32::from_str_radix(w.trim_start_matches("0x"), 16)
                .map_err(|e| format!("consts.txt: {e}"))?;
            let at = 16 * slot + 4 * c;
            if buffer.len() < at + 4 {
                buffer.resize(at + 4, 0);
            }
            buffer[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    let constants = input.join("constants.bin");
    std::fs::write(&constants, buffer).map_err(|e| e.to_string())?;
    args.extend(["--ubo".into(), format!("0:{}", constants.display())]);
    let draw = &meta["draw"];
    let mode = draw["mode"]
        .as_str()
        .unwrap_or("")
        .trim_start_matches("GL_")
        .to_lowercase();
    let captured = match meta["gs"]["output_primitive"].as_str() {
        Some("GL_POINTS") => "points",
        Some("GL_LINE_STRIP") => "lines",
        _ => "triangles",
    };
    args.extend([
        "--draw".into(),
        mode,
        "--count".into(),
        draw["count"].as_u64().unwrap_or(0).to_string(),
        "--mode".into(),
        captured.into(),
    ]);
    for v in case_json["varyings"].as_array().into_iter().flatten() {
        args.extend(["--varying".into(), v.as_str().unwrap_or("").to_string()]);
    }
    // Softpipe gives a 4.5 context only when asked.
    let env = [
        ("GALLIUM_DRIVER", "softpipe"),
        ("MESA_GL_VERSION_OVERRIDE", "4.5"),
        ("MESA_GLSL_VERSION_OVERRIDE", "450"),
    ];
    let drawn = gl_harness::glrun(glrun, &args, &output.join("tf.bin"), &env)?;
    let counts = serde_json::json!({
        "queries": {
            "primitives_generated": [drawn.generated, 0, 0, 0],
            "primitives_written": [drawn.written, 0, 0, 0],
        },
        "tf_buffers": [{"file": "tf.bin", "stride_bytes": drawn.stride}],
    });
    std::fs::write(output.join("meta.json"), counts.to_string()).map_err(|e| e.to_string())
}

/// Compares the transform feedback and queries of a gsref run of the translation
/// (`output`) with a case's (`case`), through the word `offsets` of each output register in
/// each buffer; returns how many words were compared.
fn compare(case: &Path, output: &Path, offsets: &[Offsets]) -> Result<usize, String> {
    let (reference, ours) = (
        json(&case.join("meta.json")),
        json(&output.join("meta.json")),
    );
    for query in ["primitives_generated", "primitives_written"] {
        let (a, b) = (&reference["queries"][query], &ours["queries"][query]);
        if a != b {
            return Err(format!("{query} per stream: softpipe {a}, translation {b}"));
        }
    }
    let pieces = reference["stream_output"]["outputs"]
        .as_array()
        .ok_or("no stream_output")?;
    let mut compared = 0;
    for (b, offsets) in offsets.iter().enumerate() {
        let buffer = |meta: &Value, dir: &Path| {
            let info = &meta["tf_buffers"][b];
            let stride = info["stride_bytes"].as_u64().unwrap_or(0) as usize / 4;
            let file = info["file"].as_str().unwrap_or("tf.bin").to_string();
            (stride.max(1), words(&dir.join(file)))
        };
        let (ref_stride, ref_words) = buffer(&reference, case);
        let (our_stride, our_words) = buffer(&ours, output);
        let records = ref_words.len() / ref_stride;
        if our_words.len() / our_stride != records {
            return Err(format!(
                "buffer {b}: {} records, softpipe {records}",
                our_words.len() / our_stride
            ));
        }
        for record in 0..records {
            for piece in pieces {
                let field = |k: &str| piece[k].as_u64().unwrap_or(0) as usize;
                if field("output_buffer") != b {
                    continue;
                }
                let register = field("tgsi_out") as u32;
                let &(_, offset) = offsets
                    .iter()
                    .find(|&&(r, _)| r == register)
                    .ok_or(format!("OUT[{register}] is not captured"))?;
                for c in 0..field("num_components") {
                    let a = ref_words[record * ref_stride + field("dst_offset_dwords") + c];
                    let o = our_words[record * our_stride + offset + field("start_component") + c];
                    if a != o {
                        return Err(format!(
                            "buffer {b}, record {record}, OUT[{register}] channel {}: softpipe \
                             {a:#010x}, translation {o:#010x}",
                            field("start_component") + c
                        ));
                    }
                    compared += 1;
                }
            }
        }
    }
    Ok(compared)
}

#[test]
fn translated_geometry_shaders_run_on_mesa_as_softpipe_ran_them() {
    run_all("geometry-glsl", &glsl_writer, "");
}

/// The HLSL geometry shaders of `tgsi_naga::geometry_hlsl` run the same way, through the
/// GLSL Slang makes of them (`tools/hlslc --target glsl`): the varyings' HLSL members get
/// `[[vk::location(L)]]` for their `LOC{L}` semantics (so Slang keeps GL's locations), and
/// Slang's output variables are renamed as naga's GLSL names them, which the capture
/// names. A case's geometry shader that HLSL refuses (a stream other than 0) is listed.
#[test]
fn hlsl_geometry_shaders_run_on_mesa_through_slang_as_softpipe_ran_them() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("geometry-hlsl-slang");
    let hlslc = match hlsl_check::Hlslc::build(&dir) {
        Ok(h) => h,
        Err(why) => {
            eprintln!("skipped: HLSL is not compiled: {why}");
            return;
        }
    };
    let count = std::cell::Cell::new(0);
    let writer = |gs: &tgsi::Shader, options: &tgsi_naga::Options| {
        let options = tgsi_naga::Options {
            varying_locations: options.varying_locations.clone(),
            ..tgsi_naga::options_for(Target::Hlsl)
        };
        let hlsl = match tgsi_naga::geometry_hlsl(gs, &options, &WriteOptions::default()) {
            Ok(text) => text,
            Err(e) if e.reason.contains("stream") || e.reason.contains("PSIZE") => {
                return Ok(Err(format!("refused: {e}")))
            }
            Err(e) => return Err(format!("gs.tgsi: {e}")),
        };
        count.set(count.get() + 1);
        let path = dir.join(format!("gs{}.hlsl", count.get()));
        std::fs::write(
            &path,
            hlsl_check::for_slang(&hlsl_check::with_vulkan_locations(&hlsl)),
        )
        .map_err(|e| e.to_string())?;
        let glsl = hlslc.glsl(hlsl_check::Stage::Geometry, &path)?;
        Ok(Ok(hlsl_check::with_naga_varying_names(
            &glsl,
            Some("_gs2fs_location"),
            Some("_vs2fs_location"),
        )))
    };
    run_all("geometry-hlsl", &writer, " (HLSL through Slang's GLSL)");
}

/// Runs every gsref case with the geometry shader `writer` writes.
fn run_all(work: &str, writer: &Writer, how: &str) {
    let cases = cases();
    if cases.is_empty() {
        eprintln!("skipped: no gsref cases ({} absent)", shared().display());
        return;
    }
    let gsref = match build_gsref() {
        Ok(g) => g,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let glrun = gl_harness::build(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/glrun/glrun.c"),
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        "glrun",
    )
    .map_err(|why| eprintln!("glrun: {why}"))
    .ok();
    let harnesses = Harnesses { gsref, glrun };
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join(work);
    // gsref needs Mesa's EGL and softpipe: a case's own GLSL must run first.
    std::fs::create_dir_all(&work).expect("work directory");
    let probe = Command::new(&harnesses.gsref)
        .arg(&cases[0])
        .arg(work.join("probe"))
        .output()
        .map_err(|e| e.to_string());
    match probe {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            eprintln!(
                "skipped: gsref cannot draw here (Mesa's EGL and softpipe, libgl1-mesa-dri): \
                 {} {}",
                String::from_utf8_lossy(&out.stdout).trim(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
            return;
        }
        Err(e) => {
            eprintln!("skipped: gsref does not run: {e}");
            return;
        }
    }
    let (mut identical, mut words) = (0, 0);
    let (mut departing, mut skipped, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    for case in &cases {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        match run_case(&harnesses, case, &work, writer) {
            Ok(Outcome::Identical(n)) => {
                identical += 1;
                words += n;
            }
            Ok(Outcome::AsSoftpipeDeparts(n)) => {
                departing.push(name.to_string());
                words += n;
            }
            Ok(Outcome::Skipped(why)) => skipped.push(format!("{name}: {why}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "{identical} of {} gsref cases identical to softpipe{how} (or to the spec where \
         softpipe departs from it), {} identical to softpipe's departing run ({}); {words} \
         words; {} not compared{}{}",
        cases.len(),
        departing.len(),
        departing.join(", "),
        skipped.len(),
        if skipped.is_empty() { "" } else { ":\n  " },
        skipped.join("\n  ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(identical > 0, "no case was compared");
}
