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
    // The text without its tags (a backspace is a span of its own: main.js, typeOnPaper).
    let mut text = String::new();
    let mut in_tag = false;
    for c in dom[from..to].chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
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

// ---------------------------------------------------------------------------------------------
// What only a person does on the page — a file dropped, the keypad touched, a download, sound
// after a click — driven through Chromium's WebDriver (`chromedriver`, Debian's
// `chromium-driver`) on real time: each check waits for the page to get there (at most
// `WAIT`), and says what it last saw if it does not.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// How long the page may take to get where a check waits for it (a loaded machine, a debug
/// build: the runs here need a few seconds).
const WAIT: Duration = Duration::from_secs(120);

/// A string as a JSON string literal.
fn json(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The value of a JSON string literal starting at `s` (its opening quote), unescaped.
fn unjson(s: &str) -> String {
    let mut o = String::new();
    let mut cs = s.chars().skip(1);
    while let Some(c) = cs.next() {
        match c {
            '"' => break,
            '\\' => match cs.next() {
                Some('n') => o.push('\n'),
                Some('r') => o.push('\r'),
                Some('t') => o.push('\t'),
                Some('b') => o.push('\u{8}'),
                Some('f') => o.push('\u{c}'),
                Some('u') => {
                    let h: String = cs.by_ref().take(4).collect();
                    let c = u32::from_str_radix(&h, 16).ok().and_then(char::from_u32);
                    o.push(c.unwrap_or('\u{fffd}'));
                }
                Some(c) => o.push(c),
                None => break,
            },
            c => o.push(c),
        }
    }
    o
}

/// `chromedriver` and one headless Chromium session on it, both ended when dropped.
struct Driver {
    child: Child,
    port: u16,
    session: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.try_call("DELETE", &format!("/session/{}", self.session), "");
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// A session whose profile and downloads are in `dir`; None (not run) without
    /// chromedriver.
    fn start(dir: &Path) -> Option<Driver> {
        if !have("chromedriver") {
            not_run("chromedriver is not installed (apt-get install chromium-driver)");
            return None;
        }
        let mut child = Command::new("chromedriver")
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut port = None;
        let mut line = String::new();
        while port.is_none() && out.read_line(&mut line).expect("chromedriver's output") > 0 {
            port = line
                .split("successfully on port ")
                .nth(1)
                .and_then(|p| p.trim().trim_end_matches('.').parse().ok());
            line.clear();
        }
        let mut d = Driver {
            child,
            port: port.expect("chromedriver says its port"),
            session: String::new(),
        };
        let args = [
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--mute-audio",
            "--window-size=1280,1000",
            "--autoplay-policy=user-gesture-required",
            &format!("--user-data-dir={}", dir.join("profile").display()),
        ];
        let args: Vec<String> = args.iter().map(|a| json(a)).collect();
        let caps = format!(
            r#"{{"capabilities":{{"alwaysMatch":{{"goog:chromeOptions":{{"args":[{}],"prefs":{{"download.default_directory":{},"download.prompt_for_download":false}}}}}}}}}}"#,
            args.join(","),
            json(&dir.join("downloads").display().to_string())
        );
        let r = d.call("POST", "/session", &caps);
        let at = r
            .find("\"sessionId\":")
            .unwrap_or_else(|| panic!("no session: {r}"))
            + 12;
        d.session = unjson(r[at..].trim_start());
        Some(d)
    }

    /// One WebDriver request; the response's body.
    fn call(&self, method: &str, path: &str, body: &str) -> String {
        self.try_call(method, path, body)
            .unwrap_or_else(|e| panic!("chromedriver: {method} {path}: {e}"))
    }

    fn try_call(&self, method: &str, path: &str, body: &str) -> std::io::Result<String> {
        // (chromedriver says its port a moment before it listens.)
        let start = Instant::now();
        let mut s = loop {
            match TcpStream::connect(("127.0.0.1", self.port)) {
                Ok(s) => break s,
                Err(e) if start.elapsed() > Duration::from_secs(10) => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        };
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )?;
        // The head, then as many bytes as it says (chromedriver keeps the connection open).
        let mut r = BufReader::new(s);
        let mut len = 0;
        loop {
            let mut line = String::new();
            if r.read_line(&mut line)? == 0 || line == "\r\n" {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut b = vec![0; len];
        r.read_exact(&mut b)?;
        Ok(String::from_utf8_lossy(&b).into_owned())
    }

    fn session(&self, what: &str) -> String {
        format!("/session/{}/{what}", self.session)
    }

    fn open(&self, url: &str) {
        self.call(
            "POST",
            &self.session("url"),
            &format!("{{\"url\":{}}}", json(url)),
        );
    }

    /// Run `script` (its `arguments` from the JSON `args`); its value, the JSON text.
    fn js_with(&self, script: &str, args: &str) -> String {
        let r = self.call(
            "POST",
            &self.session("execute/sync"),
            &format!("{{\"script\":{},\"args\":[{args}]}}", json(script)),
        );
        let at = r.find("\"value\":").map_or(0, |i| i + 8);
        let v = r[at..].trim_end().trim_end_matches('}');
        assert!(!v.contains("\"error\":"), "script failed: {r}");
        v.to_owned()
    }

    /// A script's string value.
    fn text(&self, script: &str) -> String {
        let v = self.js_with(script, "");
        if v.starts_with('"') {
            unjson(&v)
        } else {
            v
        }
    }

    /// Wait until `script`'s string value satisfies `ok`; the value.
    fn wait(&self, what: &str, script: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let v = self.text(script);
            if ok(&v) {
                return v;
            }
            assert!(start.elapsed() < WAIT, "{what}: still {v:?}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn paper(&self) -> String {
        self.text("return document.getElementById('paper').textContent")
    }

    /// Wait until `#paper` holds `want`.
    fn wait_paper(&self, want: &str) {
        self.wait(
            "#paper",
            "return document.getElementById('paper').textContent",
            |p| p == want,
        );
    }

    /// The element `css` (WebDriver's id for it).
    fn element(&self, css: &str) -> String {
        let r = self.call(
            "POST",
            &self.session("element"),
            &format!("{{\"using\":\"css selector\",\"value\":{}}}", json(css)),
        );
        let key = "\"element-6066-11e4-a52e-4f735466cecf\":";
        let at = r
            .find(key)
            .unwrap_or_else(|| panic!("no {css} on the page: {r}"))
            + key.len();
        unjson(r[at..].trim_start())
    }

    /// A click on `css`, as a person's (a gesture: the browser lets sound start).
    fn click(&self, css: &str) {
        let e = self.element(css);
        let r = self.call("POST", &self.session(&format!("element/{e}/click")), "{}");
        assert!(!r.contains("\"error\""), "click on {css}: {r}");
    }

    /// Keys typed on the picture (the canvas has the focus, as after a click on it).
    fn keys(&self, text: &str) {
        let e = self.element("#screen");
        let r = self.call(
            "POST",
            &self.session(&format!("element/{e}/value")),
            &format!("{{\"text\":{}}}", json(text)),
        );
        assert!(!r.contains("\"error\""), "keys {text:?}: {r}");
    }

    /// `bytes` dropped on the picture as the file `name`: a drop event whose DataTransfer
    /// holds a File of them, as a browser makes one for a file dragged from the desktop.
    fn drop_file(&self, name: &str, bytes: &[u8]) {
        let list: Vec<String> = bytes.iter().map(u8::to_string).collect();
        self.js_with(
            "const dt = new DataTransfer();
             dt.items.add(new File([new Uint8Array(arguments[0])], arguments[1]));
             document.getElementById('screen').dispatchEvent(
               new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));",
            &format!("[{}],{}", list.join(","), json(name)),
        );
    }

    /// Wait until the page has a machine for the tape `name` ("" for none).
    fn wait_tape(&self, name: &str) {
        self.wait(
            "the page's tape",
            "return String(document.body.dataset.tape)",
            |t| t == name,
        );
    }
}

/// The page and a browser on it, ended in this order when dropped.
struct Browser {
    d: Driver,
    server: Server,
    dir: test_support::Scratch,
}

impl Browser {
    /// None (not run) without chromium, chromedriver or the built page.
    fn start(name: &str) -> Option<Browser> {
        let server = serve(None)?;
        let dir = scratch(name);
        let d = Driver::start(dir.path())?;
        Some(Browser { d, server, dir })
    }
}

/// What headless Kalah types for pit 3 and the machine's answer (test word 4).
fn kalah_answer() -> String {
    let tape = project_root().join("roms/kalah.rim");
    let tape = tape.to_str().expect("path");
    headless(&["--headless", tape, "--tw", "4", "--type", "3 "])
}

/// A tape file dropped on the page becomes the machine (the name is not one the page has
/// built in: the bytes are what it reads), and it plays as headless does.
#[test]
fn a_tape_dropped_on_the_page_is_read_in_and_plays() {
    let Some(b) = Browser::start("web-drop") else {
        return;
    };
    let d = &b.d;
    d.open(&format!("{}?tw=4&speed=max", b.server.url));
    d.wait_tape("");
    let tape = project_root().join("roms/kalah.rim");
    d.drop_file("dropped.rim", &std::fs::read(&tape).expect("kalah.rim"));
    d.wait_tape("dropped.rim");
    assert_eq!(d.paper(), "", "nothing typed before the keys");
    // (A person's keys, one at a time: the space once the program has taken the move.)
    d.keys("3");
    d.wait(
        "the move taken",
        "return document.getElementById('paper').textContent",
        |p| p.starts_with("3."),
    );
    d.keys(" ");
    d.wait_paper(&kalah_answer());
}

/// The touch keypad: hidden on a desktop browser, shown by `keypad=1`; its buttons type into
/// the machine, and the first touch starts the sound (the AudioContext runs).
#[test]
fn the_keypad_types_into_the_machine_and_a_touch_starts_the_sound() {
    let Some(b) = Browser::start("web-keypad") else {
        return;
    };
    let d = &b.d;
    // Whether it is shown, as the browser lays it out (the `hidden` attribute alone was once
    // overruled by the page's own `display: grid`).
    let hidden =
        "return String(getComputedStyle(document.getElementById('keypad')).display === 'none')";
    d.open(&format!("{}?tape=kalah.rim&tw=4&speed=max", b.server.url));
    d.wait_tape("kalah.rim");
    assert_eq!(d.text(hidden), "true", "no keypad without a touch screen");
    d.open(&format!(
        "{}?tape=kalah.rim&tw=4&speed=max&keypad=1",
        b.server.url
    ));
    d.wait_tape("kalah.rim");
    assert_eq!(d.text(hidden), "false", "keypad=1 shows the keypad");
    let sound = "return String(document.body.dataset.sound)";
    assert_eq!(d.text(sound), "undefined", "no sound before a gesture");
    d.click("#keypad button:nth-child(3)");
    d.click("#keypad button[data-key=' ']");
    d.wait("the sound after a touch", sound, |s| s == "running");
    d.wait_paper(&kalah_answer());
    // The game types "3. ", a backspace, "2,": on the page, as on the paper, the "2" is struck
    // where the space stood (main.js, typeOnPaper), and the backspace draws nothing.
    let struck =
        "const bs = document.querySelector('#paper .bs'); if (!bs) return 'no backspace'; \
        const at = (n, i) => { const r = document.createRange(); r.setStart(n, i); \
          r.setEnd(n, i + 1); return r.getBoundingClientRect().left; }; \
        const before = bs.previousSibling, after = bs.nextSibling; \
        return [Math.round(at(after, 0) - at(before, before.length - 1)), \
          Math.round(bs.getBoundingClientRect().width)].join(' ');";
    assert_eq!(
        d.text(struck),
        "0 0",
        "the character after a backspace overstrikes"
    );
}

/// Bell's `p` punches its memory: the punch's download holds what headless punches, and that
/// file dropped back on the page is read by Bell's `r`.
#[test]
fn bells_memory_is_punched_to_a_download_and_read_back() {
    let Some(b) = Browser::start("web-punch") else {
        return;
    };
    let d = &b.d;
    let bell = project_root().join("roms/bell.rim");
    let bell = bell.to_str().expect("path");
    let punched = b.dir.path().join("headless.tape");
    let punched_s = punched.to_str().expect("path");
    let p_out = headless(&["--headless", bell, "--type", "p", "--punch", punched_s]);
    let want = std::fs::read(&punched).expect("headless punched");
    assert!(!want.is_empty());
    d.open(&format!("{}?tape=bell.rim&speed=max", b.server.url));
    d.wait_tape("bell.rim");
    d.keys("p");
    d.wait_paper(&p_out);
    assert_eq!(
        d.text("return String(document.getElementById('punched'))"),
        "null"
    );
    d.click("#punch");
    d.wait(
        "the download's link",
        "const a = document.getElementById('punched'); return a ? a.download : ''",
        |n| n == "punch.tape",
    );
    // The download's bytes, as the page has them (the link's blob).
    let r = d.call(
        "POST",
        &d.session("execute/async"),
        &format!(
            "{{\"script\":{},\"args\":[]}}",
            json(
                "const done = arguments[arguments.length - 1];
                 fetch(document.getElementById('punched').href)
                   .then((r) => r.arrayBuffer())
                   .then((b) => done(Array.from(new Uint8Array(b)).join(',')));"
            )
        ),
    );
    let at = r.find("\"value\":").expect("a value") + 8;
    let got: Vec<u8> = unjson(r[at..].trim_start())
        .split(',')
        .filter_map(|b| b.parse().ok())
        .collect();
    assert_eq!(
        got.len(),
        want.len(),
        "the download is what headless punches"
    );
    assert!(got == want, "the download is what headless punches");
    // Read back: the file in the reader, and Bell's `r`.
    d.drop_file("punch.tape", &got);
    d.wait(
        "the tape in the reader",
        "return document.getElementById('status').textContent",
        |s| s.contains("punch.tape in the reader"),
    );
    let r_out = headless(&["--headless", bell, "--reader", punched_s, "--type", "r"]);
    assert!(r_out.contains("read"), "headless reads it: {r_out:?}");
    d.keys("r");
    d.wait_paper(&format!("{p_out}{r_out}"));
}
