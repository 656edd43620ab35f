//! The server's layers, read from its source as the page's `check-imports.mjs` reads the
//! page's: the HTTP layer (routes, extractors, limits, the one error → status map, the
//! OpenAPI document) above the features (games, lobby, arenas, ratings, accounts, bots, …)
//! above the store. A module names the modules it uses as `crate::name`; no module may use
//! one of a layer above its own.
//!
//! The arrows that still point up are listed in [`DEBT`], each to be taken away (issue #39);
//! the test fails on a new one, and on one listed that is gone (then take it off the list).

use std::collections::BTreeSet;
use std::path::Path;

/// The layers, lowest first, by module (a file of `src/`, or its folder). A feature's HTTP
/// part is in files named `routes.rs`, `api.rs`, `http.rs` or `handlers.rs`: the HTTP layer.
const STORE: &[&str] = &["store", "secret", "clock"];
const HTTP: &[&str] = &[
    "api",
    "api_doc",
    "openapi",
    "response",
    "error",
    "extract",
    "identity",
    "listener",
    "assets",
    "limits",
    "connections",
    "lib",
];
const HTTP_FILES: &[&str] = &["routes", "api", "http", "handlers"];

/// The arrows from a lower layer up that are still there: (from, to).
const DEBT: &[(&str, &str)] = &[
    ("accounts", "accounts::api"),
    ("accounts", "api"),
    ("accounts", "error"),
    ("accounts", "extract"),
    ("accounts", "identity"),
    ("arena", "arena::api"),
    ("bots", "api"),
    ("bots", "bots::api"),
    ("bots", "error"),
    ("bots", "extract"),
    ("bots", "identity"),
    ("catalog", "catalog::api"),
    ("explore", "explore::api"),
    ("fairplay", "error"),
    ("fairplay", "identity"),
    ("flags", "extract"),
    ("lobby", "error"),
    ("lobby", "lobby::api"),
    ("store", "ratings"),
    ("tables", "error"),
];

fn layer(module: &str) -> usize {
    let mut parts = module.split("::");
    let top = parts.next().unwrap_or_default();
    if parts.next().is_some_and(|file| HTTP_FILES.contains(&file)) || HTTP.contains(&top) {
        2
    } else if STORE.contains(&top) {
        0
    } else {
        1
    }
}

/// A file's module: its first folder or name under `src/`, and its HTTP file apart.
fn module_of(relative: &Path) -> String {
    let parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.last().cloned().unwrap_or_default();
    if parts.len() > 1 && HTTP_FILES.contains(&last.as_str()) {
        format!("{}::{last}", parts[0])
    } else {
        parts[0].clone()
    }
}

/// A file's text without its tests (`#[cfg(test)] mod …`, to its end: tests come last).
fn without_tests(text: &str) -> &str {
    text.find("\n#[cfg(test)]\nmod ")
        .or_else(|| text.find("\n#[cfg(test)]\npub(crate) mod "))
        .map_or(text, |at| &text[..at])
}

/// The modules a text names as `crate::name` (with a feature's HTTP file apart).
fn named(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let word = |s: &str| -> String {
            s.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        let first = word(rest);
        let after = &rest[first.len()..];
        let second = after.strip_prefix("::").map(word).unwrap_or_default();
        if HTTP_FILES.contains(&second.as_str()) {
            found.insert(format!("{first}::{second}"));
        } else if !first.is_empty() {
            found.insert(first);
        }
    }
    found
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every arrow of the crate that points from a lower layer up.
fn arrows_up() -> BTreeSet<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    let mut up = BTreeSet::new();
    for path in paths {
        let relative = path.strip_prefix(&src).unwrap();
        if relative.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let from = module_of(relative);
        let text = std::fs::read_to_string(&path).unwrap();
        for to in named(without_tests(&text)) {
            if to != from && layer(&to) > layer(&from) {
                up.insert((from.clone(), to));
            }
        }
    }
    up
}

#[test]
fn no_module_uses_one_of_a_layer_above_but_those_still_listed() {
    let up = arrows_up();
    let listed: BTreeSet<(String, String)> = DEBT
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let new: Vec<_> = up.difference(&listed).collect();
    assert!(
        new.is_empty(),
        "modules that use one of a layer above (HTTP above the features above the store): \
         {new:?}"
    );
    let gone: Vec<_> = listed.difference(&up).collect();
    assert!(
        gone.is_empty(),
        "no longer pointing up: take them off tests/layers.rs's DEBT: {gone:?}"
    );
}

#[test]
fn the_reading_of_modules_and_layers_is_right() {
    assert_eq!(module_of(Path::new("games/machine.rs")), "games");
    assert_eq!(module_of(Path::new("lobby/routes.rs")), "lobby::routes");
    assert_eq!(module_of(Path::new("store.rs")), "store");
    assert_eq!(
        named("use crate::store::{Store};\nlet x = crate::lobby::api::Seek;"),
        ["lobby::api", "store"].map(String::from).into()
    );
    assert_eq!(
        (
            layer("store"),
            layer("games"),
            layer("lobby::routes"),
            layer("error")
        ),
        (0, 1, 2, 2)
    );
    // A made-up upward arrow is found: a store that uses the HTTP layer's errors.
    assert!(named("use crate::error::ApiError;")
        .iter()
        .any(|to| layer(to) > layer("store")));
}
