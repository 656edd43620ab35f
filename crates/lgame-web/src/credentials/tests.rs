use argon2::{PasswordHasher, PasswordVerifier};

use super::*;

#[test]
fn usernames_of_2_to_20_letters_digits_underscores_and_hyphens_are_accepted() {
    for name in [
        "ab",
        "Al",
        "x1",
        "_-",
        "a_b-c",
        "Carol_2024",
        "UPPER",
        "lower",
        "0123456789",
        "abcdefghijklmnopqrst", // 20
        "admin2",
        "my-admin",
        "rooted",
    ] {
        assert_eq!(check_username(name), Ok(()), "{name}");
    }
}

#[test]
fn usernames_too_short_too_long_or_with_other_characters_are_refused() {
    let refused = |name: &str| check_username(name).expect_err(name);
    assert!(refused("").contains("Choose"));
    assert!(refused("a").contains("at least 2"));
    assert!(refused("abcdefghijklmnopqrstu").contains("at most 20")); // 21
    assert!(refused("a b").contains("a space"), "{}", refused("a b"));
    assert!(refused("café").contains("U+00E9"), "{}", refused("café"));
    // A Cyrillic 'а' (U+0430) that looks like the Latin 'a' of "admin".
    assert!(refused("\u{430}dmin").contains("U+0430"));
    assert!(refused("a.b").contains("'.'"));
    for name in [
        "a@b", "a/b", "a+b", "ab\n", "tab\tbed", "a'b", "a\"b", "1️⃣1",
    ] {
        refused(name);
    }
    // A 20-character name is counted in characters, not bytes: 20 'é' are 40 bytes but
    // still refused for the letter, not the length.
    assert!(refused(&"é".repeat(20)).contains("Latin"));
}

#[test]
fn reserved_names_are_refused_in_any_case() {
    for name in [
        "admin",
        "Admin",
        "ADMIN",
        "aDmInIsTrAtOr",
        "anonymous",
        "Deleted",
        "computer",
        "system",
        "LGame",
        "moderator",
        "root",
        "server",
        "bot",
        "API",
        "null",
        "guest",
        "me",
        "account",
        "assets",
        "healthz",
        "users",
    ] {
        let message = check_username(name).expect_err(name);
        assert!(message.contains("reserved"), "{name}: {message}");
    }
    for name in RESERVED {
        assert_eq!(username_key(name), *name, "the list is of keys");
        let shown = name.to_uppercase();
        assert!(check_username(&shown).is_err(), "{shown}");
    }
}

#[test]
fn the_key_is_ascii_lower_case() {
    assert_eq!(username_key("Alice_B-42"), "alice_b-42");
    assert_eq!(username_key("alice"), username_key("ALICE"));
    assert_ne!(username_key("alice"), username_key("alice_"));
}

#[test]
fn short_common_and_username_passwords_are_refused() {
    let refused = |password: &str, user: &str| {
        let message = check_password(password, user).expect_err(password);
        assert!(!message.is_empty());
        if password.len() >= 4 {
            assert!(!message.contains(password), "echoed: {message}");
        }
        message
    };
    assert!(refused("Zx9#qLm", "carol").contains("at least 8")); // 7 characters
    assert!(refused("password123", "carol").contains("guess"));
    assert!(refused("qwertyuiop", "carol").contains("guess"));
    assert!(refused("12345678", "carol").contains("guess"));
    assert!(refused("iloveyou", "carol").contains("guess"));
    // The username itself, in any case, and the username with a little added.
    assert!(refused("xk7Qpz9wLm", "xk7Qpz9wLm").contains("username"));
    assert!(refused("XK7QPZ9WLM", "xk7Qpz9wLm").contains("username"));
    refused("xk7Qpz9wLm1", "xk7Qpz9wLm");
    // Too long, in bytes: 200 two-byte letters are 400 bytes.
    let long = "é".repeat(200);
    assert!(refused(&long, "carol").contains("at most 256 bytes"));
    assert!(refused(&"a".repeat(257), "carol").contains("at most 256"));
}

#[test]
fn the_guessable_passwords_of_the_attack_are_refused() {
    for (password, user, why) in [
        ("bobby_pw1", "bobby", "username"),
        ("Summer2024!", "carol", "guess"),
        ("lgame1234", "carol", "site"),
        ("L-Game-rules-2026", "carol", "site"),
        ("my L game pass", "carol", "site"),
        ("correcthorse", "carol", "guess"),
        ("tab\tinside-Quiet-Orbit", "carol", "control"),
    ] {
        let message = check_password(password, user).expect_err(password);
        assert!(message.contains(why), "{password}: {message}");
        assert!(!message.contains(password), "echoed: {message}");
    }
}

#[test]
fn the_passwords_the_tests_use_are_accepted() {
    for password in [
        "Quiet-Lantern-Orbit-71",
        "violet-L-pieces-37",
        "Granite-Meadow-Fox-88",
        "Copper-Willow-Finch-61",
        "Harbor-Cobalt-Wren-907",
        "Lilac-Summit-Otter-404",
        "Saffron-Glacier-Moth-12",
        "Thistle-Beacon-Raven-38",
        "Velvet-Tractor-Plum-3141",
        "Walnut-Harvest-Comet-56",
        "Whatever-New-Pass-77",
        "Changed-By-Evil-99",
        "another-violet-L-99",
        "Wrong-Password-00",
    ] {
        assert_eq!(check_password(password, "alice"), Ok(()), "{password}");
    }
}

#[test]
fn names_fold_as_people_read_them() {
    assert_eq!(
        username_fold("lgame_perfect"),
        username_fold("lgame-perfect")
    );
    assert_eq!(
        username_fold("LGAME.Perfect"),
        username_fold("lgame-perfect")
    );
    assert_eq!(
        username_fold("1game-perfect"),
        username_fold("lgame-perfect")
    );
    assert_eq!(
        username_fold("Igame_perfect"),
        username_fold("lgame-perfect")
    );
    assert_eq!(username_fold("b0b"), username_fold("bob"));
    assert_eq!(username_fold("rnallory"), username_fold("mallory"));
    // A letter changed is another name.
    assert_ne!(
        username_fold("lgame-perfekt"),
        username_fold("lgame-perfect")
    );
    assert_ne!(
        username_fold("lgame-perf3ct"),
        username_fold("lgame-perfect")
    );
    for name in [
        "lgame_perfect",
        "LGAME-perfect",
        "1game-perfect",
        "adm1n",
        "r00t",
    ] {
        let message = check_username(name).expect_err(name);
        assert!(message.contains("reserved"), "{name}: {message}");
    }
    assert_eq!(check_username("lgame-perfekt"), Ok(()));
}

#[test]
fn a_long_random_phrase_is_accepted() {
    assert_eq!(
        check_password("correct horse battery staple tundra", "carol"),
        Ok(())
    );
    assert_eq!(check_password("vT9#kq2!Lw", "carol"), Ok(()));
    assert_eq!(check_password("юла-в-пятницу-смеялась", "carol"), Ok(()));
    // 8 characters of 2 bytes each: the minimum is in characters.
    assert_eq!(check_password("ЖщЫфЮэЬъ", "carol"), Ok(()));
    // 256 bytes exactly.
    let mut at_most = String::new();
    while at_most.len() < PASSWORD_MAX_BYTES {
        at_most.push(char::from(b'a' + (at_most.len() * 7 % 26) as u8));
    }
    assert_eq!(at_most.len(), 256);
    assert_eq!(check_password(&at_most, "carol"), Ok(()));
}

#[test]
fn a_hash_verifies_its_password_only() {
    let phc = hash_password("correct horse battery staple").unwrap();
    assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
    assert!(verify_password("correct horse battery staple", Some(&phc)));
    assert!(!verify_password("correct horse battery stapl", Some(&phc)));
    assert!(!verify_password("", Some(&phc)));
    // A second hash of the same password has another salt.
    let again = hash_password("correct horse battery staple").unwrap();
    assert_ne!(phc, again);
    assert!(verify_password(
        "correct horse battery staple",
        Some(&again)
    ));
}

#[test]
fn old_parameters_still_verify() {
    // A hash made with other (cheaper) parameters: read from the string, not assumed.
    let params = Params::new(8, 1, 1, None).unwrap();
    let phc = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_with_salt(b"an older password", &[7u8; 16])
        .unwrap()
        .to_string();
    assert!(phc.starts_with("$argon2id$v=19$m=8,t=1,p=1$"), "{phc}");
    assert!(verify_password("an older password", Some(&phc)));
    assert!(!verify_password("an older passwore", Some(&phc)));
}

#[test]
fn the_hash_is_the_argon2_crates_own() {
    // The hash computed here, in memory mapped here, is what argon2's PHC API computes.
    let phc = hash_password("a password of mine").unwrap();
    let parsed = PasswordHash::new(&phc).unwrap();
    let argon2 = Argon2::default();
    assert!(argon2
        .verify_password(b"a password of mine", &parsed)
        .is_ok());
    assert!(argon2
        .verify_password(b"a password of yours", &parsed)
        .is_err());
    assert_eq!(parsed.hash.unwrap().len(), 32);
}

#[test]
fn an_unknown_user_is_false_against_the_dummy_with_the_same_parameters() {
    assert!(!verify_password("", None));
    assert!(!verify_password("correct horse battery staple", None));
    let dummy = PasswordHash::new(DUMMY_PHC).unwrap();
    let current = PasswordHash::new(&hash_password("x").unwrap()).unwrap();
    assert_eq!(dummy.algorithm, current.algorithm);
    assert_eq!(dummy.version, current.version);
    assert_eq!(dummy.params, current.params, "make DUMMY_PHC anew");
    assert_eq!(dummy.salt.unwrap().len(), SALT_BYTES);
}

#[test]
fn malformed_or_foreign_hashes_are_false() {
    let good = hash_password("hunter2hunter2").unwrap();
    let cut = &good[..good.len() - 10];
    let other_salt = good.replacen("p=1$", "p=1$AAAA", 1);
    let argon2i = good.replacen("$argon2id$", "$argon2i$", 1);
    let huge = good.replacen("m=19456", "m=4000000000", 1);
    let over = good.replacen("m=19456", "m=262145", 1); // 256 MiB and 1 KiB
    let slow = good.replacen("t=2", "t=1000000", 1);
    for phc in [
        "",
        "$",
        "$$$$$$",
        "hunter2hunter2",
        "$argon2id$",
        "$argon2id$v=19$m=19456,t=2,p=1$",
        "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$",
        "$argon2id$v=99$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=0,t=0,p=0$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$argon2id$v=19$m=x,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
        "$argon2id$v=19$m=19456,t=2,p=1$ü$ü",
        cut,
        &other_salt,
        &argon2i,
        &huge,
        &over,
        &slow,
    ] {
        assert!(!verify_password("hunter2hunter2", Some(phc)), "{phc}");
    }
    assert!(verify_password("hunter2hunter2", Some(&good)));
}

#[test]
fn secrets_are_64_lower_hex_digits_and_distinct() {
    let a = new_secret().unwrap();
    let b = new_secret().unwrap();
    for s in [&a, &b] {
        assert_eq!(s.len(), 64);
        assert!(
            s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')),
            "{s}"
        );
    }
    assert_ne!(a, b);
    assert_eq!(secret_hash(&a).len(), 64);
    assert_ne!(secret_hash(&a), secret_hash(&b));
}

#[test]
fn the_secret_hash_is_sha256_hex() {
    // printf '%s' abc | sha256sum
    assert_eq!(
        secret_hash("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}
