//! The picture of the machine, drawn without a window: the Type 30 scope with its phosphor, the
//! typewriter paper, the console panel and the debugger pane, composed by [`render::Screen`] as
//! a pure function of the machine and its output streams. The window (`frontend/`) shows it;
//! headless runs write it for `--screenshot` — neither needs the other (issue 18).

pub mod canvas;
pub mod console;
pub mod debugger;
pub mod font;
pub mod paper;
pub mod phosphor;
pub mod render;
