//! Units and dimensions: parsing declared and published unit spellings, dimension algebra,
//! exact conversion factors, and published-vs-declared matching.
//!
//! * [`Dimension`] — exponents over 11 base dimensions (SI base dimensions, angle, and the
//!   count basis atom / formula_unit / cell), with names for concept declarations.
//! * [`UnitTable`] — built-in symbols plus project extensions; [`UnitTable::parse`] for the
//!   schema author's spelling, [`UnitTable::parse_published`] for a provider's.
//! * [`normalise_published`] — HTML, pint, word and typo repairs of published spellings.
//! * [`conversion`], [`conversion_factor`], [`match_published`] — comparisons between parsed
//!   [`Unit`]s.
//!
//! Offset temperature scales (°C, °F; the data is [`AFFINE`]) are affine: K = °C + 273.15,
//! °F = °C × 9/5 + 32. A unit that is one such scale alone (`°C`, `degF`) reads its values as
//! *absolute* temperatures, and every conversion of a value applies the offset (25 °C is
//! 298.15 K; a range "between 300 and 400 K" bound to a °C parameter sends 26.85 and 126.85).
//! That is wrong for a temperature *difference* (a change of 10 °C is a change of 10 K, not
//! 283.15 K): declare a difference as `K`, `delta_degC` or `delta_degF`. Inside a compound
//! (`°C/min`, `J/(kg·°C)`) a scale stands for its degree size, since a rate or a per-degree
//! quantity has no zero point: 1 °C/min = 1 K/min, 1 °F/min = 5/9 K/min.
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
pub(crate) mod published;
mod scale;
mod table;

pub use cache::{CachedUnit, UnitCache};
pub use dimension::Dimension;
pub use published::normalise_published;
pub use table::{AFFINE, UnitTable};

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
    /// Zero point of an offset temperature scale standing alone, in the unit's own degrees:
    /// the SI value of `x` is `(x + offset) × factor` (273.15 for `°C`, 459.67 for `°F`); 0 for
    /// every other unit, compounds such as `°C/min` included (see the module documentation).
    pub offset: f64,
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

/// An exact-as-possible affine map between two units: `value_in_to = value_in_from × factor +
/// offset` (the offset is 0 unless an offset temperature scale is involved).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conversion {
    /// Multiply by this first.
    pub factor: f64,
    /// Then add this (in the target unit).
    pub offset: f64,
}

impl Conversion {
    /// The value in the target unit, rounded to 12 significant digits of the larger of its two
    /// terms (drops the binary noise of the offset arithmetic: 300 K is 26.85 °C, not
    /// 26.850000000000023, and −459.67 °F is 0 K, not −2.2e-11 K).
    pub fn apply(&self, v: f64) -> f64 {
        let scaled = v * self.factor;
        let x = scaled + self.offset;
        if self.offset == 0.0 || x == 0.0 || !x.is_finite() {
            return snap(x, 12);
        }
        let magnitude = scaled.abs().max(self.offset.abs()).max(x.abs());
        let decimals = (11 - magnitude.log10().floor() as i32).clamp(0, 300) as usize;
        let rounded: f64 = format!("{x:.decimals$}").parse().unwrap_or(x);
        if rounded == 0.0 {
            0.0
        } else {
            snap(rounded, 12)
        }
    }

    /// Whether this is the identity (same unit, however spelled).
    pub fn is_identity(&self) -> bool {
        self.factor == 1.0 && self.offset == 0.0
    }

    /// The map as text for a person or a reader LLM: `×1e-3`, `+273.15`, `×1.8 +32`,
    /// `-273.15`.
    pub fn describe(&self) -> String {
        let mut out = Vec::new();
        if self.factor != 1.0 {
            out.push(format!("×{}", short(self.factor)));
        }
        if self.offset != 0.0 {
            let sign = if self.offset < 0.0 { '-' } else { '+' };
            out.push(format!("{sign}{}", short(self.offset.abs())));
        }
        if out.is_empty() {
            "×1".to_string()
        } else {
            out.join(" ")
        }
    }
}

/// `x` rounded to `digits` significant digits.
fn snap(x: f64, digits: usize) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    format!("{x:.*e}", digits.saturating_sub(1))
        .parse()
        .unwrap_or(x)
}

/// A number in its shortest form: plain digits between 1e-4 and 1e6, scientific otherwise.
fn short(x: f64) -> String {
    if x != 0.0 && (x.abs() < 1e-4 || x.abs() >= 1e6) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// The conversion of a value in `from` into `to`, when dimensions are equal; None otherwise.
///
/// The factor is [`conversion_factor`]'s ratio of the SI factors; when an offset scale is
/// involved (°C, °F) the offset is `from.offset × factor − to.offset` rounded at 13 significant
/// digits of the larger of the two terms, and the factor is snapped to 15 significant digits,
/// so °C → °F is exactly ×1.8 +32 and K → °C exactly −273.15. A value
/// is converted as an absolute temperature (see the module documentation for differences).
pub fn conversion(from: &Unit, to: &Unit) -> Option<Conversion> {
    let factor = ratio(from, to)?;
    if from.offset == 0.0 && to.offset == 0.0 {
        return Some(Conversion {
            factor,
            offset: 0.0,
        });
    }
    let scaled = from.offset * factor;
    // Round away the binary noise at 13 significant digits of the larger term (273.15 × 1.8 −
    // 459.67 is 31.99999999999994 in binary; it is 32).
    let magnitude = scaled.abs().max(to.offset.abs());
    let decimals = (12 - magnitude.log10().floor() as i32).clamp(0, 300) as usize;
    let offset: f64 = format!("{:.*}", decimals, scaled - to.offset)
        .parse()
        .unwrap_or(scaled - to.offset);
    let offset = if offset == 0.0 { 0.0 } else { offset };
    Some(Conversion {
        factor: snap(factor, 15),
        offset,
    })
}

/// Factor to convert a value in `from` into `to`, when dimensions are equal and the conversion
/// is a factor alone; None otherwise (°C → K needs an offset: use [`conversion`]).
///
/// `value_in_to = value_in_from * factor`. The ratio `from.factor / to.factor` is snapped to
/// the exact power of ten when it lies within 4 ulp of one, so prefix-only conversions
/// (meV → eV = 1e-3, GPa → Pa = 1e9) are exact despite the rounding in each factor.
pub fn conversion_factor(from: &Unit, to: &Unit) -> Option<f64> {
    if from.offset != 0.0 || to.offset != 0.0 {
        return conversion(from, to)
            .filter(|c| c.offset == 0.0)
            .map(|c| c.factor);
    }
    ratio(from, to)
}

/// `from.factor / to.factor` for equal dimensions, snapped to an exact power of ten.
fn ratio(from: &Unit, to: &Unit) -> Option<f64> {
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
    /// Same dimension, factor (relative tolerance 1e-12) and offset.
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
    if declared.offset != published.offset {
        return PublishedMatch::Mismatch;
    }
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
    fn offset_temperature_scales_convert_exactly() {
        let c = |a: &str, b: &str| conversion(&u(a), &u(b)).unwrap();
        let affine = |factor, offset| Conversion { factor, offset };
        assert_eq!(c("°C", "K"), affine(1.0, 273.15));
        assert_eq!(c("K", "°C"), affine(1.0, -273.15));
        assert_eq!(c("°C", "°F"), affine(1.8, 32.0));
        assert_eq!(c("°F", "°C"), affine(0.555555555555556, -17.7777777778));
        assert_eq!(c("°F", "K"), affine(0.555555555555556, 255.3722222222));
        assert_eq!(c("degC", "celsius"), affine(1.0, 0.0));
        assert_eq!(c("mK", "K"), affine(1e-3, 0.0));
        let apply = |a: &str, b: &str, v: f64| c(a, b).apply(v);
        assert_eq!(apply("K", "°C", 300.0), 26.85);
        assert_eq!(apply("K", "°C", 400.0), 126.85);
        assert_eq!(apply("°C", "K", 25.0), 298.15);
        assert_eq!(apply("°C", "°F", 100.0), 212.0);
        assert_eq!(apply("°C", "°F", -40.0), -40.0);
        assert_eq!(apply("°F", "°C", 212.0), 100.0);
        assert_eq!(apply("°F", "K", 32.0), 273.15);
        assert_eq!(apply("K", "°F", 0.0), -459.67);
        // Absolute zero is 0 K, whatever scale it is written in.
        assert_eq!(apply("°F", "K", -459.67), 0.0);
        assert_eq!(apply("°C", "K", -273.15), 0.0);
        assert_eq!(apply("°F", "°C", -40.0), -40.0);
        assert_eq!(apply("°F", "°C", 98.6), 37.0);
        // A factor alone cannot say it: no bare factor between offset scales and K.
        assert_eq!(conversion_factor(&u("°C"), &u("K")), None);
        assert_eq!(conversion_factor(&u("degC"), &u("°C")), Some(1.0));
        assert_eq!(c("°C", "K").describe(), "+273.15");
        assert_eq!(c("K", "°C").describe(), "-273.15");
        assert_eq!(c("°C", "°F").describe(), "×1.8 +32");
        assert_eq!(c("eV", "meV").describe(), "×1000");
    }

    #[test]
    fn offset_scales_inside_compounds_are_degree_sizes() {
        // A rate or a per-degree quantity has no zero point: 1 °C/min = 1 K/min.
        assert_eq!(u("°C/min").offset, 0.0);
        assert_eq!(conversion_factor(&u("°C/min"), &u("K/min")), Some(1.0));
        let per_f = conversion_factor(&u("J/(kg·°F)"), &u("J/(kg·K)")).unwrap();
        assert!(rel(per_f, 1.8) < 1e-15, "{per_f}");
        assert_eq!(u("°C^2").offset, 0.0);
        assert_eq!(u("2 °C").offset, 0.0);
        // Differences declared as such.
        assert_eq!(conversion_factor(&u("delta_degC"), &u("K")), Some(1.0));
        assert_eq!(
            conversion(&u("delta_degF"), &u("delta_degC")).unwrap(),
            Conversion {
                factor: 5.0 / 9.0,
                offset: 0.0
            }
        );
        assert_eq!(u("Δ°C").canonical, "delta_degC");
    }

    #[test]
    fn offset_scale_spellings() {
        for s in [
            "°C",
            "℃",
            "degC",
            "deg_C",
            "celsius",
            "Celsius",
            "degrees_Celsius",
        ] {
            let p = u(s);
            assert_eq!((p.canonical.as_str(), p.offset), ("°C", 273.15), "{s}");
        }
        for s in [
            "°F",
            "℉",
            "degF",
            "fahrenheit",
            "Fahrenheit",
            "degree_fahrenheit",
        ] {
            let p = u(s);
            assert_eq!((p.canonical.as_str(), p.offset), ("°F", 459.67), "{s}");
        }
        let k = u("K");
        assert_eq!((k.canonical.as_str(), k.offset), ("K", 0.0));
        let t = UnitTable::builtin();
        assert_eq!(t.parse_published("degC").unwrap().canonical, "°C");
        assert_eq!(t.parse_published("kelvin").unwrap().canonical, "K");
        assert_eq!(
            match_published(&u("°C"), &u("K")),
            PublishedMatch::Mismatch,
            "same factor, another zero point"
        );
        assert_eq!(match_published(&u("°C"), &u("degC")), PublishedMatch::Exact);
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
