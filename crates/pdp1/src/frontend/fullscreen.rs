//! The kiosk's full screen (issue 27). minifb 0.28 can neither tell the screen's size nor
//! make a window full screen, so on X11 we ask the X server ourselves, over a connection of our
//! own (x11rb, safe Rust; the workspace forbids the unsafe code x11-dl's Xlib would need):
//! the root window's size before the window opens, then, once minifb's window exists, the
//! window manager's full-screen state for it (EWMH "_NET_WM_STATE", the client message a
//! window sends to the root to change its state). Without a window manager nobody answers the
//! message, and the borderless window at the screen's size, placed at 0,0, fills the screen
//! by itself.

/// What the kiosk says on stderr where it cannot fill the screen.
pub const NO_SCREEN_SIZE: &str =
    "pdp1: --kiosk: no X display to ask for the screen's size (Wayland or no X): the window opens at its usual size";

#[cfg(all(unix, not(target_os = "macos")))]
mod x11 {
    use raw_window_handle::{HasWindowHandle, RawWindowHandle};
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt, EventMask};
    use x11rb::wrapper::ConnectionExt as _;

    /// The size of the X server's default screen (`DISPLAY`), if one answers.
    pub fn screen_size() -> Option<(usize, usize)> {
        std::env::var_os("DISPLAY")?;
        let (conn, n) = x11rb::connect(None).ok()?;
        let s = conn.setup().roots.get(n)?;
        Some((s.width_in_pixels.into(), s.height_in_pixels.into()))
    }

    /// Ask the window manager to show minifb's `window` full screen: a `_NET_WM_STATE`
    /// client message to the root window, `_NET_WM_STATE_ADD` (1) of
    /// `_NET_WM_STATE_FULLSCREEN`, from a normal application (source 1) (EWMH 1.5,
    /// "_NET_WM_STATE"). `false` if the window is not an X11 one (minifb chose Wayland).
    pub fn ask_full_screen(window: &minifb::Window) -> Result<bool, String> {
        let Ok(handle) = window.window_handle() else {
            return Ok(false);
        };
        let RawWindowHandle::Xlib(h) = handle.as_raw() else {
            return Ok(false);
        };
        let id = u32::try_from(h.window).map_err(|_| format!("window id {} too big", h.window))?;
        let e = |e: &dyn std::fmt::Display| format!("asking for full screen: {e}");
        let (conn, n) = x11rb::connect(None).map_err(|x| e(&x))?;
        let root = conn.setup().roots[n].root;
        let atom = |name: &str| -> Result<u32, String> {
            Ok(conn
                .intern_atom(false, name.as_bytes())
                .map_err(|x| e(&x))?
                .reply()
                .map_err(|x| e(&x))?
                .atom)
        };
        let (state, full) = (atom("_NET_WM_STATE")?, atom("_NET_WM_STATE_FULLSCREEN")?);
        let msg = ClientMessageEvent::new(32, id, state, [1, full, 0, 1, 0]);
        conn.send_event(
            false,
            root,
            EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY,
            msg,
        )
        .map_err(|x| e(&x))?;
        conn.sync().map_err(|x| e(&x))?;
        Ok(true)
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
pub use x11::{ask_full_screen, screen_size};

#[cfg(not(all(unix, not(target_os = "macos"))))]
pub fn screen_size() -> Option<(usize, usize)> {
    None
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
pub fn ask_full_screen(_: &minifb::Window) -> Result<bool, String> {
    Ok(false)
}
