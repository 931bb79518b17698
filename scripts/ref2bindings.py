#!/usr/bin/env python3
"""Convert a texref or csref reference case into a `--bindings` file.

    scripts/ref2bindings.py CASE_DIR [OUT_DIR] > bindings.json

CASE_DIR holds `textures.json` (texref) or `bindings.json` (csref), as made by
shared/tools/texref and shared/tools/csref. The conversion is the one
shared/docs/bindings.md describes: the Gallium objects are copied as they are, raw
`border_color_bits` become `border_color`, `buf_offset`/`buf_size` become
`offset`/`size`. For csref cases every resource is written after the run to
OUT_DIR/out_<name>.bin (OUT_DIR defaults to the current directory).
"""
import json
import os
import sys

RESOURCE_KEYS = ["target", "format", "width0", "height0", "depth0", "array_size",
                 "last_level", "nr_samples"]
VIEW_KEYS = ["format", "target", "first_level", "last_level", "first_layer", "last_layer",
             "buf_offset", "buf_size", "swizzle"]
SAMPLER_KEYS = ["wrap_s", "wrap_t", "wrap_r", "min_img_filter", "min_mip_filter",
                "mag_img_filter", "compare_mode", "compare_func", "unnormalized_coords",
                "max_anisotropy", "seamless_cube_map", "lod_bias", "min_lod", "max_lod"]
IMAGE_KEYS = ["format", "access", "level", "first_layer", "last_layer", "buf_offset",
              "buf_size"]


def pick(obj, keys):
    """The `keys` of `obj` that are present, `buf_offset`/`buf_size` renamed to
    `offset`/`size`."""
    names = {"buf_offset": "offset", "buf_size": "size"}
    return {names.get(k, k): obj[k] for k in keys if k in obj}


def border(texture, state):
    """Raw border bits; where the trace printed nan (a negative integer border) the GL
    integer values are what softpipe used."""
    bits = state.get("border_color_bits")
    gl = texture.get("gl_state", {})
    if bits is None:
        return gl.get("border_color_int")
    return [b if b is not None else gl["border_color_bits"][i] for i, b in enumerate(bits)]


def texref(case):
    doc = json.load(open(os.path.join(case, "textures.json")))
    resources, views, samplers = [], [], []
    for t in doc["textures"]:
        name = f"tex{t['index']}"
        resources.append({"name": name, **pick(t["pipe_resource"], RESOURCE_KEYS),
                          "data": os.path.abspath(os.path.join(case, t["file"]))})
        for b in t["tgsi_bindings"]:
            if isinstance(b.get("sampler_view"), dict):
                views.append({"slot": b["sview"], "resource": name,
                              **pick(b["sampler_view"], VIEW_KEYS)})
            if isinstance(b.get("sampler_state"), dict):
                s = {"slot": b["samp"], **pick(b["sampler_state"], SAMPLER_KEYS)}
                colour = border(t, b["sampler_state"])
                if colour is not None:
                    s["border_color"] = colour
                samplers.append(s)
    return {"resources": resources, "sampler_views": views, "samplers": samplers,
            "seamless_cube_map": bool(doc.get("seamless_cube_map_enable"))}


def rename(obj, old, new):
    if old in obj:
        obj[new] = obj.pop(old)
    return obj


def csref(case, out_dir):
    doc = json.load(open(os.path.join(case, "bindings.json")))
    resources = [{"name": r["name"], **pick(r["pipe_resource"], RESOURCE_KEYS),
                  "data": os.path.abspath(os.path.join(case, r["in_file"])),
                  "out": os.path.abspath(os.path.join(out_dir, f"out_{r['name']}.bin"))}
                 for r in doc["resources"]]
    buffers, images, atomics = [], [], []
    for t in doc["tgsi"]:
        if not isinstance(t.get("bound"), str):
            continue
        slot = {"slot": t["index"], "resource": t["bound"]}
        if t["file"] in ("BUFFER", "HWATOMIC"):
            slot.update(pick(t, ["buffer_offset", "buffer_size"]))
            rename(slot, "buffer_offset", "offset")
            rename(slot, "buffer_size", "size")
            (buffers if t["file"] == "BUFFER" else atomics).append(slot)
        elif t["file"] == "IMAGE":
            images.append({**slot, **pick(t["pipe_image_view"], IMAGE_KEYS)})
    return {"resources": resources, "buffers": buffers, "images": images,
            "hw_atomics": atomics, "grid": doc["grid"], "block": doc["block"],
            "req_local_mem": doc["shared_bytes"]}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip())
    case = sys.argv[1]
    if os.path.isfile(os.path.join(case, "textures.json")):
        out = texref(case)
    elif os.path.isfile(os.path.join(case, "bindings.json")):
        out = csref(case, sys.argv[2] if len(sys.argv) == 3 else ".")
    else:
        sys.exit(f"{case}: neither textures.json (texref) nor bindings.json (csref)")
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
