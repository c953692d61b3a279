//! Whether a plan's answer is still awaited, so the server stops work nobody waits for:
//! the request's client has not gone away (hyper drops a handler's future when its
//! connection closes, and the [`GoneOnDrop`] it holds marks the request gone), and, for a
//! plan the page shows, no newer plan request of the same session has arrived (the page
//! shows only the latest answer; downloads are never superseded). Checked after the
//! session's plan lock is taken, after the budget is reserved, and in the blocking tasks
//! before planning and before rendering: a plan already running finishes its stage, the
//! next one is not started. The plan runs in a task of its own, not in the handler, so a
//! plan whose client went away keeps the session's plan lock and its bytes of the budget
//! until it stops (no second plan of the session starts beside it).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use axum::http::StatusCode;

/// A request's watch: whether its client went away and, for a plan the page shows, its
/// number among its session's plan requests.
#[derive(Debug, Clone, Default)]
pub struct Awaited {
    gone: Arc<AtomicBool>,
    latest: Option<(Arc<AtomicU64>, u64)>,
}

/// Marks its request gone when dropped: held by the handler's future, so dropped with it
/// when the connection closes (and, harmlessly, when the answer has been made).
#[derive(Debug)]
pub struct GoneOnDrop(Arc<AtomicBool>);

impl Drop for GoneOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Awaited {
    /// A watch and the guard the handler holds for as long as it waits for the answer.
    pub fn new() -> (Awaited, GoneOnDrop) {
        let awaited = Awaited::default();
        let guard = GoneOnDrop(Arc::clone(&awaited.gone));
        (awaited, guard)
    }

    /// Makes this request the latest plan request of the session whose counter is
    /// `requests`: a later one supersedes it.
    pub fn latest_of(&mut self, requests: &Arc<AtomicU64>) {
        let mine = requests.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        self.latest = Some((Arc::clone(requests), mine));
    }

    /// `Ok` while the answer is awaited.
    ///
    /// # Errors
    /// [`NotAwaited::Gone`] when the client went away (nobody reads that answer),
    /// [`NotAwaited::Superseded`] when a newer plan request of the session has arrived;
    /// the handler answers either with 409.
    pub fn check(&self) -> Result<(), NotAwaited> {
        if self.gone.load(Ordering::Relaxed) {
            return Err(NotAwaited::Gone);
        }
        match &self.latest {
            Some((requests, mine)) if requests.load(Ordering::Relaxed) != *mine => {
                Err(NotAwaited::Superseded)
            }
            _ => Ok(()),
        }
    }
}

/// Why an answer is no longer awaited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotAwaited {
    /// The request's client went away.
    Gone,
    /// A newer plan request of the same session arrived.
    Superseded,
}

impl NotAwaited {
    /// The answer's status: 409 for both.
    pub fn status(self) -> StatusCode {
        StatusCode::CONFLICT
    }

    /// What the answer says.
    pub fn message(self) -> &'static str {
        match self {
            NotAwaited::Gone => "the request was abandoned by its client",
            NotAwaited::Superseded => "superseded: a newer plan of this upload was asked for",
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::time::Duration;

    use super::*;
    use crate::web::session::{PROTECTED, SessionLimits, Sessions};
    use crate::web::{App, accept, router};

    #[test]
    fn a_newer_request_or_a_closed_connection_ends_the_wait() {
        let (a, guard) = Awaited::new();
        let requests = Arc::new(AtomicU64::new(0));
        let (mut b, _b_guard) = Awaited::new();
        b.latest_of(&requests);
        assert!(a.check().is_ok() && b.check().is_ok());
        let (mut c, _c_guard) = Awaited::new();
        c.latest_of(&requests);
        // b is superseded by c; a's client goes away.
        assert_eq!(b.check(), Err(NotAwaited::Superseded));
        assert!(c.check().is_ok());
        drop(guard);
        assert_eq!(a.check(), Err(NotAwaited::Gone));
    }

    /// Sends a plan request of `session` with `iops` over a new connection to `addr`.
    fn send(addr: std::net::SocketAddr, session: &str, iops: u32) -> TcpStream {
        let body = serde_json::json!({"session": session, "options": {"iops": iops}}).to_string();
        let request = format!(
            "POST /api/plan HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        stream
    }

    #[test]
    fn three_quick_plans_run_only_the_last_and_an_abandoned_one_none() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let local = listener.local_addr().unwrap();
        let app = Arc::new(App {
            sessions: Sessions::new(SessionLimits {
                budget_bytes: 1 << 30,
                idle: Duration::from_secs(3600),
                protected: PROTECTED,
            }),
            max_upload_bytes: 1 << 20,
            body_timeout: Duration::from_secs(10),
            local,
            uploads: Arc::new(tokio::sync::Semaphore::new(1)),
            parsing: tokio::sync::Mutex::new(()),
            plans_run: Arc::default(),
            log_plans: false,
        });
        runtime.spawn(accept(
            listener,
            router(Arc::clone(&app)),
            Duration::from_secs(10),
        ));
        let csv = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/small-estate-vinfo.csv"),
        )
        .unwrap();
        let inventory =
            crate::ingest::read_inputs_bytes(&[("estate.csv".to_string(), csv)]).unwrap();
        let session = app
            .sessions
            .insert(inventory, (1 << 20, 1 << 20), None)
            .unwrap();
        // A plan of the session is running: its lock is held.
        let lock = Arc::clone(&app.sessions.get(&session).unwrap().plan_lock);
        let running = runtime.block_on(Arc::clone(&lock).lock_owned());
        // The first request's client goes away while it waits; the second is superseded
        // by the third before the lock is free.
        let first = send(local, &session, 1000);
        let mut second = send(local, &session, 2000);
        std::thread::sleep(Duration::from_millis(200));
        drop(first);
        let mut third = send(local, &session, 3000);
        std::thread::sleep(Duration::from_millis(300));
        drop(running);
        let answer = |stream: &mut TcpStream| {
            stream
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
            let mut text = String::new();
            stream.read_to_string(&mut text).unwrap();
            text
        };
        let second = answer(&mut second);
        assert!(second.starts_with("HTTP/1.1 409"), "{second}");
        assert!(second.contains("superseded"), "{second}");
        let third = answer(&mut third);
        assert!(third.starts_with("HTTP/1.1 200"), "{third}");
        // One plan ran: the third's (the first was never planned, its client gone).
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(app.plans_run.load(Ordering::Relaxed), 1);
        // The latest request alone, its client gone while it waits: not planned either.
        let running = runtime.block_on(lock.lock_owned());
        let fourth = send(local, &session, 4000);
        std::thread::sleep(Duration::from_millis(200));
        drop(fourth);
        std::thread::sleep(Duration::from_millis(200));
        drop(running);
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(app.plans_run.load(Ordering::Relaxed), 1);
        // A request still awaited after it plans.
        let mut fifth = send(local, &session, 5000);
        let fifth = answer(&mut fifth);
        assert!(fifth.starts_with("HTTP/1.1 200"), "{fifth}");
        assert_eq!(app.plans_run.load(Ordering::Relaxed), 2);
    }
}
