//! Geometry runs with hand-computed expectations: the output-vertex limit counted over all
//! streams, per-stream primitives and cuts, divergent emission per lane, direct and
//! indirect vertex indices, invocations with PRIMID and INVOCATIONID, and what is refused.

use tgsi_exec::geometry::{run_geometry, EmittedPrimitive, GeometryOptions, GeometryOutputs};
use tgsi_exec::{Env, ExecError, Machine, Program, VertexInput};

fn compile(text: &str) -> Program {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    Program::compile(&shader).unwrap_or_else(|e| panic!("compile: {e}\n{text}"))
}

fn compile_error(text: &str) -> String {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    match Program::compile(&shader) {
        Ok(_) => panic!("compiled:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn run(text: &str, opts: &GeometryOptions) -> GeometryOutputs {
    run_geometry(&compile(text), opts).unwrap_or_else(|e| panic!("run: {e}"))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Vertex counts of the primitives of `stream`.
fn lengths(out: &GeometryOutputs, stream: usize) -> Vec<u32> {
    out.streams[stream]
        .primitives
        .iter()
        .map(|p| p.vertices)
        .collect()
}

/// Output `slot` of every vertex of `stream`.
fn column(out: &GeometryOutputs, stream: usize, slot: usize) -> Vec<[u32; 4]> {
    let n: usize = lengths(out, stream).iter().map(|&n| n as usize).sum();
    (0..n).map(|k| out.vertex(stream, k)[slot]).collect()
}

fn header(input: &str, output: &str, max: u32) -> String {
    format!(
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE {input}\nPROPERTY GS_OUTPUT_PRIMITIVE {output}\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES {max}\nPROPERTY GS_INVOCATIONS 1\n"
    )
}

#[test]
fn max_vertices_counts_every_stream_of_an_invocation() {
    // Limit 3: two stream-0 vertices, then three on stream 1 (only one fits), then one more
    // on stream 0 (dropped). Every vertex records a counter in OUT[0].x.
    let text = header("POINTS", "POINTS", 3)
        + "DCL OUT[0], GENERIC[0]\nIMM[0] UINT32 {0, 1, 2, 3}\nIMM[1] UINT32 {4, 5, 6, 0}\n\
           MOV OUT[0], IMM[0].xxxx\nEMIT IMM[0].xxxx\nMOV OUT[0], IMM[0].yyyy\n\
           EMIT IMM[0].xxxx\nMOV OUT[0], IMM[0].zzzz\nEMIT IMM[0].yyyy\n\
           MOV OUT[0], IMM[0].wwww\nEMIT IMM[0].yyyy\nMOV OUT[0], IMM[1].xxxx\n\
           EMIT IMM[0].yyyy\nMOV OUT[0], IMM[1].yyyy\nEMIT IMM[0].xxxx\nEND\n";
    let out = run(
        &text,
        &GeometryOptions {
            count: 2,
            ..Default::default()
        },
    );
    // Per input primitive: stream 0 gets counters 0 and 1, stream 1 counter 2.
    assert_eq!(lengths(&out, 0), [2, 2]);
    assert_eq!(lengths(&out, 1), [1, 1]);
    let x = |s| column(&out, s, 0).iter().map(|v| v[0]).collect::<Vec<_>>();
    assert_eq!(x(0), [0, 1, 0, 1]);
    assert_eq!(x(1), [2, 2]);
}

#[test]
fn streams_cut_independently_and_all_close_at_the_end() {
    // Stream 0: 2 vertices, ENDPRIM, 1 vertex, then an empty ENDPRIM (yields nothing).
    // Stream 2: 3 vertices interleaved with the stream-0 ones and never cut explicitly: the
    // end of the invocation closes it. A stream number of 7 names no stream.
    let text = header("POINTS", "LINE_STRIP", 20)
        + "DCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\nDCL TEMP[0]\n\
           IMM[0] UINT32 {0, 2, 7, 1}\nIMM[1] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
           MOV OUT[1], IN[0][0]\nMOV TEMP[0], IMM[0].xxxx\n\
           MOV OUT[0].x, TEMP[0].xxxx\nEMIT IMM[0].xxxx\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n\
           MOV OUT[0].x, TEMP[0].xxxx\nEMIT IMM[0].yyyy\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n\
           MOV OUT[0].x, TEMP[0].xxxx\nEMIT IMM[0].xxxx\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n\
           ENDPRIM IMM[0].xxxx\nEMIT IMM[0].zzzz\nENDPRIM IMM[0].zzzz\n\
           MOV OUT[0].x, TEMP[0].xxxx\nEMIT IMM[0].yyyy\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n\
           MOV OUT[0].x, TEMP[0].xxxx\nEMIT IMM[0].xxxx\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n\
           ENDPRIM IMM[0].xxxx\nENDPRIM IMM[0].xxxx\n\
           MOV OUT[0].x, TEMP[0].xxxx\nEMIT IMM[0].yyyy\nEND\n";
    let out = run(
        &text,
        &GeometryOptions {
            count: 1,
            inputs: vec![VertexInput::PerVertex(vec![[f(9.0), 0, 0, 0]])],
            ..Default::default()
        },
    );
    assert_eq!(lengths(&out, 0), [2, 1]);
    assert_eq!(lengths(&out, 2), [3]);
    assert!(out.streams[1].primitives.is_empty() && out.streams[3].primitives.is_empty());
    let x = |s| column(&out, s, 0).iter().map(|v| v[0]).collect::<Vec<_>>();
    assert_eq!(x(0), [0, 2, 4]);
    assert_eq!(x(2), [1, 3, 5]);
    // Every vertex carries the input too; the primitives know where they start.
    assert!(column(&out, 2, 1).iter().all(|v| v[0] == f(9.0)));
    assert_eq!(
        out.streams[0].primitives[1],
        EmittedPrimitive {
            input: 0,
            invocation: 0,
            first: 2,
            vertices: 1
        }
    );
    assert_eq!(out.to_le_bytes(2).len(), 3 * 2 * 16);
    assert_eq!(out.primitive_lengths_le_bytes(0), [2, 0, 0, 0, 1, 0, 0, 0]);
}

#[test]
fn each_primitive_emits_its_own_count() {
    // Input x = how many points to emit (0 to 3); the loop exits per primitive.
    let text = header("POINTS", "POINTS", 8)
        + "DCL IN[][0], GENERIC[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..1]\n\
           IMM[0] UINT32 {0, 1, 0, 0}\n\
           F2U TEMP[0].x, IN[0][0].xxxx\nMOV TEMP[1].x, IMM[0].xxxx\nBGNLOOP\n\
           USGE TEMP[0].y, TEMP[1].xxxx, TEMP[0].xxxx\nUIF TEMP[0].yyyy\nBRK\nENDIF\n\
           MOV OUT[0], TEMP[1].xxxx\nEMIT IMM[0].xxxx\nUADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n\
           ENDLOOP\nEND\n";
    let counts = [2.0, 0.0, 3.0, 1.0];
    let out = run(
        &text,
        &GeometryOptions {
            count: 4,
            inputs: vec![VertexInput::PerVertex(
                counts.iter().map(|&c| [f(c), 0, 0, 0]).collect(),
            )],
            ..Default::default()
        },
    );
    // Points are one primitive per invocation (no ENDPRIM): lengths 2, 3, 1.
    assert_eq!(lengths(&out, 0), [2, 3, 1]);
    let inputs: Vec<u32> = out.streams[0].primitives.iter().map(|p| p.input).collect();
    assert_eq!(inputs, [0, 2, 3]);
    let x: Vec<u32> = column(&out, 0, 0).iter().map(|v| v[0]).collect();
    assert_eq!(x, [0, 1, 0, 1, 2, 0]);
}

#[test]
fn lanes_of_one_wave_emit_their_own_vertices() {
    // The machine keeps one record per lane: lane l emits l + 1 vertices on stream l % 2
    // and cuts after its first vertex when l is odd.
    let text = header("POINTS", "POINTS", 8)
        + "DCL IN[][0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..1]\n\
           IMM[0] UINT32 {0, 1, 2, 0}\n\
           MOV TEMP[0].x, IN[0][0].xxxx\nAND TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy\n\
           MOV TEMP[1].x, IMM[0].xxxx\nBGNLOOP\n\
           USLT TEMP[0].z, TEMP[0].xxxx, TEMP[1].xxxx\nUIF TEMP[0].zzzz\nBRK\nENDIF\n\
           MOV OUT[0], TEMP[1].xxxx\nEMIT TEMP[0].yyyy\n\
           UIF TEMP[0].yyyy\nUSEQ TEMP[0].w, TEMP[1].xxxx, IMM[0].xxxx\nUIF TEMP[0].wwww\n\
           ENDPRIM TEMP[0].yyyy\nENDIF\nENDIF\n\
           UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\nENDLOOP\nEND\n";
    let program = compile(&text);
    let mut m = Machine::<4>::new(&program);
    m.inputs_mut()[0][0] = [0, 1, 2, 3];
    let env = Env {
        consts: &[],
        budget: 1 << 20,
        helpers: 0,
        resources: &tgsi_exec::resource::NO_RESOURCES,
    };
    m.run(&program, &env).expect("run");
    for l in 0..4u32 {
        let e = m.emission(l as usize).expect("lane");
        assert_eq!(e.vertices, l + 1, "lane {l}");
        let s = &e.streams[(l % 2) as usize];
        let expected: Vec<u32> = if l % 2 == 1 { vec![1, l] } else { vec![l + 1] };
        assert_eq!(s.primitives, expected, "lane {l}");
        let x: Vec<u32> = s.values.iter().map(|v| v[0]).collect();
        assert_eq!(x, (0..=l).collect::<Vec<_>>(), "lane {l}");
    }
}

#[test]
fn emission_on_a_stream_beyond_the_fourth_is_ignored() {
    // The validator checks immediate streams; a stream read from a register (7 here, 1 in
    // lane 1) is known only now: EMIT and ENDPRIM on it do nothing, not even count.
    let text = header("POINTS", "POINTS", 8)
        + "DCL IN[][0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n\
           IMM[0] UINT32 {7, 1, 0, 0}\n\
           MOV TEMP[0].x, IMM[0].xxxx\nUSEQ TEMP[0].y, IN[0][0].xxxx, IMM[0].yyyy\n\
           UIF TEMP[0].yyyy\nMOV TEMP[0].x, IMM[0].yyyy\nENDIF\n\
           MOV OUT[0], IN[0][0]\nEMIT TEMP[0].xxxx\nENDPRIM TEMP[0].xxxx\nEND\n";
    let program = compile(&text);
    let mut m = Machine::<4>::new(&program);
    m.inputs_mut()[0][0] = [0, 1, 2, 3];
    let env = Env {
        consts: &[],
        budget: 1 << 20,
        helpers: 0,
        resources: &tgsi_exec::resource::NO_RESOURCES,
    };
    m.run(&program, &env).expect("run");
    for l in 0..4usize {
        let e = m.emission(l).expect("lane");
        let on_stream_1 = u32::from(l == 1);
        assert_eq!(e.vertices, on_stream_1, "lane {l}");
        assert!(e
            .streams
            .iter()
            .enumerate()
            .all(|(s, st)| { st.primitives == if s == 1 && l == 1 { vec![1] } else { vec![] } }));
    }
}

#[test]
fn vertex_indices_direct_indirect_and_out_of_range() {
    // Triangles: OUT[0] = IN[ADDR.x][1] for ADDR.x = 2, 1, 0, 3, -1, -2 (the last three
    // read 0),
    // OUT[1] = IN[1][0] (direct), OUT[2] = IN[0] (1-D: vertex 0).
    let text = header("TRIANGLES", "POINTS", 8)
        + "DCL IN[][0], GENERIC[0]\nDCL IN[][1], GENERIC[1]\nDCL OUT[0], GENERIC[0]\n\
           DCL OUT[1], GENERIC[1]\nDCL OUT[2], GENERIC[2]\nDCL ADDR[0]\nDCL TEMP[0]\n\
           IMM[0] INT32 {2, -1, 0, -2}\nIMM[1] UINT32 {0, 0, 0, 0}\n\
           MOV OUT[1], IN[1][0]\nMOV OUT[2], IN[0]\nMOV TEMP[0].x, IMM[0].xxxx\nBGNLOOP\n\
           ISLT TEMP[0].y, TEMP[0].xxxx, IMM[0].wwww\nUIF TEMP[0].yyyy\nBRK\nENDIF\n\
           UARL ADDR[0].x, TEMP[0].xxxx\nMOV OUT[0], IN[ADDR[0].x][1]\nEMIT IMM[1].xxxx\n\
           UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
           USEQ TEMP[0].z, TEMP[0].xxxx, IMM[0].yyyy\nUIF TEMP[0].zzzz\n\
           UARL ADDR[0].x, IMM[0].xxxx\nUARL ADDR[0].y, IMM[0].xxxx\n\
           MOV OUT[0], IN[ADDR[0].y+1][1]\nEMIT IMM[1].xxxx\nENDIF\nENDLOOP\nEND\n";
    // Vertex v of primitive p: IN[0] = (p, v, 0, 0), IN[1] = (10p + v, …).
    let v0: Vec<[u32; 4]> = (0..6)
        .map(|k| [f((k / 3) as f32), f((k % 3) as f32), 0, 0])
        .collect();
    let v1: Vec<[u32; 4]> = (0..6)
        .map(|k| [f((10 * (k / 3) + k % 3) as f32), f(1.0), f(2.0), f(3.0)])
        .collect();
    let out = run(
        &text,
        &GeometryOptions {
            count: 2,
            inputs: vec![VertexInput::PerVertex(v0), VertexInput::PerVertex(v1)],
            ..Default::default()
        },
    );
    // Loop: vertex 2, 1, 0; after 0 also vertex ADDR.y + 1 = 3; then vertices -1 and -2.
    // Out-of-range vertices read 0.
    let x: Vec<f32> = column(&out, 0, 0)
        .iter()
        .map(|v| f32::from_bits(v[0]))
        .collect();
    assert_eq!(
        x,
        [2.0, 1.0, 0.0, 0.0, 0.0, 0.0, 12.0, 11.0, 10.0, 0.0, 0.0, 0.0]
    );
    let direct: Vec<u32> = column(&out, 0, 1).iter().map(|v| v[1]).collect();
    assert!(direct.iter().all(|&y| y == f(1.0)));
    let one_d: Vec<u32> = column(&out, 0, 2).iter().map(|v| v[1]).collect();
    assert!(one_d.iter().all(|&y| y == f(0.0)));
}

#[test]
fn invocations_with_primid_and_invocationid() {
    let text = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE LINES\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
                PROPERTY GS_MAX_OUTPUT_VERTICES 1\nPROPERTY GS_INVOCATIONS 3\n\
                DCL IN[][0], PRIM_ID\nDCL SV[0], INVOCATIONID\nDCL SV[1], PRIM_ID\n\
                DCL OUT[0], GENERIC[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n\
                MOV OUT[0].x, SV[0].xxxx\nMOV OUT[0].y, SV[1].xxxx\nMOV OUT[0].z, IN[1][0].zzzz\n\
                MOV OUT[0].w, IN[0].wwww\nEMIT IMM[0].xxxx\nEND\n";
    let out = run(
        text,
        &GeometryOptions {
            count: 2,
            ..Default::default()
        },
    );
    let got: Vec<[u32; 4]> = column(&out, 0, 0);
    let expected: Vec<[u32; 4]> = (0..2)
        .flat_map(|p| (0..3).map(move |i| [i, p, p, p]))
        .collect();
    assert_eq!(got, expected);
    let order: Vec<(u32, u32)> = out.streams[0]
        .primitives
        .iter()
        .map(|p| (p.input, p.invocation))
        .collect();
    assert_eq!(order, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]);
}

#[test]
fn missing_properties_take_their_defaults() {
    // No GS_MAX_OUTPUT_VERTICES: nothing is emitted (tgsi_exec's limit is the property);
    // no GS_INVOCATIONS: one invocation; no GS_INPUT_PRIMITIVE: points.
    let text = "GEOM\nDCL OUT[0], GENERIC[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n\
                EMIT IMM[0].xxxx\nEND\n";
    let program = compile(text);
    let g = program.geometry.as_ref().expect("geometry info");
    assert_eq!((g.max_vertices, g.invocations), (0, 1));
    assert_eq!(g.input, tgsi::Primitive::Points);
    let out = run_geometry(
        &program,
        &GeometryOptions {
            count: 3,
            ..Default::default()
        },
    )
    .expect("run");
    assert!(out.streams.iter().all(|s| s.primitives.is_empty()));
}

#[test]
fn refused_shaders_and_requests() {
    assert!(compile_error(
        "VERT\nDCL OUT[0], POSITION\nIMM[0] UINT32 {0, 0, 0, 0}\nEMIT IMM[0].xxxx\nEND\n"
    )
    .contains("only valid in geometry shaders"));
    assert!(
        compile_error("VERT\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[1][0]\nEND\n")
            .contains("2-D operands")
    );
    let big = header("POINTS", "POINTS", 5000) + "END\n";
    assert!(compile_error(&big).contains("GS_MAX_OUTPUT_VERTICES 5000"));
    let many = "GEOM\nPROPERTY GS_INVOCATIONS 33\nEND\n";
    assert!(compile_error(many).contains("GS_INVOCATIONS 33"));
    let quads = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE QUADS\nEND\n";
    assert!(compile_error(quads).contains("not a geometry-shader input primitive"));
    let wide = header("POINTS", "POINTS", 1024) + "DCL OUT[0..300]\nEND\n";
    assert!(compile_error(&wide).contains("words per invocation"));

    // Too few input vertices for the primitives asked for.
    let tri = compile(&(header("TRIANGLES", "POINTS", 1) + "DCL IN[][0]\nEND\n"));
    let e = run_geometry(
        &tri,
        &GeometryOptions {
            count: 2,
            inputs: vec![VertexInput::PerVertex(vec![[0; 4]; 5])],
            ..Default::default()
        },
    );
    assert!(matches!(e, Err(ExecError::Setup(m)) if m.contains("fewer than the 6")));
    // A vertex shader is not a geometry shader.
    let vs = compile("VERT\nEND\n");
    assert!(run_geometry(&vs, &GeometryOptions::default()).is_err());
}

#[test]
fn endless_emission_is_bounded() {
    // An endless loop of EMITs keeps at most GS_MAX_OUTPUT_VERTICES vertices and ends with
    // the budget error.
    let text = header("POINTS", "POINTS", 4)
        + "DCL OUT[0]\nIMM[0] UINT32 {0, 0, 0, 0}\nBGNLOOP\nEMIT IMM[0].xxxx\nENDLOOP\nEND\n";
    let e = run_geometry(
        &compile(&text),
        &GeometryOptions {
            count: 1,
            budget: 10_000,
            ..Default::default()
        },
    );
    assert!(matches!(e, Err(ExecError::Budget { .. })), "{e:?}");
    let text = header("POINTS", "POINTS", 4)
        + "DCL OUT[0]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 1, 1000, 0}\nBGNLOOP\n\
           UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\nUSGE TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz\n\
           UIF TEMP[0].yyyy\nBRK\nENDIF\nEMIT IMM[0].xxxx\nENDLOOP\nEND\n";
    let out = run(
        &text,
        &GeometryOptions {
            count: 1,
            ..Default::default()
        },
    );
    assert_eq!(lengths(&out, 0), [4]);
}
