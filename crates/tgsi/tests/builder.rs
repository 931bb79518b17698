//! The builder: shaders built in code print as the exact Mesa text, labels are filled in
//! like Mesa's producers do, and `finish` validates.

use tgsi::builder::Builder;
use tgsi::validate::Code;
use tgsi::{
    Interpolate, Opcode, Processor, PropertyName, ReturnType, Semantic, Shader, TextureTarget,
};

/// Statements of a shader with positions erased (built shaders have none).
fn without_spans(mut s: Shader) -> Shader {
    for i in &mut s.instructions {
        i.span = Default::default();
    }
    for d in &mut s.declarations {
        d.span = Default::default();
    }
    for p in &mut s.properties {
        p.span = Default::default();
    }
    for m in &mut s.immediates {
        m.span = Default::default();
    }
    s
}

/// `texref/trect/shader.tgsi` of the shared corpus, as Mesa's nir_to_tgsi printed it.
const TRECT: &str = "FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], RECT, FLOAT
DCL SVIEW[1], RECT, FLOAT
DCL CONST[0][0]
DCL TEMP[0..2]
IMM[0] UINT32 {1055286886, 1052770304, 3217031168, 1107296256}
IMM[1] UINT32 {3245867008, 3217031168, 0, 0}
  0: MAD TEMP[0].y, IN[0].yyxx, CONST[0][0].zzxx, CONST[0][0].wwxx
  1: MOV TEMP[0].x, IN[0].xyyy
  2: MAD TEMP[1].xy, TEMP[0].xyxx, IMM[0].xyxx, IMM[0].zzzz
  3: FSLT TEMP[2].x, IN[0].xxxx, IMM[0].wwww
  4: UIF TEMP[2].xxxx :6
  5:   TEX OUT[0], TEMP[1].xyxx, SAMP[0], RECT
  6: ELSE :9
  7:   MAD TEMP[0].xy, TEMP[0].xyxx, IMM[0].xyxx, IMM[1].xyxx
  8:   TEX OUT[0], TEMP[0].xyxx, SAMP[1], RECT
  9: ENDIF
 10: END
";

#[test]
fn built_shader_prints_exactly_like_mesa() {
    let mut b = Builder::new(Processor::Fragment);
    b.property(PropertyName::FsCoordOrigin, 1)
        .property(PropertyName::FsCoordPixelCenter, 0);
    let pos = b.decl_input(0, Semantic::Position, 0, Some(Interpolate::Linear));
    let out = b.decl_output(0, Semantic::Color, 0);
    let samp0 = b.decl_sampler(0);
    let samp1 = b.decl_sampler(1);
    b.decl_sampler_view(0, TextureTarget::Rect, ReturnType::Float);
    b.decl_sampler_view(1, TextureTarget::Rect, ReturnType::Float);
    let c = b.decl_const_buffer(0, 0..=0)[0];
    let t = b.decl_temps(3);
    let i0 = b.imm_u32([1055286886, 1052770304, 3217031168, 1107296256]);
    let i1 = b.imm_u32([3245867008, 3217031168, 0, 0]);
    b.mad(
        t[0].mask("y"),
        pos.swizzle("yyxx"),
        c.swizzle("zzxx"),
        c.swizzle("wwxx"),
    );
    b.mov(t[0].mask("x"), pos.swizzle("xy"));
    b.mad(
        t[1].mask("xy"),
        t[0].swizzle("xyxx"),
        i0.swizzle("xyxx"),
        i0.z(),
    );
    b.emit(Opcode::FSLT, &[t[2].mask("x")], &[pos.x(), i0.w()]);
    b.uif(t[2].x());
    b.tex(out, t[1].swizzle("xyxx"), samp0, TextureTarget::Rect);
    b.else_();
    b.mad(
        t[0].mask("xy"),
        t[0].swizzle("xyxx"),
        i0.swizzle("xyxx"),
        i1.swizzle("xyxx"),
    );
    b.tex(out, t[0].swizzle("xyxx"), samp1, TextureTarget::Rect);
    b.endif();
    b.end();
    let shader = b.finish().expect("valid shader");
    assert_eq!(tgsi::print(&shader), TRECT);
    assert_eq!(
        without_spans(shader),
        without_spans(tgsi::parse(TRECT).unwrap())
    );
}

#[test]
fn labels_are_filled_in_for_branches_loops_and_calls() {
    let mut b = Builder::new(Processor::Fragment);
    let input = b.decl_input(0, Semantic::Generic, 0, Some(Interpolate::Perspective));
    let out = b.decl_output(0, Semantic::Color, 0);
    let t = b.temp();
    let sub = b.new_sub();
    b.mov(t, input);
    b.bgnloop();
    b.if_(t.x());
    b.if_(t.y());
    b.brk();
    b.endif();
    b.else_();
    b.cal(sub);
    b.endif();
    b.add(t, t, input.neg().abs());
    b.endloop();
    b.mov(out, t);
    b.end();
    b.bgnsub(sub);
    b.mov(out, t.abs().neg());
    b.ret();
    b.endsub();
    let shader = b.finish().expect("valid shader");
    assert_eq!(
        tgsi::print(&shader),
        "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0]
  0: MOV TEMP[0], IN[0]
  1: BGNLOOP :10
  2:   IF TEMP[0].xxxx :6
  3:     IF TEMP[0].yyyy :5
  4:       BRK
  5:     ENDIF
  6:   ELSE :8
  7:     CAL :13
  8:   ENDIF
  9:   ADD TEMP[0], TEMP[0], -|IN[0]|
 10: ENDLOOP :1
 11: MOV OUT[0], TEMP[0]
 12: END
 13: BGNSUB
 14:   MOV OUT[0], -|TEMP[0]|
 15:   RET
 16: ENDSUB
"
    );
    assert!(tgsi::validate(&shader, &tgsi::Limits::DEFAULT).is_empty());
}

#[test]
fn finish_reports_validation_errors() {
    let mut b = Builder::new(Processor::Vertex);
    let out = b.decl_output(0, Semantic::Position, 0);
    b.mov(out, tgsi::builder::Reg::new(tgsi::File::Temporary, 3));
    b.if_(out.x());
    b.end();
    let err = b
        .finish()
        .expect_err("undeclared TEMP[3], and END inside an IF left open");
    let mut codes: Vec<Code> = err
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    codes.sort();
    assert_eq!(
        codes,
        [
            Code::UndeclaredRegister,
            Code::UnbalancedControlFlow,
            Code::EndInsideBlock
        ]
    );
    let text = err.to_string();
    assert!(
        text.contains("[undeclared-register] TEMP[3] is not declared"),
        "{text}"
    );
}

#[test]
fn emitted_tokens_match_the_parser() {
    let text = "COMP
DCL SV[0], THREAD_ID
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL BUFFER[0]
DCL TEMP[0..1]
  0: SAMPLE TEMP[0], SV[0], SVIEW[0], SAMP[0]
  1: LOAD TEMP[1], BUFFER[0], SV[0].xxxx
  2: UMAD TEMP[0].xz, SV[0].wzyx, -TEMP[1].xxyy, |SV[0].yyyy|
  3: END
";
    let mut b = Builder::new(Processor::Compute);
    let sv = b.decl_system_value(0, Semantic::ThreadId);
    let samp = b.decl_sampler(0);
    let view = b.decl_sampler_view(0, TextureTarget::Tex2D, ReturnType::Float);
    let buf = b.declare(tgsi::Declaration::new(tgsi::File::Buffer, 0, 0));
    let t = b.decl_temps(2);
    b.emit(Opcode::SAMPLE, &[t[0]], &[sv, view, samp]);
    b.emit(Opcode::LOAD, &[t[1]], &[buf, sv.x()]);
    b.emit(
        Opcode::UMAD,
        &[t[0].mask("zx")],
        &[sv.swizzle("abgr"), t[1].swizzle("xxy").neg(), sv.y().abs()],
    );
    b.end();
    let built = without_spans(b.finish_unchecked());
    assert_eq!(tgsi::print(&built), text);
    let parsed = without_spans(tgsi::parse(text).unwrap());
    assert_eq!(built.instructions, parsed.instructions);
    assert_eq!(built.declarations, parsed.declarations);
}

#[test]
fn indirect_array_access() {
    let mut b = Builder::new(Processor::Vertex);
    let input = b.decl_vertex_input(0);
    let out = b.decl_output(0, Semantic::Position, 0);
    let (array, id) = b.decl_temp_array(4);
    let addr = b.decl_address(0);
    b.emit(Opcode::UARL, &[addr.mask("x")], &[input.x()]);
    b.mov(out, array.at(1).indirect(addr, 0, id));
    b.end();
    let shader = b.finish().expect("valid shader");
    assert!(tgsi::print(&shader).ends_with(
        "DCL TEMP[0..3], ARRAY(1)\nDCL ADDR[0]\n  0: UARL ADDR[0].x, IN[0].xxxx\n  1: MOV OUT[0], TEMP[ADDR[0].x+1](1)\n  2: END\n"
    ));
}
