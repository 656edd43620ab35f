//! `lgame admin` on a server's database: an account's password reset (a random one printed
//! once, every session ended), disabled, enabled, renamed, and the newest listed; a running
//! server sees each change at the next request (docs/accounts.md, "Administration").

use lgame_test_support::serve::ServeProcess;
use lgame_test_support::{Lgame, TempDir};
use serde_json::{json, Value};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

const PASSWORD: &str = "Granite-Meadow-Fox-88";

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

    let (ok, listed) = LGAME.admin(dir.db(), &["list"]);
    assert!(ok, "{listed}");
    let names: Vec<&str> = listed
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    // The server's computer levels' bots are the oldest accounts (made at its start).
    assert_eq!(
        names,
        [
            "bo_admin",
            "ada_admin",
            "lgame-perfect",
            "lgame-intermediate",
            "lgame-beginner",
            "lgame-random"
        ],
        "newest first: {listed}"
    );

    // A new password, printed once: the old one no longer opens the account.
    let (ok, said) = LGAME.admin(dir.db(), &["reset-password", "ADA_ADMIN"]);
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
    let (ok, said) = LGAME.admin(dir.db(), &["disable", "bo_admin"]);
    assert!(ok, "{said}");
    let (status, body) = log_in(&server, "bo_admin", PASSWORD);
    assert_eq!((status, body["kind"].as_str()), (403, Some("disabled")));
    assert!(LGAME.admin(dir.db(), &["enable", "bo_admin"]).0);
    assert_eq!(log_in(&server, "bo_admin", PASSWORD).0, 200);

    // A rename to a name taken (whatever its case) is refused; another is the account's.
    let (ok, said) = LGAME.admin(dir.db(), &["rename", "ada_admin", "BO_ADMIN"]);
    assert!(!ok && said.contains("taken"), "{said}");
    assert!(
        LGAME
            .admin(dir.db(), &["rename", "ada_admin", "ada_renamed"])
            .0
    );
    let (status, body) = log_in(&server, "ada_renamed", &new);
    assert_eq!(
        (status, body["username"].as_str()),
        (200, Some("ada_renamed"))
    );
    assert_eq!(server.get("/api/users/ada_admin").status, 404);

    // Unknown names and bad new names are refused, saying why.
    let (ok, said) = LGAME.admin(dir.db(), &["disable", "nobody_here"]);
    assert!(
        !ok && said.contains("no account is named 'nobody_here'"),
        "{said}"
    );
    let (ok, said) = LGAME.admin(dir.db(), &["rename", "bo_admin", "bad name"]);
    assert!(!ok, "{said}");
}

/// `lgame admin check-ratings` recomputes every rating from the stored games and finds them
/// equal; `lgame admin suspects` lists the accounts whose scored rated games reach the
/// accuracy asked for.
#[test]
fn an_administrator_checks_the_ratings_and_lists_accurate_accounts() {
    use lgame_test_support::accounts::Browser;
    let dir = TempDir::new("admin-ratings");
    let server = ServeProcess::start(LGAME, dir.db(), &[]);
    let [ann, bob] =
        ["ann_rated", "bob_rated"].map(|name| Browser::signed_up(&server.addr, name, PASSWORD));
    let (ok, said) = LGAME.admin(dir.db(), &["check-ratings"]);
    assert!(ok, "{said}");
    assert!(
        said.contains("0 rated games recomputed: 0 ratings"),
        "{said}"
    );

    // A rated game: Ann (Red) and Bob (Blue) move once each (rated once both sides have
    // moved), Bob resigns.
    let clock = json!({"initial_s": 180, "increment_s": 2});
    let seek = ann.post(
        "/api/seeks",
        &json!({"clock": clock, "colour": "red", "rated": true}),
    );
    assert_eq!(seek.status, 201, "{}", seek.body);
    let id = seek.body["id"].as_str().unwrap();
    let took = bob.post(&format!("/api/seeks/{id}/accept"), &json!({}));
    assert_eq!(took.status, 201, "{}", took.body);
    let game = took.body["id"].as_str().unwrap();
    let moved = ann.post(
        &format!("/api/games/{game}/moves"),
        &json!({"ply": 1, "move": "A1,A2,A3,B3 D1-D2"}),
    );
    assert_eq!(moved.status, 200, "{}", moved.body);
    let state = ann.get(&format!("/api/games/{game}")).body;
    let reply = lgame_test_support::http::quiet_moves(&state)[0].clone();
    let moved = bob.post(
        &format!("/api/games/{game}/moves"),
        &json!({"ply": 2, "move": reply}),
    );
    assert_eq!(moved.status, 200, "{}", moved.body);
    let resigned = bob.post(&format!("/api/games/{game}/resign"), &json!({}));
    assert_eq!(resigned.status, 200, "{}", resigned.body);
    let red = &resigned.body["accuracy"]["red"];
    assert_eq!(red["scored"], 1, "{red}");

    let (ok, said) = LGAME.admin(dir.db(), &["check-ratings"]);
    assert!(ok, "{said}");
    assert!(
        said.contains("1 rated games recomputed: 2 ratings, all equal to the stored ones"),
        "{said}"
    );
    // Each moved once: each is listed as accurate as the game's page scores them, and
    // the two share the address they signed up from.
    let (ok, said) = LGAME.admin(dir.db(), &["suspects", "--games", "1", "--accuracy", "0"]);
    assert!(ok, "{said}");
    let blue = &resigned.body["accuracy"]["blue"];
    for (name, side) in [("ann_rated", red), ("bob_rated", blue)] {
        let share = side["accuracy"].as_f64().unwrap() * 100.0;
        let line = format!(
            "accurate\t{name}\t1 rated games\t{} perfect\taccuracy {share:.1}%",
            (share >= 100.0) as u8
        );
        assert!(said.lines().any(|l| l == line), "{line} in {said}");
    }
    assert!(
        said.lines()
            .any(|l| l.starts_with("shared_address\tann_rated bob_rated\tused from 127.0.0.1")),
        "{said}"
    );
    let (ok, said) = LGAME.admin(dir.db(), &["suspects", "--games", "2"]);
    assert!(ok, "{said}");
    assert!(!said.contains("accurate\t"), "{said}");

    // Recomputed without a disabled account's games: none left, nothing stored, and the
    // check agrees; recomputed with them again, nothing changes (the game keeps no instant
    // once left out).
    let (ok, said) = LGAME.admin(dir.db(), &["disable", "bob_rated"]);
    assert!(ok, "{said}");
    let (ok, said) = LGAME.admin(dir.db(), &["recompute-ratings", "--without-disabled"]);
    assert!(ok, "{said}");
    assert!(
        said.contains(
            "0 rated games recomputed, the disabled accounts' games left out: 0 ratings stored"
        ),
        "{said}"
    );
    let ratings = ann.get("/api/users/ann_rated/ratings").body;
    assert_eq!(ratings["ratings"], json!([]), "{ratings}");
    let (ok, said) = LGAME.admin(dir.db(), &["check-ratings"]);
    assert!(ok, "{said}");
    assert!(
        said.contains("0 rated games recomputed: 0 ratings"),
        "{said}"
    );
}
