//! Accepting and serving connections under time and count limits (docs/server.md, "Slow and
//! hostile clients").
//!
//! `axum::serve` waits for a client forever: a request's head sent halfway, a body declared
//! and never sent, an idle keep-alive connection each hold a descriptor until the client
//! leaves, and a graceful stop waits for them all. This module runs its own accept loop over
//! hyper's HTTP/1 connections instead:
//!
//! - a connection holds one of a fixed number of slots, below the descriptor limit, for as long
//!   as its socket is open (a WebSocket too, after the upgrade); beyond that, new connections
//!   wait in the kernel's backlog;
//! - each connection has a watchdog: a head not complete within [`ConnectionLimits::head`] of its first
//!   byte, or no request and no traffic for [`ConnectionLimits::idle`], and the connection is closed.
//!   While every slot is taken, both limits shrink to [`PRESSED_HEAD`], so a connection that
//!   means to ask something (a `/healthz`) gets a slot at once (not zero for the idle: a new
//!   connection is idle until its first bytes are read, and would be closed unread);
//! - bodies are read whole, before the handler, within [`ConnectionLimits::body`], and one declared
//!   over [`MAX_BODY`] is refused at once (413) without reading it;
//! - a stop closes the connections with no request being answered at once, lets the
//!   requests in flight finish and the WebSockets close for up to [`ConnectionLimits::shutdown`], then
//!   drops every connection.
//!
//! These limits are the sockets', not the game's: they run on tokio's monotonic [`Instant`],
//! not on the server's time (`clock::TimeSource`, which every timer of the game reads), so
//! that a test moving the server's time closes no connection, and a connection's watchdog
//! never sees time go back.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::error::ApiError;
use crate::extract::{body_too_large, MAX_BODY};

/// How long a head may take, and a connection stay idle, while every connection slot is
/// taken.
pub const PRESSED_HEAD: Duration = Duration::from_secs(1);

/// Descriptors kept for the rest of the process (the database and its WAL, the runtime,
/// standard streams, the listener) when the connection cap is derived from the limit.
const RESERVED_DESCRIPTORS: u64 = 64;

/// The limits on clients' connections.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// A request's head must arrive within this time of its first byte.
    pub head: Duration,
    /// A request's body must arrive within this time of its head.
    pub body: Duration,
    /// A keep-alive connection with no request and no traffic is closed after this time.
    pub idle: Duration,
    /// Connections open at once (WebSockets included); lowered at start to the descriptor
    /// limit less a reserve.
    pub max_connections: usize,
    /// After a stop is asked, how long requests in flight and WebSockets have to finish
    /// before every connection is dropped.
    pub shutdown: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            head: Duration::from_secs(10),
            body: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            max_connections: 10_000,
            shutdown: Duration::from_secs(10),
        }
    }
}

/// Raises the soft limit on open descriptors to the hard one and answers the soft limit now
/// in force (`None` where it cannot be read).
pub fn raise_descriptor_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct passed.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return None;
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: limit.rlim_max,
                    rlim_max: limit.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit.rlim_cur = limit.rlim_max;
                } else {
                    tracing::warn!(
                        "the descriptor limit stays at {}: {}",
                        limit.rlim_cur,
                        std::io::Error::last_os_error()
                    );
                }
            }
        }
        // RLIM_INFINITY is the largest value: no limit. (`rlim_t` is not u64 everywhere.)
        #[allow(clippy::unnecessary_cast)]
        Some(limit.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    None
}

/// The connection cap: the configured one, below the descriptor limit.
fn connection_cap(configured: usize, descriptors: Option<u64>) -> usize {
    let room = descriptors.map_or(u64::MAX, |d| d.saturating_sub(RESERVED_DESCRIPTORS));
    // At most u32::MAX: a stop waits for them all in one `acquire_many`.
    configured
        .min(usize::try_from(room).unwrap_or(usize::MAX))
        .clamp(1, u32::MAX as usize)
}

/// Serves `router` on `listener` until `shutdown` completes; `stopping` is called then (to
/// tell the WebSockets), and the connections get [`ConnectionLimits::shutdown`] to finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
    stopping: impl FnOnce(),
) {
    let cap = connection_cap(limits.max_connections, raise_descriptor_limit());
    tracing::info!(
        connections = cap,
        head_s = limits.head.as_secs_f64(),
        body_s = limits.body.as_secs_f64(),
        idle_s = limits.idle.as_secs_f64(),
        "accepting"
    );
    let router = router.layer(axum::middleware::from_fn_with_state(limits.body, read_body));
    let slots = Arc::new(Semaphore::new(cap));
    let (pressed_tx, pressed) = watch::channel(false);
    let (closing_tx, closing) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => {
                // The pressure lifts once a tenth of the slots are free, not at each slot
                // freed: every watchdog wakes when it changes.
                let room = slots.available_permits() >= cap / 10;
                pressed_tx.send_if_modified(|pressed| {
                    let lift = *pressed && room;
                    if lift {
                        *pressed = false;
                    }
                    lift
                });
                slot
            }
            Err(_) => {
                // Every slot taken: idle and slow connections make room (their watchdogs
                // see the pressure), and the new ones wait in the kernel's backlog.
                pressed_tx.send_if_modified(|p| !std::mem::replace(p, true));
                tokio::select! {
                    slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
                    () = &mut shutdown => break,
                }
            }
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors or memory, or a connection reset before it was
                    // accepted: wait a little rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Answers go out at once: without TCP_NODELAY a response written in two parts can
        // wait for the client's delayed acknowledgement (tens of milliseconds).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY not set: {e}");
        }
        // Finished connections' results are not kept.
        while connections.try_join_next().is_some() {}
        connections.spawn(connection(
            Tracked::new(stream, slot),
            peer,
            router.clone(),
            limits.clone(),
            pressed.clone(),
            closing.clone(),
        ));
    }
    drop(listener);
    tracing::info!("shutting down");
    stopping();
    closing_tx.send_replace(true);
    // Every slot back: each connection and WebSocket closed.
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let closed = tokio::time::timeout(limits.shutdown, slots.acquire_many(all)).await;
    if closed.is_err() {
        tracing::warn!(
            open = cap - slots.available_permits(),
            "connections still open after {:?}: dropped",
            limits.shutdown
        );
    }
    connections.shutdown().await;
}

/// One connection: HTTP/1 with upgrades, under its watchdog.
async fn connection(
    io: Tracked,
    peer: SocketAddr,
    router: Router,
    limits: ConnectionLimits,
    mut pressed: watch::Receiver<bool>,
    mut closing: watch::Receiver<bool>,
) {
    let activity = io.activity.clone();
    let service = Served {
        inner: TowerToHyperService::new(router),
        peer,
        activity: activity.clone(),
    };
    let conn = hyper::server::conn::http1::Builder::new()
        // The watchdog below times heads (hyper's own limit would also cut idle connections
        // at the head's limit).
        .header_read_timeout(None)
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    let mut conn = std::pin::pin!(conn);
    let mut graceful = false;
    loop {
        // Stopping, a connection with no request being answered is closed at once.
        let limits_now = if graceful {
            (Duration::ZERO, Duration::ZERO)
        } else if *pressed.borrow() {
            (PRESSED_HEAD.min(limits.head), PRESSED_HEAD.min(limits.idle))
        } else {
            (limits.head, limits.idle)
        };
        let deadline = activity.deadline(limits_now.0, limits_now.1);
        tokio::select! {
            served = conn.as_mut() => {
                if let Err(e) = served {
                    tracing::debug!(%peer, "connection: {e}");
                }
                return;
            }
            () = sleep_until(deadline) => {
                // Checked again: the deadline may have moved since it was taken.
                if activity.deadline(limits_now.0, limits_now.1).is_some_and(|d| d <= Instant::now()) {
                    tracing::debug!(%peer, "connection closed: too slow or idle");
                    return;
                }
            }
            () = activity.changed.notified() => {}
            Ok(()) = pressed.changed() => {}
            Ok(()) = closing.changed(), if !graceful => {
                graceful = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Sleeps until `deadline`, or forever without one.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// What a connection is doing, for its watchdog.
#[derive(Debug)]
struct Activity {
    phase: Mutex<Phase>,
    /// Woken when the deadline may come sooner (a head begun, a request answered).
    changed: Notify,
    /// A request was refused with its body unread: close the socket gently (see `linger`).
    linger: AtomicBool,
}

#[derive(Debug, Clone, Copy)]
enum Phase {
    /// No request; the last traffic at that time.
    Idle(Instant),
    /// A head is arriving, its first byte at that time.
    Head(Instant),
    /// That many requests are being answered: no limit here (the body has its own).
    Busy(usize),
}

impl Activity {
    fn new() -> Activity {
        Activity {
            phase: Mutex::new(Phase::Idle(Instant::now())),
            changed: Notify::new(),
            linger: AtomicBool::new(false),
        }
    }

    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Bytes came in (`read`) or went out.
    fn traffic(&self, read: bool) {
        let mut phase = self.phase();
        if let Phase::Idle(_) = *phase {
            let now = Instant::now();
            if read {
                *phase = Phase::Head(now);
                self.changed.notify_one();
            } else {
                *phase = Phase::Idle(now);
            }
        }
    }

    fn request_started(&self) {
        let mut phase = self.phase();
        *phase = match *phase {
            Phase::Busy(n) => Phase::Busy(n + 1),
            _ => Phase::Busy(1),
        };
    }

    fn request_ended(&self) {
        let mut phase = self.phase();
        *phase = match *phase {
            Phase::Busy(n) if n > 1 => Phase::Busy(n - 1),
            _ => {
                self.changed.notify_one();
                Phase::Idle(Instant::now())
            }
        };
    }

    /// When the connection is to be closed, if nothing happens before.
    fn deadline(&self, head: Duration, idle: Duration) -> Option<Instant> {
        match *self.phase() {
            Phase::Idle(since) => Some(since + idle),
            Phase::Head(since) => Some(since + head),
            Phase::Busy(_) => None,
        }
    }
}

/// A client's socket holding its connection slot (the slot is free again when the socket
/// is dropped, after a WebSocket's end too) and telling its [`Activity`].
struct Tracked {
    /// `None` only once dropped (handed to `linger`).
    stream: Option<TcpStream>,
    activity: Arc<Activity>,
    slot: Option<OwnedSemaphorePermit>,
}

impl Tracked {
    fn new(stream: TcpStream, slot: OwnedSemaphorePermit) -> Tracked {
        Tracked {
            stream: Some(stream),
            activity: Arc::new(Activity::new()),
            slot: Some(slot),
        }
    }

    fn stream(&mut self) -> Pin<&mut TcpStream> {
        Pin::new(
            self.stream
                .as_mut()
                .expect("the stream is there until dropped"),
        )
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if !self.activity.linger.load(Ordering::Relaxed) {
            return;
        }
        if let (Some(stream), Ok(runtime)) =
            (self.stream.take(), tokio::runtime::Handle::try_current())
        {
            runtime.spawn(linger(stream, self.slot.take()));
        }
    }
}

/// How long, and how much, a refused request's unread body is still read before its socket
/// closes.
const LINGER_TIME: Duration = Duration::from_secs(1);
const LINGER_BYTES: usize = 1 << 20;

/// Closes a socket whose client may still be sending a body the server refused (413, 408):
/// closed at once with bytes unread, the kernel would reset the connection, and a client
/// still writing its body would see "connection reset" instead of the answer. So the
/// answer's end is signalled (FIN) and what still comes is read and dropped, for at most
/// [`LINGER_TIME`] and [`LINGER_BYTES`] (as web servers' "lingering close" does); the slot
/// stays taken until then.
async fn linger(mut stream: TcpStream, slot: Option<OwnedSemaphorePermit>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = stream.shutdown().await;
    let drain = async {
        let mut buffer = vec![0; 16 * 1024];
        let mut read = 0;
        while read < LINGER_BYTES {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => read += n,
            }
        }
    };
    let _ = tokio::time::timeout(LINGER_TIME, drain).await;
    drop(slot);
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = self.stream().poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.traffic(true);
        }
        polled
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = self.stream().poll_write(cx, data);
        if let Poll::Ready(Ok(n)) = polled {
            if n > 0 {
                self.activity.traffic(false);
            }
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = self.stream().poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = polled {
            if n > 0 {
                self.activity.traffic(false);
            }
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream
            .as_ref()
            .is_some_and(TcpStream::is_write_vectored)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.stream().poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.stream().poll_shutdown(cx)
    }
}

/// The router as hyper calls it: each request given the client's address (`ConnectInfo`)
/// and counted busy for the watchdog until its answer is ready.
#[derive(Clone)]
struct Served {
    inner: TowerToHyperService<Router>,
    peer: SocketAddr,
    activity: Arc<Activity>,
}

impl hyper::service::Service<Request<hyper::body::Incoming>> for Served {
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Self::Error>> + Send>>;

    fn call(&self, mut req: Request<hyper::body::Incoming>) -> Self::Future {
        req.extensions_mut().insert(ConnectInfo(self.peer));
        let busy = Busy::new(self.activity.clone());
        let activity = self.activity.clone();
        let answer = self.inner.call(req);
        Box::pin(async move {
            let answer = answer.await;
            if let Ok(response) = &answer {
                // Only `closing` answers say so: their request's body may be unread.
                if response.headers().get(header::CONNECTION) == Some(&CLOSE) {
                    activity.linger.store(true, Ordering::Relaxed);
                }
            }
            drop(busy);
            answer
        })
    }
}

/// A request being answered (also when its future is dropped unfinished).
struct Busy(Arc<Activity>);

impl Busy {
    fn new(activity: Arc<Activity>) -> Busy {
        activity.request_started();
        Busy(activity)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.request_ended();
    }
}

/// Reads a request's body whole within `limit` before the handler sees it: one declared over
/// [`MAX_BODY`] is refused at once, one that does not arrive in time is refused with 408.
async fn read_body(State(limit): State<Duration>, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return closing(body_too_large());
    }
    let (parts, body) = req.into_parts();
    let bytes = match tokio::time::timeout(limit, read_at_most(body, MAX_BODY)).await {
        Ok(Ok(Some(bytes))) => bytes,
        // Over the limit: a chunked body (the length undeclared).
        Ok(Ok(None)) => return closing(body_too_large()),
        Ok(Err(e)) => {
            return closing(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("reading the body: {e}"),
            ))
        }
        Err(_) => {
            return closing(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s",
                    limit.as_secs_f64()
                ),
            ))
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// The body's bytes, or `None` once they pass `max`.
async fn read_at_most(mut body: Body, max: usize) -> Result<Option<Bytes>, axum::Error> {
    let mut bytes = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        // Trailers are dropped: no endpoint reads them.
        if let Ok(data) = frame?.into_data() {
            if bytes.len() + data.len() > max {
                return Ok(None);
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(Some(Bytes::from(bytes)))
}

/// The `Connection` header of an answer after which the connection closes.
const CLOSE: HeaderValue = HeaderValue::from_static("close");

/// A refusal that ends the connection: the rest of the body is not read (only lingered on).
fn closing(error: ApiError) -> Response {
    let mut response = error.into_response();
    response.headers_mut().insert(header::CONNECTION, CLOSE);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_stays_below_the_descriptor_limit() {
        assert_eq!(connection_cap(10_000, Some(1024)), 960);
        assert_eq!(connection_cap(100, Some(1024)), 100);
        assert_eq!(connection_cap(10_000, None), 10_000);
        assert_eq!(connection_cap(10_000, Some(10)), 1);
    }

    #[tokio::test]
    async fn a_head_is_timed_from_its_first_byte_and_a_request_is_never_timed() {
        let head = Duration::from_secs(10);
        let idle = Duration::from_secs(60);
        let activity = Activity::new();
        let start = Instant::now();
        assert!(activity.deadline(head, idle).unwrap() >= start + idle - Duration::from_secs(1));
        activity.traffic(true);
        let by = activity.deadline(head, idle).unwrap();
        assert!(by <= Instant::now() + head);
        activity.traffic(true);
        assert_eq!(
            activity.deadline(head, idle),
            Some(by),
            "more of the head: same deadline"
        );
        activity.request_started();
        assert_eq!(activity.deadline(head, idle), None);
        activity.traffic(false);
        activity.request_ended();
        assert!(activity.deadline(head, idle).unwrap() > Instant::now() + head);
    }
}
