//! Vertex runs: transforms by a constant matrix, system values, partial waves, divergent
//! control flow per vertex and the instruction budget.

use tgsi::Semantic;
use tgsi_exec::{
    run_vertices, ExecError, OutputDecl, Program, VertexInput, VertexOptions, VertexOutputs,
};

fn compile(text: &str) -> Program {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    Program::compile(&shader).unwrap_or_else(|e| panic!("compile: {e}\n{text}"))
}

fn bits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

fn floats(v: [u32; 4]) -> [f32; 4] {
    v.map(f32::from_bits)
}

fn run(text: &str, opts: &VertexOptions) -> VertexOutputs {
    run_vertices(&compile(text), opts).unwrap_or_else(|e| panic!("run: {e}"))
}

const TRANSFORM: &str = "VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0..3]
DCL TEMP[0]
  0: MUL TEMP[0], IN[0].xxxx, CONST[0]
  1: MAD TEMP[0], IN[0].yyyy, CONST[1], TEMP[0]
  2: MAD TEMP[0], IN[0].zzzz, CONST[2], TEMP[0]
  3: MAD OUT[0], IN[0].wwww, CONST[3], TEMP[0]
  4: MOV OUT[1], IN[1]
  5: END
";

#[test]
fn transform_by_constant_matrix() {
    // Columns of a matrix that scales x by 2, y by 3, z by 4 and translates by (10, 20, 30).
    let columns = [
        [2.0, 0.0, 0.0, 0.0],
        [0.0, 3.0, 0.0, 0.0],
        [0.0, 0.0, 4.0, 0.0],
        [10.0, 20.0, 30.0, 1.0],
    ];
    let positions = [
        [1.0, 2.0, 3.0, 1.0],
        [-1.0, 0.5, 0.25, 1.0],
        [0.0, 0.0, 0.0, 2.0],
    ];
    let opts = VertexOptions {
        count: 3,
        inputs: vec![
            VertexInput::PerVertex(positions.iter().map(|&p| bits(p)).collect()),
            VertexInput::Constant(bits([0.5, 0.25, 0.0, 1.0])),
        ],
        constants: vec![columns.iter().map(|&c| bits(c)).collect()],
        ..VertexOptions::default()
    };
    let out = run(TRANSFORM, &opts);
    assert_eq!(
        out.decls,
        [
            OutputDecl {
                index: 0,
                semantic: Some((Semantic::Position, 0))
            },
            OutputDecl {
                index: 1,
                semantic: Some((Semantic::Generic, 0))
            },
        ]
    );
    let expected = [
        [12.0, 26.0, 42.0, 1.0],
        [8.0, 21.5, 31.0, 1.0],
        [20.0, 40.0, 60.0, 2.0],
    ];
    assert_eq!(out.values.len(), 3);
    for (v, e) in out.values.iter().zip(expected) {
        assert_eq!(floats(v[0]), e);
        assert_eq!(floats(v[1]), [0.5, 0.25, 0.0, 1.0]);
    }
    assert_eq!(out.decls[1].to_string(), "OUT[1] GENERIC[0]");
    let bytes = out.to_le_bytes();
    assert_eq!(bytes.len(), 3 * 2 * 16);
    assert_eq!(bytes[16..20], 0.5f32.to_le_bytes());
}

#[test]
fn system_values() {
    let text = "VERT
DCL SV[0], VERTEXID
DCL SV[1], INSTANCEID
DCL SV[2], BASEVERTEX
DCL SV[3], VERTEXID_NOBASE
DCL OUT[0], GENERIC[0]
DCL OUT[1]
  0: MOV OUT[0].x, SV[0].xxxx
  1: MOV OUT[0].y, SV[1].xxxx
  2: MOV OUT[0].z, SV[2].xxxx
  3: MOV OUT[0].w, SV[3].xxxx
  4: MOV OUT[1], SV[0]
  5: END
";
    let opts = VertexOptions {
        count: 20,
        instance_id: 7,
        base_vertex: -3,
        ..VertexOptions::default()
    };
    let out = run(text, &opts);
    assert_eq!(out.decls[1].to_string(), "OUT[1]");
    for (i, v) in out.values.iter().enumerate() {
        let i = i as i32;
        assert_eq!(v[0], [(i - 3) as u32, 7, -3i32 as u32, i as u32]);
        assert_eq!(v[1], [(i - 3) as u32, 0, 0, 0], "only x is set");
    }
}

#[test]
fn partial_wave() {
    // One full wave and one with 5 active lanes; each vertex sees its own input and
    // exactly that many results come back.
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}
  0: ADD OUT[0], IN[0], IMM[0].xxxx
  1: END
";
    let count = tgsi_exec::WAVE + 5;
    let opts = VertexOptions {
        count,
        inputs: vec![VertexInput::PerVertex(
            (0..count).map(|i| bits([i as f32; 4])).collect(),
        )],
        ..VertexOptions::default()
    };
    let out = run(text, &opts);
    assert_eq!(out.values.len(), count);
    for (i, v) in out.values.iter().enumerate() {
        assert_eq!(floats(v[0]), [i as f32 + 1.0; 4]);
    }
    // Fewer per-vertex values than vertices is an error.
    let short = VertexOptions {
        count: count + 1,
        ..opts.clone()
    };
    let err = run_vertices(&compile(text), &short).unwrap_err();
    let want = format!("IN[0] has {count} vertices");
    assert!(err.to_string().contains(&want), "{err}");
    // Zero vertices: nothing to do.
    let none = VertexOptions {
        count: 0,
        inputs: Vec::new(),
        ..opts
    };
    assert!(run(text, &none).values.is_empty());
}

#[test]
fn inactive_lanes_do_not_loop() {
    // Loop until the counter reaches IN[0].x; a zero input would loop forever, so the run
    // only finishes because lanes past the count stay outside the execution mask.
    let text = "VERT
DCL IN[0]
DCL OUT[0], GENERIC[0]
DCL TEMP[0..1]
IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}
  0: MOV TEMP[0].x, IMM[0].yyyy
  1: BGNLOOP
  2:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
  3:   SEQ TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx
  4:   IF TEMP[1].xxxx
  5:     BRK
  6:   ENDIF
  7: ENDLOOP
  8: MOV OUT[0], TEMP[0].xxxx
  9: END
";
    let opts = VertexOptions {
        count: 3,
        inputs: vec![VertexInput::PerVertex(vec![
            bits([3.0; 4]),
            bits([1.0; 4]),
            bits([5.0; 4]),
        ])],
        budget: 10_000,
        ..VertexOptions::default()
    };
    let out = run(text, &opts);
    let xs: Vec<f32> = out.values.iter().map(|v| floats(v[0])[0]).collect();
    assert_eq!(xs, [3.0, 1.0, 5.0]);
}

#[test]
fn divergent_control_flow() {
    // Even vertex ids take one branch and odd ones the other; a switch on id % 3 on top.
    let text = "VERT
DCL SV[0], VERTEXID
DCL OUT[0], GENERIC[0]
DCL TEMP[0]
IMM[0] UINT32 {1, 3, 0, 0}
IMM[1] FLT32 {10.0, 20.0, 100.0, 200.0}
  0: AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: UIF TEMP[0].xxxx
  2:   MOV OUT[0].x, IMM[1].yyyy
  3: ELSE
  4:   MOV OUT[0].x, IMM[1].xxxx
  5: ENDIF
  6: UMOD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy
  7: SWITCH TEMP[0].yyyy
  8:   CASE IMM[0].zzzz
  9:     MOV OUT[0].y, IMM[1].zzzz
 10:     BRK
 11:   CASE IMM[0].xxxx
 12:     MOV OUT[0].y, IMM[1].wwww
 13:     BRK
 14:   DEFAULT
 15:     MOV OUT[0].y, IMM[1].xxxx
 16:     BRK
 17: ENDSWITCH
 18: END
";
    let opts = VertexOptions {
        count: 7,
        ..VertexOptions::default()
    };
    let out = run(text, &opts);
    for (i, v) in out.values.iter().enumerate() {
        let [x, y, ..] = floats(v[0]);
        assert_eq!(x, if i % 2 == 1 { 20.0 } else { 10.0 }, "vertex {i}");
        let want = [100.0, 200.0, 10.0][i % 3];
        assert_eq!(y, want, "vertex {i}");
    }
}

#[test]
fn budget_and_setup_errors() {
    let endless = "VERT
DCL OUT[0], POSITION
  0: BGNLOOP
  1: ENDLOOP
  2: END
";
    let opts = VertexOptions {
        count: 1,
        budget: 1000,
        ..VertexOptions::default()
    };
    let err = run_vertices(&compile(endless), &opts).unwrap_err();
    assert!(
        matches!(err, ExecError::Budget { budget: 1000, .. }),
        "{err}"
    );
    let frag = compile("FRAG\nDCL OUT[0], COLOR\n  0: END\n");
    let err = run_vertices(&frag, &opts).unwrap_err();
    assert!(err.to_string().contains("vertex shader"), "{err}");
    let extra = VertexOptions {
        inputs: vec![VertexInput::Constant([0; 4])],
        ..opts
    };
    let err = run_vertices(&compile(endless), &extra).unwrap_err();
    assert!(err.to_string().contains("IN[0] is given"), "{err}");
}
