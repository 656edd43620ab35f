//! `lgame serve`'s settings from the environment and a TOML file as well as its flags: a flag
//! beats an `LGAME_` variable, which beats the `--config` file, which beats the default;
//! `--check-config` shows each setting and where it came from. Every run here sees no `LGAME_`
//! variable but its own.

use std::process::{Command, Output, Stdio};
use std::time::Duration;

use lgame_test_support::{Lgame, TempDir};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// `lgame serve` with `args` and `vars`, and none of this process's `LGAME_` variables.
fn serve(args: &[&str], vars: &[(&str, &str)]) -> Command {
    let mut command = LGAME.command();
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("LGAME_") {
            command.env_remove(name);
        }
    }
    command.arg("serve").args(args).envs(vars.iter().copied());
    command.stdin(Stdio::null());
    command
}

fn output(args: &[&str], vars: &[(&str, &str)]) -> Output {
    serve(args, vars).output().expect("lgame runs")
}

/// What `--check-config` prints, which must succeed.
fn check(args: &[&str], vars: &[(&str, &str)]) -> String {
    let out = output(&[args, &["--check-config"]].concat(), vars);
    let err = lgame_test_support::stderr(&out);
    assert!(out.status.success(), "{err}");
    lgame_test_support::stdout(&out)
}

/// The line of `report` that gives `key`: `key = VALUE  (ORIGIN)`.
fn line<'a>(report: &'a str, key: &str) -> &'a str {
    let start = format!("{key} = ");
    report
        .lines()
        .find(|line| line.starts_with(&start))
        .unwrap_or_else(|| panic!("no {key} in\n{report}"))
}

/// A failure of `lgame serve` (exit 2): its one error line.
fn refusal(args: &[&str], vars: &[(&str, &str)]) -> String {
    let out = output(args, vars);
    let err = lgame_test_support::stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

/// A config file holding `text`, in `dir`.
fn config(dir: &TempDir, text: &str) -> String {
    let path = dir.join("lgame.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn a_variable_sets_its_setting() {
    let report = check(&[], &[("LGAME_MAX_WEBSOCKETS", "5")]);
    assert_eq!(
        line(&report, "max-websockets"),
        "max-websockets = 5  (env LGAME_MAX_WEBSOCKETS)"
    );
    assert_eq!(
        line(&report, "create-limit"),
        "create-limit = 60  (default)"
    );
}

#[test]
fn a_file_sets_its_settings_numbers_booleans_and_arrays() {
    let dir = TempDir::new("config-file");
    let file = config(
        &dir,
        "max-websockets = 10_000\nhttps = true\ntrusted-proxy = [\"10.0.0.1\", \"::1\"]\n\
         addr = \"0.0.0.0:9000\"\n",
    );
    let report = check(&["--config", &file], &[]);
    for (key, value) in [
        ("max-websockets", "10000"),
        ("https", "true"),
        ("trusted-proxy", "10.0.0.1, ::1"),
        ("addr", "0.0.0.0:9000"),
    ] {
        assert_eq!(
            line(&report, key),
            format!("{key} = {value}  (file {file})")
        );
    }
}

#[test]
fn the_file_may_be_named_by_lgame_config() {
    let dir = TempDir::new("config-variable");
    let file = config(&dir, "seek-limit = 7\n");
    let report = check(&[], &[("LGAME_CONFIG", &file)]);
    assert_eq!(
        line(&report, "seek-limit"),
        format!("seek-limit = 7  (file {file})")
    );
}

#[test]
fn a_flag_beats_a_variable_which_beats_the_file_which_beats_the_default() {
    let dir = TempDir::new("config-precedence");
    let file = config(
        &dir,
        "create-limit = 1\nmax-websockets = 1\nmax-plies = 1\n",
    );
    let report = check(
        &["--config", &file, "--create-limit", "3"],
        &[("LGAME_CREATE_LIMIT", "2"), ("LGAME_MAX_WEBSOCKETS", "2")],
    );
    assert_eq!(line(&report, "create-limit"), "create-limit = 3  (flag)");
    assert_eq!(
        line(&report, "max-websockets"),
        "max-websockets = 2  (env LGAME_MAX_WEBSOCKETS)"
    );
    assert_eq!(
        line(&report, "max-plies"),
        format!("max-plies = 1  (file {file})")
    );
    assert_eq!(
        line(&report, "cache-games"),
        "cache-games = 10000  (default)"
    );
}

#[test]
fn a_repeated_flags_variable_separates_its_values_by_commas() {
    let report = check(&[], &[("LGAME_TRUSTED_PROXY", "10.0.0.1,10.0.0.2")]);
    assert_eq!(
        line(&report, "trusted-proxy"),
        "trusted-proxy = 10.0.0.1, 10.0.0.2  (env LGAME_TRUSTED_PROXY)"
    );
}

/// The flags `lgame serve --help` lists that set something (not help, `--variant` nor the
/// configuration's own).
fn setting_flags() -> Vec<String> {
    let out = output(&["--help"], &[]);
    assert!(out.status.success());
    lgame_test_support::stdout(&out)
        .lines()
        // A flag's own line, not a wrapped description that happens to begin with one.
        .filter(|line| line.len() - line.trim_start().len() <= 6)
        .filter_map(|line| line.trim_start().strip_prefix("--"))
        .map(|rest| rest.split([' ', ',']).next().unwrap().to_string())
        .filter(|flag| !["help", "variant", "config", "check-config"].contains(&flag.as_str()))
        .collect()
}

#[test]
fn every_setting_can_be_set_through_its_variable_and_the_file() {
    let dir = TempDir::new("config-every");
    let db = dir.db().display().to_string();
    // The settings with no default, each with a value (a new one needs its example here).
    let examples = [
        ("db", db.as_str(), format!("{db:?}")),
        ("trusted-proxy", "10.0.0.1", r#"["10.0.0.1"]"#.to_string()),
        ("action-limit", "seeks=5", r#"["seeks=5"]"#.to_string()),
        (
            "smtp",
            "smtp://127.0.0.1:25",
            r#""smtp://127.0.0.1:25""#.to_string(),
        ),
        (
            "smtp-password-file",
            "/etc/lgame/smtp",
            r#""/etc/lgame/smtp""#.to_string(),
        ),
        (
            "mail-from",
            "noreply@l.example.org",
            r#""noreply@l.example.org""#.to_string(),
        ),
        (
            "site-url",
            "https://l.example.org",
            r#""https://l.example.org""#.to_string(),
        ),
        (
            "metrics-addr",
            "127.0.0.1:9464",
            r#""127.0.0.1:9464""#.to_string(),
        ),
    ];
    let defaults = check(&[], &[]);
    let flags = setting_flags();
    assert!(flags.len() >= 23, "{flags:?}");
    for flag in &flags {
        let (value, toml) = match examples.iter().find(|(key, _, _)| key == flag) {
            Some((_, value, toml)) => (value.to_string(), toml.clone()),
            None => {
                let shown = line(&defaults, flag);
                let value = shown[flag.len() + 3..].rsplit_once("  (").unwrap().0;
                assert_ne!(value, "(not set)", "--{flag} has no example here");
                let toml = match value {
                    "true" | "false" => value.to_string(),
                    _ => format!("{value:?}"),
                };
                (value.to_string(), toml)
            }
        };
        let variable = format!("LGAME_{}", flag.to_uppercase().replace('-', "_"));
        let report = check(&[], &[(&variable, &value)]);
        assert_eq!(
            line(&report, flag),
            format!("{flag} = {value}  (env {variable})")
        );
        let file = config(&dir, &format!("{flag} = {toml}\n"));
        let report = check(&["--config", &file], &[]);
        assert_eq!(
            line(&report, flag),
            format!("{flag} = {value}  (file {file})")
        );
    }
}

#[test]
fn an_unknown_key_is_refused_with_the_file_and_its_line() {
    let dir = TempDir::new("config-unknown");
    let file = config(&dir, "https = true\nmax-websocket = 10000\n");
    let err = refusal(&["--config", &file], &[]);
    assert!(
        err.contains(&format!("unknown key `max-websocket` in {file} (line 2)")),
        "{err}"
    );
}

#[test]
fn a_value_of_the_wrong_type_is_refused_with_the_file_and_its_line() {
    let dir = TempDir::new("config-type");
    for (text, expected) in [
        (
            "https = \"yes\"\n",
            "wrong type for `https` in {} (line 1): true or false, not a string",
        ),
        (
            "\nmax-websockets = \"lots\"\n",
            "bad value for `max-websockets` in {} (line 2): 'lots'",
        ),
        (
            "\n\nmax-connections = 0\n",
            "bad value for `max-connections` in {} (line 3): '0'",
        ),
        (
            "trusted-proxy = \"10.0.0.1\"\n",
            "wrong type for `trusted-proxy` in {} (line 1): an array",
        ),
        (
            "max-plies = [1]\n",
            "wrong type for `max-plies` in {} (line 1): a string or a number",
        ),
        ("addr = 127.0.0.1:80\n", "unreadable TOML in {} (line 1)"),
    ] {
        let file = config(&dir, text);
        let err = refusal(&["--config", &file], &[]);
        let expected = expected.replace("{}", &file);
        assert!(err.contains(&expected), "{text:?}: {err}");
    }
}

#[test]
fn a_missing_file_is_refused_by_its_name() {
    let err = refusal(&["--config", "/nonexistent/lgame.toml"], &[]);
    assert!(err.contains("/nonexistent/lgame.toml"), "{err}");
}

#[test]
fn a_bad_value_in_a_variable_is_refused_by_the_variables_name() {
    let err = refusal(&[], &[("LGAME_MAX_WEBSOCKETS", "lots")]);
    assert!(
        err.contains("bad value in LGAME_MAX_WEBSOCKETS: 'lots'"),
        "{err}"
    );
    let err = refusal(&[], &[("LGAME_HTTPS", "yes")]);
    assert!(err.contains("bad value in LGAME_HTTPS: 'yes'"), "{err}");
}

#[test]
fn a_password_in_the_database_url_is_never_shown() {
    let url = "postgres://lgame:secret@db.internal:5432/lgame";
    let report = check(&[], &[("LGAME_DB", url)]);
    assert_eq!(
        line(&report, "db"),
        "db = postgres://lgame:***@db.internal:5432/lgame  (env LGAME_DB)"
    );
    assert!(!report.contains("secret"), "{report}");
    let help = lgame_test_support::stdout(&output(&["--help"], &[("LGAME_DB", url)]));
    assert!(!help.contains("secret"), "{help}");
}

#[test]
fn an_smtp_password_is_never_shown_nor_taken_from_the_command_line() {
    let url = "smtps://lgame:secret@mail.example.org:465";
    let report = check(&[], &[("LGAME_SMTP", url)]);
    assert_eq!(
        line(&report, "smtp"),
        "smtp = smtps://lgame:***@mail.example.org:465  (env LGAME_SMTP)"
    );
    assert!(!report.contains("secret"), "{report}");

    let dir = TempDir::new("config-smtp");
    let db = dir.db().display().to_string();
    let site = ["--site-url", "https://l.example.org", "--db", &db];
    let err = refusal(&[&["--smtp", url][..], &site].concat(), &[]);
    assert!(err.contains("--smtp-password-file"), "{err}");
    assert!(!err.contains("secret"), "{err}");
    let err = refusal(&["--smtp", "smtp://127.0.0.1:25", "--db", &db], &[]);
    assert!(err.contains("--smtp needs --site-url"), "{err}");
}

#[test]
fn an_unknown_lgame_variable_is_a_warning_in_check_config_and_ignored_otherwise() {
    let misspelt = ("LGAME_MAX_WEBSOCKET", "5");
    let report = check(&[], &[misspelt]);
    assert!(
        report.contains("warning: LGAME_MAX_WEBSOCKET is no setting's variable: ignored"),
        "{report}"
    );
    assert_eq!(
        line(&report, "max-websockets"),
        "max-websockets = 1000  (default)"
    );

    // A real run takes its address and database from the environment, the misspelt variable
    // ignored.
    let dir = TempDir::new("config-run");
    let db = dir.db().display().to_string();
    let vars = [("LGAME_ADDR", "127.0.0.1:0"), ("LGAME_DB", &db), misspelt];
    let mut child = serve(&[], &vars)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let lines = lgame_test_support::lines_of(child.stdout.take().unwrap());
    let first = lines.recv_timeout(Duration::from_secs(30));
    let second = lines.recv_timeout(Duration::from_secs(30));
    child.kill().unwrap();
    let out = child.wait_with_output().unwrap();
    let err = lgame_test_support::stderr(&out);
    let first = first.unwrap_or_else(|e| panic!("no address: {e}: {err}"));
    assert!(
        first.starts_with("listening on http://127.0.0.1:"),
        "{first}"
    );
    assert_eq!(second.unwrap(), format!("games stored in {db}"));
    assert!(!err.contains("LGAME_MAX_WEBSOCKET"), "{err}");
}
