//! Where `lgame serve`'s settings come from, so that a service manager can hold them: each
//! flag may also be given in the environment (`LGAME_` and its long name in capitals, `-` as
//! `_`: `LGAME_MAX_WEBSOCKETS`) and in a TOML file (`--config FILE`, the long names as keys:
//! `max-websockets = 10000`). A flag on the command line beats the environment, which beats the
//! file, which beats the default.
//!
//! Nothing here lists the flags: the variables and the keys are read off clap's `Command`, so
//! a new flag has both from the start. The file's values become the flags' defaults, checked
//! first by the flag's own parser so that an error names the key, the file and the line; clap
//! then reads the command line and the environment over them as it always does.
//!
//! Secrets (the SMTP password, push keys) are never a flag's value, which `ps`
//! shows: each is a `--…-file PATH` flag naming a file that holds it, so that the path, not
//! the secret, is what the command line, the environment and the file carry. The one secret
//! among today's flags, a PostgreSQL password in `--db`'s URL, is kept off the command line by
//! giving `--db` in `LGAME_DB` or the file, and is shown as `***`; so is a password in
//! `--smtp`'s URL, which `lgame serve` refuses on the command line.

use std::error::Error as _;
use std::ffi::OsString;
use std::fmt;
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::anyhow;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use toml::de::{DeTable, DeValue};

use crate::output::Failure;

/// What every setting's variable begins with.
const PREFIX: &str = "LGAME_";

/// The flags of `lgame serve` that are about its configuration, not settings of the server.
const ABOUT_CONFIGURATION: [&str; 2] = ["config", "check_config"];

/// Parses the command line (clap's errors, help and version end the process as usual), with
/// `lgame serve`'s settings completed from the environment and its `--config` file.
pub fn parse(cli: Command) -> Result<(ArgMatches, Sources), Failure> {
    let cli = cli.mut_subcommand("serve", with_variables);
    let matches = read_matches(&cli)?;
    let Some(("serve", serve)) = matches.subcommand() else {
        return Ok((matches, Sources::default()));
    };
    let Some(path) = serve.get_one::<PathBuf>("config") else {
        let sources = Sources::of(serve, cli_serve(&cli), None);
        return Ok((matches, sources));
    };
    let file = File::read(path, cli_serve(&cli))?;
    let cli = cli.mut_subcommand("serve", |serve| file.as_defaults(serve));
    let matches = read_matches(&cli)?;
    let serve = matches
        .subcommand_matches("serve")
        .expect("serve was chosen");
    let sources = Sources::of(serve, cli_serve(&cli), Some(&file));
    Ok((matches, sources))
}

/// The command line's matches; a value refused from a variable is named as such, where clap
/// would name only its flag.
fn read_matches(cli: &Command) -> Result<ArgMatches, Failure> {
    cli.clone().try_get_matches().map_err(|error| {
        if !matches!(
            error.kind(),
            ErrorKind::ValueValidation | ErrorKind::InvalidValue
        ) {
            error.exit();
        }
        let refused = settings(cli_serve(cli)).find_map(|arg| {
            let name = variable(arg);
            let value = std::env::var_os(&name)?;
            let why = refusal(arg, &[])?;
            let value = value.to_string_lossy();
            Some(Failure::BadInput(anyhow!(
                "bad value in {name}: '{value}': {why}"
            )))
        });
        refused.unwrap_or_else(|| error.exit())
    })
}

fn cli_serve(cli: &Command) -> &Command {
    cli.find_subcommand("serve")
        .expect("lgame has a serve command")
}

/// A flag that sets something in the server (neither help, the rules of `--variant`, the
/// configuration's own flags nor a flag hidden for tests).
fn is_setting(arg: &Arg) -> bool {
    arg.get_long().is_some()
        && !arg.is_global_set()
        && !arg.is_hide_set()
        && !matches!(arg.get_action(), ArgAction::Help | ArgAction::Version)
        && !ABOUT_CONFIGURATION.contains(&arg.get_id().as_str())
}

fn settings(serve: &Command) -> impl Iterator<Item = &Arg> {
    serve.get_arguments().filter(|arg| is_setting(arg))
}

fn long(arg: &Arg) -> &str {
    arg.get_long().expect("a setting has a long name")
}

/// `LGAME_MAX_WEBSOCKETS` for `--max-websockets`.
fn variable(arg: &Arg) -> String {
    format!("{PREFIX}{}", long(arg).to_uppercase().replace('-', "_"))
}

/// Every setting read from its variable too; a repeated flag's values separated by commas
/// there (`LGAME_TRUSTED_PROXY=10.0.0.1,10.0.0.2`), and so on the command line as well.
fn with_variables(serve: Command) -> Command {
    serve.mut_args(|arg| {
        if !is_setting(&arg) {
            return arg;
        }
        let name = variable(&arg);
        // Help shows the variable's name, never its value (a database URL's password).
        let arg = arg.env(name).hide_env_values(true);
        match arg.get_action() {
            ArgAction::Append => arg.value_delimiter(','),
            _ => arg,
        }
    })
}

/// The settings a `--config` file gives, each as the text its flag takes.
struct File {
    path: PathBuf,
    values: Vec<(String, Vec<String>)>,
}

impl File {
    /// Reads the file and checks each value with its flag's parser.
    fn read(path: &Path, serve: &Command) -> Result<File, Failure> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::BadInput(anyhow!("reading the configuration {}: {e}", path.display()))
        })?;
        // "unknown key `max-websocket` in /etc/lgame.toml (line 3)", then why if need be.
        let at = |span: Range<usize>, what: String, why: &str| {
            let line = text[..span.start].matches('\n').count() + 1;
            let why = if why.is_empty() {
                String::new()
            } else {
                format!(": {why}")
            };
            Failure::BadInput(anyhow!("{what} in {} (line {line}){why}", path.display()))
        };
        let table = DeTable::parse(&text).map_err(|e| {
            let span = e.span().unwrap_or_default();
            at(span, "unreadable TOML".into(), e.message().trim())
        })?;
        let mut values = Vec::new();
        for (key, value) in table.get_ref() {
            let name = key.get_ref();
            let arg = settings(serve)
                .find(|arg| long(arg) == name)
                .ok_or_else(|| at(key.span(), format!("unknown key `{name}`"), ""))?;
            let texts = flag_texts(arg, value.get_ref())
                .map_err(|why| at(value.span(), format!("wrong type for `{name}`"), &why))?;
            if !matches!(arg.get_action(), ArgAction::SetTrue | ArgAction::SetFalse) {
                for text in &texts {
                    let given = [format!("--{name}={text}")];
                    if let Some(why) = refusal(arg, &given) {
                        let why = format!("'{text}': {why}");
                        return Err(at(value.span(), format!("bad value for `{name}`"), &why));
                    }
                }
            }
            values.push((arg.get_id().to_string(), texts));
        }
        Ok(File {
            path: path.to_path_buf(),
            values,
        })
    }

    /// The file's values as the flags' defaults, under the command line and the environment.
    fn as_defaults(&self, serve: Command) -> Command {
        serve.mut_args(
            |arg| match self.values.iter().find(|(id, _)| arg.get_id() == id) {
                Some((_, texts)) => arg.default_values(texts),
                None => arg,
            },
        )
    }

    fn has(&self, arg: &Arg) -> bool {
        self.values.iter().any(|(id, _)| arg.get_id() == id)
    }
}

/// A TOML value as the texts its flag would be given: a boolean for a switch, an array for a
/// flag that repeats, a string or a number for the others.
fn flag_texts(arg: &Arg, value: &DeValue) -> Result<Vec<String>, String> {
    let scalar = |value: &DeValue| match value {
        DeValue::String(text) => Ok(text.to_string()),
        DeValue::Integer(n) => i128::from_str_radix(n.as_str(), n.radix())
            .map(|n| n.to_string())
            .map_err(|e| e.to_string()),
        DeValue::Float(x) => Ok(x.as_str().to_string()),
        other => Err(format!("a string or a number, not {}", article(other))),
    };
    match (arg.get_action(), value) {
        (ArgAction::SetTrue | ArgAction::SetFalse, DeValue::Boolean(b)) => Ok(vec![b.to_string()]),
        (ArgAction::SetTrue | ArgAction::SetFalse, other) => {
            Err(format!("true or false, not {}", article(other)))
        }
        (ArgAction::Append, DeValue::Array(items)) => {
            items.iter().map(|item| scalar(item.get_ref())).collect()
        }
        (ArgAction::Append, other) => Err(format!("an array, not {}", article(other))),
        (_, value) => scalar(value).map(|text| vec![text]),
    }
}

fn article(value: &DeValue) -> String {
    match value.type_str() {
        kind @ ("integer" | "array") => format!("an {kind}"),
        kind => format!("a {kind}"),
    }
}

/// Why the flag refuses what `command_line` (or, without it, its variable) gives it, through
/// a parse of the flag alone: clap's value parsers are reached only so.
fn refusal(arg: &Arg, command_line: &[String]) -> Option<String> {
    let error = Command::new("serve")
        .no_binary_name(true)
        .arg(arg.clone())
        .try_get_matches_from(command_line)
        .err()?;
    Some(match (error.source(), error.get(ContextKind::ValidValue)) {
        (Some(reason), _) => reason.to_string(),
        (None, Some(ContextValue::Strings(valid))) => format!("not one of {}", valid.join(", ")),
        (None, _) => error.kind().to_string(),
    })
}

/// Where each setting of a run came from, for `--check-config`.
#[derive(Debug, Default)]
pub struct Sources {
    settings: Vec<Setting>,
    /// `LGAME_` variables that are no setting's: a misspelling, ignored.
    unknown_variables: Vec<String>,
}

#[derive(Debug)]
struct Setting {
    key: String,
    /// As given; `None` when not set at all.
    value: Option<String>,
    origin: Origin,
}

#[derive(Debug)]
enum Origin {
    Flag,
    Variable(String),
    File(PathBuf),
    Default,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Flag => f.write_str("flag"),
            Origin::Variable(name) => write!(f, "env {name}"),
            Origin::File(path) => write!(f, "file {}", path.display()),
            Origin::Default => f.write_str("default"),
        }
    }
}

impl Sources {
    fn of(matches: &ArgMatches, serve: &Command, file: Option<&File>) -> Sources {
        let shown_settings = settings(serve)
            .map(|arg| {
                let id = arg.get_id().as_str();
                let origin = match matches.value_source(id) {
                    Some(ValueSource::CommandLine) => Origin::Flag,
                    Some(ValueSource::EnvVariable) => Origin::Variable(variable(arg)),
                    _ => match file {
                        Some(file) if file.has(arg) => Origin::File(file.path.clone()),
                        _ => Origin::Default,
                    },
                };
                let value = matches.get_raw(id).map(|texts| {
                    let texts: Vec<_> = texts.map(|text| text.to_string_lossy()).collect();
                    shown(id, &texts.join(", "))
                });
                Setting {
                    key: long(arg).to_string(),
                    value,
                    origin,
                }
            })
            .collect();
        let known: Vec<String> = settings(serve)
            .map(variable)
            .chain(serve.get_arguments().filter_map(|arg| {
                arg.get_env()
                    .map(|name| name.to_string_lossy().into_owned())
            }))
            .collect();
        let unknown_variables = std::env::vars_os()
            .map(|(name, _)| name)
            .filter_map(|name: OsString| name.into_string().ok())
            .filter(|name| name.starts_with(PREFIX) && !known.contains(name))
            .collect();
        Sources {
            settings: shown_settings,
            unknown_variables,
        }
    }

    /// Whether setting `key` (its long name) was given as a flag on the command line.
    pub fn given_as_flag(&self, key: &str) -> bool {
        self.settings
            .iter()
            .any(|s| s.key == key && matches!(s.origin, Origin::Flag))
    }

    /// Each setting with its value and where it came from, then the variables ignored.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "lgame serve's settings (a flag beats {PREFIX}… variables, which beat the file, which beats the default):"
        )?;
        for setting in &self.settings {
            let value = setting.value.as_deref().unwrap_or("(not set)");
            writeln!(out, "{} = {value}  ({})", setting.key, setting.origin)?;
        }
        for name in &self.unknown_variables {
            writeln!(out, "warning: {name} is no setting's variable: ignored")?;
        }
        Ok(())
    }
}

/// A value as `--check-config` shows it: a PostgreSQL or SMTP URL without its password.
fn shown(id: &str, text: &str) -> String {
    match id {
        "smtp" => lgame_web::without_password(text),
        "db" => text
            .parse::<lgame_web::Database>()
            .map_or_else(|_| text.to_string(), |db| db.to_string()),
        _ => text.to_string(),
    }
}
