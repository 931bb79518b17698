//! One test per validator rule: a tiny shader that breaks the rule must get the rule's
//! diagnostic at the offending item, and a valid counterpart must get neither that
//! diagnostic nor any error.

use tgsi::validate::{validate, Code, Diagnostic, Severity};
use tgsi::{Limits, Shader, Span};

/// Parses a test shader (test input is trusted).
fn parse(text: &str) -> Shader {
    tgsi::parse(text).unwrap_or_else(|e| panic!("test shader does not parse: {e}\n{text}"))
}

/// Parses, then edits the IR (for rules that text cannot break).
fn edited(text: &str, edit: impl FnOnce(&mut Shader)) -> Shader {
    let mut shader = parse(text);
    edit(&mut shader);
    shader
}

fn diags(shader: &Shader) -> Vec<Diagnostic> {
    validate(shader, &Limits::DEFAULT)
}

fn listing(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| format!("  [{}] {d}", d.code.name()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `bad` has a `code` diagnostic at `at` with the code's severity; `good` has no `code`
/// diagnostic and no error.
fn check(code: Code, bad: Shader, at: (u32, u32), good: Shader) {
    let found = diags(&bad);
    let span = Span::new(at.0, at.1);
    let hit = found.iter().find(|d| d.code == code && d.span == span);
    let Some(hit) = hit else {
        panic!(
            "expected {} at {span}, got:\n{}",
            code.name(),
            listing(&found)
        );
    };
    assert_eq!(hit.severity, code.severity());
    assert!(!hit.message.is_empty());
    let clean = diags(&good);
    assert!(
        !clean.iter().any(|d| d.code == code || d.is_error()),
        "valid counterpart of {} is flagged:\n{}",
        code.name(),
        listing(&clean)
    );
}

macro_rules! rules {
    ($( $name:ident: $code:ident at ($l:expr, $c:expr), bad: $bad:expr, good: $good:expr; )*) => {
        $( #[test] fn $name() { check(Code::$code, $bad, ($l, $c), $good); } )*

        /// Codes with a test above.
        const COVERED: &[Code] = &[$(Code::$code),*];
    };
}

const FS_HEAD: &str =
    "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\n";

/// A fragment shader: `FS_HEAD` (4 lines), then `body` as instructions numbered from line 5,
/// then END.
fn fs(body: &[&str]) -> Shader {
    parse(&fs_text(body))
}

fn fs_text(body: &[&str]) -> String {
    let mut text = FS_HEAD.to_string();
    for (i, line) in body.iter().enumerate() {
        text.push_str(&format!("{i:3}: {line}\n"));
    }
    text.push_str(&format!("{:3}: END\n", body.len()));
    text
}

const VS_ARRAY: &str = "VERT\nDCL IN[0..3]\nDCL OUT[0], POSITION\nDCL TEMP[0..3], ARRAY(1)\nDCL TEMP[4]\nDCL ADDR[0]\n  0: UARL ADDR[0].x, IN[0].xxxx\n";

rules! {
    undeclared_register: UndeclaredRegister at (5, 6),
        bad: fs(&["MOV OUT[0], TEMP[4]"]),
        good: fs(&["MOV OUT[0], TEMP[3]"]);
    undeclared_memory: UndeclaredMemory at (5, 6),
        bad: parse("COMP\nDCL MEMORY[1], SHARED\nDCL TEMP[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n  0: LOAD TEMP[0].x, MEMORY[0], IMM[0].xxxx\n  1: END\n"),
        good: parse("COMP\nDCL MEMORY[1], SHARED\nDCL TEMP[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n  0: LOAD TEMP[0].x, MEMORY[1], IMM[0].xxxx\n  1: END\n");
    unknown_array_id: UnknownArrayId at (8, 6),
        bad: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[ADDR[0].x](2)\n  2: END\n")),
        good: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[ADDR[0].x](1)\n  2: END\n"));
    indirect_without_array: IndirectWithoutArray at (8, 6),
        bad: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], IN[ADDR[0].x]\n  2: END\n")),
        good: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[ADDR[0].x]\n  2: END\n"));
    bad_address_register: BadAddressRegister at (8, 6),
        bad: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[OUT[0].x](1)\n  2: END\n").replace("OUT[0].x", "SAMP[0].x")),
        good: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[ADDR[0].x](1)\n  2: END\n"));
    non_address_indirect: NonAddressIndirect at (8, 6),
        bad: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[TEMP[4].x](1)\n  2: END\n")),
        good: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[ADDR[0].x](1)\n  2: END\n"));
    not_writable: NotWritable at (5, 6),
        bad: fs(&["MOV IN[0], TEMP[0]"]),
        good: fs(&["MOV OUT[0], TEMP[0]"]);
    not_readable: NotReadable at (6, 6),
        bad: parse(&fs_text(&["MOV OUT[0], SAMP[0]"]).replace("DCL TEMP", "DCL SAMP[0]\nDCL TEMP")),
        good: fs(&["MOV OUT[0], IN[0]"]);
    bad_operand_file: BadOperandFile at (6, 6),
        bad: parse(&fs_text(&["TEX OUT[0], IN[0], TEMP[0], 2D"]).replace("DCL TEMP", "DCL SAMP[0]\nDCL TEMP")),
        good: parse(&fs_text(&["TEX OUT[0], IN[0], SAMP[0], 2D"]).replace("DCL TEMP", "DCL SAMP[0]\nDCL TEMP"));
    operand_count: OperandCount at (5, 6),
        bad: edited(&fs_text(&["ADD OUT[0], IN[0], TEMP[0]"]), |s| { s.instructions[0].src.pop(); }),
        good: fs(&["ADD OUT[0], IN[0], TEMP[0]"]);
    bad_write_mask: BadWriteMask at (5, 6),
        bad: edited(&fs_text(&["MOV OUT[0], IN[0]"]), |s| s.instructions[0].dst[0].write_mask.0 = 0),
        good: fs(&["MOV OUT[0], IN[0]"]);
    bad_swizzle: BadSwizzle at (5, 6),
        bad: edited(&fs_text(&["MOV OUT[0], IN[0]"]), |s| s.instructions[0].src[0].swizzle.0[3] = 7),
        good: fs(&["MOV OUT[0], IN[0].wzyx"]);
    unpaired_64bit: Unpaired64Bit at (5, 6),
        bad: fs(&["DADD TEMP[0].xyz, TEMP[1], TEMP[2]"]),
        good: fs(&["DADD TEMP[0].zw, TEMP[1].zwzw, TEMP[2]"]);
    abs_on_integer: AbsOnInteger at (5, 6),
        bad: fs(&["IMAX TEMP[0], |TEMP[1]|, TEMP[2]"]),
        good: fs(&["MAX TEMP[0], |TEMP[1]|, TEMP[2]"]);
    negate_on_unsigned: NegateOnUnsigned at (5, 6),
        bad: fs(&["AND TEMP[0], -TEMP[1], TEMP[2]"]),
        good: fs(&["UADD TEMP[0], -TEMP[1], TEMP[2]", "IMAX TEMP[0], -TEMP[1], TEMP[2]"]);
    modifier_on_64bit: ModifierOn64Bit at (5, 6),
        bad: fs(&["DADD TEMP[0], -TEMP[1], TEMP[2]"]),
        good: fs(&["DNEG TEMP[0], TEMP[1]", "DADD TEMP[0], TEMP[0], TEMP[2]"]);
    saturate_non_float: SaturateNonFloat at (5, 6),
        bad: fs(&["UMAX_SAT TEMP[0], TEMP[1], TEMP[2]"]),
        good: fs(&["U2F_SAT TEMP[0], TEMP[1]", "MOV_SAT OUT[0], TEMP[0]"]);
    unbalanced_control_flow: UnbalancedControlFlow at (5, 6),
        bad: fs(&["IF IN[0].xxxx :2", "MOV OUT[0], IN[0]"]),
        good: fs(&["IF IN[0].xxxx :2", "MOV OUT[0], IN[0]", "ENDIF"]);
    misplaced_case: MisplacedCase at (9, 6),
        bad: parse(&fs_text(&["SWITCH TEMP[0].xxxx", "CASE IMM[0].xxxx", "IF IN[0].xxxx :4", "CASE IMM[0].yyyy", "ENDIF", "ENDSWITCH"]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3]\nIMM[0] UINT32 {1, 2, 3, 4}\n")),
        good: parse(&fs_text(&["SWITCH TEMP[0].xxxx", "CASE IMM[0].xxxx", "CASE IMM[0].yyyy", "ENDSWITCH"]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3]\nIMM[0] UINT32 {1, 2, 3, 4}\n"));
    duplicate_default: DuplicateDefault at (7, 6),
        bad: fs(&["SWITCH TEMP[0].xxxx", "DEFAULT", "DEFAULT", "ENDSWITCH"]),
        good: fs(&["SWITCH TEMP[0].xxxx", "DEFAULT", "BRK", "ENDSWITCH"]);
    case_not_immediate: CaseNotImmediate at (6, 6),
        bad: fs(&["SWITCH TEMP[0].xxxx", "CASE TEMP[1].xxxx", "ENDSWITCH"]),
        good: parse(&fs_text(&["SWITCH TEMP[0].xxxx", "CASE IMM[0].xxxx", "ENDSWITCH"]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3]\nIMM[0] UINT32 {1, 2, 3, 4}\n"));
    nested_subroutine: NestedSubroutine at (8, 6),
        bad: fs(&["CAL :2", "RET", "BGNSUB", "BGNSUB", "ENDSUB", "ENDSUB"]),
        good: fs(&["CAL :2", "RET", "BGNSUB", "RET", "ENDSUB"]);
    break_outside_loop: BreakOutsideLoop at (6, 6),
        bad: fs(&["IF IN[0].xxxx :2", "BRK", "ENDIF"]),
        good: fs(&["BGNLOOP :3", "IF IN[0].xxxx :3", "BRK", "ENDIF", "ENDLOOP :0"]);
    continue_outside_loop: ContinueOutsideLoop at (6, 6),
        bad: fs(&["SWITCH TEMP[0].xxxx", "CONT", "ENDSWITCH"]),
        good: fs(&["BGNLOOP :4", "SWITCH TEMP[0].xxxx", "CONT", "ENDSWITCH", "ENDLOOP :0"]);
    label_out_of_range: LabelOutOfRange at (5, 6),
        bad: fs(&["IF IN[0].xxxx :9", "ENDIF"]),
        good: fs(&["IF IN[0].xxxx :1", "ENDIF"]);
    label_mismatch: LabelMismatch at (5, 6),
        bad: fs(&["IF IN[0].xxxx :3", "ELSE :3", "ENDIF"]),
        good: fs(&["IF IN[0].xxxx :1", "ELSE :2", "ENDIF"]);
    missing_label: MissingLabel at (6, 6),
        bad: fs(&["IF IN[0].xxxx :1", "ELSE", "ENDIF"]),
        good: fs(&["IF IN[0].xxxx :1", "ELSE :2", "ENDIF"]);
    bad_call_target: BadCallTarget at (5, 6),
        bad: fs(&["CAL :1", "MOV OUT[0], IN[0]"]),
        good: fs(&["CAL :2", "RET", "BGNSUB", "MOV OUT[0], IN[0]", "ENDSUB"]);
    nesting_too_deep: NestingTooDeep at (261, 6),
        bad: fs(&nested(300)),
        good: fs(&nested(200));
    missing_end: MissingEnd at (5, 6),
        bad: parse(&format!("{FS_HEAD}  0: MOV OUT[0], IN[0]\n")),
        good: fs(&["MOV OUT[0], IN[0]"]);
    wrong_stage: WrongStage at (4, 6),
        bad: parse("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: KILL\n  1: END\n"),
        good: parse("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n");
    implausible_system_value: ImplausibleSystemValue at (2, 1),
        bad: parse("FRAG\nDCL SV[0], THREAD_ID\nDCL OUT[0], COLOR\n  0: MOV OUT[0], SV[0]\n  1: END\n"),
        good: parse("FRAG\nDCL SV[0], SAMPLEPOS\nDCL OUT[0], COLOR\n  0: MOV OUT[0], SV[0]\n  1: END\n");
    property_wrong_stage: PropertyWrongStage at (2, 1),
        bad: parse(&fs_text(&[]).replace("FRAG\n", "FRAG\nPROPERTY GS_INVOCATIONS 2\n")),
        good: parse(&fs_text(&[]).replace("FRAG\n", "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"));
    bad_property_value: BadPropertyValue at (2, 1),
        bad: parse(&fs_text(&[]).replace("FRAG\n", "FRAG\nPROPERTY FS_DEPTH_LAYOUT 9\n")),
        good: parse(&fs_text(&[]).replace("FRAG\n", "FRAG\nPROPERTY FS_DEPTH_LAYOUT 4\n"));
    duplicate_property: DuplicateProperty at (3, 1),
        bad: parse(&fs_text(&[]).replace("FRAG\n", "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_ORIGIN UPPER_LEFT\n")),
        good: parse(&fs_text(&[]).replace("FRAG\n", "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"));
    missing_property: MissingProperty at (1, 1),
        bad: parse(&gs(&["GS_INPUT_PRIMITIVE TRIANGLES", "GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP"])),
        good: parse(&gs(&["GS_INPUT_PRIMITIVE TRIANGLES", "GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP", "GS_MAX_OUTPUT_VERTICES 3"]));
    bad_range: BadRange at (4, 1),
        bad: edited(&fs_text(&[]), |s| s.declarations[2].first = 5),
        good: fs(&[]);
    overlapping_declaration: OverlappingDeclaration at (5, 1),
        bad: parse(&fs_text(&[]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3]\nDCL TEMP[3..4]\n")),
        good: parse(&fs_text(&[]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3]\nDCL TEMP[4..5]\n"));
    misplaced_semantic: MisplacedSemantic at (4, 1),
        bad: parse(&fs_text(&[]).replace("DCL TEMP[0..3]", "DCL TEMP[0..3], GENERIC[1]")),
        good: fs(&[]);
    misplaced_interpolation: MisplacedInterpolation at (3, 1),
        bad: parse("VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0], PERSPECTIVE\n  0: MOV OUT[0], IN[0]\n  1: END\n"),
        good: parse("VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n  0: MOV OUT[0], IN[0]\n  1: END\n");
    misplaced_stream: MisplacedStream at (3, 1),
        bad: edited(&fs_text(&[]), |s| if let Some(sem) = &mut s.declarations[1].semantic { sem.streams[0] = 1 }),
        good: parse(&gs(&["GS_INPUT_PRIMITIVE POINTS", "GS_OUTPUT_PRIMITIVE POINTS", "GS_MAX_OUTPUT_VERTICES 1"]).replace("DCL OUT[0], POSITION", "DCL OUT[0], POSITION, STREAM(1, 1, 2, 3)"));
    bad_usage_mask: BadUsageMask at (2, 1),
        bad: edited(&fs_text(&[]), |s| s.declarations[0].usage_mask.0 = 0),
        good: parse(&fs_text(&[]).replace("DCL IN[0]", "DCL IN[0].xy"));
    bad_declaration: BadDeclaration at (4, 1),
        bad: parse(&fs_text(&[]).replace("DCL TEMP[0..3]", "DCL TEMP[1][0..3]")),
        good: parse(&fs_text(&[]).replace("DCL TEMP[0..3]", "DCL TEMP[0..3]\nDCL CONST[1][0..3]"));
    duplicate_array_id: DuplicateArrayId at (5, 1),
        bad: parse(&fs_text(&[]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3], ARRAY(1)\nDCL TEMP[4..5], ARRAY(1)\n")),
        good: parse(&fs_text(&[]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3], ARRAY(1)\nDCL TEMP[4..5], ARRAY(2)\n"));
    declaration_after_instruction: DeclarationAfterInstruction at (6, 1),
        bad: parse(&format!("{FS_HEAD}  0: MOV OUT[0], IN[0]\nDCL TEMP[4]\n  1: END\n")),
        good: parse(&format!("{FS_HEAD}DCL TEMP[4]\n  0: MOV OUT[0], IN[0]\n  1: END\n"));
    legacy_opcode: LegacyOpcode at (5, 6),
        bad: fs(&["SUB OUT[0], IN[0], TEMP[0]"]),
        good: fs(&["ADD OUT[0], IN[0], -TEMP[0]"]);
    legacy_file: LegacyFile at (5, 1),
        bad: parse(&fs_text(&[]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3]\nDCL RES[0], 2D\n")),
        good: parse(&fs_text(&[]).replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3]\nDCL IMAGE[0], 2D, PIPE_FORMAT_R8G8B8A8_UNORM\n"));
    emit_without_stream: EmitWithoutStream at (9, 6),
        bad: parse(&gs(&GS_PROPS).replace("EMIT IMM[0].xxxx", "EMIT")),
        good: parse(&gs(&GS_PROPS));
    gap_opcode: GapOpcode at (5, 6),
        bad: fs(&["UNK67"]),
        good: fs(&["NOP"]);
    texture_target_mismatch: TextureTargetMismatch at (7, 6),
        bad: parse(&tex_fs("2D", "TEX OUT[0], IN[0], SAMP[0], 3D")),
        good: parse(&tex_fs("2D", "TXB OUT[0], IN[0], SAMP[0], 2D"));
    shadow_mismatch: ShadowMismatch at (7, 6),
        bad: parse(&tex_fs("SHADOW2D", "TEX OUT[0], IN[0], SAMP[0], 2D")),
        good: parse(&tex_fs("SHADOW2D", "TEX OUT[0], IN[0], SAMP[0], SHADOW2D"));
    missing_texture_target: MissingTextureTarget at (5, 6),
        bad: parse(&image_cs("LOAD TEMP[0], IMAGE[0], SV[0]")),
        good: parse(&image_cs("LOAD TEMP[0], IMAGE[0], SV[0], 2D"));
    too_many_offsets: TooManyOffsets at (7, 6),
        bad: edited(&tex_fs("2D", "TEX OUT[0], IN[0], SAMP[0], 2D, IMM[0].xyz"), |s| {
            if let Some(t) = &mut s.instructions[0].texture { t.offsets = vec![t.offsets[0]; 5] }
        }),
        good: parse(&tex_fs("2D", "TEX OUT[0], IN[0], SAMP[0], 2D, IMM[0].xyz, IMM[0].xyz, IMM[0].xyz, IMM[0].xyz"));
    mixed_sampling: MixedSampling at (8, 6),
        bad: parse(&tex_fs("2D", "TEX OUT[0], IN[0], SAMP[0], 2D\n  1: SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]")),
        good: parse(&tex_fs("2D", "SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]\n  1: SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[0]"));
    missing_sampler_view: MissingSamplerView at (5, 1),
        bad: parse(&tex_fs("2D", "TEX OUT[0], IN[0], SAMP[0], 2D").replace("DCL SAMP[0]\n", "DCL SAMP[0]\nDCL SAMP[1]\n")),
        good: parse(&tex_fs("2D", "TEX OUT[0], IN[0], SAMP[0], 2D"));
    relative_outside_array: RelativeOutsideArray at (8, 6),
        bad: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[ADDR[0].x+4](1)\n  2: END\n")),
        good: parse(&format!("{VS_ARRAY}  1: MOV OUT[0], TEMP[ADDR[0].x+3](1)\n  2: END\n"));
    duplicate_end: DuplicateEnd at (8, 6),
        bad: fs(&["MOV OUT[0], IN[0]", "END", "MOV OUT[0], TEMP[0]"]),
        good: fs(&["MOV OUT[0], IN[0]"]);
    end_inside_block: EndInsideBlock at (6, 6),
        bad: fs(&["IF IN[0].xxxx :2", "END", "ENDIF"]),
        good: fs(&["IF IN[0].xxxx :2", "RET", "ENDIF"]);
    recursive_call: RecursiveCall at (8, 6),
        bad: subs(&[&["CAL :2"]]),
        good: subs(&[&["CAL :6"], &["MOV OUT[0], IN[0]"]]);
    repeated_declaration: RepeatedDeclaration at (4, 1),
        bad: parse(&fs_text(&[]).replace("DCL OUT[0], COLOR\n", "DCL OUT[0].xy, COLOR\nDCL OUT[0].zw, COLOR\n")),
        good: fs(&[]);
    field_overflow: FieldOverflow at (4, 1),
        bad: parse(&fs_text(&[]).replace("DCL TEMP[0..3]", "DCL TEMP[0..3], ARRAY(1024)")),
        good: parse(&fs_text(&[]).replace("DCL TEMP[0..3]", "DCL TEMP[0..3], ARRAY(1023)"));
    slot_beyond_limit: SlotBeyondLimit at (2, 1),
        bad: parse(&fs_text(&[]).replace("DCL IN[0]", "DCL IN[80]")),
        good: parse(&fs_text(&[]).replace("DCL IN[0]", "DCL IN[79]"));
    stream_beyond_limit: StreamBeyondLimit at (9, 6),
        bad: parse(&gs(&GS_PROPS).replace("{0, 0, 0, 0}", "{0, 0, 0, 4}").replace("EMIT IMM[0].xxxx", "EMIT IMM[0].wwww")),
        good: parse(&gs(&GS_PROPS).replace("{0, 0, 0, 0}", "{0, 0, 0, 3}").replace("EMIT IMM[0].xxxx", "EMIT IMM[0].wwww"));
    declared_stream_beyond_limit: StreamBeyondLimit at (6, 1),
        bad: parse(&gs(&GS_PROPS).replace("DCL OUT[0], POSITION", "DCL OUT[0], POSITION, STREAM(1, 1, 2, 4)")),
        good: parse(&gs(&GS_PROPS).replace("DCL OUT[0], POSITION", "DCL OUT[0], POSITION, STREAM(1, 1, 2, 3)"));
    property_beyond_limit: PropertyBeyondLimit at (4, 1),
        bad: parse(&gs(&["GS_INPUT_PRIMITIVE POINTS", "GS_OUTPUT_PRIMITIVE POINTS", "GS_MAX_OUTPUT_VERTICES 1025"])),
        good: parse(&gs(&["GS_INPUT_PRIMITIVE POINTS", "GS_OUTPUT_PRIMITIVE POINTS", "GS_MAX_OUTPUT_VERTICES 1024"]));
    store_to_readonly: StoreToReadOnly at (5, 6),
        bad: parse(&image_cs("STORE IMAGE[0], SV[0], SV[0], 2D").replace(", WR", "")),
        good: parse(&image_cs("STORE IMAGE[0], SV[0], SV[0], 2D"));
}

/// Properties of a valid point-to-point geometry shader.
const GS_PROPS: [&str; 3] = [
    "GS_INPUT_PRIMITIVE POINTS",
    "GS_OUTPUT_PRIMITIVE POINTS",
    "GS_MAX_OUTPUT_VERTICES 1",
];

/// A fragment shader whose main program calls the first subroutine and ends (instructions
/// 0 and 1, lines 5 and 6); each subroutine follows as BGNSUB, its body, RET, ENDSUB.
fn subs(bodies: &[&[&str]]) -> Shader {
    let mut body = vec!["CAL :2", "END"];
    for sub in bodies {
        body.push("BGNSUB");
        body.extend_from_slice(sub);
        body.extend(["RET", "ENDSUB"]);
    }
    let mut text = fs_text(&body);
    // fs_text appends an END of its own: drop it (subroutines follow the main program).
    let cut = text.trim_end().rfind('\n').map_or(text.len(), |i| i + 1);
    text.truncate(cut);
    parse(&text)
}

/// `depth` nested loops around a MOV.
fn nested(depth: usize) -> Vec<&'static str> {
    let mut body = vec!["BGNLOOP :0"; depth];
    body.push("MOV OUT[0], IN[0]");
    body.extend(std::iter::repeat_n("ENDLOOP :0", depth));
    body
}

/// A geometry shader with the given properties (line 2 on), passing a position through.
fn gs(props: &[&str]) -> String {
    let mut text = "GEOM\n".to_string();
    for p in props {
        text.push_str(&format!("PROPERTY {p}\n"));
    }
    text.push_str("DCL IN[][0], POSITION\nDCL OUT[0], POSITION\nIMM[0] INT32 {0, 0, 0, 0}\n");
    text.push_str("  0: MOV OUT[0], IN[0][0]\n  1: EMIT IMM[0].xxxx\n  2: END\n");
    text
}

/// A fragment shader with SAMP[0] (line 4) and SVIEW[0] of `view` (line 5), one
/// immediate, and `inst` as instruction 0 on line 7.
fn tex_fs(view: &str, inst: &str) -> String {
    format!(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], {view}, FLOAT\nIMM[0] INT32 {{1, 0, 0, 0}}\n  0: {inst}\n  1: END\n"
    )
}

/// A compute shader with a writable 2-D image and `inst` as instruction 0 on line 5.
fn image_cs(inst: &str) -> String {
    format!(
        "COMP\nDCL SV[0], THREAD_ID\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nDCL TEMP[0]\n  0: {inst}\n  1: END\n"
    )
}

/// The default limits are the token fields' own maxima, so only tighter limits make an
/// index too large without overflowing its field.
#[test]
fn index_too_large() {
    let tight = Limits {
        max_register_index: 3,
        max_declared_index: 3,
        ..Limits::DEFAULT
    };
    let at = |shader: &Shader| -> Vec<(Code, Span)> {
        validate(shader, &tight)
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.code, d.span))
            .collect()
    };
    let operand = edited(&fs_text(&["MOV OUT[0], TEMP[3]"]), |s| {
        s.instructions[0].src[0].reg.index = 4
    });
    assert_eq!(at(&operand), [(Code::IndexTooLarge, Span::new(5, 6))]);
    let declared = fs(&["MOV OUT[0], TEMP[3]"]);
    assert_eq!(at(&declared), []);
    let range = edited(&fs_text(&[]), |s| s.declarations[2].last = 4);
    assert_eq!(at(&range), [(Code::IndexTooLarge, Span::new(4, 1))]);
}

/// Codes tested outside the `rules!` table.
const COVERED_ELSEWHERE: &[Code] = &[Code::IndexTooLarge];

#[test]
fn every_code_has_a_rule_test() {
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| !COVERED.contains(c) && !COVERED_ELSEWHERE.contains(c))
        .map(|c| c.name())
        .collect();
    assert!(missing.is_empty(), "codes without a test: {missing:?}");
}

/// Codes of all diagnostics of a shader.
fn codes(shader: &Shader) -> Vec<Code> {
    diags(shader).iter().map(|d| d.code).collect()
}

#[test]
fn two_dimensional_registers_follow_their_declarations() {
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0..1]\nDCL CONST[2][0..3]\n  0: MOV OUT[0], CONST[2][3]\n  1: MOV OUT[0], CONST[0][1]\n  2: MOV OUT[0], CONST[1]\n  3: END\n";
    assert_eq!(codes(&parse(text)), []);
    let bad = text.replace("CONST[2][3]", "CONST[1][3]");
    let found = diags(&parse(&bad));
    assert_eq!(found.len(), 1, "{}", listing(&found));
    assert_eq!(found[0].code, Code::UndeclaredRegister);
    assert_eq!(found[0].span, Span::new(5, 6));
    assert!(
        found[0].message.contains("CONST[1][3]"),
        "{}",
        found[0].message
    );
}

#[test]
fn hardware_atomics_are_two_dimensional() {
    let text = "COMP\nDCL HWATOMIC[1][1..3], ARRAY(1)\nDCL TEMP[0]\nIMM[0] UINT32 {0, 1, 0, 0}\n  0: ATOMUADD TEMP[0].x, HWATOMIC[1][2], IMM[0].xxxx, IMM[0].yyyy\n  1: END\n";
    assert_eq!(codes(&parse(text)), []);
    let bad = text.replace("HWATOMIC[1][2]", "HWATOMIC[0][2]");
    assert_eq!(codes(&parse(&bad)), [Code::UndeclaredRegister]);
}

#[test]
fn per_vertex_inputs_are_indexed_by_vertex_then_attribute() {
    let text = gs(&[
        "GS_INPUT_PRIMITIVE TRIANGLES",
        "GS_OUTPUT_PRIMITIVE POINTS",
        "GS_MAX_OUTPUT_VERTICES 1",
    ]);
    let ok = text.replace("IN[0][0]", "IN[2][0]");
    assert_eq!(codes(&parse(&ok)), []);
    let bad = text.replace("IN[0][0]", "IN[0][1]");
    assert_eq!(codes(&parse(&bad)), [Code::UndeclaredRegister]);
}

#[test]
fn immediates_must_exist() {
    let found = diags(&fs(&["MOV OUT[0], IMM[0]"]));
    assert_eq!(found.len(), 1, "{}", listing(&found));
    assert_eq!(found[0].code, Code::UndeclaredRegister);
    assert!(
        found[0].message.contains("0 immediate"),
        "{}",
        found[0].message
    );
}

#[test]
fn closers_without_openers_are_errors() {
    for body in [
        &["ENDIF"][..],
        &["ELSE :1", "ENDIF"],
        &["ENDLOOP :0"],
        &["ENDSUB"],
    ] {
        let found = codes(&fs(body));
        assert!(
            found.contains(&Code::UnbalancedControlFlow),
            "{body:?}: {found:?}"
        );
    }
    let crossed = diags(&fs(&[
        "BGNLOOP :2",
        "IF IN[0].xxxx :3",
        "ENDLOOP :0",
        "ENDIF",
    ]));
    let unbalanced: Vec<Span> = crossed
        .iter()
        .filter(|d| d.code == Code::UnbalancedControlFlow)
        .map(|d| d.span)
        .collect();
    // The IF is left open by the ENDLOOP; the ENDIF then has no IF.
    assert_eq!(unbalanced, [Span::new(6, 6), Span::new(8, 6)]);
}

#[test]
fn subroutines_after_end_and_top_level_ret_are_valid() {
    let shader = fs(&[
        "CAL :4",
        "IF IN[0].xxxx :3",
        "RET",
        "ENDIF",
        "BGNSUB",
        "MOV OUT[0], IN[0]",
        "RET",
        "ENDSUB",
    ]);
    // END is instruction 8, after the subroutine here; move it before it like Mesa does.
    let mut shader = shader;
    let end = shader.instructions.pop().unwrap();
    shader.instructions.insert(4, end);
    shader.instructions[0].label = Some(5);
    shader.order.clear();
    assert_eq!(codes(&shader), []);
}

#[test]
fn call_label_past_the_end_is_an_error() {
    assert_eq!(codes(&fs(&["CAL :7"])), [Code::LabelOutOfRange]);
    assert_eq!(codes(&fs(&["CAL"])), [Code::BadCallTarget]);
}

#[test]
fn deep_nesting_is_reported_quickly_without_recursion() {
    let depth = 100_000;
    let mut text = String::from("FRAG\n");
    for _ in 0..depth {
        text.push_str("BGNLOOP\n");
    }
    let shader = tgsi::parse_with_limits(
        &text,
        &Limits {
            max_nesting: usize::MAX,
            ..Limits::DEFAULT
        },
    )
    .expect("the parser does not check nesting");
    let start = std::time::Instant::now();
    let found = diags(&shader);
    assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
    let count = |c| found.iter().filter(|d| d.code == c).count();
    assert_eq!(count(Code::NestingTooDeep), 1);
    assert_eq!(count(Code::MissingEnd), 1);
    // Unclosed blocks are summarised, not listed one by one.
    assert!(count(Code::UnbalancedControlFlow) <= 8);
}

#[test]
fn allow_legacy_turns_off_only_the_legacy_rules() {
    let shader = parse(
        &fs_text(&["SUB OUT[0], IN[0], TEMP[9]"])
            .replace("DCL TEMP[0..3]\n", "DCL TEMP[0..3]\nDCL RES[0], 2D\n"),
    );
    let legacy = Limits {
        allow_legacy: true,
        ..Limits::DEFAULT
    };
    let strict: Vec<Code> = diags(&shader).iter().map(|d| d.code).collect();
    let relaxed: Vec<Code> = tgsi::validate(&shader, &legacy)
        .iter()
        .map(|d| d.code)
        .collect();
    assert_eq!(
        strict,
        [
            Code::LegacyFile,
            Code::LegacyOpcode,
            Code::UndeclaredRegister
        ]
    );
    assert_eq!(relaxed, [Code::UndeclaredRegister]);
}

#[test]
fn diagnostics_print_position_severity_and_message() {
    let found = diags(&fs(&["MOV OUT[0], TEMP[9]", "UADD OUT[0], |IN[0]|, IN[0]"]));
    let text: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "5:6: error: TEMP[9] is not declared",
            "6:6: warning: absolute value on integer source 0 of UADD: only float inputs take it",
        ]
    );
    assert_eq!(found[1].severity, Severity::Warning);
}

#[test]
fn codes_are_unique_kebab_case() {
    let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
    assert!(names.iter().all(|n| n
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit())));
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Code::ALL.len());
}

/// A tiny deterministic generator for the robustness test.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn hostile_ir_never_panics_and_never_passes_what_encode_refuses() {
    let base = parse(&format!(
        "{VS_ARRAY}  1: MOV OUT[0], TEMP[ADDR[0].x](1)\n  2: IF IN[0].xxxx :3\n  3: ENDIF\n  4: TEX TEMP[4], IN[0], SAMP[0], 2D\n  5: LOAD TEMP[4], IMAGE[0], IN[0], 2D\n  6: END\n"
    ));
    let ints = [i32::MIN, -1, 0, 1, 3, 4, 40_000, i32::MAX];
    let files = tgsi::File::ALL;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3000 {
        let mut s = base.clone();
        for _ in 0..4 {
            let n = s.instructions.len();
            let inst = &mut s.instructions[(rng.next() % n as u64) as usize];
            match rng.next() % 8 {
                0 => inst.label = Some(rng.pick(&[0, 3, 7, u32::MAX])),
                1 => {
                    if let Some(src) = inst.src.first_mut() {
                        src.reg.index = rng.pick(&ints);
                        src.reg.file = rng.pick(files);
                        src.swizzle.0[1] = rng.pick(&[0, 3, 4, 255]);
                    }
                }
                2 => {
                    if let Some(dst) = inst.dst.first_mut() {
                        dst.reg.file = rng.pick(files);
                        dst.reg.dimension = Some(tgsi::Dimension {
                            index: rng.pick(&ints),
                            indirect: None,
                        });
                        dst.write_mask.0 = rng.pick(&[0, 1, 0xf, 0xff]);
                    }
                }
                3 => inst.opcode = rng.pick(&tgsi::Opcode::all().collect::<Vec<_>>()),
                4 => {
                    inst.dst.clear();
                    inst.src.clear();
                }
                5 => {
                    if let Some(src) = inst.src.first_mut() {
                        src.reg.indirect = Some(tgsi::Indirect {
                            file: rng.pick(files),
                            index: rng.pick(&ints),
                            component: rng.pick(&[0, 3, 9]),
                            array_id: rng.pick(&[0, 1, 2, u16::MAX]),
                        });
                    }
                }
                6 => {
                    let d = &mut s.declarations[(rng.next() % 5) as usize];
                    d.first = rng.pick(&[0, 5, u32::MAX]);
                    d.last = rng.pick(&[0, 3, u32::MAX]);
                    d.dimension = rng.pick(&[None, Some(u32::MAX)]);
                }
                _ => {
                    s.order.push(tgsi::ItemKind::Instruction);
                    s.processor = rng.pick(tgsi::Processor::ALL);
                }
            }
        }
        let found = diags(&s);
        // Whatever the encoder refuses, the validator rejects.
        if let Err(e) = tgsi::tokens::encode(&s) {
            assert!(
                tgsi::validate::has_errors(&found),
                "encode refuses ({e}) a shader the validator accepts:\n{}",
                listing(&found)
            );
        }
    }
}

#[test]
fn every_code_is_listed_with_its_severity_in_the_module_docs() {
    let docs: Vec<&str> = include_str!("../src/validate/mod.rs")
        .lines()
        .filter(|l| l.starts_with("//!"))
        .collect();
    let docs = docs.join("\n");
    let missing: Vec<String> = Code::ALL
        .iter()
        .map(|c| {
            let letter = match c.severity() {
                Severity::Error => 'E',
                Severity::Warning => 'W',
            };
            format!("`{}` {letter}", c.name())
        })
        .filter(|entry| !docs.contains(entry.as_str()))
        .collect();
    assert!(missing.is_empty(), "not in the rule list: {missing:?}");
}
