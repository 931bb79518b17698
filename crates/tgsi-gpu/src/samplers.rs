//! `pipe_sampler_state` → a wgpu sampler, where Vulkan (through WebGPU's model) has the same
//! state; anything else (GL's CLAMP with linear filtering, the mirror-clamp modes,
//! anisotropy, border colours other than transparent black, opaque black and opaque white)
//! is refused with its name. Unnormalised coordinates are taken where only RECT and
//! SHADOWRECT instructions sample through the sampler: the translation divides their texel
//! coordinates by the texture's size, so the GPU's sampler is a normalised one, its wrap
//! modes those softpipe gives unnormalised coordinates (clamps). LOD biases are added by the
//! translation ([`lod_biases`]).

use std::collections::BTreeMap;
use tgsi::enums::{File, TextureTarget};
use tgsi::ir::ResourceDecl;
use tgsi_exec::resource::{CompareFunc, Filter, MipFilter, Resources, SamplerState, Wrap};

use crate::error::{Error, Result};

/// The wgpu address mode of a wrap mode.
fn address(wrap: Wrap, nearest: bool, slot: u32) -> Result<wgpu::AddressMode> {
    Ok(match wrap {
        Wrap::Repeat => wgpu::AddressMode::Repeat,
        Wrap::ClampToEdge => wgpu::AddressMode::ClampToEdge,
        // GL's CLAMP only differs from CLAMP_TO_EDGE when filtering reaches the border.
        Wrap::Clamp if nearest => wgpu::AddressMode::ClampToEdge,
        Wrap::MirrorRepeat => wgpu::AddressMode::MirrorRepeat,
        Wrap::ClampToBorder => wgpu::AddressMode::ClampToBorder,
        other => {
            return Err(Error::Unsupported(format!(
                "SAMP[{slot}]: wrap mode {other:?}{}",
                if other == Wrap::Clamp {
                    " with linear filtering"
                } else {
                    ""
                }
            )))
        }
    })
}

fn filter(f: Filter) -> wgpu::FilterMode {
    match f {
        Filter::Nearest => wgpu::FilterMode::Nearest,
        Filter::Linear => wgpu::FilterMode::Linear,
    }
}

fn compare(f: CompareFunc) -> wgpu::CompareFunction {
    match f {
        CompareFunc::Never => wgpu::CompareFunction::Never,
        CompareFunc::Less => wgpu::CompareFunction::Less,
        CompareFunc::Equal => wgpu::CompareFunction::Equal,
        CompareFunc::Lequal => wgpu::CompareFunction::LessEqual,
        CompareFunc::Greater => wgpu::CompareFunction::Greater,
        CompareFunc::NotEqual => wgpu::CompareFunction::NotEqual,
        CompareFunc::Gequal => wgpu::CompareFunction::GreaterEqual,
        CompareFunc::Always => wgpu::CompareFunction::Always,
    }
}

/// The border colour, if it is one wgpu has.
fn border(words: [u32; 4], slot: u32) -> Result<wgpu::SamplerBorderColor> {
    let (zero, one) = (0, 1.0f32.to_bits());
    match words {
        [0, 0, 0, 0] => Ok(wgpu::SamplerBorderColor::TransparentBlack),
        w if w == [zero, zero, zero, one] => Ok(wgpu::SamplerBorderColor::OpaqueBlack),
        w if w == [one; 4] => Ok(wgpu::SamplerBorderColor::OpaqueWhite),
        _ => Err(Error::Unsupported(format!(
            "SAMP[{slot}]: border colour {:?} (only (0,0,0,0), (0,0,0,1) and (1,1,1,1))",
            words.map(f32::from_bits)
        ))),
    }
}

/// A LOD limit in `lo..=32` (NaN: `lo`); `lo` is at most 32.
fn lod(x: f32, lo: f32) -> f32 {
    if x.is_nan() {
        lo
    } else {
        x.clamp(lo, 32.0)
    }
}

/// Whether a sampler filters (a layout needs to know).
pub(crate) fn filters(s: &SamplerState) -> bool {
    s.min_img_filter == Filter::Linear
        || s.mag_img_filter == Filter::Linear
        || s.min_mip_filter == MipFilter::Linear
}

/// The LOD bias of each bound sampler that has one, for
/// [`tgsi_naga::Options::lod_biases`] (WebGPU samplers have none).
pub(crate) fn lod_biases(resources: &Resources) -> BTreeMap<u32, f32> {
    (0u32..)
        .zip(&resources.samplers)
        .filter_map(|(i, s)| Some((i, s.as_ref()?.lod_bias)))
        .filter(|&(_, b)| b != 0.0)
        .collect()
}

/// How a shader's instructions sample through one sampler.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SamplerUse {
    /// Some instruction has a RECT or SHADOWRECT target (for the SAMPLE family: its SVIEW
    /// declaration's), whose coordinates the translation gives in texels.
    pub rect: bool,
    /// Some instruction has another target.
    pub other: bool,
}

/// How `shader` samples through each `SAMP[i]` it names.
pub(crate) fn uses(shader: &tgsi::Shader) -> BTreeMap<u32, SamplerUse> {
    let mut views = BTreeMap::new();
    for d in shader
        .declarations
        .iter()
        .filter(|d| d.file == File::SamplerView)
    {
        if let Some(ResourceDecl::SamplerView { target, .. }) = d.resource {
            for i in d.first..=d.last.min(d.first.saturating_add(1024)) {
                views.insert(i, target);
            }
        }
    }
    let mut out = BTreeMap::<u32, SamplerUse>::new();
    for inst in &shader.instructions {
        let Some(tex) = &inst.texture else { continue };
        let index = |file: File| {
            inst.src
                .iter()
                .find(|s| s.reg.file == file)
                .and_then(|s| u32::try_from(s.reg.index).ok())
        };
        let Some(unit) = index(File::Sampler) else {
            continue;
        };
        let target = match index(File::SamplerView) {
            Some(v) => views.get(&v).copied().unwrap_or(TextureTarget::Unknown),
            None => tex.target,
        };
        let u = out.entry(unit).or_default();
        if matches!(target, TextureTarget::Rect | TextureTarget::ShadowRect) {
            u.rect = true;
        } else {
            u.other = true;
        }
    }
    out
}

/// The sampler for `SAMP[slot]`, which the shader samples through as `usage` says.
pub(crate) fn sampler(
    device: &wgpu::Device,
    s: &SamplerState,
    slot: u32,
    usage: SamplerUse,
) -> Result<wgpu::Sampler> {
    let refuse = |what: &str| Err(Error::Unsupported(format!("SAMP[{slot}]: {what}")));
    if s.unnormalized_coords && usage.other {
        return refuse("unnormalized_coords with a target other than RECT");
    }
    if !s.unnormalized_coords && usage.rect {
        return refuse("normalised coordinates with a RECT target");
    }
    // Softpipe clamps unnormalised coordinates in every mode but the two edge clamps.
    let wrap = if s.unnormalized_coords {
        s.wrap.map(|w| match w {
            Wrap::ClampToEdge | Wrap::ClampToBorder => w,
            _ => Wrap::Clamp,
        })
    } else {
        s.wrap
    };
    if s.max_anisotropy > 1 {
        return Err(Error::Unsupported(format!(
            "SAMP[{slot}]: max_anisotropy {} (anisotropic filtering is the driver's own)",
            s.max_anisotropy
        )));
    }
    let nearest = !filters(s);
    let [u, v, w] = [0, 1, 2].map(|i| address(wrap[i], nearest, slot));
    let border_color = if wrap.contains(&Wrap::ClampToBorder) {
        Some(border(s.border_color, slot)?)
    } else {
        None
    };
    // MIPFILTER_NONE: level 0 only; a maximum LOD of ¼ still tells minification from
    // magnification and rounds to level 0 with nearest mipmapping.
    let (mipmap_filter, lod_max) = match s.min_mip_filter {
        MipFilter::None => (wgpu::MipmapFilterMode::Nearest, 0.25),
        MipFilter::Nearest => (wgpu::MipmapFilterMode::Nearest, s.max_lod),
        MipFilter::Linear => (wgpu::MipmapFilterMode::Linear, s.max_lod),
    };
    let lod_min = lod(s.min_lod, 0.0);
    Ok(device.create_sampler(&wgpu::SamplerDescriptor {
        label: None,
        address_mode_u: u?,
        address_mode_v: v?,
        address_mode_w: w?,
        mag_filter: filter(s.mag_img_filter),
        min_filter: filter(s.min_img_filter),
        mipmap_filter,
        lod_min_clamp: lod_min,
        lod_max_clamp: lod(lod_max, lod_min),
        compare: s.compare.then(|| compare(s.compare_func)),
        anisotropy_clamp: 1,
        border_color,
    }))
}
