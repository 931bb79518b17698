//! Gallium `pipe_format` values as they appear in image declarations and memory tokens.
//!
//! Format numbers are not stable across Mesa releases; this crate uses Mesa 22.3's (the
//! token ABI of the installed softpipe). Text always names formats, never numbers.

use crate::pipe_format_table::PIPE_FORMATS;

/// A Gallium format number (Mesa 22.3 numbering). `Format::NONE` is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Format(pub u16);

impl Format {
    /// `PIPE_FORMAT_NONE`.
    pub const NONE: Format = Format(0);

    /// The full name (`PIPE_FORMAT_R32_UINT`), if the number is a known format.
    pub fn name(self) -> Option<String> {
        self.short_name().map(|n| format!("PIPE_FORMAT_{n}"))
    }

    /// The name without its `PIPE_FORMAT_` prefix.
    pub fn short_name(self) -> Option<&'static str> {
        PIPE_FORMATS
            .get(self.0 as usize)
            .filter(|(n, _)| *n == self.0)
            .map(|(_, name)| *name)
    }

    /// Case-insensitive lookup of a full `PIPE_FORMAT_…` name.
    pub fn from_name(name: &str) -> Option<Format> {
        let prefix = "PIPE_FORMAT_";
        // `get`, not indexing: the name is untrusted and may split a multi-byte character.
        let (Some(head), Some(short)) = (name.get(..prefix.len()), name.get(prefix.len()..)) else {
            return None;
        };
        if short.is_empty() || !head.eq_ignore_ascii_case(prefix) {
            return None;
        }
        PIPE_FORMATS
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(short))
            .map(|&(num, _)| Format(num))
    }

    /// Whether the number names a format of the table.
    pub fn is_known(self) -> bool {
        self.short_name().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_formats() {
        assert_eq!(Format::from_name("pipe_format_r32_uint"), Some(Format(104)));
        assert_eq!(
            Format(53).name().as_deref(),
            Some("PIPE_FORMAT_R8G8B8A8_UNORM")
        );
        assert_eq!(Format::from_name("PIPE_FORMAT_"), None);
        assert_eq!(Format(60000).name(), None);
    }

    #[test]
    fn names_splitting_a_character_are_unknown_not_a_panic() {
        // exec_bindings found this: the prefix length falls inside '꿮' (bytes 10..13).
        assert_eq!(
            Format::from_name("PIPE_Fet\\@꿮tORMAT_R16G16B16A16_FLOAT"),
            None
        );
        assert_eq!(Format::from_name("PIPE_FORMA꿮"), None);
        assert_eq!(Format::from_name("PIPE_FORMAT_꿮"), None);
    }
}
