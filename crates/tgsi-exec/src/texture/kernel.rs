//! The steps a [`Compiled`] sampling instruction lists, run natively on CPUs with AVX2
//! ([`Isa::host`]; `TGSI_EXEC_ISA=baseline` turns it off and the engines take their other
//! paths): one quad sampled in eight-lane vectors that hold the quad at both levels of a
//! trilinear sample (lanes 0–3 the first level, 4–7 the second), so that each step of the
//! footprints runs once for both levels, and every texel component of eight lanes is
//! blended at once.
//!
//! [`Compiled::sample_quad`] gives exactly what [`super::Direct::quad`] gives for the quads
//! it takes and refuses a quad (`None`, before reading any texel) where a step would leave
//! softpipe's results: lanes on different levels, a coordinate where `util_ifloor` is not
//! `floor`, an index outside its level, a footprint whose tiles share a slot of softpipe's
//! texture cache. Each vector operation is the IEEE operation the step names (no fused
//! multiply-adds), so the results are the general path's bits
//! (`direct::tests::direct_quads_equal_the_general_path`,
//! `direct::tests::kernel_quads_equal_the_general_path`).

use super::direct::{Compiled, DirectLod};
use crate::isa::Isa;

impl Compiled<'_> {
    /// The sampling of one quad (lane 0 top-left) from its coordinates `s`, `t` and the
    /// LOD source `lod` (a bias or explicit LOD per lane, as `how` says) as words; the
    /// results `[channel][lane]` as words, or `None` where the quad needs the general path
    /// (and always without AVX2, or for a texel fetch).
    #[inline]
    pub fn sample_quad(
        &self,
        how: DirectLod,
        s: [u32; 4],
        t: [u32; 4],
        lod: [u32; 4],
    ) -> Option<[[u32; 4]; 4]> {
        match Isa::host() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an `Isa::Avx2` is only made where the CPU has the features.
            Isa::Avx2(_) => unsafe { avx2::filtered(self, how, s, t, lod) },
            _ => None,
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::cmath::{fast_log2, trunc_i32};
    use super::super::direct::{AxisWrap, Compiled, DirectLod, LevelRule};
    use super::super::tile_cache::{ROW_WEIGHT, SLOTS, TILE};
    use std::arch::x86_64::*;
    use std::sync::atomic::Ordering::Relaxed;

    /// The quad's results, filtered as the form says (steps 1–4 of [`Compiled`]).
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    pub(super) fn filtered(
        c: &Compiled,
        how: DirectLod,
        s: [u32; 4],
        t: [u32; 4],
        lod: [u32; 4],
    ) -> Option<[[u32; 4]; 4]> {
        let filter = c.form.filter?;
        let f = |v: [u32; 4]| {
            [
                f32::from_bits(v[0]),
                f32::from_bits(v[1]),
                f32::from_bits(v[2]),
                f32::from_bits(v[3]),
            ]
        };
        let lods = lods(c, how, &f(s), &f(t), &f(lod));
        let (lo, hi, w) = levels(c, filter.rule, how, &lods)?;
        // Where every lane's weight is 0, `lerp(0, a, b) = a + 0·(b − a)` is `a` (texels
        // are finite and not −0): the second level is not read, and its lanes repeat the
        // first's.
        let pair = w.iter().any(|&w| w != 0.0);
        let first = c.form.levels.get(lo as usize)?;
        let second = if pair {
            c.form.levels.get(hi as usize)?
        } else {
            first
        };
        let halves = |a: u32, b: u32| {
            let (a, b) = (a as i32, b as i32);
            _mm256_setr_epi32(a, a, a, a, b, b, b, b)
        };
        let twice = |v: [u32; 4]| {
            let v = _mm_castsi128_ps(_mm_setr_epi32(
                v[0] as i32,
                v[1] as i32,
                v[2] as i32,
                v[3] as i32,
            ));
            _mm256_set_m128(v, v)
        };
        let x = axis(filter.wrap[0], twice(s), halves(first.width, second.width));
        let y = axis(
            filter.wrap[1],
            twice(t),
            halves(first.height, second.height),
        );
        let bad = _mm256_or_si256(_mm256_or_si256(x.bad, y.bad), aliases(&x, &y));
        if _mm256_testz_si256(bad, bad) == 0 {
            return None;
        }
        // Word indices of each lane's four texels in `lerp_2d` order: inside their
        // levels, so inside the words (`Compiled`), and no sum wraps.
        let starts = halves(first.first, second.first);
        let rows = halves(first.row, second.row);
        let r0 = _mm256_add_epi32(_mm256_mullo_epi32(y.i0, rows), starts);
        let r1 = _mm256_add_epi32(_mm256_mullo_epi32(y.i1, rows), starts);
        let at = [
            _mm256_add_epi32(r0, x.i0),
            _mm256_add_epi32(r0, x.i1),
            _mm256_add_epi32(r1, x.i0),
            _mm256_add_epi32(r1, x.i1),
        ];
        let mut index = [[0u32; 8]; 4];
        for (index, at) in index.iter_mut().zip(&at) {
            // SAFETY: `index` holds eight words.
            unsafe { _mm256_storeu_si256(index.as_mut_ptr().cast(), *at) };
        }
        let lanes = if pair { 8 } else { 4 };
        let mut words = [[0u32; 8]; 4];
        for (words, index) in words.iter_mut().zip(&index) {
            for j in 0..lanes {
                words[j] = c.words.get(index[j] as usize)?.load(Relaxed);
            }
        }
        // Each component of the texels (byte `shift / 8` of a word, spread to the low byte
        // of the lane's word by a byte shuffle) as `unorm8`, blended across the footprint.
        let scale = _mm256_set1_ps(1.0 / 255.0);
        let mut out = [[0u32; 4]; 4];
        let w = _mm_castsi128_ps(_mm_setr_epi32(
            w[0].to_bits() as i32,
            w[1].to_bits() as i32,
            w[2].to_bits() as i32,
            w[3].to_bits() as i32,
        ));
        // Each lane's word starts at byte 4·(lane mod 4) of its 128-bit half; 0x80 zeroes.
        let word_starts = _mm256_set1_epi32(0x8080_8000_u32 as i32);
        let word_starts =
            _mm256_add_epi32(word_starts, _mm256_setr_epi32(0, 4, 8, 12, 0, 4, 8, 12));
        let low = _mm256_set1_epi32(0xff);
        for (o, &shift) in out.iter_mut().zip(&c.form.shifts) {
            // Byte `shift / 8` of each word into its low byte, zeros above: the word's
            // first byte (`word_starts`) plus the byte number where `low` selects.
            let byte = _mm256_set1_epi32(((shift / 8) & 3) as i32);
            let spread = _mm256_or_si256(word_starts, _mm256_and_si256(byte, low));
            let unorm = |k: usize| {
                // SAFETY: `words[k]` holds eight words.
                let v = unsafe { _mm256_loadu_si256(words[k].as_ptr().cast()) };
                _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_shuffle_epi8(v, spread)), scale)
            };
            let (t00, t10, t01, t11) = (unorm(0), unorm(1), unorm(2), unorm(3));
            let row0 = lerp(x.w, t00, t10);
            let row1 = lerp(x.w, t01, t11);
            let v = lerp(y.w, row0, row1);
            let (a, b) = (_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
            let v = if pair {
                _mm_add_ps(a, _mm_mul_ps(w, _mm_sub_ps(b, a)))
            } else {
                a
            };
            // SAFETY: `o` holds four words.
            unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), _mm_castps_si128(v)) };
        }
        Some(out)
    }

    /// `a + w·(b − a)`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lerp(w: __m256, a: __m256, b: __m256) -> __m256 {
        _mm256_add_ps(a, _mm256_mul_ps(w, _mm256_sub_ps(b, a)))
    }

    /// One axis of the lanes' footprints: both texel indices, the second's weight, and
    /// all ones in the lanes the general path must sample.
    struct Axis {
        i0: __m256i,
        i1: __m256i,
        w: __m256,
        bad: __m256i,
    }

    /// Step 3 on one axis: each lane's coordinate `coord` wrapped by `wrap` at a level of
    /// `size` texels (at least one).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn axis(wrap: AxisWrap, coord: __m256, size: __m256i) -> Axis {
        let size_f = _mm256_cvtepi32_ps(size);
        let one = _mm256_set1_epi32(1);
        let last = _mm256_sub_epi32(size, one);
        let (half, zero, one_f) = (
            _mm256_set1_ps(0.5),
            _mm256_setzero_ps(),
            _mm256_set1_ps(1.0),
        );
        let floor = |x: __m256| _mm256_floor_ps(x);
        // `cvttps2dq` of a whole float (`INT_MIN` out of range, in refused lanes).
        let whole = |x: __m256| _mm256_cvttps_epi32(x);
        // `i > last ? last : i` (signed).
        let at_most = |i: __m256i| _mm256_min_epi32(i, last);
        let pick = |c: __m256i, a: __m256i, b: __m256i| _mm256_blendv_epi8(b, a, c);
        let pick_f =
            |c: __m256i, a: __m256, b: __m256| _mm256_blendv_ps(b, a, _mm256_castsi256_ps(c));
        let (i0, i1, w, bad) = match wrap {
            AxisWrap::RepeatPot => {
                let u = _mm256_add_ps(_mm256_sub_ps(_mm256_mul_ps(coord, size_f), half), zero);
                let fl = floor(u);
                let i0 = _mm256_and_si256(whole(fl), last);
                let i1 = _mm256_and_si256(_mm256_add_epi32(i0, one), last);
                (i0, i1, _mm256_sub_ps(u, fl), not_floor(u))
            }
            AxisWrap::MirrorRepeat => {
                let s = _mm256_add_ps(coord, zero);
                let sfl = floor(s);
                let parity = _mm256_and_si256(whole(sfl), one);
                let even = _mm256_cmpeq_epi32(parity, _mm256_setzero_si256());
                let f = _mm256_sub_ps(s, sfl);
                let ua = _mm256_sub_ps(_mm256_mul_ps(f, size_f), half);
                let ub = _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(one_f, f), size_f), half);
                let u = pick_f(even, ua, ub);
                let ufl = floor(u);
                let i0 = whole(ufl);
                let up = _mm256_add_epi32(i0, one);
                let down = _mm256_sub_epi32(i0, one);
                let i1 = at_most(pick(even, up, down));
                let negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), i0);
                let i0 = at_most(pick(negative, up, i0));
                let negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), i1);
                let i1 = pick(negative, _mm256_add_epi32(i1, one), i1);
                let v = _mm256_sub_ps(one_f, u);
                let w = pick_f(even, _mm256_sub_ps(u, ufl), _mm256_sub_ps(v, floor(v)));
                (i0, i1, w, _mm256_or_si256(not_floor(s), not_floor(u)))
            }
            AxisWrap::ClampToEdge => {
                let x = _mm256_add_ps(_mm256_mul_ps(coord, size_f), zero);
                let above = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GT_OQ>(x, size_f));
                let positive = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GT_OQ>(x, zero));
                let clamped = pick_f(positive, pick_f(above, size_f, x), zero);
                let u = _mm256_sub_ps(clamped, half);
                let ufl = floor(u);
                let i0 = whole(ufl);
                let i1 = at_most(_mm256_add_epi32(i0, one));
                let i0 = _mm256_max_epi32(i0, _mm256_setzero_si256());
                (i0, i1, _mm256_sub_ps(u, ufl), not_floor(u))
            }
        };
        // Every index inside the level (as unsigned numbers, so negatives fail too).
        let outside = |i: __m256i| {
            let inside = _mm256_cmpeq_epi32(_mm256_max_epu32(i, last), last);
            _mm256_xor_si256(inside, _mm256_set1_epi32(-1))
        };
        let bad = _mm256_or_si256(bad, _mm256_or_si256(outside(i0), outside(i1)));
        Axis { i0, i1, w, bad }
    }

    /// All ones where `util_ifloor(x)` may not be `floor(x)`: `|x| ≥ 2²¹`, NaN, or `x`
    /// in `(−2⁻²⁰, 0)`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn not_floor(x: __m256) -> __m256i {
        let abs = _mm256_andnot_ps(_mm256_set1_ps(-0.0), x);
        let small = _mm256_cmp_ps::<_CMP_LT_OQ>(abs, _mm256_set1_ps(2_097_152.0));
        let negative = _mm256_cmp_ps::<_CMP_LT_OQ>(x, _mm256_setzero_ps());
        let near = _mm256_cmp_ps::<_CMP_GT_OQ>(x, _mm256_set1_ps(-1.0 / 1_048_576.0));
        let tiny_negative = _mm256_and_ps(negative, near);
        // Not (small and not tiny-negative).
        let ok = _mm256_andnot_ps(tiny_negative, small);
        _mm256_castps_si256(_mm256_xor_ps(
            ok,
            _mm256_castsi256_ps(_mm256_set1_epi32(-1)),
        ))
    }

    /// All ones in the lanes whose bilinear footprint, at columns `x` and rows `y` of one
    /// level, has two different tiles in the same slot of softpipe's texture cache, where
    /// it reads one tile's texels for another's (`tile_cache::aliases`). A tile's slot is
    /// `tx + w·ty` plus terms of its slice and level, mod the slot count (`w`: the row
    /// weight); the footprint's tiles share slice and level, so two of them share a slot
    /// when their columns and rows differ by `dx`, `dy` with `dx + w·dy ≡ 0`: the pairs in a
    /// row (`dy = 0`), in a column (`dx = 0`) and on the two diagonals (`±dx + w·dy`).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn aliases(x: &Axis, y: &Axis) -> __m256i {
        const { assert!(SLOTS.is_power_of_two() && TILE.is_power_of_two()) };
        const SHIFT: i32 = TILE.trailing_zeros() as i32;
        let zero = _mm256_setzero_si256();
        let tile = |i: __m256i| _mm256_srli_epi32::<SHIFT>(i);
        let dx = _mm256_sub_epi32(tile(x.i0), tile(x.i1));
        let dy = _mm256_sub_epi32(tile(y.i0), tile(y.i1));
        let rows = _mm256_mullo_epi32(dy, _mm256_set1_epi32(ROW_WEIGHT as i32));
        let slots = _mm256_set1_epi32((SLOTS - 1) as i32);
        let same_slot = |d: __m256i| _mm256_cmpeq_epi32(_mm256_and_si256(d, slots), zero);
        let dx_zero = _mm256_cmpeq_epi32(dx, zero);
        let dy_zero = _mm256_cmpeq_epi32(dy, zero);
        let row = _mm256_andnot_si256(dx_zero, same_slot(dx));
        let column = _mm256_andnot_si256(dy_zero, same_slot(rows));
        let diagonals = _mm256_or_si256(
            same_slot(_mm256_add_epi32(rows, dx)),
            same_slot(_mm256_sub_epi32(rows, dx)),
        );
        let diagonals = _mm256_andnot_si256(_mm256_and_si256(dx_zero, dy_zero), diagonals);
        _mm256_or_si256(_mm256_or_si256(row, column), diagonals)
    }

    /// Step 1: the quad's LODs after the bias and the clamp.
    #[inline(always)]
    fn lods(c: &Compiled, how: DirectLod, s: &[f32; 4], t: &[f32; 4], lod: &[f32; 4]) -> [f32; 4] {
        let max2 = |a: f32, b: f32| if a > b { a } else { b };
        let raw = match how {
            DirectLod::Implicit | DirectLod::Bias => {
                // Lanes 0, 2, 3: top-left, bottom-left, bottom-right.
                let extent =
                    |v: &[f32; 4], size: f32| max2((v[3] - v[2]).abs(), (v[0] - v[2]).abs()) * size;
                let rho = max2(extent(s, c.form.size[0]), extent(t, c.form.size[1]));
                let l = fast_log2(rho) + c.form.lod_bias;
                if how == DirectLod::Bias {
                    std::array::from_fn(|j| l + lod[j])
                } else {
                    [l; 4]
                }
            }
            DirectLod::Explicit => std::array::from_fn(|j| lod[j] + c.form.lod_bias),
            DirectLod::Zero | DirectLod::Fetch | DirectLod::FetchZero => [c.form.lod_bias; 4],
        };
        let (lo, hi) = (c.form.min_lod, c.form.max_lod);
        std::array::from_fn(|j| {
            let x = raw[j];
            if x > lo {
                if x > hi {
                    hi
                } else {
                    x
                }
            } else {
                lo
            }
        })
    }

    /// Step 2: the two levels sampled (the same one twice for a single level) and the
    /// weight of the second per lane, or `None` where the lanes differ in their levels or a
    /// level is outside the view.
    #[inline(always)]
    fn levels(
        c: &Compiled,
        rule: LevelRule,
        how: DirectLod,
        lods: &[f32; 4],
    ) -> Option<(u32, u32, [f32; 4])> {
        let (first, last) = (c.form.first_level as i32, c.form.last_level as i32);
        let lane = |lod: f32| {
            let level0 = trunc_i32(lod).wrapping_add(first);
            let level1 = level0.wrapping_add(1);
            let frac = lod - lod.floor();
            match rule {
                LevelRule::Pot if (level0 as u32) < last as u32 => (level0, level1, frac),
                LevelRule::Pot if level0 < 0 => (first, first, 0.0),
                LevelRule::Pot => (last, last, 0.0),
                LevelRule::Linear if lod <= 0.0 => (first, first, 0.0),
                LevelRule::Linear if level0 >= last => (last, last, 0.0),
                LevelRule::Linear => (level0, level1, frac),
                LevelRule::First => (first, first, 0.0),
            }
        };
        let (lo, hi, w0) = lane(lods[0]);
        if lo as u32 > c.form.last_level || hi as u32 > c.form.last_level {
            return None;
        }
        let mut w = [w0; 4];
        // Only a bias or LOD per lane can put the lanes on different levels.
        if matches!(how, DirectLod::Explicit | DirectLod::Bias) {
            for (w, &lod) in w.iter_mut().zip(lods).skip(1) {
                let (l, h, weight) = lane(lod);
                if (l, h) != (lo, hi) {
                    return None;
                }
                *w = weight;
            }
        }
        Some((lo as u32, hi as u32, w))
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::cmath::ifloor;
    use super::avx2::not_floor;
    use crate::isa::Isa;
    use std::arch::x86_64::*;

    /// Wherever the kernel takes `floor` for Mesa's `util_ifloor` (the lane not flagged),
    /// they agree: on every float of a sweep of magnitudes (tiny negatives, around 2²¹
    /// and 2²², infinities, NaN) and on bit patterns spread over all floats.
    #[test]
    fn not_floor_flags_every_value_where_ifloor_is_not_floor() {
        if Isa::detect().is_none() {
            eprintln!("no AVX2 on this CPU: the native kernel is not run");
            return;
        }
        let mut values: Vec<f32> = vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0];
        for e in -40..40 {
            let p = 2f32.powi(e);
            values.extend([p, -p, p * 1.5, -p * 1.5, p.next_up(), -p.next_down()]);
        }
        values.extend((0..1u32 << 20).map(|i| f32::from_bits(i.wrapping_mul(0x9e37_79b9))));
        let (mut flagged, mut differ) = (0, 0);
        for lanes in values.chunks(8) {
            let mut x = [0.0f32; 8];
            x[..lanes.len()].copy_from_slice(lanes);
            let mut mask = [0i32; 8];
            // SAFETY: the CPU has AVX2, and both arrays hold eight lanes.
            unsafe {
                let m = not_floor(_mm256_loadu_ps(x.as_ptr()));
                _mm256_storeu_si256(mask.as_mut_ptr().cast(), m);
            }
            for (&x, &m) in x.iter().zip(&mask) {
                let same = !x.is_nan() && ifloor(x) as f32 == x.floor();
                differ += u32::from(!same);
                if m == 0 {
                    assert!(same, "{x:e}: ifloor {} floor {}", ifloor(x), x.floor());
                } else {
                    flagged += 1;
                }
            }
        }
        assert!(
            differ > 0 && flagged >= differ,
            "{differ} differ, {flagged} flagged"
        );
    }
}
