//! Resources a run reads and writes, in Gallium's vocabulary: `pipe_resource` ([`Resource`]
//! with its bytes in [`Storage`]), `pipe_sampler_view` ([`SamplerView`]),
//! `pipe_sampler_state` ([`SamplerState`]), `pipe_image_view` ([`ImageView`]) and
//! `pipe_shader_buffer` ([`BufferView`]), bound to TGSI slots in [`Resources`].
//!
//! Resource bytes use Gallium's linear layout (`bindings.md`): level after level, slice after
//! slice (3-D depth slices, array layers, cube faces), rows from y = 0, texels from x = 0, no
//! padding. [`Resource::level`] gives every level's place in it. Storage is a block of
//! atomic words, so workgroups on several threads can load, store and run atomics on the
//! same resource without `unsafe` and without tearing a 32-bit word. Every access is
//! bounds-checked: a read outside the bytes gives `None`, a write outside is dropped.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Arc;
pub use tgsi::sampler::{CompareFunc, Filter, MipFilter, Wrap};
use tgsi::Format;

/// Largest accepted resource, in bytes (1 GiB).
pub const MAX_RESOURCE_BYTES: u64 = 1 << 30;

/// `pipe_texture_target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// `PIPE_BUFFER`.
    Buffer,
    /// `PIPE_TEXTURE_1D`.
    Tex1D,
    /// `PIPE_TEXTURE_2D`.
    Tex2D,
    /// `PIPE_TEXTURE_3D`.
    Tex3D,
    /// `PIPE_TEXTURE_CUBE`.
    Cube,
    /// `PIPE_TEXTURE_RECT`.
    Rect,
    /// `PIPE_TEXTURE_1D_ARRAY`.
    Array1D,
    /// `PIPE_TEXTURE_2D_ARRAY`.
    Array2D,
    /// `PIPE_TEXTURE_CUBE_ARRAY`.
    CubeArray,
}

impl Target {
    /// Every target with its Gallium name (without `PIPE_` / `PIPE_TEXTURE_`).
    pub const NAMES: [(Target, &'static str); 9] = [
        (Target::Buffer, "BUFFER"),
        (Target::Tex1D, "1D"),
        (Target::Tex2D, "2D"),
        (Target::Tex3D, "3D"),
        (Target::Cube, "CUBE"),
        (Target::Rect, "RECT"),
        (Target::Array1D, "1D_ARRAY"),
        (Target::Array2D, "2D_ARRAY"),
        (Target::CubeArray, "CUBE_ARRAY"),
    ];

    /// Parse `PIPE_TEXTURE_2D`, `PIPE_BUFFER` or the short forms `2D`, `BUFFER`.
    pub fn from_name(name: &str) -> Option<Target> {
        let short = name
            .strip_prefix("PIPE_TEXTURE_")
            .or_else(|| name.strip_prefix("PIPE_"))
            .unwrap_or(name);
        Self::NAMES
            .iter()
            .find(|(_, n)| *n == short)
            .map(|&(t, _)| t)
    }

    /// Whether levels keep their layer count (arrays, cubes) rather than shrinking in depth.
    pub fn is_layered(self) -> bool {
        matches!(
            self,
            Target::Array1D | Target::Array2D | Target::Cube | Target::CubeArray
        )
    }
}

/// A resource's bytes: atomic 32-bit words, little-endian, `len` bytes in use.
#[derive(Debug)]
pub struct Storage {
    words: Box<[AtomicU32]>,
    len: usize,
}

impl Storage {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> Storage {
        Storage {
            words: (0..len.div_ceil(4)).map(|_| AtomicU32::new(0)).collect(),
            len,
        }
    }

    /// A copy of `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Storage {
        let s = Storage::zeroed(bytes.len());
        s.write(0, bytes);
        s
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no byte.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self
            .words
            .iter()
            .flat_map(|w| w.load(Relaxed).to_le_bytes())
            .collect();
        out.truncate(self.len);
        out
    }

    /// Words `at[k]` (bytes `4i .. 4i + 4` for each index `i`), `None` unless all their
    /// bytes are inside.
    #[inline(always)]
    pub fn words<const K: usize>(&self, at: [usize; K]) -> Option<[u32; K]> {
        let whole = self.whole_words();
        let mut out = [0; K];
        for (o, &i) in out.iter_mut().zip(&at) {
            *o = whole.get(i)?.load(Relaxed);
        }
        Some(out)
    }

    /// The words whose four bytes all lie inside (word `i` = bytes `4i .. 4i + 4`).
    #[inline(always)]
    pub fn whole_words(&self) -> &[AtomicU32] {
        &self.words[..(self.len / 4).min(self.words.len())]
    }

    /// Whether `[offset, offset + n)` lies inside the bytes.
    #[inline(always)]
    pub fn contains(&self, offset: usize, n: usize) -> bool {
        offset.checked_add(n).is_some_and(|end| end <= self.len)
    }

    /// Read `out.len()` bytes at `offset`; `false` (and `out` untouched) when out of bounds.
    pub fn read(&self, offset: usize, out: &mut [u8]) -> bool {
        if !self.contains(offset, out.len()) {
            return false;
        }
        let mut at = offset;
        let mut rest = &mut out[..];
        while !rest.is_empty() {
            let (w, b) = (at / 4, at % 4);
            let n = (4 - b).min(rest.len());
            let word = self.words[w].load(Relaxed).to_le_bytes();
            let (head, tail) = rest.split_at_mut(n);
            head.copy_from_slice(&word[b..b + n]);
            rest = tail;
            at += n;
        }
        true
    }

    /// Write `bytes` at `offset`; `false` (nothing written) when out of bounds. Whole aligned
    /// words are stored at once; partial words are merged atomically.
    pub fn write(&self, offset: usize, bytes: &[u8]) -> bool {
        if !self.contains(offset, bytes.len()) {
            return false;
        }
        let mut at = offset;
        let mut rest = bytes;
        while !rest.is_empty() {
            let (w, b) = (at / 4, at % 4);
            let n = (4 - b).min(rest.len());
            if n == 4 {
                let v = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
                self.words[w].store(v, Relaxed);
            } else {
                let mut mask = 0u32;
                let mut val = 0u32;
                for (k, &byte) in rest[..n].iter().enumerate() {
                    mask |= 0xff << (8 * (b + k));
                    val |= u32::from(byte) << (8 * (b + k));
                }
                let _ =
                    self.words[w].fetch_update(Relaxed, Relaxed, |old| Some((old & !mask) | val));
            }
            at += n;
            rest = &rest[n..];
        }
        true
    }

    /// The aligned 32-bit word at byte `offset`, or `None` when misaligned or out of bounds.
    #[inline(always)]
    pub fn load_u32(&self, offset: usize) -> Option<u32> {
        (offset.is_multiple_of(4) && self.contains(offset, 4))
            .then(|| self.words[offset / 4].load(Relaxed))
    }

    /// Store the aligned word at byte `offset`; `false` when misaligned or out of bounds.
    pub fn store_u32(&self, offset: usize, value: u32) -> bool {
        let ok = offset.is_multiple_of(4) && self.contains(offset, 4);
        if ok {
            self.words[offset / 4].store(value, Relaxed);
        }
        ok
    }

    /// Atomically replace the aligned word at `offset` by `f(old)`; returns `old`, or `None`
    /// (nothing written) when misaligned or out of bounds. `f` returning `None` leaves the
    /// word as it is (compare-and-swap that does not match).
    pub fn update_u32(&self, offset: usize, f: impl Fn(u32) -> Option<u32>) -> Option<u32> {
        if !offset.is_multiple_of(4) || !self.contains(offset, 4) {
            return None;
        }
        let word = &self.words[offset / 4];
        Some(match word.fetch_update(Relaxed, Relaxed, &f) {
            Ok(old) | Err(old) => old,
        })
    }
}

/// One mipmap level inside a resource's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// Byte offset of the level.
    pub offset: usize,
    /// Width in texels.
    pub width: u32,
    /// Height in texels (rows; 1 for 1-D targets, whose layers are slices).
    pub height: u32,
    /// Slices: depth for 3-D, layers (× 6 faces) for arrays and cubes, 1 otherwise.
    pub slices: u32,
    /// Bytes of one row.
    pub row_bytes: usize,
    /// Bytes of one slice.
    pub slice_bytes: usize,
}

/// A `pipe_resource` and its bytes.
#[derive(Debug)]
pub struct Resource {
    /// Target.
    pub target: Target,
    /// Format.
    pub format: Format,
    /// Width of level 0 (bytes for buffers).
    pub width0: u32,
    /// Height of level 0.
    pub height0: u32,
    /// Depth of level 0.
    pub depth0: u32,
    /// Layers (6 × cubes for cube arrays, 6 for cubes).
    pub array_size: u32,
    /// Last mipmap level.
    pub last_level: u32,
    /// Samples per texel (0 or 1: single-sampled).
    pub nr_samples: u32,
    /// The bytes.
    pub data: Storage,
}

impl Resource {
    /// A `PIPE_BUFFER` holding `bytes` (format `R8_UNORM`, as Gallium creates buffers;
    /// at most `u32::MAX` bytes are visible).
    pub fn buffer(bytes: &[u8]) -> Resource {
        Resource {
            target: Target::Buffer,
            format: Format::from_name("PIPE_FORMAT_R8_UNORM").unwrap_or(Format::NONE),
            width0: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
            height0: 1,
            depth0: 1,
            array_size: 1,
            last_level: 0,
            nr_samples: 0,
            data: Storage::from_bytes(bytes),
        }
    }

    /// Level `level`'s size and place in the bytes, given the format's texel size in bytes
    /// (`None` for a level past `last_level`). Sizes shrink as `max(1, size >> level)`; array
    /// layers and cube faces do not.
    pub fn level(&self, level: u32, texel_bytes: usize) -> Option<Level> {
        self.levels(texel_bytes).nth(level as usize)
    }

    /// Every level from 0 to `last_level` (at most 32), as [`Resource::level`] gives them;
    /// ends early where an offset would overflow.
    pub fn levels(&self, texel_bytes: usize) -> impl Iterator<Item = Level> + '_ {
        let mut offset = Some(0usize);
        (0..=self.last_level.min(31)).map_while(move |l| {
            let lv = Level {
                offset: offset?,
                ..self.level_dims(l, texel_bytes)
            };
            offset = lv
                .slice_bytes
                .checked_mul(lv.slices as usize)
                .and_then(|n| lv.offset.checked_add(n));
            Some(lv)
        })
    }

    /// Total bytes of all levels (the size `data` must have), `None` on overflow.
    pub fn layout_bytes(&self, texel_bytes: usize) -> Option<u64> {
        if self.target == Target::Buffer {
            return Some(u64::from(self.width0));
        }
        let mut total = 0u64;
        for l in 0..=self.last_level.min(31) {
            let lv = self.level_dims(l, texel_bytes);
            total =
                total.checked_add((lv.slice_bytes as u64).checked_mul(u64::from(lv.slices))?)?;
        }
        Some(total)
    }

    fn level_dims(&self, l: u32, texel_bytes: usize) -> Level {
        let shrink = |v: u32| (v >> l).max(1);
        let (height, slices) = match self.target {
            Target::Buffer => (1, 1),
            Target::Tex1D => (1, 1),
            Target::Array1D => (1, self.array_size.max(1)),
            Target::Tex3D => (shrink(self.height0), shrink(self.depth0)),
            Target::Tex2D | Target::Rect => (shrink(self.height0), 1),
            Target::Array2D | Target::Cube | Target::CubeArray => {
                (shrink(self.height0), self.array_size.max(1))
            }
        };
        let width = if self.target == Target::Buffer {
            self.width0
        } else {
            shrink(self.width0)
        };
        let row_bytes = (width as usize).saturating_mul(texel_bytes);
        Level {
            offset: 0,
            width,
            height,
            slices,
            row_bytes,
            slice_bytes: row_bytes.saturating_mul(height as usize),
        }
    }
}

/// `PIPE_SWIZZLE_*`: where a view's channel comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swizzle {
    /// Channel x of the unpacked texel.
    X,
    /// Channel y.
    Y,
    /// Channel z.
    Z,
    /// Channel w.
    W,
    /// Constant 0.
    Zero,
    /// Constant 1 (1.0, or integer 1 for pure-integer formats).
    One,
}

impl Swizzle {
    /// Parse `X Y Z W 0 1` (or `PIPE_SWIZZLE_X` …, `PIPE_SWIZZLE_0`).
    pub fn from_name(name: &str) -> Option<Swizzle> {
        Some(match name.strip_prefix("PIPE_SWIZZLE_").unwrap_or(name) {
            "X" | "x" | "R" | "r" => Swizzle::X,
            "Y" | "y" | "G" | "g" => Swizzle::Y,
            "Z" | "z" | "B" | "b" => Swizzle::Z,
            "W" | "w" | "A" | "a" => Swizzle::W,
            "0" | "ZERO" => Swizzle::Zero,
            "1" | "ONE" => Swizzle::One,
            _ => return None,
        })
    }
}

/// `pipe_sampler_view`.
#[derive(Clone, Debug)]
pub struct SamplerView {
    /// The viewed resource.
    pub resource: Arc<Resource>,
    /// View format.
    pub format: Format,
    /// View target.
    pub target: Target,
    /// First visible level.
    pub first_level: u32,
    /// Last visible level.
    pub last_level: u32,
    /// First visible layer.
    pub first_layer: u32,
    /// Last visible layer.
    pub last_layer: u32,
    /// Buffer views: first byte.
    pub offset: u32,
    /// Buffer views: bytes.
    pub size: u32,
    /// Channel sources.
    pub swizzle: [Swizzle; 4],
}

impl SamplerView {
    /// A view of every level and layer of `resource`, in its format and target, with the
    /// identity swizzle.
    pub fn whole(resource: &Arc<Resource>) -> SamplerView {
        SamplerView {
            resource: Arc::clone(resource),
            format: resource.format,
            target: resource.target,
            first_level: 0,
            last_level: resource.last_level,
            first_layer: 0,
            last_layer: resource.array_size.saturating_sub(1),
            offset: 0,
            size: 0,
            swizzle: [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
        }
    }
}

/// `pipe_sampler_state`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerState {
    /// `wrap_s`, `wrap_t`, `wrap_r`.
    pub wrap: [Wrap; 3],
    /// `min_img_filter`.
    pub min_img_filter: Filter,
    /// `min_mip_filter`.
    pub min_mip_filter: MipFilter,
    /// `mag_img_filter`.
    pub mag_img_filter: Filter,
    /// `compare_mode == PIPE_TEX_COMPARE_R_TO_TEXTURE`.
    pub compare: bool,
    /// `compare_func`.
    pub compare_func: CompareFunc,
    /// `unnormalized_coords`.
    pub unnormalized_coords: bool,
    /// `max_anisotropy`.
    pub max_anisotropy: u32,
    /// `seamless_cube_map`.
    pub seamless_cube_map: bool,
    /// `lod_bias`.
    pub lod_bias: f32,
    /// `min_lod`.
    pub min_lod: f32,
    /// `max_lod`.
    pub max_lod: f32,
    /// `border_color` as the raw words of `union pipe_color_union`.
    pub border_color: [u32; 4],
}

impl Default for SamplerState {
    /// `pipe_sampler_state`'s zero value, except `max_lod` = 1000 (as `bindings.md` says).
    fn default() -> Self {
        SamplerState {
            wrap: [Wrap::Repeat; 3],
            min_img_filter: Filter::Nearest,
            min_mip_filter: MipFilter::Nearest,
            mag_img_filter: Filter::Nearest,
            compare: false,
            compare_func: CompareFunc::Never,
            unnormalized_coords: false,
            max_anisotropy: 0,
            seamless_cube_map: false,
            lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: 1000.0,
            border_color: [0; 4],
        }
    }
}

/// `PIPE_IMAGE_ACCESS_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Access {
    /// `READ`.
    Read,
    /// `WRITE`.
    Write,
    /// `READ_WRITE`.
    #[default]
    ReadWrite,
}

/// `pipe_image_view`.
#[derive(Clone, Debug)]
pub struct ImageView {
    /// The viewed resource.
    pub resource: Arc<Resource>,
    /// View format.
    pub format: Format,
    /// Access.
    pub access: Access,
    /// Level.
    pub level: u32,
    /// First visible layer.
    pub first_layer: u32,
    /// Last visible layer.
    pub last_layer: u32,
    /// Buffer images: first byte.
    pub offset: u32,
    /// Buffer images: bytes.
    pub size: u32,
}

/// `pipe_shader_buffer` (`BUFFER[i]`, `HWATOMIC[i]`).
#[derive(Clone, Debug)]
pub struct BufferView {
    /// The viewed resource.
    pub resource: Arc<Resource>,
    /// First byte.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
}

impl BufferView {
    /// A view of all of `resource`'s bytes.
    pub fn whole(resource: &Arc<Resource>) -> BufferView {
        BufferView {
            resource: Arc::clone(resource),
            offset: 0,
            size: resource.width0,
        }
    }

    /// Whether the view shows its bytes: a view reaching past its resource shows nothing
    /// (softpipe's check for `pipe_shader_buffer`).
    pub fn shows_bytes(&self) -> bool {
        let width = self.resource.width0;
        self.offset <= width && self.size <= width - self.offset
    }

    /// The visible bytes' offset into the resource for a byte offset into the view, when
    /// `[at, at + n)` lies inside both the view and the resource.
    pub fn locate(&self, at: u32, n: u32) -> Option<usize> {
        let end = at.checked_add(n)?;
        if end > self.size {
            return None;
        }
        let abs = (self.offset as usize).checked_add(at as usize)?;
        self.resource.data.contains(abs, n as usize).then_some(abs)
    }
}

/// Everything bound to a run, by TGSI slot. A missing slot reads as zero and drops writes.
#[derive(Clone, Debug, Default)]
pub struct Resources {
    /// `SVIEW[i]` (and the view the TEX-family opcodes use with `SAMP[i]`).
    pub sampler_views: Vec<Option<SamplerView>>,
    /// `SAMP[i]`.
    pub samplers: Vec<Option<SamplerState>>,
    /// `IMAGE[i]`.
    pub images: Vec<Option<ImageView>>,
    /// `BUFFER[i]`.
    pub buffers: Vec<Option<BufferView>>,
    /// `HWATOMIC[i]`.
    pub hw_atomics: Vec<Option<BufferView>>,
    /// The context-wide seamless cube map switch, ORed with each sampler's.
    pub seamless_cube_map: bool,
}

/// Nothing bound: every slot reads zero and drops writes.
pub static NO_RESOURCES: Resources = Resources {
    sampler_views: Vec::new(),
    samplers: Vec::new(),
    images: Vec::new(),
    buffers: Vec::new(),
    hw_atomics: Vec::new(),
    seamless_cube_map: false,
};

impl Resources {
    /// Every bound resource, once per binding (a resource bound twice comes twice).
    pub fn bound_resources(&self) -> impl Iterator<Item = &Arc<Resource>> {
        let views = self.sampler_views.iter().flatten().map(|v| &v.resource);
        let images = self.images.iter().flatten().map(|v| &v.resource);
        let buffers = (self.buffers.iter().chain(&self.hw_atomics))
            .flatten()
            .map(|v| &v.resource);
        views.chain(images).chain(buffers)
    }

    /// `SVIEW[i]`.
    pub fn sampler_view(&self, i: u32) -> Option<&SamplerView> {
        self.sampler_views.get(i as usize)?.as_ref()
    }

    /// `SAMP[i]`.
    pub fn sampler(&self, i: u32) -> Option<&SamplerState> {
        self.samplers.get(i as usize)?.as_ref()
    }

    /// `IMAGE[i]`.
    pub fn image(&self, i: u32) -> Option<&ImageView> {
        self.images.get(i as usize)?.as_ref()
    }

    /// `BUFFER[i]`.
    pub fn buffer(&self, i: u32) -> Option<&BufferView> {
        self.buffers.get(i as usize)?.as_ref()
    }

    /// `HWATOMIC[i]`.
    pub fn hw_atomic(&self, i: u32) -> Option<&BufferView> {
        self.hw_atomics.get(i as usize)?.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_bounds_and_partial_words() {
        let s = Storage::from_bytes(&[1, 2, 3, 4, 5, 6]);
        assert_eq!(s.len(), 6);
        assert_eq!(s.load_u32(0), Some(0x0403_0201));
        assert_eq!(s.load_u32(4), None, "word straddles the end");
        assert_eq!(s.load_u32(1), None, "misaligned");
        assert!(s.write(3, &[0xaa, 0xbb, 0xcc]));
        assert_eq!(s.to_bytes(), [1, 2, 3, 0xaa, 0xbb, 0xcc]);
        assert!(!s.write(5, &[0, 0]));
        let mut out = [0u8; 2];
        assert!(!s.read(5, &mut out));
        assert!(s.read(4, &mut out));
        assert_eq!(out, [0xbb, 0xcc]);
        assert_eq!(s.update_u32(0, |v| Some(v + 1)), Some(0xaa03_0201));
        assert_eq!(s.load_u32(0), Some(0xaa03_0202));
        assert!(!s.contains(usize::MAX, 2));
    }

    #[test]
    fn level_layout() {
        let r = Resource {
            target: Target::Array2D,
            format: Format(0),
            width0: 8,
            height0: 4,
            depth0: 1,
            array_size: 3,
            last_level: 3,
            nr_samples: 0,
            data: Storage::zeroed(0),
        };
        let l1 = r.level(1, 4).unwrap();
        assert_eq!(
            (l1.offset, l1.width, l1.height, l1.slices),
            (8 * 4 * 4 * 3, 4, 2, 3)
        );
        let l3 = r.level(3, 4).unwrap();
        assert_eq!((l3.width, l3.height), (1, 1));
        assert_eq!(r.level(4, 4), None);
        assert_eq!(r.layout_bytes(4), Some(4 * 3 * (32 + 8 + 2 + 1)));
    }
}
