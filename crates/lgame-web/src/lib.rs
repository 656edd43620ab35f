//! The L game server: games against the computer or between friends over HTTP, watched live
//! over WebSockets, every accepted move stored in SQLite (one instance) or PostgreSQL
//! (several instances on one database) before it is answered.
//!
//! The API is written down in `docs/api.md`; durability and measurements in
//! `docs/server.md`. The server holds no rule: positions, moves, records and seats are read,
//! checked and played through `lgame` and `lgame-players`.
//!
//! ```no_run
//! let db = std::path::PathBuf::from("lgame.db"); // or a postgres:// URL, as a Database
//! let config = lgame_web::Config::new("127.0.0.1:8080".parse()?, db);
//! lgame_web::run(config)?; // until Ctrl-C or SIGTERM
//! # Ok::<(), anyhow::Error>(())
//! ```

mod accounts;
pub mod admin;
mod api;
#[cfg(test)]
mod api_doc;
pub mod arena;
mod assets;
mod autoplay;
mod bots;
mod catalog;
mod clock;
mod connections;
mod cpu;
pub mod credentials;
mod database;
mod error;
pub use error::ERROR_KINDS;
mod explore;
mod extract;
mod fairplay;
mod flags;
mod games;
mod glicko;
mod identity;
mod limits;
mod listener;
mod lobby;
mod mail;
mod notify;
mod openapi;
mod peers;
mod push;
pub mod ratings;
mod response;
mod schema;
mod secret;
mod store;
mod tables;
mod telemetry;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use tokio::sync::{watch, Semaphore};

pub use assets::write_static_site;
pub use database::Database;
pub use extract::MAX_BODY;
pub use identity::ClientRules;
pub use limits::{Action, ActionLimits};
pub use listener::ConnectionLimits;
pub use mail::{without_password, MailConfig};
pub use push::DEFAULT_PUSH_CONTACT;
pub use store::Synchronous;

/// The largest table the server solves by default, in positions: every variant the page
/// names fits, the largest being the game to 10 points (1,836,800 indices, solved in about
/// 0.3 s by the score-layer method; docs/benchmarks.md).
pub const DEFAULT_MAX_TABLE_STATES: u64 = 2_000_000;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen; port 0 picks a free one.
    pub addr: SocketAddr,
    /// The database: an SQLite file or a PostgreSQL URL (created or migrated to this
    /// server's schema on start).
    pub db: Database,
    /// How durable a commit is.
    pub synchronous: Synchronous,
    /// Games created (or imported) per client address per minute; 0: no limit.
    pub create_limit: u32,
    /// WebSockets and streams open at once (past it, only a player's connection to their
    /// own game is admitted).
    pub max_websockets: usize,
    /// WebSockets and streams open at once from one client address (an IPv6 /64).
    pub websockets_per_address: usize,
    /// WebSockets and streams open at once for one account or browser.
    pub websockets_per_identity: usize,
    /// Games held in memory (the rest wait in the database).
    pub cache_games: usize,
    /// The largest table, in positions, solved for a computer player or an analysis.
    pub max_table_states: u64,
    /// The most plies a game may have: at the cap a game is drawn by the turn limit (every
    /// game's `TurnLimit` is at most this).
    pub max_plies: u32,
    /// How long a game between two computers waits before each ply (so it can be watched).
    pub computer_delay: std::time::Duration,
    /// Clients' connections: time limits for heads, bodies and idle keep-alive, the cap on
    /// connections open at once, the deadline of a stop (docs/server.md, "Slow and hostile
    /// clients").
    pub connections: ConnectionLimits,
    /// Bytes of solved tables kept in memory, the least recently used dropped first (a
    /// table larger than this is refused); 0: no bound.
    pub table_memory: u64,
    /// Analysis and classes requests per client address per minute; 0: no limit.
    pub analysis_limit: u32,
    /// Accounts made per client address per hour; 0: no limit.
    pub signup_limit: u32,
    /// Failed log-ins per client address per minute (half as many per account and
    /// address); 0: no limit.
    pub login_failure_limit: u32,
    /// How clients are seen: behind HTTPS (cookies `Secure`), through trusted proxies
    /// (their `X-Forwarded-For` believed).
    pub clients: ClientRules,
    /// For tests: `POST /api/test/clock` moves the server's time forward.
    pub test_clock: bool,
    /// Open seeks (and quick pairing tickets) one holder, or one address without an
    /// account, may have.
    pub seek_limit: i64,
    /// Calls that change something (arenas, seeks, challenges, tokens, invitations, the
    /// account), per account per minute (an address four times as
    /// many); 0: none.
    pub action_limits: ActionLimits,
    /// How mail is sent (`--smtp`, `--site-url`); none: no mail, and the mail endpoints
    /// answer 503.
    pub mail: Option<MailConfig>,
    /// Where to serve `GET /metrics` in Prometheus' text format, apart from the public
    /// address; `None`: no metrics, nothing recorded.
    pub metrics_addr: Option<SocketAddr>,
    /// Who runs the server, as the push services are told (the VAPID `sub`): a `mailto:`
    /// or `https:` URL.
    pub push_contact: String,
    /// For tests: push subscriptions to this machine's own addresses, over `http` too, are
    /// accepted (the tests' local push receiver); never a user's setting.
    pub test_push_receivers: bool,
}

impl Config {
    /// The defaults for an address and a database.
    pub fn new(addr: SocketAddr, db: impl Into<Database>) -> Config {
        Config {
            addr,
            db: db.into(),
            synchronous: Synchronous::Full,
            create_limit: 60,
            max_websockets: connections::StreamLimits::default().max,
            websockets_per_address: connections::StreamLimits::default().per_address,
            websockets_per_identity: connections::StreamLimits::default().per_identity,
            cache_games: 10_000,
            max_table_states: DEFAULT_MAX_TABLE_STATES,
            max_plies: games::DEFAULT_MAX_PLIES,
            computer_delay: std::time::Duration::from_secs(1),
            connections: ConnectionLimits::default(),
            table_memory: 128_000_000,
            analysis_limit: 300,
            signup_limit: 10,
            login_failure_limit: 10,
            clients: ClientRules::default(),
            test_clock: false,
            seek_limit: lobby::LIMIT,
            action_limits: ActionLimits::default(),
            mail: None,
            metrics_addr: None,
            push_contact: DEFAULT_PUSH_CONTACT.to_string(),
            test_push_receivers: false,
        }
    }
}

/// A server bound to its address, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    shared: api::Shared,
    stop: watch::Sender<bool>,
    limits: ConnectionLimits,
    test_clock: bool,
    /// The metrics' own listener and what it renders.
    metrics: Option<(
        tokio::net::TcpListener,
        metrics_exporter_prometheus::PrometheusHandle,
    )>,
}

impl Server {
    /// Opens (or creates) the database and binds the address.
    ///
    /// # Errors
    /// The database cannot be opened or migrated, or the address cannot be bound.
    pub async fn bind(config: Config) -> anyhow::Result<Server> {
        let store = config.db.open(config.synchronous)?;
        let time = Arc::new(clock::TimeSource::system());
        bots::ensure_levels(&store).await?;
        flags::wake(&store, &time).await?;
        let stored_games = store.count_games().await?;
        let schema = store.version().await?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("listening on {}", config.addr))?;
        let mailer = match &config.mail {
            Some(mail) => Some(Arc::new(mail::Mailer::new(mail)?)),
            None => None,
        };
        let metrics = match config.metrics_addr {
            Some(addr) => Some((
                tokio::net::TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("listening for metrics on {addr}"))?,
                telemetry::install()?,
            )),
            None => None,
        };
        let (stop, shutdown) = watch::channel(false);
        let notices = store.notices();
        let reach = match config.test_push_receivers {
            true => push::Reach::TestsLocal,
            false => push::Reach::Public,
        };
        let push = push::Push::load(&store, config.push_contact.clone(), reach).await?;
        let games = Arc::new(
            games::Games::new(store, config.cache_games, config.max_table_states)
                .with_max_plies(config.max_plies)
                .with_autoplay(config.computer_delay, shutdown.clone())
                .with_tablebases(tables::cache(
                    (config.table_memory > 0).then_some(config.table_memory),
                ))
                .with_time(time)
                .with_push(Arc::new(push)),
        );
        let lobby = Arc::new(lobby::Lobby::new(games.clone()).with_limit(config.seek_limit));
        let shared = api::Shared {
            games,
            lobby,
            limiter: Arc::new(api::RateLimiter::new(config.create_limit, "games created")),
            analysis_limiter: Arc::new(api::RateLimiter::new(
                config.analysis_limit,
                "analysis and classes requests",
            )),
            solvers: Arc::new(Semaphore::new(tables::solvers())),
            connections: connections::Connections::new(connections::StreamLimits {
                max: config.max_websockets,
                per_address: config.websockets_per_address,
                per_identity: config.websockets_per_identity,
            }),
            shutdown,
            clients: Arc::new(config.clients.clone()),
            actions: Arc::new(limits::Actions::new(&config.action_limits)),
            account_limits: Arc::new(accounts::routes::AccountLimits::new(
                config.signup_limit,
                config.login_failure_limit,
            )),
            mailer,
            mail_limits: Arc::new(mail::routes::MailLimits::default()),
        };
        if let Some(notices) = notices {
            peers::follow(shared.games.clone(), shared.lobby.clone(), notices);
        }
        flags::start(shared.games.clone(), shared.shutdown.clone());
        connections::sweep(
            shared.connections.clone(),
            shared.games.clone(),
            shared.shutdown.clone(),
        );
        shared.lobby.start(shared.shutdown.clone());
        arena::start(shared.games.clone(), shared.shutdown.clone());
        if let Some(mailer) = &shared.mailer {
            mail::moves::start(
                shared.games.clone(),
                mailer.clone(),
                shared.shutdown.clone(),
            );
        }
        tracing::info!(
            db = %config.db,
            games = stored_games,
            schema,
            synchronous = ?config.synchronous,
            "database open"
        );
        Ok(Server {
            listener,
            shared,
            stop,
            limits: config.connections,
            test_clock: config.test_clock,
            metrics,
        })
    }

    /// The address it listens on (with the real port when 0 was asked).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The metrics' address, if they are served.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        let (listener, _) = self.metrics.as_ref()?;
        listener.local_addr().ok()
    }

    /// Serves until `shutdown` completes, then stops accepting, closes the WebSockets and
    /// waits for the requests in flight, at most the stop's deadline
    /// ([`ConnectionLimits::shutdown`]): then every connection is dropped.
    ///
    /// # Errors
    /// None yet: a failed accept is logged and tried again.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let mut router = api::router(self.shared.clone());
        if self.test_clock {
            router = flags::routes::test_routes(self.shared.games.clone()).merge(router);
        }
        if let Some((listener, handle)) = self.metrics {
            let router = telemetry::router(self.shared.clone(), handle);
            tokio::spawn(telemetry::serve(listener, router, self.stop.subscribe()));
        }
        let stop = self.stop;
        let games = self.shared.games.clone();
        listener::serve(self.listener, router, self.limits, shutdown, move || {
            let _ = stop.send(true);
        })
        .await;
        // How well the writer grouped the changes (RUST_LOG=lgame_web::store=info).
        let (changes, commits) = games.store.write_counts();
        tracing::info!(target: "lgame_web::store", changes, commits, "database writes");
        Ok(())
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// Runs the server until Ctrl-C or SIGTERM, printing `listening on http://ADDR` on stdout
/// once it accepts, then the database on a line `games stored in PATH` (a PostgreSQL URL
/// without its password), and with metrics `metrics on http://ADDR/metrics`.
///
/// It logs through `tracing` (one line per request, the database opened, the server
/// stopped); where the lines go is the program's choice: `lgame serve` writes them to
/// stderr.
///
/// # Errors
/// The database cannot be opened or the address bound.
pub fn run(config: Config) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    let served = runtime.block_on(async {
        let db = config.db.clone();
        let server = Server::bind(config).await?;
        let addr = server.local_addr()?;
        let metrics = server.metrics_addr();
        tracing::info!(%addr, "listening");
        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            writeln!(out, "listening on http://{addr}")?;
            let db = match db {
                Database::Sqlite(path) => {
                    Database::Sqlite(std::fs::canonicalize(&path).unwrap_or(path))
                }
                url => url,
            };
            writeln!(out, "games stored in {db}")?;
            if let Some(metrics) = metrics {
                writeln!(out, "metrics on http://{metrics}/metrics")?;
            }
            out.flush()?;
        }
        server.run(stop_signal()).await?;
        tracing::info!("stopped");
        Ok(())
    });
    // A table still being solved or a commit on the blocking pool is not waited for past
    // the stop's deadline (a commit is atomic: it is on disk whole or not at all).
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    served
}
