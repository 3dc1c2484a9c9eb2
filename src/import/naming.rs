//! The id and names of an imported tool, from who provides the API as well as from the title.
//!
//! A document's title often leaves out the brand ("Interactive documentation for your premium
//! plan", "API v1.0.0", "SqlManagementClient"), so an id made from it alone drops the one word a
//! question names the service by. The id is made, in this order, from:
//!
//! 1. `--tool`, when given;
//! 2. the **provider**: `info.x-providerName` (set by APIs.guru's openapi-directory:
//!    `openweathermap.org`), else the host of the API's server (`api.github.com`), read as a
//!    domain: its registrable name by the Public Suffix List (crate `psl`: `api.github.com` →
//!    `github.com`, `apisetu.gov.in` → `apisetu.gov.in`, `tafqit.herokuapp.com` →
//!    `tafqit.herokuapp.com`), whose first label is the brand (`github`, `apisetu`, `tafqit`);
//!    plus the **service** when there is one: `info.x-serviceName` (`tagmanager`,
//!    `monitor-activityLogs_API`), else the subdomain label nearest the registrable name that is
//!    not a generic one such as `api`, `www`, `sandbox` or a region, and that the title names
//!    (`graph` in `graph.microsoft.com` for "Microsoft Graph"; `digital` in
//!    `api.digital.tfl.gov.uk` is no service of "Transport for London Unified API", which is
//!    `tfl`). The id is the brand and the service in snake case
//!    (`googleapis_tagmanager`), the service without the brand it repeats
//!    (`twilio` + `twilio_frontline_v1` → `twilio_frontline_v1`);
//! 3. else the title in snake case (the rule before provider ids), else the file name.
//!
//! A server on a platform that names the host rather than the provider (mock servers such as
//! `virtserver.swaggerhub.com`, AWS API Gateway's `execute-api` hosts, tunnels such as ngrok,
//! `localhost`, IP addresses, the reserved `example.*` domains and the `.test`, `.example`,
//! `.invalid` and `.localhost` names) gives no provider.
//!
//! The tool's `names` keep the provider's and service's spellings (`openweathermap.org`,
//! `tagmanager`), so that a question that names them resolves the tool; the title stays the
//! tool's `title`, which the router reads as a name too. The title's leading words, without
//! its subtitle and trailing generic words such as "API", "REST" or a version, are a name too
//! when they are two words or more and not words of the document's own paths ("Transport for
//! London" of "Transport for London Unified API"; not "Weather Forecast" of a document whose
//! paths are `/weather/forecast`, which is what it serves, not what it is called).

use super::snake;

/// What a source says about who provides it.
#[derive(Clone, Debug, Default)]
pub struct Evidence<'a> {
    /// `info.x-providerName` (`openweathermap.org`).
    pub provider: Option<&'a str>,
    /// `info.x-serviceName` (`tagmanager`).
    pub service: Option<&'a str>,
    /// The host of the API's server (`api.github.com`), when it has an absolute one.
    pub host: Option<&'a str>,
    /// The title (`info.title`).
    pub title: &'a str,
    /// The source file's stem, the last fallback.
    pub stem: &'a str,
    /// The lower-case words of the document's paths (`/Line/{id}/Status` -> `line`, `id`,
    /// `status`): a title phrase made of them names content, not the tool.
    pub path_words: std::collections::BTreeSet<String>,
}

/// The id and names derived for a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The tool id.
    pub id: String,
    /// Other names for the tool (provider and service spellings), none equal to the id or title
    /// once normalised.
    pub names: Vec<String>,
    /// The id the title alone gives (the rule before provider ids): a re-import finds a file an
    /// earlier import wrote under it.
    pub title_id: String,
}

/// Longest id made from provider and service; a longer service loses its last words.
const MAX_ID: usize = 64;

/// Subdomain labels that name no service (`api.github.com`, `sandbox.api.example.io`).
const GENERIC_LABELS: &[&str] = &[
    "api",
    "apis",
    "www",
    "www2",
    "rest",
    "restapi",
    "json",
    "http",
    "https",
    "gateway",
    "gw",
    "app",
    "apps",
    "web",
    "public",
    "secure",
    "ssl",
    "services",
    "service",
    "svc",
    "dev",
    "devel",
    "development",
    "developer",
    "developers",
    "staging",
    "stage",
    "stg",
    "sandbox",
    "test",
    "testing",
    "qa",
    "uat",
    "demo",
    "preprod",
    "prod",
    "production",
    "live",
    "beta",
    "alpha",
    "preview",
    "edge",
    "cdn",
    "m",
    "mobile",
    "internal",
    "external",
    "global",
    "openapi",
    "swagger",
    "docs",
    "data",
    "my",
    "portal",
    "management",
    "admin",
    "eu",
    "us",
    "server",
    "servers",
    "webservice",
    "webservices",
    "ws",
    "apirest",
    "console",
    "online",
    "uk",
    "de",
    "fr",
    "in",
    "au",
    "ca",
    "jp",
    "asia",
    "emea",
    "apac",
    "na",
    "latam",
];

/// Registrable domains of platforms that host other people's APIs under their own name (mock
/// servers, tunnels): their host says nothing about the provider.
const PLATFORM_DOMAINS: &[&str] = &[
    "swaggerhub.com",
    "stoplight.io",
    "apiary-mock.com",
    "apiary.io",
    "pstmn.io",
    "mocky.io",
    "mockapi.io",
    "ngrok.io",
    "ngrok.app",
    "ngrok-free.app",
    "example.com",
    "example.org",
    "example.net",
];

/// Derive the id and names of a tool (see the module documentation).
pub fn identity(e: &Evidence<'_>) -> Identity {
    let title_id = super::tool_id(e.title, e.stem);
    let from_provider = e
        .provider
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .and_then(|p| Provider::from_name(p).map(|pr| (pr, p.to_string())));
    let from_host = || {
        e.host
            .and_then(Provider::from_host)
            .map(|pr| pr.service_named_by(e.title))
            .map(|pr| (pr.clone(), pr.domain.clone()))
    };
    let Some((provider, spelling)) = from_provider.or_else(from_host) else {
        return Identity {
            id: title_id.clone(),
            names: Vec::new(),
            title_id,
        };
    };
    // The service: the document's own name for it, else a subdomain of the provider's name or
    // of the server's host on the provider's domain.
    let host_service = e
        .host
        .and_then(Provider::from_host)
        .filter(|h| h.domain == provider.domain)
        .and_then(|h| h.service_named_by(e.title).service);
    let service_spelling = e
        .service
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .or_else(|| provider.service.clone())
        .or(host_service);
    let service = service_spelling
        .as_deref()
        .map(|s| service_words(&provider.brand, s))
        .unwrap_or_default();
    let id = if service.is_empty() {
        provider.brand.clone()
    } else {
        let mut id = format!("{}_{service}", provider.brand);
        while id.len() > MAX_ID {
            match id.rfind('_') {
                Some(i) if i > provider.brand.len() => id.truncate(i),
                _ => break,
            }
        }
        id
    };
    let mut names = Vec::new();
    let taken = |n: &str, names: &[String]| {
        let k = crate::model::normalise_id(n);
        k.is_empty()
            || k == crate::model::normalise_id(&id)
            || k == crate::model::normalise_id(e.title)
            || names.iter().any(|x| crate::model::normalise_id(x) == k)
    };
    for n in [Some(spelling), service_spelling, title_name(e)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
    {
        if !taken(&n, &names) {
            names.push(n);
        }
    }
    Identity {
        id,
        names,
        title_id,
    }
}

/// Trailing title words that say what kind of document it is, not whose.
const GENERIC_TITLE_WORDS: &[&str] = &[
    "api",
    "apis",
    "rest",
    "restful",
    "web",
    "http",
    "json",
    "unified",
    "open",
    "public",
    "service",
    "services",
    "interface",
    "endpoint",
    "endpoints",
    "spec",
    "specification",
    "documentation",
    "docs",
    "reference",
    "sdk",
    "server",
    "the",
];

/// The title's leading words as a name ("Transport for London" of "Transport for London
/// Unified API"): the title before a subtitle (`:`, ` - `, `(`, `,`, `|`), without trailing
/// generic words ([`GENERIC_TITLE_WORDS`]) and versions (`v3`, `2.0`); `None` unless it keeps
/// two words or more, drops at least one, is written as a name (capitalised words and joining
/// words such as "for", "of"), and has a word that is not one of the document's path words.
fn title_name(e: &Evidence<'_>) -> Option<String> {
    let head = e
        .title
        .split([':', '(', ',', '|'])
        .next()?
        .split(" - ")
        .next()?
        .trim();
    let words: Vec<&str> = head.split_whitespace().collect();
    let version = |w: &str| {
        let w = w.trim_start_matches(['v', 'V']);
        !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    let mut keep = words.len();
    while keep > 0 {
        let w = words[keep - 1].to_lowercase();
        if GENERIC_TITLE_WORDS.contains(&w.as_str()) || version(&w) {
            keep -= 1;
        } else {
            break;
        }
    }
    let kept = &words[..keep];
    let own = kept.iter().any(|w| {
        let w = w.to_lowercase();
        w.chars().any(char::is_alphabetic)
            && !matches!(w.as_str(), "for" | "of" | "and" | "the" | "de" | "&")
            && !e.path_words.contains(&w)
    });
    // A name is written as one: each word capitalised (or a digit, or a joining word), of
    // letters, digits and `&'.-` only ("Use a [New Version](...) Instead" is a sentence).
    let connector = |w: &str| matches!(w, "for" | "of" | "and" | "the" | "de" | "&" | "on");
    let named = kept.iter().all(|w| {
        w.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '&' | '\'' | '.' | '-'))
            && (connector(w) || w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()))
    });
    let trimmed = kept.len() < e.title.split_whitespace().count();
    (kept.len() >= 2 && trimmed && own && named).then(|| kept.join(" "))
}

/// The lower-case words of a document's paths, split at separators and camel case
/// (`/StopPoint/{id}/Arrivals` -> `stop`, `point`, `id`, `arrivals`).
pub fn path_words<'a>(
    paths: impl IntoIterator<Item = &'a str>,
) -> std::collections::BTreeSet<String> {
    paths
        .into_iter()
        .flat_map(|p| snake(p).split('_').map(str::to_string).collect::<Vec<_>>())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The service's words in snake case, without the brand it repeats at its start.
fn service_words(brand: &str, service: &str) -> String {
    let s = snake(service);
    if s == brand {
        return String::new();
    }
    match s.strip_prefix(brand).and_then(|r| r.strip_prefix('_')) {
        Some(rest) => rest.to_string(),
        None => s,
    }
}

/// A provider read from a domain name.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Provider {
    /// The registrable domain (`github.com`).
    domain: String,
    /// Its first label in snake case (`github`).
    brand: String,
    /// A subdomain label that names a service (`tagmanager`), if any.
    service: Option<String>,
}

impl Provider {
    /// This provider without its host-derived service unless `title` names it (its letters
    /// and digits, compared without case or separators: `graph` in "Microsoft Graph",
    /// `tagmanager` in "Tag Manager API"); a label the title does not name (`digital` in
    /// `api.digital.tfl.gov.uk`) is part of the provider's hosting, not a service.
    fn service_named_by(mut self, title: &str) -> Provider {
        let squash = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let t = squash(title);
        if self
            .service
            .as_deref()
            .is_some_and(|s| !t.contains(&squash(s)))
        {
            self.service = None;
        }
        self
    }

    /// A provider from `info.x-providerName`: a domain (`openweathermap.org`,
    /// `walletobjects.googleapis.com`), or a plain name (`Acme Corp`) used as the brand.
    fn from_name(name: &str) -> Option<Provider> {
        if let Some(p) = Provider::from_domain(name) {
            return Some(p);
        }
        let brand = snake(name);
        (!brand.is_empty() && brand.len() <= 40 && !name.contains(['/', ':'])).then(|| Provider {
            domain: name.to_ascii_lowercase(),
            brand,
            service: None,
        })
    }

    /// A provider from a server host (`api.github.com`), unless the host names no provider: an
    /// IP address, `localhost`, a name without a dot, a template (`{region}`), a reserved
    /// name or a hosting platform ([`PLATFORM_DOMAINS`], AWS `execute-api`). A host under a
    /// platform's shared domain (the Public Suffix List's private section: `herokuapp.com`,
    /// `appspot.com`, `github.io`) is the customer's: `tafqit.herokuapp.com` is `tafqit`.
    fn from_host(host: &str) -> Option<Provider> {
        let p = Provider::from_domain(host)?;
        let on_platform = PLATFORM_DOMAINS.contains(&p.domain.as_str())
            || host.split('.').any(|l| l == "execute-api");
        (!on_platform).then_some(p)
    }

    /// A provider from a domain name (a host, or a provider's own name such as
    /// `googleapis.com`, which the list's private section holds as a suffix for its customers'
    /// hosts and which is registrable itself under `com`).
    fn from_domain(host: &str) -> Option<Provider> {
        let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
        let host = host.rsplit('@').next()?.split(':').next()?.to_string();
        if host.is_empty()
            || !host.contains('.')
            || host.parse::<std::net::Ipv4Addr>().is_ok()
            || host.contains(['{', '}', '[', ']', '/', ' '])
            || !host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
        {
            return None;
        }
        let labels: Vec<&str> = host.split('.').collect();
        if labels.iter().any(|l| l.is_empty())
            || matches!(
                labels.last(),
                Some(&("localhost" | "test" | "example" | "invalid"))
            )
        {
            return None;
        }
        let domain = registrable(&host)?;
        let brand = snake(domain.split('.').next()?);
        if brand.is_empty() {
            return None;
        }
        // Labels left of the registrable domain, nearest first.
        let sub = host.strip_suffix(&domain)?.trim_end_matches('.');
        let service = sub
            .split('.')
            .rev()
            .filter(|l| !l.is_empty())
            .find(|l| !generic_label(l))
            .map(snake)
            .filter(|s| !s.is_empty() && *s != brand);
        Some(Provider {
            domain,
            brand,
            service,
        })
    }
}

/// The registrable domain of `host`: the longest suffix of the Public Suffix List (ICANN and
/// private sections) shorter than the host, and one label more (`api.github.com` →
/// `github.com`, `tafqit.herokuapp.com`, `googleapis.com`). A host whose suffix the list does
/// not know keeps its last two labels (`vtex.local`).
fn registrable(host: &str) -> Option<String> {
    let labels: Vec<&str> = host.split('.').collect();
    for i in 1..labels.len() {
        let candidate = labels[i..].join(".");
        let Some(s) = psl::suffix(candidate.as_bytes()) else {
            continue;
        };
        if s.is_known() && s.as_bytes() == candidate.as_bytes() {
            return Some(labels[i - 1..].join("."));
        }
    }
    (labels.len() >= 2).then(|| labels[labels.len() - 2..].join("."))
}

/// Whether a subdomain label names no service: each of its `-` parts, without trailing
/// digits (`staging2`, `us1`, `api-sandbox`), is a generic word ([`GENERIC_LABELS`]), a
/// version (`v2`, `apiv2`), a number or a single letter; or it is a region (`us-east-1`,
/// `eu-west`).
fn generic_label(l: &str) -> bool {
    let region = l.split('-').count() >= 2
        && l.split('-').next().is_some_and(|p| {
            matches!(
                p,
                "us" | "eu" | "ap" | "sa" | "ca" | "me" | "af" | "uk" | "cn" | "il" | "mx"
            )
        });
    region
        || l.split('-').all(|part| {
            let word = part.trim_end_matches(|c: char| c.is_ascii_digit());
            let version = |w: &str| {
                w.strip_prefix('v')
                    .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
            };
            word.len() <= 1
                || GENERIC_LABELS.contains(&word)
                || version(part)
                || part.strip_prefix("api").is_some_and(version)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(
        provider: Option<&str>,
        service: Option<&str>,
        host: Option<&str>,
        title: &str,
    ) -> (String, Vec<String>) {
        let i = identity(&Evidence {
            provider,
            service,
            host,
            title,
            stem: "doc",
            path_words: path_words(["/things/{thingId}", "/weather/forecast"]),
        });
        (i.id, i.names)
    }

    #[test]
    fn a_subdomain_the_title_does_not_name_is_no_service() {
        // `digital` is how the provider hosts its API, not what it is called.
        assert_eq!(
            id(
                Some("tfl.gov.uk"),
                None,
                Some("api.digital.tfl.gov.uk"),
                "Transport for London Unified API"
            ),
            (
                "tfl".to_string(),
                vec!["tfl.gov.uk".to_string(), "Transport for London".to_string()]
            )
        );
        assert_eq!(
            id(
                None,
                None,
                Some("ml.eu-west-1.acme-cloud.com"),
                "Predictions"
            )
            .0,
            "acme_cloud"
        );
        assert_eq!(
            id(None, None, Some("graph.microsoft.com"), "Microsoft Graph").0,
            "microsoft_graph"
        );
        // A subdomain the title names stays a service and a name.
        assert_eq!(
            id(
                Some("listennotes.com"),
                None,
                Some("listen-api.listennotes.com"),
                "Listen API: Podcast Search, Directory, and Insights API"
            ),
            (
                "listennotes_listen_api".to_string(),
                vec!["listennotes.com".to_string(), "listen_api".to_string()]
            )
        );
    }

    #[test]
    fn the_titles_leading_words_name_the_tool() {
        let names = |title: &str| id(Some("acme.io"), None, None, title).1;
        assert_eq!(
            names("Acme Road Traffic REST API v2"),
            vec!["acme.io".to_string(), "Acme Road Traffic".to_string()]
        );
        assert_eq!(
            names("Open Banking Data - Accounts"),
            vec!["acme.io".to_string(), "Open Banking Data".to_string()]
        );
        // One word left, nothing trimmed, a sentence, or only the paths' own words: no name.
        assert_eq!(
            names("Use a [New Version](https://x.io) Instead"),
            vec!["acme.io".to_string()]
        );
        assert_eq!(names("get the data API"), vec!["acme.io".to_string()]);
        assert_eq!(names("Books API"), vec!["acme.io".to_string()]);
        assert_eq!(names("Acme Road Traffic"), vec!["acme.io".to_string()]);
        assert_eq!(names("Weather Forecast API"), vec!["acme.io".to_string()]);
    }

    #[test]
    fn provider_and_service_make_the_id() {
        assert_eq!(
            id(
                Some("openweathermap.org"),
                None,
                Some("api.openweathermap.org"),
                "OpenWeatherMap API"
            ),
            (
                "openweathermap".to_string(),
                vec!["openweathermap.org".to_string()]
            )
        );
        assert_eq!(
            id(
                Some("googleapis.com"),
                Some("tagmanager"),
                Some("tagmanager.googleapis.com"),
                "Tag Manager API"
            ),
            (
                "googleapis_tagmanager".to_string(),
                vec![
                    "googleapis.com".to_string(),
                    "tagmanager".to_string(),
                    "Tag Manager".to_string()
                ]
            )
        );
        assert_eq!(
            id(
                Some("twilio.com"),
                Some("twilio_frontline_v1"),
                None,
                "Twilio - Frontline"
            )
            .0,
            "twilio_frontline_v1"
        );
        assert_eq!(
            id(
                Some("apisetu.gov.in"),
                Some("cholainsurance"),
                None,
                "Cholamandalam"
            )
            .0,
            "apisetu_cholainsurance"
        );
        assert_eq!(
            id(
                Some("azure.com"),
                Some("monitor-activityLogs_API"),
                None,
                "MonitorManagementClient"
            )
            .0,
            "azure_monitor_activity_logs_api"
        );
    }

    #[test]
    fn the_host_names_the_provider_when_the_document_does_not() {
        assert_eq!(
            id(None, None, Some("api.github.com"), "GitHub v3 REST API"),
            ("github".into(), vec!["github.com".into()])
        );
        // `googleapis.com` is in the list's private section: a host under it is one service's.
        assert_eq!(
            id(
                None,
                None,
                Some("tagmanager.googleapis.com"),
                "Tag Manager API"
            ),
            (
                "tagmanager".into(),
                vec!["tagmanager.googleapis.com".into(), "Tag Manager".into()]
            )
        );
        assert_eq!(
            id(
                None,
                None,
                Some("api.weatherbit.io"),
                "Interactive documentation for your premium plan"
            )
            .0,
            "weatherbit"
        );
        assert_eq!(
            id(None, None, Some("tafqit.herokuapp.com"), "Tafqit").0,
            "tafqit"
        );
        assert_eq!(
            id(None, None, Some("ec2.us-east-1.amazonaws.com"), "EC2").0,
            "ec2"
        );
        // Regions, versions and generic labels name no service.
        assert_eq!(
            id(
                None,
                None,
                Some("ml.eu-west-1.api.v2.acme-cloud.com"),
                "Acme ML"
            )
            .0,
            "acme_cloud_ml"
        );
        assert_eq!(id(None, None, Some("api.sandbox.acme.io"), "x").0, "acme");
        assert_eq!(
            id(None, None, Some("www.bbc.co.uk"), "Radio & Music Services").0,
            "bbc"
        );
        assert_eq!(
            id(None, None, Some("petstore.swagger.io"), "Swagger Petstore").0,
            "swagger_petstore"
        );
    }

    #[test]
    fn hosts_that_name_no_provider_leave_the_title() {
        for host in [
            "localhost",
            "127.0.0.1",
            "virtserver.swaggerhub.com",
            "abc123.execute-api.us-east-1.amazonaws.com",
            "api.example.com",
            "petstore.test",
            "{region}.example.io",
        ] {
            assert_eq!(
                id(None, None, Some(host), "Pet Store API").0,
                "pet_store_api",
                "{host}"
            );
        }
        assert_eq!(id(None, None, None, "Pet Store API").0, "pet_store_api");
    }
}
