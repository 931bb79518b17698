//! The parser reads operands as the printer writes them on a fast path and everything else
//! on a general one; these check that spacing, line breaks and near misses of the canonical
//! form read the same (or fail at the same place) either way, in `parse`, `assemble` and
//! `text::reformat`.

fn both(text: &str) -> Result<tgsi::Shader, String> {
    let parsed = tgsi::parse(text);
    // Printed while parsing (where canonical lines are copied), the text is the print of
    // the parse.
    let reformatted = tgsi::text::reformat(text, tgsi::PrintOptions::default());
    assert_eq!(
        reformatted,
        parsed.as_ref().map(tgsi::print).map_err(Clone::clone),
        "{text:?}"
    );
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

/// Instruction lines in the printer's form, which the parser reads on its statement-level
/// fast path (after `  5: `), covering each operand form it knows.
const CANONICAL_LINES: &[&str] = &[
    "MAD_SAT TEMP[1].xyw, -|CONST[1][2].xxyy|, IN[0], -IMM[3].wzyx",
    "ADD_PRECISE TEMP[0], TEMP[1], TEMP[2]",
    "MOV OUT[0], CONST[ADDR[0].x+3]",
    "MOV TEMP[ADDR[0].y-2](1).z, |TEMP[ADDR[0].w](2).xxxx|",
    "MOV TEMP[0], CONST[ADDR[1].z][ADDR[0].x+7](3)",
    "MOV TEMP[0], IN[1][TEMP[2].x]",
    "TEX TEMP[0], TEMP[1], SAMP[0], 2D",
    "TXB TEMP[0].xy, TEMP[1], SAMP[2], SHADOW2D, IMM[3].xyz, IMM[4].zzz",
    "SAMPLE TEMP[0], TEMP[1], SVIEW[0], SAMP[0], IMM[1].xyz",
    "IF TEMP[1].xxxx :12",
    "UIF TEMP[1].xxxx",
    "ELSE :7",
    "BGNLOOP :3",
    "ENDLOOP :1",
    "BRK",
    "ENDIF",
    "KILL_IF -TEMP[2].wwww",
    "ARL ADDR[0].x, TEMP[3].xxxx",
    "CAL :4",
    "EMIT IMM[0].xxxx",
    "LOAD TEMP[0], BUFFER[0], TEMP[1].xxxx",
    "STORE MEMORY[0].x, TEMP[1], TEMP[2]",
    "END",
];

/// Bytes put into, or in place of, the canonical lines to make near misses.
const MUTATIONS: &[&str] = &[
    " ", "\n", "\t", "\r", ",", ".", "[", "]", "(", ")", "|", "-", "+", ":", "0", "7", "x", "X",
    "q", "_", "\0", "é", "TEMP[0]",
];

/// `parse` of `  5: {body}` (which the fast path may read) and of `  5:\t{body}` (which it
/// never does: its opcode does not follow a space) agree exactly, errors and positions
/// included, as do `assemble` and `encode(parse)`.
fn fast_equals_general(body: &str, after: &str) {
    let text = |sep: &str| format!("GEOM\nDCL IN[][0]\n  5:{sep}{body}{after}");
    let fast = both(&text(" "));
    let general = both(&text("\t"));
    assert_eq!(fast, general, "{body:?} then {after:?}");
}

#[test]
fn instruction_lines_read_like_the_general_path() {
    for line in CANONICAL_LINES {
        let shader = both(&format!("GEOM\nDCL IN[][0]\n  5: {line}\n")).unwrap();
        assert_eq!(
            tgsi::print(&shader).lines().last(),
            Some(&*format!("  0: {line}"))
        );
        for after in [
            "",
            "\n",
            "\n  6: END\n",
            "\n.x",
            "\n.xxxx",
            "\n[1]",
            "\n, IMM[0]",
            "\n:3",
            "\n|",
            "\n\r",
            "\n(1)",
            " \n",
            " ",
            "\t",
            "\n\n DCL TEMP[0]",
        ] {
            fast_equals_general(line, after);
        }
    }
}

#[test]
fn near_misses_of_instruction_lines_read_like_the_general_path() {
    for line in CANONICAL_LINES {
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        for &(at, c) in &chars {
            let (head, tail) = (&line[..at], &line[at + c.len_utf8()..]);
            fast_equals_general(&format!("{head}{tail}"), "\n");
            for m in MUTATIONS {
                fast_equals_general(&format!("{head}{m}{tail}"), "\n");
                fast_equals_general(&format!("{head}{m}{c}{tail}"), "\n");
            }
        }
        for m in MUTATIONS {
            fast_equals_general(&format!("{line}{m}"), "\n  6: END\n");
        }
    }
}

#[test]
fn instruction_line_numbers_and_limits_fall_back_exactly() {
    for text in [
        "FRAG\n  5 : MOV TEMP[0], TEMP[1]\n",
        "FRAG\n  5: BGNSUB :4\n",
        "FRAG\n5:MOV TEMP[0], TEMP[1]\n",
        "FRAG\n99999999999: MOV TEMP[0], TEMP[1]\n",
        "FRAG\n0000000005: MOV TEMP[0], TEMP[1]\n",
        "FRAG\n  5: MOV TEMP[0], TEMP[32768]\n",
        "FRAG\n  5: MOV TEMP[0], TEMP[0000000001]\n",
        "FRAG\n  5: MOV TEMP[0], CONST[ADDR[0].x+32768]\n",
        "FRAG\n  5: MOV TEMP[0], CONST[ADDR[0].x-32769]\n",
        "FRAG\n  5: MOV TEMP[0], CONST[ADDR[0].x](1024)\n",
        "FRAG\n  5: MOV TEMP[0], CONST[ADDR[0].x](1023)\n",
        "FRAG\n  5: MOV TEMP[0], CONST[1](2)\n",
        "FRAG\n  5: IF TEMP[0].xxxx :16777216\n",
        "FRAG\n  5: IF TEMP[0].xxxx :16777215\n",
        "FRAG\n  5: TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0], IMM[0], IMM[0], IMM[0], IMM[0]\n",
        "FRAG\n  5: TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0], IMM[0], IMM[0], IMM[0]\n",
        "FRAG\n  5: TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0][1]\n",
        "FRAG\n  5: TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0].xy\n",
        "FRAG\n  5: TEX TEMP[0], TEMP[1], SAMP[0], 2D, TEMP[ADDR[0].x]\n",
    ] {
        let general = text.replacen(": ", ":\t", 1);
        let limits = tgsi::Limits::DEFAULT;
        agree(text, &general, &limits);
    }
    // Limits hold on the fast path as on the general one.
    let limits = tgsi::Limits {
        max_register_index: 9,
        max_token_len: 2,
        max_instructions: 1,
        ..tgsi::Limits::DEFAULT
    };
    for text in [
        "FRAG\n  5: MOV TEMP[0], TEMP[10]\n",
        "FRAG\n  5: MOV TEMP[0], TEMP[9]\n",
        "FRAG\n  5: MOV TEMP[0], TEMP[009]\n",
        "FRAG\n100: MOV TEMP[0], TEMP[9]\n",
        "FRAG\n  5: MOV TEMP[0], CONST[ADDR[0].x+10]\n",
        "FRAG\n  5: MOV TEMP[0], CONST[ADDR[0].x+11]\n",
        "FRAG\n  5: MOV TEMP[0], TEMP[1]\n  6: END\n",
    ] {
        agree(text, &text.replacen(": ", ":\t", 1), &limits);
    }
}

/// `fast` and `general` parse and assemble alike under `limits`.
fn agree(fast: &str, general: &str, limits: &tgsi::Limits) {
    let parse = |text| tgsi::parse_with_limits(text, limits).map_err(|e| e.to_string());
    assert_eq!(parse(fast), parse(general), "{fast:?}");
    let assemble = |text| tgsi::tokens::assemble_with_limits(text, limits);
    assert_eq!(assemble(fast), assemble(general), "{fast:?}");
}

#[test]
fn lines_the_fast_path_reads_but_the_printer_writes_otherwise_are_printed_anew() {
    // Each is read by the fast path; `both` checks that `reformat` (which copies canonical
    // lines) still gives the print of the parse.
    for line in [
        "MOV TEMP[0].xyzw, TEMP[1]",
        "MOV TEMP[0], TEMP[1].xyzw",
        "MOV TEMP[0], -|TEMP[1].xyzw|",
        "MOV TEMP[0].XY, TEMP[1]",
        "MOV TEMP[0].xY, TEMP[1]",
        "MOV TEMP[0], TEMP[1].XXXX",
        "MOV TEMP[0], TEMP[1].xxXx",
        "MOV TEMP[0], TEMP[01]",
        "MOV TEMP[00], TEMP[1]",
        "MOV TEMP[0], CONST[ADDR[0].x+0]",
        "MOV TEMP[0], CONST[ADDR[0].x-0]",
        "MOV TEMP[0], CONST[ADDR[0].x+01]",
        "MOV TEMP[0], CONST[ADDR[0].X+1]",
        "MOV TEMP[0], CONST[ADDR[00].x+1]",
        "MOV TEMP[0], TEMP[ADDR[0].x](0)",
        "MOV TEMP[0], TEMP[ADDR[0].x](01)",
        "MOV TEMP[0], CONST[01][2]",
        "MOV TEMP[0], SV[0].xxxx",
        "MOV TEMP[0], temp[1]",
        "mov TEMP[0], TEMP[1]",
        "Mov TEMP[0], TEMP[1]",
        "FRAC TEMP[0], TEMP[1]",
        "KIL TEMP[0]",
        "MOV_sat TEMP[0], TEMP[1]",
        "MAD_SAT_PRECISE TEMP[0], TEMP[1], TEMP[2], TEMP[3]",
        "TEX TEMP[0], TEMP[1], SAMP[0], 2d",
        "TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0]",
        "TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0].XYZ",
        "TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[00].xyz",
        "TEX TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0].xyz",
        "IF TEMP[0].xxxx :07",
        "IF TEMP[0].xxxx :7",
    ] {
        for after in ["\n", "", "\n  6: END\n"] {
            fast_equals_general(line, after);
        }
    }
}
