//! Checking HLSL with a real compiler: the repository's `tools/hlslc` (built here with the
//! system's C compiler) runs Slang's HLSL front end and SPIR-V back end on each file. Slang's
//! library comes from `tools/hlslc/fetch-slang.sh` (which `.ci/run` runs) in
//! `target/slang/`, or from `TGSI_SLANG_LIB`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A built `hlslc` and the Slang library it loads.
pub struct Hlslc {
    binary: PathBuf,
    library: PathBuf,
}

/// The HLSL stage `hlslc` compiles a file as.
#[derive(Clone, Copy, Debug)]
pub enum Stage {
    Vertex,
    Fragment,
    Compute,
    Geometry,
    Hull,
    Domain,
}

impl Stage {
    /// The stage of a naga entry point (`None` for those HLSL lacks).
    pub fn of(stage: naga::ShaderStage) -> Option<Stage> {
        Some(match stage {
            naga::ShaderStage::Vertex => Stage::Vertex,
            naga::ShaderStage::Fragment => Stage::Fragment,
            naga::ShaderStage::Compute => Stage::Compute,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
            Stage::Compute => "compute",
            Stage::Geometry => "geometry",
            Stage::Hull => "hull",
            Stage::Domain => "domain",
        }
    }
}

impl Hlslc {
    /// Builds `tools/hlslc` into `dir`, or says why HLSL cannot be checked here.
    pub fn build(dir: &Path) -> Result<Hlslc, String> {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let library = std::env::var_os("TGSI_SLANG_LIB")
            .map(PathBuf::from)
            .unwrap_or_else(|| repo.join("target/slang/libslang-compiler.so"));
        if !library.is_file() {
            return Err(format!(
                "{} is absent (run tools/hlslc/fetch-slang.sh)",
                library.display()
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        let binary = dir.join("hlslc");
        let out = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&binary)
            .arg(repo.join("tools/hlslc/hlslc.c"))
            .arg("-ldl")
            .output()
            .map_err(|e| format!("cc does not run: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "hlslc does not build: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let hlslc = Hlslc { binary, library };
        // A library that does not load (another C library, a broken download) means the
        // checks cannot run here, not that the HLSL is wrong.
        let probe = dir.join("probe.hlsl");
        std::fs::write(&probe, "[numthreads(1, 1, 1)] void main() {}\n")
            .map_err(|e| e.to_string())?;
        let out = Command::new(&hlslc.binary)
            .arg("--lib")
            .arg(&hlslc.library)
            .args(["--stage", "compute"])
            .arg(&probe)
            .output()
            .map_err(|e| format!("hlslc does not run: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "Slang does not compile a trivial shader here: {}{}",
                String::from_utf8_lossy(&out.stdout).trim(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(hlslc)
    }

    /// Compiles each of `files` as `stage` with entry point `main`: `Ok` or Slang's first
    /// error, in order. Two processes share the files (the machines have two cores); when
    /// Slang crashes on a file, that file's result says so and the rest are compiled anew.
    pub fn check(&self, stage: Stage, files: &[PathBuf]) -> Vec<Result<(), String>> {
        let half = files.len().div_ceil(2).max(1);
        std::thread::scope(|s| {
            let jobs: Vec<_> = files
                .chunks(half)
                .map(|chunk| s.spawn(move || self.check_serially(stage, chunk)))
                .collect();
            jobs.into_iter()
                .flat_map(|j| j.join().expect("hlslc thread"))
                .collect()
        })
    }

    fn check_serially(&self, stage: Stage, files: &[PathBuf]) -> Vec<Result<(), String>> {
        let mut results = Vec::with_capacity(files.len());
        while results.len() < files.len() {
            let rest = &files[results.len()..];
            let out = Command::new(&self.binary)
                .arg("--lib")
                .arg(&self.library)
                .args(["--stage", stage.name()])
                .args(rest)
                .output()
                .expect("hlslc runs");
            let before = results.len();
            let report = String::from_utf8_lossy(&out.stdout);
            for line in report.lines().take(rest.len()) {
                results.push(match line.strip_prefix("error ") {
                    None => Ok(()),
                    // "error FILE: message"
                    Some(error) => Err(error
                        .split_once(": ")
                        .map_or(error, |(_, message)| message)
                        .to_string()),
                });
            }
            if results.len() < files.len() {
                let stderr = String::from_utf8_lossy(&out.stderr);
                if results.len() == before && out.status.code().is_some() {
                    // Not a crash: hlslc refused to start.
                    panic!("hlslc fails: {stderr}");
                }
                results.push(Err(format!("Slang crashed ({})", out.status)));
            }
        }
        results
    }
}

impl Hlslc {
    /// The GLSL Slang makes of the HLSL file `path` compiled as `stage` (written beside it),
    /// or Slang's first error.
    pub fn glsl(&self, stage: Stage, path: &Path) -> Result<String, String> {
        let dir = path.parent().ok_or("a file without a directory")?;
        let out = Command::new(&self.binary)
            .arg("--lib")
            .arg(&self.library)
            .args(["--stage", stage.name(), "--target", "glsl", "--out-dir"])
            .arg(dir)
            .arg(path)
            .output()
            .map_err(|e| e.to_string())?;
        let report = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || !report.starts_with("ok ") {
            return Err(format!(
                "Slang: {}{} ({})",
                report.trim(),
                String::from_utf8_lossy(&out.stderr).trim(),
                out.status
            ));
        }
        let name = path.file_name().ok_or("a file without a name")?;
        let glsl = dir.join(format!("{}.glsl", name.to_string_lossy()));
        std::fs::read_to_string(&glsl).map_err(|e| format!("{}: {e}", glsl.display()))
    }
}

/// naga writes a sampler as a `static const` global read from its sampler heap
/// (`static const SamplerState s = nagaSamplerHeap[i];`), which DXC accepts and Slang
/// refuses (its static constants must be compile-time values); each becomes a macro for the
/// same expression, which both accept and which reads the same sampler.
pub fn for_slang(hlsl: &str) -> String {
    let mut out = String::with_capacity(hlsl.len());
    for line in hlsl.split_inclusive('\n') {
        let sampler = ["SamplerState ", "SamplerComparisonState "]
            .iter()
            .find_map(|ty| line.strip_prefix("static const ")?.strip_prefix(ty));
        match sampler.and_then(|rest| rest.trim_end().strip_suffix(';')?.split_once(" = ")) {
            Some((name, value)) => out.push_str(&format!("#define {name} ({value})\n")),
            None => out.push_str(line),
        }
    }
    out
}

/// `[[vk::location(L)]]` before each `float4 locL : LOCL;` member, so that Slang keeps
/// GL's varying locations when it writes GLSL (it numbers them itself otherwise).
pub fn with_vulkan_locations(hlsl: &str) -> String {
    let mut out = String::with_capacity(hlsl.len());
    for line in hlsl.split_inclusive('\n') {
        let location = line
            .strip_prefix("    float4 loc")
            .and_then(|rest| rest.split_once(" : LOC"))
            .map(|(l, _)| l)
            .filter(|l| l.parse::<u32>().is_ok());
        if let Some(l) = location {
            out.push_str(&format!("    [[vk::location({l})]] {}", &line[4..]));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Slang's GLSL with its `vec4` varyings named as naga's GLSL names them (and so as the
/// transform-feedback captures name them): each `layout(location = L)` followed by
/// `out vec4 NAME…;` (or `in vec4 NAME…;`) renames NAME to `{output_prefix}L` (or
/// `{input_prefix}L`); a prefix of `None` leaves those alone.
pub fn with_naga_varying_names(
    glsl: &str,
    output_prefix: Option<&str>,
    input_prefix: Option<&str>,
) -> String {
    let lines: Vec<&str> = glsl.lines().collect();
    let mut renames = Vec::new();
    for pair in lines.windows(2) {
        let Some(l) = pair[0]
            .strip_prefix("layout(location = ")
            .and_then(|rest| rest.strip_suffix(')'))
        else {
            continue;
        };
        let output = output_prefix.and_then(|p| Some((pair[1].strip_prefix("out vec4 ")?, p)));
        let input = input_prefix.and_then(|p| Some((pair[1].strip_prefix("in vec4 ")?, p)));
        if let Some((name, prefix)) = output.or(input) {
            let name = name.trim().trim_end_matches(';');
            let name = name.split('[').next().unwrap_or(name);
            renames.push((name.to_string(), format!("{prefix}{l}")));
        }
    }
    // Longest first, so that no name is replaced inside another.
    renames.sort_by_key(|(name, _)| std::cmp::Reverse(name.len()));
    renames
        .into_iter()
        .fold(glsl.to_string(), |text, (name, naga)| {
            text.replace(&name, &naga)
        })
}
