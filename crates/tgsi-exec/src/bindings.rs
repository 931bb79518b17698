//! The bindings file (`--bindings FILE.json`, `shared/docs/bindings.md`): resources, sampler
//! views, samplers, images, buffers and hardware atomic counters bound to TGSI slots, in
//! Gallium's vocabulary (`pipe_resource`, `pipe_sampler_view`, `pipe_sampler_state`,
//! `pipe_image_view`, `pipe_shader_buffer`), plus compute defaults.
//!
//! Everything is checked before anything runs: unknown keys, unknown enum names, formats this
//! crate cannot read, sizes that overflow, views outside their resource and data files of the
//! wrong size are errors naming the key (`resources[1].format: unknown format 'FOO'`).
//!
//! ```
//! let json = r#"{
//!   "resources": [{"name": "buf", "target": "PIPE_BUFFER", "format": "PIPE_FORMAT_R8_UNORM",
//!                  "width0": 16}],
//!   "buffers": [{"slot": 0, "resource": "buf", "offset": 0, "size": 16}],
//!   "grid": [2, 1, 1]
//! }"#;
//! let b = tgsi_exec::bindings::parse(json, std::path::Path::new(".")).unwrap();
//! assert_eq!(b.resources.buffer(0).unwrap().size, 16);
//! assert_eq!(b.grid, Some([2, 1, 1]));
//! ```

use crate::format;
use crate::resource::{
    Access, BufferView, CompareFunc, Filter, ImageView, MipFilter, Resource, Resources,
    SamplerState, SamplerView, Storage, Swizzle, Target, Wrap, MAX_RESOURCE_BYTES,
};
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tgsi::{File, Format, Shader};

/// Highest slot number accepted for any binding.
pub const MAX_SLOT: u32 = 4095;

/// A loaded bindings file.
#[derive(Debug, Default)]
pub struct Bindings {
    /// What is bound to the shader's slots.
    pub resources: Resources,
    /// Resources whose bytes are written to a file after the run (`"out"`).
    pub outputs: Vec<(PathBuf, Arc<Resource>)>,
    /// `grid` (compute).
    pub grid: Option<[u32; 3]>,
    /// `block` (compute).
    pub block: Option<[u32; 3]>,
    /// `req_local_mem` (compute shared memory bytes).
    pub req_local_mem: Option<u32>,
    /// Things worth telling the user that are not errors.
    pub warnings: Vec<String>,
}

/// A bindings file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingsError {
    /// The JSON key, e.g. `resources[1].format` (empty for the whole document).
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for BindingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.key, self.message)
        }
    }
}

impl std::error::Error for BindingsError {}

type Result<T> = std::result::Result<T, BindingsError>;

fn err<T>(key: &str, message: impl Into<String>) -> Result<T> {
    Err(BindingsError {
        key: key.to_string(),
        message: message.into(),
    })
}

/// Read and check the bindings file at `path` (data files relative to its directory).
pub fn load(path: &Path) -> Result<Bindings> {
    let text = std::fs::read_to_string(path).or_else(|e| err("", format!("cannot read: {e}")))?;
    parse(&text, path.parent().unwrap_or(Path::new(".")))
}

/// Most bytes all resources of one bindings document may hold together (4 GiB); a host
/// parsing documents it does not trust sets its own with [`parse_with_limit`].
pub const MAX_TOTAL_BYTES: u64 = 4 << 30;

/// Check a bindings document; relative data paths are taken from `base`.
pub fn parse(json: &str, base: &Path) -> Result<Bindings> {
    parse_with_limit(json, base, MAX_TOTAL_BYTES)
}

/// [`parse`] with a cap on the bytes of all resources together (each also stays within
/// [`MAX_RESOURCE_BYTES`]); nothing larger is allocated.
pub fn parse_with_limit(json: &str, base: &Path, max_total_bytes: u64) -> Result<Bindings> {
    let doc: Value = serde_json::from_str(json).or_else(|e| err("", format!("not JSON: {e}")))?;
    let top = Obj::new(&doc, "")?;
    top.only(&[
        "resources",
        "sampler_views",
        "samplers",
        "images",
        "buffers",
        "hw_atomics",
        "grid",
        "block",
        "req_local_mem",
        "seamless_cube_map",
    ])?;
    let mut b = Bindings::default();
    let mut named: Vec<(String, Arc<Resource>)> = Vec::new();
    let mut left = max_total_bytes;
    for (i, r) in top.list("resources")?.iter().enumerate() {
        let key = format!("resources[{i}]");
        let (name, res, out) = resource(&Obj::new(r, &key)?, base, left)?;
        left = left.saturating_sub(res.data.len() as u64);
        if named.iter().any(|(n, _)| *n == name) {
            return err(&key, format!("a second resource named '{name}'"));
        }
        if let Some(out) = out {
            b.outputs.push((out, res.clone()));
        }
        named.push((name, res));
    }
    let find = |o: &Obj| -> Result<Arc<Resource>> {
        let name = o.str("resource")?;
        named
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| r.clone())
            .ok_or_else(|| BindingsError {
                key: o.key("resource"),
                message: format!("no resource named '{name}'"),
            })
    };
    for (i, v) in top.list("sampler_views")?.iter().enumerate() {
        let o = Obj::new(v, &format!("sampler_views[{i}]"))?;
        let view = sampler_view(&o, find(&o)?)?;
        put(&mut b.resources.sampler_views, &o, view)?;
    }
    let mut pending_borders = Vec::new();
    for (i, v) in top.list("samplers")?.iter().enumerate() {
        let o = Obj::new(v, &format!("samplers[{i}]"))?;
        let (s, border) = sampler(&o)?;
        put(&mut b.resources.samplers, &o, s)?;
        pending_borders.push((o.u32("slot")? as usize, border));
    }
    for (i, v) in top.list("images")?.iter().enumerate() {
        let o = Obj::new(v, &format!("images[{i}]"))?;
        let view = image(&o, find(&o)?)?;
        put(&mut b.resources.images, &o, view)?;
    }
    for (list, what) in [("buffers", 0), ("hw_atomics", 1)] {
        for (i, v) in top.list(list)?.iter().enumerate() {
            let o = Obj::new(v, &format!("{list}[{i}]"))?;
            o.only(&["slot", "resource", "offset", "size"])?;
            let resource = find(&o)?;
            let (offset, size) = byte_range(&o, &resource, true)?;
            let view = BufferView {
                resource,
                offset,
                size,
            };
            let slots = if what == 0 {
                &mut b.resources.buffers
            } else {
                &mut b.resources.hw_atomics
            };
            put(slots, &o, view)?;
        }
    }
    resolve_borders(&mut b.resources, &pending_borders);
    b.grid = top.opt_dims("grid")?;
    b.block = top.opt_dims("block")?;
    b.req_local_mem = top.opt_u32("req_local_mem")?;
    b.resources.seamless_cube_map = top.bool_or("seamless_cube_map", false)?;
    Ok(b)
}

impl Bindings {
    /// Write every resource that has an `"out"` file.
    pub fn write_outputs(&self) -> std::io::Result<()> {
        for (path, res) in &self.outputs {
            std::fs::write(path, res.data.to_bytes())?;
        }
        Ok(())
    }

    /// One warning for each slot `shader` declares (or, for the TEX-family's `SAMP[i]`,
    /// needs a view for) that nothing is bound to: it reads zero and drops writes.
    pub fn unbound_slots(&self, shader: &Shader) -> Vec<String> {
        let r = &self.resources;
        let has_sviews = shader
            .declarations
            .iter()
            .any(|d| d.file == File::SamplerView);
        let mut out = Vec::new();
        for d in &shader.declarations {
            for i in d.first..=d.last.min(d.first.saturating_add(MAX_SLOT)) {
                let missing = match d.file {
                    File::SamplerView => r.sampler_view(i).is_none(),
                    File::Sampler if r.sampler(i).is_none() => true,
                    File::Sampler if !has_sviews && r.sampler_view(i).is_none() => {
                        out.push(format!(
                            "SAMP[{i}] has no sampler view at slot {i}: it samples zero"
                        ));
                        false
                    }
                    File::Image => r.image(i).is_none(),
                    File::Buffer => r.buffer(i).is_none(),
                    File::HwAtomic => r.hw_atomic(i).is_none(),
                    _ => false,
                };
                if missing {
                    out.push(format!(
                        "{}[{i}] is not bound: it reads zero and drops writes",
                        d.file
                    ));
                }
            }
        }
        out
    }
}

/// Bind `value` to `o.slot` in `slots`.
fn put<T>(slots: &mut Vec<Option<T>>, o: &Obj, value: T) -> Result<()> {
    let slot = o.u32("slot")?;
    if slot > MAX_SLOT {
        return err(&o.key("slot"), format!("slot {slot} is above {MAX_SLOT}"));
    }
    let slot = slot as usize;
    if slots.len() <= slot {
        slots.resize_with(slot + 1, || None);
    }
    if slots[slot].is_some() {
        return err(&o.key("slot"), format!("slot {slot} is bound twice"));
    }
    slots[slot] = Some(value);
    Ok(())
}

fn parse_format(o: &Obj, key: &str) -> Result<Format> {
    let name = o.str(key)?;
    let f = Format::from_name(name)
        .or_else(|| Format::from_name(&format!("PIPE_FORMAT_{name}")))
        .ok_or_else(|| BindingsError {
            key: o.key(key),
            message: format!("unknown format '{name}'"),
        })?;
    if format::texel_bytes(f).is_none() {
        return err(&o.key(key), format!("format '{name}' is not supported"));
    }
    Ok(f)
}

fn parse_target(o: &Obj, key: &str) -> Result<Target> {
    let name = o.str(key)?;
    Target::from_name(name).ok_or_else(|| BindingsError {
        key: o.key(key),
        message: format!("unknown target '{name}'"),
    })
}

/// A `resources[]` entry: its name, the resource and the `out` path.
/// The `pipe_resource` fields a resource entry takes (besides `name`, `data`, `out` and
/// `bind`), spelled as Gallium spells them.
pub const RESOURCE_FIELDS: [&str; 8] = [
    "target",
    "format",
    "width0",
    "height0",
    "depth0",
    "array_size",
    "last_level",
    "nr_samples",
];

/// The `pipe_sampler_state` fields a sampler entry takes (besides `slot` and
/// `border_color`), spelled as Gallium spells them.
pub const SAMPLER_FIELDS: [&str; 14] = [
    "wrap_s",
    "wrap_t",
    "wrap_r",
    "min_img_filter",
    "min_mip_filter",
    "mag_img_filter",
    "compare_mode",
    "compare_func",
    "unnormalized_coords",
    "max_anisotropy",
    "seamless_cube_map",
    "lod_bias",
    "min_lod",
    "max_lod",
];

fn resource(o: &Obj, base: &Path, room: u64) -> Result<(String, Arc<Resource>, Option<PathBuf>)> {
    o.only_fields(&RESOURCE_FIELDS, &["name", "data", "out", "bind"])?;
    let name = o.str("name")?.to_string();
    let target = parse_target(o, "target")?;
    let format = parse_format(o, "format")?;
    let width0 = o.u32("width0")?;
    let height0 = o.u32_or("height0", 1)?;
    let depth0 = o.u32_or("depth0", 1)?;
    let array_size = o.u32_or("array_size", 1)?;
    let last_level = o.u32_or("last_level", 0)?;
    let nr_samples = o.u32_or("nr_samples", 0)?;
    for (k, v) in [
        ("width0", width0),
        ("height0", height0),
        ("depth0", depth0),
        ("array_size", array_size),
    ] {
        if v == 0 {
            return err(&o.key(k), "must be at least 1");
        }
    }
    let fits = match target {
        Target::Buffer | Target::Tex1D => height0 == 1 && depth0 == 1 && array_size == 1,
        Target::Array1D => height0 == 1 && depth0 == 1,
        Target::Tex2D | Target::Rect => depth0 == 1 && array_size == 1,
        Target::Array2D => depth0 == 1,
        Target::Tex3D => array_size == 1,
        Target::Cube => depth0 == 1 && array_size == 6 && width0 == height0,
        Target::CubeArray => depth0 == 1 && array_size.is_multiple_of(6) && width0 == height0,
    };
    if !fits {
        return err(
            &o.key("target"),
            "the sizes do not fit the target (height0/depth0/array_size; cubes are square with 6 faces per layer)",
        );
    }
    let max_levels = 32 - width0.max(height0).max(depth0).leading_zeros();
    if last_level >= max_levels || (target == Target::Buffer && last_level != 0) {
        return err(&o.key("last_level"), "more levels than the size allows");
    }
    let texel = format::texel_bytes(format).unwrap_or(1);
    let mut res = Resource {
        target,
        format,
        width0,
        height0,
        depth0,
        array_size,
        last_level,
        nr_samples,
        data: Storage::zeroed(0),
    };
    let limit = MAX_RESOURCE_BYTES.min(room);
    let bytes = res
        .layout_bytes(texel)
        .filter(|&b| b <= limit)
        .ok_or_else(|| BindingsError {
            key: o.key("width0"),
            message: if limit < MAX_RESOURCE_BYTES {
                format!("the resources together are larger than the limit; {limit} bytes are left")
            } else {
                format!("the resource is larger than {MAX_RESOURCE_BYTES} bytes")
            },
        })? as usize;
    res.data = match o.opt_str("data")? {
        None => Storage::zeroed(bytes),
        Some(file) => {
            let path = base.join(file);
            let data = std::fs::read(&path).or_else(|e| {
                err(
                    &o.key("data"),
                    format!("cannot read {}: {e}", path.display()),
                )
            })?;
            if data.len() < bytes {
                return err(
                    &o.key("data"),
                    format!(
                        "{} holds {} bytes; the resource needs {bytes}",
                        path.display(),
                        data.len()
                    ),
                );
            }
            Storage::from_bytes(&data[..bytes])
        }
    };
    let out = o.opt_str("out")?.map(|f| base.join(f));
    Ok((name, Arc::new(res), out))
}

fn swizzle(o: &Obj) -> Result<[Swizzle; 4]> {
    let Some(v) = o.get("swizzle") else {
        return Ok([Swizzle::X, Swizzle::Y, Swizzle::Z, Swizzle::W]);
    };
    let key = o.key("swizzle");
    let list = v.as_array().filter(|l| l.len() == 4);
    let Some(list) = list else {
        return err(&key, "expected four of X Y Z W 0 1");
    };
    let mut out = [Swizzle::Zero; 4];
    for (c, s) in list.iter().enumerate() {
        let name = match s {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => String::new(),
        };
        out[c] = Swizzle::from_name(&name).ok_or_else(|| BindingsError {
            key: format!("{key}[{c}]"),
            message: format!("expected one of X Y Z W 0 1, found {s}"),
        })?;
    }
    Ok(out)
}

fn sampler_view(o: &Obj, resource: Arc<Resource>) -> Result<SamplerView> {
    o.only(&[
        "slot",
        "resource",
        "format",
        "target",
        "first_level",
        "last_level",
        "first_layer",
        "last_layer",
        "offset",
        "size",
        "swizzle",
    ])?;
    let format = view_format(o, &resource)?;
    let target = match o.get("target") {
        Some(_) => parse_target(o, "target")?,
        None => resource.target,
    };
    let first_level = o.u32_or("first_level", 0)?;
    let last_level = o.u32_or("last_level", resource.last_level)?;
    if first_level > last_level || last_level > resource.last_level {
        return err(
            &o.key("last_level"),
            "levels outside the resource's (first_level <= last_level <= resource last_level)",
        );
    }
    let (first_layer, last_layer) = layers(o, &resource, 0)?;
    let (offset, size) = byte_range(o, &resource, target == Target::Buffer)?;
    Ok(SamplerView {
        resource,
        format,
        target,
        first_level,
        last_level,
        first_layer,
        last_layer,
        offset,
        size,
        swizzle: swizzle(o)?,
    })
}

fn sampler(o: &Obj) -> Result<(SamplerState, [Border; 4])> {
    o.only_fields(&SAMPLER_FIELDS, &["slot", "border_color"])?;
    let mut s = SamplerState::default();
    for (c, k) in ["wrap_s", "wrap_t", "wrap_r"].iter().enumerate() {
        s.wrap[c] = o.enum_or(
            k,
            "PIPE_TEX_WRAP_",
            &[
                ("REPEAT", Wrap::Repeat),
                ("CLAMP", Wrap::Clamp),
                ("CLAMP_TO_EDGE", Wrap::ClampToEdge),
                ("CLAMP_TO_BORDER", Wrap::ClampToBorder),
                ("MIRROR_REPEAT", Wrap::MirrorRepeat),
                ("MIRROR_CLAMP", Wrap::MirrorClamp),
                ("MIRROR_CLAMP_TO_EDGE", Wrap::MirrorClampToEdge),
                ("MIRROR_CLAMP_TO_BORDER", Wrap::MirrorClampToBorder),
            ],
            Wrap::Repeat,
        )?;
    }
    let filters = [("NEAREST", Filter::Nearest), ("LINEAR", Filter::Linear)];
    s.min_img_filter = o.enum_or(
        "min_img_filter",
        "PIPE_TEX_FILTER_",
        &filters,
        Filter::Nearest,
    )?;
    s.mag_img_filter = o.enum_or(
        "mag_img_filter",
        "PIPE_TEX_FILTER_",
        &filters,
        Filter::Nearest,
    )?;
    s.min_mip_filter = o.enum_or(
        "min_mip_filter",
        "PIPE_TEX_MIPFILTER_",
        &[
            ("NEAREST", MipFilter::Nearest),
            ("LINEAR", MipFilter::Linear),
            ("NONE", MipFilter::None),
        ],
        MipFilter::Nearest,
    )?;
    s.compare = o.enum_or(
        "compare_mode",
        "PIPE_TEX_COMPARE_",
        &[("NONE", false), ("R_TO_TEXTURE", true)],
        false,
    )?;
    s.compare_func = o.enum_or(
        "compare_func",
        "PIPE_FUNC_",
        &[
            ("NEVER", CompareFunc::Never),
            ("LESS", CompareFunc::Less),
            ("EQUAL", CompareFunc::Equal),
            ("LEQUAL", CompareFunc::Lequal),
            ("GREATER", CompareFunc::Greater),
            ("NOTEQUAL", CompareFunc::NotEqual),
            ("GEQUAL", CompareFunc::Gequal),
            ("ALWAYS", CompareFunc::Always),
        ],
        CompareFunc::Never,
    )?;
    s.unnormalized_coords = o.bool_or("unnormalized_coords", false)?;
    s.max_anisotropy = o.u32_or("max_anisotropy", 0)?;
    s.seamless_cube_map = o.bool_or("seamless_cube_map", false)?;
    s.lod_bias = o.f32_or("lod_bias", 0.0)?;
    s.min_lod = o.f32_or("min_lod", 0.0)?;
    s.max_lod = o.f32_or("max_lod", 1000.0)?;
    let mut border = [Border::Bits(0); 4];
    if let Some(v) = o.get("border_color") {
        let key = o.key("border_color");
        let Some(list) = v.as_array().filter(|l| l.len() == 4) else {
            return err(&key, "expected four numbers or four \"0x…\" words");
        };
        for (c, x) in list.iter().enumerate() {
            border[c] = border_entry(x).ok_or_else(|| BindingsError {
                key: format!("{key}[{c}]"),
                message: format!("expected a number or a \"0x…\" word, found {x}"),
            })?;
        }
    }
    Ok((s, border))
}

/// A border colour entry as written.
#[derive(Clone, Copy)]
enum Border {
    /// `"0x…"`: raw bits.
    Bits(u32),
    /// An integer number: integer bits for integer view formats, else a float.
    Int(i64),
    /// A number with a fraction or exponent.
    Float(f32),
}

fn border_entry(v: &Value) -> Option<Border> {
    match v {
        Value::String(s) => {
            let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
            u32::from_str_radix(hex, 16).ok().map(Border::Bits)
        }
        Value::Number(n) => match n.as_i64() {
            Some(i) if i32::try_from(i).is_ok() || u32::try_from(i).is_ok() => Some(Border::Int(i)),
            _ => n.as_f64().map(|x| Border::Float(x as f32)),
        },
        _ => None,
    }
}

/// Resolve the integer border entries of each sampler by the format of the sampler view at
/// the same slot (the one the TEX-family pairs it with).
fn resolve_borders(r: &mut Resources, pending: &[(usize, [Border; 4])]) {
    for &(slot, entries) in pending {
        let int = r.sampler_view(slot as u32).is_some_and(|v| {
            matches!(
                format::class(v.format),
                Some(format::NumClass::Uint | format::NumClass::Sint)
            )
        });
        if let Some(Some(s)) = r.samplers.get_mut(slot) {
            for (w, e) in s.border_color.iter_mut().zip(entries) {
                *w = match e {
                    Border::Bits(b) => b,
                    Border::Int(i) if int => i as u32,
                    Border::Int(i) => (i as f32).to_bits(),
                    Border::Float(f) => f.to_bits(),
                };
            }
        }
    }
}

fn image(o: &Obj, resource: Arc<Resource>) -> Result<ImageView> {
    o.only(&[
        "slot",
        "resource",
        "format",
        "access",
        "level",
        "first_layer",
        "last_layer",
        "offset",
        "size",
    ])?;
    let format = view_format(o, &resource)?;
    let access = o.enum_or(
        "access",
        "PIPE_IMAGE_ACCESS_",
        &[
            ("READ", Access::Read),
            ("WRITE", Access::Write),
            ("READ_WRITE", Access::ReadWrite),
        ],
        Access::ReadWrite,
    )?;
    let level = o.u32_or("level", 0)?;
    if level > resource.last_level {
        return err(&o.key("level"), "level outside the resource");
    }
    let first_layer = o.u32_or("first_layer", 0)?;
    let (first_layer, last_layer) = layers(o, &resource, first_layer)?;
    let (offset, size) = byte_range(o, &resource, resource.target == Target::Buffer)?;
    Ok(ImageView {
        resource,
        format,
        access,
        level,
        first_layer,
        last_layer,
        offset,
        size,
    })
}

/// A view's `format`, or its resource's.
fn view_format(o: &Obj, resource: &Resource) -> Result<Format> {
    match o.get("format") {
        Some(_) => parse_format(o, "format"),
        None => Ok(resource.format),
    }
}

/// A view's `first_layer` and `last_layer` (default `default_last`), inside the resource's
/// layers (or 3-D depth).
fn layers(o: &Obj, resource: &Resource, default_last: u32) -> Result<(u32, u32)> {
    let first = o.u32_or("first_layer", 0)?;
    let last = o.u32_or("last_layer", default_last)?;
    if first > last || last >= resource.array_size.max(resource.depth0) {
        return err(&o.key("last_layer"), "layers outside the resource");
    }
    Ok((first, last))
}

/// A view's byte `offset` and `size` (default: up to the end of the resource); `checked`
/// requires them to lie inside the resource (buffers).
fn byte_range(o: &Obj, resource: &Resource, checked: bool) -> Result<(u32, u32)> {
    let len = resource.data.len() as u64;
    let offset = o.u32_or("offset", 0)?;
    let size = o.u32_or("size", len.saturating_sub(offset.into()) as u32)?;
    if checked && u64::from(offset) + u64::from(size) > len {
        return err(
            &o.key("size"),
            "offset + size is past the end of the buffer",
        );
    }
    Ok((offset, size))
}

/// A JSON object with the key path it was found at.
struct Obj<'a> {
    map: &'a Map<String, Value>,
    path: String,
}

impl<'a> Obj<'a> {
    fn new(v: &'a Value, path: &str) -> Result<Obj<'a>> {
        match v.as_object() {
            Some(map) => Ok(Obj {
                map,
                path: path.to_string(),
            }),
            None => err(path, "expected an object"),
        }
    }

    fn key(&self, k: &str) -> String {
        if self.path.is_empty() {
            k.to_string()
        } else {
            format!("{}.{k}", self.path)
        }
    }

    fn get(&self, k: &str) -> Option<&'a Value> {
        self.map.get(k)
    }

    /// Reject keys outside `allowed` (a typo would otherwise be ignored); `comment` is free.
    fn only(&self, allowed: &[&str]) -> Result<()> {
        self.only_fields(allowed, &[])
    }

    /// [`Obj::only`] for the keys of `fields` and `more`.
    fn only_fields(&self, fields: &[&str], more: &[&str]) -> Result<()> {
        let allowed = |k: &str| k == "comment" || fields.contains(&k) || more.contains(&k);
        match self.map.keys().find(|k| !allowed(k)) {
            Some(k) => err(&self.key(k), "unknown key"),
            None => Ok(()),
        }
    }

    fn list(&self, k: &str) -> Result<&'a [Value]> {
        match self.get(k) {
            None => Ok(&[]),
            Some(Value::Array(a)) => Ok(a),
            Some(_) => err(&self.key(k), "expected a list"),
        }
    }

    fn opt_str(&self, k: &str) -> Result<Option<&'a str>> {
        match self.get(k) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => err(&self.key(k), "expected a string"),
        }
    }

    fn str(&self, k: &str) -> Result<&'a str> {
        self.opt_str(k)?
            .map_or_else(|| err(&self.key(k), "missing"), Ok)
    }

    fn opt_u32(&self, k: &str) -> Result<Option<u32>> {
        match self.get(k) {
            None => Ok(None),
            Some(v) => match v.as_u64().and_then(|x| u32::try_from(x).ok()) {
                Some(x) => Ok(Some(x)),
                None => err(
                    &self.key(k),
                    format!("expected an integer 0..=4294967295, found {v}"),
                ),
            },
        }
    }

    fn u32(&self, k: &str) -> Result<u32> {
        self.opt_u32(k)?
            .map_or_else(|| err(&self.key(k), "missing"), Ok)
    }

    fn u32_or(&self, k: &str, default: u32) -> Result<u32> {
        Ok(self.opt_u32(k)?.unwrap_or(default))
    }

    fn f32_or(&self, k: &str, default: f32) -> Result<f32> {
        match self.get(k) {
            None => Ok(default),
            Some(v) => match v.as_f64() {
                Some(x) => Ok(x as f32),
                None => err(&self.key(k), format!("expected a number, found {v}")),
            },
        }
    }

    fn bool_or(&self, k: &str, default: bool) -> Result<bool> {
        match self.get(k) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::Number(n)) if n.as_u64().is_some_and(|x| x <= 1) => {
                Ok(n.as_u64() == Some(1))
            }
            Some(v) => err(&self.key(k), format!("expected true or false, found {v}")),
        }
    }

    fn opt_dims(&self, k: &str) -> Result<Option<[u32; 3]>> {
        let Some(v) = self.get(k) else {
            return Ok(None);
        };
        let dims = v.as_array().filter(|a| a.len() == 3).and_then(|a| {
            let d: Vec<u32> = a
                .iter()
                .filter_map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok()))
                .collect();
            <[u32; 3]>::try_from(d).ok()
        });
        match dims {
            Some(d) => Ok(Some(d)),
            None => err(
                &self.key(k),
                format!("expected [x, y, z] integers, found {v}"),
            ),
        }
    }

    /// An enum value written with or without its `prefix`.
    fn enum_or<T: Copy>(
        &self,
        k: &str,
        prefix: &str,
        names: &[(&str, T)],
        default: T,
    ) -> Result<T> {
        let Some(name) = self.opt_str(k)? else {
            return Ok(default);
        };
        let short = name.strip_prefix(prefix).unwrap_or(name);
        match names.iter().find(|(n, _)| *n == short) {
            Some(&(_, v)) => Ok(v),
            None => {
                let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
                err(
                    &self.key(k),
                    format!("unknown value '{name}' (expected one of {})", all.join(" ")),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(json: &str) -> String {
        parse(json, Path::new(".")).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_key() {
        assert_eq!(
            parse_err(
                r#"{"resources": [{"name": "a", "target": "PIPE_BUFFER", "format": "PIPE_FORMAT_NOPE", "width0": 4}]}"#
            ),
            "resources[0].format: unknown format 'PIPE_FORMAT_NOPE'"
        );
        assert_eq!(
            parse_err(r#"{"buffers": [{"slot": 0, "resource": "x"}]}"#),
            "buffers[0].resource: no resource named 'x'"
        );
        assert_eq!(
            parse_err(r#"{"samplers": [{"slot": 0, "wrap_s": "WRAP"}]}"#),
            "samplers[0].wrap_s: unknown value 'WRAP' (expected one of REPEAT CLAMP CLAMP_TO_EDGE CLAMP_TO_BORDER MIRROR_REPEAT MIRROR_CLAMP MIRROR_CLAMP_TO_EDGE MIRROR_CLAMP_TO_BORDER)"
        );
        assert_eq!(parse_err(r#"{"grd": [1, 1, 1]}"#), "grd: unknown key");
        assert!(parse_err(
            r#"{"resources": [{"name": "a", "target": "PIPE_TEXTURE_2D", "format": "PIPE_FORMAT_R32G32B32A32_FLOAT", "width0": 1000000, "height0": 1000000}]}"#
        )
        .starts_with("resources[0].width0: the resource is larger than"));
        assert!(parse_err(
            r#"{"resources": [{"name": "a", "target": "PIPE_TEXTURE_2D", "format": "PIPE_FORMAT_R32_FLOAT", "width0": 4, "height0": 4, "last_level": 3}]}"#
        )
        .starts_with("resources[0].last_level"));
    }

    #[test]
    fn resources_together_stay_within_the_limit() {
        let two = r#"{"resources": [
            {"name": "a", "target": "PIPE_BUFFER", "format": "PIPE_FORMAT_R8_UINT", "width0": 1000},
            {"name": "b", "target": "PIPE_BUFFER", "format": "PIPE_FORMAT_R8_UINT", "width0": 1000}]}"#;
        assert!(parse_with_limit(two, Path::new("."), 2000).is_ok());
        let e = parse_with_limit(two, Path::new("."), 1999).unwrap_err();
        assert_eq!(e.key, "resources[1].width0");
        assert!(e.message.contains("999 bytes are left"), "{e}");
    }

    #[test]
    fn samplers_take_names_with_or_without_prefix() {
        let b = parse(
            r#"{"samplers": [{"slot": 2, "wrap_s": "PIPE_TEX_WRAP_MIRROR_REPEAT", "wrap_t": "CLAMP",
                "min_mip_filter": "NONE", "compare_mode": "R_TO_TEXTURE", "compare_func": "PIPE_FUNC_GEQUAL",
                "border_color": [0.5, 1, "0x80000000", 7]}]}"#,
            Path::new("."),
        )
        .unwrap();
        let s = b.resources.sampler(2).unwrap();
        assert_eq!(s.wrap, [Wrap::MirrorRepeat, Wrap::Clamp, Wrap::Repeat]);
        assert_eq!(s.min_mip_filter, MipFilter::None);
        assert!(s.compare);
        assert_eq!(s.compare_func, CompareFunc::Gequal);
        assert_eq!(s.max_lod, 1000.0);
        assert_eq!(
            s.border_color,
            [
                0.5f32.to_bits(),
                1.0f32.to_bits(),
                0x8000_0000,
                7.0f32.to_bits()
            ]
        );
        assert!(b.resources.sampler(0).is_none());
    }
}
