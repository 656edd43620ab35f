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

/// The page with a `<link rel="modulepreload">` for each of `modules`, before its first
/// script, and the list of the page's files (`<script id="lgame-files">`, JSON) that its
/// service worker keeps for use offline, the views not yet opened included.
fn with_preloads(page: &[u8], modules: &[String], files: &[String]) -> Vec<u8> {
    let page = std::str::from_utf8(page).expect("index.html is UTF-8");
    let at = page
        .find("<script type=\"module\"")
        .expect("index.html loads its modules with <script type=\"module\">");
    let links: String = modules
        .iter()
        .map(|name| format!("<link rel=\"modulepreload\" href=\"/assets/{name}\">\n  "))
        .collect();
    let list: Vec<String> = files.iter().map(|f| format!("\"/assets/{f}\"")).collect();
    let files = format!(
        "<script type=\"application/json\" id=\"lgame-files\">[{}]</script>\n  ",
        list.join(",")
    );
    format!("{}{links}{files}{}", &page[..at], &page[at..]).into_bytes()
}

/// The files a page uses, for its service worker to keep: every file but the page itself,
/// the worker, and the language files served inside their language's index.
fn page_files(names: &[String]) -> Vec<String> {
    names
        .iter()
        .filter(|n| *n != "index.html" && *n != "sw.js")
        .filter(|n| !n.starts_with("i18n/") || is_language_index(n))
        .cloned()
        .collect()
}

/// The modules a page needs before it draws the views most people open first: the static
/// imports (`import … from '…'`, not `import(…)`, which loads a view when it is opened) of
/// the page's entry and of the home and game views, transitively; names under `web/`.
const FIRST_MODULES: [&str; 3] = ["js/app.js", "js/play/view.js", "js/game/view.js"];

/// Whether the file `name` (under `web/`) is a language's index (`i18n/LANG/index.js`),
/// served with its parts bundled in (see [`bundled_language`]).
fn is_language_index(name: &str) -> bool {
    name.starts_with("i18n/") && name.ends_with("/index.js")
}

/// A language's index with the files it imports written into it, so that a language is one
/// request (on a phone's network each request costs a round trip, and a language has a dozen
/// files). Each part is `export default { … };`, imported as `import NAME from './FILE.js';`:
/// its object becomes `const NAME = { … };` before the index's own `export default`.
fn bundled_language(web: &Path, name: &str) -> Vec<u8> {
    let read = |file: &Path| {
        std::fs::read_to_string(file).unwrap_or_else(|e| panic!("reading {}: {e}", file.display()))
    };
    let index = read(&web.join(name));
    let dir = web.join(name).parent().expect("a folder").to_path_buf();
    let mut out = String::new();
    for line in index.lines() {
        let import = line
            .strip_prefix("import ")
            .and_then(|rest| rest.strip_suffix("';"))
            .and_then(|rest| rest.split_once(" from './"));
        match import {
            Some((binding, file)) => {
                let part = read(&dir.join(file));
                let (head, object) = part
                    .split_once("export default {")
                    .unwrap_or_else(|| panic!("{file} is `export default {{ … }}`"));
                let head = head.replace("// @ts-check\n", "");
                let _ = write!(out, "{head}const {binding} = {{{object}");
                out.push('\n');
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out.into_bytes()
}

/// The bytes served for the file `name` under `web/` (at `path`): a language's index bundled,
/// the page with its preloads, any other file as it is.
fn served(web: &Path, name: &str, path: &Path, preloads: &[String], files: &[String]) -> Vec<u8> {
    if is_language_index(name) {
        return bundled_language(web, name);
    }
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    if name == "index.html" {
        return with_preloads(&bytes, preloads, files);
    }
    bytes
}

/// The static imports of the module `name` (under `web/`), as served, as names under `web/`
/// (a language's index, bundled, imports nothing).
fn static_imports(web: &Path, name: &str) -> Vec<String> {
    if is_language_index(name) {
        return Vec::new();
    }
    let path = web.join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let dir = Path::new(name).parent().unwrap_or(Path::new(""));
    // `from './x.js'` ends a static import statement (JSDoc's `import('…')` has no `from`).
    text.split(" from '")
        .skip(1)
        .filter_map(|rest| rest.split('\'').next())
        .filter(|specifier| specifier.starts_with("./") || specifier.starts_with("../"))
        .map(|relative| {
            let mut parts: Vec<&str> = dir.iter().map(|p| p.to_str().expect("UTF-8")).collect();
            for part in relative.split('/') {
                match part {
                    "." => {}
                    ".." => {
                        parts.pop();
                    }
                    part => parts.push(part),
                }
            }
            parts.join("/")
        })
        .collect()
}

/// [`FIRST_MODULES`] and everything they import, in a stable order.
fn first_modules(web: &Path) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut next: Vec<String> = FIRST_MODULES.map(String::from).into();
    while let Some(name) = next.pop() {
        if found.contains(&name) {
            continue;
        }
        next.extend(static_imports(web, &name));
        found.push(name);
    }
    found.sort();
    found
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = root.join("web");
    println!("cargo:rerun-if-changed=web");
    let mut found = Vec::new();
    files(&web, &mut found);
    // The modules the home and game views need, preloaded from index.html: the browser
    // fetches them at once instead of discovering them import by import (a phone's round trips
    // add up); the other views' modules come when one is opened (preloading all of them too
    // made a phone on a slow network wait for modules it did not use before its first view).
    let modules = first_modules(&web);
    let names: Vec<String> = found.iter().map(|path| asset_name(&web, path)).collect();
    let files = page_files(&names);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let mut table = String::from("pub static FILES: &[(&str, &[u8], &str)] = &[\n");
    for path in found {
        let name = asset_name(&web, &path);
        let bytes = served(&web, &name, &path, &modules, &files);
        let mut source = path.clone();
        if name == "index.html" || is_language_index(&name) {
            source = out_dir.join(name.replace('/', "-"));
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
