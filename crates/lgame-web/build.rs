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

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = root.join("web");
    println!("cargo:rerun-if-changed=web");
    let mut found = Vec::new();
    files(&web, &mut found);
    let mut table = String::from("pub static FILES: &[(&str, &[u8], &str)] = &[\n");
    for path in found {
        let name = path
            .strip_prefix(&web)
            .expect("under web/")
            .to_str()
            .expect("asset names are UTF-8")
            .replace('\\', "/");
        let bytes =
            std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let etag = format!("\"{:016x}\"", content_hash(&bytes));
        let _ = writeln!(
            table,
            "    ({name:?}, include_bytes!({:?}), {etag:?}),",
            path.display().to_string()
        );
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("assets.rs");
    std::fs::write(&out, table).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}
