//! Caps on what one shader may contain, so hostile input is rejected instead of exhausting
//! memory or time. Every front end (text parser, token decoder) and the validator take a
//! [`Limits`]; embedders can tighten or relax them.

/// Upper bounds enforced while reading and validating a shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of text, or 4 × words of tokens.
    pub max_input_bytes: usize,
    /// Instructions.
    pub max_instructions: usize,
    /// Declarations.
    pub max_declarations: usize,
    /// Immediates.
    pub max_immediates: usize,
    /// Properties.
    pub max_properties: usize,
    /// Largest register index a declaration or operand may name (the token format holds
    /// at most 65535 in declarations and 32767 in operands).
    pub max_register_index: u32,
    /// Nesting depth of IF/loop/switch/subroutine blocks.
    pub max_nesting: usize,
    /// Length of one identifier or number in text.
    pub max_token_len: usize,
}

impl Limits {
    /// Generous defaults: far beyond any real shader, small enough to bound memory.
    pub const DEFAULT: Limits = Limits {
        max_input_bytes: 64 << 20,
        max_instructions: 1 << 20,
        max_declarations: 1 << 16,
        max_immediates: 1 << 16,
        max_properties: 1024,
        max_register_index: 32767,
        max_nesting: 256,
        max_token_len: 256,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}
