//! The benchmark suite's cases (`benches/shaders/*`, original GLSL compiled by Mesa and
//! run on softpipe): fragment cases render bit for bit like softpipe's `ref.f32` at their
//! reference size, with the JIT and with the interpreter; compute cases leave softpipe's
//! bytes in every output buffer (the JIT runs no compute shaders: interpreter only).

#[path = "../benches/common/mod.rs"]
mod common;

use tgsi_exec::{render_fragment, render_fragment_with, run_compute};
use tgsi_jit::{Engine, JitProgram};

/// The first differing 32-bit word of two images, as (index, got, want).
fn first_difference(got: &[u8], want: &[u8]) -> Option<(usize, u32, u32)> {
    let word = |b: &[u8], i: usize| u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
    (0..got.len().min(want.len()) / 4)
        .find(|&i| word(got, i) != word(want, i))
        .map(|i| (i, word(got, i), word(want, i)))
}

#[test]
fn every_case_matches_softpipe_on_both_engines() {
    let cases = common::load_all();
    assert!(cases.len() >= 10, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        // The compiled code whenever the JIT can compile the case, even where `Engine` would
        // run it on the interpreter for speed.
        let jit = match JitProgram::compile(case.program.clone()) {
            Ok(jit) => jit,
            Err(why) => panic!("{}: the JIT does not compile it: {why}", case.name),
        };
        let images = [
            ("interp", render_fragment(&case.program, &case.options)),
            ("jit", render_fragment_with(&jit, &case.options)),
        ];
        for (engine, image) in images {
            let got = match image {
                Ok(image) => image.to_le_bytes(),
                Err(e) => {
                    failures.push(format!("{} {engine}: {e}", case.name));
                    continue;
                }
            };
            if got.len() != case.reference.len() {
                failures.push(format!("{} {engine}: {} bytes", case.name, got.len()));
            } else if let Some((i, g, w)) = first_difference(&got, &case.reference) {
                let (pixel, channel) = (i / 4, i % 4);
                let w_ = case.options.width as usize;
                failures.push(format!(
                    "{} {engine}: word {i} (x {} row {} channel {channel}) is {g:#010x}, softpipe {w:#010x}",
                    case.name,
                    pixel % w_,
                    pixel / w_
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_compute_case_matches_softpipe() {
    let cases = common::load_all_compute();
    assert!(!cases.is_empty());
    for case in &cases {
        run_compute(&case.program, &case.options())
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for (resource, want) in &case.expected {
            let got = resource.data.to_bytes();
            assert_eq!(got.len(), want.len(), "{}", case.name);
            if let Some((i, g, w)) = first_difference(&got, want) {
                panic!("{}: word {i} is {g:#010x}, softpipe {w:#010x}", case.name);
            }
        }
    }
}

#[test]
fn the_doubles_case_is_compiled_and_matches_the_interpreter() {
    let case = common::load_all()
        .into_iter()
        .find(|c| c.name == "doubles")
        .expect("the doubles case");
    // What `--engine jit` runs: the compiled code, not the interpreter.
    let engine = Engine::new(case.program.clone());
    assert!(engine.is_compiled(), "{:?}", engine.fallback_reason());
    let want = render_fragment(&case.program, &case.options).map(|i| i.to_le_bytes());
    let got = render_fragment_with(&engine, &case.options).map(|i| i.to_le_bytes());
    assert_eq!(want.as_ref().err(), got.as_ref().err());
    if let (Ok(want), Ok(got)) = (want, got) {
        assert_eq!(first_difference(&got, &want), None);
        assert_eq!(got, case.reference);
    }
}
