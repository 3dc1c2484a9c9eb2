//! Load client for `schemarouter serve` (`serve-load`, used by `bench/serve_load.sh`): `--requests` route
//! requests at `--concurrency` over kept-alive connections (one ureq agent per thread), bounded
//! by count and by `--max-seconds`. Optionally replaces the served artifact file once in the
//! middle (`--reload-at N --artifact FILE --swap NEW`: a copy and an atomic rename, as
//! `compile` does). Prints one JSON line: throughput, latency percentiles, errors, and how many
//! answers each artifact hash gave.
//!
//! `--first-answer` instead polls until the first successful route and prints how long that
//! took (time to first answer after starting the server).

use clap::Parser;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Parser)]
struct Args {
    /// Base URL of the server (`http://127.0.0.1:PORT`).
    #[arg(long)]
    url: String,
    /// JSON body of every request (a question or an Understanding).
    #[arg(long)]
    body: PathBuf,
    /// Requests to send.
    #[arg(long, default_value_t = 20_000)]
    requests: usize,
    /// Requests in flight (threads, each with its own kept-alive connection).
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    /// Replace the artifact when this many requests have started.
    #[arg(long, requires_all = ["artifact", "swap"])]
    reload_at: Option<usize>,
    /// The artifact file the server serves.
    #[arg(long)]
    artifact: Option<PathBuf>,
    /// The artifact to put in its place.
    #[arg(long)]
    swap: Option<PathBuf>,
    /// Bearer token.
    #[arg(long)]
    token: Option<String>,
    /// Stop after this many seconds whatever the count.
    #[arg(long, default_value_t = 120)]
    max_seconds: u64,
    /// Poll until the first answer and print the time it took.
    #[arg(long)]
    first_answer: bool,
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into()
}

fn post(
    a: &ureq::Agent,
    url: &str,
    body: &[u8],
    token: Option<&str>,
) -> Result<(u16, String), String> {
    let mut req = a.post(url).header("Content-Type", "application/json");
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    let resp = req.send(body).map_err(|e| e.to_string())?;
    let status = resp.status().as_u16();
    let hash = resp
        .headers()
        .get("x-artifact-hash")
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .to_string();
    // Read the whole body so the connection is reused.
    resp.into_body().read_to_vec().map_err(|e| e.to_string())?;
    Ok((status, hash))
}

fn pct(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    let args = Args::parse();
    let url = format!("{}/v1/route", args.url.trim_end_matches('/'));
    let body = std::fs::read(&args.body).expect("read --body");
    let token = args.token.clone();
    let limit = Duration::from_secs(args.max_seconds);
    if args.first_answer {
        let start = Instant::now();
        let a = agent();
        while start.elapsed() < limit {
            if let Ok((200, _)) = post(&a, &url, &body, token.as_deref()) {
                println!(
                    "{}",
                    serde_json::json!({"first_answer_ms": (start.elapsed().as_secs_f64() * 1e4).round() / 10.0})
                );
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        eprintln!("no answer within {} s", args.max_seconds);
        std::process::exit(1);
    }
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new((
        Vec::<u32>::new(),
        0usize,
        BTreeMap::<String, usize>::new(),
    )));
    let first_error = Arc::new(Mutex::new(None::<String>));
    let start = Instant::now();
    let threads: Vec<_> = (0..args.concurrency)
        .map(|_| {
            let first_error = first_error.clone();
            let (next, results, url, body, token) = (
                next.clone(),
                results.clone(),
                url.clone(),
                body.clone(),
                token.clone(),
            );
            let (reload_at, artifact, swap) =
                (args.reload_at, args.artifact.clone(), args.swap.clone());
            std::thread::spawn(move || {
                let a = agent();
                let mut lat = Vec::new();
                let mut errors = 0usize;
                let mut hashes = BTreeMap::<String, usize>::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.requests || start.elapsed() > limit {
                        break;
                    }
                    if Some(i) == reload_at
                        && let (Some(dst), Some(src)) = (&artifact, &swap)
                    {
                        let tmp = dst.with_extension("json.load-tmp");
                        std::fs::copy(src, &tmp).expect("copy --swap");
                        std::fs::rename(&tmp, dst).expect("rename over --artifact");
                    }
                    let t = Instant::now();
                    match post(&a, &url, &body, token.as_deref()) {
                        Ok((200, h)) => {
                            lat.push(t.elapsed().as_micros() as u32);
                            *hashes.entry(h).or_default() += 1;
                        }
                        other => {
                            errors += 1;
                            let mut f = first_error.lock().unwrap();
                            if f.is_none() {
                                *f = Some(format!("{other:?}"));
                            }
                        }
                    }
                }
                let mut r = results.lock().unwrap();
                r.0.extend(lat);
                r.1 += errors;
                for (h, n) in hashes {
                    *r.2.entry(h).or_default() += n;
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("client thread");
    }
    let secs = start.elapsed().as_secs_f64();
    let (mut lat, errors, hashes) = std::mem::take(&mut *results.lock().unwrap());
    lat.sort_unstable();
    let done = lat.len() + errors;
    let hashes: BTreeMap<String, usize> = hashes
        .into_iter()
        .map(|(h, n)| (h.chars().take(12).collect(), n))
        .collect();
    println!(
        "{}",
        serde_json::json!({
            "requests": done,
            "ok": lat.len(),
            "errors": errors,
            "seconds": (secs * 1e3).round() / 1e3,
            "rps": (done as f64 / secs).round(),
            "p50_us": pct(&lat, 0.50),
            "p99_us": pct(&lat, 0.99),
            "max_us": lat.last().copied().unwrap_or(0),
            "hashes": hashes,
            "first_error": *first_error.lock().unwrap(),
        })
    );
}
