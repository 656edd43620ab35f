//! The server's metrics, in Prometheus' text format on an address of their own
//! (`--metrics-addr`; nothing on the public one), and the ids of its requests.
//!
//! Recorded through the `metrics` facade where they happen (requests here, commits in the
//! store, refusals in the limits), so no registry is handed down the layers; what a feature
//! already holds (games in memory, open seeks, clocks, sockets, solves) is read from it at
//! each scrape. Without `--metrics-addr` no recorder is installed and recording costs a
//! check of a global. The names and what they count: docs/deploy.md, "Metrics and logs".

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::api::Shared;

/// Latencies' buckets, in seconds: from a commit's or a cached answer's fraction of a
/// millisecond to a table solved in seconds.
const SECONDS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

/// Changes in one commit: one alone, up to the writer's largest batch.
const BATCH: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// The recorder, installed once in the process (a second server in it shares it).
static RECORDER: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process's recorder (once), and says what each metric is.
pub fn install() -> anyhow::Result<PrometheusHandle> {
    if let Some(handle) = RECORDER.get() {
        return Ok(handle.clone());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)?
        .set_buckets_for_metric(Matcher::Full("lgame_store_batch_changes".into()), BATCH)?
        .install_recorder()?;
    describe();
    Ok(RECORDER.get_or_init(|| handle).clone())
}

fn describe() {
    describe_counter!(
        "lgame_http_requests_total",
        "Requests answered, by method, route (the API's path pattern) and status"
    );
    describe_histogram!(
        "lgame_http_request_duration_seconds",
        "Time from a request's head to its answer's head, by method, route and status"
    );
    describe_counter!(
        "lgame_limit_refusals_total",
        "Requests refused by a limit, by which limit"
    );
    describe_histogram!(
        "lgame_store_commit_seconds",
        "Time the database's writer took to write and commit one batch"
    );
    describe_histogram!("lgame_store_batch_changes", "Changes written in one commit");
    describe_gauge!(
        "lgame_games_in_memory",
        "Games held in memory (being played or watched)"
    );
    describe_gauge!("lgame_sockets_open", "WebSockets and streams open");
    describe_gauge!("lgame_seeks_open", "Open seeks in the lobby");
    describe_gauge!("lgame_pairing_waits", "Players waiting in quick pairing");
    describe_gauge!(
        "lgame_clocks_running",
        "Games whose clock is running, in the database (every instance's)"
    );
    describe_gauge!("lgame_tables_solving", "Solved tables being solved now");
    describe_counter!("lgame_table_solves_total", "Tables solved since the start");
    describe_gauge!(
        "lgame_solver_turns_busy",
        "Turns to solve a table for an analysis taken now"
    );
}

/// A request answered: counted, and its time, by method, route and status.
pub fn request(method: &str, route: &str, status: u16, took: Duration) {
    let labels = [
        ("method", method.to_string()),
        ("route", route.to_string()),
        ("status", status.to_string()),
    ];
    counter!("lgame_http_requests_total", &labels).increment(1);
    histogram!("lgame_http_request_duration_seconds", &labels).record(took.as_secs_f64());
}

/// A request refused by `limit` (the limit's own words: `games created`).
pub fn refused(limit: &'static str) {
    counter!("lgame_limit_refusals_total", "limit" => limit).increment(1);
}

/// A new request's id: this process's random prefix and a count, unique across instances
/// and restarts without a random draw per request.
pub fn request_id() -> String {
    static PREFIX: OnceLock<String> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let prefix = PREFIX.get_or_init(|| crate::secret::random_hex(4).unwrap_or_default());
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The metrics' own router: `GET /metrics`.
pub fn router(shared: Shared, handle: PrometheusHandle) -> Router {
    Router::new()
        .route("/metrics", get(scrape))
        .with_state((shared, handle))
}

/// The metrics now, in Prometheus' text format, with what the features hold read first.
async fn scrape(State((shared, handle)): State<(Shared, PrometheusHandle)>) -> impl IntoResponse {
    let games = &shared.games;
    gauge!("lgame_games_in_memory").set(games.cached_games() as f64);
    gauge!("lgame_sockets_open").set(shared.connections.count() as f64);
    let (seeks, tickets) = shared.lobby.open_counts();
    gauge!("lgame_seeks_open").set(seeks as f64);
    gauge!("lgame_pairing_waits").set(tickets as f64);
    match crate::flags::clocks_running(&games.store).await {
        Ok(clocks) => gauge!("lgame_clocks_running").set(clocks as f64),
        Err(e) => tracing::warn!(error = %e, "counting the clocks for the metrics"),
    }
    let tables = games.tablebases.stats();
    gauge!("lgame_tables_solving").set(tables.solving as f64);
    counter!("lgame_table_solves_total").absolute(tables.solves);
    let turns = crate::tables::solvers();
    gauge!("lgame_solver_turns_busy")
        .set(turns.saturating_sub(shared.solvers.available_permits()) as f64);
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
}

/// Serves the metrics on `listener` until `stop` turns true.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let stopped = async move {
        let _ = stop.wait_for(|stopping| *stopping).await;
    };
    if let Err(e) = axum::serve(listener, router)
        .with_graceful_shutdown(stopped)
        .await
    {
        tracing::warn!(error = %e, "the metrics' listener");
    }
}
