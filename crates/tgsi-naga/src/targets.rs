//! Validating a translated module and writing it through naga's back ends.

use naga::back;
use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};
use naga::Module;

use crate::resources::{BUFFER_BINDING_BASE, COVERAGE_BINDING_BASE, SAMPLER_BINDING_BASE};
use crate::translate::ENTRY_POINT;

/// A shading language naga can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// SPIR-V binary.
    SpirV,
    /// WGSL.
    Wgsl,
    /// GLSL (desktop or ES).
    Glsl,
    /// Metal Shading Language.
    Msl,
    /// HLSL.
    Hlsl,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 5] = [
        Target::SpirV,
        Target::Wgsl,
        Target::Glsl,
        Target::Msl,
        Target::Hlsl,
    ];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Target::SpirV => "spirv",
            Target::Wgsl => "wgsl",
            Target::Glsl => "glsl",
            Target::Msl => "msl",
            Target::Hlsl => "hlsl",
        }
    }

    /// The target with this command-line name.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Options of the back ends.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// GLSL version (e.g. 450; ES versions 300, 310, 320).
    pub glsl_version: u16,
    /// Write GLSL ES instead of desktop GLSL.
    pub glsl_es: bool,
    /// SPIR-V version (major, minor).
    pub spirv_version: (u8, u8),
    /// MSL version (major, minor).
    pub msl_version: (u8, u8),
    /// HLSL shader model (major, minor), 5.0 to 6.7.
    pub hlsl_shader_model: (u8, u8),
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            glsl_version: 450,
            glsl_es: false,
            spirv_version: (1, 0),
            msl_version: (2, 1),
            hlsl_shader_model: (5, 1),
        }
    }
}

/// What a back end wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Source text.
    Text(String),
    /// SPIR-V words.
    Words(Vec<u32>),
}

impl Output {
    /// The bytes to store in a file (SPIR-V little-endian).
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            Output::Text(s) => s.into_bytes(),
            Output::Words(w) => w.iter().flat_map(|w| w.to_le_bytes()).collect(),
        }
    }
}

/// Validation or back-end failure.
#[derive(Debug)]
pub enum WriteError {
    /// naga's validator rejected the module (a translator defect).
    Validation(String),
    /// The back end cannot express the module.
    Backend(Target, String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Validation(e) => write!(f, "naga validation: {e}"),
            WriteError::Backend(t, e) => write!(f, "{} back end: {e}", t.name()),
        }
    }
}

impl std::error::Error for WriteError {}

/// Runs naga's validator with every capability a translated shader may use.
pub fn validate(module: &Module) -> Result<ModuleInfo, WriteError> {
    let caps = Capabilities::FLOAT64
        | Capabilities::SHADER_INT64
        | Capabilities::CLIP_DISTANCES
        | Capabilities::PRIMITIVE_INDEX
        | Capabilities::MULTISAMPLED_SHADING
        | Capabilities::CUBE_ARRAY_TEXTURES
        | Capabilities::DRAW_INDEX
        | Capabilities::STORAGE_TEXTURE_16BIT_NORM_FORMATS;
    Validator::new(ValidationFlags::all(), caps)
        .validate(module)
        .map_err(|e| WriteError::Validation(format!("{:?}", e.into_inner())))
}

/// Writes a validated module in `target`'s language. Out-of-range indices into register
/// arrays, buffers and shared memory are clamped (naga's `Restrict` policy), image loads out
/// of range read zero; shared memory is not zero-initialised (TGSI, like GL, leaves it
/// undefined).
pub fn write(
    module: &Module,
    info: &ModuleInfo,
    target: Target,
    options: &WriteOptions,
) -> Result<Output, WriteError> {
    let fail = |e: &dyn std::fmt::Display| WriteError::Backend(target, e.to_string());
    let builtins = crate::glsl_builtins::reads_glsl_builtins(module);
    if builtins && !matches!(target, Target::Glsl | Target::SpirV) {
        return Err(fail(
            &"the module reads built-ins naga lacks (Options::glsl_builtins, \
              Options::spirv_builtins): only GLSL or SPIR-V can be written",
        ));
    }
    let stage = module
        .entry_points
        .first()
        .map(|e| e.stage)
        .ok_or_else(|| fail(&"the module has no entry point"))?;
    let policies = naga::proc::BoundsCheckPolicies {
        index: naga::proc::BoundsCheckPolicy::Restrict,
        buffer: naga::proc::BoundsCheckPolicy::Restrict,
        image_load: naga::proc::BoundsCheckPolicy::ReadZeroSkipWrite,
        binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
    };
    match target {
        Target::SpirV => {
            // The functions and variables the built-ins fill are found by their names.
            let flags = if builtins {
                back::spv::WriterFlags::DEBUG
            } else {
                back::spv::WriterFlags::empty()
            };
            let opts = back::spv::Options {
                lang_version: options.spirv_version,
                flags,
                bounds_check_policies: policies,
                zero_initialize_workgroup_memory:
                    back::spv::ZeroInitializeWorkgroupMemoryMode::None,
                ..back::spv::Options::default()
            };
            let words = back::spv::write_vec(module, info, &opts, None).map_err(|e| fail(&e))?;
            let words = crate::spv_repair::repair(words);
            let words = if builtins {
                crate::spv_builtins::finish(words).map_err(|e| fail(&e))?
            } else {
                words
            };
            Ok(Output::Words(words))
        }
        Target::Wgsl => back::wgsl::write_string(module, info, back::wgsl::WriterFlags::empty())
            .map(Output::Text)
            .map_err(|e| fail(&e)),
        Target::Glsl => {
            let version = if options.glsl_es {
                back::glsl::Version::Embedded {
                    version: options.glsl_version,
                    is_webgl: false,
                }
            } else {
                back::glsl::Version::Desktop(options.glsl_version)
            };
            let opts = back::glsl::Options {
                version,
                writer_flags: back::glsl::WriterFlags::empty(),
                binding_map: gl_bindings(module),
                zero_initialize_workgroup_memory: false,
            };
            let pipeline = back::glsl::PipelineOptions {
                shader_stage: stage,
                entry_point: ENTRY_POINT.to_string(),
                multiview: None,
            };
            let mut out = String::new();
            let mut writer =
                back::glsl::Writer::new(&mut out, module, info, &opts, &pipeline, policies)
                    .map_err(|e| fail(&e))?;
            writer.write().map_err(|e| fail(&e))?;
            let out = if uses_sample_mask(module) {
                repair_sample_mask(&out)
            } else {
                out
            };
            crate::glsl_builtins::finish_glsl(module, out)
                .map(Output::Text)
                .map_err(|e| fail(&e))
        }
        Target::Msl => {
            if uses_doubles(module, info) {
                return Err(fail(&"Metal has no 64-bit floats (doubles)"));
            }
            let opts = back::msl::Options {
                lang_version: options.msl_version,
                bounds_check_policies: policies,
                fake_missing_bindings: true,
                zero_initialize_workgroup_memory: false,
                ..back::msl::Options::default()
            };
            back::msl::write_string(module, info, &opts, &back::msl::PipelineOptions::default())
                .map(|(s, _)| Output::Text(s))
                .map_err(|e| fail(&e))
        }
        Target::Hlsl => {
            let shader_model = hlsl_model(options.hlsl_shader_model)
                .ok_or_else(|| fail(&"unknown shader model"))?;
            let opts = back::hlsl::Options {
                shader_model,
                fake_missing_bindings: true,
                zero_initialize_workgroup_memory: false,
                ..back::hlsl::Options::default()
            };
            let mut out = String::new();
            let pipeline = back::hlsl::PipelineOptions::default();
            let mut writer = back::hlsl::Writer::new(&mut out, &opts, &pipeline);
            writer.write(module, info, None).map_err(|e| fail(&e))?;
            Ok(Output::Text(crate::hlsl_repair::repair(module, out)))
        }
    }
}

/// The first OpenGL texture unit of coverage views: GL 4.5 guarantees 80 combined units, so
/// views 0 to 47 and their coverage views fit.
const GL_COVERAGE_UNIT_BASE: u32 = 48;

/// OpenGL binding points: `CONST[d]` → uniform block d, `SVIEW[i]` → texture unit i (naga
/// combines it with its sampler), the coverage view beside `SVIEW[i]` (see
/// [`crate::Options::border_colors`]) → texture unit [`GL_COVERAGE_UNIT_BASE`] + i,
/// `IMAGE[i]` → image unit i, `BUFFER[i]` → storage block i.
fn gl_bindings(module: &Module) -> back::glsl::BindingMap {
    module
        .global_variables
        .iter()
        .filter_map(|(_, var)| {
            let rb = var.binding?;
            let unit = match rb.group {
                2 if rb.binding >= BUFFER_BINDING_BASE => rb.binding - BUFFER_BINDING_BASE,
                1 if rb.binding >= COVERAGE_BINDING_BASE => {
                    GL_COVERAGE_UNIT_BASE + (rb.binding - COVERAGE_BINDING_BASE)
                }
                1 if rb.binding >= SAMPLER_BINDING_BASE => rb.binding - SAMPLER_BINDING_BASE,
                _ => rb.binding,
            };
            Some((rb, u8::try_from(unit).ok()?))
        })
        .collect()
}

/// Whether any expression is an `f64` (naga's MSL back end cannot write them).
fn uses_doubles(module: &Module, info: &ModuleInfo) -> bool {
    let is_f64 = |f: &naga::Function, fi: &naga::valid::FunctionInfo| {
        f.expressions.iter().any(|(h, _)| {
            matches!(
                *fi[h].ty.inner_with(&module.types),
                naga::TypeInner::Scalar(s) | naga::TypeInner::Vector { scalar: s, .. }
                    if s == naga::Scalar::F64
            )
        })
    };
    module.functions.iter().any(|(h, f)| is_f64(f, &info[h]))
        || module
            .entry_points
            .iter()
            .enumerate()
            .any(|(i, e)| is_f64(&e.function, info.get_entry_point(i)))
}

/// Whether an entry point reads or writes the `SampleMask` built-in.
/// naga 30 writes GLSL's sample masks as if they were scalars (`uint x = gl_SampleMaskIn;`,
/// `gl_SampleMask = x;`); they are arrays of `int`. Reads become `uint(gl_SampleMaskIn[0])`
/// and writes `gl_SampleMask[0] = int(x);` (one sample's worth of bits, as the interpreter
/// has).
fn repair_sample_mask(glsl: &str) -> String {
    let mut out = String::with_capacity(glsl.len());
    for line in glsl.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if let Some(value) = trimmed
            .strip_prefix("gl_SampleMask = ")
            .and_then(|rest| rest.trim_end().strip_suffix(';'))
        {
            out.push_str(&format!("{indent}gl_SampleMask[0] = int({value});\n"));
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("gl_SampleMaskIn") {
            let after = &rest[at + "gl_SampleMaskIn".len()..];
            out.push_str(&rest[..at]);
            if after.starts_with('[') {
                out.push_str("gl_SampleMaskIn");
            } else {
                out.push_str("uint(gl_SampleMaskIn[0])");
            }
            rest = after;
        }
        out.push_str(rest);
    }
    out
}

/// Whether an entry point reads or writes the sample mask.
fn uses_sample_mask(module: &Module) -> bool {
    let is_mask = |b: &Option<naga::Binding>| {
        matches!(b, Some(naga::Binding::BuiltIn(naga::BuiltIn::SampleMask)))
    };
    module.entry_points.iter().any(|e| {
        let f = &e.function;
        let result = f.result.as_ref().is_some_and(|r| {
            is_mask(&r.binding)
                || matches!(&module.types[r.ty].inner, naga::TypeInner::Struct { members, .. }
                    if members.iter().any(|m| is_mask(&m.binding)))
        });
        result || f.arguments.iter().any(|a| is_mask(&a.binding))
    })
}

/// naga's name for an HLSL shader model.
fn hlsl_model((major, minor): (u8, u8)) -> Option<back::hlsl::ShaderModel> {
    use back::hlsl::ShaderModel as S;
    Some(match (major, minor) {
        (5, 0) => S::V5_0,
        (5, 1) => S::V5_1,
        (6, 0) => S::V6_0,
        (6, 1) => S::V6_1,
        (6, 2) => S::V6_2,
        (6, 3) => S::V6_3,
        (6, 4) => S::V6_4,
        (6, 5) => S::V6_5,
        (6, 6) => S::V6_6,
        (6, 7) => S::V6_7,
        _ => return None,
    })
}
