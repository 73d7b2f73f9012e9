//! Word → MACRO text, the inverse of the assembler: `assemble(disassemble(w))` gives `w` back
//! for every 18-bit word (tested over all 2^18 words).
//!
//! Forms (pdp1-hardware.md §2):
//! * memory reference: `lac i 1234`, with the address as a symbol when a table names it;
//! * `cal Y` / `jda Y`; `law N` / `law i N`;
//! * skip and operate micro-instructions joined with `!` (inclusive or), because each mnemonic
//!   carries its group's base opcode and MACRO's space would add the base twice:
//!   `sza!sma i`, `cla!cma!hlt`, `szs 30`, `szf 7`;
//! * shifts: `rcl 9s`, or `ral 123` when the count field is not one of `1s`…`9s`;
//! * IOT: the named IOT plus extra bits (`dpy 300`), the same without the wait bit (`dpy-i`,
//!   `dpy-i 300`), or `iot 1234`;
//! * anything else (undefined opcodes and sub-codes): the octal number.
//!
//! The names depend on the machine: opcodes 54 and 56 are `mul`/`div` with the Type 10
//! multiply/divide and `mus`/`dis` (multiply step, divide step) on a machine without it
//! (pdp1-hardware.md §2.2, the handbook's instruction list: "mul Y / mus Y … Type 10 present:
//! multiply; absent: multiply step"). MACRO knows all four, so either form assembles back.
//!
//! [`disassemble_within`] is the same for a column of fixed width (the debugger's pane): a
//! form that does not fit gives way to a shorter one that also assembles back to the word, so
//! that a long operate or skip combination is never cut into a different instruction or left
//! out.

use crate::permanent;
use crate::symbols::SymbolTable;
use pdp1_core::{MachineConfig, Word};

const MRI: &[(u32, &str)] = &[
    (0o01, "and"),
    (0o02, "ior"),
    (0o03, "xor"),
    (0o04, "xct"),
    (0o10, "lac"),
    (0o11, "lio"),
    (0o12, "dac"),
    (0o13, "dap"),
    (0o14, "dip"),
    (0o15, "dio"),
    (0o16, "dzm"),
    (0o20, "add"),
    (0o21, "sub"),
    (0o22, "idx"),
    (0o23, "isp"),
    (0o24, "sad"),
    (0o25, "sas"),
    (0o26, "mul"), // `mus` without the Type 10, see `disassemble`
    (0o27, "div"), // `dis` without the Type 10
    (0o30, "jmp"),
    (0o31, "jsp"),
];

const SHIFTS: &[(u32, &str)] = &[
    (0o01, "ral"),
    (0o02, "ril"),
    (0o03, "rcl"),
    (0o05, "sal"),
    (0o06, "sil"),
    (0o07, "scl"),
    (0o11, "rar"),
    (0o12, "rir"),
    (0o13, "rcr"),
    (0o15, "sar"),
    (0o16, "sir"),
    (0o17, "scr"),
];

const IOTS: &[&str] = &[
    "rpa", "rpb", "tyo", "tyi", "ppa", "ppb", "dpy", "rrb", "cks", "lsm", "esm", "cbs", "lem",
    "eem",
];

fn address(addr: u32, symbols: Option<&SymbolTable>) -> String {
    match symbols.and_then(|s| s.name_of(addr)) {
        // A user symbol that shadows a permanent one would not assemble back to the address.
        Some(name) if permanent::lookup(name).is_none() => name.to_string(),
        _ => format!("{addr:o}"),
    }
}

fn skip(w: u32) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (mask, name) in [
        (0o100, "sza"),
        (0o200, "spa"),
        (0o400, "sma"),
        (0o1000, "szo"),
        (0o2000, "spi"),
    ] {
        if w & mask != 0 {
            parts.push(name.into());
        }
    }
    if w & 0o4000 != 0 {
        parts.push("skp 4000".into()); // sni on the PDP-1D; no PDP-1C name
    }
    if w & 0o70 != 0 {
        parts.push(format!("szs {:o}", w & 0o70));
    }
    if w & 0o7 != 0 {
        parts.push(format!("szf {:o}", w & 0o7));
    }
    if parts.is_empty() {
        parts.push("skp".into());
    }
    let mut s = parts.join("!");
    if w & 0o10000 != 0 {
        s.push_str(" i");
    }
    s
}

fn operate(w: u32) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = w & 0o17777;
    let mut take = |mask: u32, name: &str, rest: &mut u32| {
        if *rest & mask == mask {
            parts.push(name.to_string());
            *rest &= !mask;
        }
    };
    take(0o4000, "cli", &mut rest);
    take(0o2200, "lat", &mut rest);
    take(0o1200, "clc", &mut rest);
    take(0o1000, "cma", &mut rest);
    take(0o400, "hlt", &mut rest);
    take(0o200, "cla", &mut rest);
    if rest & 0o10 != 0 {
        parts.push(if rest & 7 != 0 {
            format!("stf {:o}", rest & 7)
        } else {
            "stf".into()
        });
        rest &= !0o17;
    } else if rest & 7 != 0 {
        parts.push(format!("clf {:o}", rest & 7));
        rest &= !0o7;
    }
    if rest != 0 {
        // Or-ed in as a bare number (bits no mnemonic names).
        parts.push(if parts.is_empty() {
            format!("opr {rest:o}")
        } else {
            format!("{rest:o}")
        });
    }
    if parts.is_empty() {
        "nop".into()
    } else {
        parts.join("!")
    }
}

fn iot(w: u32) -> String {
    for name in IOTS {
        let v = permanent::lookup(name).unwrap_or(0);
        if w == v {
            return (*name).to_string();
        }
    }
    if w == 0o730000 {
        return "ioh".into();
    }
    // A named IOT for the same device and wait bit plus extra bits (e.g. dpy intensity).
    for name in IOTS {
        let v = permanent::lookup(name).unwrap_or(0);
        if w & v == v && (w ^ v) & 0o10077 == 0 {
            return format!("{name} {:o}", w - v);
        }
    }
    // The same without the wait bit, as MACRO programs write it: `dpy-i` is a display IOT
    // that does not wait for the completion pulse (i = 010000 is bit 5, the wait bit).
    for name in IOTS {
        let v = permanent::lookup(name).unwrap_or(0);
        let waited = w | 0o10000;
        if v & 0o10000 != 0 && w & 0o10000 == 0 && waited & v == v && (waited ^ v) & 0o10077 == 0 {
            return match waited - v {
                0 => format!("{name}-i"),
                extra => format!("{name}-i {extra:o}"),
            };
        }
    }
    format!("iot {:o}", w & 0o17777)
}

/// MACRO text for `w` on `machine` (whose `mul_div`, the Type 10, names opcodes 54 and 56);
/// with `symbols`, memory-reference addresses that a label or variable names are shown by name.
pub fn disassemble(w: Word, symbols: Option<&SymbolTable>, machine: &MachineConfig) -> String {
    let w = w.bits();
    let op = w >> 13;
    let y = w & 0o7777;
    let ind = if w & 0o10000 != 0 { "i " } else { "" };
    if let Some(&(_, name)) = MRI.iter().find(|&&(o, _)| o == op) {
        // Without the Type 10 the same opcodes are the multiply and divide steps.
        let name = match (op, machine.mul_div) {
            (0o26, false) => "mus",
            (0o27, false) => "dis",
            _ => name,
        };
        return format!("{name} {ind}{}", address(y, symbols));
    }
    match op {
        0o07 => {
            let name = if w & 0o10000 != 0 { "jda" } else { "cal" };
            format!("{name} {}", address(y, symbols))
        }
        0o32 => skip(w),
        0o33 => {
            let sub = (w >> 9) & 0o17;
            let count = w & 0o777;
            match SHIFTS.iter().find(|&&(s, _)| s == sub) {
                Some(&(_, name)) => match count {
                    0 => name.to_string(),
                    c if (c + 1).is_power_of_two() => {
                        format!("{name} {}s", (c + 1).trailing_zeros())
                    }
                    c => format!("{name} {c:o}"),
                },
                None => format!("{w:o}"),
            }
        }
        0o34 => format!("law {ind}{y:o}"),
        0o35 => iot(w),
        0o37 => operate(w),
        _ => format!("{w:o}"),
    }
}

/// [`disassemble`] in at most `room` characters where it can be: the named form, else the
/// same without symbol names, else the group's number form (`opr 7617`, `skp 11600`: MACRO's
/// `opr`/`skp` or-ed with the bits), else the word as an octal number — each assembles back to
/// `w`. A long operate or skip combination (`cli!lat!cma!hlt!stf 7`, 21 characters) thus
/// shows as `opr 7617` in a narrow column instead of being cut to the names that fit (which
/// would be another instruction) or left out (issue 25: the debugger's pane cut lines at a
/// space, and the whole `!`-joined name went). When not even the number fits, it is returned
/// anyway for the caller to cut.
pub fn disassemble_within(
    w: Word,
    symbols: Option<&SymbolTable>,
    machine: &MachineConfig,
    room: usize,
) -> String {
    let fits = |s: &str| s.chars().count() <= room;
    let named = disassemble(w, symbols, machine);
    if fits(&named) {
        return named;
    }
    let plain = disassemble(w, None, machine);
    if fits(&plain) {
        return plain;
    }
    let bits = w.bits();
    let group = match bits >> 13 {
        0o32 => format!("skp {:o}", bits & 0o17777),
        0o37 => format!("opr {:o}", bits & 0o17777),
        _ => String::new(),
    };
    if !group.is_empty() && fits(&group) {
        return group;
    }
    format!("{bits:o}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With the Type 10, as the words the assembler's tests are written for.
    fn d(w: u32) -> String {
        disassemble(Word::new(w), None, &type_10())
    }

    fn type_10() -> MachineConfig {
        MachineConfig {
            mul_div: true,
            ..MachineConfig::default()
        }
    }

    #[test]
    fn handbook_words() {
        assert_eq!(d(0o425137), "sub 5137");
        assert_eq!(d(0o217760), "lac i 7760");
        assert_eq!(d(0o170100), "jda 100");
        assert_eq!(d(0o663777), "rcl 9s");
        assert_eq!(d(0o661001), "ral 1s");
        assert_eq!(d(0o710005), "law i 5");
        assert_eq!(d(0o650000), "skp i");
        assert_eq!(d(0o640500), "sza!sma");
        assert_eq!(d(0o651600), "spa!sma!szo i");
        assert_eq!(d(0o761200), "clc");
        assert_eq!(d(0o762200), "lat");
        assert_eq!(d(0o760000), "nop");
        assert_eq!(d(0o760013), "stf 3");
        assert_eq!(d(0o730007), "dpy");
        assert_eq!(d(0o730307), "dpy 300");
        assert_eq!(d(0o720007), "dpy-i");
        assert_eq!(d(0o720307), "dpy-i 300");
        assert_eq!(d(0o720003), "tyo-i");
        assert_eq!(d(0o000000), "0");
    }

    #[test]
    fn symbols_name_addresses() {
        let mut t = SymbolTable::new();
        t.insert("loop", 0o100, crate::SymbolKind::Label);
        let plain = MachineConfig::default();
        assert_eq!(
            disassemble(Word::new(0o600100), Some(&t), &plain),
            "jmp loop"
        );
        assert_eq!(
            disassemble(Word::new(0o600101), Some(&t), &plain),
            "jmp 101"
        );
    }

    /// Issue 25: opcodes 54 and 56 are `mul`/`div` only with the Type 10; on the basic machine
    /// they are the multiply and divide steps `mus`/`dis` (handbook, pdp1-hardware.md §2.2).
    #[test]
    fn opcodes_54_and_56_are_mus_and_dis_without_the_type_10() {
        let plain = MachineConfig::default();
        let on = |w: u32, m: &MachineConfig| disassemble(Word::new(w), None, m);
        assert_eq!(on(0o540200, &plain), "mus 200");
        assert_eq!(on(0o570300, &plain), "dis i 300");
        assert_eq!(on(0o540200, &type_10()), "mul 200");
        assert_eq!(on(0o570300, &type_10()), "div i 300");
    }

    /// Issue 25: a long operate combination in a narrow column is `opr N`, not cut to the
    /// names that fit (another instruction) nor left out; what fits is left alone.
    #[test]
    fn a_form_too_long_for_its_column_gives_way_to_a_shorter_one() {
        let plain = MachineConfig::default();
        let within = |w: u32, syms: Option<&SymbolTable>, room: usize| {
            disassemble_within(Word::new(w), syms, &plain, room)
        };
        assert_eq!(d(0o767617), "cli!lat!cma!hlt!stf 7");
        assert_eq!(within(0o767617, None, 21), "cli!lat!cma!hlt!stf 7");
        assert_eq!(within(0o767617, None, 20), "opr 7617");
        assert_eq!(within(0o777777, None, 16), "opr 17777");
        assert_eq!(within(0o651677, None, 16), "skp 11677");
        assert_eq!(within(0o767617, None, 7), "767617");
        assert_eq!(within(0o767617, None, 3), "767617", "the caller cuts");
        let mut t = SymbolTable::new();
        t.insert("a_long_label", 0o100, crate::SymbolKind::Label);
        assert_eq!(within(0o210100, Some(&t), 20), "lac i a_long_label");
        assert_eq!(within(0o210100, Some(&t), 16), "lac i 100");
        assert_eq!(within(0o210100, Some(&t), 7), "210100");
    }
}
