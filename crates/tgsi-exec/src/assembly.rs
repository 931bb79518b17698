//! Primitive assembly and decomposition as Gallium's draw module does them:
//! [`draw_positions`] resolves an indexed draw, [`assemble`] splits the drawn vertices into
//! the input primitives of a geometry shader, and [`decompose`] splits one emitted strip
//! into the independent points, lines or triangles transform feedback captures.
//!
//! The order of a primitive's vertices depends on the provoking-vertex convention (GL's
//! `glProvokingVertex`, Gallium's rasterizer `flatshade_first`), as softpipe's captures
//! show (`tests/data/gsref/*provoking-first*`):
//!
//! | mode | primitive `i`, last vertex provoking (GL's default) | first vertex provoking |
//! |---|---|---|
//! | points | `i` | same |
//! | lines / line_strip / line_loop | `(2i, 2i+1)` / `(i, i+1)` / strip plus `(n−1, 0)` | same |
//! | triangles | `(3i, 3i+1, 3i+2)` | same |
//! | triangle_strip | `(i, i+1, i+2)` for even `i`, `(i+1, i, i+2)` for odd `i` | odd `i`: `(i, i+2, i+1)` |
//! | triangle_fan | `(0, i+1, i+2)` | `(i+1, i+2, 0)` |
//! | lines_adjacency / line_strip_adjacency | `(4i … 4i+3)` / `(i … i+3)` | same |
//! | triangles_adjacency | `(6i … 6i+5)` | same |
//! | triangle_strip_adjacency | the GL table: vertices `v1 a12 v2 a23 v3 a31` | odd `i`: rotated to start at `v2` |

use crate::machine::ExecError;
use tgsi::Primitive;

/// The vertex each draw position reads: position `k` itself, or `indices[k]` for an
/// indexed draw, which must lie within the `count` vertices of the vertex buffer.
pub fn draw_positions(indices: Option<&[u32]>, count: usize) -> Result<Vec<usize>, ExecError> {
    match indices {
        None => Ok((0..count).collect()),
        Some(indices) => indices
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let i = i as usize;
                if i < count {
                    Ok(i)
                } else {
                    Err(ExecError::Setup(format!(
                        "index {i} at draw position {k} is past the {count} vertices"
                    )))
                }
            })
            .collect(),
    }
}

/// The geometry-shader input primitive a draw mode feeds (`None` for quads, polygons and
/// patches).
pub fn input_primitive(mode: Primitive) -> Option<Primitive> {
    use Primitive::*;
    Some(match mode {
        Points => Points,
        Lines | LineStrip | LineLoop => Lines,
        Triangles | TriangleStrip | TriangleFan => Triangles,
        LinesAdjacency | LineStripAdjacency => LinesAdjacency,
        TrianglesAdjacency | TriangleStripAdjacency => TrianglesAdjacency,
        _ => return None,
    })
}

/// The input primitives of `count` vertices drawn as `mode`: `V` draw positions per
/// primitive (`V` = the vertices of [`input_primitive`]), primitive after primitive, in
/// the order the module documentation gives for the convention. Incomplete trailing
/// primitives are dropped. `None` for modes without a GS input.
pub fn assemble(mode: Primitive, count: usize, provoking_first: bool) -> Option<Vec<u32>> {
    use Primitive::*;
    let n = count as u32;
    let tris = |c: u32| c.saturating_sub(2);
    let out: Vec<u32> = match mode {
        Points | Lines | Triangles | LinesAdjacency | TrianglesAdjacency => {
            let v = input_primitive(mode)?.vertices();
            (0..n - n % v).collect()
        }
        LineStrip => (1..n).flat_map(|i| [i - 1, i]).collect(),
        LineLoop if n >= 2 => (1..n).flat_map(|i| [i - 1, i]).chain([n - 1, 0]).collect(),
        LineLoop => Vec::new(),
        TriangleStrip => (0..tris(n))
            .flat_map(|i| strip_triangle(i, provoking_first))
            .collect(),
        TriangleFan if provoking_first => (0..tris(n)).flat_map(|i| [i + 1, i + 2, 0]).collect(),
        TriangleFan => (0..tris(n)).flat_map(|i| [0, i + 1, i + 2]).collect(),
        LineStripAdjacency => (0..n.saturating_sub(3)).flat_map(|i| i..i + 4).collect(),
        TriangleStripAdjacency => {
            let t = if n >= 6 { (n - 4) / 2 } else { 0 };
            (0..t)
                .flat_map(|i| {
                    let mut tri = strip_adjacency(i, t);
                    if provoking_first && i % 2 == 1 {
                        tri.rotate_left(2);
                    }
                    tri
                })
                .collect()
        }
        _ => return None,
    };
    Some(out)
}

/// Triangle `i` of `t` of a triangle strip with adjacency, in GS input order
/// (vertex 1, adjacent 1–2, vertex 2, adjacent 2–3, vertex 3, adjacent 3–1).
fn strip_adjacency(i: u32, t: u32) -> [u32; 6] {
    let j = 2 * i;
    let last = i + 1 == t;
    match (i, i % 2 == 1) {
        (0, _) => [0, 1, 2, if last { 5 } else { 6 }, 4, 3],
        (_, true) => [
            j + 2,
            j - 2,
            j,
            j + 3,
            j + 4,
            if last { j + 5 } else { j + 6 },
        ],
        (_, false) => [
            j,
            j - 2,
            j + 2,
            if last { j + 5 } else { j + 6 },
            j + 4,
            j + 3,
        ],
    }
}

/// Triangle `i` of a triangle strip (see the module documentation).
fn strip_triangle(i: u32, provoking_first: bool) -> [u32; 3] {
    match (i.is_multiple_of(2), provoking_first) {
        (true, _) => [i, i + 1, i + 2],
        (false, false) => [i + 1, i, i + 2],
        (false, true) => [i, i + 2, i + 1],
    }
}

/// The independent primitives of one emitted strip of `n` vertices of `output` (points,
/// line_strip or triangle_strip), as vertex indices into the strip, in draw's order: points
/// one each, lines `(i, i+1)`, triangles as a triangle-strip draw assembles them. Too-short
/// strips give nothing.
pub fn decompose(output: Primitive, n: u32, provoking_first: bool) -> Vec<u32> {
    match output {
        Primitive::Points => (0..n).collect(),
        Primitive::LineStrip => (1..n).flat_map(|i| [i - 1, i]).collect(),
        Primitive::TriangleStrip => (0..n.saturating_sub(2))
            .flat_map(|i| strip_triangle(i, provoking_first))
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_fans_loops_and_adjacency() {
        use Primitive::*;
        assert_eq!(assemble(Triangles, 7, false), Some((0..6).collect()));
        assert_eq!(
            assemble(TriangleStrip, 5, false),
            Some(vec![0, 1, 2, 2, 1, 3, 2, 3, 4])
        );
        assert_eq!(
            assemble(TriangleFan, 4, false),
            Some(vec![0, 1, 2, 0, 2, 3])
        );
        assert_eq!(assemble(LineLoop, 3, false), Some(vec![0, 1, 1, 2, 2, 0]));
        assert_eq!(assemble(LineStrip, 1, false), Some(vec![]));
        assert_eq!(
            assemble(LineStripAdjacency, 5, false),
            Some(vec![0, 1, 2, 3, 1, 2, 3, 4])
        );
        // 10 vertices: first, middle (odd) and last (even) triangles of the GL table.
        assert_eq!(
            assemble(TriangleStripAdjacency, 10, false),
            Some(vec![0, 1, 2, 6, 4, 3, 4, 0, 2, 5, 6, 8, 4, 2, 6, 9, 8, 7])
        );
        // One triangle only.
        assert_eq!(
            assemble(TriangleStripAdjacency, 6, false),
            Some(vec![0, 1, 2, 5, 4, 3])
        );
        assert_eq!(assemble(Quads, 4, false), None);
        // The first-vertex convention reorders odd strip triangles and fans only.
        assert_eq!(
            assemble(TriangleStrip, 5, true),
            Some(vec![0, 1, 2, 1, 3, 2, 2, 3, 4])
        );
        assert_eq!(assemble(TriangleFan, 4, true), Some(vec![1, 2, 0, 2, 3, 0]));
        assert_eq!(
            assemble(TriangleStripAdjacency, 10, true),
            Some(vec![0, 1, 2, 6, 4, 3, 2, 5, 6, 8, 4, 0, 4, 2, 6, 9, 8, 7])
        );
        assert_eq!(assemble(LineLoop, 3, true), assemble(LineLoop, 3, false));
        assert_eq!(decompose(TriangleStrip, 4, true), vec![0, 1, 2, 1, 3, 2]);
        assert_eq!(decompose(TriangleStrip, 4, false), vec![0, 1, 2, 2, 1, 3]);
        assert_eq!(decompose(LineStrip, 1, false), Vec::<u32>::new());
    }
}
