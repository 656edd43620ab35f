//! Stand-ins for the document's schemas that name the HTTP layer's own types (the rules
//! library's values are `schema.rs`'s, a game's players `games/view.rs`').

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

/// Any JSON object (the OpenAPI document itself).
#[derive(Serialize, ToSchema)]
pub struct OpenApiDocument(BTreeMap<String, serde_json::Value>);
