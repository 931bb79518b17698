//! `tgsi render`: run a fragment shader once per pixel of a W×H grid (in 2×2 quads) on the
//! JIT or the reference interpreter (`--engine`; both give the same bits), or on a Vulkan GPU
//! (`--engine gpu`, tgsi-naga's translation through wgpu), and write a PNG and/or the exact
//! RGBA32F result.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::{self, EngineChoice};
use crate::input::{self, Failure};
use crate::resources::{write_outputs, ResourceArgs};
use tgsi_exec::{Program, RenderOptions};

/// Options of `tgsi render`.
#[derive(clap::Args)]
pub struct RenderArgs {
    /// Fragment shader (text or tokens).
    pub file: String,
    /// PNG output (8-bit RGBA, values clamped to [0, 1]).
    #[arg(short, long)]
    pub output: Option<String>,
    /// Raw output: RGBA32F little-endian, memory order, top row first.
    #[arg(long)]
    pub raw: Option<String>,
    /// Image size.
    #[arg(long, default_value = "512x512")]
    pub size: String,
    /// Constants file.
    #[arg(long)]
    pub consts: Option<String>,
    /// A constant input value, e.g. `--input IN[1]=0.5,0,0,1` (repeatable).
    #[arg(long = "input", value_name = "IN[i]=x,y,z,w")]
    pub inputs: Vec<String>,
    /// Colour of discarded pixels.
    #[arg(long, default_value = "0,0,0,0", allow_hyphen_values = true)]
    pub clear: String,
    /// Which colour output to write (COLOR[N]).
    #[arg(long = "output-index", visible_alias = "color", default_value_t = 0)]
    pub color_output: u32,
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Executor: the Cranelift JIT (falls back to the interpreter for shaders it does not
    /// compile, with a note) or the reference interpreter, which give identical results, or
    /// `gpu`: the naga translation on a Vulkan device (lavapipe: see the README for how its
    /// results differ).
    #[arg(long, value_enum, default_value = "jit")]
    pub engine: EngineChoice,
    #[command(flatten)]
    pub math: engine::MathArgs,
    /// Instruction budget per wave of pixels (default: generous).
    #[arg(long)]
    pub budget: Option<u64>,
    /// Treat the input as a token stream.
    #[arg(long)]
    pub tokens: bool,
    #[command(flatten)]
    pub resources: ResourceArgs,
}

fn usage(message: String) -> Failure {
    Failure::Io(message)
}

/// A float literal or a `0x` raw 32-bit word.
fn value_bits(text: &str) -> Option<u32> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).ok();
    }
    t.parse::<f32>().ok().map(f32::to_bits)
}

/// Four comma-separated values (see [`value_bits`]); `what` names the option in errors.
/// Shared with `tgsi run`.
pub(crate) fn vec4(text: &str, what: &str) -> Result<[u32; 4], Failure> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 4 {
        return Err(usage(format!(
            "{what} needs four comma-separated values, got '{text}'"
        )));
    }
    let mut out = [0u32; 4];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = value_bits(p)
            .ok_or_else(|| usage(format!("{what}: '{p}' is neither a float nor a 0x word")))?;
    }
    Ok(out)
}

/// `--input IN[i]=x,y,z,w` options → the constant value of every IN register (0 where none
/// is given). Shared with `tgsi bench`.
pub(crate) fn constant_inputs(specs: &[String]) -> Result<Vec<[u32; 4]>, Failure> {
    let mut inputs = Vec::new();
    for spec in specs {
        let (i, v) = parse_input(spec)?;
        if inputs.len() <= i {
            inputs.resize(i + 1, [0u32; 4]);
        }
        inputs[i] = v;
    }
    Ok(inputs)
}

/// `WxH` → (W, H), both positive. Shared with `tgsi bench`.
pub(crate) fn parse_size(text: &str) -> Result<(u32, u32), Failure> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| usage(format!("--size must look like 512x512, got '{text}'")))?;
    let parse = |s: &str| s.trim().parse::<u32>().ok().filter(|&v| v > 0);
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(usage(format!(
            "--size must be two positive integers like 512x512, got '{text}'"
        ))),
    }
}

/// `IN[3]=1,0,0,1` → (3, bits).
fn parse_input(text: &str) -> Result<(usize, [u32; 4]), Failure> {
    let bad = || {
        usage(format!(
            "--input must look like IN[1]=x,y,z,w, got '{text}'"
        ))
    };
    let (reg, values) = text.split_once('=').ok_or_else(bad)?;
    let index = input_index(reg).ok_or_else(bad)?;
    Ok((index, vec4(values, "--input")?))
}

/// `IN[3]` (or `in[3]`) → 3, for indices below 4096. Shared with `tgsi run`.
pub(crate) fn input_index(reg: &str) -> Option<usize> {
    let reg = reg.trim();
    reg.strip_prefix("IN[")
        .or_else(|| reg.strip_prefix("in["))
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|i| i.parse::<usize>().ok())
        .filter(|&i| i < 4096)
}

/// The constants file (`consts.txt` format), or no constants. Shared with `tgsi run`.
pub(crate) fn read_consts(path: Option<&str>) -> Result<Vec<Vec<[u32; 4]>>, Failure> {
    let Some(path) = path else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(path).map_err(|e| Failure::Io(format!("{path}: {e}")))?;
    tgsi_exec::parse_consts(&text).map_err(|e| {
        eprintln!("{path}:{}: error: {}", e.line, e.message);
        Failure::Invalid
    })
}

/// Parse and compile a shader for the interpreter, printing errors with their position.
/// Shared with `tgsi run`.
pub(crate) fn compile(input: &input::Input, tokens: bool) -> Result<Program, Failure> {
    let shader = input.shader(tokens)?;
    Program::compile(&shader).map_err(|e| {
        if e.span.is_text() {
            eprintln!(
                "{}:{}:{}: error: {}",
                input.name, e.span.line, e.span.col, e.message
            );
        } else {
            eprintln!("{}: error: {e}", input.name);
        }
        Failure::Invalid
    })
}

/// Runs `tgsi render`.
pub fn run(args: &RenderArgs) -> Result<(), Failure> {
    args.math.check(args.engine)?;
    if args.output.is_none() && args.raw.is_none() {
        return Err(usage(
            "nothing to write: give -o OUT.png and/or --raw OUT.f32".into(),
        ));
    }
    let (width, height) = parse_size(&args.size)?;
    let clear_bits = vec4(&args.clear, "--clear")?;
    let inputs = constant_inputs(&args.inputs)?;
    let constants = read_consts(args.consts.as_deref())?;
    let input = input::read(&args.file)?;
    let program = compile(&input, args.tokens)?;
    let shader = input.shader(args.tokens)?;
    let bindings = args.resources.load(&shader)?;
    let progress = Arc::new(AtomicUsize::new(0));
    let mut options = RenderOptions {
        width,
        height,
        constants,
        inputs,
        clear: clear_bits.map(f32::from_bits),
        color: args.color_output,
        threads: args.threads,
        progress: Some(progress.clone()),
        resources: bindings.resources.clone(),
        ..RenderOptions::default()
    };
    if let Some(budget) = args.budget {
        options.budget = budget;
    }
    let image = if args.engine == EngineChoice::Gpu {
        let gpu = crate::gpu::open()?;
        tgsi_gpu::render(&gpu, &shader, &program, &options)
            .map_err(|e| crate::gpu::failed(&input.name, e))?
    } else {
        render_on_cpu(args, &program, &options, &progress, &input.name)?
    };
    write_outputs(&bindings)?;
    if let Some(raw) = &args.raw {
        input::write(raw, &image.to_le_bytes())?;
    }
    if let Some(png_path) = &args.output {
        write_png(png_path, &image)?;
    }
    Ok(())
}

/// Renders on the interpreter or the JIT, with a progress line on a terminal for large
/// images.
fn render_on_cpu(
    args: &RenderArgs,
    program: &Program,
    options: &RenderOptions,
    progress: &Arc<AtomicUsize>,
    name: &str,
) -> Result<tgsi_exec::Image, Failure> {
    let (engine, _) = engine::prepare(args.engine, args.math, program, name)?;
    let (width, height) = (options.width, options.height);
    let rows_total = height as usize;
    let show = std::io::stderr().is_terminal() && u64::from(width) * u64::from(height) >= 1 << 20;
    let start = Instant::now();
    std::thread::scope(|scope| {
        let done = Arc::new(AtomicUsize::new(0));
        if show {
            let done = done.clone();
            let progress = progress.clone();
            scope.spawn(move || {
                while done.load(Ordering::Relaxed) == 0 {
                    let rows = progress.load(Ordering::Relaxed);
                    eprint!(
                        "\rrendering {width}x{height}: {:3}%",
                        rows * 100 / rows_total.max(1)
                    );
                    std::thread::sleep(Duration::from_millis(100));
                }
                eprintln!(
                    "\rrendering {width}x{height}: done in {:.2?}",
                    start.elapsed()
                );
            });
        }
        let result = tgsi_exec::render_fragment_with(engine.wave(), options);
        done.store(1, Ordering::Relaxed);
        result
    })
    .map_err(|e| {
        eprintln!("{name}: error: {e}");
        Failure::Invalid
    })
}

/// 8-bit RGBA PNG, each channel clamped to [0, 1] (NaN → 0), top row first.
fn write_png(path: &str, image: &tgsi_exec::Image) -> Result<(), Failure> {
    let to8 = |v: f32| {
        if v.is_nan() {
            0
        } else {
            (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
        }
    };
    let data: Vec<u8> = image.pixels.iter().flat_map(|p| p.map(to8)).collect();
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, image.width, image.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .map_err(|e| Failure::Io(format!("{path}: {e}")))?;
        writer
            .write_image_data(&data)
            .map_err(|e| Failure::Io(format!("{path}: {e}")))?;
    }
    input::write(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_arguments() {
        assert_eq!(parse_size("64x32").ok(), Some((64, 32)));
        assert!(parse_size("0x5").is_err());
        assert!(parse_size("64").is_err());
        assert_eq!(value_bits("0x3f800000"), Some(0x3f80_0000));
        assert_eq!(value_bits("-2"), Some((-2.0f32).to_bits()));
        let (i, v) = parse_input("IN[2]=1,0.5,0,0x7fc00000").expect("valid input spec");
        assert_eq!((i, v[1], v[3]), (2, 0.5f32.to_bits(), 0x7fc0_0000));
        assert!(parse_input("OUT[0]=1,2,3,4").is_err());
        assert!(vec4("1,2,3", "--clear").is_err());
    }
}
