//! The server's layers, read from its source as the page's `check-imports.mjs` reads the
//! page's: the HTTP layer (routes, extractors, limits, the one error → status map, the
//! OpenAPI document) above the features (games, lobby, arenas, ratings, accounts, bots, …)
//! above the store. A module names the modules it uses as `crate::name`; no module may use
//! one of a layer above its own, and no module below the HTTP layer names axum, an HTTP
//! status or the API's error (a feature refuses with its own error type, which `error.rs`
//! maps).

use std::collections::BTreeSet;
use std::path::Path;

/// The layers, lowest first, by module (a file of `src/`, or its folder). A feature's HTTP
/// part is in files named `routes.rs`, `api.rs`, `http.rs` or `handlers.rs`: the HTTP layer.
const STORE: &[&str] = &["store", "secret", "clock", "glicko"];
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
    "telemetry",
    "lib",
];
const HTTP_FILES: &[&str] = &["routes", "api", "http", "handlers"];

/// The arrows from a lower layer up that are still there: (from, to).
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

/// Every file of `src/` but the unit tests' own (`tests.rs`): its module and its text
/// without tests.
fn modules() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    paths
        .iter()
        .filter(|path| path.file_name().is_some_and(|n| n != "tests.rs"))
        .map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            let relative = path.strip_prefix(&src).unwrap();
            (module_of(relative), without_tests(&text).to_string())
        })
        .collect()
}

#[test]
fn no_module_uses_one_of_a_layer_above() {
    let mut up = BTreeSet::new();
    for (from, text) in modules() {
        for to in named(&text) {
            if to != from && layer(&to) > layer(&from) {
                up.insert((from.clone(), to));
            }
        }
    }
    assert!(
        up.is_empty(),
        "modules that use one of a layer above (HTTP above the features above the store): \
         {up:?}"
    );
}

#[test]
fn below_the_http_layer_no_module_names_http() {
    let mut found = BTreeSet::new();
    for (module, text) in modules() {
        for word in ["axum", "StatusCode", "ApiError"] {
            if layer(&module) < 2 && text.contains(word) {
                found.insert((module.clone(), word));
            }
        }
    }
    assert!(
        found.is_empty(),
        "features and the store refuse with their own errors, which error.rs maps to a \
         status: {found:?}"
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
