//! Request bodies read up to `--max-body-bytes`, and the rest of an oversized body drained
//! before the refusal, as nginx's lingering close does: a client that writes its whole body
//! before reading (Python's `http.client` and `urllib`, `curl` with a small body) would
//! otherwise hit a closed connection (a broken pipe, or a reset that discards the answer) and
//! never see the 413. The drain is bounded in bytes ([`DRAIN_MAX_BYTES`]) and time
//! ([`DRAIN_MAX_TIME`]); past either, the connection is closed as before.

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, header};
use http_body_util::BodyExt;
use std::time::Duration;

/// Most bytes of an oversized body read and discarded before the 413 is sent.
pub const DRAIN_MAX_BYTES: u64 = 8 * 1024 * 1024;

/// Longest time spent draining an oversized body before the 413 is sent.
pub const DRAIN_MAX_TIME: Duration = Duration::from_secs(2);

/// Why a body could not be read.
#[derive(Debug)]
pub enum BodyError {
    /// The body is larger than the limit (what was sent has been drained within the bounds).
    TooLarge,
    /// The body could not be decoded (a malformed chunk, a connection closed mid-body).
    Unreadable(axum::Error),
}

/// The body, if it holds at most `max` bytes. A larger one is drained (within the bounds) and
/// refused with [`BodyError::TooLarge`].
pub async fn read_limited(mut body: Body, max: usize) -> Result<Bytes, BodyError> {
    let mut buf: Vec<u8> = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(BodyError::Unreadable)?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        if buf.len() + data.len() > max {
            drain(body, (buf.len() + data.len()) as u64).await;
            return Err(BodyError::TooLarge);
        }
        buf.extend_from_slice(&data);
    }
    Ok(Bytes::from(buf))
}

/// Read and discard the rest of `body` until it ends, [`DRAIN_MAX_BYTES`] (counting `seen`
/// bytes already read) are passed, or [`DRAIN_MAX_TIME`] elapses.
pub async fn drain(mut body: Body, seen: u64) {
    let work = async move {
        let mut total = seen;
        while total <= DRAIN_MAX_BYTES {
            match body.frame().await {
                Some(Ok(f)) => total += f.data_ref().map_or(0, |d| d.len() as u64),
                _ => break,
            }
        }
    };
    let _ = tokio::time::timeout(DRAIN_MAX_TIME, work).await;
}

/// Whether a body whose `Content-Length` is over the limit is small enough to drain before the
/// refusal (a declared length within [`DRAIN_MAX_BYTES`]); a larger one is refused at once.
pub fn worth_draining(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|n| n <= DRAIN_MAX_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_body_within_the_limit_is_read_whole_and_a_larger_one_refused() {
        let b = read_limited(Body::from(vec![b'x'; 4]), 4).await.unwrap();
        assert_eq!(b.len(), 4);
        assert!(matches!(
            read_limited(Body::from(vec![b'x'; 5]), 4).await,
            Err(BodyError::TooLarge)
        ));
    }

    #[test]
    fn only_declared_lengths_within_the_drain_bound_are_drained() {
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_LENGTH, "8388608".parse().unwrap());
        assert!(worth_draining(&h));
        h.insert(header::CONTENT_LENGTH, "8388609".parse().unwrap());
        assert!(!worth_draining(&h));
        assert!(!worth_draining(&HeaderMap::new()));
    }
}
