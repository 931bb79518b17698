//! The generated benchmark shader (`benches/support/big_shader.rs`) stays valid: it parses,
//! prints back to exactly the generated text (also streamed by `print_to`, and printed
//! while parsing by `text::reformat`), re-parses to the same IR, and encodes.

#[path = "../benches/support/big_shader.rs"]
mod big_shader;

#[test]
fn generated_shader_round_trips() {
    let text = big_shader::generate(1 << 20);
    assert!(text.len() >= 1 << 20);
    let shader = tgsi::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let printed = tgsi::print(&shader);
    if printed != text {
        let line = printed
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "line {}: printed {:?}, generated {:?}",
            line + 1,
            printed.lines().nth(line),
            text.lines().nth(line)
        );
    }
    assert_eq!(tgsi::parse(&printed), Ok(shader.clone()));
    // Streamed in blocks, the text is the same (also with hex floats).
    for options in [
        tgsi::PrintOptions::default(),
        tgsi::PrintOptions { hex_floats: true },
    ] {
        let mut streamed = Vec::new();
        tgsi::print_to(&shader, options, &mut streamed).unwrap();
        assert!(streamed == tgsi::print_with(&shader, options).as_bytes());
        // Printed while parsing, without the IR, it is the same too.
        assert!(tgsi::text::reformat(&text, options) == Ok(tgsi::print_with(&shader, options)));
    }
    let words = tgsi::tokens::encode(&shader).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tgsi::print(&tgsi::tokens::decode(&words).unwrap()), text);
}

#[test]
fn generator_is_deterministic() {
    assert_eq!(big_shader::generate(50_000), big_shader::generate(50_000));
}
