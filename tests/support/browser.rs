// Included with `include!` by the tests that drive the page in a real headless Chromium
// (`web`, `web_layout`): a WebDriver session over std's `TcpStream` (`http` of
// `support/serve.rs`), and the page's helpers. Not every including test uses every helper,
// hence the `allow(dead_code)`s.

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

#[allow(dead_code)]
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A WebDriver session on chromedriver.
#[allow(dead_code)]
struct Driver {
    port: u16,
    session: String,
    _chromedriver: Running,
    _profile: PathBuf,
}

#[allow(dead_code)]
impl Driver {
    fn start() -> Driver {
        let port = free_port();
        let chromedriver = Running(
            Command::new(CHROMEDRIVER)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        let ready = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                ready.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        // A profile of its own per driver (the tests run at once in one process): two
        // Chromiums on one profile become one browser, whose windows the sessions share.
        let profile =
            std::env::temp_dir().join(format!("dsplan-web-chrome-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,1000",
        ];
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args}
        }}});
        let (status, body) = http(port, "POST", "/session", Some(&caps));
        assert_eq!(status, 200, "new session: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let session = v["value"]["sessionId"].as_str().unwrap().to_string();
        Driver {
            port,
            session,
            _chromedriver: chromedriver,
            _profile: profile,
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let (status, text) = http(self.port, method, &path, body.as_ref());
        assert_eq!(status, 200, "{method} {path}: {text}");
        serde_json::from_str::<Value>(&text).unwrap()["value"].take()
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn element(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        match v["element-6066-11e4-a52e-4f735466cecf"].as_str() {
            Some(id) => id.to_string(),
            None => panic!("element {css}: {v}"),
        }
    }

    fn type_into(&self, css: &str, text: &str) {
        let el = self.element(css);
        self.call("POST", &format!("/element/{el}/clear"), Some(json!({})));
        self.call(
            "POST",
            &format!("/element/{el}/value"),
            Some(json!({"text": text})),
        );
    }

    /// Polls `script` until it returns a string for which `done` holds.
    fn wait_for(&self, script: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let got = self.script(script).as_str().unwrap_or("").to_string();
            if done(&got) {
                return got;
            }
            let error = self.script("return document.getElementById('error').textContent");
            assert!(
                start.elapsed() < Duration::from_secs(240),
                "waited for {script}: {got:?}; #error: {error}"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}


#[allow(dead_code)]
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}


/// Whether the browser tests can run; prints why not.
#[allow(dead_code)]
fn browser_here() -> bool {
    let here = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !here {
        println!("skipped: chromium/chromedriver not installed");
    }
    here
}

/// Opens the page on `port` and waits for its script to be ready.
#[allow(dead_code)]
fn open_page(driver: &Driver, port: u16) {
    let page = format!("http://127.0.0.1:{port}/");
    driver.call("POST", "/url", Some(json!({"url": page})));
    driver.wait_for("return document.body.dataset.ready || ''", |s| s == "1");
}

/// Gives the page's file input the file at `path` (as picking it does).
#[allow(dead_code)]
fn pick_file(driver: &Driver, path: &Path) {
    let input = driver.element("#files");
    driver.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({"text": path.display().to_string()})),
    );
}

/// Sets a `<select>` and tells the page, as choosing with the mouse does.
#[allow(dead_code)]
fn choose(driver: &Driver, css: &str, value: &str) {
    driver.script(&format!(
        "const s = document.querySelector('{css}'); s.value = '{value}'; \
         s.dispatchEvent(new Event('change', {{bubbles: true}}));"
    ));
}


/// Emulates a viewport of `width` x `height` CSS pixels (a phone's, with a touch screen,
/// when `mobile`).
#[allow(dead_code)]
fn viewport(driver: &Driver, width: u32, height: u32, mobile: bool) {
    driver.call(
        "POST",
        "/goog/cdp/execute",
        Some(
            json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile
            }}),
        ),
    );
    // A phone has a touch screen (CSS `pointer: coarse`), a desktop a mouse.
    let touch = if mobile {
        json!({"enabled": true, "maxTouchPoints": 1})
    } else {
        json!({"enabled": false})
    };
    driver.call(
        "POST",
        "/goog/cdp/execute",
        Some(json!({"cmd": "Emulation.setTouchEmulationEnabled", "params": touch})),
    );
    // Layout settles on the next frame.
    std::thread::sleep(Duration::from_millis(300));
}


/// Runs axe-core (`target/axe/node_modules/axe-core/axe.min.js`, installed by `.ci/run`)
/// on the page; its violations as `[{id, impact, nodes, help}]`, or `None` when it is not
/// installed.
#[allow(dead_code)]
fn axe_violations(driver: &Driver) -> Option<Vec<Value>> {
    let axe = root().join("target/axe/node_modules/axe-core/axe.min.js");
    let Ok(source) = std::fs::read_to_string(&axe) else {
        println!("skipped: axe-core not found ({})", axe.display());
        return None;
    };
    driver.call("POST", "/timeouts", Some(json!({"script": 120_000})));
    driver.script(&source);
    let result = driver.call(
        "POST",
        "/execute/async",
        Some(
            json!({"script": "const done = arguments[arguments.length - 1]; \
            axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(\
            r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length, \
            help: v.help, targets: v.nodes.slice(0, 6).map(n => n.target.join(' '))}))))).catch(e => done('error: ' + e));", "args": []}),
        ),
    );
    let text = result.as_str().unwrap_or_default();
    assert!(!text.starts_with("error"), "axe: {text}");
    Some(serde_json::from_str(text).unwrap())
}
