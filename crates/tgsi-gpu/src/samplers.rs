//! `pipe_sampler_state` → a wgpu sampler, where Vulkan (through WebGPU's model) has the same
//! state. The translation does the rest: border colours ([`border_colors`]), GL's CLAMP
//! with linear filtering and the mirror-clamp modes, by transforming coordinates
//! ([`coordinate_wraps`]), and depth comparisons, after filtering as softpipe makes them
//! ([`depth_compares`]). Anisotropic filtering is lavapipe's own. Unnormalised coordinates are taken where only RECT and
//! SHADOWRECT instructions sample through the sampler: the translation divides their texel
//! coordinates by the texture's size, so the GPU's sampler is a normalised one, its wrap
//! modes those softpipe gives unnormalised coordinates (clamps). LOD biases are added by the
//! translation ([`lod_biases`]), and LOD queries computed by it ([`lod_queries`]).

use std::collections::BTreeMap;
use tgsi::enums::TextureTarget;
use tgsi_exec::format::NumClass;
use tgsi_exec::resource::{Filter, MipFilter, Resources, SamplerState, Wrap};
use tgsi_exec::texture::border_color;
use tgsi_naga::CoordinateWrap;

use crate::error::{Error, Result};

/// How wgpu runs a wrap mode of normalised coordinates: its address mode, after what the
/// translation does to the coordinate ([`tgsi_naga::Options::coordinate_wraps`]).
/// `nearest`: whether both image filters are nearest (`None`: they differ).
fn addressing(
    wrap: Wrap,
    nearest: Option<bool>,
    slot: u32,
) -> Result<(wgpu::AddressMode, CoordinateWrap)> {
    use wgpu::AddressMode as A;
    Ok(match (wrap, nearest) {
        (Wrap::Repeat, _) => (A::Repeat, CoordinateWrap::Keep),
        (Wrap::ClampToEdge, _) => (A::ClampToEdge, CoordinateWrap::Keep),
        (Wrap::MirrorRepeat, _) => (A::MirrorRepeat, CoordinateWrap::Keep),
        (Wrap::ClampToBorder, _) => (A::ClampToBorder, CoordinateWrap::Keep),
        // GL's CLAMP: the edge texel when nearest; [0, 1] with the border when linear.
        (Wrap::Clamp, Some(true)) => (A::ClampToEdge, CoordinateWrap::Keep),
        (Wrap::Clamp, Some(false)) => (A::ClampToBorder, CoordinateWrap::Clamp),
        (Wrap::MirrorClamp, Some(true)) => (A::ClampToEdge, CoordinateWrap::Mirror),
        (Wrap::MirrorClamp, Some(false)) => (A::ClampToBorder, CoordinateWrap::MirrorClamp),
        (Wrap::MirrorClampToEdge, _) => (A::ClampToEdge, CoordinateWrap::Mirror),
        (Wrap::MirrorClampToBorder, _) => (A::ClampToBorder, CoordinateWrap::Mirror),
        (Wrap::Clamp | Wrap::MirrorClamp, None) => {
            return Err(Error::Unsupported(format!(
                "SAMP[{slot}]: wrap mode {wrap:?} with different minification and \
                 magnification filters"
            )))
        }
    })
}

/// The address modes and coordinate transforms of a sampler's three axes. Softpipe clamps
/// unnormalised coordinates in every mode but the two edge clamps, which is the GPU's
/// CLAMP_TO_EDGE (for linear filtering too: softpipe's unnormalised CLAMP takes texel
/// centres 0.5 to size − 0.5).
fn axes(s: &SamplerState, slot: u32) -> Result<[(wgpu::AddressMode, CoordinateWrap); 3]> {
    let nearest = match (s.min_img_filter, s.mag_img_filter) {
        (Filter::Nearest, Filter::Nearest) => Some(true),
        (Filter::Linear, Filter::Linear) => Some(false),
        _ => None,
    };
    let mut out = [(wgpu::AddressMode::ClampToEdge, CoordinateWrap::Keep); 3];
    for (o, &wrap) in out.iter_mut().zip(&s.wrap) {
        *o = if !s.unnormalized_coords {
            addressing(wrap, nearest, slot)?
        } else if wrap == Wrap::ClampToBorder {
            (wgpu::AddressMode::ClampToBorder, CoordinateWrap::Keep)
        } else {
            (wgpu::AddressMode::ClampToEdge, CoordinateWrap::Keep)
        };
    }
    Ok(out)
}

/// The bound samplers with their slots.
fn bound(resources: &Resources) -> impl Iterator<Item = (u32, &SamplerState)> {
    (0u32..)
        .zip(&resources.samplers)
        .filter_map(|(i, s)| Some((i, s.as_ref()?)))
}

/// The border colour `SAMP[i]` (state `s`) gives the texels of the view of the same index,
/// as softpipe gives it (`tgsi_exec::texture::border_color`; the raw words without a view).
fn view_border(resources: &Resources, i: u32, s: &SamplerState) -> [u32; 4] {
    match resources.sampler_view(i) {
        Some(v) => border_color(v.format, s.border_color).map(f32::to_bits),
        None => s.border_color,
    }
}

/// The coordinate transforms of each bound sampler that needs one, for
/// [`tgsi_naga::Options::coordinate_wraps`].
pub(crate) fn coordinate_wraps(resources: &Resources) -> BTreeMap<u32, [CoordinateWrap; 3]> {
    bound(resources)
        .filter_map(|(i, s)| Some((i, axes(s, i).ok()?.map(|a| a.1))))
        .filter(|(_, w)| w.iter().any(|&w| w != CoordinateWrap::Keep))
        .collect()
}

fn filter(f: Filter) -> wgpu::FilterMode {
    match f {
        Filter::Nearest => wgpu::FilterMode::Nearest,
        Filter::Linear => wgpu::FilterMode::Linear,
    }
}

/// The depth comparison of each bound sampler that compares and whose view of the same
/// index is bound, for [`tgsi_naga::Options::depth_compares`]: the translation compares
/// after filtering, as softpipe does (a sampler without an entry compares nothing, and an
/// unbound view reads zero uncompared, as in the interpreter). The reference is clamped to
/// [0, 1] unless the view format is a float format.
pub(crate) fn depth_compares(resources: &Resources) -> BTreeMap<u32, tgsi_naga::DepthCompare> {
    bound(resources)
        .filter(|(_, s)| s.compare)
        .filter_map(|(i, s)| {
            let view = resources.sampler_view(i)?;
            let float = tgsi_exec::format::class(view.format) == Some(NumClass::Float);
            Some((
                i,
                tgsi_naga::DepthCompare {
                    func: s.compare_func,
                    clamp_reference: !float,
                },
            ))
        })
        .collect()
}

/// The border colour of each bound sampler that clamps to the border, for
/// [`tgsi_naga::Options::border_colors`]: as softpipe gives it to the texels of the view of
/// the same index ([`view_border`]). Every such sampler gets a transparent black border and the translation adds the colour where
/// the filter reaches outside the texture (measured on a coverage view,
/// [`crate::textures`]), so no colour depends on how Vulkan fills a format's missing
/// channels of its own border colours.
pub(crate) fn border_colors(resources: &Resources) -> BTreeMap<u32, [u32; 4]> {
    bound(resources)
        .filter_map(|(i, s)| {
            let clamps = axes(s, i)
                .ok()?
                .iter()
                .any(|a| a.0 == wgpu::AddressMode::ClampToBorder);
            clamps.then(|| (i, view_border(resources, i, s)))
        })
        .collect()
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
    bound(resources)
        .map(|(i, s)| (i, s.lod_bias))
        .filter(|&(_, b)| b != 0.0)
        .collect()
}

/// The mip filter and LOD range of each bound sampler, for
/// [`tgsi_naga::Options::lod_queries`] (naga has no LOD query).
pub(crate) fn lod_queries(resources: &Resources) -> BTreeMap<u32, tgsi_naga::LodQuery> {
    bound(resources)
        .map(|(i, s)| {
            let query = tgsi_naga::LodQuery {
                mip_filter: s.min_mip_filter,
                min_lod: s.min_lod,
                max_lod: s.max_lod,
            };
            (i, query)
        })
        .collect()
}

/// The wrap modes and border colour of each bound sampler, for
/// [`tgsi_naga::Options::texel_samplers`] (samples of integer views are texel loads in the
/// translation): the border as [`border_colors`] gives it.
pub(crate) fn texel_samplers(resources: &Resources) -> BTreeMap<u32, tgsi_naga::TexelSampler> {
    bound(resources)
        .map(|(i, s)| {
            let sampler = tgsi_naga::TexelSampler {
                wrap: s.wrap,
                border: view_border(resources, i, s),
            };
            (i, sampler)
        })
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

/// How `shader` samples through each `SAMP[i]` it names (the translation's rule for the
/// target an instruction samples with: `tgsi_naga::sampler_targets`).
pub(crate) fn uses(shader: &tgsi::Shader) -> BTreeMap<u32, SamplerUse> {
    let mut out = BTreeMap::<u32, SamplerUse>::new();
    for (unit, target) in tgsi_naga::sampler_targets(shader) {
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
    // Anisotropic filtering is the driver's own (softpipe's is EWA); wgpu takes it only
    // with linear filters and linear mipmapping, and filters without it otherwise.
    let all_linear = s.min_img_filter == Filter::Linear
        && s.mag_img_filter == Filter::Linear
        && s.min_mip_filter == MipFilter::Linear;
    let anisotropy_clamp = if all_linear {
        s.max_anisotropy.clamp(1, 16) as u16
    } else {
        1
    };
    let [u, v, w] = axes(s, slot)?.map(|a| a.0);
    // The translation adds the border colour over a transparent black border.
    let border_color = [u, v, w]
        .contains(&wgpu::AddressMode::ClampToBorder)
        .then_some(wgpu::SamplerBorderColor::TransparentBlack);
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
        address_mode_u: u,
        address_mode_v: v,
        address_mode_w: w,
        mag_filter: filter(s.mag_img_filter),
        min_filter: filter(s.min_img_filter),
        mipmap_filter,
        lod_min_clamp: lod_min,
        lod_max_clamp: lod(lod_max, lod_min),
        // The translation compares depth after filtering ([`depth_compares`]).
        compare: None,
        anisotropy_clamp,
        border_color,
    }))
}
