//! The parser reads operands as the printer writes them on a fast path and everything else
//! on a general one; these check that spacing, line breaks and near misses of the canonical
//! form read the same (or fail at the same place) either way, in `parse` and `assemble`.

fn both(text: &str) -> Result<tgsi::Shader, String> {
    let parsed = tgsi::parse(text);
    let assembled = tgsi::tokens::assemble(text);
    match (&parsed, &assembled) {
        (Ok(shader), Ok(words)) => assert_eq!(&tgsi::tokens::encode(shader).unwrap(), words),
        (Err(p), Err(tgsi::tokens::AssembleError::Parse(a))) => assert_eq!(p, a),
        _ => panic!("parse and assemble disagree on {text:?}"),
    }
    parsed.map_err(|e| e.to_string())
}

fn same(canonical: &str, variant: &str) {
    let a = both(&format!("FRAG\n{canonical}\n")).unwrap();
    let b = both(&format!("FRAG\n{variant}\n")).unwrap();
    assert_eq!(a.instructions[0].dst, b.instructions[0].dst, "{variant}");
    assert_eq!(a.instructions[0].src, b.instructions[0].src, "{variant}");
}

#[test]
fn spacing_reads_like_the_canonical_form() {
    let canonical = "MAD TEMP[0].xz, -|TEMP[1].yyyy|, CONST[1][2], |IN[3]|";
    for variant in [
        "MAD TEMP[0] .xz, -|TEMP[1] .yyyy|, CONST[1] [2], |IN[3] |",
        "MAD TEMP[0]\n.xz ,- | TEMP[1]\n.yyyy\n|,CONST[1]\n[2] , | IN[3]|",
        "mad temp[0].XZ, -|temp[1].YYYY|, const[1][2], |in[3]|",
        "MAD TEMP[ 0 ].xz, -|TEMP[1].yyyy|, CONST[1][ 2 ], |IN[3]|",
    ] {
        same(canonical, variant);
    }
    same("MOV TEMP[0], TEMP[1]", "MOV TEMP[0]\t, TEMP[1]\t");
    same("MOV TEMP[0], TEMP[1].xxxx", "MOV TEMP[0], TEMP[1]\n.xxxx");
    same("MOV TEMP[0].x, TEMP[1]", "MOV TEMP[0]\n.x, TEMP[1]");
    same("MOV TEMP[0], |TEMP[1]|", "MOV TEMP[0],|TEMP[1]| ");
    same("MOV TEMP[0], TEMP[000001]", "MOV TEMP[0], TEMP[1]");
}

#[test]
fn near_misses_fail_where_the_general_path_says() {
    // Messages and positions as the parser gave them before operands had a fast path.
    let cases = [
        ("MOV TEMP[0], TEMP[1] (1)", "2:22: expected DCL, IMM, PROPERTY, an opcode or a label, found '('"),
        ("MOV TEMP[0].xq, TEMP[1]", "2:14: expected the end of the write mask (letters must be x, y, z, w in that order), found 'q'"),
        ("MOV TEMP[0].yx, TEMP[1]", "2:14: expected the end of the write mask (letters must be x, y, z, w in that order), found 'x'"),
        ("MOV TEMP[0], TEMP[1].xyzwx", "2:26: expected the end of the swizzle (exactly 4 letters), found 'x'"),
        ("MOV TEMP[0], TEMP[1].xyq", "2:24: expected a swizzle of exactly 4 letters from x, y, z, w, found 'q'"),
        ("MOV TEMP[0], |TEMP[1].xyzw", "3:1: expected '|' closing the absolute value, found the end of the input"),
        ("MOV TEMP[0], TEMP[1]x", "2:21: expected whitespace between statements, found 'x'"),
        ("MOV TEMP[0], TEMP[99999999999]", "2:19: number 99999999999 does not fit in 32 bits"),
        ("MOV TEMP[0], TEMP[1] \r", "2:22: carriage return is not whitespace in TGSI text (convert CRLF line endings to LF)"),
        ("MOV TEMP[0] \r, TEMP[1]", "2:13: carriage return is not whitespace in TGSI text (convert CRLF line endings to LF)"),
        ("MOV TEMP[0], TEMP[1]\n.x", "3:3: expected a swizzle of exactly 4 letters from x, y, z, w, found the end of the line"),
        ("MOV TEMP[0], -TEMP[1]|", "2:22: expected whitespace between statements, found '|'"),
        ("MOV TEMP[0].x , TEMP[1].x", "2:26: expected a swizzle of exactly 4 letters from x, y, z, w, found the end of the line"),
        ("MOV TEMP[0], TEMP[1].xyzw_", "2:26: expected the end of the swizzle (exactly 4 letters), found '_'"),
        ("MOV TEMP[0]., TEMP[1]", "2:13: expected a write mask (letters x, y, z, w in that order), found ','"),
        ("MOV TEMP[0], TEMP[1].", "3:1: expected a swizzle of exactly 4 letters from x, y, z, w, found the end of the input"),
        ("MOV TEMP[0], TEMP[70000]", "2:19: index 70000 is larger than the limit of 32767"),
        ("MOV TEMP[0], TEMP[1].xyzw\0", "2:26: expected whitespace between statements, found a NUL byte"),
    ];
    for (line, expected) in cases {
        let err = both(&format!("FRAG\n{line}\n")).unwrap_err();
        assert_eq!(err, expected, "{line:?}");
    }
}
