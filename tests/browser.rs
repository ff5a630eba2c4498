//! The replay page as a person looks at it: headless Chromium opens a page `hexwar replay
//! --html` wrote, from `file://`, steps through it with the keyboard and takes screenshots,
//! driven over the `DevTools` protocol.
//!
//! Chromium is the Debian package `chromium`; `.ci/run` installs it when missing. Set `CHROME`
//! to use another binary. The screenshots land in the test's target folder; with
//! `HEXWAR_SCREENSHOTS=docs/img` the README's one (`replay.png`, after three turns) is
//! replaced too.

use crate::outside;

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

/// Chromium, killed when the test ends however it ends.
pub(crate) struct Browser(Child, PathBuf);

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let _ = std::fs::remove_dir_all(&self.1);
    }
}

/// A `DevTools` connection: commands and their answers, and the events that came between.
pub(crate) struct DevTools {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next: u64,
    events: Vec<Value>,
    session: Option<String>,
}

impl DevTools {
    pub(crate) fn send(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({ "id": id, "method": method });
        msg["params"] = params;
        if let Some(s) = &self.session {
            msg["sessionId"] = json!(s);
        }
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .expect("send to Chromium");
        loop {
            let v = self.read();
            if v["id"] == json!(id) {
                assert!(v.get("error").is_none(), "{method} failed: {v}");
                return v["result"].clone();
            }
            self.events.push(v);
        }
    }

    pub(crate) fn read(&mut self) -> Value {
        loop {
            match self.ws.read().expect("Chromium answers within the timeout") {
                Message::Text(t) => return serde_json::from_str(&t).expect("JSON from Chromium"),
                Message::Close(_) => panic!("Chromium closed the connection"),
                _ => {}
            }
        }
    }

    /// Waits for an event, keeping the others.
    pub(crate) fn wait_for(&mut self, method: &str) -> Value {
        if let Some(i) = self.events.iter().position(|e| e["method"] == method) {
            return self.events.remove(i);
        }
        loop {
            let v = self.read();
            if v["method"] == method {
                return v;
            }
            self.events.push(v);
        }
    }

    pub(crate) fn eval(&mut self, expression: &str) -> Value {
        let r = self.send(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true }),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expression}: {r}");
        r["result"]["value"].clone()
    }

    pub(crate) fn key(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.send(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code }),
            );
        }
    }

    fn step(&mut self) -> u64 {
        self.eval("Number(document.body.dataset.step)")
            .as_u64()
            .expect("the page tells its step")
    }

    /// A PNG of the page, or of the map alone.
    pub(crate) fn screenshot(&mut self, map_only: bool) -> Vec<u8> {
        let mut params = json!({ "format": "png" });
        if map_only {
            let r = self.eval(
                "(() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()",
            );
            params["clip"] =
                json!({ "x": r[0], "y": r[1], "width": r[2], "height": r[3], "scale": 1 });
        }
        let r = self.send("Page.captureScreenshot", params);
        base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().expect("screenshot data"))
            .expect("base64 PNG")
    }

    /// Console errors, uncaught exceptions and failed loads seen so far.
    pub(crate) fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter(|e| {
                e["method"] == "Runtime.exceptionThrown"
                    || (e["method"] == "Runtime.consoleAPICalled" && e["params"]["type"] == "error")
                    || (e["method"] == "Log.entryAdded" && e["params"]["entry"]["level"] == "error")
            })
            .map(Value::to_string)
            .collect()
    }
}

pub(crate) fn chromium() -> (Browser, DevTools) {
    let bin = std::env::var("CHROME").unwrap_or_else(|_| "chromium".to_owned());
    // A profile of its own for each Chromium: the tests that start one run at once, and a
    // profile removed or locked by another made Chromium fail at start ("Disconnected").
    static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("chromium-profile-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut child = Command::new(&bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("{bin} runs ({e}): apt-get install chromium, as .ci/run does, or set CHROME")
        });
    let stderr = child.stderr.take().expect("stderr");
    let browser = Browser(child, profile.clone());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(url) = line.split_whitespace().find(|w| w.starts_with("ws://")) {
                let _ = tx.send(url.to_owned());
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("Chromium tells its DevTools address");
    let (ws, _) = tungstenite::connect(url.as_str()).expect("connect to DevTools");
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    }
    let mut dt = DevTools {
        ws,
        next: 0,
        events: Vec::new(),
        session: None,
    };
    let target = dt.send("Target.createTarget", json!({ "url": "about:blank" }));
    let session = dt.send(
        "Target.attachToTarget",
        json!({ "targetId": target["targetId"], "flatten": true }),
    );
    dt.session = Some(session["sessionId"].as_str().expect("a session").to_owned());
    for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
        dt.send(domain, json!({}));
    }
    dt.send(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1600, "height": 1000, "deviceScaleFactor": 1, "mobile": false }),
    );
    (browser, dt)
}

/// Where every counter stands and what it shows, as the page has drawn it.
const COUNTERS: &str = "Array.from(document.querySelectorAll('#units .unit')).map((g) => g.getAttribute('display') === 'none' ? `${g.id} off` : [g.id, g.getAttribute('transform'), g.getAttribute('class'), g.querySelector('.m-a').textContent].join(' ')).join('; ')";

/// Keeps a screenshot in the target folder; the README's (`for_docs`) also in
/// `$HEXWAR_SCREENSHOTS` when set.
pub(crate) fn keep(name: &str, png: &[u8], for_docs: bool) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, png).unwrap();
    if let Ok(docs) = std::env::var("HEXWAR_SCREENSHOTS")
        && for_docs
    {
        std::fs::write(Path::new(&docs).join(name), png).unwrap();
    }
    path
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "Chromium is not installed (apt-get install chromium; .ci/run does)"
)]
fn the_replay_page_steps_through_a_game_in_chromium() {
    let bin = std::env::var("CHROME").unwrap_or_else(|_| "chromium".to_owned());
    if !outside::have(&bin, "--version", "chromium") {
        return;
    }
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("night.html");
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .current_dir(root)
        .args([
            "replay",
            "--seed",
            "1",
            "scenarios/night_recon.toml",
            "--html",
        ])
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let steps = {
        let html = std::fs::read_to_string(&page).unwrap();
        // Self-contained: nothing to load from anywhere (the SVG namespace is a name, not a load).
        for link in [" src=", " href=", "@import", "url(http", "fetch("] {
            assert!(!html.contains(link), "the page loads something: {link}");
        }
        html.matches("\"c\":").count() as u64
    };
    assert!(steps > 50, "a whole game has many steps: {steps}");

    let (_browser, mut dt) = chromium();
    let started = Instant::now();
    dt.send(
        "Page.navigate",
        json!({ "url": format!("file://{}", page.display()) }),
    );
    dt.wait_for("Page.loadEventFired");
    assert_eq!(dt.step(), 0, "the page opens at the start");
    let start = dt.screenshot(true);
    let start_counters = dt.eval(COUNTERS);
    keep("replay-start.png", &dt.screenshot(false), false);

    // The arrow keys step one event at a time, both ways.
    dt.key("ArrowRight", 39);
    dt.key("ArrowRight", 39);
    assert_eq!(dt.step(), 2);
    dt.key("ArrowLeft", 37);
    assert_eq!(dt.step(), 1);

    // PageDown jumps a turn; after three the units have moved on the map.
    for _ in 0..3 {
        dt.key("PageDown", 34);
    }
    let moved_to = dt.step();
    assert!(moved_to > 2, "PageDown went on to a later turn: {moved_to}");
    assert!(
        dt.eval("document.querySelector('.entry.now').classList.contains('turn')")
            .as_bool()
            .unwrap(),
        "PageDown stops at a turn's start"
    );
    let later = dt.screenshot(true);
    assert_ne!(start, later, "stepping changes the map");

    // On to the next shot: a fire line on the map and its dice, with the number needed.
    let mut shot = false;
    for _ in 0..80 {
        dt.key("ArrowRight", 39);
        let seen = dt.eval(
            "[document.querySelectorAll('#overlay line').length, document.querySelectorAll('#dice svg').length, (document.querySelector('#dice .need') || {}).textContent || '']",
        );
        if seen[0].as_u64() > Some(0) && seen[1].as_u64() > Some(0) {
            assert!(seen[2].as_str().unwrap().starts_with("need "), "{seen}");
            shot = true;
            break;
        }
    }
    assert!(shot, "a shot with its dice within 80 steps of turn 2");
    keep("replay.png", &dt.screenshot(false), true);

    // End shows the last step and the result of the battle.
    dt.key("End", 35);
    let last = dt.step();
    assert_eq!(
        last,
        dt.eval("Number(document.getElementById('slider').max)")
            .as_u64()
            .unwrap()
    );
    assert_eq!(last + 1, steps, "every step of the data is reachable");
    let result = dt.eval(
        "(() => { const r = document.getElementById('result'); return r.hidden ? '' : r.textContent; })()",
    );
    let result = result.as_str().unwrap().to_owned();
    assert!(
        result.contains("wins"),
        "the last step shows the result: {result:?}"
    );
    let end = dt.screenshot(true);
    assert_ne!(end, later, "the last position differs from turn 3's");
    keep("replay-end.png", &dt.screenshot(false), false);

    // Home goes back to the start, and the map is drawn as it was.
    dt.key("Home", 36);
    assert_eq!(dt.step(), 0);
    assert_eq!(
        dt.eval(COUNTERS),
        start_counters,
        "the start's counters stand where they stood"
    );

    let errors = dt.errors();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    eprintln!("browser test took {:?}", started.elapsed());
}
