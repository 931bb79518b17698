//! LOAD, STORE, atomics and RESQ on `IMAGE` resources, as softpipe's `sp_image.c` (Mesa
//! 22.3) does them:
//!
//! * The access uses the instruction's target and format ([`crate::compile::ImageAccess`];
//!   a format left NONE means the bound view's). The view must be bound and its resource's
//!   target compatible with the instruction's (a 2-D access may address a 3-D, cube or array
//!   resource, a 1-D access a 1-D array); otherwise loads and atomics return 0 and stores
//!   are dropped.
//! * Coordinates are the signed integers `src.xyz`: x; y unless the target has one
//!   coordinate (BUFFER, 1D, 1D_ARRAY); the layer or depth z (y for 1D_ARRAY) for 3D, CUBE,
//!   arrays. Bounds: the bound level's width and height, and its depth (3-D) or the
//!   resource's `array_size` (others). BUFFER targets have `view.size / texel` texels from
//!   `view.offset`. The layer is offset by the view's `first_layer` for layered resources.
//! * Loads and atomics of lanes out of bounds (and loads of inactive lanes) give
//!   `(0, 0, 0, 0)`, with alpha 1 (integer 1 for pure-integer formats) when the format has
//!   fewer than four channels. Stores write only active non-helper lanes in bounds, packed
//!   with [`crate::format::pack`].
//! * Atomics run lane by lane in lane order. Pure-integer formats: every channel of the
//!   format is combined with the same channel of `src2` (`src3` for CAS) and the old texel
//!   is returned (UMIN/UMAX compare signed on signed formats, as softpipe does; ATOMFADD
//!   changes nothing and returns `src2`). `R32_FLOAT`: ATOMXCHG stores `src2` and returns
//!   the old value truncated to an integer and converted back to float (softpipe's
//!   conversion through `int`), ATOMFADD adds (not in softpipe); other formats and
//!   opcodes change nothing and return `src2`. Texels of 32-bit integer channels are
//!   updated with atomic word operations; other formats by read-modify-write.
//! * RAW images (`DCL IMAGE[i], …, RAW`) are byte buffers: the view's bytes (BUFFER) or
//!   the bound level's (textures), addressed by `x` in bytes like a `BUFFER`.
//! * RESQ: BUFFER targets give `view.size / texel` in `.x`; others the level's width, its
//!   height (2-D, cube, 3-D, 2-D arrays), its depth (3-D), the view's layer count (arrays;
//!   cube arrays: ÷ 6, 1-D arrays in `.y`). What softpipe leaves unset (`.w`, unused
//!   channels, unbound slots) is 0.

use crate::compile::{ImageAccess, Indirect, Inst};
use crate::format::{self, NumClass};
use crate::machine::{Machine, Res};
use crate::memory::Space;
use crate::ops::{AtomicOp, Kind};
use crate::resource::{ImageView, Target};
use tgsi::{Format, TextureTarget};

/// Number of channels of a format (`util_format_get_nr_components`), from its name: the
/// channel letters followed by a bit count (`R32G32B32A32_UINT` 4, `Z24_UNORM_S8_UINT` 2;
/// the shared exponent of `R9G9B9E5` is no channel).
pub(crate) fn channels(format: Format) -> usize {
    let Some(name) = format.short_name() else {
        return 0;
    };
    let b = name.as_bytes();
    let n = (0..b.len())
        .filter(|&i| {
            b"RGBAXZSLI".contains(&b[i])
                && b.get(i + 1).is_some_and(u8::is_ascii_digit)
                && (i == 0 || b[i - 1].is_ascii_digit() || b[i - 1] == b'_')
        })
        .count();
    n.min(4)
}

/// Whether a resource of `target` can be accessed with `access`'s target (softpipe's
/// `has_compat_target`).
fn compatible(resource: Target, access: TextureTarget) -> bool {
    use TextureTarget as T;
    match resource {
        Target::Tex1D => access == T::Tex1D,
        Target::Tex2D => access == T::Tex2D,
        Target::Rect => access == T::Rect,
        Target::Tex3D => matches!(access, T::Tex3D | T::Tex2D),
        Target::Cube => matches!(access, T::Cube | T::Tex2D),
        Target::Array1D => matches!(access, T::Tex1D | T::Array1D),
        Target::Array2D => matches!(access, T::Tex2D | T::Array2D),
        Target::CubeArray => matches!(access, T::Cube | T::CubeArray | T::Tex2D),
        Target::Buffer => access == T::Buffer,
    }
}

/// `u_minify`.
fn minify(v: u32, level: u32) -> u32 {
    v.checked_shr(level).unwrap_or(0).max(1)
}

/// A bound image resolved for one instruction.
struct Bound<'a> {
    view: &'a ImageView,
    format: Format,
    texel: usize,
    width: u32,
    height: u32,
    depth: u32,
    /// Bytes of one row (the access format's texel size × width).
    row: usize,
    /// Byte offset of slice 0 of the level and bytes per slice (textures).
    level_offset: usize,
    slice_bytes: usize,
    layered: bool,
}

impl<'a> Bound<'a> {
    /// Resolve `view` for an access of `target` and `format` (softpipe's `get_dimensions`);
    /// `None` where softpipe gives up. `row_format` is the format whose texel size sets the
    /// row pitch (the access format, or for atomics the resource's).
    fn new(view: &'a ImageView, access: &ImageAccess, atomic: bool) -> Option<Bound<'a>> {
        let r = &view.resource;
        if !compatible(r.target, access.target) {
            return None;
        }
        let format = if access.format == Format::NONE {
            view.format
        } else {
            access.format
        };
        let texel = format::texel_bytes(format)?;
        let res_texel = format::texel_bytes(r.format);
        if access.target == TextureTarget::Buffer {
            let width = view.size / texel as u32;
            let res_bytes = u64::from(r.width0) * res_texel.unwrap_or(1) as u64;
            if u64::from(width) * texel as u64 > res_bytes {
                return None;
            }
            return Some(Bound {
                view,
                format,
                texel,
                width,
                height: 1,
                depth: 1,
                row: 0,
                level_offset: view.offset as usize,
                slice_bytes: 0,
                layered: false,
            });
        }
        let res_texel = res_texel?;
        if texel > res_texel {
            return None;
        }
        let level = if r.target == Target::Buffer {
            0
        } else {
            view.level
        };
        let width = minify(r.width0, level);
        let height = minify(r.height0, level);
        let depth = if r.target == Target::Tex3D {
            minify(r.depth0, level)
        } else {
            r.array_size
        };
        let (level_offset, slice_bytes) = if r.target == Target::Buffer {
            (view.offset as usize, 0)
        } else {
            let lv = r.level(level, res_texel)?;
            (lv.offset, lv.slice_bytes)
        };
        let row_texel = if atomic { res_texel } else { texel };
        Some(Bound {
            view,
            format,
            texel,
            width,
            height,
            depth,
            row: row_texel.saturating_mul(width as usize),
            level_offset,
            slice_bytes,
            layered: matches!(
                r.target,
                Target::Array1D
                    | Target::Array2D
                    | Target::CubeArray
                    | Target::Cube
                    | Target::Tex3D
            ),
        })
    }

    /// The byte offset of texel (s, t, r) when it lies inside.
    fn locate(&self, s: i32, t: i32, r: i32) -> Option<usize> {
        let inside = |v: i32, n: u32| v >= 0 && (v as u32) < n;
        if !(inside(s, self.width) && inside(t, self.height) && inside(r, self.depth)) {
            return None;
        }
        let layer = if self.layered {
            (r as u32).checked_add(self.view.first_layer)? as usize
        } else {
            0
        };
        self.level_offset
            .checked_add(layer.checked_mul(self.slice_bytes)?)?
            .checked_add((t as usize).checked_mul(self.row)?)?
            .checked_add((s as usize).checked_mul(self.texel)?)
    }

    /// The texel at byte `at` unpacked, or `None` outside the storage.
    fn read(&self, at: usize) -> Option<[u32; 4]> {
        let mut buf = [0u8; 16];
        let bytes = buf.get_mut(..self.texel)?;
        self.view
            .resource
            .data
            .read(at, bytes)
            .then(|| format::unpack(self.format, bytes))
    }

    /// Pack `rgba` into the texel at byte `at`.
    fn write(&self, at: usize, rgba: [u32; 4]) {
        let mut buf = [0u8; 16];
        if let Some(n) = format::pack(self.format, rgba, &mut buf) {
            self.view.resource.data.write(at, &buf[..n]);
        }
    }
}

/// Coordinates (s, t, r) of an address for `target` (softpipe's `fill_coords`).
fn coords(target: TextureTarget, x: u32, y: u32, z: u32) -> (i32, i32, i32) {
    use TextureTarget as T;
    let one = matches!(target, T::Buffer | T::Tex1D | T::Array1D);
    let layered = matches!(
        target,
        T::Tex3D | T::Cube | T::Array1D | T::Array2D | T::CubeArray | T::Msaa2DArray
    );
    let t = if one { 0 } else { y as i32 };
    let r = match target {
        T::Array1D => y as i32,
        _ if layered => z as i32,
        _ => 0,
    };
    (x as i32, t, r)
}

/// The value of a load or atomic outside the image: zeros, alpha 1 when the format has
/// fewer than four channels.
fn outside(format: Format) -> [u32; 4] {
    let mut v = [0; 4];
    if channels(format) < 4 {
        v[3] = match format::class(format) {
            Some(NumClass::Uint | NumClass::Sint) => 1,
            _ => 1.0f32.to_bits(),
        };
    }
    v
}

impl<const N: usize> Machine<N> {
    /// An IMAGE operation; `index`/`indirect` name the slot.
    pub(crate) fn image(
        &mut self,
        inst: &Inst,
        res: &Res,
        exec: u32,
        index: i32,
        indirect: Option<&Indirect>,
    ) {
        let Some(access) = inst.image else { return };
        let units = self.units(index, indirect, exec);
        let view_of = |l: usize| units[l].and_then(|u| res.resources.image(u));
        if access.raw && !matches!(inst.kind, Kind::Resq) {
            self.raw_image(inst, res, exec, &access, &view_of);
            return;
        }
        let store = matches!(inst.kind, Kind::Store);
        let addr_src = if store { 0 } else { 1 };
        let addr: [[u32; N]; 3] =
            std::array::from_fn(|c| self.fetch_src(inst, addr_src, c, exec, res));
        let lanes = self.memory_lanes();
        let atomic = matches!(inst.kind, Kind::Atomic(_));
        let bound = |l: usize| view_of(l).and_then(|v| Bound::new(v, &access, atomic));
        match inst.kind {
            Kind::Load => {
                let mut out = [[0u32; N]; 4];
                for l in 0..N {
                    let Some(b) = bound(l) else { continue };
                    let (s, t, r) = coords(access.target, addr[0][l], addr[1][l], addr[2][l]);
                    let texel = match b.locate(s, t, r) {
                        Some(at) if lanes & (1 << l) != 0 => {
                            b.read(at).unwrap_or_else(|| outside(b.format))
                        }
                        _ => outside(b.format),
                    };
                    for c in 0..4 {
                        out[c][l] = texel[c];
                    }
                }
                self.write(inst, 0, &out, 0xf, exec);
            }
            Kind::Store => {
                let vals: [[u32; N]; 4] =
                    std::array::from_fn(|c| self.fetch_src(inst, 1, c, exec, res));
                for l in (0..N).filter(|l| lanes & (1 << l) != 0) {
                    let Some(b) = bound(l) else { continue };
                    let (s, t, r) = coords(access.target, addr[0][l], addr[1][l], addr[2][l]);
                    if let Some(at) = b.locate(s, t, r) {
                        b.write(at, std::array::from_fn(|c| vals[c][l]));
                    }
                }
            }
            Kind::Atomic(op) => {
                let a: [[u32; N]; 4] =
                    std::array::from_fn(|c| self.fetch_src(inst, 2, c, exec, res));
                let b: [[u32; N]; 4] = match inst.src.get(3) {
                    Some(s) if op == AtomicOp::Cas => {
                        std::array::from_fn(|c| self.fetch(s, c, exec, res))
                    }
                    _ => [[0; N]; 4],
                };
                let mut out = a;
                for l in 0..N {
                    let Some(bd) = bound(l) else {
                        for o in out.iter_mut() {
                            o[l] = 0;
                        }
                        continue;
                    };
                    let (s, t, r) = coords(access.target, addr[0][l], addr[1][l], addr[2][l]);
                    let Some(at) = bd.locate(s, t, r) else {
                        let v = outside(bd.format);
                        for c in 0..4 {
                            out[c][l] = v[c];
                        }
                        continue;
                    };
                    let src = std::array::from_fn(|c| a[c][l]);
                    let cmp = std::array::from_fn(|c| b[c][l]);
                    let active = lanes & (1 << l) != 0;
                    if let Some(r) = atomic_texel(&bd, at, op, src, cmp, active) {
                        for c in 0..4 {
                            out[c][l] = r[c];
                        }
                    }
                }
                self.write(inst, 0, &out, 0xf, exec);
            }
            Kind::Resq => {
                let mut out = [[0u32; N]; 4];
                for l in 0..N {
                    let dims = view_of(l).map_or([0; 4], |v| resq(v, access.target));
                    for (o, d) in out.iter_mut().zip(dims) {
                        o[l] = d;
                    }
                }
                self.write(inst, 0, &out, 0xf, exec);
            }
            _ => {}
        }
    }

    /// A RAW image access: the view's (or the bound level's) bytes as a buffer.
    fn raw_image<'v>(
        &mut self,
        inst: &Inst,
        res: &Res,
        exec: u32,
        access: &ImageAccess,
        view_of: &dyn Fn(usize) -> Option<&'v ImageView>,
    ) {
        let space = |l: usize| -> Space<'v> {
            let Some(v) = view_of(l) else {
                return Space::Empty;
            };
            let r = &v.resource;
            let (base, size) =
                if access.target == TextureTarget::Buffer || r.target == Target::Buffer {
                    (v.offset as usize, v.size)
                } else {
                    let lv = format::texel_bytes(r.format).and_then(|t| r.level(v.level, t));
                    match lv {
                        Some(lv) => (
                            lv.offset,
                            u32::try_from(lv.slice_bytes.saturating_mul(lv.slices as usize))
                                .unwrap_or(u32::MAX),
                        ),
                        None => return Space::Empty,
                    }
                };
            Space::Bytes {
                data: &r.data,
                base,
                size,
            }
        };
        let lanes = self.memory_lanes();
        match inst.kind {
            Kind::Load => {
                let mask = inst.dst.first().map_or(0, |d| d.mask & 0xf);
                let words = 8 - mask.leading_zeros() as usize;
                let addr = self.fetch_src(inst, 1, 0, exec, res);
                let mut out = [[0u32; N]; 4];
                for l in 0..N {
                    let sp = space(l);
                    if words > 0 && sp.fits(addr[l], 4 * words as u32) {
                        for (c, o) in out.iter_mut().enumerate().take(words) {
                            o[l] = sp.read(addr[l] + 4 * c as u32);
                        }
                    }
                }
                self.write(inst, 0, &out, 0xf, exec);
            }
            Kind::Store => {
                let mask = inst.dst.first().map_or(0, |d| d.mask);
                let addr = self.fetch_src(inst, 0, 0, exec, res);
                let vals: [[u32; N]; 4] =
                    std::array::from_fn(|c| self.fetch_src(inst, 1, c, exec, res));
                for l in (0..N).filter(|l| lanes & (1 << l) != 0) {
                    let sp = space(l);
                    for (c, v) in vals.iter().enumerate() {
                        let at = addr[l].checked_add(4 * c as u32);
                        if let Some(at) = at.filter(|&at| mask & (1 << c) != 0 && sp.fits(at, 4)) {
                            sp.write(at, v[l]);
                        }
                    }
                }
            }
            Kind::Atomic(op) => {
                let addr = self.fetch_src(inst, 1, 0, exec, res);
                let a = self.fetch_src(inst, 2, 0, exec, res);
                let b = match inst.src.get(3) {
                    Some(s) if op == AtomicOp::Cas => self.fetch(s, 0, exec, res),
                    _ => [0; N],
                };
                let mut old = [0u32; N];
                for l in (0..N).filter(|l| lanes & (1 << l) != 0) {
                    let sp = space(l);
                    if sp.fits(addr[l], 4) {
                        old[l] = sp.update(addr[l], |v| op.apply(v, a[l], b[l], false));
                    }
                }
                let mut out = [[0u32; N]; 4];
                out[0] = old;
                self.write(inst, 0, &out, 0b0001, exec);
            }
            _ => {}
        }
    }
}

/// One lane's atomic on the texel at byte `at`; the values to return (`None`: keep `src`).
/// Inactive lanes only read.
fn atomic_texel(
    b: &Bound,
    at: usize,
    op: AtomicOp,
    src: [u32; 4],
    cmp: [u32; 4],
    active: bool,
) -> Option<[u32; 4]> {
    let class = format::class(b.format)?;
    let nc = channels(b.format);
    let data = &b.view.resource.data;
    match class {
        NumClass::Uint | NumClass::Sint => {
            let signed = class == NumClass::Sint;
            let old = b.read(at)?;
            let mut ret = src;
            if !active {
                ret[..nc].copy_from_slice(&old[..nc]);
                return Some(ret);
            }
            if op == AtomicOp::FAdd {
                return None;
            }
            let words = b.texel == 4 * nc && at.is_multiple_of(4);
            if words {
                // 32-bit integer channels: one atomic word operation per channel.
                for c in 0..nc {
                    let f = |v: u32| Some(op.apply(v, src[c], cmp[c], signed));
                    ret[c] = data.update_u32(at + 4 * c, f).unwrap_or(old[c]);
                }
            } else {
                let mut new = old;
                for c in 0..nc {
                    new[c] = op.apply(old[c], src[c], cmp[c], signed);
                    ret[c] = old[c];
                }
                b.write(at, new);
            }
            Some(ret)
        }
        _ if b.format.short_name() == Some("R32_FLOAT")
            && matches!(op, AtomicOp::Xchg | AtomicOp::FAdd) =>
        {
            let old = b.read(at)?[0];
            let as_int = |x: u32| {
                let f = f32::from_bits(x);
                // x86 cvttss2si: NaN and out-of-range values give INT_MIN.
                if !(-2147483648.0..2147483648.0).contains(&f) {
                    i32::MIN
                } else {
                    f as i32
                }
            };
            let mut ret = src;
            if !active {
                ret[0] = as_int(old) as u32;
                return Some(ret);
            }
            match op {
                AtomicOp::Xchg => {
                    let prev = data.update_u32(at, |_| Some(src[0])).unwrap_or(old);
                    ret[0] = (as_int(prev) as f32).to_bits();
                }
                AtomicOp::FAdd => {
                    ret[0] = data
                        .update_u32(at, |v| Some(op.apply(v, src[0], 0, false)))
                        .unwrap_or(old);
                }
                _ => return None,
            }
            Some(ret)
        }
        _ => None,
    }
}

/// RESQ of an image view for an access of `target`.
fn resq(v: &ImageView, target: TextureTarget) -> [u32; 4] {
    use TextureTarget as T;
    let r = &v.resource;
    if target == T::Buffer {
        let texel = format::texel_bytes(v.format).map_or(0, |t| v.size / t as u32);
        return [texel, 0, 0, 0];
    }
    let level = v.level;
    let layers = v.last_layer.wrapping_sub(v.first_layer).wrapping_add(1);
    let w = minify(r.width0, level);
    let h = minify(r.height0, level);
    match target {
        T::Array1D => [w, layers, 0, 0],
        T::Tex1D => [w, 0, 0, 0],
        T::Array2D => [w, h, layers, 0],
        T::Tex2D | T::Cube | T::Rect => [w, h, 0, 0],
        T::Tex3D => [w, h, minify(r.depth0, level), 0],
        T::CubeArray => [w, h, layers / 6, 0],
        _ => [w, 0, 0, 0],
    }
}
