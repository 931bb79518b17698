//! Reading shaders named on the command line: files or `-` for stdin, in text or token
//! form (detected by content, or forced with `--tokens`), with errors that name the file.

use std::io::Read;

use tgsi::tokens;
use tgsi::Shader;

/// How a command failed, mapped to the process exit code.
#[derive(Debug)]
pub enum Failure {
    /// The input is not a valid shader (exit 1). The message is already printed.
    Invalid,
    /// Usage or I/O problem (exit 2).
    Io(String),
}

/// One input's bytes and display name.
pub struct Input {
    /// File name as given (`<stdin>` for `-`).
    pub name: String,
    /// Raw content.
    pub bytes: Vec<u8>,
}

/// Reads a file, or stdin for `-`.
pub fn read(path: &str) -> Result<Input, Failure> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Io(format!("<stdin>: {e}")))?;
        return Ok(Input {
            name: "<stdin>".into(),
            bytes,
        });
    }
    let bytes = std::fs::read(path).map_err(|e| Failure::Io(format!("{path}: {e}")))?;
    Ok(Input {
        name: path.to_string(),
        bytes,
    })
}

/// Which form an input is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// TGSI text.
    Text,
    /// Little-endian token words.
    Tokens,
}

impl Input {
    /// The form, by content unless forced.
    pub fn form(&self, force_tokens: bool) -> Form {
        if force_tokens || tokens::looks_like_tokens(&self.bytes) {
            Form::Tokens
        } else {
            Form::Text
        }
    }

    /// The input as UTF-8 text; prints where it is not.
    pub fn text(&self) -> Result<&str, Failure> {
        std::str::from_utf8(&self.bytes).map_err(|e| {
            let before = &self.bytes[..e.valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let col = before.len()
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1)
                + 1;
            eprintln!(
                "{}:{line}:{col}: error: invalid UTF-8 in TGSI text",
                self.name
            );
            Failure::Invalid
        })
    }

    /// Parses or decodes the input; prints the error (`name:line:col: error: …`) and returns
    /// [`Failure::Invalid`] when it is not a shader.
    pub fn shader(&self, force_tokens: bool) -> Result<Shader, Failure> {
        match self.form(force_tokens) {
            Form::Text => {
                let text = self.text()?;
                tgsi::parse(text).map_err(|e| {
                    eprintln!(
                        "{}:{}:{}: error: {}",
                        self.name, e.span.line, e.span.col, e.message
                    );
                    Failure::Invalid
                })
            }
            Form::Tokens => {
                let Some(words) = tokens::words_from_le_bytes(&self.bytes) else {
                    eprintln!(
                        "{}: error: {} bytes is not a whole number of 32-bit token words",
                        self.name,
                        self.bytes.len()
                    );
                    return Err(Failure::Invalid);
                };
                tokens::decode(&words).map_err(|e| {
                    eprintln!("{}: error: word {}: {}", self.name, e.offset, e.message);
                    Failure::Invalid
                })
            }
        }
    }
}

impl Input {
    /// The input printed in canonical form; prints the error and returns
    /// [`Failure::Invalid`] when it is not a shader. Text is printed as it is parsed
    /// (`tgsi::text::reformat`), without building the IR.
    pub fn canonical_text(
        &self,
        force_tokens: bool,
        options: tgsi::PrintOptions,
    ) -> Result<String, Failure> {
        match self.form(force_tokens) {
            Form::Text => tgsi::text::reformat(self.text()?, options).map_err(|e| {
                eprintln!(
                    "{}:{}:{}: error: {}",
                    self.name, e.span.line, e.span.col, e.message
                );
                Failure::Invalid
            }),
            Form::Tokens => Ok(tgsi::print_with(&self.shader(true)?, options)),
        }
    }
}

/// Writes bytes to a file, or stdout for `-`.
pub fn write(path: &str, bytes: &[u8]) -> Result<(), Failure> {
    use std::io::Write;
    if path == "-" {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(|e| Failure::Io(format!("<stdout>: {e}")));
    }
    std::fs::write(path, bytes).map_err(|e| Failure::Io(format!("{path}: {e}")))
}

/// Writes token words as little-endian bytes to a file, or stdout for `-`, a block at a time
/// (no second copy of the whole stream).
pub fn write_words(path: &str, words: &[u32]) -> Result<(), Failure> {
    use std::io::Write;
    const BLOCK: usize = 16 << 10;
    let mut bytes = Vec::with_capacity(4 * BLOCK);
    let mut write_all = |out: &mut dyn Write| -> std::io::Result<()> {
        for block in words.chunks(BLOCK) {
            bytes.clear();
            for w in block {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            out.write_all(&bytes)?;
        }
        out.flush()
    };
    if path == "-" {
        return write_all(&mut std::io::stdout().lock())
            .map_err(|e| Failure::Io(format!("<stdout>: {e}")));
    }
    std::fs::File::create(path)
        .and_then(|mut file| write_all(&mut file))
        .map_err(|e| Failure::Io(format!("{path}: {e}")))
}

/// Reads and loads every file in turn, handing each shader to `each`. An input that is not
/// a shader has its error printed and is skipped; the result says whether any was invalid.
pub fn for_each_shader(
    files: &[String],
    force_tokens: bool,
    mut each: impl FnMut(&Input, Shader) -> Result<(), Failure>,
) -> Result<bool, Failure> {
    let mut invalid = false;
    for path in files {
        let input = read(path)?;
        match input.shader(force_tokens) {
            Ok(shader) => each(&input, shader)?,
            Err(Failure::Invalid) => invalid = true,
            Err(e) => return Err(e),
        }
    }
    Ok(invalid)
}
