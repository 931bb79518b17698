//! Fuzz target: arbitrary bytes as TGSI text. Parsing must never panic; a shader that parses
//! must print, re-parse and print identically, and its lossless hex-float print must
//! re-parse to the same tokens; the validator accepts nothing the encoder refuses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgsi::{ImmType, PrintOptions};
use tgsi_fuzz::{check_validator_agrees_with_encoder, drop_unprinted};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(shader) = tgsi::parse(text) else {
        return;
    };
    check_validator_agrees_with_encoder(&shader);
    let printed = tgsi::print(&shader);
    let reparsed = tgsi::parse(&printed)
        .unwrap_or_else(|e| panic!("printed text does not parse: {e}\n{printed}"));
    assert_eq!(tgsi::print(&reparsed), printed, "print is not stable");

    let hex = tgsi::print_with(&shader, PrintOptions { hex_floats: true });
    let rehex =
        tgsi::parse(&hex).unwrap_or_else(|e| panic!("hex-float text does not parse: {e}\n{hex}"));
    // FLT64 immediates print as %10.8f even with hex floats, so they are lossy.
    let has_f64 = shader.immediates.iter().any(|i| i.ty == ImmType::Float64);
    let mut original = shader.clone();
    drop_unprinted(&mut original);
    if let (Ok(words), false) = (tgsi::tokens::encode(&original), has_f64) {
        let again = tgsi::tokens::encode(&rehex).expect("re-parsed shader does not encode");
        assert_eq!(again, words, "hex-float print is lossy\n{hex}");
    }
});
