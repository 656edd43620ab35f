//! The API described for machines: an OpenAPI 3.1 document of every endpoint, its request
//! body or query, its answers and its refusals (`GET /api/openapi.json`, docs/api.md
//! "The OpenAPI document").
//!
//! The schemas are derived from the Rust types the server reads and writes by `utoipa`: each
//! feature's own in its HTTP part (`games/api.rs`, `accounts/api.rs`, `lobby/api.rs`,
//! `ratings/api.rs`, `arena/api.rs`, `bots/api.rs`, `explore/api.rs`, `catalog/api.rs`) or,
//! those the feature itself builds or reads, in the feature (`lobby.rs`, `arena.rs`,
//! `explore.rs`, `catalog.rs`), those several features answer with in `response.rs`. The
//! values of the rules library and the solver (positions, moves, sides, reasons, the
//! analysis), whose crates know no OpenAPI, are described by types of their own that stand
//! for them in the schemas only (`schema.rs`, below the HTTP layer so that the features'
//! types name them too; `openapi/values.rs` those that name the HTTP layer's types): the
//! tests validate real answers, and every example of docs/api.md, against the document, so
//! a description that drifts from what the library serializes fails there.
//!
//! The paths are described by doc-only functions (`#[utoipa::path]`), each feature's beside
//! its types, the server's and the page's below; a test reads the routers' routes from
//! their sources and fails when one is not in the document, or the document has one the
//! routers do not.
//!
//! The WebSocket (`/api/games/{id}/ws`) is an HTTP upgrade: OpenAPI describes its request
//! and its refusals, and the messages it sends are the schema `GameMessage`, named by the
//! operation's `x-websocket` extension (which marks it as a stream a generic HTTP client
//! such as Schemathesis skips).

// The types and functions below describe; nothing calls or builds them.
#![allow(dead_code)]

use std::sync::OnceLock;

use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::{IntoResponses, OpenApi};

mod values;
pub use crate::schema::*;
pub use values::*;

use crate::accounts::api as accounts;
use crate::arena::api as arenas;
use crate::bots::api as bots;
use crate::catalog::api as catalog;
use crate::explore::api as explore;
use crate::games::api as games;
use crate::games::GameMessage;
use crate::lobby::api as lobby;
use crate::mail::api as mail;
use crate::push::api as push;
use crate::ratings::api as ratings;
use crate::response::{ErrorBody, Health};

/// The WebSockets, which the document marks as streams, and the schema of their messages.
pub const WEBSOCKETS: [(&str, &str); 2] = [
    ("/api/games/{id}/ws", "GameMessage"),
    ("/api/lobby/ws", "LobbyMessage"),
];

/// The document's JSON, made once.
pub fn json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        serde_json::to_string_pretty(&document()).expect("the OpenAPI document serializes")
    })
}

/// The OpenAPI document of the API.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    for (path, schema) in WEBSOCKETS {
        let Some(op) = doc
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.get.as_mut())
        else {
            continue;
        };
        let marks = ExtensionsBuilder::new()
            .add(
                "x-websocket",
                serde_json::json!({
                    "subprotocol": null,
                    "server_messages": {
                        "encoding": "text, one JSON object a message",
                        "schema": { "$ref": format!("#/components/schemas/{schema}") }
                    },
                    "client_messages": "read and ignored"
                }),
            )
            .add("x-streaming", "websocket")
            .build();
        match &mut op.extensions {
            Some(extensions) => extensions.merge(marks),
            None => op.extensions = Some(marks),
        }
    }
    for path in STREAMS {
        let op = doc
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.get.as_mut());
        if let Some(op) = op {
            let marks = ExtensionsBuilder::new()
                .add("x-streaming", "ndjson")
                .build();
            match &mut op.extensions {
                Some(extensions) => extensions.merge(marks),
                None => op.extensions = Some(marks),
            }
        }
    }
    link_new_games(&mut doc);
    doc
}

/// The long answers of NDJSON, which the document marks as streams.
pub const STREAMS: [&str; 2] = ["/api/games/{id}/stream", "/api/bot/events"];

/// OpenAPI links from a new game's answer (201) to the operations on the game, with its id
/// and Red's token: how a client (and Schemathesis's stateful tests) goes from one to the
/// next.
fn link_new_games(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::link::LinkBuilder;
    use utoipa::openapi::RefOr;

    let id = "$response.body#/id";
    let token = "$response.body#/players/red/token";
    let links = [
        ("show", "the game's state", None),
        ("record", "the game's record", None),
        (
            "play",
            "a move in the game",
            Some(serde_json::json!({ "token": token, "ply": 1, "move": "A1,A2,A3,B3 D1-D2" })),
        ),
        (
            "undo",
            "take back in the game",
            Some(serde_json::json!({ "token": token })),
        ),
        (
            "draw",
            "offer a draw in the game",
            Some(serde_json::json!({ "token": token })),
        ),
        (
            "resign",
            "resign the game",
            Some(serde_json::json!({ "token": token })),
        ),
        (
            "rematch",
            "a rematch of the game",
            Some(serde_json::json!({ "token": token })),
        ),
    ];
    for path in ["/api/games", "/api/games/import"] {
        let Some(op) = doc
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.post.as_mut())
        else {
            continue;
        };
        let Some(RefOr::T(created)) = op.responses.responses.get_mut("201") else {
            continue;
        };
        for (operation, description, body) in &links {
            let link = LinkBuilder::new()
                .operation_id(*operation)
                .description(*description)
                .parameter("id", id)
                .request_body(body.clone())
                .build();
            created.links.insert(operation.to_string(), RefOr::T(link));
        }
    }
}

/// The refusals of a JSON body, which every endpoint that reads one may answer.
#[derive(IntoResponses)]
#[allow(dead_code)] // a description for the document, never made
pub(crate) enum BodyRefusals {
    #[response(status = 413, description = "The body is over 64 KiB")]
    TooLarge(ErrorBody),
    #[response(
        status = 415,
        description = "The body is not declared `application/json`"
    )]
    NotJson(ErrorBody),
}

/// The refusal of a call that changes something, past its account's or its address's count
/// (`limits::Action`).
#[derive(IntoResponses)]
#[allow(dead_code)] // a description for the document, never made
pub(crate) enum ActionRefusals {
    #[response(
        status = 429,
        description = "Too many calls of this kind from this account or this address (`too_many_requests`, `Retry-After`; docs/server.md, \"Limits on what changes\")"
    )]
    TooMany(ErrorBody),
}

/// The refusal of whatever writes to the database, when the database cannot take it.
#[derive(IntoResponses)]
#[allow(dead_code)] // a description for the document, never made
pub(crate) enum StorageRefusals {
    #[response(
        status = 503,
        description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)"
    )]
    Unavailable(ErrorBody),
}

/// The refusals every command to a game may answer, whatever the command.
#[derive(IntoResponses)]
#[allow(dead_code)] // a description for the document, never made
pub(crate) enum GameRefusals {
    #[response(
        status = 403,
        description = "The token or the asker's seat plays no side of this game (`not_a_side`), \
                       or a request with cookies came from another site (`foreign_origin`)"
    )]
    NotASide(ErrorBody),
    #[response(status = 404, description = "No game has this id")]
    NoGame(ErrorBody),
    #[response(
        status = 503,
        description = "The database cannot take it now: out of reach (`unavailable`), its disk full (`storage_full`) or read-only (`storage_read_only`); nothing changed (`Retry-After`)"
    )]
    Unavailable(ErrorBody),
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "The L game server",
        description = "The HTTP and WebSocket API of `lgame serve` (docs/api.md): games, \
                       their moves and live updates, and questions about positions. Every \
                       refusal is a 4xx or 5xx with an `ErrorBody`.",
        license(name = "MIT OR Apache-2.0"),
    ),
    paths(
        healthz, openapi_json, games::create, games::import, games::show, games::play,
        games::undo, games::undo_accept, games::undo_decline, games::rematch, games::draw,
        games::draw_decline, games::resign, games::give_time, games::claim, games::record,
        games::websocket, explore::analysis, explore::position, explore::classes,
        catalog::catalog, explore::qr, explore::diagram, explore::records, index, profile_page, asset, accounts::seat, accounts::invitation,
        accounts::sign_up, accounts::account, accounts::session, accounts::close_account, accounts::log_in,
        accounts::log_out, accounts::change_password, accounts::end_other_sessions,
        accounts::list_sessions, accounts::end_one_session,
        mail::ask_reset, mail::confirm_reset, mail::change_email, mail::confirm_email,
        mail::mail_choices, mail::choose_mail, mail::unsubscribe_page, mail::unsubscribe,
        accounts::export, accounts::my_games, accounts::profile, accounts::user_games,
        lobby::create_seek, lobby::list_seeks, lobby::show_seek, lobby::withdraw_seek,
        lobby::accept_seek, lobby::join_pool, lobby::show_ticket, lobby::leave_pool,
        lobby::websocket, ratings::user_ratings, ratings::leaderboard,
        arenas::create_arena, arenas::list_arenas, arenas::show_arena, arenas::join_arena,
        arenas::leave_arena, bots::make_bot, bots::create_token, bots::list_tokens,
        bots::revoke_token, bots::list_bots, bots::challenge, bots::show_challenge,
        bots::cancel_challenge, bots::accept_challenge, bots::decline_challenge,
        bots::events, bots::game_stream, push::push_key, push::subscribe, push::unsubscribe
    ),
    components(schemas(GameMessage, lobby::LobbyMessage, ErrorBody, PartialLError, IllegalMove)),
    tags(
        (name = "games", description = "Games: created, played, watched."),
        (name = "accounts", description = "Accounts, sessions, players' profiles and games."),
        (name = "lobby", description = "Seeks and quick pairing: games with strangers."),
        (name = "ratings", description = "Ratings, their history, leaderboards."),
        (name = "arenas", description = "Arena tournaments: made, joined, their standings."),
        (name = "bots", description = "Bot accounts, API tokens, challenges, the bots' events."),
        (name = "positions", description = "Questions about positions that are not games."),
        (name = "server", description = "The server itself."),
        (name = "page", description = "The web page's files."),
    )
)]
struct ApiDoc;

// ---- The paths ----

/// `GET /healthz`.
#[utoipa::path(get, path = "/healthz", tag = "server",
    summary = "The server's health: games and tables in memory",
    responses((status = 200, description = "The server answers", body = Health)))]
fn healthz() {}

/// `GET /api/openapi.json`.
#[utoipa::path(get, path = "/api/openapi.json", tag = "server",
    summary = "This document",
    responses((status = 200, description = "The OpenAPI 3.1 document of the API", body = OpenApiDocument)))]
fn openapi_json() {}

/// `GET /`.
#[utoipa::path(get, path = "/", tag = "page",
    summary = "The web page (docs/web.md)",
    responses(
        (status = 200, description = "The page", body = String, content_type = "text/html"),
        (status = 304, description = "Not modified (`If-None-Match`)"),
    ))]
fn index() {}

/// `GET /@/{name}`.
#[utoipa::path(get, path = "/@/{name}", tag = "page",
    summary = "The web page at a player's profile (it reads the path)",
    params(("name" = String, Path, description = "The player's username")),
    responses(
        (status = 200, description = "The page", body = String, content_type = "text/html"),
        (status = 304, description = "Not modified (`If-None-Match`)"),
    ))]
fn profile_page() {}

/// `GET /assets/{path}`.
#[utoipa::path(get, path = "/assets/{path}", tag = "page",
    summary = "A file of the web page",
    params(("path" = String, Path, description = "The file's path under `web/`")),
    responses(
        (status = 200, description = "The file, typed by its name", content(
            (String = "text/javascript"),
            (String = "text/css"),
            (String = "text/html"),
            (String = "image/svg+xml"),
            (String = "image/png"),
            (String = "image/x-icon"),
            (String = "application/json"),
            (String = "text/plain"),
            (String = "application/octet-stream"),
        )),
        (status = 304, description = "Not modified (`If-None-Match`)"),
        (status = 404, description = "No such file", body = ErrorBody),
    ))]
fn asset() {}

/// Where `value` breaks the document's schema `name` (a component, e.g. `GameState`): the
/// validator's messages, none if it conforms.
#[cfg(test)]
pub(crate) fn schema_errors(name: &str, value: &serde_json::Value) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_str(json()).expect("the document is JSON");
    assert!(
        doc["components"]["schemas"].get(name).is_some(),
        "the document has no schema {name}"
    );
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/components/schemas/{name}"),
        "components": doc["components"],
    });
    let validator = jsonschema::validator_for(&schema).expect("the document's schemas compile");
    validator
        .iter_errors(value)
        .map(|e| format!("{name}{}: {e}", e.instance_path()))
        .collect()
}

/// The page's JSDoc types of the document's schemas (`web/js/api-types.js`): a `@typedef`
/// for each, its description and its fields' (`@property`, `[name]` when it may be left
/// out), the types written as TypeScript reads them.
#[cfg(test)]
pub(crate) fn jsdoc() -> String {
    use serde_json::Value;

    fn comment(text: &str) -> String {
        text.replace("*/", "*\\/")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn literal(value: &Value) -> String {
        match value {
            Value::String(s) => format!("'{}'", s.replace('\'', "\\'")),
            other => other.to_string(),
        }
    }
    fn union(types: Vec<String>) -> String {
        let mut unique: Vec<String> = Vec::new();
        for t in types {
            if !unique.contains(&t) {
                unique.push(t);
            }
        }
        unique.join(" | ")
    }
    fn ts(schema: &Value) -> String {
        if let Some(r) = schema["$ref"].as_str() {
            return r.rsplit('/').next().unwrap_or(r).to_string();
        }
        if let Some(options) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
            return union(options.iter().map(ts).collect());
        }
        if let Some(parts) = schema["allOf"].as_array() {
            let parts: Vec<String> = parts.iter().map(|p| format!("({})", ts(p))).collect();
            return parts.join(" & ");
        }
        if let Some(values) = schema["enum"].as_array() {
            return union(values.iter().map(literal).collect());
        }
        match &schema["type"] {
            Value::Array(types) => union(
                types
                    .iter()
                    .map(|t| {
                        let mut one = schema.clone();
                        one["type"] = t.clone();
                        ts(&one)
                    })
                    .collect(),
            ),
            Value::String(t) => match t.as_str() {
                "string" => "string".into(),
                "integer" | "number" => "number".into(),
                "boolean" => "boolean".into(),
                "null" => "null".into(),
                "array" => {
                    let item = ts(&schema["items"]);
                    if item.contains([' ', '|', '&']) {
                        format!("Array<{item}>")
                    } else {
                        format!("{item}[]")
                    }
                }
                "object" => object(schema),
                other => panic!("a schema of type {other}"),
            },
            _ if schema.get("properties").is_some() => object(schema),
            _ => "unknown".into(),
        }
    }
    fn object(schema: &Value) -> String {
        let required = |name: &str| {
            schema["required"]
                .as_array()
                .is_some_and(|r| r.iter().any(|n| n == name))
        };
        match (
            schema["properties"].as_object(),
            &schema["additionalProperties"],
        ) {
            (Some(props), _) => {
                let fields: Vec<String> = props
                    .iter()
                    .map(|(name, s)| {
                        let optional = if required(name) { "" } else { "?" };
                        format!("{name}{optional}: {}", ts(s))
                    })
                    .collect();
                format!("{{ {} }}", fields.join(", "))
            }
            (None, Value::Object(_)) => {
                format!("Record<string, {}>", ts(&schema["additionalProperties"]))
            }
            _ => "Record<string, unknown>".into(),
        }
    }

    let doc: Value = serde_json::from_str(json()).expect("the document is JSON");
    let mut out = String::from(
        "// @ts-check\n\
         // GENERATED from the server's OpenAPI document (GET /api/openapi.json, made from the\n\
         // Rust types by crates/lgame-web/src/openapi.rs): do not edit. The test\n\
         // openapi::tests::the_pages_api_types_are_the_documents fails when it differs;\n\
         // `LGAME_BLESS=1 cargo test -p lgame-web --lib openapi` writes it again.\n\
         // JSDoc only: the API's answers and bodies as the page reads and sends them.\n",
    );
    for (name, schema) in doc["components"]["schemas"].as_object().expect("schemas") {
        out.push_str("\n/**\n");
        if let Some(text) = schema["description"].as_str() {
            out.push_str(&format!(" * {}\n", comment(text)));
        }
        match schema["properties"].as_object() {
            Some(props) if schema.get("oneOf").is_none() && schema.get("allOf").is_none() => {
                out.push_str(&format!(" * @typedef {{Object}} {name}\n"));
                let required = schema["required"].as_array().cloned().unwrap_or_default();
                for (field, s) in props {
                    let shown = if required.iter().any(|r| r == field) {
                        field.clone()
                    } else {
                        format!("[{field}]")
                    };
                    let text = s["description"]
                        .as_str()
                        .or(s["oneOf"][0]["description"].as_str())
                        .map(|d| format!(" {}", comment(d)))
                        .unwrap_or_default();
                    out.push_str(&format!(" * @property {{{}}} {shown}{text}\n", ts(s)));
                }
            }
            _ => out.push_str(&format!(" * @typedef {{{}}} {name}\n", ts(schema))),
        }
        out.push_str(" */\n");
    }
    out.push_str("\nexport {};\n");
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use utoipa::openapi::path::HttpMethod;

    use super::*;

    /// The routers' sources: the games' and the accounts'.
    const API_RS: &str = concat!(
        include_str!("api.rs"),
        include_str!("accounts/routes.rs"),
        include_str!("mail/routes.rs"),
        include_str!("lobby/routes.rs"),
        include_str!("ratings/routes.rs"),
        include_str!("arena/routes.rs"),
        include_str!("bots/routes.rs"),
        include_str!("push/routes.rs")
    );

    /// The routes of `api::router`, read from its source: each `.route("PATH", …)` and the
    /// methods it is given (`get(…)`, `post(…)`, chained or not), the path as OpenAPI writes
    /// it (`{*path}` → `{path}`).
    fn router_routes() -> BTreeSet<(String, String)> {
        let mut routes = BTreeSet::new();
        let mut rest = API_RS;
        while let Some(at) = rest.find(".route(") {
            rest = rest[at + ".route(".len()..].trim_start();
            let Some(quoted) = rest.strip_prefix('"') else {
                continue;
            };
            rest = quoted;
            let end = rest.find('"').expect("a route's path ends");
            let path = any_params(&rest[..end].replace("{*", "{"));
            // The route's methods: up to the next route, fallback or the router's end.
            let call = &rest[end..];
            let stop = [".route(", ".fallback", ".layer", ".with_state"]
                .iter()
                .filter_map(|s| call.find(s))
                .min()
                .unwrap_or(call.len());
            let call = &call[..stop];
            for method in ["get", "post", "put", "delete", "patch"] {
                let mut from = 0;
                while let Some(i) = call[from..].find(&format!("{method}(")) {
                    let i = from + i;
                    let before = call[..i].chars().next_back();
                    if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        routes.insert((method.to_uppercase(), path.clone()));
                    }
                    from = i + method.len();
                }
            }
        }
        routes
    }

    fn documented_routes() -> BTreeSet<(String, String)> {
        let doc = document();
        let mut routes = BTreeSet::new();
        for (path, item) in &doc.paths.paths {
            for (method, op) in [
                (HttpMethod::Get, &item.get),
                (HttpMethod::Post, &item.post),
                (HttpMethod::Put, &item.put),
                (HttpMethod::Delete, &item.delete),
                (HttpMethod::Patch, &item.patch),
            ] {
                if op.is_some() {
                    let name = serde_json::to_value(&method).unwrap();
                    let name = name.as_str().unwrap().to_uppercase();
                    routes.insert((name, any_params(path)));
                }
            }
        }
        routes
    }

    /// A path with its parameters' names left out (`/api/challenges/{}`): the router names
    /// one segment once (`{id}`), the document may name it by what each method takes there
    /// (`{username}` to challenge, `{id}` to read).
    fn any_params(path: &str) -> String {
        let mut out = String::new();
        let mut inside = false;
        for c in path.chars() {
            match c {
                '{' => {
                    inside = true;
                    out.push_str("{}");
                }
                '}' => inside = false,
                _ if inside => {}
                _ => out.push(c),
            }
        }
        out
    }

    #[test]
    fn the_pages_api_types_are_the_documents() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/web/js/api-types.js");
        let generated = jsdoc();
        if std::env::var_os("LGAME_BLESS").is_some() {
            std::fs::write(path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == generated,
            "web/js/api-types.js is not the OpenAPI document's types: \
             `LGAME_BLESS=1 cargo test -p lgame-web --lib openapi` writes it again"
        );
    }

    #[test]
    fn the_schemas_refuse_what_the_server_never_answers() {
        let state = serde_json::json!({ "red": "human", "blue": "human" });
        assert!(schema_errors("Seats", &state).is_empty());
        let extra = serde_json::json!({ "red": "human", "blue": "human", "green": "human" });
        assert!(
            !schema_errors("Seats", &extra).is_empty(),
            "an unknown field"
        );
        let reason = serde_json::json!({ "kind": "occupied", "cell": "B1" });
        assert!(
            !schema_errors("IllegalMove", &reason).is_empty(),
            "a field missing"
        );
        let unknown = serde_json::json!({ "kind": "no_such_reason" });
        assert!(
            !schema_errors("PartialLError", &unknown).is_empty(),
            "an unknown kind"
        );
        let side = serde_json::json!("green");
        assert!(!schema_errors("Color", &side).is_empty(), "not a side");
    }

    #[test]
    fn every_route_of_the_router_is_in_the_document_and_no_other() {
        let router = router_routes();
        assert!(
            router.len() >= 20,
            "the routes of api::router are read from api.rs's `.route(\"PATH\", METHOD(...))` \
             calls; found only {router:?}: if the router moved, read it where it is now"
        );
        let documented = documented_routes();
        let undocumented: Vec<_> = router.difference(&documented).collect();
        let unrouted: Vec<_> = documented.difference(&router).collect();
        assert!(
            undocumented.is_empty() && unrouted.is_empty(),
            "routes of the router not in the OpenAPI document (describe them in openapi.rs): \
             {undocumented:?}; in the document, not routed: {unrouted:?}"
        );
    }

    #[test]
    fn every_operation_has_its_answers_schemas_and_its_request() {
        let doc: serde_json::Value = serde_json::from_str(json()).unwrap();
        let mut missing = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let what = format!("{} {path}", method.to_uppercase());
                let responses = op["responses"].as_object().unwrap();
                let ok = responses.keys().any(|s| s.starts_with('2') || s == "101");
                if !ok {
                    missing.push(format!("{what}: no success answer"));
                }
                for (status, answer) in responses {
                    let bodiless = status == "101" || status == "204" || status == "304";
                    let has_schema = answer["content"].as_object().is_some_and(|c| {
                        !c.is_empty() && c.values().all(|m| m.get("schema").is_some())
                    });
                    if !bodiless && !has_schema {
                        missing.push(format!("{what} {status}: no schema"));
                    }
                    if status.starts_with(['4', '5']) {
                        let schema = &answer["content"]["application/json"]["schema"]["$ref"];
                        if schema != "#/components/schemas/ErrorBody" {
                            missing.push(format!("{what} {status}: not an ErrorBody"));
                        }
                    }
                }
                if method == "post"
                    && op["requestBody"]["content"]["application/json"]["schema"].is_null()
                {
                    missing.push(format!("{what}: no request body schema"));
                }
                let params_in_path = path.matches('{').count();
                let path_params = op["parameters"]
                    .as_array()
                    .map_or(0, |ps| ps.iter().filter(|p| p["in"] == "path").count());
                if params_in_path != path_params {
                    missing.push(format!("{what}: {path_params} path parameters described"));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "the OpenAPI document lacks:\n{}",
            missing.join("\n")
        );
        assert_eq!(doc["openapi"], "3.1.0");
        for (path, schema) in WEBSOCKETS {
            let ws = &doc["paths"][path]["get"];
            assert_eq!(ws["x-streaming"], "websocket", "{path} is marked a stream");
            assert_eq!(
                ws["x-websocket"]["server_messages"]["schema"]["$ref"],
                format!("#/components/schemas/{schema}")
            );
            assert!(doc["components"]["schemas"][schema].is_object(), "{schema}");
        }
    }
}
