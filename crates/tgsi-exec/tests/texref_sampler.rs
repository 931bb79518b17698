//! Bit-exact check of the sampler module against softpipe's images (`shared/corpus/texref`)
//! before the interpreter knows texture opcodes: for cases whose texture instructions
//! write `OUT[0]` directly, each texture instruction is replaced by `MOV dst, src0`, the
//! shader is rendered to obtain every pixel's coordinates, and the quads are sampled with
//! [`tgsi_exec::texture::execute`] using the gallium state of `textures.json`. The result
//! must equal `ref.f32` bit for bit. Also checks `tbuffer-fetch` (texelFetch on buffers)
//! from the shader's integer formula. Skips when the corpus is absent.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use tgsi::{Format, Opcode, TextureTarget};
use tgsi_exec::resource::{
    CompareFunc, Filter, MipFilter, Resource, SamplerState, SamplerView, Storage, Swizzle, Target,
    Wrap,
};
use tgsi_exec::texture::{execute, QuadVec, TexRequest};
use tgsi_exec::{parse_consts, render_fragment, Program, RenderOptions};

mod json {
    //! Just enough JSON for `textures.json`.
    #[derive(Debug, Clone)]
    pub enum Value {
        Null,
        Bool(bool),
        Num(f64),
        Str(String),
        Arr(Vec<Value>),
        Obj(Vec<(String, Value)>),
    }

    impl Value {
        pub fn get(&self, key: &str) -> &Value {
            static NULL: Value = Value::Null;
            match self {
                Value::Obj(m) => m.iter().find(|(k, _)| k == key).map_or(&NULL, |(_, v)| v),
                _ => &NULL,
            }
        }
        pub fn idx(&self, i: usize) -> &Value {
            static NULL: Value = Value::Null;
            match self {
                Value::Arr(a) => a.get(i).unwrap_or(&NULL),
                _ => &NULL,
            }
        }
        pub fn arr(&self) -> &[Value] {
            match self {
                Value::Arr(a) => a,
                _ => &[],
            }
        }
        pub fn num(&self) -> f64 {
            match self {
                Value::Num(n) => *n,
                _ => panic!("not a number: {self:?}"),
            }
        }
        pub fn str(&self) -> &str {
            match self {
                Value::Str(s) => s,
                _ => panic!("not a string: {self:?}"),
            }
        }
        pub fn bool(&self) -> bool {
            matches!(self, Value::Bool(true))
        }
    }

    pub fn parse(text: &str) -> Value {
        let b = text.as_bytes();
        let mut i = 0;
        value(b, &mut i)
    }

    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }

    fn value(b: &[u8], i: &mut usize) -> Value {
        ws(b, i);
        match b[*i] {
            b'{' => {
                *i += 1;
                let mut m = Vec::new();
                loop {
                    ws(b, i);
                    if b[*i] == b'}' {
                        *i += 1;
                        return Value::Obj(m);
                    }
                    let Value::Str(k) = value(b, i) else {
                        panic!("key")
                    };
                    ws(b, i);
                    assert_eq!(b[*i], b':');
                    *i += 1;
                    m.push((k, value(b, i)));
                    ws(b, i);
                    if b[*i] == b',' {
                        *i += 1;
                    }
                }
            }
            b'[' => {
                *i += 1;
                let mut a = Vec::new();
                loop {
                    ws(b, i);
                    if b[*i] == b']' {
                        *i += 1;
                        return Value::Arr(a);
                    }
                    a.push(value(b, i));
                    ws(b, i);
                    if b[*i] == b',' {
                        *i += 1;
                    }
                }
            }
            b'"' => {
                *i += 1;
                let mut s = String::new();
                while b[*i] != b'"' {
                    if b[*i] == b'\\' {
                        *i += 1;
                    }
                    s.push(b[*i] as char);
                    *i += 1;
                }
                *i += 1;
                Value::Str(s)
            }
            b't' => {
                *i += 4;
                Value::Bool(true)
            }
            b'f' => {
                *i += 5;
                Value::Bool(false)
            }
            b'n' => {
                *i += 4;
                Value::Null
            }
            _ => {
                let start = *i;
                while *i < b.len() && (b"+-.eE".contains(&b[*i]) || b[*i].is_ascii_digit()) {
                    *i += 1;
                }
                Value::Num(std::str::from_utf8(&b[start..*i]).unwrap().parse().unwrap())
            }
        }
    }
}

use json::Value;

fn corpus() -> Option<PathBuf> {
    [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/texref"),
        PathBuf::from("/work/shared/corpus/texref"),
    ]
    .into_iter()
    .find(|p| p.is_dir())
}

fn target(name: &str) -> Target {
    Target::from_name(name).unwrap_or_else(|| panic!("target {name}"))
}

fn wrap(name: &str) -> Wrap {
    match name {
        "REPEAT" => Wrap::Repeat,
        "CLAMP" => Wrap::Clamp,
        "CLAMP_TO_EDGE" => Wrap::ClampToEdge,
        "CLAMP_TO_BORDER" => Wrap::ClampToBorder,
        "MIRROR_REPEAT" => Wrap::MirrorRepeat,
        "MIRROR_CLAMP" => Wrap::MirrorClamp,
        "MIRROR_CLAMP_TO_EDGE" => Wrap::MirrorClampToEdge,
        "MIRROR_CLAMP_TO_BORDER" => Wrap::MirrorClampToBorder,
        _ => panic!("wrap {name}"),
    }
}

fn filter(name: &str) -> Filter {
    if name == "NEAREST" {
        Filter::Nearest
    } else {
        Filter::Linear
    }
}

fn compare_func(name: &str) -> CompareFunc {
    match name {
        "NEVER" => CompareFunc::Never,
        "LESS" => CompareFunc::Less,
        "EQUAL" => CompareFunc::Equal,
        "LEQUAL" => CompareFunc::Lequal,
        "GREATER" => CompareFunc::Greater,
        "NOTEQUAL" => CompareFunc::NotEqual,
        "GEQUAL" => CompareFunc::Gequal,
        _ => CompareFunc::Always,
    }
}

/// Every bound slot: (view, sampler) from `textures.json`.
fn bindings(dir: &Path) -> (Vec<(SamplerView, SamplerState)>, bool) {
    let doc = json::parse(&std::fs::read_to_string(dir.join("textures.json")).unwrap());
    let mut slots: Vec<Option<(SamplerView, SamplerState)>> = Vec::new();
    for t in doc.get("textures").arr() {
        let pr = t.get("pipe_resource");
        let bytes = std::fs::read(dir.join(t.get("file").str())).unwrap();
        let u = |v: &Value| v.num() as u32;
        let res = Arc::new(Resource {
            target: target(pr.get("target").str()),
            format: Format::from_name(pr.get("format").str()).unwrap(),
            width0: u(pr.get("width0")),
            height0: u(pr.get("height0")),
            depth0: u(pr.get("depth0")),
            array_size: u(pr.get("array_size")),
            last_level: u(pr.get("last_level")),
            nr_samples: 0,
            data: Storage::from_bytes(&bytes),
        });
        for b in t.get("tgsi_bindings").arr() {
            let sv = b.get("sampler_view");
            let ss = b.get("sampler_state");
            let num = |v: &Value| if let Value::Num(n) = v { *n as u32 } else { 0 };
            let view = SamplerView {
                resource: res.clone(),
                format: Format::from_name(sv.get("format").str()).unwrap(),
                target: target(sv.get("target").str()),
                first_level: num(sv.get("first_level")),
                last_level: num(sv.get("last_level")),
                first_layer: num(sv.get("first_layer")),
                last_layer: num(sv.get("last_layer")),
                offset: num(sv.get("buf_offset")),
                size: num(sv.get("buf_size")),
                swizzle: std::array::from_fn(|c| {
                    Swizzle::from_name(sv.get("swizzle").idx(c).str()).unwrap()
                }),
            };
            let border = std::array::from_fn(|c| match ss.get("border_color_bits").idx(c) {
                Value::Str(s) => u32::from_str_radix(s.trim_start_matches("0x"), 16).unwrap(),
                _ => 0,
            });
            if matches!(ss, Value::Null) {
                let slot = b.get("sview").num() as usize;
                if slots.len() <= slot {
                    slots.resize(slot + 1, None);
                }
                slots[slot] = Some((view, SamplerState::default()));
                continue;
            }
            let state = SamplerState {
                wrap: [
                    wrap(ss.get("wrap_s").str()),
                    wrap(ss.get("wrap_t").str()),
                    wrap(ss.get("wrap_r").str()),
                ],
                min_img_filter: filter(ss.get("min_img_filter").str()),
                min_mip_filter: match ss.get("min_mip_filter").str() {
                    "NONE" => MipFilter::None,
                    "NEAREST" => MipFilter::Nearest,
                    _ => MipFilter::Linear,
                },
                mag_img_filter: filter(ss.get("mag_img_filter").str()),
                compare: ss.get("compare_mode").str() != "NONE",
                compare_func: compare_func(ss.get("compare_func").str()),
                unnormalized_coords: ss.get("unnormalized_coords").bool(),
                max_anisotropy: num(ss.get("max_anisotropy")),
                seamless_cube_map: ss.get("seamless_cube_map").bool(),
                lod_bias: ss.get("lod_bias").num() as f32,
                min_lod: ss.get("min_lod").num() as f32,
                max_lod: ss.get("max_lod").num() as f32,
                border_color: border,
            };
            let slot = b.get("sview").num() as usize;
            if slots.len() <= slot {
                slots.resize(slot + 1, None);
            }
            slots[slot] = Some((view, state));
        }
    }
    let seamless = doc.get("seamless_cube_map_enable").bool();
    (slots.into_iter().map(Option::unwrap).collect(), seamless)
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Render `dir`'s shader with its texture instructions replaced by `MOV dst, src0`.
fn coordinates(dir: &Path) -> (Vec<u32>, u32, u32, Opcode, TextureTarget) {
    let text = std::fs::read_to_string(dir.join("shader.tgsi")).unwrap();
    let mut shader = tgsi::parse(&text).unwrap();
    let mut found = None;
    for ins in &mut shader.instructions {
        if ins.opcode.info().has(tgsi::opcode::TEX) {
            found = Some((ins.opcode, ins.texture.as_ref().unwrap().target));
            let mut mov = tgsi::Instruction::new(Opcode::MOV);
            mov.dst = ins.dst.clone();
            mov.src = [ins.src[0]].into();
            *ins = mov;
        }
    }
    let (op, tgt) = found.unwrap();
    let program = Program::compile(&shader).unwrap();
    let constants =
        parse_consts(&std::fs::read_to_string(dir.join("consts.txt")).unwrap()).unwrap();
    let opts = RenderOptions {
        width: 64,
        height: 64,
        constants,
        threads: 1,
        ..Default::default()
    };
    let image = render_fragment(&program, &opts).unwrap();
    (words(&image.to_le_bytes()), 64, 64, op, tgt)
}

/// Sample every quad of a case whose texture instruction writes OUT[0]; `unit` picks the
/// slot used by a pixel (x, y). Returns the number of differing floats.
fn check(name: &str, unit: impl Fn(u32, u32) -> usize) -> Option<usize> {
    let dir = corpus()?.join(name);
    let (coords, w, h, opcode, target) = coordinates(&dir);
    let (slots, seamless) = bindings(&dir);
    let want = words(&std::fs::read(dir.join("ref.f32")).unwrap());
    let mut bad = 0;
    for qy in (0..h).step_by(2) {
        for qx in (0..w).step_by(2) {
            let px = [(qx, qy), (qx + 1, qy), (qx, qy + 1), (qx + 1, qy + 1)];
            let at = |(x, y): (u32, u32)| ((y * w + x) * 4) as usize;
            let src: QuadVec = px.map(|p| std::array::from_fn(|c| coords[at(p) + c]));
            let (view, state) = &slots[unit(qx, qy)];
            let req = TexRequest {
                opcode,
                target,
                srcs: &[src],
                offsets: [0; 3],
                view: Some(view),
                sampler: Some(state),
                seamless_cube_map: seamless,
                implicit_lod: true,
                sview_swizzle: [0, 1, 2, 3],
            };
            let got = execute(&req);
            for (l, p) in px.into_iter().enumerate() {
                for c in 0..4 {
                    if got[l][c] != want[at(p) + c] {
                        if bad < 4 {
                            eprintln!(
                                "{name}: pixel {p:?} channel {c}: got {} want {} (coords {:?})",
                                f32::from_bits(got[l][c]),
                                f32::from_bits(want[at(p) + c]),
                                src[l].map(f32::from_bits)
                            );
                        }
                        bad += 1;
                    }
                }
            }
        }
    }
    Some(bad)
}

fn expect_exact(name: &str, unit: impl Fn(u32, u32) -> usize) {
    match check(name, unit) {
        None => eprintln!("{name}: corpus absent, skipped"),
        Some(bad) => assert_eq!(bad, 0, "{name}: {bad} floats differ from softpipe"),
    }
}

#[test]
fn t2d_lod_polynomial() {
    expect_exact("t2d-lod-polynomial", |_, _| 0);
}

#[test]
fn t2d_linear_clamp() {
    expect_exact("t2d-linear-clamp", |_, _| 0);
}

#[test]
fn t3d_trilinear() {
    expect_exact("t3d-trilinear", |_, _| 0);
}

#[test]
fn piglit_texture2dproj() {
    expect_exact("piglit-texture2dproj", |_, _| 0);
}

#[test]
fn aniso() {
    // The shader samples SAMP[0] where x / W < 0.5 and SAMP[1] elsewhere.
    expect_exact("aniso", |x, _| usize::from(x >= 32));
}

#[test]
fn tbuffer_fetch() {
    // k = (x + 64·row) mod 61 − 5; fetches t0[k], t1[2k], t2[k + 3] (out of range clamps
    // unsigned: negative indices read the last element).
    let Some(root) = corpus() else {
        eprintln!("tbuffer-fetch: corpus absent, skipped");
        return;
    };
    let dir = root.join("tbuffer-fetch");
    let (slots, _) = bindings(&dir);
    let want = words(&std::fs::read(dir.join("ref.f32")).unwrap());
    let fetch = |slot: usize, idx: [i32; 4]| {
        let src: QuadVec = idx.map(|i| [i as u32, i as u32, i as u32, 0]);
        execute(&TexRequest {
            opcode: Opcode::TXF,
            target: TextureTarget::Buffer,
            srcs: &[src],
            offsets: [0; 3],
            view: Some(&slots[slot].0),
            sampler: Some(&slots[slot].1),
            seamless_cube_map: false,
            implicit_lod: true,
            sview_swizzle: [0, 1, 2, 3],
        })
    };
    // Channels whose texture formats the format module can read (z: R8_UINT, w: RG16_SINT).
    let readable = |slot: usize| tgsi_exec::format::texel_bytes(slots[slot].0.format).is_some();
    let known = [readable(0), readable(0), readable(1), readable(2)];
    let mut bad = 0;
    for q in 0..64 * 64 / 4 {
        let (qx, qy) = ((q % 32) * 2, (q / 32) * 2);
        let px = [(qx, qy), (qx + 1, qy), (qx, qy + 1), (qx + 1, qy + 1)];
        let k = px.map(|(x, y)| (x + 64 * y) % 61 - 5);
        let a = fetch(0, k);
        let b = fetch(1, k.map(|k| 2 * k));
        let c = fetch(2, k.map(|k| k + 3));
        for (l, (x, y)) in px.into_iter().enumerate() {
            let at = ((y * 64 + x) * 4) as usize;
            let f = |w: u32| f32::from_bits(w);
            let got = [
                (f(a[l][0]) + f(a[l][3])).to_bits(),
                (f(a[l][1]) * f(a[l][2])).to_bits(),
                b[l][0].wrapping_add(b[l][3] << 8),
                c[l][0] ^ c[l][1],
            ];
            bad += (0..4)
                .filter(|&ch| known[ch] && got[ch] != want[at + ch])
                .count();
        }
    }
    assert_eq!(bad, 0, "tbuffer-fetch: {bad} floats differ");
}
