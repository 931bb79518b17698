//! The benchmark suite's cases, shared by `benches/engines.rs` and `tests/bench_cases.rs`.
//!
//! Each directory under `benches/shaders/` is a reference case made from original GLSL on
//! Mesa softpipe. Fragment cases (`shader.frag`, by `shared/tools/fsref` or `texref`):
//! `shader.tgsi` is the TGSI softpipe executed, `consts.txt` its constant buffer, `ref.f32`
//! softpipe's RGBA32F image of `meta.json`'s `W`×`H` pixels, cleared to (-1, -2, -3, -4),
//! and, for textured cases, `tgsi-bindings.json` the textures softpipe sampled
//! (`scripts/ref2bindings.py`). Compute cases (`shader.comp`, by `shared/tools/csref`):
//! `tgsi-bindings.json` binds the `in_*.bin` buffers and names `run/out_*.bin` as outputs;
//! softpipe's results are the `out_*.bin` files beside it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use tgsi_exec::bindings::Bindings;
use tgsi_exec::resource::Resource;
use tgsi_exec::{parse_consts, ComputeOptions, Program, RenderOptions};

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

/// One compute case.
pub struct ComputeCase {
    /// The directory name (e.g. `matmul`).
    pub name: String,
    /// The compiled kernel.
    pub program: Program,
    /// Constant buffers.
    pub constants: Vec<Vec<[u32; 4]>>,
    /// Buffers (freshly loaded: a dispatch changes them in place), grid and block.
    pub bindings: Bindings,
    /// Each output resource with softpipe's bytes for it after the dispatch.
    pub expected: Vec<(Arc<Resource>, Vec<u8>)>,
}

impl ComputeCase {
    /// The dispatch softpipe made, on one thread (softpipe's order).
    pub fn options(&self) -> ComputeOptions<'_> {
        ComputeOptions {
            grid: self.bindings.grid.unwrap_or([1, 1, 1]),
            block: self.bindings.block.unwrap_or([1, 1, 1]),
            constants: self.constants.clone(),
            resources: &self.bindings.resources,
            // csref records the shared memory the kernel asked for (`req_local_mem`).
            shared_bytes: self.bindings.req_local_mem.map_or(0, |b| b as usize),
            threads: 1,
            ..Default::default()
        }
    }
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

/// A case directory's name, compiled program, constants and bindings, panicking with the
/// path on any problem.
fn load_parts(dir: &Path) -> (String, Program, Vec<Vec<[u32; 4]>>, Bindings) {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let read = |file: &str| {
        std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
    };
    let shader = tgsi::parse(&read("shader.tgsi")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{name}: {e}"));
    let constants = if dir.join("consts.txt").exists() {
        parse_consts(&read("consts.txt")).unwrap_or_else(|e| panic!("{name}: {e}"))
    } else {
        Vec::new()
    };
    let bindings = dir.join("tgsi-bindings.json");
    let bindings = if bindings.exists() {
        tgsi_exec::bindings::load(&bindings).unwrap_or_else(|e| panic!("{name}: {e}"))
    } else {
        Bindings::default()
    };
    (name, program, constants, bindings)
}

/// Load one fragment case directory, panicking with the path on any problem.
pub fn load(dir: &Path) -> Case {
    let (name, program, constants, bindings) = load_parts(dir);
    let meta = std::fs::read_to_string(dir.join("meta.json")).expect("meta.json");
    let (width, height) = (json_u32(&meta, "W"), json_u32(&meta, "H"));
    let (width, height) = width.zip(height).expect("meta.json has W and H");
    let resources = bindings.resources;
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

/// Load one compute case directory, panicking with the path on any problem.
pub fn load_compute(dir: &Path) -> ComputeCase {
    let (name, program, constants, bindings) = load_parts(dir);
    let expected = bindings
        .outputs
        .iter()
        .map(|(path, resource)| {
            let file = dir.join(path.file_name().expect("an output file name"));
            let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            (resource.clone(), bytes)
        })
        .collect();
    ComputeCase {
        name,
        program,
        constants,
        bindings,
        expected,
    }
}

/// The case directories whose GLSL source is `source` (`shader.frag`, `shader.comp`), in
/// name order.
fn dirs(source: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(shaders_dir())
        .expect("benches/shaders")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(source).exists())
        .collect();
    dirs.sort();
    dirs
}

/// Every fragment case, in name order.
pub fn load_all() -> Vec<Case> {
    dirs("shader.frag").iter().map(|d| load(d)).collect()
}

/// Every compute case, in name order.
#[allow(dead_code)] // not every user of this module runs compute cases
pub fn load_all_compute() -> Vec<ComputeCase> {
    dirs("shader.comp")
        .iter()
        .map(|d| load_compute(d))
        .collect()
}
