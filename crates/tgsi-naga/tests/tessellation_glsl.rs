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
//!
//! The HLSL hull and domain shaders of `tgsi_naga::tessellation_hlsl` are drawn the same way
//! through the GLSL Slang makes of them (`tools/hlslc --target glsl`), completed where
//! Slang's GLSL back end leaves tessellation shaders unfinished (see [`slang_control`],
//! [`slang_evaluation`], [`patch_varyings`]): the tessellator's layout then comes from the
//! evaluation shader's properties, so this checks what the shaders compute — control
//! points, the patch-constant function, levels, `PATCH` values, the domain location — not
//! the hull shader's layout attributes.

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

/// How a case's tessellation shaders reach Mesa: as tgsi-naga's GLSL stages, or as its
/// HLSL hull and domain shaders turned into GLSL by Slang.
enum Route<'a> {
    Glsl,
    HlslThroughSlang(&'a hlsl_check::Hlslc),
}

impl Route<'_> {
    /// The route's own work directory: the two tests run in parallel.
    fn work(&self) -> PathBuf {
        tmp().join(match self {
            Route::Glsl => "glsl",
            Route::HlslThroughSlang(_) => "hlsl",
        })
    }
}

/// What a case's run gave: the words compared, or why the route does not take the case.
enum Outcome {
    Identical(usize),
    Refused(String),
}

/// Translates a case's shaders, draws them and compares.
fn run_case(glrun: &Path, case: &Path, route: &Route) -> Result<Outcome, String> {
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
    let dir = route.work().join(case.file_name().unwrap_or_default());
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
    match route {
        Route::Glsl => {
            if let Some(tcs) = parse("tcs.tgsi")? {
                stage("--tcs", "shader.tesc", glsl(&tcs, "tcs.tgsi")?)?;
            }
            stage("--tes", "shader.tese", glsl(&tes, "tes.tgsi")?)?;
        }
        Route::HlslThroughSlang(hlslc) => {
            let Some(tcs) = parse("tcs.tgsi")? else {
                return Ok(Outcome::Refused(
                    "no control shader (HLSL needs a hull shader)".into(),
                ));
            };
            let options = tgsi_naga::options_for(Target::Hlsl);
            let n = tgsi_naga::control_vertices_out(&tcs).map_err(|e| e.to_string())?;
            let patch = num(&meta["patch_vertices"]) as u32;
            let [hull, domain] =
                match tgsi_naga::tessellation_hlsl(&tcs, &tes, patch, &options, &write) {
                    Ok(pair) => pair,
                    Err((p, e)) if e.item == "BARRIER" => {
                        return Ok(Outcome::Refused(format!("{}: {e}", p.name())))
                    }
                    Err((p, e)) => return Err(format!("{}: {e}", p.name())),
                };
            let slang = |name: &str, text: &str, stage: hlsl_check::Stage| {
                let path = dir.join(name);
                let text = hlsl_check::for_slang(&hlsl_check::with_vulkan_locations(text));
                std::fs::write(&path, text).map_err(|e| e.to_string())?;
                hlslc.glsl(stage, &path)
            };
            let hull = slang("hull.hlsl", &hull, hlsl_check::Stage::Hull)?;
            let domain = slang("domain.hlsl", &domain, hlsl_check::Stage::Domain)?;
            let hull = patch_varyings(
                &slang_control(&hull, n),
                "entryPointParam_tgsi_patch_constants_",
                "patch out",
            );
            let domain = patch_varyings(
                &slang_evaluation(&domain, &tes)?,
                "tgsi_constants_",
                "patch in",
            );
            stage("--tcs", "shader.tesc", hull)?;
            stage("--tes", "shader.tese", domain)?;
        }
    }
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
    Ok(Outcome::Identical(compared))
}

/// What Mesa needs of Slang's GLSL for a hull shader that Slang leaves out or gets wrong
/// (Slang's GLSL back end does not finish tessellation shaders): `layout(vertices = N)
/// out`, a patch-constant function that returns nothing (it writes the levels itself but
/// keeps its HLSL return type), per-vertex inputs sized as GL wants (unsized), and outputs
/// indexed by `gl_InvocationID` itself rather than a copy.
fn slang_control(glsl: &str, vertices: u32) -> String {
    let mut text = unsized_inputs(glsl).replacen(
        "layout(column_major) buffer;\n",
        &format!("layout(column_major) buffer;\nlayout(vertices = {vertices}) out;\n"),
        1,
    );
    let copies: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("uint ")?;
            let (name, value) = rest.split_once(" = ")?;
            (value == "uint(gl_InvocationID);").then(|| name.to_string())
        })
        .collect();
    for name in copies {
        text = text.replace(&format!("[{name}]"), "[gl_InvocationID]");
    }
    text.lines()
        .map(|l| match l.split_once(" tgsi_patch_constants_0(") {
            Some((_, rest)) if !l.starts_with(' ') => format!("void tgsi_patch_constants_0({rest}"),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What Mesa needs of Slang's GLSL for a domain shader: the tessellator's layout (GL's, from
/// the evaluation shader's properties: Slang writes none), unsized per-vertex inputs, and
/// the outputs named as naga's GLSL names a vertex shader's (`_vs2fs_location{L}`), which
/// the capture names.
fn slang_evaluation(glsl: &str, tes: &tgsi::Shader) -> Result<String, String> {
    use tgsi::enums::PropertyName as P;
    let primitive = match tes.property(P::TesPrimMode) {
        Some(4) => "triangles",
        Some(7) => "quads",
        Some(1) => "isolines",
        other => return Err(format!("TES_PRIM_MODE {other:?}")),
    };
    let spacing = match tes.property(P::TesSpacing) {
        Some(0) => "fractional_odd_spacing",
        Some(1) => "fractional_even_spacing",
        _ => "equal_spacing",
    };
    let order = if tes.property(P::TesVertexOrderCw) == Some(1) {
        "cw"
    } else {
        "ccw"
    };
    let points = if tes.property(P::TesPointMode) == Some(1) {
        ", point_mode"
    } else {
        ""
    };
    let text = unsized_inputs(glsl).replacen(
        "layout(column_major) buffer;\n",
        &format!(
            "layout(column_major) buffer;\nlayout({primitive}, {spacing}, {order}{points}) in;\n"
        ),
        1,
    );
    // The control points' varyings at their own locations (Slang numbers them after the
    // patch constants).
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for i in 1..lines.len() {
        let location = lines[i]
            .strip_prefix("in vec4 tgsi_points_loc")
            .and_then(|rest| rest.split_once('_'))
            .map(|(l, _)| l.to_string());
        if let Some(l) = location.filter(|_| lines[i - 1].starts_with("layout(location = ")) {
            lines[i - 1] = format!("layout(location = {l})");
        }
    }
    let text = lines.join("\n") + "\n";
    Ok(hlsl_check::with_naga_varying_names(
        &text,
        Some("_vs2fs_location"),
        None,
    ))
}

/// Slang's GLSL passes the patch constants other than the factors (`layout(location = 0)
/// out vecN {prefix}NAME_0;` in the hull shader, `… in vecN {prefix}NAME_0;` in the
/// domain shader) as per-vertex varyings, all at location 0; they become `{qualifier} vecN
/// tgsi_patch_NAME`, linked by name.
fn patch_varyings(glsl: &str, prefix: &str, qualifier: &str) -> String {
    let direction = qualifier.rsplit(' ').next().unwrap_or(qualifier);
    let lines: Vec<&str> = glsl.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut renames = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let declared = lines.get(i + 1).and_then(|next| {
            let rest = next.strip_prefix(direction)?.trim_start();
            let (ty, name) = rest.split_once(' ')?;
            let name = name.trim().strip_suffix(';')?;
            let member = name.strip_prefix(prefix)?.strip_suffix("_0")?;
            Some((ty, name, member))
        });
        match declared {
            Some((ty, name, member)) if lines[i].starts_with("layout(location = ") => {
                out.push(format!("{qualifier} {ty} tgsi_patch_{member};"));
                renames.push((name.to_string(), format!("tgsi_patch_{member}")));
                i += 2;
            }
            _ => {
                out.push(lines[i].to_string());
                i += 1;
            }
        }
    }
    let text = out.join("\n") + "\n";
    renames
        .into_iter()
        .fold(text, |text, (name, ours)| text.replace(&name, &ours))
}

/// Slang's `in vec4  name[N];` per-vertex inputs as `in vec4 name[];`.
fn unsized_inputs(glsl: &str) -> String {
    glsl.lines()
        .map(|l| match l.strip_prefix("in vec4 ") {
            Some(rest) if rest.ends_with("];") => {
                let name = rest.trim().split('[').next().unwrap_or(rest);
                format!("in vec4 {name}[];")
            }
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Whether glrun can draw here: the first case's own GLSL (`shader.*`) must run.
fn can_draw(glrun: &Path, case: &Path, work: &Path) -> Result<(), String> {
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
        .arg(work.join("probe.bin"))
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
    let route = Route::Glsl;
    if let Some((glrun, cases)) = drawable_cases(&route.work()) {
        run_all(&glrun, &cases, &route, "");
    }
}

/// The HLSL hull and domain shaders of `tgsi_naga::tessellation_hlsl` run the same way,
/// through the GLSL Slang makes of them, which Mesa takes once what Slang's GLSL back end
/// leaves out is added (see [`slang_control`], [`slang_evaluation`]; the tessellator's
/// layout then comes from the evaluation shader's properties, not from the hull shader's
/// attributes). Cases the HLSL route does not take (no control shader, BARRIER) are listed.
#[test]
fn hlsl_tessellation_shaders_run_on_mesa_through_slang_as_llvmpipe_ran_them() {
    let hlslc = match hlsl_check::Hlslc::build(&tmp().join("hlslc")) {
        Ok(h) => h,
        Err(why) => {
            eprintln!("skipped: HLSL is not compiled: {why}");
            return;
        }
    };
    let route = Route::HlslThroughSlang(&hlslc);
    if let Some((glrun, cases)) = drawable_cases(&route.work()) {
        run_all(&glrun, &cases, &route, " (HLSL through Slang's GLSL)");
    }
}

/// glrun and the tessref cases, or `None` (saying why) when they are absent or glrun cannot
/// draw here (probed in `work`).
fn drawable_cases(work: &Path) -> Option<(PathBuf, Vec<PathBuf>)> {
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
        return None;
    };
    let glrun = match build_glrun() {
        Ok(t) => t,
        Err(why) => {
            eprintln!("skipped: {why}");
            return None;
        }
    };
    if let Err(why) = std::fs::create_dir_all(work)
        .map_err(|e| e.to_string())
        .and_then(|()| can_draw(&glrun, first, work))
    {
        eprintln!("skipped: glrun cannot draw here (Mesa's EGL and llvmpipe): {why}");
        return None;
    }
    Some((glrun, cases))
}

/// Runs every case by `route`; fails on any difference.
fn run_all(glrun: &Path, cases: &[PathBuf], route: &Route, how: &str) {
    let (mut identical, mut words, mut failures, mut refused) = (0, 0, Vec::new(), Vec::new());
    for case in cases {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        match run_case(glrun, case, route) {
            Ok(Outcome::Identical(n)) => {
                identical += 1;
                words += n;
            }
            Ok(Outcome::Refused(why)) => refused.push(format!("{name}: {why}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "{identical} of {} tessref cases identical to llvmpipe's run of the original GLSL{how} \
         ({words} words){}{}",
        cases.len(),
        if refused.is_empty() {
            ""
        } else {
            "; not taken:\n  "
        },
        refused.join("\n  ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(identical > 0, "no case was compared");
}
