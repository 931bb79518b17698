//! What the tests that run translations on Mesa's OpenGL share: where `../shared` is, and
//! building a C harness (`../shared/tools/gsref`, the repository's `tools/glrun`) with
//! the system's compiler, EGL and OpenGL.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `../shared`, or `TGSI_SHARED`.
pub fn shared() -> PathBuf {
    match std::env::var_os("TGSI_SHARED") {
        Some(s) => PathBuf::from(s),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// Builds the C program `source` as `dir/name` (linked with EGL, OpenGL and libm), or says
/// why it cannot.
pub fn build(source: &Path, dir: &Path, name: &str) -> Result<PathBuf, String> {
    if !source.is_file() {
        return Err(format!("{} is absent", source.display()));
    }
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let binary = dir.join(name);
    let out = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&binary)
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
    Ok(binary)
}
