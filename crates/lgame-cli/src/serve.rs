//! `lgame serve`: the game server of `lgame-web` (docs/api.md, docs/server.md).

pub mod config;

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::anyhow;
use lgame::Rules;

use crate::output::Failure;
use config::Sources;

/// Every setting may also be given as `LGAME_` and its name (`LGAME_MAX_WEBSOCKETS`) or in the
/// `--config` file (`max-websockets = 1000`): see [`config`].
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The address to listen on; port 0 picks a free port (the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: SocketAddr,

    /// The database: an SQLite file (a path, or sqlite:PATH), created with its schema on
    /// first start, or a PostgreSQL database (postgres://USER@HOST:PORT/DB, any libpq-style
    /// URL), which several servers may share [default: lgame.db in the user's data
    /// directory, e.g. ~/.local/share/lgame on Linux].
    #[arg(long, value_name = "PATH|URL")]
    db: Option<lgame_web::Database>,

    /// How durable an SQLite commit is: full (survives power loss) or normal (survives the
    /// process being killed, not a power loss). PostgreSQL commits as its server is set.
    #[arg(long, default_value = "full", value_name = "MODE")]
    synchronous: lgame_web::Synchronous,

    /// Games one client address may create per minute (0: no limit).
    #[arg(long, default_value_t = 60, value_name = "N")]
    create_limit: u32,

    /// WebSockets and streams open at once (past it, only a player's connection to their
    /// own game is admitted).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    max_websockets: usize,

    /// WebSockets and streams one client address (an IPv6 /64) may hold open at once.
    #[arg(long, default_value_t = 64, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    websockets_per_address: u64,

    /// WebSockets and streams one account or browser may hold open at once.
    #[arg(long, default_value_t = 16, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    websockets_per_identity: u64,

    /// Games held in memory; the others wait in the database.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    cache_games: usize,

    /// The most plies a game may have: a game reaching it is drawn by the turn limit (every
    /// game's turn limit is at most this).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    max_plies: u32,

    /// Milliseconds a game between two computers waits before each ply.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    computer_delay: u64,

    /// Connections open at once, WebSockets included (lowered to the descriptor limit less a
    /// reserve; beyond it new connections wait).
    #[arg(long, default_value_t = 10_000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_connections: u64,

    /// Seconds a client has to send a request's head, from its first byte.
    #[arg(long, default_value_t = 10, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    head_timeout: u64,

    /// Seconds a client has to send a request's body, after its head.
    #[arg(long, default_value_t = 10, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    body_timeout: u64,

    /// Seconds a keep-alive connection may stay idle before it is closed.
    #[arg(long, default_value_t = 60, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    idle_timeout: u64,

    /// Seconds a stop (Ctrl-C, SIGTERM) waits for requests in flight and WebSockets before
    /// dropping every connection.
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    shutdown_timeout: u64,

    /// Memory for solved tables (e.g. 128M, 1G; 0: no bound): beyond it the least
    /// recently used are dropped, and a larger table is refused.
    #[arg(long, default_value = "128M", value_name = "SIZE", value_parser = crate::input::memory_size)]
    table_memory: u64,

    /// Analysis and classes requests one client address may make per minute (0: no limit).
    #[arg(long, default_value_t = 300, value_name = "N")]
    analysis_limit: u32,

    /// The server is reached over HTTPS (a reverse proxy ends it): its cookies are marked
    /// Secure.
    #[arg(long)]
    https: bool,

    /// A reverse proxy whose X-Forwarded-For is believed for the client's address (the
    /// limits per address); repeat for several. Without one, the connection's address.
    #[arg(long, value_name = "IP")]
    trusted_proxy: Vec<std::net::IpAddr>,

    /// Accounts one client address may make per hour (0: no limit).
    #[arg(long, default_value_t = 10, value_name = "N")]
    signup_limit: u32,

    /// Open seeks (and quick pairing tickets) one holder, or one address without an
    /// account, may have in the lobby.
    #[arg(long, default_value_t = 3, value_name = "N")]
    seek_limit: i64,

    /// A limit on calls that change something, per account per minute (an address may make
    /// four times as many; 0: none), as ACTION=N: arenas (20), seeks (30), challenges (30),
    /// tokens (10), invitations (20), account (10). Repeat for several.
    #[arg(long, value_name = "ACTION=N", value_parser = action_limit)]
    action_limit: Vec<(lgame_web::Action, u32)>,

    /// Who runs this site, as push services are told with each notification (the VAPID
    /// `sub`): a mailto: or https: URL they can reach you at.
    #[arg(long, default_value = lgame_web::DEFAULT_PUSH_CONTACT, value_name = "URL")]
    push_contact: String,

    /// Failed log-ins one client address may make per minute, half as many to one account
    /// (0: no limit).
    #[arg(long, default_value_t = 10, value_name = "N")]
    login_failure_limit: u32,

    /// Mail (password resets, addresses confirmed) through this SMTP relay, in lettre's URL
    /// form: smtp://HOST:PORT unencrypted (a relay on this machine), smtps://USER@HOST:465 or
    /// smtp://USER@HOST:587?tls=required with TLS. A password in the URL only from
    /// LGAME_SMTP or the --config file (the command line shows in ps), or in
    /// --smtp-password-file. Without it, no mail is sent (docs/deploy.md, "Mail").
    #[arg(long, value_name = "URL")]
    smtp: Option<String>,

    /// A file holding the SMTP relay's password (for the user in --smtp's URL).
    #[arg(long, value_name = "PATH")]
    smtp_password_file: Option<PathBuf>,

    /// The sender of the server's mail [default: lgame@ the --site-url's host].
    #[arg(long, value_name = "ADDRESS")]
    mail_from: Option<String>,

    /// The site's public address, which mailed links point to: https://l.example.org.
    #[arg(long, value_name = "URL")]
    site_url: Option<String>,

    /// Serve GET /metrics in Prometheus' text format on this address, apart from the public
    /// one (keep it private: a loopback or internal address). Without it, no metrics.
    #[arg(long, value_name = "HOST:PORT")]
    metrics_addr: Option<SocketAddr>,

    /// The log's form on stderr: text (a line for people) or json (one JSON object a line,
    /// for a log collector).
    #[arg(long, default_value = "text", value_name = "FORMAT")]
    log_format: LogFormat,

    // A secret is a `--…-file PATH` flag naming the file that holds it, or comes in the
    // environment or the file, never as a flag's value (config.rs, docs/api.md).
    /// For tests, never in service: `POST /api/test/clock {"advance_ms": N}` moves the
    /// server's time forward, so that a test need not wait for clocks.
    #[arg(long, hide = true)]
    test_clock: bool,

    /// A TOML file of settings, these flags' names as keys (max-websockets = 10000); each
    /// may also be given as LGAME_ and its name in capitals (LGAME_MAX_WEBSOCKETS). A flag
    /// beats the environment, which beats the file.
    #[arg(
        long,
        value_name = "FILE",
        env = "LGAME_CONFIG",
        hide_env_values = true
    )]
    config: Option<PathBuf>,

    /// Print each setting, its value and where it came from, and exit.
    #[arg(long)]
    check_config: bool,
}

pub fn run(
    args: &Args,
    sources: &Sources,
    rules: &Rules,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if *rules != Rules::classic() {
        return Err(Failure::BadInput(anyhow!(
            "serve takes no --variant: each game names its own"
        )));
    }
    if args.check_config {
        return Ok(sources.write(out)?);
    }
    let mut config = lgame_web::Config::new(args.addr, database(&args.db)?);
    config.synchronous = args.synchronous;
    config.create_limit = args.create_limit;
    config.max_websockets = args.max_websockets;
    config.websockets_per_address =
        usize::try_from(args.websockets_per_address).unwrap_or(usize::MAX);
    config.websockets_per_identity =
        usize::try_from(args.websockets_per_identity).unwrap_or(usize::MAX);
    config.cache_games = args.cache_games;
    config.max_plies = args.max_plies;
    config.computer_delay = std::time::Duration::from_millis(args.computer_delay);
    config.connections = lgame_web::ConnectionLimits {
        head: Duration::from_secs(args.head_timeout),
        body: Duration::from_secs(args.body_timeout),
        idle: Duration::from_secs(args.idle_timeout),
        max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
        shutdown: Duration::from_secs(args.shutdown_timeout),
    };
    config.table_memory = args.table_memory;
    config.analysis_limit = args.analysis_limit;
    config.signup_limit = args.signup_limit;
    config.seek_limit = args.seek_limit;
    config.login_failure_limit = args.login_failure_limit;
    config.test_clock = args.test_clock;
    config.metrics_addr = args.metrics_addr;
    config.push_contact = args.push_contact.clone();
    for &(action, per_minute) in &args.action_limit {
        config.action_limits = config.action_limits.clone().with(action, per_minute);
    }
    config.clients = lgame_web::ClientRules {
        https: args.https,
        trusted_proxies: args.trusted_proxy.clone(),
    };
    config.mail = mail(args, sources)?;
    log_to_stderr(args.log_format);
    lgame_web::run(config).map_err(|e| Failure::Illegal(e.context("serve")))
}

/// How the log is written (`--log-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// The server's log on stderr: one line per request and per event, `RUST_LOG` filtering
/// (`info` by default); as text, coloured on a terminal, or as JSON lines (each with its
/// time, level, target, `fields` and the request it belongs to in `span`).
fn log_to_stderr(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let log = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // Only the first subscriber counts; there is no other.
    let _ = match format {
        LogFormat::Text => log
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .try_init(),
        LogFormat::Json => log.json().try_init(),
    };
}

/// How mail is sent, if `--smtp` is given: its password never from the command line.
fn mail(args: &Args, sources: &Sources) -> Result<Option<lgame_web::MailConfig>, Failure> {
    let Some(smtp) = args.smtp.clone() else {
        return Ok(None);
    };
    let Some(site_url) = args.site_url.clone() else {
        return Err(Failure::BadInput(anyhow!(
            "--smtp needs --site-url: the site's public address, which mailed links point to"
        )));
    };
    if sources.given_as_flag("smtp") && lgame_web::without_password(&smtp) != smtp {
        return Err(Failure::BadInput(anyhow!(
            "--smtp holds a password, which ps shows to every user: give the URL in LGAME_SMTP \
             or the --config file, or the password in --smtp-password-file"
        )));
    }
    let password = match &args.smtp_password_file {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                Failure::BadInput(anyhow!("reading the SMTP password {}: {e}", path.display()))
            })?;
            Some(text.trim_end_matches(['\n', '\r']).to_string())
        }
        None => None,
    };
    Ok(Some(lgame_web::MailConfig {
        smtp,
        password,
        from: args.mail_from.clone(),
        site_url,
    }))
}

/// The database named, or the default one.
pub(crate) fn database(db: &Option<lgame_web::Database>) -> Result<lgame_web::Database, Failure> {
    Ok(match db {
        Some(db) => db.clone(),
        None => lgame_web::Database::Sqlite(default_db()?),
    })
}

/// `lgame.db` in the user's data directory (the platform's convention: `$XDG_DATA_HOME/lgame`
/// or `~/.local/share/lgame` on Linux), created when missing: a server started anywhere
/// finds the same games, and nothing lands in the directory it was started from.
fn default_db() -> Result<PathBuf, Failure> {
    let dirs = directories::ProjectDirs::from("", "", "lgame").ok_or_else(|| {
        Failure::BadInput(anyhow!(
            "no home directory to keep the database in: name a file with --db"
        ))
    })?;
    let dir = dirs.data_dir();
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Illegal(anyhow!("creating {}: {e}", dir.display())))?;
    Ok(dir.join("lgame.db"))
}

/// `--action-limit ACTION=N`.
fn action_limit(text: &str) -> Result<(lgame_web::Action, u32), String> {
    let (action, n) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}': ACTION=N, such as seeks=30"))?;
    let n = n
        .parse()
        .map_err(|_| format!("'{n}' is not a number of calls a minute"))?;
    Ok((action.parse()?, n))
}
