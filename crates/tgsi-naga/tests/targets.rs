//! Features the Mesa corpus does not exercise — textures of every kind of instruction,
//! images, buffers, shared memory with atomics (compare-exchange and signed minimum and
//! maximum as loops included), subroutines, switches — translate, pass
//! naga's validator and are written by all five back ends (or are refused with a reason
//! where the language lacks the feature); the SPIR-V passes `spirv-val`, the GLSL
//! `glslangValidator` and the HLSL Slang (`tools/hlslc`) when they are installed (the test
//! says when they are not).

use std::process::Command;
use std::sync::OnceLock;

use tgsi_naga::{Output, Target, WriteOptions};

#[path = "support/hlsl_check.rs"]
#[allow(dead_code)] // Each test uses a part of it.
mod hlsl_check;
use hlsl_check::Hlslc;

const TEXTURES: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], 2D_ARRAY, FLOAT
DCL SVIEW[1], SHADOW2D, FLOAT
DCL SVIEW[2], 2D, UINT
DCL TEMP[0..3]
IMM[0] FLT32 {0.5, 1.0, 2.0, 0.0}
IMM[1] INT32 {1, -2, 0, 1}
  0: SAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0]
  1: SAMPLE_L TEMP[1], IN[0], SVIEW[0], SAMP[0], IMM[0].yyyy
  2: SAMPLE_C TEMP[2].x, IN[0], SVIEW[1], SAMP[1], IMM[0].xxxx
  3: SAMPLE_I TEMP[3], IN[0], SVIEW[2]
  4: GATHER4 TEMP[1], IN[0], SVIEW[0], SAMP[0]
  5: SVIEWINFO TEMP[0], IMM[0].wwww, SVIEW[0]
  6: SAMPLE_D TEMP[1], IN[0], SVIEW[0], SAMP[0], IN[0], IN[0]
  7: DDX TEMP[3], IN[0]
  8: ADD OUT[0], TEMP[0], TEMP[1]
  9: ADD OUT[0], OUT[0], TEMP[2].xxxx
 10: KILL_IF -TEMP[3]
 11: END
";

const TEX_FAMILY: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], FACE, CONSTANT
DCL IN[2], POSITION, LINEAR
DCL OUT[0], COLOR
DCL OUT[1], POSITION
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], CUBE, FLOAT
DCL TEMP[0..2]
IMM[0] INT32 {1, -2, 0, 1}
  0: TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz
  1: TXB TEMP[1], IN[0], SAMP[0], 2D
  2: TXL TEMP[2], IN[0], SAMP[1], CUBE
  3: TXP TEMP[0], IN[0], SAMP[0], 2D
  4: TG4 TEMP[1], IN[0], IMM[0].wwww, SAMP[0], 2D, IMM[0].yxz
  5: TXF TEMP[2], IMM[0], SAMP[0], 2D
  6: TXQ TEMP[2], IMM[0].zzzz, SAMP[0], 2D
  7: MUL OUT[0], TEMP[0], IN[1].xxxx
  8: MOV OUT[1].z, IN[2].zzzz
  9: END
";

/// RECT targets (texel coordinates) and the cube-array opcodes with a second source.
const RECT_AND_CUBEARRAYS: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL IN[1], GENERIC[1], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SAMP[2]
DCL SAMP[3]
DCL SVIEW[0], RECT, FLOAT
DCL SVIEW[1], CUBEARRAY, FLOAT
DCL SVIEW[2], SHADOWCUBEARRAY, FLOAT
DCL SVIEW[3], SHADOWRECT, FLOAT
DCL TEMP[0..3]
  0: TEX TEMP[0], IN[0], SAMP[0], RECT
  1: TXP TEMP[1], IN[0], SAMP[0], RECT
  2: TEX TEMP[2], IN[0], SAMP[3], SHADOWRECT
  3: TXB2 TEMP[3], IN[0], IN[1], SAMP[1], CUBEARRAY
  4: ADD TEMP[0], TEMP[0], TEMP[1]
  5: TXL2 TEMP[1], IN[0], IN[1], SAMP[1], CUBEARRAY
  6: ADD TEMP[0], TEMP[0], TEMP[2]
  7: TEX2 TEMP[2], IN[0], IN[1], SAMP[2], SHADOWCUBEARRAY
  8: ADD TEMP[0], TEMP[0], TEMP[3]
  9: ADD TEMP[0], TEMP[0], TEMP[1]
 10: ADD OUT[0], TEMP[0], TEMP[2]
 11: END
";

const COMPUTE: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 64
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL MEMORY[0], SHARED
DCL TEMP[0..2]
IMM[0] UINT32 {2, 1, 0, 4}
  0: SHL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: STORE MEMORY[0].x, TEMP[0].xxxx, SV[0].xxxx
  2: BARRIER
  3: LOAD TEMP[1].x, MEMORY[0], TEMP[0].xxxx
  4: ATOMUADD TEMP[2].x, BUFFER[0], IMM[0].zzzz, TEMP[1].xxxx
  5: ATOMCAS TEMP[2].y, BUFFER[0], IMM[0].yyyy, TEMP[1].xxxx, IMM[0].wwww
  6: ATOMIMIN TEMP[2].z, MEMORY[0], IMM[0].zzzz, TEMP[1].xxxx
  7: ATOMIMAX TEMP[2].w, BUFFER[0], IMM[0].wwww, TEMP[1].xxxx
  8: SWITCH TEMP[2].xxxx
  9:   CASE IMM[0].zzzz
 10:     STORE BUFFER[0].xy, IMM[0].wwww, TEMP[1].xxxx
 11:     BRK
 12:   DEFAULT
 13:     LOAD TEMP[1], IMAGE[0], SV[1], 2D, PIPE_FORMAT_R32_UINT
 14:     STORE IMAGE[0], SV[1], TEMP[1], 2D, PIPE_FORMAT_R32_UINT
 15: ENDSWITCH
 16: MEMBAR IMM[0].wwww
 17: RESQ TEMP[0].x, BUFFER[0]
 18: RESQ TEMP[1].xy, IMAGE[0]
 19: UADD TEMP[0].x, TEMP[0].xxxx, TEMP[1].yyyy
 20: STORE BUFFER[0].x, IMM[0].zzzz, TEMP[0].xxxx
 21: END
";

const VERTEX: &str = "VERT
DCL IN[0]
DCL SV[0], VERTEXID
DCL SV[1], INSTANCEID
DCL OUT[0], POSITION
DCL OUT[1], PSIZE
DCL OUT[2], CLIPDIST
DCL OUT[3], GENERIC[3]
DCL TEMP[0..1]
DCL ADDR[0]
IMM[0] FLT32 {1.0, 2.0, 0.5, 0.0}
  0: MOV TEMP[0], IN[0]
  1: CAL :9
  2: U2F TEMP[1].x, SV[0].xxxx
  3: U2F TEMP[1].y, SV[1].xxxx
  4: MOV OUT[0], TEMP[0]
  5: MOV OUT[1].x, IMM[0].xxxx
  6: MOV OUT[2], TEMP[1]
  7: DMUL OUT[3].xy, IN[0].xyxy, IN[0].zwzw
  8: END
  9: BGNSUB
 10:   ARL ADDR[0].x, IN[0].xxxx
 11:   BGNLOOP
 12:     ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx
 13:     SGE TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy
 14:     IF TEMP[1].xxxx
 15:       BRK
 16:     ENDIF
 17:   ENDLOOP
 18:   RET
 19: ENDSUB
";

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

/// Whether `spirv-val --target-env ENV` accepts the SPIR-V file `path` (its message if not).
fn spirv_val(path: &std::path::Path, env: &str) -> Result<(), String> {
    let val = Command::new("spirv-val")
        .args(["--target-env", env])
        .arg(path)
        .output()
        .expect("spirv-val");
    match val.status.success() {
        true => Ok(()),
        false => Err(String::from_utf8_lossy(&val.stderr).into_owned()),
    }
}

/// `tools/hlslc`, built once for the tests of this file (or why it cannot be).
fn hlslc() -> &'static Result<Hlslc, String> {
    static HLSLC: OnceLock<Result<Hlslc, String>> = OnceLock::new();
    HLSLC.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tgsi-naga-hlslc-{}", std::process::id()));
        Hlslc::build(&dir)
    })
}

/// Whether Slang compiles the HLSL `src` of a `stage` entry point (its error if not), or
/// `None` when Slang is not here.
fn slang(name: &str, src: &str, stage: naga::ShaderStage) -> Option<Result<(), String>> {
    let hlslc = hlslc().as_ref().ok()?;
    let dir = std::env::temp_dir().join(format!("tgsi-naga-targets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.hlsl"));
    std::fs::write(&path, hlsl_check::for_slang(src)).expect("write");
    let stage = hlsl_check::Stage::of(stage).expect("a stage HLSL has");
    hlslc.check(stage, &[path]).pop()
}

fn check(name: &str, text: &str, ext: &str) {
    check_targets(name, text, ext, &Target::ALL);
}

fn check_targets(name: &str, text: &str, ext: &str, targets: &[Target]) {
    check_with(name, text, ext, targets, &tgsi_naga::Options::default());
}

/// [`check_targets`] with the host's options `base` (the target decides `native_int64`).
fn check_with(name: &str, text: &str, ext: &str, targets: &[Target], base: &tgsi_naga::Options) {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{name}: {}", e.message));
    let dir = std::env::temp_dir().join(format!("tgsi-naga-targets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for &target in targets {
        let options = tgsi_naga::Options {
            native_int64: tgsi_naga::options_for(target).native_int64,
            ..base.clone()
        };
        let module =
            tgsi_naga::translate_with(&shader, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let info = tgsi_naga::validate(&module).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = tgsi_naga::write(&module, &info, target, &WriteOptions::default())
            .unwrap_or_else(|e| panic!("{name} {}: {e}", target.name()));
        match (target, out) {
            (Target::SpirV, out) if tool("spirv-val") => {
                let path = dir.join(format!("{name}.spv"));
                std::fs::write(&path, out.into_bytes()).expect("write");
                if let Err(e) = spirv_val(&path, "vulkan1.1") {
                    panic!("{name}: {e}");
                }
            }
            (Target::Glsl, Output::Text(src)) if tool("glslangValidator") => {
                let path = dir.join(format!("{name}.{ext}"));
                std::fs::write(&path, src).expect("write");
                let val = Command::new("glslangValidator")
                    .arg(&path)
                    .output()
                    .expect("glslang");
                assert!(
                    val.status.success(),
                    "{name}: {}",
                    String::from_utf8_lossy(&val.stdout)
                );
            }
            (Target::Hlsl, Output::Text(src)) => {
                match slang(name, &src, module.entry_points[0].stage) {
                    Some(result) => {
                        if let Err(e) = result {
                            panic!("{name}: Slang: {e}\n{src}");
                        }
                    }
                    None => eprintln!("skipped: Slang not found; {name}'s HLSL not compiled"),
                }
            }
            (Target::SpirV, _) => eprintln!("skipped: spirv-val not found; {name} not validated"),
            (Target::Glsl, _) => {
                eprintln!("skipped: glslangValidator not found; {name} not validated")
            }
            _ => {}
        }
    }
}

/// The error translating `text` with `options` gives (the test fails if it translates).
fn refusal(text: &str, options: &tgsi_naga::Options) -> String {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
    match tgsi_naga::translate_with(&shader, options) {
        Ok(_) => panic!("translated, but should be refused:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn sample_family_and_fragment_operations() {
    check("textures", TEXTURES, "frag");
}

#[test]
fn tex_family_and_fragment_built_ins() {
    check("tex", TEX_FAMILY, "frag");
}

#[test]
fn rect_targets_and_cube_array_opcodes() {
    check("rect", RECT_AND_CUBEARRAYS, "frag");
}

/// LOD queries on every kind of view (computed in the shader, naga has none), in a
/// fragment shader and in a vertex shader (implicit LOD 0), texel offsets in registers
/// (gathers and texel fetches), and the size of a 1-D array (naga's SPIR-V for it is
/// repaired).
const LOD_QUERIES_AND_REGISTER_OFFSETS: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0..5]
DCL SVIEW[0], 1D_ARRAY, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL SVIEW[2], 3D, FLOAT
DCL SVIEW[3], CUBE, FLOAT
DCL SVIEW[4], 2D_ARRAY, FLOAT
DCL SVIEW[5], SHADOW2D, FLOAT
DCL TEMP[0..2]
IMM[0] INT32 {1, -2, 0, 300}
  0: LODQ TEMP[0].xy, IN[0], SAMP[0], 1D_ARRAY
  1: LODQ TEMP[0].zw, IN[0], SAMP[1], 2D
  2: LODQ TEMP[1].xy, IN[0], SAMP[2], 3D
  3: LOD TEMP[1], IN[0], SVIEW[3].yxzw, SAMP[3]
  4: F2I TEMP[2], IN[0]
  5: TG4 TEMP[0], IN[0], IMM[0].xxxx, SAMP[4], 2D_ARRAY, TEMP[2].xyz
  6: TG4 TEMP[1], IN[0], IMM[0].zzzz, SAMP[5], SHADOW2D, TEMP[2].wzw
  7: TXF TEMP[2], TEMP[2], SAMP[2], 3D, TEMP[2].yxw
  8: ADD TEMP[0], TEMP[0], TEMP[1]
  9: TXQ TEMP[1], IMM[0].zzzz, SAMP[0], 1D_ARRAY
 10: ADD TEMP[0], TEMP[0], TEMP[1]
 11: ADD OUT[0], TEMP[0], TEMP[2]
 12: END
";

const VERTEX_LOD_QUERY: &str = "VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0]
  0: LODQ TEMP[0].xy, IN[0], SAMP[0], 2D
  1: MOV OUT[0], TEMP[0].xyxy
  2: END
";

#[test]
fn lod_queries_and_register_texel_offsets() {
    let mut options = tgsi_naga::Options::default();
    options.lod_queries.insert(
        1,
        tgsi_naga::LodQuery {
            mip_filter: tgsi_naga::MipFilter::Nearest,
            min_lod: 0.5,
            max_lod: 2.0,
        },
    );
    options.lod_biases.insert(3, 1.5);
    // Gathered depth comparisons are made in the shader.
    let compare = tgsi_naga::DepthCompare {
        func: tgsi_naga::CompareFunc::Lequal,
        clamp_reference: true,
    };
    options.depth_compares = Some([(5, compare)].into());
    check_with(
        "lod",
        LOD_QUERIES_AND_REGISTER_OFFSETS,
        "frag",
        &Target::ALL,
        &options,
    );
    check("vertex-lod", VERTEX_LOD_QUERY, "vert");
    // A sample other than a gather cannot take a register offset (naga's are constants).
    let text = LOD_QUERIES_AND_REGISTER_OFFSETS.replace(
        "TG4 TEMP[0], IN[0], IMM[0].xxxx, SAMP[4], 2D_ARRAY, TEMP[2].xyz",
        "TEX TEMP[0], IN[0], SAMP[4], 2D_ARRAY, TEMP[2].xyz",
    );
    let err = refusal(&text, &tgsi_naga::Options::default());
    assert!(
        err.contains("6:") && err.contains("not a register"),
        "{err}"
    );
}

/// Samples of integer views, texel loads in the translation: 1-D with nearest mipmapping
/// and a bias, 2-D arrays, 3-D with a register offset, RECT, and the SAMPLE family.
const INTEGER_SAMPLES: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0..4]
DCL SVIEW[0], 1D, UINT
DCL SVIEW[1], 2D_ARRAY, SINT
DCL SVIEW[2], 3D, UINT
DCL SVIEW[3], RECT, UINT
DCL SVIEW[4], 2D, SINT
DCL TEMP[0..2]
IMM[0] INT32 {1, -2, 0, 3}
  0: TXB TEMP[0], IN[0], SAMP[0], 1D
  1: TEX TEMP[1], IN[0], SAMP[1], 2D_ARRAY
  2: F2I TEMP[2], IN[0]
  3: TXL TEMP[2], IN[0], SAMP[2], 3D, TEMP[2].xyz
  4: UADD TEMP[0], TEMP[0], TEMP[1]
  5: UADD TEMP[0], TEMP[0], TEMP[2]
  6: TEX TEMP[1], IN[0], SAMP[3], RECT, IMM[0].xyz
  7: SAMPLE_L TEMP[2], IN[0], SVIEW[4].wzyx, SAMP[4], IN[0].wwww
  8: UADD TEMP[0], TEMP[0], TEMP[1]
  9: UADD OUT[0], TEMP[0], TEMP[2]
 10: END
";

#[test]
fn integer_views_sampled_by_texel_loads() {
    let mut options = tgsi_naga::Options::default();
    options.lod_queries.insert(
        0,
        tgsi_naga::LodQuery {
            mip_filter: tgsi_naga::MipFilter::Nearest,
            ..Default::default()
        },
    );
    options.lod_biases.insert(0, 0.5);
    options.texel_samplers.insert(
        1,
        tgsi_naga::TexelSampler {
            wrap: [
                tgsi_naga::Wrap::MirrorRepeat,
                tgsi_naga::Wrap::ClampToBorder,
                tgsi_naga::Wrap::Repeat,
            ],
            border: [1, 2, 3, 4],
        },
    );
    check_with("integer", INTEGER_SAMPLES, "frag", &Target::ALL, &options);
    // Linear mipmapping of integer texels has no meaning; it is refused.
    options
        .lod_queries
        .insert(0, tgsi_naga::LodQuery::default());
    let err = refusal(INTEGER_SAMPLES, &options);
    assert!(err.contains("mipmaps linearly"), "{err}");
}

/// Samples through samplers whose border colour and wrap modes the host cannot give
/// (2-D with the implicit LOD, 3-D and 2-D at an explicit LOD).
const EMULATED_SAMPLERS: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SAMP[2]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 3D, FLOAT
DCL SVIEW[2], 2D, FLOAT
DCL TEMP[0..2]
  0: TEX TEMP[0], IN[0], SAMP[0], 2D
  1: TXL TEMP[1], IN[0], SAMP[1], 3D
  2: TXL TEMP[2], IN[0], SAMP[2], 2D
  3: ADD TEMP[0], TEMP[0], TEMP[1]
  4: ADD OUT[0], TEMP[0], TEMP[2]
  5: END
";

/// Options emulating border colours on all three samplers and every kind of coordinate
/// wrap.
fn emulating_options() -> tgsi_naga::Options {
    use tgsi_naga::CoordinateWrap as W;
    let border = [0.25f32, 0.5, 0.75, 0.125].map(f32::to_bits);
    tgsi_naga::Options {
        border_colors: (0..3).map(|i| (i, border)).collect(),
        coordinate_wraps: [
            (0, [W::Clamp, W::Mirror, W::Keep]),
            (1, [W::MirrorClamp, W::Keep, W::Clamp]),
            (2, [W::Mirror, W::Mirror, W::Keep]),
        ]
        .into_iter()
        .collect(),
        ..tgsi_naga::Options::default()
    }
}

#[test]
fn emulated_border_colours_and_wrap_modes() {
    let options = emulating_options();
    check_with(
        "emulated",
        EMULATED_SAMPLERS,
        "frag",
        &[Target::SpirV, Target::Glsl, Target::Wgsl],
        &options,
    );
    let module = tgsi_naga::translate_with(&tgsi::parse(EMULATED_SAMPLERS).unwrap(), &options)
        .expect("translates");
    // One coverage view beside each sampled view.
    let coverage: Vec<u32> = module
        .global_variables
        .iter()
        .filter_map(|(_, v)| v.binding.as_ref())
        .filter(|b| b.group == 1 && b.binding >= tgsi_naga::COVERAGE_BINDING_BASE)
        .map(|b| b.binding - tgsi_naga::COVERAGE_BINDING_BASE)
        .collect();
    assert_eq!(coverage, [0, 1, 2]);
    // What cannot be emulated is a positioned error.
    for (line, why) in [
        (
            "TXB TEMP[0], IN[0], SAMP[0], 2D",
            "biased sample through SAMP[0]",
        ),
        (
            "TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0]",
            "texel offset through SAMP[0]",
        ),
    ] {
        let text = EMULATED_SAMPLERS
            .replace(
                "  0: TEX TEMP[0], IN[0], SAMP[0], 2D",
                &format!("  0: {line}"),
            )
            .replace(
                "DCL TEMP[0..2]\n",
                "DCL TEMP[0..2]\nIMM[0] INT32 {0, 1, 0, 0}\n",
            );
        let shader = tgsi::parse(&text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
        let err = tgsi_naga::translate_with(&shader, &options).expect_err(line);
        assert!(err.to_string().contains(why), "{line}: {err}");
        assert!(
            err.to_string().starts_with("12:"),
            "positioned at the line: {err}"
        );
    }
}

/// Shadow samples at the implicit LOD, from gradients and gathered, for depth comparisons
/// made by the translation.
const SHADOW_SAMPLES: &str = "FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], SHADOW2D, FLOAT
DCL SVIEW[1], SHADOW2D, FLOAT
DCL TEMP[0..2]
IMM[0] INT32 {0, 0, 0, 0}
  0: TEX TEMP[0], IN[0], SAMP[0], SHADOW2D
  1: TXD TEMP[1], IN[0], IN[0].yxzw, IN[0].zwxy, SAMP[1], SHADOW2D
  2: TG4 TEMP[2], IN[0], IMM[0].xxxx, SAMP[0], SHADOW2D
  3: ADD TEMP[0], TEMP[0], TEMP[1]
  4: ADD OUT[0], TEMP[0], TEMP[2]
  5: END
";

#[test]
fn depth_comparisons_made_after_filtering() {
    use tgsi_naga::{CompareFunc, DepthCompare};
    let options = tgsi_naga::Options {
        // SAMP[1] compares nothing: its texel comes back as sampled.
        depth_compares: Some(
            [(
                0,
                DepthCompare {
                    func: CompareFunc::Lequal,
                    clamp_reference: true,
                },
            )]
            .into_iter()
            .collect(),
        ),
        // Border colours are added before comparing.
        ..emulating_options()
    };
    check_with(
        "shadow",
        SHADOW_SAMPLES,
        "frag",
        &[Target::SpirV, Target::Glsl, Target::Wgsl],
        &options,
    );
    // Without the option, the sampler compares, which naga cannot do from gradients.
    let err = refusal(SHADOW_SAMPLES, &tgsi_naga::Options::default());
    assert!(err.contains("compares depth only"), "{err}");
}

/// Texel fetches (one with an offset) and size queries of buffer views, which naga has no
/// type for: they read storage buffers of decoded texels.
const BUFFER_VIEWS: &str = "FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], BUFFER, FLOAT
DCL SVIEW[1], BUFFER, SINT
DCL TEMP[0..2]
IMM[0] INT32 {3, 0, 0, 0}
  0: F2I TEMP[0], IN[0]
  1: TXF TEMP[1], TEMP[0], SAMP[0], BUFFER
  2: TXF TEMP[2], TEMP[0], SAMP[1], BUFFER, IMM[0]
  3: I2F TEMP[2], TEMP[2]
  4: ADD TEMP[1], TEMP[1], TEMP[2]
  5: TXQ TEMP[2], IMM[0].yyyy, SAMP[1], BUFFER
  6: I2F TEMP[2], TEMP[2]
  7: ADD OUT[0], TEMP[1], TEMP[2]
  8: END
";

#[test]
fn buffer_views_read_texel_buffers() {
    check_targets(
        "buffer-views",
        BUFFER_VIEWS,
        "frag",
        &[Target::SpirV, Target::Glsl, Target::Wgsl],
    );
    let sampled = BUFFER_VIEWS.replace(
        "  1: TXF TEMP[1], TEMP[0], SAMP[0], BUFFER",
        "  1: TEX TEMP[1], IN[0], SAMP[0], BUFFER",
    );
    let err = refusal(&sampled, &tgsi_naga::Options::default());
    assert!(err.contains("samples a buffer view"), "{err}");
}

/// The bindings of a module's variables in the stage-IO group.
fn stage_io_bindings(module: &naga::Module) -> Vec<u32> {
    module
        .global_variables
        .iter()
        .filter_map(|(_, v)| v.binding.as_ref())
        .filter(|b| b.group == tgsi_naga::STAGE_IO_GROUP)
        .map(|b| b.binding)
        .collect()
}

#[test]
fn vertex_shaders_as_compute_shaders() {
    let options = tgsi_naga::Options {
        vertex_as_compute: true,
        ..tgsi_naga::Options::default()
    };
    check_with(
        "vertex-as-compute",
        VERTEX,
        "comp",
        &[Target::SpirV, Target::Glsl],
        &options,
    );
    let module = tgsi_naga::translate_with(&tgsi::parse(VERTEX).unwrap(), &options).unwrap();
    let entry = &module.entry_points[0];
    assert_eq!(entry.stage, naga::ShaderStage::Compute);
    assert_eq!(
        entry.workgroup_size,
        [tgsi_naga::VERTEX_WORKGROUP_SIZE, 1, 1]
    );
    assert_eq!(stage_io_bindings(&module), [0, 1]);
}

/// A geometry shader that emits from a subroutine, on two streams, from vertices chosen
/// indirectly, with PRIM_ID inputs and both system values.
const GEOMETRY: &str = "GEOM
PROPERTY GS_INPUT_PRIMITIVE TRIANGLES
PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 8
PROPERTY GS_INVOCATIONS 3
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL IN[][2], PRIM_ID
DCL SV[0], PRIM_ID
DCL SV[1], INVOCATIONID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0], STREAM(1, 1, 1, 1)
DCL TEMP[0..1]
DCL ADDR[0]
IMM[0] UINT32 {0, 1, 3, 2}
  0: MOV TEMP[0].x, IMM[0].xxxx
  1: BGNLOOP
  2:   USGE TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz
  3:   UIF TEMP[0].yyyy
  4:     BRK
  5:   ENDIF
  6:   UARL ADDR[0].x, TEMP[0].xxxx
  7:   MOV OUT[0], IN[ADDR[0].x][0]
  8:   ADD OUT[1], IN[ADDR[0].x][1], IN[2][2]
  9:   CAL :14
 10:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
 11: ENDLOOP
 12: ENDPRIM IMM[0].xxxx
 13: END
 14: BGNSUB
 15:   EMIT IMM[0].xxxx
 16:   UADD TEMP[1].x, SV[0].xxxx, SV[1].xxxx
 17:   MOV OUT[1].x, TEMP[1].xxxx
 18:   EMIT IMM[0].yyyy
 19:   MOV OUT[0], IN[1][ADDR[0].x]
 20:   EMIT IMM[0].wwww
 21:   RET
 22: ENDSUB
";

#[test]
fn geometry_shaders_as_compute_shaders() {
    let options = tgsi_naga::Options {
        geometry_as_compute: true,
        ..tgsi_naga::Options::default()
    };
    check_with(
        "geometry-as-compute",
        GEOMETRY,
        "comp",
        &Target::ALL,
        &options,
    );
    let shader = tgsi::parse(GEOMETRY).unwrap();
    let module = tgsi_naga::translate_with(&shader, &options).unwrap();
    let entry = &module.entry_points[0];
    assert_eq!(entry.stage, naga::ShaderStage::Compute);
    assert_eq!(
        entry.workgroup_size,
        [tgsi_naga::GEOMETRY_WORKGROUP_SIZE, 1, 1]
    );
    assert_eq!(stage_io_bindings(&module), [0, 1]);
    let layout = tgsi_naga::GeometryLayout::of(&shader).unwrap();
    assert_eq!(
        (
            layout.vertices_per_primitive,
            layout.input_stride,
            layout.invocations
        ),
        (3, 3, 3)
    );
    assert_eq!(
        (layout.max_vertices, layout.outputs.clone()),
        (8, vec![0, 1])
    );
    assert_eq!(layout.record_vec4s(), 1 + 8 * 3);
    // Without the option, and past Gallium's limits, the refusals say why.
    let plain = refusal(GEOMETRY, &tgsi_naga::Options::default());
    assert!(plain.contains("geometry_as_compute"), "{plain}");
    let many = GEOMETRY.replace("GS_MAX_OUTPUT_VERTICES 8", "GS_MAX_OUTPUT_VERTICES 1025");
    let limit = refusal(&many, &options);
    assert!(
        limit.contains("GS_MAX_OUTPUT_VERTICES") && limit.contains("1024"),
        "{limit}"
    );
    // Property errors point at the property (line 4).
    assert!(limit.starts_with("4:"), "{limit}");
    let no_output = GEOMETRY.replace("PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP\n", "");
    let missing = refusal(&no_output, &options);
    assert!(
        missing.contains("GS_OUTPUT_PRIMITIVE") && missing.contains("missing"),
        "{missing}"
    );
    let quads = GEOMETRY.replace("GS_INPUT_PRIMITIVE TRIANGLES", "GS_INPUT_PRIMITIVE QUADS");
    let primitive = refusal(&quads, &options);
    assert!(primitive.contains("GS_INPUT_PRIMITIVE"), "{primitive}");
}

/// A control shader: indirect per-vertex inputs and outputs, a BARRIER, another
/// invocation's output read back, per-patch outputs and levels, and a constant buffer
/// larger than 64 KiB read indirectly.
const TESS_CONTROL: &str = "TESS_CTRL
PROPERTY TCS_VERTICES_OUT 4
DCL IN[][0], GENERIC[0]
DCL SV[0], INVOCATIONID
DCL SV[1], VERTICESIN
DCL SV[2], PRIM_ID
DCL OUT[0], TESSOUTER
DCL OUT[1].xy, TESSINNER
DCL OUT[][2], GENERIC[0]
DCL OUT[3], PATCH
DCL CONST[0..16383]
DCL TEMP[0..1]
DCL ADDR[0]
IMM[0] UINT32 {1, 3, 0, 0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: ADD OUT[ADDR[0].x][2], IN[ADDR[0].x][0], CONST[ADDR[0].x + 9000]
  2: BARRIER
  3: UADD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  4: AND TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy
  5: UARL ADDR[0].x, TEMP[0].xxxx
  6: MOV TEMP[1], OUT[ADDR[0].x][2]
  7: MOV OUT[3], TEMP[1]
  8: U2F OUT[0], SV[1].xxxx
  9: U2F OUT[1].xy, SV[2].xxxx
 10: END
";

/// An evaluation shader: per-vertex inputs (one indirect), a per-patch input, the levels
/// as inputs and system values, the domain point.
const TESS_EVAL: &str = "TESS_EVAL
PROPERTY TES_PRIM_MODE 7
PROPERTY TES_SPACING 2
PROPERTY TES_VERTEX_ORDER_CW 0
PROPERTY TES_POINT_MODE 0
DCL IN[][0], GENERIC[0]
DCL IN[1], PATCH
DCL IN[2], TESSOUTER
DCL SV[0], TESSCOORD
DCL SV[1], TESSINNER
DCL SV[2], PRIM_ID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL TEMP[0]
DCL ADDR[0]
  0: MUL TEMP[0], IN[0][0], SV[0].xxxx
  1: MAD OUT[0], IN[3][0], SV[0].yyyy, TEMP[0]
  2: F2I TEMP[0].x, SV[0].xxxx
  3: UARL ADDR[0].x, TEMP[0].xxxx
  4: ADD OUT[1], IN[ADDR[0].x + 1][0], IN[1]
  5: ADD OUT[1].xy, IN[2].xyxy, SV[1].xyxy
  6: U2F OUT[1].w, SV[2].xxxx
  7: END
";

#[test]
fn tessellation_shaders_as_compute_shaders() {
    let options = tgsi_naga::Options {
        tessellation_as_compute: true,
        max_uniform_buffer_bytes: Some(65536),
        ..tgsi_naga::Options::default()
    };
    check_with("tess-control", TESS_CONTROL, "comp", &Target::ALL, &options);
    check_with("tess-eval", TESS_EVAL, "comp", &Target::ALL, &options);
    for (text, size) in [
        (TESS_CONTROL, 4),
        (TESS_EVAL, tgsi_naga::TESS_EVAL_WORKGROUP_SIZE),
    ] {
        let shader = tgsi::parse(text).unwrap();
        let module = tgsi_naga::translate_with(&shader, &options).unwrap();
        let entry = &module.entry_points[0];
        assert_eq!(entry.stage, naga::ShaderStage::Compute);
        assert_eq!(entry.workgroup_size, [size, 1, 1]);
        assert_eq!(stage_io_bindings(&module), [0, 1]);
    }
    // The 256 KiB constant buffer is a read-only storage buffer past the limit, a uniform
    // one without it.
    let shader = tgsi::parse(TESS_CONTROL).unwrap();
    let space = |options: &tgsi_naga::Options| {
        let module = tgsi_naga::translate_with(&shader, options).unwrap();
        let (_, var) = module
            .global_variables
            .iter()
            .find(|(_, v)| v.binding.is_some_and(|b| b.group == 0 && b.binding == 0))
            .expect("CONST[0]");
        var.space
    };
    assert!(matches!(
        space(&options),
        naga::AddressSpace::Storage { .. }
    ));
    let unlimited = tgsi_naga::Options {
        max_uniform_buffer_bytes: None,
        ..options.clone()
    };
    assert_eq!(space(&unlimited), naga::AddressSpace::Uniform);
    // Without the option, and without TCS_VERTICES_OUT, the refusals say why.
    for text in [TESS_CONTROL, TESS_EVAL] {
        let plain = refusal(text, &tgsi_naga::Options::default());
        assert!(plain.contains("tessellation_as_compute"), "{plain}");
    }
    let no_size = TESS_CONTROL.replace("PROPERTY TCS_VERTICES_OUT 4\n", "");
    let missing = refusal(&no_size, &options);
    assert!(missing.contains("TCS_VERTICES_OUT"), "{missing}");
    let big = TESS_CONTROL.replace("TCS_VERTICES_OUT 4", "TCS_VERTICES_OUT 33");
    let limit = refusal(&big, &options);
    assert!(limit.starts_with("2:") && limit.contains("33"), "{limit}");
}

/// naga declares `SampleMask` as a scalar, which Vulkan refuses; the SPIR-V written has
/// one-element arrays instead (`spirv-val` checks). naga's GLSL for it is refused.
#[test]
fn sample_mask_inputs_and_outputs() {
    let text = "FRAG\nDCL SV[0], SAMPLEMASK\nDCL OUT[0], COLOR\nDCL OUT[1], SAMPLEMASK\n\
                IMM[0] UINT32 {1, 0, 0, 0}\n  0: AND OUT[1].x, SV[0].xxxx, IMM[0].xxxx\n\
                1: U2F OUT[0], SV[0].xxxx\n  2: END\n";
    check_targets("sample-mask", text, "frag", &[Target::SpirV, Target::Glsl]);
    let shader = tgsi::parse(text).expect("parse");
    let module = tgsi_naga::translate(&shader).expect("translate");
    let info = tgsi_naga::validate(&module).expect("valid");
    // naga's GLSL treats the masks as scalars; they are arrays of int.
    let glsl = match tgsi_naga::write(&module, &info, Target::Glsl, &WriteOptions::default()) {
        Ok(Output::Text(text)) => text,
        other => panic!("GLSL is text: {other:?}"),
    };
    assert!(glsl.contains("uint(gl_SampleMaskIn[0])"), "{glsl}");
    assert!(glsl.contains("gl_SampleMask[0] = int("), "{glsl}");
    let words = match tgsi_naga::write(&module, &info, Target::SpirV, &WriteOptions::default()) {
        Ok(Output::Words(words)) => words,
        other => panic!("SPIR-V is words: {other:?}"),
    };
    // Both variables are arrays: two OpTypeArray of one element besides the constants'.
    let arrays = words.chunks(1).filter(|w| w[0] == (4 << 16 | 28)).count();
    assert!(arrays >= 2, "{arrays} arrays");
}

#[test]
fn loop_budgets_count_every_loop() {
    let options = tgsi_naga::Options {
        loop_budget: Some(1000),
        ..tgsi_naga::Options::default()
    };
    for (name, text, ext) in [
        ("budget-vertex", VERTEX, "vert"),
        ("budget-compute", COMPUTE, "comp"),
    ] {
        check_with(name, text, ext, &[Target::SpirV, Target::Glsl], &options);
        let module = tgsi_naga::translate_with(&tgsi::parse(text).unwrap(), &options).unwrap();
        let flag = module.global_variables.iter().any(|(_, v)| {
            v.binding
                .as_ref()
                .is_some_and(|b| b.group == 0 && b.binding == tgsi_naga::LOOP_BUDGET_BINDING)
        });
        assert!(flag, "{name}: no loop budget flag");
    }
}

#[test]
fn compute_memory_atomics_and_switch() {
    check("compute", COMPUTE, "comp");
}

#[test]
fn vertex_built_ins_subroutines_and_doubles() {
    check_targets("vertex", VERTEX, "vert", &[Target::SpirV, Target::Glsl]);
    // WGSL and HLSL have no point size, Metal has no doubles: the back ends say so.
    let shader = tgsi::parse(VERTEX).expect("parse");
    let module = tgsi_naga::translate(&shader).expect("translate");
    let info = tgsi_naga::validate(&module).expect("valid");
    let write = |target| tgsi_naga::write(&module, &info, target, &WriteOptions::default());
    let wgsl = write(Target::Wgsl).expect_err("WGSL cannot write PSIZE");
    assert!(wgsl.to_string().contains("PointSize"), "{wgsl}");
    let hlsl = write(Target::Hlsl).expect_err("HLSL cannot write PSIZE");
    assert!(hlsl.to_string().contains("PointSize"), "{hlsl}");
    let msl = write(Target::Msl).expect_err("MSL cannot write doubles");
    assert!(msl.to_string().contains("no 64-bit floats"), "{msl}");
    let plain = VERTEX
        .replace("DCL OUT[1], PSIZE\n", "")
        .replace("  5: MOV OUT[1].x, IMM[0].xxxx\n", "  5: NOP\n")
        .replace(
            "  7: DMUL OUT[3].xy, IN[0].xyxy, IN[0].zwzw\n",
            "  7: MUL OUT[3], IN[0], IN[0]\n",
        );
    check("vertex-plain", &plain, "vert");
}

/// A compute shader with atomics, loads, stores and size queries on images of every
/// target a storage buffer holds (`Options::image_atomics_as_buffers`), and buffer images
/// without atomics (one of four 32-bit channels).
const IMAGE_ATOMICS: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[1], 2D_ARRAY, PIPE_FORMAT_R32_SINT, WR
DCL IMAGE[2], 3D, PIPE_FORMAT_R32_FLOAT, WR
DCL IMAGE[3], CUBEARRAY, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[4], BUFFER, PIPE_FORMAT_R32_FLOAT, WR
DCL IMAGE[5], 1D_ARRAY, PIPE_FORMAT_R32_SINT, WR
DCL IMAGE[6], BUFFER, PIPE_FORMAT_R32G32B32A32_UINT, WR
DCL TEMP[0..3]
IMM[0] UINT32 {1, 2, 3, 7}
  0: ATOMUADD TEMP[0], IMAGE[0], SV[0], IMM[0].xxxx, 2D, PIPE_FORMAT_R32_UINT
  1: ATOMCAS TEMP[1].x, IMAGE[0], SV[0], TEMP[0].xxxx, IMM[0].yyyy, 2D, PIPE_FORMAT_R32_UINT
  2: ATOMUMIN TEMP[1].y, IMAGE[1], SV[0], TEMP[0].xxxx, 2D_ARRAY, PIPE_FORMAT_R32_SINT
  3: ATOMIMAX TEMP[1].z, IMAGE[5], SV[0], TEMP[0].xxxx, 1D_ARRAY, PIPE_FORMAT_R32_SINT
  4: ATOMXCHG TEMP[2], IMAGE[2], SV[0], TEMP[1].xxxx, 3D, PIPE_FORMAT_R32_FLOAT
  5: ATOMFADD TEMP[2].y, IMAGE[2], SV[0], TEMP[1].xxxx
  6: ATOMXOR TEMP[3], IMAGE[3], SV[0], IMM[0].wwww, CUBEARRAY, PIPE_FORMAT_R32_UINT
  7: LOAD TEMP[3], IMAGE[4], SV[0], PIPE_FORMAT_R32_FLOAT
  8: STORE IMAGE[0], SV[0], TEMP[3], 2D, PIPE_FORMAT_R32_UINT
  9: RESQ TEMP[3], IMAGE[3]
 10: STORE IMAGE[4], SV[0], TEMP[3], PIPE_FORMAT_R32_FLOAT
 11: LOAD TEMP[2], IMAGE[6], SV[0], PIPE_FORMAT_R32G32B32A32_UINT
 12: STORE IMAGE[6], SV[0], TEMP[2].wzyx, PIPE_FORMAT_R32G32B32A32_UINT
 13: END
";

/// Images held in storage buffers translate for every target (SPIR-V and GLSL checked by
/// the tools) with a buffer at each image's binding; without the option, an image atomic
/// and a buffer image are refused by name, an image with atomics whose texels are not
/// 32-bit single-channel ones is refused with the formats that can be held, and so is a
/// buffer image of 8-bit channels.
#[test]
fn image_atomics_in_storage_buffers() {
    let options = tgsi_naga::Options {
        image_atomics_as_buffers: true,
        ..tgsi_naga::Options::default()
    };
    check_with(
        "image-atomics",
        IMAGE_ATOMICS,
        "comp",
        &Target::ALL,
        &options,
    );
    let shader = tgsi::parse(IMAGE_ATOMICS).unwrap();
    let module = tgsi_naga::translate_with(&shader, &options).unwrap();
    let mut buffers: Vec<u32> = module
        .global_variables
        .iter()
        .filter(|(_, v)| matches!(v.space, naga::AddressSpace::Storage { .. }))
        .filter_map(|(_, v)| {
            v.binding
                .as_ref()
                .filter(|b| b.group == 2)
                .map(|b| b.binding)
        })
        .collect();
    buffers.sort();
    assert_eq!(buffers, [0, 1, 2, 3, 4, 5, 6]);
    let plain = refusal(IMAGE_ATOMICS, &tgsi_naga::Options::default());
    assert!(plain.contains("BUFFER"), "{plain}");
    // Without the buffer images, the image atomics are what is refused.
    let atomic_only: String = IMAGE_ATOMICS
        .lines()
        .filter(|l| !l.contains("IMAGE[4]") && !l.contains("IMAGE[6]"))
        .map(|l| format!("{l}\n"))
        .collect();
    let plain = refusal(&atomic_only, &tgsi_naga::Options::default());
    assert!(plain.contains("image_atomics_as_buffers"), "{plain}");
    let rgba = IMAGE_ATOMICS.replace(
        "DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR",
        "DCL IMAGE[0], 2D, PIPE_FORMAT_R8G8B8A8_UINT, WR",
    );
    let format = refusal(&rgba, &options);
    assert!(
        format.contains("R32_UINT") && format.contains("R8G8B8A8"),
        "{format}"
    );
    // A buffer image of 8-bit channels is not held (it would need packing).
    let bytes = IMAGE_ATOMICS.replace(
        "BUFFER, PIPE_FORMAT_R32G32B32A32_UINT",
        "BUFFER, PIPE_FORMAT_R8_UNORM",
    );
    let bytes = refusal(&bytes, &options);
    assert!(bytes.contains("BUFFER"), "{bytes}");
}

/// What naga has no built-in or IR for: a fragment LAYER input and HELPER_INVOCATION,
/// CLOCK, and a depth comparison with a LOD bias.
const BUILTINS_FRAGMENT: &str = concat!(
    "FRAG\nDCL IN[0], LAYER, CONSTANT\nDCL SV[0], HELPER_INVOCATION\nDCL OUT[0], COLOR\n",
    "  0: MOV OUT[0].xy, IN[0].xxxx\n  1: MOV OUT[0].zw, SV[0].xxxx\n  2: END\n",
);
const BUILTINS_COMPUTE: &str = concat!(
    "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n",
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL BUFFER[0]\nDCL TEMP[0]\nIMM[0] UINT32 {0, 0, 0, 0}\n",
    "  0: CLOCK TEMP[0].y\n  1: STORE BUFFER[0].xy, IMM[0].xxxx, TEMP[0]\n  2: END\n",
);
const BIASED_COMPARE: &str = concat!(
    "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n",
    "DCL SVIEW[0], SHADOW2D, FLOAT\n  0: TXB OUT[0], IN[0], SAMP[0], SHADOW2D\n  1: END\n",
);

#[test]
fn glsl_built_ins_naga_lacks() {
    let (fragment, compute, biased) = (BUILTINS_FRAGMENT, BUILTINS_COMPUTE, BIASED_COMPARE);
    let glsl = tgsi_naga::options_for(Target::Glsl);
    let txb = refusal(biased, &tgsi_naga::Options::default());
    assert!(
        txb.starts_with("6:6: TXB: naga compares depth only"),
        "{txb}"
    );
    check_with(
        "glsl-biased-compare",
        biased,
        "frag",
        &[Target::Glsl],
        &glsl,
    );
    // Without GLSL's built-ins they are refused with their position.
    let fs = refusal(fragment, &tgsi_naga::Options::default());
    assert!(fs.starts_with("2:1: DCL IN[0], LAYER: "), "{fs}");
    let cs = refusal(compute, &tgsi_naga::Options::default());
    assert!(cs.starts_with("8:6: CLOCK: "), "{cs}");
    check_with("glsl-builtins-fs", fragment, "frag", &[Target::Glsl], &glsl);
    check_with("glsl-builtins-cs", compute, "comp", &[Target::Glsl], &glsl);
    for (text, expected) in [
        (
            fragment,
            &[
                "tgsi_builtin_layer = uint(gl_Layer);",
                "tgsi_builtin_helper = gl_HelperInvocation ? 0xffffffffu : 0u;",
            ][..],
        ),
        (
            compute,
            &[
                "#extension GL_ARB_shader_clock : require",
                "tgsi_builtin_clock = clock2x32ARB();",
            ][..],
        ),
        (biased, &[", tgsi_compare_bias);"][..]),
    ] {
        let shader = tgsi::parse(text).expect("parse");
        let module = tgsi_naga::translate_with(&shader, &glsl).expect("translate");
        let info = tgsi_naga::validate(&module).expect("valid");
        let out = tgsi_naga::write(&module, &info, Target::Glsl, &WriteOptions::default());
        let Ok(Output::Text(src)) = out else {
            panic!("GLSL: {out:?}")
        };
        for e in expected {
            assert!(src.contains(e), "{e} missing from:\n{src}");
        }
        // Only GLSL and SPIR-V can be written from such a module.
        let wgsl = tgsi_naga::write(&module, &info, Target::Wgsl, &WriteOptions::default())
            .expect_err("WGSL refused");
        assert!(wgsl.to_string().contains("only GLSL or SPIR-V"), "{wgsl}");
    }
}

/// The instructions of SPIR-V `words` after the header (opcode word first).
fn spirv_instructions(words: &[u32]) -> Vec<&[u32]> {
    let mut out = Vec::new();
    let mut rest = &words[5..];
    while let Some(&first) = rest.first() {
        let (inst, tail) = rest.split_at((first >> 16) as usize);
        out.push(inst);
        rest = tail;
    }
    out
}

#[test]
fn spirv_built_ins_naga_lacks() {
    let (fragment, compute, biased) = (BUILTINS_FRAGMENT, BUILTINS_COMPUTE, BIASED_COMPARE);
    let spirv = tgsi_naga::options_for(Target::SpirV);
    const OP_DECORATE: u32 = 71;
    const OP_READ_CLOCK_KHR: u32 = 5056;
    const OP_IMAGE_SAMPLE_DREF_IMPLICIT_LOD: u32 = 89;
    // (BuiltIn Layer, BuiltIn HelperInvocation), OpReadClockKHR, a Bias operand.
    let layer = |i: &[u32]| i[0] & 0xffff == OP_DECORATE && i[2..] == [11, 9];
    let helper = |i: &[u32]| i[0] & 0xffff == OP_DECORATE && i[2..] == [11, 23];
    let clock = |i: &[u32]| i[0] & 0xffff == OP_READ_CLOCK_KHR;
    let bias =
        |i: &[u32]| i[0] & 0xffff == OP_IMAGE_SAMPLE_DREF_IMPLICIT_LOD && i.get(6) == Some(&1);
    type Has = dyn Fn(&[u32]) -> bool;
    let cases: [(&str, &str, &[&Has]); 3] = [
        ("spirv-builtins-fs", fragment, &[&layer, &helper]),
        ("spirv-builtins-cs", compute, &[&clock]),
        ("spirv-biased-compare", biased, &[&bias]),
    ];
    for (name, text, wanted) in cases {
        check_with(name, text, "spv", &[Target::SpirV], &spirv);
        let shader = tgsi::parse(text).expect("parse");
        let module = tgsi_naga::translate_with(&shader, &spirv).expect("translate");
        let info = tgsi_naga::validate(&module).expect("valid");
        for version in [(1, 0), (1, 3), (1, 6)] {
            let options = WriteOptions {
                spirv_version: version,
                ..WriteOptions::default()
            };
            let out = tgsi_naga::write(&module, &info, Target::SpirV, &options);
            let Ok(Output::Words(words)) = out else {
                panic!("{name}: {out:?}")
            };
            let insts = spirv_instructions(&words);
            for (k, has) in wanted.iter().enumerate() {
                assert!(
                    insts.iter().any(|i| has(i)),
                    "{name} {version:?}: built-in {k}"
                );
            }
            if tool("spirv-val") {
                let path = std::env::temp_dir().join(format!(
                    "tgsi-naga-{name}-{}-{}.spv",
                    version.1,
                    std::process::id()
                ));
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                std::fs::write(&path, bytes).expect("write");
                let valid = spirv_val(&path, "vulkan1.3");
                let _ = std::fs::remove_file(&path);
                if let Err(e) = valid {
                    panic!("{name} {version:?}: {e}");
                }
            } else {
                eprintln!("skipped: spirv-val not found; {name} {version:?} not validated");
            }
        }
        // Other languages refuse such a module.
        let wgsl = tgsi_naga::write(&module, &info, Target::Wgsl, &WriteOptions::default())
            .expect_err("WGSL refused");
        assert!(wgsl.to_string().contains("only GLSL or SPIR-V"), "{wgsl}");
    }
    // A fragment coordinate redeclared for GLSL has no SPIR-V form.
    let position = "FRAG\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\nDCL IN[0], POSITION, LINEAR\n\
                    DCL IN[1], LAYER, CONSTANT\nDCL OUT[0], COLOR\n\
                    0: ADD OUT[0], IN[0], IN[1].xxxx\n  1: END\n";
    let shader = tgsi::parse(position).expect("parse");
    let glsl = tgsi_naga::options_for(Target::Glsl);
    let module = tgsi_naga::translate_with(&shader, &glsl).expect("translate");
    let info = tgsi_naga::validate(&module).expect("valid");
    let err = tgsi_naga::write(&module, &info, Target::SpirV, &WriteOptions::default())
        .expect_err("SPIR-V refused");
    assert!(err.to_string().contains("gl_FragCoord"), "{err}");
    // The SPIR-V translation of that shader reads SPIR-V's own fragment coordinate.
    check_with(
        "spirv-builtins-position",
        position,
        "spv",
        &[Target::SpirV],
        &spirv,
    );
}

#[test]
fn fragment_coordinates_follow_the_properties_in_glsl() {
    let body = "DCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
    let glsl = tgsi_naga::options_for(Target::Glsl);
    // TGSI's default origin is the upper left, GL's the lower left.
    for (properties, expected) in [
        ("", Some("layout(origin_upper_left) in vec4 gl_FragCoord;")),
        ("PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n", None),
        (
            "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n",
            Some("layout(pixel_center_integer) in vec4 gl_FragCoord;"),
        ),
        (
            "PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n",
            Some("layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;"),
        ),
    ] {
        let text = format!("FRAG\n{properties}{body}");
        check_with("frag-coord", &text, "frag", &[Target::Glsl], &glsl);
        let shader = tgsi::parse(&text).expect("parse");
        let module = tgsi_naga::translate_with(&shader, &glsl).expect("translate");
        let info = tgsi_naga::validate(&module).expect("valid");
        let Ok(Output::Text(src)) =
            tgsi_naga::write(&module, &info, Target::Glsl, &WriteOptions::default())
        else {
            panic!("GLSL is text")
        };
        match expected {
            Some(line) => assert!(src.contains(line), "{line} missing from:\n{src}"),
            None => assert!(!src.contains("in vec4 gl_FragCoord;"), "{src}"),
        }
        if expected.is_some() {
            // GLSL ES cannot say it.
            let es = WriteOptions {
                glsl_version: 310,
                glsl_es: true,
                ..WriteOptions::default()
            };
            let error = tgsi_naga::write(&module, &info, Target::Glsl, &es).expect_err("ES");
            assert!(error.to_string().contains("GLSL ES has no"), "{error}");
        }
    }
}

/// What naga 30's HLSL writer gets wrong is repaired (each was found by compiling the
/// translations with Slang; `tools/hlslc`): a clip-distance array keeps its size in the
/// entry point's output struct, a vertex shader samples at an explicit level 0
/// (`SampleLevel`, not the `SampleLevelZero` HLSL lacks), a 1-D array texture's levels and
/// layers are counted with its own overload of `GetDimensions`, and a store to a storage
/// texture of one channel stores one. Slang compiles each shader when it is here.
#[test]
fn hlsl_naga_gets_wrong_is_repaired() {
    const VERTEX_SAMPLING: &str = "VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], CLIPDIST[0]
DCL OUT[2], CLIPDIST[1]
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
  0: TEX OUT[0], IN[0], SAMP[0], 2D
  1: MOV OUT[1], IN[0]
  2: MOV OUT[2], IN[0].wzyx
  3: END
";
    const ONE_D_ARRAY: &str = "FRAG
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 1D_ARRAY, FLOAT
IMM[0] INT32 {0, 0, 0, 0}
  0: TXQ OUT[0], IMM[0].xxxx, SAMP[0], 1D_ARRAY
  1: END
";
    let hlsl = |name: &str, text: &str| {
        let shader = tgsi::parse(text).expect("parse");
        let module = tgsi_naga::translate_with(&shader, &tgsi_naga::options_for(Target::Hlsl))
            .expect("translate");
        let info = tgsi_naga::validate(&module).expect("valid");
        let Ok(Output::Text(src)) =
            tgsi_naga::write(&module, &info, Target::Hlsl, &WriteOptions::default())
        else {
            panic!("{name}: no HLSL");
        };
        if let Some(Err(e)) = slang(name, &src, module.entry_points[0].stage) {
            panic!("{name}: Slang: {e}\n{src}");
        }
        src
    };
    let vertex = hlsl("repair-vertex", VERTEX_SAMPLING);
    let clip = vertex
        .lines()
        .filter(|l| l.contains(": SV_ClipDistance;"))
        .collect::<Vec<_>>();
    assert!(!clip.is_empty(), "{vertex}");
    assert!(
        clip.iter().all(|l| l.contains("[8] : SV_ClipDistance;")),
        "{clip:?}"
    );
    assert!(
        vertex.contains(".SampleLevel(") && !vertex.contains("SampleLevelZero"),
        "{vertex}"
    );
    let one_d = hlsl("repair-1d-array", ONE_D_ARRAY);
    for function in ["NagaNumLevels1DArray", "NagaNumLayers1DArray"] {
        let body: String = one_d
            .lines()
            .skip_while(|l| !l.starts_with(&format!("uint {function}(")))
            .take_while(|l| !l.starts_with('}'))
            .collect();
        assert!(
            body.contains("GetDimensions(0, ret.x, ret.y, ret.z);"),
            "{body}"
        );
    }
    let compute = hlsl("repair-compute", COMPUTE);
    assert!(compute.contains("RWTexture2D<uint> "), "{compute}");
    let stores: Vec<&str> = compute
        .lines()
        .filter(|l| l.trim_start().starts_with("image0_["))
        .collect();
    assert!(
        !stores.is_empty() && stores.iter().all(|l| l.ends_with(").x;")),
        "{stores:?}"
    );
}

/// A geometry shader becomes an HLSL geometry shader (`tgsi_naga::geometry_hlsl`): its
/// primitive, vertex count, instances and output stream in the entry point, a strip restart
/// where ENDPRIM ends one, varyings at naga's `LOC{L}` semantics and system values for
/// positions, clip distances, layers and primitive ids; Slang compiles it when it is here.
/// Streams other than 0 and point sizes are refused with their positions.
#[test]
fn geometry_shaders_as_hlsl_geometry_shaders() {
    const GS: &str = "GEOM
PROPERTY GS_INPUT_PRIMITIVE LINES_ADJACENCY
PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP
PROPERTY GS_MAX_OUTPUT_VERTICES 4
PROPERTY GS_INVOCATIONS 2
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[3]
DCL IN[][2], PRIM_ID
DCL SV[0], INVOCATIONID
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[3]
DCL OUT[2], CLIPDIST[0]
DCL OUT[3], LAYER
DCL OUT[4], PRIM_ID
DCL TEMP[0]
IMM[0] UINT32 {0, 1, 0, 0}
  0: MOV OUT[0], IN[1][0]
  1: ADD OUT[1], IN[2][1], IN[3][1]
  2: MOV OUT[2], IN[0][0]
  3: MOV OUT[3].x, SV[0].xxxx
  4: MOV OUT[4].x, IN[0][2].xxxx
  5: EMIT IMM[0].xxxx
  6: EMIT IMM[0].xxxx
  7: ENDPRIM IMM[0].xxxx
  8: EMIT IMM[0].xxxx
  9: END
";
    let options = tgsi_naga::options_for(Target::Hlsl);
    let write = WriteOptions::default();
    let shader = tgsi::parse(GS).expect("parse");
    let hlsl = tgsi_naga::geometry_hlsl(&shader, &options, &write).expect("translates");
    for expected in [
        "[maxvertexcount(4)]",
        "[instance(2)]",
        "void main(lineadj TgsiGsVertexIn tgsi_input[4], uint tgsi_primitive_in : SV_PrimitiveID, \
         uint tgsi_instance_in : SV_GSInstanceID, inout LineStream<TgsiGsVertexOut> tgsi_stream)",
        "    float4 loc3 : LOC3;",
        "    float clip[8] : SV_ClipDistance;",
        "    uint layer : SV_RenderTargetArrayIndex;",
        "    uint primitive : SV_PrimitiveID;",
        "tgsi_stream.RestartStrip();",
    ] {
        assert!(hlsl.contains(expected), "{expected}\n{hlsl}");
    }
    if let Ok(hlslc) = hlslc() {
        let dir = std::env::temp_dir().join(format!("tgsi-naga-targets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("geometry.hlsl");
        std::fs::write(&path, hlsl_check::for_slang(&hlsl)).expect("write");
        let result = hlslc.check(hlsl_check::Stage::Geometry, &[path]).pop();
        assert!(matches!(result, Some(Ok(()))), "{result:?}\n{hlsl}");
    } else {
        eprintln!("skipped: Slang not found; the geometry shader's HLSL is not compiled");
    }
    let refused = |text: &str| match tgsi::parse(text) {
        Ok(shader) => tgsi_naga::geometry_hlsl(&shader, &options, &write)
            .expect_err("refused")
            .to_string(),
        Err(e) => panic!("{}", e.message),
    };
    let stream_1 = refused(&GS.replace("  8: EMIT IMM[0].xxxx", "  8: EMIT IMM[0].yyyy"));
    assert!(
        stream_1.contains("EMIT") && stream_1.contains("stream 1"),
        "{stream_1}"
    );
    let point_size = refused(&GS.replace("DCL OUT[4], PRIM_ID", "DCL OUT[4], PSIZE"));
    assert!(point_size.contains("PSIZE"), "{point_size}");
}

/// A control and an evaluation shader become an HLSL hull and domain shader
/// (`tgsi_naga::tessellation_hlsl`): the domain, partitioning and winding of the evaluation
/// shader on the hull shader (GL's clockwise is D3D's counter-clockwise), the input patch
/// size given, a patch-constant function running every invocation, the factors as
/// `SV_TessFactor` and `SV_InsideTessFactor`, `PATCH` outputs read back by the domain
/// shader, the primitive's number passed to the patch-constant function in the control
/// points; Slang compiles both when it is here. BARRIER and point sizes are refused, each
/// with the shader it is in.
#[test]
fn tessellation_shaders_as_hlsl_hull_and_domain_shaders() {
    const TCS: &str = "TESS_CTRL
PROPERTY TCS_VERTICES_OUT 4
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[0]
DCL SV[0], INVOCATIONID
DCL SV[1], PRIM_ID
DCL OUT[][0], POSITION
DCL OUT[][1], GENERIC[2]
DCL OUT[2], TESSOUTER
DCL OUT[3], TESSINNER
DCL OUT[4], PATCH[1]
DCL TEMP[0]
DCL ADDR[0]
IMM[0] FLT32 {2.0, 3.0, 0.0, 0.0}
  0: UARL ADDR[0].x, SV[0].xxxx
  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]
  2: ADD OUT[ADDR[0].x][1], IN[ADDR[0].x][1], IMM[0].xxxx
  3: MOV OUT[2], IMM[0].xxxx
  4: MOV OUT[3].xy, IMM[0].yyyy
  5: U2F TEMP[0].x, SV[1].xxxx
  6: MOV OUT[4], TEMP[0].xxxx
  7: END
";
    const TES: &str = "TESS_EVAL
PROPERTY TES_PRIM_MODE 7
PROPERTY TES_SPACING 1
PROPERTY TES_VERTEX_ORDER_CW 1
PROPERTY TES_POINT_MODE 0
DCL IN[][0], POSITION
DCL IN[][1], GENERIC[2]
DCL IN[2], PATCH[1]
DCL IN[3], TESSOUTER
DCL SV[0], TESSCOORD
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[4]
DCL TEMP[0]
  0: MUL TEMP[0], IN[0][0], SV[0].xxxx
  1: MAD OUT[0], IN[3][0], SV[0].yyyy, TEMP[0]
  2: ADD OUT[1], IN[2], IN[1][1]
  3: END
";
    let options = tgsi_naga::options_for(Target::Hlsl);
    let write = WriteOptions::default();
    let (tcs, tes) = (
        tgsi::parse(TCS).expect("tcs"),
        tgsi::parse(TES).expect("tes"),
    );
    let [hull, domain] = tgsi_naga::tessellation_hlsl(&tcs, &tes, 3, &options, &write)
        .unwrap_or_else(|(p, e)| panic!("{}: {e}", p.name()));
    for expected in [
        "[domain(\"quad\")]",
        "[partitioning(\"fractional_even\")]",
        "[outputtopology(\"triangle_ccw\")]",
        "[outputcontrolpoints(4)]",
        "[patchconstantfunc(\"tgsi_patch_constants\")]",
        "InputPatch<TgsiHsVertexIn, 3> tgsi_patch",
        "const OutputPatch<TgsiHsControlPoint, 4> tgsi_points",
        "    float outer[4] : SV_TessFactor;",
        "    float inner[2] : SV_InsideTessFactor;",
        "    float4 patch1 : PATCH1;",
        "    uint primitive : TGSI_PRIMITIVE_ID;",
        "    float4 levels_outer : TGSI_TESS_OUTER;",
        "for (uint i = 0u; i < 4u; i++) {",
    ] {
        assert!(hull.contains(expected), "{expected}\n{hull}");
    }
    for expected in [
        "[domain(\"quad\")]",
        "float2 tgsi_location : SV_DomainLocation",
        "const OutputPatch<TgsiHsControlPoint, 4> tgsi_points",
        "asuint(tgsi_patch_constants_in.patch1)",
        "asuint(tgsi_patch_constants_in.levels_outer)",
        "    float4 loc",
        " : SV_Position;",
    ] {
        assert!(domain.contains(expected), "{expected}\n{domain}");
    }
    if let Ok(hlslc) = hlslc() {
        let dir = std::env::temp_dir().join(format!("tgsi-naga-targets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for (name, text, stage) in [
            ("hull.hlsl", &hull, hlsl_check::Stage::Hull),
            ("domain.hlsl", &domain, hlsl_check::Stage::Domain),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, hlsl_check::for_slang(text)).expect("write");
            let result = hlslc.check(stage, &[path]).pop();
            assert!(matches!(result, Some(Ok(()))), "{name}: {result:?}\n{text}");
        }
    } else {
        eprintln!("skipped: Slang not found; the hull and domain shaders are not compiled");
    }
    let refused = |tcs: &str, tes: &str| {
        let (tcs, tes) = (
            tgsi::parse(tcs).expect("tcs"),
            tgsi::parse(tes).expect("tes"),
        );
        match tgsi_naga::tessellation_hlsl(&tcs, &tes, 3, &options, &write) {
            Ok(_) => panic!("translated, but should be refused"),
            Err((processor, e)) => (processor, e.to_string()),
        }
    };
    let (processor, barrier) = refused(&TCS.replace("  5: U2F", "  5: BARRIER\n  6: U2F"), TES);
    assert_eq!(processor, tgsi::Processor::TessCtrl);
    assert!(barrier.contains("BARRIER"), "{barrier}");
    let (processor, size) = refused(
        TCS,
        &TES.replace("DCL OUT[1], GENERIC[4]", "DCL OUT[1], PSIZE"),
    );
    assert_eq!(processor, tgsi::Processor::TessEval);
    assert!(size.contains("PSIZE"), "{size}");
}

/// 64-bit integers and doubles compile with Slang at shader model 5.1 (64-bit integers
/// built from their words, `tgsi translate`'s default) and at 6.0 (HLSL's `uint64_t`).
#[test]
fn hlsl_64_bit_values_at_shader_models_5_and_6() {
    const WIDE: &str = "FRAG
DCL IN[0], GENERIC[0], CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0..3]
IMM[0] UINT32 {7, 3, 4294967295, 1}
IMM[1] FLT64 {1.5, -2.25}
  0: U2I64 TEMP[0].xy, IN[0].xxxx
  1: U64ADD TEMP[1].xy, TEMP[0].xyxy, IMM[0].xyxy
  2: U64MUL TEMP[1].zw, TEMP[1].xyxy, IMM[0].zwzw
  3: U64DIV TEMP[2].xy, TEMP[1].zwzw, IMM[0].xyxy
  4: I64MOD TEMP[2].zw, TEMP[1].zwzw, IMM[0].zwzw
  5: U64SHL TEMP[3].xy, TEMP[2].xyxy, IMM[0].yyyy
  6: I64SHR TEMP[3].zw, TEMP[2].zwzw, IMM[0].xxxx
  7: U64SLT TEMP[0].x, TEMP[3].xyxy, TEMP[3].zwzw
  8: I642D TEMP[2].xy, TEMP[3].zwzw
  9: DMUL TEMP[2].xy, TEMP[2].xyxy, IMM[1].xyxy
 10: DADD TEMP[2].zw, TEMP[2].xyxy, IMM[1].zwzw
 11: D2U64 TEMP[1].xy, TEMP[2].zwzw
 12: U642F TEMP[0].y, TEMP[1].xyxy
 13: D2F TEMP[0].z, TEMP[2].zwzw
 14: MOV OUT[0], TEMP[0]
 15: END
";
    let shader = tgsi::parse(WIDE).unwrap_or_else(|e| panic!("{}", e.message));
    for model in [(5, 1), (6, 0)] {
        let options = tgsi_naga::options_for_model(Target::Hlsl, model);
        let module = tgsi_naga::translate_with(&shader, &options).expect("translate");
        let info = tgsi_naga::validate(&module).expect("valid");
        let write = WriteOptions {
            hlsl_shader_model: model,
            ..WriteOptions::default()
        };
        let Ok(Output::Text(hlsl)) = tgsi_naga::write(&module, &info, Target::Hlsl, &write) else {
            panic!("no HLSL at shader model {model:?}");
        };
        assert_eq!(
            hlsl.contains("int64_t"),
            model >= (6, 0),
            "{model:?}\n{hlsl}"
        );
        let name = format!("wide-sm{}{}", model.0, model.1);
        match slang(&name, &hlsl, naga::ShaderStage::Fragment) {
            Some(result) => {
                if let Err(e) = result {
                    panic!("shader model {model:?}: Slang: {e}\n{hlsl}");
                }
            }
            None => eprintln!("skipped: Slang not found; {name} is not compiled"),
        }
    }
}
