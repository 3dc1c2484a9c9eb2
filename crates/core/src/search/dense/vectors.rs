//! The endpoints' vectors as the artifact holds them (`index.search_vectors`), quantised to
//! signed bytes, and the cosine of a question with every one of them.
//!
//! Each unit vector is scaled so that its largest component is ±127 and rounded (one byte per
//! dimension: 256 bytes per endpoint for WordLlama's 256 dimensions, about a tenth of an
//! imported endpoint's share of the artifact). A cosine is then `q·v / (|q| |v|)` over the
//! bytes, in integers: the scale drops out, and the sums vectorise.

use base64::Engine;
use serde::{Deserialize, Serialize};

/// The dense vectors of the artifact's search documents (the endpoints, in the order of
/// `index.search_offsets`), and what made them.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct SearchVectors {
    /// The model's identity ([`super::Embedder::id`]): a question is embedded only by the same
    /// model.
    pub model: String,
    /// Dimensions of one vector.
    pub dims: u32,
    /// The weight `λ` of the cosine in the hybrid score (see [`super::fuse`]).
    pub weight: f64,
    /// One vector of `dims` signed bytes per document, row-major (base64 in JSON).
    #[serde(with = "base64_bytes")]
    pub vectors: Vec<i8>,
}

/// A unit vector as bytes: scaled so that its largest component is ±127, rounded.
pub fn quantise(v: &[f32]) -> Vec<i8> {
    let m = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if m == 0.0 || !m.is_finite() || v.iter().any(|x| !x.is_finite()) {
        return vec![0; v.len()];
    }
    v.iter()
        .map(|x| (x / m * 127.0).round().clamp(-127.0, 127.0) as i8)
        .collect()
}

/// The cosine of the quantised question `q` with each of the `dims`-byte rows of `rows` (0 for
/// an all-zero row or question).
pub fn cosines(q: &[i8], rows: &[i8], dims: usize) -> Vec<f32> {
    if dims == 0 || q.len() != dims {
        return vec![0.0; rows.len().checked_div(dims).unwrap_or(0)];
    }
    let qq: i32 = q.iter().map(|&x| x as i32 * x as i32).sum();
    rows.chunks_exact(dims)
        .map(|r| {
            let (mut dot, mut vv) = (0i32, 0i32);
            for (a, b) in q.iter().zip(r) {
                let b = *b as i32;
                dot += *a as i32 * b;
                vv += b * b;
            }
            if qq == 0 || vv == 0 {
                0.0
            } else {
                dot as f32 / ((qq as f32).sqrt() * (vv as f32).sqrt())
            }
        })
        .collect()
}

/// Serde of a byte vector as one base64 string (standard alphabet, padded).
mod base64_bytes {
    use super::*;

    pub fn serialize<S: serde::Serializer>(v: &[i8], s: S) -> Result<S::Ok, S::Error> {
        let bytes: Vec<u8> = v.iter().map(|&x| x as u8).collect();
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(bytes))
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<i8>, D::Error> {
        let text = String::deserialize(d)?;
        base64::engine::general_purpose::STANDARD
            .decode(text.as_bytes())
            .map(|b| b.into_iter().map(|x| x as i8).collect())
            .map_err(|e| serde::de::Error::custom(format!("index.search_vectors.vectors: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_are_scaled_to_127_and_rounded() {
        assert_eq!(quantise(&[0.5, -0.25, 0.1]), vec![127, -64, 25]);
        assert_eq!(quantise(&[0.0, 0.0]), vec![0, 0]);
        assert_eq!(quantise(&[f32::NAN, 1.0]), vec![0, 0]);
    }

    #[test]
    fn cosines_are_taken_over_the_bytes() {
        let rows: Vec<i8> = vec![127, 0, 0, 127, -127, 0, 0, 0];
        let c = cosines(&[127, 0], &rows, 2);
        assert_eq!(c, vec![1.0, 0.0, -1.0, 0.0]);
        let c = cosines(&[100, 100], &rows, 2);
        assert!((c[0] - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6);
        assert_eq!(cosines(&[0, 0], &rows, 2), vec![0.0; 4]);
        assert_eq!(cosines(&[1, 2, 3], &rows, 2), vec![0.0; 4]);
    }

    #[test]
    fn vectors_are_base64_in_json() {
        let v = SearchVectors {
            model: "m".into(),
            dims: 2,
            weight: 2.5,
            vectors: vec![127, -1, 0, -128],
        };
        let j = serde_json::to_string(&v).unwrap();
        assert_eq!(
            j,
            r#"{"model":"m","dims":2,"weight":2.5,"vectors":"f/8AgA=="}"#
        );
        assert_eq!(serde_json::from_str::<SearchVectors>(&j).unwrap(), v);
        let e = serde_json::from_str::<SearchVectors>(
            r#"{"model":"m","dims":2,"weight":2.5,"vectors":"!!"}"#,
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("index.search_vectors.vectors"),
            "{e}"
        );
    }
}
