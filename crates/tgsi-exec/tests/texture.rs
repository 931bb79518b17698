//! Hand-computed expectations for the sampler module on tiny textures whose texels name
//! themselves: RGBA32F texel (x, y, slice, level) holds exactly those four numbers, so a
//! result tells which texels were read and with which weights. Also checks that no
//! combination of view, state and coordinates panics.

use std::sync::Arc;
use tgsi::{Format, Opcode, TextureTarget as TT};
use tgsi_exec::resource::{
    CompareFunc, Filter, MipFilter, Resource, SamplerState, SamplerView, Storage, Swizzle, Target,
    Wrap,
};
use tgsi_exec::texture::{execute, QuadVec, TexRequest};

fn rgba32f() -> Format {
    Format::from_name("PIPE_FORMAT_R32G32B32A32_FLOAT").unwrap()
}

/// A resource whose texel (x, y, slice, level) is `[x, y, slice, level]` as floats.
fn resource(target: Target, w: u32, h: u32, depth_or_layers: u32, levels: u32) -> Arc<Resource> {
    let layered = target.is_layered();
    if target == Target::Buffer {
        let bytes: Vec<u8> = (0..w)
            .flat_map(|x| [x as f32, 0.0, 0.0, 0.0])
            .flat_map(f32::to_le_bytes)
            .collect();
        return Arc::new(Resource {
            target,
            format: rgba32f(),
            width0: w * 16,
            height0: 1,
            depth0: 1,
            array_size: 1,
            last_level: 0,
            nr_samples: 0,
            data: Storage::from_bytes(&bytes),
        });
    }
    let mut r = Resource {
        target,
        format: rgba32f(),
        width0: w,
        height0: h,
        depth0: if layered { 1 } else { depth_or_layers },
        array_size: if layered { depth_or_layers } else { 1 },
        last_level: levels - 1,
        nr_samples: 0,
        data: Storage::zeroed(0),
    };
    let mut bytes = vec![0u8; r.layout_bytes(16).unwrap() as usize];
    for l in 0..levels {
        let lv = r.level(l, 16).unwrap();
        for z in 0..lv.slices {
            for y in 0..lv.height {
                for x in 0..lv.width {
                    let at = lv.offset
                        + z as usize * lv.slice_bytes
                        + y as usize * lv.row_bytes
                        + x as usize * 16;
                    for (c, v) in [x, y, z, l].into_iter().enumerate() {
                        bytes[at + 4 * c..at + 4 * c + 4]
                            .copy_from_slice(&(v as f32).to_le_bytes());
                    }
                }
            }
        }
    }
    r.data = Storage::from_bytes(&bytes);
    Arc::new(r)
}

fn view(res: &Arc<Resource>, target: Target) -> SamplerView {
    SamplerView {
        resource: res.clone(),
        format: res.format,
        target,
        first_level: 0,
        last_level: res.last_level,
        first_layer: 0,
        last_layer: res.array_size.max(1) - 1,
        offset: 0,
        size: 0,
        swizzle: [Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W],
    }
}

fn sampler(filter: Filter, mip: MipFilter, wrap: Wrap) -> SamplerState {
    SamplerState {
        wrap: [wrap; 3],
        min_img_filter: filter,
        mag_img_filter: filter,
        min_mip_filter: mip,
        ..Default::default()
    }
}

/// The same vec4 in every lane.
fn splat(v: [f32; 4]) -> QuadVec {
    [v.map(f32::to_bits); 4]
}

fn lanes(v: [[f32; 4]; 4]) -> QuadVec {
    v.map(|l| l.map(f32::to_bits))
}

fn floats(q: QuadVec) -> [[f32; 4]; 4] {
    q.map(|l| l.map(f32::from_bits))
}

#[allow(clippy::too_many_arguments)]
fn run(
    opcode: Opcode,
    target: TT,
    srcs: &[QuadVec],
    v: &SamplerView,
    s: &SamplerState,
    offsets: [i32; 3],
) -> [[f32; 4]; 4] {
    floats(execute(&TexRequest {
        opcode,
        target,
        srcs,
        offsets,
        view: Some(v),
        sampler: Some(s),
        seamless_cube_map: false,
        implicit_lod: true,
        sview_swizzle: [0, 1, 2, 3],
    }))
}

fn lane0(
    opcode: Opcode,
    target: TT,
    coord: [f32; 4],
    v: &SamplerView,
    s: &SamplerState,
) -> [f32; 4] {
    run(opcode, target, &[splat(coord)], v, s, [0; 3])[0]
}

#[test]
fn nearest_wrap_modes_pick_edge_texels() {
    let r = resource(Target::Tex2D, 4, 4, 1, 1);
    let v = view(&r, Target::Tex2D);
    let cases = [
        (Wrap::Repeat, -0.01, 3.0),
        (Wrap::Repeat, 1.1, 0.0),
        (Wrap::Clamp, 1.5, 3.0),
        (Wrap::ClampToEdge, -0.5, 0.0),
        (Wrap::ClampToEdge, 0.99, 3.0),
        (Wrap::MirrorRepeat, 1.1, 3.0),
        (Wrap::MirrorRepeat, -0.1, 0.0),
        (Wrap::MirrorClamp, -0.3, 1.0),
        (Wrap::MirrorClampToEdge, -0.99, 3.0),
    ];
    for (wrap, s, want) in cases {
        let st = sampler(Filter::Nearest, MipFilter::None, wrap);
        let got = lane0(Opcode::TEX, TT::Tex2D, [s, 0.4, 0.0, 0.0], &v, &st);
        assert_eq!(got[0], want, "{wrap:?} s={s}");
        assert_eq!(got[1], 1.0, "{wrap:?} t=0.4 → row 1");
    }
}

#[test]
fn border_colour_is_clamped_per_class_and_swizzled() {
    let r = resource(Target::Tex2D, 4, 4, 1, 1);
    let mut v = view(&r, Target::Tex2D);
    let mut st = sampler(Filter::Nearest, MipFilter::None, Wrap::ClampToBorder);
    st.border_color = [2.0f32, -1.0, 0.25, 7.0].map(f32::to_bits);
    // Float view: the border is not clamped.
    let got = lane0(Opcode::TEX, TT::Tex2D, [-0.2, 0.5, 0.0, 0.0], &v, &st);
    assert_eq!(got, [2.0, -1.0, 0.25, 7.0]);
    // Inside: a texel.
    let got = lane0(Opcode::TEX, TT::Tex2D, [0.1, 0.5, 0.0, 0.0], &v, &st);
    assert_eq!(got, [0.0, 2.0, 0.0, 0.0]);
    v.swizzle = [Swizzle::W, Swizzle::Zero, Swizzle::One, Swizzle::X];
    let got = lane0(Opcode::TEX, TT::Tex2D, [1.2, 0.5, 0.0, 0.0], &v, &st);
    assert_eq!(got, [7.0, 0.0, 1.0, 2.0]);
}

#[test]
fn bilinear_weights() {
    let r = resource(Target::Tex2D, 4, 4, 1, 1);
    let v = view(&r, Target::Tex2D);
    let st = sampler(Filter::Linear, MipFilter::None, Wrap::ClampToEdge);
    // u = 0.4375·4 − 0.5 = 1.25 → texels 1, 2 weight 0.25; v = 0.625·4 − 0.5 = 2 → row 2.
    let got = lane0(Opcode::TEX, TT::Tex2D, [0.4375, 0.625, 0.0, 0.0], &v, &st);
    assert_eq!(got, [1.25, 2.0, 0.0, 0.0]);
    // Clamp to edge at the corner: both texels are 0.
    let got = lane0(Opcode::TEX, TT::Tex2D, [0.0, 1.0, 0.0, 0.0], &v, &st);
    assert_eq!(got, [0.0, 3.0, 0.0, 0.0]);
    // GL_CLAMP blends with the border (0) half way at s = 0.
    let st = sampler(Filter::Linear, MipFilter::None, Wrap::Clamp);
    let got = lane0(Opcode::TEX, TT::Tex2D, [0.0, 0.625, 0.0, 0.0], &v, &st);
    assert_eq!(
        got,
        [0.0, 1.0, 0.0, 0.0],
        "half of texel (0,2) and half of border 0"
    );
}

#[test]
fn mip_selection() {
    // Not a power of two, so the generic mip filters run.
    let r = resource(Target::Tex2D, 12, 12, 1, 4);
    let v = view(&r, Target::Tex2D);
    let near = sampler(Filter::Nearest, MipFilter::Nearest, Wrap::ClampToEdge);
    let level =
        |s: &SamplerState, lod: f32| lane0(Opcode::TXL, TT::Tex2D, [0.5, 0.5, 0.0, lod], &v, s)[3];
    assert_eq!(level(&near, 0.0), 0.0);
    assert_eq!(level(&near, 1.4), 1.0);
    assert_eq!(level(&near, 1.6), 2.0);
    assert_eq!(level(&near, 9.0), 3.0);
    let lin = sampler(Filter::Nearest, MipFilter::Linear, Wrap::ClampToEdge);
    assert_eq!(level(&lin, 1.25), 1.25);
    assert_eq!(level(&lin, 2.75), 2.75);
    assert_eq!(level(&lin, 3.5), 3.0, "past the last level");
    let none = sampler(Filter::Nearest, MipFilter::None, Wrap::ClampToEdge);
    assert_eq!(level(&none, 2.5), 0.0);
    // min_lod / max_lod and the sampler bias.
    let mut clamped = near;
    clamped.min_lod = 2.0;
    assert_eq!(level(&clamped, 0.0), 2.0);
    clamped.lod_bias = -1.0;
    clamped.min_lod = 0.0;
    assert_eq!(level(&clamped, 2.0), 1.0);
    // first_level shifts everything.
    let mut v1 = view(&r, Target::Tex2D);
    v1.first_level = 1;
    assert_eq!(
        lane0(Opcode::TXL, TT::Tex2D, [0.5, 0.5, 0.0, 1.0], &v1, &near)[3],
        2.0
    );
}

#[test]
fn implicit_lod_from_the_quad() {
    let r = resource(Target::Tex2D, 12, 12, 1, 4);
    let v = view(&r, Target::Tex2D);
    let st = sampler(Filter::Nearest, MipFilter::Nearest, Wrap::ClampToEdge);
    // s grows by 4 texels per pixel: ρ = 4/12·12 = 4 → λ = 2.
    let d = 4.0 / 12.0;
    let c = lanes([
        [0.2, 0.2, 0.0, 0.0],
        [0.2 + d, 0.2, 0.0, 0.0],
        [0.2, 0.2, 0.0, 0.0],
        [0.2 + d, 0.2, 0.0, 0.0],
    ]);
    let got = run(Opcode::TEX, TT::Tex2D, &[c], &v, &st, [0; 3]);
    assert!(got.iter().all(|l| l[3] == 2.0), "{got:?}");
    // Outside fragment shaders λ = 0.
    let got = floats(execute(&TexRequest {
        opcode: Opcode::TEX,
        target: TT::Tex2D,
        srcs: &[c],
        offsets: [0; 3],
        view: Some(&v),
        sampler: Some(&st),
        seamless_cube_map: false,
        implicit_lod: false,
        sview_swizzle: [0, 1, 2, 3],
    }));
    assert!(got.iter().all(|l| l[3] == 0.0));
    // TXB adds a per-lane bias after the sampler's.
    let mut b = c;
    for (l, lane) in b.iter_mut().enumerate() {
        lane[3] = (-(l as f32)).to_bits();
    }
    let got = run(Opcode::TXB, TT::Tex2D, &[b], &v, &st, [0; 3]);
    assert_eq!(got.map(|l| l[3]), [2.0, 1.0, 0.0, 0.0]);
    // LODQ: x = level used, y = λ.
    let got = floats(execute(&TexRequest {
        opcode: Opcode::LODQ,
        target: TT::Tex2D,
        srcs: &[c],
        offsets: [0; 3],
        view: Some(&v),
        sampler: Some(&st),
        seamless_cube_map: false,
        implicit_lod: true,
        sview_swizzle: [0, 1, 2, 3],
    }));
    assert_eq!(&got[0][..2], &[2.0, 2.0]);
    assert_eq!(Opcode::LODQ.written_channels(), 0b0011);
}

#[test]
fn cube_faces() {
    let r = resource(Target::Cube, 2, 2, 6, 1);
    let v = view(&r, Target::Cube);
    let st = sampler(Filter::Nearest, MipFilter::None, Wrap::ClampToEdge);
    let face = |d: [f32; 3]| lane0(Opcode::TEX, TT::Cube, [d[0], d[1], d[2], 0.0], &v, &st)[2];
    assert_eq!(face([1.0, 0.1, 0.2]), 0.0);
    assert_eq!(face([-1.0, 0.1, 0.2]), 1.0);
    assert_eq!(face([0.1, 1.0, 0.2]), 2.0);
    assert_eq!(face([0.1, -1.0, 0.2]), 3.0);
    assert_eq!(face([0.1, 0.2, 1.0]), 4.0);
    assert_eq!(face([0.1, 0.2, -1.0]), 5.0);
    // +X at (-rz, -ry): direction (1, 0.5, 0.5) → s = t = 0.25 → texel (0, 0).
    assert_eq!(
        lane0(Opcode::TEX, TT::Cube, [1.0, 0.5, 0.5, 0.0], &v, &st),
        [0.0, 0.0, 0.0, 0.0]
    );
    assert_eq!(
        lane0(Opcode::TEX, TT::Cube, [1.0, -0.5, -0.5, 0.0], &v, &st),
        [1.0, 1.0, 0.0, 0.0]
    );
}

#[test]
fn array_layers_round_and_clamp() {
    let r = resource(Target::Array2D, 2, 2, 3, 1);
    let v = view(&r, Target::Array2D);
    let st = sampler(Filter::Nearest, MipFilter::None, Wrap::Repeat);
    let layer = |p: f32| lane0(Opcode::TEX, TT::Array2D, [0.2, 0.2, p, 0.0], &v, &st)[2];
    assert_eq!(layer(0.49), 0.0);
    assert_eq!(layer(0.5), 1.0);
    assert_eq!(layer(1.5), 2.0);
    assert_eq!(layer(7.0), 2.0);
    assert_eq!(layer(-3.0), 0.0);
    let mut v2 = view(&r, Target::Array2D);
    v2.first_layer = 1;
    assert_eq!(
        lane0(Opcode::TEX, TT::Array2D, [0.2, 0.2, 0.0, 0.0], &v2, &st)[2],
        1.0
    );
}

#[test]
fn texel_fetch_clamps() {
    let r = resource(Target::Tex2D, 4, 4, 1, 3);
    let v = view(&r, Target::Tex2D);
    let st = SamplerState::default();
    let f = |c: [i32; 4], off: [i32; 3]| {
        let src = [c.map(|x| x as u32); 4];
        run(Opcode::TXF, TT::Tex2D, &[src], &v, &st, off)[0]
    };
    assert_eq!(f([-1, 9, 0, 0], [0; 3]), [0.0, 3.0, 0.0, 0.0]);
    assert_eq!(f([1, 1, 0, 1], [0; 3]), [1.0, 1.0, 0.0, 1.0]);
    assert_eq!(
        f([1, 1, 0, 7], [0; 3]),
        [0.0, 0.0, 0.0, 2.0],
        "level clamps, 1×1"
    );
    assert_eq!(
        f([1, 1, 0, -1], [0; 3]),
        [1.0, 1.0, 0.0, 0.0],
        "negative LOD → first level (softpipe: tests/data/texref/texelfetch-targets)"
    );
    assert_eq!(
        f([1, 1, 0, 0], [1, 257, 0]),
        [2.0, 2.0, 0.0, 0.0],
        "offsets are int8"
    );
    // Lane 0's LOD for all lanes.
    let src = [[1, 1, 0, 1], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0]];
    let got = run(Opcode::TXF, TT::Tex2D, &[src], &v, &st, [0; 3]);
    assert!(got.iter().all(|l| l[3] == 1.0));
    // Array layers clamp signed: −1 → first layer, 7 → last.
    let ra = resource(Target::Array2D, 2, 2, 3, 1);
    let va = view(&ra, Target::Array2D);
    let layer = |z: i32| {
        let src = [[0, 0, z as u32, 0]; 4];
        run(Opcode::TXF, TT::Array2D, &[src], &va, &st, [0; 3])[0][2]
    };
    assert_eq!(layer(-1), 0.0);
    assert_eq!(layer(1), 1.0);
    assert_eq!(layer(7), 2.0);
}

#[test]
fn size_queries() {
    let r = resource(Target::Tex2D, 8, 4, 1, 3);
    let v = view(&r, Target::Tex2D);
    let st = SamplerState::default();
    let q = |level: i32, v: &SamplerView, t: TT| {
        execute(&TexRequest {
            opcode: Opcode::TXQ,
            target: t,
            srcs: &[[[level as u32, 0, 0, 0]; 4]],
            offsets: [0; 3],
            view: Some(v),
            sampler: Some(&st),
            seamless_cube_map: false,
            implicit_lod: true,
            sview_swizzle: [0, 1, 2, 3],
        })[3]
    };
    assert_eq!(q(0, &v, TT::Tex2D), [8, 4, 0, 3]);
    assert_eq!(q(1, &v, TT::Tex2D), [4, 2, 0, 3]);
    assert_eq!(q(3, &v, TT::Tex2D), [0; 4]);
    let rc = resource(Target::CubeArray, 4, 4, 12, 2);
    let vc = view(&rc, Target::CubeArray);
    assert_eq!(q(1, &vc, TT::CubeArray), [2, 2, 2, 2]);
    let r3 = resource(Target::Tex3D, 8, 4, 2, 2);
    assert_eq!(q(1, &view(&r3, Target::Tex3D), TT::Tex3D), [4, 2, 1, 2]);
    let unbound = execute(&TexRequest {
        opcode: Opcode::TXQ,
        target: TT::Tex2D,
        srcs: &[],
        offsets: [0; 3],
        view: None,
        sampler: None,
        seamless_cube_map: false,
        implicit_lod: true,
        sview_swizzle: [0, 1, 2, 3],
    });
    assert_eq!(unbound, [[0; 4]; 4]);
}

#[test]
fn gather_order_and_component() {
    let r = resource(Target::Tex2D, 4, 4, 1, 1);
    let v = view(&r, Target::Tex2D);
    let st = sampler(Filter::Nearest, MipFilter::None, Wrap::Repeat);
    // Footprint at s = t = 0.5: texels 1, 2 in x and in y.
    let comp = |c: u32| [[c, 0, 0, 0]; 4];
    let x = run(
        Opcode::TG4,
        TT::Tex2D,
        &[splat([0.5, 0.5, 0.0, 0.0]), comp(0)],
        &v,
        &st,
        [0; 3],
    );
    assert_eq!(
        x[0],
        [1.0, 2.0, 2.0, 1.0],
        "(i0,j1) (i1,j1) (i1,j0) (i0,j0)"
    );
    let y = run(
        Opcode::TG4,
        TT::Tex2D,
        &[splat([0.5, 0.5, 0.0, 0.0]), comp(1)],
        &v,
        &st,
        [0; 3],
    );
    assert_eq!(y[0], [2.0, 2.0, 1.0, 1.0]);
    let off = run(
        Opcode::TG4,
        TT::Tex2D,
        &[splat([0.5, 0.5, 0.0, 0.0]), comp(0)],
        &v,
        &st,
        [1, 0, 0],
    );
    assert_eq!(off[0], [2.0, 3.0, 3.0, 2.0]);
}

#[test]
fn compare_after_filtering() {
    let r = resource(Target::Tex2D, 4, 4, 1, 1);
    let v = view(&r, Target::Tex2D);
    let mut st = sampler(Filter::Linear, MipFilter::None, Wrap::ClampToEdge);
    st.compare = true;
    // Filtered depth (channel x) at u = 1.25 is 1.25; a float view keeps the reference.
    let cmp = |f: CompareFunc, r: f32| {
        let mut s = st;
        s.compare_func = f;
        lane0(Opcode::TEX, TT::Shadow2D, [0.4375, 0.625, r, 0.0], &v, &s)
    };
    assert_eq!(cmp(CompareFunc::Less, 1.0), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(cmp(CompareFunc::Less, 1.25), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(cmp(CompareFunc::Lequal, 1.25)[0], 1.0);
    assert_eq!(cmp(CompareFunc::Equal, 1.25)[0], 1.0);
    assert_eq!(cmp(CompareFunc::NotEqual, 1.25)[0], 0.0);
    assert_eq!(cmp(CompareFunc::Greater, 1.5)[0], 1.0);
    assert_eq!(cmp(CompareFunc::Gequal, 1.0)[0], 0.0);
    assert_eq!(cmp(CompareFunc::Never, 0.0)[0], 0.0);
    assert_eq!(cmp(CompareFunc::Always, 0.0)[0], 1.0);
    // TXP divides the reference too.
    let mut s = st;
    s.compare_func = CompareFunc::Less;
    let got = lane0(Opcode::TXP, TT::Shadow2D, [0.875, 1.25, 2.0, 2.0], &v, &s);
    assert_eq!(got, [1.0, 1.0, 1.0, 1.0], "1.0 < 1.25");
}

#[test]
fn sample_family_uses_the_sview_swizzle() {
    let r = resource(Target::Tex2D, 4, 4, 1, 1);
    let v = view(&r, Target::Tex2D);
    let st = sampler(Filter::Nearest, MipFilter::None, Wrap::Repeat);
    let got = floats(execute(&TexRequest {
        opcode: Opcode::SAMPLE,
        target: TT::Tex2D,
        srcs: &[splat([0.3, 0.6, 0.0, 0.0])],
        offsets: [0; 3],
        view: Some(&v),
        sampler: Some(&st),
        seamless_cube_map: false,
        implicit_lod: true,
        sview_swizzle: [1, 0, 0, 2],
    }));
    assert_eq!(got[0], [2.0, 1.0, 1.0, 0.0]);
}

#[test]
fn never_panics() {
    let specials = [
        0.0f32,
        -0.0,
        0.5,
        -1.5,
        1e30,
        -1e30,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        3.0e9,
    ];
    let targets = [
        (Target::Buffer, TT::Buffer),
        (Target::Tex1D, TT::Tex1D),
        (Target::Tex2D, TT::Tex2D),
        (Target::Tex3D, TT::Tex3D),
        (Target::Cube, TT::ShadowCube),
        (Target::Rect, TT::Rect),
        (Target::Array1D, TT::Shadow1DArray),
        (Target::Array2D, TT::Array2D),
        (Target::CubeArray, TT::ShadowCubeArray),
    ];
    let opcodes = [
        Opcode::TEX,
        Opcode::TXP,
        Opcode::TXB,
        Opcode::TXL,
        Opcode::TXD,
        Opcode::TEX2,
        Opcode::TXB2,
        Opcode::TXL2,
        Opcode::TG4,
        Opcode::LODQ,
        Opcode::TXF,
        Opcode::TXQ,
        Opcode::TEX_LZ,
        Opcode::TXF_LZ,
        Opcode::TXQS,
        Opcode::SAMPLE,
        Opcode::SAMPLE_C,
        Opcode::SAMPLE_D,
        Opcode::GATHER4,
        Opcode::SAMPLE_I,
        Opcode::LOD,
        Opcode::SVIEWINFO,
        Opcode::SAMPLE_POS,
        Opcode::SAMPLE_INFO,
        Opcode::TXQ_LZ,
    ];
    let mut seed = 0x1234_5678u32;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    for (i, &(target, tt)) in targets.iter().enumerate() {
        let w = [0, 1, 5, 8][i % 4];
        let res = resource_or_empty(target, w);
        for trial in 0..60 {
            let mut v = view(&res, target);
            v.first_level = rnd() % 4;
            v.last_level = rnd() % 6;
            v.first_layer = rnd() % 3;
            v.last_layer = rnd() % 9;
            v.size = rnd() % 64;
            v.offset = rnd() % 64;
            let mut st = sampler(
                if rnd() & 1 == 0 {
                    Filter::Nearest
                } else {
                    Filter::Linear
                },
                [MipFilter::None, MipFilter::Nearest, MipFilter::Linear][(rnd() % 3) as usize],
                [
                    Wrap::Repeat,
                    Wrap::Clamp,
                    Wrap::ClampToBorder,
                    Wrap::MirrorRepeat,
                ][(rnd() % 4) as usize],
            );
            st.max_anisotropy = [0, 2, 16][(rnd() % 3) as usize];
            st.compare = rnd() & 1 == 0;
            st.unnormalized_coords = rnd() % 4 == 0;
            st.max_lod = specials[(rnd() % 10) as usize];
            st.lod_bias = specials[(rnd() % 10) as usize];
            let mut src = |_: usize| -> QuadVec {
                std::array::from_fn(|_| {
                    std::array::from_fn(|_| {
                        if rnd() & 1 == 0 {
                            specials[(rnd() % 10) as usize].to_bits()
                        } else {
                            rnd()
                        }
                    })
                })
            };
            let srcs = [src(0), src(1), src(2)];
            let op = opcodes[trial % opcodes.len()];
            let _ = execute(&TexRequest {
                opcode: op,
                target: tt,
                srcs: &srcs,
                offsets: [rnd() as i32, -9, 300],
                view: Some(&v),
                sampler: Some(&st),
                seamless_cube_map: rnd() & 1 == 0,
                implicit_lod: true,
                sview_swizzle: [7, 1, 2, 3],
            });
        }
    }
}

/// `resource`, or a resource with no bytes at all when `w` is 0.
fn resource_or_empty(target: Target, w: u32) -> Arc<Resource> {
    if w == 0 {
        Arc::new(Resource {
            target,
            format: rgba32f(),
            width0: 0,
            height0: 0,
            depth0: 0,
            array_size: 0,
            last_level: 9,
            nr_samples: 0,
            data: Storage::zeroed(0),
        })
    } else {
        let layers = if target == Target::CubeArray || target == Target::Cube {
            6
        } else {
            2
        };
        resource(
            target,
            w,
            if target == Target::Buffer { 1 } else { w },
            layers,
            2,
        )
    }
}
