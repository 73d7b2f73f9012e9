//! The kiosk's restart after a game (issue 27): a museum's machine reads its tape in again a
//! while after a game ends, so the next visitor finds a fresh board. The end of a game is read
//! from what the program types: each Kalah program ends a game with a line of its own and a
//! carriage return (docs/kalah.md):
//!
//! | program | the game's last line |
//! |---|---|
//! | the DEC game, Russell's, 7×7 (`roms/lib/search.mac`: `low`, `upp`, `tie`) | `lower wins 50-48`, `upper wins 52-46`, `tie 49-49` |
//! | Bell's (`roms/bell-data.mac`: `iwn`, `ywn`, `drw`, `irs`) | `i win 20-16`, `you win 20-16`, `draw 18-18`, `i resign` |
//!
//! Time here is emulated time, so a window at 1× waits as long as the wall clock says, and a
//! headless run at full speed (the emulated day, `examples/kiosk_day.rs`) and the tests
//! need no clock.

use crate::script::typed_text;
use pdp1_core::TypeEvent;

/// How long after the game's last line the kiosk reads its tape in again: a minute of emulated
/// time (a minute at 1×), long enough to read the result and the board; a key struck meanwhile
/// keeps the game (a visitor is there, and Return starts the next game at once).
pub const GAME_OVER_PAUSE_NS: u64 = 60_000_000_000;

/// Whether `line` (one typed line, without its carriage return) is the end of a game.
pub fn ends_a_game(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words == ["i", "resign"] {
        return true;
    }
    // `… wins 50-48`, `tie 49-49`, `i win 20-16`, `draw 18-18`: a result word, then the score.
    let [.., result, score] = words[..] else {
        return false;
    };
    let is_count = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    matches!(result, "wins" | "win" | "tie" | "draw")
        && score
            .split_once('-')
            .is_some_and(|(a, b)| is_count(a) && is_count(b))
}

/// Watches the typed lines for a game's end and says when the pause after it is over.
#[derive(Debug, Default)]
pub struct GameEnd {
    /// The line being typed.
    line: String,
    /// When (emulated ns) the last game ended, if it has not been restarted or played on.
    ended_at: Option<u64>,
}

impl GameEnd {
    /// The typewriter's events of a step that ended at emulated time `now_ns`.
    pub fn observe(&mut self, events: &[TypeEvent], now_ns: u64) {
        let mut text = String::new();
        typed_text(events, &mut text);
        for c in text.chars() {
            if c == '\n' {
                if ends_a_game(&self.line) {
                    self.ended_at = Some(now_ns);
                }
                self.line.clear();
            } else if self.line.len() < 200 {
                // (A line is short; the cap keeps a program that never returns the carriage
                // from growing it all day.)
                self.line.push(c);
            }
        }
    }

    /// The game ended at least [`GAME_OVER_PAUSE_NS`] before `now_ns`: time to restart.
    pub fn due(&self, now_ns: u64) -> bool {
        self.ended_at
            .is_some_and(|t| now_ns.saturating_sub(t) >= GAME_OVER_PAUSE_NS)
    }

    /// A game has ended and the pause after it is running.
    pub fn pending(&self) -> bool {
        self.ended_at.is_some()
    }

    /// A key was struck or the tape read in again: no restart pending.
    pub fn clear(&mut self) {
        self.ended_at = None;
        self.line.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_result_lines_end_a_game_and_others_do_not() {
        for l in [
            "lower wins 50-48",
            "upper wins 52-46",
            "tie 49-49",
            "i win 20-16",
            "you win 20-16",
            "draw 18-18",
            "i resign",
        ] {
            assert!(ends_a_game(l), "{l}");
        }
        for l in [
            "",
            "i will win",
            "3.",
            "lower wins",
            "wins 5-",
            "pits 12-3 x",
        ] {
            assert!(!ends_a_game(l), "{l}");
        }
    }
}
