//! `pipe_sampler_state` → a wgpu sampler, where Vulkan (through WebGPU's model) has the same
//! state; anything else (GL's CLAMP with linear filtering, the mirror-clamp modes, LOD bias,
//! unnormalised coordinates, anisotropy, border colours other than transparent black,
//! opaque black and opaque white) is refused with its name.

use tgsi_exec::resource::{CompareFunc, Filter, MipFilter, SamplerState, Wrap};

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

/// The sampler for `SAMP[slot]`.
pub(crate) fn sampler(device: &wgpu::Device, s: &SamplerState, slot: u32) -> Result<wgpu::Sampler> {
    if s.lod_bias != 0.0 {
        return Err(Error::Unsupported(format!(
            "SAMP[{slot}]: lod_bias {}",
            s.lod_bias
        )));
    }
    if s.unnormalized_coords {
        return Err(Error::Unsupported(format!(
            "SAMP[{slot}]: unnormalized_coords"
        )));
    }
    if s.max_anisotropy > 1 {
        return Err(Error::Unsupported(format!(
            "SAMP[{slot}]: max_anisotropy {} (anisotropic filtering is the driver's own)",
            s.max_anisotropy
        )));
    }
    let nearest = !filters(s);
    let [u, v, w] = [0, 1, 2].map(|i| address(s.wrap[i], nearest, slot));
    let border_color = if s.wrap.contains(&Wrap::ClampToBorder) {
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
