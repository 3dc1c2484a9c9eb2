//! The symbol table: built-in units, SI prefixes, project extensions, and "did you mean".

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use super::dimension::Dimension;
use super::lex::{self, Tok};
use super::scale::Scale;
use super::{UnitError, published};

/// SI prefixes with their power of ten. "da" precedes "d" so the longer prefix wins.
pub(crate) const PREFIXES: [(&str, i32); 24] = [
    ("Q", 30),
    ("R", 27),
    ("Y", 24),
    ("Z", 21),
    ("E", 18),
    ("P", 15),
    ("T", 12),
    ("G", 9),
    ("M", 6),
    ("k", 3),
    ("h", 2),
    ("da", 1),
    ("d", -1),
    ("c", -2),
    ("m", -3),
    ("μ", -6),
    ("n", -9),
    ("p", -12),
    ("f", -15),
    ("a", -18),
    ("z", -21),
    ("y", -24),
    ("r", -27),
    ("q", -30),
];

/// One known unit symbol.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    /// Canonical spelling; empty for "dimensionless", which contributes only its factor (1).
    pub canonical: String,
    pub scale: Scale,
    pub dim: Dimension,
    /// SI prefixes may be attached (kPa, meV, μm).
    pub prefixable: bool,
    /// Zero point of an offset (affine) scale, in the unit's own degrees: the SI value of `x`
    /// is `(x + offset) × scale` (273.15 for °C, 459.67 for °F); 0 for every other unit.
    pub offset: f64,
}

/// A symbol resolved against the table (prefix applied).
#[derive(Clone, Debug)]
pub(crate) struct Resolved {
    pub canonical: String,
    pub scale: Scale,
    pub dim: Dimension,
    /// See [`Entry::offset`].
    pub offset: f64,
}

/// Known unit symbols: built-ins plus project-declared extensions.
///
/// Built-ins: the SI base and derived units (m, g, s, A, K, mol, cd, rad, sr, Hz, N, Pa, J, W,
/// C, V, F, Ω/ohm, S, Wb, T, H) plus eV, L, bar, Da, cal (thermochemical, 4.184 J) and Wh,
/// all of which take the SI prefixes q r y z a f p n μ m c d da h k M G T P E Z Y R Q (kcal,
/// kWh); and, without prefixes: Å, deg/°, u/amu, e, μB, m_e/mₑ, kB, atm, min, h (hour; "h"
/// alone is the hour, "hPa" is hectopascal), day, week (wk), %, ppm, "dimensionless", the
/// everyday units t (tonne), lb/lbs, oz, in, ft, yd, mi, nmi, acre, gal (US), mph, psi, mmHg,
/// and the count units atom, f.u. (fu, formula_unit) and cell. The offset
/// temperature scales °C and °F and their difference units come from [`AFFINE`].
/// Exact symbols win over prefix splits ("Pa" is pascal, "min" is minute, "cd" is candela).
#[derive(Clone, Debug)]
pub struct UnitTable {
    entries: Vec<Entry>,
    /// Symbol or alias → index into `entries`.
    index: HashMap<String, usize>,
    /// Names added by `with_extensions`, in insertion order.
    extensions: Vec<String>,
}

fn dim(name: &str) -> Dimension {
    Dimension::from_name(name).expect("built-in dimension name")
}

/// (symbols, human name (documentation only), mantissa, power of ten, dimension, prefixable).
/// The first symbol is canonical; the rest are aliases.
type Builtin = (
    &'static [&'static str],
    &'static str,
    f64,
    i32,
    Dimension,
    bool,
);

fn builtins() -> Vec<Builtin> {
    let count = |i| Dimension::base(i, 1);
    vec![
        (&["m"], "metre", 1.0, 0, dim("length"), true),
        (&["g"], "gram", 1.0, -3, dim("mass"), true),
        (&["s"], "second", 1.0, 0, dim("time"), true),
        (&["A"], "ampere", 1.0, 0, dim("current"), true),
        (&["K"], "kelvin", 1.0, 0, dim("temperature"), true),
        (&["mol"], "mole", 1.0, 0, dim("amount"), true),
        (&["cd"], "candela", 1.0, 0, dim("luminous_intensity"), true),
        (&["rad"], "radian", 1.0, 0, dim("angle"), true),
        (&["sr"], "steradian", 1.0, 0, dim("solid_angle"), true),
        (&["Hz"], "hertz", 1.0, 0, dim("frequency"), true),
        (&["N"], "newton", 1.0, 0, dim("force"), true),
        (&["Pa"], "pascal", 1.0, 0, dim("pressure"), true),
        (&["J"], "joule", 1.0, 0, dim("energy"), true),
        (&["W"], "watt", 1.0, 0, dim("power"), true),
        (&["C"], "coulomb", 1.0, 0, dim("charge"), true),
        (&["V"], "volt", 1.0, 0, dim("voltage"), true),
        (&["F"], "farad", 1.0, 0, dim("capacitance"), true),
        (&["Ω", "ohm", "Ohm"], "ohm", 1.0, 0, dim("resistance"), true),
        (&["S"], "siemens", 1.0, 0, dim("conductance"), true),
        (&["Wb"], "weber", 1.0, 0, dim("magnetic_flux"), true),
        (&["T"], "tesla", 1.0, 0, dim("magnetic_field"), true),
        (&["H"], "henry", 1.0, 0, dim("inductance"), true),
        (
            &["eV"],
            "electronvolt",
            1.602176634,
            -19,
            dim("energy"),
            true,
        ),
        (&["L"], "litre", 1.0, -3, dim("volume"), true),
        (&["bar"], "bar", 1.0, 5, dim("pressure"), true),
        (&["Da"], "dalton", 1.66053906660, -27, dim("mass"), true),
        (&["Å"], "angstrom", 1.0, -10, dim("length"), false),
        (
            &["deg", "°"],
            "degree",
            std::f64::consts::PI / 180.0,
            0,
            dim("angle"),
            false,
        ),
        (
            &["u", "amu"],
            "atomic mass unit",
            1.66053906660,
            -27,
            dim("mass"),
            false,
        ),
        (
            &["e"],
            "elementary charge",
            1.602176634,
            -19,
            dim("charge"),
            false,
        ),
        (
            &["μB", "μ_B", "mu_B", "muB"],
            "Bohr magneton",
            9.2740100783,
            -24,
            dim("magnetic_moment"),
            false,
        ),
        (
            &["m_e", "mₑ"],
            "electron mass",
            9.1093837015,
            -31,
            dim("mass"),
            false,
        ),
        (
            &["kB", "k_B"],
            "Boltzmann constant",
            1.380649,
            -23,
            dim("heat_capacity"),
            false,
        ),
        (
            &["atm"],
            "standard atmosphere",
            1.01325,
            5,
            dim("pressure"),
            false,
        ),
        (&["min"], "minute", 6.0, 1, dim("time"), false),
        (&["h"], "hour", 3.6, 3, dim("time"), false),
        (&["%"], "percent", 1.0, -2, Dimension::DIMENSIONLESS, false),
        (
            &["ppm"],
            "parts per million",
            1.0,
            -6,
            Dimension::DIMENSIONLESS,
            false,
        ),
        // Everyday units of public APIs (nutrition, real estate, transport, energy), exact by
        // definition: the international yard and pound (1959), the thermochemical calorie,
        // the US liquid gallon, the conventional millimetre of mercury. Symbols that a case
        // fold would confuse with a scientific unit are left out (`d` with debye `D`, `ha`
        // with hartree `Ha`, `kn` with `kN`): write `day`, or declare them under `[units]`.
        (
            &["cal"],
            "calorie (thermochemical)",
            4.184,
            0,
            dim("energy"),
            true,
        ),
        (&["Wh"], "watt-hour", 3.6, 3, dim("energy"), true),
        (&["t"], "tonne", 1.0, 3, dim("mass"), false),
        (&["lb", "lbs"], "pound", 4.5359237, -1, dim("mass"), false),
        (&["oz"], "ounce", 2.8349523125, -2, dim("mass"), false),
        (&["in"], "inch", 2.54, -2, dim("length"), false),
        (&["ft"], "foot", 3.048, -1, dim("length"), false),
        (&["yd"], "yard", 9.144, -1, dim("length"), false),
        (&["mi"], "mile", 1.609344, 3, dim("length"), false),
        (&["nmi"], "nautical mile", 1.852, 3, dim("length"), false),
        (&["acre"], "acre", 4.0468564224, 3, dim("area"), false),
        (&["gal"], "US gallon", 3.785411784, -3, dim("volume"), false),
        (
            &["mph"],
            "mile per hour",
            4.4704,
            -1,
            dim("velocity"),
            false,
        ),
        (
            &["psi"],
            "pound-force per square inch",
            6.894757293168361,
            3,
            dim("pressure"),
            false,
        ),
        (
            &["mmHg"],
            "millimetre of mercury",
            1.33322387415,
            2,
            dim("pressure"),
            false,
        ),
        (&["day"], "day", 8.64, 4, dim("time"), false),
        (&["wk", "week"], "week", 6.048, 5, dim("time"), false),
        (&["atom"], "atom", 1.0, 0, count(8), false),
        (
            &["f.u.", "fu", "formula_unit"],
            "formula unit",
            1.0,
            0,
            count(9),
            false,
        ),
        (&["cell"], "cell", 1.0, 0, count(10), false),
    ]
}

/// (symbols, human name (documentation only), mantissa, power of ten, zero point).
/// The first symbol is canonical; the rest are aliases.
type Affine = (&'static [&'static str], &'static str, f64, i32, f64);

/// The offset temperature scales and their degree-difference units, as data: a value `x` in
/// one of these is `(x + zero) × mantissa × 10^power` kelvin. So K = °C + 273.15 and
/// °F = °C × 9/5 + 32 (°F = (x + 459.67) × 5/9 K). None takes SI prefixes. A difference unit
/// (`delta_degC`, `delta_degF`) has zero point 0: 1 delta_degC = 1 K. Inside a compound
/// (`°C/min`, `J/(kg·°C)`) an offset scale stands for its degree size (see
/// [`super::Unit::offset`]).
pub const AFFINE: &[Affine] = &[
    (
        &[
            "°C",
            "degC",
            "deg_C",
            "celsius",
            "Celsius",
            "degree_Celsius",
            "degree_celsius",
            "degrees_Celsius",
            "degrees_celsius",
            "degreesC",
            "degrees_C",
        ],
        "degree Celsius",
        1.0,
        0,
        273.15,
    ),
    (
        &[
            "°F",
            "degF",
            "deg_F",
            "fahrenheit",
            "Fahrenheit",
            "degree_Fahrenheit",
            "degree_fahrenheit",
            "degrees_Fahrenheit",
            "degrees_fahrenheit",
            "degreesF",
            "degrees_F",
        ],
        "degree Fahrenheit",
        5.0 / 9.0,
        0,
        459.67,
    ),
    (
        &["delta_degC", "Δ°C"],
        "Celsius degree (a difference)",
        1.0,
        0,
        0.0,
    ),
    (
        &["delta_degF", "Δ°F"],
        "Fahrenheit degree (a difference)",
        5.0 / 9.0,
        0,
        0.0,
    ),
];

impl UnitTable {
    /// The built-in table (see the type's documentation for its contents). Cheap: the table is
    /// built once per process and cloned.
    pub fn builtin() -> UnitTable {
        static BUILTIN: OnceLock<UnitTable> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                let mut t = UnitTable {
                    entries: Vec::new(),
                    index: HashMap::new(),
                    extensions: Vec::new(),
                };
                let affine = AFFINE.iter().map(|&(syms, name, mant, p10, zero)| {
                    ((syms, name, mant, p10, dim("temperature"), false), zero)
                });
                for ((syms, _name, mant, p10, dim, prefixable), offset) in
                    builtins().into_iter().map(|b| (b, 0.0)).chain(affine)
                {
                    let i = t.entries.len();
                    t.entries.push(Entry {
                        canonical: syms[0].to_string(),
                        scale: Scale::new(mant, p10),
                        dim,
                        prefixable,
                        offset,
                    });
                    for s in syms {
                        t.index.insert((*s).to_string(), i);
                    }
                }
                let i = t.entries.len();
                t.entries.push(Entry {
                    canonical: String::new(),
                    scale: Scale::ONE,
                    dim: Dimension::DIMENSIONLESS,
                    prefixable: false,
                    offset: 0.0,
                });
                t.index.insert("dimensionless".to_string(), i);
                t
            })
            .clone()
    }

    /// Every symbol and alias the table resolves without a prefix (built-ins, `dimensionless`
    /// and the project's extensions), sorted: the unit spellings an editor completes.
    pub fn spellings(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.index.keys().map(String::as_str).collect();
        v.sort_unstable();
        v
    }

    /// Names of the project-declared extension units in this table, in the order they were
    /// resolved (definitions may refer to each other, so dependencies come first).
    pub fn extension_names(&self) -> &[String] {
        &self.extensions
    }

    /// Resolve one (already folded) symbol: exact symbol or alias first, then an SI prefix
    /// followed by a prefixable symbol.
    pub(crate) fn resolve(&self, sym: &str) -> Option<Resolved> {
        if let Some(&i) = self.index.get(sym) {
            let e = &self.entries[i];
            return Some(Resolved {
                canonical: e.canonical.clone(),
                scale: e.scale,
                dim: e.dim,
                offset: e.offset,
            });
        }
        for (p, p10) in PREFIXES {
            if let Some(rest) = sym.strip_prefix(p)
                && let Some(&i) = self.index.get(rest)
                && self.entries[i].prefixable
            {
                let e = &self.entries[i];
                return Some(Resolved {
                    canonical: format!("{p}{}", e.canonical),
                    scale: Scale::new(e.scale.mant, e.scale.p10 + p10),
                    dim: e.dim,
                    offset: 0.0,
                });
            }
        }
        None
    }

    /// Extend with project-declared units: name -> definition expression in the unit grammar,
    /// optionally with a leading number, e.g. "bohr" = "0.529177210903 Å", "kcal" = "4184 J",
    /// "Ry" = "13.605693122994 eV".
    ///
    /// A name must be a single symbol token (letters, `_`, `°`, `%`; no digits, dots or
    /// operators) that does not already resolve in this table (neither as a symbol nor as a
    /// prefixed symbol: "ms" would shadow millisecond). Extension units take no SI prefixes
    /// (declare "mRy" separately). Definitions may use other extensions, in any order; cycles
    /// are reported. Errors name the bad entry; the [`UnitError`] span points into the
    /// definition string (or covers the whole name when the name itself is at fault).
    pub fn with_extensions(
        &self,
        defs: &BTreeMap<String, String>,
    ) -> Result<UnitTable, (String, UnitError)> {
        let mut table = self.clone();
        let mut pending: Vec<(&String, String, &String)> = Vec::new();
        for (name, def) in defs {
            let key = match table.check_extension_name(name) {
                Ok(key) => key,
                // A project written before a unit became built in (`kcal = "4184 J"`) keeps
                // loading: the declaration says what the table already says.
                Err(_) if table.restates_known(name, def) => continue,
                Err(e) => return Err((name.clone(), e)),
            };
            if pending.iter().any(|(_, k, _)| *k == key) {
                let e = lex::err(
                    format!("unit '{name}' is declared twice (spellings fold to the same symbol)"),
                    0,
                    name.len(),
                );
                return Err((name.clone(), e));
            }
            pending.push((name, key, def));
        }
        while !pending.is_empty() {
            let mut progress = false;
            let mut failures: Vec<(usize, UnitError)> = Vec::new();
            let mut i = 0;
            while i < pending.len() {
                match table.parse_scaled(pending[i].2) {
                    Ok(p) if p.affine.is_some() => {
                        let (a, b) = p.affine.unwrap_or_default();
                        let e = lex::err(
                            "an extension unit is a factor times known units, and an offset temperature scale has a zero point: define it from `K`, or from `delta_degC`/`delta_degF` for a degree size",
                            a,
                            b,
                        );
                        return Err((pending[i].0.clone(), e));
                    }
                    Ok(super::parse::Scaled { scale, dim, .. }) => {
                        let (_, key, _) = pending.remove(i);
                        let idx = table.entries.len();
                        table.entries.push(Entry {
                            canonical: key.clone(),
                            scale,
                            dim,
                            prefixable: false,
                            offset: 0.0,
                        });
                        table.index.insert(key.clone(), idx);
                        table.extensions.push(key);
                        progress = true;
                    }
                    Err(e) => {
                        failures.push((i, e));
                        i += 1;
                    }
                }
            }
            if !progress {
                // The symbol each definition failed on; one that is another pending entry only
                // waits for it. Report a definition that fails on its own first (`foo =
                // "blorp"` before `bar = "2 foo"`, which is no cycle); only when every one
                // waits for another is there a cycle.
                let bad_of = |i: usize, e: &UnitError| {
                    lex::fold_symbol(pending[i].2.get(e.offset..e.offset + e.len).unwrap_or(""))
                };
                let waits = |bad: &str| pending.iter().any(|(_, k, _)| k == bad);
                let at = failures
                    .iter()
                    .position(|(i, e)| !waits(&bad_of(*i, e)))
                    .unwrap_or(0);
                let (i, mut e) = failures.swap_remove(at);
                let (name, _, _) = pending[i];
                let bad = bad_of(i, &e);
                if waits(&bad) {
                    e.message = format!(
                        "circular definition: '{name}' depends on '{bad}', which depends back on it"
                    );
                    e.suggestion = None;
                }
                return Err((name.clone(), e));
            }
        }
        Ok(table)
    }

    /// Whether a project unit `name = def` is a known unit of the same size and dimension
    /// (relative difference under 1e-12), with no offset: a redundant declaration.
    fn restates_known(&self, name: &str, def: &str) -> bool {
        let (Some(known), Ok(p)) = (self.resolve(name.trim()), self.parse_scaled(def)) else {
            return false;
        };
        let (Some(a), Some(b)) = (known.scale.to_f64(), p.scale.to_f64()) else {
            return false;
        };
        known.offset == 0.0
            && p.affine.is_none()
            && known.dim == p.dim
            && (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
    }

    fn check_extension_name(&self, name: &str) -> Result<String, UnitError> {
        let whole = |msg: String| lex::err(msg, 0, name.len());
        let toks = lex::lex(name).map_err(|_| {
            whole(format!(
                "invalid unit name '{name}': use letters and '_' only (no digits, dots or operators)"
            ))
        })?;
        let key = match &toks[..] {
            [t] if t.start == 0 && t.end == name.len() => match &t.tok {
                Tok::Sym(s) if s != "f.u." => s.clone(),
                _ => String::new(),
            },
            _ => String::new(),
        };
        if key.is_empty() {
            return Err(whole(format!(
                "invalid unit name '{name}': use letters and '_' only (no digits, dots or operators)"
            )));
        }
        if let Some(r) = self.resolve(&key) {
            let what = if r.canonical.is_empty() {
                "dimensionless".to_string()
            } else {
                r.canonical
            };
            let mut e = whole(format!(
                "unit '{name}' would shadow the known unit '{what}'; choose another name"
            ));
            e.suggestion = Some(what);
            return Err(e);
        }
        Ok(key)
    }

    /// Every symbol and alias with its entry's canonical spelling and prefixability.
    fn symbols(&self) -> impl Iterator<Item = (&str, &Entry)> {
        let mut v: Vec<(&str, usize)> = self.index.iter().map(|(k, &i)| (k.as_str(), i)).collect();
        // Deterministic order: entry order, canonical spelling first, then aliases by name.
        v.sort_by(|a, b| {
            let ca = self.entries[a.1].canonical == a.0;
            let cb = self.entries[b.1].canonical == b.0;
            (a.1, !ca, a.0).cmp(&(b.1, !cb, b.0))
        });
        v.into_iter().map(move |(k, i)| (k, &self.entries[i]))
    }

    fn display_canonical(e: &Entry) -> String {
        if e.canonical.is_empty() {
            "1".to_string()
        } else {
            e.canonical.clone()
        }
    }

    /// Case-insensitive matches of `token`: first the unprefixed ones, then the prefixed ones,
    /// each list deduplicated by canonical spelling, in table and prefix order. Prefixed
    /// matches only count when the unit part has two or more characters ("gpa" → GPa), so a
    /// short token is not read as a prefix plus a one-letter unit ("Ha" is not hA).
    pub(crate) fn case_fold_candidates(&self, token: &str) -> (Vec<String>, Vec<String>) {
        let lower = token.to_lowercase();
        let mut plain: Vec<String> = Vec::new();
        let mut prefixed: Vec<String> = Vec::new();
        let symbols: Vec<(&str, &Entry)> = self.symbols().collect();
        for &(k, e) in &symbols {
            if k.to_lowercase() == lower {
                let c = Self::display_canonical(e);
                if !plain.contains(&c) {
                    plain.push(c);
                }
            }
        }
        for (p, _) in PREFIXES {
            let Some(rest) = lower.strip_prefix(&p.to_lowercase()) else {
                continue;
            };
            for &(k, e) in &symbols {
                if e.prefixable
                    && k.len() >= 2
                    && k.len().abs_diff(rest.len()) <= 2
                    && k.to_lowercase() == rest
                {
                    let c = format!("{p}{}", e.canonical);
                    if !prefixed.contains(&c) {
                        prefixed.push(c);
                    }
                }
            }
        }
        (plain, prefixed)
    }

    /// ASCII "u" used as the micro prefix: "um" → "μm", "uOhm" → "μΩ". Only when the token is
    /// not itself known and "μ" + the rest resolves.
    pub(crate) fn ascii_micro_fix(&self, token: &str) -> Option<String> {
        let rest = token.strip_prefix('u')?;
        if rest.is_empty() || self.resolve(token).is_some() {
            return None;
        }
        self.resolve(&format!("μ{rest}")).map(|r| r.canonical)
    }

    /// The single repair of an unknown `token` for published spellings, when unambiguous:
    /// ASCII micro ("uV" → "μV"), else the unique unprefixed case-insensitive match, else the
    /// unique prefixed one ("ev" → "eV", "gpa" → "GPa", "Atom" → "atom"; "mpa" stays unresolved
    /// because of MPa/mPa). One-character tokens are never repaired.
    pub(crate) fn case_fold_fix(&self, token: &str) -> Option<String> {
        if token.chars().count() < 2 {
            return None;
        }
        if let Some(m) = self.ascii_micro_fix(token) {
            return Some(m);
        }
        let (plain, prefixed) = self.case_fold_candidates(token);
        match (&plain[..], &prefixed[..]) {
            ([one], _) => Some(one.clone()),
            ([], [one]) => Some(one.clone()),
            _ => None,
        }
    }

    /// A rate written without its slash: a known unit followed by a time unit (`kmh` -> `km/h`,
    /// `mmh` -> `mm/h`, `ms` is a unit of its own and never reaches here).
    fn run_together_rate(&self, token: &str) -> Option<String> {
        ["min", "h", "s", "d"].iter().find_map(|per| {
            let unit = token.strip_suffix(per)?;
            (!unit.is_empty() && self.resolve(unit).is_some() && self.resolve(per).is_some())
                .then(|| format!("{unit}/{per}"))
        })
    }

    /// "Did you mean" for an unknown symbol: ASCII micro ("um" →
    /// "μm"); case-insensitive matches; unit words ("Angstrom" → "Å", "joule" → "J"); a rate
    /// without its slash ("kmh" → "km/h"); then the
    /// nearest symbol, alias or word by optimal-string-alignment (Damerau–Levenshtein) distance (at most 1 for tokens of
    /// up to four characters, 2 for longer ones, and at most half the token length).
    pub(crate) fn suggest(&self, token: &str) -> Option<String> {
        if let Some(m) = self.ascii_micro_fix(token) {
            return Some(m);
        }
        let (plain, prefixed) = self.case_fold_candidates(token);
        if let Some(c) = plain.first().or(prefixed.first()) {
            return Some(c.clone());
        }
        if let Some(sym) = published::word_to_symbol(token)
            && self.resolve(&sym).is_some()
        {
            return Some(sym);
        }
        if let Some(rate) = self.run_together_rate(token) {
            return Some(rate);
        }
        let n = token.chars().count();
        let limit = if n <= 4 { 1 } else { 2 };
        let mut best: Option<(usize, String)> = None;
        let mut consider = |cand: &str, out: String| {
            let d = strsim::osa_distance(token, cand);
            if d <= limit && 2 * d < n.max(1) + 1 && best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                best = Some((d, out));
            }
        };
        let symbols: Vec<(&str, &Entry)> = self.symbols().collect();
        for &(k, _) in &symbols {
            consider(k, k.to_string());
        }
        for (word, sym) in published::unit_words() {
            consider(word, sym.to_string());
        }
        for (p, _) in PREFIXES {
            for &(k, e) in &symbols {
                let len = p.chars().count() + k.chars().count();
                if e.prefixable && len.abs_diff(n) <= limit {
                    let s = format!("{p}{k}");
                    consider(&s, format!("{p}{}", e.canonical));
                }
            }
        }
        best.map(|(_, s)| s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b() -> UnitTable {
        UnitTable::builtin()
    }

    #[test]
    fn everyday_units_are_exact_and_do_not_shadow_scientific_ones() {
        let t = b();
        let si = |u: &str| t.resolve(u).unwrap().scale.to_f64().unwrap();
        assert_eq!(si("kcal"), 4184.0);
        assert_eq!(si("kWh"), 3.6e6);
        assert_eq!(si("lb"), 0.45359237);
        assert_eq!(si("lbs"), 0.45359237);
        assert_eq!(si("in"), 0.0254);
        assert_eq!(si("ft"), 0.3048);
        assert_eq!(si("mi"), 1609.344);
        assert_eq!(si("day"), 86400.0);
        assert_eq!(t.resolve("acre").unwrap().dim, dim("area"));
        assert_eq!(t.resolve("mph").unwrap().dim, dim("velocity"));
        assert_eq!(t.resolve("psi").unwrap().dim, dim("pressure"));
        // Exact symbols still win over prefix splits, and scientific symbols are unchanged.
        assert_eq!(t.resolve("min").unwrap().canonical, "min");
        assert_eq!(t.resolve("T").unwrap().dim, dim("magnetic_field"));
        assert_eq!(t.resolve("kN").unwrap().dim, dim("force"));
        assert!(t.resolve("d").is_none() && t.resolve("ha").is_none());
        assert_eq!(t.case_fold_fix("Ha"), None);
    }

    #[test]
    fn resolves_exact_before_prefix() {
        let t = b();
        assert_eq!(t.resolve("Pa").unwrap().canonical, "Pa");
        assert_eq!(t.resolve("min").unwrap().canonical, "min");
        assert_eq!(t.resolve("cd").unwrap().canonical, "cd");
        assert_eq!(t.resolve("h").unwrap().scale, Scale::new(3.6, 3));
        let hpa = t.resolve("hPa").unwrap();
        assert_eq!(
            (hpa.canonical.as_str(), hpa.scale),
            ("hPa", Scale::new(1.0, 2))
        );
        let dam = t.resolve("dam").unwrap();
        assert_eq!(
            (dam.canonical.as_str(), dam.scale),
            ("dam", Scale::new(1.0, 1))
        );
        let kg = t.resolve("kg").unwrap();
        assert_eq!(kg.scale, Scale::new(1.0, 0));
        assert_eq!(t.resolve("kohm").unwrap().canonical, "kΩ");
        assert_eq!(t.resolve("fu").unwrap().canonical, "f.u.");
        assert_eq!(t.resolve("mₑ").unwrap().canonical, "m_e");
        assert_eq!(t.resolve("dimensionless").unwrap().canonical, "");
        assert!(t.resolve("kÅ").is_none());
        assert!(t.resolve("fu").is_some());
        assert!(t.resolve("mu").is_none());
        assert!(t.resolve("kkg").is_none());
        assert!(t.resolve("μ").is_none());
    }

    #[test]
    fn case_fold() {
        let t = b();
        assert_eq!(t.case_fold_fix("ev").as_deref(), Some("eV"));
        assert_eq!(t.case_fold_fix("gpa").as_deref(), Some("GPa"));
        assert_eq!(t.case_fold_fix("Atom").as_deref(), Some("atom"));
        assert_eq!(t.case_fold_fix("KPA").as_deref(), Some("kPa"));
        assert_eq!(t.case_fold_fix("mpa"), None);
        assert_eq!(t.case_fold_fix("mev"), None);
        assert_eq!(t.case_fold_fix("Ha"), None);
        assert_eq!(t.case_fold_fix("at"), None);
        assert_eq!(t.case_fold_fix("k"), None);
        assert_eq!(t.case_fold_fix("Mhz"), None);
        assert_eq!(t.case_fold_fix("Khz").as_deref(), Some("kHz"));
        assert_eq!(t.case_fold_fix("um").as_deref(), Some("μm"));
        assert_eq!(t.case_fold_fix("uOhm").as_deref(), Some("μΩ"));
        assert_eq!(t.case_fold_fix("u"), None);
    }

    #[test]
    fn suggestions() {
        let t = b();
        let s = |x: &str| t.suggest(x);
        assert_eq!(s("ev").as_deref(), Some("eV"));
        assert_eq!(s("gpa").as_deref(), Some("GPa"));
        assert_eq!(s("mpa").as_deref(), Some("MPa"));
        assert_eq!(s("Angstrom").as_deref(), Some("Å"));
        assert_eq!(s("angstroms").as_deref(), Some("Å"));
        assert_eq!(s("angstron").as_deref(), Some("Å"));
        assert_eq!(s("joule").as_deref(), Some("J"));
        assert_eq!(s("atoms").as_deref(), Some("atom"));
        assert_eq!(s("degc").as_deref(), Some("°C"));
        assert_eq!(s("Farenheit").as_deref(), Some("Fahrenheit"));
        assert_eq!(s("eVV").as_deref(), Some("eV"));
        assert_eq!(s("x"), None);
        assert_eq!(s("Bohr"), None);
        assert_eq!(s("emu").as_deref(), Some("amu"));
        assert_eq!(s("uV").as_deref(), Some("μV"));
        assert_eq!(s("qwertyuiop"), None);
        // A rate written without its slash.
        assert_eq!(s("kmh").as_deref(), Some("km/h"));
        assert_eq!(s("mmh").as_deref(), Some("mm/h"));
        assert_eq!(s("mmin").as_deref(), Some("m/min"));
    }

    #[test]
    fn extensions() {
        let mut defs = BTreeMap::new();
        defs.insert("bohr".to_string(), "0.529177210903 Å".to_string());
        defs.insert("kcal".to_string(), "4184 J".to_string());
        defs.insert("Ry".to_string(), "13.605693122994 eV".to_string());
        defs.insert("Ha".to_string(), "2 Ry".to_string());
        let t = b().with_extensions(&defs).unwrap();
        let bohr = t.resolve("bohr").unwrap();
        assert_eq!(bohr.scale.to_f64(), Some(0.529177210903e-10));
        assert_eq!(bohr.dim, dim("length"));
        assert_eq!(t.resolve("kcal").unwrap().scale.to_f64(), Some(4184.0));
        let ha = t.resolve("Ha").unwrap();
        assert_eq!(ha.dim, dim("energy"));
        let ry = t.resolve("Ry").unwrap().scale.to_f64().unwrap();
        assert!((ry / 2.1798723611035475e-18 - 1.0).abs() < 1e-15);
        assert!((ha.scale.to_f64().unwrap() / (2.0 * ry) - 1.0).abs() < 1e-15);
        // `kcal` restates the built-in kilocalorie: no extension of its own.
        assert_eq!(t.extension_names(), ["Ry", "bohr", "Ha"]);
        // Extensions take no prefixes.
        assert!(t.resolve("mRy").is_none());
    }

    #[test]
    fn extension_errors() {
        let one = |k: &str, v: &str| {
            let mut d = BTreeMap::new();
            d.insert(k.to_string(), v.to_string());
            b().with_extensions(&d).unwrap_err()
        };
        let (name, e) = one("bohr", "0.529 Angstrom");
        assert_eq!(name, "bohr");
        assert_eq!((e.offset, e.len), (6, 8));
        assert_eq!(e.suggestion.as_deref(), Some("Å"));
        // A declaration that restates a known unit loads (`kcal = "4184 J"` from before the
        // calorie was built in); one that gives it another size shadows it.
        let mut d = BTreeMap::new();
        d.insert("ms".to_string(), "1e-3 s".to_string());
        d.insert("kcal".to_string(), "4184 J".to_string());
        let t = b().with_extensions(&d).unwrap();
        assert!(t.extension_names().is_empty());
        assert_eq!(t.resolve("kcal").unwrap().scale.to_f64(), Some(4184.0));
        let (name, e) = one("ms", "2e-3 s");
        assert_eq!(name, "ms");
        assert_eq!(
            e.message,
            "unit 'ms' would shadow the known unit 'ms'; choose another name"
        );
        let (_, e) = one("eV", "1.6e-19 J");
        assert_eq!(e.suggestion.as_deref(), Some("eV"));
        let (_, e) = one("k2", "1 J");
        assert_eq!((e.offset, e.len), (0, 2));
        assert!(e.message.starts_with("invalid unit name 'k2'"));
        let (_, e) = one("a b", "1 J");
        assert!(e.message.starts_with("invalid unit name"));
        let (_, e) = one("", "1 J");
        assert!(e.message.starts_with("invalid unit name"));
        let (_, e) = one("foo", "");
        assert_eq!(e.message, "empty unit string");
        // An offset scale has a zero point, no factor: no extension is defined by one.
        let (name, e) = one("celsius_rate", "°C/min");
        assert_eq!(name, "celsius_rate");
        assert_eq!((e.offset, e.len), (0, 3));
        assert!(
            e.message.contains("offset temperature scale"),
            "{}",
            e.message
        );
        let mut d = BTreeMap::new();
        d.insert("rankine".to_string(), "1 delta_degF".to_string());
        let t = b().with_extensions(&d).unwrap();
        assert_eq!(t.resolve("rankine").unwrap().dim, dim("temperature"));

        let mut d = BTreeMap::new();
        d.insert("aa".to_string(), "2 bb".to_string());
        d.insert("bb".to_string(), "3 aa".to_string());
        let (name, e) = b().with_extensions(&d).unwrap_err();
        assert_eq!(name, "aa");
        assert_eq!(
            e.message,
            "circular definition: 'aa' depends on 'bb', which depends back on it"
        );
        assert_eq!((e.offset, e.len), (2, 2));
    }

    #[test]
    fn an_unknown_definition_is_reported_before_the_entries_that_use_it() {
        // `barx` waits for `foo`, whose definition fails on its own: `foo` is at fault, and
        // there is no cycle.
        let defs: BTreeMap<String, String> = [("foo", "blorp"), ("barx", "2 foo")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (name, e) = UnitTable::builtin().with_extensions(&defs).unwrap_err();
        assert_eq!(name, "foo");
        assert!(e.message.contains("'blorp'"), "{}", e.message);
        assert!(!e.message.contains("circular"), "{}", e.message);
    }
}
