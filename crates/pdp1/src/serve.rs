//! `pdp1 --serve` and `--write-page` (issue 26): the web page (crates/pdp1-web, docs/web.md)
//! from the binary itself — no CDN, nothing fetched from elsewhere, so it works offline. The
//! machine runs in the browser; this is only a file server for its few files, plus the TAPE
//! given on the command line at `tapes/NAME`.

use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/page.rs"));

/// The page's default port.
pub const PORT: u16 = 8061;

/// What to say when the binary was built without the page.
const NOT_BUILT: &str = "this pdp1 was built without the web page: run crates/pdp1-web/build.sh \
     (it needs `rustup target add wasm32-unknown-unknown` and `cargo install wasm-bindgen-cli`), \
     then build pdp1 again (docs/web.md)";

fn page() -> Result<&'static [(&'static str, &'static [u8])]> {
    if PAGE.is_empty() {
        bail!("{NOT_BUILT}");
    }
    Ok(PAGE)
}

/// Write the page's files into `dir` (made if missing).
pub fn write_page(dir: &Path) -> Result<()> {
    let files = page()?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    for (name, bytes) in files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).with_context(|| format!("cannot write {}", p.display()))?;
    }
    println!(
        "pdp1: the page is in {} ({} files); serve the folder with any web server and open index.html",
        dir.display(),
        files.len()
    );
    Ok(())
}

/// Serve the page on 127.0.0.1:`port` until the process is ended. The first line on stdout
/// is the address (with `port` 0, the port the system chose), for a person or a test.
pub fn serve(port: u16, tape: Option<&Path>) -> Result<()> {
    let files = page()?;
    let tape = match tape {
        Some(p) => {
            let bytes =
                std::fs::read(p).with_context(|| format!("cannot read tape {}", p.display()))?;
            Some((crate::tape::file_name(p), bytes))
        }
        None => None,
    };
    let listener = TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{port}"))?;
    let port = listener.local_addr()?.port();
    let query = tape
        .as_ref()
        .map(|(n, _)| format!("?tape={}", escape(n)))
        .unwrap_or_default();
    println!("pdp1: serving the page at http://127.0.0.1:{port}/{query} (ctrl+C ends)");
    std::io::stdout().flush()?;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        // One connection at a time is plenty for a page of five files; an error on one
        // (a browser that went away) is that connection's only.
        let _ = answer(stream, files, tape.as_ref());
    }
    Ok(())
}

/// Percent-escape a file name for the link.
fn escape(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn answer(
    stream: TcpStream,
    files: &[(&str, &[u8])],
    tape: Option<&(String, Vec<u8>)>,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // The headers are read and not needed.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let mut parts = request.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = target.split(['?', '#']).next().unwrap_or("");
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let found: Option<(&str, &[u8])> = match path.strip_prefix("tapes/") {
        Some(name) => tape
            .filter(|(n, _)| escape(n) == escape(&unescape(name)))
            .map(|(_, b)| ("application/octet-stream", b.as_slice())),
        None => files
            .iter()
            .find(|(n, _)| *n == path)
            .map(|(n, b)| (content_type(n), *b)),
    };
    let mut out = stream;
    match (method, found) {
        ("GET" | "HEAD", Some((kind, body))) => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            if method == "GET" {
                out.write_all(body)?;
            }
        }
        ("GET" | "HEAD", None) => {
            let body = format!("not found: /{path}\n");
            write!(
                out,
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )?;
        }
        _ => write!(
            out,
            "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )?,
    }
    out.flush()
}

/// `%XX` escapes undone (a tape's name in the page's request).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let hex = (b[i] == b'%')
            .then(|| s.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(v) => {
                out.push(v);
                i += 3;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}
