//! Softpipe's texture tile cache, as far as it changes sampled values.
//!
//! Softpipe reads texels through a direct-mapped cache per sampler view: 16 slots of
//! 32×32-texel tiles, the slot of a tile at tile column `tx`, tile row `ty`, slice `z`
//! (array layer, cube face + layer, or 3-D slice; the first layer for 2-D views; 0 for 1-D
//! views, whose layers are the rows) and mipmap `level` being
//! `(tx + 9·ty + z + 7·level) mod 16`. Its linear filters take a *pointer* into the cache
//! for each of the 2, 4 or 8 texels of a footprint, one after another, and read them all
//! afterwards. When a later fetch of the same footprint loads another tile into the slot an
//! earlier pointer points into, the earlier texel is read from that tile instead, at the
//! same position inside the tile. With a 256-texel-wide REPEAT texture, for instance, the
//! footprint that wraps from column 255 to column 0 across a tile row boundary loads tile
//! (7, k+1) into the slot of tile (0, k), and texel (0, 32k+31) reads as (224, 32k+63).
//! `tests/data/texref/bilinear-wrap-tiles` (made on softpipe) shows exactly this.
//!
//! Border colours are not cached and take part in nothing. Where the aliasing tile is only
//! partly inside its level, the position read may lie outside the image; softpipe then
//! reads what an earlier tile left in the slot, which depends on the whole draw's history,
//! so this model keeps the correct texel there.

use super::texel::{Texel, View};

/// Texels per tile side.
pub const TILE: u32 = 32;
/// Slots of the direct-mapped cache.
pub const SLOTS: u32 = 16;
/// How far one tile row moves a tile's slot (a tile column moves it by one; see `slot`).
pub const ROW_WEIGHT: u32 = 9;
/// How far one mipmap level moves a tile's slot.
const LEVEL_WEIGHT: u32 = 7;

/// One texel a filter fetches: cached coordinates (the arguments of [`View::texel`]) or the
/// border colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fetch {
    Texel { level: u32, x: i32, y: i32, z: i32 },
    Border,
}

/// A tile's address: (level, tile column, tile row, slice).
type TileAddr = (u32, u32, u32, u32);

fn tile(level: u32, x: i32, y: i32, z: i32) -> TileAddr {
    (level, x as u32 / TILE, y as u32 / TILE, z as u32)
}

fn slot((level, tx, ty, z): TileAddr) -> u32 {
    tx.wrapping_add(ty.wrapping_mul(ROW_WEIGHT))
        .wrapping_add(z)
        .wrapping_add(level.wrapping_mul(LEVEL_WEIGHT))
        % SLOTS
}

/// The values a footprint fetched in this order reads, with softpipe's aliasing.
pub(crate) fn resolve<const N: usize>(v: &View, fetches: [Fetch; N]) -> [Texel; N] {
    if let Some(Fetch::Texel { level, x, y, z }) = fetches.first().copied() {
        let own = tile(level, x, y, z);
        let in_tile = |f: &Fetch| matches!(*f, Fetch::Texel { level, x, y, z } if tile(level, x, y, z) == own);
        if fetches.iter().all(in_tile) {
            // One tile holds the whole footprint (the common case): nothing aliases.
            let xy = fetches.map(|f| match f {
                Fetch::Texel { x, y, .. } => (x, y),
                Fetch::Border => (0, 0),
            });
            return v.texels(level, z, xy);
        }
    }
    let tiles: [Option<TileAddr>; N] = fetches.map(|f| match f {
        Fetch::Texel { level, x, y, z } => Some(tile(level, x, y, z)),
        Fetch::Border => None,
    });
    std::array::from_fn(|i| {
        let (Fetch::Texel { level, x, y, z }, Some(own)) = (fetches[i], tiles[i]) else {
            return v.border;
        };
        // The tile the slot holds when the texels are read: that of the last later fetch
        // mapping to the same slot (the common footprint inside one tile has none other).
        let last_in_slot = tiles[i + 1..]
            .iter()
            .rev()
            .flatten()
            .find(|t| slot(**t) == slot(own));
        match last_in_slot {
            Some(&other @ (l, tx, ty, tz)) if other != own => {
                let ax = (tx * TILE + x as u32 % TILE) as i32;
                let ay = (ty * TILE + y as u32 % TILE) as i32;
                v.try_texel(l, ax, ay, tz as i32)
                    .unwrap_or_else(|| v.texel(level, x, y, z))
            }
            _ => v.texel(level, x, y, z),
        }
    })
}

/// Whether softpipe's cache makes a texel of the bilinear footprint at columns `xs` and
/// rows `ys` of slice `z` of `level` (texels inside the level, fetched in `lerp_2d` order)
/// read another tile's memory: a later texel of the footprint maps another tile to the
/// same slot. Only a footprint across tiles can; [`resolve`] gives the direct texels
/// otherwise.
#[inline(always)]
pub(crate) fn aliases(level: u32, z: i32, [x0, x1]: [i32; 2], [y0, y1]: [i32; 2]) -> bool {
    if x0 as u32 / TILE == x1 as u32 / TILE && y0 as u32 / TILE == y1 as u32 / TILE {
        return false;
    }
    let tiles = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map(|(x, y)| tile(level, x, y, z));
    (0..4).any(|i| {
        tiles[i + 1..]
            .iter()
            .any(|t| slot(*t) == slot(tiles[i]) && *t != tiles[i])
    })
}

/// One texel on its own (nearest filters): nothing to alias.
pub(crate) fn single(v: &View, fetch: Fetch) -> Texel {
    match fetch {
        Fetch::Texel { level, x, y, z } => v.texel(level, x, y, z),
        Fetch::Border => v.border,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_follow_softpipes_hash() {
        // The collision of the 256-wide REPEAT seam: tile (0,0) and tile (7,1) share slot 0.
        assert_eq!(slot(tile(0, 0, 31, 0)), slot(tile(0, 255, 32, 0)));
        assert_ne!(slot(tile(0, 0, 31, 0)), slot(tile(0, 255, 31, 0)));
        assert_eq!(slot((1, 0, 0, 0)), 7);
        assert_eq!(slot((0, 0, 0, 17)), 1);
    }
}
