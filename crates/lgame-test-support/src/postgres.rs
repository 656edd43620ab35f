//! A throwaway PostgreSQL cluster for the tests of the server's PostgreSQL backend
//! (feature `postgres`). It drives PostgreSQL's own programs; no client library.
//!
//! - [`cluster()`]: the cluster of this test process, started on first use and shared by
//!   its tests; [`Cluster::new`]: one of a test's own (to stop and restart it, say), stopped
//!   and removed when dropped.
//! - Each [`Cluster::database`] is a fresh, empty database; its URL is what `lgame serve
//!   --db` takes: `postgres://lgame@127.0.0.1:PORT/NAME` (trust authentication, superuser
//!   `lgame`).
//!
//! Where: `initdb` into `lgame-pg-PID-N` under the system's temporary folder (a
//! [`TempDir`]); `postgres` listens on 127.0.0.1 at a free port and puts its unix socket in
//! that folder, not in /var/run. The programs come from the PATH (`initdb`, resolved through
//! symbolic links, with `postgres` beside it) or else from Debian's
//! `/usr/lib/postgresql/<major>/bin`, the highest major.
//!
//! `LGAME_PG_VERBOSE=1` in the environment: the cluster says how long it took to start.
//!
//! As root (CI runs as root), where `initdb` and `postgres` refuse to run, both run as the
//! `postgres` user (which Debian's package creates), set in the child before it executes
//! them, and the folder belongs to that user.
//!
//! How the server ends with the test process, since a static is never dropped:
//! - at a normal exit (the test harness's end, passed or failed), an `atexit` handler stops
//!   the shared cluster (a fast shutdown) and removes its folder;
//! - if the process dies otherwise (a SIGKILL, an abort), the kernel sends the server
//!   SIGQUIT (an immediate shutdown): `postgres` is spawned with
//!   `prctl(PR_SET_PDEATHSIG, SIGQUIT)`, which fires when the *thread* that spawned it ends,
//!   hence one thread per cluster that spawns and stops it and, for the shared cluster,
//!   never returns. The folder of such a dead run is removed by the next run's first
//!   cluster (any `lgame-pg-PID-*` whose process is gone).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::TempDir;

/// The superuser that `initdb` creates, the user of every URL.
const USER: &str = "lgame";
/// How long the server may take to accept connections, or to stop.
const PATIENCE: Duration = Duration::from_secs(60);

/// The cluster of this test process, started on first use; it stops at the process's end.
/// Stopping it ([`Cluster::stop`]) stops every test's databases: a test that does so uses a
/// [`Cluster::new`] of its own.
pub fn cluster() -> &'static Cluster {
    static SHARED: OnceLock<Cluster> = OnceLock::new();
    extern "C" fn at_exit() {
        if let Some(cluster) = SHARED.get() {
            cluster.stop();
            let _ = std::fs::remove_dir_all(cluster.dir.path());
        }
    }
    SHARED.get_or_init(|| {
        let cluster = Cluster::new();
        // SAFETY: registers a function of no arguments that touches only the static.
        unsafe { libc::atexit(at_exit) };
        cluster
    })
}

/// A running PostgreSQL server on its own data folder and port. Dropping it stops the
/// server and removes the folder.
pub struct Cluster {
    bin: PathBuf,
    dir: TempDir,
    port: u16,
    /// To the thread that spawns and stops the server (see the module's doc).
    orders: Sender<Order>,
    databases: AtomicU32,
}

/// What the server's thread is asked to do; it answers on the enclosed channel.
enum Order {
    Start {
        port: u16,
        done: Sender<Result<(), String>>,
    },
    Stop {
        done: Sender<()>,
    },
}

impl Cluster {
    /// `initdb` into a fresh folder, then the server started on a free port; panics with
    /// what to install if PostgreSQL is missing, or with the server's log if it fails.
    pub fn new() -> Cluster {
        let started = Instant::now();
        let bin = bin_dir().unwrap_or_else(|| {
            panic!(
                "PostgreSQL is not installed (no initdb on the PATH or in \
                 /usr/lib/postgresql/*/bin): run `cargo xtask test`, which installs it, \
                 or apt-get install postgresql"
            )
        });
        remove_dead_runs(&std::env::temp_dir());
        let dir = TempDir::new("pg");
        let owner = owner();
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .unwrap_or_else(|e| panic!("cannot give {} to postgres: {e}", dir.text()));
        }
        let mut initdb = Command::new(bin.join("initdb"));
        initdb
            .arg("-D")
            .arg(dir.join("data"))
            .args(["-U", USER, "-A", "trust", "-E", "UTF8", "--locale=C"])
            // The test cluster's own files need no flush; the server keeps fsync on.
            .arg("--no-sync");
        let out = run(&mut initdb, dir.path(), owner);
        let initialised = started.elapsed();
        assert!(
            out.status.success(),
            "initdb failed ({}): {}{}",
            out.status,
            crate::stdout(&out),
            crate::stderr(&out)
        );
        let (orders, receiver) = mpsc::channel();
        let server = Server {
            bin: bin.clone(),
            dir: dir.path().to_path_buf(),
            owner,
        };
        std::thread::Builder::new()
            .name("postgres".into())
            .spawn(move || server.serve(receiver))
            .expect("a thread for the server");
        let mut cluster = Cluster {
            bin,
            dir,
            port: 0,
            orders,
            databases: AtomicU32::new(0),
        };
        // The port is free when asked for but may be taken before the server binds it.
        let mut tries = 0;
        loop {
            cluster.port = free_port();
            match cluster.start() {
                Ok(()) => break,
                Err(e) if tries >= 2 => panic!("PostgreSQL did not start: {e}"),
                Err(_) => tries += 1,
            }
        }
        if std::env::var_os("LGAME_PG_VERBOSE").is_some() {
            eprintln!(
                "PostgreSQL: initdb {:.2} s, started in {:.2} s in all, on port {} in {}",
                initialised.as_secs_f64(),
                started.elapsed().as_secs_f64(),
                cluster.port,
                cluster.dir.text()
            );
        }
        cluster
    }

    /// A fresh, empty database whose name starts with `name_hint` (lower-cased, other
    /// characters than letters and digits as `_`); its URL.
    pub fn database(&self, name_hint: &str) -> String {
        let mut name: String = name_hint
            .chars()
            .take(40)
            .map(|c| match c.to_ascii_lowercase() {
                c @ ('a'..='z' | '0'..='9') => c,
                _ => '_',
            })
            .collect();
        if name.is_empty() {
            name.push_str("db");
        }
        let name = format!("{name}_{}", self.databases.fetch_add(1, Ordering::SeqCst));
        self.query("postgres", &format!("CREATE DATABASE \"{name}\""))
            .unwrap_or_else(|e| panic!("cannot create the database {name}: {e}"));
        self.url(&name)
    }

    /// The URL of the database `db`.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{db}", self.port)
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The folder with the data (`data/`), the unix socket and the server's log
    /// (`postgres.log`).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A program of this PostgreSQL (`psql`, `pg_dump`, …).
    pub fn program(&self, name: &str) -> PathBuf {
        self.bin.join(name)
    }

    /// Runs `sql` on the database `db` with `psql` (stopping at the first error); its rows,
    /// one a line, columns split by `|`, or psql's error.
    pub fn query(&self, db: &str, sql: &str) -> Result<String, String> {
        let out = Command::new(self.program("psql"))
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"])
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER])
            .args(["-d", db, "-c", sql])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run psql: {e}"))?;
        if out.status.success() {
            Ok(crate::stdout(&out))
        } else {
            Err(format!("psql ({}): {}", out.status, crate::stderr(&out)))
        }
    }

    /// Stops the server (a fast shutdown, as `pg_ctl stop -m fast`: clients are
    /// disconnected, what was committed is kept) and waits until it has stopped.
    pub fn stop(&self) {
        let (done, finished) = mpsc::channel();
        if self.orders.send(Order::Stop { done }).is_ok() {
            let _ = finished.recv_timeout(PATIENCE);
        }
    }

    /// Starts the stopped server again, on the same port and data, and waits until it
    /// accepts connections.
    pub fn start(&self) -> Result<(), String> {
        let (done, finished) = mpsc::channel();
        let port = self.port;
        self.orders
            .send(Order::Start { port, done })
            .map_err(|_| "the server's thread has ended".to_string())?;
        finished
            .recv()
            .map_err(|_| "the server's thread has ended".to_string())?
    }

    /// [`Cluster::stop`], then [`Cluster::start`]; panics if it does not start again.
    pub fn restart(&self) {
        self.stop();
        self.start()
            .unwrap_or_else(|e| panic!("PostgreSQL did not start again: {e}"));
    }
}

impl Default for Cluster {
    fn default() -> Cluster {
        Cluster::new()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Then the folder goes with `dir`, and the thread ends with the channel.
        self.stop();
    }
}

/// What the server's thread needs to run it.
struct Server {
    bin: PathBuf,
    dir: PathBuf,
    owner: Option<(libc::uid_t, libc::gid_t)>,
}

impl Server {
    /// The server's thread: carries out the orders until the cluster is dropped.
    fn serve(self, orders: Receiver<Order>) {
        let mut running: Option<Child> = None;
        for order in orders {
            match order {
                Order::Start { port, done } => {
                    let result = match running {
                        Some(_) => Ok(()),
                        None => self.start(port).map(|child| running = Some(child)),
                    };
                    let _ = done.send(result);
                }
                Order::Stop { done } => {
                    if let Some(child) = running.take() {
                        stop(child);
                    }
                    let _ = done.send(());
                }
            }
        }
        if let Some(child) = running.take() {
            stop(child);
        }
    }

    /// Spawns `postgres` (SIGQUIT when this thread ends) and waits until it accepts
    /// connections; its log if it does not.
    fn start(&self, port: u16) -> Result<Child, String> {
        let log_path = self.dir.join("postgres.log");
        let log = std::fs::File::create(&log_path)
            .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
        let mut command = Command::new(self.bin.join("postgres"));
        command
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-p", &port.to_string(), "-h", "127.0.0.1", "-k"])
            .arg(&self.dir)
            .args(["-c", "max_connections=200"])
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        as_owner(&mut command, self.owner);
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(move || {
                // After the change of user, which clears the setting.
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGQUIT) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The spawning process ended before the setting: no signal will come.
                if libc::getppid() != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.bin.join("postgres").display()))?;
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("postgres exited ({status}): {}", self.log()));
            }
            let ready = Command::new(self.bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-p", &port.to_string(), "-U", USER])
                .stdin(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return Ok(child);
            }
            if Instant::now() > deadline {
                stop(child);
                return Err(format!(
                    "postgres did not accept connections: {}",
                    self.log()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The server's log, for an error message.
    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("postgres.log")).unwrap_or_default()
    }
}

/// A fast shutdown (SIGINT), waited for; SIGKILL if it takes too long.
fn stop(mut child: Child) {
    // SAFETY: a signal to our own child, which has not been waited for yet.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if !matches!(child.try_wait(), Ok(None)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The folder of PostgreSQL's programs: that of `initdb` on the PATH (through symbolic
/// links) if `postgres` is beside it, else Debian's `/usr/lib/postgresql/<major>/bin` of
/// the highest major.
fn bin_dir() -> Option<PathBuf> {
    let usable = |dir: &Path| {
        ["initdb", "postgres", "pg_isready", "psql"]
            .iter()
            .all(|p| dir.join(p).is_file())
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let on_path = std::env::split_paths(&path)
        .map(|dir| dir.join("initdb"))
        .filter_map(|initdb| initdb.canonicalize().ok())
        .filter_map(|initdb| initdb.parent().map(Path::to_path_buf))
        .find(|dir| usable(dir));
    on_path.or_else(|| {
        std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|entry| {
                let entry = entry.ok()?;
                let major: u32 = entry.file_name().to_str()?.parse().ok()?;
                Some((major, entry.path().join("bin")))
            })
            .filter(|(_, dir)| usable(dir))
            .max_by_key(|(major, _)| *major)
            .map(|(_, dir)| dir)
    })
}

/// Removes the clusters' folders (`lgame-pg-PID-N`) in `temp` whose process is gone.
fn remove_dead_runs(temp: &Path) {
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix("lgame-pg-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid {
            if !Path::new("/proc").join(pid.to_string()).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// A free port on 127.0.0.1 (free when asked for).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port on 127.0.0.1")
        .port()
}

/// Who runs `initdb` and `postgres`: `None` for this process's user, or, as root, the
/// `postgres` user's ids.
fn owner() -> Option<(libc::uid_t, libc::gid_t)> {
    // SAFETY: geteuid cannot fail; getpwnam's result is read before any other call to it.
    unsafe {
        if libc::geteuid() != 0 {
            return None;
        }
        let user = libc::getpwnam(c"postgres".as_ptr());
        assert!(
            !user.is_null(),
            "initdb and postgres refuse to run as root, and there is no `postgres` user to run \
             them as (Debian's postgresql package creates it): apt-get install postgresql"
        );
        Some(((*user).pw_uid, (*user).pw_gid))
    }
}

/// Makes `command` run as `owner` (if any), set in the child before it executes.
fn as_owner(command: &mut Command, owner: Option<(libc::uid_t, libc::gid_t)>) {
    if let Some((uid, gid)) = owner {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(move || {
                if libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(gid) != 0
                    || libc::setuid(uid) != 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

/// Runs `program` to its end in `dir` as `owner`, its output captured.
fn run(command: &mut Command, dir: &Path, owner: Option<(libc::uid_t, libc::gid_t)>) -> Output {
    as_owner(command, owner);
    let program = command.get_program().to_owned();
    command
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", Path::new(&program).display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The database's name in its URL.
    fn name(url: &str) -> &str {
        url.rsplit('/').next().unwrap()
    }

    /// The server's process id, from its data folder.
    fn postmaster(cluster: &Cluster) -> u32 {
        let pid = std::fs::read_to_string(cluster.dir().join("data/postmaster.pid")).unwrap();
        pid.lines().next().unwrap().parse().unwrap()
    }

    /// Whether the process `pid` is gone (or a zombie, ended but not yet reaped).
    fn gone(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
            stat.rsplit(')')
                .next()
                .unwrap()
                .trim_start()
                .starts_with('Z')
        })
    }

    fn wait_until_gone(pid: u32) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !gone(pid) {
            assert!(
                Instant::now() < deadline,
                "the server {pid} is still running"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn two_databases_of_the_shared_cluster_are_apart_and_reachable_by_their_urls() {
        let cluster = cluster();
        let one = cluster.database("Two Databases!");
        let two = cluster.database("Two Databases!");
        assert_ne!(one, two);
        let prefix = format!(
            "postgres://lgame@127.0.0.1:{}/two_databases__",
            cluster.port()
        );
        for url in [&one, &two] {
            assert!(url.starts_with(&prefix), "{url}");
            // psql by the URL alone, as the server will connect.
            let out = Command::new(cluster.program("psql"))
                .args([
                    "-X",
                    "-A",
                    "-t",
                    "-c",
                    "select current_database(), current_user",
                ])
                .arg(url)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", crate::stderr(&out));
            assert_eq!(crate::stdout(&out), format!("{}|lgame\n", name(url)));
        }
        let write = "create table t (x int); insert into t values (7)";
        cluster.query(name(&one), write).unwrap();
        assert_eq!(
            cluster.query(name(&one), "select x from t"),
            Ok("7\n".into())
        );
        let other = cluster.query(name(&two), "select x from t").unwrap_err();
        assert!(other.contains("\"t\" does not exist"), "{other}");
        // The unix socket is in the cluster's folder.
        let socket = cluster.dir().join(format!(".s.PGSQL.{}", cluster.port()));
        assert!(socket.exists(), "no {}", socket.display());
    }

    #[test]
    fn the_server_runs_as_its_folders_owner_and_never_as_root() {
        use std::os::unix::fs::MetadataExt;
        let cluster = cluster();
        let status = std::fs::read_to_string(format!("/proc/{}/status", postmaster(cluster)));
        let uid: u32 = status
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().next())
            .unwrap()
            .parse()
            .unwrap();
        assert_ne!(uid, 0);
        assert_eq!(uid, std::fs::metadata(cluster.dir()).unwrap().uid());
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            assert_eq!(uid, unsafe { libc::geteuid() });
        }
    }

    #[test]
    fn a_cluster_of_its_own_restarts_with_what_was_committed_and_goes_when_dropped() {
        let own = Cluster::new();
        let url = own.database("restart");
        let db = name(&url);
        own.query(db, "create table t (x int); insert into t values (1)")
            .unwrap();
        let before = postmaster(&own);
        own.stop();
        wait_until_gone(before);
        assert!(
            own.query(db, "select 1").is_err(),
            "stopped, yet it answers"
        );
        own.start().unwrap();
        assert_eq!(own.url(db), url, "the same port");
        assert_eq!(own.query(db, "select x from t"), Ok("1\n".into()));
        own.restart();
        assert_ne!(postmaster(&own), before);
        assert_eq!(own.query(db, "select count(*) from t"), Ok("1\n".into()));
        let (dir, pid) = (own.dir().to_path_buf(), postmaster(&own));
        drop(own);
        wait_until_gone(pid);
        assert!(!dir.exists(), "{} is left", dir.display());
    }

    #[test]
    fn folders_of_dead_runs_are_removed_and_the_others_kept() {
        let temp = TempDir::new("pg-sweep");
        let mut child = Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let live = std::process::id();
        let dirs = [
            (format!("lgame-pg-{dead}-0"), false),
            (format!("lgame-pg-{live}-0"), true),
            ("lgame-pg-other-0".to_string(), true),
            (format!("lgame-x-{dead}-0"), true),
        ];
        for (dir, _) in &dirs {
            std::fs::create_dir_all(temp.join(dir).join("data")).unwrap();
        }
        remove_dead_runs(temp.path());
        for (dir, kept) in &dirs {
            assert_eq!(temp.join(dir).exists(), *kept, "{dir}");
        }
    }

    /// Run by [`the_server_ends_with_the_test_process`] in a process of its own: starts the
    /// shared cluster, says where, then exits or waits to be killed.
    #[test]
    #[ignore = "a child process of the_server_ends_with_the_test_process"]
    fn child_process_with_a_cluster() {
        let Some(how) = std::env::var_os("LGAME_PG_CHILD") else {
            return;
        };
        let cluster = cluster();
        println!(
            "postmaster {} {}",
            postmaster(cluster),
            cluster.dir().display()
        );
        if how == "wait" {
            std::thread::sleep(Duration::from_secs(120));
        }
    }

    #[test]
    fn the_server_ends_with_the_test_process() {
        for how in ["exit", "wait"] {
            let mut child = Command::new(std::env::current_exe().unwrap())
                .args(["--ignored", "--exact", "--nocapture", "--test-threads=1"])
                .arg("postgres::tests::child_process_with_a_cluster")
                .env("LGAME_PG_CHILD", how)
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let lines = crate::lines_of(child.stdout.take().unwrap());
            let said = loop {
                let line = lines.recv_timeout(Duration::from_secs(60)).unwrap();
                // After the harness's "test NAME ... " on the same line.
                if let Some((_, said)) = line.split_once("postmaster ") {
                    break said.to_string();
                }
            };
            let (pid, dir) = said.split_once(' ').unwrap();
            let (pid, dir): (u32, &Path) = (pid.parse().unwrap(), Path::new(dir));
            if how == "wait" {
                assert!(!gone(pid));
                child.kill().unwrap();
            }
            child.wait().unwrap();
            wait_until_gone(pid);
            if how == "wait" {
                // Killed: no exit handler ran; the next run removes the folder.
                assert!(dir.exists());
                remove_dead_runs(dir.parent().unwrap());
            }
            assert!(!dir.exists(), "{} is left ({how})", dir.display());
        }
    }
}
