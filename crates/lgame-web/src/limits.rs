//! Requests per client address: the limits on games created and on analysis requests.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use crate::error::ApiError;

/// Requests per client address: a token bucket for each, holding at most `per_minute`
/// requests and refilled at `per_minute` a minute, so that a burst of a minute's worth
/// passes and then one every `60 / per_minute` seconds. Games created, and analysis and
/// classes requests, each have their own.
pub struct RateLimiter {
    per_minute: u32,
    /// What is counted, for the refusal: `games created`.
    what: &'static str,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// Requests an address may still make (fractions count as they refill), as of `at`.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimiter {
    /// At most `per_minute` `what` a minute from one address; 0: no limit.
    pub fn new(per_minute: u32, what: &'static str) -> RateLimiter {
        RateLimiter {
            per_minute,
            what,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from the address's bucket, or says how long until there is one.
    fn take(&self, ip: IpAddr) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let full = f64::from(self.per_minute);
        let per_second = full / 60.0;
        let now = Instant::now();
        let refilled =
            |b: &Bucket| (b.tokens + now.duration_since(b.at).as_secs_f64() * per_second).min(full);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // A full bucket is the same as none.
            buckets.retain(|_, b| refilled(b) < full);
        }
        let bucket = buckets.entry(ip).or_insert(Bucket {
            tokens: full,
            at: now,
        });
        bucket.tokens = refilled(bucket);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }

    /// Counts a request from `ip`, or refuses it: 429 with `Retry-After`.
    pub fn check(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.take(ip).map_err(|wait| {
            let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many {} from this address: at most {} a minute; retry in {seconds} s",
                    self.what, self.per_minute
                ),
            )
            .retry_after(seconds)
        })
    }
}
