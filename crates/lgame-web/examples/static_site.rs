//! The page as static files, for any static web host (`cargo xtask static DIR` runs this):
//! `cargo run -p lgame-web --example static_site -- DIR`. See docs/web.md, "Static hosting".

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir] = args.as_slice() else {
        eprintln!("usage: static_site DIR (the folder the page's files are written into)");
        return ExitCode::from(2);
    };
    match lgame_web::write_static_site(std::path::Path::new(dir)) {
        Ok(()) => {
            println!("wrote the static page into {dir}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing the page into {dir}: {e}");
            ExitCode::FAILURE
        }
    }
}
