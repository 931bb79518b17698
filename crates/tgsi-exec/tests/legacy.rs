//! The legacy control-flow and address opcodes of the older spec versions (BGNFOR/ENDFOR,
//! REP/ENDREP, BRA, CALLNZ, PUSHA/POPA, ARA), CLOCK and INTERP_OFFSET, each with divergent
//! lanes; IFC, whose semantics no spec version defines, is rejected with the reason.

mod common;
use common::{compile, run_wave};
use tgsi_exec::machine::{Reg, MAX_ADDRESS_STACK};
use tgsi_exec::{render_fragment, Env, ExecError, Machine, Program, RenderOptions};

/// IN[0] = (lane as float, lane as int, 0, 0) in lane l.
fn lane_ids() -> Reg<4> {
    [
        [0.0f32, 1.0, 2.0, 3.0].map(f32::to_bits),
        [0, 1, 2, 3],
        [0; 4],
        [0; 4],
    ]
}

/// The shader text around `body`: one quad, IN[0] = [`lane_ids`].
fn shader(body: &str) -> String {
    format!(
        "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\nDCL ADDR[0..1]\n{body}"
    )
}

/// Run `body`; OUT[0] as floats, `[channel][lane]`.
fn run(body: &str) -> Result<[[f32; 4]; 4], ExecError> {
    let (out, _) = run_wave::<4>(&shader(body), &[lane_ids()], &[])?;
    Ok(out[0].map(|ch| ch.map(f32::from_bits)))
}

/// OUT[0].x per lane.
fn run_x(body: &str) -> [f32; 4] {
    run(body).unwrap()[0]
}

#[test]
fn bgnfor_counts_per_lane_and_steps_the_index() {
    // Lane l: count = l + 0.5 → floor = l iterations; index starts at 1.7 → 1, step 2.
    // OUT.x sums the index over the iterations, OUT.y = iterations, OUT.z = final index.
    let got = run("IMM[0] FLT32 {1.7, 0.5, 2.0, 1.0}\n\
           0: MOV TEMP[1], IMM[0]\n\
           1: ADD TEMP[1].y, IMM[0].yyyy, IN[0].xxxx\n\
           2: BGNFOR TEMP[0].xyz, TEMP[1]\n\
           3:   ADD OUT[0].x, OUT[0].xxxx, TEMP[0].xxxx\n\
           4:   ADD OUT[0].y, OUT[0].yyyy, IMM[0].wwww\n\
           5: ENDFOR TEMP[0]\n\
           6: MOV OUT[0].z, TEMP[0].xxxx\n\
           7: MOV OUT[0].w, TEMP[0].yyyy\n\
           8: END\n")
    .unwrap();
    // Lane 0 never enters: TEMP[0] keeps BGNFOR's values (1, 0, 2).
    assert_eq!(got[0], [0.0, 1.0, 1.0 + 3.0, 1.0 + 3.0 + 5.0]);
    assert_eq!(got[1], [0.0, 1.0, 2.0, 3.0]);
    assert_eq!(got[2], [1.0, 3.0, 5.0, 7.0]);
    assert_eq!(got[3], [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn bgnfor_with_brk_and_cont() {
    // Five iterations for every lane; lane l breaks when the index reaches l + 1 (lane 3
    // never does), and iteration 1 is skipped by CONT.
    let got = run_x(
        "IMM[0] FLT32 {0.0, 5.0, 1.0, 1.0}\n\
           0: BGNFOR TEMP[0].xyz, IMM[0]\n\
           1:   SEQ TEMP[1].x, TEMP[0].xxxx, IMM[0].zzzz\n\
           2:   IF TEMP[1].xxxx\n\
           3:     CONT\n\
           4:   ENDIF\n\
           5:   ADD OUT[0].x, OUT[0].xxxx, IMM[0].wwww\n\
           6:   SGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx\n\
           7:   IF TEMP[1].xxxx\n\
           8:     BRK\n\
           9:   ENDIF\n\
          10: ENDFOR TEMP[0]\n\
          11: END\n",
    );
    // Lane 0: index 0 ≥ 0 → counted once, breaks. Lane 1: 0 counted, 1 skipped (CONT),
    // 2 counted ≥ 1 breaks → 2. Lane 2: 0, (1), 2 → breaks: 2. Lane 3: 0, (1), 2, 3 → 3.
    assert_eq!(got, [1.0, 2.0, 2.0, 3.0]);
}

#[test]
fn rep_runs_its_body_src_x_times_per_lane() {
    let got = run("IMM[0] FLT32 {1.0, -2.0, 2.9, 0.0}\n\
           0: ADD TEMP[0].x, IN[0].xxxx, IMM[0].zzzz\n\
           1: REP TEMP[0].xxxx\n\
           2:   ADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx\n\
           3:   REP IMM[0].zzzz\n\
           4:     ADD OUT[0].y, OUT[0].yyyy, IMM[0].xxxx\n\
           5:   ENDREP\n\
           6: ENDREP\n\
           7: REP IMM[0].yyyy\n\
           8:   MOV OUT[0].z, IMM[0].xxxx\n\
           9: ENDREP\n\
          10: END\n")
    .unwrap();
    // 2.9 + lane truncates to 2, 3, 4, 5 iterations; the inner REP runs 2 each time.
    assert_eq!(got[0], [2.0, 3.0, 4.0, 5.0]);
    assert_eq!(got[1], [4.0, 6.0, 8.0, 10.0]);
    assert_eq!(got[2], [0.0; 4], "a negative count runs no iteration");
}

#[test]
fn rep_with_brk_and_nan_count() {
    let got = run_x(
        "IMM[0] FLT32 {1.0, 100.0, 0.0, 0.0}\n\
         IMM[1] UINT32 {2143289344, 0, 0, 0}\n\
           0: REP IMM[0].yyyy\n\
           1:   SGE TEMP[1].x, OUT[0].xxxx, IN[0].xxxx\n\
           2:   IF TEMP[1].xxxx\n\
           3:     BRK\n\
           4:   ENDIF\n\
           5:   ADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx\n\
           6: ENDREP\n\
           7: REP IMM[1].xxxx\n\
           8:   MOV OUT[0].x, IMM[0].yyyy\n\
           9: ENDREP\n\
          10: END\n",
    );
    assert_eq!(got, [0.0, 1.0, 2.0, 3.0]);
}

#[test]
fn bra_jumps_within_a_block() {
    // Forward over two instructions, and a backward BRA forming a loop the budget ends.
    let got = run_x(
        "IMM[0] FLT32 {1.0, 2.0, 4.0, 0.0}\n\
           0: MOV OUT[0].x, IMM[0].xxxx\n\
           1: IF IN[0].xxxx\n\
           2:   BRA :5\n\
           3:   ADD OUT[0].x, OUT[0].xxxx, IMM[0].yyyy\n\
           4:   ADD OUT[0].x, OUT[0].xxxx, IMM[0].yyyy\n\
           5:   ADD OUT[0].x, OUT[0].xxxx, IMM[0].zzzz\n\
           6: ENDIF\n\
           7: END\n",
    );
    assert_eq!(got, [1.0, 5.0, 5.0, 5.0]);
    let endless = run("  0: NOP\n  1: BRA :0\n  2: END\n");
    assert!(
        matches!(endless, Err(ExecError::Budget { ref at, .. }) if at.contains("instruction")),
        "{endless:?}"
    );
}

#[test]
fn bra_out_of_its_block_is_rejected() {
    for (body, target) in [
        (
            "  0: IF IN[0].xxxx\n  1:   BRA :4\n  2: ENDIF\n  3: NOP\n  4: END\n",
            4,
        ),
        (
            "  0: BRA :2\n  1: BGNLOOP\n  2:   BRK\n  3: ENDLOOP\n  4: END\n",
            2,
        ),
        ("  0: BGNLOOP\n  1:   BRA :0\n  2: ENDLOOP\n  3: END\n", 0),
        (
            "  0: IF IN[0].xxxx\n  1:   BRA :3\n  2: ELSE\n  3:   NOP\n  4: ENDIF\n  5: END\n",
            3,
        ),
        (
            "  0: BRA :3\n  1: END\n  2: BGNSUB\n  3:   RET\n  4: ENDSUB\n",
            3,
        ),
    ] {
        let shader = tgsi::parse(&shader(body)).unwrap();
        let err = Program::compile(&shader).unwrap_err();
        assert!(
            err.message
                .contains(&format!("BRA target {target} is not in the same block")),
            "{body}: {err}"
        );
    }
    let shader = tgsi::parse(&shader("  0: BRA :9\n  1: END\n")).unwrap();
    let err = Program::compile(&shader).unwrap_err();
    assert!(err.message.contains("past the end"), "{err}");
}

#[test]
fn callnz_calls_for_the_lanes_whose_condition_is_not_zero() {
    // The subroutine adds 10 and returns early for lane 3; lane 0 (x = 0.0) does not call.
    let got = run_x(
        "IMM[0] FLT32 {10.0, 3.0, 100.0, 0.0}\n\
           0: MOV OUT[0].x, IN[0].xxxx\n\
           1: CALLNZ IN[0].xxxx :4\n\
           2: ADD OUT[0].x, OUT[0].xxxx, IMM[0].zzzz\n\
           3: END\n\
           4: BGNSUB\n\
           5:   ADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx\n\
           6:   SEQ TEMP[0].x, IN[0].xxxx, IMM[0].yyyy\n\
           7:   IF TEMP[0].xxxx\n\
           8:     RET\n\
           9:   ENDIF\n\
          10:   ADD OUT[0].x, OUT[0].xxxx, IMM[0].xxxx\n\
          11: ENDSUB\n",
    );
    assert_eq!(got, [100.0, 121.0, 122.0, 113.0]);
    // -0.0 is zero too, and no lane calling skips the call entirely.
    let got = run_x(
        "IMM[0] FLT32 {-0.0, 1.0, 0.0, 0.0}\n\
           0: CALLNZ IMM[0].xxxx :3\n\
           1: MOV OUT[0].x, IMM[0].yyyy\n\
           2: END\n\
           3: BGNSUB\n\
           4:   MOV OUT[0].x, IMM[0].zzzz\n\
           5:   KILL\n\
           6: ENDSUB\n",
    );
    assert_eq!(got, [1.0; 4]);
}

#[test]
fn pusha_popa_are_per_lane_stacks() {
    // Every lane pushes (l, 2l, 3l, 4l); odd lanes also push (7, 7, 7, 7) and pop it into
    // ADDR[1]; then everyone pops into ADDR[0], whose channels are summed into OUT.
    let got = run("IMM[0] INT32 {1, 2, 3, 4}\n\
         IMM[1] INT32 {7, 7, 7, 7}\n\
           0: UMUL TEMP[0], IN[0].yyyy, IMM[0]\n\
           1: UARL ADDR[0], TEMP[0]\n\
           2: PUSHA ADDR[0]\n\
           3: UARL ADDR[0], IMM[1]\n\
           4: AND TEMP[1].x, IN[0].yyyy, IMM[0].xxxx\n\
           5: UIF TEMP[1].xxxx\n\
           6:   PUSHA ADDR[0]\n\
           7:   POPA ADDR[1]\n\
           8:   U2F OUT[0].w, ADDR[1].xxxx\n\
           9: ENDIF\n\
          10: POPA ADDR[0].xyz\n\
          11: U2F OUT[0].xyz, ADDR[0].xyzz\n\
          12: END\n")
    .unwrap();
    assert_eq!(got[0], [0.0, 1.0, 2.0, 3.0]);
    assert_eq!(got[1], [0.0, 2.0, 4.0, 6.0]);
    assert_eq!(got[2], [0.0, 3.0, 6.0, 9.0]);
    assert_eq!(got[3], [0.0, 7.0, 0.0, 7.0]);
}

#[test]
fn address_stack_overflow_and_underflow_are_errors() {
    let err = run("  0: POPA ADDR[0]\n  1: END\n").unwrap_err();
    assert_eq!(
        err,
        ExecError::AddressStack {
            at: "POPA (instruction 0)".into(),
            overflow: false
        }
    );
    assert!(err.to_string().contains("address stack empty"), "{err}");
    let err = run("  0: BGNLOOP\n  1:   PUSHA ADDR[0]\n  2: ENDLOOP\n  3: END\n").unwrap_err();
    assert!(
        matches!(err, ExecError::AddressStack { overflow: true, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().contains(&MAX_ADDRESS_STACK.to_string()),
        "{err}"
    );
}

#[test]
fn ara_adds_the_halves_of_an_address_vector() {
    let text = shader(
        "IMM[0] INT32 {1, -2, 30, -40}\n\
           0: UARL ADDR[0], IMM[0]\n\
           1: ARA ADDR[1], ADDR[0]\n\
           2: MOV OUT[0], ADDR[1]\n\
           3: END\n",
    );
    let (out, _) = run_wave::<4>(&text, &[lane_ids()], &[]).unwrap();
    let want = [31, -42, 31, -42].map(|x: i32| [x as u32; 4]);
    assert_eq!(out[0], want);
}

#[test]
fn ifc_is_rejected_with_the_reason() {
    let shader = tgsi::parse(&shader(
        "  0: IFC IN[0].xxxx, IN[0].yyyy\n  1: ENDIF\n  2: END\n",
    ))
    .unwrap();
    let err = Program::compile(&shader).unwrap_err();
    assert_eq!(err.instruction, Some(0));
    assert!(err.message.contains("IFC has no semantics"), "{err}");
}

#[test]
fn clock_counts_executed_instructions() {
    let text = shader(
        "  0: CLOCK TEMP[0].xy\n\
           1: NOP\n\
           2: CLOCK TEMP[1]\n\
           3: MOV OUT[0].xy, TEMP[0].xyxy\n\
           4: MOV OUT[0].zw, TEMP[1].xyxy\n\
           5: END\n",
    );
    let (out, _) = run_wave::<4>(&text, &[lane_ids()], &[]).unwrap();
    assert_eq!(out[0], [[1; 4], [0; 4], [3; 4], [0; 4]]);
}

#[test]
fn interp_offset_moves_along_the_input_gradients() {
    // IN[1] has gradients d/dx = (2, 0, 1, 0), d/dy = (0, 4, 1, 0). The offset of result
    // channel c is taken from lane c of the quad (softpipe's rule).
    let text = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL IN[1], GENERIC[1], LINEAR\n\
                DCL OUT[0], COLOR\n\
                  0: INTERP_OFFSET OUT[0], IN[1], IN[0]\n\
                  1: END\n";
    let program = compile(text);
    let mut m = Machine::<4>::new(&program);
    let offsets: [[f32; 2]; 4] = [[0.5, 0.25], [-0.5, 0.0], [0.0, -0.25], [1.0, 1.0]];
    m.inputs_mut()[0] = [
        offsets.map(|o| o[0].to_bits()),
        offsets.map(|o| o[1].to_bits()),
        [0; 4],
        [0; 4],
    ];
    m.inputs_mut()[1] = [[10.0f32, 11.0, 12.0, 13.0].map(f32::to_bits); 4];
    m.input_gradients_mut()[1] = [[2.0, 0.0, 1.0, 0.0], [0.0, 4.0, 1.0, 0.0]];
    let env = Env {
        resources: &tgsi_exec::resource::NO_RESOURCES,
        consts: &[],
        budget: 1000,
        helpers: 0,
    };
    m.run(&program, &env).unwrap();
    let got = m.outputs()[0].map(|ch| ch.map(f32::from_bits));
    let base = [10.0, 11.0, 12.0, 13.0];
    // x: lane 0's offset (0.5, 0.25) → +1; y: lane 1's (−0.5, 0) → +0; z: lane 2's
    // (0, −0.25) → −0.25; w: gradient 0.
    assert_eq!(got[0], base.map(|v| v + 1.0));
    assert_eq!(got[1], base);
    assert_eq!(got[2], base.map(|v| v - 0.25));
    assert_eq!(got[3], base);
}

#[test]
fn interp_offset_of_the_fragment_position_when_rendering() {
    // x moves right by ofs.x; with LOWER_LEFT, y grows upwards, so a memory-row step of
    // ofs.y moves y by −ofs.y. Constant inputs do not move.
    for (origin, dy) in [("UPPER_LEFT", 0.25f32), ("LOWER_LEFT", -0.25)] {
        let text = format!(
            "FRAG\nPROPERTY FS_COORD_ORIGIN {origin}\n\
             DCL IN[0], POSITION, LINEAR\nDCL IN[1], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n\
             DCL TEMP[0]\nIMM[0] FLT32 {{0.5, 0.25, 0.0, 0.0}}\n\
               0: INTERP_OFFSET TEMP[0], IN[0], IMM[0]\n\
               1: SUB OUT[0].xy, TEMP[0].xyyy, IN[0].xyyy\n\
               2: INTERP_OFFSET TEMP[0], IN[1], IMM[0]\n\
               3: MOV OUT[0].zw, TEMP[0].xxxy\n\
               4: END\n"
        );
        let program = compile(&text);
        let opts = RenderOptions {
            width: 3,
            height: 3,
            inputs: vec![[0; 4], [7.0f32, 8.0, 0.0, 0.0].map(f32::to_bits)],
            ..Default::default()
        };
        let image = render_fragment(&program, &opts).unwrap();
        for p in &image.pixels {
            assert_eq!(*p, [0.5, dy, 7.0, 8.0], "{origin}");
        }
    }
}
