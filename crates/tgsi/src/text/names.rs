//! Case-insensitive lookup of the words the parser meets on every operand — opcodes,
//! register files and texture targets — straight from the bytes of the input, without
//! building a string. Each table is derived once from the single source of its names (the
//! opcode table, the `named_enum` declarations) into an open-addressing hash table.

use std::sync::OnceLock;

use crate::enums::{File, TextureTarget};
use crate::opcode::Opcode;

/// Names longer than this are never looked up (no table holds one; the longest is
/// `INTERP_CENTROID`).
const MAX_NAME: usize = 15;

/// A fixed hash table from case-folded names to values.
pub struct NameTable<T: Copy + 'static> {
    /// Keys as two 64-bit halves (low, high); `[0, 0]` marks an empty slot (no name is
    /// empty). Kept apart from the values, and 16 bytes each, so the probed part of the
    /// opcode table stays small enough for the first-level cache.
    keys: Box<[[u64; 2]]>,
    values: Box<[Option<T>]>,
    mask: usize,
}

/// A word of at most [`MAX_NAME`] bytes upper-cased into two integers, first byte lowest,
/// its length in the top byte of the second: two words have the same key exactly when they
/// are equal ignoring ASCII case.
#[inline]
fn key(word: &[u8]) -> Option<[u64; 2]> {
    if word.is_empty() || word.len() > MAX_NAME {
        return None;
    }
    // Two 64-bit halves: cheaper to shift into than one 128-bit integer.
    let half = |bytes: &[u8]| {
        bytes
            .iter()
            .rev()
            .fold(0u64, |k, b| k << 8 | b.to_ascii_uppercase() as u64)
    };
    let (low, high) = word.split_at(word.len().min(8));
    Some([half(low), (word.len() as u64) << 56 | half(high)])
}

#[inline]
fn hash(key: [u64; 2]) -> usize {
    let h = (key[0] ^ key[1]).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> 32) as usize
}

impl<T: Copy + 'static> NameTable<T> {
    /// A table holding `entries`; of two equal names the later one wins (as in a map).
    fn new(entries: impl Iterator<Item = (&'static str, T)>) -> NameTable<T> {
        const EMPTY: [u64; 2] = [0, 0];
        let entries: Vec<_> = entries.collect();
        // At most a quarter full: short probes.
        let size = (entries.len() * 4).next_power_of_two();
        let mask = size - 1;
        let mut keys = vec![EMPTY; size].into_boxed_slice();
        let mut values = vec![None; size].into_boxed_slice();
        for (name, value) in entries {
            let Some(k) = key(name.as_bytes()) else {
                continue;
            };
            let mut i = hash(k) & mask;
            while keys[i] != EMPTY && keys[i] != k {
                i = (i + 1) & mask;
            }
            keys[i] = k;
            values[i] = Some(value);
        }
        NameTable { keys, values, mask }
    }

    /// The value whose name equals `word` ignoring ASCII case.
    #[inline]
    pub fn get(&self, word: &[u8]) -> Option<T> {
        let k = key(word)?;
        let mut i = hash(k) & self.mask;
        loop {
            let slot = *self.keys.get(i)?;
            if slot == k {
                return self.values.get(i).copied().flatten();
            }
            if slot == [0, 0] {
                return None;
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// Opcode mnemonics and their accepted older spellings.
pub fn opcodes() -> &'static NameTable<Opcode> {
    static TABLE: OnceLock<NameTable<Opcode>> = OnceLock::new();
    TABLE.get_or_init(|| {
        NameTable::new(Opcode::all().flat_map(|op| {
            let info = op.info();
            std::iter::once(info.name)
                .chain(info.aliases.iter().copied())
                .map(move |name| (name, op))
        }))
    })
}

/// Register file names.
pub fn files() -> &'static NameTable<File> {
    static TABLE: OnceLock<NameTable<File>> = OnceLock::new();
    TABLE.get_or_init(|| NameTable::new(File::ALL.iter().map(|&f| (f.name(), f))))
}

/// Texture target names.
pub fn texture_targets() -> &'static NameTable<TextureTarget> {
    static TABLE: OnceLock<NameTable<TextureTarget>> = OnceLock::new();
    TABLE.get_or_init(|| NameTable::new(TextureTarget::ALL.iter().map(|&t| (t.name(), t))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_from_name() {
        for op in Opcode::all() {
            let name = op.name();
            assert_eq!(opcodes().get(name.as_bytes()), Some(op));
            assert_eq!(opcodes().get(name.to_lowercase().as_bytes()), Some(op));
            for alias in op.info().aliases {
                assert_eq!(opcodes().get(alias.as_bytes()), Opcode::from_name(alias));
            }
        }
        for &f in File::ALL {
            assert_eq!(files().get(f.name().to_lowercase().as_bytes()), Some(f));
        }
        for &t in TextureTarget::ALL {
            assert_eq!(texture_targets().get(t.name().as_bytes()), Some(t));
        }
        for word in ["", "MOVE", "MO", "TEMPX", "_", "0", "mov_sat", "2d_"] {
            let w = word.as_bytes();
            assert_eq!(opcodes().get(w), Opcode::from_name(word), "{word}");
            assert_eq!(files().get(w), File::from_name(word), "{word}");
            assert_eq!(
                texture_targets().get(w),
                TextureTarget::from_name(word),
                "{word}"
            );
        }
        assert_eq!(opcodes().get(&[b'A'; 200]), None);
        // Trailing NUL bytes do not make a different word look like a name.
        assert_eq!(files().get(b"IN\0"), None);
        assert_eq!(texture_targets().get(b"2D\0\0"), None);
    }
}
