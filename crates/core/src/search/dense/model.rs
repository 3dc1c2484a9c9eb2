//! Static token embeddings read from a local folder, and a text embedded as the model does it.
//!
//! A static embedding model is a table of one vector per token of a tokenizer: a text's vector
//! is the mean of its tokens' rows, normalised to unit length (WordLlama's
//! `WordLlamaInference.embed(texts, norm=True)`: tokenise without special tokens, look up, mean
//! pool, L2 normalise; Model2Vec's models are read the same way). Nothing is downloaded: the
//! folder holds the files a registry package ships, for instance the installed `wordllama`
//! package folder (PyPI `wordllama`, MIT: `weights/l2_supercat_256.safetensors` and
//! `tokenizers/l2_supercat_tokenizer_config.json`).
//!
//! What the folder must hold (see [`Embedder::load`]):
//! - one `*.safetensors` file, in the folder or in its `weights/` subfolder, with one 2-D tensor
//!   (vocabulary × dimensions; F32, F16 or BF16; when it holds several, the one named
//!   `embedding.weight` or `embeddings`);
//! - one tokenizer in the Hugging Face `tokenizers` JSON format: `tokenizer.json`, or the one
//!   `*tokenizer*.json` file, in the folder or in its `tokenizers/` subfolder.

use std::path::{Path, PathBuf};

/// Tensor names tried when the weights file holds more than one 2-D tensor (WordLlama's, then
/// Model2Vec's).
const TENSOR_NAMES: [&str; 2] = ["embedding.weight", "embeddings"];

/// A loaded static embedding model.
pub struct Embedder {
    tokenizer: tokenizers::Tokenizer,
    /// Token vectors, row-major: `vocab` rows of `dims` values.
    table: Vec<f32>,
    vocab: usize,
    dims: usize,
    id: String,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("id", &self.id)
            .field("vocab", &self.vocab)
            .field("dims", &self.dims)
            .finish()
    }
}

impl Embedder {
    /// Load the model in `folder` (see the module documentation for what it must hold).
    ///
    /// # Errors
    /// A message naming the folder or file when a file is missing, ambiguous or unreadable,
    /// the tensor is not 2-D or of another type, or the tokenizer does not parse.
    pub fn load(folder: &Path) -> Result<Embedder, String> {
        if !folder.is_dir() {
            return Err(format!("`{}` is not a folder", folder.display()));
        }
        let weights = find_one(
            folder,
            "weights",
            |n| n.ends_with(".safetensors"),
            "*.safetensors",
        )?;
        let tok_file = match folder.join("tokenizer.json") {
            p if p.is_file() => p,
            _ => find_one(
                folder,
                "tokenizers",
                |n| n.ends_with(".json") && n.contains("tokenizer"),
                "tokenizer.json or *tokenizer*.json",
            )?,
        };
        let weight_bytes = std::fs::read(&weights)
            .map_err(|e| format!("cannot read `{}`: {e}", weights.display()))?;
        let tok_bytes = std::fs::read(&tok_file)
            .map_err(|e| format!("cannot read `{}`: {e}", tok_file.display()))?;
        let (table, vocab, dims) =
            read_table(&weight_bytes).map_err(|e| format!("`{}`: {e}", weights.display()))?;
        let mut tokenizer = tokenizers::Tokenizer::from_bytes(&tok_bytes)
            .map_err(|e| format!("`{}` is not a tokenizer: {e}", tok_file.display()))?;
        // One text at a time, whole (WordLlama calls `no_truncation()`; padding only pads a
        // batch, with a zero mask).
        tokenizer
            .with_truncation(None)
            .map_err(|e| format!("`{}`: {e}", tok_file.display()))?;
        tokenizer.with_padding(None);
        let mut h = blake3::Hasher::new();
        h.update(&weight_bytes);
        h.update(&tok_bytes);
        let name = |p: &Path| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let id = format!(
            "{} + {} ({dims} dimensions, blake3 {})",
            name(&weights),
            name(&tok_file),
            &h.finalize().to_hex()[..16]
        );
        Ok(Embedder {
            tokenizer,
            table,
            vocab,
            dims,
            id,
        })
    }

    /// The model's identity: weights and tokenizer file names, dimensions, and the blake3 of
    /// both files' bytes (16 hex digits). The artifact records it, so that a question is only
    /// compared with vectors made by the same model.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Dimensions of a vector.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The token ids of `text` (no special tokens), each clamped into the table as WordLlama
    /// clamps them. Empty when the tokenizer fails.
    pub fn token_ids(&self, text: &str) -> Vec<usize> {
        self.tokenizer
            .encode_fast(text, false)
            .map(|e| {
                e.get_ids()
                    .iter()
                    .map(|&i| (i as usize).min(self.vocab.saturating_sub(1)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The unit-length vector of `text`: the mean of its tokens' rows, L2-normalised (all zeros
    /// for a text without tokens).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let ids = self.token_ids(text);
        let mut v = vec![0f32; self.dims];
        if ids.is_empty() || self.vocab == 0 {
            return v;
        }
        for i in &ids {
            let row = &self.table[i * self.dims..(i + 1) * self.dims];
            for (a, b) in v.iter_mut().zip(row) {
                *a += *b;
            }
        }
        let n = ids.len() as f32;
        for a in &mut v {
            *a /= n;
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            for a in &mut v {
                *a /= norm;
            }
        }
        v
    }
}

/// The one file in `folder` or `folder/sub` whose name passes `pick`.
fn find_one(
    folder: &Path,
    sub: &str,
    pick: impl Fn(&str) -> bool,
    what: &str,
) -> Result<PathBuf, String> {
    for dir in [folder.to_path_buf(), folder.join(sub)] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .filter(|p| p.file_name().is_some_and(|n| pick(&n.to_string_lossy())))
            .collect();
        found.sort();
        match found.len() {
            0 => continue,
            1 => return Ok(found.remove(0)),
            _ => {
                return Err(format!(
                    "`{}` holds several {what} files ({}): keep one",
                    dir.display(),
                    found
                        .iter()
                        .filter_map(|p| p.file_name())
                        .map(|n| n.to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    Err(format!(
        "no {what} file in `{}` or its `{sub}/` folder",
        folder.display()
    ))
}

/// The embedding table of a safetensors file: (row-major f32 values, rows, columns).
fn read_table(bytes: &[u8]) -> Result<(Vec<f32>, usize, usize), String> {
    use safetensors::{Dtype, SafeTensors};
    let st = SafeTensors::deserialize(bytes).map_err(|e| format!("not a safetensors file: {e}"))?;
    let mut two_d: Vec<(String, safetensors::tensor::TensorView<'_>)> = st
        .tensors()
        .into_iter()
        .filter(|(_, t)| t.shape().len() == 2)
        .collect();
    two_d.sort_by(|a, b| a.0.cmp(&b.0));
    let view = match two_d.len() {
        0 => return Err("holds no 2-D tensor (vocabulary × dimensions)".to_string()),
        1 => two_d.remove(0).1,
        _ => two_d
            .into_iter()
            .find(|(n, _)| TENSOR_NAMES.contains(&n.as_str()))
            .map(|(_, t)| t)
            .ok_or_else(|| {
                format!(
                    "holds several 2-D tensors and none is named {}",
                    TENSOR_NAMES.join(" or ")
                )
            })?,
    };
    let (rows, cols) = (view.shape()[0], view.shape()[1]);
    let data = view.data();
    let values: Vec<f32> = match view.dtype() {
        Dtype::F32 => data
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        Dtype::F16 => data
            .chunks_exact(2)
            .map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32())
            .collect(),
        Dtype::BF16 => data
            .chunks_exact(2)
            .map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f32())
            .collect(),
        other => return Err(format!("the tensor is {other:?}; F32, F16 or BF16 is read")),
    };
    if values.len() != rows * cols {
        return Err("the tensor's data does not match its shape".to_string());
    }
    Ok((values, rows, cols))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A safetensors file with one tensor.
    fn st_bytes(name: &str, shape: &[usize], dtype: &str, data: &[u8]) -> Vec<u8> {
        let header = format!(
            r#"{{"{name}":{{"dtype":"{dtype}","shape":{shape:?},"data_offsets":[0,{}]}}}}"#,
            data.len()
        );
        let mut h = header.into_bytes();
        while h.len() % 8 != 0 {
            h.push(b' ');
        }
        let mut out = (h.len() as u64).to_le_bytes().to_vec();
        out.extend(h);
        out.extend(data);
        out
    }

    #[test]
    fn tables_are_read_in_every_float_type() {
        let f32s: Vec<u8> = [1.0f32, -2.0, 0.5, 4.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let (v, r, c) = read_table(&st_bytes("embeddings", &[2, 2], "F32", &f32s)).unwrap();
        assert_eq!((v, r, c), (vec![1.0, -2.0, 0.5, 4.0], 2, 2));
        let f16s: Vec<u8> = [1.0f32, -2.0, 0.5]
            .iter()
            .flat_map(|x| half::f16::from_f32(*x).to_le_bytes())
            .collect();
        let (v, r, c) = read_table(&st_bytes("embedding.weight", &[3, 1], "F16", &f16s)).unwrap();
        assert_eq!((v, r, c), (vec![1.0, -2.0, 0.5], 3, 1));
        let bf16s: Vec<u8> = [3.0f32, 0.25]
            .iter()
            .flat_map(|x| half::bf16::from_f32(*x).to_le_bytes())
            .collect();
        let (v, _, _) = read_table(&st_bytes("x", &[1, 2], "BF16", &bf16s)).unwrap();
        assert_eq!(v, vec![3.0, 0.25]);
    }

    #[test]
    fn tables_of_other_shapes_and_types_are_refused() {
        let e = read_table(&st_bytes("x", &[4], "F32", &[0; 16])).unwrap_err();
        assert_eq!(e, "holds no 2-D tensor (vocabulary × dimensions)");
        let e = read_table(&st_bytes("x", &[2, 2], "I32", &[0; 16])).unwrap_err();
        assert_eq!(e, "the tensor is I32; F32, F16 or BF16 is read");
        assert!(
            read_table(b"not safetensors")
                .unwrap_err()
                .starts_with("not a safetensors file")
        );
    }

    #[test]
    fn a_folder_without_weights_is_named() {
        let d = tempfile::tempdir().unwrap();
        let e = Embedder::load(d.path()).unwrap_err();
        assert_eq!(
            e,
            format!(
                "no *.safetensors file in `{}` or its `weights/` folder",
                d.path().display()
            )
        );
        std::fs::write(d.path().join("a.safetensors"), b"").unwrap();
        std::fs::write(d.path().join("b.safetensors"), b"").unwrap();
        let e = Embedder::load(d.path()).unwrap_err();
        assert_eq!(
            e,
            format!(
                "`{}` holds several *.safetensors files (a.safetensors, b.safetensors): keep one",
                d.path().display()
            )
        );
        let e = Embedder::load(&d.path().join("missing")).unwrap_err();
        assert!(e.ends_with("missing` is not a folder"), "{e}");
    }

    /// A tiny model: a word-level tokenizer over three words and a 3 × 2 table.
    pub(crate) fn tiny_model(dir: &Path) {
        let tok = r#"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],
            "normalizer":null,"pre_tokenizer":{"type":"Whitespace"},"post_processor":null,
            "decoder":null,"model":{"type":"WordLevel","vocab":{"[UNK]":0,"north":1,"south":2},
            "unk_token":"[UNK]"}}"#;
        std::fs::write(dir.join("tokenizer.json"), tok).unwrap();
        let data: Vec<u8> = [0.0f32, 0.0, 3.0, 4.0, 0.0, -2.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        std::fs::write(
            dir.join("model.safetensors"),
            st_bytes("embeddings", &[3, 2], "F32", &data),
        )
        .unwrap();
    }

    #[test]
    fn a_text_is_the_normalised_mean_of_its_token_rows() {
        let d = tempfile::tempdir().unwrap();
        tiny_model(d.path());
        let m = Embedder::load(d.path()).unwrap();
        assert_eq!(m.dims(), 2);
        assert_eq!(m.token_ids("north south north"), vec![1, 2, 1]);
        assert_eq!(m.embed("north"), vec![0.6, 0.8]);
        // (3 + 0 + 3, 4 - 2 + 4) / 3 = (2, 2) -> (0.7071, 0.7071)
        let v = m.embed("north south north");
        assert!(
            (v[0] - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6,
            "{v:?}"
        );
        assert!(
            (v[1] - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6,
            "{v:?}"
        );
        assert_eq!(m.embed(""), vec![0.0, 0.0]);
        assert!(
            m.id()
                .starts_with("model.safetensors + tokenizer.json (2 dimensions, blake3 ")
        );
    }
}
