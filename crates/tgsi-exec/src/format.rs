//! Reading and writing texels of Gallium formats, bit-exact with what Mesa 22.3's softpipe
//! does, driven by the one layout table [`tgsi::pipe_format_layout`].
//!
//! softpipe reads texels for sampling through `pipe_get_tile_rgba` (`u_tile.c`) and for
//! image loads/stores through `util_format_read_4` / `util_format_write_4`; both end in
//! util_format's generated `unpack_rgba` / `pack_rgba_{float,uint,sint}` kernels (built by
//! `u_format_pack.py` from `u_format.csv`), except that `u_tile.c` handles the depth/stencil
//! formats itself. The conversions below follow those kernels (Mesa 22.3.6 source):
//!
//! * **unorm → float**, n ≤ 23 bits: `(float)x * (1.0f / (2ⁿ−1))` in float32 (8 bits:
//!   `ubyte_to_float`, the same expression); n = 24, 32: `(float)(x * (1.0 / (2ⁿ−1)))` in
//!   double.
//! * **snorm → float**: `(float)x * (1.0f / (2ⁿ⁻¹−1))` with **no clamp** (−128 in 8 bits
//!   gives −1.0078740); 32 bits in double.
//! * **USCALED/SSCALED → float**: `(float)x`; **fixed 16.16**: `(float)(x * (1.0/65536))`.
//! * **half → float**: exact; a NaN gets its quiet bit set (x86 F16C `vcvtph2ps`, which Mesa
//!   uses when the CPU has it). **float → half** (packing) is Mesa's
//!   `_mesa_float_to_float16_rtz`: round toward zero, so finite values beyond the half
//!   range give ±65504, not infinity; NaN → quiet NaN keeping the top payload bits (F16C
//!   `vcvtps2ph` with rounding control 3).
//! * **sRGB**: colour channels (not alpha) go through util_format's 256-entry table
//!   `util_format_srgb_8unorm_to_linear_float_table` (narrower channels are first widened to
//!   8 bits by bit replication); packing uses `util_format_linear_float_to_srgb_8unorm`
//!   (its 104-entry interpolation table), shifted right for narrower channels.
//! * **float → unorm** (packing): 8 bits: `float_to_ubyte` (NaN and ≤ 0 → 0, ≥ 1 → 255,
//!   else the low byte of `f·(255/256) + 32768`); other widths ≤ 23: clamp to [0, 1] then
//!   Mesa 22.3's x86-64 `util_iround` (`(int)(f + 0.5f)`, or `(int)(f − 0.5f)` below 0,
//!   in float32); 32 bits: `(uint32_t)(f * (double)0xffffffff)` (truncation). snorm the
//!   same with [−1, 1]. NaN clamps to the lower bound (Mesa's `CLAMP` compares `x > min`).
//! * **float → USCALED/SSCALED**: clamp to the channel's range (the bound rounded to 24
//!   significant bits, as `u_format_pack.py` prints it) then truncate.
//! * **pure integers**: unpack zero-/sign-extends (64-bit channels clamp to 32 bits); pack
//!   clamps to the channel's range (`MIN2` for unsigned, `CLAMP` for signed).
//! * **R11G11B10_FLOAT / R9G9B9E5_FLOAT**: `format_r11g11b10f.h` / `format_rgb9e5.h`.
//! * **Depth/stencil** (sampling only, `u_tile.c`): the depth value — or the stencil integer
//!   for stencil-only formats — **in all four components** (`Z16`: `x * (1.0f/65535.0f)`;
//!   `Z24`: `(float)((1.0/16777215) * x)` in double; `Z32_UNORM`: double; `Z32_FLOAT`: the
//!   bits). softpipe never packs RGBA into depth/stencil: [`pack`] refuses those formats.
//!
//! Verified against an oracle: Mesa 22.3.6's own generated `u_format_table.c`,
//! `u_format_other.c` and `u_tile.c`, built with Debian 12's GCC at `-O2` with F16C enabled,
//! agree bit for bit with this module on 3000 random texels and 3000 random RGBA inputs
//! (NaN, infinities, rounding midpoints, out-of-range values) for every format of the table.
//!
//! Missing colour components are 0, missing alpha is 1.0 (integer 1 for pure-integer
//! formats), per the table's swizzle (`L8` → (L, L, L, 1), `A8` → (0, 0, 0, A), `I8` →
//! (I, I, I, I), `L8A8` → (L, L, L, A), `B8G8R8X8` → (R, G, B, 1)).

use std::sync::OnceLock;

use tgsi::pipe_format_layout::{
    Channel, ChannelKind, Colorspace, Encoding, FormatLayout, Swizzle, FORMAT_NUMBERS,
};
use tgsi::Format;

/// Numeric class of a format's colour (or depth) channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumClass {
    /// Unsigned normalised (sRGB included).
    Unorm,
    /// Signed normalised.
    Snorm,
    /// Floating point (half, float, packed floats, shared exponent; also USCALED, SSCALED
    /// and fixed point, which read as floats).
    Float,
    /// Pure unsigned integer.
    Uint,
    /// Pure signed integer.
    Sint,
}

/// Bytes of one texel, `None` for formats this module cannot read.
pub fn texel_bytes(format: Format) -> Option<usize> {
    format.layout().map(FormatLayout::block_bytes)
}

/// The class of the format's channels: for depth/stencil formats that of the depth channel,
/// or [`NumClass::Uint`] for stencil-only formats.
pub fn class(format: Format) -> Option<NumClass> {
    let l = format.layout()?;
    if l.encoding != Encoding::Plain {
        return Some(NumClass::Float);
    }
    let ch = if l.colorspace == Colorspace::Zs {
        let c = l.swizzle[0].channel().or(l.swizzle[1].channel())?;
        l.channels[c]
    } else {
        *l.first_value_channel()?
    };
    Some(match (ch.kind, ch.norm, ch.pure) {
        (ChannelKind::Unsigned, true, _) => NumClass::Unorm,
        (ChannelKind::Signed, true, _) => NumClass::Snorm,
        (ChannelKind::Unsigned, _, true) => NumClass::Uint,
        (ChannelKind::Signed, _, true) => NumClass::Sint,
        _ => NumClass::Float,
    })
}

/// Whether the format holds depth (Z) values.
pub fn is_depth(format: Format) -> bool {
    format.layout().is_some_and(FormatLayout::has_depth)
}

/// Whether the format holds stencil values.
pub fn is_stencil(format: Format) -> bool {
    format.layout().is_some_and(FormatLayout::has_stencil)
}

/// Whether the format is sRGB-encoded.
pub fn is_srgb(format: Format) -> bool {
    format
        .layout()
        .is_some_and(|l| l.colorspace == Colorspace::Srgb)
}

/// Whether [`unpack`] gives integers rather than `f32` bits, and [`pack`] takes them:
/// UINT/SINT colour formats and stencil-only formats (`util_format_is_pure_integer`).
pub fn is_pure_integer(format: Format) -> bool {
    format
        .layout()
        .is_some_and(FormatLayout::is_pure_integer_any)
}

/// Whether the format is a pure signed-integer (SINT) format.
pub fn is_pure_sint(format: Format) -> bool {
    class(format) == Some(NumClass::Sint)
}

/// Whether the format is a pure unsigned-integer format (UINT, or stencil-only).
pub fn is_pure_uint(format: Format) -> bool {
    class(format) == Some(NumClass::Uint)
}

/// util_format's `nr_channels` (`util_format_get_nr_components`): channels with a width,
/// padding included (`R8G8B8X8_UNORM` has 4, `L8A8_UNORM` 2). softpipe's image loads give
/// alpha 1 for out-of-bounds texels of formats with fewer than 4.
pub fn nr_components(format: Format) -> Option<usize> {
    format.layout().map(FormatLayout::nr_channels)
}

/// Unpack one texel (`bytes` starts at it) to RGBA: `f32` bits for float, normalised and
/// depth formats, 32-bit integers for pure-integer formats; missing channels 0, missing
/// alpha 1 (1.0 or integer 1). Unknown formats or short input: all zero.
pub fn unpack(format: Format, bytes: &[u8]) -> [u32; 4] {
    let Some(l) = format.layout() else {
        return [0; 4];
    };
    let Some(texel) = bytes.get(..l.block_bytes()) else {
        return [0; 4];
    };
    match l.encoding {
        Encoding::R11G11B10Float => {
            let w = read_bits(texel, 0, 32) as u32;
            return [
                uf11_to_f32(w & 0x7ff).to_bits(),
                uf11_to_f32((w >> 11) & 0x7ff).to_bits(),
                uf10_to_f32((w >> 22) & 0x3ff).to_bits(),
                ONE_F32,
            ];
        }
        Encoding::R9G9B9E5Float => {
            let [r, g, b] = rgb9e5_to_f32(read_bits(texel, 0, 32) as u32);
            return [r.to_bits(), g.to_bits(), b.to_bits(), ONE_F32];
        }
        Encoding::Plain => {}
    }
    if l.colorspace == Colorspace::Zs {
        // u_tile.c: depth (or stencil) replicated to the four components.
        let Some(c) = l.swizzle[0].channel().or(l.swizzle[1].channel()) else {
            return [0; 4];
        };
        return [unpack_channel(l, c, texel, false); 4];
    }
    let pure = l.is_pure_color();
    let one = if pure { 1 } else { ONE_F32 };
    std::array::from_fn(|i| match l.swizzle[i] {
        Swizzle::Zero | Swizzle::None => 0,
        Swizzle::One => one,
        s => s.channel().map_or(0, |c| {
            // sRGB decodes the colour components; alpha (component 3) stays linear.
            let srgb = l.colorspace == Colorspace::Srgb && i != 3;
            unpack_channel(l, c, texel, srgb)
        }),
    })
}

/// Pack RGBA (same encoding as [`unpack`]: `f32` bits, or integers for pure-integer
/// formats — `u32` for UINT, `i32` for SINT) into `out`; returns the bytes written, `None`
/// for unknown or depth/stencil formats or a short `out`. Padding bits are written 0; a
/// channel fed by several components (`L8`, `I8`) takes the first (R), as `u_format_pack.py`.
pub fn pack(format: Format, rgba: [u32; 4], out: &mut [u8]) -> Option<usize> {
    let l = format.layout()?;
    if l.colorspace == Colorspace::Zs {
        return None;
    }
    let n = l.block_bytes();
    let out = out.get_mut(..n)?;
    let f = rgba.map(f32::from_bits);
    match l.encoding {
        Encoding::R11G11B10Float => {
            let w = (f32_to_uf11(f[0]) & 0x7ff)
                | ((f32_to_uf11(f[1]) & 0x7ff) << 11)
                | ((f32_to_uf10(f[2]) & 0x3ff) << 22);
            out.copy_from_slice(&w.to_le_bytes());
        }
        Encoding::R9G9B9E5Float => {
            out.copy_from_slice(&f32_to_rgb9e5([f[0], f[1], f[2]]).to_le_bytes());
        }
        Encoding::Plain => {
            out.fill(0);
            let pure = l.is_pure_color();
            let word = packs_into_unsigned_word(l);
            for (c, ch) in l.channels.iter().enumerate() {
                if !ch.is_value() {
                    continue;
                }
                let Some(src) = l.swizzle.iter().position(|s| s.channel() == Some(c)) else {
                    continue;
                };
                let v = if pure {
                    pack_integer(ch, rgba[src])
                } else {
                    let srgb = l.colorspace == Colorspace::Srgb && src != 3;
                    pack_float(ch, f[src], srgb, word)
                };
                write_bits(out, l.shift(c), u32::from(ch.bits), v);
            }
        }
    }
    Some(n)
}

const ONE_F32: u32 = 0x3f80_0000;

/// `x · (1/255)` for every byte, the conversion [`unpack`] makes for 8-bit unorm channels,
/// then 0.0 and 1.0 (the constant components of [`ByteWord`]).
static UNORM8: [f32; 258] = {
    let mut t = [0.0f32; 258];
    let mut i = 0;
    while i < 256 {
        t[i] = i as f32 * (1.0f32 / 255.0);
        i += 1;
    }
    t[ByteWord::ONE as usize] = 1.0;
    t
};

/// [`unpack`] of a byte-unorm texel (RGBA8, BGRA8, R8, RG8, L8, A8, LA8, I8, RGBX8…: formats
/// whose colour components are whole bytes of 8-bit linear unorm) read as one little-endian
/// word, its bytes past the texel zero, without a branch: component c is
/// `UNORM8[((word >> shift[c]) & mask[c]) + base[c]]`. See [`byte_word`].
#[derive(Clone, Copy, Debug)]
pub struct ByteWord {
    shift: [u32; 4],
    mask: [u32; 4],
    base: [u32; 4],
}

impl ByteWord {
    /// Index of 0.0 in `UNORM8`.
    const ZERO: u32 = 256;
    /// Index of 1.0 in `UNORM8`.
    const ONE: u32 = 257;

    /// The unpacked words of one texel.
    #[inline(always)]
    pub fn unpack(&self, word: u32) -> [u32; 4] {
        let [r, g, b, a] = self.unpack_f32(word);
        [r.to_bits(), g.to_bits(), b.to_bits(), a.to_bits()]
    }

    /// [`ByteWord::unpack`] as floats.
    #[inline(always)]
    pub fn unpack_f32(&self, word: u32) -> [f32; 4] {
        if self.mask == [0xff; 4] {
            // Four bytes (RGBA8, BGRA8…): indices below 256, no bounds check.
            let byte = |c: usize| UNORM8[((word >> (self.shift[c] & 31)) & 0xff) as usize];
            return [byte(0), byte(1), byte(2), byte(3)];
        }
        let channel = |c: usize| {
            let i = ((word >> self.shift[c]) & self.mask[c]) + self.base[c];
            UNORM8[i as usize]
        };
        [channel(0), channel(1), channel(2), channel(3)]
    }

    /// Where each component comes from when every one is a byte of the word (RGBA8,
    /// BGRA8, ABGR8…, no constant 0 or 1): component c is byte `order[c]`.
    #[inline(always)]
    pub fn byte_order(&self) -> Option<[u8; 4]> {
        let byte = |c: usize| (self.mask[c] == 0xff).then_some((self.shift[c] / 8) as u8 & 3);
        Some([byte(0)?, byte(1)?, byte(2)?, byte(3)?])
    }
}

/// The four bytes of a little-endian word as unorm8 values, byte 0 first: exactly
/// [`ByteWord::unpack_f32`]'s values (`i as f32 * (1/255)`), computed without a table
/// so that a texel's four bytes convert in one vector.
#[inline(always)]
pub fn unorm8x4(word: u32) -> [f32; 4] {
    word.to_le_bytes().map(|b| f32::from(b) * (1.0f32 / 255.0))
}

/// The [`ByteWord`] of a byte-unorm format, `None` for other formats. Derived once per format
/// from the layout table (samplers ask on every request).
pub fn byte_word(format: Format) -> Option<ByteWord> {
    static TABLE: OnceLock<Vec<Option<ByteWord>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..FORMAT_NUMBERS as u16)
            .map(|f| derive_byte_word(Format(f)))
            .collect()
    });
    table.get(usize::from(format.0)).copied().flatten()
}

fn derive_byte_word(format: Format) -> Option<ByteWord> {
    let l = format.layout()?;
    if l.encoding != Encoding::Plain || l.colorspace != Colorspace::Rgb || texel_bytes(format)? > 4
    {
        return None;
    }
    let byte_unorm = |c: usize| {
        let ch = l.channels[c];
        let ok = ch.kind == ChannelKind::Unsigned && ch.norm && !ch.pure && ch.bits == 8;
        (ok && l.shift(c) % 8 == 0 && l.shift(c) < 32).then(|| l.shift(c))
    };
    let mut w = ByteWord {
        shift: [0; 4],
        mask: [0; 4],
        base: [ByteWord::ZERO; 4],
    };
    for (c, s) in l.swizzle.into_iter().enumerate() {
        match s {
            Swizzle::Zero | Swizzle::None => {}
            Swizzle::One => w.base[c] = ByteWord::ONE,
            s => (w.shift[c], w.mask[c], w.base[c]) = (byte_unorm(s.channel()?)?, 0xff, 0),
        }
    }
    Some(w)
}

/// The `bits`-wide field at bit `shift` of the little-endian texel (bits ≤ 64; a field
/// wider than 56 bits is byte-aligned in every format of the table).
fn read_bits(texel: &[u8], shift: u32, bits: u32) -> u64 {
    let first = (shift / 8) as usize;
    let lo = shift % 8;
    let mut acc: u128 = 0;
    for (k, b) in texel.iter().skip(first).take(9).enumerate() {
        acc |= u128::from(*b) << (8 * k);
    }
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    ((acc >> lo) as u64) & mask
}

/// ORs the low `bits` of `value` into the field at bit `shift` of `out`.
fn write_bits(out: &mut [u8], shift: u32, bits: u32, value: u64) {
    let value = if bits >= 64 {
        value
    } else {
        value & ((1u64 << bits) - 1)
    };
    let wide = u128::from(value) << (shift % 8);
    let first = (shift / 8) as usize;
    for (k, b) in out.iter_mut().skip(first).enumerate() {
        if 8 * k >= 128 {
            break;
        }
        *b |= (wide >> (8 * k)) as u8;
    }
}

/// The raw field of channel `c`, sign-extended for signed and fixed channels.
fn signed_field(raw: u64, bits: u32) -> i64 {
    let s = 64 - bits;
    ((raw << s) as i64) >> s
}

/// Channel `c` of the texel converted as util_format's `unpack_rgba` does.
fn unpack_channel(l: &FormatLayout, c: usize, texel: &[u8], srgb: bool) -> u32 {
    let ch = l.channels[c];
    let bits = u32::from(ch.bits);
    let raw = read_bits(texel, l.shift(c), bits);
    match ch.kind {
        ChannelKind::Void => 0,
        ChannelKind::Unsigned if ch.pure => raw.min(u64::from(u32::MAX)) as u32,
        ChannelKind::Unsigned if ch.norm && srgb => {
            // Widen to 8 bits by bit replication (`x << (8−n) | x >> (2n−8)`).
            let x8 = if bits < 8 {
                (raw << (8 - bits)) | (raw >> (2 * bits - 8))
            } else {
                raw
            };
            srgb_table()[(x8 & 0xff) as usize].to_bits()
        }
        ChannelKind::Unsigned if ch.norm => {
            let max = (1u64 << bits) - 1;
            if bits <= 23 {
                (raw as f32 * (1.0f32 / max as f32)).to_bits()
            } else {
                ((raw as f64 * (1.0f64 / max as f64)) as f32).to_bits()
            }
        }
        ChannelKind::Unsigned => (raw as f32).to_bits(),
        ChannelKind::Signed => {
            let v = signed_field(raw, bits);
            if ch.pure {
                v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
            } else if ch.norm {
                let max = (1i64 << (bits - 1)) - 1;
                if bits <= 23 {
                    (v as f32 * (1.0f32 / max as f32)).to_bits()
                } else {
                    ((v as f64 * (1.0f64 / max as f64)) as f32).to_bits()
                }
            } else {
                (v as f32).to_bits()
            }
        }
        ChannelKind::Fixed => {
            let v = signed_field(raw, bits);
            ((v as f64 * (1.0f64 / 65536.0)) as f32).to_bits()
        }
        ChannelKind::Float => match bits {
            16 => half_to_f32(raw as u16).to_bits(),
            32 => raw as u32,
            64 => (f64::from_bits(raw) as f32).to_bits(),
            _ => 0,
        },
    }
}

/// Mesa's `CLAMP(x, lo, hi)`: `x > lo ? (x > hi ? hi : x) : lo` (NaN → `lo`).
fn mesa_clamp(x: f32, lo: f32, hi: f32) -> f32 {
    if x > lo {
        if x > hi {
            hi
        } else {
            x
        }
    } else {
        lo
    }
}

/// Mesa 22.3's `util_iround` on x86-64 (not the x87 build): round half away from zero,
/// with the ±0.5 added in float32.
fn util_iround(f: f32) -> i32 {
    if f >= 0.0 {
        (f + 0.5) as i32
    } else {
        (f - 0.5) as i32
    }
}

/// Mesa's `float_to_ubyte`.
fn float_to_ubyte(f: f32) -> u8 {
    if f.is_nan() || f <= 0.0 {
        0
    } else if f >= 1.0 {
        255
    } else {
        (f * (255.0f32 / 256.0) + 32768.0).to_bits() as u8
    }
}

/// `x` rounded down to 24 significant bits: how `u_format_pack.py` writes the integer
/// bounds of a channel as float constants.
fn float_bound(x: i64) -> f32 {
    let mag = x.unsigned_abs();
    let len = 64 - mag.leading_zeros();
    let kept = if len > 24 {
        (mag >> (len - 24)) << (len - 24)
    } else {
        mag
    };
    let v = kept as f32;
    if x < 0 {
        -v
    } else {
        v
    }
}

/// Whether util_format packs the texel as one unsigned word (`uint32_t value`, a
/// "bitmask" format whose channels are not all the same byte-sized type, such as
/// `R10G10B10A2_SSCALED`), so that signed channels pass through a float → unsigned cast.
fn packs_into_unsigned_word(l: &FormatLayout) -> bool {
    let bitmask = matches!(l.block_bits(), 8 | 16 | 32)
        && l.channels.iter().all(|c| {
            matches!(
                c.kind,
                ChannelKind::Void | ChannelKind::Unsigned | ChannelKind::Signed
            )
        });
    let Some(first) = l.first_value_channel() else {
        return false;
    };
    let array = l.channels.iter().all(|c| {
        c.bits == 0
            || (c.bits == first.bits
                && c.bits % 8 == 0
                && (!c.is_value()
                    || (c.kind == first.kind && c.norm == first.norm && c.pure == first.pure)))
    });
    bitmask && !array
}

/// `(int32_t)x` of a double as x86-64 `cvttsd2si` does it: truncation, and the "integer
/// indefinite" `INT32_MIN` for NaN and out-of-range values.
fn x86_f64_to_i32(x: f64) -> i32 {
    if x > -2147483649.0 && x < 2147483648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// One float component packed into channel `ch` (util_format's `pack_rgba_float`).
///
/// Two conversions of the generated C code are undefined behaviour; this follows what
/// GCC 12 `-O2` (Debian's Mesa 22.3 build compiler) makes of them, checked against that
/// compiler's build of Mesa's generated `u_format_table.c`: in formats packed as one
/// unsigned word (`word`), an SSCALED channel clamped to its negative lower bound goes
/// through a constant `(uint32_t)(negative float)`, folded to 0; and the 16.16 fixed
/// channels convert `(int32_t)(x * 65536.0)` with the clamp bounds folded to
/// `INT32_MIN`/`INT32_MAX` and values in between converted by `cvttsd2si`.
fn pack_float(ch: &Channel, f: f32, srgb: bool, word: bool) -> u64 {
    let bits = u32::from(ch.bits);
    match ch.kind {
        ChannelKind::Void => 0,
        ChannelKind::Unsigned if ch.norm && srgb => {
            u64::from(linear_float_to_srgb_8unorm(f) >> (8 - bits.min(8)))
        }
        ChannelKind::Unsigned if ch.norm && bits == 8 => u64::from(float_to_ubyte(f)),
        ChannelKind::Unsigned if ch.norm => {
            let c = mesa_clamp(f, 0.0, 1.0);
            let max = (1u64 << bits) - 1;
            if bits <= 23 {
                util_iround(c * max as f32) as u64
            } else {
                (f64::from(c) * max as f64) as u32 as u64
            }
        }
        ChannelKind::Signed if ch.norm => {
            let c = mesa_clamp(f, -1.0, 1.0);
            let max = (1i64 << (bits - 1)) - 1;
            let v = if bits <= 23 {
                i64::from(util_iround(c * max as f32))
            } else {
                i64::from((f64::from(c) * max as f64) as i32)
            };
            v as u64
        }
        ChannelKind::Unsigned => {
            let hi = float_bound((1i64 << bits) - 1);
            mesa_clamp(f, 0.0, hi) as u32 as u64
        }
        ChannelKind::Signed => {
            let lo = float_bound(-(1i64 << (bits - 1)));
            let hi = float_bound((1i64 << (bits - 1)) - 1);
            if word && (f.is_nan() || f <= lo) {
                return 0;
            }
            i64::from(mesa_clamp(f, lo, hi) as i32) as u64
        }
        ChannelKind::Fixed => {
            let half = 1i64 << (bits / 2);
            let (lo, hi) = (float_bound(-half), float_bound(half - 1));
            let v = if f.is_nan() || f <= lo {
                i32::MIN
            } else if f > hi {
                i32::MAX
            } else {
                x86_f64_to_i32(f64::from(f) * half as f64)
            };
            i64::from(v) as u64
        }
        ChannelKind::Float => match bits {
            16 => u64::from(f32_to_half_rtz(f)),
            32 => u64::from(f.to_bits()),
            64 => f64::from(f).to_bits(),
            _ => 0,
        },
    }
}

/// One integer component packed into a pure-integer channel (util_format's
/// `pack_rgba_uint` for UINT formats, `pack_rgba_sint` for SINT formats).
fn pack_integer(ch: &Channel, v: u32) -> u64 {
    let bits = u32::from(ch.bits);
    match ch.kind {
        ChannelKind::Unsigned if bits < 32 => u64::from(v).min((1u64 << bits) - 1),
        ChannelKind::Unsigned => u64::from(v),
        ChannelKind::Signed if bits < 32 => {
            let lo = -(1i64 << (bits - 1));
            let hi = (1i64 << (bits - 1)) - 1;
            i64::from(v as i32).clamp(lo, hi) as u64
        }
        ChannelKind::Signed => i64::from(v as i32) as u64,
        _ => 0,
    }
}

/// Half → float as x86 F16C `vcvtph2ps`: exact, NaNs made quiet.
fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from(h >> 10) & 0x1f;
    let mant = u32::from(h & 0x3ff);
    let bits = match (exp, mant) {
        (0, 0) => sign,
        // Subnormal: m · 2⁻²⁴, exact in float32.
        (0, m) => (m as f32 * f32::from_bits(0x3380_0000)).to_bits() | sign,
        (31, 0) => sign | 0x7f80_0000,
        (31, m) => sign | 0x7fc0_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Float → half rounding toward zero, as `_mesa_float_to_float16_rtz` (F16C `vcvtps2ph`
/// with rounding control 3): finite overflow → ±65504, NaN → quiet NaN with the top
/// payload bits, results below the half range truncate to subnormals or ±0.
fn f32_to_half_rtz(f: f32) -> u16 {
    let u = f.to_bits();
    let sign = ((u >> 16) & 0x8000) as u16;
    let exp = ((u >> 23) & 0xff) as i32;
    let mant = u & 0x7f_ffff;
    if exp == 0xff {
        return if mant != 0 {
            sign | 0x7e00 | (mant >> 13) as u16
        } else {
            sign | 0x7c00
        };
    }
    if exp == 0 {
        // Float32 zero or subnormal: far below the smallest half subnormal.
        return sign;
    }
    let e = exp - 127;
    if e > 15 {
        return sign | 0x7bff;
    }
    if e >= -14 {
        return sign | (((e + 15) as u16) << 10) | (mant >> 13) as u16;
    }
    // Half subnormal: floor(|f| · 2²⁴) = significand >> (−e − 1).
    let shift = (-e - 1) as u32;
    let m = if shift >= 32 {
        0
    } else {
        (mant | 0x80_0000) >> shift
    };
    sign | m as u16
}

/// `uf11_to_f32` of `format_r11g11b10f.h`.
fn uf11_to_f32(v: u32) -> f32 {
    small_float_to_f32(v, 6)
}

/// `uf10_to_f32` of `format_r11g11b10f.h`.
fn uf10_to_f32(v: u32) -> f32 {
    small_float_to_f32(v, 5)
}

/// An unsigned float with a 5-bit exponent (bias 15) and `mbits` of mantissa.
fn small_float_to_f32(v: u32, mbits: u32) -> f32 {
    let exp = (v >> mbits) & 0x1f;
    let mant = v & ((1 << mbits) - 1);
    match exp {
        0 => {
            // Denormal: mantissa · 2^(−14 − mbits), exact.
            mant as f32 * (1.0f32 / (1u32 << (14 + mbits)) as f32)
        }
        31 => f32::from_bits(0x7f80_0000 | mant),
        e => {
            let e = e as i32 - 15;
            let scale = if e < 0 {
                1.0f32 / (1u32 << -e) as f32
            } else {
                (1u32 << e) as f32
            };
            scale * (1.0 + mant as f32 / (1u32 << mbits) as f32)
        }
    }
}

/// `f32_to_uf11` of `format_r11g11b10f.h`.
fn f32_to_uf11(f: f32) -> u32 {
    f32_to_small_float(f, 6, 65024.0)
}

/// `f32_to_uf10` of `format_r11g11b10f.h`.
fn f32_to_uf10(f: f32) -> u32 {
    f32_to_small_float(f, 5, 64512.0)
}

/// Float → unsigned small float (5-bit exponent, `mbits` mantissa), truncating: negative
/// values and −Inf → 0, NaN → exponent 31 mantissa 1, +Inf → Inf, finite values above
/// `max` → `max`, values below 2⁻¹⁴ → 0.
fn f32_to_small_float(f: f32, mbits: u32, max: f32) -> u32 {
    let u = f.to_bits();
    let negative = u >> 31 != 0;
    let exp = ((u >> 23) & 0xff) as i32 - 127;
    let mant = u & 0x7f_ffff;
    if exp == 128 {
        return if mant != 0 {
            (31 << mbits) | 1
        } else if negative {
            0
        } else {
            31 << mbits
        };
    }
    if negative {
        return 0;
    }
    if f > max {
        return (30 << mbits) | ((1 << mbits) - 1);
    }
    if exp > -15 {
        return (((exp + 15) as u32) << mbits) | (mant >> (23 - mbits));
    }
    0
}

/// `rgb9e5_to_float3` of `format_rgb9e5.h`.
fn rgb9e5_to_f32(w: u32) -> [f32; 3] {
    let exp = (w >> 27) as i32 - 15 - 9;
    let scale = f32::from_bits(((exp + 127) as u32) << 23);
    [w & 0x1ff, (w >> 9) & 0x1ff, (w >> 18) & 0x1ff].map(|m| m as f32 * scale)
}

/// `float3_to_rgb9e5` of `format_rgb9e5.h`.
fn f32_to_rgb9e5(rgb: [f32; 3]) -> u32 {
    // MAX_RGB9E5 = 511/512 · 2¹⁶.
    let max_bits = 65408.0f32.to_bits();
    let clamp_range = |x: f32| {
        let u = x.to_bits();
        if u > 0x7f80_0000 {
            0 // negative values and NaNs
        } else if u >= max_bits {
            max_bits
        } else {
            u
        }
    };
    let c = rgb.map(clamp_range);
    let mut maxrgb = c[0].max(c[1]).max(c[2]);
    maxrgb += maxrgb & (1 << (23 - 9));
    let exp_shared = (maxrgb >> 23).max(127 - 15 - 1) + 1 + 15 - 127;
    let revdenom = f32::from_bits((127 - (exp_shared as i32 - 15 - 9) + 1) as u32 * (1 << 23));
    let m = c.map(|u| {
        let v = (f32::from_bits(u) * revdenom) as i32;
        ((v & 1) + (v >> 1)) as u32
    });
    (exp_shared << 27) | (m[2] << 18) | (m[1] << 9) | m[0]
}

/// `util_format_srgb_8unorm_to_linear_float_table`: Mesa's generator evaluates the sRGB
/// curve in double for i/255, prints it with 8 significant digits (`%.7e`), and the C
/// compiler rounds that to float; the same steps here give the same 256 values.
fn srgb_table() -> &'static [f32; 256] {
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let x = i as f64 / 255.0;
            let lin = if x <= 0.04045 {
                x / 12.92
            } else {
                ((x + 0.055) / 1.055).powf(2.4)
            };
            format!("{lin:.7e}").parse::<f32>().unwrap_or(0.0)
        })
    })
}

/// `util_format_linear_to_srgb_helper_table` of Mesa 22.3 (output of its
/// `format_srgb.py`): per bucket of the float exponent/top mantissa bits, bias (high 16
/// bits) and slope (low 16 bits) of a linear fit.
const LINEAR_TO_SRGB_HELPER: [u32; 104] = [
    0x0073000d, 0x007a000d, 0x0080000d, 0x0087000d, 0x008d000d, 0x0094000d, 0x009a000d, 0x00a1000d,
    0x00a7001a, 0x00b4001a, 0x00c1001a, 0x00ce001a, 0x00da001a, 0x00e7001a, 0x00f4001a, 0x0101001a,
    0x010e0033, 0x01280033, 0x01410033, 0x015b0033, 0x01750033, 0x018f0033, 0x01a80033, 0x01c20033,
    0x01dc0067, 0x020f0067, 0x02430067, 0x02760067, 0x02aa0067, 0x02dd0067, 0x03110067, 0x03440067,
    0x037800ce, 0x03df00ce, 0x044600ce, 0x04ad00ce, 0x051400ce, 0x057b00c5, 0x05dd00bc, 0x063b00b5,
    0x06970158, 0x07420142, 0x07e30130, 0x087b0120, 0x090b0112, 0x09940106, 0x0a1700fc, 0x0a9500f2,
    0x0b0f01cb, 0x0bf401ae, 0x0ccb0195, 0x0d950180, 0x0e56016e, 0x0f0d015e, 0x0fbc0150, 0x10630143,
    0x11070264, 0x1238023e, 0x1357021d, 0x14660201, 0x156601e9, 0x165a01d3, 0x174401c0, 0x182401af,
    0x18fe0331, 0x1a9602fe, 0x1c1502d2, 0x1d7e02ad, 0x1ed4028d, 0x201a0270, 0x21520256, 0x227d0240,
    0x239f0443, 0x25c003fe, 0x27bf03c4, 0x29a10392, 0x2b6a0367, 0x2d1d0341, 0x2ebe031f, 0x304d0300,
    0x31d105b0, 0x34a80555, 0x37520507, 0x39d504c5, 0x3c37048b, 0x3e7c0458, 0x40a8042a, 0x42bd0401,
    0x44c20798, 0x488e071e, 0x4c1c06b6, 0x4f76065d, 0x52a50610, 0x55ac05cc, 0x5892058f, 0x5b590559,
    0x5e0c0a23, 0x631c0980, 0x67db08f6, 0x6c55087f, 0x70940818, 0x74a007bd, 0x787d076c, 0x7c330723,
];

/// `util_format_linear_float_to_srgb_8unorm`: clamp to [2⁻¹³, 1−ε] (NaN → 2⁻¹³), then
/// the table's linear interpolation on the float's bits.
fn linear_float_to_srgb_8unorm(x: f32) -> u8 {
    let almost_one = f32::from_bits(0x3f7f_ffff);
    let min_bits = (127 - 13) << 23;
    let min = f32::from_bits(min_bits);
    let mut x = x;
    if x.is_nan() || x <= min {
        x = min;
    }
    if x > almost_one {
        x = almost_one;
    }
    let u = x.to_bits();
    let tab = LINEAR_TO_SRGB_HELPER[((u - min_bits) >> 20) as usize];
    let bias = (tab >> 16) << 9;
    let scale = tab & 0xffff;
    let t = (u >> 12) & 0xff;
    ((bias + scale * t) >> 16) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(name: &str) -> Format {
        Format::from_name(&format!("PIPE_FORMAT_{name}"))
            .unwrap_or_else(|| panic!("no format {name}"))
    }

    #[test]
    fn byte_unorm_fast_path_matches_unpack() {
        let mut covered = 0;
        for f in (0..1024u16).map(Format).filter(|f| f.is_known()) {
            let Some(w) = byte_word(f) else {
                continue;
            };
            covered += 1;
            let n = texel_bytes(f).unwrap_or(0);
            for v in 0..=255u8 {
                let texel: Vec<u8> = (0..n).map(|k| v.wrapping_add(k as u8 * 37)).collect();
                let mut word = [0u8; 4];
                word[..n].copy_from_slice(&texel);
                assert_eq!(
                    w.unpack(u32::from_le_bytes(word)),
                    unpack(f, &texel),
                    "{f:?} {v}"
                );
            }
        }
        assert!(covered >= 10, "only {covered} byte-unorm formats");
        assert!(byte_word(fmt("R8G8B8A8_SRGB")).is_none());
        assert!(byte_word(fmt("R8G8B8A8_UINT")).is_none());
        assert!(byte_word(fmt("R8G8B8A8_UNORM")).is_some());
    }

    fn f(v: f32) -> u32 {
        v.to_bits()
    }

    #[test]
    fn unorm_snorm() {
        let rgba8 = fmt("R8G8B8A8_UNORM");
        let got = unpack(rgba8, &[0xc8, 0, 0xff, 0x01]);
        assert_eq!(
            got,
            [
                f(200.0f32 * (1.0 / 255.0)),
                0,
                f(1.0),
                f(1.0f32 * (1.0 / 255.0))
            ]
        );
        // 200·(1/255) in float32 differs from 200/255: the multiply form is what Mesa does.
        assert_ne!(got[0], f(200.0 / 255.0));
        // B8G8R8A8: bytes B, G, R, A.
        assert_eq!(
            unpack(fmt("B8G8R8A8_UNORM"), &[0xff, 0, 0, 0]),
            [0, 0, f(1.0), 0]
        );
        assert_eq!(
            unpack(fmt("A8R8G8B8_UNORM"), &[0xff, 0, 0, 0]),
            [0, 0, 0, f(1.0)]
        );
        assert_eq!(
            unpack(fmt("B8G8R8X8_UNORM"), &[0, 0, 0, 0x55]),
            [0, 0, 0, f(1.0)]
        );
        // snorm: no clamp, −128 → −128·(1/127).
        let s = unpack(fmt("R8G8B8A8_SNORM"), &[0x80, 0x81, 0x7f, 0]);
        assert_eq!(s, [f(-128.0f32 * (1.0 / 127.0)), f(-1.0), f(1.0), 0]);
        assert!(f32::from_bits(s[0]) < -1.0);
        let r16 = unpack(fmt("R16_UNORM"), &[0x00, 0x80]);
        assert_eq!(r16, [f(32768.0f32 * (1.0 / 65535.0)), 0, 0, f(1.0)]);
        let rg16s = unpack(fmt("R16G16_SNORM"), &[0x00, 0x80, 0xff, 0x7f]);
        assert_eq!(rg16s, [f(-32768.0f32 * (1.0 / 32767.0)), f(1.0), 0, f(1.0)]);
        // 32-bit unorm in double.
        let r32 = unpack(fmt("R32_UNORM"), &0x8000_0000u32.to_le_bytes());
        assert_eq!(r32[0], f((2147483648.0f64 / 4294967295.0) as f32));
    }

    #[test]
    fn packed_unorm_layouts() {
        // B5G6R5: B in bits 0-4, G 5-10, R 11-15.
        let w: u16 = (31 << 11) | (1 << 5) | 2;
        assert_eq!(
            unpack(fmt("B5G6R5_UNORM"), &w.to_le_bytes()),
            [
                f(1.0),
                f(1.0f32 * (1.0 / 63.0)),
                f(2.0f32 * (1.0 / 31.0)),
                f(1.0)
            ]
        );
        // R5G6B5: R in the low bits.
        assert_eq!(
            unpack(fmt("R5G6B5_UNORM"), &w.to_le_bytes())[0],
            f(2.0f32 * (1.0 / 31.0))
        );
        // B5G5R5A1: A is bit 15.
        let w: u16 = 0x8000 | (3 << 10);
        assert_eq!(
            unpack(fmt("B5G5R5A1_UNORM"), &w.to_le_bytes()),
            [f(3.0f32 * (1.0 / 31.0)), 0, 0, f(1.0)]
        );
        // A1B5G5R5: A is bit 0, R bits 11-15.
        let w: u16 = 1 | (31 << 11);
        assert_eq!(
            unpack(fmt("A1B5G5R5_UNORM"), &w.to_le_bytes()),
            [f(1.0), 0, 0, f(1.0)]
        );
        // B4G4R4A4: B bits 0-3 … A bits 12-15.
        let w: u16 = 0xf001;
        assert_eq!(
            unpack(fmt("B4G4R4A4_UNORM"), &w.to_le_bytes()),
            [0, 0, f(1.0f32 * (1.0 / 15.0)), f(1.0)]
        );
        // R10G10B10A2: R bits 0-9 … A bits 30-31.
        let w: u32 = 512 | (1023 << 10) | (3 << 30);
        assert_eq!(
            unpack(fmt("R10G10B10A2_UNORM"), &w.to_le_bytes()),
            [f(512.0f32 * (1.0 / 1023.0)), f(1.0), 0, f(1.0)]
        );
        assert_eq!(
            unpack(fmt("B10G10R10A2_UNORM"), &w.to_le_bytes())[2],
            f(512.0f32 * (1.0 / 1023.0))
        );
        // snorm 10/2: 512 = −512, alpha 3 = −1 (sn2: −1·(1/1)).
        assert_eq!(
            unpack(fmt("R10G10B10A2_SNORM"), &w.to_le_bytes()),
            [
                f(-512.0f32 * (1.0 / 511.0)),
                f(-(1.0f32 / 511.0)),
                0,
                f(-1.0)
            ]
        );
        assert_eq!(
            unpack(fmt("R10G10B10A2_UINT"), &w.to_le_bytes()),
            [512, 1023, 0, 3]
        );
    }

    #[test]
    fn luminance_alpha_intensity() {
        let l = f(0x40 as f32 * (1.0 / 255.0));
        let a = f(0xc0 as f32 * (1.0 / 255.0));
        assert_eq!(unpack(fmt("L8_UNORM"), &[0x40]), [l, l, l, f(1.0)]);
        assert_eq!(unpack(fmt("A8_UNORM"), &[0x40]), [0, 0, 0, l]);
        assert_eq!(unpack(fmt("I8_UNORM"), &[0x40]), [l, l, l, l]);
        assert_eq!(unpack(fmt("L8A8_UNORM"), &[0x40, 0xc0]), [l, l, l, a]);
        assert_eq!(unpack(fmt("R8_UNORM"), &[0x40]), [l, 0, 0, f(1.0)]);
        assert_eq!(unpack(fmt("R8G8_UNORM"), &[0x40, 0xc0]), [l, a, 0, f(1.0)]);
        assert_eq!(unpack(fmt("L8A8_UINT"), &[7, 9]), [7, 7, 7, 9]);
    }

    #[test]
    fn scaled_fixed_and_wide_floats() {
        assert_eq!(
            unpack(fmt("R8G8_SSCALED"), &[0xff, 0x7f]),
            [f(-1.0), f(127.0), 0, f(1.0)]
        );
        assert_eq!(
            unpack(fmt("R32_USCALED"), &u32::MAX.to_le_bytes())[0],
            f(4294967296.0)
        );
        assert_eq!(
            unpack(fmt("R32_FIXED"), &(-0x18000i32).to_le_bytes())[0],
            f(-1.5)
        );
        assert_eq!(
            unpack(fmt("R64_FLOAT"), &0.1f64.to_le_bytes()),
            [f(0.1f64 as f32), 0, 0, f(1.0)]
        );
        // 64-bit integers clamp to 32 bits.
        assert_eq!(
            unpack(fmt("R64_UINT"), &(1u64 << 40).to_le_bytes())[0],
            u32::MAX
        );
        assert_eq!(
            unpack(fmt("R64_SINT"), &(-(1i64 << 40)).to_le_bytes())[0],
            i32::MIN as u32
        );
        assert_eq!(
            unpack(fmt("R64_SINT"), &(-5i64).to_le_bytes())[0],
            -5i32 as u32
        );
    }

    #[test]
    fn half_floats() {
        let texel = [0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0xff, 0x7b];
        assert_eq!(
            unpack(fmt("R16G16B16A16_FLOAT"), &texel),
            [f(1.0), f(-2.0), f(2.0f32.powi(-24)), f(65504.0)]
        );
        assert_eq!(half_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(half_to_f32(0xfc00), f32::NEG_INFINITY);
        assert_eq!(half_to_f32(0x8000).to_bits(), 0x8000_0000);
        assert_eq!(half_to_f32(0x83ff), -1023.0 * 2.0f32.powi(-24));
        assert_eq!(half_to_f32(0x0400), 2.0f32.powi(-14));
        // NaNs come back quiet with the payload shifted up (F16C).
        assert_eq!(half_to_f32(0x7c01).to_bits(), 0x7fc0_2000);
        assert_eq!(half_to_f32(0xfe01).to_bits(), 0xffc0_2000);
        // Every finite half round-trips through the truncating packer.
        for h in 0..=u16::MAX {
            if h & 0x7c00 != 0x7c00 {
                assert_eq!(f32_to_half_rtz(half_to_f32(h)), h, "{h:#x}");
            }
        }
        // Round toward zero, overflow to the largest finite, NaN quiet (as F16C, measured).
        for (x, h) in [
            (0x7f80_0001u32, 0x7e00u16),
            (0x7fc0_0000, 0x7e00),
            (0x7f80_2001, 0x7e01),
            (0xff80_0000, 0xfc00),
            (0x7f80_0000, 0x7c00),
            (0x477f_ffff, 0x7bff),
            (0x4780_0000, 0x7bff),
            (0x0000_0001, 0x0000),
            (0x3380_0000, 0x0001),
            (0x337f_ffff, 0x0000),
            (0x3880_0000, 0x0400),
            (0x387f_ffff, 0x03ff),
            (0xc77f_ffff, 0xfbff),
            (0x3f7f_ffff, 0x3bff),
            (0x7fff_ffff, 0x7fff),
            (0x7f90_0000, 0x7e80),
        ] {
            assert_eq!(f32_to_half_rtz(f32::from_bits(x)), h, "{x:#x}");
        }
    }

    #[test]
    fn r11g11b10_by_hand() {
        // R = 1.0 (exp 15, mant 0), G = 0.5 + 0.5/64·… : exp 14 mant 32 → 0.75,
        // B (10-bit) = exp 16 mant 16 → 2 · 1.5 = 3.
        let w: u32 = (15 << 6) | (((14 << 6) | 32) << 11) | (((16 << 5) | 16) << 22);
        assert_eq!(
            unpack(fmt("R11G11B10_FLOAT"), &w.to_le_bytes()),
            [f(1.0), f(0.75), f(3.0), f(1.0)]
        );
        // Denormals: mantissa·2⁻²⁰ (11-bit), ·2⁻¹⁹ (10-bit); exponent 31: Inf/NaN bits.
        let w: u32 = 3 | ((31 << 6) << 11) | (((31 << 5) | 1) << 22);
        let got = unpack(fmt("R11G11B10_FLOAT"), &w.to_le_bytes());
        assert_eq!(got[0], f(3.0 * 2.0f32.powi(-20)));
        assert_eq!(got[1], 0x7f80_0000);
        assert_eq!(got[2], 0x7f80_0001);
        let mut out = [0u8; 4];
        let rgba = [f(1.0), f(0.75), f(3.0), f(0.25)];
        assert_eq!(pack(fmt("R11G11B10_FLOAT"), rgba, &mut out), Some(4));
        let w: u32 = (15 << 6) | (((14 << 6) | 32) << 11) | (((16 << 5) | 16) << 22);
        assert_eq!(u32::from_le_bytes(out), w);
        // Negative → 0, NaN → exp 31 mant 1, huge → max finite, tiny → 0, truncation.
        assert_eq!(f32_to_uf11(-1.0), 0);
        assert_eq!(f32_to_uf11(f32::NEG_INFINITY), 0);
        assert_eq!(f32_to_uf11(f32::NAN), (31 << 6) | 1);
        assert_eq!(f32_to_uf11(f32::INFINITY), 31 << 6);
        assert_eq!(f32_to_uf11(1e9), (30 << 6) | 63);
        assert_eq!(f32_to_uf10(1e9), (30 << 5) | 31);
        assert_eq!(f32_to_uf11(1e-6), 0);
        assert_eq!(f32_to_uf11(1.0 + 1.0 / 64.0 - 1e-7), 15 << 6);
    }

    #[test]
    fn rgb9e5_by_hand() {
        // Exponent 15 + 9 → scale 2⁰ … here exp field 16: scale 2^(16−24) = 1/256.
        let w: u32 = (16 << 27) | (256 << 18) | (128 << 9) | 511;
        assert_eq!(
            unpack(fmt("R9G9B9E5_FLOAT"), &w.to_le_bytes()),
            [f(511.0 / 256.0), f(0.5), f(1.0), f(1.0)]
        );
        let mut out = [0u8; 4];
        pack(
            fmt("R9G9B9E5_FLOAT"),
            [f(1.0), f(0.5), f(0.25), 0],
            &mut out,
        );
        // max 1.0 → exp_shared = 0 + 1 + 15 = 16: mantissas 256, 128, 64.
        assert_eq!(
            u32::from_le_bytes(out),
            (16 << 27) | (64 << 18) | (128 << 9) | 256
        );
        // Negative and NaN → 0, huge → 65408 (mantissa 511, exponent 31).
        assert_eq!(f32_to_rgb9e5([-1.0, f32::NAN, 0.0]), 0);
        assert_eq!(f32_to_rgb9e5([1e9, 0.0, 0.0]), (31 << 27) | 511);
        // Rounding up carries into the exponent: 511.75/512·2 → exponent bumps.
        let x = f32::from_bits(0x3fff_f000); // 1.9999695
        let w = f32_to_rgb9e5([x, 0.0, 0.0]);
        assert_eq!(rgb9e5_to_f32(w)[0], 2.0);
    }

    #[test]
    fn srgb() {
        let t = srgb_table();
        // Entries of Mesa's generated util_format_srgb_8unorm_to_linear_float_table, as
        // printed there.
        for (i, text) in [
            (0, "0.0000000e+00"),
            (1, "3.0352698e-04"),
            (10, "3.0352698e-03"),
            (128, "2.1586050e-01"),
            (200, "5.7758044e-01"),
            (255, "1.0000000e+00"),
        ] {
            assert_eq!(Ok(t[i]), text.parse::<f32>(), "entry {i}");
        }
        let l = t[0x80].to_bits();
        assert_eq!(
            unpack(fmt("R8G8B8A8_SRGB"), &[0x80, 0x80, 0x80, 0x80]),
            [l, l, l, f(128.0f32 * (1.0 / 255.0))]
        );
        // Alpha stays linear wherever it is stored.
        assert_eq!(
            unpack(fmt("A8B8G8R8_SRGB"), &[0x80, 0, 0, 0x80]),
            [l, 0, 0, f(128.0f32 * (1.0 / 255.0))]
        );
        assert_eq!(unpack(fmt("L8_SRGB"), &[0x80]), [l, l, l, f(1.0)]);
        assert_eq!(
            unpack(fmt("L8A8_SRGB"), &[0x80, 0x80]),
            [l, l, l, f(128.0f32 * (1.0 / 255.0))]
        );
        // 5-bit sRGB widened by bit replication: 0b10000 → 0b10000100.
        let w: u16 = 16 << 11;
        assert_eq!(
            unpack(fmt("B5G6R5_SRGB"), &w.to_le_bytes())[0],
            t[0b1000_0100].to_bits()
        );
        // Encoding: 0 → 0, 1 → 255, NaN → 0, and every decoded value encodes back.
        assert_eq!(linear_float_to_srgb_8unorm(0.0), 0);
        assert_eq!(linear_float_to_srgb_8unorm(1.0), 255);
        assert_eq!(linear_float_to_srgb_8unorm(f32::NAN), 0);
        for (i, v) in t.iter().enumerate() {
            assert_eq!(usize::from(linear_float_to_srgb_8unorm(*v)), i);
        }
        let mut out = [0u8; 4];
        pack(fmt("R8G8B8A8_SRGB"), [l, 0, f(1.0), f(0.5)], &mut out);
        assert_eq!(out, [0x80, 0, 0xff, float_to_ubyte(0.5)]);
    }

    #[test]
    fn depth_stencil_replicate() {
        let z16 = f(0x8000 as f32 * (1.0 / 65535.0));
        assert_eq!(unpack(fmt("Z16_UNORM"), &[0, 0x80]), [z16; 4]);
        let z24 = f(((1.0f64 / 16777215.0) * 0x80_0000 as f64) as f32);
        // Z24_UNORM_S8_UINT: Z in bits 0-23, S in 24-31 (ignored).
        let w: u32 = 0xab80_0000;
        assert_eq!(unpack(fmt("Z24_UNORM_S8_UINT"), &w.to_le_bytes()), [z24; 4]);
        assert_eq!(unpack(fmt("Z24X8_UNORM"), &w.to_le_bytes()), [z24; 4]);
        // S8_UINT_Z24_UNORM: S in bits 0-7, Z above.
        let w: u32 = 0x8000_00ab;
        assert_eq!(unpack(fmt("S8_UINT_Z24_UNORM"), &w.to_le_bytes()), [z24; 4]);
        assert_eq!(unpack(fmt("X8Z24_UNORM"), &w.to_le_bytes()), [z24; 4]);
        let z32 = unpack(fmt("Z32_UNORM"), &u32::MAX.to_le_bytes());
        assert_eq!(z32, [f(1.0); 4]);
        assert_eq!(
            unpack(fmt("Z32_FLOAT"), &0.25f32.to_le_bytes()),
            [f(0.25); 4]
        );
        let mut zs = [0u8; 8];
        zs[..4].copy_from_slice(&0.75f32.to_le_bytes());
        zs[4] = 9;
        assert_eq!(unpack(fmt("Z32_FLOAT_S8X24_UINT"), &zs), [f(0.75); 4]);
        assert_eq!(unpack(fmt("X32_S8X24_UINT"), &zs), [9; 4]);
        assert_eq!(unpack(fmt("S8_UINT"), &[200]), [200; 4]);
        assert_eq!(
            unpack(fmt("X24S8_UINT"), &0x0700_0000u32.to_le_bytes()),
            [7; 4]
        );
        assert_eq!(
            unpack(fmt("S8X24_UINT"), &0x0100_0007u32.to_le_bytes()),
            [7; 4]
        );
        assert_eq!(pack(fmt("Z16_UNORM"), [0; 4], &mut [0u8; 2]), None);
        assert!(is_depth(fmt("Z24_UNORM_S8_UINT")) && is_stencil(fmt("Z24_UNORM_S8_UINT")));
        assert!(!is_depth(fmt("S8_UINT")) && is_pure_integer(fmt("S8_UINT")));
        assert_eq!(class(fmt("Z16_UNORM")), Some(NumClass::Unorm));
        assert_eq!(class(fmt("Z32_FLOAT_S8X24_UINT")), Some(NumClass::Float));
        assert_eq!(class(fmt("S8_UINT")), Some(NumClass::Uint));
    }

    #[test]
    fn integers_unpack_and_clamp_on_pack() {
        assert_eq!(unpack(fmt("R8_UINT"), &[200]), [200, 0, 0, 1]);
        assert_eq!(
            unpack(fmt("R8G8B8A8_SINT"), &[0x80, 0x7f, 0xff, 0]),
            [-128i32 as u32, 127, -1i32 as u32, 0]
        );
        assert_eq!(
            unpack(fmt("R16G16_SINT"), &[0x00, 0x80, 0x05, 0x00]),
            [-32768i32 as u32, 5, 0, 1]
        );
        let mut out = [0u8; 4];
        // UINT packs clamp to the channel maximum.
        assert_eq!(
            pack(fmt("R8G8B8A8_UINT"), [300, 255, 0, u32::MAX], &mut out),
            Some(4)
        );
        assert_eq!(out, [255, 255, 0, 255]);
        // SINT packs clamp to the signed range.
        let v = [-200i32, 200, -5, 127].map(|x| x as u32);
        pack(fmt("R8G8B8A8_SINT"), v, &mut out);
        assert_eq!(out, [0x80, 0x7f, 0xfb, 0x7f]);
        // 10/10/10/2 UINT: each field clamped, then placed.
        pack(fmt("R10G10B10A2_UINT"), [5000, 7, 1023, 9], &mut out);
        assert_eq!(
            u32::from_le_bytes(out),
            1023 | (7 << 10) | (1023 << 20) | (3 << 30)
        );
        // Round trips of every 8- and 16-bit integer format value.
        for name in [
            "R8_UINT", "R8_SINT", "R16_UINT", "R16_SINT", "R32_UINT", "R32_SINT",
        ] {
            let format = fmt(name);
            let n = texel_bytes(format).unwrap_or(0);
            for v in [
                0u32,
                1,
                0x7f,
                0x80,
                0xff,
                0x7fff,
                0x8000,
                0xffff,
                0xdead_beef,
            ] {
                let mut t = [0u8; 4];
                let bytes = &v.to_le_bytes()[..n];
                t[..n].copy_from_slice(bytes);
                let rgba = unpack(format, &t);
                let mut back = [0u8; 4];
                assert_eq!(pack(format, rgba, &mut back), Some(n));
                assert_eq!(&back[..n], bytes, "{name} {v:#x}");
            }
        }
        // L8A8_UINT: L from R, A from A; the G and B inputs are not stored.
        let mut la = [0u8; 2];
        pack(fmt("L8A8_UINT"), [3, 4, 5, 6], &mut la);
        assert_eq!(la, [3, 6]);
    }

    #[test]
    fn float_packing_rounds_like_mesa() {
        let mut out = [0u8; 4];
        let rgba8 = fmt("R8G8B8A8_UNORM");
        pack(rgba8, [f(0.5), f(-1.0), f(2.0), f(f32::NAN)], &mut out);
        assert_eq!(out, [128, 0, 255, 0]);
        // Every 8-bit value round-trips.
        for v in 0..=255u8 {
            pack(rgba8, unpack(rgba8, &[v, v, v, v]), &mut out);
            assert_eq!(out, [v; 4]);
        }
        // 16-bit unorm: clamp, ·65535, round half away from zero.
        let mut o2 = [0u8; 2];
        pack(fmt("R16_UNORM"), [f(0.5), 0, 0, 0], &mut o2);
        assert_eq!(u16::from_le_bytes(o2), 32768); // 32767.5 → 32768
        pack(fmt("R16_UNORM"), [f(f32::NAN), 0, 0, 0], &mut o2);
        assert_eq!(u16::from_le_bytes(o2), 0);
        pack(fmt("R16_SNORM"), [f(-2.0), 0, 0, 0], &mut o2);
        assert_eq!(i16::from_le_bytes(o2), -32767);
        pack(fmt("R16_SNORM"), [f(f32::NAN), 0, 0, 0], &mut o2);
        assert_eq!(i16::from_le_bytes(o2), -32767);
        pack(
            fmt("R8G8B8A8_SNORM"),
            [f(0.5), f(-0.5), f(1.5), f(-0.0)],
            &mut out,
        );
        assert_eq!(out, [64, (-64i8) as u8, 127, 0]); // 63.5 → 64, −63.5 → −64
                                                      // util_iround adds 0.5 in float32: 0.49999997 + 0.5 rounds to 1.0.
        assert_eq!(util_iround(0.49999997), 1);
        // 5/6/5 packing.
        pack(fmt("B5G6R5_UNORM"), [f(1.0), f(0.5), f(0.0), 0], &mut o2);
        assert_eq!(u16::from_le_bytes(o2), (31 << 11) | (32 << 5)); // 31.5 → 32
                                                                    // 32-bit unorm truncates in double.
        pack(fmt("R32_UNORM"), [f(0.5), 0, 0, 0], &mut out);
        assert_eq!(u32::from_le_bytes(out), 2147483647);
        // Half packing truncates.
        let mut h = [0u8; 8];
        // 1 + 0x1fff·2⁻²³ is nearer to 0x3c01 than to 0x3c00; ±1e6 → ±65504.
        let near_one = f32::from_bits(0x3f80_1fff);
        pack(
            fmt("R16G16B16A16_FLOAT"),
            [f(near_one), f(1e6), f(-1e6), f(1.0)],
            &mut h,
        );
        assert_eq!(h, [0x00, 0x3c, 0xff, 0x7b, 0xff, 0xfb, 0x00, 0x3c]);
        // USCALED/SSCALED: clamp then truncate; the 32-bit bounds are 24-bit floats.
        pack(
            fmt("R8G8B8A8_USCALED"),
            [f(2.9), f(300.0), f(-1.0), f(f32::NAN)],
            &mut out,
        );
        assert_eq!(out, [2, 255, 0, 0]);
        pack(
            fmt("R8G8B8A8_SSCALED"),
            [f(-2.9), f(300.0), f(-300.0), 0],
            &mut out,
        );
        assert_eq!(out, [(-2i8) as u8, 127, 0x80, 0]);
        pack(fmt("R32_USCALED"), [f(5e9), 0, 0, 0], &mut out);
        assert_eq!(u32::from_le_bytes(out), 0xffff_ff00);
        pack(fmt("R32_SSCALED"), [f(5e9), 0, 0, 0], &mut out);
        assert_eq!(i32::from_le_bytes(out), 0x7fff_ff80);
        pack(fmt("R32_FIXED"), [f(-1.5), 0, 0, 0], &mut out);
        assert_eq!(i32::from_le_bytes(out), -0x18000);
        // Fixed point beyond ±32768 overflows int32: the clamp bounds give INT32_MIN/MAX,
        // values in between the x86 "integer indefinite" INT32_MIN (as GCC built Mesa).
        for (x, want) in [(40000.0f32, i32::MIN), (1e9, i32::MAX), (-1e9, i32::MIN)] {
            pack(fmt("R32_FIXED"), [f(x), 0, 0, 0], &mut out);
            assert_eq!(i32::from_le_bytes(out), want, "{x}");
        }
        // SSCALED inside one unsigned word: in-range negatives are two's complement, the
        // clamped lower bound (and NaN) comes out as 0.
        let r10 = fmt("R10G10B10A2_SSCALED");
        pack(r10, [f(-3.7), f(-1e9), f(600.0), f(-1.5)], &mut out);
        assert_eq!(u32::from_le_bytes(out), 0x3fd | (511 << 20) | (3 << 30));
        pack(r10, [f(f32::NAN), 0, 0, f(-2.0)], &mut out);
        assert_eq!(u32::from_le_bytes(out), 0);
        // …whereas byte-array SSCALED formats store the bound.
        pack(fmt("R8G8B8A8_SSCALED"), [f(-1e9), 0, 0, 0], &mut out);
        assert_eq!(out[0], 0x80);
        // X channels are written as 0; the alpha input is ignored.
        pack(
            fmt("R8G8B8X8_UNORM"),
            [f(1.0), f(1.0), f(1.0), f(1.0)],
            &mut out,
        );
        assert_eq!(out, [255, 255, 255, 0]);
        // A8 takes alpha, I8 and L8 take red.
        let mut one = [0u8; 1];
        pack(fmt("A8_UNORM"), [0, 0, 0, f(1.0)], &mut one);
        assert_eq!(one, [255]);
        pack(fmt("I8_UNORM"), [f(1.0), 0, 0, 0], &mut one);
        assert_eq!(one, [255]);
    }

    #[test]
    fn texture_and_image_formats_are_known() {
        // The texref formats (as st/mesa stores them on softpipe) and the image formats.
        for (name, bytes) in [
            ("R8G8B8A8_UNORM", 4),
            ("R8G8B8A8_SNORM", 4),
            ("R8G8B8A8_SRGB", 4),
            ("B8G8R8A8_SRGB", 4),
            ("R8_UNORM", 1),
            ("R8G8_UNORM", 2),
            ("R16_UNORM", 2),
            ("R16G16_SNORM", 4),
            ("R16G16B16A16_UNORM", 8),
            ("L8_UNORM", 1),
            ("A8_UNORM", 1),
            ("L8A8_UNORM", 2),
            ("I8_UNORM", 1),
            ("B5G6R5_UNORM", 2),
            ("B5G5R5A1_UNORM", 2),
            ("B4G4R4A4_UNORM", 2),
            ("R10G10B10A2_UNORM", 4),
            ("R11G11B10_FLOAT", 4),
            ("R9G9B9E5_FLOAT", 4),
            ("R32_FLOAT", 4),
            ("R32G32_FLOAT", 8),
            ("R32G32B32A32_FLOAT", 16),
            ("R16G16B16A16_FLOAT", 8),
            ("R8_UINT", 1),
            ("R16G16_SINT", 4),
            ("R16G16B16A16_UINT", 8),
            ("R32G32B32A32_SINT", 16),
            ("R32G32B32A32_UINT", 16),
            ("R8G8B8A8_SINT", 4),
            ("Z32_FLOAT", 4),
            ("Z16_UNORM", 2),
            ("Z24_UNORM_S8_UINT", 4),
            ("R32_UINT", 4),
            ("R32_SINT", 4),
            ("R32G32_UINT", 8),
            ("R8G8B8A8_UINT", 4),
            ("R16_FLOAT", 2),
            ("R16G16_UNORM", 4),
        ] {
            assert_eq!(texel_bytes(fmt(name)), Some(bytes), "{name}");
        }
    }

    #[test]
    fn unknown_and_short() {
        assert_eq!(unpack(Format::NONE, &[1, 2, 3, 4]), [0; 4]);
        assert_eq!(unpack(fmt("R32G32B32A32_FLOAT"), &[0; 15]), [0; 4]);
        assert_eq!(
            pack(fmt("R32G32B32A32_FLOAT"), [0; 4], &mut [0u8; 15]),
            None
        );
        assert_eq!(pack(fmt("DXT1_RGB"), [0; 4], &mut [0u8; 16]), None);
        assert_eq!(texel_bytes(fmt("DXT1_RGB")), None);
        assert_eq!(class(Format(60000)), None);
    }

    #[test]
    fn classes() {
        for (name, c) in [
            ("R8G8B8A8_UNORM", NumClass::Unorm),
            ("R8G8B8A8_SRGB", NumClass::Unorm),
            ("R8G8B8A8_SNORM", NumClass::Snorm),
            ("R16G16B16A16_FLOAT", NumClass::Float),
            ("R8G8B8A8_USCALED", NumClass::Float),
            ("R11G11B10_FLOAT", NumClass::Float),
            ("R32_UINT", NumClass::Uint),
            ("X8B8G8R8_SINT", NumClass::Sint),
        ] {
            assert_eq!(class(fmt(name)), Some(c), "{name}");
        }
        assert!(is_srgb(fmt("B8G8R8A8_SRGB")) && !is_srgb(fmt("B8G8R8A8_UNORM")));
        assert!(is_pure_sint(fmt("R32_SINT")) && is_pure_uint(fmt("R32_UINT")));
        assert_eq!(nr_components(fmt("R8G8B8X8_UNORM")), Some(4));
        assert_eq!(nr_components(fmt("R32G32_FLOAT")), Some(2));
    }
}
