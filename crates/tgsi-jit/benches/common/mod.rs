//! The benchmark suite's cases, shared by `benches/engines.rs` and `tests/bench_cases.rs`.
//!
//! Each directory under `benches/shaders/` is a reference case made by
//! `shared/tools/fsref` (or `texref`) from original GLSL: `shader.tgsi` is the TGSI Mesa
//! softpipe executed, `consts.txt` its constant buffer, `ref.f32` softpipe's RGBA32F image
//! of `meta.json`'s `W`×`H` pixels, cleared to (-1, -2, -3, -4), and, for textured cases,
//! `bindings.json` the textures softpipe sampled (`scripts/ref2bindings.py`).

use std::path::{Path, PathBuf};
use tgsi_exec::{parse_consts, Program, RenderOptions};

/// One case, ready to render at its reference size.
pub struct Case {
    /// The directory name (e.g. `julia`).
    pub name: String,
    /// The compiled shader.
    pub program: Program,
    /// Reference size, constants, clear colour and bindings; one thread.
    pub options: RenderOptions,
    /// softpipe's image (`ref.f32`).
    pub reference: Vec<u8>,
}

/// The directory holding the cases.
pub fn shaders_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/shaders")
}

/// The integer value of `"key": N` in a flat JSON object.
fn json_u32(json: &str, key: &str) -> Option<u32> {
    let rest = &json[json.find(&format!("\"{key}\":"))? + key.len() + 3..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Load one case directory, panicking with the path on any problem.
pub fn load(dir: &Path) -> Case {
    let read = |file: &str| {
        std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
    };
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let shader = tgsi::parse(&read("shader.tgsi")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{name}: {e}"));
    let meta = read("meta.json");
    let (width, height) = (json_u32(&meta, "W"), json_u32(&meta, "H"));
    let (width, height) = width.zip(height).expect("meta.json has W and H");
    let constants = if dir.join("consts.txt").exists() {
        parse_consts(&read("consts.txt")).unwrap_or_else(|e| panic!("{name}: {e}"))
    } else {
        Vec::new()
    };
    let bindings = dir.join("bindings.json");
    let resources = if bindings.exists() {
        tgsi_exec::bindings::load(&bindings)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .resources
    } else {
        Default::default()
    };
    let reference = std::fs::read(dir.join("ref.f32")).expect("ref.f32");
    let options = RenderOptions {
        width,
        height,
        constants,
        clear: [-1.0, -2.0, -3.0, -4.0],
        threads: 1,
        resources,
        ..Default::default()
    };
    Case {
        name,
        program,
        options,
        reference,
    }
}

/// Every case, in name order.
pub fn load_all() -> Vec<Case> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(shaders_dir())
        .expect("benches/shaders")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("shader.tgsi").exists())
        .collect();
    dirs.sort();
    dirs.iter().map(|d| load(d)).collect()
}
