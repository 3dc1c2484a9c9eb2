//! Units (placeholder until the unit module lands).

/// Known units.
#[derive(Clone, Debug, Default)]
pub struct UnitTable;

impl UnitTable {
    /// Built-in units.
    pub fn builtin() -> UnitTable {
        UnitTable
    }
}
