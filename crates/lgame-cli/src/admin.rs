//! `lgame admin`: the accounts of a server's database, from the server's machine
//! (docs/accounts.md): no mail can be sent, so a forgotten password is reset here. And a
//! copy of its SQLite database while it runs (`backup`, docs/deploy.md).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use clap::Subcommand;
use lgame_web::admin::Admin;

use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server's database, as `lgame serve --db` names it [default: serve's].
    #[arg(long, value_name = "PATH|URL")]
    db: Option<lgame_web::Database>,

    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Give an account a new password and end its sessions: a random one, printed once, or
    /// the first line of standard input with --stdin.
    ResetPassword {
        username: String,
        /// Read the new password from standard input.
        #[arg(long)]
        stdin: bool,
    },
    /// Disable an account: no log-in, its sessions ended (its games stay).
    Disable { username: String },
    /// Enable a disabled account again.
    Enable { username: String },
    /// Give an account a new username.
    Rename { username: String, new_name: String },
    /// The newest accounts, newest first.
    List {
        /// How many.
        #[arg(long, default_value_t = 20)]
        limit: i64,
    },
    /// Recompute every rating from the stored rated games and compare with the stored
    /// ratings: exit status 1 and each difference printed if they differ.
    CheckRatings,
    /// Recompute every rating from the stored rated games and store the outcome in place of
    /// the stored ratings (after `disable`, with --without-disabled: as if the disabled
    /// accounts' games had not been played).
    RecomputeRatings {
        /// Leave out the games of the accounts disabled now.
        #[arg(long)]
        without_disabled: bool,
    },
    /// Accounts to review (and `disable` if need be), one a line with its reason:
    /// `accurate` (suspiciously accurate against the solved game, most accurate first),
    /// `mostly_each_other` and `one_sided` (pairs whose rated games are mostly between them,
    /// or won by one), `fast_losses` (rated games lost fast and often) and `shared_address`
    /// (used from one address in the last 30 days).
    Suspects {
        /// At least this many rated games scored.
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// A mean accuracy (the share of moves that kept the position's value) of at least
        /// this.
        #[arg(long, default_value_t = 0.98)]
        accuracy: f64,
        /// At least this many rated games between two accounts, or lost fast by one.
        #[arg(long, default_value_t = 5)]
        pair_games: usize,
    },
    /// A consistent copy of the SQLite database while the server runs (SQLite's online
    /// backup; what the WAL holds included), checked with `PRAGMA integrity_check` before it
    /// takes FILE's name. A PostgreSQL database is backed up with pg_dump (docs/deploy.md).
    Backup {
        /// Where the copy goes.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
    },
}

pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let db = crate::serve::database(&args.db)?;
    if let Action::Backup { out: file, force } = &args.action {
        return backup(&db, file, *force, out);
    }
    let admin = Admin::open(&db).map_err(Failure::Illegal)?;
    let refused = Failure::BadInput;
    match &args.action {
        Action::ResetPassword { username, stdin } => {
            let password = match stdin {
                true => read_line()?,
                false => random_password()?,
            };
            admin.reset_password(username, &password).map_err(refused)?;
            match stdin {
                true => writeln!(out, "{username}: password changed, every session ended")?,
                false => writeln!(
                    out,
                    "{username}: new password {password} (every session ended)"
                )?,
            }
        }
        Action::Disable { username } => {
            admin.set_disabled(username, true).map_err(refused)?;
            writeln!(out, "{username}: disabled, every session ended")?;
        }
        Action::Enable { username } => {
            admin.set_disabled(username, false).map_err(refused)?;
            writeln!(out, "{username}: enabled")?;
        }
        Action::Rename { username, new_name } => {
            admin.rename(username, new_name).map_err(refused)?;
            writeln!(out, "{username}: renamed {new_name}")?;
        }
        Action::List { limit } => {
            for account in admin.newest(*limit).map_err(Failure::Illegal)? {
                let state = if account.disabled { " disabled" } else { "" };
                let email = if account.has_email { " email" } else { "" };
                writeln!(
                    out,
                    "{}\t{}{state}{email}",
                    account.username, account.created
                )?;
            }
        }
        Action::CheckRatings => {
            let check = admin.check_ratings().map_err(Failure::Illegal)?;
            for problem in &check.problems {
                writeln!(out, "{problem}")?;
            }
            let summary = format!(
                "{} rated games recomputed: {} ratings",
                check.games, check.entries
            );
            if !check.problems.is_empty() {
                return Err(Failure::Illegal(anyhow!(
                    "{summary}, {} differences from the stored ratings",
                    check.problems.len()
                )));
            }
            writeln!(out, "{summary}, all equal to the stored ones")?;
        }
        Action::RecomputeRatings { without_disabled } => {
            let (games, entries) = admin
                .recompute_ratings(*without_disabled)
                .map_err(Failure::Illegal)?;
            let left_out = match without_disabled {
                true => ", the disabled accounts' games left out",
                false => "",
            };
            writeln!(
                out,
                "{games} rated games recomputed{left_out}: {entries} ratings stored"
            )?;
        }
        Action::Backup { .. } => unreachable!("backed up above, without opening the store"),
        Action::Suspects {
            games,
            accuracy,
            pair_games,
        } => {
            let suspects = admin
                .suspects(*games, *accuracy)
                .map_err(Failure::Illegal)?;
            for s in &suspects {
                let state = if s.disabled { " disabled" } else { "" };
                writeln!(
                    out,
                    "accurate\t{}\t{} rated games\t{} perfect\taccuracy {:.1}%{state}",
                    s.username,
                    s.games,
                    s.perfect,
                    s.accuracy * 100.0
                )?;
            }
            let concerns = admin.concerns(*pair_games).map_err(Failure::Illegal)?;
            for c in &concerns {
                writeln!(out, "{}\t{}\t{}", c.reason, c.accounts.join(" "), c.detail)?;
            }
            if suspects.is_empty() && concerns.is_empty() {
                writeln!(
                    out,
                    "no account has {games} or more rated games at {:.1}% or more, nor any other reason to look",
                    accuracy * 100.0
                )?;
            }
        }
    }
    Ok(())
}

/// `backup`: the copy, its progress on stderr every few seconds (a large file's), and what
/// was copied.
fn backup(
    db: &lgame_web::Database,
    file: &std::path::Path,
    force: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut shown = Instant::now();
    let mut progress = |p: lgame_web::admin::BackupProgress| {
        if shown.elapsed() >= Duration::from_secs(2) {
            shown = Instant::now();
            eprintln!("{} of {} pages copied", p.copied, p.total);
        }
    };
    let copy =
        lgame_web::admin::backup(db, file, force, &mut progress).map_err(Failure::Illegal)?;
    writeln!(
        out,
        "{db} backed up to {}: {} pages, {} bytes, integrity ok",
        file.display(),
        copy.pages,
        copy.bytes
    )?;
    Ok(())
}

fn read_line() -> Result<String, Failure> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let line = line.trim_end_matches(['\n', '\r']).to_string();
    if line.is_empty() {
        return Err(Failure::BadInput(anyhow!("no password on standard input")));
    }
    Ok(line)
}

/// 20 random hex digits (80 bits).
fn random_password() -> Result<String, Failure> {
    let secret = lgame_web::credentials::new_secret().map_err(Failure::Illegal)?;
    Ok(secret[..20].to_string())
}
