//! Units and dimensions: parsing declared and published unit spellings, dimension algebra,
//! exact conversion factors, and published-vs-declared matching.
//!
//! * [`Dimension`] — exponents over 11 base dimensions (SI base dimensions, angle, and the
//!   count basis atom / formula_unit / cell), with names for concept declarations.
//! * [`UnitTable`] — built-in symbols plus project extensions; [`UnitTable::parse`] for the
//!   schema author's spelling, [`UnitTable::parse_published`] for a provider's.
//! * [`normalise_published`] — HTML, pint, word and typo repairs of published spellings.
//! * [`conversion_factor`], [`match_published`] — comparisons between parsed [`Unit`]s.
//!
//! Grammar summary (details on [`UnitTable::parse`]): products with `·` `*` `.` or a space,
//! quotients with `/` (left to right: `a/b/c` = `(a/b)/c`; a product after `/` must be
//! parenthesised), groups `( )`, powers `^n` `**n` and superscripts, and numeric factors
//! (`10^21 V/m^2`, `1e21 V/m^2`). Canonical spellings use `·`, `^n`, a single `/` with a
//! parenthesised denominator when it has several factors, symbols in order of first
//! appearance, μ as U+03BC and Å as U+00C5.

mod cache;
mod dimension;
mod lex;
mod parse;
mod published;
mod scale;
mod table;

pub use cache::{CachedUnit, UnitCache};
pub use dimension::Dimension;
pub use published::normalise_published;
pub use table::{UnitTable, is_offset_temperature};

use std::fmt;

/// A parsed unit: its coherent-SI factor, dimension and canonical spelling.
///
/// Two units are the same physical unit when `dim` is equal and `factor` agrees (see
/// [`match_published`]); `canonical` is for display and may differ between equal units
/// written differently (`N·m` and `m·N`).
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// Multiply a value in this unit by `factor` to get the coherent SI value (with angle in rad and counts as 1).
    pub factor: f64,
    /// The unit's dimension.
    pub dim: Dimension,
    /// Canonical spelling, e.g. "eV/atom", "Å^3", "g/cm^3", "μB", "kg/m^3", "1/m^3".
    pub canonical: String,
}

impl fmt::Display for Unit {
    /// The canonical spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical)
    }
}

/// A unit string that could not be parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitError {
    /// What is wrong, in one sentence (no trailing period), e.g. "unknown unit symbol 'ev'".
    pub message: String,
    /// Byte range inside the input string that is at fault: start offset.
    pub offset: usize,
    /// Byte range inside the input string that is at fault: length in bytes (0 for empty input).
    pub len: usize,
    /// "did you mean" candidate (a known unit symbol or the canonical form of the whole input).
    pub suggestion: Option<String>,
}

impl fmt::Display for UnitError {
    /// `message`, then ` (did you mean 'X'?)` when there is a suggestion.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(s) = &self.suggestion {
            write!(f, " (did you mean '{s}'?)")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnitError {}

/// Factor to convert a value in `from` into `to`, when dimensions are equal; None otherwise.
///
/// `value_in_to = value_in_from * factor`. The ratio `from.factor / to.factor` is snapped to
/// the exact power of ten when it lies within 4 ulp of one, so prefix-only conversions
/// (meV → eV = 1e-3, GPa → Pa = 1e9) are exact despite the rounding in each factor.
pub fn conversion_factor(from: &Unit, to: &Unit) -> Option<f64> {
    if from.dim != to.dim {
        return None;
    }
    let r = from.factor / to.factor;
    if !r.is_finite() || r <= 0.0 {
        return None;
    }
    let k = r.log10().round();
    if k.abs() <= 300.0 {
        let p: f64 = format!("1e{k}").parse().ok()?;
        if (r - p).abs() <= 4.0 * f64::EPSILON * p {
            return Some(p);
        }
    }
    Some(r)
}

/// Result of comparing a provider's published unit with the declared one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PublishedMatch {
    /// Same dimension and factor (relative tolerance 1e-12).
    Exact,
    /// The published unit omits the declared count basis ("μB" for declared "μB/cell") and
    /// otherwise agrees.
    ImplicitBasis,
    /// Different dimension or a different factor (e.g. meV vs eV: convert, don't equate).
    Mismatch,
}

fn same_factor(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// Compare a published unit to the declared one: Exact when same dimension and factor (relative 1e-12);
/// ImplicitBasis when the published unit has no count-basis exponents, the declared one has exactly one
/// count dimension with exponent -1, and they agree once that basis is removed (providers omit "per cell");
/// Mismatch otherwise.
///
/// Examples: declared μB/cell, published μB → ImplicitBasis; declared eV/atom, published eV →
/// ImplicitBasis; declared eV/atom, published eV/cell → Mismatch; declared eV, published meV →
/// Mismatch.
pub fn match_published(declared: &Unit, published: &Unit) -> PublishedMatch {
    if declared.dim == published.dim && same_factor(declared.factor, published.factor) {
        return PublishedMatch::Exact;
    }
    let basis = declared.dim.basis();
    let single_inverse_count =
        basis.0.iter().filter(|&&e| e != 0).count() == 1 && basis.0.contains(&-1);
    if published.dim.basis().is_dimensionless()
        && single_inverse_count
        && declared.dim.without_basis() == published.dim
        && same_factor(declared.factor, published.factor)
    {
        return PublishedMatch::ImplicitBasis;
    }
    PublishedMatch::Mismatch
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Unit {
        UnitTable::builtin().parse(s).unwrap()
    }

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    #[test]
    fn si_unit_spellings_parse_back_to_factor_one() {
        for (unit, si) in [
            ("eV", "m^2·kg/s^2"),
            ("eV/atom", "m^2·kg/(s^2·atom)"),
            ("GPa", "kg/(m·s^2)"),
            ("g/cm^3", "kg/m^3"),
            ("Å^3", "m^3"),
            ("μB/f.u.", "m^2·A/f.u."),
            ("1/cell", "1/cell"),
            ("deg", "rad"),
            ("kJ/mol", "m^2·kg/(s^2·mol)"),
            ("%", "1"),
        ] {
            let parsed = u(unit);
            assert_eq!(parsed.dim.si_unit(), si, "{unit}");
            let back = u(si);
            assert_eq!((back.factor, back.dim), (1.0, parsed.dim), "{si}");
        }
    }

    #[test]
    fn conversion_factors() {
        let cf = |a: &str, b: &str| conversion_factor(&u(a), &u(b)).unwrap();
        assert_eq!(cf("J", "eV"), 6.241509074460763e18);
        assert_eq!(cf("J", "eV"), 1.0 / 1.602176634e-19);
        assert_eq!(cf("GPa", "Pa"), 1e9);
        assert_eq!(cf("Pa", "GPa"), 1e-9);
        assert!(rel(cf("Å^3", "m^3"), 1e-30) < 1e-15);
        assert_eq!(cf("Å^3", "m^3"), 1e-30);
        assert_eq!(cf("g/cm^3", "kg/m^3"), 1000.0);
        assert_eq!(cf("deg", "rad"), std::f64::consts::PI / 180.0);
        assert_eq!(cf("meV/atom", "eV/atom"), 1e-3);
        assert_eq!(cf("eV/atom", "meV/atom"), 1e3);
        assert_eq!(cf("kbar", "GPa"), 0.1);
        assert_eq!(cf("eV", "eV"), 1.0);
        assert_eq!(cf("kJ/mol", "J/mol"), 1000.0);
        assert_eq!(cf("h", "s"), 3600.0);
        assert_eq!(cf("atm", "Pa"), 101325.0);
        assert!(rel(cf("eV/Å^3", "GPa"), 160.2176634) < 1e-15);
        assert!(rel(cf("μB", "J/T"), 9.2740100783e-24) < 1e-15);
        assert!(rel(cf("Da", "kg"), 1.66053906660e-27) < 1e-15);
        assert_eq!(conversion_factor(&u("eV"), &u("eV/atom")), None);
        assert_eq!(conversion_factor(&u("rad/s"), &u("Hz")), None);
    }

    #[test]
    fn published_matching() {
        let m = |d: &str, p: &str| match_published(&u(d), &u(p));
        assert_eq!(m("eV/atom", "eV/atom"), PublishedMatch::Exact);
        assert_eq!(m("W/(m·K)", "W/m/K"), PublishedMatch::Exact);
        assert_eq!(m("kg/m^3", "g/L"), PublishedMatch::Exact);
        assert_eq!(m("μB/cell", "μB"), PublishedMatch::ImplicitBasis);
        assert_eq!(m("eV/atom", "eV"), PublishedMatch::ImplicitBasis);
        assert_eq!(m("Å^3/atom", "Å^3"), PublishedMatch::ImplicitBasis);
        assert_eq!(m("eV/atom", "eV/cell"), PublishedMatch::Mismatch);
        assert_eq!(m("eV/atom", "meV"), PublishedMatch::Mismatch);
        assert_eq!(m("eV", "meV"), PublishedMatch::Mismatch);
        assert_eq!(m("eV", "eV/atom"), PublishedMatch::Mismatch);
        assert_eq!(m("eV/atom^2", "eV"), PublishedMatch::Mismatch);
        assert_eq!(m("eV/(atom·cell)", "eV"), PublishedMatch::Mismatch);
        assert_eq!(m("eV·atom", "eV"), PublishedMatch::Mismatch);
        assert_eq!(m("GPa", "eV"), PublishedMatch::Mismatch);
    }

    #[test]
    fn published_against_declared() {
        let t = UnitTable::builtin();
        let m = |d: &str, p: &str| {
            match_published(&t.parse(d).unwrap(), &t.parse_published(p).unwrap())
        };
        assert_eq!(m("μB/f.u.", "μB/f.u. ."), PublishedMatch::Exact);
        assert_eq!(
            m("μB/cell", "&mu;<sub>B</sub>"),
            PublishedMatch::ImplicitBasis
        );
        assert_eq!(
            m("Å^3/atom", "&Aring;<sup>3</sup>/atom"),
            PublishedMatch::Exact
        );
        assert_eq!(m("g/cm^3", "grams/cm<sup>3</sup>"), PublishedMatch::Exact);
        assert_eq!(m("W/(m·K)", "W/m*K"), PublishedMatch::Exact);
        assert_eq!(m("kg/m^3", "kg / m ** 3"), PublishedMatch::Exact);
        assert_eq!(m("eV/atom", "eV/Atom"), PublishedMatch::Exact);
    }

    #[test]
    fn error_display() {
        let e = UnitTable::builtin().parse("ev").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown unit symbol 'ev' (did you mean 'eV'?)"
        );
        assert_eq!(u("Å³").to_string(), "Å^3");
    }

    #[test]
    fn extension_units_parse_and_convert() {
        let mut defs = std::collections::BTreeMap::new();
        defs.insert("bohr".to_string(), "0.529177210903 Å".to_string());
        defs.insert("kcal".to_string(), "4184 J".to_string());
        defs.insert("Ry".to_string(), "13.605693122994 eV".to_string());
        let t = UnitTable::builtin().with_extensions(&defs).unwrap();
        let bohr3 = t.parse("bohr^3").unwrap();
        assert_eq!(bohr3.canonical, "bohr^3");
        assert_eq!(bohr3.dim, Dimension::from_name("volume").unwrap());
        let kcal_mol = t.parse("kcal/mol").unwrap();
        let kj_mol = t.parse("kJ/mol").unwrap();
        assert_eq!(conversion_factor(&kcal_mol, &kj_mol), Some(4.184));
        let ry = t.parse_published("Ry/atom").unwrap();
        let ev = t.parse("eV/atom").unwrap();
        assert!(rel(conversion_factor(&ry, &ev).unwrap(), 13.605693122994) < 1e-15);
        assert!(
            rel(
                conversion_factor(&t.parse("bohr").unwrap(), &u("Å")).unwrap(),
                0.529177210903
            ) < 1e-15
        );
        // The built-in table is unchanged.
        assert!(UnitTable::builtin().parse("bohr").is_err());
    }
}
