//! The PDP-1 on a web page (issue 26): a third host over `pdp1-host`, beside the window and
//! the headless runner. The page's JavaScript (`www/main.js`) owns only what a browser has —
//! the canvas, key and pointer events, a timer, WebAudio, files dropped or
//! chosen, downloads — and hands them to [`Page`], which runs the machine with the library's
//! run controller, paces it with the library's [`pdp1_host::pacing`] and draws it with the
//! library's `Screen` (the window's own picture, pixel for pixel).
//!
//! [`query`] reads the page's link (`?tape=kalah.rim&tw=4&type=3%20&speed=max`) with the
//! headless options' own parsers; [`tapes`] holds the built-in tapes.

pub mod page;
pub mod query;
pub mod tapes;

pub use page::Page;
