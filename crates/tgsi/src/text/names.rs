//! Case-insensitive lookup of the words the parser meets on every operand — opcodes,
//! register files and texture targets — straight from the bytes of the input, without
//! building a string. Each table is derived once from the single source of its names (the
//! opcode table, the `named_enum` declarations) into an open-addressing hash table.

use std::sync::OnceLock;

use crate::enums::{File, TextureTarget};
use crate::opcode::Opcode;

/// Names longer than this are never looked up (no table holds one).
const MAX_NAME: usize = 32;

/// A fixed hash table from case-folded names to values.
pub struct NameTable<T: Copy + 'static> {
    slots: Box<[Option<(&'static str, T)>]>,
    mask: usize,
}

/// Folds ASCII letters to upper case. On the bytes of a word (`[A-Za-z0-9_]`) this is
/// one-to-one, so folded bytes hash equal exactly when the words match case-insensitively.
#[inline]
fn fold(b: u8) -> u8 {
    b & !0x20
}

#[inline]
fn hash(word: &[u8]) -> usize {
    let mut h: u32 = word.len() as u32;
    for &b in word {
        h = (h ^ fold(b) as u32).wrapping_mul(0x0100_0193);
    }
    (h ^ (h >> 15)) as usize
}

impl<T: Copy + 'static> NameTable<T> {
    /// A table holding `entries`; of two equal names the later one wins (as in a map).
    fn new(entries: impl Iterator<Item = (&'static str, T)>) -> NameTable<T> {
        let entries: Vec<_> = entries.collect();
        let size = (entries.len() * 4).next_power_of_two();
        let mask = size - 1;
        let mut slots = vec![None; size].into_boxed_slice();
        for (name, value) in entries {
            debug_assert!(name.len() <= MAX_NAME, "{name} is too long for a NameTable");
            let mut i = hash(name.as_bytes()) & mask;
            loop {
                match slots[i] {
                    None => {
                        slots[i] = Some((name, value));
                        break;
                    }
                    Some((other, _)) if other.eq_ignore_ascii_case(name) => {
                        slots[i] = Some((name, value));
                        break;
                    }
                    Some(_) => i = (i + 1) & mask,
                }
            }
        }
        NameTable { slots, mask }
    }

    /// The value whose name equals `word` ignoring ASCII case.
    #[inline]
    pub fn get(&self, word: &[u8]) -> Option<T> {
        if word.is_empty() || word.len() > MAX_NAME {
            return None;
        }
        let mut i = hash(word) & self.mask;
        loop {
            let (name, value) = self.slots[i]?;
            if name.as_bytes().eq_ignore_ascii_case(word) {
                return Some(value);
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
    }
}
