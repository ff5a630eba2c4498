//! The games a server holds. Each is played on a thread of its own, which owns its scenario
//! (`commands::play::Table`) and sits at its `Desk`; the endpoints send it jobs (closures over
//! the desk) and await their answers, so the game is only ever touched by its thread, in the
//! order the jobs came. After a job that ends a phase the thread runs the game on (the AI's
//! turn), saying on the game's signal that it is thinking and, when done, that there is more
//! to see; the event streams of its pages follow that signal.

use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use commands::play::{Desk, Table};
use model::Side;
use tokio::sync::{oneshot, watch};

/// The bounds of a server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Games held at once.
    pub games: usize,
    /// A game not looked at for this long is dropped.
    pub idle: Duration,
    /// The largest body of a line or a new game.
    pub body: usize,
    /// The largest save uploaded.
    pub save: usize,
    /// How long a client has to send a request's headers (once it has begun, or after the
    /// last answer on a kept-alive connection): one that never finishes them is closed.
    pub headers: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            games: 200,
            idle: Duration::from_secs(2 * 60 * 60),
            body: 16 * 1024,
            save: 4 * 1024 * 1024,
            headers: Duration::from_secs(10),
        }
    }
}

/// What a game's pages are told between looks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signal {
    /// Goes up each time there is something new to see.
    pub version: u64,
    /// The side whose AI is playing now, by name.
    pub thinking: Option<String>,
}

/// What a job works on: the desk, and the narrative so far (every line said by the game's
/// play, shared by its seats; what a seat's own looks said goes only to that seat).
pub struct Seat<'r> {
    /// The game.
    pub desk: Desk<'r>,
    /// The narrative, line by line.
    pub log: Vec<String>,
    /// The game must run on after this job (a phase ended).
    pub go_on: bool,
    /// The job changed the game: its pages look again.
    pub changed: bool,
}

impl Seat<'_> {
    /// Keeps what the desk said in the narrative.
    pub fn keep_said(&mut self) {
        let said = self.desk.take_said();
        self.log.extend(said.lines().map(str::to_owned));
    }
}

/// A job for a game's thread.
pub type Job = Box<dyn FnOnce(&mut Seat<'_>) + Send>;

/// Someone who may play a game: their token, and the sides they command.
pub struct Player {
    /// The secret in their link.
    pub token: String,
    /// Their sides (both, hot-seat).
    pub sides: Vec<Side>,
}

/// A game held.
pub struct Held {
    /// Who may play it.
    pub players: Vec<Player>,
    jobs: Mutex<mpsc::Sender<Job>>,
    /// The game's signal, for its pages' event streams.
    pub signal: watch::Receiver<Signal>,
    last: Mutex<Instant>,
}

/// Why a job was not done.
#[derive(Debug)]
pub struct Gone;

impl Held {
    /// Runs `f` on the game's thread and returns its answer.
    ///
    /// # Errors
    /// [`Gone`] if the game's thread has stopped.
    pub async fn ask<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Seat<'_>) -> T + Send + 'static,
    ) -> Result<T, Gone> {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |seat| {
            let _ = tx.send(f(seat));
        });
        self.jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(job)
            .map_err(|_| Gone)?;
        rx.await.map_err(|_| Gone)
    }

    /// The player whose token this is.
    #[must_use]
    pub fn player(&self, token: &str) -> Option<&Player> {
        // Every token is compared, each in time independent of where it differs.
        let mut found = None;
        for p in &self.players {
            if same(p.token.as_bytes(), token.as_bytes()) {
                found = Some(p);
            }
        }
        found
    }

    fn idle_for(&self) -> Duration {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .elapsed()
    }
}

fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// The games held, by id.
pub struct Games {
    held: Mutex<HashMap<String, Arc<Held>>>,
    /// The bounds.
    pub limits: Limits,
}

/// Why a game was not started.
#[derive(Debug)]
pub enum NotStarted {
    /// All the games the server holds are in play.
    Full(usize),
    /// The scenario or save does not play.
    Bad(String),
}

impl Games {
    /// No games yet.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        Self {
            held: Mutex::new(HashMap::new()),
            limits,
        }
    }

    /// The game of this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<Arc<Held>> {
        self.held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned()
    }

    /// How many are held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Starts a game on its own thread: `table` set, `seats` the sides each player commands.
    /// Returns its id and the players' tokens, in the order of `seats`.
    ///
    /// # Errors
    /// The server holds all the games it may, or the game does not start (a save that does
    /// not play again).
    pub fn start(
        &self,
        table: Table,
        seats: Vec<Vec<Side>>,
    ) -> Result<(String, Vec<String>), NotStarted> {
        if self.len() >= self.limits.games {
            self.drop_idle();
            if self.len() >= self.limits.games {
                return Err(NotStarted::Full(self.limits.games));
            }
        }
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (signal_tx, signal) = watch::channel(Signal::default());
        let (ready_tx, ready) = mpsc::channel::<Result<(), String>>();
        std::thread::Builder::new()
            .name("hexwar game".to_owned())
            .spawn(move || play(&table, &inbox, &signal_tx, &ready_tx))
            .map_err(|e| NotStarted::Bad(format!("cannot start the game's thread: {e}")))?;
        ready
            .recv()
            .map_err(|_| NotStarted::Bad("the game stopped as it started".to_owned()))?
            .map_err(NotStarted::Bad)?;
        let players: Vec<Player> = seats
            .into_iter()
            .map(|sides| Player {
                token: secret(),
                sides,
            })
            .collect();
        let tokens = players.iter().map(|p| p.token.clone()).collect();
        let id = secret()[..12].to_owned();
        let held = Arc::new(Held {
            players,
            jobs: Mutex::new(jobs),
            signal,
            last: Mutex::new(Instant::now()),
        });
        self.held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), held);
        Ok((id, tokens))
    }

    /// Drops the games idle longer than the limit: their threads end with their inboxes.
    pub fn drop_idle(&self) {
        let idle = self.limits.idle;
        self.held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, g| g.idle_for() < idle);
    }
}

/// Drops idle games every half minute.
pub async fn sweep(games: Arc<Games>) {
    loop {
        tokio::time::sleep(Duration::from_secs(30)).await;
        games.drop_idle();
    }
}

/// A secret of 128 bits from the operating system, as hex.
fn secret() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No generator: the time and a counter, still unique, if guessable.
        let n = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = n.to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new game's seed, from the operating system's generator.
#[must_use]
pub fn new_seed() -> u64 {
    let mut bytes = [0u8; 8];
    let _ = getrandom::fill(&mut bytes);
    u64::from_le_bytes(bytes) % 1_000_000
}

/// The game's thread: sits at the desk, runs the game to its first wait, then does the jobs
/// as they come, running the game on after each that ends a phase, until the game is dropped.
fn play(
    table: &Table,
    inbox: &mpsc::Receiver<Job>,
    signal: &watch::Sender<Signal>,
    ready: &mpsc::Sender<Result<(), String>>,
) {
    let desk = match table.desk() {
        Ok(d) => d,
        Err(e) => {
            let _ = ready.send(Err(e.0));
            return;
        }
    };
    let _ = ready.send(Ok(()));
    let mut seat = Seat {
        desk,
        log: Vec::new(),
        go_on: true,
        changed: false,
    };
    seat.keep_said();
    let mut stopped = false;
    let thinker = |seat: &Seat<'_>| -> Option<String> {
        let s = seat.desk.session();
        Side::BOTH
            .into_iter()
            .find(|&side| !s.outside(side))
            .map(|side| s.rules().scenario.sides[side.index()].name.clone())
    };
    loop {
        // The game runs on a phase at a time, the pages told after each (and their looks
        // answered between phases), until a side commanded from outside is waited for.
        if !stopped && (seat.go_on || seat.desk.waiting().is_none()) {
            seat.go_on = false;
            signal.send_modify(|s| s.thinking = thinker(&seat));
            let more = seat.desk.go_on_a_phase().unwrap_or_else(|e| {
                // Only scripted dice run out; the game's own never do. It goes no further.
                seat.log.push(format!("the game stopped: {e:#}"));
                stopped = true;
                false
            });
            seat.keep_said();
            signal.send_modify(|s| {
                if !more {
                    s.thinking = None;
                }
                s.version += 1;
            });
            loop {
                match inbox.try_recv() {
                    Ok(job) => work(&mut seat, job, signal),
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => return,
                }
            }
            continue;
        }
        let Ok(job) = inbox.recv() else {
            return;
        };
        work(&mut seat, job, signal);
    }
}

/// Does a job, and tells the pages if it changed what they see.
fn work(seat: &mut Seat<'_>, job: Job, signal: &watch::Sender<Signal>) {
    let before = signal.borrow().version;
    job(seat);
    let said = seat.desk.take_said();
    let said_anything = !said.is_empty();
    seat.log.extend(said.lines().map(str::to_owned));
    if said_anything || seat.go_on || std::mem::take(&mut seat.changed) {
        signal.send_modify(|s| {
            if s.version == before {
                s.version += 1;
            }
        });
    }
}
