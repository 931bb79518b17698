//! Every fragment reference case of the repository and the shared corpus, rendered on the GPU
//! and by the interpreter at the case's size with its constants (and, for texref cases, its
//! textures): the images must agree, bit for bit or within [`ULP_TOL`] / [`ABS_TOL`] per
//! float, except the cases of [`EXPLAINED`], whose differences come from the driver and are
//! reported, not failed. Cases the GPU engine cannot run (translation or engine limits) are
//! counted and listed with the reason; the counts are printed per corpus. Skips without an
//! adapter; corpora that are absent contribute no cases.

mod common;
#[path = "../../tgsi-cli/tests/support/reference_bindings.rs"]
mod reference_bindings;

use std::path::{Path, PathBuf};

use reference_bindings::texref_bindings;
use tgsi_exec::{parse_consts, render_fragment, Program, RenderOptions};

/// Largest accepted distance in units in the last place...
const ULP_TOL: u64 = 64;
/// ... or absolute difference (for results near zero, where ULPs are tiny).
const ABS_TOL: f32 = 1e-5;

/// Cases whose images differ beyond the tolerance on lavapipe, and why. llvmpipe runs shaders
/// with denormals flushed to zero (inputs and results), does not keep NaN signs and payloads,
/// and takes coarse derivatives from the quad's top row and left column where softpipe (and
/// the interpreter) use the bottom row (DDX) and left column (DDY); it filters 8-bit
/// textures with 8-bit fixed-point weights (results off by up to about 1/255, amplified by
/// the shader's arithmetic), computes the LOD with its own approximations (another mip level
/// for some pixels) and always samples cube maps seamlessly. Vulkan allows all of it.
const EXPLAINED: &[(&str, &str)] = &[
    (
        "derivatives",
        "coarse DDX/DDY of non-linear values: another row of the quad",
    ),
    (
        "exec-deriv-nonlinear",
        "coarse DDX/DDY of non-linear values: another row of the quad",
    ),
    (
        "exec-discard-loop",
        "coarse DDX/DDY of non-linear values: another row of the quad",
    ),
    (
        "demos-toyball",
        "denormal results flushed to zero, then divided (POW/RSQ/DIV chains)",
    ),
    (
        "exec-vector-relational",
        "denormal constants flushed to zero before comparisons",
    ),
    (
        "exec-rounding",
        "denormal inputs flushed to zero before ROUND/FLR/CEIL/TRUNC",
    ),
    (
        "exec-packing",
        "half-float packing of NaN and denormals (flushed, NaN bits not kept)",
    ),
    (
        "exec-trig-edge",
        "NaN sign bits and SIN/COS precision at large arguments",
    ),
    (
        "exec-fp64-arith",
        "NaN sign and infinities of DDIV/DSQRT, denormal float results flushed",
    ),
    (
        "exec-fp64-minmax-nan",
        "DMIN/DMAX with a NaN operand return the NaN on llvmpipe",
    ),
    (
        "texture",
        "8-bit filtering weights and LOD approximations (mipmapped, scaled results)",
    ),
    (
        "piglit-lots-of-tex",
        "8-bit filtering weights: texels within 1/255, then scaled by 18",
    ),
    (
        "bilinear-wrap-tiles",
        "softpipe's tile cache aliases the seam texels of this 256-wide REPEAT texture \
         (the case was made to show it; tgsi-exec's texture/tile_cache.rs), lavapipe reads \
         the true ones (11 pixels, all in the seam columns); elsewhere within 0.015: \
         8-bit filtering weights and LOD",
    ),
    (
        "trect",
        "softpipe's linear filter of unnormalised CLAMP_TO_BORDER coordinates never takes \
         the border past the last texel (it caps the second texel index at size − 1, \
         tgsi-exec's texture/wrap.rs), lavapipe's does: the differing pixels sample the \
         top rows of the bordered RECT half (llvmpipe differs from softpipe there too, by the \
         same 0.744, as the case's meta.json records)",
    ),
    (
        "srgb",
        "the TXF band: softpipe clamps out-of-range texel fetches to the edge, Vulkan's \
         robust access returns zero (every differing pixel there is (0, 0, 0, 0) on the GPU); \
         the two trilinear bands: LOD approximations with steeply scaled coordinates (within \
         0.073); the emulated border colour band is within 0.0012 (8-bit filtering weights)",
    ),
    (
        "wrap-linear-2d-npot",
        "8-bit filtering weights: within 0.0036 (about 1/255) in every quarter of the image \
         alike, the bands whose GL CLAMP and mirror-clamp modes the translation emulates \
         included",
    ),
    (
        "wrap-linear-3d",
        "8-bit filtering weights in three dimensions: within 0.005 in every quarter of the \
         image alike, the bands whose GL CLAMP and mirror-clamp modes the translation \
         emulates included",
    ),
    (
        "wrap-linear-cube-array",
        "lavapipe samples cube maps seamlessly, so wrap modes do not apply to them; this \
         case's samplers are not seamless (differences up to 0.61 in every quarter)",
    ),
    (
        "texelfetch-int",
        "band 0 fetches past its 8-texel rows (q % 9): softpipe clamps out-of-range texel \
         fetches to the edge, Vulkan's robust access returns zero; llvmpipe differs from \
         softpipe in the same 96 floats (the case's meta.json)",
    ),
    (
        "textureproj",
        "LOD approximations for projected coordinates in the mipmapped 1-D and 2-D bands: \
         lavapipe's image differs from softpipe's exactly as llvmpipe's does (14,266 floats, \
         max 0.2653, the case's meta.json)",
    ),
    (
        "offsets-bias-lod",
        "LOD approximations with offsets, biases and explicit LODs: lavapipe differs from \
         softpipe as llvmpipe does (12,040 floats here, 12,039 for llvmpipe; max 0.3367 for \
         both, the case's meta.json)",
    ),
    (
        "wrap-linear-1d-array",
        "8-bit filtering weights: within 0.002 (llvmpipe: 0.0017) in every band alike, the \
         bands whose GL CLAMP and mirror-clamp modes the translation emulates included",
    ),
    (
        "packed-formats",
        "the RGB10_A2 band filters trilinearly: LOD approximations (within 0.021; llvmpipe \
         differs from softpipe by up to 1 in this case, the case's meta.json); the other \
         bands within 0.004, the formats wgpu lacks decoded to softpipe's texels included",
    ),
    (
        "snorm-swizzle",
        "8-bit filtering weights: within 0.0068, exactly llvmpipe's largest difference from \
         softpipe in this case (the case's meta.json); the emulated snorm border colours are \
         clamped as softpipe clamps them",
    ),
    (
        "depth-formats-sample",
        "the cube-array shadow band: four pixels where lavapipe's seamless cube filtering puts \
         the filtered depth on the other side of the reference; the trilinear DEPTH32F band: \
         LOD approximations (within 0.018); every other band identical, the comparisons made \
         after filtering as softpipe makes them",
    ),
    (
        "legacy-tex-opcodes",
        "the cube band: seamless cube maps and LOD approximations (within 0.25); the \
         projected 2-D band with a bias: LOD approximations (within 0.018); the 1-D and 3-D \
         bands: 8-bit filtering weights (within 0.005); the shadow bands identical",
    ),
    (
        "rect-wraps",
        "the linear RECT CLAMP_TO_BORDER band: softpipe's linear filter of unnormalised \
         CLAMP_TO_BORDER coordinates never takes the border past the last texel (as in \
         trect); the other linear bands: 8-bit filtering weights (within 0.0042); the \
         nearest and shadow bands identical",
    ),
    (
        "txd-grad",
        "LODs from explicit gradients: lavapipe differs from softpipe by exactly llvmpipe's \
         largest difference in this case (2.1963, the case's meta.json), the shadow band by \
         whole comparisons where the filtered depth falls on the other side",
    ),
    (
        "texelfetch-targets",
        "out-of-range texel fetches: softpipe clamps them to the edge, Vulkan's robust access \
         returns zero (every differing pixel but 17 is zero on the GPU; llvmpipe's largest \
         difference from softpipe is the same 1.984375, the case's meta.json); the other 17: \
         softpipe fetches every lane of a quad from lane 0's level; the two buffer bands \
         identical",
    ),
    (
        "aniso-trilinear",
        "anisotropic filtering: softpipe's EWA filter against lavapipe's own (none for the \
         LINEAR_MIPMAP_NEAREST sampler: wgpu takes anisotropy only with linear mipmapping); \
         llvmpipe differs from softpipe by up to 0.736 in this case (the case's meta.json)",
    ),
    (
        "mip-filters-2d",
        "LOD approximations select other mip levels (NEAREST and LINEAR mip filters, in \
         every band alike; the last band's sampler LOD bias is added by the translation)",
    ),
    (
        "cube-array-mip",
        "lavapipe samples cube maps seamlessly, this case's samplers do not, and LOD \
         approximations (in the unbiased bands as much as in the biased one)",
    ),
    (
        "t2d-linear-clamp",
        "8-bit filtering weights: within about 1/255",
    ),
    (
        "t2d-lod-polynomial",
        "LOD approximations select other mip levels",
    ),
    (
        "t3d-trilinear",
        "LOD approximations select other mip levels of a 3-D texture",
    ),
    (
        "texturelod",
        "8-bit filtering weights between explicit mip levels",
    ),
    (
        "gather-offsets",
        "the band with an offset computed per row (instruction 26): softpipe reads a register \
         texel offset from the first lane of each quad, so the quad's second row gathers at \
         the first row's offset, where each GPU invocation reads its own (gather-register-\
         offsets, whose offsets are uniform over quads, is identical); columns whose \
         coordinate falls exactly on a texel boundary in softpipe's float arithmetic (bands \
         0 and 3), where lavapipe's fixed-point coordinate takes the next footprint; the \
         RECT band: softpipe clamps unnormalised CLAMP_TO_EDGE coordinates to [0.5, size − \
         0.5] before the footprint (as in trect); llvmpipe differs from softpipe by the same \
         11647.79 (2,332 floats, the case's meta.json)",
    ),
    (
        "gather-arrays-cube",
        "the cube, cube-array and cube shadow bands: lavapipe samples cube maps seamlessly, \
         this case's samplers do not; two columns of the array band with four offsets, whose \
         coordinate lies exactly on a texel boundary in softpipe's float arithmetic, where \
         lavapipe's fixed-point coordinate takes the next footprint; the RECT band, an \
         RGBA16UI texture gathered through a view declared FLOAT (its words returned as they \
         are): softpipe clamps unnormalised CLAMP_TO_EDGE coordinates to [0.5, size − 0.5] \
         before the footprint (as in trect); llvmpipe differs from softpipe in 2,335 floats, \
         by up to 3.648 (the case's meta.json)",
    ),
    (
        "integer-formats",
        "the texelFetch band: softpipe clamps out-of-range texel fetches to the edge, Vulkan's \
         robust access returns zero (as in texelfetch-int); every other band identical, the \
         samples of integer views made by texel loads as softpipe's nearest filters make \
         them (mipmapped 1-D and border bands included)",
    ),
    (
        "queries",
        "LODQ of coordinates scaled by exp2(y), non-linear within a quad: the translation \
         computes softpipe's LOD, but from lavapipe's derivatives, which come from the quad's \
         other row (the four LODQ bands differ in the even rows only, by up to 0.11 in the \
         LOD and one level where the nearest mip filter rounds); the size queries identical",
    ),
    (
        "textureoffset",
        "filtering and LOD differences with texel offsets (not investigated further)",
    ),
    (
        "cube-seamless",
        "lavapipe samples cube maps seamlessly; this case's sampler is not",
    ),
    (
        "exec-frexp-ldexp-fma",
        "FREXP/LDEXP/FMA of infinities, NaN and denormals",
    ),
    (
        "exec-nan-minmax",
        "MIN/MAX and comparisons with NaN operands (llvmpipe's NaN handling)",
    ),
    (
        "exec-pow-exp-log",
        "POW/EX2/LG2 at 0, infinities, NaN and denormals",
    ),
    (
        "exec-sqrt-div",
        "SQRT/RSQ/DIV/RCP of 0, infinities and denormals (flushed)",
    ),
    ("exec-step-mix", "step/mix edges at denormal and NaN inputs"),
    (
        "exec-temp-array-indirect",
        "softpipe (and the interpreter) write an indirect TEMP destination at the first \
         lane's address for the whole quad; the translation runs each invocation on its own",
    ),
];

/// `"key": number` of meta.json (read by hand: some cases' files are not strict JSON).
fn meta_number(meta: &str, key: &str) -> Option<u32> {
    let at = meta.find(&format!("\"{key}\""))?;
    let rest = meta[at + key.len() + 2..].trim_start().strip_prefix(':')?;
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The case's image size.
fn meta_size(dir: &Path) -> Option<(u32, u32)> {
    let meta = std::fs::read_to_string(dir.join("meta.json")).ok()?;
    Some((meta_number(&meta, "W")?, meta_number(&meta, "H")?))
}

/// The outcome of one case.
enum Outcome {
    Exact,
    Within(common::Diff),
    Over(common::Diff),
    NotRun(String),
}

/// Renders one case on both engines.
fn run_case(gpu: &tgsi_gpu::Gpu, dir: &Path) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(dir.join("shader.tgsi")).map_err(|e| e.to_string())?;
    let shader = tgsi::parse(&text).map_err(|e| e.to_string())?;
    let program = Program::compile(&shader).map_err(|e| e.to_string())?;
    if program.processor != tgsi::Processor::Fragment {
        return Err("not a fragment shader".into());
    }
    let constants = match std::fs::read_to_string(dir.join("consts.txt")) {
        Ok(t) => parse_consts(&t).map_err(|e| e.to_string())?,
        Err(_) => Vec::new(),
    };
    let resources = match texref_bindings(dir) {
        Some(doc) => {
            tgsi_exec::bindings::parse(&doc.to_string(), dir)
                .map_err(|e| e.to_string())?
                .resources
        }
        None => Default::default(),
    };
    let (width, height) = meta_size(dir).ok_or("meta.json: no W/H")?;
    let opts = RenderOptions {
        width,
        height,
        constants,
        clear: [-1.0, -2.0, -3.0, -4.0],
        threads: 0,
        resources,
        ..Default::default()
    };
    let want = render_fragment(&program, &opts).map_err(|e| e.to_string())?;
    let got = match tgsi_gpu::render(gpu, &shader, &program, &opts) {
        Ok(image) => image,
        Err(e) => return Ok(Outcome::NotRun(e.to_string())),
    };
    let diff = common::compare(&got, &want, ULP_TOL, ABS_TOL);
    Ok(if diff.floats == 0 {
        Outcome::Exact
    } else if diff.over == 0 {
        Outcome::Within(diff)
    } else {
        Outcome::Over(diff)
    })
}

/// Cases that need the GPU engine to emulate what wgpu lacks (`tgsi_naga::Options`'s
/// `border_colors`, `coordinate_wraps`, `one_d_as_2d` and `depth_compares`, buffer views
/// as texel buffers, and formats decoded to the interpreter's texels) or naga lacks (gathers
/// with texel offsets in registers, moved into the coordinates; LOD queries, computed) or
/// need the texel type of a view taken from its format, or sample integer views (texel
/// loads in the translation): refusing one is a failure.
const EMULATED: &[&str] = &[
    "trect",
    "srgb",
    "wrap-nearest-all",
    "wrap-nearest-3d",
    "wrap-nearest-cube-array",
    "wrap-nearest-1d-array",
    "wrap-linear-2d-npot",
    "wrap-linear-3d",
    "wrap-linear-cube-array",
    "wrap-linear-1d-array",
    "texelfetch-int",
    "textureproj",
    "offsets-bias-lod",
    "legacy-families-border",
    "packed-formats",
    "snorm-swizzle",
    "piglit-shadow2d-01",
    "piglit-shadow2d-07",
    "piglit-shadow2drectproj",
    "shadow-border",
    "depth16-compare-funcs",
    "depth-formats-sample",
    "legacy-tex-opcodes",
    "rect-wraps",
    "txd-grad",
    "gather-components",
    "gather-arrays-cube",
    "integer-formats",
    "gather-offsets",
    "gather-register-offsets",
    "queries",
    "tbuffer-fetch",
    "texelfetch-targets",
    "aniso",
    "aniso-trilinear",
];

/// Why case `name` may differ, if it may.
fn explained(name: &str) -> Option<&'static str> {
    EXPLAINED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, why)| *why)
}

/// Runs every case of one corpus, printing a line per case and the counts; returns the
/// failures.
fn corpus(gpu: &tgsi_gpu::Gpu, label: &str, dirs: &[PathBuf]) -> Vec<String> {
    let (mut exact, mut within, mut not_run, mut failures) = (0, 0, 0, Vec::new());
    let mut explained_count = 0;
    let (mut max_ulps, mut max_abs) = (0u64, 0f32);
    for dir in dirs {
        let name = common::name(dir);
        match run_case(gpu, dir) {
            Ok(Outcome::Exact) => {
                exact += 1;
                eprintln!("exact   {label}/{name}");
            }
            Ok(Outcome::Within(d)) => {
                within += 1;
                max_ulps = max_ulps.max(d.max_ulps);
                max_abs = max_abs.max(d.max_abs);
                eprintln!(
                    "within  {label}/{name}: {} floats differ, max {} ulp, max abs {:e}",
                    d.floats, d.max_ulps, d.max_abs
                );
            }
            Ok(Outcome::Over(d)) if explained(&name).is_some() => {
                explained_count += 1;
                eprintln!(
                    "explain {label}/{name}: {} floats differ, {} over tolerance, max {} ulp, \
                     max abs {:e}: {}",
                    d.floats,
                    d.over,
                    d.max_ulps,
                    d.max_abs,
                    explained(&name).unwrap_or_default()
                );
            }
            Ok(Outcome::Over(d)) => failures.push(format!(
                "DIFF    {label}/{name}: {} floats differ, {} over tolerance, max {} ulp, max abs {:e}, worst \
                 (pixel, channel, gpu, interp) {:?}",
                d.floats, d.over, d.max_ulps, d.max_abs, d.worst
            )),
            Ok(Outcome::NotRun(why)) if EMULATED.contains(&name.as_str()) => {
                failures.push(format!("REFUSED {label}/{name}: {why}"))
            }
            Ok(Outcome::NotRun(why)) => {
                not_run += 1;
                eprintln!("not run {label}/{name}: {why}");
            }
            Err(e) => failures.push(format!("ERROR   {label}/{name}: {e}")),
        }
    }
    eprintln!(
        "{label}: {} cases: {exact} exact, {within} within tolerance (max {max_ulps} ulp, \
         max abs {max_abs:e}), {explained_count} explained differences, {} unexplained differences \
         or errors, {not_run} not run by the gpu engine",
        dirs.len(),
        failures.len()
    );
    failures
}

#[test]
fn gpu_images_match_the_interpreter() {
    let Some(gpu) = common::gpu() else { return };
    let shared = common::shared();
    let exec_data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tgsi-exec/tests/data");
    let mut bench = common::cases(&common::bench_dir(), "ref.f32");
    bench.retain(|d| d.join("shader.tgsi").is_file());
    let corpora = [
        ("bench", bench),
        (
            "fsref",
            common::cases(&shared.join("corpus/fsref"), "shader.tgsi"),
        ),
        (
            "exec-fsref",
            common::cases(&exec_data.join("fsref"), "shader.tgsi"),
        ),
        (
            "texref",
            common::cases(&shared.join("corpus/texref"), "textures.json"),
        ),
        (
            "exec-texref",
            common::cases(&exec_data.join("texref"), "textures.json"),
        ),
    ];
    let mut failures = Vec::new();
    for (label, dirs) in &corpora {
        failures.extend(corpus(&gpu, label, dirs));
    }
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} cases failed", failures.len());
}
