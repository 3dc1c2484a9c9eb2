//! Exact-as-possible scale factors: a binary mantissa times an exact power of ten.
//!
//! SI prefixes, decimal unit definitions (Å = 10^-10 m, g = 10^-3 kg) and numeric literals are
//! powers of ten that f64 cannot hold exactly. Keeping the power of ten apart until the very end
//! and then converting through a decimal string (correctly rounded by the standard library)
//! makes GPa = 1e9, Å^3 = 1e-30 and g/cm^3 = 1000 come out exactly.

/// `mant × 10^p10`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scale {
    pub mant: f64,
    pub p10: i32,
}

impl Scale {
    pub const ONE: Scale = Scale { mant: 1.0, p10: 0 };

    pub const fn new(mant: f64, p10: i32) -> Scale {
        Scale { mant, p10 }
    }

    pub fn mul(self, o: Scale) -> Option<Scale> {
        Some(Scale {
            mant: self.mant * o.mant,
            p10: self.p10.checked_add(o.p10)?,
        })
    }

    pub fn powi(self, n: i32) -> Option<Scale> {
        Some(Scale {
            mant: self.mant.powi(n),
            p10: self.p10.checked_mul(n)?,
        })
    }

    /// The value as f64. When `mant` is 1 the result is the correctly rounded 10^p10; otherwise
    /// the shortest decimal that round-trips `mant` is shifted by p10 and parsed, so a constant
    /// written as 1.602176634 × 10^-22 yields the correctly rounded 1.602176634e-22.
    /// `None` when the result is not a finite, non-zero number.
    pub fn to_f64(self) -> Option<f64> {
        if !self.mant.is_finite() || self.mant == 0.0 || self.p10.unsigned_abs() > 100_000 {
            return None;
        }
        let v = if self.p10 == 0 {
            self.mant
        } else {
            let s = format!("{:e}", self.mant);
            let (digits, exp) = s.split_once('e')?;
            let exp: i64 = exp.parse().ok()?;
            format!("{digits}e{}", exp + i64::from(self.p10))
                .parse::<f64>()
                .ok()?
        };
        (v.is_finite() && v != 0.0).then_some(v)
    }
}

/// Parse a decimal literal (`12`, `0.5`, `1e21`, `4.184E3`, `.5`) into an exact scale:
/// the significand digits become the mantissa and the decimal point and exponent become p10.
/// Returns `None` for malformed text.
pub(crate) fn parse_decimal(text: &str) -> Option<Scale> {
    let (num, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut digits: String = format!("{int}{frac}").trim_start_matches('0').to_string();
    let mut p10 = exp.checked_sub(i32::try_from(frac.len()).ok()?)?;
    if digits.is_empty() {
        return Some(Scale::new(0.0, 0));
    }
    while digits.ends_with('0') {
        digits.pop();
        p10 = p10.checked_add(1)?;
    }
    Some(Scale::new(digits.parse::<f64>().ok()?, p10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_literals() {
        assert_eq!(parse_decimal("10"), Some(Scale::new(1.0, 1)));
        assert_eq!(parse_decimal("1e21"), Some(Scale::new(1.0, 21)));
        assert_eq!(
            parse_decimal("0.529177210903"),
            Some(Scale::new(529177210903.0, -12))
        );
        assert_eq!(parse_decimal("4184"), Some(Scale::new(4184.0, 0)));
        assert_eq!(parse_decimal("4.184E3"), Some(Scale::new(4184.0, 0)));
        assert_eq!(parse_decimal(".5"), Some(Scale::new(5.0, -1)));
        assert_eq!(parse_decimal("0"), Some(Scale::new(0.0, 0)));
        assert_eq!(parse_decimal("."), None);
        assert_eq!(parse_decimal("1e"), None);
    }

    #[test]
    fn exact_powers_of_ten() {
        assert_eq!(Scale::new(1.0, 9).to_f64(), Some(1e9));
        assert_eq!(Scale::new(1.0, -30).to_f64(), Some(1e-30));
        assert_eq!(Scale::new(1.602176634, -22).to_f64(), Some(1.602176634e-22));
        assert_eq!(
            Scale::new(529177210903.0, -22).to_f64(),
            Some(0.529177210903e-10)
        );
        assert_eq!(Scale::new(1.0, 400).to_f64(), None);
        assert_eq!(Scale::new(1.0, -400).to_f64(), None);
        assert_eq!(Scale::new(0.0, 0).to_f64(), None);
    }
}
