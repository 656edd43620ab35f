//! Requests per client: the limits on games created, analysis requests, sign-ups and
//! failed log-ins, and on every other call that changes something — arenas joined and
//! left, seeks, challenges, tokens, invitations, the account's changes — per account and
//! per address ([`Action`], the table of docs/server.md, "Limits on what changes").

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::store::Holder;

/// Requests per key (a client address, or an account and an address): a token bucket for
/// each, holding at most `capacity` requests and refilled at `capacity` a `period`, so that
/// a burst of a period's worth passes and then one every `period / capacity`. Games
/// created, analysis requests, sign-ups and failed log-ins each have their own. Every call
/// is at `now_ms`, the server's time (`games.time`): a test that moves it refills the
/// buckets as that time would.
pub struct RateLimiter<K = IpAddr> {
    capacity: u32,
    period: Duration,
    /// What is counted, for the refusal: `games created`.
    what: &'static str,
    /// Whose count it is, for the refusal: `this address`.
    whose: &'static str,
    buckets: Mutex<HashMap<K, Bucket>>,
}

/// Requests a key may still make (fractions count as they refill), as of `at_ms`.
struct Bucket {
    tokens: f64,
    at_ms: i64,
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
            whose: "this address",
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The same limit, counted for `whose` (`this account`), as its refusal says.
    pub fn whose(self, whose: &'static str) -> RateLimiter<K> {
        RateLimiter { whose, ..self }
    }

    /// Looks at the key's bucket at `now_ms`: takes one request from it if `take`, or says
    /// how long until there is one.
    fn bucket(&self, key: K, take: bool, now_ms: i64) -> Result<(), Duration> {
        if self.capacity == 0 {
            return Ok(());
        }
        let full = f64::from(self.capacity);
        let per_second = full / self.period.as_secs_f64();
        let refilled = |b: &Bucket| {
            let elapsed_s = (now_ms - b.at_ms).max(0) as f64 / 1000.0;
            (b.tokens + elapsed_s * per_second).min(full)
        };
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // A full bucket is the same as none.
            buckets.retain(|_, b| refilled(b) < full);
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: full,
            at_ms: now_ms,
        });
        bucket.tokens = refilled(bucket);
        bucket.at_ms = bucket.at_ms.max(now_ms);
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
        crate::telemetry::refused(self.what);
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        let period = match self.period.as_secs() {
            60 => "a minute".to_string(),
            3600 => "an hour".to_string(),
            s => format!("in {s} s"),
        };
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many {} from {}: at most {} {period}; retry in {seconds} s",
                self.what, self.whose, self.capacity
            ),
        )
        .retry_after(seconds)
    }

    /// Counts a request of `key` at `now_ms`, or refuses it: 429 with `Retry-After`.
    pub fn check(&self, key: K, now_ms: i64) -> Result<(), ApiError> {
        self.bucket(key, true, now_ms)
            .map_err(|wait| self.refusal(wait))
    }

    /// Refuses (429) if the key has none left at `now_ms`, counting nothing: for what is
    /// counted only afterwards (a failed log-in, a sign-up made).
    pub fn check_left(&self, key: K, now_ms: i64) -> Result<(), ApiError> {
        self.bucket(key, false, now_ms)
            .map_err(|wait| self.refusal(wait))
    }

    /// Counts one for the key at `now_ms`, afterwards (it may be past the limit then).
    pub fn count(&self, key: K, now_ms: i64) {
        let _ = self.bucket(key, true, now_ms);
    }
}

/// What a call that changes something is counted as: each its own limit, per account (or
/// browser) and per address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Arenas made, joined and left.
    Arenas,
    /// Seeks and quick pairing's tickets made, taken and withdrawn.
    Seeks,
    /// Challenges made, answered and withdrawn.
    Challenges,
    /// API tokens made and revoked.
    Tokens,
    /// Invitations made, seats taken.
    Invitations,
    /// The account's changes: its password, its other sessions ended, made a bot, closed.
    Account,
}

impl Action {
    pub const ALL: [Action; 6] = [
        Action::Arenas,
        Action::Seeks,
        Action::Challenges,
        Action::Tokens,
        Action::Invitations,
        Action::Account,
    ];

    /// Its name, as `--action-limit` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Action::Arenas => "arenas",
            Action::Seeks => "seeks",
            Action::Challenges => "challenges",
            Action::Tokens => "tokens",
            Action::Invitations => "invitations",
            Action::Account => "account",
        }
    }

    /// Calls one account (or browser) may make a minute by default; an address may make
    /// four times as many (`ADDRESS_FACTOR`: a school or a household shares one).
    pub fn default_per_minute(self) -> u32 {
        match self {
            Action::Arenas => 20,
            Action::Seeks => 30,
            Action::Challenges => 30,
            Action::Tokens => 10,
            Action::Invitations => 20,
            Action::Account => 10,
        }
    }

    /// The calls counted: method and route.
    pub fn routes(self) -> &'static [(Method, &'static str)] {
        match self {
            Action::Arenas => &[
                (Method::POST, "/api/arenas"),
                (Method::POST, "/api/arenas/{id}/join"),
                (Method::POST, "/api/arenas/{id}/leave"),
            ],
            Action::Seeks => &[
                (Method::POST, "/api/seeks"),
                (Method::DELETE, "/api/seeks/{id}"),
                (Method::POST, "/api/seeks/{id}/accept"),
                (Method::POST, "/api/pairing"),
                (Method::DELETE, "/api/pairing/{ticket}"),
            ],
            Action::Challenges => &[
                (Method::POST, "/api/challenges/{id}"),
                (Method::DELETE, "/api/challenges/{id}"),
                (Method::POST, "/api/challenges/{id}/accept"),
                (Method::POST, "/api/challenges/{id}/decline"),
            ],
            Action::Tokens => &[
                (Method::POST, "/api/account/tokens"),
                (Method::DELETE, "/api/account/tokens/{id}"),
            ],
            Action::Invitations => &[
                (Method::POST, "/api/games/{id}/invitation"),
                (Method::POST, "/api/games/{id}/seat"),
            ],
            Action::Account => &[
                (Method::POST, "/api/account/password"),
                (Method::POST, "/api/account/email"),
                (Method::DELETE, "/api/account/sessions"),
                (Method::DELETE, "/api/account/sessions/{id}"),
                (Method::POST, "/api/account/bot"),
                (Method::DELETE, "/api/account"),
                (Method::PUT, "/api/account/mail"),
                (Method::POST, "/api/push/subscriptions"),
                (Method::DELETE, "/api/push/subscriptions"),
            ],
        }
    }

    /// The action a call is, if it is counted.
    pub fn of(method: &Method, route: &str) -> Option<Action> {
        Action::ALL
            .into_iter()
            .find(|a| a.routes().iter().any(|(m, r)| m == method && *r == route))
    }
}

impl std::str::FromStr for Action {
    type Err = String;

    fn from_str(name: &str) -> Result<Action, String> {
        Action::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
                format!("'{name}' is no action: one of {}", names.join(", "))
            })
    }
}

/// An address may make this many times an account's calls.
pub const ADDRESS_FACTOR: u32 = 4;

/// The limits on calls that change something: per minute, per account; 0: none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionLimits(pub std::collections::BTreeMap<Action, u32>);

impl Default for ActionLimits {
    fn default() -> ActionLimits {
        ActionLimits(
            Action::ALL
                .into_iter()
                .map(|a| (a, a.default_per_minute()))
                .collect(),
        )
    }
}

impl ActionLimits {
    /// The same with `action`'s limit set (per account per minute; 0: none).
    pub fn with(mut self, action: Action, per_minute: u32) -> ActionLimits {
        self.0.insert(action, per_minute);
        self
    }
}

/// Counts the calls that change something, per action: per account (or browser) and per
/// address.
pub struct Actions(HashMap<Action, (RateLimiter<Holder>, RateLimiter<IpAddr>)>);

impl Actions {
    pub fn new(limits: &ActionLimits) -> Actions {
        let minute = Duration::from_secs(60);
        Actions(
            limits
                .0
                .iter()
                .map(|(action, &n)| {
                    let what = match action {
                        Action::Arenas => "arena calls",
                        Action::Seeks => "seek calls",
                        Action::Challenges => "challenge calls",
                        Action::Tokens => "token calls",
                        Action::Invitations => "invitation calls",
                        Action::Account => "account changes",
                    };
                    let per_account = RateLimiter::per(n, minute, what).whose("this account");
                    let per_address =
                        RateLimiter::per(n.saturating_mul(ADDRESS_FACTOR), minute, what);
                    (*action, (per_account, per_address))
                })
                .collect(),
        )
    }

    /// Counts a call of `action` by `holder` (if any) from `address` at `now_ms`, or
    /// refuses it: 429 with `Retry-After`. Both counts are checked before either is taken.
    pub fn check(
        &self,
        action: Action,
        holder: Option<&Holder>,
        address: IpAddr,
        now_ms: i64,
    ) -> Result<(), ApiError> {
        let Some((per_account, per_address)) = self.0.get(&action) else {
            return Ok(());
        };
        if let Some(holder) = holder {
            per_account.check_left(holder.clone(), now_ms)?;
        }
        per_address.check(address, now_ms)?;
        if let Some(holder) = holder {
            per_account.count(holder.clone(), now_ms);
        }
        Ok(())
    }
}

/// Before the handlers of the calls that change something: counted, or refused (429).
pub async fn limit_actions(
    State(shared): State<crate::api::Shared>,
    route: Option<MatchedPath>,
    req: Request,
    next: Next,
) -> Response {
    let action = route.and_then(|r| Action::of(req.method(), r.as_str()));
    if let Some(action) = action {
        let caller = req.extensions().get::<crate::identity::Caller>();
        let holder = caller.and_then(|c| c.holder());
        let address = caller.map_or(IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED), |c| {
            crate::connections::address_key(c.client())
        });
        let now = shared.games.time.now_ms();
        if let Err(refused) = shared.actions.check(action, holder.as_ref(), address, now) {
            return refused.into_response();
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_counted_call_is_a_route_of_the_api() {
        let doc: serde_json::Value = serde_json::from_str(crate::openapi::json()).unwrap();
        // A route's parameters named as the document names them.
        let shape = |route: &str| {
            route
                .split('/')
                .map(|part| if part.starts_with('{') { "{}" } else { part })
                .collect::<Vec<_>>()
                .join("/")
        };
        let paths = doc["paths"].as_object().unwrap();
        for action in Action::ALL {
            for (method, route) in action.routes() {
                let method_name = method.as_str().to_lowercase();
                let documented = paths.iter().any(|(path, ops)| {
                    shape(path) == shape(route) && ops[&method_name].is_object()
                });
                assert!(documented, "{method} {route} ({})", action.name());
                assert_eq!(Action::of(method, route), Some(action));
            }
            assert_eq!(action.name().parse(), Ok(action));
        }
        assert!(Action::of(&Method::GET, "/api/arenas").is_none());
        assert!("arena".parse::<Action>().is_err());
    }

    #[test]
    fn an_account_and_its_address_are_counted_apart() {
        let actions = Actions::new(&ActionLimits::default().with(Action::Tokens, 2));
        let u = Holder::Account;
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..2 {
            actions.check(Action::Tokens, Some(&u(1)), ip, 0).unwrap();
        }
        let refused = actions
            .check(Action::Tokens, Some(&u(1)), ip, 0)
            .unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.retry_after.is_some());
        assert!(
            refused.body.error.contains("this account"),
            "{}",
            refused.body.error
        );
        // The address's count was not taken by the refusal: 8 in all, 2 taken so far.
        for holder in [2, 2, 3, 3, 4, 4] {
            actions
                .check(Action::Tokens, Some(&u(holder)), ip, 0)
                .unwrap();
        }
        let refused = actions
            .check(Action::Tokens, Some(&u(5)), ip, 0)
            .unwrap_err();
        assert!(
            refused.body.error.contains("this address"),
            "{}",
            refused.body.error
        );
        // None: no limit.
        let free = Actions::new(&ActionLimits::default().with(Action::Tokens, 0));
        for _ in 0..100 {
            free.check(Action::Tokens, Some(&u(1)), ip, 0).unwrap();
        }
    }

    #[test]
    fn a_bucket_refills_by_the_time_it_is_given() {
        let limiter: RateLimiter = RateLimiter::new(2, "games created");
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let at = 1_000_000;
        limiter.check(ip, at).unwrap();
        limiter.check(ip, at).unwrap();
        let refused = limiter.check(ip, at).unwrap_err();
        assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(refused.retry_after, Some(30));
        // Two a minute: one more about 30 s later by the time given, whatever the wall clock.
        assert!(limiter.check(ip, at + 29_000).is_err());
        limiter.check(ip, at + 31_000).unwrap();
        assert!(limiter.check(ip, at + 31_000).is_err());
        // A time before the last one refills nothing.
        assert!(limiter.check(ip, at).is_err());
    }
}
