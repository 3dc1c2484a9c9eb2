//! Load client for `schemarouter serve` (`serve-load`, used by `bench/serve_load.sh`): `--requests` route
//! requests at `--concurrency` over kept-alive connections (hyper HTTP/1.1 client connections,
//! all driven by one thread so the client takes as little of the machine as it can), bounded
//! by count and by `--max-seconds`. Optionally replaces the served artifact file once in the
//! middle (`--reload-at N --artifact FILE --swap NEW`: a copy and an atomic rename, as
//! `compile` does). Prints one JSON line: throughput, latency percentiles, errors, and how many
//! answers each artifact hash gave.
//!
//! `--first-answer` instead polls until the first successful route and prints how long that
//! took (time to first answer after starting the server).

use bytes::Bytes;
use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;
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
    /// Requests in flight (each on its own kept-alive connection).
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

/// One kept-alive HTTP/1.1 connection (hyper's client connection over a tokio socket).
struct Conn {
    send: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
}

impl Conn {
    async fn open(addr: &str) -> Result<Conn, String> {
        let stream = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| e.to_string())?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        tokio::task::spawn_local(async move {
            let _ = conn.await;
        });
        Ok(Conn { send })
    }

    /// POST `body`; the status and the artifact hash header (the body is read whole, so the
    /// connection is reused).
    async fn post(
        &mut self,
        host: &str,
        body: &Bytes,
        token: Option<&str>,
    ) -> Result<(u16, String), String> {
        self.send.ready().await.map_err(|e| e.to_string())?;
        let mut req = hyper::Request::post("/v1/route")
            .header("host", host)
            .header("content-type", "application/json");
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let req = req
            .body(Full::new(body.clone()))
            .map_err(|e| e.to_string())?;
        let resp = self
            .send
            .send_request(req)
            .await
            .map_err(|e| e.to_string())?;
        let status = resp.status().as_u16();
        let hash = resp
            .headers()
            .get("x-artifact-hash")
            .and_then(|h| h.to_str().ok())
            .unwrap_or("")
            .to_string();
        resp.into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?;
        Ok((status, hash))
    }
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
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, run(args));
}

async fn run(args: Args) {
    let host = args
        .url
        .trim_end_matches('/')
        .trim_start_matches("http://")
        .to_string();
    let body = Bytes::from(std::fs::read(&args.body).expect("read --body"));
    let token = args.token.clone();
    let limit = Duration::from_secs(args.max_seconds);
    if args.first_answer {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(mut c) = Conn::open(&host).await
                && let Ok((200, _)) = c.post(&host, &body, token.as_deref()).await
            {
                println!(
                    "{}",
                    serde_json::json!({"first_answer_ms": (start.elapsed().as_secs_f64() * 1e4).round() / 10.0})
                );
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        eprintln!("no answer within {} s", args.max_seconds);
        std::process::exit(1);
    }
    let next = Rc::new(Cell::new(0usize));
    let first_error = Rc::new(RefCell::new(None::<String>));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..args.concurrency {
        let (next, first_error, host, body, token) = (
            next.clone(),
            first_error.clone(),
            host.clone(),
            body.clone(),
            token.clone(),
        );
        let (reload_at, artifact, swap, requests) = (
            args.reload_at,
            args.artifact.clone(),
            args.swap.clone(),
            args.requests,
        );
        tasks.push(tokio::task::spawn_local(async move {
            let mut lat = Vec::new();
            let mut errors = 0usize;
            let mut hashes = BTreeMap::<String, usize>::new();
            let mut conn: Option<Conn> = None;
            loop {
                let i = next.get();
                if i >= requests || start.elapsed() > limit {
                    break;
                }
                next.set(i + 1);
                if Some(i) == reload_at
                    && let (Some(dst), Some(src)) = (&artifact, &swap)
                {
                    let tmp = dst.with_extension("json.load-tmp");
                    std::fs::copy(src, &tmp).expect("copy --swap");
                    std::fs::rename(&tmp, dst).expect("rename over --artifact");
                }
                let t = Instant::now();
                if conn.is_none() {
                    conn = Conn::open(&host).await.ok();
                }
                let result = match conn.as_mut() {
                    Some(c) => c.post(&host, &body, token.as_deref()).await,
                    None => Err("cannot connect".to_string()),
                };
                match result {
                    Ok((200, h)) => {
                        lat.push(t.elapsed().as_micros() as u32);
                        *hashes.entry(h).or_default() += 1;
                    }
                    other => {
                        errors += 1;
                        if other.is_err() {
                            conn = None;
                        }
                        let mut f = first_error.borrow_mut();
                        if f.is_none() {
                            *f = Some(format!("{other:?}"));
                        }
                    }
                }
            }
            (lat, errors, hashes)
        }));
    }
    let mut lat = Vec::new();
    let mut errors = 0usize;
    let mut hashes = BTreeMap::<String, usize>::new();
    for t in tasks {
        let (l, e, h) = t.await.expect("client task");
        lat.extend(l);
        errors += e;
        for (k, n) in h {
            *hashes.entry(k).or_default() += n;
        }
    }
    let secs = start.elapsed().as_secs_f64();
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
            "first_error": *first_error.borrow(),
        })
    );
}
