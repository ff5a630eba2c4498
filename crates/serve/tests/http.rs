//! The server's endpoints from outside, as a client sees them: bad input answered with a 4xx
//! and a message, never a panic; what one side may not know kept from its page; fifty games
//! against the doctrine AI at once, each finishing and replaying byte for byte; the server
//! stopping within a second with an event stream open.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use serve::Limits;

/// A server on a port of its own, stopped when dropped (or by `stop`).
struct Server {
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    fn start(limits: Limits) -> Self {
        Self::offering(limits, &[])
    }

    /// A server offering the scenario files `files` besides the bundled ones.
    fn offering(limits: Limits, files: &[std::path::PathBuf]) -> Self {
        Self::answering(limits, files, Vec::new())
    }

    /// A server that answers to the host names `allowed` too (`--allow-host`).
    fn answering(limits: Limits, files: &[std::path::PathBuf], allowed: Vec<String>) -> Self {
        let offered = serve::offered(files).expect("the scenarios load");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                serve::serve_allowing(listener, offered, limits, &allowed, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
            });
        });
        Self {
            url,
            stop: Some(stop),
            done: Some(done),
        }
    }

    /// Stops it; how long it took to close.
    fn stop(&mut self) -> Duration {
        let start = Instant::now();
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(d) = self.done.take() {
            d.join().unwrap();
        }
        start.elapsed()
    }

    /// A request: its status and body.
    fn call(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String) {
        let (status, _, body) = self.exchange(method, path, headers, body);
        (status, body)
    }

    /// A request: its status, its answer's headers (lower-cased) and body.
    fn exchange(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String, String) {
        let mut s = TcpStream::connect(self.url.trim_start_matches("http://")).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        // The server's own Host, unless the request names another.
        let host = if headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            String::new()
        } else {
            format!("Host: {}\r\n", self.url.trim_start_matches("http://"))
        };
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\n{host}Connection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).unwrap();
        // A server may answer before reading all of a body it refuses.
        let _ = s.write_all(body);
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status: u16 = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let (head, body) = text.split_once("\r\n\r\n").map_or_else(
            || (text.clone(), String::new()),
            |(h, b)| (h.to_lowercase(), b.to_owned()),
        );
        (status, head, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.call("GET", path, &[], b"")
    }

    fn post(&self, path: &str, body: &str) -> (u16, String) {
        self.call(
            "POST",
            path,
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        )
    }

    /// A new game: its id and first link's token.
    fn new_game(&self, body: &Value) -> (String, String) {
        let (id, tokens) = started(self.post("/api/games", &body.to_string()));
        (id, tokens[0].clone())
    }

    /// A saved game resumed: its id and link's token.
    fn resume(&self, save: &str) -> (String, String) {
        let (id, tokens) = started(self.call("POST", "/api/resume", &[], save.as_bytes()));
        (id, tokens[0].clone())
    }

    fn view(&self, id: &str, token: &str) -> Value {
        let (status, text) = self.get(&format!("/api/games/{id}/view?t={token}"));
        assert_eq!(status, 200, "{text}");
        serde_json::from_str(&text).unwrap()
    }

    fn line(&self, id: &str, token: &str, line: &str) -> (u16, Value) {
        let (status, text) = self.post(
            &format!("/api/games/{id}/line"),
            &json!({ "t": token, "line": line }).to_string(),
        );
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Waits until the game waits for the seat, or is over.
    fn settled(&self, id: &str, token: &str) -> Value {
        let start = Instant::now();
        loop {
            let v = self.view(id, token);
            let w = &v["waiting"];
            if w["kind"] == "over" || (w["yours"] == true && v["thinking"].is_null()) {
                return v;
            }
            assert!(start.elapsed() < Duration::from_secs(300), "{v}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A game started (201): its id and each link's token.
fn started((status, text): (u16, String)) -> (String, Vec<String>) {
    assert_eq!(status, 201, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let tokens = v["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let url = l["url"].as_str().unwrap();
            url.split_once("#t=").unwrap().1.to_owned()
        })
        .collect();
    (v["id"].as_str().unwrap().to_owned(), tokens)
}

/// The message of a refusal.
fn error(body: &str) -> String {
    serde_json::from_str::<Value>(body).map_or_else(
        |_| body.to_owned(),
        |v| v["error"].as_str().unwrap_or_default().to_owned(),
    )
}

#[test]
fn bad_input_is_answered_with_a_4xx_and_a_message() {
    let server = Server::start(Limits {
        games: 2,
        ..Limits::default()
    });
    // Garbage, unknown fields, unknown scenarios, sides and AIs.
    for (body, status, says) in [
        ("garbage", 400, "not what was expected"),
        ("{}", 400, "missing field"),
        (
            r#"{"scenario":"x","side":"soviet","extra":1}"#,
            400,
            "unknown field",
        ),
        (
            r#"{"scenario":"nowhere","side":"soviet"}"#,
            404,
            "no scenario `nowhere`",
        ),
        (
            r#"{"scenario":"dawn_assault","side":"martians"}"#,
            400,
            "the sides are",
        ),
        (
            r#"{"scenario":"dawn_assault","side":"soviet","opponent":"genius"}"#,
            400,
            "genius",
        ),
        (
            r#"{"scenario":"../../etc/passwd","side":"soviet"}"#,
            404,
            "no scenario",
        ),
    ] {
        let (s, text) = server.post("/api/games", body);
        assert_eq!(s, status, "{body}: {text}");
        assert!(error(&text).contains(says), "{body}: {text}");
    }
    // A body over the limit.
    let big = "x".repeat(Limits::default().body + 1);
    let (s, _) = server.post("/api/games", &big);
    assert_eq!(s, 413);

    let (id, token) = server.new_game(&json!({
        "scenario": "meeting_engagement", "side": "soviet", "opponent": "doctrine", "seed": 3
    }));
    // Unknown games, wrong tokens, missing queries, garbage lines.
    let (s, text) = server.get("/api/games/nope/view?t=x");
    assert_eq!(s, 404, "{text}");
    let (s, text) = server.get(&format!("/api/games/{id}/view?t=wrong"));
    assert_eq!(s, 403, "{text}");
    let (s, text) = server.get(&format!("/api/games/{id}/view"));
    assert_eq!(s, 400, "{text}");
    let (s, text) = server.get(&format!("/api/games/{id}/view?t={token}&log=-1"));
    assert_eq!(s, 400, "{text}");
    let (s, text) = server.post(&format!("/api/games/{id}/line"), "{\"t\": 3}");
    assert_eq!(s, 400, "{text}");
    let (s, v) = server.line(&id, &token, &"move ".repeat(1000));
    assert_eq!(s, 413, "{v}");
    server.settled(&id, &token);
    // An illegal command: refused by its rule, nothing changed.
    let before = server.view(&id, &token);
    let (s, v) = server.line(&id, &token, "move t72_4 1210");
    assert_eq!(s, 422, "{v}");
    assert!(v["said"].as_str().unwrap().contains("refused"), "{v}");
    let (s, v) = server.line(&id, &token, "fly t72_4 to the moon");
    assert_eq!(s, 422, "{v}");
    assert!(v["said"].as_str().unwrap().starts_with('?'), "{v}");
    assert_eq!(server.view(&id, &token)["events"], before["events"]);
    // What a unit may do: only of one's own units, named as the scenario names them.
    let (s, text) = server.get(&format!("/api/games/{id}/reach?t={token}&unit=m1_b"));
    assert_eq!(s, 422, "{text}");
    let (s, text) = server.get(&format!("/api/games/{id}/reach?t={token}&unit=%00%ff"));
    assert_eq!(s, 422, "{text}");
    // The replay page waits for the end of the battle.
    let (s, text) = server.get(&format!("/api/games/{id}/replay?t={token}"));
    assert_eq!(s, 409, "{text}");
    // A page of another origin may not play; this server's own may.
    let body = json!({ "t": token, "line": "status" }).to_string();
    let (s, text) = server.call(
        "POST",
        &format!("/api/games/{id}/line"),
        &[
            ("Content-Type", "application/json"),
            ("Origin", "http://evil.example"),
        ],
        body.as_bytes(),
    );
    assert_eq!(s, 403, "{text}");
    let own = server.url.clone();
    let (s, text) = server.call(
        "POST",
        &format!("/api/games/{id}/line"),
        &[
            ("Content-Type", "application/json"),
            ("Origin", own.as_str()),
        ],
        body.as_bytes(),
    );
    assert_eq!(s, 200, "{text}");
    // Saves: garbage, and a save of a scenario this server does not offer.
    let (s, text) = server.call("POST", "/api/resume", &[], b"\xff\xfe");
    assert_eq!(s, 400, "{text}");
    let (s, text) = server.call("POST", "/api/resume", &[], b"format = 4");
    assert_eq!(s, 400, "{text}");
    let (_, save) = server.get(&format!("/api/games/{id}/save?t={token}"));
    let other = save.replace("Hohenroth", "Elsewhere");
    let (s, text) = server.call("POST", "/api/resume", &[], other.as_bytes());
    assert_eq!(s, 422, "{text}");
    assert!(error(&text).contains("does not offer"), "{text}");
    // The number of games is bounded.
    server.new_game(&json!({ "scenario": "night_recon", "side": "nato", "opponent": "doctrine" }));
    let (s, text) = server.post(
        "/api/games",
        &json!({ "scenario": "night_recon", "side": "nato", "opponent": "doctrine" }).to_string(),
    );
    assert_eq!(s, 503, "{text}");
    // Unknown pages and assets.
    assert_eq!(server.get("/assets/../../Cargo.toml").0, 404);
    assert_eq!(server.get("/nothing").0, 404);
}

#[test]
fn units_held_in_ambush_are_kept_from_the_other_side_until_placed() {
    let server = Server::start(Limits::default());
    let (id, tokens) = started(server.post(
        "/api/games",
        &json!({ "scenario": "night_recon", "side": "soviet", "opponent": "person", "seed": 1 })
            .to_string(),
    ));
    let soviet = (id.clone(), tokens[0].clone());
    let nato = (id, tokens[1].clone());
    let held = |v: &Value| -> Vec<String> {
        v["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["held"] == true)
            .map(|u| u["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let nato_view = server.view(&nato.0, &nato.1);
    let soviet_view = server.view(&soviet.0, &soviet.1);
    let hidden = held(&nato_view);
    assert!(hidden.contains(&"tow_a".to_owned()), "{hidden:?}");
    assert!(
        held(&soviet_view).is_empty(),
        "the Soviets see {:?}",
        held(&soviet_view)
    );
    let (_, board) = server.get(&format!("/api/games/{}/board.svg?t={}", soviet.0, soviet.1));
    let (_, own) = server.get(&format!("/api/games/{}/board.svg?t={}", nato.0, nato.1));
    for unit in &hidden {
        assert!(
            !board.contains(&format!(">{unit}<")),
            "{unit} is on the Soviet board"
        );
        assert!(
            own.contains(&format!(">{unit}<")),
            "{unit} is not on NATO's own board"
        );
    }
    // Nor does the prompt's `units` tell of them.
    let (_, v) = server.line(&soviet.0, &soviet.1, "units nato");
    let said = v["said"].as_str().unwrap();
    assert!(said.contains("m3_"), "{said}");
    for unit in &hidden {
        assert!(!said.contains(unit.as_str()), "{said}");
    }
}

/// Plays a game to its end as a client that ends every phase and takes the advice at every
/// question; returns its save.
fn play_out(server: &Server, id: &str, token: &str) -> String {
    loop {
        let v = server.settled(id, token);
        let w = &v["waiting"];
        if w["kind"] == "over" {
            break;
        }
        let line = if w["kind"] == "question" {
            w["choices"][0]["answer"].as_str().unwrap().to_owned()
        } else {
            "end".to_owned()
        };
        let (s, answer) = server.line(id, token, &line);
        assert_eq!(s, 200, "{line}: {answer}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (s, save) = server.get(&format!("/api/games/{id}/save?t={token}"));
    assert_eq!(s, 200);
    save
}

#[test]
fn fifty_games_against_the_doctrine_ai_at_once_finish_and_replay_byte_for_byte() {
    let server = Arc::new(Server::start(Limits::default()));
    let scenarios = [
        "meeting_engagement",
        "night_recon",
        "dawn_assault",
        "city_fight",
        "river_crossing",
    ];
    let start = Instant::now();
    let games: Vec<_> = (0..50u64)
        .map(|i| {
            let scenario = scenarios[usize::try_from(i).unwrap() % scenarios.len()];
            let side = if i % 2 == 0 {
                "nato_or_first"
            } else {
                "second"
            };
            let offered: Value = serde_json::from_str(&server.get("/api/scenarios").1).unwrap();
            let sides = offered["scenarios"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["name"] == scenario)
                .unwrap()["sides"]
                .clone();
            let side = sides[usize::from(side == "second")]["id"]
                .as_str()
                .unwrap()
                .to_owned();
            let (id, token) = server.new_game(&json!({
                "scenario": scenario, "side": side, "opponent": "doctrine", "seed": i
            }));
            let s = Arc::clone(&server);
            std::thread::spawn(move || (id.clone(), play_out(&s, &id, &token)))
        })
        .collect();
    let saves: Vec<(String, String)> = games.into_iter().map(|g| g.join().unwrap()).collect();
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(300),
        "fifty games took {took:?}, more than five minutes"
    );
    // Each save, resumed on another server, is the same game: the same save to the byte.
    let other = Server::start(Limits::default());
    for (id, save) in &saves {
        assert!(
            save.contains("do = "),
            "{id}: the save holds the game's lines"
        );
        let (again_id, token) = other.resume(save);
        let view = other.settled(&again_id, &token);
        assert_eq!(view["waiting"]["kind"], "over", "{id}");
        let (_, again) = other.get(&format!("/api/games/{again_id}/save?t={token}"));
        assert_eq!(&again, save, "{id}: the save replays byte for byte");
    }
}

#[test]
fn the_server_stops_within_a_second_with_an_event_stream_open() {
    let mut server = Server::start(Limits::default());
    let (id, token) = server.new_game(&json!({
        "scenario": "meeting_engagement", "side": "soviet", "opponent": "doctrine"
    }));
    let mut s = TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    write!(
        s,
        "GET /api/games/{id}/stream?t={token} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        server.url.trim_start_matches("http://")
    )
    .unwrap();
    let mut reader = BufReader::new(s.try_clone().unwrap());
    let mut line = String::new();
    while !line.starts_with("event: update") {
        line.clear();
        let read = reader.read_line(&mut line).unwrap();
        assert!(read > 0, "the stream ended before its first update");
    }
    let took = server.stop();
    assert!(
        took < Duration::from_secs(1),
        "the server took {took:?} to stop"
    );
}

#[test]
fn a_game_saved_at_a_question_resumes_at_it() {
    let server = Server::start(Limits::default());
    let (id, token) = server.new_game(&json!({
        "scenario": "meeting_engagement", "side": "soviet", "opponent": "doctrine", "seed": 25
    }));
    // Every phase ended: in turn 3 the Americans assault, and the person is asked.
    let asked = loop {
        let v = server.settled(&id, &token);
        let w = &v["waiting"];
        assert_ne!(w["kind"], "over", "no question came");
        if w["kind"] == "question" {
            break v;
        }
        let (s, answer) = server.line(&id, &token, "end");
        assert_eq!(s, 200, "{answer}");
    };
    let text = asked["waiting"]["text"].as_str().unwrap().to_owned();
    assert!(
        asked["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == &json!(text)),
        "the question is told in the narrative: {asked}"
    );
    let (_, save) = server.get(&format!("/api/games/{id}/save?t={token}"));
    let other = Server::start(Limits::default());
    let (again, t) = other.resume(&save);
    let resumed = other.settled(&again, &t);
    assert_eq!(
        resumed["waiting"], asked["waiting"],
        "resumed at the same question"
    );
    assert!(
        resumed["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == &json!(text)),
        "the resumed game asks it again: {resumed}"
    );
    // Answered the same on both, the games go on the same.
    let answer = asked["waiting"]["choices"][1]["answer"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(server.line(&id, &token, &answer).0, 200);
    assert_eq!(other.line(&again, &t, &answer).0, 200);
    let a = server.settled(&id, &token);
    let b = other.settled(&again, &t);
    assert_eq!(a["layout"], b["layout"]);
    assert_eq!(a["waiting"], b["waiting"]);
}

/// Every endpoint, with a real game's id and token, as `(method, path, body)`.
fn endpoints(id: &str, token: &str) -> Vec<(&'static str, String, String)> {
    let line = json!({ "t": token, "line": "status" }).to_string();
    let game = json!({ "scenario": "night_recon", "side": "soviet" }).to_string();
    vec![
        ("GET", "/".into(), String::new()),
        ("GET", format!("/game/{id}"), String::new()),
        ("GET", "/assets/index.js".into(), String::new()),
        ("GET", "/api/scenarios".into(), String::new()),
        (
            "GET",
            "/api/scenarios/night_recon/picture.svg".into(),
            String::new(),
        ),
        ("POST", "/api/games".into(), game),
        ("POST", "/api/resume".into(), "format = 5".into()),
        (
            "GET",
            format!("/api/games/{id}/view?t={token}"),
            String::new(),
        ),
        (
            "GET",
            format!("/api/games/{id}/board.svg?t={token}"),
            String::new(),
        ),
        (
            "GET",
            format!("/api/games/{id}/reach?t={token}&unit=brdm_1"),
            String::new(),
        ),
        ("POST", format!("/api/games/{id}/line"), line),
        (
            "GET",
            format!("/api/games/{id}/save?t={token}"),
            String::new(),
        ),
        (
            "GET",
            format!("/api/games/{id}/replay?t={token}"),
            String::new(),
        ),
        ("GET", "/nothing".into(), String::new()),
    ]
}

#[test]
fn a_request_for_another_host_is_refused_at_every_endpoint() {
    let server = Server::start(Limits::default());
    let (id, token) = server
        .new_game(&json!({ "scenario": "night_recon", "side": "soviet", "opponent": "doctrine" }));
    let port = server.url.rsplit(':').next().unwrap().to_owned();
    let foreign = format!("evil.example:{port}");
    let origin = format!("http://{foreign}");
    let games_before = server.view(&id, &token)["events"].clone();
    for (method, path, body) in endpoints(&id, &token) {
        // DNS rebinding: the page of another site, its name pointed at this machine, sends
        // the Host and Origin of its own name.
        let (status, head, text) = server.exchange(
            method,
            &path,
            &[
                ("Host", &foreign),
                ("Origin", &origin),
                ("Content-Type", "application/json"),
            ],
            body.as_bytes(),
        );
        assert_eq!(status, 421, "{method} {path}: {text}");
        assert!(
            head.contains("content-type: application/json"),
            "{method} {path}: {head}"
        );
        assert!(error(&text).contains("answers to 127.0.0.1:"), "{text}");
        assert!(
            !text.contains("night_recon"),
            "nothing offered is told: {text}"
        );
        // No Host at all is not this server's either.
        let (status, _, _) = server.exchange(method, &path, &[("Host", "")], body.as_bytes());
        assert_eq!(status, 421, "{method} {path} without a Host");
    }
    // Its own names are answered: localhost and [::1] at its port, any case.
    for own in [
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("[::1]:{port}"),
    ] {
        let (status, _, text) = server.exchange("GET", "/api/scenarios", &[("Host", &own)], b"");
        assert_eq!(status, 200, "{own}: {text}");
    }
    assert_eq!(
        server.view(&id, &token)["events"],
        games_before,
        "nothing was played"
    );
}

#[test]
fn every_refusal_is_json_and_every_answer_carries_the_policy() {
    let server = Server::start(Limits {
        body: 256,
        ..Limits::default()
    });
    let (id, token) = server
        .new_game(&json!({ "scenario": "night_recon", "side": "soviet", "opponent": "doctrine" }));
    // axum's own refusals: a body too large, a method an endpoint does not take.
    let big = json!({ "t": token, "line": "x".repeat(300) }).to_string();
    let (status, head, text) = server.exchange(
        "POST",
        &format!("/api/games/{id}/line"),
        &[("Content-Type", "application/json")],
        big.as_bytes(),
    );
    assert_eq!(status, 413, "{text}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(error(&text).contains("too large"), "{text}");
    for (method, path) in [
        ("DELETE", "/api/games"),
        ("PUT", "/"),
        ("POST", "/api/scenarios"),
    ] {
        let (status, head, text) = server.exchange(method, path, &[], b"");
        assert_eq!(status, 405, "{method} {path}: {text}");
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(
            error(&text).contains(&format!("does not take {method}")),
            "{text}"
        );
    }
    // The policy allows no inline script, on pages and answers alike.
    for (method, path, body) in endpoints(&id, &token) {
        let (_, head, _) = server.exchange(
            method,
            &path,
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        );
        assert!(
            head.contains("content-security-policy: default-src 'self'; script-src 'self';"),
            "{method} {path}: {head}"
        );
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    }
}

#[test]
fn a_client_that_never_finishes_its_headers_is_closed() {
    let server = Server::start(Limits {
        headers: Duration::from_millis(500),
        ..Limits::default()
    });
    let mut s = TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHost: ").unwrap();
    let start = Instant::now();
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "held for {took:?}");
    assert!(
        took >= Duration::from_millis(400),
        "closed at once: {took:?}"
    );
}

/// The night recon as bundled, and without NATO's three units held in ambush (the last three
/// units of the file): the same game to a player who may not know of them.
fn night_recon_with_and_without_ambushers(dir: &std::path::Path) -> [std::path::PathBuf; 2] {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/night_recon.toml"
    ))
    .unwrap();
    let from = text
        .find("[[units]]\nid = \"tow_a\"")
        .expect("tow_a is held in ambush");
    let to = text.find("[[objectives]]").unwrap();
    assert!(
        text[from..to].matches("ambush = ").count() == 3 && text[to..].find("[[units]]").is_none()
    );
    let without = format!("{}{}", &text[..from], &text[to..]);
    std::fs::create_dir_all(dir).unwrap();
    let a = dir.join("with.toml");
    let b = dir.join("without.toml");
    std::fs::write(&a, &text).unwrap();
    std::fs::write(&b, without).unwrap();
    [a, b]
}

/// Everything the Soviet seat is told now: its view, board, stream's first event, the answers
/// to its looks and to lines naming NATO's units, and `reach`.
fn told_to(server: &Server, id: &str, token: &str) -> Vec<String> {
    let mut told = Vec::new();
    let mut view = server.view(id, token);
    view["thinking"] = Value::Null;
    told.push(view.to_string());
    told.push(
        server
            .get(&format!("/api/games/{id}/board.svg?t={token}"))
            .1,
    );
    for unit in [
        "m60_a", "tow_a", "tow_b", "m60_x", "brdm_1", "m3_1", "mortars",
    ] {
        let (status, text) = server.get(&format!("/api/games/{id}/reach?t={token}&unit={unit}"));
        told.push(format!("reach {unit}: {status} {text}"));
    }
    for line in [
        "status",
        "units",
        "units nato",
        "legal m60_a",
        "legal m60_x",
        "legal tow",
        "map m60_a",
        "odds assault 0807 with brdm_1",
        "move m60_a 0807",
        "fire m60_a at brdm_1",
        "fire brdm_1 at m60_a",
        "move m60_b 0807",
        "hold m60_a",
        "log",
    ] {
        let (status, v) = server.line(id, token, line);
        told.push(format!("{line}: {status} {v}"));
    }
    // The stream's first event.
    let mut s = TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET /api/games/{id}/stream?t={token} HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.url.trim_start_matches("http://")
    )
    .unwrap();
    let mut r = BufReader::new(s);
    let mut first = String::new();
    while !first.contains("data:") {
        let mut l = String::new();
        if r.read_line(&mut l).unwrap() == 0 {
            break;
        }
        if l.starts_with("data:") || l.starts_with("event:") {
            first.push_str(&l);
        }
    }
    let first = first.replace(|c: char| c.is_ascii_digit(), "#");
    told.push(first);
    told
}

#[test]
fn a_seat_is_told_nothing_of_the_enemys_units_held_in_ambush() {
    let dir = std::env::temp_dir().join(format!("hexwar-serve-known-{}", std::process::id()));
    let files = night_recon_with_and_without_ambushers(&dir);
    let server = Server::offering(Limits::default(), &files);
    let start = |name: &str| {
        let (id, tokens) = started(
            server.post(
                "/api/games",
                &json!({ "scenario": name, "side": "soviet", "opponent": "person", "seed": 5 })
                    .to_string(),
            ),
        );
        (id, tokens[0].clone(), tokens[1].clone())
    };
    let with = start("with");
    let without = start("without");
    // The Soviet seat's save waits: it would hold the ambushes' zones; NATO's is given.
    let (status, text) = server.get(&format!("/api/games/{}/save?t={}", with.0, with.1));
    assert_eq!(status, 409, "{text}");
    assert!(error(&text).contains("in ambush"), "{text}");
    let (status, text) = server.get(&format!("/api/games/{}/save?t={}", with.0, with.2));
    assert_eq!(status, 200, "{text}");
    let mut compared = 0;
    // Both games played alike, NATO placing nothing, each side ending its phases: at every
    // wait the Soviet seat is told the same in both.
    for _ in 0..40 {
        // NATO's start phase, in which it may place them, is there only while it holds some:
        // the game waits in it for NATO alone (docs/serve.md says what that tells).
        let v = server.view(&with.0, &with.1);
        let w = &v["waiting"];
        let starting = w["phase"] == "start" && w["yours"] == false;
        if starting {
            let (status, answer) = server.line(&with.0, &with.2, "end");
            assert_eq!(status, 200, "{answer}");
            let start = Instant::now();
            while server.view(&with.0, &with.1)["waiting"]["kind"] == "running" {
                assert!(start.elapsed() < Duration::from_secs(60));
                std::thread::sleep(Duration::from_millis(20));
            }
            continue;
        }
        let a = told_to(&server, &with.0, &with.1);
        let b = told_to(&server, &without.0, &without.1);
        for (x, y) in a.iter().zip(&b) {
            if x != y {
                let at = x.bytes().zip(y.bytes()).take_while(|(p, q)| p == q).count();
                let around = |t: &str| {
                    t.get(at.saturating_sub(200)..(at + 200).min(t.len()))
                        .unwrap_or(t)
                        .to_owned()
                };
                panic!(
                    "the Soviet seat is told otherwise with NATO's ambushers held:\n  with:    {}\n  without: {}",
                    around(x),
                    around(y)
                );
            }
        }
        compared += a.len();
        let v = server.view(&with.0, &with.1);
        if v["waiting"]["kind"] == "over" {
            break;
        }
        for game in [&with, &without] {
            let v = server.view(&game.0, &game.1);
            let (token, line) = match (&v["waiting"]["kind"], v["waiting"]["yours"] == true) {
                (k, true) if k == "question" => (
                    &game.1,
                    v["waiting"]["choices"][0]["answer"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                ),
                (_, true) => (&game.1, "end".to_owned()),
                (k, false) if k == "question" => (
                    &game.2,
                    server.view(&game.0, &game.2)["waiting"]["choices"][0]["answer"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                ),
                _ => (&game.2, "end".to_owned()),
            };
            let (status, answer) = server.line(&game.0, token, &line);
            assert_eq!(status, 200, "{line}: {answer}");
        }
        for game in [&with, &without] {
            let start = Instant::now();
            while server.view(&game.0, &game.1)["waiting"]["kind"] == "running" {
                assert!(start.elapsed() < Duration::from_secs(60));
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
    assert!(compared > 200, "{compared} answers compared");
    // Over, the battle's save is anyone's.
    assert_eq!(server.view(&with.0, &with.1)["waiting"]["kind"], "over");
    let (status, _) = server.get(&format!("/api/games/{}/save?t={}", with.0, with.1));
    assert_eq!(status, 200);
    // And NATO itself is told of its own.
    let (_, v) = server.line(&with.0, &with.2, "legal m60_a");
    assert!(
        v["said"].as_str().unwrap().contains("held in ambush"),
        "{v}"
    );
}

#[test]
fn a_name_allowed_on_the_command_line_is_answered() {
    // `hexwar serve --bind 0.0.0.0 --allow-host game.lan`: two people on a LAN reach it by a
    // name of their own; any other name is still refused.
    let server = Server::answering(
        Limits::default(),
        &[],
        vec!["Game.LAN".to_owned(), "proxy.lan:9999".to_owned()],
    );
    let port = server.url.rsplit(':').next().unwrap().to_owned();
    let (status, _, text) = server.exchange(
        "GET",
        "/api/scenarios",
        &[("Host", &format!("game.lan:{port}"))],
        b"",
    );
    assert_eq!(status, 200, "{text}");
    let (status, _, text) = server.exchange(
        "GET",
        "/api/scenarios",
        &[("Host", &format!("other.lan:{port}"))],
        b"",
    );
    assert_eq!(status, 421, "{text}");
    assert!(
        error(&text).contains("game.lan:"),
        "the names it answers to: {text}"
    );
    // The port matters: the same name at another port is another server; a name given with
    // its port (a proxy in front) keeps it.
    let (status, _, _) = server.exchange("GET", "/", &[("Host", "game.lan:1")], b"");
    assert_eq!(status, 421);
    let (status, _, _) = server.exchange("GET", "/", &[("Host", "proxy.lan:9999")], b"");
    assert_eq!(status, 200);
}
