//! The `consts.txt` format: one constant vector per line, `CONST[b][i] = v0 v1 v2 v3`
//! (`CONST[i]` means buffer 0), each value a float literal or a `0x` raw 32-bit word;
//! `#` starts a comment. Missing trailing components are 0; unset slots are 0.

use std::fmt;

/// A syntax error in a constants file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstsError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConstsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ConstsError {}

/// Largest slot or buffer number accepted (bounds memory).
const MAX_SLOT: usize = 1 << 16;

/// Parse a constants file into buffers of vec4 slots (`result[b][i]` = `CONST[b][i]`).
pub fn parse_consts(text: &str) -> Result<Vec<Vec<[u32; 4]>>, ConstsError> {
    let mut bufs: Vec<Vec<[u32; 4]>> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let err = |message: String| ConstsError { line, message };
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let (lhs, rhs) = body
            .split_once('=')
            .ok_or_else(|| err("expected `CONST[...] = values`".into()))?;
        let lhs = lhs.trim();
        let rest = lhs
            .strip_prefix("CONST")
            .ok_or_else(|| err(format!("expected CONST, found `{lhs}`")))?;
        let mut idx = Vec::new();
        let mut s = rest.trim();
        while let Some(r) = s.strip_prefix('[') {
            let (num, tail) = r.split_once(']').ok_or_else(|| err("missing `]`".into()))?;
            let v: usize = num
                .trim()
                .parse()
                .map_err(|_| err(format!("bad index `{num}`")))?;
            if v > MAX_SLOT {
                return Err(err(format!("index {v} too large")));
            }
            idx.push(v);
            s = tail.trim();
        }
        let (b, i) = match idx[..] {
            [i] => (0, i),
            [b, i] => (b, i),
            _ => return Err(err("expected CONST[i] or CONST[b][i]".into())),
        };
        if !s.is_empty() {
            return Err(err(format!("unexpected `{s}`")));
        }
        let mut v = [0u32; 4];
        let mut count = 0;
        for tok in rhs.split_whitespace() {
            if count == 4 {
                return Err(err("more than four values".into()));
            }
            v[count] = parse_value(tok).ok_or_else(|| err(format!("bad value `{tok}`")))?;
            count += 1;
        }
        if count == 0 {
            return Err(err("no values".into()));
        }
        if bufs.len() <= b {
            bufs.resize(b + 1, Vec::new());
        }
        let buf = &mut bufs[b];
        if buf.len() <= i {
            buf.resize(i + 1, [0; 4]);
        }
        buf[i] = v;
    }
    Ok(bufs)
}

/// A float literal or a `0x` raw word.
fn parse_value(tok: &str) -> Option<u32> {
    if let Some(hex) = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
        u32::from_str_radix(hex, 16).ok()
    } else {
        tok.parse::<f32>().ok().map(f32::to_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_forms() {
        let text = "# header\nCONST[0][1] = 0x3F800000 0 -2.5 1e3   # name\nCONST[2] = 1\n\
                    CONST[1][0] = nan inf 0X10 -0\n";
        let b = parse_consts(text).unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!(b[0][0], [0; 4]);
        assert_eq!(
            b[0][1],
            [0x3f800000, 0, (-2.5f32).to_bits(), 1000f32.to_bits()]
        );
        assert_eq!(b[0][2], [0x3f800000, 0, 0, 0]);
        assert_eq!(b[1][0][1..], [f32::INFINITY.to_bits(), 16, 0x8000_0000]);
        assert!(parse_consts("CONST[0] = 1 2 3 4 5").is_err());
        assert!(parse_consts("TEMP[0] = 1").is_err());
        assert_eq!(parse_consts("CONST[0] = x").unwrap_err().line, 1);
    }
}
