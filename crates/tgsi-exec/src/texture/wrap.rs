//! Texture coordinate wrapping as softpipe does it (`wrap_nearest_*`, `wrap_linear_*` and
//! their unnormalised-coordinate variants), all in float32 with Mesa's `util_ifloor`.
//!
//! Nearest wrapping gives one texel index, which may be −1 or `size` for the border modes;
//! linear wrapping gives two indices and the weight of the second. The texel offset is an
//! integer added where softpipe adds it (before or after scaling, depending on the mode).

use super::cmath::{clampf, frac, ifloor, repeat};
use crate::resource::Wrap;

/// Two texel indices and the blend weight of the second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Linear {
    pub i0: i32,
    pub i1: i32,
    pub w: f32,
}

/// The texel index for nearest filtering; `normalized` false selects the RECT-style
/// variants (every mode other than CLAMP_TO_EDGE / CLAMP_TO_BORDER behaves as CLAMP).
pub(crate) fn nearest(mode: Wrap, normalized: bool, s: f32, size: u32, offset: i32) -> i32 {
    let sz = size as f32;
    let last = size as i32 - 1;
    if !normalized {
        return match mode {
            Wrap::ClampToEdge => ifloor(clampf(s + offset as f32, 0.5, sz - 0.5)),
            Wrap::ClampToBorder => ifloor(clampf(s + offset as f32, -0.5, sz + 0.5)),
            _ => {
                let i = ifloor(s).wrapping_add(offset);
                if i > 0 {
                    i.min(last)
                } else {
                    0
                }
            }
        };
    }
    match mode {
        Wrap::Repeat => repeat(ifloor(s * sz).wrapping_add(offset), size),
        Wrap::Clamp => {
            let u = s * sz + offset as f32;
            if u <= 0.0 {
                0
            } else if u >= sz {
                last
            } else {
                ifloor(u)
            }
        }
        Wrap::ClampToEdge => {
            let u = s * sz + offset as f32;
            if u < 0.5 {
                0
            } else if u > sz - 0.5 {
                last
            } else {
                ifloor(u)
            }
        }
        Wrap::ClampToBorder => {
            let u = s * sz + offset as f32;
            if u <= -0.5 {
                -1
            } else if u >= sz + 0.5 {
                size as i32
            } else {
                ifloor(u)
            }
        }
        Wrap::MirrorRepeat => {
            let min = 1.0 / (2.0 * sz);
            let max = 1.0 - min;
            let s = s + offset as f32 / sz;
            let flr = ifloor(s);
            let mut u = frac(s);
            if flr & 1 != 0 {
                u = 1.0 - u;
            }
            if u < min {
                0
            } else if u > max {
                last
            } else {
                ifloor(u * sz)
            }
        }
        Wrap::MirrorClamp => {
            let u = (s * sz + offset as f32).abs();
            if u <= 0.0 {
                0
            } else if u >= sz {
                last
            } else {
                ifloor(u)
            }
        }
        Wrap::MirrorClampToEdge => {
            let u = (s * sz + offset as f32).abs();
            if u < 0.5 {
                0
            } else if u > sz - 0.5 {
                last
            } else {
                ifloor(u)
            }
        }
        Wrap::MirrorClampToBorder => {
            let u = (s * sz + offset as f32).abs();
            if u < -0.5 {
                -1
            } else if u > sz + 0.5 {
                size as i32
            } else {
                ifloor(u)
            }
        }
    }
}

/// The two texel indices and weight for linear filtering (see [`nearest`] for
/// `normalized`).
pub(crate) fn linear(mode: Wrap, normalized: bool, s: f32, size: u32, offset: i32) -> Linear {
    let sz = size as f32;
    let last = size as i32 - 1;
    let pair = |u: f32| {
        let i0 = ifloor(u);
        Linear {
            i0,
            i1: i0.wrapping_add(1),
            w: frac(u),
        }
    };
    let edge = |mut l: Linear| {
        if l.i0 < 0 {
            l.i0 = 0;
        }
        if l.i1 >= size as i32 {
            l.i1 = last;
        }
        l
    };
    let cap_i1 = |mut l: Linear| {
        if l.i1 > last {
            l.i1 = last;
        }
        l
    };
    if !normalized {
        return match mode {
            Wrap::ClampToEdge => cap_i1(pair(clampf(s + offset as f32, 0.5, sz - 0.5) - 0.5)),
            Wrap::ClampToBorder => cap_i1(pair(clampf(s + offset as f32, -0.5, sz + 0.5) - 0.5)),
            _ => pair(clampf(s + offset as f32 - 0.5, 0.0, sz - 1.0)),
        };
    }
    match mode {
        Wrap::Repeat => {
            let u = s * sz - 0.5;
            let i0 = repeat(ifloor(u).wrapping_add(offset), size);
            Linear {
                i0,
                i1: repeat(i0 + 1, size),
                w: frac(u),
            }
        }
        Wrap::Clamp => pair(clampf(s * sz + offset as f32, 0.0, sz) - 0.5),
        Wrap::ClampToEdge => edge(pair(clampf(s * sz + offset as f32, 0.0, sz) - 0.5)),
        Wrap::ClampToBorder => pair(clampf(s * sz + offset as f32, -1.0, sz + 0.5) - 0.5),
        Wrap::MirrorRepeat => {
            let ([i0], [i1], [w]) = linear_mirror_repeat(&[s], size, offset);
            Linear { i0, i1, w }
        }
        Wrap::MirrorClamp | Wrap::MirrorClampToEdge => {
            let mut u = (s * sz + offset as f32).abs();
            if u >= sz {
                u = sz;
            }
            let l = pair(u - 0.5);
            if mode == Wrap::MirrorClampToEdge {
                edge(l)
            } else {
                l
            }
        }
        Wrap::MirrorClampToBorder => {
            let t = (s * sz + offset as f32).abs();
            pair(clampf(t, -0.5, sz + 0.5) - 0.5)
        }
    }
}

/// `wrap_linear_mirror_repeat` (normalised coordinates) of `L` lanes at once: both texel
/// indices and the second's weight, per lane. Written as selects rather than branches so
/// that the lanes' loop vectorises; [`linear`] is the one-lane case.
#[inline(always)]
pub(crate) fn linear_mirror_repeat<const L: usize>(
    s: &[f32; L],
    size: u32,
    offset: i32,
) -> ([i32; L], [i32; L], [f32; L]) {
    let (sz, last) = (size as f32, size as i32 - 1);
    let shift = offset as f32 / sz;
    let (mut i0s, mut i1s, mut ws) = ([0; L], [0; L], [0.0; L]);
    for (j, &s) in s.iter().enumerate() {
        let s = s + shift;
        let no_mirror = ifloor(s) & 1 == 0;
        let f = frac(s);
        let u = if no_mirror {
            f * sz - 0.5
        } else {
            (1.0 - f) * sz + 0.5
        };
        let i0 = ifloor(u);
        let i1 = if no_mirror {
            i0.wrapping_add(1)
        } else {
            i0.wrapping_sub(1)
        };
        let i0 = if i0 < 0 { i0 + 1 } else { i0 };
        let i0 = if i0 >= size as i32 { last } else { i0 };
        let i1 = if i1 >= size as i32 { last } else { i1 };
        let i1 = if i1 < 0 { i1 + 1 } else { i1 };
        (i0s[j], i1s[j]) = (i0, i1);
        ws[j] = frac(if no_mirror { u } else { 1.0 - u });
    }
    (i0s, i1s, ws)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_boundaries() {
        // size 4: texel centres at 0.125, 0.375, ...
        assert_eq!(nearest(Wrap::Repeat, true, -0.01, 4, 0), 3);
        assert_eq!(nearest(Wrap::Repeat, true, 1.0, 4, 0), 0);
        assert_eq!(nearest(Wrap::Repeat, true, 0.3, 4, 1), 2);
        assert_eq!(nearest(Wrap::Clamp, true, 1.0, 4, 0), 3);
        assert_eq!(nearest(Wrap::Clamp, true, -5.0, 4, 0), 0);
        assert_eq!(nearest(Wrap::ClampToEdge, true, 0.124, 4, 0), 0);
        assert_eq!(nearest(Wrap::ClampToEdge, true, 0.99, 4, 0), 3);
        assert_eq!(nearest(Wrap::ClampToBorder, true, -0.125, 4, 0), -1);
        assert_eq!(
            nearest(Wrap::ClampToBorder, true, -0.1, 4, 0),
            -1,
            "floor(-0.4)"
        );
        assert_eq!(nearest(Wrap::ClampToBorder, true, 1.125, 4, 0), 4);
        assert_eq!(
            nearest(Wrap::ClampToBorder, true, 1.1, 4, 0),
            4,
            "floor(4.4)"
        );
        // mirror: s in [1,2) reflects
        assert_eq!(nearest(Wrap::MirrorRepeat, true, 1.1, 4, 0), 3);
        assert_eq!(nearest(Wrap::MirrorRepeat, true, 2.1, 4, 0), 0);
        assert_eq!(nearest(Wrap::MirrorRepeat, true, -0.1, 4, 0), 0);
        assert_eq!(nearest(Wrap::MirrorClamp, true, -0.3, 4, 0), 1);
        assert_eq!(nearest(Wrap::MirrorClamp, true, -3.0, 4, 0), 3);
        assert_eq!(nearest(Wrap::MirrorClampToEdge, true, -0.99, 4, 0), 3);
        assert_eq!(nearest(Wrap::MirrorClampToBorder, true, -1.2, 4, 0), 4);
        assert_eq!(
            nearest(Wrap::MirrorClampToBorder, true, -1.1, 4, 0),
            4,
            "4.4 → floor"
        );
        assert_eq!(nearest(Wrap::MirrorClampToBorder, true, -1.0, 4, 0), 4);
        assert_eq!(nearest(Wrap::MirrorClampToBorder, true, -0.9, 4, 0), 3);
    }

    #[test]
    fn unnormalised() {
        assert_eq!(
            nearest(Wrap::Repeat, false, 9.5, 4, 0),
            3,
            "repeat acts as clamp"
        );
        assert_eq!(nearest(Wrap::Clamp, false, -2.0, 4, 0), 0);
        assert_eq!(nearest(Wrap::ClampToBorder, false, 4.6, 4, 0), 4);
        assert_eq!(nearest(Wrap::ClampToEdge, false, 4.6, 4, 0), 3);
        let l = linear(Wrap::ClampToEdge, false, 4.0, 4, 0);
        assert_eq!((l.i0, l.i1, l.w), (3, 3, 0.0));
        let l = linear(Wrap::Clamp, false, 1.25, 4, 0);
        assert_eq!((l.i0, l.i1, l.w), (0, 1, 0.75));
    }

    #[test]
    fn linear_weights() {
        let l = linear(Wrap::Repeat, true, 0.0, 4, 0);
        assert_eq!((l.i0, l.i1, l.w), (3, 0, 0.5));
        let l = linear(Wrap::ClampToEdge, true, 0.0, 4, 0);
        assert_eq!((l.i0, l.i1, l.w), (0, 0, 0.5));
        let l = linear(Wrap::Clamp, true, 0.0, 4, 0);
        assert_eq!((l.i0, l.i1, l.w), (-1, 0, 0.5));
        let l = linear(Wrap::ClampToBorder, true, -1.0, 4, 0);
        assert_eq!((l.i0, l.i1, l.w), (-2, -1, 0.5));
        let l = linear(Wrap::ClampToEdge, true, 0.3, 4, 0);
        assert_eq!((l.i0, l.i1), (0, 1));
        assert_eq!(l.w, 0.3f32 * 4.0 - 0.5 - 0.0);
        let l = linear(Wrap::MirrorRepeat, true, 1.1, 4, 0);
        // mirrored: u = (1 - 0.1) * 4 + 0.5 = 4.1 → i0 = 4 → 3, i1 = 3
        assert_eq!((l.i0, l.i1), (3, 3));
        let l = linear(Wrap::MirrorClampToEdge, true, -2.0, 4, 0);
        assert_eq!((l.i0, l.i1, l.w), (3, 3, 0.5));
    }
}
