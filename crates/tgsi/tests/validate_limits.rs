//! The validator against Gallium's fixed limits and the token format's field widths: every
//! limit at its boundary (and movable through its `Limits` field), every field that can
//! overflow refused by both the validator and `tokens::encode`, and the structural rules
//! (recursion, repeated declarations, END) at scale and in their Mesa-compatible corners.

use tgsi::tokens;
use tgsi::validate::{has_errors, validate, Code, Diagnostic};
use tgsi::{Format, Limits, Shader};

fn parse(text: &str) -> Shader {
    tgsi::parse(text).unwrap_or_else(|e| panic!("test shader does not parse: {e}\n{text}"))
}

fn errors(shader: &Shader, limits: &Limits) -> Vec<Code> {
    validate(shader, limits)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect()
}

fn listing(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| format!("  [{}] {d}", d.code.name()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One Gallium limit: a shader at the limit, the same one step beyond, the code the step
/// gets, and how to raise the limit so that the step is accepted again.
struct Boundary {
    at: &'static str,
    beyond: &'static str,
    code: Code,
    raise: fn(&mut Limits),
}

const GS: &str = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n";

fn boundaries() -> Vec<Boundary> {
    use Code::{PropertyBeyondLimit as Prop, SlotBeyondLimit as Slot, StreamBeyondLimit as Stream};
    vec![
        Boundary {
            at: "FRAG\nDCL IN[79], GENERIC[0], PERSPECTIVE\n  0: END\n",
            beyond: "FRAG\nDCL IN[80], GENERIC[0], PERSPECTIVE\n  0: END\n",
            code: Slot,
            raise: |l| l.max_shader_inputs = 81,
        },
        Boundary {
            at: "VERT\nDCL IN[0..31]\n  0: END\n",
            beyond: "VERT\nDCL IN[0..32]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_vertex_attribs = 33,
        },
        Boundary {
            at: "TESS_EVAL\nDCL OUT[79], GENERIC[0]\n  0: END\n",
            beyond: "TESS_EVAL\nDCL OUT[80], GENERIC[0]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_shader_outputs = 81,
        },
        Boundary {
            at: "FRAG\nDCL SAMP[31]\n  0: END\n",
            beyond: "FRAG\nDCL SAMP[30..32]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_samplers = 33,
        },
        Boundary {
            at: "FRAG\nDCL SVIEW[127], 2D, FLOAT\n  0: END\n",
            beyond: "FRAG\nDCL SVIEW[128], 2D, FLOAT\n  0: END\n",
            code: Slot,
            raise: |l| l.max_sampler_views = 129,
        },
        Boundary {
            at: "COMP\nDCL IMAGE[63], 2D, PIPE_FORMAT_R32_UINT\n  0: END\n",
            beyond: "COMP\nDCL IMAGE[64], 2D, PIPE_FORMAT_R32_UINT\n  0: END\n",
            code: Slot,
            raise: |l| l.max_shader_images = 65,
        },
        Boundary {
            at: "COMP\nDCL BUFFER[31]\n  0: END\n",
            beyond: "COMP\nDCL BUFFER[32]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_shader_buffers = 33,
        },
        Boundary {
            at: "FRAG\nDCL CONST[31][0..3]\n  0: END\n",
            beyond: "FRAG\nDCL CONST[32][0..3]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_constant_buffers = 33,
        },
        Boundary {
            at: "FRAG\nDCL CONSTBUF[31]\n  0: END\n",
            beyond: "FRAG\nDCL CONSTBUF[32]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_constant_buffers = 33,
        },
        Boundary {
            at: "COMP\nDCL HWATOMIC[31][0]\n  0: END\n",
            beyond: "COMP\nDCL HWATOMIC[32][0]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_hw_atomic_buffers = 33,
        },
        Boundary {
            at: "FRAG\nDCL OUT[0], COLOR[7]\n  0: END\n",
            beyond: "FRAG\nDCL OUT[0..1], ARRAY(1), COLOR[7]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_color_buffers = 9,
        },
        Boundary {
            at: "VERT\nDCL OUT[0], POSITION\nDCL OUT[1], CLIPDIST[1]\n  0: END\n",
            beyond: "VERT\nDCL OUT[0], POSITION\nDCL OUT[1..2], ARRAY(1), CLIPDIST[1]\n  0: END\n",
            code: Slot,
            raise: |l| l.max_clip_cull_distances = 12,
        },
        Boundary {
            at: "VERT\nPROPERTY NUM_CLIPDIST_ENABLED 4\nPROPERTY NUM_CULLDIST_ENABLED 4\n  0: END\n",
            beyond: "VERT\nPROPERTY NUM_CLIPDIST_ENABLED 8\nPROPERTY NUM_CULLDIST_ENABLED 1\n  0: END\n",
            code: Prop,
            raise: |l| l.max_clip_cull_distances = 9,
        },
        Boundary {
            at: "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1024\n  0: END\n",
            beyond: "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1025\n  0: END\n",
            code: Prop,
            raise: |l| l.max_gs_output_vertices = 1025,
        },
        Boundary {
            at: "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\nPROPERTY GS_INVOCATIONS 32\n  0: END\n",
            beyond: "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\nPROPERTY GS_INVOCATIONS 33\n  0: END\n",
            code: Prop,
            raise: |l| l.max_gs_invocations = 33,
        },
        Boundary {
            at: "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 32\n  0: END\n",
            beyond: "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 33\n  0: END\n",
            code: Prop,
            raise: |l| l.max_patch_vertices = 33,
        },
        Boundary {
            at: "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1024\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n  0: END\n",
            beyond: "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 16\nPROPERTY CS_FIXED_BLOCK_HEIGHT 16\nPROPERTY CS_FIXED_BLOCK_DEPTH 5\n  0: END\n",
            code: Prop,
            raise: |l| l.max_block_threads = 1280,
        },
        Boundary {
            at: "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL OUT[0], POSITION, STREAM(3, 3, 3, 3)\nIMM[0] UINT32 {3, 4, 0, 0}\n  0: EMIT IMM[0].xxxx\n  1: END\n",
            beyond: "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL OUT[0], POSITION, STREAM(3, 3, 3, 3)\nIMM[0] UINT32 {3, 4, 0, 0}\n  0: EMIT IMM[0].yyyy\n  1: END\n",
            code: Stream,
            raise: |l| l.max_vertex_streams = 5,
        },
    ]
}

#[test]
fn every_gallium_limit_is_enforced_at_its_boundary_and_configurable() {
    for b in boundaries() {
        let at = parse(b.at);
        let found = validate(&at, &Limits::DEFAULT);
        assert!(!has_errors(&found), "{}\n{}", b.at, listing(&found));
        let beyond = parse(b.beyond);
        assert_eq!(errors(&beyond, &Limits::DEFAULT), [b.code], "{}", b.beyond);
        let mut raised = Limits::DEFAULT;
        (b.raise)(&mut raised);
        let found = validate(&beyond, &raised);
        assert!(!has_errors(&found), "{}\n{}", b.beyond, listing(&found));
    }
}

#[test]
fn compute_block_overflow_is_reported_not_wrapped() {
    // 2^16 × 2^16 × 1 is 0 in wrapping 32-bit arithmetic.
    let text = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 65536\nPROPERTY CS_FIXED_BLOCK_HEIGHT 65536\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n  0: END\n";
    let found = validate(&parse(text), &Limits::DEFAULT);
    let hit = found
        .iter()
        .find(|d| d.code == Code::PropertyBeyondLimit)
        .expect("overflowing block");
    assert!(hit.message.contains("overflows"), "{}", hit.message);
}

#[test]
fn dynamic_and_float_streams() {
    let gs = |stream: &str| {
        format!("{GS}PROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL TEMP[0]\nIMM[0] FLT32 {{1.0, 0.0, 0.0, 0.0}}\n  0: EMIT {stream}\n  1: END\n")
    };
    // A stream read from a register is only known at run time.
    assert_eq!(errors(&parse(&gs("TEMP[0].xxxx")), &Limits::DEFAULT), []);
    // tgsi_exec reads the stream as an integer: the bits of 1.0 are stream 0x3f800000.
    assert_eq!(
        errors(&parse(&gs("IMM[0].xxxx")), &Limits::DEFAULT),
        [Code::StreamBeyondLimit]
    );
    assert_eq!(errors(&parse(&gs("IMM[0].yyyy")), &Limits::DEFAULT), []);
}

/// A fragment shader exercising every field the validator checks for width.
const FIELDS: &str = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..3], ARRAY(1)\nDCL CONST[1][0..3]\nDCL ADDR[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nIMM[0] INT32 {0, 0, 0, 0}\n  0: UARL ADDR[0].x, IN[0].xxxx\n  1: MOV TEMP[ADDR[0].x](1), CONST[1][ADDR[0].x]\n  2: IF IN[0].xxxx :3\n  3: ENDIF\n  4: TEX OUT[0], IN[0], SAMP[0], 2D, IMM[0].xyz\n  5: STORE IMAGE[0], IMM[0], IN[0], 2D, COHERENT\n  6: END\n";

type Edit = fn(&mut Shader);

/// (what, edit that overflows a field, the code it gets)
fn overflows() -> Vec<(&'static str, Edit, Code)> {
    use Code::{BadSwizzle, BadUsageMask, BadWriteMask, FieldOverflow};
    vec![
        (
            "range end",
            |s| s.declarations[2].last = 70_000,
            FieldOverflow,
        ),
        (
            "range start",
            |s| s.declarations[2].first = 70_000,
            FieldOverflow,
        ),
        (
            "dimension",
            |s| s.declarations[3].dimension = Some(70_000),
            FieldOverflow,
        ),
        (
            "semantic index",
            |s| {
                if let Some(sem) = &mut s.declarations[0].semantic {
                    sem.index = 70_000;
                }
            },
            FieldOverflow,
        ),
        (
            "array id",
            |s| s.declarations[2].array_id = Some(1024),
            FieldOverflow,
        ),
        (
            "image format",
            |s| {
                if let Some(tgsi::ResourceDecl::Image { format, .. }) =
                    &mut s.declarations[7].resource
                {
                    *format = Format(1024);
                }
            },
            FieldOverflow,
        ),
        (
            "usage mask",
            |s| s.declarations[0].usage_mask.0 = 0x1f,
            BadUsageMask,
        ),
        (
            "label",
            |s| s.instructions[2].label = Some(1 << 24),
            FieldOverflow,
        ),
        (
            "memory qualifiers",
            |s| {
                if let Some(m) = &mut s.instructions[5].memory {
                    m.qualifiers = 16;
                }
            },
            FieldOverflow,
        ),
        (
            "memory format",
            |s| {
                if let Some(m) = &mut s.instructions[5].memory {
                    m.format = Format(1024);
                }
            },
            FieldOverflow,
        ),
        (
            "texel offset index",
            |s| {
                if let Some(t) = &mut s.instructions[4].texture {
                    t.offsets[0].index = 40_000;
                }
            },
            FieldOverflow,
        ),
        (
            "texel offset swizzle",
            |s| {
                if let Some(t) = &mut s.instructions[4].texture {
                    t.offsets[0].swizzle[2] = 4;
                }
            },
            BadSwizzle,
        ),
        (
            "dst index",
            |s| s.instructions[1].dst[0].reg.index = -40_000,
            FieldOverflow,
        ),
        (
            "src index",
            |s| s.instructions[0].src[0].reg.index = 40_000,
            FieldOverflow,
        ),
        (
            "dimension index",
            |s| {
                if let Some(d) = &mut s.instructions[1].src[0].reg.dimension {
                    d.index = 40_000;
                }
            },
            FieldOverflow,
        ),
        (
            "address register index",
            |s| {
                if let Some(i) = &mut s.instructions[1].src[0].reg.indirect {
                    i.index = 40_000;
                }
            },
            FieldOverflow,
        ),
        (
            "indirect array id",
            |s| {
                if let Some(i) = &mut s.instructions[1].dst[0].reg.indirect {
                    i.array_id = 1024;
                }
            },
            FieldOverflow,
        ),
        (
            "address component",
            |s| {
                if let Some(i) = &mut s.instructions[1].dst[0].reg.indirect {
                    i.component = 4;
                }
            },
            BadSwizzle,
        ),
        (
            "write mask",
            |s| s.instructions[1].dst[0].write_mask.0 = 0x10,
            BadWriteMask,
        ),
        (
            "swizzle",
            |s| s.instructions[0].src[0].swizzle.0[1] = 4,
            BadSwizzle,
        ),
    ]
}

#[test]
fn every_overflowing_field_is_an_error_and_encode_refuses_it() {
    let base = parse(FIELDS);
    let found = validate(&base, &Limits::DEFAULT);
    assert!(!has_errors(&found), "{}", listing(&found));
    assert!(tokens::encode(&base).is_ok());
    for (what, edit, code) in overflows() {
        let mut shader = base.clone();
        edit(&mut shader);
        assert_ne!(shader, base, "{what}: the edit changed nothing");
        let found = validate(&shader, &Limits::DEFAULT);
        assert!(
            found.iter().any(|d| d.code == code),
            "{what}: expected {}, got\n{}",
            code.name(),
            listing(&found)
        );
        let err = tokens::encode(&shader).expect_err(what);
        assert!(err.message.contains("does not fit"), "{what}: {err}");
    }
}

#[test]
fn body_size_beyond_24_bits_is_an_error_and_encode_refuses_it() {
    // 5 words per immediate: 3.4 M immediates need more than 2^24 - 1 body words.
    let mut shader = parse("FRAG\nIMM[0] UINT32 {0, 0, 0, 0}\n  0: END\n");
    let imm = shader.immediates[0];
    shader.immediates.resize(3_400_000, imm);
    shader.order.clear();
    let found = validate(&shader, &Limits::DEFAULT);
    let hit = found
        .iter()
        .find(|d| d.code == Code::FieldOverflow)
        .expect("body size overflow");
    assert!(hit.message.contains("BodySize"), "{}", hit.message);
    let err = tokens::encode(&shader).unwrap_err();
    assert!(err.message.contains("BodySize"), "{err}");
    shader.immediates.truncate(3_000_000);
    assert!(!has_errors(&validate(&shader, &Limits::DEFAULT)));
    assert_eq!(
        tokens::encode(&shader).unwrap().len(),
        2 + 5 * 3_000_000 + 1
    );
}

#[test]
fn the_full_16_bit_declaration_range_is_valid() {
    let shader = parse(
        "FRAG\nDCL TEMP[0..65535]\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[32767]\n  1: END\n",
    );
    assert_eq!(errors(&shader, &Limits::DEFAULT), []);
    let words = tokens::encode(&shader).unwrap();
    assert_eq!(words[3], 0xffff_0000);
    assert_eq!(tokens::decode(&words).unwrap().declarations[0].last, 65535);
    let err = tgsi::parse("FRAG\nDCL TEMP[0..65536]\n  0: END\n").unwrap_err();
    assert!(err.message.contains("limit of 65535"), "{}", err.message);
}

/// `count` subroutines after END; subroutine `i` calls those listed by `calls(i)`.
fn call_graph(count: usize, calls: impl Fn(usize) -> Vec<usize>) -> Shader {
    // Main: CAL to subroutine 0, END. Subroutine i starts at `start[i]`.
    let mut bodies = Vec::new();
    let mut start = Vec::new();
    let mut at = 2;
    for i in 0..count {
        start.push(at);
        let n = calls(i).len();
        bodies.push(calls(i));
        at += n + 3; // BGNSUB, calls, RET, ENDSUB
    }
    let mut text = String::from("FRAG\n  0: CAL :2\n  1: END\n");
    for body in &bodies {
        text.push_str("BGNSUB\n");
        for &callee in body {
            text.push_str(&format!("CAL :{}\n", start[callee]));
        }
        text.push_str("RET\nENDSUB\n");
    }
    parse(&text)
}

#[test]
fn recursion_is_found_through_long_chains_without_recursing() {
    let n = 20_000;
    let ring = call_graph(n, |i| vec![(i + 1) % n]);
    let start = std::time::Instant::now();
    let found = validate(&ring, &Limits::DEFAULT);
    assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
    let recursive: Vec<_> = found
        .iter()
        .filter(|d| d.code == Code::RecursiveCall)
        .collect();
    assert_eq!(recursive.len(), 1, "{}", listing(&found));
    // The chain without its closing call is valid.
    let chain = call_graph(n, |i| if i + 1 < n { vec![i + 1] } else { vec![] });
    assert_eq!(errors(&chain, &Limits::DEFAULT), []);
}

#[test]
fn shared_callees_are_not_recursion() {
    // 0 calls 1 and 2; both call 3; 3 calls nothing; 1 calls 3 twice.
    let diamond = call_graph(4, |i| match i {
        0 => vec![1, 2],
        1 => vec![3, 3],
        2 => vec![3],
        _ => vec![],
    });
    assert_eq!(errors(&diamond, &Limits::DEFAULT), []);
    // 3 calling 1 closes a cycle 1 → 3 → 1.
    let cycle = call_graph(4, |i| match i {
        0 => vec![1, 2],
        1 => vec![3],
        2 => vec![3],
        _ => vec![1],
    });
    assert_eq!(errors(&cycle, &Limits::DEFAULT), [Code::RecursiveCall]);
}

#[test]
fn repetitions_mesa_emits_are_warnings_and_real_overlaps_errors() {
    let codes = |text: &str| -> Vec<Code> {
        validate(&parse(text), &Limits::DEFAULT)
            .iter()
            .map(|d| d.code)
            .collect()
    };
    // Component packing: one declaration per group of channels.
    let packed = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1].xy, GENERIC[0]\nDCL OUT[1].zw, GENERIC[0]\n  0: MOV OUT[0], IN[0]\n  1: END\n";
    assert_eq!(codes(packed), [Code::RepeatedDeclaration]);
    // The same register with another semantic, or a temporary declared twice, is not.
    assert_eq!(
        codes(&packed.replace("OUT[1].zw, GENERIC[0]", "OUT[1].zw, GENERIC[1]")),
        [Code::OverlappingDeclaration]
    );
    let temps = "FRAG\nDCL TEMP[0..3]\nDCL TEMP[0..3]\n  0: END\n";
    assert_eq!(codes(temps), [Code::OverlappingDeclaration]);
    let arrays = "FRAG\nDCL TEMP[0..3], ARRAY(1)\nDCL TEMP[3..4], ARRAY(2)\n  0: END\n";
    assert_eq!(codes(arrays), [Code::OverlappingDeclaration]);
}
