//! Reading texels of a sampler view the way softpipe's texture tile cache delivers them:
//! unpacked to four 32-bit words (floats, or integers for pure-integer formats), depth
//! formats with the depth value in all four channels (`u_tile.c`), addressed by level,
//! column, row and slice of the **resource** (sizes are `u_minify` of the resource's level-0
//! size). For 1-D array resources the tile cache sees the layers as rows.
//!
//! Every read is bounds-checked: a texel outside the resource (which softpipe would read
//! from stale tile memory or unmapped levels) reads as zero.

use super::cmath::{clampf, lerp_2d, minify};
use super::fast2d::blend_words;
use super::tile_cache::aliases;
use crate::format::{self, NumClass};
use crate::resource::{Level, Resource, SamplerView, Swizzle, Target};
use std::sync::Arc;
use tgsi::Format;

/// One texel, channels as `f32` (integer texels keep their bit patterns).
pub(crate) type Texel = [f32; 4];

/// A bound view prepared for sampling (it keeps its own handle on the view and the
/// resource, so that it can be kept from one wave to the next).
pub(crate) struct View {
    pub res: Arc<Resource>,
    pub view: SamplerView,
    /// Bytes of one texel of the view format.
    pub texel_bytes: usize,
    /// Depth format: the unpacked depth goes to all four channels.
    depth: bool,
    /// Pure-integer view format (swizzle `1` is integer 1).
    pub integer: bool,
    /// Numeric class of the view format (`None`: unknown to the format module).
    pub class: Option<NumClass>,
    /// The sampler's border colour after softpipe's per-format clamp (before the swizzle).
    pub border: Texel,
    /// The byte-unorm fast path of the view format, where it has one.
    byte_word: Option<format::ByteWord>,
    /// [`format::ByteWord::byte_order`] of that path, for four-byte texels other than depth.
    byte_order: Option<[u8; 4]>,
    /// The layout of the resource's first [`CACHED_LEVELS`] levels (as many as it has and
    /// whose bytes end inside the address space), worked out once per view, not per texel.
    levels: [Level; CACHED_LEVELS],
    /// How many entries of `levels` are valid.
    cached_levels: u32,
}

/// Levels whose layout a [`View`] keeps at hand (a 32768-texel-wide texture has 16);
/// deeper levels are worked out on each read.
const CACHED_LEVELS: usize = 16;

impl View {
    /// Prepare a view; `None` when its format is unknown to the format module.
    pub fn new(view: &SamplerView, border_words: [u32; 4]) -> Option<View> {
        let texel_bytes = format::texel_bytes(view.format)?;
        let class = format::class(view.format);
        let border = border_color(view.format, border_words);
        let depth = format::is_depth(view.format);
        let byte_word = format::byte_word(view.format);
        let byte_order = byte_word
            .and_then(|w| w.byte_order())
            .filter(|_| texel_bytes == 4 && !depth);
        let res = &view.resource;
        let mut levels = [Level::default(); CACHED_LEVELS];
        let mut cached_levels = 0;
        if res.target != Target::Buffer {
            let whole = |lv: &Level| {
                let bytes = lv.slice_bytes.checked_mul(lv.slices as usize);
                bytes.and_then(|n| lv.offset.checked_add(n)).is_some()
            };
            for (slot, lv) in levels
                .iter_mut()
                .zip(res.levels(texel_bytes).take_while(whole))
            {
                *slot = lv;
                cached_levels += 1;
            }
        }
        Some(View {
            res: res.clone(),
            view: view.clone(),
            texel_bytes,
            depth,
            integer: matches!(class, Some(NumClass::Uint | NumClass::Sint)),
            class,
            border,
            byte_word,
            byte_order,
            levels,
            cached_levels,
        })
    }

    /// Where each component of a texel comes from in its word, when the view has the
    /// one-word format path and every component is a byte of the word.
    pub(crate) fn byte_order(&self) -> Option<[u8; 4]> {
        self.byte_order
    }

    /// The layout of `level` when the view keeps it at hand.
    pub(crate) fn cached_level(&self, level: u32) -> Option<&Level> {
        self.levels[..self.cached_levels as usize].get(level as usize)
    }

    /// Width of a level of the resource (`u_minify(width0, level)`).
    pub fn width(&self, level: u32) -> u32 {
        minify(self.res.width0, level)
    }

    /// Height of a level of the resource.
    pub fn height(&self, level: u32) -> u32 {
        minify(self.res.height0, level)
    }

    /// Depth of a level of the resource.
    pub fn depth(&self, level: u32) -> u32 {
        minify(self.res.depth0, level)
    }

    /// The constant of swizzle `1`: 1.0, or integer 1 for pure-integer formats.
    pub fn one(&self) -> f32 {
        if self.integer {
            f32::from_bits(1)
        } else {
            1.0
        }
    }

    /// The texel at column `x`, row `y` of slice `z` of `level`, without border handling
    /// (softpipe's `get_texel_*_no_border`); zero outside the resource.
    pub fn texel(&self, level: u32, x: i32, y: i32, z: i32) -> Texel {
        self.try_texel(level, x, y, z).unwrap_or([0.0; 4])
    }

    /// [`View::texel`], `None` outside the resource.
    pub(crate) fn try_texel(&self, level: u32, x: i32, y: i32, z: i32) -> Option<Texel> {
        let res = &*self.res;
        if res.target == Target::Buffer {
            return if y == 0 && z == 0 {
                self.element(u32::try_from(x).ok()?)
            } else {
                None
            };
        }
        let lv = if level < self.cached_levels {
            self.levels[level as usize]
        } else {
            res.level(level, self.texel_bytes)?
        };
        let (x, y, z) = (
            u32::try_from(x).ok()?,
            u32::try_from(y).ok()?,
            u32::try_from(z).ok()?,
        );
        // 1-D arrays: the tile cache maps the layers of a level as the rows of one image.
        let (row, slice) = if res.target == Target::Array1D {
            (0, y)
        } else {
            (y, z)
        };
        if x >= lv.width || row >= lv.height || slice >= lv.slices {
            return None;
        }
        let at = lv
            .offset
            .checked_add((slice as usize).checked_mul(lv.slice_bytes)?)?
            .checked_add((row as usize).checked_mul(lv.row_bytes)?)?
            .checked_add((x as usize).checked_mul(self.texel_bytes)?)?;
        self.read(at)
    }

    /// The one-word unpacking and the cached layout of `level`, where its texels are single
    /// aligned words at column · 4 of their row (4-byte byte-unorm formats of targets other
    /// than buffers and 1-D arrays, not depth): the case the fast paths below read.
    fn word_level(&self, level: u32) -> Option<(&format::ByteWord, &Level)> {
        let plain = !matches!(self.res.target, Target::Buffer | Target::Array1D);
        let unpack = self.byte_word.as_ref()?;
        let fits = plain && self.texel_bytes == 4 && !self.depth && level < self.cached_levels;
        fits.then(|| (unpack, &self.levels[level as usize]))
    }

    /// [`View::texel`] of each of the columns and rows `xy` of slice `z` of `level`,
    /// reading the level's layout once: the footprint of a filter inside one cache tile.
    pub(crate) fn texels<const N: usize>(
        &self,
        level: u32,
        z: i32,
        xy: [(i32, i32); N],
    ) -> [Texel; N] {
        let Some((unpack, lv)) = self.word_level(level) else {
            return xy.map(|(x, y)| self.texel(level, x, y, z));
        };
        let mut out = [[0.0; 4]; N];
        let Ok(z) = u32::try_from(z) else { return out };
        if z >= lv.slices {
            return out;
        }
        // Cached levels end inside the address space (`View::new`), so none of these
        // offsets overflows; a load outside the resource's bytes reads zero, as in
        // `texel` (every texel of a 4-byte format starts on a word).
        let base = lv.offset + z as usize * lv.slice_bytes;
        for (o, &(x, y)) in out.iter_mut().zip(&xy) {
            if x >= 0 && y >= 0 && (x as u32) < lv.width && (y as u32) < lv.height {
                let at = base + y as usize * lv.row_bytes + 4 * x as usize;
                if let Some(w) = self.res.data.load_u32(at) {
                    *o = unpack.unpack_f32(w);
                }
            }
        }
        out
    }

    /// The bilinear blend (`lerp_2d`, weights `wx` and `wy`) of the texels at columns `xs`
    /// and rows `ys` of slice `z` of `level`, when all four are inside the level, the
    /// tile cache aliases none of them and the view has the one-word format path: the
    /// footprint the linear
    /// filters fetch, without building it. `None` otherwise (the caller then resolves the
    /// footprint through [`super::tile_cache::resolve`], which gives the same value here).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn bilinear(
        &self,
        level: u32,
        z: i32,
        [x0, x1]: [i32; 2],
        [y0, y1]: [i32; 2],
        wx: f32,
        wy: f32,
    ) -> Option<Texel> {
        let (unpack, lv) = self.word_level(level)?;
        let inside = |i: i32, n: u32| i >= 0 && (i as u32) < n;
        let z = u32::try_from(z).ok().filter(|&z| z < lv.slices)?;
        let in_level = inside(x0, lv.width)
            && inside(x1, lv.width)
            && inside(y0, lv.height)
            && inside(y1, lv.height);
        if !in_level || aliases(level, z as i32, [x0, x1], [y0, y1]) {
            return None;
        }
        // Inside a cached level, so no offset overflows (`View::new`).
        let base = lv.offset + z as usize * lv.slice_bytes;
        let (r0, r1) = (
            base + y0 as usize * lv.row_bytes,
            base + y1 as usize * lv.row_bytes,
        );
        let (c0, c1) = (4 * x0 as usize, 4 * x1 as usize);
        let at = [r0 + c0, r0 + c1, r1 + c0, r1 + c1];
        let data = &self.res.data;
        if let (Some(order), true) = (self.byte_order, data.contains(r0.max(r1) + c0.max(c1), 4)) {
            // Every texel is in the resource's bytes and every component a byte.
            let word = |a: usize| data.load_u32(a).unwrap_or(0);
            let words = [word(at[0]), word(at[1]), word(at[2]), word(at[3])];
            return Some(blend_words(order, wx, wy, words));
        }
        // A texel outside the resource's bytes reads as zero, as in `texel`.
        let texel = |at: usize| match data.load_u32(at) {
            Some(w) => unpack.unpack_f32(w),
            None => [0.0; 4],
        };
        let (t00, t10, t01, t11) = (texel(at[0]), texel(at[1]), texel(at[2]), texel(at[3]));
        let mut out = [0.0; 4];
        for (c, o) in out.iter_mut().enumerate() {
            *o = lerp_2d(wx, wy, t00[c], t10[c], t01[c], t11[c]);
        }
        Some(out)
    }

    /// Element `x` of a buffer resource (byte offset `x · texel_bytes`).
    pub fn element(&self, x: u32) -> Option<Texel> {
        self.read((x as usize).checked_mul(self.texel_bytes)?)
    }

    fn read(&self, at: usize) -> Option<Texel> {
        if let (Some(unpack), 4) = (&self.byte_word, self.texel_bytes) {
            // The common RGBA8-style texel: one aligned word (a misaligned one, possible
            // only in a buffer view, takes the general path).
            if let Some(word) = self.res.data.load_u32(at) {
                return Some(unpack.unpack_f32(word));
            }
        }
        let mut bytes = [0u8; 16];
        let buf = bytes.get_mut(..self.texel_bytes)?;
        if !self.res.data.read(at, buf) {
            return None;
        }
        let words = match &self.byte_word {
            // Byte-unorm texels are at most a word; the bytes past them are zero.
            Some(unpack) => {
                unpack.unpack(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
            }
            None => format::unpack(self.view.format, buf),
        };
        let rgba = if self.depth { [words[0]; 4] } else { words };
        Some(rgba.map(f32::from_bits))
    }

    /// The view swizzle applied to one texel (`do_swizzling`).
    pub fn swizzle(&self, t: Texel) -> Texel {
        use Swizzle::{W, X, Y, Z};
        if self.view.swizzle == [X, Y, Z, W] {
            return t;
        }
        self.view.swizzle.map(|s| self.select(s, &t))
    }

    /// [`View::swizzle`] of lanes held channel-major (`[channel][lane]`).
    pub fn swizzle_channels<const L: usize>(&self, c: [[f32; L]; 4]) -> [[f32; L]; 4] {
        use Swizzle::{W, X, Y, Z};
        if self.view.swizzle == [X, Y, Z, W] {
            return c;
        }
        self.view.swizzle.map(|s| match s {
            X => c[0],
            Y => c[1],
            Z => c[2],
            W => c[3],
            Swizzle::Zero => [0.0; L],
            Swizzle::One => [self.one(); L],
        })
    }

    /// One channel chosen by a swizzle.
    pub fn select(&self, s: Swizzle, t: &Texel) -> f32 {
        match s {
            Swizzle::X => t[0],
            Swizzle::Y => t[1],
            Swizzle::Z => t[2],
            Swizzle::W => t[3],
            Swizzle::Zero => 0.0,
            Swizzle::One => self.one(),
        }
    }
}

/// Combined depth-stencil formats: `util_format_is_unorm` is false for them (the stencil
/// channel is an unnormalised integer), so softpipe does not clamp their border colour.
/// The border colour a sampler whose `pipe_sampler_state::border_color` holds `words` gives
/// the texels of a view of `format`, before the view swizzle: softpipe clamps it to [0, 1]
/// for unorm formats (but not depth-stencil ones) and to [−1, 1] for snorm formats, and
/// uses the words as they are otherwise.
pub fn border_color(format: Format, words: [u32; 4]) -> Texel {
    let raw = words.map(f32::from_bits);
    match format::class(format) {
        Some(NumClass::Unorm) if !has_stencil(format) => raw.map(|c| clampf(c, 0.0, 1.0)),
        Some(NumClass::Snorm) => raw.map(|c| clampf(c, -1.0, 1.0)),
        _ => raw,
    }
}

fn has_stencil(f: Format) -> bool {
    format::is_depth(f) && f.short_name().is_some_and(|n| n.contains("S8"))
}
