//! The game server for lgame-web's own tests that need it in a process of its own (a SIGKILL,
//! a SIGTERM, a limit on open descriptors, instances started together or side by side on one
//! database): `lgame_web::run`, as `lgame serve` runs it, on a configuration named field by
//! field on the command line, `FIELD=VALUE` (`addr=127.0.0.1:0 db=games.db create_limit=0`).
//!
//! It is no user's command and parses no user's flags: `lgame serve` (lgame-cli) is the
//! command, and its flags are tested there. Every other field keeps `Config::new`'s default;
//! an unknown field or an unreadable value is an error, so a test cannot ask for what it
//! does not get. Like `lgame serve` it prints `listening on http://ADDR` once it accepts,
//! and on an error prints `error: …` on stderr and exits 1.

use std::process::ExitCode;
use std::str::FromStr;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use lgame_web::{Config, Database};

fn main() -> ExitCode {
    match config(std::env::args().skip(1)).and_then(lgame_web::run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The configuration the arguments name: `addr` and `db` first (required), then any other
/// field.
fn config(args: impl Iterator<Item = String>) -> anyhow::Result<Config> {
    let mut fields = Vec::new();
    for arg in args {
        let (name, value) = arg
            .split_once('=')
            .ok_or_else(|| anyhow!("{arg:?} is not FIELD=VALUE"))?;
        fields.push((name.to_string(), value.to_string()));
    }
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| anyhow!("no {name}=…"))
    };
    let addr = parse("addr", field("addr")?)?;
    let db: Database = parse("db", field("db")?)?;
    let mut config = Config::new(addr, db);
    for (name, value) in &fields {
        let seconds = || parse::<u64>(name, value).map(Duration::from_secs);
        match name.as_str() {
            "addr" | "db" => {}
            "create_limit" => config.create_limit = parse(name, value)?,
            "computer_delay_ms" => {
                config.computer_delay = Duration::from_millis(parse(name, value)?);
            }
            "head_timeout_s" => config.connections.head = seconds()?,
            "shutdown_timeout_s" => config.connections.shutdown = seconds()?,
            "test_clock" => config.test_clock = parse(name, value)?,
            "seek_limit" => config.seek_limit = parse(name, value)?,
            "signup_limit" => config.signup_limit = parse(name, value)?,
            "max_websockets" => config.max_websockets = parse(name, value)?,
            "websockets_per_address" => config.websockets_per_address = parse(name, value)?,
            "websockets_per_identity" => config.websockets_per_identity = parse(name, value)?,
            "action_limit" => {
                let (action, n) = value
                    .split_once('=')
                    .ok_or_else(|| anyhow!("action_limit=ACTION=N"))?;
                let (action, n) = (parse(name, action)?, parse(name, n)?);
                config.action_limits = config.action_limits.clone().with(action, n);
            }
            "trusted_proxy" => config.clients.trusted_proxies.push(parse(name, value)?),
            other => bail!("no such field {other:?} (the test server sets only those it names)"),
        }
    }
    Ok(config)
}

/// `value` read as the field `name`'s type.
fn parse<T: FromStr>(name: &str, value: &str) -> anyhow::Result<T>
where
    T::Err: std::fmt::Display,
{
    value
        .parse()
        .map_err(|e| anyhow!("{e}"))
        .with_context(|| format!("{name}={value}"))
}
