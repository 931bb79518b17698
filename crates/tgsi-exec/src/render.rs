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

use crate::compile::Program;
use crate::engine::{Interpreter, WaveEngine, WAVE};
use crate::machine::{Env, ExecError, Machine, Reg, DEFAULT_BUDGET};
use crate::resource::Resources;
use tgsi::{CoordOrigin, PixelCenter, Processor, Semantic};

/// Largest accepted width or height.
pub const MAX_SIZE: u32 = 16384;

/// Largest accepted pixel count (1 GiB of RGBA32F).
pub const MAX_PIXELS: u64 = 1 << 26;

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
    /// Worker threads (0: as many as the machine has).
    pub threads: usize,
    /// Instruction budget of each wave run.
    pub budget: u64,
    /// Incremented after each finished row of quads (two pixel rows), for progress display.
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
        self.pixels
            .iter()
            .flat_map(|p| p.iter().flat_map(|v| v.to_le_bytes()))
            .collect()
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

/// [`render_fragment`] on any engine (waves of [`WAVE`] lanes: quads side by side).
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
    let quad_rows = h.div_ceil(2);
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .clamp(1, quad_rows);
    let rows_per = quad_rows.div_ceil(threads);
    let band = rows_per * 2 * w;
    std::thread::scope(|scope| {
        let workers: Vec<_> = pixels
            .chunks_mut(band)
            .enumerate()
            .map(|(t, chunk)| {
                scope.spawn(move || {
                    let mut m = Machine::<WAVE>::new(program);
                    set_gradients(program, &mut m);
                    setup_inputs(program, opts, &mut m);
                    for (r, rows) in chunk.chunks_mut(2 * w).enumerate() {
                        let qrow = t * rows_per + r;
                        render_quad_row(engine, opts, output, &mut m, qrow, rows)?;
                        if let Some(p) = &opts.progress {
                            p.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        workers.into_iter().try_for_each(|j| {
            j.join()
                .unwrap_or_else(|_| Err(ExecError::Setup("worker panicked".into())))
        })
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

/// Render memory rows `2·qrow` and `2·qrow + 1` (`rows` holds them, 1 or 2 rows of W).
fn render_quad_row(
    engine: &dyn WaveEngine,
    opts: &RenderOptions,
    output: Option<usize>,
    m: &mut Machine<WAVE>,
    qrow: usize,
    rows: &mut [[f32; 4]],
) -> Result<(), ExecError> {
    let program = engine.program();
    let (w, h) = (opts.width as usize, opts.height as usize);
    let env_consts = &opts.constants;
    for x0 in (0..w).step_by(WAVE / 2) {
        let lanes = lanes(program, w, h, x0, qrow);
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
        if alive == Machine::<WAVE>::ALL && rows_here == 2 && x0 + WAVE / 2 <= w {
            // The whole wave covers `WAVE / 2` columns of both rows.
            for (dy, row) in rows.chunks_exact_mut(w).enumerate() {
                for (dx, p) in row[x0..x0 + WAVE / 2].iter_mut().enumerate() {
                    *p = pixel(LANE_OF[dy][dx]);
                }
            }
            continue;
        }
        for l in (0..WAVE).filter(|l| alive & (1 << l) != 0) {
            let (px, dy) = lane_pixel(x0, l);
            if let Some(p) = rows.get_mut(dy * w + px) {
                *p = pixel(l);
            }
        }
    }
    Ok(())
}

/// Column and row-within-quad of lane `l` of the wave starting at column `x0`.
fn lane_pixel(x0: usize, l: usize) -> (usize, usize) {
    (x0 + LANE_DX[l], (l >> 1) & 1)
}

/// Column of each lane from the wave's first column: quads side by side.
const LANE_DX: [usize; WAVE] = {
    let mut dx = [0; WAVE];
    let mut l = 0;
    while l < WAVE {
        dx[l] = 2 * (l / 4) + (l & 1);
        l += 1;
    }
    dx
};

/// The lane of each of the wave's `WAVE / 2` columns in its two rows.
const LANE_OF: [[usize; WAVE / 2]; 2] = {
    let mut of = [[0; WAVE / 2]; 2];
    let mut l = 0;
    while l < WAVE {
        of[(l >> 1) & 1][LANE_DX[l]] = l;
        l += 1;
    }
    of
};

/// Positions and helper lanes of one wave.
fn lanes(program: &Program, w: usize, h: usize, x0: usize, qrow: usize) -> Lanes {
    let c = if program.pixel_center == PixelCenter::Integer {
        0.0
    } else {
        0.5
    };
    // The two rows of the quad row: their y and whether they are inside the image.
    let rows = [0, 1].map(|dy| {
        let my = 2 * qrow + dy;
        let y = match program.origin {
            CoordOrigin::UpperLeft => my as f32 + c,
            CoordOrigin::LowerLeft => (h as f32 - 1.0 - my as f32) + c,
        };
        (y.to_bits(), my < h)
    });
    let (mut xs, mut ys) = ([0u32; WAVE], [0u32; WAVE]);
    for (l, (x, y)) in xs.iter_mut().zip(&mut ys).enumerate() {
        // Image columns are below MAX_SIZE, so exact as i32 and as f32.
        *x = (((x0 + LANE_DX[l]) as i32) as f32 + c).to_bits();
        *y = rows[(l >> 1) & 1].0;
    }
    let mut helpers = 0;
    if x0 + WAVE / 2 > w || !(rows[0].1 && rows[1].1) {
        for l in 0..WAVE {
            let (px, dy) = lane_pixel(x0, l);
            helpers |= u32::from(px >= w || !rows[dy].1) << l;
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
