//! The text an endpoint is embedded from.
//!
//! Its name (the MCP tool name, or the endpoint id), the tool's title, the endpoint's
//! description and its parameters' names (credentials left out), identifiers split into words
//! (`get_current_weather`, `getCurrentWeather` -> `get current weather`, `Current Weather`), the
//! parts joined by `. `. Measured on LiveMCPBench and BFCL v4 against longer documents (the
//! tool's description, the parameters' descriptions): these add words that every endpoint of a
//! tool shares, or that describe values rather than what the endpoint does, and rank no better.

use crate::artifact::{EndpointData, ToolData};

/// The text `tool`'s endpoint `e` is embedded from.
pub fn endpoint_text(tool: &ToolData, e: &EndpointData) -> String {
    let mut parts: Vec<String> = vec![words(e.mcp_tool.as_deref().unwrap_or(&e.id))];
    parts.push(words(&tool.title));
    if let Some(d) = &e.description {
        parts.push(d.clone());
    }
    let params: Vec<String> = e
        .parameters
        .iter()
        .filter(|p| !p.auth)
        .map(|p| words(&p.name))
        .collect();
    if !params.is_empty() {
        parts.push(params.join(" "));
    }
    parts.retain(|p| !p.trim().is_empty());
    parts.join(". ")
}

/// An identifier as words: a space between a lower-case letter or digit and an upper-case
/// letter, and every run of `_ - . / :` as one space.
pub fn words(id: &str) -> String {
    let mut out = String::with_capacity(id.len() + 4);
    let mut prev: Option<char> = None;
    let mut in_sep = false;
    for c in id.chars() {
        if matches!(c, '_' | '-' | '.' | '/' | ':') {
            if !in_sep {
                out.push(' ');
            }
            in_sep = true;
            prev = Some(c);
            continue;
        }
        if c.is_uppercase() && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit()) {
            out.push(' ');
        }
        out.push(c);
        in_sep = false;
        prev = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_become_words() {
        assert_eq!(words("get_current_weather"), "get current weather");
        assert_eq!(words("getCurrentWeather"), "get Current Weather");
        assert_eq!(words("read-file"), "read file");
        assert_eq!(words("api.github.com/repos"), "api github com repos");
        assert_eq!(words("v2Search__all"), "v2 Search all");
        assert_eq!(words("HTTPServer"), "HTTPServer");
        assert_eq!(words("天气"), "天气");
    }
}
