//! Fuzz target: arbitrary bytes as TGSI text, translated through naga as a host would
//! translate a guest's shader. Whatever parses is translated and validated, or refused
//! with an error, twice: with the default options and with every
//! emulation a GPU host turns on (LOD biases and queries, border colours, coordinate wraps,
//! 1-D views as rows, depth comparisons in the shader, integer samplers, a loop budget,
//! vertex, geometry and tessellation shaders as compute shaders, images with atomics and
//! buffer images in storage buffers, constant buffers past 1 KiB as storage buffers).
//! Every valid module is written by all five back ends, and every shader is also written as
//! SPIR-V with SPIR-V's built-ins (`Options::spirv_builtins`) and as
//! GLSL with GLSL's built-ins (`Options::glsl_builtins`), geometry and tessellation shaders
//! as GLSL stages (`tgsi_naga::geometry_glsl`, `tgsi_naga::tessellation_glsl`) and as HLSL
//! stages (`tgsi_naga::geometry_hlsl`; `tgsi_naga::tessellation_hlsl`, a control shader with
//! a fixed evaluation shader and an evaluation shader with a fixed control shader). Nothing
//! may panic.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use tgsi_naga::{
    CompareFunc, CoordinateWrap, DepthCompare, LodQuery, MipFilter, Options, Target, TexelSampler,
    Wrap, WriteOptions,
};

/// The options of a GPU host that emulates everything it can, on units 0 to 3.
fn emulating() -> Options {
    let units = 0..4u32;
    Options {
        lod_biases: units.clone().map(|u| (u, 0.5 * u as f32)).collect(),
        border_colors: units.clone().map(|u| (u, [u, 1, 0x3f80_0000, 7])).collect(),
        coordinate_wraps: units
            .clone()
            .map(|u| {
                let w = [
                    CoordinateWrap::Keep,
                    CoordinateWrap::Clamp,
                    CoordinateWrap::Mirror,
                    CoordinateWrap::MirrorClamp,
                ][u as usize];
                (u, [w; 3])
            })
            .collect(),
        one_d_as_2d: true,
        depth_compares: Some(
            units
                .clone()
                .map(|u| {
                    let compare = DepthCompare {
                        func: CompareFunc::Lequal,
                        clamp_reference: u % 2 == 0,
                    };
                    (u, compare)
                })
                .collect(),
        ),
        lod_queries: units
            .clone()
            .map(|u| {
                let query = LodQuery {
                    mip_filter: [MipFilter::None, MipFilter::Nearest][u as usize % 2],
                    min_lod: -1.5,
                    max_lod: 4.0,
                };
                (u, query)
            })
            .collect(),
        texel_samplers: units
            .clone()
            .map(|u| {
                let sampler = TexelSampler {
                    wrap: [
                        Wrap::MirrorClampToBorder,
                        Wrap::ClampToBorder,
                        Wrap::MirrorRepeat,
                    ],
                    border: [u; 4],
                };
                (u, sampler)
            })
            .collect(),
        view_swizzles: BTreeMap::from([(1, [2, 1, 0, 5])]),
        loop_budget: Some(1000),
        vertex_as_compute: true,
        geometry_as_compute: true,
        tessellation_as_compute: true,
        image_atomics_as_buffers: true,
        max_uniform_buffer_bytes: Some(1024),
        ..Options::default()
    }
}

/// The partners of fuzzed tessellation shaders in HLSL.
const CONTROL: &str = "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\n\
    DCL SV[0], INVOCATIONID\nDCL OUT[][0], POSITION\nDCL OUT[][1], GENERIC[0]\n\
    DCL OUT[2], TESSOUTER\nDCL OUT[3], TESSINNER\nDCL OUT[4], PATCH[0]\nDCL ADDR[0]\n\
      0: UARL ADDR[0].x, SV[0].xxxx\n  1: MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n  2: END\n";
const EVALUATION: &str = "TESS_EVAL\nPROPERTY TES_PRIM_MODE 7\nPROPERTY TES_SPACING 0\n\
    DCL IN[][0], POSITION\nDCL IN[1], PATCH[0]\nDCL SV[0], TESSCOORD\nDCL OUT[0], POSITION\n\
      0: MUL OUT[0], IN[0][0], SV[0].xxxx\n  1: END\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(shader) = tgsi::parse(text) else {
        return;
    };
    for options in [Options::default(), emulating()] {
        // Refused or written: GLSL written around naga's (the geometry and tessellation
        // stages, GLSL's built-ins) must never panic either.
        let glsl_options = Options {
            native_int64: false,
            glsl_builtins: true,
            geometry_as_compute: false,
            tessellation_as_compute: false,
            ..options.clone()
        };
        let write = WriteOptions::default();
        if tgsi_naga::glsl_stage(&shader, &glsl_options, &write).is_none() {
            if let Ok(module) = tgsi_naga::translate_with(&shader, &glsl_options) {
                if let Ok(info) = tgsi_naga::validate(&module) {
                    let _ = tgsi_naga::write(&module, &info, Target::Glsl, &write);
                }
            }
        }
        // HLSL's geometry, hull and domain shaders, written around naga's HLSL.
        let hlsl_options = Options {
            geometry_as_compute: false,
            tessellation_as_compute: false,
            ..options.clone()
        };
        match shader.processor {
            tgsi::Processor::Geometry => {
                let _ = tgsi_naga::geometry_hlsl(&shader, &hlsl_options, &write);
            }
            tgsi::Processor::TessCtrl | tgsi::Processor::TessEval => {
                let partner = if shader.processor == tgsi::Processor::TessCtrl {
                    EVALUATION
                } else {
                    CONTROL
                };
                let partner = tgsi::parse(partner).expect("the partners parse");
                let (control, evaluation) = if shader.processor == tgsi::Processor::TessCtrl {
                    (&shader, &partner)
                } else {
                    (&partner, &shader)
                };
                for vertices in [1, 3, 32] {
                    let _ = tgsi_naga::tessellation_hlsl(
                        control,
                        evaluation,
                        vertices,
                        &hlsl_options,
                        &write,
                    );
                }
            }
            _ => {}
        }
        // SPIR-V's built-ins, completed in naga's words.
        let spirv_options = Options {
            spirv_builtins: true,
            ..options.clone()
        };
        if let Ok(module) = tgsi_naga::translate_with(&shader, &spirv_options) {
            if let Ok(info) = tgsi_naga::validate(&module) {
                let _ = tgsi_naga::write(&module, &info, Target::SpirV, &write);
            }
        }
        let Ok(module) = tgsi_naga::translate_with(&shader, &options) else {
            continue;
        };
        // A module naga refuses is an error the host sees (overlapping declarations can
        // make one); only valid modules can be written.
        let Ok(info) = tgsi_naga::validate(&module) else {
            continue;
        };
        for target in Target::ALL {
            // A back end may refuse what its language lacks; it must not panic.
            let _ = tgsi_naga::write(&module, &info, target, &WriteOptions::default());
        }
    }
});
