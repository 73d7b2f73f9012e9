//! The MIT Spacewar! control boxes (IOT 11) on the host keyboard.
//!
//! Spacewar!'s own comment (quoted in MAME's driver, pdp1-hardware.md §2.7.1): "high order 4 bits,
//! rotate ccw, rotate cw, (both mean hyperspace) fire rocket, and fire torpedo. low order 4 bits,
//! same for other ship". MAME's layout: player 2 in bits 0–3 (400000 ccw, 200000 cw, 100000
//! thrust, 040000 fire), player 1 in bits 14–17 (010, 004, 002, 001).
//!
//! While the control-box mode is on (Ctrl+G) the letter keys below work the boxes instead of the
//! typewriter; holding both rotate keys of a ship means hyperspace.

use minifb::Key;
use pdp1_core::Word;

/// (key, bit) for both players: player 1 on the left hand (A D S W), player 2 on the right
/// (J L K I), each as rotate left, rotate right, thrust, fire.
pub const KEY_MAP: [(Key, u32); 8] = [
    (Key::A, 0o000010),
    (Key::D, 0o000004),
    (Key::S, 0o000002),
    (Key::W, 0o000001),
    (Key::J, 0o400000),
    (Key::L, 0o200000),
    (Key::K, 0o100000),
    (Key::I, 0o040000),
];

/// The control word for the keys held down now.
pub fn control_word(down: impl Fn(Key) -> bool) -> Word {
    Word::new(
        KEY_MAP
            .iter()
            .filter(|(k, _)| down(*k))
            .fold(0, |w, (_, b)| w | b),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_one_low_bits_player_two_high_bits() {
        assert_eq!(control_word(|_| false).bits(), 0);
        // Player 1 thrust and fire: bits 16 and 17.
        assert_eq!(
            control_word(|k| k == Key::S || k == Key::W).bits(),
            0o000003
        );
        // Player 2 hyperspace (both rotations): bits 0 and 1.
        assert_eq!(
            control_word(|k| k == Key::J || k == Key::L).bits(),
            0o600000
        );
        assert_eq!(control_word(|_| true).bits(), 0o740017);
    }
}
