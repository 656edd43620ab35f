//! `lgame admin` on a server's database: an account's password reset (a random one printed
//! once, every session ended), disabled, enabled, renamed, and the newest listed; a running
//! server sees each change at the next request (docs/accounts.md, "Administration").

use lgame_test_support::serve::ServeProcess;
use lgame_test_support::{Lgame, TempDir};
use serde_json::{json, Value};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

const PASSWORD: &str = "Granite-Meadow-Fox-88";

/// `lgame admin --db DB ARGS…`: whether it succeeded, and what it printed (both streams).
fn admin(dir: &TempDir, args: &[&str]) -> (bool, String) {
    let out = LGAME
        .command()
        .arg("admin")
        .arg("--db")
        .arg(dir.db())
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn log_in(server: &ServeProcess, username: &str, password: &str) -> (u16, Value) {
    let reply = server.post(
        "/api/session",
        &json!({"username": username, "password": password}),
    );
    (reply.status, reply.body)
}

#[test]
fn an_administrator_resets_disables_enables_renames_and_lists_accounts() {
    let dir = TempDir::new("admin");
    let server = ServeProcess::start(LGAME, dir.db(), &[]);
    for name in ["ada_admin", "bo_admin"] {
        let made = server.post(
            "/api/account",
            &json!({"username": name, "password": PASSWORD}),
        );
        assert_eq!(made.status, 201, "{}", made.body);
    }

    let (ok, listed) = admin(&dir, &["list"]);
    assert!(ok, "{listed}");
    let names: Vec<&str> = listed
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(names, ["bo_admin", "ada_admin"], "newest first: {listed}");

    // A new password, printed once: the old one no longer opens the account.
    let (ok, said) = admin(&dir, &["reset-password", "ADA_ADMIN"]);
    assert!(ok, "{said}");
    let new = said
        .split("new password ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no password in {said:?}"))
        .to_string();
    assert_eq!(log_in(&server, "ada_admin", PASSWORD).0, 401);
    assert_eq!(log_in(&server, "ada_admin", &new).0, 200);

    // Disabled: the right password is refused; enabled again, it opens.
    let (ok, said) = admin(&dir, &["disable", "bo_admin"]);
    assert!(ok, "{said}");
    let (status, body) = log_in(&server, "bo_admin", PASSWORD);
    assert_eq!((status, body["kind"].as_str()), (403, Some("disabled")));
    assert!(admin(&dir, &["enable", "bo_admin"]).0);
    assert_eq!(log_in(&server, "bo_admin", PASSWORD).0, 200);

    // A rename to a name taken (whatever its case) is refused; another is the account's.
    let (ok, said) = admin(&dir, &["rename", "ada_admin", "BO_ADMIN"]);
    assert!(!ok && said.contains("taken"), "{said}");
    assert!(admin(&dir, &["rename", "ada_admin", "ada_renamed"]).0);
    let (status, body) = log_in(&server, "ada_renamed", &new);
    assert_eq!(
        (status, body["username"].as_str()),
        (200, Some("ada_renamed"))
    );
    assert_eq!(server.get("/api/users/ada_admin").status, 404);

    // Unknown names and bad new names are refused, saying why.
    let (ok, said) = admin(&dir, &["disable", "nobody_here"]);
    assert!(
        !ok && said.contains("no account is named 'nobody_here'"),
        "{said}"
    );
    let (ok, said) = admin(&dir, &["rename", "bo_admin", "bad name"]);
    assert!(!ok, "{said}");
}
