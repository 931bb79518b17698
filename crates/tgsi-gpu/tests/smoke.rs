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
