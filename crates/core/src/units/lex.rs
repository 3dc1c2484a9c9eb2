//! Tokeniser for the unit grammar. Spans are byte ranges into the input.

use super::UnitError;
use super::scale::{Scale, parse_decimal};

/// Largest exponent magnitude the lexer accepts; dimensions are checked later against `i8`.
const MAX_LITERAL_EXPONENT: i64 = 9999;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// Numeric literal (`10`, `1e21`, `0.529177210903`).
    Num(Scale),
    /// A unit symbol, with micro, angstrom, ohm and kelvin look-alikes folded to one code point.
    Sym(String),
    /// Product: `·` `⋅` `*` `.` `×`.
    Mul,
    /// Quotient: `/`.
    Div,
    /// Power: `^n`, `^(n)`, `**n`, or Unicode superscripts.
    Pow(i32),
    LParen,
    RParen,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
    /// Whitespace separates this token from the previous one.
    pub space_before: bool,
}

pub(crate) fn err(message: impl Into<String>, start: usize, end: usize) -> UnitError {
    UnitError {
        message: message.into(),
        offset: start,
        len: end - start,
        suggestion: None,
    }
}

/// Characters that may form a unit symbol.
pub(crate) fn is_symbol_char(c: char) -> bool {
    c.is_alphabetic() || matches!(c, '_' | '°' | '%' | '℃' | '℉')
}

/// Fold look-alike code points: µ (U+00B5) → μ (U+03BC), Å (U+212B) → Å (U+00C5),
/// Ω (U+2126) → Ω (U+03A9), K (U+212A) → K, ℃ → °C, ℉ → °F.
pub(crate) fn fold_symbol(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\u{00B5}' => out.push('\u{03BC}'),
            '\u{212B}' => out.push('\u{00C5}'),
            '\u{2126}' => out.push('\u{03A9}'),
            '\u{212A}' => out.push('K'),
            '\u{2103}' => out.push_str("°C"),
            '\u{2109}' => out.push_str("°F"),
            c => out.push(c),
        }
    }
    out
}

fn superscript_digit(c: char) -> Option<u32> {
    Some(match c {
        '⁰' => 0,
        '¹' => 1,
        '²' => 2,
        '³' => 3,
        '⁴' => 4,
        '⁵' => 5,
        '⁶' => 6,
        '⁷' => 7,
        '⁸' => 8,
        '⁹' => 9,
        _ => return None,
    })
}

struct Lexer<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    fn peek_at(&self, byte_off: usize) -> Option<char> {
        self.s.get(self.pos + byte_off..)?.chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
        self.pos > start
    }

    /// Exponent after `^` or `**` (operator already consumed; `op_start` is its start).
    fn exponent(&mut self, op_start: usize) -> Result<i32, UnitError> {
        self.skip_ws();
        let paren = self.peek() == Some('(');
        if paren {
            self.bump();
            self.skip_ws();
        }
        let num_start = self.pos;
        let negative = match self.peek() {
            Some('-' | '−') => {
                self.bump();
                true
            }
            Some('+') => {
                self.bump();
                false
            }
            _ => false,
        };
        let digits_start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        if self.pos == digits_start {
            return Err(err(
                "missing exponent: expected an integer after the power operator",
                op_start,
                self.pos.max(op_start + 1),
            ));
        }
        let digits_end = self.pos;
        let fractional = match self.peek() {
            Some('.') => self.peek_at(1).is_some_and(|c| c.is_ascii_digit()),
            Some('/') => paren,
            _ => false,
        };
        if fractional {
            self.bump();
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
            return Err(err(
                "fractional exponents are not supported",
                num_start,
                self.pos,
            ));
        }
        if paren {
            self.skip_ws();
            if self.peek() != Some(')') {
                return Err(err("unclosed '(' in exponent", op_start, self.pos));
            }
            self.bump();
        }
        let magnitude: i64 = self.s[digits_start..digits_end].parse().unwrap_or(i64::MAX);
        if magnitude > MAX_LITERAL_EXPONENT {
            return Err(err("exponent overflow", num_start, digits_end));
        }
        let m = magnitude as i32;
        Ok(if negative { -m } else { m })
    }

    fn superscript(&mut self) -> Result<i32, UnitError> {
        let start = self.pos;
        let negative = match self.peek() {
            Some('⁻') => {
                self.bump();
                true
            }
            Some('⁺') => {
                self.bump();
                false
            }
            _ => false,
        };
        let mut value: i64 = 0;
        let mut any = false;
        while let Some(d) = self.peek().and_then(superscript_digit) {
            self.bump();
            any = true;
            value = (value * 10 + i64::from(d)).min(i64::from(i32::MAX));
        }
        if !any {
            return Err(err(
                "missing superscript digits after the sign",
                start,
                self.pos,
            ));
        }
        if value > MAX_LITERAL_EXPONENT {
            return Err(err("exponent overflow", start, self.pos));
        }
        let v = value as i32;
        Ok(if negative { -v } else { v })
    }

    fn number(&mut self) -> Result<Tok, UnitError> {
        let start = self.pos;
        let bytes = self.s.as_bytes();
        let mut i = self.pos;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        }
        if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
            let mut j = i + 1;
            if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
                j += 1;
            }
            if j < bytes.len() && bytes[j].is_ascii_digit() {
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                i = j;
            }
        }
        self.pos = i;
        match parse_decimal(&self.s[start..i]) {
            Some(sc) if sc.mant > 0.0 => Ok(Tok::Num(sc)),
            Some(_) => Err(err("a numeric factor must be positive", start, i)),
            None => Err(err("malformed number", start, i)),
        }
    }
}

/// Split `s` into tokens. Errors: unexpected characters, malformed exponents, numbers.
pub(crate) fn lex(s: &str) -> Result<Vec<Token>, UnitError> {
    let mut lx = Lexer { s, pos: 0 };
    let mut out = Vec::new();
    loop {
        let space_before = lx.skip_ws();
        let start = lx.pos;
        let Some(c) = lx.peek() else { break };
        let tok = match c {
            '0'..='9' => lx.number()?,
            '.' if lx.peek_at(1).is_some_and(|c| c.is_ascii_digit()) => lx.number()?,
            '*' if lx.peek_at(1) == Some('*') => {
                lx.pos += 2;
                Tok::Pow(lx.exponent(start)?)
            }
            '^' => {
                lx.bump();
                Tok::Pow(lx.exponent(start)?)
            }
            '*' | '·' | '⋅' | '.' | '×' => {
                lx.bump();
                Tok::Mul
            }
            '/' => {
                lx.bump();
                Tok::Div
            }
            '(' => {
                lx.bump();
                Tok::LParen
            }
            ')' => {
                lx.bump();
                Tok::RParen
            }
            c if superscript_digit(c).is_some() || c == '⁻' || c == '⁺' => {
                Tok::Pow(lx.superscript()?)
            }
            c if is_symbol_char(c) => {
                let rest = &s[start..];
                // "f.u." (or "f.u") is one symbol even though it contains dots.
                if rest.starts_with("f.u.") {
                    lx.pos += 4;
                } else if rest.starts_with("f.u")
                    && !rest[3..].starts_with(|c: char| is_symbol_char(c))
                {
                    lx.pos += 3;
                } else {
                    while lx.peek().is_some_and(is_symbol_char) {
                        lx.bump();
                    }
                }
                let text = &s[start..lx.pos];
                if text.starts_with("f.u") {
                    Tok::Sym("f.u.".to_string())
                } else {
                    Tok::Sym(fold_symbol(text))
                }
            }
            c => {
                return Err(err(
                    format!("unexpected character '{c}'"),
                    start,
                    start + c.len_utf8(),
                ));
            }
        };
        out.push(Token {
            tok,
            start,
            end: lx.pos,
            space_before,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    fn sym(s: &str) -> Tok {
        Tok::Sym(s.to_string())
    }

    #[test]
    fn basic_tokens() {
        assert_eq!(kinds("eV/atom"), vec![sym("eV"), Tok::Div, sym("atom")]);
        assert_eq!(kinds("Å³"), vec![sym("Å"), Tok::Pow(3)]);
        assert_eq!(kinds("m⁻³"), vec![sym("m"), Tok::Pow(-3)]);
        assert_eq!(kinds("m ** -3"), vec![sym("m"), Tok::Pow(-3)]);
        assert_eq!(kinds("m^(-1)"), vec![sym("m"), Tok::Pow(-1)]);
        assert_eq!(kinds("m^−1"), vec![sym("m"), Tok::Pow(-1)]);
        assert_eq!(
            kinds("10²¹V"),
            vec![Tok::Num(Scale::new(1.0, 1)), Tok::Pow(21), sym("V")]
        );
        assert_eq!(kinds("μB/f.u."), vec![sym("μB"), Tok::Div, sym("f.u.")]);
        assert_eq!(kinds("N.m"), vec![sym("N"), Tok::Mul, sym("m")]);
        assert_eq!(
            kinds("1e21 V"),
            vec![Tok::Num(Scale::new(1.0, 21)), sym("V")]
        );
        assert_eq!(kinds("2e"), vec![Tok::Num(Scale::new(2.0, 0)), sym("e")]);
    }

    #[test]
    fn folds_lookalikes() {
        assert_eq!(kinds("\u{00B5}m"), vec![sym("\u{03BC}m")]);
        assert_eq!(kinds("\u{212B}"), vec![sym("\u{00C5}")]);
        assert_eq!(kinds("k\u{2126}"), vec![sym("k\u{03A9}")]);
    }

    #[test]
    fn spans_and_spacing() {
        let t = lex("kg  m").unwrap();
        assert_eq!((t[1].start, t[1].end, t[1].space_before), (4, 5, true));
        let t = lex("Å^3").unwrap();
        assert_eq!((t[0].start, t[0].end), (0, 2));
        assert_eq!((t[1].start, t[1].end), (2, 4));
    }

    #[test]
    fn lexer_errors() {
        let e = lex("m^").unwrap_err();
        assert_eq!((e.offset, e.len), (1, 1));
        let e = lex("m^0.5").unwrap_err();
        assert_eq!(e.message, "fractional exponents are not supported");
        assert_eq!((e.offset, e.len), (2, 3));
        let e = lex("m^(1/2)").unwrap_err();
        assert_eq!(e.message, "fractional exponents are not supported");
        let e = lex("m^99999").unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.offset, e.len),
            ("exponent overflow", 2, 5)
        );
        let e = lex("m$").unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.offset, e.len),
            ("unexpected character '$'", 1, 1)
        );
        let e = lex("0 m").unwrap_err();
        assert_eq!((e.offset, e.len), (0, 1));
    }
}
