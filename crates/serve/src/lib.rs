//! `hexwar serve`: play in the browser. A local web server (axum on tokio) whose pages are one
//! more seat of the game: the first page lists the scenarios and starts a game against an AI or
//! another person; the game page shows the map as `render` draws it, and every click becomes a
//! line of the prompt of `hexwar play` (`commands::play::Desk`), so the page, the prompt and a
//! script play by the same words, checked by the same rules, saved in the same files.
//!
//! - `offer.rs`: the scenarios offered (bundled, and the files and folders given).
//! - `games.rs`: the games held, each played on a thread of its own at a `Desk` that jobs are
//!   sent to; the seats' tokens; the bounds (games held, idle life).
//! - `view.rs`: what a seat sees of its game (the position, the units it may know of, what
//!   the game waits for, the narrative, the steps of play since it last looked).
//! - `routes.rs`: the endpoints, the body limits, the Origin check, the server-sent events.
//! - `assets/`: the pages, script and style, compiled in; the font is hexwar's own.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

mod games;
mod offer;
mod routes;
mod view;

pub use games::Limits;

/// The arguments of `hexwar serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Scenario files or folders to offer besides the bundled scenarios.
    #[arg(value_name = "FILE|DIR")]
    pub files: Vec<PathBuf>,
    /// The port to listen on (0: any free port; the URL printed names it).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. Anything but the loopback lets other machines play (a
    /// warning is printed); each game is still reached only through its link's token.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// At most this many games held at once (a new one is refused while all are in play).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_games: u32,
    /// A game nobody looked at for this many minutes is dropped (download its save to keep it).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=10_080))]
    pub idle_minutes: u64,
    /// A host name the server answers to besides its own address (127.0.0.1, localhost, `[::1]`
    /// and the `--bind` address): the name other machines reach it by, with `--bind`. Every
    /// request naming another host is refused, so that no other site can reach it through a
    /// name of its own (DNS rebinding).
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
}

/// Runs the server until Ctrl-C or SIGTERM: prints its URL as the first line of standard
/// output, then serves.
///
/// # Errors
/// Bad scenarios (exit 2 through `commands::finish`), or an address that cannot be bound.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let offered = offer::Offered::load(&args.files)?;
    let limits = Limits {
        games: args.max_games as usize,
        idle: Duration::from_secs(args.idle_minutes * 60),
        ..Limits::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port))
            .await
            .map_err(|e| {
                commands::BadInput(format!("cannot listen on {}:{}: {e}", args.bind, args.port))
            })?;
        let address = listener.local_addr()?;
        println!("{}", url_of(address));
        if !args.bind.is_loopback() {
            eprintln!(
                "warning: listening on {}, not the loopback: other machines can reach this server (each game still needs its link); it answers to {} and the names given with --allow-host",
                args.bind,
                if args.bind.is_unspecified() { "127.0.0.1".to_owned() } else { args.bind.to_string() }
            );
        }
        eprintln!(
            "hexwar serve: {} scenarios; Ctrl-C stops it",
            offered.len()
        );
        serve_allowing(
            listener,
            Arc::new(offered),
            limits,
            &args.allow_host,
            shutdown_signal(),
        )
        .await
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The URL of a server listening on `address`.
fn url_of(address: SocketAddr) -> String {
    let host = if address.ip().is_unspecified() {
        IpAddr::from([127, 0, 0, 1])
    } else {
        address.ip()
    };
    format!("http://{}/", SocketAddr::new(host, address.port()))
}

/// Serves on `listener` until `stop` completes; then every open stream is ended and the
/// server closes within a second. It answers only to its own address (see
/// [`serve_allowing`]).
///
/// # Errors
/// An I/O error of the listener.
pub async fn serve(
    listener: tokio::net::TcpListener,
    offered: Arc<offer::Offered>,
    limits: Limits,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    serve_allowing(listener, offered, limits, &[], stop).await
}

/// As [`serve`], answering to the host names `allowed` too (`--allow-host`) besides its own
/// address: 127.0.0.1, localhost and `[::1]` at its port, and the address it listens on.
///
/// # Errors
/// An I/O error of the listener.
pub async fn serve_allowing(
    listener: tokio::net::TcpListener,
    offered: Arc<offer::Offered>,
    limits: Limits,
    allowed: &[String],
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    let hosts = routes::Hosts::of(listener.local_addr()?, allowed);
    let headers = limits.headers;
    let state = routes::App::new(offered, limits, stopped, hosts);
    let sweeper = tokio::spawn(games::sweep(state.games()));
    let app = routes::router(state);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(headers);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => {
                // Out of descriptors, say: wait a little rather than spin.
                let Ok((tcp, _)) = accepted else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let service = hyper_util::service::TowerToHyperService::new(app.clone());
                let connection = graceful.watch(http.serve_connection(TokioIo::new(tcp), service));
                tokio::spawn(connection);
            }
        }
    }
    drop(listener);
    // Ends the open event streams, which a graceful shutdown would otherwise wait for.
    let _ = stopping.send(true);
    let _ = tokio::time::timeout(Duration::from_millis(800), graceful.shutdown()).await;
    sweeper.abort();
    Ok(())
}

/// Completes at Ctrl-C or SIGTERM; a second of grace follows, then the process ends whatever
/// a client holds open.
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        () = term => {}
    }
    eprintln!("hexwar serve: stopping");
    tokio::spawn(async {
        tokio::time::sleep(Duration::from_millis(900)).await;
        std::process::exit(0);
    });
}

/// Offers the scenarios of `files` (and the bundled ones) for a server started by a test.
///
/// # Errors
/// A file that does not load.
pub fn offered(files: &[PathBuf]) -> anyhow::Result<Arc<offer::Offered>> {
    Ok(Arc::new(offer::Offered::load(files)?))
}
