//! `Options::approximate_math`: the compiled EX2, LG2, SIN and COS give, in every lane,
//! exactly the bits of `tgsi_exec::scalar::approx`'s definitions (whose error bounds that
//! module's tests check), over a spread of all binary32 inputs and the special values; POW
//! stays glibc's `powf`.

use tgsi_exec::scalar::approx::{self, Scalar};
use tgsi_exec::{run_vertices_with, Program, VertexInput, VertexOptions};
use tgsi_jit::{Engine, Options};

/// Every 65,537th bit pattern (all exponents, both signs) and the special values.
fn values() -> Vec<f32> {
    let special = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -2.0,
        3.0,
        128.0,
        -150.0,
        65536.0,
        1.0e30,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(0xffc0_0001),
        f32::from_bits(0x7f80_0001),
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::MAX,
    ];
    (0..=u32::MAX)
        .step_by(65_537)
        .map(f32::from_bits)
        .chain(special)
        .collect()
}

/// Run `op` (one or two sources) over `inputs` on the JIT with approximate math; the
/// x channel of each vertex's result.
fn run(op: &str, inputs: Vec<VertexInput>) -> Vec<u32> {
    let n = inputs.len();
    let decls: String = (0..n).map(|i| format!("DCL IN[{i}]\n")).collect();
    let srcs: Vec<String> = (0..n).map(|i| format!("IN[{i}]")).collect();
    let text = format!(
        "VERT\n{decls}DCL OUT[0], GENERIC[0]\n  0: {op} OUT[0], {}\n  1: END\n",
        srcs.join(", ")
    );
    let program = Program::compile(&tgsi::parse(&text).unwrap()).unwrap();
    let options = Options {
        approximate_math: true,
        ..Default::default()
    };
    let engine = Engine::with_options(program, options);
    assert!(engine.is_compiled(), "{:?}", engine.fallback_reason());
    let count = match &inputs[0] {
        VertexInput::PerVertex(v) => v.len(),
        VertexInput::Constant(_) => 1,
    };
    let opts = VertexOptions {
        count,
        inputs,
        ..Default::default()
    };
    let out = run_vertices_with(&engine, &opts).unwrap();
    out.values.iter().map(|v| v[0][0]).collect()
}

fn per_vertex(xs: &[f32]) -> VertexInput {
    VertexInput::PerVertex(xs.iter().map(|x| [x.to_bits(), 0, 0, 0]).collect())
}

/// The same bits (NaN payloads included).
fn same(got: u32, want: f32) -> bool {
    got == want.to_bits()
}

#[test]
fn unary_approximations_are_the_scalar_definitions() {
    let xs = values();
    type Def = fn(&mut Scalar, f32) -> f32;
    let defs: [(&str, Def); 4] = [
        ("EX2", approx::ex2),
        ("LG2", approx::lg2),
        ("SIN", approx::sin),
        ("COS", approx::cos),
    ];
    for (op, def) in defs {
        let got = run(op, vec![per_vertex(&xs)]);
        let mut differs_from_exact = 0;
        for (&x, &g) in xs.iter().zip(&got) {
            let want = def(&mut Scalar, x);
            assert!(
                same(g, want),
                "{op}({x:e}): jit {g:08x}, definition {want:e}"
            );
            let exact = match op {
                "EX2" => tgsi_exec::scalar::float::ex2(x),
                "LG2" => tgsi_exec::scalar::float::lg2(x),
                "SIN" => tgsi_exec::scalar::float::sin(x),
                _ => tgsi_exec::scalar::float::cos(x),
            };
            differs_from_exact += usize::from(!same(g, exact));
        }
        // The option is in effect: some results are not glibc's.
        assert!(differs_from_exact > 0, "{op}: every result is glibc's");
    }
}

#[test]
fn pow_stays_exact() {
    let xs = values();
    let ys = [
        -17.5f32,
        -3.0,
        -1.0,
        -0.5,
        0.0,
        0.5,
        1.0,
        2.0,
        2.4,
        3.0,
        40.5,
        f32::NAN,
    ];
    let (bases, exponents): (Vec<f32>, Vec<f32>) = xs
        .iter()
        .flat_map(|&x| ys.iter().map(move |&y| (x, y)))
        .unzip();
    let got = run("POW", vec![per_vertex(&bases), per_vertex(&exponents)]);
    for ((&x, &y), &g) in bases.iter().zip(&exponents).zip(&got) {
        let want = tgsi_exec::scalar::float::pow(x, y);
        assert!(
            same(g, want),
            "POW({x:e}, {y:e}): jit {g:08x}, powf {want:e}"
        );
    }
}
