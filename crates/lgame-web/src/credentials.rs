//! Accounts' credentials, as pure functions (no database, no HTTP): which usernames and
//! passwords are accepted, a password's hash at rest and its check at log-in, and the random
//! secrets (session ids, anonymous identities, invitations) with their stored form.
//!
//! A refusal is a `String` written for the person choosing the name or the password: it says
//! what to change and never repeats the password.

use std::fmt::Write as _;
use std::ptr::NonNull;

use anyhow::anyhow;

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use subtle::ConstantTimeEq;

/// The fewest characters in a username.
pub const USERNAME_MIN_CHARS: usize = 2;
/// The most characters in a username (short enough for a board's side panel and a URL).
pub const USERNAME_MAX_CHARS: usize = 20;
/// The fewest guesses `zxcvbn` must estimate a password takes, as a power of ten: 10^8, the
/// line of its score 3 ("safely unguessable"), which eight random characters just reach;
/// its score 2 let through a season and a year (`Summer2024!`, 10^7.4) and two common words
/// run together (`correcthorse`, 10^6.2).
pub const MIN_GUESSES_LOG10: f64 = 8.0;
/// The fewest characters in a password.
pub const PASSWORD_MIN_CHARS: usize = 8;
/// The most bytes in a password: plenty for a passphrase, and a bound on what one request can
/// ask the server to read, check for guessability and hash (Argon2 itself takes up to 4 GiB of
/// password, and its cost then grows with the length on top of the fixed memory-hard part).
pub const PASSWORD_MAX_BYTES: usize = 256;

/// Names nobody may take, compared by [`username_key`]: names that would pass for the
/// server, its staff or a kind of player the page shows (`anonymous`, `deleted`, `computer`,
/// `open`), and names a path of the site could collide with (`/@/NAME` is a profile, but
/// `/api`, `/assets`, `/healthz` and the page's sections are paths or words of their own).
const RESERVED: &[&str] = &[
    // The server, its people and its kinds of player.
    "admin",
    "administrator",
    "anonymous",
    "bot",
    "computer",
    "deleted",
    "guest",
    "lgame",
    // The accounts of the server's computer levels (`bots::level_username`).
    "lgame-random",
    "lgame-beginner",
    "lgame-intermediate",
    "lgame-perfect",
    "l-game",
    "l_game",
    "mod",
    "moderator",
    "null",
    "nobody",
    "none",
    "open",
    "owner",
    "root",
    "server",
    "staff",
    "support",
    "system",
    "undefined",
    "unknown",
    "webmaster",
    "postmaster",
    "security",
    // The asker and the seats ("you" and the sides are words of the game's answers).
    "me",
    "you",
    "red",
    "blue",
    // Paths and sections of the site.
    "account",
    "accounts",
    "analyse",
    "analysis",
    "api",
    "assets",
    "catalog",
    "classes",
    "diagram",
    "editor",
    "export",
    "game",
    "games",
    "healthz",
    "help",
    "import",
    "invitation",
    "invite",
    "learn",
    "login",
    "logout",
    "new",
    "openapi",
    "password",
    "play",
    "position",
    "print",
    "profile",
    "puzzle",
    "puzzles",
    "qr",
    "records",
    "register",
    "seat",
    "session",
    "sessions",
    "settings",
    "signin",
    "signout",
    "signup",
    "static",
    "user",
    "users",
    "ws",
];

/// Why a username is refused, or `Ok`: 2 to 20 characters, each an ASCII letter, digit, `_`
/// or `-` (so no look-alike from another script, such as a Cyrillic `а` in `аdmin`, and no
/// space), and not one of the reserved names in any case.
pub fn check_username(name: &str) -> Result<(), String> {
    let chars = name.chars().count();
    if chars == 0 {
        return Err("Choose a username.".to_owned());
    }
    if chars < USERNAME_MIN_CHARS {
        return Err(format!(
            "A username has at least {USERNAME_MIN_CHARS} characters."
        ));
    }
    if chars > USERNAME_MAX_CHARS {
        return Err(format!(
            "A username has at most {USERNAME_MAX_CHARS} characters (this one has {chars})."
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        let what = if c.is_whitespace() {
            "a space".to_owned()
        } else if c.is_ascii() {
            format!("'{c}'")
        } else {
            // Named by its code point too: a look-alike (Cyrillic 'а' for 'a') shows the same.
            format!("'{c}' (U+{:04X}, not a Latin letter)", u32::from(c))
        };
        return Err(format!(
            "A username may have only the Latin letters a-z and A-Z, the digits 0-9, '_' and '-'; \
             it has {what}."
        ));
    }
    let folded = username_fold(name);
    if let Some(reserved) = RESERVED.iter().find(|r| username_fold(r) == folded) {
        let like = if username_key(name) == *reserved {
            String::new()
        } else {
            format!(" (it reads as {reserved:?})")
        };
        return Err(format!(
            "The username {name:?} is reserved{like}: choose another."
        ));
    }
    Ok(())
}

/// The form a username is unique by: ASCII lower case (`Alice` and `alice` are one name).
/// An accepted username is all ASCII, so this is its whole case folding.
pub fn username_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// What a username's folding replaces, in order: the separators dropped, then the digits
/// and letters people confuse made one (docs/accounts.md, "Names that look alike").
/// `store/fairplay.rs`'s `fold_sql!` does the same in SQL.
pub const FOLDS: [(&str, &str); 10] = [
    ("_", ""),
    ("-", ""),
    (".", ""),
    ("0", "o"),
    ("1", "l"),
    ("i", "l"),
    ("5", "s"),
    ("8", "b"),
    ("rn", "m"),
    ("vv", "w"),
];

/// A username folded: lower case, `_`, `-` and `.` dropped, and the digits and letters
/// people confuse made one ([`FOLDS`]). Two names that fold alike pass for each other
/// (`lgame_perfect` for `lgame-perfect`, `LGAME-PERFECT`, `lgame-perf3ct` is not: 3 and e
/// are not among them), so a name is refused if it folds as a reserved name or an existing
/// account's does.
pub fn username_fold(name: &str) -> String {
    FOLDS
        .iter()
        .fold(name.to_ascii_lowercase(), |text, (from, to)| {
            text.replace(from, to)
        })
}

/// The site's own words, which no password may hold (folded as a username is): a guesser
/// tries them first.
pub const SITE_WORDS: [&str; 2] = ["lgame", "lgameweb"];

/// Why a password is refused, or `Ok`: at least 8 characters, at most 256 bytes (see
/// [`PASSWORD_MAX_BYTES`]), no control character, not holding the username (of 3 characters
/// or more; a shorter one, not equal to it) nor the site's own words ([`SITE_WORDS`]: `lgame`,
/// `L game`, whatever their case and separators), and not guessable: `zxcvbn`'s estimate,
/// given the username and the site's words as words an attacker would try, must be
/// 10^[`MIN_GUESSES_LOG10`] guesses or more.
pub fn check_password(password: &str, username: &str) -> Result<(), String> {
    if password.chars().count() < PASSWORD_MIN_CHARS {
        return Err(format!(
            "A password has at least {PASSWORD_MIN_CHARS} characters."
        ));
    }
    if password.len() > PASSWORD_MAX_BYTES {
        return Err(format!(
            "A password has at most {PASSWORD_MAX_BYTES} bytes (a longer one costs the server \
             too much to check and hash); this one has {}.",
            password.len()
        ));
    }
    if password.chars().any(char::is_control) {
        return Err("A password may not hold control characters (a tab, a new line…).".to_owned());
    }
    if !username.is_empty() && password.to_lowercase() == username.to_lowercase() {
        return Err("The password must not be the username.".to_owned());
    }
    let lower = password.to_lowercase();
    if username.chars().count() >= 3 && lower.contains(&username.to_lowercase()) {
        return Err("The password must not hold the username.".to_owned());
    }
    let squeezed: String = lower
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '_' | '-' | '.'))
        .collect();
    if SITE_WORDS.iter().any(|word| squeezed.contains(word)) {
        return Err("The password must not hold the site's name (lgame, L game).".to_owned());
    }
    let key = username_key(username);
    let inputs: Vec<&str> = [username, key.as_str(), "lgame", "l game", "l-game"]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    let estimate = zxcvbn::zxcvbn(password, &inputs);
    if estimate.guesses_log10() < MIN_GUESSES_LOG10 {
        // zxcvbn's sentences say why (none repeats the password) and what would do better.
        let mut message = "This password is too easy to guess.".to_owned();
        if let Some(feedback) = estimate.feedback() {
            if let Some(warning) = feedback.warning() {
                let _ = write!(message, " {warning}");
            }
            if let Some(suggestion) = feedback.suggestions().first() {
                let _ = write!(message, " {suggestion}");
            }
        }
        return Err(message);
    }
    Ok(())
}

/// Argon2id's cost: memory m = 19456 KiB (19 MiB), t = 2 passes, p = 1 lane.
///
/// These are the first (minimum) Argon2id configuration of OWASP's Password Storage Cheat
/// Sheet (<https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html>),
/// which are also the `argon2` crate's defaults: the memory makes each guess of an attacker
/// with a stolen database cost 19 MiB of fast memory (so a GPU runs few at once), while a
/// log-in costs the server one core for tens of milliseconds and 19 MiB for that time
/// (measured by `examples/login_cost.rs` in release on a shared 2-core VM: a hash or a
/// verification 21 ms median when the machine was quiet, 27-38 ms under a load of 6; peak
/// resident memory +19 MiB). Raising them later is safe: a hash carries its own parameters,
/// and [`verify_password`] reads them from it.
const M_COST_KIB: u32 = 19 * 1024;
const T_COST: u32 = 2;
const P_COST: u32 = 1;

/// The most a stored hash may ask for before [`verify_password`] takes it as malformed: a
/// corrupted or planted row must not make one log-in allocate gigabytes or take minutes.
/// 256 MiB and 16 passes are about 100 times today's cost (a couple of seconds), room for the
/// parameters to be raised several times over.
const MAX_M_COST_KIB: u32 = 256 * 1024;
const MAX_T_COST: u32 = 16;
const MAX_P_COST: u32 = 16;

/// The salt's length: 16 bytes, the PHC format's recommendation.
const SALT_BYTES: usize = 16;

/// The hash that an unknown user's password is checked against, so that a log-in as a
/// nobody costs as long as one with a wrong password. Made once, by `hash_password` with
/// the parameters above, of a random password that was then thrown away; a test checks that
/// its parameters are still the ones in use.
const DUMMY_PHC: &str = "$argon2id$v=19$m=19456,t=2,p=1$DgO7d+ypQjRc7Gy4c95C7g$NcOEItgvSXexv7PdrVkQ4+5gW+rWr6htIqIcJE4cgVk";

fn params() -> Params {
    Params::new(M_COST_KIB, T_COST, P_COST, None)
        .expect("OWASP's Argon2id parameters are within argon2's bounds")
}

/// An Argon2id hash (PHC string, `$argon2id$v=19$m=19456,t=2,p=1$SALT$HASH`) of the password,
/// with a fresh random 16-byte salt from the OS and a 32-byte output. Fails only when the OS
/// gives no random bytes or no memory.
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let mut salt = [0u8; SALT_BYTES];
    getrandom::fill(&mut salt).map_err(|e| anyhow!("no random bytes from the OS: {e}"))?;
    let params = params();
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    argon2_into(
        Version::V0x13,
        &params,
        password.as_bytes(),
        &salt,
        &mut out,
    )?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| anyhow!("{e}"))?,
        salt: Some(Salt::new(&salt).map_err(|e| anyhow!("{e}"))?),
        hash: Some(Output::new(&out).map_err(|e| anyhow!("{e}"))?),
    };
    Ok(hash.to_string())
}

/// Whether the password is the one hashed in `phc`, computed with the version and parameters
/// the PHC string names (so hashes made before a change of parameters still verify), the
/// outputs compared in constant time. A malformed stored hash, one not Argon2id, or one asking
/// for more than a sane cost (256 MiB, 16 passes) is `false`, never a panic. With `None`
/// (an unknown user) it verifies against a fixed dummy hash made with the same parameters, so
/// the answer takes about the same time, and is `false`.
pub fn verify_password(password: &str, phc: Option<&str>) -> bool {
    match phc {
        Some(phc) => verify(password, phc),
        None => {
            std::hint::black_box(verify(password, std::hint::black_box(DUMMY_PHC)));
            false
        }
    }
}

fn verify(password: &str, phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    if hash.algorithm != Algorithm::Argon2id.ident() {
        return false;
    }
    let version = match hash.version {
        None => Version::V0x13,
        Some(v) => match Version::try_from(v) {
            Ok(version) => version,
            Err(_) => return false,
        },
    };
    // The parameters, and the output's length, from the string.
    let Ok(params) = Params::try_from(&hash) else {
        return false;
    };
    if params.m_cost() > MAX_M_COST_KIB
        || params.t_cost() > MAX_T_COST
        || params.p_cost() > MAX_P_COST
    {
        return false;
    }
    let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    if argon2_into(version, &params, password.as_bytes(), salt, &mut out).is_err() {
        return false;
    }
    out.ct_eq(expected.as_bytes()).into()
}

/// Argon2id of the password and salt into `out`, its memory mapped from the OS for this one
/// hash and unmapped after it.
///
/// Not `argon2`'s own allocation: that is a 19 MiB, 64-byte aligned `alloc_zeroed`, which
/// glibc's malloc serves from its heaps once the first one is freed (its mmap threshold then
/// rises to that size) and does not give back. Measured (`examples/login_cost.rs`'s way, in
/// release): one thread verifying 200 times kept 138 MB resident, and 8 threads verifying
/// 30 times each kept 1.85 GB, for 19 MiB in use per hash at a time. With a mapping of its
/// own the resident memory returns to ~2 MB after each hash, at the same speed (see the
/// huge pages below).
fn argon2_into(
    version: Version,
    params: &Params,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> anyhow::Result<()> {
    let mut memory = Memory::map(params.block_count())?;
    Argon2::new(Algorithm::Argon2id, version, params.clone())
        .hash_password_into_with_memory(password, salt, out, memory.blocks())
        .map_err(|e| anyhow!("hashing a password: {e}"))
}

/// Argon2's memory, an anonymous private mapping of `len` blocks.
struct Memory {
    blocks: NonNull<Block>,
    len: usize,
}

impl Memory {
    fn map(len: usize) -> anyhow::Result<Memory> {
        let bytes = len
            .checked_mul(std::mem::size_of::<Block>())
            .filter(|&b| b > 0)
            .ok_or_else(|| anyhow!("no Argon2 memory of {len} blocks"))?;
        // SAFETY: a new anonymous mapping, at an address of the kernel's choice, touches no
        // existing memory.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(anyhow!(
                "no memory for Argon2 ({} MiB): {}",
                bytes >> 20,
                std::io::Error::last_os_error()
            ));
        }
        // Transparent huge pages where the kernel allows them (its setting "madvise" or
        // "always"): a 4 KiB page fault at a time made a hash ~18 ms slower on the machine
        // measured (48 ms against 29 ms for argon2's own allocation, reused from the heap);
        // with 2 MiB pages it is as fast. Only advice: without it the hash is slower, not wrong.
        // SAFETY: advice about the mapping just made, of that length.
        unsafe {
            libc::madvise(p, bytes, libc::MADV_HUGEPAGE);
        }
        let blocks = NonNull::new(p.cast::<Block>()).ok_or_else(|| anyhow!("mmap gave null"))?;
        Ok(Memory { blocks, len })
    }

    fn blocks(&mut self) -> &mut [Block] {
        // SAFETY: the mapping is `len` blocks long, page-aligned (more than a block's 64
        // bytes), zero-filled (a valid `Block` is any bits), and only this value refers to it.
        unsafe { std::slice::from_raw_parts_mut(self.blocks.as_ptr(), self.len) }
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `map`, of that length, no longer borrowed.
        unsafe {
            libc::munmap(
                self.blocks.as_ptr().cast(),
                self.len * std::mem::size_of::<Block>(),
            );
        }
    }
}

/// A new random secret: 32 bytes (256 bits) from the OS in lower-case hex (64 digits), for
/// session ids, anonymous identities and invitations. Only its [`secret_hash`] is stored.
pub fn new_secret() -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow!("no random bytes from the OS: {e}"))?;
    Ok(hex(&bytes))
}

pub use crate::secret::secret_hash;

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests;
