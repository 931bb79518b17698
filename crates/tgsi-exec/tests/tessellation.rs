//! Tessellation chains on small hand-written shaders: control-shader invocations reading
//! each other's outputs after a barrier, per-patch outputs and levels reaching the
//! evaluation shader, indexed and instanced draws, the default levels without a control
//! shader, a geometry shader after the evaluation shader (both provoking-vertex
//! conventions), and hostile requests refused with a reason.

mod common;

use common::compile;
use tgsi_exec::tessellation::Levels;
use tgsi_exec::{
    run_tess_pipeline, CapturedOutputs, Program, TessOptions, TessStages, VertexInput,
};

const VS: &str = "VERT\nDCL IN[0]\nDCL SV[0], INSTANCEID\nDCL OUT[0], GENERIC[0]\n\
                  DCL OUT[1], GENERIC[1]\nMOV OUT[0], IN[0]\nMOV OUT[1], SV[0].xxxx\nEND\n";

/// Three invocations: each copies its input vertex, then (after the barrier) reads the
/// next invocation's copy; invocation order does not matter for the per-patch writes.
fn tcs(outer: &str) -> String {
    format!(
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], GENERIC[0]\nDCL SV[0], INVOCATIONID\n\
         DCL SV[1], PRIM_ID\nDCL SV[2], VERTICESIN\nDCL OUT[0], TESSOUTER\nDCL OUT[1], TESSINNER\n\
         DCL OUT[][2], GENERIC[0]\nDCL OUT[][3], GENERIC[1]\nDCL OUT[4], PATCH\nDCL TEMP[0..1]\n\
         DCL ADDR[0]\nIMM[0] UINT32 {{1, 3, 0, 0}}\nIMM[1] FLT32 {{{outer}, 1.0, 0.0, 0.0}}\n\
         UARL ADDR[0].x, SV[0].xxxx\nMOV OUT[ADDR[0].x][2], IN[ADDR[0].x][0]\nBARRIER\n\
         UADD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\nUMOD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n\
         UARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[1], OUT[ADDR[0].x][2]\nUARL ADDR[0].x, SV[0].xxxx\n\
         MOV OUT[ADDR[0].x][3], TEMP[1]\nMOV OUT[0], IMM[1].xxxx\nMOV OUT[1], IMM[1].yyyy\n\
         MOV OUT[4].x, SV[1].xxxx\nMOV OUT[4].y, SV[2].xxxx\nEND\n"
    )
}

/// Point mode over triangles: per point its TESSCOORD, vertex 0's second input, the
/// patch output, the outer levels and the primitive.
fn tes(point_mode: u32) -> String {
    format!(
        "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 2\nPROPERTY TES_VERTEX_ORDER_CW 0\n\
         PROPERTY TES_POINT_MODE {point_mode}\nDCL IN[][0], GENERIC[0]\nDCL IN[][1], GENERIC[1]\n\
         DCL IN[2], PATCH\nDCL SV[0], TESSCOORD\nDCL SV[1], PRIM_ID\nDCL SV[2], TESSOUTER\n\
         DCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\nDCL OUT[2], GENERIC[2]\nDCL OUT[3], GENERIC[3]\n\
         DCL OUT[4], GENERIC[4]\nMOV OUT[0], SV[0]\nMOV OUT[1], IN[0][1]\nMOV OUT[2], IN[2]\n\
         MOV OUT[3], SV[2]\nMOV OUT[4], SV[1]\nEND\n"
    )
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Vertex `k` of the buffer holds `(k, 10k, 0, 1)`.
fn options(vertices: usize) -> TessOptions {
    let mut opts = TessOptions::default();
    opts.vertex.count = vertices;
    opts.vertex.inputs = vec![VertexInput::PerVertex(
        (0..vertices)
            .map(|k| [f(k as f32), f(10.0 * k as f32), 0, f(1.0)])
            .collect(),
    )];
    opts
}

fn run(
    vs: &Program,
    tcs: Option<&Program>,
    tes: &Program,
    gs: Option<&Program>,
    opts: &TessOptions,
) -> CapturedOutputs {
    let stages = TessStages {
        vertex: vs,
        control: tcs,
        eval: tes,
        geometry: gs,
    };
    run_tess_pipeline(&stages, opts).unwrap_or_else(|e| panic!("{e}"))
}

fn error(tcs: Option<&Program>, tes: &Program, opts: &TessOptions) -> String {
    let vs = compile(VS);
    let stages = TessStages {
        vertex: &vs,
        control: tcs,
        eval: tes,
        geometry: None,
    };
    match run_tess_pipeline(&stages, opts) {
        Ok(out) => panic!("expected an error, got {out}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn invocations_read_each_other_after_a_barrier() {
    let (vs, control, tes) = (compile(VS), compile(&tcs("2.0")), compile(&tes(1)));
    // Indexed: patch 0 is vertices 3 4 5, patch 1 is 0 1 2; two instances.
    let opts = TessOptions {
        indices: Some(vec![3, 4, 5, 0, 1, 2]),
        instances: 2,
        ..options(6)
    };
    let out = run(&vs, Some(&control), &tes, None, &opts);
    // Outer 2, inner 1: 6 points on the outer ring and the centre.
    assert_eq!(out.primitive, tgsi::Primitive::Points);
    assert_eq!(out.vertices.len(), 2 * 2 * 7);
    assert_eq!(out.patches, 4);
    for (k, v) in out.vertices.iter().enumerate() {
        let patch = (k / 7) % 2;
        let first = [3.0, 0.0][patch];
        // Vertex 0's GENERIC[1] is invocation 1's copy of its input: vertex first + 1.
        assert_eq!(
            v[1],
            [f(first + 1.0), f(10.0 * (first + 1.0)), 0, f(1.0)],
            "vertex {k}"
        );
        // The patch output: PRIM_ID (per instance) and VERTICESIN.
        assert_eq!(v[2], [patch as u32, 3, 0, 0], "vertex {k}");
        assert_eq!(v[3], [f(2.0); 4]);
        assert_eq!(v[4][0], patch as u32);
    }
    let coords: Vec<[u32; 4]> = out.vertices.column(0).take(7).collect();
    assert_eq!(coords[0], [0, f(1.0), 0, 0]);
    assert_eq!(coords[1], [0, f(0.5), f(0.5), 0]);
    assert_eq!(
        coords[6],
        [
            f(21845.0 / 65536.0),
            f(21845.0 / 65536.0),
            f(21846.0 / 65536.0),
            0
        ]
    );
}

#[test]
fn levels_above_64_are_clamped_but_read_as_written() {
    let (vs, control, tes) = (compile(VS), compile(&tcs("70.0")), compile(&tes(1)));
    let out = run(&vs, Some(&control), &tes, None, &options(3));
    assert!(out.vertices.iter().all(|v| v[3] == [f(70.0); 4]));
    let at64 = run(&vs, Some(&compile(&tcs("64.0"))), &tes, None, &options(3));
    assert_eq!(out.vertices.len(), at64.vertices.len());
}

#[test]
fn without_a_control_shader_the_default_levels_apply() {
    let (vs, tes) = (compile(VS), compile(&tes(0)));
    let opts = TessOptions {
        instances: 2,
        default_levels: Levels::from_floats([1.0, 1.0, 1.0, 5.0], [1.0, 0.0]),
        ..options(3)
    };
    let out = run(&vs, None, &tes, None, &opts);
    // One triangle per instance; vertex 0's GENERIC[1] is the vertex shader's INSTANCEID.
    assert_eq!(out.primitive, tgsi::Primitive::Triangles);
    assert_eq!(out.vertices.len(), 6);
    assert_eq!(out.vertices[0][1], [0; 4]);
    assert_eq!(out.vertices[3][1], [1; 4]);
    assert_eq!(out.vertices[0][3], [f(1.0), f(1.0), f(1.0), f(5.0)]);
    // A patch culled by its levels produces nothing.
    let culled = TessOptions {
        default_levels: Levels::from_floats([0.0, 1.0, 1.0, 1.0], [1.0; 2]),
        ..options(3)
    };
    assert!(run(&vs, None, &tes, None, &culled).vertices.is_empty());
}

#[test]
fn a_geometry_shader_strip_is_split_by_the_provoking_vertex() {
    let (vs, tes) = (compile(VS), compile(&tes(0)));
    // One input triangle (a, b, c) becomes the strip a b c a.
    let gs = compile(
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES 4\nDCL IN[][0], GENERIC[0]\nDCL OUT[0], GENERIC[0]\n\
         IMM[0] UINT32 {0, 0, 0, 0}\nMOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nMOV OUT[0], IN[1][0]\n\
         EMIT IMM[0].xxxx\nMOV OUT[0], IN[2][0]\nEMIT IMM[0].xxxx\nMOV OUT[0], IN[0][0]\n\
         EMIT IMM[0].xxxx\nEND\n",
    );
    let tri = run(&vs, None, &tes, None, &options(3));
    let [a, b, c] = [0, 1, 2].map(|k| tri.vertices[k][0]);
    let last = run(&vs, None, &tes, Some(&gs), &options(3));
    assert_eq!(last.primitive, tgsi::Primitive::Triangles);
    let coords = |o: &CapturedOutputs| o.vertices.iter().map(|v| v[0]).collect::<Vec<_>>();
    assert_eq!(coords(&last), [a, b, c, c, b, a]);
    let first = run(
        &vs,
        None,
        &tes,
        Some(&gs),
        &TessOptions {
            provoking_first: true,
            ..options(3)
        },
    );
    assert_eq!(coords(&first), [a, b, c, b, a, c]);
}

/// Levels from PRIM_ID in runs of two patches (1, 1, 2, 2, 3, 3, 1, …): patches in a row
/// with the same levels share one tessellation, and each patch still gets its own.
#[test]
fn patches_with_different_levels_are_tessellated_each_with_its_own() {
    const LEVELS_BY_PRIMITIVE: &str = "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\n\
        DCL IN[][0], GENERIC[0]\nDCL SV[0], PRIM_ID\nDCL OUT[0], TESSOUTER\n\
        DCL OUT[1], TESSINNER\nDCL OUT[][2], GENERIC[0]\nDCL TEMP[0]\n\
        IMM[0] UINT32 {2, 3, 1, 0}\nUDIV TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n\
        UMOD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\nUADD TEMP[0].x, TEMP[0].xxxx, IMM[0].zzzz\n\
        U2F TEMP[0].x, TEMP[0].xxxx\nMOV OUT[0], TEMP[0].xxxx\nMOV OUT[1], TEMP[0].xxxx\nEND\n";
    let (vs, tcs, tes) = (compile(VS), compile(LEVELS_BY_PRIMITIVE), compile(&tes(1)));
    let patches = 9;
    let out = run(&vs, Some(&tcs), &tes, None, &options(3 * patches));
    let mode = tgsi_exec::tessellation::eval_mode(&tes).unwrap();
    let mut points = out.vertices.iter();
    for p in 0..patches {
        let level = (1 + (p / 2) % 3) as f32;
        let alone = Levels::from_floats([level; 4], [level; 2]).tessellate(&mode);
        for _ in 0..alone.points.len() {
            let point = points.next().expect("a point of each patch");
            // OUT[3]: TESSOUTER; OUT[4]: PRIM_ID.
            assert_eq!(
                (point[3][0], point[4][0]),
                (f(level), p as u32),
                "patch {p}"
            );
        }
    }
    assert!(points.next().is_none(), "more points than the patches have");
}

#[test]
fn hostile_requests_are_refused() {
    let tes = compile(&tes(1));
    for pv in [0, 33] {
        let e = error(
            None,
            &tes,
            &TessOptions {
                patch_vertices: pv,
                ..options(3)
            },
        );
        assert!(e.contains("vertices per patch"), "{e}");
    }
    let e = error(
        None,
        &tes,
        &TessOptions {
            indices: Some(vec![0, 1, 3]),
            ..options(3)
        },
    );
    assert!(e.contains("index 3 at draw position 2"), "{e}");
    let e = error(Some(&tes), &tes, &options(3));
    assert!(e.contains("control stage"), "{e}");
    let e = error(
        None,
        &tes,
        &TessOptions {
            instances: u32::MAX,
            ..options(3)
        },
    );
    assert!(e.contains("instances"), "{e}");
    // A control shader whose patch would need too many registers.
    let wide = compile(&tcs("2.0").replace(
        "DCL OUT[4], PATCH",
        "DCL OUT[4], PATCH\nDCL OUT[9000], PATCH[1]",
    ));
    let e = error(Some(&wide), &tes, &options(3));
    assert!(e.contains("registers"), "{e}");
}

#[test]
fn refused_shaders() {
    let bad = |text: &str| {
        let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{e}"));
        match Program::compile(&shader) {
            Ok(_) => panic!("compiled: {text}"),
            Err(e) => e.to_string(),
        }
    };
    for n in [0, 33] {
        let e = bad(&tcs("1.0").replace("TCS_VERTICES_OUT 3", &format!("TCS_VERTICES_OUT {n}")));
        assert!(e.contains(&format!("TCS_VERTICES_OUT {n}")), "{e}");
    }
    let e = bad(&tes(0).replace("TES_PRIM_MODE 4", "TES_PRIM_MODE 0"));
    assert!(e.contains("TES_PRIM_MODE 0"), "{e}");
    let e = bad("VERT\nDCL OUT[0], GENERIC[0]\nDCL IN[0]\nMOV OUT[0][0], IN[0]\nEND\n");
    assert!(e.contains("2-D destinations"), "{e}");
}
