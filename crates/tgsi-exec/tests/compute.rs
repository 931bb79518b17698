//! Compute dispatch, memory and inter-lane opcodes on hand-written shaders with hand-built
//! resources: SSBO loads, stores and atomics (in and out of bounds), shared memory with
//! barriers in a loop over a 1024-invocation workgroup, contended atomics on several
//! threads, images (R32_UINT, R32G32B32A32_FLOAT), RESQ, system values, the inter-lane
//! opcodes, and the dispatch's errors.

use std::sync::Arc;
use tgsi::Format;
use tgsi_exec::resource::{Access, BufferView, ImageView, Resource, Resources, Storage, Target};
use tgsi_exec::{run_compute, ComputeOptions, ComputeStats, ExecError, Program};

fn compile(text: &str) -> Program {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    Program::compile(&shader).unwrap_or_else(|e| panic!("compile: {e}\n{text}"))
}

fn fmt(name: &str) -> Format {
    Format::from_name(name).expect("format")
}

/// A buffer resource holding `words`.
fn buffer(words: &[u32]) -> Arc<Resource> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Arc::new(Resource::buffer(&bytes))
}

/// A whole-buffer view.
fn view(r: &Arc<Resource>) -> Option<BufferView> {
    Some(BufferView::whole(r))
}

fn words(r: &Resource) -> Vec<u32> {
    r.data
        .to_bytes()
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A texture resource of `texel`-byte texels, zero-filled.
fn texture(
    target: Target,
    format: &str,
    w: u32,
    h: u32,
    layers: u32,
    texel: usize,
) -> Arc<Resource> {
    let len = w as usize * h as usize * layers as usize * texel;
    Arc::new(Resource {
        target,
        format: fmt(format),
        width0: w,
        height0: h,
        depth0: 1,
        array_size: layers,
        last_level: 0,
        nr_samples: 0,
        data: Storage::zeroed(len),
    })
}

fn image_view(r: &Arc<Resource>, format: &str, layers: u32) -> Option<ImageView> {
    Some(ImageView {
        resource: Arc::clone(r),
        format: fmt(format),
        access: Access::ReadWrite,
        level: 0,
        first_layer: 0,
        last_layer: layers - 1,
        offset: 0,
        size: 0,
    })
}

fn dispatch(
    text: &str,
    grid: [u32; 3],
    resources: &Resources,
    shared_bytes: usize,
    threads: usize,
) -> Result<ComputeStats, ExecError> {
    let program = compile(text);
    run_compute(
        &program,
        &ComputeOptions {
            grid,
            resources,
            shared_bytes,
            threads,
            ..ComputeOptions::default()
        },
    )
}

#[test]
fn ssbo_load_store_in_and_out_of_bounds() {
    // Lane j loads two words at byte 4j (lane 3's pair does not fit: zeros) and stores them
    // at byte 8j of a 28-byte buffer (lane 3's .y word does not fit and is dropped); lane 1
    // also stores at an unaligned address of a third buffer.
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..3]
IMM[0] UINT32 {4, 8, 1, 0}
IMM[1] UINT32 {2864434397, 0, 0, 0}
  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: UMUL TEMP[1].x, SV[0].xxxx, IMM[0].yyyy
  2: MOV TEMP[2], IMM[0].wwww
  3: LOAD TEMP[2].xy, BUFFER[0], TEMP[0].xxxx
  4: STORE BUFFER[1].xy, TEMP[1].xxxx, TEMP[2]
  5: USEQ TEMP[3].x, SV[0].xxxx, IMM[0].zzzz
  6: UIF TEMP[3].xxxx
  7:   STORE BUFFER[2].x, IMM[0].zzzz, IMM[1].xxxx
  8: ENDIF
  9: END
";
    let input = buffer(&[11, 22, 33, 44]);
    let out = buffer(&[0xffff_ffff; 7]);
    let odd = buffer(&[0, 0]);
    let resources = Resources {
        buffers: vec![view(&input), view(&out), view(&odd)],
        ..Resources::default()
    };
    dispatch(text, [1, 1, 1], &resources, 0, 1).unwrap();
    assert_eq!(words(&out), [11, 22, 22, 33, 33, 44, 0]);
    assert_eq!(odd.data.to_bytes(), [0, 0xdd, 0xcc, 0xbb, 0xaa, 0, 0, 0]);
    assert_eq!(words(&input), [11, 22, 33, 44], "loads do not write");
}

/// One-channel LOADs and STOREs of a whole wave by the rule, where the interpreter reads or
/// writes every lane at once (each lane's word aligned and inside its view) and where one
/// lane leaves that case: the last word of the view, one past it, misaligned addresses,
/// a view starting between words, a view whose size is not whole words, and every lane
/// on one address (the last lane's store stays). Each case runs in 32-lane waves and on
/// softpipe's 4-lane machines, against a model of the rule.
#[test]
fn one_channel_wave_loads_and_stores_at_the_edges_of_their_views() {
    // Lane j loads the word at `scale·j + bias` of BUFFER[0] into word j of BUFFER[1],
    // and stores j at that address of BUFFER[2], which has BUFFER[0]'s view.
    let shader = |scale: u32, bias: u32| {
        format!(
            "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 32
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL BUFFER[2]
DCL TEMP[0..2]
IMM[0] UINT32 {{{scale}, {bias}, 4, 0}}
  0: UMAD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].yyyy
  1: LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx
  2: UMUL TEMP[2].x, SV[0].xxxx, IMM[0].zzzz
  3: STORE BUFFER[1].x, TEMP[2].xxxx, TEMP[1].xxxx
  4: STORE BUFFER[2].x, TEMP[0].xxxx, SV[0].xxxx
  5: END
"
        )
    };
    // The rule on a view's bytes: a word that fits is read (or written) whatever its
    // alignment; one that does not reads 0 (is dropped).
    let fits = |at: u32, size: u32| at.checked_add(4).is_some_and(|end| end <= size);
    let source: Vec<u8> = (0..160u32).map(|i| (i * 37 + 11) as u8).collect();
    // (scale, bias, view offset, view size)
    let cases = [
        (4, 0, 0, 128),
        (4, 4, 0, 128),
        (4, 8, 0, 132),
        (4, 2, 0, 140),
        (8, 1, 0, 160),
        (4, 0, 2, 128),
        (4, 0, 4, 126),
        (0, 12, 0, 128),
        (0, 125, 0, 128),
    ];
    for (scale, bias, offset, size) in cases {
        let view_bytes = &source[offset as usize..(offset + size) as usize];
        let mut want_loads = [0u32; 32];
        let mut want_stored = vec![0xeeu8; size as usize];
        for j in 0..32u32 {
            let at = scale * j + bias;
            if fits(at, size) {
                let b = &view_bytes[at as usize..at as usize + 4];
                want_loads[j as usize] = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                want_stored[at as usize..at as usize + 4].copy_from_slice(&j.to_le_bytes());
            }
        }
        for softpipe_waves in [false, true] {
            let input = Arc::new(Resource::buffer(&source));
            let stored = Arc::new(Resource::buffer(&vec![0xee; source.len()]));
            let loads = buffer(&[0xffff_ffff; 32]);
            let part = |r: &Arc<Resource>| {
                Some(BufferView {
                    resource: Arc::clone(r),
                    offset,
                    size,
                })
            };
            let resources = Resources {
                buffers: vec![part(&input), view(&loads), part(&stored)],
                ..Resources::default()
            };
            let stats = run_compute(
                &compile(&shader(scale, bias)),
                &ComputeOptions {
                    resources: &resources,
                    softpipe_waves,
                    ..ComputeOptions::default()
                },
            )
            .unwrap();
            let case = format!("scale {scale}, bias {bias}, view {offset}+{size}, {stats:?}");
            let wave = if softpipe_waves { 4 } else { 32 };
            assert_eq!(stats.wave_lanes, wave, "{case}");
            assert_eq!(words(&loads), want_loads, "loads: {case}");
            let bytes = stored.data.to_bytes();
            assert_eq!(
                &bytes[offset as usize..(offset + size) as usize],
                &want_stored[..],
                "stores: {case}"
            );
            assert!(
                bytes[..offset as usize].iter().all(|&b| b == 0xee),
                "{case}"
            );
            assert!(
                bytes[(offset + size) as usize..].iter().all(|&b| b == 0xee),
                "{case}"
            );
        }
    }
}

#[test]
fn ssbo_atomics_in_softpipe_order_and_out_of_bounds() {
    // 6 invocations (two waves, the second with two helper lanes): each adds 1 to word 0 and
    // records the old value; an out-of-range address returns 0 (in every destination
    // channel, as softpipe's) and writes nothing.
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 6
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..2]
IMM[0] UINT32 {0, 1, 4, 64}
IMM[1] UINT32 {7, 0, 0, 0}
  0: MOV TEMP[2], IMM[1].xxxx
  1: ATOMUADD TEMP[2].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy
  2: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].zzzz
  3: STORE BUFFER[1].x, TEMP[0].xxxx, TEMP[2].xxxx
  4: ATOMUADD TEMP[1].x, BUFFER[0], IMM[0].wwww, IMM[0].yyyy
  5: UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww
  6: STORE BUFFER[1].xy, TEMP[0].xxxx, TEMP[1]
  7: END
";
    let counter = buffer(&[100, 0]);
    let out = buffer(&[0xdead; 48]);
    let resources = Resources {
        buffers: vec![view(&counter), view(&out)],
        ..Resources::default()
    };
    dispatch(text, [1, 1, 1], &resources, 0, 1).unwrap();
    let w = words(&out);
    assert_eq!(&w[..6], [100, 101, 102, 103, 104, 105]);
    assert_eq!(w[6], 0xdead, "helper lanes write nothing");
    // The out-of-range atomic returned 0 in .x and, like softpipe, in .y too.
    assert_eq!(&w[16..23], [0; 7]);
    assert_eq!(w[23], 0xdead);
    assert_eq!(words(&counter), [106, 0]);
}

#[test]
fn atomic_operations() {
    // One invocation applies each atomic to its own word; the old values go to BUFFER[1].
    let ops = [
        ("ATOMUADD", 5u32, 3u32, 0u32, 8u32),
        ("ATOMXCHG", 5, 3, 0, 3),
        ("ATOMAND", 0b1100, 0b1010, 0, 0b1000),
        ("ATOMOR", 0b1100, 0b1010, 0, 0b1110),
        ("ATOMXOR", 0b1100, 0b1010, 0, 0b0110),
        ("ATOMUMIN", 0xffff_fffe, 3, 0, 3),
        ("ATOMUMAX", 0xffff_fffe, 3, 0, 0xffff_fffe),
        ("ATOMIMIN", 0xffff_fffe, 3, 0, 0xffff_fffe),
        ("ATOMIMAX", 0xffff_fffe, 3, 0, 3),
        ("ATOMINC_WRAP", 3, 3, 0, 0),
        ("ATOMINC_WRAP", 2, 3, 0, 3),
        ("ATOMDEC_WRAP", 0, 3, 0, 0),
        ("ATOMDEC_WRAP", 2, 3, 0, 1),
        (
            "ATOMFADD",
            1.5f32.to_bits(),
            2.25f32.to_bits(),
            0,
            3.75f32.to_bits(),
        ),
        ("ATOMCAS", 9, 9, 4, 4),
        ("ATOMCAS", 9, 8, 4, 9),
    ];
    for (op, old, a, b, new) in ops {
        let extra = if op == "ATOMCAS" { ", IMM[0].wwww" } else { "" };
        let text = format!(
            "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 1
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0]
IMM[0] UINT32 {{0, {a}, 0, {b}}}
  0: {op} TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy{extra}
  1: STORE BUFFER[1].x, IMM[0].xxxx, TEMP[0].xxxx
  2: END
"
        );
        let mem = buffer(&[old]);
        let ret = buffer(&[0xdead]);
        let resources = Resources {
            buffers: vec![view(&mem), view(&ret)],
            ..Resources::default()
        };
        dispatch(&text, [1, 1, 1], &resources, 0, 1).unwrap();
        assert_eq!(words(&mem), [new], "{op} {old:#x} {a:#x}");
        assert_eq!(words(&ret), [old], "{op} returns the old value");
    }
}

/// An inclusive prefix sum over each 1024-invocation workgroup in shared memory (two
/// buffers of 4096 bytes, swapped after each of the ten BARRIER-separated steps).
const PREFIX_SUM: &str = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 1024
PROPERTY CS_FIXED_BLOCK_HEIGHT 1
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL MEMORY[1], SHARED
DCL TEMP[0..7]
IMM[0] UINT32 {4, 1, 1024, 4096}
IMM[1] UINT32 {0, 0, 0, 0}
  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: UMAD TEMP[7].x, SV[1].xxxx, IMM[0].zzzz, SV[0].xxxx
  2: UMUL TEMP[7].x, TEMP[7].xxxx, IMM[0].xxxx
  3: LOAD TEMP[1].x, BUFFER[0], TEMP[7].xxxx
  4: STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx
  5: MOV TEMP[2].x, IMM[0].yyyy
  6: MOV TEMP[3].x, IMM[1].xxxx
  7: BARRIER
  8: BGNLOOP
  9:   USGE TEMP[4].x, TEMP[2].xxxx, IMM[0].zzzz
 10:   UIF TEMP[4].xxxx
 11:     BRK
 12:   ENDIF
 13:   UADD TEMP[5].x, TEMP[3].xxxx, TEMP[0].xxxx
 14:   LOAD TEMP[1].x, MEMORY[0], TEMP[5].xxxx
 15:   USGE TEMP[4].x, SV[0].xxxx, TEMP[2].xxxx
 16:   UIF TEMP[4].xxxx
 17:     UMUL TEMP[6].x, TEMP[2].xxxx, IMM[0].xxxx
 18:     INEG TEMP[6].x, TEMP[6].xxxx
 19:     UADD TEMP[6].x, TEMP[5].xxxx, TEMP[6].xxxx
 20:     LOAD TEMP[6].x, MEMORY[0], TEMP[6].xxxx
 21:     UADD TEMP[1].x, TEMP[1].xxxx, TEMP[6].xxxx
 22:   ENDIF
 23:   XOR TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww
 24:   UADD TEMP[5].x, TEMP[3].xxxx, TEMP[0].xxxx
 25:   STORE MEMORY[0].x, TEMP[5].xxxx, TEMP[1].xxxx
 26:   BARRIER
 27:   SHL TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
 28: ENDLOOP
 29: UADD TEMP[5].x, TEMP[3].xxxx, TEMP[0].xxxx
 30: LOAD TEMP[1].x, MEMORY[0], TEMP[5].xxxx
 31: STORE BUFFER[1].x, TEMP[7].xxxx, TEMP[1].xxxx
 32: END
";

#[test]
fn prefix_sum_over_1024_invocations_with_barriers_in_a_loop() {
    let groups = 3usize;
    let input: Vec<u32> = (0..1024 * groups as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    let mut expected = input.clone();
    for g in expected.chunks_mut(1024) {
        for i in 1..g.len() {
            g[i] = g[i].wrapping_add(g[i - 1]);
        }
    }
    for threads in [1, 3] {
        let src = buffer(&input);
        let dst = buffer(&vec![0; input.len()]);
        let resources = Resources {
            buffers: vec![view(&src), view(&dst)],
            ..Resources::default()
        };
        let stats = dispatch(PREFIX_SUM, [groups as u32, 1, 1], &resources, 8192, threads).unwrap();
        assert_eq!(stats.invocations, 1024 * groups as u64);
        assert_eq!(stats.block, [1024, 1, 1]);
        assert_eq!(words(&dst), expected, "threads = {threads}");
    }
    // Too little shared memory: the upper buffer is out of range (loads 0, stores dropped).
    let src = buffer(&input);
    let dst = buffer(&vec![0; input.len()]);
    let resources = Resources {
        buffers: vec![view(&src), view(&dst)],
        ..Resources::default()
    };
    dispatch(PREFIX_SUM, [groups as u32, 1, 1], &resources, 4096, 1).unwrap();
    assert_ne!(words(&dst), expected);
}

#[test]
fn contended_atomics_on_several_threads() {
    // 64 workgroups of 64: every invocation increments word 0 (keeping the old value) and
    // adds its thread id to word 1 + tid % 4.
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
PROPERTY CS_FIXED_BLOCK_HEIGHT 8
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..3]
IMM[0] UINT32 {0, 1, 4, 8}
IMM[1] UINT32 {3, 64, 0, 0}
  0: UMAD TEMP[0].x, SV[0].yyyy, IMM[0].wwww, SV[0].xxxx
  1: ATOMUADD TEMP[1].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy
  2: AND TEMP[2].x, TEMP[0].xxxx, IMM[1].xxxx
  3: UMAD TEMP[2].x, TEMP[2].xxxx, IMM[0].zzzz, IMM[0].zzzz
  4: ATOMUADD TEMP[3].x, BUFFER[0], TEMP[2].xxxx, TEMP[0].xxxx
  5: UMAD TEMP[2].x, SV[1].xxxx, IMM[1].yyyy, TEMP[0].xxxx
  6: UMUL TEMP[2].x, TEMP[2].xxxx, IMM[0].zzzz
  7: STORE BUFFER[1].x, TEMP[2].xxxx, TEMP[1].xxxx
  8: END
";
    let n = 64 * 64;
    for threads in [1, 4] {
        let counters = buffer(&[0; 5]);
        let olds = buffer(&vec![0; n]);
        let resources = Resources {
            buffers: vec![view(&counters), view(&olds)],
            ..Resources::default()
        };
        dispatch(text, [64, 1, 1], &resources, 0, threads).unwrap();
        let per_class: u32 = (0..64u32).filter(|t| t % 4 == 0).sum::<u32>() * 64;
        let sums = [0, 1, 2, 3].map(|k| per_class + 16 * 64 * k);
        assert_eq!(
            words(&counters),
            [n as u32, sums[0], sums[1], sums[2], sums[3]]
        );
        let mut old = words(&olds);
        if threads == 1 {
            assert_eq!(old, (0..n as u32).collect::<Vec<_>>(), "softpipe order");
        }
        old.sort_unstable();
        assert_eq!(
            old,
            (0..n as u32).collect::<Vec<_>>(),
            "threads = {threads}"
        );
    }
}

#[test]
fn images_r32_uint_and_rgba32_float() {
    // 4x4 R32_UINT: each invocation adds 5 at (x, y) and at (x+2, y) (partly out of
    // bounds), then loads (x, y + 2) (partly out of bounds). A 2x2x2 RGBA32F array: each
    // invocation with x, y < 2 stores (x, y, layer, 1.5) into layer (x + y) % 2 and reads
    // layer 0 back after the barrier.
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 4
PROPERTY CS_FIXED_BLOCK_HEIGHT 4
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[1], 2D_ARRAY, PIPE_FORMAT_R32G32B32A32_FLOAT, WR
DCL BUFFER[0]
DCL TEMP[0..6]
IMM[0] UINT32 {5, 2, 16, 4}
IMM[1] UINT32 {1, 0, 1069547520, 256}
  0: MOV TEMP[0].xy, SV[0].xyxx
  1: ATOMUADD TEMP[1].x, IMAGE[0], TEMP[0], IMM[0].xxxx, 2D, PIPE_FORMAT_R32_UINT
  2: UADD TEMP[2].x, TEMP[0].xxxx, IMM[0].yyyy
  3: MOV TEMP[2].y, TEMP[0].yyyy
  4: ATOMUADD TEMP[3], IMAGE[0], TEMP[2], IMM[0].xxxx, 2D, PIPE_FORMAT_R32_UINT
  5: BARRIER
  6: MOV TEMP[4].x, TEMP[0].xxxx
  7: UADD TEMP[4].y, TEMP[0].yyyy, IMM[0].yyyy
  8: LOAD TEMP[5], IMAGE[0], TEMP[4], 2D, PIPE_FORMAT_R32_UINT
  9: UMAD TEMP[6].x, TEMP[0].yyyy, IMM[0].wwww, TEMP[0].xxxx
 10: UMUL TEMP[6].x, TEMP[6].xxxx, IMM[0].zzzz
 11: STORE BUFFER[0], TEMP[6].xxxx, TEMP[5]
 12: UADD TEMP[4].x, TEMP[0].xxxx, TEMP[0].yyyy
 13: AND TEMP[2].z, TEMP[4].xxxx, IMM[1].xxxx
 14: MOV TEMP[2].xy, TEMP[0].xyxx
 15: U2F TEMP[3].xy, TEMP[0].xyxx
 16: U2F TEMP[3].z, TEMP[2].zzzz
 17: MOV TEMP[3].w, IMM[1].zzzz
 18: STORE IMAGE[1], TEMP[2], TEMP[3], 2D_ARRAY, PIPE_FORMAT_R32G32B32A32_FLOAT
 19: BARRIER
 20: MOV TEMP[2].z, IMM[1].yyyy
 21: LOAD TEMP[5], IMAGE[1], TEMP[2], 2D_ARRAY, PIPE_FORMAT_R32G32B32A32_FLOAT
 22: UADD TEMP[6].x, TEMP[6].xxxx, IMM[1].wwww
 23: STORE BUFFER[0], TEMP[6].xxxx, TEMP[5]
 24: END
";
    let img = texture(Target::Tex2D, "PIPE_FORMAT_R32_UINT", 4, 4, 1, 4);
    for i in 0..16u32 {
        img.data.store_u32(4 * i as usize, 100 * i);
    }
    let arr = texture(
        Target::Array2D,
        "PIPE_FORMAT_R32G32B32A32_FLOAT",
        2,
        2,
        2,
        16,
    );
    let out = buffer(&[0xdead; 16 * 4 * 3]);
    let resources = Resources {
        images: vec![
            image_view(&img, "PIPE_FORMAT_R32_UINT", 1),
            image_view(&arr, "PIPE_FORMAT_R32G32B32A32_FLOAT", 2),
        ],
        buffers: vec![view(&out)],
        ..Resources::default()
    };
    dispatch(text, [1, 1, 1], &resources, 0, 1).unwrap();
    // Texels with x >= 2 got two additions.
    let expect_img: Vec<u32> = (0..16u32)
        .map(|i| 100 * i + if i % 4 >= 2 { 10 } else { 5 })
        .collect();
    assert_eq!(words(&img), expect_img);
    let o = words(&out);
    for y in 0..4u32 {
        for x in 0..4u32 {
            let t = (4 * y + x) as usize;
            let got = &o[4 * t..4 * t + 4];
            if y + 2 < 4 {
                let v = expect_img[(4 * (y + 2) + x) as usize];
                assert_eq!(got, [v, 0, 0, 1], "load ({x}, {y})");
            } else {
                assert_eq!(got, [0, 0, 0, 1], "out-of-bounds load ({x}, {y})");
            }
        }
    }
    let f = |v: f32| v.to_bits();
    for y in 0..2u32 {
        for x in 0..2u32 {
            let layer = (x + y) % 2;
            let at = (layer * 4 + y * 2 + x) as usize * 16;
            let texel: Vec<u32> = arr.data.to_bytes()[at..at + 16]
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            assert_eq!(texel, [f(x as f32), f(y as f32), f(layer as f32), f(1.5)]);
        }
    }
    for y in 0..4u32 {
        for x in 0..4u32 {
            let t = (16 + 4 * y + x) as usize;
            let got = &o[4 * t..4 * t + 4];
            if x < 2 && y < 2 && (x + y) % 2 == 0 {
                assert_eq!(got, [f(x as f32), f(y as f32), 0, f(1.5)]);
            } else if x < 2 && y < 2 {
                assert_eq!(got, [0; 4], "layer 0 texel never written");
            } else {
                assert_eq!(got, [0; 4], "out-of-bounds load of a 4-channel format");
            }
        }
    }
}

#[test]
fn resq_buffers_and_images() {
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 1
DCL BUFFER[0]
DCL BUFFER[1]
DCL IMAGE[0], 2D_ARRAY, PIPE_FORMAT_R32_UINT, WR
DCL IMAGE[1], BUFFER, PIPE_FORMAT_R32G32B32A32_FLOAT
DCL TEMP[0..3]
IMM[0] UINT32 {0, 16, 32, 48}
IMM[1] UINT32 {64, 0, 0, 0}
  0: MOV TEMP[0], IMM[0].xxxx
  1: RESQ TEMP[0].x, BUFFER[0]
  2: RESQ TEMP[0].y, BUFFER[2]
  3: STORE BUFFER[1], IMM[0].xxxx, TEMP[0]
  4: RESQ TEMP[1], IMAGE[0], 2D_ARRAY, PIPE_FORMAT_R32_UINT
  5: STORE BUFFER[1], IMM[0].yyyy, TEMP[1]
  6: RESQ TEMP[2], IMAGE[1], PIPE_FORMAT_R32G32B32A32_FLOAT
  7: STORE BUFFER[1], IMM[0].zzzz, TEMP[2]
  8: MOV TEMP[3], IMM[0].xxxx
  9: RESQ TEMP[3].x, BUFFER[0]
 10: STORE BUFFER[1], IMM[0].wwww, TEMP[3]
 11: RESQ TEMP[3].x, IMAGE[2], 2D, PIPE_FORMAT_R32_UINT
 12: STORE BUFFER[1], IMM[1].xxxx, TEMP[3]
 13: END
";
    let big = buffer(&[0; 25]);
    let out = buffer(&[0xdead; 20]);
    let arr = texture(Target::Array2D, "PIPE_FORMAT_R32_UINT", 8, 4, 6, 4);
    let mut v = image_view(&arr, "PIPE_FORMAT_R32_UINT", 6);
    if let Some(v) = v.as_mut() {
        v.first_layer = 1;
        v.last_layer = 3;
    }
    let tb = buffer(&[0; 40]);
    let tbv = Some(ImageView {
        resource: Arc::clone(&tb),
        format: fmt("PIPE_FORMAT_R32G32B32A32_FLOAT"),
        access: Access::Read,
        level: 0,
        first_layer: 0,
        last_layer: 0,
        offset: 16,
        size: 96,
    });
    let resources = Resources {
        buffers: vec![
            Some(BufferView {
                resource: Arc::clone(&big),
                offset: 8,
                size: 60,
            }),
            view(&out),
        ],
        images: vec![v, tbv],
        ..Resources::default()
    };
    dispatch(text, [1, 1, 1], &resources, 0, 1).unwrap();
    let o = words(&out);
    assert_eq!(&o[0..4], [60, 0, 0, 0], "buffer size; unbound slot 0");
    assert_eq!(
        &o[4..8],
        [8, 4, 3, 0],
        "2D_ARRAY: width, height, view layers"
    );
    assert_eq!(&o[8..12], [6, 0, 0, 0], "buffer image: texels of the view");
    assert_eq!(&o[12..16], [60, 0, 0, 0], "RESQ writes .x only");
    assert_eq!(&o[16..20], [0, 0, 0, 0], "unbound image");
}

#[test]
fn system_values() {
    // Block 5x3x1 (two waves per row, the second with three helper lanes), grid 2x2x1.
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 5
PROPERTY CS_FIXED_BLOCK_HEIGHT 3
PROPERTY CS_FIXED_BLOCK_DEPTH 1
DCL SV[0], THREAD_ID
DCL SV[1], BLOCK_ID
DCL SV[2], GRID_SIZE
DCL SV[3], BLOCK_SIZE
DCL SV[4], SUBGROUP_INVOCATION
DCL SV[5], SUBGROUP_SIZE
DCL SV[6], WORK_DIM
DCL SV[7], SUBGROUP_LT_MASK
DCL BUFFER[0]
DCL TEMP[0..4]
IMM[0] UINT32 {5, 15, 64, 16}
IMM[1] UINT32 {32, 48, 2, 0}
  0: UMAD TEMP[0].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx
  1: UMAD TEMP[1].x, SV[1].yyyy, IMM[1].zzzz, SV[1].xxxx
  2: MOV TEMP[1].y, TEMP[1].xxxx
  3: UMAD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy, TEMP[0].xxxx
  4: UMUL TEMP[1].x, TEMP[1].xxxx, IMM[0].zzzz
  5: STORE BUFFER[0], TEMP[1].xxxx, SV[0]
  6: UADD TEMP[2].x, TEMP[1].xxxx, IMM[0].wwww
  7: STORE BUFFER[0], TEMP[2].xxxx, SV[1]
  8: MOV TEMP[3].x, SV[2].xxxx
  9: MOV TEMP[3].y, SV[3].xxxx
 10: MOV TEMP[3].z, SV[4].xxxx
 11: MOV TEMP[3].w, SV[5].xxxx
 12: UADD TEMP[2].x, TEMP[1].xxxx, IMM[1].xxxx
 13: STORE BUFFER[0], TEMP[2].xxxx, TEMP[3]
 14: MOV TEMP[4].x, SV[6].xxxx
 15: MOV TEMP[4].y, SV[7].xxxx
 16: MOV TEMP[4].z, SV[7].yyyy
 17: MOV TEMP[4].w, SV[2].yyyy
 18: UADD TEMP[2].x, TEMP[1].xxxx, IMM[1].yyyy
 19: STORE BUFFER[0], TEMP[2].xxxx, TEMP[4]
 20: END
";
    let n = 4 * 15;
    let out = buffer(&vec![0xdead; n * 16]);
    let resources = Resources {
        buffers: vec![view(&out)],
        ..Resources::default()
    };
    dispatch(text, [2, 2, 1], &resources, 0, 1).unwrap();
    let o = words(&out);
    for (gy, gx) in [(0u32, 0u32), (0, 1), (1, 0), (1, 1)] {
        for y in 0..3u32 {
            for x in 0..5u32 {
                let i = ((2 * gy + gx) * 15 + y * 5 + x) as usize * 16;
                let lane = x % 4;
                assert_eq!(&o[i..i + 4], [x, y, 0, 0], "THREAD_ID");
                assert_eq!(&o[i + 4..i + 8], [gx, gy, 0, 0], "BLOCK_ID");
                assert_eq!(
                    &o[i + 8..i + 12],
                    [2, 5, lane, 4],
                    "GRID_SIZE.x BLOCK_SIZE.x lane size"
                );
                assert_eq!(
                    &o[i + 12..i + 16],
                    [3, (1 << lane) - 1, 0, 2],
                    "WORK_DIM, LT mask, GRID_SIZE.y"
                );
            }
        }
    }
}

#[test]
fn inter_lane_opcodes() {
    // Block 6: wave 0 has lanes 0-3, wave 1 lanes 4-5 (6 and 7 are helpers, not members).
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 6
DCL SV[0], THREAD_ID
DCL BUFFER[0]
DCL BUFFER[1]
DCL TEMP[0..5]
IMM[0] UINT32 {1, 2, 32, 4}
IMM[1] UINT32 {0, 7, 8, 0}
  0: AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx
  1: MOV TEMP[1], IMM[1].yyyy
  2: BALLOT TEMP[1].xy, TEMP[0].xxxx
  3: VOTE_ANY TEMP[2].x, TEMP[0].xxxx
  4: VOTE_ALL TEMP[2].y, TEMP[0].xxxx
  5: VOTE_EQ TEMP[2].z, IMM[1].yyyy
  6: VOTE_EQ TEMP[2].w, SV[0].xxxx
  7: UMUL TEMP[3].x, SV[0].xxxx, IMM[0].zzzz
  8: STORE BUFFER[0], TEMP[3].xxxx, TEMP[1]
  9: UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww
 10: UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww
 11: UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww
 12: UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww
 13: STORE BUFFER[0], TEMP[3].xxxx, TEMP[2]
 14: USLT TEMP[4].x, IMM[0].xxxx, SV[0].xxxx
 15: UIF TEMP[4].xxxx
 16:   READ_FIRST TEMP[5].x, SV[0].xxxx
 17:   READ_INVOC TEMP[5].y, SV[0].xxxx, IMM[0].xxxx
 18:   UMUL TEMP[3].x, SV[0].xxxx, IMM[1].zzzz
 19:   STORE BUFFER[1].xy, TEMP[3].xxxx, TEMP[5]
 20: ENDIF
 21: END
";
    let out = buffer(&[0xdead; 6 * 8]);
    let reads = buffer(&[0xdead; 6 * 2]);
    let resources = Resources {
        buffers: vec![view(&out), view(&reads)],
        ..Resources::default()
    };
    dispatch(text, [1, 1, 1], &resources, 0, 1).unwrap();
    let o = words(&out);
    let r = words(&reads);
    let t = !0u32;
    for j in 0..6usize {
        let w = &o[8 * j..8 * j + 8];
        let wave0 = j < 4;
        let ballot = if wave0 { 0b1010 } else { 0b10 };
        assert_eq!(&w[0..2], [ballot, 0], "BALLOT lane {j}");
        assert_eq!(&w[2..4], [7, 7], "BALLOT writes .xy only");
        assert_eq!(&w[4..8], [t, 0, t, 0], "votes lane {j}");
    }
    // Lanes 2, 3 (wave 0) and 4, 5 (wave 1) took the branch; READ_INVOC reads lane 1
    // even where it is inactive.
    assert_eq!(&r[..4], [0xdead; 4]);
    for j in 2..6usize {
        let first = if j < 4 { 2 } else { 4 };
        let invoc = if j < 4 { 1 } else { 5 };
        assert_eq!(
            &r[2 * j..2 * j + 2],
            [first, invoc],
            "READ_FIRST, READ_INVOC lane {j}"
        );
    }
}

#[test]
fn budget_and_limits() {
    let endless = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 8
DCL TEMP[0]
  0: BGNLOOP
  1:   MOV TEMP[0], TEMP[0]
  2: ENDLOOP
  3: END
";
    let program = compile(endless);
    let opts = ComputeOptions {
        budget: 10_000,
        ..ComputeOptions::default()
    };
    match run_compute(&program, &opts) {
        Err(ExecError::Budget { budget, at }) => {
            assert_eq!(budget, 10_000);
            assert!(at.contains("workgroup (0, 0, 0)"), "{at}");
        }
        other => panic!("expected a budget error, got {other:?}"),
    }
    let simple = compile("COMP\nDCL TEMP[0]\n  0: MOV TEMP[0], TEMP[0]\n  1: END\n");
    let too_big = ComputeOptions {
        grid: [65536, 65536, 2],
        block: [1, 1, 1],
        ..ComputeOptions::default()
    };
    assert!(
        matches!(run_compute(&simple, &too_big), Err(ExecError::Setup(m)) if m.contains("invocations"))
    );
    let wide = ComputeOptions {
        block: [1025, 1, 1],
        ..ComputeOptions::default()
    };
    assert!(
        matches!(run_compute(&simple, &wide), Err(ExecError::Setup(m)) if m.contains("threads"))
    );
    let shared = ComputeOptions {
        shared_bytes: usize::MAX,
        ..ComputeOptions::default()
    };
    assert!(matches!(
        run_compute(&simple, &shared),
        Err(ExecError::Setup(_))
    ));
    let empty = ComputeOptions {
        grid: [0, 4, 4],
        ..ComputeOptions::default()
    };
    assert_eq!(run_compute(&simple, &empty).unwrap().invocations, 0);
    let frag = compile("FRAG\nDCL TEMP[0]\n  0: END\n");
    assert!(matches!(
        run_compute(&frag, &ComputeOptions::default()),
        Err(ExecError::Setup(_))
    ));
}

#[test]
fn compile_checks_resource_operands() {
    let bad = [
        "COMP\nDCL BUFFER[0]\nDCL TEMP[0]\n  0: MOV TEMP[0], BUFFER[0]\n  1: END\n",
        "COMP\nDCL TEMP[0..1]\n  0: LOAD TEMP[0], TEMP[1], TEMP[1]\n  1: END\n",
        "COMP\nDCL BUFFER[0]\nDCL TEMP[0]\n  0: STORE TEMP[0], TEMP[0], BUFFER[0]\n  1: END\n",
        "COMP\nDCL SAMP[0]\nDCL TEMP[0]\n  0: IMG2HND TEMP[0].xy, SAMP[0]\n  1: END\n",
    ];
    for text in bad {
        let shader = tgsi::parse(text).unwrap();
        assert!(Program::compile(&shader).is_err(), "{text}");
    }
    let tex = tgsi::parse(
        "FRAG\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n  0: TEX TEMP[0], TEMP[0], SAMP[0], 2D\n  1: END\n",
    )
    .unwrap();
    assert!(
        Program::compile(&tex).is_ok(),
        "texture operands are not memory operands"
    );
}

#[test]
fn hw_atomic_counters_load() {
    // LOAD HWATOMIC[0][c] reads counter c whatever its address operand (Mesa's is the byte
    // offset 4c); past the binding it reads 0.
    let text = "COMP
DCL HWATOMIC[0][0..4]
DCL BUFFER[0]
DCL TEMP[0..1]
IMM[0] UINT32 {0, 8, 4, 16}
  0: LOAD TEMP[0].x, HWATOMIC[0][2], IMM[0].yyyy
  1: LOAD TEMP[1].x, HWATOMIC[0][4], IMM[0].wwww
  2: STORE BUFFER[0].x, IMM[0].xxxx, TEMP[0].xxxx
  3: STORE BUFFER[0].x, IMM[0].zzzz, TEMP[1].xxxx
  4: END
";
    let program = compile(text);
    let counters = buffer(&[0, 5, 6, 7]);
    let out = buffer(&[0xdead; 2]);
    let resources = Resources {
        hw_atomics: vec![view(&counters)],
        buffers: vec![view(&out)],
        ..Resources::default()
    };
    let opts = ComputeOptions {
        resources: &resources,
        ..ComputeOptions::default()
    };
    run_compute(&program, &opts).unwrap();
    assert_eq!(words(&out), [6, 0]);
}

#[test]
fn hw_atomics_const_loads_and_raw_images() {
    // HWATOMIC[0][1] is counter 1 of hw_atomics[0] whatever the address operand; a 1-D
    // HWATOMIC[1] is counter 0 of slot 1. LOAD from CONST[0] reads the constant buffer as bytes. A RAW
    // buffer image is addressed in bytes like a BUFFER.
    let text = "COMP
PROPERTY CS_FIXED_BLOCK_WIDTH 2
DCL SV[0], THREAD_ID
DCL HWATOMIC[0][0..3]
DCL HWATOMIC[1][0]
DCL CONST[0][0..1]
DCL IMAGE[0], BUFFER, PIPE_FORMAT_R32_UINT, WR, RAW
DCL BUFFER[0]
DCL TEMP[0..3]
IMM[0] UINT32 {1, 10, 8, 16}
  0: ATOMUADD TEMP[0].x, HWATOMIC[0][1], SV[0].xxxx, IMM[0].yyyy
  1: ATOMUADD TEMP[1].x, HWATOMIC[1], IMM[0].xxxx, IMM[0].xxxx
  2: UMUL TEMP[2].x, SV[0].xxxx, IMM[0].wwww
  3: STORE BUFFER[0].xy, TEMP[2].xxxx, TEMP[0]
  4: MOV TEMP[3].x, IMM[0].zzzz
  5: LOAD TEMP[3].xyz, CONST[0], TEMP[3].xxxx
  6: UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].zzzz
  7: STORE BUFFER[0].zw, TEMP[2].xxxx, TEMP[3].xxyz
  8: UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].zzzz
  9: STORE IMAGE[0].x, TEMP[2].xxxx, SV[0].xxxx
 10: END
";
    let program = compile(text);
    let counters = buffer(&[0, 5, 6, 7]);
    let second = buffer(&[40, 41]);
    let out = buffer(&[0xdead; 8]);
    let raw = buffer(&[0xdead; 12]);
    let resources = Resources {
        hw_atomics: vec![view(&counters), view(&second)],
        buffers: vec![view(&out)],
        images: vec![Some(ImageView {
            resource: Arc::clone(&raw),
            format: fmt("PIPE_FORMAT_R32_UINT"),
            access: Access::ReadWrite,
            level: 0,
            first_layer: 0,
            last_layer: 0,
            offset: 0,
            size: 48,
        })],
        ..Resources::default()
    };
    let consts = vec![vec![[1, 2, 3, 4], [5, 6, 7, 8]]];
    run_compute(
        &program,
        &ComputeOptions {
            constants: consts,
            resources: &resources,
            ..ComputeOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        words(&counters),
        [0, 25, 6, 7],
        "both lanes add 10 to counter 1"
    );
    assert_eq!(words(&second), [42, 41], "1-D HWATOMIC[1]: counter 0");
    // Lane j stores (old, old) at byte 16j, then the const words 3, 4 (LOAD .xyz from byte
    // 8, swizzled .xxyz) as .zw at byte 16j + 8, i.e. words 4j + 4 and 4j + 5: lane 0's
    // land on lane 1's first store; lane 1's lie past the 32-byte buffer and are dropped.
    let o = words(&out);
    assert_eq!(o, [5, 5, 0xdead, 0xdead, 4, 5, 0xdead, 0xdead]);
    let r = words(&raw);
    assert_eq!(&r[4..6], [0, 0xdead], "raw store at byte 16: lane 0");
    assert_eq!(r[8], 1, "raw store at byte 32: lane 1");
}
