//! Repairs of naga 30's SPIR-V output, each found by `spirv-val`:
//!
//! - For the size of a 1-D array image (a scalar: the width), naga's writer takes component
//!   0 of `OpImageQuerySizeLod`'s (width, layers) with an `OpVectorShuffle` whose result type
//!   is the scalar, which SPIR-V forbids ("The Result Type of OpVectorShuffle must be
//!   OpTypeVector"). Such a shuffle becomes the `OpCompositeExtract` it means
//!   ([`scalar_shuffles`]).
//! - naga declares a `SampleMask` built-in (input or output) as a scalar, where Vulkan needs
//!   an array of 32-bit integers (VUID-SampleMask-SampleMask-04359). Such a variable becomes
//!   a one-element array, and each load or store of it goes through its element
//!   ([`sample_mask_arrays`]).

/// `OpTypeBool`, `OpTypeInt`, `OpTypeFloat`.
const SCALAR_TYPES: [u32; 3] = [20, 21, 22];
const OP_VECTOR_SHUFFLE: u32 = 79;
const OP_COMPOSITE_EXTRACT: u32 = 81;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_DECORATE: u32 = 71;
const DECORATION_BUILT_IN: u32 = 11;
const BUILT_IN_SAMPLE_MASK: u32 = 20;
/// Words of the module header before the first instruction.
pub(crate) const HEADER: usize = 5;

/// The instructions of a module's words after the header, each with its words (opcode word
/// first); `None` when an instruction's word count is 0 or runs past the end.
pub(crate) fn instructions(words: &[u32]) -> Option<Vec<&[u32]>> {
    let mut out = Vec::new();
    let mut rest = words.get(HEADER..)?;
    while let Some(&first) = rest.first() {
        let count = (first >> 16) as usize;
        if count == 0 || count > rest.len() {
            return None;
        }
        let (inst, tail) = rest.split_at(count);
        out.push(inst);
        rest = tail;
    }
    Some(out)
}

/// Every repair, in turn.
pub(crate) fn repair(words: Vec<u32>) -> Vec<u32> {
    sample_mask_arrays(scalar_shuffles(words))
}

/// The opcode of an instruction.
pub(crate) fn opcode(inst: &[u32]) -> u32 {
    inst[0] & 0xffff
}

/// An instruction's first word.
pub(crate) fn first_word(opcode: u32, words: usize) -> u32 {
    (words as u32) << 16 | opcode
}

/// A `SampleMask` variable to make an array: its id, its old pointer type (kept for the
/// element), and the ids of the new constants, array type and pointer type.
struct MaskVariable {
    var: u32,
    element_pointer: u32,
    zero: u32,
    array_pointer: u32,
    /// What to declare after the old pointer type: `OpConstant` 0 and 1, the array type and
    /// its pointer type.
    declarations: [Vec<u32>; 4],
}

/// `words` with every scalar `SampleMask` variable declared as a one-element array;
/// unchanged when there is none or the stream is not well formed.
pub(crate) fn sample_mask_arrays(words: Vec<u32>) -> Vec<u32> {
    let Some(insts) = instructions(&words) else {
        return words;
    };
    let find = |op: u32, id: u32, at: usize| {
        insts
            .iter()
            .find(|i| opcode(i) == op && i.get(at) == Some(&id))
            .copied()
    };
    let mut bound = words[3];
    let mut masks: Vec<MaskVariable> = Vec::new();
    for decoration in insts.iter().filter(|i| {
        opcode(i) == OP_DECORATE
            && i.get(2) == Some(&DECORATION_BUILT_IN)
            && i.get(3) == Some(&BUILT_IN_SAMPLE_MASK)
    }) {
        let var = decoration[1];
        let Some(variable) = find(OP_VARIABLE, var, 2) else {
            continue;
        };
        let Some(pointer) = find(OP_TYPE_POINTER, variable[1], 1) else {
            continue;
        };
        let (class, element) = (pointer[2], pointer[3]);
        // Only a 32-bit integer needs it (an array is already right).
        if find(OP_TYPE_INT, element, 1).is_none_or(|t| t.get(2) != Some(&32)) {
            continue;
        }
        let [zero, one, array, array_pointer] = [bound, bound + 1, bound + 2, bound + 3];
        bound += 4;
        masks.push(MaskVariable {
            var,
            element_pointer: variable[1],
            zero,
            array_pointer,
            declarations: [
                vec![first_word(OP_CONSTANT, 4), element, zero, 0],
                vec![first_word(OP_CONSTANT, 4), element, one, 1],
                vec![first_word(OP_TYPE_ARRAY, 4), array, element, one],
                vec![first_word(OP_TYPE_POINTER, 4), array_pointer, class, array],
            ],
        });
    }
    if masks.is_empty() {
        return words;
    }
    let mut out = words[..HEADER].to_vec();
    for inst in insts {
        let op = opcode(inst);
        // The operand naming the accessed pointer, for loads and stores.
        let pointer_at = match op {
            OP_LOAD => Some(3),
            OP_STORE => Some(1),
            _ => None,
        };
        let accessed = pointer_at.and_then(|at| {
            let id = inst.get(at)?;
            masks.iter().find(|m| m.var == *id).map(|m| (at, m))
        });
        if let Some((at, m)) = accessed {
            let element = bound;
            bound += 1;
            out.extend([
                first_word(OP_ACCESS_CHAIN, 5),
                m.element_pointer,
                element,
                m.var,
                m.zero,
            ]);
            let mut changed = inst.to_vec();
            changed[at] = element;
            out.extend(changed);
            continue;
        }
        if op == OP_VARIABLE {
            if let Some(m) = masks.iter().find(|m| inst.get(2) == Some(&m.var)) {
                let mut changed = inst.to_vec();
                changed[1] = m.array_pointer;
                out.extend(changed);
                continue;
            }
        }
        out.extend_from_slice(inst);
        if op == OP_TYPE_POINTER {
            for m in masks
                .iter()
                .filter(|m| inst.get(1) == Some(&m.element_pointer))
            {
                // Two variables of one pointer type declare twice; SPIR-V allows duplicate
                // constants, arrays and pointers.
                m.declarations.iter().for_each(|d| out.extend(d));
            }
        }
    }
    out[3] = bound;
    out
}

/// `words` with every one-component `OpVectorShuffle` of a vector with itself whose result
/// type is a scalar written as an `OpCompositeExtract`; unchanged when it is not a
/// well-formed instruction stream.
pub(crate) fn scalar_shuffles(words: Vec<u32>) -> Vec<u32> {
    let Some(insts) = instructions(&words) else {
        return words;
    };
    let scalars: Vec<u32> = insts
        .iter()
        .filter(|i| SCALAR_TYPES.contains(&(i[0] & 0xffff)))
        .filter_map(|i| i.get(1).copied())
        .collect();
    let broken = |i: &[u32]| {
        i[0] == (6 << 16 | OP_VECTOR_SHUFFLE) && scalars.contains(&i[1]) && i[3] == i[4]
    };
    if !insts.iter().any(|i| broken(i)) {
        return words;
    }
    let mut out = words[..HEADER].to_vec();
    for inst in insts {
        if broken(inst) {
            // Result type, result id, the vector, the component.
            out.extend([
                5 << 16 | OP_COMPOSITE_EXTRACT,
                inst[1],
                inst[2],
                inst[3],
                inst[5],
            ]);
        } else {
            out.extend_from_slice(inst);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_shuffles_become_extracts() {
        let header = [0x0723_0203, 0x0001_0300, 0, 10, 0];
        // %1 = OpTypeInt 32 0; %2 = OpVectorShuffle %1 %3 %3 0; %4 = OpVectorShuffle %5 %3 %3 0 1.
        let body = [
            4 << 16 | 21,
            1,
            32,
            0,
            6 << 16 | OP_VECTOR_SHUFFLE,
            1,
            2,
            3,
            3,
            0,
            7 << 16 | OP_VECTOR_SHUFFLE,
            5,
            4,
            3,
            3,
            0,
            1,
        ];
        let words = [&header[..], &body[..]].concat();
        let fixed = scalar_shuffles(words.clone());
        let want = [
            &header[..],
            &body[..4],
            &[5 << 16 | OP_COMPOSITE_EXTRACT, 1, 2, 3, 0],
            &body[10..],
        ]
        .concat();
        assert_eq!(fixed, want);
        // Malformed streams are left alone.
        let mut bad = words;
        bad[HEADER + 4] = 40 << 16 | OP_VECTOR_SHUFFLE;
        assert_eq!(scalar_shuffles(bad.clone()), bad);
    }
}
