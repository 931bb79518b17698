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
    let mut bytes = [0u8; 16];
    bytes[..word.len()].copy_from_slice(word);
    Some(key_of(u128::from_le_bytes(bytes), word.len()))
}

/// [`key`] of the first `len` bytes of `text`, read 16 bytes at a time where `text` has
/// them (no copy).
#[inline(always)]
fn key_at(text: &[u8], len: usize) -> Option<[u64; 2]> {
    match text.first_chunk::<16>() {
        Some(bytes) if (1..=MAX_NAME).contains(&len) => {
            Some(key_of(u128::from_le_bytes(*bytes), len))
        }
        _ => key(text.get(..len)?),
    }
}

/// The key of a word of `len` (1 to 15) bytes held in the low bytes of `bytes`.
#[inline(always)]
fn key_of(bytes: u128, len: usize) -> [u64; 2] {
    let word = bytes & ((1u128 << (8 * len)) - 1);
    [
        upper(word as u64),
        upper((word >> 64) as u64) | (len as u64) << 56,
    ]
}

/// Eight bytes with each ASCII lower-case letter upper-cased (all at once): the letters are
/// the bytes below 0x80 at or above `a` and not above `z`, and lose 0x20.
#[inline(always)]
fn upper(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low7 = x & !HIGH;
    // No byte carries into the next: each sum stays below 0x100.
    let from_a = low7 + ONES * (0x80 - b'a' as u64);
    let past_z = low7 + ONES * (0x80 - b'z' as u64 - 1);
    let lower = from_a & !past_z & !x & HIGH;
    x - (lower >> 2)
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
        self.find(key(word)?)
    }

    /// [`NameTable::get`] of the word made of the first `len` bytes of `text`.
    #[inline(always)]
    pub fn get_at(&self, text: &[u8], len: usize) -> Option<T> {
        self.find(key_at(text, len)?)
    }

    #[inline(always)]
    fn find(&self, k: [u64; 2]) -> Option<T> {
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
    fn upper_cases_exactly_the_ascii_letters() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let x =
                    (0x7a61_5a41_807b_6040u64 & !(0xffu64 << (8 * at))) | (b as u64) << (8 * at);
                let expected = u64::from_le_bytes(x.to_le_bytes().map(|c| c.to_ascii_uppercase()));
                assert_eq!(upper(x), expected, "{b:#x} at {at}");
            }
        }
    }

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
        let text = b"mov_Sat TEMP[0], IN[1] 2d";
        for start in 0..text.len() {
            for len in 0..=text.len() - start {
                let word = &text[start..start + len];
                assert_eq!(opcodes().get_at(&text[start..], len), opcodes().get(word));
                assert_eq!(files().get_at(&text[start..], len), files().get(word));
            }
        }
        assert_eq!(opcodes().get_at(b"MOV", 4), None);
        assert_eq!(
            texture_targets().get_at(b"2d", 2),
            Some(TextureTarget::Tex2D)
        );
        // Trailing NUL bytes do not make a different word look like a name.
        assert_eq!(files().get(b"IN\0"), None);
        assert_eq!(texture_targets().get(b"2D\0\0"), None);
    }
}
