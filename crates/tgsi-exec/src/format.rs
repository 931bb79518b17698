//! Reading and writing texels of Gallium formats (`util_format` unpack/pack as softpipe does
//! them).
//!
//! PLACEHOLDER: this first version knows only a few formats; the full table-driven version
//! replaces the bodies and keeps these signatures.

use tgsi::Format;

/// Numeric class of a format's colour (or depth) channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumClass {
    /// Unsigned normalised (sRGB included).
    Unorm,
    /// Signed normalised.
    Snorm,
    /// Floating point (half, float, packed floats, shared exponent).
    Float,
    /// Pure unsigned integer.
    Uint,
    /// Pure signed integer.
    Sint,
}

/// Bytes of one texel, `None` for formats this module cannot read.
pub fn texel_bytes(format: Format) -> Option<usize> {
    match format.short_name()? {
        "R8G8B8A8_UNORM" | "R32_FLOAT" | "R32_UINT" => Some(4),
        "R32G32B32A32_FLOAT" => Some(16),
        _ => None,
    }
}

/// The class of the format's channels.
pub fn class(format: Format) -> Option<NumClass> {
    match format.short_name()? {
        "R8G8B8A8_UNORM" => Some(NumClass::Unorm),
        "R32_FLOAT" | "R32G32B32A32_FLOAT" => Some(NumClass::Float),
        "R32_UINT" => Some(NumClass::Uint),
        _ => None,
    }
}

/// Whether the format holds depth (Z) values.
pub fn is_depth(_format: Format) -> bool {
    false
}

/// Whether the format is sRGB-encoded.
pub fn is_srgb(_format: Format) -> bool {
    false
}

/// Unpack one texel (`bytes` starts at it) to RGBA: `f32` bits for float, normalised and
/// depth formats, 32-bit integers for pure-integer formats; missing channels 0, missing
/// alpha 1 (1.0 or integer 1). Unknown formats or short input: all zero.
pub fn unpack(format: Format, bytes: &[u8]) -> [u32; 4] {
    let word = |k: usize| {
        bytes
            .get(4 * k..4 * k + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let one = 1.0f32.to_bits();
    match format.short_name() {
        Some("R8G8B8A8_UNORM") if bytes.len() >= 4 => {
            std::array::from_fn(|c| (f32::from(bytes[c]) * (1.0 / 255.0)).to_bits())
        }
        Some("R32_FLOAT") => [word(0), 0, 0, one],
        Some("R32_UINT") => [word(0), 0, 0, 1],
        Some("R32G32B32A32_FLOAT") => std::array::from_fn(word),
        _ => [0; 4],
    }
}

/// Pack RGBA (same encoding as [`unpack`]) into `out`; returns the bytes written, `None`
/// for unknown formats or a short `out`.
pub fn pack(format: Format, rgba: [u32; 4], out: &mut [u8]) -> Option<usize> {
    let n = texel_bytes(format)?;
    let out = out.get_mut(..n)?;
    match format.short_name()? {
        "R32_FLOAT" | "R32_UINT" => out.copy_from_slice(&rgba[0].to_le_bytes()),
        "R32G32B32A32_FLOAT" => {
            for (c, v) in rgba.iter().enumerate() {
                out[4 * c..4 * c + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        _ => return None,
    }
    Some(n)
}
