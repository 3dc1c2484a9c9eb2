//! OpenAPI 3 parameter serialisation: the `style` / `explode` table of the specification
//! (OpenAPI 3.0.4 and 3.1.1, "Style Examples", which follow RFC 6570's expansions), with
//! RFC 3986 percent-encoding.
//!
//! | style | explode | primitive | array | object |
//! |---|---|---|---|---|
//! | `matrix` | false | `;color=blue` | `;color=blue,black,brown` | `;color=R,100,G,200,B,150` |
//! | `matrix` | true | `;color=blue` | `;color=blue;color=black;color=brown` | `;R=100;G=200;B=150` |
//! | `label` | false | `.blue` | `.blue,black,brown` | `.R,100,G,200,B,150` |
//! | `label` | true | `.blue` | `.blue.black.brown` | `.R=100.G=200.B=150` |
//! | `simple` | false | `blue` | `blue,black,brown` | `R,100,G,200,B,150` |
//! | `simple` | true | `blue` | `blue,black,brown` | `R=100,G=200,B=150` |
//! | `form` | false | `color=blue` | `color=blue,black,brown` | `color=R,100,G,200,B,150` |
//! | `form` | true | `color=blue` | `color=blue&color=black&color=brown` | `R=100&G=200&B=150` |
//! | `spaceDelimited` | false | | `color=blue%20black%20brown` | `color=R%20100%20G%20200%20B%20150` |
//! | `pipeDelimited` | false | | `color=blue%7Cblack%7Cbrown` | `color=R%7C100%7CG%7C200%7CB%7C150` |
//! | `deepObject` | true | | | `color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150` |
//!
//! An absent value (`null`, an empty list or object) is `;color` (matrix), `.` (label), empty
//! (simple) and `color=` (the query styles). The 3.0.0-3.0.3 table's non-exploded `label` cells
//! (`.blue.black.brown`) contradict RFC 6570 (`{.list}` is `.red,green,blue`) and were corrected
//! in 3.0.4 and 3.1.1; the corrected cells are followed here. The delimited styles with
//! `explode: true` and `deepObject` on a primitive or a list are undefined by the table: they
//! are sent as `form` with the same `explode`.
//!
//! Names, keys and values are percent-encoded (everything but RFC 3986's unreserved
//! `A-Z a-z 0-9 - . _ ~`); the style's own delimiters are not, except where RFC 3986 does not
//! allow them in a query (`|`, `[`, `]`, space). JSON objects arrive with their members in
//! name order (the gateway's JSON has no other order), so an object's properties are sent in
//! name order.
//!
//! `allowReserved: true` (query parameters, and form-body fields through their `encoding`):
//! values are sent by RFC 6570's reserved expansion, as OpenAPI 3.1.1 defines it ("allows
//! RFC3986's reserved character set, as well as percent-encoded triples, to pass through
//! unchanged, while still percent-encoding all other disallowed characters (including `%`
//! outside of percent-encoded triples)"), less the characters that would change the query's
//! structure. RFC 3986 reserves a character so that it may delimit; inside one parameter's
//! value the delimiters of the query itself must not appear raw, or the value would turn into
//! several parameters: `&` (the pair separator), `=` (the name/value separator) and `+` (a
//! space to every `application/x-www-form-urlencoded` decoder, which is how servers read a
//! query) are percent-encoded, and so is `#` (it would start the fragment, which is never
//! sent). OpenAPI 3.1.1 leaves to the application the characters "not allowed in the query
//! string (`[`, `]`, `#`)" (RFC 3986 section 3.4: a query holds `pchar / "/" / "?"`): `[` and
//! `]` are percent-encoded too. So the gen-delims `:/?@` and the sub-delims `!$'()*,;` pass
//! as they are, and a percent-encoded triple passes unchanged (a caller who means query
//! syntax of its own sends a separate parameter). Names and deepObject keys are encoded as
//! always: `allowReserved` is about values. The HTTP client's URL parser (the WHATWG URL
//! standard's, which reqwest uses) further writes `'` in an http(s) query as `%27`, which
//! every server decodes to the same character.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

/// Everything but RFC 3986's unreserved characters is percent-encoded.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// [`COMPONENT`] keeping RFC 3986's reserved characters that a query may hold inside one value
/// (`allowReserved`): the gen-delims `:/?@` and the sub-delims `!$'()*,;`; `&`, `=`, `+`
/// (the query's own delimiters and its space), `#`, `[` and `]` stay encoded.
const RESERVED_KEPT: &AsciiSet = &COMPONENT
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b',')
    .remove(b';');

/// An OpenAPI serialisation style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// `simple` (path and header default): comma-separated.
    Simple,
    /// `label`: `.`-prefixed.
    Label,
    /// `matrix`: `;name=`-prefixed.
    Matrix,
    /// `form` (query, cookie and form-body default): `name=value`.
    Form,
    /// `spaceDelimited` (` `), `pipeDelimited` (`|`), Swagger 2.0's `tsv` (`\t`) or a declared
    /// `join` separator: one `name=value` with the items joined.
    Delimited(String),
    /// `deepObject`: `name[key]=value` per property.
    DeepObject,
}

impl Style {
    /// The style named `name` (`tabDelimited` is Swagger 2.0's `tsv`); `None` for a name the
    /// specification does not define.
    pub fn parse(name: &str) -> Option<Style> {
        Some(match name {
            "simple" => Style::Simple,
            "label" => Style::Label,
            "matrix" => Style::Matrix,
            "form" => Style::Form,
            "spaceDelimited" => Style::Delimited(" ".into()),
            "pipeDelimited" => Style::Delimited("|".into()),
            "tabDelimited" => Style::Delimited("\t".into()),
            "deepObject" => Style::DeepObject,
            _ => return None,
        })
    }

    /// `explode`'s default for this style: true for `form` (and `deepObject`, which has no
    /// other form), false otherwise.
    pub fn default_explode(&self) -> bool {
        matches!(self, Style::Form | Style::DeepObject)
    }
}

/// A parameter value as the serialisation table sees it: each item and property value as
/// text (a nested list or object as JSON text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `null`, an empty list or an empty object.
    Empty,
    /// A string, number or boolean.
    Primitive(String),
    /// A list.
    Array(Vec<String>),
    /// An object: its properties in order.
    Object(Vec<(String, String)>),
}

/// The text of a scalar (a string as it is, `null` empty, anything else as JSON).
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

impl Shape {
    /// The shape of a JSON value.
    pub fn of(v: &Value) -> Shape {
        match v {
            Value::Null => Shape::Empty,
            Value::Array(a) if a.is_empty() => Shape::Empty,
            Value::Object(o) if o.is_empty() => Shape::Empty,
            Value::Array(a) => Shape::Array(a.iter().map(text).collect()),
            Value::Object(o) => {
                Shape::Object(o.iter().map(|(k, x)| (k.clone(), text(x))).collect())
            }
            other => Shape::Primitive(text(other)),
        }
    }
}

/// Percent-encode `s` for a path segment or a query component (RFC 3986 unreserved kept).
pub fn encode(s: &str) -> String {
    utf8_percent_encode(s, COMPONENT).to_string()
}

/// Percent-encode `s` by RFC 6570's reserved expansion for a query value (`allowReserved`): the
/// reserved characters a query value may hold (`:/?@!$'()*,;`) and valid percent-encoded
/// triples kept; `&`, `=`, `+`, `#`, `[`, `]`, a stray `%` and everything else outside the
/// unreserved set encoded.
pub fn encode_reserved(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('%') {
        out.extend(utf8_percent_encode(&rest[..i], RESERVED_KEPT));
        let triple = rest.as_bytes().get(i + 1..i + 3);
        if triple.is_some_and(|t| t.iter().all(u8::is_ascii_hexdigit)) {
            out.push_str(&rest[i..i + 3]);
            rest = &rest[i + 3..];
        } else {
            out.push_str("%25");
            rest = &rest[i + 1..];
        }
    }
    out.extend(utf8_percent_encode(rest, RESERVED_KEPT));
    out
}

/// The text of a path parameter `name` for its `{name}` placeholder, percent-encoded
/// (`simple`, `label`, `matrix`; any other style is sent as `simple`).
pub fn path(name: &str, shape: &Shape, style: &Style, explode: bool) -> String {
    let name = encode(name);
    let (prefix, sep) = match style {
        Style::Label => (".".to_string(), if explode { "." } else { "," }),
        Style::Matrix => (format!(";{name}="), if explode { ";" } else { "," }),
        _ => (String::new(), ","),
    };
    match shape {
        Shape::Empty => match style {
            Style::Label => ".".into(),
            Style::Matrix => format!(";{name}"),
            _ => String::new(),
        },
        Shape::Primitive(v) => format!("{prefix}{}", encode(v)),
        Shape::Array(items) => {
            let items: Vec<String> = items.iter().map(|i| encode(i)).collect();
            if *style == Style::Matrix && explode {
                items.iter().map(|i| format!(";{name}={i}")).collect()
            } else {
                format!("{prefix}{}", items.join(sep))
            }
        }
        Shape::Object(props) => {
            let pairs = props.iter().map(|(k, v)| (encode(k), encode(v)));
            let body: Vec<String> = if explode {
                pairs.map(|(k, v)| format!("{k}={v}")).collect()
            } else {
                pairs.flat_map(|(k, v)| [k, v]).collect()
            };
            match style {
                Style::Matrix if explode => body.iter().map(|p| format!(";{p}")).collect(),
                Style::Matrix => format!(";{name}={}", body.join(",")),
                Style::Label => format!(".{}", body.join(sep)),
                _ => body.join(","),
            }
        }
    }
}

/// How the pairs of a query string or a form body are encoded.
#[derive(Clone, Copy, Debug)]
pub struct PairEncoding {
    /// Encodes a name or a deepObject key.
    pub name: fn(&str) -> String,
    /// Encodes a value (an item, a property value; a property name of an exploded or flattened
    /// object, which sits where values do).
    pub text: fn(&str) -> String,
    /// Encodes a delimiter of the style (`,`, ` `, `|`, `[`, `]`).
    pub delim: fn(&str) -> String,
}

/// A URL query string: [`encode`] (or [`encode_reserved`]) for text; delimiters as RFC 3986
/// allows them in a query (`,` kept; ` `, `|`, `[`, `]` encoded).
pub const QUERY: PairEncoding = PairEncoding {
    name: encode,
    text: encode,
    delim: query_delim,
};

/// [`QUERY`] with `allowReserved`.
pub const QUERY_RESERVED: PairEncoding = PairEncoding {
    name: encode,
    text: encode_reserved,
    delim: query_delim,
};

fn query_delim(d: &str) -> String {
    if d == "," { d.to_string() } else { encode(d) }
}

/// `application/x-www-form-urlencoded` (the WHATWG form serialiser: space as `+`, every
/// character but `*-._` and alphanumerics encoded, delimiters included).
pub const FORM_BODY: PairEncoding = PairEncoding {
    name: form_encode,
    text: form_encode,
    delim: form_encode,
};

fn form_encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// [`FORM_BODY`] with `allowReserved` (an `encoding` entry's): values by the same reserved
/// expansion as a query value ([`encode_reserved`]: `&`, `=` and `+` encoded, since
/// `application/x-www-form-urlencoded` gives them a meaning of its own), so `a+b&c=d` arrives
/// as that text. A space is `+`, as in the rest of the body.
pub const FORM_BODY_RESERVED: PairEncoding = PairEncoding {
    name: form_encode,
    text: form_encode_reserved,
    delim: form_encode,
};

fn form_encode_reserved(s: &str) -> String {
    encode_reserved(s).replace("%20", "+")
}

/// A `multipart/form-data` part's name and text: nothing percent-encoded (OpenAPI 3.1.1
/// Appendix E: a part holds any text, so percent-encoding "is not needed and is likely to cause
/// interoperability problems"); `allowReserved` has nothing to keep.
pub const PART: PairEncoding = PairEncoding {
    name: str::to_string,
    text: str::to_string,
    delim: str::to_string,
};

/// The `name=value` pairs (encoded by `enc`) of a query or form-body parameter `name`
/// (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`; `simple` is sent as `form`).
pub fn pairs(
    name: &str,
    shape: &Shape,
    style: &Style,
    explode: bool,
    enc: PairEncoding,
) -> Vec<(String, String)> {
    let t = enc.text;
    let n = (enc.name)(name);
    let joined = |parts: Vec<String>, sep: &str| parts.join(&(enc.delim)(sep));
    match (shape, style) {
        (Shape::Empty, _) => vec![(n, String::new())],
        (Shape::Primitive(v), _) => vec![(n, t(v))],
        (Shape::Object(props), Style::DeepObject) => props
            .iter()
            .map(|(k, v)| {
                let key = format!(
                    "{n}{}{}{}",
                    (enc.delim)("["),
                    (enc.name)(k),
                    (enc.delim)("]")
                );
                (key, t(v))
            })
            .collect(),
        (Shape::Array(items), Style::Delimited(sep)) if !explode => {
            vec![(n, joined(items.iter().map(|i| t(i)).collect(), sep))]
        }
        (Shape::Object(props), Style::Delimited(sep)) if !explode => {
            let flat = props.iter().flat_map(|(k, v)| [t(k), t(v)]).collect();
            vec![(n, joined(flat, sep))]
        }
        (Shape::Array(items), _) if explode => items.iter().map(|i| (n.clone(), t(i))).collect(),
        (Shape::Array(items), _) => vec![(n, joined(items.iter().map(|i| t(i)).collect(), ","))],
        (Shape::Object(props), _) if explode => props.iter().map(|(k, v)| (t(k), t(v))).collect(),
        (Shape::Object(props), _) => {
            let flat = props.iter().flat_map(|(k, v)| [t(k), t(v)]).collect();
            vec![(n, joined(flat, ","))]
        }
    }
}

/// The value of a header parameter (`simple`; not percent-encoded).
pub fn header(shape: &Shape, explode: bool) -> String {
    match shape {
        Shape::Empty => String::new(),
        Shape::Primitive(v) => v.clone(),
        Shape::Array(items) => items.join(","),
        Shape::Object(props) if explode => props
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(","),
        Shape::Object(props) => props
            .iter()
            .flat_map(|(k, v)| [k.as_str(), v.as_str()])
            .collect::<Vec<_>>()
            .join(","),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn primitive() -> Shape {
        Shape::Primitive("blue".into())
    }
    fn array() -> Shape {
        Shape::Array(vec!["blue".into(), "black".into(), "brown".into()])
    }
    fn object() -> Shape {
        Shape::Object(vec![
            ("R".into(), "100".into()),
            ("G".into(), "200".into()),
            ("B".into(), "150".into()),
        ])
    }

    fn query(shape: &Shape, style: &str, explode: bool) -> String {
        pairs(
            "color",
            shape,
            &Style::parse(style).unwrap(),
            explode,
            QUERY,
        )
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
    }

    /// The specification's "Style Examples" table (OpenAPI 3.0.4 / 3.1.1), every cell it
    /// defines: `color` = empty, `blue`, `[blue, black, brown]`, `{R: 100, G: 200, B: 150}`.
    #[test]
    fn the_specifications_style_examples() {
        let path_rows = [
            (
                "matrix",
                false,
                ";color",
                ";color=blue",
                ";color=blue,black,brown",
                ";color=R,100,G,200,B,150",
            ),
            (
                "matrix",
                true,
                ";color",
                ";color=blue",
                ";color=blue;color=black;color=brown",
                ";R=100;G=200;B=150",
            ),
            (
                "label",
                false,
                ".",
                ".blue",
                ".blue,black,brown",
                ".R,100,G,200,B,150",
            ),
            (
                "label",
                true,
                ".",
                ".blue",
                ".blue.black.brown",
                ".R=100.G=200.B=150",
            ),
            (
                "simple",
                false,
                "",
                "blue",
                "blue,black,brown",
                "R,100,G,200,B,150",
            ),
            (
                "simple",
                true,
                "",
                "blue",
                "blue,black,brown",
                "R=100,G=200,B=150",
            ),
        ];
        for (style, explode, empty, p, a, o) in path_rows {
            let s = Style::parse(style).unwrap();
            let got = [&Shape::Empty, &primitive(), &array(), &object()]
                .map(|shape| path("color", shape, &s, explode));
            assert_eq!(got, [empty, p, a, o], "{style} explode={explode}");
        }
        let form_rows = [
            (
                "form",
                false,
                "color=",
                "color=blue",
                "color=blue,black,brown",
                "color=R,100,G,200,B,150",
            ),
            (
                "form",
                true,
                "color=",
                "color=blue",
                "color=blue&color=black&color=brown",
                "R=100&G=200&B=150",
            ),
        ];
        for (style, explode, empty, p, a, o) in form_rows {
            let got = [&Shape::Empty, &primitive(), &array(), &object()]
                .map(|shape| query(shape, style, explode));
            assert_eq!(got, [empty, p, a, o], "{style} explode={explode}");
        }
        assert_eq!(
            query(&array(), "spaceDelimited", false),
            "color=blue%20black%20brown"
        );
        assert_eq!(
            query(&object(), "spaceDelimited", false),
            "color=R%20100%20G%20200%20B%20150"
        );
        assert_eq!(
            query(&array(), "pipeDelimited", false),
            "color=blue%7Cblack%7Cbrown"
        );
        assert_eq!(
            query(&object(), "pipeDelimited", false),
            "color=R%7C100%7CG%7C200%7CB%7C150"
        );
        assert_eq!(
            query(&object(), "deepObject", true),
            "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"
        );
        // Header parameters: `simple`.
        assert_eq!(header(&array(), false), "blue,black,brown");
        assert_eq!(header(&object(), false), "R,100,G,200,B,150");
        assert_eq!(header(&object(), true), "R=100,G=200,B=150");
    }

    #[test]
    fn undefined_cells_fall_back_to_form() {
        assert_eq!(query(&primitive(), "pipeDelimited", false), "color=blue");
        assert_eq!(
            query(&array(), "spaceDelimited", true),
            "color=blue&color=black&color=brown"
        );
        assert_eq!(
            query(&array(), "deepObject", true),
            "color=blue&color=black&color=brown"
        );
    }

    #[test]
    fn values_are_percent_encoded_and_delimiters_are_not() {
        let s = Shape::Array(vec!["a b".into(), "c,d".into(), "é/ü".into()]);
        assert_eq!(
            path("x", &s, &Style::Simple, false),
            "a%20b,c%2Cd,%C3%A9%2F%C3%BC"
        );
        assert_eq!(
            query(&s, "form", false),
            "color=a%20b,c%2Cd,%C3%A9%2F%C3%BC"
        );
        let v = Shape::Primitive("x/y?z#[]&=+%2f %GG:@!$'()*,;".into());
        assert_eq!(
            pairs("q", &v, &Style::Form, true, QUERY_RESERVED),
            vec![(
                "q".to_string(),
                "x/y?z%23%5B%5D%26%3D%2B%2f%20%25GG:@!$'()*,;".to_string()
            )]
        );
        // Names and deepObject keys are encoded as always.
        let o = Shape::Object(vec![("a&b".into(), "c&d".into())]);
        assert_eq!(
            pairs("f[]", &o, &Style::DeepObject, true, QUERY_RESERVED),
            vec![("f%5B%5D%5Ba%26b%5D".to_string(), "c%26d".to_string())]
        );
        assert_eq!(
            pairs("q", &v, &Style::Form, true, QUERY)[0].1,
            "x%2Fy%3Fz%23%5B%5D%26%3D%2B%252f%20%25GG%3A%40%21%24%27%28%29%2A%2C%3B"
        );
    }

    #[test]
    fn form_bodies_encode_delimiters_and_spaces_as_plus() {
        let got = pairs("color", &array(), &Style::Form, false, FORM_BODY);
        assert_eq!(got, vec![("color".into(), "blue%2Cblack%2Cbrown".into())]);
        let got = pairs("color", &object(), &Style::DeepObject, true, FORM_BODY);
        assert_eq!(got[0], ("color%5BR%5D".into(), "100".into()));
        let got = pairs(
            "a b",
            &Shape::Primitive("c d&e".into()),
            &Style::Form,
            true,
            FORM_BODY,
        );
        assert_eq!(got, vec![("a+b".into(), "c+d%26e".into())]);
    }

    #[test]
    fn json_objects_are_sent_in_name_order() {
        let v = serde_json::json!({"R": 100, "G": 200, "B": 150});
        assert_eq!(query(&Shape::of(&v), "form", true), "B=150&G=200&R=100");
        assert_eq!(Shape::of(&serde_json::json!([])), Shape::Empty);
        assert_eq!(
            Shape::of(&serde_json::json!([{"a": 1}, true])),
            Shape::Array(vec!["{\"a\":1}".into(), "true".into()])
        );
    }
}
