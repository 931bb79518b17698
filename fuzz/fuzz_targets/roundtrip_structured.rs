//! Fuzz target: IR shaders built by a structure-aware generator. Print → parse → print must
//! be stable (when the text form can spell the shader), and encode → decode → encode must be
//! the identity whenever encode succeeds; the validator accepts nothing encode refuses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgsi_fuzz::generate::GenShader;
use tgsi_fuzz::{check_validator_agrees_with_encoder, text_expressible};

fuzz_target!(|gen: GenShader| {
    let shader = gen.build();
    check_validator_agrees_with_encoder(&shader);
    let printed = tgsi::print(&shader);
    if text_expressible(&shader) {
        let reparsed = tgsi::parse(&printed)
            .unwrap_or_else(|e| panic!("printed text does not parse: {e}\n{printed}"));
        assert_eq!(tgsi::print(&reparsed), printed, "print is not stable");
    }
    if let Ok(words) = tgsi::tokens::encode(&shader) {
        let back = tgsi::tokens::decode(&words)
            .unwrap_or_else(|e| panic!("encoded shader does not decode: {e}\n{printed}"));
        let again = tgsi::tokens::encode(&back).expect("decoded shader does not encode");
        assert_eq!(
            again, words,
            "encode → decode → encode is not the identity\n{printed}"
        );
    }
});
