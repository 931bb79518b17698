//! What the tests that run translations on Mesa's OpenGL share: where `../shared` is, and
//! building a C harness (`../shared/tools/gsref`, the repository's `tools/glrun`) with
//! the system's compiler, EGL and OpenGL.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `../shared`, or `TGSI_SHARED`.
pub fn shared() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// Builds the C program `source` as `dir/name` (linked with EGL, OpenGL and libm), or says
/// why it cannot. Tests of one binary run in parallel and may build the same harness: each
/// build writes a file of its own and renames it into place, so no test runs a half-written
/// binary.
pub fn build(source: &Path, dir: &Path, name: &str) -> Result<PathBuf, String> {
    if !source.is_file() {
        return Err(format!("{} is absent", source.display()));
    }
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    static BUILDS: AtomicUsize = AtomicUsize::new(0);
    let binary = dir.join(name);
    let partial = dir.join(format!(
        "{name}.{}.{}.partial",
        std::process::id(),
        BUILDS.fetch_add(1, Ordering::Relaxed)
    ));
    let out = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&partial)
        .arg(source)
        .args(["-lEGL", "-lOpenGL", "-lm"])
        .output()
        .map_err(|e| format!("cc does not run: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{name} does not build (install build-essential libegl-dev libgl-dev): {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .next()
                .unwrap_or("")
        ));
    }
    std::fs::rename(&partial, &binary).map_err(|e| format!("{name}: {e}"))?;
    Ok(binary)
}

/// A vertex shader's GLSL (`options`, default write options).
pub fn vertex_glsl(vs: &tgsi::Shader, options: &tgsi_naga::Options) -> Result<String, String> {
    let module = tgsi_naga::translate_with(vs, options).map_err(|e| format!("vs.tgsi: {e}"))?;
    let info = tgsi_naga::validate(&module).map_err(|e| e.to_string())?;
    let write = tgsi_naga::WriteOptions::default();
    match tgsi_naga::write(&module, &info, tgsi_naga::Target::Glsl, &write) {
        Ok(tgsi_naga::Output::Text(text)) => Ok(text),
        Ok(tgsi_naga::Output::Words(_)) => Err("GLSL is text".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// What `tools/glrun` reports of its draw.
pub struct Drawn {
    pub generated: u64,
    pub written: u64,
    /// Bytes of a captured vertex.
    pub stride: u64,
}

/// Runs `tools/glrun` with `args`, writing the capture to `out`, in the environment `env`.
pub fn glrun(
    binary: &Path,
    args: &[String],
    out: &Path,
    env: &[(&str, &str)],
) -> Result<Drawn, String> {
    let run = Command::new(binary)
        .args(args)
        .arg("--out")
        .arg(out)
        .envs(env.iter().copied())
        .output()
        .map_err(|e| e.to_string())?;
    if !run.status.success() {
        return Err(format!(
            "glrun failed: {}",
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    // "generated G written W stride S"
    let report = String::from_utf8_lossy(&run.stdout);
    let field = |name: &str| {
        report
            .split_whitespace()
            .skip_while(|w| *w != name)
            .nth(1)
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or(format!("glrun's report has no {name}: {report}"))
    };
    Ok(Drawn {
        generated: field("generated")?,
        written: field("written")?,
        stride: field("stride")?,
    })
}
