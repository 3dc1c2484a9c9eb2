//! How restrictive a licence is, for `licence-restricted`.
//!
//! Ranks, least to most restrictive: public domain (`CC0-1.0`, `PDDL-1.0`, `Unlicense`) <
//! attribution (`CC-BY-4.0`, `MIT`, `ODC-By-1.0`, ...) < share-alike / copyleft (`CC-BY-SA-4.0`,
//! `ODbL-1.0`, GPL family) < no-derivatives (`-ND`) < non-commercial (`-NC`) < proprietary
//! (`LicenseRef-*`, or anything that is not a valid SPDX expression). In an expression, `OR`
//! takes the least restrictive choice (the user may pick) and `AND` the most restrictive term.

use spdx::expression::{ExprNode, Operator};

/// Restrictiveness of a licence, least restrictive first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Restriction {
    /// Public-domain dedication.
    PublicDomain,
    /// Use freely with attribution (or a permissive notice).
    Attribution,
    /// Derivatives must use the same licence.
    ShareAlike,
    /// No derivatives allowed.
    NoDerivatives,
    /// No commercial use.
    NonCommercial,
    /// Custom terms (`LicenseRef-*`) or unknown.
    Proprietary,
}

impl Restriction {
    /// Lower-case name used in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Restriction::PublicDomain => "public domain",
            Restriction::Attribution => "attribution",
            Restriction::ShareAlike => "share-alike",
            Restriction::NoDerivatives => "no-derivatives",
            Restriction::NonCommercial => "non-commercial",
            Restriction::Proprietary => "proprietary",
        }
    }
}

/// Restrictiveness of one SPDX licence id.
fn of_id(name: &str, copyleft: bool) -> Restriction {
    let upper = name.to_ascii_uppercase();
    let has = |part: &str| upper.split('-').any(|p| p == part);
    if has("NC") {
        Restriction::NonCommercial
    } else if has("ND") {
        Restriction::NoDerivatives
    } else if has("SA")
        || copyleft
        || upper.starts_with("ODBL")
        || upper.starts_with("CDLA-SHARING")
    {
        Restriction::ShareAlike
    } else if upper.starts_with("CC0") || upper.starts_with("PDDL") || upper == "UNLICENSE" {
        Restriction::PublicDomain
    } else {
        Restriction::Attribution
    }
}

/// Restrictiveness of an SPDX expression (lax parsing); `Proprietary` when it does not parse.
pub fn restriction(expr: &str) -> Restriction {
    let Ok(e) = spdx::Expression::parse_mode(expr, spdx::ParseMode::LAX) else {
        return Restriction::Proprietary;
    };
    let mut stack: Vec<Restriction> = Vec::new();
    for node in e.iter() {
        match node {
            ExprNode::Req(r) => stack.push(match &r.req.license {
                spdx::LicenseItem::Spdx { id, .. } => of_id(id.name, id.is_copyleft()),
                spdx::LicenseItem::Other(_) => Restriction::Proprietary,
            }),
            ExprNode::Op(op) => {
                let b = stack.pop().unwrap_or(Restriction::Proprietary);
                let a = stack.pop().unwrap_or(Restriction::Proprietary);
                stack.push(match op {
                    Operator::And => a.max(b),
                    Operator::Or => a.min(b),
                });
            }
        }
    }
    stack.pop().unwrap_or(Restriction::Proprietary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks() {
        use Restriction::*;
        assert_eq!(restriction("CC0-1.0"), PublicDomain);
        assert_eq!(restriction("CC-BY-4.0"), Attribution);
        assert_eq!(restriction("MIT"), Attribution);
        assert_eq!(restriction("CC-BY-SA-4.0"), ShareAlike);
        assert_eq!(restriction("ODbL-1.0"), ShareAlike);
        assert_eq!(restriction("GPL-3.0-only"), ShareAlike);
        assert_eq!(restriction("CC-BY-ND-4.0"), NoDerivatives);
        assert_eq!(restriction("CC-BY-NC-4.0"), NonCommercial);
        assert_eq!(restriction("CC-BY-NC-SA-4.0"), NonCommercial);
        assert_eq!(restriction("LicenseRef-PubChem"), Proprietary);
        assert_eq!(restriction("not a licence"), Proprietary);
        assert_eq!(restriction("CC0-1.0 OR CC-BY-NC-4.0"), PublicDomain);
        assert_eq!(restriction("CC0-1.0 AND CC-BY-NC-4.0"), NonCommercial);
        assert!(restriction("CC0-1.0") < restriction("CC-BY-NC-4.0"));
    }
}
