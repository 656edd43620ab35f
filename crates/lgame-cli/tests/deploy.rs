//! The `deploy/` folder as a site runs it (docs/deploy.md): `lgame serve` with the shipped
//! `lgame.toml`, behind the real Caddy running the shipped `Caddyfile` on loopback with its
//! own certificate authority, plays a game over HTTPS and WSS, its streams line by line; its
//! cookies are `Secure`, and the address it records and limits by is the client's as Caddy
//! passes it on, whatever the client claims; two instances on one PostgreSQL database behind
//! it are one site, which goes on when one of them stops. The units (`lgame.service`, the backup's
//! service and timer) pass `systemd-analyze verify`.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use lgame_test_support::accounts::Browser;
use lgame_test_support::http::{quiet_moves, Client};
use lgame_test_support::postgres::cluster;
use lgame_test_support::serve::ServeProcess;
use lgame_test_support::tls::Https;
use lgame_test_support::{Lgame, TempDir};
use serde_json::{json, Value};

const LGAME: Lgame = Lgame::new(env!("CARGO_BIN_EXE_lgame"));

/// The site's name in the shipped Caddyfile.
const SITE: &str = "games.example.org";

/// A file of the repository's `deploy/` folder.
fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../deploy")
        .join(name)
}

/// A program the test needs, or a failure saying what to install.
fn needs(program: &str, package: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|out| out.status.success());
    assert!(
        found,
        "`{program}` is missing: apt-get install {package} (cargo xtask test installs it)"
    );
}

#[test]
fn the_units_pass_systemd_analyze_verify() {
    needs("systemd-analyze", "systemd");
    let dir = TempDir::new("units");
    let unit = std::fs::read_to_string(shipped("lgame.service")).unwrap();
    // verify checks that ExecStart's program exists: the one just built stands in for the
    // installed /usr/local/bin/lgame.
    let installed = "ExecStart=/usr/local/bin/lgame serve --config /etc/lgame/lgame.toml\n";
    assert!(unit.contains(installed), "{unit}");
    let unit = unit.replace(
        installed,
        &format!(
            "ExecStart={} serve --config /etc/lgame/lgame.toml\n",
            LGAME.path()
        ),
    );
    for name in ["lgame-backup.service", "lgame-backup.timer"] {
        std::fs::copy(shipped(name), dir.join(name)).unwrap();
    }
    let verify = |unit: &str| {
        std::fs::write(dir.join("lgame.service"), unit).unwrap();
        let out = Command::new("systemd-analyze")
            .arg("verify")
            .args([
                "lgame.service",
                "lgame-backup.service",
                "lgame-backup.timer",
            ])
            .current_dir(dir.path())
            .output()
            .expect("systemd-analyze runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // A warning (an unknown key, a value it cannot read) is ignored by systemd with exit 0:
    // only silence passes.
    assert_eq!(verify(&unit), (true, String::new()));
    let misspelt = unit.replace("ProtectSystem=strict", "ProtectSystem=strikt");
    let (_, said) = verify(&misspelt);
    assert!(
        said.contains("strikt"),
        "verify let a bad value pass: {said}"
    );
}

#[test]
fn the_shipped_settings_are_read_whole() {
    let toml = shipped("lgame.toml");
    let out = LGAME.ok(&[
        "serve",
        "--config",
        toml.to_str().unwrap(),
        "--check-config",
    ]);
    let from_file = |line: &str| {
        assert!(
            out.lines()
                .any(|l| l.starts_with(line) && l.contains("(file ")),
            "no `{line}` from the file in:\n{out}"
        )
    };
    from_file("addr = 127.0.0.1:8080");
    from_file("db = /var/lib/lgame/lgame.db");
    from_file("https = true");
    from_file("trusted-proxy = 127.0.0.1");
}

/// A port free on every address, IPv4 and IPv6 (as Caddy binds `:PORT`).
fn free_port() -> u16 {
    TcpListener::bind("[::]:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Caddy running a Caddyfile, killed when dropped; its log in a file.
struct Caddy {
    child: Child,
    log: PathBuf,
    /// Its certificate authority's root certificate.
    root: PathBuf,
    https_port: u16,
}

impl Caddy {
    /// The shipped Caddyfile in front of the server at `upstream`, its site on free ports
    /// with a certificate from Caddy's own authority: `local_certs` and the ports as global
    /// options, the rest as shipped but for the upstream. Everything Caddy keeps is in
    /// `dir` (its `HOME` and XDG folders), and it changes nothing outside (no admin
    /// endpoint, its root not installed in the system's trust).
    fn start(dir: &TempDir, upstream: &str) -> Caddy {
        needs("caddy", "caddy");
        let site = std::fs::read_to_string(shipped("Caddyfile")).unwrap();
        let proxy = "reverse_proxy 127.0.0.1:8080 {";
        assert!(site.contains(proxy), "{site}");
        let site = site.replace(proxy, &format!("reverse_proxy {upstream} {{"));
        let https_port = free_port();
        let caddyfile = dir.join("Caddyfile");
        let global = format!(
            "{{\n\tadmin off\n\thttp_port {}\n\thttps_port {https_port}\n\
             \tlocal_certs\n\tskip_install_trust\n}}\n\n",
            free_port()
        );
        std::fs::write(&caddyfile, global + &site).unwrap();
        let log = dir.join("caddy.log");
        let child = Command::new("caddy")
            .args(["run", "--adapter", "caddyfile", "--config"])
            .arg(&caddyfile)
            .env("HOME", dir.path())
            .env("XDG_DATA_HOME", dir.join("data"))
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(dir.join("caddy.out")).unwrap())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("caddy starts");
        let root = dir.join("data/caddy/pki/authorities/local/root.crt");
        Caddy {
            child,
            log,
            root,
            https_port,
        }
    }

    /// The site at Caddy's HTTPS port on `ip`, once it answers `GET /healthz` (up to 30 s).
    fn site(&mut self, ip: &str) -> Https {
        let addr: SocketAddr = format!("{ip}:{}", self.https_port).parse().unwrap();
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("caddy stopped ({status}):\n{}", self.log());
            }
            if self.root.exists() {
                let site = Https::new(SITE, addr, &self.root);
                let answer = site
                    .agent()
                    .get(&format!("{}/healthz", site.origin()))
                    .call();
                if answer.is_ok_and(|a| a.status() == 200) {
                    return site;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "caddy did not serve {SITE} at {addr} within 30 s:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Caddy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server with the shipped settings (on a free port and the test's database instead of
/// the shipped ones: flags beat the file), and Caddy in front of it.
fn site(dir: &TempDir, extra: &[&str]) -> (ServeProcess, Caddy) {
    let toml = shipped("lgame.toml");
    let mut args = vec!["--config", toml.to_str().unwrap()];
    args.extend(extra);
    let server = ServeProcess::start(LGAME, dir.db(), &args);
    let caddy = Caddy::start(dir, &server.addr);
    (server, caddy)
}

#[test]
fn a_game_is_played_over_https_and_wss_through_caddy() {
    let dir = TempDir::new("caddy-game");
    let (_server, mut caddy) = site(&dir, &[]);
    let site = caddy.site("[::1]");
    let client = Client::https(site.clone());
    let game = client.create(json!({"red": "human", "blue": "human"}));
    let mut watcher = client.watch(&game.id);
    assert_eq!(watcher.next()["plies"], 0);
    let stream = client.url(&format!("/api/games/{}/stream", game.id));
    let mut stream = BufReader::new(site.agent().get(&stream).call().unwrap().into_reader());
    assert_eq!(next_line(&mut stream)["plies"], 0);
    let mut state = game.body["state"].clone();
    for ply in 1..=6u64 {
        let moves = quiet_moves(&state);
        let mv = &moves[ply as usize % moves.len()];
        let reply = client.play(&game.id, game.token_for(&state), ply, mv);
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.body;
        // Each move reaches the WebSocket and the stream at once: nothing holds it back.
        let seen = watcher.next();
        assert_eq!(
            (&seen["plies"], &seen["position"]),
            (&json!(ply), &state["position"])
        );
        let line = next_line(&mut stream);
        assert_eq!(line["type"], "change", "{line}");
        assert_eq!(
            line["positions"].as_array().unwrap().last(),
            Some(&state["position"])
        );
    }
    assert_eq!(client.state(&game.id)["plies"], 6);
}

/// The stream's next message, waiting past its keep-alive empty lines.
fn next_line(stream: &mut impl BufRead) -> Value {
    loop {
        let mut line = String::new();
        assert!(stream.read_line(&mut line).unwrap() > 0, "the stream ended");
        if !line.trim().is_empty() {
            return serde_json::from_str(&line).unwrap();
        }
    }
}

#[test]
fn cookies_are_secure_and_addresses_are_as_caddy_saw_them() {
    let dir = TempDir::new("caddy-clients");
    let (_server, mut caddy) = site(&dir, &["--login-failure-limit", "4"]);
    let over_ipv6 = caddy.site("[::1]");
    let password = "Walnut-Harvest-Comet-56";

    // A sign-up's cookies, the session's and the anonymous identity's, are Secure. The
    // client's own X-Forwarded-For is Caddy's to replace, not the server's to believe.
    let browser = Browser::https(&over_ipv6);
    let signup = json!({"username": "proxied", "password": password});
    let forged = [("X-Forwarded-For", "198.51.100.7")];
    let page = browser.send("POST", "/api/account", Some(&signup), &forged);
    assert_eq!(page.status, 201, "{}", page.body);
    for name in ["lgame_session", "lgame_anon"] {
        let cookie = page
            .set_cookie(name)
            .unwrap_or_else(|| panic!("no {name} cookie"));
        assert!(cookie.contains("; Secure"), "{cookie}");
    }
    let sessions = browser.get("/api/account/sessions");
    assert_eq!(
        sessions.body["sessions"][0]["address"], "::1",
        "{}",
        sessions.body
    );

    // The log-in limit counts the client's address: two failures for the account over IPv6
    // (half the limit, per account and address), each claiming another address, stop the
    // right password from there, while it logs in from 127.0.0.1 through Caddy (claiming
    // to be ::1 in vain).
    let log_in = |browser: &Browser, password: &str, forged: &str| {
        let body = json!({"username": "proxied", "password": password});
        let headers = [("X-Forwarded-For", forged)];
        browser
            .send("POST", "/api/session", Some(&body), &headers)
            .status
    };
    for i in 0..2 {
        let stranger = Browser::https(&over_ipv6);
        assert_eq!(
            log_in(&stranger, "wrong-password", &format!("192.0.2.{i}")),
            401
        );
    }
    assert_eq!(
        log_in(&Browser::https(&over_ipv6), password, "192.0.2.9"),
        429
    );
    let over_ipv4 = Browser::https(&caddy.site("127.0.0.1"));
    assert_eq!(log_in(&over_ipv4, password, "::1"), 200);
    let sessions = over_ipv4.get("/api/account/sessions");
    let current = sessions.body["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["current"] == true)
        .cloned()
        .unwrap();
    assert_eq!(current["address"], "127.0.0.1", "{}", sessions.body);
}

#[test]
fn several_instances_behind_caddy_are_one_site_and_outlive_one_of_them() {
    let dir = TempDir::new("caddy-instances");
    let db = cluster().database("caddy");
    let toml = shipped("lgame.toml");
    let config = ["--config", toml.to_str().unwrap()];
    let first = ServeProcess::start(LGAME, &db, &config);
    let second = ServeProcess::start(LGAME, &db, &config);
    let mut caddy = Caddy::start(&dir, &format!("{} {}", first.addr, second.addr));
    let client = Client::https(caddy.site("[::1]"));
    let game = client.create(json!({"red": "human", "blue": "human"}));
    let mut state = game.body["state"].clone();
    let mut play = |ply: u64| {
        let moves = quiet_moves(&state);
        let mv = &moves[ply as usize % moves.len()];
        let reply = client.play(&game.id, game.token_for(&state), ply, mv);
        assert_eq!(
            reply.status,
            200,
            "ply {ply}: {}\n{}",
            reply.body,
            caddy.log()
        );
        state = reply.body;
    };
    for ply in 1..=4 {
        play(ply);
    }
    // Caddy sent the requests to both (each loaded the game).
    for instance in [&first, &second] {
        let health = instance.get("/healthz");
        assert_eq!(health.body["games_in_memory"], 1, "{}", health.body);
    }
    // One stops at once: Caddy sends every request to the other (a refused connection is
    // tried again there, within lb_try_duration), and the game goes on.
    first.kill();
    for ply in 5..=8 {
        play(ply);
    }
    let mut watcher = client.watch(&game.id);
    assert_eq!(watcher.next()["plies"], 8);
}
