//! The layout of every Gallium texel format softpipe reads or writes texel by texel: block
//! size, channels, the swizzle to RGBA and the colour space — the one table of format
//! knowledge, next to [`crate::pipe_format`].
//!
//! The rows are the facts of Mesa 22.3's `src/util/format/u_format.csv` (little-endian
//! columns) for every `plain` format of the `rgb`, `srgb` and `zs` colour spaces, plus the two
//! packed-float `other` formats (`R11G11B10_FLOAT`, `R9G9B9E5_FLOAT`). Left out: compressed,
//! subsampled, planar and YUV formats, `R1_UNORM`, `R8G8Bx_SNORM`, and `Z16_UNORM_S8_UINT`
//! (util_format has no RGBA unpack for it and softpipe's tile code does not read it).
//!
//! Conventions (as `u_format_parse.py`): channel 0 occupies the lowest bits of the texel
//! (the lowest bytes in memory, little-endian), each next channel follows it; the swizzle
//! says, for R, G, B, A in turn, which channel (or constant) gives that component. For
//! depth/stencil formats swizzle component 0 is depth and component 1 stencil.
//!
//! ```
//! use tgsi::pipe_format_layout::{ChannelKind, Colorspace, Swizzle};
//! let l = tgsi::Format::from_name("PIPE_FORMAT_B8G8R8A8_UNORM").unwrap().layout().unwrap();
//! assert_eq!(l.block_bytes(), 4);
//! assert_eq!(l.channels[0].kind, ChannelKind::Unsigned);
//! assert!(l.channels[0].norm);
//! assert_eq!(l.swizzle, [Swizzle::Z, Swizzle::Y, Swizzle::X, Swizzle::W]);
//! assert_eq!(l.colorspace, Colorspace::Rgb);
//! ```

use crate::pipe_format::Format;

/// The numeric type of one channel (`u_format.csv`'s type letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    /// Padding (`x`), or an absent channel (0 bits).
    Void,
    /// Unsigned integer (`u`).
    Unsigned,
    /// Two's complement signed integer (`s`).
    Signed,
    /// Signed 16.16 fixed point (`h`).
    Fixed,
    /// IEEE float (16, 32 or 64 bits), or a packed float (11, 10, 9 bits: see [`Encoding`]).
    Float,
}

/// One channel of a texel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channel {
    /// Numeric type.
    pub kind: ChannelKind,
    /// Normalised (`n`): unsigned → [0, 1], signed → [-1, 1] (UNORM/SNORM/sRGB).
    pub norm: bool,
    /// Pure integer (`p`): read as integers, not converted to float (UINT/SINT).
    pub pure: bool,
    /// Width in bits (0: no channel).
    pub bits: u8,
}

impl Channel {
    /// No channel.
    pub const NONE: Channel = Channel {
        kind: ChannelKind::Void,
        norm: false,
        pure: false,
        bits: 0,
    };

    /// Whether the channel carries a value (not padding, not absent).
    pub const fn is_value(&self) -> bool {
        !matches!(self.kind, ChannelKind::Void)
    }
}

/// Where an RGBA component comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swizzle {
    /// Channel 0.
    X,
    /// Channel 1.
    Y,
    /// Channel 2.
    Z,
    /// Channel 3.
    W,
    /// The constant 0.
    Zero,
    /// The constant 1 (1.0, or the integer 1 for pure-integer formats).
    One,
    /// Not present (`_`: depth/stencil formats without that aspect).
    None,
}

impl Swizzle {
    /// The channel index for `X`..`W`.
    pub const fn channel(self) -> Option<usize> {
        match self {
            Swizzle::X => Some(0),
            Swizzle::Y => Some(1),
            Swizzle::Z => Some(2),
            Swizzle::W => Some(3),
            _ => None,
        }
    }
}

/// Colour space of a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colorspace {
    /// Linear RGB.
    Rgb,
    /// sRGB-encoded colour channels (alpha stays linear).
    Srgb,
    /// Depth and/or stencil.
    Zs,
}

/// How the channels are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Each channel is an independent field converted by its [`Channel`] description.
    Plain,
    /// Unsigned 11/11/10-bit floats (5-bit exponents, no sign) in one 32-bit word.
    R11G11B10Float,
    /// Three 9-bit mantissas with a shared 5-bit exponent in one 32-bit word.
    R9G9B9E5Float,
}

/// The layout of one format (one row of the table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatLayout {
    /// The format.
    pub format: Format,
    /// Its name without `PIPE_FORMAT_`.
    pub name: &'static str,
    /// The channels, lowest bits first; absent ones are [`Channel::NONE`].
    pub channels: [Channel; 4],
    /// For R, G, B, A (depth/stencil formats: Z, S, -, -): the source of that component.
    pub swizzle: [Swizzle; 4],
    /// Colour space.
    pub colorspace: Colorspace,
    /// Channel encoding.
    pub encoding: Encoding,
}

impl FormatLayout {
    /// Bits of one texel (the sum of the channel widths).
    pub const fn block_bits(&self) -> u32 {
        let mut bits = 0;
        let mut i = 0;
        while i < 4 {
            bits += self.channels[i].bits as u32;
            i += 1;
        }
        bits
    }

    /// Bytes of one texel.
    pub const fn block_bytes(&self) -> usize {
        (self.block_bits() / 8) as usize
    }

    /// Bit offset of channel `i` inside the texel.
    pub const fn shift(&self, i: usize) -> u32 {
        let mut shift = 0;
        let mut k = 0;
        while k < i && k < 4 {
            shift += self.channels[k].bits as u32;
            k += 1;
        }
        shift
    }

    /// Number of channels with a width, padding included (util_format's `nr_channels`).
    pub const fn nr_channels(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < 4 {
            if self.channels[i].bits != 0 {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The first channel that carries a value.
    pub const fn first_value_channel(&self) -> Option<&Channel> {
        let mut i = 0;
        while i < 4 {
            if self.channels[i].is_value() {
                return Some(&self.channels[i]);
            }
            i += 1;
        }
        None
    }

    /// Whether the format holds depth (component 0 of a `Zs` format).
    pub const fn has_depth(&self) -> bool {
        matches!(self.colorspace, Colorspace::Zs) && !matches!(self.swizzle[0], Swizzle::None)
    }

    /// Whether the format holds stencil (component 1 of a `Zs` format).
    pub const fn has_stencil(&self) -> bool {
        matches!(self.colorspace, Colorspace::Zs) && !matches!(self.swizzle[1], Swizzle::None)
    }

    /// Whether the colour channels are pure integers (UINT/SINT colour formats; not
    /// depth/stencil, as `util_format_is_pure_integer` — except that it calls stencil-only
    /// formats pure too, see [`FormatLayout::is_pure_integer_any`]).
    pub const fn is_pure_color(&self) -> bool {
        !matches!(self.colorspace, Colorspace::Zs)
            && match self.first_value_channel() {
                Some(c) => c.pure,
                None => false,
            }
    }

    /// `util_format_is_pure_integer`: the first channel carrying a value is a pure integer
    /// (true for colour UINT/SINT formats and for stencil-only formats such as `S8_UINT`).
    pub const fn is_pure_integer_any(&self) -> bool {
        match self.first_value_channel() {
            Some(c) => c.pure,
            None => false,
        }
    }
}

impl Format {
    /// The format's row of the layout table, `None` for formats not described there.
    pub fn layout(self) -> Option<&'static FormatLayout> {
        let i = *INDEX.get(self.0 as usize)?;
        LAYOUTS.get(usize::from(i))
    }
}

/// Parses one channel descriptor of `u_format.csv` (`un8`, `sp16`, `f32`, `x8`, `h32`, …).
const fn channel(d: &[u8]) -> Channel {
    if d.is_empty() {
        return Channel::NONE;
    }
    let kind = match d[0] {
        b'x' => ChannelKind::Void,
        b'u' => ChannelKind::Unsigned,
        b's' => ChannelKind::Signed,
        b'h' => ChannelKind::Fixed,
        b'f' => ChannelKind::Float,
        _ => panic!("bad channel type"),
    };
    let mut i = 1;
    let (norm, pure) = match d[1] {
        b'n' => {
            i = 2;
            (true, false)
        }
        b'p' => {
            i = 2;
            (false, true)
        }
        _ => (false, false),
    };
    let mut bits: u32 = 0;
    while i < d.len() {
        assert!(d[i].is_ascii_digit(), "bad channel width");
        bits = bits * 10 + (d[i] - b'0') as u32;
        i += 1;
    }
    assert!(bits > 0 && bits <= 64, "bad channel width");
    Channel {
        kind,
        norm,
        pure,
        bits: bits as u8,
    }
}

/// Parses the space-separated channel list of a row.
const fn channels(desc: &str) -> [Channel; 4] {
    let b = desc.as_bytes();
    let mut out = [Channel::NONE; 4];
    let mut n = 0;
    let mut start = 0;
    let mut i = 0;
    while i <= b.len() {
        if i == b.len() || b[i] == b' ' {
            if i > start {
                assert!(n < 4, "more than four channels");
                let (_, rest) = b.split_at(start);
                let (word, _) = rest.split_at(i - start);
                out[n] = channel(word);
                n += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    out
}

/// Parses a four-letter swizzle (`xyzw`, `zyx1`, `000x`, `x___`, …).
const fn swizzle(s: &str) -> [Swizzle; 4] {
    let b = s.as_bytes();
    assert!(b.len() == 4, "swizzle needs four letters");
    let mut out = [Swizzle::None; 4];
    let mut i = 0;
    while i < 4 {
        out[i] = match b[i] {
            b'x' => Swizzle::X,
            b'y' => Swizzle::Y,
            b'z' => Swizzle::Z,
            b'w' => Swizzle::W,
            b'0' => Swizzle::Zero,
            b'1' => Swizzle::One,
            b'_' => Swizzle::None,
            _ => panic!("bad swizzle letter"),
        };
        i += 1;
    }
    out
}

const fn special(
    number: u16,
    name: &'static str,
    chans: &str,
    swz: &str,
    colorspace: Colorspace,
    encoding: Encoding,
) -> FormatLayout {
    let layout = FormatLayout {
        format: Format(number),
        name,
        channels: channels(chans),
        swizzle: swizzle(swz),
        colorspace,
        encoding,
    };
    assert!(
        layout.block_bits().is_multiple_of(8),
        "texel is not a whole number of bytes"
    );
    layout
}

const fn plain(
    number: u16,
    name: &'static str,
    chans: &str,
    swz: &str,
    colorspace: Colorspace,
) -> FormatLayout {
    special(number, name, chans, swz, colorspace, Encoding::Plain)
}

/// Number of entries of [`INDEX`]: one past the largest format number of the table.
const fn index_len(layouts: &[FormatLayout]) -> usize {
    let mut max = 0;
    let mut i = 0;
    while i < layouts.len() {
        if layouts[i].format.0 as usize > max {
            max = layouts[i].format.0 as usize;
        }
        i += 1;
    }
    max + 1
}

/// Format number → index into [`LAYOUTS`] (`u16::MAX`: not in the table).
const fn build_index<const N: usize>(layouts: &[FormatLayout]) -> [u16; N] {
    let mut index = [u16::MAX; N];
    let mut i = 0;
    while i < layouts.len() {
        let n = layouts[i].format.0 as usize;
        assert!(index[n] == u16::MAX, "format listed twice");
        index[n] = i as u16;
        i += 1;
    }
    index
}

static INDEX: [u16; FORMAT_NUMBERS] = build_index(LAYOUTS);

/// One past the largest format number that has a layout: tables indexed by format number
/// need no more entries.
pub const FORMAT_NUMBERS: usize = index_len(LAYOUTS);

use Colorspace::{Rgb, Srgb, Zs};

/// The table: `(number, name, channels lowest bits first, swizzle to RGBA, colour space)`,
/// transcribed from Mesa 22.3's `u_format.csv`, sorted by number.
pub const LAYOUTS: &[FormatLayout] = &[
    plain(1, "R64_UINT", "up64", "x001", Rgb),
    plain(2, "R64G64_UINT", "up64 up64", "xy01", Rgb),
    plain(3, "R64G64B64_UINT", "up64 up64 up64", "xyz1", Rgb),
    plain(4, "R64G64B64A64_UINT", "up64 up64 up64 up64", "xyzw", Rgb),
    plain(5, "R64_SINT", "sp64", "x001", Rgb),
    plain(6, "R64G64_SINT", "sp64 sp64", "xy01", Rgb),
    plain(7, "R64G64B64_SINT", "sp64 sp64 sp64", "xyz1", Rgb),
    plain(8, "R64G64B64A64_SINT", "sp64 sp64 sp64 sp64", "xyzw", Rgb),
    plain(9, "R64_FLOAT", "f64", "x001", Rgb),
    plain(10, "R64G64_FLOAT", "f64 f64", "xy01", Rgb),
    plain(11, "R64G64B64_FLOAT", "f64 f64 f64", "xyz1", Rgb),
    plain(12, "R64G64B64A64_FLOAT", "f64 f64 f64 f64", "xyzw", Rgb),
    plain(13, "R32_FLOAT", "f32", "x001", Rgb),
    plain(14, "R32G32_FLOAT", "f32 f32", "xy01", Rgb),
    plain(15, "R32G32B32_FLOAT", "f32 f32 f32", "xyz1", Rgb),
    plain(16, "R32G32B32A32_FLOAT", "f32 f32 f32 f32", "xyzw", Rgb),
    plain(17, "R32_UNORM", "un32", "x001", Rgb),
    plain(18, "R32G32_UNORM", "un32 un32", "xy01", Rgb),
    plain(19, "R32G32B32_UNORM", "un32 un32 un32", "xyz1", Rgb),
    plain(20, "R32G32B32A32_UNORM", "un32 un32 un32 un32", "xyzw", Rgb),
    plain(21, "R32_USCALED", "u32", "x001", Rgb),
    plain(22, "R32G32_USCALED", "u32 u32", "xy01", Rgb),
    plain(23, "R32G32B32_USCALED", "u32 u32 u32", "xyz1", Rgb),
    plain(24, "R32G32B32A32_USCALED", "u32 u32 u32 u32", "xyzw", Rgb),
    plain(25, "R32_SNORM", "sn32", "x001", Rgb),
    plain(26, "R32G32_SNORM", "sn32 sn32", "xy01", Rgb),
    plain(27, "R32G32B32_SNORM", "sn32 sn32 sn32", "xyz1", Rgb),
    plain(28, "R32G32B32A32_SNORM", "sn32 sn32 sn32 sn32", "xyzw", Rgb),
    plain(29, "R32_SSCALED", "s32", "x001", Rgb),
    plain(30, "R32G32_SSCALED", "s32 s32", "xy01", Rgb),
    plain(31, "R32G32B32_SSCALED", "s32 s32 s32", "xyz1", Rgb),
    plain(32, "R32G32B32A32_SSCALED", "s32 s32 s32 s32", "xyzw", Rgb),
    plain(33, "R16_UNORM", "un16", "x001", Rgb),
    plain(34, "R16G16_UNORM", "un16 un16", "xy01", Rgb),
    plain(35, "R16G16B16_UNORM", "un16 un16 un16", "xyz1", Rgb),
    plain(36, "R16G16B16A16_UNORM", "un16 un16 un16 un16", "xyzw", Rgb),
    plain(37, "R16_USCALED", "u16", "x001", Rgb),
    plain(38, "R16G16_USCALED", "u16 u16", "xy01", Rgb),
    plain(39, "R16G16B16_USCALED", "u16 u16 u16", "xyz1", Rgb),
    plain(40, "R16G16B16A16_USCALED", "u16 u16 u16 u16", "xyzw", Rgb),
    plain(41, "R16_SNORM", "sn16", "x001", Rgb),
    plain(42, "R16G16_SNORM", "sn16 sn16", "xy01", Rgb),
    plain(43, "R16G16B16_SNORM", "sn16 sn16 sn16", "xyz1", Rgb),
    plain(44, "R16G16B16A16_SNORM", "sn16 sn16 sn16 sn16", "xyzw", Rgb),
    plain(45, "R16_SSCALED", "s16", "x001", Rgb),
    plain(46, "R16G16_SSCALED", "s16 s16", "xy01", Rgb),
    plain(47, "R16G16B16_SSCALED", "s16 s16 s16", "xyz1", Rgb),
    plain(48, "R16G16B16A16_SSCALED", "s16 s16 s16 s16", "xyzw", Rgb),
    plain(49, "R8_UNORM", "un8", "x001", Rgb),
    plain(50, "R8G8_UNORM", "un8 un8", "xy01", Rgb),
    plain(51, "R8G8B8_UNORM", "un8 un8 un8", "xyz1", Rgb),
    plain(52, "B8G8R8_UNORM", "un8 un8 un8", "zyx1", Rgb),
    plain(53, "R8G8B8A8_UNORM", "un8 un8 un8 un8", "xyzw", Rgb),
    plain(54, "B8G8R8A8_UNORM", "un8 un8 un8 un8", "zyxw", Rgb),
    plain(55, "R8_USCALED", "u8", "x001", Rgb),
    plain(56, "R8G8_USCALED", "u8 u8", "xy01", Rgb),
    plain(57, "R8G8B8_USCALED", "u8 u8 u8", "xyz1", Rgb),
    plain(58, "B8G8R8_USCALED", "u8 u8 u8", "zyx1", Rgb),
    plain(59, "R8G8B8A8_USCALED", "u8 u8 u8 u8", "xyzw", Rgb),
    plain(60, "B8G8R8A8_USCALED", "u8 u8 u8 u8", "zyxw", Rgb),
    plain(61, "A8B8G8R8_USCALED", "u8 u8 u8 u8", "wzyx", Rgb),
    plain(62, "R8_SNORM", "sn8", "x001", Rgb),
    plain(63, "R8G8_SNORM", "sn8 sn8", "xy01", Rgb),
    plain(64, "R8G8B8_SNORM", "sn8 sn8 sn8", "xyz1", Rgb),
    plain(65, "B8G8R8_SNORM", "sn8 sn8 sn8", "zyx1", Rgb),
    plain(66, "R8G8B8A8_SNORM", "sn8 sn8 sn8 sn8", "xyzw", Rgb),
    plain(67, "B8G8R8A8_SNORM", "sn8 sn8 sn8 sn8", "zyxw", Rgb),
    plain(68, "R8_SSCALED", "s8", "x001", Rgb),
    plain(69, "R8G8_SSCALED", "s8 s8", "xy01", Rgb),
    plain(70, "R8G8B8_SSCALED", "s8 s8 s8", "xyz1", Rgb),
    plain(71, "B8G8R8_SSCALED", "s8 s8 s8", "zyx1", Rgb),
    plain(72, "R8G8B8A8_SSCALED", "s8 s8 s8 s8", "xyzw", Rgb),
    plain(73, "B8G8R8A8_SSCALED", "s8 s8 s8 s8", "zyxw", Rgb),
    plain(74, "A8B8G8R8_SSCALED", "s8 s8 s8 s8", "wzyx", Rgb),
    plain(75, "A8R8G8B8_UNORM", "un8 un8 un8 un8", "yzwx", Rgb),
    plain(76, "R32_FIXED", "h32", "x001", Rgb),
    plain(77, "R32G32_FIXED", "h32 h32", "xy01", Rgb),
    plain(78, "R32G32B32_FIXED", "h32 h32 h32", "xyz1", Rgb),
    plain(79, "R32G32B32A32_FIXED", "h32 h32 h32 h32", "xyzw", Rgb),
    plain(80, "R16_FLOAT", "f16", "x001", Rgb),
    plain(81, "R16G16_FLOAT", "f16 f16", "xy01", Rgb),
    plain(82, "R16G16B16_FLOAT", "f16 f16 f16", "xyz1", Rgb),
    plain(83, "R16G16B16A16_FLOAT", "f16 f16 f16 f16", "xyzw", Rgb),
    plain(84, "R8_UINT", "up8", "x001", Rgb),
    plain(85, "R8G8_UINT", "up8 up8", "xy01", Rgb),
    plain(86, "R8G8B8_UINT", "up8 up8 up8", "xyz1", Rgb),
    plain(87, "B8G8R8_UINT", "up8 up8 up8", "zyx1", Rgb),
    plain(88, "R8G8B8A8_UINT", "up8 up8 up8 up8", "xyzw", Rgb),
    plain(89, "B8G8R8A8_UINT", "up8 up8 up8 up8", "zyxw", Rgb),
    plain(90, "R8_SINT", "sp8", "x001", Rgb),
    plain(91, "R8G8_SINT", "sp8 sp8", "xy01", Rgb),
    plain(92, "R8G8B8_SINT", "sp8 sp8 sp8", "xyz1", Rgb),
    plain(93, "B8G8R8_SINT", "sp8 sp8 sp8", "zyx1", Rgb),
    plain(94, "R8G8B8A8_SINT", "sp8 sp8 sp8 sp8", "xyzw", Rgb),
    plain(95, "B8G8R8A8_SINT", "sp8 sp8 sp8 sp8", "zyxw", Rgb),
    plain(96, "R16_UINT", "up16", "x001", Rgb),
    plain(97, "R16G16_UINT", "up16 up16", "xy01", Rgb),
    plain(98, "R16G16B16_UINT", "up16 up16 up16", "xyz1", Rgb),
    plain(99, "R16G16B16A16_UINT", "up16 up16 up16 up16", "xyzw", Rgb),
    plain(100, "R16_SINT", "sp16", "x001", Rgb),
    plain(101, "R16G16_SINT", "sp16 sp16", "xy01", Rgb),
    plain(102, "R16G16B16_SINT", "sp16 sp16 sp16", "xyz1", Rgb),
    plain(103, "R16G16B16A16_SINT", "sp16 sp16 sp16 sp16", "xyzw", Rgb),
    plain(104, "R32_UINT", "up32", "x001", Rgb),
    plain(105, "R32G32_UINT", "up32 up32", "xy01", Rgb),
    plain(106, "R32G32B32_UINT", "up32 up32 up32", "xyz1", Rgb),
    plain(107, "R32G32B32A32_UINT", "up32 up32 up32 up32", "xyzw", Rgb),
    plain(108, "R32_SINT", "sp32", "x001", Rgb),
    plain(109, "R32G32_SINT", "sp32 sp32", "xy01", Rgb),
    plain(110, "R32G32B32_SINT", "sp32 sp32 sp32", "xyz1", Rgb),
    plain(111, "R32G32B32A32_SINT", "sp32 sp32 sp32 sp32", "xyzw", Rgb),
    plain(112, "R10G10B10A2_UNORM", "un10 un10 un10 un2", "xyzw", Rgb),
    plain(113, "R10G10B10A2_SNORM", "sn10 sn10 sn10 sn2", "xyzw", Rgb),
    plain(114, "R10G10B10A2_USCALED", "u10 u10 u10 u2", "xyzw", Rgb),
    plain(115, "R10G10B10A2_SSCALED", "s10 s10 s10 s2", "xyzw", Rgb),
    plain(116, "B10G10R10A2_UNORM", "un10 un10 un10 un2", "zyxw", Rgb),
    plain(117, "B10G10R10A2_SNORM", "sn10 sn10 sn10 sn2", "zyxw", Rgb),
    plain(118, "B10G10R10A2_USCALED", "u10 u10 u10 u2", "zyxw", Rgb),
    plain(119, "B10G10R10A2_SSCALED", "s10 s10 s10 s2", "zyxw", Rgb),
    special(
        120,
        "R11G11B10_FLOAT",
        "f11 f11 f10",
        "xyz1",
        Rgb,
        Encoding::R11G11B10Float,
    ),
    plain(121, "R10G10B10A2_UINT", "up10 up10 up10 up2", "xyzw", Rgb),
    plain(122, "R10G10B10A2_SINT", "sp10 sp10 sp10 sp2", "xyzw", Rgb),
    plain(123, "B10G10R10A2_UINT", "up10 up10 up10 up2", "zyxw", Rgb),
    plain(124, "B10G10R10A2_SINT", "sp10 sp10 sp10 sp2", "zyxw", Rgb),
    plain(125, "B8G8R8X8_UNORM", "un8 un8 un8 x8", "zyx1", Rgb),
    plain(126, "X8B8G8R8_UNORM", "x8 un8 un8 un8", "wzy1", Rgb),
    plain(127, "X8R8G8B8_UNORM", "x8 un8 un8 un8", "yzw1", Rgb),
    plain(128, "B5G5R5A1_UNORM", "un5 un5 un5 un1", "zyxw", Rgb),
    plain(129, "R4G4B4A4_UNORM", "un4 un4 un4 un4", "xyzw", Rgb),
    plain(130, "B4G4R4A4_UNORM", "un4 un4 un4 un4", "zyxw", Rgb),
    plain(131, "R5G6B5_UNORM", "un5 un6 un5", "xyz1", Rgb),
    plain(132, "B5G6R5_UNORM", "un5 un6 un5", "zyx1", Rgb),
    plain(133, "L8_UNORM", "un8", "xxx1", Rgb),
    plain(134, "A8_UNORM", "un8", "000x", Rgb),
    plain(135, "I8_UNORM", "un8", "xxxx", Rgb),
    plain(136, "L8A8_UNORM", "un8 un8", "xxxy", Rgb),
    plain(137, "L16_UNORM", "un16", "xxx1", Rgb),
    plain(140, "Z16_UNORM", "un16", "x___", Zs),
    plain(142, "Z32_UNORM", "un32", "x___", Zs),
    plain(143, "Z32_FLOAT", "f32", "x___", Zs),
    plain(144, "Z24_UNORM_S8_UINT", "un24 up8", "xy__", Zs),
    plain(145, "S8_UINT_Z24_UNORM", "up8 un24", "yx__", Zs),
    plain(146, "Z24X8_UNORM", "un24 x8", "x___", Zs),
    plain(147, "X8Z24_UNORM", "x8 un24", "y___", Zs),
    plain(148, "S8_UINT", "up8", "_x__", Zs),
    plain(149, "L8_SRGB", "un8", "xxx1", Srgb),
    plain(150, "R8_SRGB", "un8", "x001", Srgb),
    plain(151, "L8A8_SRGB", "un8 un8", "xxxy", Srgb),
    plain(152, "R8G8_SRGB", "un8 un8", "xy01", Srgb),
    plain(153, "R8G8B8_SRGB", "un8 un8 un8", "xyz1", Srgb),
    plain(154, "B8G8R8_SRGB", "un8 un8 un8", "zyx1", Srgb),
    plain(155, "A8B8G8R8_SRGB", "un8 un8 un8 un8", "wzyx", Srgb),
    plain(156, "X8B8G8R8_SRGB", "x8 un8 un8 un8", "wzy1", Srgb),
    plain(157, "B8G8R8A8_SRGB", "un8 un8 un8 un8", "zyxw", Srgb),
    plain(158, "B8G8R8X8_SRGB", "un8 un8 un8 x8", "zyx1", Srgb),
    plain(159, "A8R8G8B8_SRGB", "un8 un8 un8 un8", "yzwx", Srgb),
    plain(160, "X8R8G8B8_SRGB", "x8 un8 un8 un8", "yzw1", Srgb),
    plain(161, "R8G8B8A8_SRGB", "un8 un8 un8 un8", "xyzw", Srgb),
    plain(176, "R8SG8SB8UX8U_NORM", "sn8 sn8 un8 x8", "xyz1", Rgb),
    plain(177, "R5SG5SB6U_NORM", "sn5 sn5 un6", "xyz1", Rgb),
    plain(178, "A8B8G8R8_UNORM", "un8 un8 un8 un8", "wzyx", Rgb),
    plain(179, "B5G5R5X1_UNORM", "un5 un5 un5 x1", "zyx1", Rgb),
    special(
        180,
        "R9G9B9E5_FLOAT",
        "f9 f9 f9 x5",
        "xyz1",
        Rgb,
        Encoding::R9G9B9E5Float,
    ),
    plain(181, "Z32_FLOAT_S8X24_UINT", "f32 up8 x24", "xy__", Zs),
    plain(183, "R10G10B10X2_USCALED", "u10 u10 u10 x2", "xyz1", Rgb),
    plain(184, "R10G10B10X2_SNORM", "sn10 sn10 sn10 x2", "xyz1", Rgb),
    plain(185, "L4A4_UNORM", "un4 un4", "xxxy", Rgb),
    plain(186, "A2R10G10B10_UNORM", "un2 un10 un10 un10", "yzwx", Rgb),
    plain(187, "A2B10G10R10_UNORM", "un2 un10 un10 un10", "wzyx", Rgb),
    plain(
        188,
        "R10SG10SB10SA2U_NORM",
        "sn10 sn10 sn10 un2",
        "xyzw",
        Rgb,
    ),
    plain(190, "R8G8B8X8_UNORM", "un8 un8 un8 x8", "xyz1", Rgb),
    plain(191, "B4G4R4X4_UNORM", "un4 un4 un4 x4", "zyx1", Rgb),
    plain(192, "X24S8_UINT", "x24 up8", "_y__", Zs),
    plain(193, "S8X24_UINT", "up8 x24", "_x__", Zs),
    plain(194, "X32_S8X24_UINT", "x32 up8 x24", "_y__", Zs),
    plain(195, "R3G3B2_UNORM", "un3 un3 un2", "xyz1", Rgb),
    plain(196, "B2G3R3_UNORM", "un2 un3 un3", "zyx1", Rgb),
    plain(197, "L16A16_UNORM", "un16 un16", "xxxy", Rgb),
    plain(198, "A16_UNORM", "un16", "000x", Rgb),
    plain(199, "I16_UNORM", "un16", "xxxx", Rgb),
    plain(204, "A8_SNORM", "sn8", "000x", Rgb),
    plain(205, "L8_SNORM", "sn8", "xxx1", Rgb),
    plain(206, "L8A8_SNORM", "sn8 sn8", "xxxy", Rgb),
    plain(207, "I8_SNORM", "sn8", "xxxx", Rgb),
    plain(208, "A16_SNORM", "sn16", "000x", Rgb),
    plain(209, "L16_SNORM", "sn16", "xxx1", Rgb),
    plain(210, "L16A16_SNORM", "sn16 sn16", "xxxy", Rgb),
    plain(211, "I16_SNORM", "sn16", "xxxx", Rgb),
    plain(212, "A16_FLOAT", "f16", "000x", Rgb),
    plain(213, "L16_FLOAT", "f16", "xxx1", Rgb),
    plain(214, "L16A16_FLOAT", "f16 f16", "xxxy", Rgb),
    plain(215, "I16_FLOAT", "f16", "xxxx", Rgb),
    plain(216, "A32_FLOAT", "f32", "000x", Rgb),
    plain(217, "L32_FLOAT", "f32", "xxx1", Rgb),
    plain(218, "L32A32_FLOAT", "f32 f32", "xxxy", Rgb),
    plain(219, "I32_FLOAT", "f32", "xxxx", Rgb),
    plain(233, "A4R4_UNORM", "un4 un4", "y00x", Rgb),
    plain(234, "R4A4_UNORM", "un4 un4", "x00y", Rgb),
    plain(235, "R8A8_UNORM", "un8 un8", "x00y", Rgb),
    plain(236, "A8R8_UNORM", "un8 un8", "y00x", Rgb),
    plain(237, "A8_UINT", "up8", "000x", Rgb),
    plain(238, "I8_UINT", "up8", "xxxx", Rgb),
    plain(239, "L8_UINT", "up8", "xxx1", Rgb),
    plain(240, "L8A8_UINT", "up8 up8", "xxxy", Rgb),
    plain(241, "A8_SINT", "sp8", "000x", Rgb),
    plain(242, "I8_SINT", "sp8", "xxxx", Rgb),
    plain(243, "L8_SINT", "sp8", "xxx1", Rgb),
    plain(244, "L8A8_SINT", "sp8 sp8", "xxxy", Rgb),
    plain(245, "A16_UINT", "up16", "000x", Rgb),
    plain(246, "I16_UINT", "up16", "xxxx", Rgb),
    plain(247, "L16_UINT", "up16", "xxx1", Rgb),
    plain(248, "L16A16_UINT", "up16 up16", "xxxy", Rgb),
    plain(249, "A16_SINT", "sp16", "000x", Rgb),
    plain(250, "I16_SINT", "sp16", "xxxx", Rgb),
    plain(251, "L16_SINT", "sp16", "xxx1", Rgb),
    plain(252, "L16A16_SINT", "sp16 sp16", "xxxy", Rgb),
    plain(253, "A32_UINT", "up32", "000x", Rgb),
    plain(254, "I32_UINT", "up32", "xxxx", Rgb),
    plain(255, "L32_UINT", "up32", "xxx1", Rgb),
    plain(256, "L32A32_UINT", "up32 up32", "xxxy", Rgb),
    plain(257, "A32_SINT", "sp32", "000x", Rgb),
    plain(258, "I32_SINT", "sp32", "xxxx", Rgb),
    plain(259, "L32_SINT", "sp32", "xxx1", Rgb),
    plain(260, "L32A32_SINT", "sp32 sp32", "xxxy", Rgb),
    plain(261, "A8R8G8B8_UINT", "up8 up8 up8 up8", "yzwx", Rgb),
    plain(262, "A8B8G8R8_UINT", "up8 up8 up8 up8", "wzyx", Rgb),
    plain(263, "A2R10G10B10_UINT", "up2 up10 up10 up10", "yzwx", Rgb),
    plain(264, "A2B10G10R10_UINT", "up2 up10 up10 up10", "wzyx", Rgb),
    plain(265, "R5G6B5_UINT", "up5 up6 up5", "xyz1", Rgb),
    plain(266, "B5G6R5_UINT", "up5 up6 up5", "zyx1", Rgb),
    plain(267, "R5G5B5A1_UINT", "up5 up5 up5 up1", "xyzw", Rgb),
    plain(268, "B5G5R5A1_UINT", "up5 up5 up5 up1", "zyxw", Rgb),
    plain(269, "A1R5G5B5_UINT", "up1 up5 up5 up5", "yzwx", Rgb),
    plain(270, "A1B5G5R5_UINT", "up1 up5 up5 up5", "wzyx", Rgb),
    plain(271, "R4G4B4A4_UINT", "up4 up4 up4 up4", "xyzw", Rgb),
    plain(272, "B4G4R4A4_UINT", "up4 up4 up4 up4", "zyxw", Rgb),
    plain(273, "A4R4G4B4_UINT", "up4 up4 up4 up4", "yzwx", Rgb),
    plain(274, "A4B4G4R4_UINT", "up4 up4 up4 up4", "wzyx", Rgb),
    plain(275, "R3G3B2_UINT", "up3 up3 up2", "xyz1", Rgb),
    plain(276, "B2G3R3_UINT", "up2 up3 up3", "zyx1", Rgb),
    plain(280, "R8G8B8X8_SNORM", "sn8 sn8 sn8 x8", "xyz1", Rgb),
    plain(281, "R8G8B8X8_SRGB", "un8 un8 un8 x8", "xyz1", Srgb),
    plain(282, "R8G8B8X8_UINT", "up8 up8 up8 x8", "xyz1", Rgb),
    plain(283, "R8G8B8X8_SINT", "sp8 sp8 sp8 x8", "xyz1", Rgb),
    plain(284, "B10G10R10X2_UNORM", "un10 un10 un10 x2", "zyx1", Rgb),
    plain(285, "R16G16B16X16_UNORM", "un16 un16 un16 x16", "xyz1", Rgb),
    plain(286, "R16G16B16X16_SNORM", "sn16 sn16 sn16 x16", "xyz1", Rgb),
    plain(287, "R16G16B16X16_FLOAT", "f16 f16 f16 x16", "xyz1", Rgb),
    plain(288, "R16G16B16X16_UINT", "up16 up16 up16 x16", "xyz1", Rgb),
    plain(289, "R16G16B16X16_SINT", "sp16 sp16 sp16 x16", "xyz1", Rgb),
    plain(290, "R32G32B32X32_FLOAT", "f32 f32 f32 x32", "xyz1", Rgb),
    plain(291, "R32G32B32X32_UINT", "up32 up32 up32 x32", "xyz1", Rgb),
    plain(292, "R32G32B32X32_SINT", "sp32 sp32 sp32 x32", "xyz1", Rgb),
    plain(293, "R8A8_SNORM", "sn8 sn8", "x00y", Rgb),
    plain(294, "R16A16_UNORM", "un16 un16", "x00y", Rgb),
    plain(295, "R16A16_SNORM", "sn16 sn16", "x00y", Rgb),
    plain(296, "R16A16_FLOAT", "f16 f16", "x00y", Rgb),
    plain(297, "R32A32_FLOAT", "f32 f32", "x00y", Rgb),
    plain(298, "R8A8_UINT", "up8 up8", "x00y", Rgb),
    plain(299, "R8A8_SINT", "sp8 sp8", "x00y", Rgb),
    plain(300, "R16A16_UINT", "up16 up16", "x00y", Rgb),
    plain(301, "R16A16_SINT", "sp16 sp16", "x00y", Rgb),
    plain(302, "R32A32_UINT", "up32 up32", "x00y", Rgb),
    plain(303, "R32A32_SINT", "sp32 sp32", "x00y", Rgb),
    plain(304, "B5G6R5_SRGB", "un5 un6 un5", "zyx1", Srgb),
    plain(309, "G8R8_UNORM", "un8 un8", "yx01", Rgb),
    plain(310, "G8R8_SNORM", "sn8 sn8", "yx01", Rgb),
    plain(311, "G16R16_UNORM", "un16 un16", "yx01", Rgb),
    plain(312, "G16R16_SNORM", "sn16 sn16", "yx01", Rgb),
    plain(313, "A8B8G8R8_SNORM", "sn8 sn8 sn8 sn8", "wzyx", Rgb),
    plain(314, "X8B8G8R8_SNORM", "x8 sn8 sn8 sn8", "wzy1", Rgb),
    plain(384, "R10G10B10X2_UNORM", "un10 un10 un10 x2", "xyz1", Rgb),
    plain(385, "A1R5G5B5_UNORM", "un1 un5 un5 un5", "yzwx", Rgb),
    plain(386, "A1B5G5R5_UNORM", "un1 un5 un5 un5", "wzyx", Rgb),
    plain(387, "X1B5G5R5_UNORM", "x1 un5 un5 un5", "wzy1", Rgb),
    plain(388, "R5G5B5A1_UNORM", "un5 un5 un5 un1", "xyzw", Rgb),
    plain(389, "A4R4G4B4_UNORM", "un4 un4 un4 un4", "yzwx", Rgb),
    plain(390, "A4B4G4R4_UNORM", "un4 un4 un4 un4", "wzyx", Rgb),
    plain(391, "G8R8_SINT", "sp8 sp8", "yx01", Rgb),
    plain(392, "A8B8G8R8_SINT", "sp8 sp8 sp8 sp8", "wzyx", Rgb),
    plain(393, "X8B8G8R8_SINT", "x8 sp8 sp8 sp8", "wzy1", Rgb),
    plain(
        397,
        "Z24_UNORM_S8_UINT_AS_R8G8B8A8",
        "un8 un8 un8 un8",
        "xyzw",
        Rgb,
    ),
    plain(404, "B8G8R8X8_SNORM", "sn8 sn8 sn8 x8", "zyx1", Rgb),
    plain(405, "B8G8R8X8_UINT", "up8 up8 up8 x8", "zyx1", Rgb),
    plain(406, "B8G8R8X8_SINT", "sp8 sp8 sp8 x8", "zyx1", Rgb),
    plain(407, "A8R8G8B8_SNORM", "sn8 sn8 sn8 sn8", "yzwx", Rgb),
    plain(408, "A8R8G8B8_SINT", "sp8 sp8 sp8 sp8", "yzwx", Rgb),
    plain(409, "X8R8G8B8_SNORM", "x8 sn8 sn8 sn8", "yzw1", Rgb),
    plain(410, "X8R8G8B8_SINT", "x8 sp8 sp8 sp8", "yzw1", Rgb),
    plain(411, "R5G5B5X1_UNORM", "un5 un5 un5 x1", "xyz1", Rgb),
    plain(412, "X1R5G5B5_UNORM", "x1 un5 un5 un5", "yzw1", Rgb),
    plain(413, "R4G4B4X4_UNORM", "un4 un4 un4 x4", "xyz1", Rgb),
    plain(414, "B10G10R10X2_SNORM", "sn10 sn10 sn10 x2", "zyx1", Rgb),
    plain(415, "R5G6B5_SRGB", "un5 un6 un5", "xyz1", Srgb),
    plain(416, "R10G10B10X2_SINT", "sp10 sp10 sp10 x2", "xyz1", Rgb),
    plain(417, "B10G10R10X2_SINT", "sp10 sp10 sp10 x2", "zyx1", Rgb),
    plain(418, "G16R16_SINT", "sp16 sp16", "yx01", Rgb),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_match_the_format_names() {
        for l in LAYOUTS {
            assert_eq!(l.format.short_name(), Some(l.name), "{}", l.name);
            assert_eq!(l.format.layout(), Some(l));
        }
        assert!(LAYOUTS.windows(2).all(|w| w[0].format < w[1].format));
    }

    #[test]
    fn swizzles_name_existing_channels() {
        for l in LAYOUTS {
            for s in l.swizzle {
                if let Some(c) = s.channel() {
                    assert!(l.channels[c].is_value(), "{}", l.name);
                }
            }
            // Colour formats give every component; depth/stencil ones only Z and S.
            let absent = l.swizzle.iter().filter(|s| **s == Swizzle::None).count();
            match l.colorspace {
                Colorspace::Zs => assert!(absent >= 2, "{}", l.name),
                _ => assert_eq!(absent, 0, "{}", l.name),
            }
        }
    }

    #[test]
    fn sizes_and_shifts() {
        let get = |n: &str| {
            Format::from_name(&format!("PIPE_FORMAT_{n}"))
                .and_then(Format::layout)
                .unwrap_or_else(|| panic!("{n} missing"))
        };
        let cases = [
            ("R8G8B8A8_UNORM", 4, 4),
            ("R8G8B8_UNORM", 3, 3),
            ("B5G6R5_UNORM", 2, 3),
            ("R32G32B32A32_FLOAT", 16, 4),
            ("R64G64B64A64_FLOAT", 32, 4),
            ("Z32_FLOAT_S8X24_UINT", 8, 3),
            ("R9G9B9E5_FLOAT", 4, 4),
            ("R11G11B10_FLOAT", 4, 3),
            ("L8A8_UNORM", 2, 2),
            ("R8G8B8X8_UNORM", 4, 4),
        ];
        for (name, bytes, nr) in cases {
            let l = get(name);
            assert_eq!((l.block_bytes(), l.nr_channels()), (bytes, nr), "{name}");
        }
        let l = get("B10G10R10A2_UNORM");
        assert_eq!(
            (l.shift(0), l.shift(1), l.shift(2), l.shift(3)),
            (0, 10, 20, 30)
        );
        let z = get("S8_UINT_Z24_UNORM");
        assert!(z.has_depth() && z.has_stencil());
        assert_eq!(z.swizzle[0], Swizzle::Y);
        assert_eq!(z.shift(1), 8);
        let s = get("S8_UINT");
        assert!(!s.has_depth() && s.has_stencil() && s.is_pure_integer_any());
        assert!(!s.is_pure_color());
        assert!(get("R16G16_SINT").is_pure_color());
        assert!(!get("R16G16_SNORM").is_pure_color());
        assert_eq!(Format::NONE.layout(), None);
        assert_eq!(Format(60000).layout(), None);
        let dxt1 = Format::from_name("PIPE_FORMAT_DXT1_RGB");
        assert!(dxt1.is_some() && dxt1.and_then(Format::layout).is_none());
    }
}
