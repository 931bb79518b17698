//! Every geometry shader of the shared corpus (`mesa/gs`, Mesa's own output for piglit, and
//! `virgl/gs`, as virgl guests send them) runs over 4 input primitives, as `tgsi run GS
//! --count 4` does: all inputs 0 (so data-dependent loops end at once), constants of small
//! integers and floats, the default budget, no resources bound. Each run must succeed and
//! emit only whole vertices of the declared outputs. Skips cleanly when the corpus is
//! absent.

use std::path::{Path, PathBuf};

use tgsi_exec::{run_geometry, GeometryOptions, Program};

fn tgsi_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for p in rd.flatten().map(|e| e.path()) {
        if p.is_dir() {
            tgsi_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "tgsi") {
            out.push(p);
        }
    }
}

#[test]
fn every_corpus_geometry_shader_runs_on_four_primitives() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for sub in ["mesa/gs", "virgl/gs"] {
        tgsi_files(&corpus.join(sub), &mut files);
    }
    if files.is_empty() {
        println!("skipped: shared corpus absent");
        return;
    }
    files.sort();
    let constants = vec![
        (0..256u32)
            .map(|i| [i % 4, 0x3f80_0000, 0x3e80_0000, 1])
            .collect::<Vec<_>>();
        4
    ];
    let mut failures = Vec::new();
    let mut emitted = 0usize;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read");
        let shader = tgsi::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let program = match Program::compile(&shader) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let options = GeometryOptions {
            count: 4,
            constants: constants.clone(),
            ..GeometryOptions::default()
        };
        match run_geometry(&program, &options) {
            Ok(out) => {
                let width = out.decls.len();
                for s in &out.streams {
                    assert_eq!(s.values.len() % width.max(1), 0, "{}", f.display());
                    emitted += s.values.len() / width.max(1);
                }
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} geometry shaders fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} corpus geometry shaders ran on 4 primitives ({emitted} vertices emitted)",
        files.len()
    );
}
