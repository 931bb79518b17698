//! `tgsi translate`: targets, their options, validation of the output by the real tools when
//! installed, and errors that name the statement and its position.

use std::process::{Command, Output};

fn tgsi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi"))
        .args(args)
        .output()
        .expect("tgsi runs")
}

fn temp_file(name: &str, content: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tgsi-translate-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write temp file");
    path.to_string_lossy().into_owned()
}

const FRAG: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0][0..1]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 7, 0, 0}
  0: UDIV TEMP[0].x, IMM[0].yyyy, CONST[0][0].xxxx
  1: U2F TEMP[0].x, TEMP[0].xxxx
  2: MAX TEMP[1], IN[0], CONST[0][1]
  3: UIF CONST[0][0].yyyy
  4:   KILL
  5: ENDIF
  6: ADD OUT[0], TEMP[1], TEMP[0].xxxx
  7: END
";

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

#[test]
fn spirv_is_binary_and_valid() {
    let src = temp_file("frag.tgsi", FRAG);
    let spv = temp_file("frag.spv", "");
    let out = tgsi(&["translate", &src, "--to", "spirv", "-o", &spv]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&spv).expect("output written");
    assert_eq!(bytes[..4], 0x0723_0203u32.to_le_bytes());
    if tool("spirv-val") {
        let val = Command::new("spirv-val")
            .arg(&spv)
            .output()
            .expect("spirv-val");
        assert!(
            val.status.success(),
            "{}",
            String::from_utf8_lossy(&val.stderr)
        );
    } else {
        eprintln!("skipped: spirv-val not found; the SPIR-V was not validated");
    }
}

#[test]
fn glsl_versions_and_es() {
    let src = temp_file("frag-glsl.tgsi", FRAG);
    let out = tgsi(&["translate", &src, "--to", "glsl"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("#version 450 core\n"), "{text}");
    assert!(text.contains("discard;"), "{text}");
    let es = tgsi(&[
        "translate",
        &src,
        "--to",
        "glsl",
        "--glsl-version",
        "310",
        "--es",
    ]);
    assert_eq!(
        es.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&es.stderr)
    );
    assert!(String::from_utf8_lossy(&es.stdout).starts_with("#version 310 es\n"));
    if tool("glslangValidator") {
        let path = temp_file("frag-glsl.frag", &text);
        let val = Command::new("glslangValidator")
            .arg(&path)
            .output()
            .expect("glslang");
        assert!(
            val.status.success(),
            "{}",
            String::from_utf8_lossy(&val.stdout)
        );
    } else {
        eprintln!("skipped: glslangValidator not found; the GLSL was not validated");
    }
}

#[test]
fn text_targets_name_the_entry_point() {
    let src = temp_file("frag-text.tgsi", FRAG);
    for (target, marker) in [
        ("wgsl", "@fragment"),
        ("msl", "fragment "),
        ("hlsl", "main("),
    ] {
        let out = tgsi(&["translate", &src, "--to", target]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{target}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(marker), "{target}: {text}");
    }
    let sm6 = tgsi(&["translate", &src, "--to", "hlsl", "--shader-model", "6.0"]);
    assert_eq!(sm6.status.code(), Some(0));
    let bad = tgsi(&["translate", &src, "--to", "hlsl", "--shader-model", "4.0"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("shader model"));
}

#[test]
fn host_options_loop_budget_and_vertex_as_compute() {
    let src = temp_file(
        "loop.vert.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MOV TEMP[0], IN[0]\n\
         \x20 1: BGNLOOP\n  2: ADD TEMP[0], TEMP[0], IN[0]\n  3: ENDLOOP\n  4: MOV OUT[0], TEMP[0]\n\
         \x20 5: END\n",
    );
    let plain = tgsi(&["translate", &src, "--to", "wgsl"]);
    assert_eq!(plain.status.code(), Some(0));
    let plain = String::from_utf8_lossy(&plain.stdout).into_owned();
    assert!(
        plain.contains("@vertex") && !plain.contains("@binding(33)"),
        "{plain}"
    );
    let hosted = tgsi(&[
        "translate",
        &src,
        "--to",
        "wgsl",
        "--loop-budget",
        "1000",
        "--vertex-as-compute",
    ]);
    assert_eq!(
        hosted.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&hosted.stderr)
    );
    let hosted = String::from_utf8_lossy(&hosted.stdout).into_owned();
    // A compute entry point of 64 invocations, the vertex buffers in group 3, the loop
    // budget's flag at group 0, binding 33, and the budget itself.
    assert!(hosted.contains("@compute @workgroup_size(64"), "{hosted}");
    assert!(hosted.contains("@group(3) @binding(0)"), "{hosted}");
    assert!(hosted.contains("@group(0) @binding(33)"), "{hosted}");
    assert!(hosted.contains("1000u"), "{hosted}");
}

#[test]
fn untranslatable_statements_are_errors_with_positions() {
    let src = temp_file("clock.tgsi", "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: CLOCK TEMP[0].xy\n  1: MOV OUT[0], TEMP[0]\n  2: END\n");
    let out = tgsi(&["translate", &src, "--to", "wgsl", "-o", "-"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("clock.tgsi:4:6: CLOCK: "), "{err}");
    assert!(out.stdout.is_empty());
    // SPIR-V has a clock (`OpReadClockKHR`, opcode 5056).
    let out = tgsi(&["translate", &src, "--to", "spirv", "-o", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words: Vec<u32> = out
        .stdout
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert!(words.iter().any(|&w| w & 0xffff == 5056 && w >> 16 == 4));

    let geom = temp_file("geom.tgsi", "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\n  0: END\n");
    let out = tgsi(&["translate", &geom, "--to", "spirv"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("geom.tgsi: GEOM: naga 30 has no geometry")
    );
    // HLSL has geometry shaders (written around naga's HLSL).
    let out = tgsi(&["translate", &geom, "--to", "hlsl", "-o", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hlsl = String::from_utf8_lossy(&out.stdout);
    assert!(
        hlsl.contains("[maxvertexcount(1)]") && hlsl.contains("inout PointStream<"),
        "{hlsl}"
    );

    // GLSL takes geometry shaders, but their vertex stream must be a constant.
    let stream = temp_file("stream.tgsi", "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 1\nDCL OUT[0], POSITION\nDCL TEMP[0]\n  0: MOV OUT[0], TEMP[0]\n  1: EMIT TEMP[0].xxxx\n  2: END\n");
    let out = tgsi(&["translate", &stream, "--to", "glsl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stream.tgsi:8:6: EMIT: "), "{err}");

    let layer = temp_file("layer.tgsi", "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], LAYER\n  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[0]\n  2: END\n");
    let out = tgsi(&["translate", &layer, "--to", "wgsl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("layer.tgsi:4:1: DCL OUT[1], LAYER: "), "{err}");
}

/// Asserts that glslangValidator accepts `glsl` as a shader of the stage `ext` names
/// (skipped, saying so, without the tool).
fn glslang_accepts(glsl: &str, ext: &str) {
    if !tool("glslangValidator") {
        eprintln!("skipped: glslangValidator not found; the {ext} shader is not validated");
        return;
    }
    let path = std::env::temp_dir().join(format!("tgsi-cli-{}.{ext}", std::process::id()));
    std::fs::write(&path, glsl.as_bytes()).expect("write");
    let check = Command::new("glslangValidator")
        .arg(&path)
        .output()
        .expect("runs");
    let _ = std::fs::remove_file(&path);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
fn geometry_shaders_become_glsl_geometry_shaders() {
    let gs = temp_file(
        "streams.geom.tgsi",
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES 4\nPROPERTY GS_INVOCATIONS 2\nDCL IN[][0], POSITION\n\
         DCL IN[][1], GENERIC[3]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[5]\n\
         IMM[0] UINT32 {0, 1, 0, 0}\n  0: MOV OUT[0], IN[2][0]\n  1: MOV OUT[1], IN[1][1]\n\
           2: EMIT IMM[0].xxxx\n  3: EMIT IMM[0].yyyy\n  4: ENDPRIM IMM[0].yyyy\n  5: END\n",
    );
    let out = tgsi(&["translate", &gs, "--to", "glsl", "-o", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let glsl = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "layout(triangles, invocations = 2) in;",
        "layout(points, max_vertices = 4) out;",
        "layout(location = 3) in vec4 _vs2fs_location3[];",
        "layout(location = 5) out vec4 _gs2fs_location5;",
        "layout(stream = 1) out vec4 _gs2fs_location5_stream1;",
        "gl_in[2].gl_Position",
        "EmitStreamVertex(0);",
        "EmitStreamVertex(1);",
        "EndStreamPrimitive(1);",
    ] {
        assert!(glsl.contains(expected), "{expected} missing from:\n{glsl}");
    }
    glslang_accepts(&glsl, "geom");
}

#[test]
fn tessellation_shaders_become_glsl_tessellation_shaders() {
    let tcs = temp_file(
        "quad.tesc.tgsi",
        "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 4\nDCL IN[][0], POSITION\nDCL SV[0], INVOCATIONID\n\
         DCL OUT[0], TESSOUTER\nDCL OUT[1], TESSINNER\nDCL OUT[][2], POSITION\nDCL OUT[3], PATCH\n\
         DCL TEMP[0]\nDCL ADDR[0]\nIMM[0] FLT32 {2.0, 3.0, 0.0, 0.0}\n\
           0: UARL ADDR[0].x, SV[0].xxxx\n  1: MOV OUT[ADDR[0].x][2], IN[ADDR[0].x][0]\n\
           2: BARRIER\n  3: MOV TEMP[0], OUT[0][2]\n  4: MOV OUT[0], IMM[0].xxxx\n\
           5: MOV OUT[1].xy, IMM[0].yyyy\n  6: MOV OUT[3], TEMP[0]\n  7: END\n",
    );
    let tes = temp_file(
        "quad.tese.tgsi",
        "TESS_EVAL\nPROPERTY TES_PRIM_MODE 7\nPROPERTY TES_SPACING 2\nPROPERTY TES_VERTEX_ORDER_CW 1\n\
         PROPERTY TES_POINT_MODE 0\nDCL IN[][0], POSITION\nDCL IN[1], PATCH\nDCL SV[0], TESSCOORD\n\
         DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[2]\n\
           0: LRP OUT[0], SV[0].xxxx, IN[1][0], IN[0][0]\n  1: MOV OUT[1], IN[1]\n  2: END\n",
    );
    for (file, ext, expected) in [
        (
            &tcs,
            "tesc",
            &[
                "layout(vertices = 4) out;",
                "patch out vec4 _tcs2tes_patch0;",
                "gl_out[gl_InvocationID].gl_Position = ",
                "gl_TessLevelInner[1]",
                "barrier();",
            ][..],
        ),
        (
            &tes,
            "tese",
            &[
                "layout(quads, equal_spacing, cw) in;",
                "patch in vec4 _tcs2tes_patch0;",
                "gl_TessCoord",
                "layout(location = 2) out vec4 _vs2fs_location2;",
            ][..],
        ),
    ] {
        let out = tgsi(&["translate", file, "--to", "glsl", "-o", "-"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let glsl = String::from_utf8_lossy(&out.stdout);
        for e in expected {
            assert!(glsl.contains(e), "{e} missing from:\n{glsl}");
        }
        glslang_accepts(&glsl, ext);
    }
    // Other targets still need the compute form.
    let out = tgsi(&["translate", &tes, "--to", "spirv", "-o", "-"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("naga 30 has no tessellation stages"), "{err}");
}

#[test]
fn hosts_place_varyings_past_the_default_scheme() {
    let vs = temp_file(
        "color.vert.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL OUT[2], TEXCOORD[1]\n\
           0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[0]\n  2: MOV OUT[2], IN[0]\n  3: END\n",
    );
    // By default COLOR is at 40 and TEXCOORD[1] at 33, past GL's 32 locations.
    let out = tgsi(&["translate", &vs, "--to", "glsl"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let glsl = String::from_utf8_lossy(&out.stdout);
    assert!(glsl.contains("layout(location = 40)"), "{glsl}");
    let out = tgsi(&[
        "translate",
        &vs,
        "--to",
        "glsl",
        "--varying-location",
        "COLOR=3",
        "--varying-location",
        "TEXCOORD[1]=4",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let glsl = String::from_utf8_lossy(&out.stdout);
    assert!(
        glsl.contains("layout(location = 3) smooth out vec4"),
        "{glsl}"
    );
    assert!(
        glsl.contains("layout(location = 4) smooth out vec4"),
        "{glsl}"
    );
    assert!(
        !glsl.contains("location = 40") && !glsl.contains("location = 33"),
        "{glsl}"
    );
    let out = tgsi(&[
        "translate",
        &vs,
        "--to",
        "glsl",
        "--varying-location",
        "COLOUR=3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'COLOUR' is not a TGSI semantic"), "{err}");
}

#[test]
fn several_files_are_one_pipeline() {
    let vs = temp_file(
        "pipeline-vs.tgsi",
        "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL OUT[2], GENERIC[3]\n\
           0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[0]\n  2: MOV OUT[2], IN[0]\n  3: END\n",
    );
    let fs = temp_file(
        "pipeline-fs.tgsi",
        "FRAG\nDCL IN[0], COLOR, COLOR\nDCL IN[1], GENERIC[3], PERSPECTIVE\nDCL OUT[0], COLOR\n\
           0: ADD OUT[0], IN[0], IN[1]\n  1: END\n",
    );
    let dir = std::env::temp_dir().join(format!("tgsi-cli-pipeline-{}", std::process::id()));
    let dir_arg = dir.display().to_string();
    let out = tgsi(&["translate", &vs, &fs, "--to", "glsl", "-o", &dir_arg]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let vert = std::fs::read_to_string(dir.join("pipeline-vs.vert")).expect("vertex GLSL");
    let frag = std::fs::read_to_string(dir.join("pipeline-fs.frag")).expect("fragment GLSL");
    // COLOR leaves 40 for the lowest free location; GENERIC[3] keeps 3.
    for (text, direction) in [(&vert, "out"), (&frag, "in")] {
        for location in [0, 3] {
            let decl = format!("layout(location = {location}) smooth {direction} vec4");
            assert!(text.contains(&decl), "{decl} missing from:\n{text}");
        }
        assert!(!text.contains("location = 40"), "{text}");
    }
    let spirv = tgsi(&["translate", &vs, &fs, "--to", "spirv", "-o", &dir_arg]);
    assert!(
        spirv.status.success(),
        "{}",
        String::from_utf8_lossy(&spirv.stderr)
    );
    assert!(dir.join("pipeline-vs.spv").is_file() && dir.join("pipeline-fs.spv").is_file());
    // Several files need a directory; a pipeline needs room for its varyings.
    let out = tgsi(&["translate", &vs, &fs, "--to", "glsl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("-o DIRECTORY"));
    let out = tgsi(&[
        "translate",
        &vs,
        &fs,
        "--to",
        "glsl",
        "-o",
        &dir_arg,
        "--max-varying-locations",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2 varyings do not fit in 1 locations"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hlsl_below_shader_model_6_has_no_64_bit_integers() {
    let doubles = temp_file(
        "doubles.tgsi",
        "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\nIMM[0] FLT64 {1.5, 2.25}\n\
           0: DADD TEMP[0].xy, IMM[0].xyxy, IMM[0].zwzw\n  1: D2F TEMP[1].x, TEMP[0].xyxy\n\
           2: MOV OUT[0], TEMP[1].xxxx\n  3: END\n",
    );
    // Shader model 5.1 (the default) has doubles but no 64-bit integers: the doubles are
    // built from their words; from 6.0 on the translation may use uint64_t.
    for (model, int64) in [("5.1", false), ("6.0", true)] {
        let out = tgsi(&[
            "translate",
            &doubles,
            "--to",
            "hlsl",
            "--shader-model",
            model,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let hlsl = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            hlsl.contains("int64_t"),
            int64,
            "shader model {model}:\n{hlsl}"
        );
    }
}

#[test]
fn unknown_target_is_a_usage_error() {
    let src = temp_file("frag-usage.tgsi", FRAG);
    let out = tgsi(&["translate", &src, "--to", "dxil"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn tessellation_shader_pairs_become_hlsl_hull_and_domain_shaders() {
    let tcs_text = "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\n\
                    DCL SV[0], INVOCATIONID\nDCL OUT[][0], POSITION\nDCL OUT[1], TESSOUTER\n\
                    DCL OUT[2], TESSINNER\nDCL ADDR[0]\nIMM[0] FLT32 {4.0, 0.0, 0.0, 0.0}\n\
                      0: UARL ADDR[0].x, SV[0].xxxx\n  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n\
                      2: MOV OUT[1], IMM[0].xxxx\n  3: MOV OUT[2], IMM[0].xxxx\n  4: END\n";
    let tcs = temp_file("pair.tesc.tgsi", tcs_text);
    let tes = temp_file(
        "pair.tese.tgsi",
        "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 2\nDCL IN[][0], POSITION\n\
         DCL SV[0], TESSCOORD\nDCL OUT[0], POSITION\n  0: MUL OUT[0], IN[0][0], SV[0].xxxx\n\
           1: END\n",
    );
    let dir = std::env::temp_dir().join(format!("tgsi-translate-hlsl-pair-{}", std::process::id()));
    let out = tgsi(
        &[
            "translate",
            &tcs,
            &tes,
            "--to",
            "hlsl",
            "--patch-vertices",
            "4",
            "-o",
        ]
        .into_iter()
        .chain([dir.to_str().expect("utf-8")])
        .collect::<Vec<_>>(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hull = std::fs::read_to_string(dir.join("pair.tesc.hlsl")).expect("hull shader");
    let domain = std::fs::read_to_string(dir.join("pair.tese.hlsl")).expect("domain shader");
    assert!(hull.contains("[outputcontrolpoints(3)]"), "{hull}");
    assert!(hull.contains("InputPatch<TgsiHsVertexIn, 4>"), "{hull}");
    assert!(domain.contains("[domain(\"tri\")]"), "{domain}");
    // Alone, either needs the other.
    let out = tgsi(&["translate", &tcs, "--to", "hlsl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("give the control and the evaluation shader together"),
        "{err}"
    );
    // An error names the shader it is in.
    let barrier = temp_file(
        "barrier.tesc.tgsi",
        &tcs_text.replace("  4: END", "  4: BARRIER\n  5: END"),
    );
    let out = tgsi(
        &["translate", &barrier, &tes, "--to", "hlsl", "-o"]
            .into_iter()
            .chain([dir.to_str().expect("utf-8")])
            .collect::<Vec<_>>(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("barrier.tesc.tgsi:14:6: BARRIER: "), "{err}");
}
