//! The web page's files (`web/`), embedded at build time by `build.rs`, and how they are
//! served: each with its type, and a content security policy that keeps the page to this
//! server (no request ever leaves for another host). Each file carries an entity tag (a hash
//! of its content, made by `build.rs`) and `Cache-Control: no-cache`: a browser keeps the
//! file, asks again with `If-None-Match`, and gets a 304 with no body until a new binary
//! serves a changed file, which it then sees at once.

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// Scripts, styles, pictures, links and sockets come from this server only; the page may
/// compile WebAssembly (its engine, `engine/lgame.wasm`), and nothing else from text.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     img-src 'self' data: blob:; \
     style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// The embedded file at `name` (a path under `web/`) with its entity tag.
fn entry(name: &str) -> Option<(&'static [u8], &'static str)> {
    embedded::FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, bytes, etag)| (*bytes, *etag))
}

/// Whether `If-None-Match` names `etag` (or is `*`), by the weak comparison RFC 9110
/// 13.1.2 asks of it: `W/"x"` and `"x"` match. The page's tags are weak (one tag for the
/// gzipped and the plain answer).
fn matches(request: &HeaderMap, etag: &str) -> bool {
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| tag.trim())
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag.trim_start_matches("W/"))
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "woff2" => "font/woff2",
        "wasm" => "application/wasm",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A page or file answer with its type, its entity tag and the security headers; a 304
/// without a body when `request`'s `If-None-Match` names the tag.
pub fn serve(name: &str, request: &HeaderMap) -> Result<Response, ApiError> {
    let (bytes, etag) = entry(name).ok_or_else(|| {
        let shown: String = name.chars().take(100).collect();
        ApiError::new(StatusCode::NOT_FOUND, format!("no such file: /{shown}"))
    })?;
    let mut response = if matches(request, etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        bytes.into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::ETAG, HeaderValue::from_static(etag));
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(name)),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    // The service worker keeps the whole page (its scope is `/`), not only `/assets/`.
    if name == "sw.js" {
        headers.insert("service-worker-allowed", HeaderValue::from_static("/"));
    }
    Ok(response)
}

/// `GET /`: the page.
pub async fn index(request: HeaderMap) -> Result<Response, ApiError> {
    serve("index.html", &request)
}

/// `GET /@/{name}`: a player's profile is the page too (it reads its path, then asks
/// `/api/users/{name}`), so the address can be shared and reloaded.
pub async fn profile(Path(_name): Path<String>, request: HeaderMap) -> Result<Response, ApiError> {
    serve("index.html", &request)
}

/// `GET /assets/{*path}`.
pub async fn asset(Path(path): Path<String>, request: HeaderMap) -> Result<Response, ApiError> {
    serve(&path, &request)
}

/// Writes the page as static files into `dir`, for any static web host (`cargo xtask
/// static DIR`): `index.html` (marked `lgame-static`, so the page asks its WebAssembly
/// engine instead of a server), every file under `assets/`, the service worker at the root
/// (`sw.js`: a static host sends no `Service-Worker-Allowed`), and the catalog as
/// `api/catalog.json` (a static host sends a JSON module's type by its extension).
///
/// # Errors
/// A file that cannot be written.
pub fn write_static_site(dir: &std::path::Path) -> std::io::Result<()> {
    let write = |name: &str, bytes: &[u8]| -> std::io::Result<()> {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, bytes)
    };
    for (name, bytes, _) in embedded::FILES {
        match *name {
            "index.html" => {
                let page = String::from_utf8_lossy(bytes).replacen(
                    "<meta charset=\"utf-8\">",
                    "<meta charset=\"utf-8\">\n  <meta name=\"lgame-static\" content=\"1\">",
                    1,
                );
                write("index.html", page.as_bytes())?;
            }
            "js/catalog.js" => {
                let module = String::from_utf8_lossy(bytes).replacen(
                    "'/api/catalog'",
                    "'/api/catalog.json'",
                    1,
                );
                write("assets/js/catalog.js", module.as_bytes())?;
            }
            "sw.js" => {
                write("sw.js", bytes)?;
                write("assets/sw.js", bytes)?;
            }
            _ => write(&format!("assets/{name}"), bytes)?,
        }
    }
    let catalog = crate::catalog::catalog(crate::DEFAULT_MAX_TABLE_STATES);
    let json = serde_json::to_vec(&catalog).map_err(std::io::Error::other)?;
    write("api/catalog.json", &json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_scripts_are_embedded() {
        assert!(entry("index.html").is_some());
        assert!(embedded::FILES.iter().any(|(n, _, _)| n.ends_with(".js")));
        assert!(entry("../Cargo.toml").is_none());
    }

    #[test]
    fn files_differ_by_their_tags_and_a_tag_list_is_read() {
        let tags: std::collections::HashSet<&str> = embedded::FILES
            .iter()
            .filter(|(_, bytes, _)| !bytes.is_empty())
            .map(|(_, _, etag)| *etag)
            .collect();
        let distinct: std::collections::HashSet<&[u8]> = embedded::FILES
            .iter()
            .filter(|(_, bytes, _)| !bytes.is_empty())
            .map(|(_, bytes, _)| *bytes)
            .collect();
        assert_eq!(tags.len(), distinct.len(), "one tag per distinct content");
        let (_, etag) = entry("index.html").expect("the page");
        let mut request = HeaderMap::new();
        assert!(!matches(&request, etag));
        request.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"0\", {}", etag.trim_start_matches("W/"))).unwrap(),
        );
        assert!(matches(&request, etag));
        request.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"0\""));
        assert!(!matches(&request, etag));
    }
}
