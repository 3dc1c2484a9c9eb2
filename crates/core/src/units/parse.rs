//! Recursive-descent parser for the unit grammar and the canonical spelling.
//!
//! ```text
//! expr    := term ( op term )*          op: '·' '⋅' '*' '.' '×' '/' or juxtaposition
//! term    := primary power?
//! primary := number | symbol | '(' expr ')'
//! power   := '^' int | '^(' int ')' | '**' int | superscripts   (int may carry + - −)
//! ```
//!
//! Products and quotients share one precedence level and associate left to right, so
//! `a/b/c` = `(a/b)/c` = `a/(b·c)`. A product *after* a `/` in the same group (`W/m·K`,
//! `J/mol K`) is rejected as ambiguous: write `W/(m·K)` or `(W/m)·K`. A number may not
//! follow `/` (so `m^1/2` cannot silently mean `m/2`), and a symbol may not be followed
//! directly by digits (`m2`; write `m^2`).

use super::dimension::Dimension;
use super::lex::{self, Tok, Token, err};
use super::scale::Scale;
use super::table::UnitTable;
use super::{Unit, UnitError, normalise_published};

/// A symbol raised to an exponent, with its resolved value.
#[derive(Clone, Debug)]
struct Term {
    sym: String,
    exp: i32,
    scale: Scale,
    /// The zero point of an offset scale (°C, °F), else 0.
    offset: f64,
}

/// A partial product: numeric literals, symbol terms (first-appearance order), dimension.
#[derive(Clone, Debug)]
struct Acc {
    num: Scale,
    terms: Vec<Term>,
    dim: Dimension,
    /// Byte span of the first offset-scale symbol (°C, °F) in the input.
    affine: Option<(usize, usize)>,
}

const OVERFLOW: &str = "exponent overflow";

impl Acc {
    fn one() -> Acc {
        Acc {
            num: Scale::ONE,
            terms: Vec::new(),
            dim: Dimension::DIMENSIONLESS,
            affine: None,
        }
    }

    /// The zero point when the whole unit is one offset scale standing alone (`°C`, not
    /// `°C/min`, `°C^2` or `2 °C`): then a value is an absolute temperature. Anywhere else the
    /// scale stands for its degree size (a difference), so the unit has no offset.
    fn offset(&self) -> f64 {
        match &self.terms[..] {
            [t] if t.exp == 1 && self.num == Scale::ONE => t.offset,
            _ => 0.0,
        }
    }

    fn mul(mut self, o: Acc) -> Option<Acc> {
        self.affine = self.affine.or(o.affine);
        self.num = self.num.mul(o.num)?;
        self.dim = self.dim.checked_mul(&o.dim)?;
        for t in o.terms {
            match self.terms.iter_mut().find(|x| x.sym == t.sym) {
                Some(x) => x.exp = x.exp.checked_add(t.exp)?,
                None => self.terms.push(t),
            }
        }
        self.terms.retain(|t| t.exp != 0);
        Some(self)
    }

    fn powi(mut self, n: i32) -> Option<Acc> {
        self.num = self.num.powi(n)?;
        self.dim = self.dim.checked_powi(n)?;
        for t in &mut self.terms {
            t.exp = t.exp.checked_mul(n)?;
        }
        self.terms.retain(|t| t.exp != 0);
        Some(self)
    }

    fn total_scale(&self) -> Option<Scale> {
        let mut s = self.num;
        for t in &self.terms {
            s = s.mul(t.scale.powi(t.exp)?)?;
        }
        Some(s)
    }

    fn render(&self) -> String {
        let fmt_term = |t: &Term, e: i32| {
            if e == 1 {
                t.sym.clone()
            } else {
                format!("{}^{e}", t.sym)
            }
        };
        let numer: Vec<String> = self
            .terms
            .iter()
            .filter(|t| t.exp > 0)
            .map(|t| fmt_term(t, t.exp))
            .collect();
        let denom: Vec<String> = self
            .terms
            .iter()
            .filter(|t| t.exp < 0)
            .map(|t| fmt_term(t, -t.exp))
            .collect();
        let number = render_number(self.num);
        let mut out = match (number, numer.is_empty()) {
            (None, true) => "1".to_string(),
            (None, false) => numer.join("·"),
            (Some(n), true) => n,
            (Some(n), false) => format!("{n} {}", numer.join("·")),
        };
        match denom.len() {
            0 => {}
            1 => {
                out.push('/');
                out.push_str(&denom[0]);
            }
            _ => {
                out.push_str("/(");
                out.push_str(&denom.join("·"));
                out.push(')');
            }
        }
        out
    }
}

/// Canonical spelling of a numeric factor: none for 1, `10^n` for exact powers of ten,
/// otherwise the shortest round-trip decimal (exponent form outside 1e-4..1e15).
fn render_number(n: Scale) -> Option<String> {
    if n == Scale::ONE {
        return None;
    }
    if n.mant == 1.0 {
        return Some(if n.p10 == 1 {
            "10".to_string()
        } else {
            format!("10^{}", n.p10)
        });
    }
    let v = n.to_f64()?;
    Some(if (1e-4..1e15).contains(&v) {
        format!("{v}")
    } else {
        format!("{v:e}")
    })
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    table: &'a UnitTable,
    /// Byte range of the first unknown symbol, for the published-spelling repair loop.
    unknown: Option<(usize, usize)>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    /// The token's source text, quoted, for messages.
    fn quote(&self, t: &Token) -> String {
        format!("'{}'", &self.src[t.start..t.end])
    }

    /// The canonical form of `repaired`, when it parses: used as a whole-input suggestion.
    fn repair(&self, repaired: String) -> Option<String> {
        self.table.parse(&repaired).ok().map(|u| u.canonical)
    }

    /// The byte offset where the group containing token `from` ends (its ')' or the input end).
    fn group_end(&self, from: usize) -> usize {
        let mut depth = 0usize;
        for t in &self.toks[from..] {
            match t.tok {
                Tok::LParen => depth += 1,
                Tok::RParen if depth == 0 => return t.start,
                Tok::RParen => depth -= 1,
                _ => {}
            }
        }
        self.src.len()
    }

    fn expr(&mut self, depth: usize) -> Result<Acc, UnitError> {
        let mut acc = self.term(None)?;
        // Byte offset just past the most recent '/' of this group.
        let mut last_div_end: Option<usize> = None;
        while let Some(t) = self.peek().cloned() {
            match t.tok {
                Tok::RParen => {
                    if depth == 0 {
                        return Err(err("unmatched ')'", t.start, t.end));
                    }
                    break;
                }
                Tok::Pow(_) => {
                    return Err(err(
                        "double exponent: parenthesise the base, e.g. (m^2)^3",
                        t.start,
                        t.end,
                    ));
                }
                Tok::Div => {
                    self.pos += 1;
                    if let Some(n) = self.peek()
                        && matches!(n.tok, Tok::Num(_))
                    {
                        return Err(err(
                            "a number cannot follow '/': put numeric factors in front, e.g. 10^-3 J",
                            n.start,
                            n.end,
                        ));
                    }
                    let rhs = self.term(Some(&t))?;
                    acc = acc
                        .mul(rhs.powi(-1).ok_or_else(|| err(OVERFLOW, t.start, t.end))?)
                        .ok_or_else(|| err(OVERFLOW, t.start, self.prev_end()))?;
                    last_div_end = Some(t.end);
                }
                Tok::Mul | Tok::Num(_) | Tok::Sym(_) | Tok::LParen => {
                    let implicit = !matches!(t.tok, Tok::Mul);
                    if implicit
                        && !t.space_before
                        && matches!(t.tok, Tok::Num(_))
                        && matches!(self.toks[self.pos - 1].tok, Tok::Sym(_))
                    {
                        let mut e = err("missing '^' before the exponent", t.start, t.end);
                        e.suggestion = self.repair(format!(
                            "{}^{}",
                            &self.src[..t.start],
                            &self.src[t.start..]
                        ));
                        return Err(e);
                    }
                    // An unknown symbol after '/' is reported as unknown (`kg/m^3x`), not as an
                    // ambiguous product: parsing it as a factor says so.
                    let unknown_symbol =
                        matches!(&t.tok, Tok::Sym(s) if self.table.resolve(s).is_none());
                    if let Some(slash) = last_div_end.filter(|_| !unknown_symbol) {
                        let end = self.group_end(self.pos);
                        let mut e = if implicit {
                            err(
                                "ambiguous product after '/': use parentheses, e.g. a/(b·c) or (a/b)·c",
                                t.start,
                                t.end,
                            )
                        } else {
                            err(
                                "ambiguous '·' after '/': use parentheses, e.g. a/(b·c) or (a/b)·c",
                                t.start,
                                t.end,
                            )
                        };
                        e.suggestion = self.repair(format!(
                            "{}({}){}",
                            &self.src[..slash],
                            &self.src[slash..end],
                            &self.src[end..]
                        ));
                        return Err(e);
                    }
                    if !implicit {
                        self.pos += 1;
                    }
                    let rhs = self.term(if implicit { None } else { Some(&t) })?;
                    acc = acc
                        .mul(rhs)
                        .ok_or_else(|| err(OVERFLOW, t.start, self.prev_end()))?;
                }
            }
        }
        Ok(acc)
    }

    fn prev_end(&self) -> usize {
        self.toks[self.pos - 1].end
    }

    /// One operand with an optional power. `op` is the operator before it, for "dangling"
    /// messages.
    fn term(&mut self, op: Option<&Token>) -> Result<Acc, UnitError> {
        let Some(t) = self.peek().cloned() else {
            let (s, e) = op.map_or((0, self.src.len()), |o| (o.start, o.end));
            let what = op.map_or("operator".to_string(), |o| self.quote(o));
            return Err(err(
                format!("dangling {what}: expected a unit after it"),
                s,
                e,
            ));
        };
        let mut acc = match &t.tok {
            Tok::Num(n) => {
                self.pos += 1;
                Acc {
                    num: *n,
                    ..Acc::one()
                }
            }
            Tok::Sym(s) => {
                self.pos += 1;
                let Some(r) = self.table.resolve(s) else {
                    self.unknown.get_or_insert((t.start, t.end));
                    let text = &self.src[t.start..t.end];
                    let mut e = err(format!("unknown unit symbol '{text}'"), t.start, t.end);
                    e.suggestion = self.table.suggest(s);
                    return Err(e);
                };
                let mut a = Acc {
                    num: Scale::ONE,
                    terms: Vec::new(),
                    dim: r.dim,
                    affine: (r.offset != 0.0).then_some((t.start, t.end)),
                };
                if r.canonical.is_empty() {
                    a.num = r.scale;
                } else {
                    a.terms.push(Term {
                        sym: r.canonical,
                        exp: 1,
                        scale: r.scale,
                        offset: r.offset,
                    });
                }
                a
            }
            Tok::LParen => {
                self.pos += 1;
                if let Some(n) = self.peek()
                    && n.tok == Tok::RParen
                {
                    return Err(err("empty parentheses", t.start, n.end));
                }
                let inner = self.expr(1)?;
                match self.peek() {
                    Some(n) if n.tok == Tok::RParen => self.pos += 1,
                    _ => {
                        let mut e = err("unclosed '('", t.start, t.end);
                        e.suggestion = self.repair(format!("{})", self.src));
                        return Err(e);
                    }
                }
                inner
            }
            other => {
                let mut e = match op {
                    Some(o) => err(
                        format!(
                            "unexpected {} after {}: expected a unit",
                            self.quote(&t),
                            self.quote(o)
                        ),
                        t.start,
                        t.end,
                    ),
                    None => err(
                        format!("unexpected {}: expected a unit before it", self.quote(&t)),
                        t.start,
                        t.end,
                    ),
                };
                if op.is_none() && t.start == 0 && *other == Tok::Div {
                    e.suggestion = self.repair(format!("1{}", self.src));
                }
                return Err(e);
            }
        };
        if let Some(p) = self.peek().cloned()
            && let Tok::Pow(n) = p.tok
        {
            self.pos += 1;
            acc = acc.powi(n).ok_or_else(|| err(OVERFLOW, p.start, p.end))?;
        }
        Ok(acc)
    }
}

/// A parsed unit before its scale is turned into a factor.
pub(crate) struct Scaled {
    pub scale: Scale,
    pub dim: Dimension,
    pub canonical: String,
    /// See [`Unit::offset`].
    pub offset: f64,
    /// Byte span of the first offset-scale symbol, wherever it stands.
    pub affine: Option<(usize, usize)>,
}

fn finish(acc: &Acc, s: &str) -> Result<Scaled, UnitError> {
    let scale = acc
        .total_scale()
        .filter(|sc| sc.to_f64().is_some())
        .ok_or_else(|| err("numeric scale out of range", 0, s.len()))?;
    Ok(Scaled {
        scale,
        dim: acc.dim,
        canonical: acc.render(),
        offset: acc.offset(),
        affine: acc.affine,
    })
}

fn to_unit(p: Scaled, s: &str) -> Result<Unit, UnitError> {
    let factor = p
        .scale
        .to_f64()
        .ok_or_else(|| err("numeric scale out of range", 0, s.len()))?;
    Ok(Unit {
        factor,
        dim: p.dim,
        canonical: p.canonical,
        offset: p.offset,
    })
}

impl UnitTable {
    /// Parse into (exact scale, dimension, canonical spelling), reporting the first unknown
    /// symbol's span alongside any error.
    fn parse_inner(&self, s: &str) -> Result<Acc, (UnitError, Option<(usize, usize)>)> {
        let toks = lex::lex(s).map_err(|e| (e, None))?;
        if toks.is_empty() {
            return Err((err("empty unit string", 0, s.len()), None));
        }
        let mut p = Parser {
            src: s,
            toks,
            pos: 0,
            table: self,
            unknown: None,
        };
        match p.expr(0) {
            Ok(acc) => Ok(acc),
            Err(e) => Err((e, p.unknown)),
        }
    }

    /// Parse to the exact scale, dimension and canonical spelling (used for extensions).
    pub(crate) fn parse_scaled(&self, s: &str) -> Result<Scaled, UnitError> {
        // Unit strings are Unicode-normalised (NFC) like ids: a decomposed `Å` (A + U+030A) is
        // the ångström. Error offsets then cover the whole input (they would not map back).
        if !s.is_ascii() {
            use unicode_normalization::UnicodeNormalization;
            let nfc: String = s.nfc().collect();
            if nfc != s {
                return self.parse_scaled(&nfc).map_err(|mut e| {
                    e.offset = 0;
                    e.len = s.len();
                    e
                });
            }
        }
        let acc = self.parse_inner(s).map_err(|(e, _)| e)?;
        finish(&acc, s)
    }

    /// Parse a declared unit (the schema author's spelling; canonical or an unambiguous
    /// variant) in the unit grammar:
    ///
    /// * symbols from this table, with SI prefixes where allowed; µ/μ and Å/Å are the same;
    /// * products `·` `⋅` `*` `.` `×` or whitespace/juxtaposition, quotients `/`, groups `( )`;
    /// * powers `^2`, `^-1`, `^(-1)`, `**3`, superscripts `³` `⁻³`;
    /// * numeric factors anywhere a unit may stand (`10^21 V/m^2`, `1e21 V/m^2`, `10²¹V/m^2`,
    ///   `1/m^3`), but not right after `/`;
    /// * left to right: `a/b/c` = `(a/b)/c`; a product after `/` in one group is an error.
    ///
    /// Returns the coherent-SI factor, the dimension and the canonical spelling (see [`Unit`]).
    /// Errors carry the byte span of the bad token and, where one is found, a suggestion: a
    /// known symbol for unknown symbols, or the canonical form of a repaired whole input
    /// ("m2" → "m^2", "W/m·K" → "W/(m·K)", "/s" → "1/s"). Error cases: empty input, unknown
    /// symbols, dangling or leading operators, unbalanced or empty parentheses, missing,
    /// fractional or overflowing exponents (dimension exponents must fit in `i8`), numeric
    /// factors that are zero or out of f64 range.
    pub fn parse(&self, s: &str) -> Result<Unit, UnitError> {
        let p = self.parse_scaled(s)?;
        to_unit(p, s)
    }

    /// Parse a provider's published spelling: first [`normalise_published`], then
    /// [`UnitTable::parse`]. When a symbol is still unknown, a unique case-insensitive match
    /// in this table replaces it ("ev" → "eV", "gpa" → "GPa"; "mpa" stays an error because
    /// MPa and mPa both match) and parsing is retried.
    ///
    /// Errors: when normalisation changed the spelling, the span covers the whole input and the
    /// message quotes the normalised form (the bad token's offsets would not map back);
    /// otherwise the span is precise as for [`UnitTable::parse`].
    pub fn parse_published(&self, s: &str) -> Result<Unit, UnitError> {
        use unicode_normalization::UnicodeNormalization;
        let mut norm = normalise_published(&s.nfc().collect::<String>());
        let mut last_err = None;
        for _ in 0..8 {
            match self.parse_inner(&norm) {
                Ok(acc) => {
                    return finish(&acc, &norm).and_then(|p| to_unit(p, &norm));
                }
                Err((e, unknown)) => {
                    let fix = unknown.and_then(|(a, b)| {
                        let tok = lex::fold_symbol(&norm[a..b]);
                        self.case_fold_fix(&tok).map(|f| (a, b, f))
                    });
                    last_err = Some(e);
                    match fix {
                        Some((a, b, f)) => norm.replace_range(a..b, &f),
                        None => break,
                    }
                }
            }
        }
        let mut e = last_err.expect("loop ran at least once");
        if norm != s {
            e.message = format!("{} (in normalised spelling '{norm}')", e.message);
            e.offset = 0;
            e.len = s.len();
        }
        Err(e)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn decomposed_and_composed_spellings_are_one_unit() {
        let t = crate::units::UnitTable::builtin();
        let nfc = t.parse("\u{00C5}^3").unwrap();
        let nfd = t.parse("A\u{030A}^3").unwrap();
        assert_eq!(nfc.canonical, nfd.canonical);
        assert_eq!(
            t.parse_published("A\u{030A}").unwrap().canonical,
            t.parse("\u{00C5}").unwrap().canonical
        );
        // An error in a decomposed spelling covers the whole input.
        let e = t.parse("A\u{030A}/qq").unwrap_err();
        assert_eq!((e.offset, e.len), (0, "A\u{030A}/qq".len()));
    }

    use super::*;

    fn t() -> UnitTable {
        UnitTable::builtin()
    }

    fn canon(s: &str) -> String {
        t().parse(s)
            .unwrap_or_else(|e| panic!("{s}: {e:?}"))
            .canonical
    }

    fn fail(s: &str) -> UnitError {
        t().parse(s).unwrap_err()
    }

    fn d(name: &str) -> Dimension {
        Dimension::from_name(name).unwrap()
    }

    #[test]
    fn canonical_spellings() {
        assert_eq!(canon("Å³"), "Å^3");
        assert_eq!(canon("\u{212B}^3"), "Å^3");
        assert_eq!(canon("kg/m^3"), "kg/m^3");
        assert_eq!(canon("kg m^-3"), "kg/m^3");
        assert_eq!(canon("kg·m⁻³"), "kg/m^3");
        assert_eq!(canon("1/m^3"), "1/m^3");
        assert_eq!(canon("m^-3"), "1/m^3");
        assert_eq!(canon("W/(m·K)"), "W/(m·K)");
        assert_eq!(canon("W/(m*K)"), "W/(m·K)");
        assert_eq!(canon("W/m/K"), "W/(m·K)");
        assert_eq!(canon("eV/atom"), "eV/atom");
        assert_eq!(canon("eV.atom^-1"), "eV/atom");
        assert_eq!(canon("g/cm^3"), "g/cm^3");
        assert_eq!(canon("\u{00B5}B"), "μB");
        assert_eq!(canon("μB/fu"), "μB/f.u.");
        assert_eq!(canon("μB/formula_unit"), "μB/f.u.");
        assert_eq!(canon("μB/f.u"), "μB/f.u.");
        assert_eq!(canon("m·m"), "m^2");
        assert_eq!(canon("m/m"), "1");
        assert_eq!(canon("1"), "1");
        assert_eq!(canon("dimensionless"), "1");
        assert_eq!(canon("%"), "%");
        assert_eq!(canon("10^21 V/m^2"), "10^21 V/m^2");
        assert_eq!(canon("1e21 V/m^2"), "10^21 V/m^2");
        assert_eq!(canon("10²¹V/m^2"), "10^21 V/m^2");
        assert_eq!(canon("10^21/m^2"), "10^21/m^2");
        assert_eq!(canon("0.529177210903 Å"), "0.529177210903 Å");
        assert_eq!(canon("2 3 m"), "6 m");
        assert_eq!(canon("10 m"), "10 m");
        assert_eq!(canon("1e-3"), "10^-3");
        assert_eq!(canon("1.5e21 m"), "1.5e21 m");
        assert_eq!(canon("(m/s)^2"), "m^2/s^2");
        assert_eq!(canon("μW/(m·K²)"), "μW/(m·K^2)");
        assert_eq!(canon("kohm"), "kΩ");
        assert_eq!(canon("°"), "deg");
        assert_eq!(canon("amu"), "u");
        assert_eq!(canon("mₑ"), "m_e");
        assert_eq!(canon("m^0"), "1");
        assert_eq!(canon("N m"), "N·m");
        assert_eq!(canon("N.m"), "N·m");
        assert_eq!(canon("m ** 3"), "m^3");
        assert_eq!(canon("s^(-1)"), "1/s");
        assert_eq!(canon("J/mol/K"), "J/(mol·K)");
        assert_eq!(canon("(J/mol)·K"), "J·K/mol");
    }

    #[test]
    fn canonical_round_trips() {
        for s in [
            "Å³",
            "10^21 V/m^2",
            "0.529177210903 Å",
            "μW/(m·K²)",
            "1/m^3",
            "eV/Å^2",
            "1.5e21 m",
            "kg·m/s^2",
            "%",
            "dimensionless",
            "2e-7 m",
        ] {
            let u = t().parse(s).unwrap();
            let again = t().parse(&u.canonical).unwrap();
            assert_eq!(again, u, "{s}");
        }
    }

    #[test]
    fn dimensions_and_factors() {
        let u = t().parse("eV/atom").unwrap();
        assert_eq!(u.dim, d("energy_per_atom"));
        assert_eq!(u.factor, 1.602176634e-19);
        assert_eq!(t().parse("GPa").unwrap().factor, 1e9);
        assert_eq!(t().parse("Å^3").unwrap().factor, 1e-30);
        assert_eq!(t().parse("g/cm^3").unwrap().factor, 1000.0);
        assert_eq!(t().parse("kg").unwrap().factor, 1.0);
        assert_eq!(
            t().parse("deg").unwrap().factor,
            std::f64::consts::PI / 180.0
        );
        assert_eq!(t().parse("meV").unwrap().factor, 1.602176634e-22);
        assert_eq!(t().parse("h").unwrap().factor, 3600.0);
        assert_eq!(t().parse("min").unwrap().factor, 60.0);
        assert_eq!(t().parse("atm").unwrap().factor, 101325.0);
        assert_eq!(t().parse("kbar").unwrap().factor, 1e8);
        assert_eq!(t().parse("%").unwrap().factor, 0.01);
        assert_eq!(t().parse("ppm").unwrap().factor, 1e-6);
        assert_eq!(t().parse("mL").unwrap().factor, 1e-6);
        assert_eq!(t().parse("10^21 V/m^2").unwrap().factor, 1e21);
        assert_eq!(t().parse("eV/Å^2").unwrap().factor, 16.02176634);
        assert_eq!(t().parse("μB").unwrap().factor, 9.2740100783e-24);
        assert_eq!(t().parse("m_e").unwrap().factor, 9.1093837015e-31);
        assert_eq!(t().parse("kB").unwrap().factor, 1.380649e-23);
        assert_eq!(t().parse("e").unwrap().factor, 1.602176634e-19);
        assert_eq!(t().parse("Da").unwrap().factor, 1.66053906660e-27);
        assert_eq!(t().parse("kDa").unwrap().factor, 1.66053906660e-24);
        assert_eq!(t().parse("Hz").unwrap().dim, d("frequency"));
        assert_eq!(t().parse("rad/s").unwrap().dim, d("angular_velocity"));
        assert_eq!(t().parse("sr").unwrap().dim, d("solid_angle"));
        assert_eq!(
            t().parse("kB/cell").unwrap().dim,
            d("heat_capacity_per_cell")
        );
        assert_eq!(t().parse("Å^3/atom").unwrap().dim, d("volume_per_atom"));
        assert_eq!(t().parse("eV/cell").unwrap().dim, d("energy_per_cell"));
        assert_eq!(t().parse("N·m").unwrap().dim, d("energy"));
        assert_eq!(t().parse("J/T").unwrap().dim, d("magnetic_moment"));
        assert_eq!(
            t().parse("V/m^2").unwrap().dim,
            d("electric_field_gradient")
        );
        assert_eq!(t().parse("S/m").unwrap().dim, d("electrical_conductivity"));
        assert_eq!(t().parse("Ω·m").unwrap().dim, d("electrical_resistivity"));
        assert_eq!(t().parse("C/m^2").unwrap().dim, d("polarization"));
        assert_eq!(t().parse("cm^2/(V·s)").unwrap().dim, d("carrier_mobility"));
        assert_eq!(t().parse("Wb").unwrap().dim, t().parse("V·s").unwrap().dim);
        assert_eq!(
            t().parse("T").unwrap().dim,
            t().parse("Wb/m^2").unwrap().dim
        );
        assert_eq!(t().parse("H").unwrap().dim, t().parse("Wb/A").unwrap().dim);
        assert_eq!(t().parse("F").unwrap().dim, t().parse("C/V").unwrap().dim);
        assert_eq!(t().parse("S").unwrap().dim, t().parse("A/V").unwrap().dim);
        assert_eq!(t().parse("W").unwrap().dim, t().parse("J/s").unwrap().dim);
        assert_eq!(
            t().parse("Pa").unwrap().dim,
            t().parse("N/m^2").unwrap().dim
        );
        assert_eq!(
            t().parse("J").unwrap().dim,
            t().parse("kg·m^2/s^2").unwrap().dim
        );
        assert_eq!(t().parse("eV").unwrap().dim, t().parse("e·V").unwrap().dim);
        assert_eq!(t().parse("μB").unwrap().dim, t().parse("J/T").unwrap().dim);
        assert_eq!(t().parse("1").unwrap().dim, Dimension::DIMENSIONLESS);
    }

    fn check_err(s: &str, msg: &str, offset: usize, len: usize, sugg: Option<&str>) {
        let e = fail(s);
        assert_eq!(
            (e.message.as_str(), e.offset, e.len, e.suggestion.as_deref()),
            (msg, offset, len, sugg),
            "{s}"
        );
    }

    #[test]
    fn errors_with_spans_and_suggestions() {
        check_err("", "empty unit string", 0, 0, None);
        check_err("   ", "empty unit string", 0, 3, None);
        check_err("ev", "unknown unit symbol 'ev'", 0, 2, Some("eV"));
        check_err("kg/m^3x", "unknown unit symbol 'x'", 6, 1, None);
        check_err("gpa", "unknown unit symbol 'gpa'", 0, 3, Some("GPa"));
        check_err(
            "Angstrom",
            "unknown unit symbol 'Angstrom'",
            0,
            8,
            Some("Å"),
        );
        check_err("eV/Atom", "unknown unit symbol 'Atom'", 3, 4, Some("atom"));
        check_err(
            "Å^3/atoms",
            "unknown unit symbol 'atoms'",
            5,
            5,
            Some("atom"),
        );
        check_err("°Cx", "unknown unit symbol '°Cx'", 0, 4, Some("°C"));
        check_err("foo", "unknown unit symbol 'foo'", 0, 3, None);
        check_err("eV/", "dangling '/': expected a unit after it", 2, 1, None);
        check_err("m·", "dangling '·': expected a unit after it", 1, 2, None);
        check_err(
            "/s",
            "unexpected '/': expected a unit before it",
            0,
            1,
            Some("1/s"),
        );
        check_err(
            "m//s",
            "unexpected '/' after '/': expected a unit",
            2,
            1,
            None,
        );
        check_err("(m/s", "unclosed '('", 0, 1, Some("m/s"));
        check_err("W/(m·K", "unclosed '('", 2, 1, Some("W/(m·K)"));
        check_err("m/s)", "unmatched ')'", 3, 1, None);
        check_err("()", "empty parentheses", 0, 2, None);
        check_err(
            "m^",
            "missing exponent: expected an integer after the power operator",
            1,
            1,
            None,
        );
        check_err("m^200", OVERFLOW, 1, 4, None);
        check_err("m^100·m^100", OVERFLOW, 5, 7, None);
        check_err(
            "m^2^3",
            "double exponent: parenthesise the base, e.g. (m^2)^3",
            3,
            2,
            None,
        );
        check_err("m2", "missing '^' before the exponent", 1, 1, Some("m^2"));
        check_err(
            "g/cm3",
            "missing '^' before the exponent",
            4,
            1,
            Some("g/cm^3"),
        );
        check_err(
            "W/m·K",
            "ambiguous '·' after '/': use parentheses, e.g. a/(b·c) or (a/b)·c",
            3,
            2,
            Some("W/(m·K)"),
        );
        check_err(
            "J/mol K",
            "ambiguous product after '/': use parentheses, e.g. a/(b·c) or (a/b)·c",
            6,
            1,
            Some("J/(mol·K)"),
        );
        check_err(
            "(W/m K)/s",
            "ambiguous product after '/': use parentheses, e.g. a/(b·c) or (a/b)·c",
            5,
            1,
            Some("W/(m·K·s)"),
        );
        check_err(
            "m^1/2",
            "a number cannot follow '/': put numeric factors in front, e.g. 10^-3 J",
            4,
            1,
            None,
        );
        check_err("10^400 m", "numeric scale out of range", 0, 8, None);
        check_err("μ", "unknown unit symbol 'μ'", 0, 2, None);
    }

    #[test]
    fn published_repairs_case() {
        let tt = t();
        assert_eq!(tt.parse_published("ev/atom").unwrap().canonical, "eV/atom");
        assert_eq!(tt.parse_published("gpa").unwrap().canonical, "GPa");
        assert_eq!(tt.parse_published("uV/K").unwrap().canonical, "μV/K");
        assert_eq!(
            tt.parse_published("KeV/ATOM").unwrap().canonical,
            "keV/atom"
        );
        assert!(tt.parse_published("Ha").is_err());
        // After a repair, the error reported is the one left in the repaired spelling.
        let e = tt.parse_published("ev/").unwrap_err();
        assert_eq!(
            e.message,
            "dangling '/': expected a unit after it (in normalised spelling 'eV/')"
        );
        assert_eq!((e.offset, e.len), (0, 3));
        let e = tt.parse_published("mpa").unwrap_err();
        assert_eq!(
            (e.offset, e.len, e.suggestion.as_deref()),
            (0, 3, Some("MPa"))
        );
        assert_eq!(e.message, "unknown unit symbol 'mpa'");
        let e = tt.parse_published("&mu;<sub>X</sub>").unwrap_err();
        assert_eq!(
            e.message,
            "unknown unit symbol 'μ_X' (in normalised spelling 'μ_X')"
        );
        assert_eq!((e.offset, e.len), (0, 16));
    }
}
