//! Units parsed once per distinct spelling (the compile back end reads every field's unit
//! several times: the routing tables, the factors to concept units, the typed graph).

use super::{Unit, UnitTable};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// A parsed unit with its canonical spelling and dimension as shared strings (one allocation
/// per distinct unit, shared by every field that uses it and written once in `graph.bin`).
#[derive(Clone, Debug)]
pub struct CachedUnit {
    /// The parsed unit.
    pub unit: Unit,
    /// Canonical spelling (shared).
    pub canonical: Arc<str>,
    /// Dimension, human form (shared).
    pub dimension: Arc<str>,
}

/// The units of a set of spellings, each parsed once (in parallel) with
/// [`UnitTable::parse`]. A spelling that does not parse has no entry.
#[derive(Debug, Default)]
pub struct UnitCache {
    units: FxHashMap<String, CachedUnit>,
}

impl UnitCache {
    /// Parse every distinct spelling of `spellings` once.
    pub fn new<'a>(table: &UnitTable, spellings: impl IntoIterator<Item = &'a str>) -> UnitCache {
        // Hundreds of thousands of fields share a few hundred spellings: drop repeats by hash
        // (sorting every spelling took 25 ms on one thread at 10,000 tools; FxHash, as the
        // spellings are short and SipHash was most of this one-thread step).
        let distinct: FxHashSet<&str> = spellings.into_iter().collect();
        let mut distinct: Vec<&str> = distinct.into_iter().collect();
        distinct.sort_unstable();
        let units = distinct
            .into_par_iter()
            .filter_map(|s| {
                let unit = table.parse(s).ok()?;
                Some((
                    s.to_string(),
                    CachedUnit {
                        canonical: Arc::from(unit.canonical.as_str()),
                        dimension: Arc::from(unit.dim.to_string()),
                        unit,
                    },
                ))
            })
            .collect();
        UnitCache { units }
    }

    /// The unit of a spelling given to [`UnitCache::new`], when it parses.
    pub fn get(&self, spelling: &str) -> Option<&CachedUnit> {
        self.units.get(spelling)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_spelling_once_and_shares_the_strings() {
        let t = UnitTable::builtin();
        let c = UnitCache::new(&t, ["eV", "eV", "g/cm3", "nonsense_unit", "g/cm^3"]);
        let ev = c.get("eV").unwrap();
        assert_eq!(&*ev.canonical, "eV");
        assert_eq!(&*ev.dimension, t.parse("eV").unwrap().dim.to_string());
        assert!(c.get("nonsense_unit").is_none());
        assert!(c.get("K").is_none(), "not given to new");
        assert_eq!(c.get("g/cm^3").unwrap().unit, t.parse("g/cm^3").unwrap());
    }
}
