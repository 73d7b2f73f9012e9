//! FIO-DEC ("Concise") 6-bit typewriter and tape code.
//!
//! Table from pdp1-hardware.md §5.2, compiled from aap's `fio2uni`, SIMH's `fiodec_to_ascii`
//! and MAME's `ascii_table` (the three agree). Case is *state*: the upper/lower case shift
//! codes (074/072) change it and every printing code is read in the current case. Ribbon colour
//! is state too (034 black, 035 red).
//!
//! [`to_char`] gives the Unicode character actually printed; [`to_ascii`] gives SIMH's ASCII
//! stand-ins (`@`=·, `\`=‾, `#`=⊃, `!`=∨, `&`=∧, `^`=↑, `` ` ``=→, `*`=×, [SIMH-doc §4]).
//! [`from_char`] accepts both.

/// Space (both cases).
pub const SPACE: u8 = 0o00;
/// End-of-text stop code on tape (SIMH's ASCII FF ↔ 013).
pub const STOP: u8 = 0o13;
/// Black ribbon.
pub const BLACK: u8 = 0o34;
/// Red ribbon.
pub const RED: u8 = 0o35;
/// Tabulate.
pub const TAB: u8 = 0o36;
/// Shift to lower case.
pub const LOWER_CASE: u8 = 0o72;
/// Shift to upper case.
pub const UPPER_CASE: u8 = 0o74;
/// Backspace.
pub const BACKSPACE: u8 = 0o75;
/// Carriage return (the typewriter also feeds a line).
pub const CARRIAGE_RETURN: u8 = 0o77;

/// Lower/upper case Unicode characters for each code; `None` for control and unassigned codes.
/// Non-spacing characters (040 · _, 056 ‾ |) are included; the renderer overstrikes them.
const TABLE: [(Option<char>, Option<char>); 64] = {
    let mut t: [(Option<char>, Option<char>); 64] = [(None, None); 64];
    t[0o00] = (Some(' '), Some(' '));
    t[0o01] = (Some('1'), Some('"'));
    t[0o02] = (Some('2'), Some('\''));
    t[0o03] = (Some('3'), Some('~'));
    t[0o04] = (Some('4'), Some('⊃'));
    t[0o05] = (Some('5'), Some('∨'));
    t[0o06] = (Some('6'), Some('∧'));
    t[0o07] = (Some('7'), Some('<'));
    t[0o10] = (Some('8'), Some('>'));
    t[0o11] = (Some('9'), Some('↑'));
    t[0o20] = (Some('0'), Some('→'));
    t[0o21] = (Some('/'), Some('?'));
    t[0o22] = (Some('s'), Some('S'));
    t[0o23] = (Some('t'), Some('T'));
    t[0o24] = (Some('u'), Some('U'));
    t[0o25] = (Some('v'), Some('V'));
    t[0o26] = (Some('w'), Some('W'));
    t[0o27] = (Some('x'), Some('X'));
    t[0o30] = (Some('y'), Some('Y'));
    t[0o31] = (Some('z'), Some('Z'));
    t[0o33] = (Some(','), Some('='));
    t[0o40] = (Some('·'), Some('_'));
    t[0o41] = (Some('j'), Some('J'));
    t[0o42] = (Some('k'), Some('K'));
    t[0o43] = (Some('l'), Some('L'));
    t[0o44] = (Some('m'), Some('M'));
    t[0o45] = (Some('n'), Some('N'));
    t[0o46] = (Some('o'), Some('O'));
    t[0o47] = (Some('p'), Some('P'));
    t[0o50] = (Some('q'), Some('Q'));
    t[0o51] = (Some('r'), Some('R'));
    t[0o54] = (Some('-'), Some('+'));
    t[0o55] = (Some(')'), Some(']'));
    t[0o56] = (Some('‾'), Some('|'));
    t[0o57] = (Some('('), Some('['));
    t[0o61] = (Some('a'), Some('A'));
    t[0o62] = (Some('b'), Some('B'));
    t[0o63] = (Some('c'), Some('C'));
    t[0o64] = (Some('d'), Some('D'));
    t[0o65] = (Some('e'), Some('E'));
    t[0o66] = (Some('f'), Some('F'));
    t[0o67] = (Some('g'), Some('G'));
    t[0o70] = (Some('h'), Some('H'));
    t[0o71] = (Some('i'), Some('I'));
    t[0o73] = (Some('.'), Some('×'));
    t
};

/// The Unicode character printed for `code` (low 6 bits used) in the given case, or `None` for
/// control codes (case, ribbon, tab, backspace, carriage return, stop) and unassigned codes.
pub fn to_char(code: u8, upper: bool) -> Option<char> {
    let (lc, uc) = TABLE[(code & 0o77) as usize];
    if upper {
        uc
    } else {
        lc
    }
}

/// Like [`to_char`] but with SIMH's ASCII stand-ins for the characters ASCII lacks.
pub fn to_ascii(code: u8, upper: bool) -> Option<char> {
    to_char(code, upper).map(|c| match c {
        '·' => '@',
        '‾' => '\\',
        '⊃' => '#',
        '∨' => '!',
        '∧' => '&',
        '↑' => '^',
        '→' => '`',
        '×' => '*',
        c => c,
    })
}

/// True for the codes that change typewriter state or move the carriage without printing.
pub fn is_control(code: u8) -> bool {
    matches!(
        code & 0o77,
        BLACK | RED | TAB | LOWER_CASE | UPPER_CASE | BACKSPACE | CARRIAGE_RETURN | STOP
    )
}

/// The code for `c` and the case it needs: `Some(true)` upper, `Some(false)` lower, `None`
/// either (space and the control characters). Accepts Unicode and SIMH's ASCII stand-ins;
/// `\t` → tab, `\n`/`\r` → carriage return, `\u{8}` → backspace.
pub fn from_char(c: char) -> Option<(u8, Option<bool>)> {
    let ascii = match c {
        ' ' => return Some((SPACE, None)),
        '\t' => return Some((TAB, None)),
        '\n' | '\r' => return Some((CARRIAGE_RETURN, None)),
        '\u{8}' => return Some((BACKSPACE, None)),
        '@' => '·',
        '\\' => '‾',
        '#' => '⊃',
        '!' => '∨',
        '&' => '∧',
        '^' => '↑',
        '`' => '→',
        '*' => '×',
        c => c,
    };
    TABLE.iter().enumerate().find_map(|(code, &(lc, uc))| {
        if lc == Some(ascii) {
            Some((code as u8, Some(false)))
        } else if uc == Some(ascii) {
            Some((code as u8, Some(true)))
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_spot_checks() {
        // Handbook example codes and the §5.2 table.
        assert_eq!(to_char(0o61, false), Some('a'));
        assert_eq!(to_char(0o61, true), Some('A'));
        assert_eq!(to_char(0o20, false), Some('0'));
        assert_eq!(to_char(0o01, true), Some('"'));
        assert_eq!(to_char(0o54, true), Some('+'));
        assert_eq!(to_char(0o73, true), Some('×'));
        assert_eq!(to_ascii(0o73, true), Some('*'));
        assert_eq!(to_char(CARRIAGE_RETURN, false), None);
        assert_eq!(to_char(0o12, false), None);
    }

    #[test]
    fn from_char_inverts_to_char() {
        for code in 0..64u8 {
            for upper in [false, true] {
                if let Some(c) = to_char(code, upper) {
                    let (k, case) = from_char(c).unwrap();
                    assert_eq!(k, code, "{c}");
                    if code != SPACE {
                        assert_eq!(case, Some(upper), "{c}");
                    }
                }
                if let Some(c) = to_ascii(code, upper) {
                    assert_eq!(from_char(c).unwrap().0, code, "{c}");
                }
            }
        }
        assert_eq!(from_char('\n'), Some((CARRIAGE_RETURN, None)));
        assert_eq!(from_char(':'), None);
        assert!(is_control(UPPER_CASE) && !is_control(0o61));
    }
}
