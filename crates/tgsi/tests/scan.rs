//! Scan results on small shaders: register files, opcodes, I/O, feature flags, JSON and the
//! human-readable summary.

mod common;

use tgsi::scan::{scan, DeclRange, ShaderInfo};
use tgsi::{File, InterpLocation, Interpolate, MemoryType, Opcode, Semantic, TextureTarget};

fn info(text: &str) -> ShaderInfo {
    scan(&tgsi::parse(text).expect("test shader parses"))
}

const FS: &str = "FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
DCL IN[0].xy, GENERIC[3], PERSPECTIVE, CENTROID
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SVIEW[0], 2D, FLOAT
DCL TEMP[0..2]
IMM[0] FLT32 {    0.5000,     0.0000,     0.0000,     0.0000}
  0: TEX TEMP[0], IN[0].xyyy, SAMP[0], 2D
  1: KILL_IF -TEMP[0].xxxx
  2: DDX TEMP[2], IN[0].xyyy
  3: MAD OUT[0], TEMP[0], IMM[0].xxxx, TEMP[2]
  4: END
";

#[test]
fn fragment_shader_features() {
    let i = info(FS);
    assert!(i.uses_kill && i.uses_derivatives && i.uses_implicit_derivatives);
    assert!(!i.uses_atomics && !i.uses_barrier && !i.writes_memory && !i.uses_doubles);
    assert_eq!(i.num_instructions, 5);
    assert_eq!(i.num_immediates, 1);
    assert_eq!(i.opcodes.get(&Opcode::TEX), Some(&1));
    assert_eq!(i.opcodes.get(&Opcode::MOV), None);
    assert_eq!(i.opcodes.len(), 5);
    assert_eq!(
        i.texture_targets.iter().collect::<Vec<_>>(),
        [&TextureTarget::Tex2D]
    );
    assert_eq!(i.num_samplers, 1);
    assert_eq!(i.sampler_views.len(), 1);
    let input = i.inputs[0];
    assert_eq!(input.semantic, Some((Semantic::Generic, 3)));
    assert_eq!(input.usage_mask.0, 0x3);
    assert_eq!(
        input.interpolation,
        Some((Interpolate::Perspective, InterpLocation::Centroid))
    );
    assert_eq!(i.outputs[0].semantic, Some((Semantic::Color, 0)));
    let temps = &i.files[&File::Temporary];
    assert_eq!(temps.declared, 3);
    assert_eq!(temps.max_index_used, Some(2));
    assert!(!temps.indirect);
    assert_eq!(i.files[&File::Immediate].max_index_used, Some(0));
    assert_eq!(i.properties.len(), 1);
}

#[test]
fn sampling_outside_fragment_shaders_has_no_implicit_derivatives() {
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL SAMP[0]\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n";
    let i = info(vs);
    assert!(!i.uses_implicit_derivatives);
    assert!(!i.uses_derivatives);
}

#[test]
fn indirect_addressing_per_file_and_2d_constants() {
    let vs = "VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL CONST[1][0..7]
DCL TEMP[0..3], ARRAY(1)
DCL ADDR[0]
  0: UARL ADDR[0].x, IN[0].xxxx
  1: MOV TEMP[0], CONST[1][ADDR[0].x+2]
  2: MOV OUT[0], TEMP[ADDR[0].x](1)
  3: BGNLOOP :5
  4: BRK
  5: ENDLOOP :3
  6: END
";
    let i = info(vs);
    let indirect: Vec<File> = i.indirect_files().collect();
    assert_eq!(indirect, [File::Constant, File::Temporary]);
    assert_eq!(
        i.files[&File::Constant].ranges,
        [DeclRange {
            dimension: Some(1),
            first: 0,
            last: 7
        }]
    );
    assert_eq!(i.files[&File::Address].max_index_used, Some(0));
    assert!(i.uses_loops && !i.uses_subroutines);
}

#[test]
fn compute_shader_resources() {
    let cs = "COMP
DCL SV[0], THREAD_ID
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR
DCL BUFFER[0]
DCL BUFFER[1], ATOMIC
DCL MEMORY[0], SHARED
DCL TEMP[0]
IMM[0] UINT32 {0, 1, 0, 0}
  0: ATOMUADD TEMP[0].x, BUFFER[1], IMM[0].xxxx, IMM[0].yyyy
  1: STORE MEMORY[0].x, IMM[0].xxxx, TEMP[0].xxxx
  2: BARRIER
  3: STORE IMAGE[0], SV[0].xyyy, TEMP[0], 2D
  4: U64ADD TEMP[0].xy, TEMP[0].xyxy, TEMP[0].xyxy
  5: END
";
    let i = info(cs);
    assert!(i.uses_atomics && i.uses_barrier && i.writes_memory && i.uses_int64);
    assert!(!i.uses_doubles && !i.uses_kill);
    assert_eq!(i.system_values, [(0, Semantic::ThreadId)]);
    assert_eq!(i.buffers, [(0, false), (1, true)]);
    assert_eq!(i.memory.iter().collect::<Vec<_>>(), [&MemoryType::Shared]);
    assert_eq!(i.images.len(), 1);
    assert!(i.images[0].writable && !i.images[0].raw);
    assert_eq!(i.images[0].target, TextureTarget::Tex2D);
}

#[test]
fn doubles_are_detected_from_opcodes_and_immediates() {
    let fs = "FRAG\nDCL TEMP[0]\n  0: DADD TEMP[0].xy, TEMP[0].xyxy, TEMP[0].xyxy\n  1: END\n";
    assert!(info(fs).uses_doubles);
    let imm = "FRAG\nIMM[0] FLT64 {1.00000000, 2.00000000}\n  0: END\n";
    assert!(info(imm).uses_doubles);
}

const TINY: &str =
    "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

#[test]
fn json_is_exact() {
    assert_eq!(
        info(TINY).to_json(),
        concat!(
            r#"{"processor":"FRAG","instructions":2,"immediates":0,"#,
            r#""files":{"IN":{"declared":1,"ranges":[{"dimension":null,"first":0,"last":0}],"max_index_used":0,"indirect":false},"#,
            r#""OUT":{"declared":1,"ranges":[{"dimension":null,"first":0,"last":0}],"max_index_used":0,"indirect":false}},"#,
            r#""opcodes":{"MOV":1,"END":1},"#,
            r#""inputs":[{"first":0,"last":0,"semantic":"COLOR","semantic_index":0,"usage_mask":"xyzw","interpolation":"COLOR","location":"CENTER","array_id":null,"invariant":false}],"#,
            r#""outputs":[{"first":0,"last":0,"semantic":"COLOR","semantic_index":0,"usage_mask":"xyzw","interpolation":null,"location":null,"array_id":null,"invariant":false}],"#,
            r#""system_values":[],"properties":{},"texture_targets":[],"samplers":0,"sampler_views":[],"images":[],"buffers":[],"memory":[],"indirect_files":[],"#,
            r#""uses":{"kill":false,"derivatives":false,"implicit_derivatives":false,"atomics":false,"barrier":false,"memory_writes":false,"doubles":false,"int64":false,"loops":false,"subroutines":false}}"#,
        )
    );
}

#[test]
fn summary_is_readable() {
    assert_eq!(
        info(FS).to_string(),
        "FRAG shader: 5 instructions, 1 immediates
  IN        1 declared, highest used 0
  OUT       1 declared, highest used 0
  TEMP      3 declared, highest used 2
  SAMP      1 declared, highest used 0
  IMM       1 declared, highest used 0
  SVIEW     1 declared
  inputs:
    IN[0] GENERIC[3] .xy PERSPECTIVE CENTROID
  outputs:
    OUT[0] COLOR[0]
  opcodes: MAD 1, DDX 1, TEX 1, KILL_IF 1, END 1
  texture targets: 2D
  properties: FS_COORD_ORIGIN 1
  uses: kill, derivatives, implicit_derivatives
"
    );
}

/// Whether brackets balance outside strings (a structural check of the JSON).
fn json_balanced(json: &str) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    for c in json.chars() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') | (false, _, '"') => in_string = !in_string,
            (false, _, '{' | '[') => depth += 1,
            (false, _, '}' | ']') => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0 && !in_string
}

#[test]
fn whole_corpus_scans() {
    let Some(corpus) = common::corpus_dir() else {
        return;
    };
    let mut scanned = 0;
    for rel in common::corpus_shaders(&corpus) {
        let Ok(text) = std::fs::read_to_string(corpus.join(&rel)) else {
            continue;
        };
        let Ok(shader) = tgsi::parse(&text) else {
            continue;
        };
        let i = scan(&shader);
        assert_eq!(i.num_instructions, shader.instructions.len());
        assert_eq!(i.opcodes.values().sum::<usize>(), shader.instructions.len());
        assert!(json_balanced(&i.to_json()), "{}", rel.display());
        assert!(!i.to_string().is_empty());
        scanned += 1;
    }
    assert!(scanned > 2500, "{scanned}");
}
