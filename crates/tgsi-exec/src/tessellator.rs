//! The fixed-function tessellator: which domain points a patch's tessellation levels make
//! and how they join into triangles, lines or points, following the D3D11 tessellator
//! rules that Gallium's `auxiliary/tessellator` (and so llvmpipe's draw module) implements:
//!
//! * a patch whose (clamped, fixed-point) levels are all 1 is one triangle, or a quad of
//!   two triangles;
//! * levels are clamped per spacing (equal: 1‥64 rounded up to an integer; fractional_odd:
//!   1‥63; fractional_even: 2‥64); a patch with an outer level that is not > 0 (or NaN) is
//!   culled; isoline density is clamped to 1‥64 and rounded up;
//! * all arithmetic is 16.16 fixed point ([`ONE`] = 1.0), so every coordinate is a multiple
//!   of 2⁻¹⁶ (1/3 is 21845·2⁻¹⁶); for triangles `w = 1 − u − v` exactly;
//! * an edge of level `f` has ⌈f⌉ segments rounded up to the spacing's parity; points are
//!   placed from both ends towards the middle, and fractional levels shorten the segments
//!   the ruler-function split order makes last;
//! * points come ring by ring from the outside in: triangles walk edge u = 0 from (0,1,0),
//!   then v = 0, then w = 0; quads walk u = 0 from (0,1), then v = 0, u = 1, v = 1; inner
//!   rings the same way, the centre (or the middle row of an even/odd quad) last;
//! * triangles join each ring to the next: the outermost pair with the transition stitch
//!   (split order, so fractional levels meet integer ones), the others with mirrored
//!   diagonals, the middle with a triangle or a strip; isolines are `density` lines at
//!   v = 0, 1/n, … (none at v = 1), each split into `detail` segments.
//!
//! Triangles are listed clockwise in D3D terms, which is GL's counter-clockwise
//! (`TES_VERTEX_ORDER_CW` 0); `cw` swaps the last two vertices of each.

/// 1.0 in 16.16 fixed point.
pub const ONE: i32 = 1 << 16;
const HALF: i32 = ONE / 2;
/// ⅔ in 16.16 fixed point (how far a triangle ring moves per 1-D step).
const TWO_THIRDS: i32 = 0xaaaa;
/// ⅓ in 16.16 fixed point (the centre of a triangle).
const ONE_THIRD: i32 = 0x5555;
/// The largest tessellation level.
pub const MAX_LEVEL: f32 = 64.0;
/// 2⁻¹⁶: the fractional_odd inner-level floor when the patch is more than one triangle.
const EPSILON: f32 = 1.0 / 65536.0;
/// Positions in the split order: a half edge has at most 32 points.
const SPLIT_POSITIONS: usize = 33;

/// The patch domain (`TES_PRIM_MODE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// Barycentric (u, v, w).
    Triangles,
    /// (u, v) over the unit square.
    Quads,
    /// Lines across the unit square.
    Isolines,
}

/// How levels become segments (`TES_SPACING`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spacing {
    /// Integer levels (rounded up), equal segments.
    Equal,
    /// Odd segment counts, two shorter segments for the fraction.
    FractionalOdd,
    /// Even segment counts, two shorter segments for the fraction.
    FractionalEven,
}

/// Everything about the tessellation that is fixed per program (the TES properties).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TessMode {
    /// The domain.
    pub domain: Domain,
    /// The spacing.
    pub spacing: Spacing,
    /// GL clockwise triangles (`TES_VERTEX_ORDER_CW`).
    pub cw: bool,
    /// Points instead of triangles or lines (`TES_POINT_MODE`).
    pub point_mode: bool,
}

impl TessMode {
    /// Vertices per output primitive: 1 in point mode, 2 for isolines, else 3.
    pub fn vertices_per_primitive(&self) -> usize {
        match (self.point_mode, self.domain) {
            (true, _) => 1,
            (false, Domain::Isolines) => 2,
            (false, _) => 3,
        }
    }
}

/// The tessellation of one patch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tessellation {
    /// The domain points, `(u, v)` in 16.16 fixed point.
    pub points: Vec<[i32; 2]>,
    /// The primitives' vertices (indices into `points`), primitive after primitive.
    pub indices: Vec<u32>,
}

impl Tessellation {
    /// The TESSCOORD of point `i`: `(u, v, 1 − u − v)` for triangles, `(u, v, 0)` otherwise.
    pub fn coord(&self, i: usize, domain: Domain) -> [f32; 3] {
        let [u, v] = self.points.get(i).copied().unwrap_or([0, 0]);
        let w = if domain == Domain::Triangles {
            ONE - u - v
        } else {
            0
        };
        [u, v, w].map(|x| x as f32 / ONE as f32)
    }
}

/// Tessellate one patch with `outer` and `inner` levels (triangles read outer 0‥2 and
/// inner 0; isolines outer 0 = line count and outer 1 = segments per line).
pub fn tessellate(mode: &TessMode, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    let mut mesh = Mesh {
        points: Vec::new(),
        indices: Vec::new(),
        cw: mode.cw,
    };
    match mode.domain {
        Domain::Triangles => triangles(&mut mesh, mode.spacing, outer, inner[0]),
        Domain::Quads => quads(&mut mesh, mode.spacing, outer, inner),
        Domain::Isolines => isolines(&mut mesh, mode.spacing, outer[0], outer[1]),
    };
    if mode.point_mode {
        mesh.indices = (0..mesh.points.len() as u32).collect();
    }
    Tessellation {
        points: mesh.points,
        indices: mesh.indices,
    }
}

/// Whether a level's segment count is odd or even.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parity {
    Even,
    Odd,
}

/// The clamped, fixed-point form of one level and where its points go along an edge.
#[derive(Clone, Copy, Debug)]
struct Level {
    parity: Parity,
    /// Points on the edge, both ends included.
    points: usize,
    /// Points on each half before the middle.
    half_points: i32,
    /// Fraction of the half level past its floor.
    half_fraction: i32,
    /// Points past this index sit one place earlier on the floor level (the floor level
    /// lacks the point the fraction is splitting in).
    split: i32,
    /// 1 / segments of the floor and ceiling levels.
    inv_floor: i32,
    inv_ceil: i32,
}

/// `1/n` in 16.16 fixed point, rounded to nearest (as llvmpipe's captures show: 1/20 is
/// 3277 units, not 3276).
fn reciprocal(n: i32) -> i32 {
    let n = n.max(1);
    (ONE + n / 2) / n
}

/// The integer part of a 16.16 value.
fn floor(x: i32) -> i32 {
    x & !(ONE - 1)
}

/// The smallest integer ≥ a 16.16 value.
fn ceil(x: i32) -> i32 {
    floor(x + ONE - 1)
}

/// `v` without its most significant set bit.
fn without_top_bit(v: i32) -> i32 {
    if v <= 0 {
        return 0;
    }
    v & !(1 << (31 - v.leading_zeros()))
}

/// A level (already clamped) in 16.16 fixed point, rounded to nearest.
fn fixed(level: f32) -> i32 {
    (f64::from(level) * f64::from(ONE)).round() as i32
}

impl Level {
    /// The layout of a level of `fxp` (16.16) with `parity`.
    fn new(fxp: i32, parity: Parity) -> Level {
        let odd = parity == Parity::Odd;
        let mut half = (fxp + 1) / 2;
        if odd || half == HALF {
            half += HALF;
        }
        let (lo, hi) = (floor(half), ceil(half));
        let half_points = hi >> 16;
        let split = if lo == hi {
            half_points + 1
        } else if odd {
            if lo == ONE {
                0
            } else {
                (without_top_bit((lo >> 16) - 1) << 1) + 1
            }
        } else {
            (without_top_bit(lo >> 16) << 1) + 1
        };
        let extra = i32::from(odd);
        let points = if odd {
            (ceil(HALF + (fxp + 1) / 2) * 2) >> 16
        } else {
            ((ceil((fxp + 1) / 2) * 2) >> 16) + 1
        };
        Level {
            parity,
            points: points.max(0) as usize,
            half_points,
            half_fraction: half - lo,
            split,
            inv_floor: reciprocal(((lo * 2) >> 16) - extra),
            inv_ceil: reciprocal(((hi * 2) >> 16) - extra),
        }
    }

    /// The 1-D position (16.16) of point `point` along the edge.
    fn place(&self, point: i32) -> i32 {
        let mut point = point;
        let flip = point >= self.half_points;
        if flip {
            point = (self.half_points << 1) - point - i32::from(self.parity == Parity::Odd);
        }
        if point == self.half_points {
            return HALF;
        }
        let on_ceil = point;
        let on_floor = if point > self.split { point - 1 } else { point };
        let blend =
            i64::from(on_floor) * i64::from(self.inv_floor) * i64::from(ONE - self.half_fraction)
                + i64::from(on_ceil) * i64::from(self.inv_ceil) * i64::from(self.half_fraction);
        let location = ((blend + i64::from(HALF)) >> 16) as i32;
        if flip {
            ONE - location
        } else {
            location
        }
    }

    /// Half points as the stitch counts them (the middle point of an odd level excluded).
    fn stitch_half(&self) -> i32 {
        self.half_points - i32::from(self.parity == Parity::Odd)
    }
}

/// `SPLIT_ORDER[k]`: where the `k`-th point of a half edge ends up at the largest level,
/// in ruler-function order (0, 32, 16, 8, 17, 4, 18, 9, 19, 2, …): the stitch between two
/// rows advances on a row whenever the position exists on it.
const SPLIT_ORDER: [i32; SPLIT_POSITIONS] = {
    let mut table = [0; SPLIT_POSITIONS];
    let mut k = 0;
    while k < SPLIT_POSITIONS {
        table[k] = split_order(k);
        k += 1;
    }
    table
};

/// Entry `k` of [`SPLIT_ORDER`].
const fn split_order(k: usize) -> i32 {
    match k {
        0 => 0,
        1 => 32,
        _ => {
            let below = (k - 1) as i32;
            let s = below.trailing_zeros();
            (16 >> s) + (below - (1 << s)) / (2 << s)
        }
    }
}

/// Whether an outer level culls the patch: not above 0, or NaN.
fn culls(level: f32) -> bool {
    level.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
}

/// Clamp bounds of the outer (and, unless raised, inner) levels per spacing.
fn bounds(spacing: Spacing) -> (f32, f32) {
    match spacing {
        Spacing::Equal => (1.0, MAX_LEVEL),
        Spacing::FractionalOdd => (1.0, MAX_LEVEL - 1.0),
        Spacing::FractionalEven => (2.0, MAX_LEVEL),
    }
}

/// `x` clamped to `lo‥hi` (NaN gives `lo`), rounded up for equal spacing.
fn clamp(x: f32, (lo, hi): (f32, f32), spacing: Spacing) -> f32 {
    let x = if x >= lo { x.min(hi) } else { lo };
    if spacing == Spacing::Equal {
        x.ceil()
    } else {
        x
    }
}

/// The layout of a clamped level; `inner` levels of 1 count as even for equal spacing.
fn level(x: f32, spacing: Spacing, inner: bool) -> Level {
    let parity = match spacing {
        Spacing::FractionalOdd => Parity::Odd,
        Spacing::FractionalEven => Parity::Even,
        Spacing::Equal if x % 2.0 == 0.0 || (inner && x == 1.0) => Parity::Even,
        Spacing::Equal => Parity::Odd,
    };
    Level::new(fixed(x), parity)
}

/// Inner-level bounds: fractional_odd raises the floor above 1 when any level passes 1, so
/// the patch keeps an inner ring.
fn inner_bounds(spacing: Spacing, levels: &[f32]) -> (f32, f32) {
    let (lo, hi) = bounds(spacing);
    let frame =
        spacing == Spacing::FractionalOdd && levels.iter().any(|&l| l > 1.0 + EPSILON / 2.0);
    (if frame { 1.0 + EPSILON } else { lo }, hi)
}

/// Points and triangles under construction.
struct Mesh {
    points: Vec<[i32; 2]>,
    indices: Vec<u32>,
    cw: bool,
}

impl Mesh {
    fn point(&mut self, u: i32, v: i32) -> u32 {
        self.points.push([u, v]);
        self.points.len() as u32 - 1
    }

    /// A triangle given clockwise in D3D terms.
    fn triangle(&mut self, a: u32, b: u32, c: u32) {
        let tri = if self.cw { [a, c, b] } else { [a, b, c] };
        self.indices.extend_from_slice(&tri);
    }

    /// Join an outer row to an inner row whose levels differ (the outermost ring), in
    /// split order from both ends towards the middle.
    fn stitch_transition(
        &mut self,
        outer: &Row,
        outer_level: &Level,
        inner: &Row,
        inner_level: &Level,
    ) {
        let (oh, ih) = (outer_level.stitch_half(), inner_level.stitch_half());
        let (mut o, mut i) = (0, 0);
        let step_out = |m: &mut Mesh, o: &mut usize, i: usize| {
            m.triangle(outer.at(*o), outer.at(*o + 1), inner.at(i));
            *o += 1;
        };
        let step_in = |m: &mut Mesh, o: usize, i: &mut usize| {
            m.triangle(inner.at(*i), outer.at(o), inner.at(*i + 1));
            *i += 1;
        };
        if SPLIT_ORDER[0] < oh {
            step_out(self, &mut o, i);
        }
        for &order in &SPLIT_ORDER[1..] {
            if order < ih {
                step_in(self, o, &mut i);
            }
            if order < oh {
                step_out(self, &mut o, i);
            }
        }
        match (inner_level.parity, outer_level.parity) {
            (Parity::Odd, Parity::Odd) => {
                self.triangle(inner.at(i), outer.at(o), inner.at(i + 1));
                self.triangle(inner.at(i + 1), outer.at(o), outer.at(o + 1));
                i += 1;
                o += 1;
            }
            (Parity::Even, Parity::Odd) => {
                self.triangle(inner.at(i), outer.at(o), outer.at(o + 1));
                o += 1;
            }
            (Parity::Odd, Parity::Even) => step_in(self, o, &mut i),
            (Parity::Even, Parity::Even) => {}
        }
        for &order in SPLIT_ORDER[1..].iter().rev() {
            if order < oh {
                step_out(self, &mut o, i);
            }
            if order < ih {
                step_in(self, o, &mut i);
            }
        }
        if SPLIT_ORDER[0] < oh {
            step_out(self, &mut o, i);
        }
    }

    /// Join two rows of inner rings: `inner` has one point fewer at each end than
    /// `outer`; diagonals mirror about the middle.
    fn stitch_ring(&mut self, outer: &Row, inner: &Row) {
        let n = inner.len();
        let mut o = 0;
        self.triangle(outer.at(0), outer.at(1), inner.at(0));
        o += 1;
        for i in 0..n.saturating_sub(1) {
            if i < n / 2 {
                self.triangle(outer.at(o), inner.at(i + 1), inner.at(i));
                self.triangle(outer.at(o), outer.at(o + 1), inner.at(i + 1));
            } else {
                self.triangle(inner.at(i), outer.at(o), outer.at(o + 1));
                self.triangle(inner.at(i), outer.at(o + 1), inner.at(i + 1));
            }
            o += 1;
        }
        self.triangle(outer.at(o), outer.at(o + 1), inner.at(n.saturating_sub(1)));
    }

    /// Quads between two rows of equal length (the middle strip of a quad patch), the
    /// diagonal of each from the inner row forward to the outer one, except for the middle
    /// quad when `mirror_middle`.
    fn stitch_strip(&mut self, outer: &Row, inner: &Row, mirror_middle: bool) {
        let quads = inner.len().saturating_sub(1);
        let middle = (inner.len() / 2).saturating_sub(1);
        for p in 0..quads {
            let (o0, o1, i0, i1) = (outer.at(p), outer.at(p + 1), inner.at(p), inner.at(p + 1));
            if !mirror_middle {
                self.triangle(i0, o0, o1);
                self.triangle(i0, o1, i1);
            } else if p == middle {
                self.triangle(o0, i1, i0);
                self.triangle(o0, o1, i1);
            } else {
                self.triangle(o0, o1, i0);
                self.triangle(i0, o1, i1);
            }
        }
    }
}

/// A row of point indices (one side of a ring); reading past its end gives its last point.
struct Row(Vec<u32>);

impl Row {
    fn at(&self, k: usize) -> u32 {
        self.0.get(k).or(self.0.last()).copied().unwrap_or(0)
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// The sides of a ring stored from `base` as `counts[side] − 1` points per side (each side
/// ends where the next begins, the last wraps to `base`).
fn ring_sides(base: u32, counts: &[usize]) -> Vec<Row> {
    let total: usize = counts.iter().map(|c| c.saturating_sub(1)).sum();
    let mut start = 0usize;
    counts
        .iter()
        .map(|&c| {
            let row = (0..c)
                .map(|k| {
                    let at = start + k;
                    base + if at >= total { 0 } else { at as u32 }
                })
                .collect();
            start += c.saturating_sub(1);
            Row(row)
        })
        .collect()
}

/// Tessellate a triangle patch (nothing when culled).
fn triangles(mesh: &mut Mesh, spacing: Spacing, outer: [f32; 4], inner: f32) {
    let outer = [outer[0], outer[1], outer[2]];
    if outer.iter().any(|&l| culls(l)) {
        return;
    }
    let b = bounds(spacing);
    let outer = outer.map(|l| clamp(l, b, spacing));
    let inner = clamp(inner, inner_bounds(spacing, &outer), spacing);
    let edges = outer.map(|l| level(l, spacing, false));
    let middle = level(inner, spacing, true);
    if [outer[0], outer[1], outer[2], inner]
        .iter()
        .all(|&l| fixed(l) == ONE)
    {
        let corners = [(0, ONE), (0, 0), (ONE, 0)].map(|(u, v)| mesh.point(u, v));
        mesh.triangle(corners[0], corners[1], corners[2]);
        return;
    }
    // The outer ring: edge u = 0 (v falling), v = 0 (u rising), w = 0 (u falling).
    for (e, l) in edges.iter().enumerate() {
        let last = l.points as i32 - 1;
        for p in 0..last {
            let x = l.place(if e == 1 { p } else { last - p });
            match e {
                0 => mesh.point(0, x),
                1 => mesh.point(x, 0),
                _ => mesh.point(x, ONE - x),
            };
        }
    }
    let n = middle
        .points
        .max(if middle.parity == Parity::Odd { 4 } else { 3 });
    let inner_base = mesh.points.len() as u32;
    for ring in 1..(n / 2) as i32 {
        let end = n as i32 - 1 - ring;
        let perp = ((i64::from(middle.place(ring)) * i64::from(TWO_THIRDS) + i64::from(HALF)) >> 16)
            as i32;
        for e in 0..3 {
            for p in ring..end {
                let along =
                    middle.place(if e == 1 { p } else { end - (p - ring) }) - (perp + 1) / 2;
                match e {
                    0 => mesh.point(perp, along),
                    1 => mesh.point(along, perp),
                    _ => mesh.point(along, ONE - along - perp),
                };
            }
        }
    }
    if middle.parity == Parity::Even {
        mesh.point(ONE_THIRD, ONE_THIRD);
    }
    // Connectivity: outer ring to ring 1 (transition), then ring to ring.
    let mut outer_rows = ring_sides(0, &edges.map(|l| l.points));
    let mut base = inner_base;
    let rings = n.div_ceil(2);
    for ring in 1..rings {
        let count = n - 2 * ring;
        let rows = ring_sides(base, &[count; 3]);
        for e in 0..3 {
            if ring == 1 {
                mesh.stitch_transition(&outer_rows[e], &edges[e], &rows[e], &middle);
            } else {
                mesh.stitch_ring(&outer_rows[e], &rows[e]);
            }
        }
        base += 3 * (count as u32).saturating_sub(1);
        outer_rows = rows;
    }
    if middle.parity == Parity::Odd {
        let c = [0, 1, 2].map(|s| outer_rows[s].at(0));
        mesh.triangle(c[0], c[1], c[2]);
    }
}

/// Tessellate a quad patch (nothing when culled).
fn quads(mesh: &mut Mesh, spacing: Spacing, outer: [f32; 4], inner: [f32; 2]) {
    if outer.iter().any(|&l| culls(l)) {
        return;
    }
    let b = bounds(spacing);
    let outer = outer.map(|l| clamp(l, b, spacing));
    let all = [outer[0], outer[1], outer[2], outer[3], inner[0], inner[1]];
    let inner = inner.map(|l| clamp(l, inner_bounds(spacing, &all), spacing));
    if outer.iter().chain(&inner).all(|&l| fixed(l) == ONE) {
        let c = [(0, 0), (ONE, 0), (ONE, ONE), (0, ONE)].map(|(u, v)| mesh.point(u, v));
        mesh.triangle(c[0], c[1], c[3]);
        mesh.triangle(c[1], c[2], c[3]);
        return;
    }
    let edges = outer.map(|l| level(l, spacing, false));
    let axes = inner.map(|l| level(l, spacing, true));
    // Edge e runs along axis (e + 1) % 2 (0 = u, 1 = v); edges 0 and 3 run backwards.
    let axis_of = |e: usize| (e + 1) % 2;
    for (e, l) in edges.iter().enumerate() {
        let last = l.points as i32 - 1;
        for p in 0..last {
            let x = l.place(if e == 1 || e == 2 { p } else { last - p });
            match e {
                0 => mesh.point(0, x),
                1 => mesh.point(x, 0),
                2 => mesh.point(ONE, x),
                _ => mesh.point(x, ONE),
            };
        }
    }
    let n = axes.map(|a| a.points.max(if a.parity == Parity::Odd { 4 } else { 3 }));
    let inner_base = mesh.points.len() as u32;
    let point_rings = n[0].min(n[1]) / 2;
    for ring in 1..point_rings as i32 {
        let end = n.map(|c| c as i32 - 1 - ring);
        for e in 0..4 {
            let (along, across) = (axis_of(e), 1 - axis_of(e));
            let perp = axes[across].place(if e < 2 { ring } else { end[across] });
            for p in ring..end[along] {
                let q = if e == 1 || e == 2 {
                    p
                } else {
                    end[along] - (p - ring)
                };
                let x = axes[along].place(q);
                if along == 1 {
                    mesh.point(perp, x)
                } else {
                    mesh.point(x, perp)
                };
            }
        }
    }
    // Even levels leave a middle row of points (along the longer axis).
    let ring = point_rings as i32;
    if n[0] > n[1] && axes[1].parity == Parity::Even {
        for p in ring..=n[0] as i32 - 1 - ring {
            mesh.point(axes[0].place(p), HALF);
        }
    } else if n[1] >= n[0] && axes[0].parity == Parity::Even {
        for p in (ring..=n[1] as i32 - 1 - ring).rev() {
            mesh.point(HALF, axes[1].place(p));
        }
    }
    // Connectivity.
    let mut outer_rows = ring_sides(0, &edges.map(|l| l.points));
    let mut base = inner_base;
    let rings = n.map(|c| c.div_ceil(2));
    for ring in 1..rings[0].min(rings[1]) {
        let count = n.map(|c| c - 2 * ring);
        let side_counts = [0, 1, 2, 3].map(|e| count[axis_of(e)]);
        let mut rows = ring_sides(base, &side_counts);
        // A ring one point thick is a row: walk it back on the far side.
        if count[1] == 1 {
            rows[3] = Row(rows[1].0.iter().rev().copied().collect());
        } else if count[0] == 1 {
            rows[2] = Row(rows[0].0.iter().rev().copied().collect());
        }
        for e in 0..4 {
            if ring == 1 {
                let axis = &axes[axis_of(e)];
                mesh.stitch_transition(&outer_rows[e], &edges[e], &rows[e], axis);
            } else {
                mesh.stitch_ring(&outer_rows[e], &rows[e]);
            }
        }
        let stored = if count[0] == 1 || count[1] == 1 {
            count[0].max(count[1])
        } else {
            2 * (count[0] - 1) + 2 * (count[1] - 1)
        };
        base += stored as u32;
        outer_rows = rows;
    }
    // Odd levels leave a strip of quads between the innermost ring's long sides.
    if n[0] > n[1] && axes[1].parity == Parity::Odd {
        let top = Row(outer_rows[3].0.iter().rev().copied().collect());
        mesh.stitch_strip(&outer_rows[1], &top, false);
    } else if n[1] >= n[0] && axes[0].parity == Parity::Odd {
        let right = Row(outer_rows[2].0.iter().rev().copied().collect());
        mesh.stitch_strip(&outer_rows[0], &right, axes[1].parity == Parity::Odd);
    }
}

/// Tessellate an isoline patch (nothing when culled).
fn isolines(mesh: &mut Mesh, spacing: Spacing, density: f32, detail: f32) {
    if culls(density) || culls(detail) {
        return;
    }
    let density = clamp(density, (1.0, MAX_LEVEL), Spacing::Equal);
    let detail = clamp(detail, bounds(spacing), spacing);
    let lines = level(density, Spacing::Equal, false);
    let segments = level(detail, spacing, false);
    for line in 0..lines.points.saturating_sub(1) as i32 {
        let v = lines.place(line);
        let first = mesh.points.len() as u32;
        for p in 0..segments.points as i32 {
            mesh.point(segments.place(p), v);
            if p > 0 {
                let at = first + p as u32;
                mesh.indices.extend_from_slice(&[at - 1, at]);
            }
        }
    }
}
