//! The resource options shared by `tgsi render` and `tgsi run`: `--bindings FILE.json`
//! (`shared/docs/bindings.md`) and the `--texture N=image.png` shorthand.

use crate::input::Failure;
use std::sync::Arc;
use tgsi::Format;
use tgsi_exec::bindings::{self, Bindings};
use tgsi_exec::resource::{
    Filter, MipFilter, Resource, SamplerState, SamplerView, Storage, Target, Wrap,
};

/// Largest image `--texture` accepts per side.
const MAX_TEXTURE_SIDE: u32 = 16384;

/// Options that bind resources to a run.
#[derive(clap::Args, Default)]
pub struct ResourceArgs {
    /// Bind textures, samplers, images and buffers from a JSON file (Gallium's vocabulary:
    /// pipe_resource, pipe_sampler_view, pipe_sampler_state, pipe_image_view,
    /// pipe_shader_buffer; see the README). Resources with an "out" file are written after
    /// the run.
    #[arg(long, value_name = "FILE.json")]
    pub bindings: Option<String>,
    /// Bind a PNG as an RGBA8 2-D texture to SVIEW[N] and SAMP[N], with mipmaps generated
    /// and trilinear filtering with REPEAT wrapping (repeatable). The PNG's top row is the
    /// texture's row 0 (t = 0).
    #[arg(long = "texture", value_name = "N=IMAGE.png")]
    pub textures: Vec<String>,
}

impl ResourceArgs {
    /// Load what the options bind, and warn on stderr about slots `shader` uses that stay
    /// unbound.
    pub fn load(&self, shader: &tgsi::Shader) -> Result<Bindings, Failure> {
        let mut b = match &self.bindings {
            Some(path) => bindings::load(std::path::Path::new(path)).map_err(|e| {
                eprintln!("{path}: error: {e}");
                Failure::Invalid
            })?,
            None => Bindings::default(),
        };
        for spec in &self.textures {
            let (slot, path) = spec
                .split_once('=')
                .and_then(|(n, p)| Some((n.trim().parse::<u32>().ok()?, p)))
                .filter(|(n, _)| *n <= bindings::MAX_SLOT)
                .ok_or_else(|| {
                    Failure::Io(format!(
                        "--texture must look like 0=image.png (slot 0..={}), got '{spec}'",
                        bindings::MAX_SLOT
                    ))
                })?;
            let (view, sampler) = png_texture(path)?;
            put(&mut b.resources.sampler_views, slot, view);
            put(&mut b.resources.samplers, slot, sampler);
        }
        for w in b.warnings.iter().chain(&b.unbound_slots(shader)) {
            eprintln!("warning: {w}");
        }
        Ok(b)
    }
}

/// Write every resource that has an `"out"` file.
pub fn write_outputs(b: &Bindings) -> Result<(), Failure> {
    b.write_outputs()
        .map_err(|e| Failure::Io(format!("writing a bindings output file: {e}")))
}

fn put<T>(slots: &mut Vec<Option<T>>, slot: u32, value: T) {
    let slot = slot as usize;
    if slots.len() <= slot {
        slots.resize_with(slot + 1, || None);
    }
    slots[slot] = Some(value);
}

/// A PNG as an RGBA8 2-D texture with a full mipmap chain (2×2 box filter, rounded), and
/// a trilinear REPEAT sampler.
fn png_texture(path: &str) -> Result<(SamplerView, SamplerState), Failure> {
    let io = |e: &dyn std::fmt::Display| Failure::Io(format!("{path}: {e}"));
    let file = std::fs::File::open(path).map_err(|e| io(&e))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| io(&e))?;
    let (w, h) = (reader.info().width, reader.info().height);
    if w == 0 || h == 0 || w > MAX_TEXTURE_SIDE || h > MAX_TEXTURE_SIDE {
        return Err(io(&format!(
            "{w}x{h} is outside 1..={MAX_TEXTURE_SIDE} per side"
        )));
    }
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).map_err(|e| io(&e))?;
    let pixels = &buf[..frame.buffer_size()];
    let channels = frame.color_type.samples();
    let mut level: Vec<[u8; 4]> = pixels
        .chunks_exact(channels)
        .map(|p| match *p {
            [g] => [g, g, g, 255],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a] => [r, g, b, a],
            _ => [0, 0, 0, 255],
        })
        .collect();
    let (mut lw, mut lh) = (w, h);
    let mut data: Vec<u8> = level.iter().flatten().copied().collect();
    let mut last_level = 0;
    while lw > 1 || lh > 1 {
        let (nw, nh) = ((lw / 2).max(1), (lh / 2).max(1));
        let at = |x: u32, y: u32| level[(y.min(lh - 1) * lw + x.min(lw - 1)) as usize];
        let next: Vec<[u8; 4]> = (0..nh)
            .flat_map(|y| (0..nw).map(move |x| (x, y)))
            .map(|(x, y)| {
                let q = [
                    at(2 * x, 2 * y),
                    at(2 * x + 1, 2 * y),
                    at(2 * x, 2 * y + 1),
                    at(2 * x + 1, 2 * y + 1),
                ];
                std::array::from_fn(|c| {
                    ((q.iter().map(|p| u32::from(p[c])).sum::<u32>() + 2) / 4) as u8
                })
            })
            .collect();
        data.extend(next.iter().flatten());
        level = next;
        (lw, lh) = (nw, nh);
        last_level += 1;
    }
    let format = Format::from_name("PIPE_FORMAT_R8G8B8A8_UNORM").unwrap_or(Format::NONE);
    let resource = Arc::new(Resource {
        target: Target::Tex2D,
        format,
        width0: w,
        height0: h,
        depth0: 1,
        array_size: 1,
        last_level,
        nr_samples: 0,
        data: Storage::from_bytes(&data),
    });
    let view = SamplerView::whole(&resource);
    let sampler = SamplerState {
        wrap: [Wrap::Repeat; 3],
        min_img_filter: Filter::Linear,
        mag_img_filter: Filter::Linear,
        min_mip_filter: MipFilter::Linear,
        ..SamplerState::default()
    };
    Ok((view, sampler))
}
