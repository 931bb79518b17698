//! Repairs of naga 30's HLSL, each where the HLSL compilers refuse what it writes (the
//! tests compile every translation with Slang, `tools/hlslc`; DXC is not available here).

use naga::Module;

/// Applies every repair below to `hlsl`, naga's HLSL for `module`.
pub(crate) fn repair(module: &Module, hlsl: String) -> String {
    let hlsl = distance_arrays(module, hlsl);
    let hlsl = one_d_array_queries(hlsl);
    narrow_stores(hlsl)
}

/// naga 30 declares clip and cull distances in HLSL's entry-point structs without their
/// array size (`float x : SV_ClipDistance;` for a `float[8]`, which no HLSL compiler
/// accepts: the value assigned to it is an array); the size is put back from the module's
/// binding.
fn distance_arrays(module: &Module, hlsl: String) -> String {
    use naga::{ArraySize, Binding, BuiltIn, TypeInner};
    let size = |wanted: BuiltIn| {
        module.types.iter().find_map(|(_, ty)| match &ty.inner {
            TypeInner::Struct { members, .. } => {
                members
                    .iter()
                    .find_map(|m| match (&m.binding, &module.types[m.ty].inner) {
                        (
                            Some(Binding::BuiltIn(b)),
                            TypeInner::Array {
                                size: ArraySize::Constant(n),
                                ..
                            },
                        ) if *b == wanted => Some(n.get()),
                        _ => None,
                    })
            }
            _ => None,
        })
    };
    let sizes = [
        (" : SV_ClipDistance;", size(BuiltIn::ClipDistances)),
        (" : SV_CullDistance;", size(BuiltIn::CullDistance)),
    ];
    if sizes.iter().all(|(_, n)| n.is_none()) {
        return hlsl;
    }
    let mut out = String::with_capacity(hlsl.len() + 16);
    for line in hlsl.split_inclusive('\n') {
        let repaired = sizes.iter().find_map(|&(semantic, n)| {
            let n = n?;
            let (declaration, end) = line.split_once(semantic)?;
            let name = declaration.trim_start().strip_prefix("float ")?;
            let plain = name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            plain.then(|| format!("{declaration}[{n}]{semantic}{end}"))
        });
        out.push_str(repaired.as_deref().unwrap_or(line));
    }
    out
}

/// naga 30 counts the levels and layers of a 1-D array texture with the wrong overload of
/// `GetDimensions` (as if it were a 1-D texture for levels, a 2-D array for layers), which
/// a `Texture1DArray` lacks; its overloads are `(level, width, elements, levels)` and, for
/// a `RWTexture1DArray`, `(width, elements)`. The functions get bodies that call them.
fn one_d_array_queries(hlsl: String) -> String {
    if !hlsl.contains("1DArray(") {
        return hlsl;
    }
    let mut out = String::with_capacity(hlsl.len() + 16);
    let mut skipping = false;
    for line in hlsl.split_inclusive('\n') {
        if skipping {
            skipping = !line.starts_with('}');
            continue;
        }
        out.push_str(line);
        let Some(name) = line
            .strip_prefix("uint Naga")
            .and_then(|rest| Some(rest.split_once("1DArray(")?.0))
        else {
            continue;
        };
        let (call, result) = match name {
            "NumLevels" | "DepthNumLevels" => ("0, ret.x, ret.y, ret.z", 'z'),
            "NumLayers" | "DepthNumLayers" => ("0, ret.x, ret.y, ret.z", 'y'),
            "RWNumLayers" => ("ret.x, ret.y", 'y'),
            _ => continue,
        };
        out.push_str(&format!(
            "{{\n    uint4 ret;\n    tex.GetDimensions({call});\n    return ret.{result};\n}}\n"
        ));
        skipping = true;
    }
    out
}

/// naga 30 declares a storage texture of one channel with a scalar texel
/// (`RWTexture2D<uint>`) but stores a four-component value in it (`t[c] = uint4(…);`),
/// counting on HLSL's implicit truncation, which DXC warns of and Slang refuses; the store
/// takes the first component itself.
fn narrow_stores(hlsl: String) -> String {
    // The names of storage textures of scalar texels: `RWTexture2D<uint> name : register(…);`
    let scalar_textures: Vec<&str> = hlsl
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("RWTexture")?;
            let (texel, rest) = rest.split_once('<')?.1.split_once("> ")?;
            let scalar = !texel.ends_with(|c: char| c.is_ascii_digit());
            scalar.then(|| rest.split(' ').next())?
        })
        .collect();
    if scalar_textures.is_empty() {
        return hlsl;
    }
    let mut out = String::with_capacity(hlsl.len() + 64);
    for line in hlsl.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let store = scalar_textures.iter().find_map(|name| {
            let (target, value) = trimmed.strip_prefix(name)?.split_once("] = ")?;
            let value = value.trim_end().strip_suffix(';')?;
            target
                .starts_with('[')
                .then(|| format!("{indent}{name}{target}] = ({value}).x;\n"))
        });
        out.push_str(store.as_deref().unwrap_or(line));
    }
    out
}
