//! `tgsi translate`: translate a shader through naga into SPIR-V, WGSL, GLSL, MSL or HLSL.
//! naga's validator checks the module before a back end writes it; a shader that cannot be
//! translated is reported with the position and name of the statement at fault.

use std::collections::BTreeMap;

use tgsi::enums::Semantic;
use tgsi_naga::{Target, WriteOptions};

use crate::input::{self, Failure};

/// Options of `tgsi translate`.
#[derive(clap::Args)]
pub struct TranslateArgs {
    /// Shader files (text or tokens); `-` reads stdin. Several files are one pipeline: their
    /// varyings get locations below --max-varying-locations that every stage agrees on,
    /// and -o names a directory that receives each translation as STEM.EXT (spv, wgsl,
    /// vert/tesc/tese/geom/frag/comp for GLSL, metal, hlsl).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Target language.
    #[arg(long, value_parser = ["spirv", "wgsl", "glsl", "msl", "hlsl"])]
    pub to: String,
    /// Output file (`-` for stdout; SPIR-V is binary); a directory for several files.
    #[arg(short, long, default_value = "-")]
    pub output: String,
    /// GLSL version (desktop: 140 to 460; ES: 300, 310, 320).
    #[arg(long, default_value_t = 450)]
    pub glsl_version: u16,
    /// Write GLSL ES.
    #[arg(long)]
    pub es: bool,
    /// SPIR-V version, MAJOR.MINOR.
    #[arg(long, default_value = "1.0", value_parser = version)]
    pub spirv_version: (u8, u8),
    /// MSL version, MAJOR.MINOR.
    #[arg(long, default_value = "2.1", value_parser = version)]
    pub msl_version: (u8, u8),
    /// HLSL shader model, MAJOR.MINOR (5.0 to 6.7).
    #[arg(long, default_value = "5.1", value_parser = version)]
    pub shader_model: (u8, u8),
    /// Treat the input as a token stream.
    #[arg(long)]
    pub tokens: bool,
    /// Bound every invocation to N loop iterations, all loops together: past them the
    /// loops are left and word 0 of a storage buffer at group 0, binding 33 is set to 1
    /// (for hosts that run untrusted shaders on a GPU, which has no instruction budget).
    #[arg(long, value_name = "N")]
    pub loop_budget: Option<u32>,
    /// Translate a vertex shader as a compute shader, one invocation per vertex, its
    /// registers in storage buffers (group 3; see the README), for hosts without transform
    /// feedback.
    #[arg(long)]
    pub vertex_as_compute: bool,
    /// Translate a geometry shader as a compute shader, one invocation per input primitive
    /// and GS invocation, its input vertices and the vertices it emits in storage buffers
    /// (group 3; see the README): naga, WebGPU and Metal have no geometry stage. Without it
    /// a geometry shader translates to GLSL as a GLSL geometry shader (vertex stream 0)
    /// and is refused by the other targets.
    #[arg(long)]
    pub geometry_as_compute: bool,
    /// Translate a tessellation control shader as a compute shader (a workgroup per patch,
    /// an invocation per output vertex) or an evaluation shader as one (an invocation per
    /// domain point), their patches and outputs in storage buffers (group 3; see the
    /// README); the host tessellates between them: naga and WebGPU have no tessellation
    /// stages. Without it a tessellation shader translates to GLSL as a GLSL tessellation
    /// shader, a control and an evaluation shader given together to HLSL as a hull and a
    /// domain shader, and the other targets refuse them.
    #[arg(long)]
    pub tessellation_as_compute: bool,
    /// Hold every image an atomic names (R32_UINT, R32_SINT, R32_FLOAT), and every BUFFER
    /// image of 32-bit channels, in a storage buffer of words at the image's binding (an
    /// 8-word header of sizes, then the bound level's texels; see the README): naga's image
    /// atomics return no value, TGSI's return the texel they replaced, and naga has no
    /// texel buffers.
    #[arg(long)]
    pub image_atomics_as_buffers: bool,
    /// Give the varying SEMANTIC[N] location L (repeatable; e.g. COLOR[0]=3): GL has 32
    /// varying locations and the default scheme puts TEXCOORD, COLOR, BCOLOR, FOG and
    /// CLIPDIST past them (see the README); translate every stage of a pipeline alike.
    #[arg(long = "varying-location", value_name = "SEMANTIC[N]=L", value_parser = varying_location)]
    pub varying_locations: Vec<((Semantic, u32), u32)>,
    /// With several files: the inter-stage locations the pipeline may use (GL's minimum
    /// and most devices': 32).
    #[arg(long, default_value_t = 32, value_name = "N")]
    pub max_varying_locations: u32,
    /// HLSL tessellation: the vertices of an input patch (GL's GL_PATCH_VERTICES), which
    /// a hull shader fixes and TGSI leaves to the draw; default: the control shader's
    /// TCS_VERTICES_OUT.
    #[arg(long, value_name = "N")]
    pub patch_vertices: Option<u32>,
}

/// Parses `SEMANTIC[N]=L` (`SEMANTIC=L` for index 0).
fn varying_location(text: &str) -> Result<((Semantic, u32), u32), String> {
    let bad = || format!("expected SEMANTIC[N]=L (e.g. COLOR[1]=5), found '{text}'");
    let (name, location) = text.split_once('=').ok_or_else(bad)?;
    let (semantic, index) = match name.split_once('[') {
        Some((semantic, rest)) => {
            let index = rest.strip_suffix(']').ok_or_else(bad)?;
            (semantic, index.parse::<u32>().map_err(|_| bad())?)
        }
        None => (name, 0),
    };
    let semantic = Semantic::from_name(semantic)
        .ok_or_else(|| format!("'{semantic}' is not a TGSI semantic"))?;
    Ok((
        (semantic, index),
        location.parse::<u32>().map_err(|_| bad())?,
    ))
}

/// Parses `MAJOR.MINOR`.
fn version(text: &str) -> Result<(u8, u8), String> {
    let (major, minor) = text
        .split_once('.')
        .ok_or_else(|| format!("expected MAJOR.MINOR, found '{text}'"))?;
    let number = |s: &str| {
        s.parse::<u8>()
            .map_err(|_| format!("expected MAJOR.MINOR, found '{text}'"))
    };
    Ok((number(major)?, number(minor)?))
}

/// The extension of a translation's file: the target's, or for GLSL the stage's.
fn extension(target: Target, shader: &tgsi::Shader, args: &TranslateArgs) -> &'static str {
    use tgsi::enums::Processor;
    let compute = match shader.processor {
        Processor::Vertex => args.vertex_as_compute,
        Processor::Geometry => args.geometry_as_compute,
        Processor::TessCtrl | Processor::TessEval => args.tessellation_as_compute,
        _ => false,
    };
    match target {
        Target::SpirV => "spv",
        Target::Wgsl => "wgsl",
        Target::Msl => "metal",
        Target::Hlsl => "hlsl",
        Target::Glsl if compute => "comp",
        Target::Glsl => match shader.processor {
            Processor::Vertex => "vert",
            Processor::TessCtrl => "tesc",
            Processor::TessEval => "tese",
            Processor::Geometry => "geom",
            Processor::Fragment => "frag",
            _ => "comp",
        },
    }
}

/// Runs `tgsi translate`.
pub fn run(args: &TranslateArgs) -> Result<(), Failure> {
    let target = Target::from_name(&args.to)
        .ok_or_else(|| Failure::Io(format!("unknown target '{}'", args.to)))?;
    let mut shaders = Vec::new();
    for file in &args.files {
        let input = input::read(file)?;
        let shader = input.shader(args.tokens)?;
        shaders.push((input, shader));
    }
    let mut locations: BTreeMap<(Semantic, u32), u32> =
        args.varying_locations.iter().copied().collect();
    if shaders.len() > 1 {
        if args.output == "-" {
            eprintln!("error: several files need -o DIRECTORY");
            return Err(Failure::Invalid);
        }
        let pipeline: Vec<&tgsi::Shader> = shaders.iter().map(|(_, s)| s).collect();
        let linked =
            tgsi_naga::pipeline_locations(&pipeline, args.max_varying_locations).map_err(|e| {
                eprintln!("error: {e}");
                Failure::Invalid
            })?;
        for (varying, location) in linked {
            // Locations given on the command line win.
            locations.entry(varying).or_insert(location);
        }
        std::fs::create_dir_all(&args.output)
            .map_err(|e| Failure::Io(format!("{}: {e}", args.output)))?;
    }
    // HLSL's hull and domain shaders are translated together, once for both files.
    let pair = std::cell::OnceCell::new();
    let pipeline = Pipeline {
        shaders: &shaders,
        hlsl_tessellation: &pair,
    };
    for (input, shader) in &shaders {
        let bytes = translate_one(args, target, input, shader, &pipeline, &locations)?;
        let output = if shaders.len() > 1 {
            let stem = std::path::Path::new(&input.name)
                .file_stem()
                .map_or("shader".into(), |s| s.to_string_lossy().into_owned());
            let stem = stem.strip_suffix(".tgsi").unwrap_or(&stem).to_string();
            let name = format!("{stem}.{}", extension(target, shader, args));
            std::path::Path::new(&args.output)
                .join(name)
                .display()
                .to_string()
        } else {
            args.output.clone()
        };
        input::write(&output, &bytes)?;
    }
    Ok(())
}

/// The shaders of one `tgsi translate`, and the HLSL hull and domain shaders of its
/// tessellation shaders once they are translated (`None`: the translation failed and said
/// why).
struct Pipeline<'a> {
    shaders: &'a [(input::Input, tgsi::Shader)],
    hlsl_tessellation: &'a std::cell::OnceCell<Option<[String; 2]>>,
}

/// The translation of one shader.
fn translate_one(
    args: &TranslateArgs,
    target: Target,
    input: &input::Input,
    shader: &tgsi::Shader,
    pipeline: &Pipeline,
    locations: &BTreeMap<(Semantic, u32), u32>,
) -> Result<Vec<u8>, Failure> {
    let options = tgsi_naga::Options {
        loop_budget: args.loop_budget,
        vertex_as_compute: args.vertex_as_compute,
        geometry_as_compute: args.geometry_as_compute,
        tessellation_as_compute: args.tessellation_as_compute,
        image_atomics_as_buffers: args.image_atomics_as_buffers,
        varying_locations: locations.clone(),
        ..tgsi_naga::options_for_model(target, args.shader_model)
    };
    let translation_failed = |e: tgsi_naga::Error| {
        let sep = if e.position().is_some() { ":" } else { ": " };
        eprintln!("{}{sep}{e}", input.name);
        Failure::Invalid
    };
    let write_options = WriteOptions {
        glsl_version: args.glsl_version,
        glsl_es: args.es,
        spirv_version: args.spirv_version,
        msl_version: args.msl_version,
        hlsl_shader_model: args.shader_model,
    };
    // GLSL has geometry and tessellation stages (naga has not: tgsi-naga writes them
    // around naga's GLSL).
    if target == Target::Glsl {
        if let Some(glsl) = tgsi_naga::glsl_stage(shader, &options, &write_options) {
            return Ok(glsl.map_err(translation_failed)?.into_bytes());
        }
    }
    use tgsi::enums::Processor;
    if target == Target::Hlsl
        && matches!(shader.processor, Processor::TessCtrl | Processor::TessEval)
        && !options.tessellation_as_compute
    {
        return hlsl_tessellation(args, shader, pipeline, &options, &write_options);
    }
    if target == Target::Hlsl
        && shader.processor == Processor::Geometry
        && !options.geometry_as_compute
    {
        return tgsi_naga::geometry_hlsl(shader, &options, &write_options)
            .map(String::into_bytes)
            .map_err(translation_failed);
    }
    let module = tgsi_naga::translate_with(shader, &options).map_err(translation_failed)?;
    let info = tgsi_naga::validate(&module).map_err(|e| {
        eprintln!("{}: error: {e}", input.name);
        Failure::Invalid
    })?;
    let output = tgsi_naga::write(&module, &info, target, &write_options).map_err(|e| {
        eprintln!("{}: error: {e}", input.name);
        Failure::Invalid
    })?;
    Ok(output.into_bytes())
}

/// A tessellation shader as an HLSL hull or domain shader: HLSL needs the control and the
/// evaluation shader together, which are translated at the first of them.
fn hlsl_tessellation(
    args: &TranslateArgs,
    shader: &tgsi::Shader,
    pipeline: &Pipeline,
    options: &tgsi_naga::Options,
    write_options: &WriteOptions,
) -> Result<Vec<u8>, Failure> {
    use tgsi::enums::Processor;
    let pair = pipeline
        .hlsl_tessellation
        .get_or_init(|| translate_pair(args, pipeline.shaders, options, write_options));
    let [hull, domain] = pair.as_ref().ok_or(Failure::Invalid)?;
    let text = if shader.processor == Processor::TessCtrl {
        hull
    } else {
        domain
    };
    Ok(text.clone().into_bytes())
}

/// The HLSL hull and domain shaders of the pipeline's control and evaluation shaders, or
/// `None` once the reason they have none is printed (with the file it is in).
fn translate_pair(
    args: &TranslateArgs,
    pipeline: &[(input::Input, tgsi::Shader)],
    options: &tgsi_naga::Options,
    write_options: &WriteOptions,
) -> Option<[String; 2]> {
    use tgsi::enums::Processor;
    let find = |processor| pipeline.iter().find(|(_, s)| s.processor == processor);
    let (Some(control), Some(evaluation)) = (find(Processor::TessCtrl), find(Processor::TessEval))
    else {
        eprintln!(
            "error: an HLSL hull shader needs its domain shader's layout and a domain shader its \
             hull shader's outputs: give the control and the evaluation shader together \
             (or --tessellation-as-compute)"
        );
        return None;
    };
    let vertices = match args.patch_vertices {
        Some(n) => n,
        None => match tgsi_naga::control_vertices_out(&control.1) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("{}: {e}", control.0.name);
                return None;
            }
        },
    };
    match tgsi_naga::tessellation_hlsl(&control.1, &evaluation.1, vertices, options, write_options)
    {
        Ok(pair) => Some(pair),
        Err((processor, e)) => {
            let name = if processor == Processor::TessCtrl {
                &control.0.name
            } else {
                &evaluation.0.name
            };
            let sep = if e.position().is_some() { ":" } else { ": " };
            eprintln!("{name}{sep}{e}");
            None
        }
    }
}
