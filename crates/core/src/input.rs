//! Reading inputs whole, with a size limit: a file, a pipe (`--understanding -`, `<(...)`) or a
//! device (`/dev/zero`) is read only up to the limit, so a stream that never ends is an error,
//! not a process that grows until it is killed. A regular file's reported size is no guard: a
//! pipe or a device reports 0.

use std::io::Read;
use std::path::Path;

/// Largest input read whole (an Understanding, a plan, an API response, a benchmark, a prompt
/// template, a token file, an imported document): 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Largest artifact read from a stream (a pipe or a device; a regular file is memory-mapped or
/// read by its size): 4 GiB, about 15 times the JSON form of a 10,000-tool inventory.
pub const MAX_ARTIFACT_STREAM_BYTES: u64 = 4 * 1024 * 1024 * 1024;

/// `limit` in words: `64 MiB`, `4 GiB`.
pub fn describe_limit(limit: u64) -> String {
    const GIB: u64 = 1024 * 1024 * 1024;
    if limit >= GIB && limit.is_multiple_of(GIB) {
        format!("{} GiB", limit / GIB)
    } else {
        format!("{} MiB", limit.div_ceil(1024 * 1024))
    }
}

/// Read all of `reader`, at most `limit` bytes.
///
/// Errors: the reader's own error, or (kind `InvalidData`) "larger than the limit of 64 MiB"
/// when there is more; what was read is dropped.
pub fn read_limited(reader: impl Read, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "larger than the limit of {} (reading stopped there)",
                describe_limit(limit)
            ),
        ));
    }
    Ok(bytes)
}

/// Read the file (or pipe, or device) at `path`, at most `limit` bytes.
///
/// Errors: as [`std::fs::File::open`] and [`read_limited`].
pub fn read_file_limited(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    read_limited(std::fs::File::open(path)?, limit)
}

/// [`read_file_limited`] as UTF-8 text.
///
/// Errors: as [`read_file_limited`], and (kind `InvalidData`) "stream did not contain valid
/// UTF-8", as [`std::fs::read_to_string`] says.
pub fn read_file_to_string_limited(path: &Path, limit: u64) -> std::io::Result<String> {
    String::from_utf8(read_file_limited(path, limit)?).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_limit_and_refuses_more() {
        assert_eq!(read_limited(&b"abcd"[..], 4).unwrap(), b"abcd");
        let e = read_limited(&b"abcde"[..], 4).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "larger than the limit of 1 MiB (reading stopped there)"
        );
        // An endless stream stops at the limit.
        let e = read_limited(std::io::repeat(0), 1 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "larger than the limit of 1 MiB (reading stopped there)"
        );
        assert_eq!(describe_limit(MAX_INPUT_BYTES), "64 MiB");
        assert_eq!(describe_limit(MAX_ARTIFACT_STREAM_BYTES), "4 GiB");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_that_never_ends_is_an_error() {
        let e = read_file_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    }
}
