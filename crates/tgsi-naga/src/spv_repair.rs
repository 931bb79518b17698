//! A repair of naga 30's SPIR-V output. For the size of a 1-D array image (a scalar: the
//! width), naga's writer takes component 0 of `OpImageQuerySizeLod`'s (width, layers) with
//! an `OpVectorShuffle` whose result type is the scalar, which SPIR-V forbids (`spirv-val`:
//! "The Result Type of OpVectorShuffle must be OpTypeVector"). Such a shuffle becomes the
//! `OpCompositeExtract` it means.

/// `OpTypeBool`, `OpTypeInt`, `OpTypeFloat`.
const SCALAR_TYPES: [u32; 3] = [20, 21, 22];
const OP_VECTOR_SHUFFLE: u32 = 79;
const OP_COMPOSITE_EXTRACT: u32 = 81;
/// Words of the module header before the first instruction.
const HEADER: usize = 5;

/// The instructions of a module's words after the header, each with its words (opcode word
/// first); `None` when an instruction's word count is 0 or runs past the end.
fn instructions(words: &[u32]) -> Option<Vec<&[u32]>> {
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
