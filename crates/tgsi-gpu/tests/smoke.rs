//! Small hand-written shaders whose GPU images must equal the interpreter's bit for bit:
//! position, face, constant inputs, constants, discard.

mod common;

use common::gpu;
use tgsi_exec::{render_fragment, Program, RenderOptions};

/// Renders `text` on both engines and requires identical images.
fn same(gpu: &tgsi_gpu::Gpu, text: &str, opts: &RenderOptions) {
    let shader = tgsi::parse(text).expect("test shader parses");
    let program = Program::compile(&shader).expect("test shader compiles");
    let want = render_fragment(&program, opts).expect("interpreter renders");
    let got = tgsi_gpu::render(gpu, &shader, &program, opts).expect("GPU renders");
    let bits = |i: &tgsi_exec::Image| i.to_le_bytes();
    if bits(&got) != bits(&want) {
        let diff = got
            .pixels
            .iter()
            .zip(&want.pixels)
            .position(|(a, b)| a.map(f32::to_bits) != b.map(f32::to_bits))
            .unwrap_or(0);
        panic!(
            "{text}\nfirst difference at pixel {diff}: GPU {:?}, interpreter {:?}",
            got.pixels[diff], want.pixels[diff]
        );
    }
}

#[test]
fn position_face_inputs_constants_and_discard() {
    let Some(gpu) = gpu() else { return };
    let opts = RenderOptions {
        width: 13,
        height: 7,
        constants: vec![vec![[1, 2, 0x7fc0_0001, 0x0000_0001], [5, 6, 7, 8]]],
        inputs: vec![[0; 4], [0x0000_0003, 0xffff_ffff, 0x7f80_0001, 0x3f80_0000]],
        clear: [-1.0, -2.0, -3.0, -4.0],
        ..Default::default()
    };
    for origin in ["UPPER_LEFT", "LOWER_LEFT"] {
        let text = format!(
            "FRAG\nPROPERTY FS_COORD_ORIGIN {origin}\nDCL IN[0], POSITION, LINEAR\n\
             DCL IN[1], GENERIC[3], PERSPECTIVE\nDCL IN[2], FACE, CONSTANT\nDCL OUT[0], COLOR\n\
             DCL CONST[0][0..1]\nDCL TEMP[0]\nIMM[0] FLT32 {{5.0, 0.0, 0.0, 0.0}}\n\
             0: ADD TEMP[0].x, IN[0].xxxx, -IMM[0].xxxx\n1: KILL_IF TEMP[0].xxxx\n\
             2: MOV OUT[0].xy, IN[0].xyyy\n3: MOV OUT[0].z, IN[2].xxxx\n\
             4: UADD OUT[0].w, CONST[0][0].xxxx, IN[1].xxxx\n5: END\n"
        );
        same(&gpu, &text, &opts);
        let text = "FRAG\nDCL IN[0], GENERIC[3], PERSPECTIVE\nDCL OUT[0], COLOR\n\
                    DCL CONST[0][0..1]\n0: MOV OUT[0], IN[0]\n1: END\n";
        same(&gpu, text, &opts);
        let text =
            "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0][0..1]\n0: MOV OUT[0], CONST[0][0]\n1: END\n";
        same(&gpu, text, &opts);
    }
}

#[test]
fn clip_distance_and_texcoord_inputs() {
    // CLIPDIST inputs are varyings at tgsi-naga's location 46 + n (it has no clip-distance
    // input built-in); the generated vertex shader must write them there.
    let Some(gpu) = gpu() else { return };
    let opts = RenderOptions {
        width: 4,
        height: 2,
        inputs: vec![[0x3f80_0000, 2, 3, 4], [5, 6, 0x7f80_0001, 8]],
        ..Default::default()
    };
    let text = "FRAG\nDCL IN[0], CLIPDIST[1], PERSPECTIVE\nDCL IN[1], TEXCOORD[2], PERSPECTIVE\n\
                DCL OUT[0], COLOR\n0: UADD OUT[0], IN[0], IN[1]\n1: END\n";
    same(&gpu, text, &opts);
}

#[test]
fn indirect_constants() {
    let Some(gpu) = gpu() else { return };
    let opts = RenderOptions {
        width: 16,
        height: 2,
        constants: vec![(0..16u32).map(|i| [i, 100 + i, 200 + i, 300 + i]).collect()],
        ..Default::default()
    };
    let text = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL CONST[0][0..15]\n\
                DCL TEMP[0]\nDCL ADDR[0]\n0: F2I TEMP[0].x, IN[0].xxxx\n\
                1: UARL ADDR[0].x, TEMP[0].xxxx\n2: MOV OUT[0], CONST[0][ADDR[0].x]\n3: END\n";
    same(&gpu, text, &opts);
}

#[test]
fn pixel_centres_linear_derivatives_and_outputs() {
    let Some(gpu) = gpu() else { return };
    let opts = RenderOptions {
        width: 10,
        height: 5,
        clear: [9.0; 4],
        color: 1,
        ..Default::default()
    };
    for (origin, center) in [
        ("UPPER_LEFT", "INTEGER"),
        ("LOWER_LEFT", "INTEGER"),
        ("LOWER_LEFT", "HALF_INTEGER"),
    ] {
        // COLOR[1] is collected; COLOR[0] and the depth output must change nothing.
        let text = format!(
            "FRAG\nPROPERTY FS_COORD_ORIGIN {origin}\nPROPERTY FS_COORD_PIXEL_CENTER {center}\n\
             DCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n\
             DCL OUT[2], POSITION\nDCL TEMP[0]\nIMM[0] FLT32 {{3.0, 0.25, 0.0, 0.0}}\n\
             0: MAD TEMP[0], IN[0].xyxy, IMM[0].xxyy, IN[0].yxyx\n\
             1: DDX OUT[1].xy, TEMP[0].xyyy\n2: DDY OUT[1].zw, TEMP[0].zzzw\n\
             3: MOV OUT[0], IMM[0]\n4: MOV OUT[2].z, IMM[0].yyyy\n5: END\n"
        );
        same(&gpu, &text, &opts);
    }
    // No colour output at all: 0 for every pixel, as in the interpreter.
    let text = "FRAG\nDCL OUT[0], POSITION\n0: END\n";
    same(&gpu, text, &opts);
}

#[test]
fn unbound_views_read_zero() {
    let Some(gpu) = gpu() else { return };
    let opts = RenderOptions {
        width: 4,
        height: 4,
        ..Default::default()
    };
    for target in ["2D", "CUBE", "3D"] {
        let text = format!(
            "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], {target}, FLOAT\n\
             DCL TEMP[0]\nIMM[0] FLT32 {{0.25, 0.5, 0.5, 0.75}}\n\
             0: MUL TEMP[0], IN[0], IMM[0]\n1: TEX OUT[0], TEMP[0], SAMP[0], {target}\n2: END\n"
        );
        same(&gpu, &text, &opts);
    }
}

/// The declarations of a fragment shader with a position input, a colour output,
/// `SAMP[0]`, a 2-D `SVIEW[0]` returning `ty` and `TEMP[0..=temps]`.
fn textured(ty: &str, temps: u32) -> String {
    format!(
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
         DCL SVIEW[0], 2D, {ty}\nDCL TEMP[0..{temps}]\n"
    )
}

/// `resource` bound as `SVIEW[0]` (all its levels, swizzled by `swizzle`) with `sampler` as
/// `SAMP[0]`.
fn bound(
    resource: tgsi_exec::resource::Resource,
    swizzle: [tgsi_exec::resource::Swizzle; 4],
    sampler: tgsi_exec::resource::SamplerState,
) -> tgsi_exec::resource::Resources {
    use tgsi_exec::resource::{Resources, SamplerView};
    let view = SamplerView {
        format: resource.format,
        target: resource.target,
        first_level: 0,
        last_level: resource.last_level,
        first_layer: 0,
        last_layer: 0,
        offset: 0,
        size: 0,
        swizzle,
        resource: std::sync::Arc::new(resource),
    };
    Resources {
        sampler_views: vec![Some(view)],
        samplers: vec![Some(sampler)],
        ..Resources::default()
    }
}

/// An 8×4 RGBA8 texture whose texel (x, y) holds (16 + x, 32 + 4y, 64 + x + y, 255) / 255
/// (bytes whose `b · (1/255)` and `b / 255` agree, so any GPU converts them alike), bound
/// with a nearest sampler: a RECT texture with unnormalised coordinates, as GL binds
/// rectangle textures, or a 2-D one; its view swizzled by `swizzle`.
fn rgba8_resources(
    rect: bool,
    wrap: tgsi_exec::resource::Wrap,
    swizzle: [tgsi_exec::resource::Swizzle; 4],
) -> tgsi_exec::resource::Resources {
    use tgsi_exec::resource::{Filter, Resource, SamplerState, Storage, Target};
    let (w, h) = (8u32, 4u32);
    let bytes: Vec<u8> = (0..h)
        .flat_map(|y| {
            (0..w).flat_map(move |x| [16 + x as u8, 32 + 4 * y as u8, 64 + (x + y) as u8, 255])
        })
        .collect();
    let resource = Resource {
        target: if rect { Target::Rect } else { Target::Tex2D },
        format: rgba8(),
        width0: w,
        height0: h,
        depth0: 1,
        array_size: 1,
        last_level: 0,
        nr_samples: 0,
        data: Storage::from_bytes(&bytes),
    };
    let sampler = SamplerState {
        wrap: [wrap; 3],
        min_img_filter: Filter::Nearest,
        mag_img_filter: Filter::Nearest,
        unnormalized_coords: rect,
        ..SamplerState::default()
    };
    bound(resource, swizzle, sampler)
}

fn rgba8() -> tgsi::pipe_format::Format {
    tgsi::pipe_format::Format::from_name("PIPE_FORMAT_R8G8B8A8_UNORM").expect("RGBA8 is a format")
}

#[test]
fn rect_textures_take_texel_coordinates() {
    use tgsi_exec::resource::{Swizzle, Wrap};
    let Some(gpu) = gpu() else { return };
    // TEX reads the texel under each pixel (centres at .5), TXP the same through w = 2, and
    // coordinates past the edge clamp (REPEAT clamps too with unnormalised coordinates).
    let text = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
                DCL SVIEW[0], RECT, FLOAT\nDCL TEMP[0..1]\nIMM[0] FLT32 {2.0, 2.0, 0.0, 2.0}\n\
                IMM[1] FLT32 {-3.0, 1.0, 0.0, 0.0}\n\
                0: TEX TEMP[0], IN[0], SAMP[0], RECT\n\
                1: MUL TEMP[1], IN[0].xyzz, IMM[0]\n2: MOV TEMP[1].w, IMM[0].wwww\n\
                3: TXP TEMP[1], TEMP[1], SAMP[0], RECT\n4: ADD TEMP[0], TEMP[0], TEMP[1]\n\
                5: ADD TEMP[1], IN[0], IMM[1]\n6: TEX TEMP[1], TEMP[1], SAMP[0], RECT\n\
                7: ADD OUT[0], TEMP[0], TEMP[1]\n8: END\n";
    for wrap in [Wrap::ClampToEdge, Wrap::Repeat] {
        let opts = RenderOptions {
            width: 8,
            height: 4,
            resources: rgba8_resources(
                true,
                wrap,
                [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
            ),
            ..Default::default()
        };
        same(&gpu, text, &opts);
    }
}

#[test]
fn view_swizzles_apply_to_samples_fetches_and_gathers() {
    use tgsi_exec::resource::{Swizzle, Wrap};
    let Some(gpu) = gpu() else { return };
    // The SAMPLE family applies its SVIEW operand's swizzle after the view's.
    let ops = [
        "TEX OUT[0], TEMP[0], SAMP[0], 2D",
        "SAMPLE OUT[0], TEMP[0], SVIEW[0].wzxy, SAMP[0]",
        "SAMPLE_I OUT[0], IMM[1].xyzz, SVIEW[0].yxwz",
        "GATHER4 OUT[0], TEMP[0], SVIEW[0].zzxy, SAMP[0]",
        "TXF OUT[0], IMM[1].xyzz, SAMP[0], 2D",
        "TG4 OUT[0], TEMP[0], IMM[1].zzzz, SAMP[0], 2D",
        "TG4 OUT[0], TEMP[0], IMM[1].xxxx, SAMP[0], 2D",
        "TG4 OUT[0], TEMP[0], IMM[1].wwww, SAMP[0], 2D",
    ];
    let swizzles = [
        [Swizzle::Z, Swizzle::One, Swizzle::X, Swizzle::Zero],
        [Swizzle::Zero, Swizzle::W, Swizzle::Y, Swizzle::One],
    ];
    for op in ops {
        let text = format!(
            "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
             DCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\nIMM[0] FLT32 {{0.125, 0.25, 0.0, 0.0}}\n\
             IMM[1] INT32 {{1, 2, 0, 3}}\n0: MUL TEMP[0], IN[0], IMM[0]\n1: {op}\n2: END\n"
        );
        for swizzle in swizzles {
            let opts = RenderOptions {
                width: 8,
                height: 4,
                resources: rgba8_resources(false, Wrap::ClampToEdge, swizzle),
                ..Default::default()
            };
            same(&gpu, &text, &opts);
        }
    }
}

#[test]
fn register_texel_offsets_of_fetches_and_gathers() {
    use tgsi_exec::resource::{Swizzle, Wrap};
    let Some(gpu) = gpu() else { return };
    // The offset is the pixel's quad (qx − 1, qy), the same for the quad's four lanes as
    // softpipe reads it from the first one; + 256 in x, which the 8-bit truncation of
    // register offsets removes. naga takes constant offsets only: the translation adds
    // the offset to a fetch's coordinates and moves a gather's. The gathers sample a
    // quarter texel off the texel centres (softpipe's mirrored footprint of a coordinate
    // exactly on a texel boundary is another than Vulkan's).
    for op in [
        "TXF OUT[0], IMM[1].xyzz, SAMP[0], 2D, TEMP[0].xyx",
        "TG4 OUT[0], TEMP[1], IMM[1].zzzz, SAMP[0], 2D, TEMP[0].xyx",
        "TG4 OUT[0], TEMP[1], IMM[1].xxxx, SAMP[0], 2D, TEMP[0].yxy",
    ] {
        let head = textured("FLOAT", 1);
        let text = format!(
            "{head}IMM[0] FLT32 {{0.5, 0.5, 0.125, 0.25}}\nIMM[1] INT32 {{2, 1, 0, 255}}\n\
             IMM[2] FLT32 {{0.03, 0.05, 0.0, 0.0}}\n\
             0: MUL TEMP[0].xy, IN[0].xyyy, IMM[0].xyyy\n1: FLR TEMP[0].xy, TEMP[0].xyyy\n\
             2: F2I TEMP[0].xy, TEMP[0].xyyy\n3: UADD TEMP[0].x, TEMP[0].xxxx, IMM[1].wwww\n\
             4: MAD TEMP[1], IN[0], IMM[0].zwzw, IMM[2]\n5: {op}\n6: END\n"
        );
        for wrap in [Wrap::ClampToEdge, Wrap::Repeat, Wrap::MirrorRepeat] {
            let opts = RenderOptions {
                width: 8,
                height: 4,
                resources: rgba8_resources(
                    false,
                    wrap,
                    [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
                ),
                ..Default::default()
            };
            same(&gpu, &text, &opts);
        }
    }
}

/// A 4×4 RGBA16UI texture whose texel (x, y) holds (x, y, 100 + x + 4y, 65535 − x), bound
/// as `SVIEW[0]` with `sampler` as `SAMP[0]`.
fn rgba16ui(sampler: tgsi_exec::resource::SamplerState) -> tgsi_exec::resource::Resources {
    use tgsi_exec::resource::{Resource, Storage, Swizzle, Target};
    let bytes: Vec<u8> = (0..4u16)
        .flat_map(|y| (0..4u16).flat_map(move |x| [x, y, 100 + x + 4 * y, 65535 - x]))
        .flat_map(u16::to_le_bytes)
        .collect();
    let resource = Resource {
        target: Target::Tex2D,
        format: tgsi::pipe_format::Format::from_name("PIPE_FORMAT_R16G16B16A16_UINT")
            .expect("a format"),
        width0: 4,
        height0: 4,
        depth0: 1,
        array_size: 1,
        last_level: 0,
        nr_samples: 0,
        data: Storage::from_bytes(&bytes),
    };
    bound(
        resource,
        [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
        sampler,
    )
}

#[test]
fn integer_textures_through_views_declared_float() {
    use tgsi_exec::resource::{Filter, SamplerState};
    let Some(gpu) = gpu() else { return };
    // Mesa declares some views of integer textures FLOAT; softpipe returns the texels'
    // words. The GPU engine declares the view with the bound format's type.
    let sampler = SamplerState {
        min_img_filter: Filter::Nearest,
        mag_img_filter: Filter::Nearest,
        ..SamplerState::default()
    };
    for op in [
        "TXF TEMP[1], TEMP[1], SAMP[0], 2D",
        "TG4 TEMP[1], TEMP[0], IMM[1].zzzz, SAMP[0], 2D",
        "TG4 TEMP[1], TEMP[0], IMM[1].wwww, SAMP[0], 2D",
    ] {
        let head = textured("FLOAT", 1);
        let text = format!(
            "{head}IMM[0] FLT32 {{0.25, 0.25, 0.03, 0.05}}\nIMM[1] INT32 {{0, 0, 2, 3}}\n\
             0: MAD TEMP[0], IN[0], IMM[0].xyxy, IMM[0].zwzw\n1: F2I TEMP[1], IN[0]\n\
             2: MOV TEMP[1].zw, IMM[1].xxxx\n3: {op}\n4: U2F OUT[0], TEMP[1]\n5: END\n"
        );
        let opts = RenderOptions {
            width: 4,
            height: 4,
            resources: rgba16ui(sampler),
            ..Default::default()
        };
        same(&gpu, &text, &opts);
    }
}

#[test]
fn integer_views_are_sampled_by_texel_loads() {
    use tgsi_exec::resource::{Filter, SamplerState, Wrap};
    let Some(gpu) = gpu() else { return };
    // naga samples float textures only: the translation loads the texel softpipe's nearest
    // filter picks, each wrap mode as softpipe wraps it, the border past a border mode's
    // edge. The coordinates run from −0.85 to 1.85 (s) and −0.225 to 1.725 (t), never on a
    // texel boundary; offsets constant and in a register.
    for (i, op) in [
        "TEX TEMP[1], TEMP[0], SAMP[0], 2D",
        "TXL TEMP[1], TEMP[0], SAMP[0], 2D",
        "TEX TEMP[1], TEMP[0], SAMP[0], 2D, IMM[1].xyx",
        "TEX TEMP[1], TEMP[0], SAMP[0], 2D, TEMP[2].xyx",
        "SAMPLE TEMP[1], TEMP[0], SVIEW[0].zyxw, SAMP[0]",
    ]
    .into_iter()
    .enumerate()
    {
        let head = textured("UINT", 2);
        let text = format!(
            "{head}IMM[0] FLT32 {{0.9, 0.65, -1.3, -0.55}}\nIMM[1] INT32 {{1, -2, 0, 0}}\n\
             IMM[2] FLT32 {{0.5, 0.5, 0.0, 0.0}}\n\
             0: MAD TEMP[0], IN[0], IMM[0].xyxy, IMM[0].zwzw\n\
             1: MUL TEMP[2].xy, IN[0].xyyy, IMM[2].xyyy\n2: F2I TEMP[2].xy, TEMP[2].xyyy\n\
             3: {op}\n4: U2F OUT[0], TEMP[1]\n5: END\n"
        );
        // Every wrap mode with the first instruction, two with the others.
        let wraps: &[Wrap] = if i == 0 {
            &Wrap::ALL
        } else {
            &[Wrap::ClampToBorder, Wrap::MirrorRepeat]
        };
        for &wrap in wraps {
            let sampler = SamplerState {
                wrap: [wrap; 3],
                min_img_filter: Filter::Nearest,
                mag_img_filter: Filter::Nearest,
                border_color: [7, 8, 9, 10],
                ..SamplerState::default()
            };
            let opts = RenderOptions {
                width: 4,
                height: 4,
                resources: rgba16ui(sampler),
                ..Default::default()
            };
            same(&gpu, &text, &opts);
        }
    }
}

/// A 32×32 RGBA8 texture with all six levels, level l filled with (16 + l, 32 + l, 64 + l,
/// 255) / 255, sampled with nearest filters and nearest mipmapping through a sampler with
/// LOD bias `bias`.
fn mip_levels(bias: f32) -> tgsi_exec::resource::Resources {
    use tgsi_exec::resource::{Filter, MipFilter, SamplerState};
    mip_levels_with(SamplerState {
        min_img_filter: Filter::Nearest,
        mag_img_filter: Filter::Nearest,
        min_mip_filter: MipFilter::Nearest,
        lod_bias: bias,
        max_lod: 1000.0,
        ..SamplerState::default()
    })
}

/// [`mip_levels`]' texture through `sampler`.
fn mip_levels_with(sampler: tgsi_exec::resource::SamplerState) -> tgsi_exec::resource::Resources {
    use tgsi_exec::resource::{Resource, Storage, Swizzle, Target};
    let mut resource = Resource {
        target: Target::Tex2D,
        format: rgba8(),
        width0: 32,
        height0: 32,
        depth0: 1,
        array_size: 1,
        last_level: 5,
        nr_samples: 0,
        data: Storage::zeroed(0),
    };
    let bytes: Vec<u8> = resource
        .levels(4)
        .enumerate()
        .flat_map(|(l, lv)| {
            let texel = [16 + l as u8, 32 + l as u8, 64 + l as u8, 255];
            texel.repeat(lv.slice_bytes / 4)
        })
        .collect();
    resource.data = Storage::from_bytes(&bytes);
    bound(
        resource,
        [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
        sampler,
    )
}

#[test]
fn lod_queries_report_softpipes_level_and_lod() {
    use tgsi_exec::resource::{MipFilter, SamplerState};
    let Some(gpu) = gpu() else { return };
    // s = x · (0.05 + 0.03 · quad row), t = y · 0.02: linear within each quad (the GPU's
    // derivatives are softpipe's), a LOD from −2.6 to 2.5 over the rows, so the level is
    // clamped, rounded and interpolated. LODQ writes x and y; LOD is swizzled by its SVIEW
    // operand, as the SAMPLE family is.
    for op in [
        "LODQ OUT[0].xy, TEMP[0], SAMP[0], 2D",
        "LOD OUT[0], TEMP[0], SVIEW[0].yxwx, SAMP[0]",
    ] {
        let head = textured("FLOAT", 1);
        let text = format!(
            "{head}IMM[0] FLT32 {{0.5, 0.03, 0.05, 0.02}}\n\
             0: MUL TEMP[1].x, IN[0].yyyy, IMM[0].xxxx\n1: FLR TEMP[1].x, TEMP[1].xxxx\n\
             2: MAD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy, IMM[0].zzzz\n\
             3: MUL TEMP[0].x, IN[0].xxxx, TEMP[1].xxxx\n4: MUL TEMP[0].y, IN[0].yyyy, IMM[0].wwww\n\
             5: {op}\n6: END\n"
        );
        for (mip_filter, min_lod, max_lod, lod_bias) in [
            (MipFilter::Linear, -1000.0, 1000.0, 0.0),
            (MipFilter::Nearest, -1000.0, 1000.0, 0.0),
            (MipFilter::None, -1000.0, 1000.0, 0.0),
            (MipFilter::Linear, 0.5, 3.25, 1.5),
            (MipFilter::Nearest, 1.0, 2.0, -0.75),
        ] {
            let opts = RenderOptions {
                width: 16,
                height: 64,
                resources: mip_levels_with(SamplerState {
                    min_mip_filter: mip_filter,
                    min_lod,
                    max_lod,
                    lod_bias,
                    ..SamplerState::default()
                }),
                ..Default::default()
            };
            same(&gpu, &text, &opts);
        }
    }
}

#[test]
fn sampler_lod_bias_is_added_to_implicit_biased_and_explicit_lods() {
    let Some(gpu) = gpu() else { return };
    // 8×8 pixels over 32×32 texels: an implicit LOD of 2; TXB adds 1.25 to it and TXL asks
    // for 1.25; the sampler's bias moves each by whole levels, so no LOD comes near a
    // rounding boundary of the nearest mip filter. The three results are summed with
    // weights 1, 16 and 256 (each a level's bytes, exact in floats).
    let text = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
                DCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..2]\nIMM[0] FLT32 {0.125, 0.125, 0.0, 1.25}\n\
                IMM[1] FLT32 {0.0, 0.0, 0.0, 1.25}\nIMM[2] FLT32 {1.0, 16.0, 256.0, 0.0}\n\
                0: MUL TEMP[0], IN[0], IMM[0]\n1: MOV TEMP[0].w, IMM[0].wwww\n\
                2: TEX TEMP[1], TEMP[0], SAMP[0], 2D\n3: TXB TEMP[2], TEMP[0], SAMP[0], 2D\n\
                4: MAD TEMP[1], TEMP[2], IMM[2].yyyy, TEMP[1]\n5: MOV TEMP[0].w, IMM[1].wwww\n\
                6: TXL TEMP[2], TEMP[0], SAMP[0], 2D\n7: MAD OUT[0], TEMP[2], IMM[2].zzzz, TEMP[1]\n\
                8: END\n";
    for bias in [0.0, -1.0, 2.0] {
        let opts = RenderOptions {
            width: 8,
            height: 8,
            resources: mip_levels(bias),
            ..Default::default()
        };
        same(&gpu, text, &opts);
    }
}

/// Renders 16×8 pixels sampling (TEX) at `pixel · scale − offset` an 8×4 RGBA8 texture
/// through a nearest sampler that wraps as `wrap` with the border colour (0.25, 0.5, 0.75,
/// 0.125), its view swizzled by `swizzle`, on both engines, which must agree bit for bit;
/// returns the interpreter's image.
fn sample_with_border(
    gpu: &tgsi_gpu::Gpu,
    scale: [f32; 2],
    offset: f32,
    wrap: tgsi_exec::resource::Wrap,
    swizzle: [tgsi_exec::resource::Swizzle; 4],
) -> tgsi_exec::Image {
    let text = format!(
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
         DCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n\
         IMM[0] FLT32 {{{}, {}, 0.0, 0.0}}\nIMM[1] FLT32 {{{}, {}, 0.0, 0.0}}\n\
         0: MAD TEMP[0], IN[0], IMM[0], IMM[1]\n1: TEX OUT[0], TEMP[0], SAMP[0], 2D\n\
         2: END\n",
        scale[0], scale[1], -offset, -offset
    );
    let mut resources = rgba8_resources(false, wrap, swizzle);
    if let Some(Some(s)) = resources.samplers.first_mut() {
        s.border_color = [0.25f32, 0.5, 0.75, 0.125].map(f32::to_bits);
    }
    let opts = RenderOptions {
        width: 16,
        height: 8,
        resources,
        ..Default::default()
    };
    same(gpu, &text, &opts);
    let program = Program::compile(&tgsi::parse(&text).expect("test shader parses"))
        .expect("test shader compiles");
    render_fragment(&program, &opts).expect("interpreter renders")
}

#[test]
fn custom_border_colours_are_emulated() {
    use tgsi_exec::resource::{Swizzle, Wrap};
    let Some(gpu) = gpu() else { return };
    // Coordinates from −0.47 to 1.47: the middle half of each row and column samples the
    // texture, the rest its border colour, which wgpu has no sampler state for. Nearest
    // filtering, so the emulation (texel + border · (1 − c)) is exact: c is 0 or 1.
    for swizzle in [
        [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
        [Swizzle::Z, Swizzle::One, Swizzle::X, Swizzle::Zero],
    ] {
        let image = sample_with_border(&gpu, [0.125, 0.25], 0.5, Wrap::ClampToBorder, swizzle);
        // The border colour shows: the corner pixel is the (swizzled) border.
        assert!(image.pixels[0].iter().any(|&c| c == 0.25 || c == 0.75));
    }
}

#[test]
fn mirror_clamp_and_gl_clamp_wraps_are_emulated() {
    use tgsi_exec::resource::{Swizzle, Wrap};
    let Some(gpu) = gpu() else { return };
    // Coordinates from −1.47 to 1.47 in both directions: the mirror-clamp modes, which wgpu
    // lacks, show the texture mirrored about 0 and clamped (to the edge texel, or to the
    // border colour beyond 1), GL's CLAMP the edge texel (nearest filtering).
    for wrap in [
        Wrap::MirrorClamp,
        Wrap::MirrorClampToEdge,
        Wrap::MirrorClampToBorder,
        Wrap::Clamp,
    ] {
        let identity = [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W];
        sample_with_border(&gpu, [0.1875, 0.375], 1.5, wrap, identity);
    }
}

#[test]
fn one_d_textures_run_as_two_d_rows() {
    use tgsi_exec::resource::{
        Filter, MipFilter, Resource, SamplerState, Storage, Swizzle, Target,
    };
    let Some(gpu) = gpu() else { return };
    // An 8-texel 1-D RGBA8 texture with all four levels (wgpu has no mipmapped 1-D
    // textures; the engine binds a 2-D row): TXQ of level 0 and 1, TXF of level 1, and
    // nearest sampling across the pixels, summed with weights that keep each exact.
    let bytes: Vec<u8> = (0..8 + 4 + 2 + 1)
        .flat_map(|i| [16 + i as u8, 32 + 2 * i as u8, 64, 255])
        .collect();
    let resource = Resource {
        target: Target::Tex1D,
        format: rgba8(),
        width0: 8,
        height0: 1,
        depth0: 1,
        array_size: 1,
        last_level: 3,
        nr_samples: 0,
        data: Storage::from_bytes(&bytes),
    };
    let sampler = SamplerState {
        min_img_filter: Filter::Nearest,
        mag_img_filter: Filter::Nearest,
        min_mip_filter: MipFilter::Nearest,
        ..SamplerState::default()
    };
    let text = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\n\
                DCL SVIEW[0], 1D, FLOAT\nDCL TEMP[0..3]\n\
                IMM[0] FLT32 {0.125, 0.0, 0.0, 0.0}\nIMM[1] INT32 {0, 1, 2, 1}\n\
                IMM[2] FLT32 {1.0, 16.0, 256.0, 0.0}\n\
                0: MUL TEMP[0], IN[0], IMM[0]\n1: TEX TEMP[1], TEMP[0], SAMP[0], 1D\n\
                2: TXQ TEMP[2], IMM[1].yyyy, SAMP[0], 1D\n3: TXQ TEMP[3], IMM[1].xxxx, SAMP[0], 1D\n\
                4: UMAD TEMP[2], TEMP[3], IMM[1].zzzz, TEMP[2]\n5: U2F TEMP[2], TEMP[2]\n\
                6: MAD TEMP[1], TEMP[2], IMM[2].yyyy, TEMP[1]\n\
                7: TXF TEMP[3], IMM[1].zxxw, SAMP[0], 1D\n\
                8: MAD OUT[0], TEMP[3], IMM[2].zzzz, TEMP[1]\n9: END\n";
    let opts = RenderOptions {
        width: 8,
        height: 2,
        resources: bound(
            resource,
            [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
            sampler,
        ),
        ..Default::default()
    };
    same(&gpu, text, &opts);
}

#[test]
fn inputs_interpolated_at_the_centroid_or_a_sample_are_the_inputs() {
    // Single-sampled rendering, as in the interpreter: INTERP_CENTROID and INTERP_SAMPLE
    // read the input as it is.
    let Some(gpu) = gpu() else { return };
    let opts = RenderOptions {
        width: 4,
        height: 2,
        inputs: vec![[0x3f80_0000, 0x4000_0000, 0xbf00_0000, 0x7f80_0001]],
        ..Default::default()
    };
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
                IMM[0] UINT32 {0, 0, 0, 0}\n0: INTERP_SAMPLE TEMP[0], IN[0].wzyx, IMM[0].xxxx\n\
                1: INTERP_CENTROID TEMP[1], IN[0]\n2: UADD OUT[0], TEMP[0], TEMP[1]\n3: END\n";
    same(&gpu, text, &opts);
}

#[test]
fn inputs_interpolated_at_an_offset_move_along_their_gradients() {
    // INTERP_OFFSET: the position moves by the offset (its gradients are the unit axes, y
    // flipped by a lower-left origin), a constant input stays; modifiers apply afterwards.
    let Some(gpu) = gpu() else { return };
    let opts = RenderOptions {
        width: 4,
        height: 4,
        inputs: vec![[0; 4], [0x3f80_0000, 0xc000_0000, 0xbf00_0000, 0x4040_0000]],
        ..Default::default()
    };
    for origin in ["UPPER_LEFT", "LOWER_LEFT"] {
        let text = format!(
            "FRAG\nPROPERTY FS_COORD_ORIGIN {origin}\nDCL IN[0], POSITION, LINEAR\n\
             DCL IN[1], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n\
             IMM[0] FLT32 {{0.25, -0.5, 2.0, 0.0}}\n\
             0: INTERP_OFFSET TEMP[0], -IN[0].yxwz, IMM[0].xyzw\n\
             1: INTERP_OFFSET TEMP[1], |IN[1]|, IMM[0].zxyw\n\
             2: ADD OUT[0], TEMP[0], TEMP[1]\n3: END\n"
        );
        same(&gpu, &text, &opts);
    }
}

#[test]
fn endless_loops_stop_at_the_loop_budget() {
    // A GPU has no instruction budget: the translation counts loop iterations, leaves the
    // loops past the run's budget and raises a flag, and the run fails as the
    // interpreter's does.
    let Some(gpu) = gpu() else { return };
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n\
                0: MOV TEMP[0], IMM[0].yyyy\n1: BGNLOOP\n2: ADD TEMP[0], TEMP[0], IMM[0].xxxx\n\
                3: ENDLOOP\n4: MOV OUT[0], TEMP[0]\n5: END\n";
    let shader = tgsi::parse(text).expect("test shader parses");
    let program = Program::compile(&shader).expect("test shader compiles");
    let opts = RenderOptions {
        width: 4,
        height: 2,
        budget: 10_000,
        ..Default::default()
    };
    assert!(matches!(
        render_fragment(&program, &opts),
        Err(tgsi_exec::ExecError::Budget { .. })
    ));
    match tgsi_gpu::render(&gpu, &shader, &program, &opts) {
        Err(tgsi_gpu::Error::Budget(10_000)) => {}
        other => panic!(
            "expected the loop budget to run out, got {:?}",
            other.map(|_| ())
        ),
    }
    // A loop that ends within the budget runs as before.
    let bounded = text.replace(
        "3: ENDLOOP",
        "3: IF TEMP[0].xxxx\n4: BRK\n5: ENDIF\n6: ENDLOOP",
    );
    let bounded = bounded
        .replace("4: MOV OUT[0]", "7: MOV OUT[0]")
        .replace("5: END", "8: END");
    same(&gpu, &bounded, &opts);
}
