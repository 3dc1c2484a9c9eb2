//! Physical dimensions as exponent vectors over eleven base dimensions.

use std::fmt;

/// Number of base dimensions in a [`Dimension`].
pub(crate) const BASE_COUNT: usize = 11;

/// Index of the first count-basis dimension (atom); formula_unit and cell follow.
const BASIS_START: usize = 8;

/// Short symbols of the base dimensions, in [`Dimension`] order, used by the formula form of
/// `Display` (for example `L^2·M·T^-2·atom^-1`).
const BASE_SYMBOLS: [&str; BASE_COUNT] = [
    "L", "M", "T", "I", "Θ", "N", "J", "angle", "atom", "f.u.", "cell",
];

/// Suffixes accepted by [`Dimension::from_name`] after `<name>_per_`, with the index of the
/// count-basis dimension they divide by and their human wording for `Display`.
const BASIS_SUFFIXES: [(&str, usize, &str); 3] = [
    ("atom", 8, "atom"),
    ("formula_unit", 9, "formula unit"),
    ("cell", 10, "cell"),
];

/// Exponents over the base dimensions, in this fixed order:
/// length, mass, time, current, temperature, amount, luminous, angle, atom, formula_unit, cell.
///
/// Angle is a base dimension of its own (radian), so `rad/s` and `Hz` differ; `sr` is `angle^2`.
/// The last three entries form the *count basis*: `eV/atom` is energy times `atom^-1`.
/// Counts are dimensionless in value (a factor of 1); they only tag what a quantity is per.
///
/// The arithmetic methods saturate at the `i8` bounds; use the `checked_*` variants when
/// overflow must be detected (the unit parser does, and reports it as a [`super::UnitError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dimension(pub [i8; BASE_COUNT]);

/// One row of the named-dimension table: snake_case name and exponents over the first eight
/// base dimensions (length, mass, time, current, temperature, amount, luminous, angle).
/// The first row with a given dimension is its primary name (used by `Display`); later rows
/// are accepted aliases.
const NAMED: &[(&str, [i8; 8])] = &[
    //                                 L   M   T   I   Θ   N   J   ∠
    ("dimensionless", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("count", [0, 0, 0, 0, 0, 0, 0, 0]),
    ("length", [1, 0, 0, 0, 0, 0, 0, 0]),
    ("area", [2, 0, 0, 0, 0, 0, 0, 0]),
    ("volume", [3, 0, 0, 0, 0, 0, 0, 0]),
    ("inverse_length", [-1, 0, 0, 0, 0, 0, 0, 0]),
    ("wavenumber", [-1, 0, 0, 0, 0, 0, 0, 0]),
    ("inverse_area", [-2, 0, 0, 0, 0, 0, 0, 0]),
    ("inverse_volume", [-3, 0, 0, 0, 0, 0, 0, 0]),
    ("number_density", [-3, 0, 0, 0, 0, 0, 0, 0]),
    ("mass", [0, 1, 0, 0, 0, 0, 0, 0]),
    ("time", [0, 0, 1, 0, 0, 0, 0, 0]),
    ("frequency", [0, 0, -1, 0, 0, 0, 0, 0]),
    ("current", [0, 0, 0, 1, 0, 0, 0, 0]),
    ("temperature", [0, 0, 0, 0, 1, 0, 0, 0]),
    ("amount", [0, 0, 0, 0, 0, 1, 0, 0]),
    ("luminous_intensity", [0, 0, 0, 0, 0, 0, 1, 0]),
    ("angle", [0, 0, 0, 0, 0, 0, 0, 1]),
    ("solid_angle", [0, 0, 0, 0, 0, 0, 0, 2]),
    ("angular_velocity", [0, 0, -1, 0, 0, 0, 0, 1]),
    ("velocity", [1, 0, -1, 0, 0, 0, 0, 0]),
    ("acceleration", [1, 0, -2, 0, 0, 0, 0, 0]),
    ("momentum", [1, 1, -1, 0, 0, 0, 0, 0]),
    ("force", [1, 1, -2, 0, 0, 0, 0, 0]),
    ("energy", [2, 1, -2, 0, 0, 0, 0, 0]),
    ("power", [2, 1, -3, 0, 0, 0, 0, 0]),
    ("pressure", [-1, 1, -2, 0, 0, 0, 0, 0]),
    ("stress", [-1, 1, -2, 0, 0, 0, 0, 0]),
    ("elastic_modulus", [-1, 1, -2, 0, 0, 0, 0, 0]),
    ("compressibility", [1, -1, 2, 0, 0, 0, 0, 0]),
    ("mass_density", [-3, 1, 0, 0, 0, 0, 0, 0]),
    ("specific_volume", [3, -1, 0, 0, 0, 0, 0, 0]),
    ("specific_energy", [2, 0, -2, 0, 0, 0, 0, 0]),
    ("energy_per_area", [0, 1, -2, 0, 0, 0, 0, 0]),
    ("surface_energy", [0, 1, -2, 0, 0, 0, 0, 0]),
    ("force_constant", [0, 1, -2, 0, 0, 0, 0, 0]),
    ("heat_flux", [0, 1, -3, 0, 0, 0, 0, 0]),
    ("dynamic_viscosity", [-1, 1, -1, 0, 0, 0, 0, 0]),
    ("diffusivity", [2, 0, -1, 0, 0, 0, 0, 0]),
    ("charge", [0, 0, 1, 1, 0, 0, 0, 0]),
    ("charge_density", [-3, 0, 1, 1, 0, 0, 0, 0]),
    ("specific_charge", [0, -1, 1, 1, 0, 0, 0, 0]),
    ("polarization", [-2, 0, 1, 1, 0, 0, 0, 0]),
    ("surface_charge_density", [-2, 0, 1, 1, 0, 0, 0, 0]),
    ("current_density", [-2, 0, 0, 1, 0, 0, 0, 0]),
    ("dipole_moment", [1, 0, 1, 1, 0, 0, 0, 0]),
    ("voltage", [2, 1, -3, -1, 0, 0, 0, 0]),
    ("electric_potential", [2, 1, -3, -1, 0, 0, 0, 0]),
    ("electric_field", [1, 1, -3, -1, 0, 0, 0, 0]),
    ("electric_field_gradient", [0, 1, -3, -1, 0, 0, 0, 0]),
    ("resistance", [2, 1, -3, -2, 0, 0, 0, 0]),
    ("electrical_resistivity", [3, 1, -3, -2, 0, 0, 0, 0]),
    ("conductance", [-2, -1, 3, 2, 0, 0, 0, 0]),
    ("electrical_conductivity", [-3, -1, 3, 2, 0, 0, 0, 0]),
    ("capacitance", [-2, -1, 4, 2, 0, 0, 0, 0]),
    ("inductance", [2, 1, -2, -2, 0, 0, 0, 0]),
    ("magnetic_flux", [2, 1, -2, -1, 0, 0, 0, 0]),
    ("magnetic_field", [0, 1, -2, -1, 0, 0, 0, 0]),
    ("magnetic_flux_density", [0, 1, -2, -1, 0, 0, 0, 0]),
    ("magnetic_moment", [2, 0, 0, 1, 0, 0, 0, 0]),
    ("carrier_mobility", [0, -1, 2, 1, 0, 0, 0, 0]),
    ("piezoelectric_coefficient", [-1, -1, 3, 1, 0, 0, 0, 0]),
    ("seebeck_coefficient", [2, 1, -3, -1, -1, 0, 0, 0]),
    ("power_factor", [1, 1, -3, 0, -2, 0, 0, 0]),
    ("thermal_conductivity", [1, 1, -3, 0, -1, 0, 0, 0]),
    ("thermal_expansion", [0, 0, 0, 0, -1, 0, 0, 0]),
    ("heat_capacity", [2, 1, -2, 0, -1, 0, 0, 0]),
    ("entropy", [2, 1, -2, 0, -1, 0, 0, 0]),
    ("specific_heat_capacity", [2, 0, -2, 0, -1, 0, 0, 0]),
    ("molar_heat_capacity", [2, 1, -2, 0, -1, -1, 0, 0]),
    ("molar_mass", [0, 1, 0, 0, 0, -1, 0, 0]),
    ("molar_energy", [2, 1, -2, 0, 0, -1, 0, 0]),
    ("molar_volume", [3, 0, 0, 0, 0, -1, 0, 0]),
    ("concentration", [-3, 0, 0, 0, 0, 1, 0, 0]),
];

fn named_dim(exps: &[i8; 8]) -> Dimension {
    let mut d = [0i8; BASE_COUNT];
    d[..8].copy_from_slice(exps);
    Dimension(d)
}

impl Dimension {
    /// The dimension of pure numbers (all exponents zero).
    pub const DIMENSIONLESS: Dimension = Dimension([0; BASE_COUNT]);

    /// A dimension with a single base exponent: `Dimension::base(0, 1)` is length.
    /// `index` follows the field order documented on [`Dimension`]; panics when `index >= 11`.
    pub fn base(index: usize, exponent: i8) -> Dimension {
        let mut d = [0i8; BASE_COUNT];
        d[index] = exponent;
        Dimension(d)
    }

    /// True when every exponent is zero (including the count basis).
    pub fn is_dimensionless(&self) -> bool {
        self.0.iter().all(|&e| e == 0)
    }

    /// The count-basis part (atom / formula_unit / cell exponents), e.g. eV/atom has basis atom^-1.
    pub fn basis(&self) -> Dimension {
        let mut d = [0i8; BASE_COUNT];
        d[BASIS_START..].copy_from_slice(&self.0[BASIS_START..]);
        Dimension(d)
    }

    /// This dimension with the count-basis exponents zeroed.
    pub fn without_basis(&self) -> Dimension {
        let mut d = self.0;
        d[BASIS_START..].fill(0);
        Dimension(d)
    }

    /// Product of two dimensions (exponents add), saturating at the `i8` bounds.
    pub fn mul(&self, other: &Dimension) -> Dimension {
        Dimension(std::array::from_fn(|i| {
            self.0[i].saturating_add(other.0[i])
        }))
    }

    /// Quotient of two dimensions (exponents subtract), saturating at the `i8` bounds.
    pub fn div(&self, other: &Dimension) -> Dimension {
        Dimension(std::array::from_fn(|i| {
            self.0[i].saturating_sub(other.0[i])
        }))
    }

    /// This dimension raised to the integer power `n` (exponents multiply), saturating.
    pub fn powi(&self, n: i8) -> Dimension {
        Dimension(std::array::from_fn(|i| self.0[i].saturating_mul(n)))
    }

    /// Like [`Dimension::mul`], but `None` when an exponent leaves the `i8` range.
    pub fn checked_mul(&self, other: &Dimension) -> Option<Dimension> {
        let mut d = [0i8; BASE_COUNT];
        for (i, e) in d.iter_mut().enumerate() {
            *e = self.0[i].checked_add(other.0[i])?;
        }
        Some(Dimension(d))
    }

    /// Like [`Dimension::powi`] with a wide exponent, but `None` when an exponent leaves the
    /// `i8` range.
    pub fn checked_powi(&self, n: i32) -> Option<Dimension> {
        let mut d = [0i8; BASE_COUNT];
        for (i, e) in d.iter_mut().enumerate() {
            *e = i8::try_from(i32::from(self.0[i]).checked_mul(n)?).ok()?;
        }
        Some(Dimension(d))
    }

    /// Named dimension for concept declarations.
    ///
    /// Grammar: `<name>` or `<name>_per_<atom|formula_unit|cell>`, where `<name>` is one of the
    /// snake_case names of the built-in table ("energy", "length", "volume", "area", "mass",
    /// "mass_density", "pressure", "time", "temperature", "angle", "dimensionless", "count",
    /// "magnetic_moment", "charge", "electric_field_gradient", "energy_per_area", "molar_mass",
    /// "thermal_conductivity", "heat_capacity", "inverse_volume", "velocity", ...; see
    /// [`Dimension::known_names`]). The `_per_<basis>` suffix divides by one count dimension:
    /// "energy_per_atom" is energy·atom^-1, "count_per_cell" is cell^-1. Names are
    /// case-sensitive. Returns `None` when the name is unknown.
    pub fn from_name(name: &str) -> Option<Dimension> {
        if let Some(d) = lookup_plain(name) {
            return Some(d);
        }
        for (suffix, idx, _) in BASIS_SUFFIXES {
            if let Some(stem) = name
                .strip_suffix(suffix)
                .and_then(|s| s.strip_suffix("_per_"))
                && let Some(d) = lookup_plain(stem)
            {
                let mut out = d;
                out.0[idx] = -1;
                return Some(out);
            }
        }
        None
    }

    /// All names accepted by [`Dimension::from_name`] (for "did you mean"): every plain name in
    /// table order, then every `<name>_per_atom`, `<name>_per_formula_unit`, `<name>_per_cell`.
    pub fn known_names() -> Vec<&'static str> {
        static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        NAMES
            .get_or_init(|| {
                let mut v: Vec<&'static str> = NAMED.iter().map(|(n, _)| *n).collect();
                for (suffix, _, _) in BASIS_SUFFIXES {
                    for (n, _) in NAMED {
                        let s: &'static str =
                            Box::leak(format!("{n}_per_{suffix}").into_boxed_str());
                        v.push(s);
                    }
                }
                v
            })
            .clone()
    }

    /// The coherent SI unit of this dimension, spelled the way the unit grammar writes
    /// canonical units (symbols in base-dimension order `m kg s A K mol cd rad atom f.u. cell`,
    /// `·` between factors, `^n` powers, one `/` with a parenthesised denominator when it has
    /// several factors; `1` for a pure number). A value times its unit's
    /// [`Unit::factor`](super::Unit::factor) is a value in this unit: energy gives `m^2·kg/s^2`,
    /// energy per atom `m^2·kg/(s^2·atom)`, pressure `kg/(m·s^2)`.
    pub fn si_unit(&self) -> String {
        const SI_SYMBOLS: [&str; BASE_COUNT] = [
            "m", "kg", "s", "A", "K", "mol", "cd", "rad", "atom", "f.u.", "cell",
        ];
        let term = |i: usize, e: i8| {
            let e = e.unsigned_abs();
            if e == 1 {
                SI_SYMBOLS[i].to_string()
            } else {
                format!("{}^{e}", SI_SYMBOLS[i])
            }
        };
        let num: Vec<String> = (0..BASE_COUNT)
            .filter(|&i| self.0[i] > 0)
            .map(|i| term(i, self.0[i]))
            .collect();
        let den: Vec<String> = (0..BASE_COUNT)
            .filter(|&i| self.0[i] < 0)
            .map(|i| term(i, self.0[i]))
            .collect();
        let top = if num.is_empty() {
            "1".to_string()
        } else {
            num.join("·")
        };
        match den.len() {
            0 => top,
            1 => format!("{top}/{}", den[0]),
            _ => format!("{top}/({})", den.join("·")),
        }
    }

    /// The primary snake_case name of this dimension when it has no count basis, e.g.
    /// `Some("mass_density")`; `None` when unnamed or when it has a count basis.
    pub fn plain_name(&self) -> Option<&'static str> {
        NAMED
            .iter()
            .find(|(_, e)| named_dim(e) == *self)
            .map(|(n, _)| *n)
    }
}

fn lookup_plain(name: &str) -> Option<Dimension> {
    NAMED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, e)| named_dim(e))
}

/// Human form for messages: the known name when there is one ("energy per atom", "pressure",
/// "mass density"), else a formula like "L^2·M·T^-2·atom^-1" (base symbols L M T I Θ N J angle
/// atom f.u. cell, in field order, joined by "·"). Deterministic. A dimensionless quantity per
/// one count reads "count per cell".
impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = self.without_basis();
        let basis = self.basis();
        if let Some(name) = base.plain_name() {
            if basis.is_dimensionless() {
                return f.write_str(&name.replace('_', " "));
            }
            let nonzero: Vec<usize> = (BASIS_START..BASE_COUNT)
                .filter(|&i| self.0[i] != 0)
                .collect();
            if let [i] = nonzero[..]
                && self.0[i] == -1
            {
                let per = BASIS_SUFFIXES
                    .iter()
                    .find(|(_, idx, _)| *idx == i)
                    .map(|(_, _, w)| *w)
                    .unwrap_or("count");
                let stem = if base.is_dimensionless() {
                    "count".to_string()
                } else {
                    name.replace('_', " ")
                };
                return write!(f, "{stem} per {per}");
            }
        }
        let mut first = true;
        for (i, &e) in self.0.iter().enumerate() {
            if e == 0 {
                continue;
            }
            if !first {
                f.write_str("·")?;
            }
            first = false;
            f.write_str(BASE_SYMBOLS[i])?;
            if e != 1 {
                write!(f, "^{e}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(e: [i8; 11]) -> Dimension {
        Dimension(e)
    }

    #[test]
    fn from_name_plain_and_basis() {
        assert_eq!(
            Dimension::from_name("energy"),
            Some(d([2, 1, -2, 0, 0, 0, 0, 0, 0, 0, 0]))
        );
        assert_eq!(
            Dimension::from_name("energy_per_atom"),
            Some(d([2, 1, -2, 0, 0, 0, 0, 0, -1, 0, 0]))
        );
        assert_eq!(
            Dimension::from_name("volume_per_atom"),
            Some(d([3, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0]))
        );
        assert_eq!(
            Dimension::from_name("magnetic_moment_per_cell"),
            Some(d([2, 0, 0, 1, 0, 0, 0, 0, 0, 0, -1]))
        );
        assert_eq!(
            Dimension::from_name("energy_per_formula_unit"),
            Some(d([2, 1, -2, 0, 0, 0, 0, 0, 0, -1, 0]))
        );
        assert_eq!(
            Dimension::from_name("energy_per_area"),
            Some(d([0, 1, -2, 0, 0, 0, 0, 0, 0, 0, 0]))
        );
        assert_eq!(
            Dimension::from_name("energy_per_area_per_atom"),
            Some(d([0, 1, -2, 0, 0, 0, 0, 0, -1, 0, 0]))
        );
        assert_eq!(
            Dimension::from_name("count_per_cell"),
            Some(d([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1]))
        );
        assert_eq!(
            Dimension::from_name("dimensionless"),
            Some(Dimension::DIMENSIONLESS)
        );
        assert_eq!(
            Dimension::from_name("count"),
            Some(Dimension::DIMENSIONLESS)
        );
        assert_eq!(
            Dimension::from_name("mass_density"),
            Some(d([-3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
        );
        assert_eq!(
            Dimension::from_name("electric_field_gradient"),
            Some(d([0, 1, -3, -1, 0, 0, 0, 0, 0, 0, 0]))
        );
        assert_eq!(
            Dimension::from_name("thermal_conductivity"),
            Some(d([1, 1, -3, 0, -1, 0, 0, 0, 0, 0, 0]))
        );
        assert_eq!(
            Dimension::from_name("angle"),
            Some(d([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]))
        );
        for bad in [
            "Energy",
            "energy_per_",
            "energy_per_fu",
            "per_atom",
            "_per_atom",
            "",
            "energy_per_atom_per_cell",
        ] {
            assert_eq!(Dimension::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_known_name_resolves() {
        let names = Dimension::known_names();
        assert_eq!(names.len(), NAMED.len() * 4);
        assert_eq!(names[0], "dimensionless");
        assert!(names.contains(&"energy_per_atom"));
        assert!(names.contains(&"magnetic_moment_per_cell"));
        for n in names {
            assert!(Dimension::from_name(n).is_some(), "{n}");
        }
    }

    #[test]
    fn basis_split() {
        let e = Dimension::from_name("energy_per_atom").unwrap();
        assert_eq!(e.basis(), Dimension::base(8, -1));
        assert_eq!(e.without_basis(), Dimension::from_name("energy").unwrap());
        assert!(!e.is_dimensionless());
        assert!(Dimension::DIMENSIONLESS.is_dimensionless());
    }

    #[test]
    fn arithmetic() {
        let l = Dimension::base(0, 1);
        let t = Dimension::base(2, 1);
        assert_eq!(l.div(&t), Dimension::from_name("velocity").unwrap());
        assert_eq!(l.powi(3), Dimension::from_name("volume").unwrap());
        assert_eq!(l.mul(&l), Dimension::from_name("area").unwrap());
        assert_eq!(
            Dimension::base(0, 100).mul(&Dimension::base(0, 100)),
            Dimension::base(0, 127)
        );
        assert_eq!(
            Dimension::base(0, 100).checked_mul(&Dimension::base(0, 100)),
            None
        );
        assert_eq!(Dimension::base(0, 100).checked_powi(2), None);
        assert_eq!(l.checked_powi(-3), Some(Dimension::base(0, -3)));
    }

    #[test]
    fn display_names_and_formulas() {
        let show = |n: &str| Dimension::from_name(n).unwrap().to_string();
        assert_eq!(show("energy_per_atom"), "energy per atom");
        assert_eq!(show("pressure"), "pressure");
        assert_eq!(show("stress"), "pressure");
        assert_eq!(show("mass_density"), "mass density");
        assert_eq!(
            show("magnetic_moment_per_formula_unit"),
            "magnetic moment per formula unit"
        );
        assert_eq!(show("volume_per_cell"), "volume per cell");
        assert_eq!(show("count"), "dimensionless");
        assert_eq!(show("count_per_cell"), "count per cell");
        assert_eq!(show("energy_per_area"), "energy per area");
        // Unnamed: formula.
        let odd = d([2, 1, -2, 0, 0, 0, 0, 0, -2, 0, 0]);
        assert_eq!(odd.to_string(), "L^2·M·T^-2·atom^-2");
        let odd2 = d([2, 1, -2, 0, 0, 0, 0, 0, -1, 0, -1]);
        assert_eq!(odd2.to_string(), "L^2·M·T^-2·atom^-1·cell^-1");
        assert_eq!(d([5, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]).to_string(), "L^5·Θ");
        assert_eq!(Dimension::base(9, 1).to_string(), "f.u.");
    }
}
