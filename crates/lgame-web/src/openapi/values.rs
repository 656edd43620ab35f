//! Stand-ins for the document's schemas that name the HTTP layer's own types (the rules
//! library's values are `schema.rs`'s).

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

/// Who sits at each side.
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayersBySide {
    /// Red's player.
    red: crate::response::Player,
    /// Blue's player.
    blue: crate::response::Player,
}

/// Any JSON object (the OpenAPI document itself).
#[derive(Serialize, ToSchema)]
pub struct OpenApiDocument(BTreeMap<String, serde_json::Value>);
