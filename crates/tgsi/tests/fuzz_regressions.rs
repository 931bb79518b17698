//! Reproducers of what the libFuzzer targets in `fuzz/` found, minimised, each with the
//! property that failed: printed text must parse back and print identically.

use tgsi::tokens;

/// print → parse → print must be the identity on the print.
fn assert_print_round_trips(text: &str) -> String {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("input does not parse: {e}"));
    let printed = tgsi::print(&shader);
    let again = tgsi::parse(&printed)
        .unwrap_or_else(|e| panic!("printed text does not parse: {e}\n{printed}"));
    assert_eq!(tgsi::print(&again), printed);
    printed
}

/// parse_text: `1e39` (or raw bits 0x7f800000) is an infinite FLT32, which prints as `inf`
/// (`%10.4f`), which Mesa's parser cannot read. The parser now reads `inf` / `nan` back.
#[test]
fn flt32_infinity_and_nan_print_and_parse_back() {
    let printed =
        assert_print_round_trips("FRAG\nIMM FLT32 { -1e39, 1e39, 0x7fc00000, 0xffc00000 }\n");
    assert!(
        printed.contains("{      -inf,        inf,        nan,       -nan}"),
        "{printed}"
    );
    let shader = tgsi::parse(&printed).unwrap();
    assert_eq!(
        shader.immediates[0].words,
        [0xff80_0000, 0x7f80_0000, 0x7fc0_0000, 0xffc0_0000]
    );
    // Only whole words: `info` is still an error.
    assert!(tgsi::parse("FRAG\nIMM FLT32 {info, 0, 0, 0}\n").is_err());
}

/// decode_tokens: a property value above i32::MAX prints negative (Mesa's `%d`), which the
/// parser rejected as "expected an unsigned integer".
#[test]
fn property_values_above_i32_max_print_and_parse_back() {
    let words = [0x0000_0202, 4, 0x0000_5023, 0xf7ff_ff00];
    let shader = tokens::decode(&words).unwrap();
    let printed = tgsi::print(&shader);
    assert_eq!(
        printed,
        "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS -134217984\n"
    );
    let again = tgsi::parse(&printed).unwrap();
    assert_eq!(again.properties[0].value, 0xf7ff_ff00);
    assert_eq!(tokens::encode(&again).unwrap(), words);
    assert!(tgsi::parse("FRAG\nPROPERTY NUM_CLIPDIST_ENABLED -2147483648\n").is_ok());
    assert!(tgsi::parse("FRAG\nPROPERTY NUM_CLIPDIST_ENABLED -2147483649\n").is_err());
}

/// parse_text: a geometry shader without GS_INPUT_PRIMITIVE declares `DCL IN[0]`, which
/// prints as `DCL IN[][0]`, which did not parse (the empty bracket had no implied size).
#[test]
fn geometry_input_without_primitive_prints_and_parses_back() {
    let printed = assert_print_round_trips("GEOM\nDCL IN[0]\nDCL IN[1..2], GENERIC[0]\n");
    assert_eq!(printed, "GEOM\nDCL IN[][0]\nDCL IN[][1..2], GENERIC[0]\n");
    // A lone `IN[]` still needs the primitive to give it a size.
    let err = tgsi::parse("GEOM\nDCL IN[], POSITION\n").unwrap_err();
    assert_eq!((err.span.line, err.span.col), (2, 8));
    assert!(
        err.message.contains("GS_INPUT_PRIMITIVE"),
        "{}",
        err.message
    );
    let shader =
        tgsi::parse("GEOM\nPROPERTY GS_INPUT_PRIMITIVE LINES\nDCL IN[], POSITION\n").unwrap();
    assert_eq!(
        (shader.declarations[0].first, shader.declarations[0].last),
        (0, 1)
    );
}

/// Found while writing the hostile corpus: a 1 MB unknown opcode was quoted whole in the
/// error message (a 1 MB message per error).
#[test]
fn unknown_words_are_clipped_in_messages() {
    let word = "Z".repeat(100_000);
    let err = tgsi::parse(&format!("FRAG\n{word} TEMP[0]\n")).unwrap_err();
    assert!(err.message.len() < 100, "{}", &err.message[..100]);
    let err = tgsi::parse(&format!("FRAG\nPROPERTY {word} 1\n")).unwrap_err();
    assert!(err.message.len() < 100, "{}", &err.message[..100]);
}

/// Found while writing the hostile corpus: Mesa's printer indents without bound, so the print
/// of N nested IFs was O(N²) bytes. Indentation now stops at 64 levels.
#[test]
fn indentation_is_capped() {
    let depth = 2000;
    let text = format!("FRAG\n{}END\n", "BGNLOOP\n".repeat(depth));
    let printed = assert_print_round_trips(&text);
    let longest = printed.lines().map(str::len).max().unwrap();
    assert_eq!(longest, "1999: ".len() + 2 * 64 + "BGNLOOP".len());
    // Shallow nesting is printed exactly as Mesa does.
    let printed = assert_print_round_trips("FRAG\nBGNLOOP\nBGNLOOP\nENDLOOP\nENDLOOP\nEND\n");
    assert_eq!(
        printed,
        "FRAG\n  0: BGNLOOP\n  1:   BGNLOOP\n  2:   ENDLOOP\n  3: ENDLOOP\n  4: END\n"
    );
}
