//! Varying locations for a pipeline of separately translated stages
//! ([`pipeline_locations`]). The fixed scheme ([`crate::varying_location`]) lets any two
//! stages agree without seeing each other, but reaches location 47 (TEXCOORD at 32 + n,
//! COLOR at 40 + n, …), past the 32 that GL and many Vulkan devices give; a host that knows
//! the stages it links places their varyings within its limit instead, and translates every
//! stage with the same [`crate::Options::varying_locations`].

use std::collections::{BTreeMap, BTreeSet};

use tgsi::enums::{File, Processor, Semantic};
use tgsi::ir::Span;
use tgsi::Shader;

use crate::error::{Error, Result};
use crate::varying_location;

/// Locations below `limit` for the varyings of a pipeline's `shaders` (the outputs of every
/// stage but the fragment shader and the inputs of every stage but the vertex shader, where
/// their semantic has a location): a varying keeps its default location when that is below
/// `limit`, the others take the lowest free locations in semantic order. The map holds the
/// varyings that move. Refused, naming the count, when the pipeline has more varyings than
/// `limit`.
pub fn pipeline_locations(
    shaders: &[&Shader],
    limit: u32,
) -> Result<BTreeMap<(Semantic, u32), u32>> {
    let varyings: BTreeSet<(Semantic, u32)> = shaders
        .iter()
        .flat_map(|s| {
            s.declarations.iter().filter(move |d| match d.file {
                File::Output => s.processor != Processor::Fragment,
                File::Input => s.processor != Processor::Vertex,
                _ => false,
            })
        })
        .filter_map(|d| d.semantic.map(|s| (s.name, s.index)))
        .filter(|&(s, i)| varying_location(s, i).is_some())
        .collect();
    if varyings.len() as u64 > u64::from(limit) {
        return Err(Error::new(
            Span::default(),
            "pipeline",
            format!(
                "{} varyings do not fit in {limit} locations",
                varyings.len()
            ),
        ));
    }
    let kept: BTreeSet<u32> = varyings
        .iter()
        .filter_map(|&(s, i)| varying_location(s, i))
        .filter(|&l| l < limit)
        .collect();
    let mut free = (0..limit).filter(|l| !kept.contains(l));
    Ok(varyings
        .into_iter()
        .filter(|&(s, i)| varying_location(s, i).is_some_and(|l| l >= limit))
        .filter_map(|v| Some((v, free.next()?)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Shader {
        tgsi::parse(text).expect("parse")
    }

    #[test]
    fn varyings_past_the_limit_move_to_free_locations() {
        let vs = parse(
            "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL OUT[2], COLOR\n\
             DCL OUT[3], TEXCOORD[2]\n  0: END\n",
        );
        let fs = parse(
            "FRAG\nDCL IN[0], COLOR, COLOR\nDCL IN[1], TEXCOORD[2], PERSPECTIVE\n\
             DCL IN[2], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: END\n",
        );
        let map = pipeline_locations(&[&vs, &fs], 32).expect("fits");
        // GENERIC[0] keeps 0; COLOR (40) and TEXCOORD[2] (34) take 1 and 2; the fragment
        // shader's COLOR output is not a varying.
        let expected: BTreeMap<_, _> =
            [((Semantic::Color, 0), 1), ((Semantic::TexCoord, 2), 2)].into();
        assert_eq!(map, expected);
        let error = pipeline_locations(&[&vs, &fs], 2).expect_err("three varyings, two places");
        assert!(
            error
                .to_string()
                .contains("3 varyings do not fit in 2 locations"),
            "{error}"
        );
    }
}
