//! The long connections — WebSockets and NDJSON streams — open at once, per client
//! (docs/server.md, "Connections per client"): at most `max` in all, `per_address` from one
//! address (an IPv6 address counted by its /64) and `per_identity` for one identity (an
//! account, or a browser's anonymous identity). One client can never take every place:
//! past its own limit it is refused (429 `too_many_connections`) while others still come
//! in. A player's connection to a game they hold a seat of is always admitted: it takes
//! the place of the same client's oldest connection (one that is no seat's first), so that
//! nobody is ever absent from their own game because someone else filled the server.
//!
//! The same register ends a connection when what it was opened with is revoked: a token, a
//! session, an account disabled or closed ([`Connections::close_where`], and
//! [`sweep`] once every [`SWEEP_EVERY`] against the database, for what other instances or
//! `lgame admin` revoked).

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::watch;

use crate::error::ApiError;
use crate::games::{GameError, Games};
use crate::identity::Caller;
use crate::store::Holder;

/// How often the open connections' sessions and tokens are checked against the database.
pub const SWEEP_EVERY: Duration = Duration::from_millis(500);

/// How many long connections are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    /// In all (past it, only a seat's connection is admitted).
    pub max: usize,
    /// From one client address (an IPv6 /64).
    pub per_address: usize,
    /// For one account or one browser.
    pub per_identity: usize,
}

impl Default for StreamLimits {
    fn default() -> StreamLimits {
        StreamLimits {
            max: 1000,
            per_address: 64,
            per_identity: 16,
        }
    }
}

/// Who holds a connection.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Client {
    /// The client's address as counted (an IPv6 address's /64).
    pub address: Option<IpAddr>,
    /// Its account's or browser's holder.
    pub identity: Option<Holder>,
    /// The hash of the session it was opened with.
    pub session: Option<String>,
    /// The hash of the API token it was opened with.
    pub token: Option<String>,
}

impl Client {
    /// The caller of a request, as counted.
    pub fn of(caller: &Caller) -> Client {
        let logged_in = caller.logged_in.as_ref();
        Client {
            address: Some(address_key(caller.client())),
            identity: caller.holder(),
            session: logged_in
                .filter(|l| !caller.by_token && !l.id_hash.is_empty())
                .map(|l| l.id_hash.clone()),
            token: caller.token_hash.clone(),
        }
    }
}

/// An address as the limit counts it: IPv4 as it is, IPv6 by its /64 (one subscriber's
/// network, which holds as many addresses as it likes).
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(bits.into())
            }
        },
    }
}

struct Open {
    client: Client,
    /// A player's connection to their own game.
    seat: bool,
    close: watch::Sender<bool>,
}

/// The long connections open on this instance.
pub struct Connections {
    limits: StreamLimits,
    /// By the order they were opened: the first is the oldest.
    open: Mutex<(u64, BTreeMap<u64, Open>)>,
}

/// A connection's place, given back when dropped. `closed` turns true when the server ends
/// it (revoked, or displaced by a seat's connection).
pub struct Place {
    id: u64,
    connections: Arc<Connections>,
    pub closed: watch::Receiver<bool>,
}

impl Drop for Place {
    fn drop(&mut self) {
        self.connections.lock().1.remove(&self.id);
    }
}

/// Why a connection was refused.
fn too_many(whose: &str, limit: usize) -> ApiError {
    crate::telemetry::refused("websockets and streams per client");
    let message = format!(
        "{whose} has {limit} WebSockets and streams open, the most allowed: close one first"
    );
    ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
        .kind("too_many_connections")
        .retry_after(5)
}

impl Connections {
    pub fn new(limits: StreamLimits) -> Arc<Connections> {
        Arc::new(Connections {
            limits,
            open: Mutex::new((0, BTreeMap::new())),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, BTreeMap<u64, Open>)> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection of `client`'s (`seat`: to a game it holds a seat of), or
    /// the refusal: past the client's limit 429, past the server's 503. A seat's connection
    /// is never refused: past a limit, it ends the client's oldest connection that holds
    /// no seat (or, if all do, its oldest) and takes its place.
    pub fn admit(self: &Arc<Self>, client: Client, seat: bool) -> Result<Place, ApiError> {
        let StreamLimits {
            max,
            per_address,
            per_identity,
        } = self.limits;
        let mut guard = self.lock();
        let (next, open) = &mut *guard;
        let same_identity =
            |o: &Open| client.identity.is_some() && o.client.identity == client.identity;
        let same_address =
            |o: &Open| client.address.is_some() && o.client.address == client.address;
        let mut displaced = Vec::new();
        for (mine, limit, whose, any_seat) in [
            (
                &same_identity as &dyn Fn(&Open) -> bool,
                per_identity,
                "this account or browser",
                true,
            ),
            (&same_address, per_address, "this address", false),
        ] {
            let count = open
                .iter()
                .filter(|(id, o)| mine(o) && !displaced.contains(*id))
                .count();
            if count < limit {
                continue;
            }
            if !seat {
                return Err(too_many(whose, limit));
            }
            // A seat's connection: the client's oldest that is no seat's goes first; for
            // one identity, its oldest seat's if all are seats'.
            let mut oldest = open
                .iter()
                .filter(|(id, o)| mine(o) && !displaced.contains(*id));
            let victim = oldest
                .clone()
                .find(|(_, o)| !o.seat)
                .or_else(|| if any_seat { oldest.next() } else { None })
                .map(|(id, _)| *id);
            displaced.extend(victim);
        }
        if !seat && open.len() - displaced.len() >= max {
            crate::telemetry::refused("websockets and streams");
            let message = format!("too many open WebSockets and streams (at most {max})");
            return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message).retry_after(5));
        }
        for id in displaced {
            if let Some(gone) = open.remove(&id) {
                let _ = gone.close.send(true);
            }
        }
        *next += 1;
        let (close, closed) = watch::channel(false);
        open.insert(
            *next,
            Open {
                client,
                seat,
                close,
            },
        );
        Ok(Place {
            id: *next,
            connections: self.clone(),
            closed,
        })
    }

    /// Ends every connection whose client `ends` names; how many.
    pub fn close_where(&self, ends: impl Fn(&Client) -> bool) -> usize {
        let mut guard = self.lock();
        let ended: Vec<u64> = guard
            .1
            .iter()
            .filter(|(_, o)| ends(&o.client))
            .map(|(id, _)| *id)
            .collect();
        for id in &ended {
            if let Some(gone) = guard.1.remove(id) {
                let _ = gone.close.send(true);
            }
        }
        ended.len()
    }

    /// The sessions and tokens the open connections were opened with (each once).
    fn credentials(&self) -> (Vec<String>, Vec<String>) {
        let guard = self.lock();
        let mut sessions: Vec<String> = guard
            .1
            .values()
            .filter_map(|o| o.client.session.clone())
            .collect();
        let mut tokens: Vec<String> = guard
            .1
            .values()
            .filter_map(|o| o.client.token.clone())
            .collect();
        for list in [&mut sessions, &mut tokens] {
            list.sort_unstable();
            list.dedup();
        }
        (sessions, tokens)
    }

    /// How many are open.
    pub fn count(&self) -> usize {
        self.lock().1.len()
    }
}

/// Checks, every [`SWEEP_EVERY`] until `stopping`, that the sessions and tokens of the open
/// connections are still good (not ended, expired or revoked, their account not disabled
/// or closed) and ends the connections of those that are not: what another instance or an
/// administrator revoked ends here within a second.
pub fn sweep(
    connections: Arc<Connections>,
    games: Arc<Games>,
    mut stopping: watch::Receiver<bool>,
) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stopping.changed() => break,
            }
            let (sessions, tokens) = connections.credentials();
            if sessions.is_empty() && tokens.is_empty() {
                continue;
            }
            let now = crate::identity::now_s(&games);
            let good = games
                .store
                .still_good(&sessions, &tokens, now)
                .await
                .map_err(|e| GameError::storage("checking the open connections", e));
            let (good_sessions, good_tokens) = match good {
                Ok(good) => good,
                Err(e) => {
                    tracing::warn!(error = %e, "checking the open connections");
                    continue;
                }
            };
            let ended = connections.close_where(|c| {
                c.session
                    .as_ref()
                    .is_some_and(|s| !good_sessions.contains(s))
                    || c.token.as_ref().is_some_and(|t| !good_tokens.contains(t))
            });
            if ended > 0 {
                tracing::info!(ended, "connections of revoked sessions or tokens ended");
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(address: &str, identity: Option<&str>) -> Client {
        Client {
            address: Some(address.parse().unwrap()),
            identity: identity.map(|i| i.parse().unwrap()),
            ..Client::default()
        }
    }

    #[test]
    fn one_client_is_refused_past_its_limit_and_others_still_come_in() {
        let limits = StreamLimits {
            max: 6,
            per_address: 3,
            per_identity: 2,
        };
        let connections = Connections::new(limits);
        let attacker = client("10.0.0.66", None);
        let held: Vec<Place> = (0..3)
            .map(|_| connections.admit(attacker.clone(), false).unwrap())
            .collect();
        let refused = connections.admit(attacker.clone(), false).err().unwrap();
        assert_eq!(
            (refused.status.as_u16(), refused.body.kind),
            (429, "too_many_connections")
        );
        // One identity from many addresses: its own limit.
        let roaming = |n: u8| client(&format!("10.0.1.{n}"), Some("a:x"));
        let _two: Vec<Place> = (0..2)
            .map(|n| connections.admit(roaming(n), false).unwrap())
            .collect();
        assert_eq!(
            connections.admit(roaming(9), false).err().unwrap().status,
            429
        );
        // The server's cap: a sixth is refused with 503, but a seat's always comes in.
        let _sixth = connections.admit(client("10.0.2.1", None), false).unwrap();
        let full = connections
            .admit(client("10.0.3.1", None), false)
            .err()
            .unwrap();
        assert_eq!(full.status.as_u16(), 503);
        let seat = connections
            .admit(client("10.0.3.1", Some("u:7")), true)
            .unwrap();
        assert_eq!(connections.count(), 7);
        assert!(!*seat.closed.borrow());
        // Dropped, the places are given back.
        drop(held);
        assert_eq!(connections.count(), 4);
        assert!(connections.admit(attacker, false).is_ok());
    }

    #[test]
    fn a_seats_connection_takes_the_place_of_the_same_clients_oldest() {
        let limits = StreamLimits {
            max: 100,
            per_address: 3,
            per_identity: 2,
        };
        let connections = Connections::new(limits);
        let me = client("10.0.0.1", Some("u:1"));
        let lobby = connections.admit(me.clone(), false).unwrap();
        let game = connections.admit(me.clone(), true).unwrap();
        // A third, for another game of mine: the lobby's page goes, not the game's.
        let other = connections.admit(me.clone(), true).unwrap();
        assert!(*lobby.closed.borrow() && !*game.closed.borrow());
        // All seats: the oldest seat goes.
        let third = connections.admit(me.clone(), true).unwrap();
        assert!(*game.closed.borrow() && !*other.closed.borrow() && !*third.closed.borrow());
        // At an address's limit, a seat's connection ends the address's oldest page that
        // holds no seat (someone else's lobby, say); with none, it comes in all the same.
        let connections = Connections::new(StreamLimits {
            max: 100,
            per_address: 2,
            per_identity: 5,
        });
        let neighbour = connections
            .admit(client("10.0.0.1", Some("u:2")), false)
            .unwrap();
        let first = connections.admit(me.clone(), true).unwrap();
        let second = connections.admit(me.clone(), true).unwrap();
        assert!(*neighbour.closed.borrow() && !*first.closed.borrow());
        let third = connections.admit(me, true).unwrap();
        assert!(!*second.closed.borrow() && !*third.closed.borrow());
        assert_eq!(connections.count(), 3);
    }

    #[test]
    fn revoked_credentials_end_their_connections_only() {
        let connections = Connections::new(StreamLimits::default());
        let with = |session: &str| Client {
            session: Some(session.into()),
            ..client("10.0.0.1", Some("u:1"))
        };
        let a = connections.admit(with("s1"), false).unwrap();
        let b = connections.admit(with("s2"), false).unwrap();
        assert_eq!(connections.credentials().0, ["s1", "s2"]);
        assert_eq!(
            connections.close_where(|c| c.session.as_deref() == Some("s1")),
            1
        );
        assert!(*a.closed.borrow() && !*b.closed.borrow());
    }

    #[test]
    fn an_ipv6_address_counts_by_its_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(c));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(address_key(mapped), "10.0.0.1".parse::<IpAddr>().unwrap());
    }
}
