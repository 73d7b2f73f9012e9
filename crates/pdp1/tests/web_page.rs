//! Issue 26: the web page in a real browser. `pdp1 --serve --port 0` serves the page (its port
//! read from the first line it prints); headless Chromium opens a link, runs the machine in
//! WebAssembly on virtual time, and prints the page (`--dump-dom`: `#paper`'s text) or takes
//! a screenshot (the scope's light inside the round face).
//!
//! Needs `chromium` (`.ci/run` installs it) and a `pdp1` built with the page
//! (crates/pdp1-web/build.sh, which `.ci/run` runs first); without them the test says "not
//! run" (under `PDP1_REQUIRE_ORACLES=1`, in CI, it fails instead).

mod common;
use common::{have, not_run, scratch};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The cabinet around the round face, the bezel's rim and the face (draw/phosphor.rs).
const CABINET: u32 = 0x2a2e34;
const RIM: u32 = 0x9ca0a6;
const TUBE_FACE: u32 = 0x06090a;

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `pdp1 --serve`, ended when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Serve the page (with `tape` beside it); None when chromium or the page is missing.
fn serve(tape: Option<&str>) -> Option<Server> {
    if !have("chromium") {
        not_run("chromium is not installed (apt-get install chromium)");
        return None;
    }
    let mut cmd = Command::new(common::bin());
    cmd.args(["--serve", "--port", "0"]);
    cmd.args(tape);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pdp1 --serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("read the address");
    let Some(at) = line.find("http://") else {
        let out = child.wait_with_output().expect("pdp1 ended");
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("built without the web page") {
            not_run(&format!("the page is not built: {err}"));
            return None;
        }
        panic!("pdp1 --serve printed {line:?}, stderr {err}");
    };
    let url = line[at..]
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_owned();
    let base = url.split('?').next().unwrap_or("").to_owned();
    Some(Server { child, url: base })
}

/// Headless Chromium on `url` with `args` for `budget_ms` of virtual time, its own profile
/// folder in `dir`; its stdout.
fn chromium(dir: &Path, url: &str, budget_ms: u32, args: &[&str]) -> String {
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--mute-audio",
        ])
        // Emulated time comes from the page's clock: on virtual time the run is the same
        // however busy the host is.
        .arg(format!("--virtual-time-budget={budget_ms}"))
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .args(args)
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `#paper`'s text in a dumped page.
fn paper(dom: &str) -> String {
    let start = dom.find("id=\"paper\"").expect("#paper in the page");
    let from = start + dom[start..].find('>').expect("tag end") + 1;
    let to = from + dom[from..].find("</pre>").expect("#paper's end");
    dom[from..to]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// `#message`'s text (the page's one message), if shown.
fn message(dom: &str) -> Option<String> {
    let start = dom.find("id=\"message\"")?;
    let tag_end = start + dom[start..].find('>')?;
    if dom[start..tag_end].contains("hidden") {
        return None;
    }
    let to = tag_end + dom[tag_end..].find("</div>")?;
    Some(dom[tag_end + 1..to].to_owned())
}

fn headless(args: &[&str]) -> String {
    let run = common::pdp1(args);
    assert!(run.ok(), "headless run: {}", run.stderr);
    run.stdout
}

/// A PNG screenshot as 0xRRGGBB pixels (Chromium writes RGB or RGBA).
struct Shot {
    w: usize,
    h: usize,
    px: Vec<u32>,
}

impl Shot {
    fn load(path: &Path) -> Shot {
        let dec = png::Decoder::new(std::fs::File::open(path).expect("screenshot written"));
        let mut r = dec.read_info().expect("a PNG");
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).expect("a PNG frame");
        let n = match info.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            c => panic!("screenshot in {c:?}"),
        };
        let px = buf[..info.buffer_size()]
            .chunks(n)
            .map(|c| u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]))
            .collect();
        Shot {
            w: info.width as usize,
            h: info.height as usize,
            px,
        }
    }

    fn at(&self, x: usize, y: usize) -> u32 {
        self.px[y * self.w + x]
    }

    /// The scope pane: its top left corner (the first cabinet pixel) and its side.
    fn scope(&self) -> (usize, usize, usize) {
        let (x0, y0) = (0..self.h)
            .flat_map(|y| (0..self.w).map(move |x| (x, y)))
            .find(|&(x, y)| self.at(x, y) == CABINET)
            .expect("the scope's cabinet in the screenshot");
        let side = (x0..self.w)
            .take_while(|&x| self.at(x, y0) == CABINET)
            .count();
        (x0, y0, side)
    }

    /// Lit pixels on the face, relative to the pane, and the face's centre and radius.
    fn lit(&self) -> (Vec<(usize, usize)>, f64, f64) {
        let (x0, y0, side) = self.scope();
        assert!(side >= 200, "scope pane {side} pixels wide");
        let m = (side / 48).max(4) as f64;
        let (c, radius) = (side as f64 / 2.0, side as f64 / 2.0 - m);
        let mut v = Vec::new();
        for y in 0..side.min(self.h - y0) {
            for x in 0..side {
                let p = self.at(x0 + x, y0 + y);
                let lum = (p >> 16 & 0xff) + (p >> 8 & 0xff) + (p & 0xff);
                if p != TUBE_FACE && p != CABINET && p != RIM && lum > 90 {
                    v.push((x, y));
                }
            }
        }
        (v, c, radius)
    }
}

/// The page at `query`: its paper equals the headless run's, and its screenshot shows light
/// on the round face only.
/// (`budget_ms`: the page's time to load the tape and run.)
fn check(
    name: &str,
    tape: Option<&str>,
    query: &str,
    budget_ms: u32,
    headless_args: &[&str],
    min_lit: usize,
) {
    let Some(server) = serve(tape) else { return };
    let dir = scratch(name);
    let url = format!("{}{query}", server.url);
    if !headless_args.is_empty() {
        let dom = chromium(dir.path(), &url, budget_ms, &["--dump-dom"]);
        assert_eq!(message(&dom), None, "no message on the page");
        let want = headless(headless_args);
        assert!(!want.is_empty(), "the headless run typed something");
        assert_eq!(paper(&dom), want, "#paper is what headless prints");
    }
    let png = dir.path().join("page.png");
    chromium(
        dir.path(),
        &url,
        budget_ms,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1280,1000",
        ],
    );
    let shot = Shot::load(&png);
    let (lit, c, radius) = shot.lit();
    assert!(
        lit.len() > min_lit,
        "light on the scope ({} pixels)",
        lit.len()
    );
    for &(x, y) in &lit {
        let d = ((x as f64 + 0.5 - c).powi(2) + (y as f64 + 0.5 - c).powi(2)).sqrt();
        assert!(d <= radius + 1.0, "light at ({x}, {y}) off the face");
    }
}

#[test]
fn kalah_plays_in_the_browser_as_headless() {
    let tape = project_root().join("roms/kalah.rim");
    let tape = tape.to_str().expect("path");
    check(
        "web-kalah",
        None,
        "?tape=kalah.rim&tw=4&type=3%20&speed=max",
        3_000,
        &["--headless", tape, "--tw", "4", "--type", "3 "],
        300,
    );
}

#[test]
fn kalah7_plays_in_the_browser_as_headless() {
    let tape = project_root().join("roms/kalah7.rim");
    let tape = tape.to_str().expect("path");
    check(
        "web-kalah7",
        None,
        "?tape=kalah7.rim&type=3%20&speed=max",
        3_000,
        &["--headless", tape, "--type", "3 "],
        300,
    );
}

/// A library tape served beside the page (`pdp1 --serve TAPE`): munching squares on the tube.
#[test]
fn munching_squares_on_the_page() {
    let Some(tape) = common::shared_tape("munch-small.rim") else {
        return;
    };
    check(
        "web-munch",
        Some(&tape),
        // At 1x: the squares keep the tube busy, and four seconds show them.
        "?tape=munch-small.rim",
        4_000,
        &[],
        100,
    );
}

/// Bad input gets one message on the page, and the page still runs (the tape buttons work).
#[test]
fn a_bad_link_gets_a_message() {
    let Some(server) = serve(None) else { return };
    let dir = scratch("web-bad-link");
    let dom = chromium(
        dir.path(),
        &format!("{}?tape=kalah.rim&tw=9", server.url),
        2_000,
        &["--dump-dom"],
    );
    let m = message(&dom).expect("a message");
    assert!(m.contains("tw"), "the message names the parameter: {m}");
    let dom = chromium(
        dir.path(),
        &format!("{}?tape=nosuch.rim", server.url),
        2_000,
        &["--dump-dom"],
    );
    let m = message(&dom).expect("a message");
    assert!(m.contains("nosuch.rim"), "the message names the tape: {m}");
    assert!(
        dom.contains(">kalah.rim</button>"),
        "the tape buttons are there"
    );
}
