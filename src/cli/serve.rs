//! `dsplan serve`: the local web page ([`dsplan::web`]).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use dsplan::defaults;

use super::Failure;

/// `dsplan serve [--port 8080] [--bind 127.0.0.1] [--open] [--max-upload-mib 512]
/// [--memory-budget-mib 1024] [--body-timeout-secs 60] [--header-timeout-secs 30]
/// [--session-idle-minutes 60] [--log-plans]`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// TCP port (0: any free port; the address is printed on stderr).
    #[arg(long, default_value_t = defaults::SERVE_PORT)]
    pub port: u16,
    /// Address to listen on [default: 127.0.0.1]. Another address makes the page, and the
    /// exports uploaded to it, reachable from other machines: only when given, with a warning.
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<IpAddr>,
    /// Open the page in the default browser (xdg-open or open).
    #[arg(long)]
    pub open: bool,
    /// Largest upload, MiB (1..=4096); a larger one is refused before it is read.
    #[arg(long, default_value_t = defaults::SERVE_MAX_UPLOAD_MIB,
          value_parser = clap::value_parser!(u64).range(1..=defaults::SERVE_MAX_UPLOAD_MIB_MAX))]
    pub max_upload_mib: u64,
    /// Memory the kept uploads and their plans may take, MiB (64..=1048576): least recently
    /// used uploads are dropped for new ones, and an upload that alone needs more is refused.
    #[arg(long, default_value_t = defaults::SERVE_MEMORY_BUDGET_MIB,
          value_parser = clap::value_parser!(u64).range(64..=1 << 20))]
    pub memory_budget_mib: u64,
    /// Longest wait for an upload's body once its reading starts, and for a reading slot,
    /// seconds (1..=3600).
    #[arg(long, default_value_t = defaults::SERVE_BODY_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout_secs: u64,
    /// Longest wait for a request's headers, seconds (1..=3600).
    #[arg(long, default_value_t = defaults::SERVE_HEADER_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout_secs: u64,
    /// An upload nobody plans for this long is dropped, minutes (1..=10080).
    #[arg(long, default_value_t = defaults::SERVE_SESSION_IDLE_MINUTES,
          value_parser = clap::value_parser!(u64).range(1..=10_080))]
    pub session_idle_minutes: u64,
    /// Write a line on stderr for each plan the page asks for: its number, whether it was
    /// done, stopped (a newer change of the page superseded it) or failed, and its time.
    #[arg(long)]
    pub log_plans: bool,
}

/// Serves the page until the process is stopped.
///
/// # Errors
/// A usage failure (exit 1) when the address cannot be bound (clap refuses an upload
/// limit outside 1..=[`defaults::SERVE_MAX_UPLOAD_MIB_MAX`]).
pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    let default_bind: IpAddr = defaults::SERVE_BIND
        .parse()
        .map_err(|e| Failure::usage(format!("internal: default address: {e}")))?;
    let bind = args.bind.unwrap_or(default_bind);
    if !bind.is_loopback() {
        eprintln!(
            "dsplan serve: warning: listening on {bind}: other machines can reach the page \
             and the exports uploaded to it{}",
            if bind.is_unspecified() {
                "; they must use this machine's IP address (host names are refused, \
                 against DNS rebinding)"
            } else {
                ""
            }
        );
    }
    let options = dsplan::web::ServeOptions::default()
        .bind(bind)
        .port(args.port)
        .max_upload_bytes(args.max_upload_mib.saturating_mul(1 << 20))
        .memory_budget_bytes(args.memory_budget_mib.saturating_mul(1 << 20))
        .body_timeout(Duration::from_secs(args.body_timeout_secs))
        .header_timeout(Duration::from_secs(args.header_timeout_secs))
        .session_idle(Duration::from_secs(
            args.session_idle_minutes.saturating_mul(60),
        ))
        .log_plans(args.log_plans);
    let open = args.open;
    dsplan::web::serve(&options, |addr| {
        let url = page_url(addr);
        if addr.ip().is_unspecified() {
            eprintln!(
                "dsplan serve: listening on all interfaces, port {}; on this machine open {url}",
                addr.port()
            );
        } else {
            eprintln!("dsplan serve: listening on {url}");
        }
        if open {
            open_browser(&url);
        }
    })
    .map_err(|e| Failure::usage(e.to_string()))
}

/// The page's address; an unspecified bind (0.0.0.0) is shown as 127.0.0.1.
fn page_url(addr: SocketAddr) -> String {
    let ip = if addr.ip().is_unspecified() {
        IpAddr::from([127, 0, 0, 1])
    } else {
        addr.ip()
    };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// Runs `xdg-open` (or macOS's `open`) on the page; warns when neither can be run, or when
/// the one run fails (its exit status, from a thread: the server does not wait for it).
fn open_browser(url: &str) {
    for opener in ["xdg-open", "open"] {
        if let Ok(mut child) = std::process::Command::new(opener)
            .arg(url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
        {
            let url = url.to_string();
            std::thread::spawn(move || match child.wait() {
                Ok(status) if status.success() => {}
                Ok(status) => eprintln!(
                    "dsplan serve: warning: --open: {opener} failed ({status}); open {url}"
                ),
                Err(e) => eprintln!("dsplan serve: warning: --open: {opener}: {e}; open {url}"),
            });
            return;
        }
    }
    eprintln!("dsplan serve: warning: --open: neither xdg-open nor open can be run; open {url}");
}
