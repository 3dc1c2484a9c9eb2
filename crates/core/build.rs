//! Build script: writes the o200k_base vocabulary as a sorted, position-independent table
//! (`$OUT_DIR/o200k_base.bin`) that `prompt::tokens` reads in place, so counting tokens needs no
//! start-up work (tiktoken-rs builds two 200k-entry hash maps, about 120 ms, in every process).
//!
//! Layout (all integers little-endian u32): `n`, then `n + 1` byte offsets into the bytes
//! section, then `n` ranks, then the token bytes concatenated; entries are sorted by their bytes.

use std::io::Write;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let bpe = tiktoken_rs::o200k_base().expect("o200k_base vocabulary");
    let special: std::collections::HashSet<u32> = [199_999u32, 200_018].into_iter().collect();
    let mut entries: Vec<(Vec<u8>, u32)> = Vec::with_capacity(200_000);
    for rank in 0..201_000u32 {
        if special.contains(&rank) {
            continue;
        }
        if let Ok(bytes) = bpe.decode_bytes(&[rank]) {
            entries.push((bytes, rank));
        }
    }
    entries.sort();
    let n = entries.len() as u32;
    let mut out = Vec::new();
    out.extend_from_slice(&n.to_le_bytes());
    let mut offset = 0u32;
    for (bytes, _) in &entries {
        out.extend_from_slice(&offset.to_le_bytes());
        offset += bytes.len() as u32;
    }
    out.extend_from_slice(&offset.to_le_bytes());
    for (_, rank) in &entries {
        out.extend_from_slice(&rank.to_le_bytes());
    }
    for (bytes, _) in &entries {
        out.extend_from_slice(bytes);
    }
    let path =
        std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("o200k_base.bin");
    let mut f = std::fs::File::create(&path).expect("create vocabulary table");
    f.write_all(&out).expect("write vocabulary table");
}
