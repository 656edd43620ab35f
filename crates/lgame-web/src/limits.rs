//! Requests per client: the limits on games created, analysis requests, sign-ups and
//! failed log-ins.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use crate::error::ApiError;

/// Requests per key (a client address, or an account and an address): a token bucket for
/// each, holding at most `capacity` requests and refilled at `capacity` a `period`, so that
/// a burst of a period's worth passes and then one every `period / capacity`. Games
/// created, analysis requests, sign-ups and failed log-ins each have their own.
pub struct RateLimiter<K = IpAddr> {
    capacity: u32,
    period: Duration,
    /// What is counted, for the refusal: `games created`.
    what: &'static str,
    buckets: Mutex<HashMap<K, Bucket>>,
}

/// Requests a key may still make (fractions count as they refill), as of `at`.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimiter<IpAddr> {
    /// At most `per_minute` `what` a minute from one address; 0: no limit.
    pub fn new(per_minute: u32, what: &'static str) -> RateLimiter {
        RateLimiter::per(per_minute, Duration::from_secs(60), what)
    }
}

impl<K: Hash + Eq> RateLimiter<K> {
    /// At most `capacity` `what` a `period` per key; 0: no limit.
    pub fn per(capacity: u32, period: Duration, what: &'static str) -> RateLimiter<K> {
        RateLimiter {
            capacity,
            period,
            what,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Looks at the key's bucket: takes one request from it if `take`, or says how long
    /// until there is one.
    fn bucket(&self, key: K, take: bool) -> Result<(), Duration> {
        if self.capacity == 0 {
            return Ok(());
        }
        let full = f64::from(self.capacity);
        let per_second = full / self.period.as_secs_f64();
        let now = Instant::now();
        let refilled =
            |b: &Bucket| (b.tokens + now.duration_since(b.at).as_secs_f64() * per_second).min(full);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // A full bucket is the same as none.
            buckets.retain(|_, b| refilled(b) < full);
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: full,
            at: now,
        });
        bucket.tokens = refilled(bucket);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            if take {
                bucket.tokens -= 1.0;
            }
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }

    /// The refusal when the key's bucket is empty: 429 with `Retry-After`.
    fn refusal(&self, wait: Duration) -> ApiError {
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        let period = match self.period.as_secs() {
            60 => "a minute".to_string(),
            3600 => "an hour".to_string(),
            s => format!("in {s} s"),
        };
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many {} from this address: at most {} {period}; retry in {seconds} s",
                self.what, self.capacity
            ),
        )
        .retry_after(seconds)
    }

    /// Counts a request of `key`, or refuses it: 429 with `Retry-After`.
    pub fn check(&self, key: K) -> Result<(), ApiError> {
        self.bucket(key, true).map_err(|wait| self.refusal(wait))
    }

    /// Refuses (429) if the key has none left, counting nothing: for what is counted only
    /// afterwards (a failed log-in, a sign-up made).
    pub fn check_left(&self, key: K) -> Result<(), ApiError> {
        self.bucket(key, false).map_err(|wait| self.refusal(wait))
    }

    /// Counts one for the key, afterwards (it may be past the limit then).
    pub fn count(&self, key: K) {
        let _ = self.bucket(key, true);
    }
}
