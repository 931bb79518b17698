//! The fixed-function tessellator: point counts and orders for simple levels, 16.16 fixed
//! point coordinates, clamping and culling, and — over a sweep of levels in every domain
//! and spacing — that the triangles tile the domain exactly, all with the same winding.

use tgsi_exec::tessellator::{tessellate, Domain, Spacing, TessMode, Tessellation, ONE};

fn mode(domain: Domain, spacing: Spacing) -> TessMode {
    TessMode {
        domain,
        spacing,
        cw: false,
        point_mode: false,
    }
}

/// The points of `t` in emission order as (u, v) fixed-point pairs.
fn emitted(t: &Tessellation) -> Vec<[i32; 2]> {
    t.indices.iter().map(|&i| t.points[i as usize]).collect()
}

/// Twice the signed area of each triangle in (u, v), in units of 2⁻³².
fn doubled_areas(t: &Tessellation) -> Vec<i64> {
    emitted(t)
        .chunks_exact(3)
        .map(|p| {
            let [a, b, c] = [p[0], p[1], p[2]].map(|q| q.map(i64::from));
            (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
        })
        .collect()
}

#[test]
fn one_third_is_21845_units() {
    // Equal spacing, outer 3 on every edge: edge u = 0 from (0,1,0) in thirds.
    let t = tessellate(
        &mode(Domain::Triangles, Spacing::Equal),
        [3.0, 3.0, 3.0, 0.0],
        [3.0, 0.0],
    );
    assert_eq!(t.points[0], [0, ONE]);
    assert_eq!(t.points[1], [0, ONE - 21845]);
    assert_eq!(t.points[2], [0, 21845]);
    assert_eq!(
        t.coord(2, Domain::Triangles),
        [0.0, 21845.0 / 65536.0, 43691.0 / 65536.0]
    );
    // The inner ring of level 3 sits ⅔ of ⅓ in: 2/9 → 14563 units.
    assert_eq!(t.points[9][0], 14563);
    for i in 0..t.points.len() {
        let [u, v, w] = t.coord(i, Domain::Triangles);
        assert_eq!(u + v + w, 1.0, "point {i}");
    }
}

#[test]
fn minimal_levels_give_one_primitive() {
    let tri = tessellate(&mode(Domain::Triangles, Spacing::Equal), [1.0; 4], [1.0; 2]);
    assert_eq!(tri.points, vec![[0, ONE], [0, 0], [ONE, 0]]);
    assert_eq!(tri.indices, vec![0, 1, 2]);
    let quad = tessellate(&mode(Domain::Quads, Spacing::Equal), [1.0; 4], [1.0; 2]);
    assert_eq!(quad.points, vec![[0, 0], [ONE, 0], [ONE, ONE], [0, ONE]]);
    assert_eq!(quad.indices, vec![0, 1, 3, 1, 2, 3]);
    // Fractional odd levels of 1 (or within 2⁻¹⁷ of it) are the same single primitive.
    let odd = mode(Domain::Triangles, Spacing::FractionalOdd);
    assert_eq!(tessellate(&odd, [1.0; 4], [1.0; 2]), tri);
    assert_eq!(tessellate(&odd, [1.000_005, 1.0, 1.0, 1.0], [0.5; 2]), tri);
}

#[test]
fn equal_triangle_counts_and_order() {
    // Outer 2 3 4, inner 3 (the tessref tri-equal-const levels): 9 outer points, a ring of
    // 3, 13 triangles, the first two joining edge u = 0 to the inner ring.
    let t = tessellate(
        &mode(Domain::Triangles, Spacing::Equal),
        [2.0, 3.0, 4.0, 0.0],
        [3.0, 0.0],
    );
    assert_eq!(t.points.len(), 9 + 3);
    assert_eq!(t.indices.len(), 13 * 3);
    // Ring point on edge u = 2/9: v = (1 − ⅓) − (2/9)/2 in fixed point.
    let ring = [14563, 43691 - 7282];
    assert_eq!(
        emitted(&t)[..6],
        [[0, ONE], [0, HALF], ring, ring, [0, HALF], [14563, 14563]]
    );
}

const HALF: i32 = ONE / 2;

#[test]
fn cw_swaps_the_last_two_vertices() {
    let levels = ([2.0, 3.0, 4.0, 5.0], [3.0, 2.0]);
    let ccw = tessellate(&mode(Domain::Quads, Spacing::Equal), levels.0, levels.1);
    let cw = tessellate(
        &TessMode {
            cw: true,
            ..mode(Domain::Quads, Spacing::Equal)
        },
        levels.0,
        levels.1,
    );
    assert_eq!(ccw.points, cw.points);
    for (a, b) in ccw.indices.chunks(3).zip(cw.indices.chunks(3)) {
        assert_eq!([a[0], a[2], a[1]], [b[0], b[1], b[2]]);
    }
}

#[test]
fn isolines_are_lines_of_segments() {
    // Density 3, detail 4: lines at v = 0, 1/3, 2/3, each 4 segments in increasing u.
    let t = tessellate(
        &mode(Domain::Isolines, Spacing::Equal),
        [3.0, 4.0, 0.0, 0.0],
        [0.0; 2],
    );
    assert_eq!(t.points.len(), 15);
    assert_eq!(t.indices.len(), 3 * 4 * 2);
    let e = emitted(&t);
    assert_eq!(e[..4], [[0, 0], [ONE / 4, 0], [ONE / 4, 0], [HALF, 0]]);
    assert_eq!(e[8], [0, 21845]);
    assert_eq!(e[16][1], ONE - 21845);
}

#[test]
fn point_mode_lists_every_point_once() {
    let m = TessMode {
        point_mode: true,
        ..mode(Domain::Triangles, Spacing::FractionalOdd)
    };
    let t = tessellate(&m, [3.5, 2.0, 5.0, 0.0], [4.2, 0.0]);
    assert_eq!(t.indices, (0..t.points.len() as u32).collect::<Vec<_>>());
    assert_eq!(t.points.len(), 25);
}

#[test]
fn fractional_levels_round_up_to_the_parity() {
    // Fractional even 2.5 → 4 segments: a quarter of the way from level 2 (halves) to
    // level 4 (quarters), so the two middle segments are short: ½·¾ + ¼·¼ = 0.4375.
    let t = tessellate(
        &mode(Domain::Isolines, Spacing::FractionalEven),
        [1.0, 2.5, 0.0, 0.0],
        [0.0; 2],
    );
    let u: Vec<i32> = t.points.iter().map(|p| p[0]).collect();
    assert_eq!(u, [0, 28672, HALF, ONE - 28672, ONE]);
    // Fractional odd 2.0 → 3 segments, halfway from level 1 to level 3: the end segments
    // are half of a third (21845 / 2, rounded).
    let t = tessellate(
        &mode(Domain::Isolines, Spacing::FractionalOdd),
        [1.0, 2.0, 0.0, 0.0],
        [0.0; 2],
    );
    let u: Vec<i32> = t.points.iter().map(|p| p[0]).collect();
    assert_eq!(u, [0, 10923, ONE - 10923, ONE]);
}

#[test]
fn culling_and_clamping() {
    let m = mode(Domain::Quads, Spacing::Equal);
    for bad in [0.0, -1.0, f32::NAN] {
        assert!(
            tessellate(&m, [2.0, bad, 2.0, 2.0], [2.0; 2])
                .points
                .is_empty(),
            "{bad}"
        );
    }
    // Levels above 64 behave as 64; a NaN inner level as the smallest.
    let big = tessellate(&m, [70.0, 1e30, f32::INFINITY, 64.0], [100.0, 64.0]);
    let max = tessellate(&m, [64.0; 4], [64.0; 2]);
    assert_eq!(big, max);
    assert_eq!(max.indices.len(), 64 * 64 * 2 * 3);
    let nan = tessellate(&m, [2.0; 4], [f32::NAN; 2]);
    assert_eq!(nan, tessellate(&m, [2.0; 4], [1.0; 2]));
}

/// The triangles of `domain` with these levels tile it exactly (their doubled areas sum to
/// the domain's), none winds the other way, and every point is used.
fn assert_tiles(domain: Domain, spacing: Spacing, outer: [f32; 4], inner: [f32; 2]) {
    let t = tessellate(&mode(domain, spacing), outer, inner);
    let areas = doubled_areas(&t);
    let case = format!("{domain:?} {spacing:?} outer {outer:?} inner {inner:?}");
    assert!(
        areas.iter().all(|&x| x >= 0),
        "{case}: a triangle winds the other way"
    );
    let want = if domain == Domain::Quads { 2 } else { 1 } * i64::from(ONE) * i64::from(ONE);
    assert_eq!(
        areas.iter().sum::<i64>(),
        want,
        "{case}: triangles do not tile the domain"
    );
    let mut used = vec![false; t.points.len()];
    t.indices.iter().for_each(|&i| used[i as usize] = true);
    assert!(used.iter().all(|&u| u), "{case}: a point is in no triangle");
}

#[test]
fn triangles_tile_the_domain_with_one_winding() {
    let levels = [
        1.0, 1.000_02, 1.5, 2.0, 2.25, 3.0, 3.5, 4.0, 5.0, 6.7, 7.0, 8.0, 13.3, 31.0, 64.0,
    ];
    for domain in [Domain::Triangles, Domain::Quads] {
        for spacing in [
            Spacing::Equal,
            Spacing::FractionalOdd,
            Spacing::FractionalEven,
        ] {
            assert_tiles(domain, spacing, [1.0; 4], [1.0; 2]);
            for (k, &a) in levels.iter().enumerate() {
                for &b in &levels[k % 5..] {
                    let outer = [a, b, levels[(k + 3) % levels.len()], b];
                    assert_tiles(domain, spacing, outer, [b, a]);
                }
            }
        }
    }
}

#[test]
fn random_levels_stay_in_the_domain_and_tile_it() {
    // xorshift32: levels in 0‥80 with quarter steps, odd values and the specials.
    let mut state = 0x2545_f491_u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let specials = [
        f32::NAN,
        f32::INFINITY,
        -1.0,
        0.0,
        1e-9,
        1.0 + 1e-6,
        63.5,
        64.0,
        1e30,
    ];
    let mut level = || {
        let r = next();
        match r % 8 {
            0 => specials[(r >> 8) as usize % specials.len()],
            1 => (r >> 8) as f32 / 16_777_216.0 * 80.0,
            _ => ((r >> 8) % 320) as f32 / 4.0,
        }
    };
    for _ in 0..100 {
        let outer = [level(), level(), level(), level()];
        let inner = [level(), level()];
        for domain in [Domain::Triangles, Domain::Quads, Domain::Isolines] {
            for spacing in [
                Spacing::Equal,
                Spacing::FractionalOdd,
                Spacing::FractionalEven,
            ] {
                let t = tessellate(&mode(domain, spacing), outer, inner);
                let case = format!("{domain:?} {spacing:?} outer {outer:?} inner {inner:?}");
                assert!(
                    t.indices.iter().all(|&i| (i as usize) < t.points.len()),
                    "{case}"
                );
                for p in &t.points {
                    let inside = p.iter().all(|&x| (0..=ONE).contains(&x));
                    let tri = domain != Domain::Triangles || p[0] + p[1] <= ONE;
                    assert!(inside && tri, "{case}: point {p:?} outside the domain");
                }
                let culled = outer[..if domain == Domain::Isolines { 2 } else { 3 }]
                    .iter()
                    .chain(&outer[3..if domain == Domain::Quads { 4 } else { 3 }])
                    .any(|&l| l.is_nan() || l <= 0.0);
                assert_eq!(t.points.is_empty(), culled, "{case}");
                if domain != Domain::Isolines && !culled {
                    assert_tiles(domain, spacing, outer, inner);
                }
            }
        }
    }
}
