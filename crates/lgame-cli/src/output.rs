//! Failures with their exit codes.

use std::io::{self, Write};
use std::process::ExitCode;

/// Why the command failed, and so how it exits.
#[derive(Debug)]
pub enum Failure {
    /// Unreadable input: a bad position, move text or variant (exit 2).
    BadInput(anyhow::Error),
    /// A readable move that the rules forbid (exit 1).
    Illegal(anyhow::Error),
    /// Output could not be written (exit 1).
    Io(io::Error),
    /// Said by another process, with this exit code: rank 0 of an MPI run reports for every
    /// rank, whose failures are the same or follow from its own.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    ReportedElsewhere(u8),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

impl Failure {
    /// Prints the message to stderr, `error: ` first, and gives the exit code. A closed
    /// pipe (`lgame moves standard | head -1`) is not an error.
    pub fn report(self) -> ExitCode {
        let (message, code) = match self {
            Failure::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
            // `{:#}` joins the context chain: "position 'xyz': expected 4 to 8 rows ...".
            Failure::BadInput(e) => (format!("{e:#}"), 2),
            Failure::Illegal(e) => (format!("{e:#}"), 1),
            Failure::Io(e) => (format!("writing the output: {e}"), 1),
            Failure::ReportedElsewhere(code) => return ExitCode::from(code),
        };
        // Nothing more can be done if stderr is gone too.
        let _ = writeln!(io::stderr().lock(), "error: {message}");
        ExitCode::from(code)
    }
}
