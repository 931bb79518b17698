//! The reference tools' resource descriptions as `--bindings` documents
//! (`shared/docs/bindings.md`): a texref case's `textures.json` and a csref case's
//! `bindings.json`. Shared by path between the CLI's and tgsi-gpu's tests.
// Each test crate uses a subset of it.
#![allow(dead_code)]

use serde_json::{json, Map, Value};
use std::path::Path;
use tgsi_exec::bindings::{RESOURCE_FIELDS, SAMPLER_FIELDS};

/// Copy `keys` of `from` into `to`, renaming `buf_offset`/`buf_size` (and
/// `buffer_offset`/`buffer_size`) to `offset`/`size`.
fn copy_keys(to: &mut Map<String, Value>, from: &Value, keys: &[&str]) {
    for k in keys {
        if let Some(v) = from.get(k) {
            let name = match *k {
                "buf_offset" | "buffer_offset" => "offset",
                "buf_size" | "buffer_size" => "size",
                k => k,
            };
            to.insert(name.to_string(), v.clone());
        }
    }
}

const VIEW_KEYS: [&str; 9] = [
    "format",
    "target",
    "first_level",
    "last_level",
    "first_layer",
    "last_layer",
    "buf_offset",
    "buf_size",
    "swizzle",
];

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// A texref case's `textures.json` as a bindings document.
pub fn texref_bindings(case: &Path) -> Option<Value> {
    let doc = read_json(&case.join("textures.json"))?;
    let (mut resources, mut views, mut samplers) = (Vec::new(), Vec::new(), Vec::new());
    for t in doc["textures"].as_array()? {
        let name = format!("tex{}", t["index"]);
        let mut r = Map::new();
        r.insert("name".into(), json!(name));
        copy_keys(&mut r, &t["pipe_resource"], &RESOURCE_FIELDS);
        r.insert("data".into(), json!(case.join(t["file"].as_str()?)));
        resources.push(Value::Object(r));
        for b in t["tgsi_bindings"].as_array()? {
            if let Some(v) = b.get("sampler_view").filter(|v| v.is_object()) {
                let mut o = Map::new();
                o.insert("slot".into(), b["sview"].clone());
                o.insert("resource".into(), json!(name));
                copy_keys(&mut o, v, &VIEW_KEYS);
                views.push(Value::Object(o));
            }
            if let Some(s) = b.get("sampler_state").filter(|v| v.is_object()) {
                let mut o = Map::new();
                o.insert("slot".into(), b["samp"].clone());
                copy_keys(&mut o, s, &SAMPLER_FIELDS);
                // Raw bits; where the trace printed nan (a negative integer border, whole
                // or in one channel) the GL integer values are what softpipe used.
                let border = match &s["border_color_bits"] {
                    Value::Null => t["gl_state"]["border_color_int"].clone(),
                    Value::Array(bits) => Value::Array(
                        bits.iter()
                            .enumerate()
                            .map(|(i, b)| match b {
                                Value::Null => t["gl_state"]["border_color_bits"][i].clone(),
                                b => b.clone(),
                            })
                            .collect(),
                    ),
                    bits => bits.clone(),
                };
                if !border.is_null() {
                    o.insert("border_color".into(), border);
                }
                samplers.push(Value::Object(o));
            }
        }
    }
    Some(json!({
        "resources": resources,
        "sampler_views": views,
        "samplers": samplers,
        "seamless_cube_map": doc["seamless_cube_map_enable"].as_bool().unwrap_or(false),
    }))
}

/// A csref case's `bindings.json` as a bindings document; with `out_dir`, every resource is
/// also written to `out_dir/out_<name>.bin` after the run.
pub fn csref_bindings(case: &Path, out_dir: Option<&Path>) -> Option<Value> {
    let doc = read_json(&case.join("bindings.json"))?;
    let mut resources = Vec::new();
    for r in doc["resources"].as_array()? {
        let name = r["name"].as_str()?;
        let mut o = Map::new();
        o.insert("name".into(), json!(name));
        copy_keys(&mut o, &r["pipe_resource"], &RESOURCE_FIELDS);
        o.insert("data".into(), json!(case.join(r["in_file"].as_str()?)));
        if let Some(dir) = out_dir {
            o.insert("out".into(), json!(dir.join(format!("out_{name}.bin"))));
        }
        resources.push(Value::Object(o));
    }
    let (mut buffers, mut images, mut atomics) = (Vec::new(), Vec::new(), Vec::new());
    for t in doc["tgsi"].as_array()? {
        let Some(bound) = t.get("bound").and_then(Value::as_str) else {
            continue;
        };
        let mut o = Map::new();
        o.insert("slot".into(), t["index"].clone());
        o.insert("resource".into(), json!(bound));
        match t["file"].as_str() {
            Some(file @ ("BUFFER" | "HWATOMIC")) => {
                copy_keys(&mut o, t, &["buffer_offset", "buffer_size"]);
                if file == "BUFFER" {
                    buffers.push(Value::Object(o));
                } else {
                    atomics.push(Value::Object(o));
                }
            }
            Some("IMAGE") => {
                copy_keys(
                    &mut o,
                    &t["pipe_image_view"],
                    &[
                        "format",
                        "access",
                        "level",
                        "first_layer",
                        "last_layer",
                        "buf_offset",
                        "buf_size",
                    ],
                );
                images.push(Value::Object(o));
            }
            _ => {}
        }
    }
    Some(json!({
        "resources": resources,
        "buffers": buffers,
        "images": images,
        "hw_atomics": atomics,
        "grid": doc["grid"],
        "block": doc["block"],
        "req_local_mem": doc["shared_bytes"],
    }))
}
