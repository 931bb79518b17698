//! Writes the generated benchmark shader (`benches/support/big_shader.rs`) to stdout:
//! `cargo run --release -p tgsi --example big_shader -- [MEGABYTES]` (default 16).

#[path = "../benches/support/big_shader.rs"]
mod big_shader;

use std::io::Write;

fn main() {
    let megabytes = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => 16,
        Some(Ok(n)) if n <= 60 => n,
        Some(_) => {
            eprintln!("usage: big_shader [MEGABYTES (at most 60)]");
            std::process::exit(2);
        }
    };
    let text = big_shader::generate(megabytes << 20);
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        eprintln!("big_shader: {e}");
        std::process::exit(2);
    }
}
