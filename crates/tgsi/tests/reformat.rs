//! `text::reformat` (text printed while it is parsed, without the IR) agrees with
//! `print(parse(text))` on every corpus shader and hostile input, in both print modes: the
//! same text, or the same error.

mod common;

fn check(name: &str, text: &str) {
    for options in [
        tgsi::PrintOptions::default(),
        tgsi::PrintOptions { hex_floats: true },
    ] {
        let expected = tgsi::parse(text).map(|shader| tgsi::print_with(&shader, options));
        assert_eq!(tgsi::text::reformat(text, options), expected, "{name}");
    }
}

#[test]
fn reformat_equals_print_after_parse() {
    assert!(common::each_hostile_and_corpus_text(check) > 0);
}

#[test]
fn reformat_prints_each_stage_and_fails_like_parse() {
    for text in [
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION, STREAM(0, 0, 1, 0)\nIMM[0] FLT32 {1.0, 2, 3, 4}\n  0: MOV OUT[0], IN[1][0]\n  1: EMIT IMM[0].xxxx\n  2: END\n",
        "TESS_CTRL\nDCL IN[][0], GENERIC[0]\nDCL OUT[][0], GENERIC[0]\nDCL OUT[0], PATCH[0]\n  0: END\n",
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE, CENTROID\n  0: IF IN[0].xxxx :2\n  1: ELSE :2\n  2: ENDIF\n  3: END\n",
        "FRAG\n  0: MOV TEMP[0], TEMP[1]\n  1: MOV TEMP[0],\n",
        "FRAG\n  0: END\n\r",
        "",
        "VERT DCL IN[0]",
    ] {
        check(text, text);
    }
}
