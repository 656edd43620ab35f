//! The tables of the features whose rows and queries live with the feature (`lobby/rows.rs`,
//! `arena/rows.rs`, `push/rows.rs`): their schema stays the store's, which each driver's
//! migrations create.

/// The lobby's tables (`lobby/rows.rs`), the same on both backends.
pub(super) const LOBBY: &str = "CREATE TABLE seeks (
        id TEXT PRIMARY KEY,          -- a seek's public id, or a ticket's hash
        kind TEXT NOT NULL,           -- seek | ticket
        token_hash TEXT NOT NULL,     -- the hash of the secret the seeker plays with
        holder TEXT NOT NULL,         -- who seeks: u:ACCOUNT or a:BROWSER
        ip TEXT NOT NULL,             -- the client's address (anonymous seeks per address)
        variant TEXT NOT NULL,
        clock TEXT NOT NULL,          -- JSON: the time control
        colour TEXT NOT NULL,         -- red | blue | random
        rating BIGINT NOT NULL,
        created_ms BIGINT NOT NULL,   -- the server's time, in milliseconds
        seen_ms BIGINT NOT NULL,
        state TEXT NOT NULL,          -- open | claimed | made | gone
        changed_ms BIGINT NOT NULL,
        game TEXT,                    -- once claimed: its game, and the seeker's side in it
        side TEXT
    );
    CREATE INDEX seeks_by_state ON seeks (state, kind, created_ms);
    CREATE INDEX seeks_by_seen ON seeks (state, seen_ms);
    CREATE INDEX seeks_by_holder ON seeks (holder);
    CREATE TABLE seekers (
        holder TEXT PRIMARY KEY,      -- a holder with a lobby page open on some instance
        seen_ms BIGINT NOT NULL       -- when an instance last said so
    );";

/// The arenas' tables (`arena/rows.rs`), the same on both backends.
pub(super) const ARENAS: &str = "CREATE TABLE arenas (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        clock TEXT NOT NULL,              -- JSON: the time control
        minutes BIGINT NOT NULL,
        category TEXT,                    -- rated: the games' category
        starts_at BIGINT NOT NULL,        -- the server's time, in milliseconds
        ends_at BIGINT NOT NULL,
        creator BIGINT REFERENCES users(id),  -- null once its account is closed
        created_ms BIGINT NOT NULL
    );
    CREATE INDEX arenas_by_end ON arenas (ends_at);
    CREATE TABLE arena_players (
        arena TEXT NOT NULL REFERENCES arenas(id),
        user_id BIGINT NOT NULL REFERENCES users(id),
        joined_ms BIGINT NOT NULL,        -- when they last joined
        left_ms BIGINT,                   -- when they left (null: still in)
        PRIMARY KEY (arena, user_id)
    );
    CREATE TABLE arena_games (
        game TEXT PRIMARY KEY,            -- made after this row: may not be stored yet
        arena TEXT NOT NULL REFERENCES arenas(id),
        red BIGINT NOT NULL,              -- the accounts playing each side
        blue BIGINT NOT NULL,
        seq BIGINT NOT NULL,              -- the order made in the arena
        made_ms BIGINT NOT NULL,
        ended_ms BIGINT                   -- when a pairing first saw it over
    );
    CREATE UNIQUE INDEX arena_games_by_arena ON arena_games (arena, seq);
    CREATE INDEX arena_games_not_seen_over ON arena_games (arena) WHERE ended_ms IS NULL;";

/// Mail's tables (`mail/rows.rs`), the same on both backends: the one-time codes a mail's
/// link carries (only their hashes), and the addresses their owners confirmed.
pub(super) const MAIL: &str = "CREATE TABLE mail_codes (
        code_hash TEXT PRIMARY KEY,       -- SHA-256 of the link's code
        purpose TEXT NOT NULL,            -- reset | confirm
        user_id BIGINT NOT NULL,
        email TEXT NOT NULL,              -- the address it was sent to
        expires_ms BIGINT NOT NULL,       -- the server's time, in milliseconds
        used_ms BIGINT                    -- once used (null: not yet)
    );
    CREATE INDEX mail_codes_by_user ON mail_codes (user_id);
    CREATE TABLE mail_confirmed (
        user_id BIGINT PRIMARY KEY,       -- the account whose address this is
        email TEXT NOT NULL,              -- confirmed while it is still the account's email
        confirmed_ms BIGINT NOT NULL
    );";

/// Web Push's tables (`push/rows.rs`), the same on both backends.
pub(super) const PUSH: &str = "CREATE TABLE push_keys (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        private_key TEXT NOT NULL         -- the VAPID key pair's private scalar, base64url
    );
    CREATE TABLE push_subscriptions (
        endpoint TEXT PRIMARY KEY,        -- the push service's URL for one browser
        user_id BIGINT NOT NULL,          -- the account told (rows deleted with it)
        p256dh TEXT NOT NULL,             -- the browser's public key, base64url
        auth TEXT NOT NULL,               -- its authentication secret, base64url
        created_ms BIGINT NOT NULL
    );
    CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id);";

/// Correspondence mail's tables (`mail/rows.rs`, "your move"), the same on both backends: the
/// correspondence game waiting for an account's move (one row a game: whose turn it is), and
/// what each account chose to be mailed, when it was last mailed and its unsubscribe token.
pub(super) const MAIL_MOVES: &str = "CREATE TABLE mail_moves (
        game_id TEXT PRIMARY KEY,
        user_id BIGINT NOT NULL,          -- the account whose move it is
        since_ms BIGINT NOT NULL,         -- when the turn passed to it
        mailed_ms BIGINT                  -- when mailed about (null: not yet)
    );
    CREATE INDEX mail_moves_by_user ON mail_moves (user_id);
    CREATE TABLE mail_prefs (
        user_id BIGINT PRIMARY KEY,
        unsubscribe TEXT NOT NULL UNIQUE, -- the unsubscribe link's token (it only turns mail off)
        moves_off_ms BIGINT,              -- when \"your move\" mail was turned off (null: on)
        last_mailed_ms BIGINT             -- the last \"your move\" mail or digest
    );";
