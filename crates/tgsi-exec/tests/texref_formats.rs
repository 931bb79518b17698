//! The format table against the texref corpus (`shared/corpus/texref/*/textures.json` and
//! `tex<N>.bin`): every Gallium format a case's resources and sampler views use is in the
//! table with the recorded texel size, the texture files have the size the levels imply,
//! and texels written by the float generators (`f32`, `unit_f32`, `f16`) unpack to the
//! generator's values. Skips (printing a note) when the corpus is absent.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tgsi::Format;
use tgsi_exec::format::{texel_bytes, unpack};

fn texref_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/texref");
    root.is_dir().then_some(root)
}

/// `tex_hash` of texref's `refcommon.h`: a linear mix of the coordinates, then murmur3's
/// `fmix32`.
fn tex_hash(seed: u32, l: u32, z: u32, y: u32, x: u32, k: u32) -> u32 {
    let mut h = seed
        .wrapping_mul(0x9E37_79B9)
        .wrapping_add(l.wrapping_mul(0x85EB_CA6B))
        .wrapping_add(z.wrapping_mul(0xC2B2_AE35))
        .wrapping_add(y.wrapping_mul(0x27D4_EB2F))
        .wrapping_add(x.wrapping_mul(0x1656_67B1))
        .wrapping_add(k.wrapping_mul(0xD3A2_646C));
    h ^= h >> 16;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 13;
    h = h.wrapping_mul(0xC2B2_AE35);
    h ^= h >> 16;
    h
}

/// The value the generator wrote for component `c` of the texel.
fn generated(generator: &str, seed: u32, at: [u32; 4], c: u32) -> Option<f32> {
    let [l, z, y, x] = at;
    let h = |k| tex_hash(seed, l, z, y, x, k);
    match generator {
        "f32" => Some((h(c) >> 8) as f32 * 2.0f32.powi(-22) - 2.0),
        "unit_f32" => Some((h(c) >> 8) as f32 * 2.0f32.powi(-24)),
        "f16" => {
            let u = h(c / 2) >> (16 * (c % 2));
            Some((u & 0x3ff) as f32 / 256.0 - 2.0)
        }
        _ => None,
    }
}

fn format_of(v: &Value) -> Format {
    let name = v.as_str().unwrap_or_default();
    Format::from_name(name).unwrap_or_else(|| panic!("unknown gallium format {name:?}"))
}

fn num(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn texref_formats_are_in_the_table_and_unpack_the_generated_values() {
    let Some(root) = texref_root() else {
        eprintln!("texref corpus absent: skipping");
        return;
    };
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    cases.sort();
    let (mut textures, mut views, mut checked) = (0, 0, 0);
    for case in cases {
        let Ok(text) = std::fs::read_to_string(case.join("textures.json")) else {
            continue;
        };
        let json: Value = serde_json::from_str(&text).expect("textures.json parses");
        let list = json["textures"].as_array().expect("textures[]");
        for t in list {
            textures += 1;
            let what = format!("{} {}", case.display(), t["file"]);
            let bpt = num(&t["bytes_per_texel"]) as usize;
            let res = &t["pipe_resource"];
            let res_format = format_of(&res["format"]);
            let res_bytes = texel_bytes(res_format);
            assert!(
                res_bytes.is_some(),
                "{what}: {res_format:?} not in the table"
            );
            if res["target"] == "PIPE_BUFFER" {
                // Buffers are bytes; the view gives the texel format.
                assert_eq!(res_bytes, Some(1), "{what}");
            } else {
                assert_eq!(res_bytes, Some(bpt), "{what}: resource texel size");
            }
            let bindings = t["tgsi_bindings"].as_array().expect("tgsi_bindings[]");
            for b in bindings {
                views += 1;
                let view_format = format_of(&b["sampler_view"]["format"]);
                assert_eq!(
                    texel_bytes(view_format),
                    Some(bpt),
                    "{what}: view texel size"
                );
            }
            let bytes = std::fs::read(case.join(t["file"].as_str().unwrap_or_default()))
                .expect("texture file");
            assert_eq!(bytes.len() as u64, num(&t["bytes"]), "{what}: file size");
            let generator = t["content"]["generator"].as_str().unwrap_or_default();
            let seed = num(&t["content"]["seed"]) as u32;
            let format = match bindings.first() {
                Some(b) => format_of(&b["sampler_view"]["format"]),
                None => res_format,
            };
            let depth = tgsi_exec::format::is_depth(format);
            for level in t["levels"].as_array().expect("levels[]") {
                let (w, rows, slices) = (
                    num(&level["width"]),
                    num(&level["rows"]),
                    num(&level["slices"]),
                );
                let offset = num(&level["offset"]) as usize;
                assert_eq!(
                    num(&level["bytes"]),
                    w * rows * slices * bpt as u64,
                    "{what}"
                );
                let l = num(&level["level"]) as u32;
                for z in 0..slices as u32 {
                    for y in 0..rows as u32 {
                        for x in 0..w as u32 {
                            let at = offset
                                + (((u64::from(z) * rows + u64::from(y)) * w + u64::from(x))
                                    as usize)
                                    * bpt;
                            let texel = unpack(format, &bytes[at..at + bpt]);
                            for (c, got) in texel.iter().enumerate() {
                                // Depth formats replicate Z; others give one value per
                                // stored component (the rest are 0 or 1).
                                let comp = if depth { 0 } else { c as u32 };
                                if !depth && comp as usize >= bpt / 4 && generator == "f32" {
                                    continue;
                                }
                                if generator == "f16" && comp as usize >= bpt / 2 {
                                    continue;
                                }
                                let Some(want) = generated(generator, seed, [l, z, y, x], comp)
                                else {
                                    continue;
                                };
                                checked += 1;
                                assert_eq!(
                                    *got,
                                    want.to_bits(),
                                    "{what}: texel ({l},{z},{y},{x}) component {c}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("{textures} textures, {views} views, {checked} generated components checked");
    assert!(
        textures > 0,
        "no textures.json found under {}",
        root.display()
    );
    assert!(checked > 0, "no float-generated texels checked");
}
