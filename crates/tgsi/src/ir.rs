//! The TGSI intermediate representation: one [`Shader`] holds the processor, properties,
//! declarations, immediates and instructions, each with the source position it came from.
//!
//! The IR keeps everything the text and token forms can carry, so text → IR → text and
//! tokens → IR → tokens are lossless. It also remembers the order in which statements of
//! different kinds were interleaved, because Mesa prints them in stream order.

use crate::enums::*;
use crate::opcode::Opcode;
use crate::pipe_format::Format;

/// A position in the text a shader was parsed from (1-based line and column).
/// `line == 0` means the item has no text origin (built in code or decoded from tokens);
/// decoded items carry their word offset in `col` instead, with `line == 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// 1-based line, or 0.
    pub line: u32,
    /// 1-based column, or the token word offset when `line == 0`.
    pub col: u32,
}

impl Span {
    /// A text position.
    pub const fn new(line: u32, col: u32) -> Span {
        Span { line, col }
    }

    /// Whether the span points into text.
    pub const fn is_text(self) -> bool {
        self.line != 0
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_text() {
            write!(f, "{}:{}", self.line, self.col)
        } else {
            write!(f, "word {}", self.col)
        }
    }
}

/// Which list a statement lives in; [`Shader::order`] is a sequence of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// A [`Property`].
    Property,
    /// A [`Declaration`].
    Declaration,
    /// An [`Immediate`].
    Immediate,
    /// An [`Instruction`].
    Instruction,
}

/// A whole shader.
#[derive(Clone, Debug, PartialEq)]
pub struct Shader {
    /// The stage.
    pub processor: Processor,
    /// `PROPERTY` statements.
    pub properties: Vec<Property>,
    /// `DCL` statements.
    pub declarations: Vec<Declaration>,
    /// `IMM` statements; `IMM[i]` is `immediates[i]`.
    pub immediates: Vec<Immediate>,
    /// Instructions; an instruction's number (label target) is its index here.
    pub instructions: Vec<Instruction>,
    /// The interleaving of statements as they appeared. When it does not account for every
    /// item (a shader built in code), the canonical order is used: properties, declarations,
    /// immediates, instructions.
    pub order: Vec<ItemKind>,
}

/// One statement, borrowed from a [`Shader`].
#[derive(Clone, Copy, Debug)]
pub enum Item<'a> {
    /// A property.
    Property(&'a Property),
    /// A declaration.
    Declaration(&'a Declaration),
    /// An immediate with its index.
    Immediate(usize, &'a Immediate),
    /// An instruction with its index.
    Instruction(usize, &'a Instruction),
}

impl Shader {
    /// An empty shader for a stage.
    pub fn new(processor: Processor) -> Shader {
        Shader {
            processor,
            properties: Vec::new(),
            declarations: Vec::new(),
            immediates: Vec::new(),
            instructions: Vec::new(),
            order: Vec::new(),
        }
    }

    /// Whether [`Shader::order`] describes exactly the items present.
    pub fn order_is_complete(&self) -> bool {
        let mut counts = [0usize; 4];
        for &kind in &self.order {
            counts[kind as usize] += 1;
        }
        counts == self.list_lengths()
    }

    /// The lengths of the four statement lists, by [`ItemKind`].
    fn list_lengths(&self) -> [usize; 4] {
        [
            self.properties.len(),
            self.declarations.len(),
            self.immediates.len(),
            self.instructions.len(),
        ]
    }

    /// All statements in stream order (see [`Shader::order`]), one at a time (a shader of
    /// millions of statements needs no list of them).
    pub fn items(&self) -> impl Iterator<Item = Item<'_>> + '_ {
        // The recorded order, or the canonical one where it does not account for every item.
        let complete = self.order_is_complete();
        let recorded: &[ItemKind] = if complete { &self.order } else { &[] };
        let canonical = if complete {
            [0; 4]
        } else {
            self.list_lengths()
        };
        let kinds = [
            ItemKind::Property,
            ItemKind::Declaration,
            ItemKind::Immediate,
            ItemKind::Instruction,
        ];
        let canonical = kinds
            .into_iter()
            .zip(canonical)
            .flat_map(|(kind, n)| std::iter::repeat_n(kind, n));
        let order = recorded.iter().copied().chain(canonical);
        let mut next = [0usize; 4];
        order.map_while(move |kind| {
            let at = &mut next[kind as usize];
            let i = *at;
            *at += 1;
            Some(match kind {
                ItemKind::Property => Item::Property(self.properties.get(i)?),
                ItemKind::Declaration => Item::Declaration(self.declarations.get(i)?),
                ItemKind::Immediate => Item::Immediate(i, self.immediates.get(i)?),
                ItemKind::Instruction => Item::Instruction(i, self.instructions.get(i)?),
            })
        })
    }

    /// The value of the last occurrence of a property, if any.
    pub fn property(&self, name: PropertyName) -> Option<u32> {
        self.properties
            .iter()
            .rev()
            .find(|p| p.name == name)
            .map(|p| p.value)
    }
}

/// `PROPERTY NAME value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Property {
    /// Which property.
    pub name: PropertyName,
    /// Its value (a primitive, origin, pixel-centre or processor number, or a plain number).
    pub value: u32,
    /// Where it was written.
    pub span: Span,
}

/// A write mask or usage mask: bit 0 = x … bit 3 = w.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteMask(pub u8);

impl WriteMask {
    /// All four channels.
    pub const XYZW: WriteMask = WriteMask(0xf);
    /// Only x.
    pub const X: WriteMask = WriteMask(0x1);

    /// Whether channel `c` (0..4) is enabled.
    pub const fn has(self, c: usize) -> bool {
        self.0 & (1 << c) != 0
    }
}

/// A source swizzle: for each result channel, the source channel it reads (0..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub [u8; 4]);

impl Swizzle {
    /// `.xyzw`.
    pub const IDENTITY: Swizzle = Swizzle([0, 1, 2, 3]);

    /// Every channel reads channel `c`.
    pub const fn splat(c: u8) -> Swizzle {
        Swizzle([c, c, c, c])
    }
}

/// The letter of a channel (0..4) as the printer writes it.
pub const fn channel_letter(c: u8) -> char {
    match c {
        0 => 'x',
        1 => 'y',
        2 => 'z',
        _ => 'w',
    }
}

/// `FILE[index].component` used as an index: the address part of `TEMP[ADDR[0].x+4](1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Indirect {
    /// File of the address register (normally ADDR).
    pub file: File,
    /// Index of the address register.
    pub index: i32,
    /// Component read from it (0..4).
    pub component: u8,
    /// Array the access is restricted to (0: none). The token field is 10 bits wide; the
    /// validator refuses larger ids.
    pub array_id: u16,
}

/// The second (outer) index of a 2-D register: `CONST[1][…]`, `IN[vertex][…]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dimension {
    /// The index, or the offset added to the indirect value.
    pub index: i32,
    /// Indirect dimension (`CONST[ADDR[0].x+1][3]`).
    pub indirect: Option<Indirect>,
}

/// The register part shared by sources and destinations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Register {
    /// Register file.
    pub file: File,
    /// Index, or the offset added to the indirect value.
    pub index: i32,
    /// Indirect addressing.
    pub indirect: Option<Indirect>,
    /// Outer index of a 2-D register.
    pub dimension: Option<Dimension>,
}

impl Register {
    /// A plain `FILE[index]`.
    pub const fn new(file: File, index: i32) -> Register {
        Register {
            file,
            index,
            indirect: None,
            dimension: None,
        }
    }
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dst {
    /// The register.
    pub reg: Register,
    /// Which channels are written.
    pub write_mask: WriteMask,
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    /// The register.
    pub reg: Register,
    /// Channel selection.
    pub swizzle: Swizzle,
    /// `|x|` (applied first).
    pub absolute: bool,
    /// `-x` (applied after abs).
    pub negate: bool,
}

/// A texel offset operand: `IMM[1].xyz`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexOffset {
    /// Register file.
    pub file: File,
    /// Register index.
    pub index: i32,
    /// Components read for the x, y and z offsets.
    pub swizzle: [u8; 3],
}

/// The texture part of an instruction (texture token).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextureInfo {
    /// Target named in text (UNKNOWN for the SAMPLE family).
    pub target: TextureTarget,
    /// Return type field of the token (Mesa's text parser always writes UNKNOWN).
    pub return_type: ReturnType,
    /// Texel offsets (at most 4).
    pub offsets: Vec<TexOffset>,
}

impl TextureInfo {
    /// A texture token with no target and no offsets (what Mesa's parser starts from).
    pub fn unknown() -> TextureInfo {
        TextureInfo {
            target: TextureTarget::Unknown,
            return_type: ReturnType::Unknown,
            offsets: Vec::new(),
        }
    }
}

/// The memory part of an instruction (memory token).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemoryInfo {
    /// Qualifier bits (see [`MemoryQualifier`]).
    pub qualifiers: u8,
    /// Image target (BUFFER = 0 is "none").
    pub target: TextureTarget,
    /// Image format (`NONE` = 0 is "none").
    pub format: Format,
}

impl MemoryInfo {
    /// A memory token with no qualifier, target or format.
    pub const NONE: MemoryInfo = MemoryInfo {
        qualifiers: 0,
        target: TextureTarget::Buffer,
        format: Format::NONE,
    };
}

/// Destinations an [`Instruction`] holds without a heap block (most opcodes write one).
pub const INLINE_DST: usize = 1;
/// Sources an [`Instruction`] holds without a heap block (most opcodes read at most three).
pub const INLINE_SRC: usize = 3;

/// A value that can fill the unused inline slots of [`Operands`]: the operand types of the
/// IR. The filler is never visible through the list.
pub trait OperandSlot: Copy {
    /// Any value of the type, for slots beyond the length.
    const FILLER: Self;
}

impl OperandSlot for Dst {
    const FILLER: Dst = Dst {
        reg: Register::new(File::Null, 0),
        write_mask: WriteMask::XYZW,
    };
}

impl OperandSlot for Src {
    const FILLER: Src = Src {
        reg: Register::new(File::Null, 0),
        swizzle: Swizzle::IDENTITY,
        absolute: false,
        negate: false,
    };
}

/// The operands of an [`Instruction`]: a list that keeps up to `N` items inline and moves
/// to a heap block only beyond that, so reading the usual instruction allocates nothing.
/// It dereferences to a slice (`inst.src[1]`, `inst.dst.len()`, `for s in &inst.src`,
/// `inst.src.iter_mut()`), and is built with [`Operands::push`], `collect()`,
/// `From<[T; M]>`, `From<&[T]>` or `From<Vec<T>>`. Two lists are equal when their items
/// are, whatever their storage.
#[derive(Clone)]
pub struct Operands<T: OperandSlot, const N: usize>(Repr<T, N>);

#[derive(Clone)]
enum Repr<T: OperandSlot, const N: usize> {
    /// `items[..len]` are the list (`len <= N`).
    Inline { len: u8, items: [T; N] },
    /// More than `N` items were pushed at some point.
    Heap(Vec<T>),
}

impl<T: OperandSlot, const N: usize> Operands<T, N> {
    /// How many items fit without a heap block.
    pub const INLINE: usize = N;

    /// An empty list.
    pub const fn new() -> Self {
        Operands(Repr::Inline {
            len: 0,
            items: [T::FILLER; N],
        })
    }

    /// A list of `items`.
    pub fn from_slice(items: &[T]) -> Self {
        if items.len() > N {
            return Operands(Repr::Heap(items.to_vec()));
        }
        let mut list = Self::new();
        list.extend(items.iter().copied());
        list
    }

    /// Appends `item`.
    #[inline(always)]
    pub fn push(&mut self, item: T) {
        if let Repr::Inline { len, items } = &mut self.0 {
            if let Some(slot) = items.get_mut(*len as usize) {
                *slot = item;
                *len += 1;
                return;
            }
        }
        self.push_beyond_inline(item);
    }

    /// [`Operands::push`] once the inline slots are full.
    #[cold]
    #[inline(never)]
    fn push_beyond_inline(&mut self, item: T) {
        match &mut self.0 {
            Repr::Inline { items, .. } => {
                let mut heap = Vec::with_capacity(2 * N.max(1));
                heap.extend_from_slice(items);
                heap.push(item);
                self.0 = Repr::Heap(heap);
            }
            Repr::Heap(heap) => heap.push(item),
        }
    }

    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<T> {
        match &mut self.0 {
            Repr::Inline { len, items } => {
                *len = len.checked_sub(1)?;
                items.get(*len as usize).copied()
            }
            Repr::Heap(heap) => heap.pop(),
        }
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, new_len: usize) {
        match &mut self.0 {
            Repr::Inline { len, .. } => *len = (*len).min(new_len.min(N) as u8),
            Repr::Heap(heap) => heap.truncate(new_len),
        }
    }

    /// Removes every item (and a heap block: a list reused for many instructions goes
    /// back to its inline slots, so one long instruction does not make later ones slow).
    #[inline]
    pub fn clear(&mut self) {
        match &mut self.0 {
            Repr::Inline { len, .. } => *len = 0,
            Repr::Heap(_) => *self = Self::new(),
        }
    }

    /// The items as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match &self.0 {
            Repr::Inline { len, items } => items.get(..*len as usize).unwrap_or_default(),
            Repr::Heap(heap) => heap,
        }
    }

    /// The items as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.0 {
            Repr::Inline { len, items } => items.get_mut(..*len as usize).unwrap_or_default(),
            Repr::Heap(heap) => heap,
        }
    }
}

impl<T: OperandSlot, const N: usize> Default for Operands<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: OperandSlot, const N: usize> std::ops::Deref for Operands<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: OperandSlot, const N: usize> std::ops::DerefMut for Operands<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: OperandSlot + std::fmt::Debug, const N: usize> std::fmt::Debug for Operands<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<T: OperandSlot + PartialEq, const N: usize> PartialEq for Operands<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: OperandSlot + Eq, const N: usize> Eq for Operands<T, N> {}

impl<T: OperandSlot + std::hash::Hash, const N: usize> std::hash::Hash for Operands<T, N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: OperandSlot, const N: usize> Extend<T> for Operands<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}

impl<T: OperandSlot, const N: usize> FromIterator<T> for Operands<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = Self::new();
        list.extend(iter);
        list
    }
}

impl<T: OperandSlot, const N: usize, const M: usize> From<[T; M]> for Operands<T, N> {
    fn from(items: [T; M]) -> Self {
        Self::from_slice(&items)
    }
}

impl<T: OperandSlot, const N: usize> From<&[T]> for Operands<T, N> {
    fn from(items: &[T]) -> Self {
        Self::from_slice(items)
    }
}

impl<T: OperandSlot, const N: usize> From<Vec<T>> for Operands<T, N> {
    fn from(items: Vec<T>) -> Self {
        if items.len() > N {
            Operands(Repr::Heap(items))
        } else {
            Self::from_slice(&items)
        }
    }
}

impl<T: OperandSlot, const N: usize> From<Operands<T, N>> for Vec<T> {
    fn from(list: Operands<T, N>) -> Vec<T> {
        match list.0 {
            Repr::Inline { .. } => list.as_slice().to_vec(),
            Repr::Heap(heap) => heap,
        }
    }
}

impl<'a, T: OperandSlot, const N: usize> IntoIterator for &'a Operands<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T: OperandSlot, const N: usize> IntoIterator for &'a mut Operands<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<T: OperandSlot, const N: usize> IntoIterator for Operands<T, N> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        Vec::from(self).into_iter()
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// What it does.
    pub opcode: Opcode,
    /// `_SAT`: clamp results to [0, 1].
    pub saturate: bool,
    /// `_PRECISE`: no value-changing optimisation.
    pub precise: bool,
    /// Destinations (the opcode's `num_dst`); one is stored inline.
    pub dst: Operands<Dst, INLINE_DST>,
    /// Sources (the opcode's `num_src`); three are stored inline.
    pub src: Operands<Src, INLINE_SRC>,
    /// Branch label: an instruction index.
    pub label: Option<u32>,
    /// Texture token (boxed: few instructions have one, and every instruction pays for
    /// the size of this field).
    pub texture: Option<Box<TextureInfo>>,
    /// Memory token.
    pub memory: Option<MemoryInfo>,
    /// Where it was written.
    pub span: Span,
}

impl Instruction {
    /// An instruction with no operands or extras.
    pub fn new(opcode: Opcode) -> Instruction {
        Instruction {
            opcode,
            saturate: false,
            precise: false,
            dst: Operands::new(),
            src: Operands::new(),
            label: None,
            texture: None,
            memory: None,
            span: Span::default(),
        }
    }
}

/// Semantic of an input, output or system value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SemanticDecl {
    /// Name.
    pub name: Semantic,
    /// Index (`GENERIC[3]`).
    pub index: u32,
    /// Vertex stream per component (geometry outputs).
    pub streams: [u8; 4],
}

/// Interpolation of a fragment input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InterpDecl {
    /// Mode.
    pub mode: Interpolate,
    /// Location.
    pub location: InterpLocation,
}

/// The file-specific part of a resource declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceDecl {
    /// `DCL IMAGE[i], target, format[, WR][, RAW]`.
    Image {
        /// Target.
        target: TextureTarget,
        /// Format.
        format: Format,
        /// `WR`.
        writable: bool,
        /// `RAW`.
        raw: bool,
    },
    /// `DCL SVIEW[i], target, type`.
    SamplerView {
        /// Target.
        target: TextureTarget,
        /// Return type per channel.
        return_types: [ReturnType; 4],
    },
}

/// A `DCL` statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// Register file.
    pub file: File,
    /// First register.
    pub first: u32,
    /// Last register (inclusive).
    pub last: u32,
    /// Outer index of a 2-D declaration (`CONST[1][0..3]`).
    pub dimension: Option<u32>,
    /// Channels that may be accessed.
    pub usage_mask: WriteMask,
    /// `ARRAY(n)`.
    pub array_id: Option<u16>,
    /// `LOCAL`.
    pub local: bool,
    /// Semantic.
    pub semantic: Option<SemanticDecl>,
    /// Interpolation.
    pub interp: Option<InterpDecl>,
    /// `INVARIANT`.
    pub invariant: bool,
    /// `ATOMIC` (buffers).
    pub atomic: bool,
    /// Memory type (MEMORY declarations).
    pub memory_type: MemoryType,
    /// Image or sampler-view details.
    pub resource: Option<ResourceDecl>,
    /// Where it was written.
    pub span: Span,
}

impl Declaration {
    /// `DCL FILE[first..last]` with nothing else.
    pub fn new(file: File, first: u32, last: u32) -> Declaration {
        Declaration {
            file,
            first,
            last,
            dimension: None,
            usage_mask: WriteMask::XYZW,
            array_id: None,
            local: false,
            semantic: None,
            interp: None,
            invariant: false,
            atomic: false,
            memory_type: MemoryType::Global,
            resource: None,
            span: Span::default(),
        }
    }

    /// Whether register `index` (of dimension `dim`) falls inside this declaration.
    pub fn contains(&self, dim: u32, index: u32) -> bool {
        self.dimension.unwrap_or(0) == dim && self.first <= index && index <= self.last
    }
}

/// An `IMM` statement: four 32-bit words (two values for 64-bit types, low word first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Immediate {
    /// Data type.
    pub ty: ImmType,
    /// Raw words.
    pub words: [u32; 4],
    /// Where it was written.
    pub span: Span,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(index: i32) -> Src {
        Src {
            reg: Register::new(File::Temporary, index),
            ..Src::FILLER
        }
    }

    /// The parser's time through the IR is mostly the kernel giving the instruction list
    /// its pages, about 0.15 ms per byte of `Instruction` on the 16 MiB benchmark shader:
    /// growing the instruction back is a slowdown this catches.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn an_instruction_stays_small() {
        use std::mem::size_of;
        assert_eq!(size_of::<Register>(), 28);
        assert_eq!(size_of::<Src>(), 36);
        assert_eq!(size_of::<Dst>(), 32);
        assert!(
            size_of::<Instruction>() <= 184,
            "{}",
            size_of::<Instruction>()
        );
    }

    #[test]
    fn operands_spill_and_compare_by_items() {
        let mut list: Operands<Src, INLINE_SRC> = Operands::new();
        assert!(list.is_empty());
        for i in 0..6 {
            list.push(src(i));
            assert_eq!(list.len(), i as usize + 1);
            assert_eq!(list[i as usize], src(i));
        }
        let heap = list.clone();
        assert_eq!(list.pop(), Some(src(5)));
        list.truncate(2);
        let inline: Operands<Src, INLINE_SRC> = [src(0), src(1)].into();
        // Same items, different storage: equal.
        assert_eq!(list, inline);
        assert_eq!(format!("{list:?}"), format!("{:?}", [src(0), src(1)]));
        assert_eq!(heap.iter().count(), 6);
        assert_eq!(Vec::from(heap.clone()).len(), 6);
        assert_eq!(
            heap.clone().into_iter().map(|s| s.reg.index).sum::<i32>(),
            15
        );
        let collected: Operands<Src, INLINE_SRC> = (0..4).map(src).collect();
        assert_eq!(
            collected,
            Operands::from(vec![src(0), src(1), src(2), src(3)])
        );
        let mut empty: Operands<Dst, INLINE_DST> = Operands::default();
        assert_eq!(empty.pop(), None);
        empty.clear();
        empty.truncate(5);
        assert!(empty.is_empty());
        for s in &mut list {
            s.negate = true;
        }
        assert!(list.iter().all(|s| s.negate));
    }
}
