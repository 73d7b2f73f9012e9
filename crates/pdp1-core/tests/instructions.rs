//! Per-instruction results, flags and cycle counts.
//!
//! Expected values come from the handbook (pdp1-hardware.md §2, times from the [HB] table in
//! §3.1: 5 µs per memory cycle, memory reference 10 µs, jmp/jsp/skip/shift/law/opr 5 µs,
//! +5 µs per indirect level, xct 5 µs + the executed instruction) and from runs of SIMH 3.8-1
//! (`pdp1`, marked [SIMH-run]).

mod common;
use common::*;

const CYCLE: u64 = 5_000;

#[track_caller]
fn assert_cycles(s: &Step, n: u64) {
    assert_eq!(s.stop, StopReason::Stepped);
    assert_eq!(s.cycles, n, "memory cycles");
    assert_eq!(s.ns, n * CYCLE, "emulated time");
}

// ---------------------------------------------------------------- logic, load, store

#[test]
fn and_ior_xor() {
    let d = [(0o200, 0o123456)];
    let (m, s) = one(0o020200, 0o707070, 0, &d);
    assert_eq!(m.ac(), w(0o103050));
    assert_cycles(&s, 2);
    let (m, s) = one(0o040200, 0o707070, 0, &d);
    assert_eq!(m.ac(), w(0o727476));
    assert_cycles(&s, 2);
    let (m, s) = one(0o060200, 0o707070, 0, &d);
    assert_eq!(m.ac(), w(0o624426));
    assert_cycles(&s, 2);
}

#[test]
fn loads_and_stores() {
    let d = [(0o200, 0o123456)];
    let (m, s) = one(0o200200, 0, 0, &d); // lac
    assert_eq!(m.ac(), w(0o123456));
    assert_cycles(&s, 2);
    let (m, s) = one(0o220200, 0, 0, &d); // lio
    assert_eq!(m.io(), w(0o123456));
    assert_cycles(&s, 2);
    let (m, s) = one(0o240200, 0o654321, 0, &d); // dac
    assert_eq!(m.read(0o200).unwrap(), w(0o654321));
    assert_cycles(&s, 2);
    let (m, s) = one(0o320200, 0, 0o654321, &d); // dio
    assert_eq!(m.read(0o200).unwrap(), w(0o654321));
    assert_cycles(&s, 2);
    let (m, s) = one(0o340200, 0o1, 0o1, &d); // dzm
    assert_eq!(m.read(0o200).unwrap(), w(0));
    assert_cycles(&s, 2);
}

#[test]
fn dap_and_dip_split_at_bit_5() {
    let d = [(0o200, 0o123456)];
    // dap: address part (bits 6–17) from AC.
    let (m, s) = one(0o260200, 0o777000, 0, &d);
    assert_eq!(m.read(0o200).unwrap(), w(0o127000));
    assert_eq!(m.ac(), w(0o777000));
    assert_cycles(&s, 2);
    // dip: instruction part (bits 0–5) from AC.
    let (m, s) = one(0o300200, 0o770000, 0, &d);
    assert_eq!(m.read(0o200).unwrap(), w(0o773456));
    assert_cycles(&s, 2);
}

// ---------------------------------------------------------------- add, sub, −0, overflow

fn add(ac: u32, m: u32) -> (u32, bool) {
    let (mc, s) = one(0o400200, ac, 0, &[(0o200, m)]);
    assert_cycles(&s, 2);
    (mc.ac().bits(), mc.ov())
}

fn sub(ac: u32, m: u32) -> (u32, bool) {
    let (mc, s) = one(0o420200, ac, 0, &[(0o200, m)]);
    assert_cycles(&s, 2);
    (mc.ac().bits(), mc.ov())
}

#[test]
fn add_minus_zero_cases_simh_run() {
    assert_eq!(add(0o777777, 0), (0, false));
    assert_eq!(add(0o777777, 0o777777), (0, false));
    assert_eq!(add(0o777776, 1), (0, false));
    assert_eq!(add(0, 0o777777), (0, false));
    assert_eq!(add(0o5, 0o777772), (0, false)); // 5 + (−5)
}

#[test]
fn sub_minus_zero_cases_simh_run() {
    assert_eq!(sub(0o777777, 0), (0o777777, false)); // the one −0 result
    assert_eq!(sub(0, 0o777777), (0, false));
    assert_eq!(sub(0, 0), (0, false));
    assert_eq!(sub(0o777777, 0o777777), (0, false));
    assert_eq!(sub(0o5, 0o5), (0, false));
}

#[test]
fn overflow_is_set_sticky_and_cleared_by_szo() {
    assert_eq!(add(0o377777, 1), (0o400000, true));
    assert_eq!(sub(0o400000, 1), (0o377777, true));
    // OV stays set through a later non-overflowing add.
    let mut m = machine(&[
        (0o100, 0o400200),
        (0o101, 0o400201),
        (0o102, 0o641000),
        (0o200, 0o377777),
        (0o201, 0o1),
    ]);
    m.set_ov(false);
    step_at(&mut m, 0o100, 1, 0);
    assert!(m.ov());
    m.step_instruction();
    assert!(m.ov(), "OV is sticky");
    // szo (641000): OV set, so no skip; OV cleared afterwards.
    let s = m.step_instruction();
    assert_eq!(s, StopReason::Stepped);
    assert!(!m.ov());
    assert_eq!(m.pc(), 0o103);
}

#[test]
fn idx_and_isp() {
    // idx of −1 gives +0, never −0; AC gets the result; OV untouched.
    let (m, s) = one(0o440200, 0o123, 0, &[(0o200, 0o777776)]);
    assert_eq!((m.ac(), m.read(0o200).unwrap()), (w(0), w(0)));
    assert_cycles(&s, 2);
    let (m, _) = one(0o440200, 0, 0, &[(0o200, 0o777777)]);
    assert_eq!(m.ac(), w(1));
    // isp skips when the result is ≥ 0 (+0 counts).
    let (m, s) = one(0o460200, 0, 0, &[(0o200, 0o777776)]);
    assert_eq!((m.ac(), m.pc()), (w(0), 0o102));
    assert_cycles(&s, 2);
    let (m, _) = one(0o460200, 0, 0, &[(0o200, 0o777775)]);
    assert_eq!((m.ac(), m.pc()), (w(0o777776), 0o101));
    let (m, _) = one(0o460200, 0, 0, &[(0o200, 0o377777)]);
    assert_eq!((m.ac(), m.pc(), m.ov()), (w(0o400000), 0o101, false));
    let (m, _) = one(0o460200, 0, 0, &[(0o200, 5)]);
    assert_eq!((m.ac(), m.pc()), (w(6), 0o102));
}

#[test]
fn sad_sas_compare_all_bits() {
    let d = [(0o200, 0o777777)];
    let (m, s) = one(0o500200, 0, 0, &d); // sad: +0 ≠ −0 → skip
    assert_eq!(m.pc(), 0o102);
    assert_cycles(&s, 2);
    let (m, s) = one(0o520200, 0, 0, &d); // sas: no skip
    assert_eq!(m.pc(), 0o101);
    assert_cycles(&s, 2);
    let (m, _) = one(0o520200, 0o777777, 0, &d);
    assert_eq!(m.pc(), 0o102);
}

// ---------------------------------------------------------------- addressing

#[test]
fn multi_level_indirect_costs_a_cycle_per_level() {
    // lac i 200 → 200: i 201 → 201: 300 → 300: 42
    let d = [(0o200, 0o010201), (0o201, 0o000300), (0o300, 0o42)];
    let (m, s) = one(0o210200, 0, 0, &d);
    assert_eq!(m.ac(), w(0o42));
    assert_cycles(&s, 4);
    // jmp i: fetch + one defer.
    let (m, s) = one(0o610201, 0, 0, &d);
    assert_eq!(m.pc(), 0o300);
    assert_cycles(&s, 2);
}

#[test]
fn indirect_loop_stops() {
    let mut m = machine(&[(0o100, 0o610200), (0o200, 0o010200)]);
    let r = run_from(&mut m, 0o100, 10);
    assert_eq!(r, StopReason::IndirectLimit { pc: 0o100 });
    assert!(!m.running());
}

#[test]
fn indirect_limit_counts_words_read_like_simh() {
    let cfg = MachineConfig {
        indirect_limit: 2,
        ..Default::default()
    };
    // Two indirect words, the second without the i bit: allowed.
    let mut m = machine_cfg(
        cfg.clone(),
        &[
            (0o100, 0o210200),
            (0o101, 0o760400),
            (0o200, 0o010201),
            (0o201, 0o300),
            (0o300, 7),
        ],
    );
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert_eq!(m.ac(), w(7));
    // Three needed: stop.
    let mut m = machine_cfg(
        cfg,
        &[
            (0o100, 0o210200),
            (0o200, 0o010201),
            (0o201, 0o010202),
            (0o202, 0o300),
        ],
    );
    assert_eq!(
        run_from(&mut m, 0o100, 10),
        StopReason::IndirectLimit { pc: 0o100 }
    );
}

#[test]
fn extend_mode_indirect_is_single_level_and_16_bit() {
    let cfg = MachineConfig {
        memory_words: 8192,
        ..Default::default()
    };
    // 100: lac i 200;  200: 010300 (i bit set, but extend mode reads it as address 10300)
    let mut m = machine_cfg(
        cfg,
        &[
            (0o100, 0o210200),
            (0o200, 0o010300),
            (0o300, 0o111),
            (0o10300, 0o222),
        ],
    );
    m.set_extend_mode(true);
    let s = step_at(&mut m, 0o100, 0, 0);
    assert_eq!(m.ac(), w(0o222));
    assert_cycles(&s, 3);
    // Without extend mode the same word continues the chain within field 0: 300 → 111.
    m.set_extend_mode(false);
    m.write(0o300, w(0o400)).unwrap();
    m.write(0o400, w(0o333)).unwrap();
    let s = step_at(&mut m, 0o100, 0, 0);
    assert_eq!(m.ac(), w(0o333));
    assert_cycles(&s, 4);
}

#[test]
fn direct_addresses_stay_in_the_current_field() {
    let cfg = MachineConfig {
        memory_words: 8192,
        ..Default::default()
    };
    // Code in field 1 at 10100: lac 200 reads 10200; jmp 300 goes to 10300.
    let mut m = machine_cfg(
        cfg,
        &[
            (0o10100, 0o200200),
            (0o10101, 0o600300),
            (0o200, 1),
            (0o10200, 2),
        ],
    );
    step_at(&mut m, 0o10100, 0, 0);
    assert_eq!(m.ac(), w(2));
    m.step_instruction();
    assert_eq!(m.pc(), 0o10300);
}

#[test]
fn eem_and_lem() {
    let mut m = machine(&[(0o100, 0o724074), (0o101, 0o720074)]);
    step_at(&mut m, 0o100, 0, 0);
    assert!(m.extend_mode());
    m.step_instruction();
    assert!(!m.extend_mode());
}

// ---------------------------------------------------------------- xct

#[test]
fn xct_of_a_skip_skips_relative_to_the_xct() {
    // 100: xct 200 / 101: hlt / 102: ...   200: skp i (650000, always skips)
    let (m, s) = one(0o100200, 0, 0, &[(0o200, 0o650000)]);
    assert_eq!(m.pc(), 0o102);
    assert_cycles(&s, 2);
}

#[test]
fn xct_costs_five_plus_the_executed_instruction() {
    let (m, s) = one(0o100200, 0, 0, &[(0o200, 0o200300), (0o300, 0o55)]);
    assert_eq!((m.ac(), m.pc()), (w(0o55), 0o101));
    assert_cycles(&s, 3);
    // xct of a jmp jumps; of jsp, the return address is the xct's successor.
    let (m, _) = one(0o100200, 0, 0, &[(0o200, 0o620500)]);
    assert_eq!((m.pc(), m.ac()), (0o500, w(0o101)));
    // xct i: one more cycle.
    let (m, s) = one(0o110200, 0, 0, &[(0o200, 0o201), (0o201, 0o700007)]);
    assert_eq!(m.ac(), w(7));
    assert_cycles(&s, 3);
    // xct of xct of lac.
    let (m, s) = one(
        0o100200,
        0,
        0,
        &[(0o200, 0o100201), (0o201, 0o200300), (0o300, 0o66)],
    );
    assert_eq!(m.ac(), w(0o66));
    assert_cycles(&s, 4);
}

#[test]
fn xct_chain_limit() {
    let mut m = machine(&[(0o100, 0o100100)]);
    assert_eq!(
        run_from(&mut m, 0o100, 10),
        StopReason::XctLimit { pc: 0o100 }
    );
    // Exactly xct_limit levels are fine.
    let cfg = MachineConfig {
        xct_limit: 2,
        ..Default::default()
    };
    let mut m = machine_cfg(
        cfg,
        &[(0o100, 0o100200), (0o200, 0o100201), (0o201, 0o760400)],
    );
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
}

// ---------------------------------------------------------------- jumps and return words

#[test]
fn jsp_return_word_carries_ov_and_extend() {
    let (m, s) = one(0o620300, 0, 0, &[]);
    assert_eq!((m.pc(), m.ac()), (0o300, w(0o101)));
    assert_cycles(&s, 1);
    let mut m = machine(&[(0o100, 0o620300)]);
    m.set_ov(true);
    m.set_extend_mode(true);
    step_at(&mut m, 0o100, 0, 0);
    assert_eq!(m.ac(), w(0o600101));
    assert!(m.ov(), "jsp does not clear OV");
}

#[test]
fn jda_stores_ac_and_jumps_past_it() {
    let mut m = machine(&[(0o100, 0o170200)]);
    m.set_ov(true);
    let s = step_at(&mut m, 0o100, 0o123456, 0);
    assert_eq!(m.read(0o200).unwrap(), w(0o123456));
    assert_eq!(m.ac(), w(0o400101));
    assert_eq!(m.pc(), 0o201);
    assert_cycles(&s, 2);
}

#[test]
fn cal_uses_location_100_and_ignores_y() {
    let mut m = machine(&[(0o500, 0o160777)]);
    let s = step_at(&mut m, 0o500, 0o654321, 0);
    assert_eq!(m.read(0o100).unwrap(), w(0o654321));
    assert_eq!(m.ac(), w(0o501));
    assert_eq!(m.pc(), 0o101);
    assert_cycles(&s, 2);
}

#[test]
fn jmp_direct_is_one_cycle() {
    let (m, s) = one(0o600123, 0, 0, &[]);
    assert_eq!(m.pc(), 0o123);
    assert_cycles(&s, 1);
}

// ---------------------------------------------------------------- skip group

fn skips(word: u32, ac: u32, io: u32, setup: impl Fn(&mut Machine)) -> bool {
    let mut m = machine(&[(0o100, word)]);
    setup(&mut m);
    let s = step_at(&mut m, 0o100, ac, io);
    assert_cycles(&s, 1);
    m.pc() == 0o102
}

#[test]
fn skip_conditions() {
    let none = |_: &mut Machine| {};
    assert!(skips(0o640100, 0, 0, none)); // sza +0
    assert!(!skips(0o640100, 0o777777, 0, none)); // sza: −0 is not zero
    assert!(skips(0o640400, 0o777777, 0, none)); // sma: −0 is minus
    assert!(!skips(0o640200, 0o777777, 0, none)); // spa
    assert!(skips(0o640200, 0, 0, none));
    assert!(skips(0o642000, 0, 0o377777, none)); // spi
    assert!(!skips(0o642000, 0, 0o400000, none));
    assert!(!skips(0o640000, 0, 0, none)); // skp never
    assert!(skips(0o650000, 0, 0, none)); // skp i always
    assert!(!skips(0o650100, 0, 0, none)); // sza i with +0
                                           // OR of conditions: sma|sza with a positive non-zero AC → no skip; with +0 → skip.
    assert!(!skips(0o640500, 5, 0, none));
    assert!(skips(0o640500, 0, 0, none));
}

#[test]
fn sense_switch_and_flag_skips() {
    let ss3 = |m: &mut Machine| m.set_sense_switches(0o10);
    assert!(!skips(0o640030, 0, 0, ss3)); // szs 3 with SS3 on
    assert!(skips(0o640020, 0, 0, ss3)); // szs 2 off
    assert!(skips(0o650030, 0, 0, ss3)); // szs i 3
    assert!(!skips(0o640070, 0, 0, ss3)); // szs 7: all off? no
    assert!(skips(0o640070, 0, 0, |_| {}));
    let pf6 = |m: &mut Machine| m.set_pf(0o01);
    assert!(!skips(0o640006, 0, 0, pf6)); // szf 6
    assert!(skips(0o640001, 0, 0, pf6)); // szf 1
    assert!(!skips(0o640007, 0, 0, pf6)); // szf 7
}

#[test]
fn szo_clears_ov_whether_or_not_it_skips() {
    assert!(skips(0o641000, 0, 0, |m| m.set_ov(false)));
    let mut m = machine(&[(0o100, 0o651600)]); // clo = spa sma szo i: never skips, clears OV
    m.set_ov(true);
    step_at(&mut m, 0o100, 0o123, 0);
    assert_eq!((m.pc(), m.ov()), (0o101, false));
}

// ---------------------------------------------------------------- shifts

fn shift(word: u32, ac: u32, io: u32) -> (u32, u32) {
    let (m, s) = one(word, ac, io, &[]);
    assert_cycles(&s, 1);
    (m.ac().bits(), m.io().bits())
}

#[test]
fn shift_count_is_the_number_of_one_bits() {
    assert_eq!(shift(0o661001, 0o400001, 0), (0o000003, 0)); // ral 1s
    assert_eq!(shift(0o661003, 0o400001, 0), (0o000006, 0)); // ral 2s
    assert_eq!(shift(0o661400, 0o400001, 0), (0o000003, 0)); // one bit, not 256
    assert_eq!(shift(0o661421, 0o000001, 0), (0o000010, 0)); // three scattered bits
    assert_eq!(shift(0o661777, 0o000001, 0), (0o001000, 0)); // ral 9s
    assert_eq!(shift(0o661000, 0o123456, 0), (0o123456, 0)); // count 0
}

#[test]
fn rotates() {
    assert_eq!(shift(0o671001, 0o000001, 0), (0o400000, 0)); // rar
    assert_eq!(shift(0o662001, 0, 0o400000), (0, 0o000001)); // ril
    assert_eq!(shift(0o672003, 0, 0o000001), (0, 0o200000)); // rir 2s
                                                             // rcl: AC bit 0 → IO bit 17, IO bit 0 → AC bit 17.
    assert_eq!(shift(0o663001, 0o400000, 0o400000), (0o000001, 0o000001));
    // rcr: AC bit 17 → IO bit 0, IO bit 17 → AC bit 0.
    assert_eq!(shift(0o673001, 0o000001, 0o000001), (0o400000, 0o400000));
    // rcl 9s twice swaps AC and IO.
    let mut m = machine(&[(0o100, 0o663777), (0o101, 0o663777)]);
    step_at(&mut m, 0o100, 0o123456, 0o654321);
    m.step_instruction();
    assert_eq!((m.ac(), m.io()), (w(0o654321), w(0o123456)));
}

#[test]
fn arithmetic_shifts_keep_and_copy_the_sign() {
    assert_eq!(shift(0o665001, 0o777776, 0), (0o777775, 0)); // sal: −1·2 = −2
    assert_eq!(shift(0o665001, 0o200001, 0), (0o000002, 0)); // bit 1 lost, sign kept
    assert_eq!(shift(0o675001, 0o777775, 0), (0o777776, 0)); // sar: −2/2 = −1
    assert_eq!(shift(0o675003, 0o400000, 0), (0o700000, 0)); // sign copied into bits 1, 2
    assert_eq!(shift(0o676001, 0, 0o000004), (0, 0o000002)); // sir
    assert_eq!(shift(0o666001, 0, 0o400000), (0, 0o400001)); // sil of −377777
                                                             // scr: AC bit 17 → IO bit 0; AC sign copied.
    assert_eq!(shift(0o677001, 0o400001, 0o000001), (0o600000, 0o400000));
    // scl: AC sign fixed, IO bit 0 → AC bit 17, AC sign → IO bit 17.
    assert_eq!(shift(0o667001, 0o400000, 0o400000), (0o400001, 0o000001));
}

#[test]
fn undefined_shift_subcodes_stop() {
    for word in [0o660001, 0o664001, 0o670001, 0o674001] {
        let (m, s) = one(word, 0, 0, &[]);
        assert_eq!(
            s.stop,
            StopReason::UndefinedInstruction {
                pc: 0o100,
                word: w(word)
            }
        );
        assert!(!m.running());
    }
}

// ---------------------------------------------------------------- law, operate

#[test]
fn law() {
    let (m, s) = one(0o701234, 0o777777, 0, &[]);
    assert_eq!(m.ac(), w(0o001234));
    assert_cycles(&s, 1);
    let (m, _) = one(0o711234, 0, 0, &[]);
    assert_eq!(m.ac(), w(0o776543));
}

#[test]
fn operate_micro_operations_in_order() {
    // cla then cma: −0.
    let (m, s) = one(0o761200, 0o123, 0, &[]);
    assert_eq!(m.ac(), w(0o777777));
    assert_cycles(&s, 1);
    // lat (cla + OR TW).
    let mut m = machine(&[(0o100, 0o762200)]);
    m.set_test_word(w(0o135246));
    step_at(&mut m, 0o100, 0o777777, 0);
    assert_eq!(m.ac(), w(0o135246));
    // OR TW happens before cma: 763200 gives ~TW.
    let mut m = machine(&[(0o100, 0o763200)]);
    m.set_test_word(w(0o135246));
    step_at(&mut m, 0o100, 0, 0);
    assert_eq!(m.ac(), w(0o642531));
    // lat without cla ORs.
    let mut m = machine(&[(0o100, 0o762000)]);
    m.set_test_word(w(0o000070));
    step_at(&mut m, 0o100, 0o000007, 0);
    assert_eq!(m.ac(), w(0o000077));
    // cli.
    let (m, _) = one(0o764000, 0o5, 0o777777, &[]);
    assert_eq!((m.ac(), m.io()), (w(5), w(0)));
    // lap with cla (760300): AC ← OV/EXD/PC.
    let mut m = machine(&[(0o100, 0o760300)]);
    m.set_ov(true);
    step_at(&mut m, 0o100, 0o777, 0);
    assert_eq!(m.ac(), w(0o400101));
}

#[test]
fn program_flags() {
    let mut m = machine(&[
        (0o100, 0o760013),
        (0o101, 0o760017),
        (0o102, 0o760002),
        (0o103, 0o760007),
    ]);
    step_at(&mut m, 0o100, 0, 0); // stf 3
    assert_eq!(m.pf(), 0o10);
    m.step_instruction(); // stf 7
    assert_eq!(m.pf(), 0o77);
    m.step_instruction(); // clf 2
    assert_eq!(m.pf(), 0o57);
    m.step_instruction(); // clf 7
    assert_eq!(m.pf(), 0);
}

#[test]
fn hlt_stops_after_itself() {
    let mut m = machine(&[(0o100, 0o760400)]);
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert_eq!(m.pc(), 0o101);
    assert!(!m.running());
    assert_eq!(m.cycles(), 1);
    assert_eq!(m.run_until(Limit::default()), StopReason::NotRunning);
}

#[test]
fn undefined_opcodes_stop() {
    for op in [0o00, 0o05, 0o06, 0o17, 0o36] {
        let word = op << 13 | 0o123;
        let mut m = machine(&[(0o100, word)]);
        assert_eq!(
            run_from(&mut m, 0o100, 10),
            StopReason::UndefinedInstruction {
                pc: 0o100,
                word: w(word)
            }
        );
    }
}

// ---------------------------------------------------------------- mus / dis (no Type 10)

fn md(word: u32, ac: u32, io: u32, m: u32, mul_div: bool) -> (u32, u32, u32, Step) {
    let cfg = MachineConfig {
        mul_div,
        ..Default::default()
    };
    let mut mc = machine_cfg(cfg, &[(0o100, word), (0o200, m)]);
    let s = step_at(&mut mc, 0o100, ac, io);
    (mc.ac().bits(), mc.io().bits(), mc.pc(), s)
}

#[test]
fn mus_single_steps_simh_run() {
    for (ac, io, m, rac, rio) in [
        (0o123456, 0o000001, 0o654321, 0o377777, 0o400000),
        (0o777777, 0o777777, 0o777777, 0o377777, 0o777777),
        (0o400000, 0o000001, 0o377777, 0o377777, 0o400000),
        (0o012345, 0o054321, 0o070707, 0o041526, 0o026150),
    ] {
        let (a, i, pc, s) = md(0o540200, ac, io, m, false);
        assert_eq!((a, i, pc), (rac, rio, 0o101), "mus {ac:o} {io:o} {m:o}");
        assert_cycles(&s, 2);
    }
}

#[test]
fn dis_single_steps_simh_run() {
    // (777777, 777777, 777777): SIMH gives AC +0; −0 + −0 + 1 is +1, as aap's model of the
    // logic has it, which counts AC up before adding M (issue 31; `cpu.rs` `dis`).
    for (ac, io, m, rac, rio) in [
        (0o123456, 0o000001, 0o654321, 0o372612, 0o000003),
        (0o777777, 0o777777, 0o777777, 0o000001, 0o777776),
        (0o400000, 0o000001, 0o377777, 0o400000, 0o000002),
        (0o012345, 0o054321, 0o070707, 0o734002, 0o130643),
    ] {
        let (a, i, pc, s) = md(0o560200, ac, io, m, false);
        assert_eq!((a, i, pc), (rac, rio, 0o101), "dis {ac:o} {io:o} {m:o}");
        assert_cycles(&s, 2);
    }
}

#[test]
fn seventeen_mus_steps_multiply_simh_run() {
    for (io, m, rio) in [(3, 5, 0o36), (0o456, 0o123, 0o141724)] {
        let mut words: Vec<(u32, u32)> = (0..17).map(|i| (0o100 + i, 0o540200)).collect();
        words.push((0o121, 0o760400));
        words.push((0o200, m));
        let mut mc = machine(&words);
        mc.set_ac(w(0));
        mc.set_io(w(io));
        assert_eq!(run_from(&mut mc, 0o100, 100), StopReason::Halted);
        assert_eq!((mc.ac(), mc.io()), (w(0), w(rio)));
    }
}

#[test]
fn seventeen_dis_steps_simh_run() {
    let mut words: Vec<(u32, u32)> = (0..17).map(|i| (0o100 + i, 0o560200)).collect();
    words.push((0o121, 0o760400));
    words.push((0o200, 5));
    let mut mc = machine(&words);
    mc.set_io(w(0o36));
    assert_eq!(run_from(&mut mc, 0o100, 100), StopReason::Halted);
    assert_eq!((mc.ac(), mc.io()), (w(0), w(0o200001)));
}

// ---------------------------------------------------------------- Type 10 mul / div

#[test]
fn mul_simh_run() {
    for (ac, m, rac, rio) in [
        (3, 5, 0, 0o36),
        (0o777774, 5, 0o777777, 0o777741),
        (0, 0o777777, 0, 0), // zero product with differing signs stays +0
        (0o377777, 0o377777, 0o377776, 0o000002),
        (0o400000, 0o377777, 0o400001, 0o777775),
        (0o123456, 0o654321, 0o744551, 0o363567),
    ] {
        let (a, i, pc, s) = md(0o540200, ac, 0o555, m, true);
        assert_eq!((a, i, pc), (rac, rio, 0o101), "mul {ac:o} × {m:o}");
        assert_eq!(s.cycles, 2);
        // Data-dependent time, within the handbook's "25 µs max".
        assert!(s.ns > 10_000 && s.ns <= 25_000, "{}", s.ns);
    }
}

#[test]
fn div_simh_run() {
    for (ac, io, m, rac, rio, skip) in [
        (0, 0o36, 5, 0o3, 0, true),
        (0o777777, 0o777741, 5, 0o777774, 0, true),
        (5, 0, 5, 5, 0, false), // overflow: unchanged, no skip
        (0o1234, 0o567012, 0o4321, 0o113663, 0o002742, true),
        (0o776543, 0o123456, 0o3333, 0o636337, 0o777767, true),
        (0, 0, 0o777777, 0, 0, false), // divide by −0
        (0o777777, 0o777777, 1, 0, 0, true),
    ] {
        let (a, i, pc, s) = md(0o560200, ac, io, m, true);
        let want_pc = if skip { 0o102 } else { 0o101 };
        assert_eq!((a, i, pc), (rac, rio, want_pc), "div {ac:o}:{io:o} / {m:o}");
        assert_eq!(s.cycles, 2);
        assert!(s.ns > 10_000 && s.ns <= 40_000, "{}", s.ns);
    }
}

#[test]
fn div_overflow_of_minus_zero_leaves_plus_zero_as_aap() {
    // AC = −0 divided by ±0 is an overflow (|AC| = 0 ≥ |M| = 0): no skip, IO unchanged. The
    // Type 10 ([aap] `divide`, the MDP flow chart) first makes the dividend positive (AC −0 →
    // +0, IO complemented, SRM set), finds the trial subtraction non-negative at once, adds
    // the divisor back, and at MDP-10 complements IO back and AC only "if AC ≠ 0": AC ends
    // +0. SIMH returns before touching the registers and leaves −0 (its `ABS(AC) >= v` test);
    // the handbook says nothing of −0 here. Overflow time as for any other (11.3 µs).
    for m in [0, 0o777777] {
        let (a, i, pc, s) = md(0o560200, 0o777777, 0o123456, m, true);
        assert_eq!((a, i, pc), (0, 0o123456, 0o101), "div −0 / {m:o}");
        assert_eq!(s.ns, 10_000 + 1_300);
    }
    // Any other dividend is left as it was, −0 in IO included.
    let (a, i, pc, _) = md(0o560200, 0o777772, 0o777777, 3, true);
    assert_eq!((a, i, pc), (0o777772, 0o777777, 0o101));
}

// ---------------------------------------------------------------- nonexistent memory

#[test]
fn nonexistent_memory_reads_zero_and_ignores_writes() {
    // 4K machine, extend mode: lac i 200 with 200 → 10300 (field 1, absent).
    let mut m = machine(&[(0o100, 0o210200), (0o101, 0o250200), (0o200, 0o010300)]);
    m.set_extend_mode(true);
    step_at(&mut m, 0o100, 0o777, 0);
    assert_eq!(m.ac(), w(0));
    m.set_ac(w(0o55));
    m.step_instruction(); // dac i 200 → lost
    assert_eq!(m.memory().len(), 4096);
    assert!(m.read(0o10300).is_err());
}
