//! Fuzz target: arbitrary bytes as little-endian token words. Decoding must never panic; a
//! stream that decodes must encode, decode again to the same print, and (when its text form
//! can spell everything in it) print → parse → print identically.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgsi_fuzz::{check_validator_agrees_with_encoder, text_expressible};

fuzz_target!(|data: &[u8]| {
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let Ok(shader) = tgsi::tokens::decode(&words) else {
        return;
    };
    check_validator_agrees_with_encoder(&shader);
    let printed = tgsi::print(&shader);
    let encoded = tgsi::tokens::encode(&shader)
        .unwrap_or_else(|e| panic!("decoded shader does not encode: {e}\n{printed}"));
    let back = tgsi::tokens::decode(&encoded)
        .unwrap_or_else(|e| panic!("encoded shader does not decode: {e}\n{printed}"));
    assert_eq!(
        tgsi::print(&back),
        printed,
        "decode(encode(x)) prints differently"
    );
    assert_eq!(
        tgsi::tokens::encode(&back).ok(),
        Some(encoded),
        "encode is not stable"
    );

    if text_expressible(&shader) {
        let reparsed = tgsi::parse(&printed)
            .unwrap_or_else(|e| panic!("printed text does not parse: {e}\n{printed}"));
        assert_eq!(tgsi::print(&reparsed), printed, "print is not stable");
    }
});
