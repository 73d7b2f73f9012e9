//! What a console may set that the PDP-1's own console cannot: MB, MA, IR and the memory
//! fields EPC/EMA alone, and the Type 10 and Type 120 options between instructions — the
//! PiDP-1 debug protocol's `w mb|ma|ir|epc|ema` and `muldiv on|off`, `sbs 1|16` (aap's
//! DEBUG_PROTOCOL_SPEC.md §3 and §5).

mod common;
use common::*;

const HLT: u32 = 0o760400;

#[test]
fn mb_ma_and_ir_are_set_to_their_widths() {
    let mut m = machine(&[]);
    m.set_mb(w(0o777777));
    m.set_ma(0o377_777);
    m.set_ir(0o77);
    assert_eq!((m.mb(), m.ma(), m.ir()), (w(0o777777), 0o177_777, 0o37));
    m.set_mb(w(0o123456));
    m.set_ma(0o1234);
    m.set_ir(0o12);
    assert_eq!((m.mb(), m.ma(), m.ir()), (w(0o123456), 0o1234, 0o12));
}

#[test]
fn the_memory_fields_change_only_the_top_four_bits() {
    // 100: law 1 / 10100: law 2, both followed by hlt.
    let mut m = machine_cfg(
        eight_k(),
        &[
            (0o100, 0o700001),
            (0o101, HLT),
            (0o10100, 0o700002),
            (0o10101, HLT),
        ],
    );
    m.set_pc(0o100);
    m.set_ma(0o4567);
    m.set_pc_field(1);
    m.set_ma_field(0o21);
    assert_eq!((m.pc(), m.ma()), (0o10100, 0o14567));
    // The machine goes on in the field it was given.
    m.step_instruction();
    assert_eq!((m.ac(), m.pc()), (w(2), 0o10101));
    m.set_pc_field(0);
    assert_eq!(m.pc(), 0o101);
}

/// `mul 200` (540200) at 100 with AC=5 and 3 at 200, then hlt: (AC, IO).
fn multiply(m: &mut Machine) -> (Word, Word) {
    for (a, v) in [(0o100, 0o540200), (0o101, HLT), (0o200, 3)] {
        m.write(a, w(v)).unwrap();
    }
    m.set_io(w(0));
    step_at(m, 0o100, 5, 0);
    (m.ac(), m.io())
}

#[test]
fn the_type_10_is_installed_and_removed_between_instructions() {
    let mut m = machine(&[]);
    let without = multiply(&mut m);
    m.set_mul_div(true);
    assert!(m.config().mul_div);
    assert_eq!(
        multiply(&mut m),
        (w(0), w(0o36)),
        "mul: 5 × 3 = 15 (036 in IO)"
    );
    m.set_mul_div(false);
    assert!(!m.config().mul_div);
    assert_eq!(multiply(&mut m), without, "mus again");
    assert_ne!(without, (w(0), w(0o36)));
}

#[test]
fn changing_the_break_system_drops_its_requests() {
    // 100: law 5 / 101: hlt; break routine at 3: hlt. Sequence-break mode on, running; the
    // typewriter requests the one-channel break.
    let prog = [(0o100, 0o700005), (0o101, HLT), (0o3, HLT)];
    let armed = |sbs16: bool| {
        let mut m = machine(&prog);
        m.set_pc(0o100);
        m.set_sequence_break_mode(true);
        m.cont();
        m.strike_key(0o61);
        m.set_sbs16(sbs16);
        m.step_cycle();
        m
    };
    assert!(
        armed(false).break_entry_next(),
        "unchanged: the break follows law"
    );
    let m = armed(true);
    assert!(m.config().sbs16);
    assert!(
        !m.break_entry_next(),
        "the Type 120 starts with no request and no channel enabled"
    );
}
