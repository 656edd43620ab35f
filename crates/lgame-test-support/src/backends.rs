//! The server's two databases, for the tests that run on both: SQLite (a file in the
//! test's folder) and PostgreSQL (a fresh database in the throwaway cluster of
//! [`crate::postgres`]).

use crate::TempDir;

/// Where a test's server keeps its games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// A fresh, empty database for the test whose folder is `dir`, as `lgame serve --db`
    /// takes it: `games.db` in the folder, or the URL of a new PostgreSQL database.
    pub fn database(self, dir: &TempDir) -> String {
        match self {
            Backend::Sqlite => dir.db().display().to_string(),
            Backend::Postgres => {
                let hint = dir.path().file_name().map(|n| n.to_string_lossy());
                crate::postgres::cluster().database(hint.as_deref().unwrap_or("test"))
            }
        }
    }
}

/// Runs each named test function, which takes a [`Backend`], on both backends: a module per
/// function, with the tests `sqlite` and `postgres` (`cargo test name::postgres`).
#[macro_export]
macro_rules! on_both_backends {
    ($($test:ident),+ $(,)?) => {
        $(
            mod $test {
                #[test]
                fn sqlite() {
                    super::$test($crate::backends::Backend::Sqlite)
                }

                #[test]
                fn postgres() {
                    super::$test($crate::backends::Backend::Postgres)
                }
            }
        )+
    };
}
