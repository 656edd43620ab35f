//! The web page's files (`web/`), embedded at build time by `build.rs`, and how they are
//! served: each with its type, and a content security policy that keeps the page to this
//! server (no request ever leaves for another host).

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// Scripts, styles, pictures, links and sockets come from this server only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; \
     style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// The embedded file at `name` (a path under `web/`).
pub fn file(name: &str) -> Option<&'static [u8]> {
    embedded::FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| *bytes)
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" | "webmanifest" => "application/json",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A page or file answer with its type and the security headers.
pub fn serve(name: &str) -> Result<Response, ApiError> {
    let bytes = file(name).ok_or_else(|| {
        let shown: String = name.chars().take(100).collect();
        ApiError::new(StatusCode::NOT_FOUND, format!("no such file: /{shown}"))
    })?;
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
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
    Ok(response)
}

/// `GET /`: the page.
pub async fn index() -> Result<Response, ApiError> {
    serve("index.html")
}

/// `GET /assets/{*path}`.
pub async fn asset(Path(path): Path<String>) -> Result<Response, ApiError> {
    serve(&path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_scripts_are_embedded() {
        assert!(file("index.html").is_some());
        assert!(embedded::FILES.iter().any(|(n, _)| n.ends_with(".js")));
        assert!(file("../Cargo.toml").is_none());
    }
}
