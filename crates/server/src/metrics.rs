//! Server metrics (prometheus-client), exposed by `GET /metrics` in the OpenMetrics text format
//! (which Prometheus scrapes): requests by route and status, a latency histogram per route,
//! requests in flight, the loaded artifact (hash, load time, when loaded) and reloads by result.

use super::core::Summary;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ArtifactLabels {
    project: String,
    version: String,
    content_hash: String,
    routing_fingerprint: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TokenLabels {
    upstream: String,
    kind: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct UpstreamLabels {
    upstream: String,
    outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReloadLabels {
    result: String,
}

/// The outcomes of one upstream call of `schemarouter gateway`, the `outcome` label of
/// `schemarouter_gateway_upstream_calls_total`: the one table of them, which the metric's
/// HELP text lists ([`gateway_calls_help`]) and the gateway's errors are kinds of (`ok` is a
/// call answered and read; each other outcome is an error `upstream_<outcome>`).
pub const GATEWAY_OUTCOMES: &[&str] = &[
    "ok",
    "timeout",
    "crashed",
    "unreachable",
    "restarting",
    "status",
    "too_large",
    "malformed",
    "tool_error",
    "not_configured",
];

/// The HELP text of `schemarouter_gateway_upstream_calls`, its outcomes from
/// [`GATEWAY_OUTCOMES`].
pub fn gateway_calls_help() -> String {
    format!(
        "Upstream calls made by the gateway, by upstream and outcome ({})",
        GATEWAY_OUTCOMES.join(", ")
    )
}

fn latency_histogram() -> Histogram {
    // 25 µs to about 0.4 s.
    Histogram::new(exponential_buckets(25e-6, 2.0, 15))
}

/// The registry and the metric families both faces update.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    in_flight: Gauge,
    artifact: Family<ArtifactLabels, Gauge>,
    loaded_at: Gauge<f64, AtomicU64>,
    load_seconds: Gauge<f64, AtomicU64>,
    reloads: Family<ReloadLabels, Counter>,
    tokens: Family<TokenLabels, Counter>,
    upstream_calls: Family<UpstreamLabels, Counter>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// A registry with every family registered (prefix `schemarouter`).
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("schemarouter");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            latency_histogram,
        );
        let in_flight = Gauge::default();
        let artifact = Family::<ArtifactLabels, Gauge>::default();
        let loaded_at = Gauge::<f64, AtomicU64>::default();
        let load_seconds = Gauge::<f64, AtomicU64>::default();
        let reloads = Family::<ReloadLabels, Counter>::default();
        registry.register(
            "requests",
            "Requests answered, by route and HTTP status",
            requests.clone(),
        );
        registry.register(
            "request_duration_seconds",
            "Time to answer a request, by route",
            latency.clone(),
        );
        registry.register(
            "requests_in_flight",
            "Requests being answered now",
            in_flight.clone(),
        );
        registry.register(
            "artifact_info",
            "The artifact being served (value 1; its identity in the labels)",
            artifact.clone(),
        );
        registry.register(
            "artifact_loaded_timestamp_seconds",
            "When the served artifact was loaded (Unix time)",
            loaded_at.clone(),
        );
        registry.register(
            "artifact_load_duration_seconds",
            "Time to read, verify and prepare the served artifact",
            load_seconds.clone(),
        );
        registry.register(
            "artifact_reloads",
            "Reload attempts, by result (swapped, unchanged, refused)",
            reloads.clone(),
        );
        let tokens = Family::<TokenLabels, Counter>::default();
        let upstream_calls = Family::<UpstreamLabels, Counter>::default();
        registry.register(
            "gateway_tokens",
            "o200k_base tokens of upstream responses executed by the gateway, by upstream and kind (raw: what the upstream sent; delivered: what the agent received)",
            tokens.clone(),
        );
        registry.register(
            "gateway_upstream_calls",
            gateway_calls_help(),
            upstream_calls.clone(),
        );
        Metrics {
            registry,
            tokens,
            upstream_calls,
            requests,
            latency,
            in_flight,
            artifact,
            loaded_at,
            load_seconds,
            reloads,
        }
    }

    /// Record the artifact now served.
    pub fn set_artifact(&self, s: &Summary) {
        self.artifact.clear();
        self.artifact
            .get_or_create(&ArtifactLabels {
                project: s.project.clone(),
                version: s.version.clone(),
                content_hash: s.content_hash.clone(),
                routing_fingerprint: s.routing_fingerprint.clone(),
            })
            .set(1);
        self.loaded_at.set(s.loaded_at);
        self.load_seconds.set(s.load_ms / 1e3);
    }

    /// Count a reload attempt.
    pub fn reloaded(&self, result: &str) {
        self.reloads
            .get_or_create(&ReloadLabels {
                result: result.to_string(),
            })
            .inc();
    }

    /// A request started (see [`Metrics::finish`]).
    pub fn start(&self) {
        self.in_flight.inc();
    }

    /// A request finished: count it and observe its latency.
    pub fn finish(&self, route: &str, status: u16, latency: Duration) {
        self.in_flight.dec();
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                route: route.to_string(),
            })
            .observe(latency.as_secs_f64());
    }

    /// Count the o200k_base tokens of one executed upstream response (`raw`) and of what the
    /// agent received from it (`delivered`), for `schemarouter gateway`.
    pub fn gateway_tokens(&self, upstream: &str, raw: usize, delivered: usize) {
        for (kind, n) in [("raw", raw), ("delivered", delivered)] {
            self.tokens
                .get_or_create(&TokenLabels {
                    upstream: upstream.to_string(),
                    kind: kind.to_string(),
                })
                .inc_by(n as u64);
        }
    }

    /// Count one upstream call of `schemarouter gateway` by its outcome (one of
    /// [`GATEWAY_OUTCOMES`]).
    pub fn gateway_call(&self, upstream: &str, outcome: &str) {
        debug_assert!(
            GATEWAY_OUTCOMES.contains(&outcome),
            "`{outcome}` is not in GATEWAY_OUTCOMES"
        );
        self.upstream_calls
            .get_or_create(&UpstreamLabels {
                upstream: upstream.to_string(),
                outcome: outcome.to_string(),
            })
            .inc();
    }

    /// The OpenMetrics text exposition (ends with `# EOF`).
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

#[cfg(test)]
mod tests {
    /// The HELP line lists the outcomes of the one table, in its order.
    #[test]
    fn the_upstream_calls_help_lists_every_outcome() {
        // A family is written once it has a series.
        let m = super::Metrics::new();
        m.gateway_call("faults", "ok");
        let text = m.encode();
        let help = text
            .lines()
            .find(|l| l.starts_with("# HELP schemarouter_gateway_upstream_calls "))
            .unwrap_or_else(|| panic!("{text}"));
        assert_eq!(
            help,
            "# HELP schemarouter_gateway_upstream_calls Upstream calls made by the gateway, by upstream and outcome (ok, timeout, crashed, unreachable, restarting, status, too_large, malformed, tool_error, not_configured)."
        );
    }
}
