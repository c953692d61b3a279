// Included with `include!` by the tests that run `dsplan serve` (`web`, `serve_limits`):
// the server as a child process killed when dropped, started on a free port read from its
// stderr, and raw HTTP requests over std's `TcpStream`. Not every including test uses
// every helper, hence the `allow(dead_code)`s.

/// A child process killed when dropped.
#[allow(dead_code)]
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `dsplan serve --port 0 ARGS` and reads its port from stderr.
#[allow(dead_code)]
fn serve(args: &[&str]) -> (Running, u16) {
    let (running, port, _) = serve_with_lines(args);
    (running, port)
}

/// As [`serve`], with the stderr lines up to the listening one.
#[allow(dead_code)]
fn serve_with_lines(args: &[&str]) -> (Running, u16, Vec<String>) {
    let (running, port, lines, _) = serve_in(args, None);
    (running, port, lines)
}

/// Later stderr lines.
#[allow(dead_code)]
type Lines = mpsc::Receiver<String>;

/// As [`serve_with_lines`], with `PATH` set to `path` when given, and the later lines.
#[allow(dead_code)]
fn serve_in(args: &[&str], path: Option<&Path>) -> (Running, u16, Vec<String>, Lines) {
    serve_binary(Path::new(env!("CARGO_BIN_EXE_dsplan")), args, path)
}

/// As [`serve_in`], the server being the `dsplan` at `binary`.
#[allow(dead_code)]
fn serve_binary(
    binary: &Path,
    args: &[&str],
    path: Option<&Path>,
) -> (Running, u16, Vec<String>, Lines) {
    let mut command = Command::new(binary);
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let mut child = command
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let running = Running(child);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let (running, port, lines) = serve_lines(running, &rx);
    (running, port, lines, rx)
}

/// Reads stderr lines up to the one saying where the server listens: the port of its
/// `http://127.0.0.1:PORT/` and every line so far.
#[allow(dead_code)]
fn serve_lines(running: Running, rx: &mpsc::Receiver<String>) -> (Running, u16, Vec<String>) {
    let mut lines = Vec::new();
    loop {
        let line = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        lines.push(line.clone());
        if !line.starts_with("dsplan serve: listening") {
            continue;
        }
        let (_, rest) = line.split_once("http://127.0.0.1:").unwrap();
        let port = rest.trim_end_matches('/').parse().unwrap();
        return (running, port, lines);
    }
}

/// Sends raw request bytes (`Connection: close`) and returns the whole response.
#[allow(dead_code)]
fn raw(port: u16, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// One HTTP/1.1 request (`Connection: close`): status and body.
#[allow(dead_code)]
fn http(port: u16, method: &str, path: &str, body: Option<&serde_json::Value>) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(300)))
        .unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let raw = read_response(&mut stream);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    (
        status,
        if chunked {
            dechunk(rest)
        } else {
            rest.to_string()
        },
    )
}

/// Reads a response: to its `Content-Length` when it has one (chromedriver may keep the
/// connection open), else to the end of the connection.
#[allow(dead_code)]
fn read_response(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        let n = stream.read(&mut buf).unwrap();
        if n == 0 {
            return raw;
        }
        raw.extend_from_slice(&buf[..n]);
        let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        if let Some(length) = length
            && raw.len() >= end + 4 + length
        {
            return raw;
        }
    }
}

#[allow(dead_code)]
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}
