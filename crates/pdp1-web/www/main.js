// The page's side of the PDP-1 (issue 26): what only a browser has — the canvas, keys and
// clicks, the frame clock, WebAudio, files and downloads. The machine, its pacing and its
// picture are the Rust `Page` (crates/pdp1-web/src/page.rs, over pdp1-host), compiled to
// WebAssembly; this file only carries things across.

const $ = (id) => document.getElementById(id);
const canvas = $("screen");
// Opaque (the compositor need not blend it with the page behind) and desynchronized (drawn
// without a copy through the compositor where the browser can): together 2-3 % of a core at
// 1x in headless Chromium (docs/web.md, "Figures").
const ctx2d = canvas.getContext("2d", { alpha: false, desynchronized: true });
const paperEl = $("paper");
const statusEl = $("status");

// One clear message on the page for anything that goes wrong; the page keeps running.
function message(text) {
  const m = $("message");
  m.textContent = text;
  m.hidden = !text;
}

if (typeof WebAssembly !== "object") {
  message("This browser has no WebAssembly: the PDP-1 cannot run here.");
  throw new Error("no WebAssembly");
}

let wasm, Page, page = null;
try {
  const mod = await import("./pdp1_web.js");
  wasm = await mod.default();
  Page = mod.Page;
} catch (e) {
  message(`The machine could not be loaded (${e}).`);
  throw e;
}

const params = new URLSearchParams(location.search);
const query = location.search;

// The query without the tape and the keys: for a tape dropped later.
function queryWithout(...names) {
  const p = new URLSearchParams(location.search);
  for (const n of names) p.delete(n);
  return p.toString();
}

// A new machine for the link `q` and the tape; the error's text if there is none.
function start(q, name, frames) {
  try {
    const p = new Page(q, name, frames);
    if (page) page.free();
    page = p;
    // (The tape the machine has, on the page: a test sees a dropped tape taken.)
    document.body.dataset.tape = name || new URLSearchParams(q).get("tape") || "";
    paperEl.textContent = "";
    message("");
    fit();
    return null;
  } catch (e) {
    return String(e);
  }
}

// As `start`, and if that fails a machine without the link's settings and tape (so the page
// never stands dead), with the message saying what was wrong.
function startOr(q, name, frames) {
  const err = start(q, name, frames);
  if (err) {
    start("", "", undefined);
    message(err);
  }
}

// The tape in the link: built in, or one the server has beside the page (tapes/NAME, as
// `pdp1 --serve TAPE` serves it). No other place is asked: the page works offline.
async function boot() {
  const name = params.get("tape") || "";
  const builtIn = Page.built_in().split(",");
  for (const t of builtIn) {
    const b = document.createElement("button");
    b.textContent = t;
    b.type = "button";
    b.onclick = () => { location.search = "?tape=" + encodeURIComponent(t); };
    $("tapes").append(b);
  }
  if (name && !builtIn.includes(name)) {
    let frames = null;
    try {
      const r = await fetch("tapes/" + encodeURIComponent(name));
      if (r.ok) frames = new Uint8Array(await r.arrayBuffer());
    } catch (_) { /* no such tape: the message below */ }
    if (!frames) {
      start("", "", undefined);
      message(`No tape "${name}": the page has ${builtIn.join(", ")} built in (or drop a tape file on it).`);
      return;
    }
    startOr(query, name, frames);
    return;
  }
  startOr(query, "", undefined);
}

// The canvas's pixels follow its size on the page (and the screen's pixel ratio).
function fit() {
  if (!page) return;
  const w = Math.round(canvas.clientWidth * (window.devicePixelRatio || 1));
  page.resize(w, Math.round(w * 760 / 1280));
  canvas.width = page.width();
  canvas.height = page.height();
  page.draw();
  blit(true);
}
window.addEventListener("resize", fit);

// The picture to the canvas: all of it (after a resize, which clears the canvas), or only
// the rectangle the last draw changed (Page::damage: the lit part of the tube, a lamp).
function blit(all) {
  const w = page.width(), h = page.height();
  const px = new Uint8ClampedArray(wasm.memory.buffer, page.pixels(), w * h * 4);
  const img = new ImageData(px, w, h);
  if (all) { ctx2d.putImageData(img, 0, 0); return; }
  const [x, y, dw, dh] = page.damage();
  if (dw > 0 && dh > 0) ctx2d.putImageData(img, 0, 0, x, y, dw, dh);
}

// Sound: browsers refuse it before a gesture, so the context starts on the first key or click.
let audio = null, audioAt = 0;
function startSound() {
  if (audio) return;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) { statusEl.textContent = "this browser has no sound (WebAudio)"; audio = false; return; }
  try {
    audio = new AC();
    // (The sound's state on the page, for tests: "running" once the browser lets it play.)
    const shown = () => { document.body.dataset.sound = audio.state; };
    audio.onstatechange = shown;
    shown();
    audio.resume();
  } catch (e) { audio = false; statusEl.textContent = `no sound: ${e}`; }
}
function sound() {
  const rate = audio ? audio.sampleRate : 48000;
  const s = page.take_sound(rate);
  if (!audio || s.length === 0) return;
  const buf = audio.createBuffer(1, s.length, rate);
  buf.copyToChannel(s, 0);
  const src = audio.createBufferSource();
  src.buffer = buf;
  src.connect(audio.destination);
  // A little lead, so frames that come unevenly still play without gaps.
  const now = audio.currentTime;
  if (audioAt < now + 0.02 || audioAt > now + 0.3) audioAt = now + 0.06;
  src.start(audioAt);
  audioAt += buf.duration;
}

// Speed figure for the benchmark: emulated instructions per second of page time. And the
// count executed so far, read when asked (bench.sh times the native binary over the same
// stretch of the program as the page).
window.pdp1Instructions = () => (page ? page.instructions() : 0);
let ipsFrom = null;
function measure(now) {
  const n = page.instructions();
  if (!ipsFrom) { ipsFrom = { t: now, n }; return; }
  if (now - ipsFrom.t >= 1000) {
    document.body.dataset.ips = Math.round((n - ipsFrom.n) * 1000 / (now - ipsFrom.t));
    ipsFrom = { t: now, n };
  }
}

// The page's clock: 30 ticks a second, each running the machine to the pacer's target and
// drawing what changed. The phosphor is computed in emulated time, so the rate only decides
// how smooth motion looks (the window draws 50). Not requestAnimationFrame: a page that asks
// for every animation frame makes the browser produce 60 frames a second whether or not the
// picture changed, which alone cost 4 % of a core (docs/web.md, "Figures"); a canvas drawn on
// from a timer is shown at the browser's next frame all the same.
const FRAME_MS = 1000 / 30;

// Typed text onto the paper element. A backspace (the typewriter's 075, ASCII BS) stays in the
// text — `#paper` holds what `pdp1 --headless` prints, byte for byte — inside a span of no width
// that draws nothing and takes what follows one column back, so the next character is struck
// over the last, as on the paper (the DEC game types "3. ", a backspace, "2,": "3.2,").
function typeOnPaper(t) {
  t.split("\b").forEach((part, i) => {
    if (i > 0) {
      const bs = document.createElement("span");
      bs.className = "bs";
      bs.textContent = "\b";
      paperEl.appendChild(bs);
    }
    if (!part) return;
    const last = paperEl.lastChild;
    if (last && last.nodeType === Node.TEXT_NODE) last.appendData(part);
    else paperEl.appendChild(document.createTextNode(part));
  });
}

// What a run brought, to the page: the paper's new text, the status line, the sound.
function output() {
  const t = page.take_text();
  if (t) typeOnPaper(t);
  const st = page.status();
  if (statusEl.textContent !== st && !statusEl.dataset.sticky) statusEl.textContent = st;
  sound();
}

function failed(e) {
  message(`The machine stopped with an error: ${e}`);
  page = null;
}

// The tick. At a set speed it runs the machine (Page::run: to the pacer's target); at full
// speed the task loop below does, and the tick only draws and shows.
function tick() {
  if (!page) return;
  try {
    if (page.flat_out()) flatOut();
    else page.run();
    if (page.draw()) blit(false);
    output();
    measure(performance.now());
  } catch (e) {
    failed(e);
  }
}
setInterval(tick, FRAME_MS);

// Full speed: slices of the pacer's budget (12 ms) back to back, each a task of its own so
// keys, clicks and frames come between them. A MessageChannel message is the next task at
// once, where a chained setTimeout is held back 4 ms after five (a quarter of the time lost).
// A clock that did not move in a whole slice is headless Chromium's virtual time, which moves
// only when the page waits for a timer with a delay (the tests' --virtual-time-budget): then
// the next slice waits 4 ms for one, or the budget would never run out.
const slices = new MessageChannel();
let slicing = false;
function flatOut() {
  if (slicing) return;
  slicing = true;
  slices.port2.postMessage(0);
}
slices.port1.onmessage = () => {
  slicing = false;
  if (!page || !page.flat_out()) return;
  const t0 = performance.now();
  try {
    page.run();
  } catch (e) {
    failed(e);
    return;
  }
  slicing = true;
  if (performance.now() === t0) setTimeout(() => slices.port2.postMessage(0), 4);
  else slices.port2.postMessage(0);
};

// Keys: the window's (docs/frontend.md), given to the machine; what it takes, the browser
// does not also act on (F1 help, F5 reload …).
function key(k, e) {
  startSound();
  if (page && page.key(k, !!(e && e.ctrlKey), !!(e && e.shiftKey), !!(e && e.altKey))) {
    if (e) e.preventDefault();
  }
}
window.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement) return;
  key(e.key, e);
});
canvas.addEventListener("pointerdown", (e) => {
  startSound();
  canvas.focus();
  if (!page) return;
  const r = canvas.getBoundingClientRect();
  page.click(Math.round((e.clientX - r.left) * canvas.width / r.width),
             Math.round((e.clientY - r.top) * canvas.height / r.height));
});

// The touch keypad: digits, space and return, for a kiosk tablet or a phone; `keypad=1` in
// the link shows it anyway (a touch panel the browser does not report), `keypad=0` never.
const touch = window.matchMedia("(pointer: coarse)").matches && navigator.maxTouchPoints > 0;
$("keypad").hidden = !(params.get("keypad") === "1" || (touch && params.get("keypad") !== "0"));
for (const b of $("keypad").querySelectorAll("button")) {
  b.addEventListener("click", () => key(b.dataset.key || b.textContent, null));
}

// Tapes from files: dropped on the page or chosen. A RIM or BLK tape is a new machine (its
// profile recognised as on the desktop); any other file goes in the reader for the program
// (a text tape, Bell's memory tape read back).
async function mountFile(file) {
  startSound();
  const frames = new Uint8Array(await file.arrayBuffer());
  if (Page.is_boot_tape(frames)) {
    const err = start(queryWithout("tape", "type"), file.name, frames);
    if (err) message(err);
  } else if (page) {
    try { page.mount_data(file.name, frames); message(""); } catch (e) { message(String(e)); }
  }
}
$("file").addEventListener("change", (e) => {
  if (e.target.files.length) mountFile(e.target.files[0]);
  e.target.value = "";
});
window.addEventListener("dragover", (e) => { e.preventDefault(); canvas.classList.add("drop"); });
window.addEventListener("dragleave", () => canvas.classList.remove("drop"));
window.addEventListener("drop", (e) => {
  e.preventDefault();
  canvas.classList.remove("drop");
  if (e.dataTransfer.files.length) mountFile(e.dataTransfer.files[0]);
});

// What the punch punched, as a download (Bell's memory tape; read it back with the file button).
$("punch").addEventListener("click", () => {
  if (!page) return;
  const bytes = page.punched();
  if (bytes.length === 0) { message("Nothing has been punched yet."); return; }
  message("");
  // The download, and a link to it beside the button (the file again, or to drag elsewhere);
  // the link of the punch before goes.
  const old = $("punched");
  if (old) { URL.revokeObjectURL(old.href); old.remove(); }
  const a = document.createElement("a");
  a.id = "punched";
  a.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  a.download = "punch.tape";
  a.textContent = `punch.tape (${bytes.length} bytes)`;
  $("punch").after(a);
  a.click();
});

await boot();
