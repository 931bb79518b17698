//! Bit layout of Mesa's `struct tgsi_token` words (little-endian C bitfields, bit 0 = LSB).
//! Each field is a `(shift, width)` pair, shared by the encoder and the decoder.

/// A bit field inside a 32-bit token word.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Position of the lowest bit.
    pub shift: u32,
    /// Number of bits.
    pub width: u32,
}

impl Field {
    const fn new(shift: u32, width: u32) -> Field {
        Field { shift, width }
    }

    /// Largest value that fits.
    pub const fn max(self) -> u32 {
        if self.width >= 32 {
            u32::MAX
        } else {
            (1 << self.width) - 1
        }
    }

    /// Extracts the field from a word.
    pub const fn get(self, word: u32) -> u32 {
        (word >> self.shift) & self.max()
    }

    /// Extracts the field and sign-extends it.
    pub const fn get_signed(self, word: u32) -> i32 {
        let v = self.get(word);
        let unused = 32 - self.width;
        ((v << unused) as i32) >> unused
    }

    /// The field's bits holding `value` (which the caller has range-checked).
    pub const fn put(self, value: u32) -> u32 {
        (value & self.max()) << self.shift
    }

    /// Whether `value` fits as an unsigned field.
    pub const fn fits(self, value: u32) -> bool {
        value <= self.max()
    }

    /// Whether `value` fits as a signed field.
    pub const fn fits_signed(self, value: i32) -> bool {
        let half = 1i64 << (self.width - 1);
        (value as i64) >= -half && (value as i64) < half
    }
}

/// Header word.
pub mod header {
    use super::Field;
    /// Words in the header (always 2).
    pub const HEADER_SIZE: Field = Field::new(0, 8);
    /// Words after the header.
    pub const BODY_SIZE: Field = Field::new(8, 24);
    /// Processor word: stage number.
    pub const PROCESSOR: Field = Field::new(0, 4);
}

/// Fields shared by the head word of every token group.
pub mod group {
    use super::Field;
    /// 0 declaration, 1 immediate, 2 instruction, 3 property.
    pub const TYPE: Field = Field::new(0, 4);
    /// Words in the group (for instructions: after the head).
    pub const NR_TOKENS: Field = Field::new(4, 8);
    /// Immediates have a 14-bit count.
    pub const IMM_NR_TOKENS: Field = Field::new(4, 14);
    /// Token type values.
    pub const DECLARATION: u32 = 0;
    /// Immediate group.
    pub const IMMEDIATE: u32 = 1;
    /// Instruction group.
    pub const INSTRUCTION: u32 = 2;
    /// Property group.
    pub const PROPERTY: u32 = 3;
}

/// Declaration words.
pub mod decl {
    use super::Field;
    pub const FILE: Field = Field::new(12, 4);
    pub const USAGE_MASK: Field = Field::new(16, 4);
    pub const DIMENSION: Field = Field::new(20, 1);
    pub const SEMANTIC: Field = Field::new(21, 1);
    pub const INTERPOLATE: Field = Field::new(22, 1);
    pub const INVARIANT: Field = Field::new(23, 1);
    pub const LOCAL: Field = Field::new(24, 1);
    pub const ARRAY: Field = Field::new(25, 1);
    pub const ATOMIC: Field = Field::new(26, 1);
    pub const MEM_TYPE: Field = Field::new(27, 2);
    pub const RANGE_FIRST: Field = Field::new(0, 16);
    pub const RANGE_LAST: Field = Field::new(16, 16);
    pub const DIM_INDEX: Field = Field::new(0, 16);
    pub const INTERP_MODE: Field = Field::new(0, 4);
    pub const INTERP_LOCATION: Field = Field::new(4, 2);
    pub const SEMANTIC_NAME: Field = Field::new(0, 8);
    pub const SEMANTIC_INDEX: Field = Field::new(8, 16);
    pub const STREAM: [Field; 4] = [
        Field::new(24, 2),
        Field::new(26, 2),
        Field::new(28, 2),
        Field::new(30, 2),
    ];
    pub const IMAGE_RESOURCE: Field = Field::new(0, 8);
    pub const IMAGE_RAW: Field = Field::new(8, 1);
    pub const IMAGE_WRITABLE: Field = Field::new(9, 1);
    pub const IMAGE_FORMAT: Field = Field::new(10, 10);
    pub const SVIEW_RESOURCE: Field = Field::new(0, 8);
    pub const SVIEW_RETURN: [Field; 4] = [
        Field::new(8, 6),
        Field::new(14, 6),
        Field::new(20, 6),
        Field::new(26, 6),
    ];
    pub const ARRAY_ID: Field = Field::new(0, 10);
}

/// Immediate head word.
pub mod imm {
    use super::Field;
    pub const DATA_TYPE: Field = Field::new(18, 4);
}

/// Property head word.
pub mod prop {
    use super::Field;
    pub const NAME: Field = Field::new(12, 8);
}

/// Instruction words.
pub mod inst {
    use super::Field;
    pub const OPCODE: Field = Field::new(12, 8);
    pub const SATURATE: Field = Field::new(20, 1);
    pub const NUM_DST: Field = Field::new(21, 2);
    pub const NUM_SRC: Field = Field::new(23, 4);
    pub const LABEL: Field = Field::new(27, 1);
    pub const TEXTURE: Field = Field::new(28, 1);
    pub const MEMORY: Field = Field::new(29, 1);
    pub const PRECISE: Field = Field::new(30, 1);
    pub const LABEL_VALUE: Field = Field::new(0, 24);
    pub const TEX_TARGET: Field = Field::new(0, 8);
    pub const TEX_NUM_OFFSETS: Field = Field::new(8, 4);
    pub const TEX_RETURN_TYPE: Field = Field::new(12, 3);
    pub const OFFSET_INDEX: Field = Field::new(0, 16);
    pub const OFFSET_FILE: Field = Field::new(16, 4);
    pub const OFFSET_SWIZZLE: [Field; 3] =
        [Field::new(20, 2), Field::new(22, 2), Field::new(24, 2)];
    pub const MEM_QUALIFIER: Field = Field::new(0, 4);
    pub const MEM_TEXTURE: Field = Field::new(4, 8);
    pub const MEM_FORMAT: Field = Field::new(12, 10);
}

/// Operand register words.
pub mod reg {
    use super::Field;
    pub const FILE: Field = Field::new(0, 4);
    pub const DST_WRITE_MASK: Field = Field::new(4, 4);
    pub const DST_INDIRECT: Field = Field::new(8, 1);
    pub const DST_DIMENSION: Field = Field::new(9, 1);
    pub const DST_INDEX: Field = Field::new(10, 16);
    pub const SRC_INDIRECT: Field = Field::new(4, 1);
    pub const SRC_DIMENSION: Field = Field::new(5, 1);
    pub const SRC_INDEX: Field = Field::new(6, 16);
    pub const SRC_SWIZZLE: [Field; 4] = [
        Field::new(22, 2),
        Field::new(24, 2),
        Field::new(26, 2),
        Field::new(28, 2),
    ];
    pub const SRC_ABSOLUTE: Field = Field::new(30, 1);
    pub const SRC_NEGATE: Field = Field::new(31, 1);
    pub const IND_FILE: Field = Field::new(0, 4);
    pub const IND_INDEX: Field = Field::new(4, 16);
    pub const IND_SWIZZLE: Field = Field::new(20, 2);
    pub const IND_ARRAY_ID: Field = Field::new(22, 10);
    pub const DIM_INDIRECT: Field = Field::new(0, 1);
    pub const DIM_DIMENSION: Field = Field::new(1, 1);
    pub const DIM_INDEX: Field = Field::new(16, 16);
}
