//! The Understand step behind one [`Analyzer`] trait: [`lexical::Lexical`] (offline,
//! deterministic, the default) and [`llm::Llm`] (any OpenAI-compatible chat-completions server).

pub mod lexical;
#[cfg(feature = "llm")]
pub mod llm;
pub mod params;
pub mod scope;
#[cfg(test)]
pub(crate) mod testing;

use super::Understanding;

/// Why the Understand step failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyzerError {
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for AnalyzerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AnalyzerError {}

/// The result of understanding a query: the Understanding plus warnings (dropped unknown
/// intents, tools or concepts).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Analysis {
    /// The structured request.
    pub understanding: Understanding,
    /// Notes about what was dropped or guessed.
    pub warnings: Vec<String>,
}

/// The Understand step: raw query -> [`Understanding`] (paper Appendix D).
pub trait Analyzer {
    /// Understand one query.
    ///
    /// Errors: only analyzers that call out (the LLM) fail; the lexical analyzer always answers.
    fn understand(&self, query: &str) -> Result<Analysis, AnalyzerError>;
}
