//! # molar-unit-without-basis (SR307)
//!
//! ## What it finds
//! A declared unit (of a response field or a concept) that is per mole but does not say mole of
//! what: `J/mol`, `kJ/mol`, `eV/mol`, `J/(mol·K)`, `g/mol` (and `kcal/mol` when `[units]`
//! defines `kcal`). Any unit whose dimension divides by amount of substance and has no count
//! basis (atom, formula unit, cell) is reported; so is a concept `dimension` such as `molar_energy`. The help line gives the
//! spellings with a basis: `kJ/(mol·atom)` (per mole of atoms), `kJ/(mol·f.u.)` (per mole of
//! formula units), or `molar_energy_per_atom` / `molar_energy_per_formula_unit` for a
//! dimension. The provider's own spelling (`unit_as_published: kJ/mol`) is not reported: it is
//! what the provider writes, and a published unit without the declared basis still matches.
//!
//! ## Why it matters for routing
//! Per mole of atoms and per mole of formula units differ by the number of atoms in the formula
//! unit (a factor of 5 for SrTiO3). Without the basis, one concept can gather fields of both, the
//! unit check cannot tell them apart, and an answer can be wrong by that factor. With the basis
//! in the unit, `unit-conflict` keeps per-atom and per-formula-unit values in separate concepts.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: formation_enthalpy
//!     unit: kJ/mol
//! ```
//!
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: formation_enthalpy
//!     dimension: molar_energy
//! ```
//!
//! ```yaml
//! # file: schemas/nist.yaml
//! id: nist
//! title: NIST
//! domain: materials_property
//! endpoints:
//!   - id: thermo
//!     method: GET
//!     url: https://api.example.org/thermo
//!     fields:
//!       - name: id
//!         type: string
//!         identifier: true
//!       - name: heat_capacity
//!         type: number
//!         unit: J/(mol·K)
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/a.yaml
//! concepts:
//!   - id: formation_enthalpy
//!     unit: kJ/(mol·atom)
//!   - id: formation_energy_per_atom
//!     unit: eV/atom
//!   - id: formation_enthalpy_per_formula_unit
//!     dimension: molar_energy_per_formula_unit
//! # file: schemas/nist.yaml
//! id: nist
//! title: NIST
//! domain: materials_property
//! endpoints:
//!   - id: thermo
//!     method: GET
//!     url: https://api.example.org/thermo
//!     fields:
//!       - name: id
//!         type: string
//!         identifier: true
//!       - name: heat_capacity
//!         type: number
//!         unit: J/(mol·K·f.u.)
//!         unit_as_published: J/mol/K
//!       - name: concentration
//!         type: number
//!         unit: mol/L
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::source::{FileId, Span};
use crate::units::{Dimension, UnitTable};

/// See the module documentation.
pub struct MolarUnitWithoutBasis;

/// Index of amount of substance in [`Dimension`]'s exponents.
const AMOUNT: usize = 5;

/// Per mole (amount exponent below zero) with no count basis.
pub fn is_molar_without_basis(d: &Dimension) -> bool {
    d.0[AMOUNT] < 0 && d.basis().is_dimensionless()
}

/// The canonical spelling of `unit` divided by `basis` (`kJ/mol` -> `kJ/(mol·atom)`), or the
/// text appended when the result does not parse.
fn with_basis(units: &UnitTable, unit: &str, basis: &str) -> String {
    let text = format!("{unit}/{basis}");
    units.parse(&text).map(|u| u.canonical).unwrap_or(text)
}

/// Report `u` when it is per mole without a basis; `what` names its owner (formatted only for
/// a finding). The unit is parsed through the rules' cache, once per spelling.
fn report_unit(
    out: &mut Sink,
    ctx: &Context,
    file: FileId,
    span: Span,
    what: impl FnOnce() -> String,
    u: &str,
) {
    let Ok(parsed) = ctx.unit(u) else { return };
    if !is_molar_without_basis(&parsed.dim) {
        return;
    }
    let units = ctx.units;
    out.report(
        file,
        span,
        format!(
            "unit `{u}` of {} is per mole but does not say mole of what",
            what()
        ),
    )
    .label("no atom or formula-unit basis")
    .fix(format!(
        "write `{}` (per mole of atoms) or `{}` (per mole of formula units); keep the provider's spelling in `unit_as_published`",
        with_basis(units, u, "atom"),
        with_basis(units, u, "f.u.")
    ));
}

impl Rule for MolarUnitWithoutBasis {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let p = ctx.project;
        for c in &p.concepts {
            let what = format!("concept `{}`", c.item.id.value);
            if let Some(u) = &c.item.unit {
                report_unit(out, ctx, c.file, u.span, || what.clone(), &u.value);
            } else if let Some(d) = &c.item.dimension
                && Dimension::from_name(&d.value).is_some_and(|d| is_molar_without_basis(&d))
            {
                out.report(
                    c.file,
                    d.span,
                    format!(
                        "dimension `{}` of {what} is per mole but does not say mole of what",
                        d.value
                    ),
                )
                .label("no atom or formula-unit basis")
                .fix(format!(
                    "write `{0}_per_atom` (per mole of atoms) or `{0}_per_formula_unit` (per mole of formula units)",
                    d.value
                ));
            }
        }
        for t in &p.tools {
            for e in &t.endpoints {
                for f in &e.fields {
                    let Some(u) = &f.unit else { continue };
                    let what =
                        || format!("field `{}` of {}/{}", f.name.value, t.id.value, e.id.value);
                    report_unit(out, ctx, t.file, u.span, what, &u.value);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn molar_units_need_a_basis() {
        let t = UnitTable::builtin();
        let molar = |s: &str| is_molar_without_basis(&t.parse(s).unwrap().dim);
        for u in ["J/mol", "kJ/mol", "eV/mol", "J/(mol·K)", "g/mol", "1/mol"] {
            assert!(molar(u), "{u}");
        }
        for u in [
            "kJ/(mol·atom)",
            "J/mol/K/f.u.",
            "eV/atom",
            "mol/L",
            "mol",
            "eV",
        ] {
            assert!(!molar(u), "{u}");
        }
        assert_eq!(with_basis(&t, "kJ/mol", "atom"), "kJ/(mol·atom)");
        assert_eq!(with_basis(&t, "J/(mol·K)", "f.u."), "J/(mol·K·f.u.)");
    }
}
