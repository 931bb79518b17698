//! Cube maps: choosing a face and its 2-D coordinates from a direction (softpipe's
//! `convert_cube`, per lane, faces +X −X +Y −Y +Z −Z = 0..5), and the seamless lookup that
//! moves a texel index that fell off a face onto the neighbouring face
//! (`get_texel_cube_seamless`, corners clamped along the second axis).

use super::texel::View;
use super::tile_cache::Fetch;

/// A lane's face and face coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FaceCoord {
    pub face: u32,
    pub s: f32,
    pub t: f32,
}

/// The major-axis face of direction (rx, ry, rz) and the coordinates on it (ties go to X,
/// then Y; NaN directions fall through to Z).
pub(crate) fn convert(rx: f32, ry: f32, rz: f32) -> FaceCoord {
    let (ax, ay, az) = (rx.abs(), ry.abs(), rz.abs());
    if ax >= ay && ax >= az {
        let pos = rx >= 0.0;
        let sign = if pos { 1.0 } else { -1.0 };
        let ima = -0.5 / rx.abs();
        FaceCoord {
            face: if pos { 0 } else { 1 },
            s: sign * rz * ima + 0.5,
            t: ry * ima + 0.5,
        }
    } else if ay >= ax && ay >= az {
        let pos = ry >= 0.0;
        let sign = if pos { 1.0 } else { -1.0 };
        let ima = -0.5 / ry.abs();
        FaceCoord {
            face: if pos { 2 } else { 3 },
            s: -rx * ima + 0.5,
            t: sign * -rz * ima + 0.5,
        }
    } else {
        let pos = rz >= 0.0;
        let sign = if pos { 1.0 } else { -1.0 };
        let ima = -0.5 / rz.abs();
        FaceCoord {
            face: if pos { 4 } else { 5 },
            s: sign * -rx * ima + 0.5,
            t: ry * ima + 0.5,
        }
    }
}

/// Neighbour of each face across its −x, +x, −y, +y edge.
const NEIGHBOUR: [[u32; 4]; 6] = [
    [4, 5, 2, 3],
    [5, 4, 2, 3],
    [1, 0, 5, 4],
    [1, 0, 4, 5],
    [1, 0, 2, 3],
    [0, 1, 2, 3],
];

/// Where a texel that fell off `face` across `edge` (0: x < 0, 1: x ≥ size, 2: y < 0,
/// 3: y ≥ size) lands on the neighbour, `max` = size − 1.
fn moved(face: u32, edge: usize, max: i32, x: i32, y: i32) -> (i32, i32) {
    let nx = match (face, edge) {
        (0, 0) | (0, 2) | (0, 3) | (1, 0) | (4, 0) | (5, 0) => max,
        (1, _) | (0, 1) | (4, 1) | (5, 1) => 0,
        (4, _) | (2, 3) | (3, 2) => x,
        (5, _) | (2, 2) | (3, 3) => max - x,
        (2, 0) | (3, 1) => y,
        _ => max - y,
    };
    let ny = if edge <= 1 && (face <= 1 || face >= 4) {
        y
    } else {
        match (face, edge) {
            (2, _) | (4, 3) | (5, 2) => 0,
            (3, _) | (4, 2) | (5, 3) => max,
            (0, 3) | (1, 2) => x,
            _ => max - x,
        }
    };
    (nx, ny)
}

/// The texel at (x, y) of `face` of the cube starting at slice `layer`, following edges
/// onto neighbouring faces (no border colour).
pub(crate) fn seamless_texel(v: &View, level: u32, x: i32, y: i32, layer: u32, face: u32) -> Fetch {
    let size = v.width(level) as i32;
    let max = size - 1;
    let corner = |y: i32| {
        if y < 0 || y >= size {
            y.clamp(0, max.max(0))
        } else {
            y
        }
    };
    let (nx, ny, nface) = if face > 5 {
        (x, y, face)
    } else if x < 0 || x >= size {
        let edge = usize::from(x >= size);
        let y = corner(y);
        let (nx, ny) = moved(face, edge, max, x, y);
        (nx, ny, NEIGHBOUR[face as usize][edge])
    } else if y < 0 || y >= size {
        let edge = if y < 0 { 2 } else { 3 };
        let (nx, ny) = moved(face, edge, max, x, y);
        (nx, ny, NEIGHBOUR[face as usize][edge])
    } else {
        (x, y, face)
    };
    Fetch::Texel {
        level,
        x: nx,
        y: ny,
        z: layer.wrapping_add(nface) as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces() {
        let c = convert(1.0, 0.0, 0.0);
        assert_eq!((c.face, c.s, c.t), (0, 0.5, 0.5));
        // +X: s = -rz, t = -ry (scaled)
        let c = convert(1.0, 0.5, 0.5);
        assert_eq!((c.face, c.s, c.t), (0, 0.25, 0.25));
        let c = convert(-1.0, 0.5, 0.5);
        assert_eq!((c.face, c.s, c.t), (1, 0.75, 0.25));
        let c = convert(0.2, 1.0, 0.5);
        assert_eq!((c.face, c.s, c.t), (2, 0.6, 0.75));
        let c = convert(0.2, -1.0, 0.5);
        assert_eq!((c.face, c.s, c.t), (3, 0.6, 0.25));
        let c = convert(0.2, 0.5, 1.0);
        assert_eq!((c.face, c.s, c.t), (4, 0.6, 0.25));
        let c = convert(0.2, 0.5, -1.0);
        assert_eq!((c.face, c.s, c.t), (5, 0.4, 0.25));
        // ties prefer X then Y
        assert_eq!(convert(1.0, 1.0, 1.0).face, 0);
        assert_eq!(convert(0.0, -1.0, 1.0).face, 3);
        assert_eq!(convert(f32::NAN, 0.0, 0.0).face, 4);
    }

    #[test]
    fn neighbours() {
        // +X, falling off at x < 0 → +Z at s = max, t unchanged
        assert_eq!(moved(0, 0, 7, -1, 3), (7, 3));
        // +X, y < 0 → +Y: s = max, t = max - x
        assert_eq!(moved(0, 2, 7, 2, -1), (7, 5));
        // +Y, x >= size → +X: s = max - y, t = 0
        assert_eq!(moved(2, 1, 7, 8, 2), (5, 0));
        // -Y, y >= size → -Z: s = max - s, t = max
        assert_eq!(moved(3, 3, 7, 2, 8), (5, 7));
        // -Z, y < 0 → +Y: s = max - s, t = 0
        assert_eq!(moved(5, 2, 7, 2, -1), (5, 0));
        assert_eq!(NEIGHBOUR[5][2], 2);
    }
}
