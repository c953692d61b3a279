//! `dsplan serve`: a local web page that reads RVTools exports in memory and shows, and
//! downloads, the plan [`crate::Planner`] makes of them. Nothing is written to disk and the
//! page makes no request to another host.
//!
//! ```
//! use std::io::{Read, Write};
//! use std::net::{Ipv4Addr, TcpStream};
//!
//! use dsplan::web::{ServeOptions, serve};
//!
//! // Port 0: the system picks a free port, which `serve` reports once it listens; the
//! // other settings are `dsplan serve`'s defaults.
//! let options = ServeOptions::default()
//!     .bind(Ipv4Addr::LOCALHOST)
//!     .port(0)
//!     .max_upload_bytes(64 << 20);
//! let (tx, rx) = std::sync::mpsc::channel();
//! std::thread::spawn(move || serve(&options, |addr| tx.send(addr).unwrap_or(())));
//! let addr = rx.recv()?;
//! let mut stream = TcpStream::connect(addr)?;
//! write!(stream, "GET /api/defaults HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")?;
//! let mut response = String::new();
//! stream.read_to_string(&mut response)?;
//! assert!(response.starts_with("HTTP/1.1 200"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Code map:
//! - `mod.rs`: [`serve`] (a tokio runtime, axum's router, the listener) and the guard every
//!   request passes: the `Host` check (loopback binds answer only to `127.0.0.1`,
//!   `localhost` and `[::1]`, against DNS rebinding), the `Content-Length` check (413 before
//!   the body is read) and the security headers ([`CONTENT_SECURITY_POLICY`]).
//! - `api`: the handlers (`GET /`, `GET /page.js`, `GET /api/defaults`,
//!   `GET /api/choices`, `POST /api/upload`, `POST /api/plan`,
//!   `POST /api/download/{format}`).
//! - `awaited`: whether a plan's answer is still awaited (its client connected, no newer
//!   plan request of its session), checked before each stage of a plan request.
//! - `names`: a download's file name, after the upload and the day, and its
//!   `Content-Disposition`.
//! - `rows`: whether an upload's CSV tab has more rows than the whole budget holds
//!   (counted without keeping them: 413 rather than 503 then).
//! - `render`: options from JSON, typed host prices, the plan, and the page's view of it
//!   (the headline figures and the HTML report's body), the form's choices; synchronous
//!   (run in `spawn_blocking`).
//! - `session`: the uploaded inventories kept between requests, within the memory budget
//!   (least recently used evicted first, recently used ones never for another, idle ones
//!   expired as soon as they are idle long enough; ids from the operating system's random
//!   source), and the bytes running plans reserve; `budget`: what a session is charged
//!   (what it holds), what its plan takes while it runs, and the rows an upload may have
//!   within the budget left.
//! - At most [`MAX_CONNECTIONS`] connections are served at once (one more is answered
//!   503 with `Retry-After`), and every answer carries the security headers.
//! - Connections are served by hyper's http1 builder with a timer, so a request's headers
//!   must arrive within [`ServeOptions::header_timeout`]; an upload's body must arrive
//!   within [`ServeOptions::body_timeout`].
//! - `page.html`, `page.js`: the page and its script, compiled into the binary.
//!
//! The library stays the one place that plans: this module converts requests into
//! [`crate::PlanOptions`] and plans into responses.

mod api;
mod assets;
mod awaited;
pub mod budget;
pub mod names;

pub use api::GZIP_FROM_BYTES;
pub mod render;
pub mod rows;
pub mod session;
pub mod words;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use session::{SessionLimits, Sessions};

/// The `Content-Security-Policy` of every response: the page may load nothing from, and
/// send nothing to, another host (`connect-src` falls back to `default-src 'self'`); its
/// script is `/page.js` (no inline script runs, so markup that slipped into the report
/// cannot run one); no other site may frame it.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; \
     style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; \
     base-uri 'none'; form-action 'self'";

/// Largest body of a JSON request (plan, download): 1 MiB, far more than the options.
pub const MAX_JSON_BYTES: usize = 1 << 20;

/// Uploads read at once; another waits for one to finish, up to
/// [`ServeOptions::body_timeout`], then gets 503 (each may hold up to the upload limit in
/// memory while it is read). A body slower than 16 KiB/s after its first 2 s is cut
/// (408), so slow connections hold a slot for seconds, not the body timeout.
pub const UPLOADS_AT_ONCE: usize = 2;

/// Where and how to serve. [`ServeOptions::default`] gives `dsplan serve`'s defaults
/// ([`crate::defaults`]). `#[non_exhaustive]`: outside this crate, built from the defaults
/// and its chaining setters (`ServeOptions::default().port(0)`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ServeOptions {
    /// Address to bind ([`crate::defaults::SERVE_BIND`], loopback).
    pub bind: IpAddr,
    /// TCP port; 0 picks a free one ([`crate::defaults::SERVE_PORT`]).
    pub port: u16,
    /// Largest upload, bytes ([`crate::defaults::SERVE_MAX_UPLOAD_MIB`] MiB): a request
    /// declaring more is refused with 413 before its body is read, and a chunked body is
    /// cut there.
    pub max_upload_bytes: u64,
    /// Memory budget over the kept inventories and their plans, bytes
    /// ([`crate::defaults::SERVE_MEMORY_BUDGET_MIB`] MiB; [`budget`]).
    pub memory_budget_bytes: u64,
    /// Longest wait for an upload's body once its reading starts, and for a reading slot
    /// ([`crate::defaults::SERVE_BODY_TIMEOUT_SECS`]).
    pub body_timeout: Duration,
    /// Longest wait for a request's headers ([`crate::defaults::SERVE_HEADER_TIMEOUT_SECS`]).
    pub header_timeout: Duration,
    /// An upload not planned for this long is dropped
    /// ([`crate::defaults::SERVE_SESSION_IDLE_MINUTES`]).
    pub session_idle: Duration,
    /// Writes a line on stderr for each plan started: its number, whether it was done,
    /// stopped (its answer no longer awaited) or failed, and its time (`dsplan serve
    /// --log-plans`; default off).
    pub log_plans: bool,
}

impl Default for ServeOptions {
    /// `dsplan serve`'s defaults: [`crate::defaults::SERVE_BIND`] (loopback),
    /// [`crate::defaults::SERVE_PORT`], [`crate::defaults::SERVE_MAX_UPLOAD_MIB`] MiB uploads,
    /// a [`crate::defaults::SERVE_MEMORY_BUDGET_MIB`] MiB memory budget, the body, header
    /// and session timeouts of [`crate::defaults`], no plan log.
    fn default() -> Self {
        use crate::defaults as d;
        ServeOptions {
            bind: d::SERVE_BIND
                .parse()
                .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST)),
            port: d::SERVE_PORT,
            max_upload_bytes: d::SERVE_MAX_UPLOAD_MIB << 20,
            memory_budget_bytes: d::SERVE_MEMORY_BUDGET_MIB << 20,
            body_timeout: Duration::from_secs(d::SERVE_BODY_TIMEOUT_SECS),
            header_timeout: Duration::from_secs(d::SERVE_HEADER_TIMEOUT_SECS),
            session_idle: Duration::from_secs(d::SERVE_SESSION_IDLE_MINUTES * 60),
            log_plans: false,
        }
    }
}

crate::setters::setters!(ServeOptions {
    bind: into: IpAddr;
    port: is: u16;
    max_upload_bytes: is: u64;
    memory_budget_bytes: is: u64;
    body_timeout: is: Duration;
    header_timeout: is: Duration;
    session_idle: is: Duration;
    log_plans: is: bool;
});

/// Errors that stop the server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WebError {
    /// The address cannot be bound (in use, not local, no permission).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The runtime or the listener failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// What the handlers share.
#[derive(Debug)]
pub struct App {
    /// Uploaded inventories.
    pub sessions: Sessions,
    /// Largest upload, bytes.
    pub max_upload_bytes: u64,
    /// Longest wait for an upload's body, and for a reading slot.
    pub body_timeout: Duration,
    /// The address served (its port is the real one with port 0).
    pub local: SocketAddr,
    /// Permits to read an upload's body: at most [`UPLOADS_AT_ONCE`] are read at once, so
    /// memory stays below that many times the upload limit.
    pub uploads: Arc<tokio::sync::Semaphore>,
    /// One upload is parsed at a time: each is read within the room the budget has left
    /// ([`Sessions::room`]), so two at once would take it twice.
    pub parsing: tokio::sync::Mutex<()>,
    /// Plans started since the server started (a superseded or abandoned request's plan
    /// is not started): for tests and monitoring.
    pub plans_run: Arc<std::sync::atomic::AtomicU64>,
    /// Whether each plan's end is written on stderr ([`ServeOptions::log_plans`]).
    pub log_plans: bool,
}

/// Serves the page until the process ends; `on_listening` is called once with the bound
/// address (the real port when `port` is 0).
///
/// # Errors
/// [`WebError::Bind`] when the address cannot be bound; [`WebError::Io`] when the runtime
/// cannot start or the listener fails.
pub fn serve(
    options: &ServeOptions,
    on_listening: impl FnOnce(SocketAddr),
) -> Result<(), WebError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let addr = SocketAddr::new(options.bind, options.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| WebError::Bind { addr, source })?;
        let local = listener.local_addr()?;
        let app = Arc::new(App {
            sessions: Sessions::new(SessionLimits {
                budget_bytes: options.memory_budget_bytes,
                idle: options.session_idle,
                protected: session::PROTECTED,
            }),
            max_upload_bytes: options.max_upload_bytes,
            body_timeout: options.body_timeout,
            local,
            uploads: Arc::new(tokio::sync::Semaphore::new(UPLOADS_AT_ONCE)),
            parsing: tokio::sync::Mutex::new(()),
            plans_run: Arc::default(),
            log_plans: options.log_plans,
        });
        let expiring = Arc::clone(&app);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(session::EXPIRY_CHECK);
            loop {
                every.tick().await;
                expiring.sessions.expire_now();
            }
        });
        on_listening(local);
        accept(listener, router(app), options.header_timeout).await
    })
}

/// Connections served at once: 512, so the server's file descriptors stay under the 1,024
/// a process gets by default on Linux (`ulimit -n`) with [`MAX_REFUSING`] more and its own
/// files. A browser opens at most 6 per host.
pub const MAX_CONNECTIONS: usize = 512;

/// Connections past [`MAX_CONNECTIONS`] being answered 503 at once: 64; past these a
/// connection is closed unanswered.
pub const MAX_REFUSING: usize = 64;

/// Longest time to write the 503 to a connection past [`MAX_CONNECTIONS`]: 1 s.
const REFUSE_WRITE_TIMEOUT: Duration = Duration::from_secs(1);

/// Serves each connection of `listener` with hyper's http1 builder: a request's headers
/// must arrive within `header_timeout` (axum::serve sets no timer, so no header timeout).
/// At most [`MAX_CONNECTIONS`] are served at once; one more is answered 503 with
/// `Retry-After` ([`refuse`]) and closed. An accept error (too many open files) is waited
/// out, as axum::serve does.
async fn accept(
    listener: tokio::net::TcpListener,
    router: Router,
    header_timeout: Duration,
) -> Result<(), WebError> {
    let open = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let refusing = Arc::new(tokio::sync::Semaphore::new(MAX_REFUSING));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            if let Ok(permit) = Arc::clone(&refusing).try_acquire_owned() {
                tokio::spawn(async move {
                    let _ = tokio::time::timeout(REFUSE_WRITE_TIMEOUT, refuse(stream)).await;
                    drop(permit);
                });
            }
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let _permit = permit;
            let io = hyper_util::rt::TokioIo::new(stream);
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service);
            // A connection's error (reset, timeout, malformed request) ends it alone.
            let _ = connection.await;
        });
    }
}

/// Answers a connection past [`MAX_CONNECTIONS`]: 503 with `Retry-After: 5` and the
/// security headers, then closes it (its request is not read).
async fn refuse(stream: tokio::net::TcpStream) {
    let body = r#"{"error":"the server is serving as many connections as it may; try again in a few seconds"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\
         content-security-policy: {CONTENT_SECURITY_POLICY}\r\n\
         x-content-type-options: nosniff\r\nreferrer-policy: no-referrer\r\n\
         cache-control: no-store\r\n\r\n{body}",
        body.len()
    );
    let mut left = answer.as_bytes();
    while !left.is_empty() && stream.writable().await.is_ok() {
        match stream.try_write(left) {
            Ok(n) => left = left.get(n..).unwrap_or_default(),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => return,
        }
    }
}

/// The routes, their body limits and the guard.
pub fn router(app: Arc<App>) -> Router {
    let upload_limit = usize::try_from(app.max_upload_bytes).unwrap_or(usize::MAX);
    Router::new()
        .route("/", get(api::page))
        .route("/page.js", get(api::page_js))
        .route("/api/defaults", get(api::defaults))
        .route("/api/choices", get(api::choices))
        .route(
            "/api/upload",
            post(api::upload).layer(DefaultBodyLimit::max(upload_limit)),
        )
        .route("/api/plan", post(api::plan))
        .route("/api/download/{format}", post(api::download))
        .layer(DefaultBodyLimit::max(MAX_JSON_BYTES))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), guard))
        .with_state(app)
}

/// Every request: the `Host` check, the `Origin` check (state-changing methods), the
/// `Content-Length` check, then the security headers ([`secure`]) on every answer, the
/// refusals (421, 403, 413) included.
async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let mut response = checked(&app, request, next).await;
    secure(response.headers_mut());
    response
}

/// The guard's checks, then the handler: the answer before the security headers.
async fn checked(app: &App, request: Request, next: Next) -> Response {
    if !host_allowed(app, request.headers().get(header::HOST)) {
        let body = serde_json::json!({"error": "this server answers only to its own address"});
        return (StatusCode::MISDIRECTED_REQUEST, axum::Json(body)).into_response();
    }
    if !origin_allowed(&request) {
        let body = serde_json::json!({
            "error": "this server accepts changes only from its own page (the request came \
                      from another site)"
        });
        return (StatusCode::FORBIDDEN, axum::Json(body)).into_response();
    }
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > app.max_upload_bytes) {
        let mut r = api::too_large(app.max_upload_bytes, declared.unwrap_or(0));
        // The body is never read: close the connection instead of draining it.
        r.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        r
    } else {
        next.run(request).await
    }
}

/// The security headers every answer carries: [`CONTENT_SECURITY_POLICY`], `nosniff`, no
/// referrer, no caching.
fn secure(headers: &mut axum::http::HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// Whether the `Host` header names this server, against DNS rebinding (a page of another
/// site whose name was re-pointed at this machine sends its own name): `127.0.0.1`,
/// `localhost` or `[::1]`, or the bound address itself; on an unspecified bind (`0.0.0.0`,
/// `::`) any IP literal, since a rebinding attack needs a DNS name. The port must be the
/// served one; browsers omit it when it is 80, so a name alone passes on port 80.
fn host_allowed(app: &App, host: Option<&HeaderValue>) -> bool {
    let Some((name, port)) = host.and_then(|h| h.to_str().ok()).and_then(split_host) else {
        return false;
    };
    let served = app.local.port();
    if port.map_or(served != 80, |p| p != served) {
        return false;
    }
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let Ok(ip) = name.parse::<IpAddr>() else {
        return false;
    };
    ip == IpAddr::from([127, 0, 0, 1])
        || ip == IpAddr::from(std::net::Ipv6Addr::LOCALHOST)
        || ip == app.local.ip()
        || app.local.ip().is_unspecified()
}

/// A `Host` value as its name (an IPv6 literal without its brackets) and port, if given;
/// `None` when it is malformed (an unbracketed IPv6 address, a port that is not a number).
fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, rest) = match host.strip_prefix('[') {
        Some(bracketed) => {
            let (inner, rest) = bracketed.split_once(']')?;
            inner.parse::<std::net::Ipv6Addr>().ok()?;
            (inner, rest)
        }
        None => match host.split_once(':') {
            Some((name, _)) => (name, &host[name.len()..]),
            None => (host, ""),
        },
    };
    if name.is_empty() {
        return None;
    }
    match rest.strip_prefix(':') {
        Some(port) => Some((name, Some(port.parse().ok()?))),
        None if rest.is_empty() => Some((name, None)),
        None => None,
    }
}

/// Whether a request may change state: `GET` and `HEAD` always; others only without an
/// `Origin` header (curl, scripts) or with this server's own origin. A form or `fetch` on
/// another site can POST a multipart upload without a CORS preflight; the browser names
/// that site in `Origin`.
fn origin_allowed(request: &Request) -> bool {
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        return true;
    }
    let headers = request.headers();
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (origin.to_str().ok(), host) {
        (Some(origin), Some(host)) => origin
            .strip_prefix("http://")
            .is_some_and(|o| o.eq_ignore_ascii_case(host)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setter sets its own field and no other: every field set, by hand and by the
    /// setters, to a value other than its default, and the two compare equal. The
    /// defaults: 127.0.0.1 port 8080, 512 MiB = 536,870,912 bytes of upload.
    #[test]
    fn serve_options_setters_set_their_own_field() {
        let defaults = ServeOptions::default();
        assert_eq!(defaults.bind, IpAddr::from([127, 0, 0, 1]));
        assert_eq!(
            (defaults.port, defaults.max_upload_bytes),
            (8080, 536_870_912)
        );
        let by_hand = ServeOptions {
            bind: IpAddr::from([0, 0, 0, 0]),
            port: 0,
            max_upload_bytes: 1 << 20,
            memory_budget_bytes: 2 << 20,
            body_timeout: Duration::from_secs(5),
            header_timeout: Duration::from_secs(6),
            session_idle: Duration::from_secs(7),
            log_plans: true,
        };
        let set = ServeOptions::default()
            .bind(std::net::Ipv4Addr::UNSPECIFIED)
            .port(0)
            .max_upload_bytes(1 << 20)
            .memory_budget_bytes(2 << 20)
            .body_timeout(Duration::from_secs(5))
            .header_timeout(Duration::from_secs(6))
            .session_idle(Duration::from_secs(7))
            .log_plans(true);
        assert_eq!(set, by_hand);
    }

    #[test]
    fn host_header_split() {
        assert_eq!(
            split_host("127.0.0.1:8080"),
            Some(("127.0.0.1", Some(8080)))
        );
        assert_eq!(split_host("localhost"), Some(("localhost", None)));
        assert_eq!(split_host("[::1]:80"), Some(("::1", Some(80))));
        assert_eq!(split_host("[::1]"), Some(("::1", None)));
        assert_eq!(split_host("::1:80"), None);
        assert_eq!(split_host("[zz]:80"), None);
        assert_eq!(split_host("a:b"), None);
        assert_eq!(split_host(":80"), None);
    }

    fn allowed(bind: &str, host: &str) -> bool {
        let app = App {
            sessions: Sessions::new(SessionLimits {
                budget_bytes: 0,
                idle: Duration::ZERO,
                protected: Duration::ZERO,
            }),
            max_upload_bytes: 1,
            body_timeout: Duration::ZERO,
            local: bind.parse().unwrap(),
            uploads: Arc::new(tokio::sync::Semaphore::new(1)),
            parsing: tokio::sync::Mutex::new(()),
            plans_run: Arc::default(),
            log_plans: false,
        };
        host_allowed(&app, Some(&HeaderValue::from_str(host).unwrap()))
    }

    #[test]
    fn host_check_on_loopback_port_80_and_other_binds() {
        // Port 80: browsers send the name alone.
        for host in [
            "127.0.0.1",
            "localhost",
            "[::1]",
            "LOCALHOST:80",
            "127.0.0.1:80",
        ] {
            assert!(allowed("127.0.0.1:80", host), "{host}");
        }
        assert!(!allowed("127.0.0.1:80", "127.0.0.1:8080"));
        assert!(!allowed("127.0.0.1:80", "evil.example.com"));
        // Another port: it must be given.
        assert!(allowed("127.0.0.1:8080", "[::1]:8080"));
        assert!(!allowed("127.0.0.1:8080", "127.0.0.1"));
        // A bound LAN address: it and the loopback names, no other name or address.
        assert!(allowed("192.168.1.5:8080", "192.168.1.5:8080"));
        assert!(allowed("192.168.1.5:8080", "localhost:8080"));
        assert!(!allowed("192.168.1.5:8080", "192.168.1.6:8080"));
        assert!(!allowed("192.168.1.5:8080", "evil.example.com:8080"));
        // All interfaces: any IP literal, never a DNS name but localhost.
        assert!(allowed("0.0.0.0:8080", "10.0.0.7:8080"));
        assert!(allowed("[::]:8080", "[fe80::1]:8080"));
        assert!(!allowed("0.0.0.0:8080", "evil.example.com:8080"));
        assert!(!allowed("0.0.0.0:8080", "10.0.0.7:9090"));
    }
}
