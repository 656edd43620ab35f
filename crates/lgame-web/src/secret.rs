//! A side's token at rest: only SHA-256(game id ‖ token) is stored or kept in memory, so a
//! copied database file gives nobody control of a game. The token itself is shown once, to
//! its holder, in the create (or import) answer.
//!
//! A seat won in the lobby (`lobby.rs`) is played with the seek's token or the pairing
//! ticket, made before its game: its stored form is [`lobby_token_hash`], which names no
//! game.
//!
//! The secrets themselves (tokens, tickets, invitation codes) and the ids of games, seeks
//! and challenges are [`random_hex`]: random bytes from the operating system.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The stored form of a game's token: SHA-256 of the game id's bytes then the token's, in
/// lower-case hex (64 digits). The id makes equal tokens of two games hash apart.
pub fn token_hash(game: &str, token: &str) -> String {
    let digest = Sha256::new()
        .chain_update(game.as_bytes())
        .chain_update(token.as_bytes())
        .finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The prefix of a seat's hash in [`lobby_token_hash`]'s form.
const LOBBY: &str = "l:";

/// The stored form of a seat's token made in the lobby before its game: `l:` and the
/// SHA-256 of the token (a 256-bit secret of its own, so no game id is needed).
pub fn lobby_token_hash(token: &str) -> String {
    lobby_seat_hash(&secret_hash(token))
}

/// [`lobby_token_hash`] from the token's stored hash ([`secret_hash`]).
pub fn lobby_seat_hash(secret_hash: &str) -> String {
    format!("{LOBBY}{secret_hash}")
}

/// Whether `token` is the one whose hash is `hash` (in either form), compared in constant
/// time.
pub fn token_matches(game: &str, token: &str, hash: &str) -> bool {
    let expected = if hash.starts_with(LOBBY) {
        lobby_token_hash(token)
    } else {
        token_hash(game, token)
    };
    expected.as_bytes().ct_eq(hash.as_bytes()).into()
}

/// `n` random bytes from the operating system's CSPRNG, in hex.
pub(crate) fn random_hex(bytes: usize) -> Result<String, getrandom::Error> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf)?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// The stored form of a secret: its SHA-256 in lower-case hex (64 digits). A secret has 256
/// random bits, so a plain fast hash suffices: nothing can be guessed from it, and a copied
/// database holds no usable session.
pub fn secret_hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_sha256_of_the_id_then_the_token() {
        // printf '%s' 'abc' | sha256sum: the id and the token are simply concatenated.
        assert_eq!(
            token_hash("a", "bc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(token_matches("g1", "t", &token_hash("g1", "t")));
        assert!(!token_matches("g2", "t", &token_hash("g1", "t")));
        assert!(!token_matches("g1", "u", &token_hash("g1", "t")));
        // The lobby's form names no game, and only its own token matches it.
        assert!(token_matches("g1", "t", &lobby_token_hash("t")));
        assert!(token_matches("g2", "t", &lobby_token_hash("t")));
        assert!(!token_matches("g1", "u", &lobby_token_hash("t")));
    }
}
