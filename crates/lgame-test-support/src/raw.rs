//! HTTP written and read by hand on a socket: for clients no library would be (a head sent
//! halfway, a body declared and never sent) and for seeing when the server closes.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The start of a request's head, never finished (no blank line).
pub const HALF_A_HEAD: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: x\r\n";

/// Connects to `addr` and sends `bytes`.
pub fn send(addr: &str, bytes: &[u8]) -> TcpStream {
    let mut stream =
        TcpStream::connect(addr).unwrap_or_else(|e| panic!("connecting to {addr}: {e}"));
    stream.write_all(bytes).unwrap();
    stream
}

/// A GET of `path` sent as it is written, byte for byte (an HTTP client would resolve `..`
/// first), on a connection of its own closed after the answer: the status and the whole
/// answer, head and body, as text.
pub fn get(addr: &str, path: &str) -> (u16, String) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let mut stream = send(addr, request.as_bytes());
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {text}"));
    (status, text)
}

/// A connection that sent [`HALF_A_HEAD`] and goes quiet.
pub fn half_sent(addr: &str) -> TcpStream {
    send(addr, HALF_A_HEAD)
}

/// A response read within `limit`: its status and body (by `Content-Length`; to the end
/// without one), or `None` when the connection closed or the time ran out first.
pub fn read_response(stream: &mut TcpStream, limit: Duration) -> Option<(u16, String)> {
    let deadline = Instant::now() + limit;
    let mut bytes = Vec::new();
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if !read_some(stream, &mut bytes, deadline) {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let status = head.split(' ').nth(1)?.parse().ok()?;
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())?
    });
    loop {
        let body = &bytes[head_end..];
        if length.is_some_and(|n| body.len() >= n) {
            break;
        }
        if !read_some(stream, &mut bytes, deadline) {
            if length.is_some() {
                return None;
            }
            break;
        }
    }
    let end = length.map_or(bytes.len(), |n| head_end + n);
    Some((
        status,
        String::from_utf8_lossy(&bytes[head_end..end]).into_owned(),
    ))
}

/// Whether the server closes the connection (end of stream or a reset) within `limit`;
/// anything it sends before is read and dropped.
pub fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    let mut sink = Vec::new();
    while read_some(stream, &mut sink, deadline) {}
    Instant::now() < deadline
}

/// Reads what comes before `deadline` onto `bytes`: false at the end of the stream, on an
/// error, or at the deadline.
fn read_some(stream: &mut TcpStream, bytes: &mut Vec<u8>, deadline: Instant) -> bool {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return false;
    }
    stream.set_read_timeout(Some(left)).unwrap();
    let mut buf = [0; 4096];
    match stream.read(&mut buf) {
        Ok(0) => false,
        Ok(n) => {
            bytes.extend_from_slice(&buf[..n]);
            true
        }
        Err(e) if e.kind() == ErrorKind::Interrupted => true,
        Err(_) => false,
    }
}
