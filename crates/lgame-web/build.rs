//! Embeds the web page (`web/`) in the binary: writes a table of every file under `web/`
//! with its bytes, so a file added there is served without another line of code, and with
//! an entity tag made from its content (so a browser revalidates and gets a 304 until the
//! file changes).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, found);
        } else {
            found.push(path);
        }
    }
}

/// FNV-1a, 64 bits: an entity tag needs to tell versions of a file apart, not resist forgery.
fn content_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A file's name under `web/`, with `/` between its parts.
fn asset_name(web: &Path, path: &Path) -> String {
    path.strip_prefix(web)
        .expect("under web/")
        .to_str()
        .expect("asset names are UTF-8")
        .replace('\\', "/")
}

/// The page with a `<link rel="modulepreload">` for each module, before its first script.
fn with_preloads(page: &[u8], modules: &[String]) -> Vec<u8> {
    let page = std::str::from_utf8(page).expect("index.html is UTF-8");
    let at = page
        .find("<script type=\"module\"")
        .expect("index.html loads its modules with <script type=\"module\">");
    let links: String = modules
        .iter()
        .map(|name| format!("<link rel=\"modulepreload\" href=\"/assets/{name}\">\n  "))
        .collect();
    format!("{}{links}{}", &page[..at], &page[at..]).into_bytes()
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = root.join("web");
    println!("cargo:rerun-if-changed=web");
    let mut found = Vec::new();
    files(&web, &mut found);
    // Every module of the page, preloaded from index.html: the browser fetches them all at
    // once instead of discovering them import by import (a phone's round trips add up).
    let modules: Vec<String> = found
        .iter()
        .filter(|path| path.extension().is_some_and(|e| e == "js"))
        .map(|path| asset_name(&web, path))
        // The service worker is not one of the page's modules.
        .filter(|name| name != "sw.js")
        .collect();
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let mut table = String::from("pub static FILES: &[(&str, &[u8], &str)] = &[\n");
    for path in found {
        let name = asset_name(&web, &path);
        let mut bytes =
            std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let mut source = path.clone();
        if name == "index.html" {
            bytes = with_preloads(&bytes, &modules);
            source = out_dir.join("index.html");
            std::fs::write(&source, &bytes)
                .unwrap_or_else(|e| panic!("writing {}: {e}", source.display()));
        }
        // Weak: the same tag is sent gzipped and not, equal in meaning but not byte for byte.
        let etag = format!("W/\"{:016x}\"", content_hash(&bytes));
        let _ = writeln!(
            table,
            "    ({name:?}, include_bytes!({:?}), {etag:?}),",
            source.display().to_string()
        );
    }
    table.push_str("];\n");
    let out = out_dir.join("assets.rs");
    std::fs::write(&out, table).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}
