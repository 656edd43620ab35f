//! The game server (`lgame_web::Server`) in the test's own process: bound to a free loopback
//! port, served by a tokio runtime on a thread of its own, stopped when dropped.

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use lgame_web::{Config, Database};
use tokio::sync::oneshot;

use crate::http::Client;
use crate::TempDir;

/// How long starting and stopping may take.
const LIMIT: Duration = Duration::from_secs(30);

/// A running server on its own database, stopped (gracefully: its WebSockets closed, the
/// requests in flight answered) when dropped; its API through [`Client`] (`Deref`).
pub struct Server {
    client: Client,
    stop: Option<oneshot::Sender<()>>,
    stopped: Mutex<mpsc::Receiver<()>>,
}

impl Server {
    /// A server with the defaults of `lgame serve` on `db` (an SQLite file's path or a
    /// PostgreSQL URL, as `--db` takes them).
    pub fn start(db: impl AsRef<OsStr>) -> Server {
        Server::with(db, |_| {})
    }

    /// A server with the defaults on a fresh SQLite file in a temporary directory of its
    /// own (`lgame-NAME-…`), which is returned with it: keep it while the server runs.
    pub fn in_temp_dir(name: &str) -> (TempDir, Server) {
        let dir = TempDir::new(name);
        let server = Server::start(dir.db());
        (dir, server)
    }

    /// A server on `db` whose configuration `adjust` changes first (`create_limit`,
    /// `max_websockets`, …; the address is a free loopback port).
    pub fn with(db: impl AsRef<OsStr>, adjust: impl FnOnce(&mut Config)) -> Server {
        let db = db.as_ref();
        let db: Database = match db.to_str() {
            Some(text) => text.parse().expect("a database path or URL"),
            None => Database::Sqlite(PathBuf::from(db)),
        };
        let mut config = Config::new(([127, 0, 0, 1], 0).into(), db);
        adjust(&mut config);
        let (ready, bound) = mpsc::channel();
        let (stop, shutdown) = oneshot::channel::<()>();
        let (done, stopped) = mpsc::channel();
        std::thread::Builder::new()
            .name("lgame-web".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .enable_all()
                    .build()
                    .expect("a tokio runtime");
                runtime.block_on(async move {
                    let server = match lgame_web::Server::bind(config).await {
                        Ok(server) => server,
                        Err(e) => {
                            let _ = ready.send(Err(format!("{e:#}")));
                            return;
                        }
                    };
                    let _ = ready.send(server.local_addr().map_err(|e| e.to_string()));
                    let served = server
                        .run(async move {
                            let _ = shutdown.await;
                        })
                        .await;
                    if let Err(e) = served {
                        eprintln!("the server failed: {e}");
                    }
                });
                runtime.shutdown_timeout(LIMIT);
                let _ = done.send(());
            })
            .expect("a thread for the server");
        let addr = match bound.recv_timeout(LIMIT) {
            Ok(Ok(addr)) => addr,
            Ok(Err(e)) => panic!("the server did not start: {e}"),
            Err(e) => panic!("the server did not start within {LIMIT:?}: {e}"),
        };
        Server {
            client: Client::new(addr.to_string()),
            stop: Some(stop),
            stopped: Mutex::new(stopped),
        }
    }
}

impl Deref for Server {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // Its database is closed before the test removes the directory holding it; a server
        // that does not stop is left to the end of the process (and the test goes on).
        let stopped = self.stopped.get_mut().unwrap_or_else(|e| e.into_inner());
        if stopped.recv_timeout(LIMIT).is_err() {
            eprintln!("the server did not stop within {LIMIT:?}");
        }
    }
}
