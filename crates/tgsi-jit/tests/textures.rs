//! Texture instructions in compiled code: sources passed from the JIT's registers to the
//! interpreter's sampling of each quad, so a texture-heavy shader compiles (a quad at a
//! time) and gives the interpreter's words, with mipmaps, divergent branches that leave
//! whole quads inactive, explicit derivatives, register texel offsets, write masks and
//! saturation.

use std::sync::Arc;
use tgsi::Format;
use tgsi_exec::resource::{
    Filter, MipFilter, Resource, Resources, SamplerState, SamplerView, Storage, Swizzle, Target,
    Wrap,
};
use tgsi_exec::{render_fragment_with, Interpreter, Program, RenderOptions};
use tgsi_jit::Engine;

/// A 16×16 RGBA8 texture with all five levels, bytes from a hash of their position.
fn texture() -> Arc<Resource> {
    let mut r = Resource {
        target: Target::Tex2D,
        format: Format::from_name("PIPE_FORMAT_R8G8B8A8_UNORM").expect("format"),
        width0: 16,
        height0: 16,
        depth0: 1,
        array_size: 1,
        last_level: 4,
        nr_samples: 0,
        data: Storage::zeroed(0),
    };
    let n = r.layout_bytes(4).expect("layout") as usize;
    let bytes: Vec<u8> = (0..n as u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    r.data = Storage::from_bytes(&bytes);
    Arc::new(r)
}

fn resources() -> Resources {
    let res = texture();
    let view = SamplerView {
        resource: res.clone(),
        format: res.format,
        target: Target::Tex2D,
        first_level: 0,
        last_level: 4,
        first_layer: 0,
        last_layer: 0,
        offset: 0,
        size: 0,
        swizzle: [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
    };
    let sampler = |wrap| SamplerState {
        wrap: [wrap; 3],
        min_img_filter: Filter::Linear,
        mag_img_filter: Filter::Linear,
        min_mip_filter: MipFilter::Linear,
        ..Default::default()
    };
    Resources {
        sampler_views: vec![Some(view.clone()), Some(view)],
        samplers: vec![
            Some(sampler(Wrap::Repeat)),
            Some(sampler(Wrap::MirrorRepeat)),
        ],
        ..Default::default()
    }
}

/// Mostly texture instructions (6 of 11): the JIT once left such shaders to the
/// interpreter, as each went through its single-instruction step.
const SHADER: &str = "FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SVIEW[0], 2D, FLOAT
DCL SVIEW[1], 2D, FLOAT
DCL TEMP[0..5]
IMM[0] FLT32 {0.05, 0.11, 9.5, 1.75}
IMM[1] INT32 {1, -2, 0, 3}
IMM[2] FLT32 {0.02, 0.0, 0.0, 0.3}
  0: MUL TEMP[0], IN[0].xyxy, IMM[0].xyyx
  1: TEX TEMP[1], TEMP[0], SAMP[0], 2D
  2: TXB TEMP[2], TEMP[0].yxzw, SAMP[1], 2D
  3: F2I TEMP[3], IN[0]
  4: TXF TEMP[4].xz, TEMP[3], SAMP[0], 2D, IMM[1].xyw
  5: SLT TEMP[5].x, IN[0].xxxx, IMM[0].zzzz
  6: IF TEMP[5].xxxx
  7:   TXL TEMP[1].yw, TEMP[0].xyzw, SAMP[1], 2D
  8: ELSE
  9:   TXD_SAT TEMP[2].xy, TEMP[0], IMM[2].xyyy, IMM[2].yxyy, SAMP[0], 2D
 10:   TEX TEMP[1], TEMP[1].wzyx, SAMP[1], 2D, IMM[1].wxz
 11: ENDIF
 12: ADD TEMP[1], TEMP[1], TEMP[2]
 13: MAD OUT[0], TEMP[4], IMM[0].wwww, TEMP[1]
 14: END
";

#[test]
fn texture_heavy_shaders_compile_and_match_the_interpreter() {
    let shader = tgsi::parse(SHADER).expect("parse");
    let program = Program::compile(&shader).expect("compile");
    let jit = Engine::new(program.clone());
    assert!(jit.is_compiled(), "{:?}", jit.fallback_reason());
    // 19×13: partial quads at the right and bottom; the branch splits at x = 9.5, inside
    // a quad, and leaves whole quads on either side.
    let opts = RenderOptions {
        width: 19,
        height: 13,
        resources: resources(),
        ..Default::default()
    };
    let want = render_fragment_with(&Interpreter(&program), &opts).expect("interpreter");
    let got = render_fragment_with(&jit, &opts).expect("jit");
    let words = |p: &[[f32; 4]]| -> Vec<u32> { p.iter().flatten().map(|f| f.to_bits()).collect() };
    let (want, got) = (words(&want.pixels), words(&got.pixels));
    assert!(want.iter().any(|&w| w != 0), "the texture was sampled");
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        assert_eq!(w, g, "pixel {} channel {}", i / 4, i % 4);
    }
}

/// Texel offsets in a register are read from the first lane of each quad, active or not
/// (as softpipe does): a lane that skipped the write still shows the quad its old value,
/// so the write keeps its blend even though nothing reads the register after the branch.
/// (The JIT wrote it to every lane, and the second lane sampled with the first lane's
/// unwritten offsets.)
const OFFSETS_FROM_AN_INACTIVE_LANE: &str = "FRAG
DCL IN[0], POSITION, LINEAR
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0..2]
IMM[0] FLT32 {0.05, 1.0, 0.0, 0.0}
IMM[1] INT32 {3, -2, 0, 1}
  0: MUL TEMP[0], IN[0].xyxy, IMM[0].xxxx
  1: MOV TEMP[1], IMM[1].zzzz
  2: FSLT TEMP[2].x, IMM[0].yyyy, IN[0].xxxx
  3: UIF TEMP[2].xxxx
  4:   MOV TEMP[1], IMM[1].xyzz
  5:   TEX TEMP[0], TEMP[0], SAMP[0], 2D, TEMP[1].xyz
  6: ENDIF
  7: MOV OUT[0], TEMP[0]
  8: END
";

#[test]
fn offsets_read_from_an_inactive_lane_match_the_interpreter() {
    let shader = tgsi::parse(OFFSETS_FROM_AN_INACTIVE_LANE).expect("parse");
    let program = Program::compile(&shader).expect("compile");
    let jit = Engine::new(program.clone());
    assert!(jit.is_compiled(), "{:?}", jit.fallback_reason());
    let opts = RenderOptions {
        width: 4,
        height: 2,
        resources: resources(),
        ..Default::default()
    };
    let want = render_fragment_with(&Interpreter(&program), &opts).expect("interpreter");
    let got = render_fragment_with(&jit, &opts).expect("jit");
    let words = |p: &[[f32; 4]]| -> Vec<u32> { p.iter().flatten().map(|f| f.to_bits()).collect() };
    // Pixel (1, 0) samples with the offsets of pixel (0, 0), which skipped the write: zero.
    assert_ne!(words(&want.pixels)[4..8], words(&want.pixels)[0..4]);
    assert_eq!(words(&want.pixels), words(&got.pixels));
}
