//! Helpers of the ranked routing's unit tests.

use crate::artifact::EndpointData;

/// An endpoint returning the given response fields (name, type) under a records path, from its
/// JSON form (a name ending in `id` is an identifier).
pub(super) fn returning(records: Option<&str>, fields: &[(&str, &str)]) -> EndpointData {
    let fields: Vec<serde_json::Value> = fields
        .iter()
        .map(|(name, ty)| {
            serde_json::json!({"name": name, "type": ty,
                "identifier": name.ends_with("id")})
        })
        .collect();
    serde_json::from_value(serde_json::json!({"id": "e", "method": "GET",
        "url": "https://x.test/e", "records": records, "parameters": [], "fields": fields,
        "identifiers": [], "group_fields": {}}))
    .expect("endpoint json")
}
