//! Bots (docs/bots.md): accounts that programs play through the API with a token, the
//! challenges people send them, each bot's events, and the server's own computer levels,
//! which are bots that accept every challenge at once.
//!
//! A token is the `Authorization: Bearer` of a program (`identity.rs` reads it); it acts
//! for its account in games, the lobby and challenges, never on the account itself. The
//! HTTP part is `bots/routes.rs` (the handlers, the event stream) and `bots/api.rs`.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use lgame::game::DrawRules;
use lgame::Color;
use lgame_players::seated::Seat;
use lgame_players::Level;

use crate::clock::TimeControl;
use crate::credentials::{new_secret, secret_hash};
use crate::fairplay::FairPlayError;
use crate::games::{self, GameError, Games, Input, NewGame};
use crate::lobby::{side_name, side_of};
use crate::push::Notice;
use crate::secret::random_hex;
use crate::store::{
    BotRow, ChallengeRow, ChallengeState, ColorChoice, DeclineReason, EventRow, Holder, Settle,
    Store, TokenRow, User, UserBy,
};

pub(crate) mod api;
pub(crate) mod routes;

/// A token's text: this prefix, then 64 hex digits (256 random bits). The prefix tells it
/// from a session's cookie, which it never is.
pub const TOKEN_PREFIX: &str = "lgb_";

/// A bot is online while its event stream was open this recently.
const ONLINE_MS: i64 = 15_000;

/// How often an open event stream is marked seen (in the server's time), and looks for
/// new events.
pub const SEEN_EVERY_MS: i64 = 5_000;
pub const POLL_EVERY: Duration = Duration::from_millis(200);

/// A pending challenge unanswered this long is withdrawn.
pub const CHALLENGE_TTL_MS: i64 = 60_000;

/// A refusal of the bots' and challenges' (`error.rs` gives each its status and kind).
#[derive(Debug)]
pub enum BotError {
    /// What only a bot account may do.
    NotABot,
    /// An account that has played does not become a bot.
    HasGames,
    NoToken(String),
    NoChallenge(String),
    NoPlayer(String),
    /// A challenge sent to a person's account.
    Person(String),
    /// A rated challenge of a variant or control that is not rated.
    NotRated {
        variant: String,
        timed: bool,
    },
    /// A rated challenge from a browser with no account.
    RatedNeedsAccount,
    BotOffline(String),
    /// The challenge was answered or withdrawn meanwhile.
    Answered,
    /// The challenge is in this state, no longer pending.
    NotPending(&'static str),
    /// Only the challenged bot answers a challenge...
    NotTheBot,
    /// ... and only its challenger withdraws it.
    NotTheChallenger,
    FairPlay(FairPlayError),
    Game(GameError),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BotError::NotABot => {
                f.write_str("only a bot account may do this: make the account a bot first")
            }
            BotError::HasGames => f.write_str(
                "an account that has played becomes no bot (as on lichess): \
                 make a new account for the bot",
            ),
            BotError::NoToken(id) => write!(f, "no token '{id}'"),
            BotError::NoChallenge(id) => write!(f, "no challenge '{id}'"),
            BotError::NoPlayer(name) => write!(f, "no player '{name}'"),
            BotError::Person(name) => write!(
                f,
                "'{name}' is a person: challenges go to bots (invite a person by link, or meet \
                 in the lobby)"
            ),
            BotError::NotRated { variant, timed } => write!(
                f,
                "variant '{variant}' {}: not rated (docs/ratings.md)",
                if *timed {
                    "at this control"
                } else {
                    "without a clock"
                }
            ),
            BotError::RatedNeedsAccount => f.write_str("a rated challenge is an account's: log in"),
            BotError::BotOffline(name) => {
                write!(
                    f,
                    "the bot '{name}' is not online: its program is not connected"
                )
            }
            BotError::Answered => f.write_str("the challenge was answered already, or withdrawn"),
            BotError::NotPending(state) => {
                write!(f, "the challenge is {state}, no longer pending")
            }
            BotError::NotTheBot => f.write_str("only the challenged bot answers a challenge"),
            BotError::NotTheChallenger => f.write_str("only its challenger withdraws a challenge"),
            BotError::FairPlay(e) => e.fmt(f),
            BotError::Game(e) => e.fmt(f),
        }
    }
}

impl From<GameError> for BotError {
    fn from(e: GameError) -> BotError {
        BotError::Game(e)
    }
}

impl From<FairPlayError> for BotError {
    fn from(e: FairPlayError) -> BotError {
        BotError::FairPlay(e)
    }
}

fn storage(e: crate::store::StoreError) -> GameError {
    GameError::storage("the bots' database", e)
}

/// The account the server's computer level `level` plays as.
pub fn level_username(level: Level) -> String {
    format!("lgame-{}", level.name())
}

/// Makes the server's computer levels' accounts, if missing: bots with no password, dated
/// by the wall clock (the server's time is set after).
pub async fn ensure_levels(store: &Store) -> anyhow::Result<()> {
    let now_s = crate::clock::TimeSource::wall_ms().div_euclid(1000);
    for level in Level::ALL {
        let name = level_username(level);
        if store.level_bot(level.name(), &name, now_s).await?.is_none() {
            tracing::warn!(account = %name, "a person holds the name of a computer level's bot");
        }
    }
    Ok(())
}

/// Makes the account a bot (if it is not one already): only one that has not played.
pub async fn make_bot(store: &Store, user: &User) -> Result<(), BotError> {
    if !user.bot && !store.make_bot(user.id).await.map_err(storage)? {
        return Err(BotError::HasGames);
    }
    Ok(())
}

/// A new API token for account `user`: its row and the token, shown once.
pub async fn create_token(
    games: &Games,
    user: i64,
    description: Option<String>,
) -> Result<(TokenRow, String), BotError> {
    let description = description
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty());
    if description
        .as_ref()
        .is_some_and(|d| d.chars().count() > 100)
    {
        let message = "description: at most 100 characters".to_string();
        return Err(GameError::invalid(Input::Other, message).into());
    }
    let secret = new_secret().map_err(|e| GameError::internal("random numbers", e))?;
    let token = format!("{TOKEN_PREFIX}{secret}");
    let row = TokenRow {
        id: random_hex(4).map_err(GameError::from)?,
        user_id: user,
        hash: secret_hash(&token),
        description,
        created_ms: games.time.now_ms(),
    };
    games.store.insert_token(&row).await.map_err(storage)?;
    Ok((row, token))
}

/// Account `user`'s tokens.
pub async fn tokens_of(store: &Store, user: i64) -> Result<Vec<TokenRow>, BotError> {
    Ok(store.tokens_of(user).await.map_err(storage)?)
}

/// Revokes account `user`'s token `id`, and its bot is offline at once: the token's hash,
/// whose streams are to end.
pub async fn revoke_token(store: &Store, user: i64, id: &str) -> Result<String, BotError> {
    let hash = tokens_of(store, user)
        .await?
        .into_iter()
        .find(|t| t.id == id)
        .map(|t| t.hash);
    let revoked = match store.delete_token(user, id).await.map_err(storage)? {
        true => {
            store.bot_offline(user).await.map_err(storage)?;
            hash
        }
        false => None,
    };
    revoked.ok_or_else(|| BotError::NoToken(id.to_string()))
}

/// Every bot.
pub async fn bots(store: &Store) -> Result<Vec<BotRow>, BotError> {
    Ok(store.bots().await.map_err(storage)?)
}

/// Whether a bot plays now: the server's levels always, a program's while its event
/// stream was open in the last [`ONLINE_MS`].
pub fn online(bot: &BotRow, now_ms: i64) -> bool {
    bot.level.is_some() || bot.seen_ms.is_some_and(|seen| now_ms - seen < ONLINE_MS)
}

/// What a challenge asks for, checked.
pub struct Terms {
    pub variant: String,
    pub clock: Option<TimeControl>,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// A rated challenge's category.
    pub category: Option<&'static str>,
}

/// Reads a challenge's terms (default classic, no clock, a random colour, casual); a rated
/// one is an account's.
pub fn terms(
    variant: Option<String>,
    clock: Option<TimeControl>,
    color: Option<String>,
    rated: bool,
    has_account: bool,
) -> Result<Terms, BotError> {
    let variant = variant.unwrap_or_else(|| "classic".into());
    let rules = games::parse_rules(&variant)?;
    let clock = clock
        .map(TimeControl::check)
        .transpose()
        .map_err(|message| GameError::invalid(Input::Clock, message))?;
    let color = color.unwrap_or_else(|| "random".into());
    let Ok(color) = color.parse::<ColorChoice>() else {
        let message = format!("color '{color}': red, blue or random");
        return Err(GameError::invalid(Input::Player, message).into());
    };
    let category = match rated {
        false => None,
        true => {
            Some(
                crate::ratings::category(&rules, clock).ok_or_else(|| BotError::NotRated {
                    variant: variant.clone(),
                    timed: clock.is_some(),
                })?,
            )
        }
    };
    if category.is_some() && !has_account {
        return Err(BotError::RatedNeedsAccount);
    }
    Ok(Terms {
        variant,
        clock,
        color,
        category,
    })
}

/// The bot a challenge goes to, by its username (any case): not disabled, and a bot.
pub async fn challenged(store: &Store, username: &str) -> Result<User, BotError> {
    let key = username.to_lowercase();
    let dest = store
        .user(UserBy::Key(&key))
        .await
        .map_err(storage)?
        .filter(|u| !u.disabled)
        .ok_or_else(|| BotError::NoPlayer(username.to_string()))?;
    match dest.bot {
        true => Ok(dest),
        false => Err(BotError::Person(dest.username)),
    }
}

/// Sends bot `dest` a challenge from `holder` (named `name` if an account's): a rated one
/// only between accounts fair play allows, only to a bot online. The server's levels
/// accept at once. Returns the challenge and its state.
pub async fn challenge(
    games: &Arc<Games>,
    terms: Terms,
    holder: Holder,
    name: Option<String>,
    dest: &User,
) -> Result<(ChallengeRow, ChallengeState), BotError> {
    if holder == dest.holder() {
        let message = "a bot does not challenge itself";
        return Err(GameError::invalid(Input::Player, message.into()).into());
    }
    if terms.category.is_some() {
        crate::fairplay::check_pair(games, &holder, &dest.holder()).await?;
    }
    let bot = bots(&games.store)
        .await?
        .into_iter()
        .find(|b| b.id == dest.id);
    let level = bot.as_ref().and_then(|b| b.level.clone());
    let now = games.time.now_ms();
    if !bot.is_some_and(|b| online(&b, now)) {
        return Err(BotError::BotOffline(dest.username.clone()));
    }
    let mut row = ChallengeRow {
        id: random_hex(8).map_err(GameError::from)?,
        challenger: holder,
        challenger_name: name,
        dest: dest.id,
        dest_name: dest.username.clone(),
        variant: terms.variant,
        clock: terms.clock,
        category: terms.category.map(str::to_string),
        color: terms.color,
        state: ChallengeState::Pending,
        reason: None,
        game: None,
        challenger_side: None,
        created_ms: now,
    };
    games
        .store
        .insert_challenge(&row, now)
        .await
        .map_err(storage)?;
    tracing::info!(challenge = %row.id, bot = %dest.username, "challenge");
    let mut state = ChallengeState::Pending;
    if let Some(level) = level.as_deref() {
        // The server's own level accepts at once, whatever the control.
        let (game, side) = start_game(games, &row, Some(level)).await?;
        (row.game, row.challenger_side, state) = (Some(game), Some(side), ChallengeState::Accepted);
    } else {
        let from = row.challenger_name.clone();
        let (id, from) = (row.id.clone(), from.unwrap_or_else(|| "Someone".into()));
        games.notify(&dest.holder(), Notice::Challenge { id, from });
    }
    Ok((row, state))
}

/// Challenge `id`'s row, if there is one.
pub async fn challenge_row(store: &Store, id: &str) -> Result<Option<ChallengeRow>, BotError> {
    Ok(store.challenge(id).await.map_err(storage)?)
}

/// Challenge `id` as it stands: a pending one past its time is withdrawn first.
pub async fn read_challenge(games: &Games, id: &str) -> Result<ChallengeRow, BotError> {
    let no_challenge = || BotError::NoChallenge(id.to_string());
    let row = challenge_row(&games.store, id)
        .await?
        .ok_or_else(no_challenge)?;
    let now = games.time.now_ms();
    if row.state == ChallengeState::Pending && now - row.created_ms > CHALLENGE_TTL_MS {
        settle(games, id, Settle::canceled()).await?;
        return challenge_row(&games.store, id)
            .await?
            .ok_or_else(no_challenge);
    }
    Ok(row)
}

/// Settles challenge `id` so, if it is still pending: whether it was.
async fn settle(games: &Games, id: &str, how: Settle) -> Result<bool, BotError> {
    let now = games.time.now_ms();
    let store = &games.store;
    Ok(store
        .settle_challenge(id, &how, now)
        .await
        .map_err(storage)?)
}

/// Accepts pending challenge `row` (its bot, or the server for one of its levels): the
/// challenge is claimed first, so that one answer wins, then the game is made. Returns the
/// game and the challenger's side.
async fn start_game(
    games: &Arc<Games>,
    row: &ChallengeRow,
    level: Option<&str>,
) -> Result<(String, Color), BotError> {
    let side = side_of(row.color)?;
    let game_id = random_hex(8).map_err(GameError::from)?;
    let claim = Settle {
        state: ChallengeState::Accepted,
        reason: None,
        game: Some(game_id.clone()),
        challenger_side: Some(side),
    };
    if !settle(games, &row.id, claim).await? {
        return Err(BotError::Answered);
    }
    let rules = games::parse_rules(&row.variant)?;
    let clock = row.clock;
    let mut holders = [None, None];
    holders[side as usize] = Some(row.challenger.clone());
    holders[!side as usize] = Some(Holder::Account(row.dest));
    let mut seats = [Seat::Human, Seat::Human];
    if let Some(level) = level {
        seats[!side as usize] = games::parse_seat(side_name(!side), level)?;
    }
    let category = row
        .category
        .as_ref()
        .and_then(|_| crate::ratings::category(&rules, clock));
    let draw = DrawRules {
        repetition: Some(3),
        turn_limit: None,
    }
    .normalized();
    let new = NewGame {
        holders,
        clock,
        id: Some(game_id.clone()),
        category,
        ..NewGame::new(lgame::Game::new(rules).with_draw_rules(draw), seats)
    };
    let started = games.create(new).await?;
    tracing::info!(challenge = %row.id, game = %started.id, "challenge accepted");
    Ok((started.id, side))
}

/// Only the challenged bot answers a challenge.
fn check_challenged(bot: &User, row: &ChallengeRow) -> Result<(), BotError> {
    match bot.id == row.dest {
        true => Ok(()),
        false => Err(BotError::NotTheBot),
    }
}

/// Bot `bot` accepts pending challenge `row`: the game made and the bot's side in it.
pub async fn accept(
    games: &Arc<Games>,
    bot: &User,
    row: &ChallengeRow,
) -> Result<(String, Color), BotError> {
    check_challenged(bot, row)?;
    if row.state != ChallengeState::Pending {
        return Err(BotError::NotPending(row.state.name()));
    }
    let (game, side) = start_game(games, row, None).await?;
    Ok((game, !side))
}

/// Bot `bot` declines challenge `row` for `reason` (one of [`DeclineReason`]'s names,
/// default `generic`): the challenge as it then stands.
pub async fn decline(
    games: &Games,
    bot: &User,
    row: ChallengeRow,
    reason: Option<String>,
) -> Result<ChallengeRow, BotError> {
    check_challenged(bot, &row)?;
    let reason = match reason {
        None => DeclineReason::Generic,
        Some(name) => DeclineReason::from_name(&name).map_err(|_| {
            let names = DeclineReason::ALL.map(DeclineReason::name).join(", ");
            GameError::invalid(Input::Other, format!("reason '{name}': one of {names}"))
        })?,
    };
    let how = Settle {
        state: ChallengeState::Declined,
        reason: Some(reason),
        game: None,
        challenger_side: None,
    };
    if row.state != ChallengeState::Pending || !settle(games, &row.id, how).await? {
        return Err(BotError::NotPending(row.state.name()));
    }
    Ok(ChallengeRow {
        reason: Some(reason),
        ..row
    })
}

/// Its challenger (`holder`) withdraws challenge `row` (again: no harm).
pub async fn cancel(
    games: &Games,
    holder: Option<&Holder>,
    row: &ChallengeRow,
) -> Result<(), BotError> {
    if holder != Some(&row.challenger) {
        return Err(BotError::NotTheChallenger);
    }
    if row.state == ChallengeState::Canceled || settle(games, &row.id, Settle::canceled()).await? {
        return Ok(());
    }
    Err(BotError::NotPending(row.state.name()))
}

/// Bot `bot`'s stream is open at `now_ms`, the server's time: it is online.
pub async fn seen(store: &Store, bot: i64, now_ms: i64) -> Result<(), BotError> {
    Ok(store.bot_seen(bot, now_ms).await.map_err(storage)?)
}

/// Bot `bot`'s stream is closed by a revoked token: it is offline at once.
pub async fn offline(store: &Store, bot: i64) -> Result<(), BotError> {
    Ok(store.bot_offline(bot).await.map_err(storage)?)
}

/// Bot `bot`'s events after `since` (with none, those that still stand: pending challenges,
/// games not over), oldest first, and where the next read starts.
pub async fn events_after(
    store: &Store,
    bot: i64,
    since: Option<i64>,
) -> Result<(Vec<EventRow>, i64), BotError> {
    let (found, last) = store.events(bot, since, 100).await.map_err(storage)?;
    let next = found.last().map(|e| e.id).unwrap_or(since.unwrap_or(last));
    let next = match since {
        None => last.max(next),
        Some(_) => next,
    };
    Ok((found, next))
}
