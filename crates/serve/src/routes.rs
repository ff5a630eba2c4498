//! The endpoints. Pages and assets are compiled in; every game endpoint takes the seat's token
//! (`t`, in the query or the body) and answers bad input with a 4xx and a message as JSON
//! (`{"error": ...}`), never a panic. Bodies are bounded (a line or a new game: `Limits::body`;
//! a save: `Limits::save`); a request that changes a game from a page of another origin is
//! refused (the `Origin` header must name this server); nothing a request holds becomes a path.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use commands::play::{Said, Table};
use model::Side;
use present::picture::style::Style;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::games::{Games, Held, Limits, NotStarted};
use crate::offer::Offered;
use crate::view;

const INDEX: &str = include_str!("../assets/index.html");
const GAME: &str = include_str!("../assets/game.html");
const GAME_JS: &str = include_str!("../assets/game.js");
const INDEX_JS: &str = include_str!("../assets/index.js");
const CSS: &str = include_str!("../assets/style.css");

/// The longest line a seat may send.
const MAX_LINE: usize = 2_000;

/// The Content-Security-Policy of every answer: scripts and fonts only from the server's own
/// files (no inline script, so a name that slipped into a page as markup could run nothing),
/// pictures from there or drawn by the page, no frames, no plugins, no other site to talk to.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                   img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; \
                   object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The host names (with the port) a request may be sent to: the server's own.
#[derive(Clone, Debug)]
pub struct Hosts(Vec<String>);

impl Hosts {
    /// A server listening at `address`: 127.0.0.1, localhost and `[::1]`, the address itself
    /// (unless it is every address), and the names `allowed`, each at the port (a name given
    /// with a port keeps its own); at port 80 the names without it too.
    pub fn of(address: std::net::SocketAddr, allowed: &[String]) -> Self {
        let port = address.port();
        let mut names: Vec<String> = vec!["127.0.0.1".into(), "localhost".into(), "[::1]".into()];
        let ip = address.ip();
        if !ip.is_unspecified() && !ip.is_loopback() {
            names.push(match ip {
                std::net::IpAddr::V4(v4) => v4.to_string(),
                std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            });
        }
        let mut hosts = Vec::new();
        for name in names.iter().chain(allowed) {
            let name = name.trim().to_ascii_lowercase();
            // A name given with its port keeps it: `game.lan:8080`, `[fe80::1]:8080` (a bare
            // IPv6 address has colons of its own).
            let with_port = name.rsplit_once(':').is_some_and(|(host, p)| {
                !p.is_empty()
                    && p.bytes().all(|b| b.is_ascii_digit())
                    && (host.ends_with(']') || !host.contains(':'))
            });
            if with_port {
                hosts.push(name);
            } else {
                hosts.push(format!("{name}:{port}"));
                if port == 80 {
                    hosts.push(name);
                }
            }
        }
        Self(hosts)
    }

    /// Whether a request's `Host` names this server.
    fn allow(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.0.contains(&host)
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    offered: Arc<Offered>,
    games: Arc<Games>,
    stopped: watch::Receiver<bool>,
    hosts: Arc<Hosts>,
}

impl App {
    /// The server's state.
    pub fn new(
        offered: Arc<Offered>,
        limits: Limits,
        stopped: watch::Receiver<bool>,
        hosts: Hosts,
    ) -> Self {
        Self {
            offered,
            games: Arc::new(Games::new(limits)),
            stopped,
            hosts: Arc::new(hosts),
        }
    }

    /// The games held.
    pub fn games(&self) -> Arc<Games> {
        Arc::clone(&self.games)
    }
}

/// The routes.
pub fn router(app: App) -> Router {
    let limits = app.games.limits;
    Router::new()
        .route("/", get(|| async { Html(INDEX) }))
        .route("/game/{id}", get(|| async { Html(GAME) }))
        // A browser asks for it on every page that names none (the replay page): nothing.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/assets/{file}", get(asset))
        .route("/api/scenarios", get(scenarios))
        .route("/api/scenarios/{name}/picture.svg", get(picture))
        .route("/api/games", post(new_game))
        .route(
            "/api/resume",
            post(resume).layer(DefaultBodyLimit::max(limits.save)),
        )
        .route("/api/games/{id}/view", get(look))
        .route("/api/games/{id}/board.svg", get(board))
        .route("/api/games/{id}/reach", get(reach))
        .route("/api/games/{id}/line", post(line))
        .route("/api/games/{id}/stream", get(stream))
        .route("/api/games/{id}/save", get(save))
        .route("/api/games/{id}/replay", get(replay))
        .fallback(|| async { fail(StatusCode::NOT_FOUND, "no such page").into_response() })
        .layer(middleware::from_fn(same_origin))
        .layer(DefaultBodyLimit::max(limits.body))
        .layer(middleware::from_fn(as_json))
        .layer(middleware::from_fn(guarded))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app.hosts),
            own_host,
        ))
        .with_state(app)
}

/// Before anything else: a request whose `Host` is not this server's is refused, GETs too, so
/// that a site whose name was made to point at this machine (DNS rebinding) reaches nothing.
async fn own_host(State(hosts): State<Arc<Hosts>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !hosts.allow(host) {
        return fail(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server answers to {} only (`hexwar serve --allow-host NAME` adds a name), not to `{}`",
                hosts.0.join(", "),
                model::shown(host)
            ),
        )
        .into_response();
    }
    next.run(request).await
}

/// Every answer carries the Content-Security-Policy and asks the browser not to guess types,
/// frame the page or send its address elsewhere.
async fn guarded(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// A refusal that is not JSON yet (axum's own: a body too large, a method an endpoint does not
/// take) becomes `{"error": ...}`, as docs/serve.md promises of every refusal.
async fn as_json(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "the body is too large for this endpoint".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => format!("this endpoint does not take {method}"),
        _ => {
            let body = axum::body::to_bytes(response.into_body(), 4096)
                .await
                .unwrap_or_default();
            let text = String::from_utf8_lossy(&body).trim().to_owned();
            if text.is_empty() {
                status.canonical_reason().unwrap_or("refused").to_owned()
            } else {
                text
            }
        }
    };
    fail(status, message).into_response()
}

/// A refusal: its status and message, sent as JSON (`{"error": ...}`).
#[derive(Debug)]
struct Refusal {
    status: StatusCode,
    message: String,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({ "error": self.message }))).into_response()
    }
}

fn fail(status: StatusCode, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

type Answer = Result<Response, Refusal>;

/// A request that changes something must come from this server's own pages: an `Origin`
/// header, where the browser sends one, must name the host the request was sent to.
async fn same_origin(request: Request, next: Next) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let headers = request.headers();
        if let Some(origin) = headers.get(header::ORIGIN) {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("");
            let ok = origin.to_str().is_ok_and(|o| o == format!("http://{host}"));
            if !ok {
                return fail(
                    StatusCode::FORBIDDEN,
                    "a page of another origin may not play here",
                )
                .into_response();
            }
        }
    }
    next.run(request).await
}

async fn asset(Path(file): Path<String>) -> Response {
    let (kind, body): (&str, &'static [u8]) = match file.as_str() {
        "game.js" => ("text/javascript; charset=utf-8", GAME_JS.as_bytes()),
        "index.js" => ("text/javascript; charset=utf-8", INDEX_JS.as_bytes()),
        "style.css" => ("text/css; charset=utf-8", CSS.as_bytes()),
        "board.css" => (
            "text/css; charset=utf-8",
            present::picture::replay::CSS_TEXT.as_bytes(),
        ),
        "board.js" => (
            "text/javascript; charset=utf-8",
            present::picture::replay::BOARD_SCRIPT.as_bytes(),
        ),
        "replay.js" => (
            "text/javascript; charset=utf-8",
            present::picture::replay::SCRIPT.as_bytes(),
        ),
        "dejavu.ttf" => ("font/ttf", present::picture::fonts::REGULAR),
        "dejavu-bold.ttf" => ("font/ttf", present::picture::fonts::BOLD),
        _ => return fail(StatusCode::NOT_FOUND, "no such asset").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "max-age=3600"),
        ],
        body,
    )
        .into_response()
}

async fn scenarios(State(app): State<App>) -> Response {
    let list: Vec<Value> = app
        .offered
        .iter()
        .map(|o| {
            let s = &o.loaded.scenario;
            json!({
                "name": o.name,
                "source": o.source,
                "title": s.title,
                "description": s.description.trim(),
                "turns": s.turns,
                "sides": s.sides.iter().map(|x| json!({
                    "id": x.id,
                    "name": x.name,
                    "role": format!("{:?}", x.role).to_lowercase(),
                })).collect::<Vec<_>>(),
                "picture": format!("/api/scenarios/{}/picture.svg", o.name),
            })
        })
        .collect();
    axum::Json(
        json!({ "scenarios": list, "ais": ["search:64", "search:256", "search:16", "doctrine"] }),
    )
    .into_response()
}

async fn picture(State(app): State<App>, Path(name): Path<String>) -> Answer {
    let o = app
        .offered
        .named(&name)
        .ok_or_else(|| fail(StatusCode::NOT_FOUND, "no such scenario"))?;
    Ok(svg(o.picture.clone()))
}

fn svg(body: String) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], body).into_response()
}

/// The body of a request, as JSON of `T`.
fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, Refusal> {
    serde_json::from_slice(bytes).map_err(|e| {
        fail(
            StatusCode::BAD_REQUEST,
            format!("the body is not what was expected: {e}"),
        )
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// The scenario's name, as `/api/scenarios` lists it.
    scenario: String,
    /// A side's id, or `both` (hot-seat).
    side: String,
    /// `person`, or an AI's name (`search:64`, `doctrine`).
    #[serde(default = "default_opponent")]
    opponent: String,
    /// The seed; a random one if not given.
    seed: Option<u64>,
}

fn default_opponent() -> String {
    "search:64".to_owned()
}

/// The answer to a game started: its id and each player's link.
fn started(id: &str, tokens: &[String], table_sides: &[Vec<String>]) -> Response {
    let links: Vec<Value> = tokens
        .iter()
        .zip(table_sides)
        .map(|(t, sides)| json!({ "sides": sides, "url": format!("/game/{id}#t={t}") }))
        .collect();
    (
        StatusCode::CREATED,
        axum::Json(json!({ "id": id, "links": links })),
    )
        .into_response()
}

async fn start(app: &App, table: Table, seats: Vec<Vec<Side>>) -> Answer {
    let s = table.scenario();
    let names: Vec<Vec<String>> = seats
        .iter()
        .map(|x| {
            x.iter()
                .map(|&side| s.sides[side.index()].id.clone())
                .collect()
        })
        .collect();
    let games = app.games();
    let (id, tokens) = tokio::task::spawn_blocking(move || games.start(table, seats))
        .await
        .map_err(|_| fail(StatusCode::INTERNAL_SERVER_ERROR, "the game did not start"))?
        .map_err(|e| match e {
            NotStarted::Full(n) => fail(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("this server holds {n} games already: try again when one is idle"),
            ),
            NotStarted::Bad(why) => fail(StatusCode::UNPROCESSABLE_ENTITY, why),
        })?;
    Ok(started(&id, &tokens, &names))
}

async fn new_game(State(app): State<App>, bytes: Bytes) -> Answer {
    let asked: NewGame = body(&bytes)?;
    let offer = app.offered.named(&asked.scenario).ok_or_else(|| {
        fail(
            StatusCode::NOT_FOUND,
            format!("no scenario `{}` here", model::shown(&asked.scenario)),
        )
    })?;
    let s = &offer.loaded.scenario;
    let ids: Vec<String> = s.sides.iter().map(|x| x.id.clone()).collect();
    let side = if asked.side == "both" {
        None
    } else {
        let i = ids.iter().position(|id| *id == asked.side).ok_or_else(|| {
            fail(
                StatusCode::BAD_REQUEST,
                format!(
                    "side `{}`: the sides are `{}` and `{}`, or `both`",
                    model::shown(&asked.side),
                    ids[0],
                    ids[1]
                ),
            )
        })?;
        Some(Side::BOTH[i])
    };
    let person = asked.opponent == "person";
    let (people, seats): (Vec<String>, Vec<Vec<Side>>) = match side {
        None => (ids.clone(), vec![Side::BOTH.to_vec()]),
        Some(side) if person => (ids.clone(), vec![vec![side], vec![side.other()]]),
        Some(side) => (vec![ids[side.index()].clone()], vec![vec![side]]),
    };
    let seed = asked.seed.unwrap_or_else(crate::games::new_seed);
    let opponent = if person {
        "search"
    } else {
        asked.opponent.as_str()
    };
    let table = Table::new(offer.loaded.clone(), &people, opponent, seed)
        .map_err(|e| fail(StatusCode::BAD_REQUEST, e.0))?;
    start(&app, table, seats).await
}

async fn resume(State(app): State<App>, bytes: Bytes) -> Answer {
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| fail(StatusCode::BAD_REQUEST, "a save is text (UTF-8)"))?;
    let saved = session::save::SavedGame::read(text)
        .map_err(|e| fail(StatusCode::BAD_REQUEST, format!("not a hexwar save: {e}")))?;
    let offer = app.offered.of_save(&saved).ok_or_else(|| {
        fail(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "this server does not offer the scenario the save was played on ({}): start it with that file",
                model::shown(&saved.scenario_name)
            ),
        )
    })?;
    let s = &offer.loaded.scenario;
    let sides: Vec<Side> = Side::BOTH
        .into_iter()
        .filter(|side| saved.sides.contains(&s.sides[side.index()].id))
        .collect();
    if sides.is_empty() {
        return Err(fail(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the save commands no side: there is nothing to play here (`hexwar replay` tells it)",
        ));
    }
    let table = Table::resume(offer.loaded.clone(), saved)
        .map_err(|e| fail(StatusCode::UNPROCESSABLE_ENTITY, e.0))?;
    start(&app, table, vec![sides]).await
}

/// A game and the sides of the seat whose token is given.
fn seat_of(app: &App, id: &str, token: &str) -> Result<(Arc<Held>, Vec<Side>), Refusal> {
    let held = app.games.get(id).ok_or_else(|| {
        fail(
            StatusCode::NOT_FOUND,
            format!(
                "no game `{}` here (a game nobody looks at is dropped after {} minutes: upload its save to go on)",
                model::shown(id),
                app.games.limits.idle.as_secs() / 60
            ),
        )
    })?;
    let sides = held
        .player(token)
        .ok_or_else(|| {
            fail(
                StatusCode::FORBIDDEN,
                "this link's token is not one of this game's",
            )
        })?
        .sides
        .clone();
    Ok((held, sides))
}

/// The seat a request on a game is made from: the game of the path's id, and the sides of the
/// seat whose token (`t`) the query gives.
struct Seated {
    id: String,
    held: Arc<Held>,
    sides: Vec<Side>,
}

impl FromRequestParts<App> for Seated {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Refusal> {
        let Path(id) = Path::<String>::from_request_parts(parts, app)
            .await
            .map_err(|e| fail(StatusCode::BAD_REQUEST, e.body_text()))?;
        let token = query(
            Query::<Token>::from_request_parts(parts, app).await,
            "give t=TOKEN",
        )?;
        let (held, sides) = seat_of(app, &id, &token.t)?;
        Ok(Self { id, held, sides })
    }
}

fn gone(_: crate::games::Gone) -> Refusal {
    fail(StatusCode::GONE, "the game has stopped")
}

/// The query of a request, or a refusal saying what it should hold.
fn query<T>(q: Result<Query<T>, QueryRejection>, should: &str) -> Result<T, Refusal> {
    q.map(|Query(q)| q)
        .map_err(|e| fail(StatusCode::BAD_REQUEST, format!("{should}: {e}")))
}

#[derive(Deserialize)]
struct Token {
    t: String,
}

#[derive(Deserialize)]
struct LookQuery {
    #[serde(default)]
    log: usize,
    #[serde(default)]
    events: usize,
}

async fn look(
    Seated { held, sides, .. }: Seated,
    q: Result<Query<LookQuery>, QueryRejection>,
) -> Answer {
    let q = query(q, "give log=N and events=N")?;
    let mut v = held
        .ask(move |seat| view::view(seat, &sides, q.log, q.events))
        .await
        .map_err(gone)?;
    v["thinking"] = json!(held.signal.borrow().thinking);
    Ok(axum::Json(v).into_response())
}

async fn board(Seated { held, sides, .. }: Seated) -> Answer {
    let picture = held
        .ask(move |seat| {
            let rules = seat.desk.session().rules();
            let board = present::picture::replay::board(&rules, &Style::bundled(), |u| {
                view::known(&rules, &sides, u)
            });
            with_hexes(&board, &rules)
        })
        .await
        .map_err(gone)?;
    Ok(svg(picture))
}

/// The board with a layer of hexes on top, each named by its label, that the page lights up
/// and takes clicks on.
fn with_hexes(board: &str, rules: &counters::Rules<'_>) -> String {
    use std::fmt::Write as _;
    let map = &rules.scenario.map;
    let geo = present::picture::geometry::Geometry::new(map, present::picture::map::HEX);
    let mut layer = String::from(r#"<g id="hexes">"#);
    for h in map.hexes() {
        let points: Vec<String> = geo
            .corners(h)
            .iter()
            .map(|p| {
                format!(
                    "{},{}",
                    present::picture::svg::N(p.x),
                    present::picture::svg::N(p.y)
                )
            })
            .collect();
        let _ = write!(
            layer,
            r#"<polygon class="hex" data-hex="{}" points="{}"/>"#,
            map.label(h),
            points.join(" ")
        );
    }
    layer.push_str("</g></svg>");
    match board.rfind("</svg>") {
        Some(end) => format!("{}{layer}", &board[..end]),
        None => board.to_owned(),
    }
}

#[derive(Deserialize)]
struct ReachQuery {
    unit: String,
}

async fn reach(
    Seated { held, sides, .. }: Seated,
    q: Result<Query<ReachQuery>, QueryRejection>,
) -> Answer {
    let q = query(q, "give unit=ID")?;
    let answer = held
        .ask(move |seat| view::reach(seat, &sides, &q.unit))
        .await
        .map_err(gone)?;
    answer
        .map(|v| axum::Json(v).into_response())
        .map_err(|why| fail(StatusCode::UNPROCESSABLE_ENTITY, why))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    t: String,
    line: String,
}

async fn line(State(app): State<App>, Path(id): Path<String>, bytes: Bytes) -> Answer {
    let asked: Line = body(&bytes)?;
    if asked.line.len() > MAX_LINE {
        return Err(fail(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a line is at most {MAX_LINE} bytes"),
        ));
    }
    let (held, sides) = seat_of(&app, &id, &asked.t)?;
    let two_people = held.players.len() > 1;
    let (said, words) = held
        .ask(move |seat| {
            let waited = seat.desk.waiting().cloned();
            let side = match &waited {
                Some(
                    game::Waiting::Commands { side, .. } | game::Waiting::Question { side, .. },
                ) if sides.contains(side) => *side,
                _ => sides[0],
            };
            let session = seat.desk.session();
            let before = (
                session.game().events().len(),
                session.game().transcript().count(),
            );
            let said = seat.desk.line(side, &asked.line);
            let words = seat.desk.take_said();
            let session = seat.desk.session();
            let after = (
                session.game().events().len(),
                session.game().transcript().count(),
            );
            let ends = matches!(said, Ok(Said::EndsPhase));
            // What changed the game is the narrative of both seats; a look is the asker's.
            // The end of a start phase, in which a side places units held in ambush, is not
            // told to the other person: the phase is there only while it holds some (R15.3).
            let start_ended = ends
                && two_people
                && matches!(
                    waited,
                    Some(game::Waiting::Commands {
                        phase: model::Phase::Start,
                        ..
                    })
                );
            if ends || before != after || seat.desk.waiting() != waited.as_ref() {
                if !start_ended {
                    seat.log.push(format!("> {}", asked.line.trim()));
                }
                seat.log.extend(words.lines().map(str::to_owned));
                seat.changed = true;
            }
            seat.go_on |= ends;
            (said.map_err(|e| format!("{e:#}")), words)
        })
        .await
        .map_err(gone)?;
    let (status, result) = match said {
        Ok(Said::Done) => (StatusCode::OK, "done"),
        Ok(Said::EndsPhase) => (StatusCode::OK, "ends phase"),
        Ok(Said::Refused) => (StatusCode::UNPROCESSABLE_ENTITY, "refused"),
        Err(e) => return Err(fail(StatusCode::INTERNAL_SERVER_ERROR, e)),
    };
    Ok((
        status,
        axum::Json(json!({ "result": result, "said": words })),
    )
        .into_response())
}

async fn stream(Seated { held, .. }: Seated, State(app): State<App>) -> Answer {
    let signal = held.signal.clone();
    let stopped = app.stopped.clone();
    // Each update is numbered on its stream, not by the game's count of changes, which would
    // tell a seat how much the other side did between its looks.
    let events = futures_util::stream::unfold(
        (signal, stopped, 0_u64),
        |(mut signal, mut stopped, sent)| async move {
            let first = sent == 0;
            if !first {
                tokio::select! {
                    changed = signal.changed() => changed.ok()?,
                    _ = stopped.changed() => return None,
                }
            }
            if *stopped.borrow() {
                return None;
            }
            let s = signal.borrow_and_update().clone();
            let data = json!({ "version": sent + 1, "thinking": s.thinking }).to_string();
            let event = SseEvent::default().event("update").data(data);
            Some((
                Ok::<_, std::convert::Infallible>(event),
                (signal, stopped, sent + 1),
            ))
        },
    );
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

async fn save(Seated { id, held, sides }: Seated) -> Answer {
    // A save holds the whole scenario, where the other side's ambushes lie among it: in a game
    // between two people it waits until that side has placed them, or the battle is over
    // (R15.3); the other player, who knows them, may save meanwhile.
    let other_person = held.players.len() > 1;
    let text = held
        .ask(move |seat| {
            let session = seat.desk.session();
            let s = session.rules().scenario;
            let state = session.game().state();
            let hidden = other_person
                && state.outcome().is_none()
                && state
                    .units()
                    .iter()
                    .any(|u| !counters::known_to_any(s, &sides, u));
            if hidden {
                return Err((
                    StatusCode::CONFLICT,
                    "the save would show where the other side's units wait in ambush: it can be downloaded once they are placed or the battle is over (the other player may save now)".to_owned(),
                ));
            }
            seat.desk
                .save_text()
                .map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")))
        })
        .await
        .map_err(gone)?
        .map_err(|(status, e)| fail(status, e))?;
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/toml; charset=utf-8"),
    );
    let name = format!(
        "attachment; filename=\"hexwar-{}.toml\"",
        id.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
    );
    if let Ok(v) = HeaderValue::from_str(&name) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok((headers, text).into_response())
}

async fn replay(Seated { held, .. }: Seated) -> Answer {
    let page = held
        .ask(move |seat| {
            let session = seat.desk.session();
            let rules = session.rules();
            let state = session.game().state();
            let outcome = state.outcome()?;
            let saved = session.saved();
            Some(present::picture::replay::page(
                &rules,
                &Style::bundled(),
                &present::picture::replay::Header {
                    source: format!("seed {}, played in the browser", saved.seed),
                    // The page is served under a policy that allows no inline script.
                    scripts: present::picture::replay::Scripts::At("/assets/".to_owned()),
                },
                session.game().events(),
                Some(outcome),
            ))
        })
        .await
        .map_err(gone)?
        .ok_or_else(|| {
            fail(
                StatusCode::CONFLICT,
                "the replay page is there once the battle is over",
            )
        })?;
    Ok(Html(page).into_response())
}
