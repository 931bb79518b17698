//! `tokens::assemble` (text → tokens without the IR) agrees with `encode(parse(text))` on
//! every corpus shader and hostile input: the same words, or the same error.

mod common;

fn check(name: &str, text: &str) {
    let expected = match tgsi::parse(text) {
        Ok(shader) => tgsi::tokens::encode(&shader).map_err(tgsi::tokens::AssembleError::Encode),
        Err(e) => Err(tgsi::tokens::AssembleError::Parse(e)),
    };
    assert_eq!(tgsi::tokens::assemble(text), expected, "{name}");
}

#[test]
fn assemble_equals_parse_then_encode() {
    assert!(common::each_hostile_and_corpus_text(check) > 0);
}

#[test]
fn a_syntax_error_wins_over_an_earlier_statement_tokens_cannot_hold() {
    // RES is a legacy file with no token number; the syntax error comes later.
    let text = "FRAG\nDCL RES[0], 2D\n  0: MOV TEMP[0], ,\n";
    assert!(matches!(
        tgsi::tokens::assemble(text),
        Err(tgsi::tokens::AssembleError::Parse(_))
    ));
    check("legacy then syntax error", text);
    let text = "FRAG\nDCL RES[0], 2D\n  0: END\n";
    assert!(matches!(
        tgsi::tokens::assemble(text),
        Err(tgsi::tokens::AssembleError::Encode(_))
    ));
    check("legacy", text);
}
