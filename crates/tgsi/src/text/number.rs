//! Numbers in TGSI text, read and written exactly as Mesa 22.3 does: its hand-written
//! float scanner with `0x` raw-bit words, C `strtod` / `strtoll` / `strtoull` (base 0) for
//! 64-bit immediates, and printf's `%10.4f` / `%10.8f` for printing.

/// An optional `+` or `-` at `at`: whether it was `-`, and the position after it.
fn sign_at(s: &[u8], at: usize) -> (bool, usize) {
    match s.get(at) {
        Some(b'-') => (true, at + 1),
        Some(b'+') => (false, at + 1),
        _ => (false, at),
    }
}

/// Length of the float literal Mesa 22.3's scanner accepts at the start of `s`
/// (`[+-]? digits? ('.' digits?)? ([eE][+-]?digits)?` with at least one digit before the
/// exponent), or `None`.
pub fn scan_decimal_float(s: &[u8]) -> Option<usize> {
    let digits = |mut i: usize| {
        let start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        (i, i > start)
    };
    let (_, mut i) = sign_at(s, 0);
    let (after_int, has_int) = digits(i);
    i = after_int;
    let mut has_frac = false;
    if s.get(i) == Some(&b'.') {
        let (after_frac, any) = digits(i + 1);
        i = after_frac;
        has_frac = any;
    }
    if !has_int && !has_frac {
        return None;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let (_, j) = sign_at(s, i + 1);
        let (after_exp, any) = digits(j);
        if !any {
            return None;
        }
        i = after_exp;
    }
    Some(i)
}

/// The value of a literal accepted by [`scan_decimal_float`], as C's `atof` gives it.
pub fn decimal_to_f64(literal: &[u8]) -> f64 {
    // The scanner admits "5." and ".5", both of which Rust's parser accepts too; the
    // literal is ASCII by construction.
    std::str::from_utf8(literal)
        .ok()
        .and_then(|t| t.parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// Parses a C `strtod` number at the start of `s` (decimal, hex float, `inf`, `infinity`,
/// `nan`); returns the value and the length consumed.
pub fn strtod(s: &[u8]) -> Option<(f64, usize)> {
    let (negative, i) = sign_at(s, 0);
    let rest = &s[i..];
    let sign = if negative { -1.0 } else { 1.0 };
    let starts =
        |kw: &str| rest.len() >= kw.len() && rest[..kw.len()].eq_ignore_ascii_case(kw.as_bytes());
    if starts("infinity") {
        return Some((sign * f64::INFINITY, i + 8));
    }
    if starts("inf") {
        return Some((sign * f64::INFINITY, i + 3));
    }
    if starts("nan") {
        let mut len = i + 3;
        if s.get(len) == Some(&b'(') {
            if let Some(close) = s[len..].iter().position(|&c| c == b')') {
                if s[len + 1..len + close]
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    len += close + 1;
                }
            }
        }
        let nan = if negative { -f64::NAN } else { f64::NAN };
        return Some((nan, len));
    }
    if rest.len() > 2 && rest[0] == b'0' && (rest[1] | 0x20) == b'x' {
        if let Some((v, n)) = hex_float(&rest[2..]) {
            return Some((sign * v, i + 2 + n));
        }
        // "0x" with no hex digits: C reads the "0".
        return Some((sign * 0.0, i + 1));
    }
    let len = scan_decimal_float(rest)?;
    Some((sign * decimal_to_f64(&rest[..len]), i + len))
}

/// Hex float body after `0x`: `hex* ('.' hex*)? ([pP][+-]?digits)?`.
fn hex_float(s: &[u8]) -> Option<(f64, usize)> {
    let mut mantissa: u64 = 0;
    let mut exp: i64 = 0;
    let mut any = false;
    let mut i = 0;
    let mut seen_dot = false;
    while i < s.len() {
        let c = s[i];
        if c == b'.' && !seen_dot {
            seen_dot = true;
            i += 1;
            continue;
        }
        let Some(d) = (c as char).to_digit(16) else {
            break;
        };
        any = true;
        if mantissa >> 59 == 0 {
            mantissa = mantissa << 4 | d as u64;
            if seen_dot {
                exp -= 4;
            }
        } else if !seen_dot {
            exp += 4;
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if matches!(s.get(i), Some(b'p' | b'P')) {
        let (neg, mut j) = sign_at(s, i + 1);
        let start = j;
        let mut e: i64 = 0;
        while j < s.len() && s[j].is_ascii_digit() {
            e = (e * 10 + (s[j] - b'0') as i64).min(100_000);
            j += 1;
        }
        if j > start {
            exp += if neg { -e } else { e };
            i = j;
        }
    }
    let value = mantissa as f64 * 2f64.powi(exp.clamp(-3000, 3000) as i32);
    Some((value, i))
}

/// C `strtoull(s, &end, 0)`: optional sign, `0x` hex, leading `0` octal, else decimal;
/// saturates at `u64::MAX` on overflow; a `-` negates modulo 2^64.
pub fn strtoull(s: &[u8]) -> Option<(u64, usize)> {
    let (negative, magnitude, len) = strto_magnitude(s)?;
    let value = match magnitude {
        Some(v) if negative => v.wrapping_neg(),
        Some(v) => v,
        None => u64::MAX,
    };
    Some((value, len))
}

/// C `strtoll(s, &end, 0)`: like [`strtoull`] but saturating at `i64::MIN` / `i64::MAX`.
pub fn strtoll(s: &[u8]) -> Option<(i64, usize)> {
    let (negative, magnitude, len) = strto_magnitude(s)?;
    let value = match magnitude {
        Some(v) if negative => {
            if v > 1u64 << 63 {
                i64::MIN
            } else {
                (v as i64).wrapping_neg()
            }
        }
        Some(v) => i64::try_from(v).unwrap_or(i64::MAX),
        None if negative => i64::MIN,
        None => i64::MAX,
    };
    Some((value, len))
}

/// Sign, magnitude (`None` on overflow) and length of a base-0 C integer.
fn strto_magnitude(s: &[u8]) -> Option<(bool, Option<u64>, usize)> {
    let (negative, i) = sign_at(s, 0);
    let (radix, start) = if s.get(i) == Some(&b'0')
        && matches!(s.get(i + 1), Some(b'x' | b'X'))
        && s.get(i + 2).is_some_and(|c| c.is_ascii_hexdigit())
    {
        (16, i + 2)
    } else if s.get(i) == Some(&b'0') {
        (8, i)
    } else {
        (10, i)
    };
    let mut j = start;
    let mut value: Option<u64> = Some(0);
    while let Some(d) = s.get(j).and_then(|&c| (c as char).to_digit(radix)) {
        value = value
            .and_then(|v| v.checked_mul(radix as u64))
            .and_then(|v| v.checked_add(d as u64));
        j += 1;
    }
    if j == start {
        return None;
    }
    Some((negative, value, j))
}

/// printf `%10.4f` of a float promoted to double, as glibc prints it.
pub fn format_f32_fixed4(v: f32) -> String {
    let mut out = String::new();
    write_fixed(&mut out, v as f64, 4);
    out
}

/// printf `%10.8f` of a double, as glibc prints it.
pub fn format_f64_fixed8(v: f64) -> String {
    let mut out = String::new();
    write_fixed(&mut out, v, 8);
    out
}

/// Appends printf `%10.<precision>f` of `v`, as glibc prints it.
pub fn write_fixed(out: &mut impl std::fmt::Write, v: f64, precision: usize) {
    let _ = if v.is_nan() {
        let text = if v.is_sign_negative() { "-nan" } else { "nan" };
        write!(out, "{text:>10}")
    } else if v.is_infinite() {
        let text = if v < 0.0 { "-inf" } else { "inf" };
        write!(out, "{text:>10}")
    } else {
        // Rust prints the exact decimal expansion rounded half-to-even, like glibc, and
        // keeps the sign of negative zero.
        write!(out, "{v:10.precision$}")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanner_matches_mesa() {
        assert_eq!(scan_decimal_float(b"1.5,"), Some(3));
        assert_eq!(scan_decimal_float(b"-.5}"), Some(3));
        assert_eq!(scan_decimal_float(b"+3."), Some(3));
        assert_eq!(scan_decimal_float(b"1e10"), Some(4));
        assert_eq!(scan_decimal_float(b"1e"), None);
        assert_eq!(scan_decimal_float(b"inf"), None);
        assert_eq!(scan_decimal_float(b"."), None);
    }

    #[test]
    fn c_integers() {
        assert_eq!(strtoull(b"010"), Some((8, 3)));
        assert_eq!(strtoull(b"0x10,"), Some((16, 4)));
        assert_eq!(strtoull(b"0x"), Some((0, 1)));
        assert_eq!(strtoull(b"18446744073709551615"), Some((u64::MAX, 20)));
        assert_eq!(strtoull(b"99999999999999999999"), Some((u64::MAX, 20)));
        assert_eq!(strtoull(b"-1"), Some((u64::MAX, 2)));
        assert_eq!(strtoll(b"-5"), Some((-5, 2)));
        assert_eq!(strtoll(b"-9223372036854775809"), Some((i64::MIN, 20)));
        assert_eq!(strtoll(b"x"), None);
    }

    #[test]
    fn c_doubles() {
        assert_eq!(strtod(b"0.1}"), Some((0.1, 3)));
        assert_eq!(strtod(b"-inf"), Some((f64::NEG_INFINITY, 4)));
        assert_eq!(strtod(b"0x1p-2"), Some((0.25, 6)));
        assert!(strtod(b"nan").unwrap().0.is_nan());
    }

    #[test]
    fn printf_formats() {
        assert_eq!(format_f32_fixed4(1.0), "    1.0000");
        assert_eq!(format_f32_fixed4(-0.0), "   -0.0000");
        assert_eq!(format_f32_fixed4(1065353216.0), "1065353216.0000");
        assert_eq!(format_f32_fixed4(f32::INFINITY), "       inf");
        assert_eq!(format_f32_fixed4(f32::NAN), "       nan");
        assert_eq!(format_f32_fixed4(-f32::NAN), "      -nan");
        assert_eq!(format_f32_fixed4(0.00005), "    0.0000");
        assert_eq!(format!("{:.1}", 0.25), "0.2");
        assert_eq!(format_f64_fixed8(1.0), "1.00000000");
    }
}
