//! lgame-web's integration tests, one module per file beside this one, in one test binary:
//! each binary links the whole server, so forty of them cost minutes of CI's build, and in
//! one the server's tests run beside the browser's (one browser at a time,
//! `browser_common`). One file's tests: `cargo test -p lgame-web --test suite web_views::`.

mod browser_common;
mod journey;
mod layers;
mod openapi_schemathesis;
mod push_service;
mod serve_accounts;
mod serve_accuracy;
mod serve_api;
mod serve_arena;
mod serve_assets;
mod serve_attacks;
mod serve_bots;
mod serve_classes;
mod serve_clocks;
mod serve_concurrency;
mod serve_decide;
mod serve_diagrams;
mod serve_durability;
mod serve_games;
mod serve_hostile;
mod serve_instances;
mod serve_lobby;
mod serve_mail;
mod serve_mail_moves;
mod serve_positions;
mod serve_postgres_schema;
mod serve_presence;
mod serve_push;
mod serve_ratings;
mod serve_records;
mod serve_refusals;
mod serve_tables;
mod serve_time;
mod tokens_at_rest;
mod web_a11y;
mod web_accounts;
mod web_arena;
mod web_bots;
mod web_clocks;
mod web_journeys;
mod web_lobby;
mod web_mail;
mod web_offers;
mod web_offline;
mod web_page;
mod web_picking;
mod web_play;
mod web_push;
mod web_ratings;
mod web_smoke;
mod web_views;
