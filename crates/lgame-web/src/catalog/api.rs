//! The catalog's HTTP path (`GET /api/catalog`, docs/api.md), described for the OpenAPI
//! document; its answer is the feature's [`Catalog`].

use crate::catalog::Catalog;

/// `GET /api/catalog`.
#[utoipa::path(get, path = "/api/catalog", tag = "positions",
    summary = "What the page offers and shows: variants, setups, levels, the solved game's figures",
    responses((status = 200, description = "The catalog", body = Catalog)))]
#[allow(dead_code)] // a description for the document, never called
fn catalog() {}
