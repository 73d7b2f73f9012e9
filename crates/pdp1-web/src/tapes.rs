//! The tapes built into the page (issue 26): the two Kalah programs and Bell's learner, with
//! their help files, so a link `?tape=kalah.rim` needs nothing but the page itself.

/// A tape the page carries.
pub struct BuiltIn {
    pub name: &'static str,
    pub frames: &'static [u8],
    /// The program's own keys for the help overlay (roms/NAME.help), if it has them.
    pub help: &'static str,
}

pub const BUILT_IN: &[BuiltIn] = &[
    BuiltIn {
        name: "kalah.rim",
        frames: include_bytes!("../../../roms/kalah.rim"),
        help: include_str!("../../../roms/kalah.help"),
    },
    BuiltIn {
        name: "kalah7.rim",
        frames: include_bytes!("../../../roms/kalah7.rim"),
        help: include_str!("../../../roms/kalah7.help"),
    },
    BuiltIn {
        name: "bell.rim",
        frames: include_bytes!("../../../roms/bell.rim"),
        help: "",
    },
];

/// The built-in tape of this name (case as given).
pub fn built_in(name: &str) -> Option<&'static BuiltIn> {
    BUILT_IN.iter().find(|t| t.name == name)
}

/// The names, for messages and the page's tape buttons.
pub fn names() -> Vec<&'static str> {
    BUILT_IN.iter().map(|t| t.name).collect()
}
