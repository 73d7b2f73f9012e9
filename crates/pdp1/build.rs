//! The web page's files for `pdp1 --serve` and `--write-page` (issue 26), embedded when they
//! have been built (crates/pdp1-web/build.sh, which `.ci/run` runs): this script only lists
//! what is there, so a clone without the wasm target still builds the binary (the window and
//! headless need no page), and `--serve` then says how to build it. No cargo is run from here.

use std::path::Path;

fn main() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pdp1-web");
    let files = [
        ("index.html", web.join("www/index.html")),
        ("main.js", web.join("www/main.js")),
        ("page.css", web.join("www/page.css")),
        ("pdp1_web.js", web.join("pkg/pdp1_web.js")),
        ("pdp1_web_bg.wasm", web.join("pkg/pdp1_web_bg.wasm")),
    ];
    let mut code = String::from("/// The page's files, by URL path (empty: not built).\npub const PAGE: &[(&str, &[u8])] = &[\n");
    let built = files.iter().all(|(_, p)| p.is_file());
    for (name, path) in &files {
        if built {
            code += &format!(
                "    ({name:?}, include_bytes!({:?})),\n",
                path.display().to_string()
            );
        }
    }
    // Cargo scans a folder's files: the page's sources, and the build's output once there
    // is any (before that, the crate's folder, where `pkg` will appear).
    println!("cargo:rerun-if-changed={}", web.join("www").display());
    let pkg = web.join("pkg");
    let watch = if pkg.is_dir() { pkg } else { web.clone() };
    println!("cargo:rerun-if-changed={}", watch.display());
    code += "];\n";
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("page.rs");
    std::fs::write(out, code).expect("write page.rs");
}
