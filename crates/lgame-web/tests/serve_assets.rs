//! The page's files (docs/api.md, "The page"): served with a policy keeping the page to
//! this server, never a file outside the embedded page whatever the path, gzipped for a
//! client that accepts it, and tagged so that a matching `If-None-Match` is 304; end to
//! end over HTTP on a loopback port.

use std::collections::BTreeSet;
use std::io::Read;

use lgame_test_support::http::Answer;
use lgame_test_support::raw;
use lgame_test_support::server::Server;

#[test]
fn the_page_is_served_with_a_policy_keeping_it_to_this_server() {
    let (_dir, server) = Server::in_temp_dir("page-assets");
    let page = server.get_with("/", &[]);
    assert_eq!(page.status, 200);
    assert!(page.header("content-type").starts_with("text/html"));
    let policy = page.header("content-security-policy");
    assert!(policy.contains("default-src 'self'"), "{policy}");
    assert!(!policy.contains('*'), "no wildcard source: {policy}");
    assert_eq!(page.header("x-content-type-options"), "nosniff");
    assert_eq!(page.header("referrer-policy"), "no-referrer");
    assert!(
        page.text().contains("<html")
            || page.text().contains("<!DOCTYPE")
            || page.text().contains("<!doctype")
    );

    let script = server.get_with("/assets/js/app.js", &[]);
    assert_eq!(script.status, 200);
    assert!(
        script.header("content-type").starts_with("text/javascript"),
        "{}",
        script.header("content-type")
    );
    assert!(script
        .header("content-security-policy")
        .contains("default-src 'self'"));
    assert_eq!(script.header("x-content-type-options"), "nosniff");

    let missing = server.get("/assets/nope.js");
    assert_eq!(missing.status, 404);
    assert!(missing.error().contains("nope.js"), "{}", missing.error());
}

#[test]
fn no_path_reaches_a_file_outside_the_embedded_page() {
    let (_dir, server) = Server::in_temp_dir("page-traversal");
    // The raw client reaches the embedded files, so a 404 below is the server's answer.
    let (status, text) = raw::get(&server.addr, "/assets/js/app.js");
    assert_eq!(status, 200, "{text}");
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    assert!(manifest.contains("[package]"));
    for path in [
        "/assets/../Cargo.toml",
        "/assets/../../Cargo.toml",
        "/assets/js/../../Cargo.toml",
        "/assets/..%2FCargo.toml",
        "/assets/..%2f..%2fCargo.toml",
        "/assets/%2e%2e/Cargo.toml",
        "/assets/%2E%2E%2FCargo.toml",
        "/assets/%2e%2e%2f%2e%2e%2fCargo.toml",
        "/assets/..\\Cargo.toml",
        "/assets/..%5CCargo.toml",
        "/assets//etc/passwd",
        "/assets/%2Fetc%2Fpasswd",
        "/assets/../src/lib.rs",
        "/assets/..%2Fsrc%2Flib.rs",
        "/assets/..%2Fbuild.rs",
        "/assets/.%2E/Cargo.toml",
    ] {
        let (status, text) = raw::get(&server.addr, path);
        assert_eq!(status, 404, "{path}: {text}");
        assert!(text.contains("\"error\""), "{path}: {text}");
        assert!(
            !text.contains("[package]") && !text.contains("root:") && !text.contains("fn "),
            "{path} answered a file: {text}"
        );
    }
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a gzip stream");
    out
}

#[test]
fn answers_are_gzipped_for_a_client_that_accepts_it_and_the_same_once_unzipped() {
    let (_dir, server) = Server::in_temp_dir("page-gzip");
    for path in [
        "/",
        "/assets/js/app.js",
        "/assets/style.css",
        "/api/catalog",
        "/api/position?position=standard",
    ] {
        let Answer {
            status,
            headers: plain_headers,
            bytes: plain,
        } = server.get_with(path, &[]);
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            plain_headers.get("content-encoding"),
            None,
            "{path}: not asked"
        );
        let Answer {
            status,
            headers,
            bytes: zipped,
        } = server.get_with(path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            headers.get("content-encoding").map(String::as_str),
            Some("gzip"),
            "{path}"
        );
        assert!(
            headers
                .get("vary")
                .is_some_and(|v| v.to_lowercase().contains("accept-encoding")),
            "{path}: {headers:?}"
        );
        assert!(
            zipped.len() < plain.len(),
            "{path}: {} ≥ {}",
            zipped.len(),
            plain.len()
        );
        assert_eq!(gunzip(&zipped), plain, "{path}");
    }
}

#[test]
fn the_pages_files_carry_a_content_tag_and_a_matching_if_none_match_is_304() {
    let (_dir, server) = Server::in_temp_dir("page-etag");
    let mut tags = BTreeSet::new();
    for path in ["/", "/assets/js/app.js", "/assets/style.css"] {
        let Answer {
            status,
            headers,
            bytes: body,
        } = server.get_with(path, &[]);
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            headers.get("cache-control").map(String::as_str),
            Some("no-cache"),
            "{path}"
        );
        let etag = headers
            .get("etag")
            .unwrap_or_else(|| panic!("{path}: no ETag"))
            .clone();
        // Weak: one tag for the gzipped answer and the plain one.
        assert!(
            etag.starts_with("W/\"") && etag.ends_with('"'),
            "{path}: {etag}"
        );
        assert!(tags.insert(etag.clone()), "{path}: the tag of another file");

        let Answer {
            status: again,
            headers: _,
            bytes: _,
        } = server.get_with(path, &[]);
        assert_eq!(again, 200);
        for asked in [etag.clone(), format!("\"other\", {}", &etag[2..])] {
            let Answer {
                status,
                headers,
                bytes: body,
            } = server.get_with(
                path,
                &[("If-None-Match", &asked), ("Accept-Encoding", "gzip")],
            );
            assert_eq!(status, 304, "{path} with {asked}");
            assert!(body.is_empty(), "{path}: a 304 has no body");
            assert_eq!(headers.get("etag"), Some(&etag), "{path}");
        }
        let Answer {
            status,
            headers: _,
            bytes: changed,
        } = server.get_with(path, &[("If-None-Match", "\"other\"")]);
        assert_eq!(status, 200, "{path}: another version");
        assert_eq!(changed, body);
    }
}
