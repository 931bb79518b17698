//! Fragment rendering: run a fragment shader once per pixel of a W×H grid, in 2×2 quads
//! whose top-left pixel sits at an even column and even memory row (memory row 0 = top),
//! and collect one colour output as RGBA32F. Discarded pixels keep the clear colour.
//!
//! `POSITION` = (x + ½, y + ½, 0.5, 1) (no ½ with `FS_COORD_PIXEL_CENTER INTEGER`), with y
//! counted from the top for `UPPER_LEFT` and from the bottom for `LOWER_LEFT` (memory row m
//! then has y = H − 1 − m + ½). `FACE` is front-facing (x = +1). Other inputs are the
//! constants given in [`RenderOptions::inputs`]; channels outside a declaration's usage mask
//! read 0. For `INTERP_OFFSET`, POSITION changes by (1, 0, 0, 0) per pixel to the right and
//! by (0, ±1, 0, 0) per memory row down (− for `LOWER_LEFT`); the constants do not change.
//!
//! A wave covers [`WAVE_WIDTH`] × [`WAVE_HEIGHT`] pixels (8 × 4: four quads side by side in
//! two rows), nearly square, so that the pixels sharing a wave are close together: a loop
//! or branch whose path varies smoothly over the image diverges less inside a wave than in
//! a strip 16 pixels wide and 2 high (a wave runs as long as its slowest lane).

use crate::compile::Program;
use crate::engine::{Interpreter, WaveEngine, WAVE};
use crate::machine::{Env, ExecError, Machine, Reg, DEFAULT_BUDGET};
use crate::resource::Resources;
use crate::workers;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Mutex;
use tgsi::{CoordOrigin, PixelCenter, Processor, Semantic};

/// Largest accepted width or height.
pub const MAX_SIZE: u32 = 16384;

/// Largest accepted pixel count (1 GiB of RGBA32F).
pub const MAX_PIXELS: u64 = 1 << 26;

/// Pixel rows of a wave.
pub const WAVE_HEIGHT: usize = 4;

/// Pixel columns of a wave.
pub const WAVE_WIDTH: usize = WAVE / WAVE_HEIGHT;

/// Quads side by side in a wave's row of quads.
const QUADS_ACROSS: usize = WAVE_WIDTH / 2;

/// How to render.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Constant buffers: `constants[b][i]` = `CONST[b][i]` (missing slots read 0).
    pub constants: Vec<Vec<[u32; 4]>>,
    /// Constant value of each input register (`inputs[i]` = `IN[i]`, missing ones 0);
    /// POSITION and FACE inputs are computed instead.
    pub inputs: Vec<[u32; 4]>,
    /// Colour of pixels that were discarded.
    pub clear: [f32; 4],
    /// Which output to collect: the one with semantic `COLOR[color]`.
    pub color: u32,
    /// Worker threads (0: as many as the machine has); each renders the next row of waves
    /// not yet taken.
    pub threads: usize,
    /// Instruction budget of each wave run.
    pub budget: u64,
    /// Incremented by the pixel rows of each finished row of waves, for progress display.
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    /// Textures, samplers, images and buffers.
    pub resources: Resources,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            width: 64,
            height: 64,
            constants: Vec::new(),
            inputs: Vec::new(),
            clear: [0.0; 4],
            color: 0,
            threads: 1,
            budget: DEFAULT_BUDGET,
            progress: None,
            resources: Resources::default(),
        }
    }
}

/// An RGBA32F image, row 0 = memory row 0 (the top row).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Image {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Pixels, row-major.
    pub pixels: Vec<[f32; 4]>,
}

impl Image {
    /// The raw little-endian bytes (the `ref.f32` layout: W·H·4 floats, row-major).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        crate::vertex::le_bytes(self.pixels.iter().map(|p| p.map(f32::to_bits)))
    }
}

/// Per-lane values that depend on the pixel.
struct Lanes {
    pos: Reg<WAVE>,
    helpers: u32,
}

/// Render `program` (a fragment shader) with the interpreter, as described in the module
/// documentation.
pub fn render_fragment(program: &Program, opts: &RenderOptions) -> Result<Image, ExecError> {
    render_fragment_with(&Interpreter(program), opts)
}

/// [`render_fragment`] on any engine (waves of [`WAVE`] lanes covering [`WAVE_WIDTH`] ×
/// [`WAVE_HEIGHT`] pixels).
pub fn render_fragment_with(
    engine: &dyn WaveEngine,
    opts: &RenderOptions,
) -> Result<Image, ExecError> {
    let mut image = Image::default();
    render_fragment_into(engine, opts, &mut image)?;
    Ok(image)
}

/// [`render_fragment_with`] into an existing image, reusing its memory (as a driver renders
/// into the same surface frame after frame): the image takes the size of `opts`, and is
/// left unspecified on error.
pub fn render_fragment_into(
    engine: &dyn WaveEngine,
    opts: &RenderOptions,
    image: &mut Image,
) -> Result<(), ExecError> {
    let program = engine.program();
    if program.processor != Processor::Fragment {
        return Err(ExecError::Setup(format!(
            "render_fragment needs a fragment shader, not {}",
            program.processor
        )));
    }
    let (w, h) = (opts.width, opts.height);
    if w == 0 || h == 0 || w > MAX_SIZE || h > MAX_SIZE || u64::from(w) * u64::from(h) > MAX_PIXELS
    {
        return Err(ExecError::Setup(format!(
            "image size {w}x{h} outside 1..={MAX_SIZE} per side and {MAX_PIXELS} pixels"
        )));
    }
    let output = color_output(program, opts.color);
    let (w, h) = (w as usize, h as usize);
    let pixels = &mut image.pixels;
    pixels.clear();
    pixels.resize(w * h, opts.clear);
    let wave_rows = h.div_ceil(WAVE_HEIGHT);
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .clamp(1, wave_rows);
    // Each worker takes the next wave row not yet taken: rows differ in cost with the
    // picture (a ray tracer's spheres against its sky), and fixed bands would leave a worker
    // idle while another finishes the expensive half.
    let next_rows = Mutex::new(pixels.chunks_mut(WAVE_HEIGHT * w).enumerate());
    let failed = AtomicBool::new(false);
    workers::run(threads, || {
        let mut m = Machine::<WAVE>::new(program);
        set_gradients(program, &mut m);
        setup_inputs(program, opts, &mut m);
        while !failed.load(Relaxed) {
            let next = next_rows.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((wave_row, rows)) = next else {
                break;
            };
            let done = render_wave_row(engine, opts, output, &mut m, wave_row, rows);
            if done.is_err() {
                failed.store(true, Relaxed);
            }
            done?;
            if let Some(p) = &opts.progress {
                p.fetch_add(rows.len() / w, Relaxed);
            }
        }
        Ok(())
    })?;
    image.width = opts.width;
    image.height = opts.height;
    Ok(())
}

/// The output register holding `COLOR[n]` (`COLOR[0]` when it writes all buffers).
fn color_output(program: &Program, n: u32) -> Option<usize> {
    let find = |k| {
        program
            .outputs
            .iter()
            .find(|d| d.semantic == Semantic::Color && d.semantic_index == k)
            .map(|d| d.index as usize)
    };
    find(n).or_else(|| {
        if program.color0_writes_all {
            find(0)
        } else {
            None
        }
    })
}

/// Render the memory rows of wave row `wave_row` (`rows` holds them: up to
/// [`WAVE_HEIGHT`] rows of W).
fn render_wave_row(
    engine: &dyn WaveEngine,
    opts: &RenderOptions,
    output: Option<usize>,
    m: &mut Machine<WAVE>,
    wave_row: usize,
    rows: &mut [[f32; 4]],
) -> Result<(), ExecError> {
    let program = engine.program();
    let (w, h) = (opts.width as usize, opts.height as usize);
    let env_consts = &opts.constants;
    for x0 in (0..w).step_by(WAVE_WIDTH) {
        let lanes = lanes(program, w, h, x0, wave_row);
        set_wave_inputs(program, m, &lanes);
        let env = Env {
            resources: &opts.resources,
            consts: env_consts,
            budget: opts.budget,
            helpers: lanes.helpers,
        };
        let alive = engine.run_wave(m, &env, Machine::<WAVE>::ALL)? & !lanes.helpers;
        let color = output.and_then(|o| m.outputs().get(o));
        let pixel = |l: usize| {
            color.map_or([0.0; 4], |[x, y, z, w]| {
                [x[l], y[l], z[l], w[l]].map(f32::from_bits)
            })
        };
        let rows_here = rows.len() / w;
        if alive == Machine::<WAVE>::ALL && rows_here == WAVE_HEIGHT && x0 + WAVE_WIDTH <= w {
            // The whole wave covers its pixels.
            for (dy, row) in rows.chunks_exact_mut(w).enumerate() {
                for (dx, p) in row[x0..x0 + WAVE_WIDTH].iter_mut().enumerate() {
                    *p = pixel(LANE_OF[dy][dx]);
                }
            }
            continue;
        }
        // Pixels outside the image are helpers, never alive.
        for l in (0..WAVE).filter(|l| alive & (1 << l) != 0) {
            if let Some(p) = rows.get_mut(LANE_DY[l] * w + x0 + LANE_DX[l]) {
                *p = pixel(l);
            }
        }
    }
    Ok(())
}

/// Column of each lane from the wave's first column: two columns per quad.
const LANE_DX: [usize; WAVE] = {
    let mut dx = [0; WAVE];
    let mut l = 0;
    while l < WAVE {
        dx[l] = 2 * (l / 4 % QUADS_ACROSS) + (l & 1);
        l += 1;
    }
    dx
};

/// Row of each lane from the wave's first row: two rows per quad.
const LANE_DY: [usize; WAVE] = {
    let mut dy = [0; WAVE];
    let mut l = 0;
    while l < WAVE {
        dy[l] = 2 * (l / 4 / QUADS_ACROSS) + ((l >> 1) & 1);
        l += 1;
    }
    dy
};

/// The lane of each pixel of the wave, by row and column.
const LANE_OF: [[usize; WAVE_WIDTH]; WAVE_HEIGHT] = {
    let mut of = [[0; WAVE_WIDTH]; WAVE_HEIGHT];
    let mut l = 0;
    while l < WAVE {
        of[LANE_DY[l]][LANE_DX[l]] = l;
        l += 1;
    }
    of
};

/// Positions and helper lanes of one wave.
fn lanes(program: &Program, w: usize, h: usize, x0: usize, wave_row: usize) -> Lanes {
    let c = if program.pixel_center == PixelCenter::Integer {
        0.0
    } else {
        0.5
    };
    // The wave's rows: their y and whether they are inside the image.
    let rows: [(u32, bool); WAVE_HEIGHT] = std::array::from_fn(|dy| {
        let my = WAVE_HEIGHT * wave_row + dy;
        let y = match program.origin {
            CoordOrigin::UpperLeft => my as f32 + c,
            CoordOrigin::LowerLeft => (h as f32 - 1.0 - my as f32) + c,
        };
        (y.to_bits(), my < h)
    });
    // x = (x0 + dx) + c = x0 + (dx + c): columns are below MAX_SIZE (2^14), so every
    // value is exact either way, and the second form is one add per lane.
    let x0f = x0 as f32;
    let xs = LANE_DX.map(|dx| (x0f + (dx as f32 + c)).to_bits());
    let ys = LANE_DY.map(|dy| rows[dy].0);
    let mut helpers = 0;
    if x0 + WAVE_WIDTH > w || !rows.iter().all(|r| r.1) {
        for l in 0..WAVE {
            let outside = x0 + LANE_DX[l] >= w || !rows[LANE_DY[l]].1;
            helpers |= u32::from(outside) << l;
        }
    }
    let pos = [xs, ys, [0.5f32.to_bits(); WAVE], [1.0f32.to_bits(); WAVE]];
    Lanes { pos, helpers }
}

/// A register holding the same vec4 in every lane.
fn splat(v: [u32; 4]) -> Reg<WAVE> {
    v.map(|x| [x; WAVE])
}

/// Screen gradients for INTERP_OFFSET (the same for every wave): only POSITION varies over
/// the grid.
fn set_gradients(program: &Program, m: &mut Machine<WAVE>) {
    let dy = match program.origin {
        CoordOrigin::UpperLeft => 1.0,
        CoordOrigin::LowerLeft => -1.0,
    };
    let gradients = m.input_gradients_mut();
    for d in &program.inputs {
        if let (Some(g), Semantic::Position) = (gradients.get_mut(d.index as usize), d.semantic) {
            *g = [[1.0, 0.0, 0.0, 0.0], [0.0, dy, 0.0, 0.0]];
        }
    }
}

/// Fill the input and system-value registers that are the same in every wave, once per
/// machine (no instruction writes them); [`set_wave_inputs`] sets the others per wave.
fn setup_inputs(program: &Program, opts: &RenderOptions, m: &mut Machine<WAVE>) {
    let one = 1.0f32.to_bits();
    let inputs = m.inputs_mut();
    for (i, r) in inputs.iter_mut().enumerate() {
        *r = splat(opts.inputs.get(i).copied().unwrap_or([0; 4]));
    }
    for d in &program.inputs {
        let Some(r) = inputs.get_mut(d.index as usize) else {
            continue;
        };
        if d.semantic == Semantic::Face {
            *r = splat([one, 0, 0, 0]);
        }
        for (c, ch) in r.iter_mut().enumerate() {
            if d.usage_mask & (1 << c) == 0 {
                *ch = [0; WAVE];
            }
        }
    }
    let svs = m.system_values_mut();
    for d in &program.system_values {
        let Some(r) = svs.get_mut(d.index as usize) else {
            continue;
        };
        *r = match d.semantic {
            Semantic::Face => splat([one, 0, 0, 0]),
            Semantic::SamplePos => splat([0.5f32.to_bits(), 0.5f32.to_bits(), 0, 0]),
            Semantic::SampleMask => splat([1, 0, 0, 0]),
            _ => splat([0; 4]),
        };
    }
}

/// Set the registers that differ between waves: positions (through the input's usage
/// mask) and the helper-invocation flags.
fn set_wave_inputs(program: &Program, m: &mut Machine<WAVE>, lanes: &Lanes) {
    let inputs = m.inputs_mut();
    for d in program
        .inputs
        .iter()
        .filter(|d| d.semantic == Semantic::Position)
    {
        if let Some(r) = inputs.get_mut(d.index as usize) {
            for (c, ch) in r.iter_mut().enumerate() {
                if d.usage_mask & (1 << c) != 0 {
                    *ch = lanes.pos[c];
                }
            }
        }
    }
    let svs = m.system_values_mut();
    for d in &program.system_values {
        let Some(r) = svs.get_mut(d.index as usize) else {
            continue;
        };
        match d.semantic {
            Semantic::Position => *r = lanes.pos,
            Semantic::HelperInvocation => {
                let v = std::array::from_fn(|l| if lanes.helpers & (1 << l) != 0 { !0 } else { 0 });
                *r = [v; 4];
            }
            _ => {}
        }
    }
}
