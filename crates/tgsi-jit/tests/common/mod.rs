//! Shared by the JIT's tests: running a vertex shader on the interpreter and the JIT.

use tgsi_exec::{run_vertices_with, Interpreter, Program, VertexOptions};
use tgsi_jit::Engine;

/// `text` compiled for the interpreter and by the JIT, which must compile it.
pub fn compile(text: &str) -> (Program, Engine) {
    let shader = tgsi::parse(text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    let program = Program::compile(&shader).unwrap_or_else(|e| panic!("{text}\n{e}"));
    let engine = Engine::new(program.clone());
    assert!(
        engine.is_compiled(),
        "{text}: {:?}",
        engine.fallback_reason()
    );
    (program, engine)
}

/// Runs `program` (from `text`) with `opts` on the interpreter and on `engine`, which must
/// give every vertex the same output words.
pub fn assert_same_vertices(text: &str, program: &Program, engine: &Engine, opts: &VertexOptions) {
    let want = run_vertices_with(&Interpreter(program), opts).expect("the interpreter runs");
    let got = run_vertices_with(engine, opts).expect("the JIT runs");
    for (v, (w, g)) in want.values.iter().zip(&got.values).enumerate() {
        assert_eq!(
            w,
            g,
            "{}\nvertex {v}: interpreter {w:08x?}, jit {g:08x?}",
            text.replace('\n', " / ")
        );
    }
}
