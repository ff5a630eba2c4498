//! `hexwar serve` as a person plays it: the binary serves, headless Chromium opens its first
//! page, starts the meeting engagement against the search AI, and plays by clicking: a move,
//! an assault after reading its odds, the question it raises (where the HQ breaks off to) answered in its dialog, the AI's
//! turns, a save downloaded and resumed from the first page, and the game to its end and its
//! replay page. The save goes on at the prompt too (`hexwar play --resume`). Driven over the
//! `DevTools` protocol (`browser.rs`); screenshots of the first page and the game page land in
//! the target folder, and with `HEXWAR_SCREENSHOTS=docs/img` in the README's folder too.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::browser::{DevTools, chromium, keep};
use crate::outside;

/// The server, stopped when the test ends however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `hexwar serve --port 0 ARGS` and the URL it prints first.
fn serve(args: &[&str]) -> (Server, String) {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .current_dir(root)
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("hexwar serve starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("http://127.0.0.1:"), "{first}");
    (Server(child), first.trim().to_owned())
}

impl DevTools {
    fn go_to(&mut self, url: &str) {
        self.send("Page.navigate", json!({ "url": url }));
        self.wait_until("document.readyState === 'complete'", 30);
    }

    /// Waits until `condition` (JavaScript) holds on the page.
    fn wait_until(&mut self, condition: &str, seconds: u64) {
        let start = Instant::now();
        loop {
            let v = self.send(
                "Runtime.evaluate",
                json!({ "expression": format!("Boolean({condition})"), "returnByValue": true }),
            );
            if v["result"]["value"] == json!(true) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(seconds),
                "waited {seconds} s for {condition}; the page says: {}",
                self.eval("JSON.stringify({ waiting: document.getElementById('waiting').textContent, odds: document.getElementById('odds').textContent, state: window.hexwarGame && ((s) => ({ selected: s.selected, nactions: s.actions.length, busy: s.busy }))(window.hexwarGame.state()), log: Array.from(document.querySelectorAll('#log p')).slice(-12).map((p) => p.textContent) })")
            );
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// Clicks the middle of the element `selector` finds, as a mouse does.
    fn click(&mut self, selector: &str) {
        self.click_with(selector, 0);
    }

    /// As `click`, with Shift held.
    fn shift_click(&mut self, selector: &str) {
        self.click_with(selector, 8);
    }

    fn click_with(&mut self, selector: &str, modifiers: u32) {
        let r = self.eval(&format!(
            "(() => {{ const e = document.querySelector({s}); if (!e) return null; e.scrollIntoView({{ block: 'center', inline: 'center' }}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            s = json!(selector)
        ));
        assert!(r.is_array(), "nothing to click at {selector}");
        for kind in ["mousePressed", "mouseReleased"] {
            self.send(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": r[0], "y": r[1], "button": "left", "clickCount": 1, "modifiers": modifiers }),
            );
        }
    }

    /// What the game page knows now.
    fn game(&mut self) -> Value {
        self.eval("JSON.parse(JSON.stringify(window.hexwarGame.state()))")
    }

    /// Waits until the game waits for the person (their phase, their question) or is over.
    fn settled(&mut self) -> Value {
        self.wait_until(
            "window.hexwarGame && !window.hexwarGame.state().busy && window.hexwarGame.state().view && ((w) => (w.kind === 'commands' || w.kind === 'question') && w.yours || w.kind === 'over')(window.hexwarGame.state().view.waiting) && document.getElementById('thinking').hidden",
            600,
        );
        self.game()["view"]["waiting"].clone()
    }

    /// Where a unit stands, as the page was told.
    fn hex_of(&mut self, unit: &str) -> Value {
        self.eval(&format!(
            "window.hexwarGame.state().view.units.find((u) => u.id === {}).hex",
            json!(unit)
        ))
    }

    /// Selects a unit by clicking its hex until the page has it selected (Esc first, to
    /// start a new selection).
    fn select(&mut self, unit: &str, adding: bool) {
        if !adding {
            self.key("Escape", 27);
            self.wait_until("window.hexwarGame.state().selected.length === 0", 10);
        }
        let hex = self.hex_of(unit);
        for _ in 0..4 {
            let selector = format!("#hexes .hex[data-hex='{}']", hex.as_str().unwrap());
            if adding {
                self.shift_click(&selector);
            } else {
                self.click(&selector);
            }
            self.wait_until("!window.hexwarGame.state().busy", 30);
            std::thread::sleep(Duration::from_millis(300));
            let selected = self.game()["selected"].clone();
            if selected.as_array().unwrap().last() == Some(&json!(unit)) {
                return;
            }
        }
        panic!("could not select {unit}");
    }

    /// Moves a unit by clicking it, then the hex lit for its move.
    fn move_to(&mut self, unit: &str, hex: &str) {
        self.select(unit, false);
        self.wait_until(
            &format!("document.querySelector(\"#hexes .hex[data-hex='{hex}']\").classList.contains('walk')"),
            30,
        );
        self.click(&format!("#hexes .hex[data-hex='{hex}']"));
        self.wait_until(
            &format!(
                "!window.hexwarGame.state().busy && window.hexwarGame.state().view.units.find((u) => u.id === '{unit}').hex === '{hex}'"
            ),
            30,
        );
    }

    /// Ends the person's phase with the button.
    fn end_phase(&mut self) {
        self.click("#end");
        std::thread::sleep(Duration::from_millis(300));
    }

    /// Ends the person's phases until their movement phase of turn `turn`.
    fn end_to(&mut self, turn: u64) {
        for _ in 0..8 {
            let w = self.settled();
            if w["turn"].as_u64() == Some(turn) && w["phase"] == "movement" {
                return;
            }
            assert!(
                w["kind"] == "commands" && w["turn"].as_u64() < Some(turn),
                "{w}"
            );
            self.end_phase();
        }
        panic!("turn {turn} did not come");
    }

    /// Runs `f` on the page and returns its promise's value.
    fn fetch_text(&mut self, url_expression: &str) -> String {
        let r = self.send(
            "Runtime.evaluate",
            json!({ "expression": format!("fetch({url_expression}).then((r) => r.text())"), "awaitPromise": true, "returnByValue": true }),
        );
        r["result"]["value"].as_str().expect("text").to_owned()
    }
}

#[test]
#[cfg_attr(
    no_chromium,
    ignore = "Chromium is not installed (apt-get install chromium; .ci/run does)"
)]
fn a_game_is_played_in_chromium_by_clicking() {
    let bin = std::env::var("CHROME").unwrap_or_else(|_| "chromium".to_owned());
    if !outside::have(&bin, "--version", "chromium") {
        return;
    }
    let (_server, url) = serve(&["tests/data/frozen/meeting_engagement.toml"]);
    let (_browser, mut dt) = chromium();

    // The first page: every scenario with its picture; the frozen copy given on the command
    // line is there too, chosen with the Soviets against the search AI on seed 25.
    dt.go_to(&url);
    dt.wait_until(
        "document.querySelectorAll('article.scenario').length === 9",
        30,
    );
    dt.wait_until(
        "Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0)",
        30,
    );
    keep("serve-first-page.png", &dt.screenshot(false), true);
    let card = "article.scenario[data-name='meeting_engagement-2']";
    dt.eval(&format!(
        "(() => {{ const f = document.querySelector(\"{card} form\"); f.side.value = 'soviet'; f.opponent.value = 'search:256'; f.seed.value = '25'; }})()"
    ));
    dt.click(&format!("{card} button[type=submit]"));
    dt.wait_until("window.location.pathname.startsWith('/game/')", 30);

    // The recon deployment: nothing to move this time.
    let w = dt.settled();
    assert_eq!(w["phase"], "deployment", "{w}");
    dt.end_phase();

    // Turn 1 passes; turn 2: two moves by clicking, the lit hex of each.
    dt.end_to(2);
    dt.move_to("t72_5", "0404");
    dt.move_to("2mrb_hq", "0404");

    // The AI's turn is shown as it plays; then turn 3, the assault on the church.
    dt.end_to(3);
    dt.move_to("t72_5", "0504");
    dt.move_to("2mrb_hq", "0504");
    dt.select("t72_5", false);
    dt.select("2mrb_hq", true);
    dt.click("#hexes .hex[data-hex='0604']");
    dt.wait_until("document.getElementById('commit')", 60);
    let odds = dt.eval("document.querySelector('#odds pre').textContent");
    assert!(
        odds.as_str()
            .unwrap()
            .contains("whole melee (R9, R11): attackers win"),
        "the odds are read before the assault: {odds}"
    );
    keep("serve-game.png", &dt.screenshot(false), true);
    dt.click("#commit");
    dt.wait_until(
        "window.hexwarGame.state().view.waiting.kind === 'question'",
        60,
    );

    // The defenders hold, and where the HQ breaks off to is asked in a dialog, the hexes lit
    // on the map and the AI's advice marked.
    let w = dt.settled();
    assert_eq!(w["kind"], "question", "{w}");
    assert!(
        w["text"]
            .as_str()
            .unwrap()
            .contains("2mrb_hq breaks off (R11.6)"),
        "{w}"
    );
    dt.wait_until("document.getElementById('question').open", 10);
    dt.wait_until(
        "document.querySelectorAll('#hexes .hex.choice').length > 1",
        10,
    );
    keep("serve-question.png", &dt.screenshot(false), false);
    let to = w["choices"][1]["answer"].as_str().unwrap().to_owned();
    dt.click(&format!("#question-choices button[data-answer='{to}']"));
    dt.wait_until(
        &format!("Array.from(document.querySelectorAll('#log p')).some((p) => p.textContent.trim().startsWith('2mrb_hq breaks off') && p.textContent.endsWith('-> {to}'))"),
        120,
    );

    // A save, downloaded as a person would by its link.
    let w = dt.settled();
    let save = dt.fetch_text("document.getElementById('save').href");
    assert!(
        save.contains(&format!("do = \"break_off_to 2mrb_hq {to}\"")),
        "{save}"
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve");
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.toml");
    std::fs::write(&saved, &save).unwrap();

    // The same game goes on at the prompt.
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["play", "--resume"])
        .arg(&saved)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write as _;
            c.stdin.take().unwrap().write_all(b"status\nquit\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("resumed"), "{said}");
    assert!(
        said.contains(&format!("turn {}", w["turn"])),
        "the prompt resumes where the page was: {w}\n{said}"
    );

    // And in the browser: uploaded on the first page, it goes on where it was.
    dt.go_to(&url);
    // The page's script has run (it builds the cards; the resume button's listener is set in
    // the same run), so that the click below is heard: the button exists before.
    dt.wait_until(
        "document.getElementById('save-file') && document.querySelector('#scenarios article')",
        30,
    );
    let doc = dt.send("DOM.getDocument", json!({}));
    let input = dt.send(
        "DOM.querySelector",
        json!({ "nodeId": doc["root"]["nodeId"], "selector": "#save-file" }),
    );
    dt.send(
        "DOM.setFileInputFiles",
        json!({ "nodeId": input["nodeId"], "files": [saved.to_str().unwrap()] }),
    );
    dt.click("#resume-button");
    dt.wait_until("window.location.pathname.startsWith('/game/')", 60);
    let resumed = dt.settled();
    assert_eq!(resumed, w, "the resumed game waits where the saved one did");

    // To the end, the AI's turns between.
    let mut phases = 0;
    loop {
        let w = dt.settled();
        if w["kind"] == "over" {
            break;
        }
        if w["kind"] == "question" {
            dt.click("#question-choices button.suggested");
        } else {
            dt.end_phase();
        }
        phases += 1;
        assert!(phases < 40, "the game ends within its five turns");
    }
    let result = dt.eval("document.getElementById('waiting').textContent");
    assert!(result.as_str().unwrap().contains("wins"), "{result}");
    dt.wait_until("!document.getElementById('replay').hidden", 10);
    keep("serve-end.png", &dt.screenshot(false), false);
    let replay = dt.fetch_text("document.getElementById('replay').href");
    assert!(
        replay.contains("hexwar replay"),
        "the replay page of the game"
    );
    let errors = dt.errors();
    assert!(errors.is_empty(), "the page logged errors: {errors:?}");
    // Opened, its scripts (the server's own files, under a policy that allows no inline
    // script) step through the game.
    let href = dt.eval("document.getElementById('replay').href");
    dt.go_to(href.as_str().unwrap());
    dt.wait_until(
        "/^step 0 of [1-9]/.test(document.getElementById('step').textContent)",
        30,
    );
    let errors = dt.errors();
    assert!(
        errors.is_empty(),
        "the replay page logged errors: {errors:?}"
    );
}

/// A request to the server at `host`: its status and body as JSON (`Null` if it is not).
fn http(host: &str, method: &str, path: &str, body: &[u8]) -> (u16, Value) {
    use std::io::{Read as _, Write as _};
    let mut s = std::net::TcpStream::connect(host).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(body).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = answer.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A game started (the answer of `POST /api/games` or `/api/resume`): its id and first link's
/// token.
fn started(answer: &Value) -> (String, String) {
    let link = answer["links"][0]["url"].as_str().unwrap();
    let (path, token) = link.split_once("#t=").unwrap();
    (
        path.trim_start_matches("/game/").to_owned(),
        token.to_owned(),
    )
}

/// A game begun at the prompt goes on in the browser: its save, uploaded, waits where the prompt
/// stopped, on the same scenario built into hexwar.
#[test]
fn a_game_saved_at_the_prompt_resumes_in_the_server() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-prompt");
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("prompt.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args([
            "play",
            "meeting_engagement",
            "--side",
            "soviet",
            "--seed",
            "9",
        ])
        .args(["--ai", "us=doctrine", "--save"])
        .arg(&save)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write as _;
            c.stdin
                .take()
                .unwrap()
                .write_all(b"end\nmove t72_5 0404\nend\nend\nstatus\nquit\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    let (_server, url) = serve(&[]);
    let host = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let (status, answer) = http(&host, "POST", "/api/resume", &std::fs::read(&save).unwrap());
    assert_eq!(status, 201, "{answer}");
    let (id, token) = started(&answer);
    let start = Instant::now();
    let view = loop {
        let (_, v) = http(
            &host,
            "GET",
            &format!("/api/games/{id}/view?t={token}"),
            b"",
        );
        if v["waiting"]["yours"] == true {
            break v;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{v}");
        std::thread::sleep(Duration::from_millis(100));
    };
    let w = &view["waiting"];
    assert!(
        said.contains(&format!(
            "turn {} of 5, day; Advance guard, 2nd MR Battalion (soviet) is playing its {} phase",
            w["turn"],
            w["phase"].as_str().unwrap()
        )),
        "the page waits where the prompt stopped: {w}\n{said}"
    );
    let t72 = view["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "t72_5")
        .unwrap()
        .clone();
    assert_eq!(t72["hex"], "0404", "{t72}");
}

/// SIGTERM (and Ctrl-C, the same path) stops the server within a second, with a page's event
/// stream open.
#[test]
fn sigterm_stops_the_server_within_a_second() {
    use std::io::Write as _;
    let (mut server, url) = serve(&[]);
    let host = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let (_, answer) = http(
        &host,
        "POST",
        "/api/games",
        br#"{"scenario":"meeting_engagement","side":"soviet","opponent":"doctrine"}"#,
    );
    let (id, token) = started(&answer);
    let mut stream = std::net::TcpStream::connect(&host).unwrap();
    write!(
        stream,
        "GET /api/games/{id}/stream?t={token} HTTP/1.1\r\nHost: {host}\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    while !line.starts_with("event: update") {
        line.clear();
        reader.read_line(&mut line).unwrap();
    }
    let pid = server.0.id().to_string();
    let start = Instant::now();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "still serving");
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    assert!(status.success(), "{status}");
    assert!(took < Duration::from_secs(1), "it took {took:?} to stop");
}

/// A scenario's names and titles reach the first page as text: a side named with markup, a
/// title with a tag and a file whose name holds quotes run nothing and show as written; every
/// page is served under a Content-Security-Policy that allows no inline script (issue 65).
#[test]
fn names_with_markup_are_shown_as_text() {
    let bin = std::env::var("CHROME").unwrap_or_else(|_| "chromium".to_owned());
    if !outside::have(&bin, "--version", "chromium") {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-markup");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let text = std::fs::read_to_string(root.join("scenarios/meeting_engagement.toml")).unwrap();
    let side = r#"Advance guard</select><img src=x onerror="document.title='pwned'">"#;
    let title = r#"Meeting <b>engagement</b><script>document.title='pwned'</script>"#;
    let text = text
        .replacen(
            "name = \"Advance guard, 2nd MR Battalion\"",
            &format!("name = \"{}\"", side.replace('"', "\\\"")),
            1,
        )
        .replacen(
            "title = \"Meeting engagement at Hohenroth\"",
            &format!("title = \"{}\"", title.replace('"', "\\\"")),
            1,
        );
    assert!(
        text.contains("</select><img src=x") && text.contains("<b>engagement</b>"),
        "the names were put in"
    );
    let file = dir.join("it's \"quoted\".toml");
    std::fs::write(&file, text).unwrap();
    let (_server, url) = serve(&[file.to_str().unwrap()]);
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let (_browser, mut dt) = chromium();
    dt.go_to(&url);
    dt.wait_until(
        "document.querySelectorAll('article.scenario').length === 9",
        30,
    );
    let page = dt.eval(&format!(
        "JSON.stringify({{ title: document.title, imgs: document.querySelectorAll('img[src=x]').length, scripts: document.scripts.length, \
         side: Array.from(document.querySelectorAll('option')).some((o) => o.textContent === {side:?} + ' (attacker)'), \
         heading: Array.from(document.querySelectorAll('h2')).some((h) => h.textContent === {title:?}), \
         meta: Array.from(document.querySelectorAll('.meta')).some((m) => m.textContent.includes('it\\'s \"quoted\".toml')) }})",
    ));
    let page: Value = serde_json::from_str(page.as_str().unwrap()).unwrap();
    assert_ne!(page["title"], "pwned", "{page}");
    assert_eq!(page["imgs"], 0, "no image of the side's name: {page}");
    assert_eq!(page["scripts"], 1, "only the page's own script: {page}");
    assert_eq!(page["side"], true, "the side's name as written: {page}");
    assert_eq!(page["heading"], true, "the title as written: {page}");
    assert_eq!(page["meta"], true, "the file's name as written: {page}");
    let errors = dt.errors();
    assert!(errors.is_empty(), "the page logged errors: {errors:?}");
    // The policy is on every page.
    for path in ["/", "/game/x", "/api/scenarios", "/assets/index.js"] {
        let answer = head_of(host, path);
        assert!(
            answer.contains("content-security-policy: default-src 'self'; script-src 'self';"),
            "{path}: {answer}"
        );
    }
}

/// The head of a GET's answer, lower-cased.
fn head_of(host: &str, path: &str) -> String {
    use std::io::{Read as _, Write as _};
    let mut s = std::net::TcpStream::connect(host).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
        .split_once("\r\n\r\n")
        .map_or(answer.clone(), |(h, _)| h.to_owned())
        .to_lowercase()
}
