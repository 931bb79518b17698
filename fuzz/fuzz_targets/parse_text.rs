//! Fuzz target: arbitrary bytes as TGSI text. Parsing must never panic; assembling and
//! reformatting (which skip the IR) must give what encoding and printing the parse give,
//! errors included; a shader that parses must print, re-parse and print identically, and
//! its lossless hex-float print must re-parse to the same tokens; the validator accepts
//! nothing the encoder refuses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgsi::{ImmType, PrintOptions};
use tgsi_fuzz::{check_validator_agrees_with_encoder, drop_unprinted};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Text straight to tokens or back to text, without the IR, is exactly the way through
    // it, errors included.
    let parsed = tgsi::parse(text);
    let assembled = tgsi::tokens::assemble(text);
    match &parsed {
        Ok(shader) => match tgsi::tokens::encode(shader) {
            Ok(words) => assert_eq!(assembled, Ok(words)),
            Err(e) => assert_eq!(assembled, Err(tgsi::tokens::AssembleError::Encode(e))),
        },
        Err(e) => assert_eq!(
            assembled,
            Err(tgsi::tokens::AssembleError::Parse(e.clone()))
        ),
    }
    let reformatted = tgsi::text::reformat(text, PrintOptions::default());
    assert_eq!(
        reformatted,
        parsed.as_ref().map(tgsi::print).map_err(Clone::clone)
    );
    let Ok(shader) = parsed else {
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
