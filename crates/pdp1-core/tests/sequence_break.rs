//! The sequence break as the pulse-level model has it (issue 16): what the entry leaves in AC
//! and OV, where in an instruction a break can be taken (pdp1-hardware.md §7.1; [aap]
//! `cycle0`/`defer` TP10, `CY0_MIDBRK_PERMIT`, `DF_MIDBRK_PERMIT`; the maintenance manual
//! as MAME quotes it: "break cannot occur during a one-cycle jump that is deferred only once,
//! or another break cycle. Also, it cannot interrupt the long cycle 1 of automatic
//! multiply/divide"), `cal` in extend mode, SINGLE INST over a break, and the Type 120 sixteen-channel system written from the handbook's IOT table and SIMH's and aap's rules
//! (see `machine/io/sequence_break.rs`).
//!
//! A request is made here by striking a key (the typewriter requests the break: channel 7
//! with the Type 120, aap's `TTI_CHAN`) or by `isb`.

mod common;
use common::*;

const JMP_I_1: u32 = 0o610001;
const LAW: u32 = 0o700000;
const HLT: u32 = 0o760400;
const ESM: u32 = 0o720055;

/// A machine at PC `pc` in sequence-break mode, running, with `words`.
fn armed(cfg: MachineConfig, words: &[(u32, u32)], pc: u32) -> Machine {
    let mut m = machine_cfg(cfg, words);
    m.set_pc(pc);
    m.set_sequence_break_mode(true);
    m.cont();
    m
}

fn one_channel(words: &[(u32, u32)], pc: u32) -> Machine {
    armed(MachineConfig::default(), words, pc)
}

// ------------------------------------------------------------ the entry: AC and OV

#[test]
fn the_entry_leaves_the_return_word_in_ac_and_overflow_alone() {
    // [aap] brkcycle: break cycle 1 "MB = AC, AC = 0" then "pc_to_ac" (AC |= OV, EXD, PC),
    // cycle 2 stores that AC at 1; no break cycle touches OV (`ov1`).
    // 100: law 5 (the instruction in whose fetch the request is seen; it finishes)
    let mut m = one_channel(&[(0o100, LAW | 5), (0o3, HLT)], 0o100);
    m.set_ov(true);
    m.set_io(w(0o4321));
    m.strike_key(0o61);
    m.step_cycle(); // law 5; the break follows
    assert_eq!((m.ac(), m.pc()), (w(5), 0o101));
    assert!(m.break_entry_next());
    m.step_cycle(); // the entry
    assert_eq!(m.read(0).unwrap(), w(5), "AC saved at 0");
    assert_eq!(m.read(1).unwrap(), w(0o400101), "OV and PC at 1");
    assert_eq!(m.read(2).unwrap(), w(0o4321), "IO saved at 2");
    assert_eq!(m.ac(), w(0o400101), "AC holds the OV/EXD/PC word");
    assert!(m.ov(), "OV survives the entry");
    assert_eq!(m.pc(), 3);
}

// ------------------------------------------------------------ where a break is taken

#[test]
fn a_memory_reference_instruction_is_cancelled_after_its_fetch() {
    // 100: add 200 / 101: hlt;  200: 1;  break routine 3: jmp i 1
    let mut m = one_channel(
        &[(0o100, 0o400200), (0o101, HLT), (0o200, 1), (0o3, JMP_I_1)],
        0o100,
    );
    m.set_ac(w(0o10));
    m.strike_key(0o61);
    m.step_cycle(); // the fetch of add: cancelled
    assert_eq!(
        (m.pc(), m.ac(), m.instructions(), m.cycles()),
        (0o100, w(0o10), 0, 1),
        "PC backed up to the add, which did nothing but its fetch"
    );
    assert!(m.break_entry_next());
    m.step_cycle(); // the entry
    assert_eq!(m.read(1).unwrap(), w(0o100), "the break returns to the add");
    assert_eq!(m.cycles(), 4);
    // The routine returns and the add runs once, from its start.
    assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
    assert_eq!(m.read(0).unwrap(), w(0o10));
    // (AC: the routine left the return word in AC and did not reload it.)
    assert_eq!(
        m.ac(),
        w(0o100 + 1),
        "AC from the entry (100) plus 1 from the one add"
    );
}

#[test]
fn an_indirect_chain_is_cancelled_between_its_defer_cycles() {
    // 100: lac i 200;  200: i 201;  201: i 202;  202: 300;  300: 42
    let mut m = one_channel(
        &[
            (0o100, 0o210200),
            (0o200, 0o010201),
            (0o201, 0o010202),
            (0o202, 0o300),
            (0o300, 0o42),
        ],
        0o100,
    );
    m.step_cycle(); // fetch (no request yet)
    m.strike_key(0o61); // the request comes during the chain
    m.step_cycle(); // first defer: the request is seen in it; the chain goes on, so it is cut
    assert_eq!((m.pc(), m.ac(), m.instructions()), (0o100, w(0), 0));
    assert!(m.break_entry_next());
    assert_eq!(m.cycles(), 2);
}

#[test]
fn a_once_deferred_jmp_finishes_before_the_break() {
    // 100: jmp i 200;  200: 300
    let mut m = one_channel(&[(0o100, 0o610200), (0o200, 0o300)], 0o100);
    m.strike_key(0o61);
    m.step_cycle(); // fetch of a deferred jmp: no decision here
    assert!(!m.break_entry_next() && !m.at_instruction_boundary());
    m.step_cycle(); // its one defer finishes the jump; the break follows
    assert_eq!((m.pc(), m.instructions()), (0o300, 1));
    assert!(m.break_entry_next());
    m.step_cycle();
    assert_eq!(m.read(1).unwrap(), w(0o300));
}

#[test]
fn a_twice_deferred_jmp_is_cancelled_after_its_first_defer() {
    // 100: jmp i 200;  200: i 201;  201: 300
    let mut m = one_channel(
        &[(0o100, 0o610200), (0o200, 0o010201), (0o201, 0o300)],
        0o100,
    );
    m.strike_key(0o61);
    m.step_cycle(); // fetch: no decision
    m.step_cycle(); // defer, another follows: cancelled
    assert_eq!((m.pc(), m.instructions()), (0o100, 0));
    assert!(m.break_entry_next());
}

#[test]
fn the_long_cycle_of_multiply_is_not_interrupted_the_break_follows_it() {
    let cfg = MachineConfig {
        mul_div: true,
        ..Default::default()
    };
    // 100: mul 200 / 101: law 7;  200: 3
    let mut m = armed(
        cfg,
        &[(0o100, 0o540200), (0o101, LAW | 7), (0o200, 3)],
        0o100,
    );
    m.set_ac(w(5));
    m.step_cycle(); // fetch of mul (no request yet)
    m.strike_key(0o61); // the request comes before the execute cycle
    let t = m.time_ns();
    m.step_cycle(); // the execute cycle, Type 10 time and all, finishes mul
    assert_eq!((m.ac(), m.io(), m.instructions()), (w(0), w(0o36), 1));
    assert!(m.time_ns() - t > 5_000, "the long cycle ran to its end");
    // Its TP10 takes the request synchronised in it: the break follows mul, before the
    // next fetch ([aap] `cycle1` TP10; issue 31).
    assert_eq!(m.pc(), 0o101);
    assert!(m.break_entry_next());
    m.step_cycle();
    assert_eq!((m.pc(), m.read(1).unwrap()), (3, w(0o101)));
}

#[test]
fn a_request_synchronised_in_an_execute_cycle_is_taken_right_after_it() {
    // 100: lac 200 / 101: hlt;  200: 42;  3: hlt. The request comes after lac's fetch: the
    // execute cycle synchronises it and, at its TP10, sets the break cycle ([aap] `cycle1`
    // TP10: "if(HSC_SBS_BREAK) pdp->bc |= SBS_BREAK; else pdp->cyc = 0;"), so lac finishes and
    // the break follows at once - not one fetch later, which would cancel the next
    // instruction (issue 31; before it, pdp1-core did that).
    let mut m = one_channel(
        &[(0o100, 0o200200), (0o101, HLT), (0o200, 0o42), (0o3, HLT)],
        0o100,
    );
    m.step_cycle(); // fetch of lac
    m.strike_key(0o61);
    m.step_cycle(); // execute: lac done, the break decided
    assert_eq!((m.ac(), m.pc(), m.instructions()), (w(0o42), 0o101, 1));
    assert!(m.break_entry_next());
    assert_eq!(m.cycles(), 2);
    m.step_cycle(); // the entry, three cycles
    assert_eq!((m.pc(), m.cycles(), m.read(1).unwrap()), (3, 5, w(0o101)));
    assert_eq!(
        m.ir(),
        0,
        "the first break cycle clears IR ([aap] brkcycle TP4)"
    );
}

#[test]
fn an_xct_is_cancelled_after_its_fetch_and_its_target_after_the_target_fetch() {
    // 100: xct 200;  200: lac 300;  300: 42
    let words = [(0o100, 0o100200), (0o200, 0o200300), (0o300, 0o42)];
    let mut m = one_channel(&words, 0o100);
    m.strike_key(0o61);
    m.step_cycle(); // fetch of xct: cancelled
    assert_eq!((m.pc(), m.instructions()), (0o100, 0));
    assert!(m.break_entry_next());
    // The request coming after the xct's fetch: the target's fetch decides and cancels the
    // whole xct (PC back to it).
    let mut m = one_channel(&words, 0o100);
    m.step_cycle();
    m.strike_key(0o61);
    m.step_cycle(); // xct's second cycle = the fetch of lac 300
    assert_eq!((m.pc(), m.ac(), m.instructions()), (0o100, w(0), 0));
    assert!(m.break_entry_next());
}

#[test]
fn a_punch_break_decided_in_an_execute_cycle_at_the_cycles_aaps_model_gives() {
    // A punch-driven break that restarts the punch, while a lac loop runs (issue 31):
    // 100: ppa / 101: lac 200 / 102: jmp 101;  3: jmp 300;  300: ppa / lio 2 / lac 0 / jmp i 1.
    // aap's pulse-level model (tests/aap/driver.c, START with sequence-break mode) decides
    // the first break at the end of cycle 3177, lac's execute cycle (the punch's line, 1/63 s
    // after the ppa at TP10 of cycle 1, is done after cycle 3176 and synchronised in 3177):
    // the entry is cycles 3178-3180 and returns to 102. The second is decided after cycle
    // 6358, a fetch of lac, which is cancelled: it returns to 101. Before issue 31 pdp1-core
    // decided the first one a cycle later, at the next fetch, cancelling the jmp there.
    let words = [
        (0o100, 0o720005),
        (0o101, 0o200200),
        (0o102, 0o600101),
        (0o3, 0o600300),
        (0o300, 0o720005),
        (0o301, 0o220002),
        (0o302, 0o200000),
        (0o303, JMP_I_1),
    ];
    let mut m = one_channel(&words, 0o100);
    let mut decided = Vec::new();
    let mut returns = Vec::new();
    while m.cycles() < 7000 {
        assert_eq!(m.step_cycle(), StopReason::Stepped);
        if m.break_entry_next() {
            decided.push(m.cycles());
            returns.push(m.pc());
        }
    }
    assert_eq!(
        decided,
        [3177, 6358],
        "cycles after which the break is decided"
    );
    assert_eq!(returns, [0o102, 0o101]);
    // The run loop ends each entry where single cycles do.
    for (until, ret) in [(3180, 0o102), (6361, 0o101)] {
        let mut f = one_channel(&words, 0o100);
        assert_eq!(
            f.run_until(Limit {
                until_ns: Some(until * 5_000),
                instructions: None
            }),
            StopReason::TimeLimit
        );
        assert_eq!((f.cycles(), f.pc(), f.read(1).unwrap()), (until, 3, w(ret)));
    }
}

#[test]
fn the_run_loop_takes_the_break_where_single_cycles_do() {
    // A loop of deferred and executed instructions while typed characters request breaks:
    // the run loop (which leaves such instructions to the single-cycle machine while a break
    // can come) ends exactly where cycle-by-cycle stepping does.
    // 100: tyo (types; requests a break when done) / 101…: k × cla /
    // 110: lac i 200 / 111: xct 203 / 112: jmp 110;
    // 200: i 201;  201: 202;  202: 7;  203: add 202
    // break routine 3: idx 300 / 4: tyo (the next character) / 5: jmp i 1
    let until = 400_000_000; // 0.4 s: a few characters' time
                             // The k cla's shift the loop against the characters' completions, so that they fall on
                             // every cycle of it, inside the indirect chain and the xct too.
    for k in 0..7u32 {
        let mut words = vec![
            (0o100, 0o720003),
            (0o110, 0o210200),
            (0o111, 0o100203),
            (0o112, 0o600110),
            (0o200, 0o010201),
            (0o201, 0o202),
            (0o202, 7),
            (0o203, 0o400202),
            (0o3, 0o440300),
            (0o4, 0o720003),
            (0o5, JMP_I_1),
        ];
        for j in 0..7 {
            words.push((0o101 + j, if j < k { 0o760200 } else { 0o600110 }));
        }
        let mut a = one_channel(&words, 0o100);
        a.set_io(w(0o61));
        let mut b = a.clone();
        assert_eq!(
            a.run_until(Limit {
                until_ns: Some(until),
                instructions: None
            }),
            StopReason::TimeLimit
        );
        while !(b.time_ns() >= until && b.at_instruction_boundary()) {
            assert_eq!(b.step_cycle(), StopReason::Stepped);
        }
        assert!(a.read(0o300).unwrap().bits() >= 3, "breaks were taken");
        assert_eq!(
            (
                a.pc(),
                a.ac(),
                a.cycles(),
                a.instructions(),
                a.read(0o300).unwrap()
            ),
            (
                b.pc(),
                b.ac(),
                b.cycles(),
                b.instructions(),
                b.read(0o300).unwrap()
            ),
            "k = {k}"
        );
        assert_eq!(a.memory(), b.memory(), "k = {k}");
    }
}

// ------------------------------------------------------------ SINGLE INST over a break

#[test]
fn single_inst_takes_the_break_entry_as_a_step_of_its_own() {
    // 100: law 5 / 101: law 6;  break routine 3: law 7
    let mut m = one_channel(&[(0o100, LAW | 5), (0o101, LAW | 6), (0o3, LAW | 7)], 0o100);
    m.strike_key(0o61);
    assert_eq!(m.step_instruction(), StopReason::Stepped);
    assert_eq!((m.pc(), m.ac(), m.instructions()), (0o101, w(5), 1));
    assert_eq!(m.step_instruction(), StopReason::Stepped); // the entry alone
    assert_eq!(
        (m.pc(), m.instructions()),
        (3, 1),
        "stopped at the routine's start"
    );
    assert_eq!(m.read(1).unwrap(), w(0o101));
    assert_eq!(m.step_instruction(), StopReason::Stepped);
    assert_eq!((m.pc(), m.ac(), m.instructions()), (4, w(7), 2));
}

#[test]
fn single_inst_over_a_cancelled_instruction_stops_after_the_entry() {
    // 100: lac 200;  break routine 3: law 7
    let mut m = one_channel(&[(0o100, 0o200200), (0o200, 0o42), (0o3, LAW | 7)], 0o100);
    m.strike_key(0o61);
    assert_eq!(m.step_instruction(), StopReason::Stepped);
    assert_eq!(
        (m.pc(), m.instructions()),
        (3, 0),
        "lac cancelled, the entry taken"
    );
    assert_eq!(m.read(1).unwrap(), w(0o100));
}

#[test]
fn single_step_takes_the_debreak_as_a_fetch_and_a_defer_cycle() {
    // [aap] `jmp i 1` in a break: the fetch, then one defer cycle that reads the word at 1,
    // restores OV (bit 0) and extend mode (bit 1), jumps to its address and ends the break
    // in progress at its TP2. SINGLE STEP names each and takes each as one memory cycle.
    // 100: law 5 / 101: law 6;  break routine 3: jmp i 1
    let mut m = one_channel(&[(0o100, LAW | 5), (0o101, LAW | 6), (0o3, JMP_I_1)], 0o100);
    m.strike_key(0o61);
    m.step_cycle(); // law 5; the break follows
    m.step_cycle(); // the entry: 1 holds 101 (OV off)
    assert_eq!(m.pc(), 3);
    m.set_ov(true); // the return must restore OV from the word at 1
    let (c0, i0) = (m.cycles(), m.instructions());
    assert_eq!(m.next_cycle(), "fetch");
    assert_eq!(m.step_cycle(), StopReason::Stepped);
    assert_eq!(m.cycles() - c0, 1, "the fetch is one memory cycle");
    assert_eq!(
        m.next_cycle(),
        "defer",
        "the return word is read in a defer cycle"
    );
    assert_eq!(m.pc(), 4, "still inside the break routine after the fetch");
    assert_eq!(m.step_cycle(), StopReason::Stepped);
    assert_eq!(m.cycles() - c0, 2, "fetch and defer: two cycles");
    assert_eq!((m.pc(), m.instructions() - i0), (0o101, 1));
    assert!(!m.ov(), "OV restored from the word at 1");
    assert_eq!(m.next_cycle(), "fetch");
    m.step_cycle();
    assert_eq!(m.ac(), w(6), "the interrupted program goes on");
}

// ------------------------------------------------------------ cal in extend mode

fn eight_k() -> MachineConfig {
    MachineConfig {
        memory_words: 8192,
        ..Default::default()
    }
}

#[test]
fn cal_in_extend_mode_goes_to_100_of_field_0() {
    // [aap] cycle 1 TP0: "MA |= 0100; if(!pdp->exd) pdp->ema |= pdp->epc;" — the field is
    // added only outside extend mode.  10200: cal;  100/10100: the slot
    for fast in [false, true] {
        let mut m = machine_cfg(
            eight_k(),
            &[(0o10200, 0o160000), (0o101, HLT), (0o10101, HLT)],
        );
        m.set_pc(0o10200);
        m.set_extend_mode(true);
        m.set_ac(w(0o1234));
        m.cont();
        if fast {
            assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
            assert_eq!(m.pc(), 0o102);
        } else {
            m.step_instruction();
            assert_eq!(m.pc(), 0o101);
        }
        assert_eq!(
            m.read(0o100).unwrap(),
            w(0o1234),
            "AC stored at 100 of field 0"
        );
        assert_eq!(m.read(0o10100).unwrap(), w(0));
        assert_eq!(m.ac(), w(0o210201), "AC: EXD and the 16-bit return address");
    }
}

#[test]
fn cal_outside_extend_mode_stays_in_its_field() {
    for fast in [false, true] {
        let mut m = machine_cfg(eight_k(), &[(0o10200, 0o160000), (0o10101, HLT)]);
        m.set_pc(0o10200);
        m.set_ac(w(0o1234));
        m.cont();
        if fast {
            assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
        } else {
            m.step_instruction();
            assert_eq!(m.ac(), w(0o10201));
            m.step_instruction();
        }
        assert_eq!(m.pc(), 0o10102);
        assert_eq!(m.read(0o10100).unwrap(), w(0o1234));
        assert_eq!(m.read(0o100).unwrap(), w(0));
    }
}

// ------------------------------------------------------------ Type 120, 16 channels

fn sbs16() -> MachineConfig {
    MachineConfig {
        sbs16: true,
        ..Default::default()
    }
}

/// `iot` word for the Type 120 IOT `dev` (050–053) on channel `ch` (bits 6–11: 72kn5x).
fn chan_iot(dev: u32, ch: u32) -> u32 {
    0o720000 | (ch << 6) | dev
}
fn dsc(ch: u32) -> u32 {
    chan_iot(0o50, ch)
}
fn asc(ch: u32) -> u32 {
    chan_iot(0o51, ch)
}
fn isb(ch: u32) -> u32 {
    chan_iot(0o52, ch)
}
const CAC: u32 = 0o720053;
const CBS: u32 = 0o720056;

/// `jmp i 4n+1`: the return from channel n.
fn ret(ch: u32) -> u32 {
    0o610001 | (ch << 2)
}

/// Run to `limit` instructions, noting the channel of every break entered (4n+3 → n).
fn breaks(m: &mut Machine, limit: u64) -> Vec<u32> {
    let mut seen = Vec::new();
    let end = m.instructions() + limit;
    while m.instructions() < end {
        let r = m.run_until_break_entry(Limit {
            until_ns: None,
            instructions: Some(end - m.instructions()),
        });
        match r {
            StopReason::Stepped => {
                m.step_cycle();
                seen.push((m.pc() - 3) / 4);
            }
            StopReason::InstructionLimit => break,
            other => panic!("stopped: {other:?}"),
        }
    }
    seen
}

#[test]
fn the_channel_iots_set_enables_and_requests() {
    // "dsc 72kn50 Deactivate Sequence Break Channel, asc 72kn51 Activate Sequence Break
    // Channel, isb 72kn52 Initiate Sequence Break, cac 720053 Clear All Channels" [HB].
    let prog = [
        (0o100, asc(5)),
        (0o101, asc(3)),
        (0o102, asc(15)),
        (0o103, dsc(5)),
        (0o104, isb(7)),
        (0o105, CAC),
        (0o106, HLT),
    ];
    let mut m = machine_cfg(sbs16(), &prog);
    m.set_pc(0o100);
    m.cont();
    for _ in 0..3 {
        m.step_instruction();
    }
    assert_eq!(
        m.sequence_break_channels().0,
        (1 << 5) | (1 << 3) | (1 << 15)
    );
    m.step_instruction(); // dsc 5
    assert_eq!(m.sequence_break_channels().0, (1 << 3) | (1 << 15));
    m.step_instruction(); // isb 7: a request although 7 is not enabled
    assert_eq!(m.sequence_break_channels().1, 1 << 7);
    m.step_instruction(); // cac
    assert_eq!(
        m.sequence_break_channels(),
        (0, 1 << 7, 0),
        "cac: enables only"
    );
}

#[test]
fn without_the_option_the_channel_iots_do_nothing_and_jmp_i_5_is_a_jump() {
    // 100: esm / 101: asc 1 / 102: isb 1 / 103: jmp i 5 ;  5: 200 ;  200: hlt
    let prog = [
        (0o100, ESM),
        (0o101, asc(1)),
        (0o102, isb(1)),
        (0o103, 0o610005),
        (0o5, 0o200),
        (0o200, HLT),
    ];
    let mut m = machine(&prog);
    assert_eq!(run_from(&mut m, 0o100, 10), StopReason::Halted);
    assert_eq!(m.pc(), 0o201);
    assert_eq!(
        m.sequence_break(),
        (true, false, false),
        "esm; no request, no break"
    );
    assert_eq!(m.sequence_break_channels(), (0, 0, 0));
}

#[test]
fn the_highest_requested_channel_breaks_first_channel_0_highest() {
    // Requests on 9 and 4 made while the mode is off; esm; both are served, 4 first.
    // 100: isb 9 / 101: isb 4 / 102: esm / 103: jmp 103
    // channel 4 routine at 23: jmp i 21; channel 9 at 47: jmp i 45
    let prog = [
        (0o100, isb(9)),
        (0o101, isb(4)),
        (0o102, ESM),
        (0o103, 0o600103),
        (4 * 4 + 3, ret(4)),
        (4 * 9 + 3, ret(9)),
    ];
    let mut m = machine_cfg(sbs16(), &prog);
    m.set_pc(0o100);
    m.cont();
    assert_eq!(breaks(&mut m, 20), vec![4, 9]);
    assert_eq!(
        m.read(4 * 4 + 1).unwrap(),
        w(0o103),
        "4 interrupted the main loop"
    );
    assert_eq!(
        m.read(4 * 9 + 1).unwrap(),
        w(0o103),
        "9 waited until 4 returned, then interrupted the main loop"
    );
    assert_eq!(m.sequence_break_channels(), (0, 0, 0));
    assert_eq!(m.pc(), 0o103);
}

#[test]
fn a_higher_channel_interrupts_a_lower_channels_routine_and_its_return_releases_only_it() {
    // 100: isb 9 / 101: esm / 102: jmp 102
    // channel 9: 47: jmp 400;  400: isb 2 / 401: law 1 / 402: jmp i 45
    // channel 2: 13: jmp 500;  500: law 2 / 501: jmp i 11
    let prog = [
        (0o100, isb(9)),
        (0o101, ESM),
        (0o102, 0o600102),
        (4 * 9 + 3, 0o600400),
        (0o400, isb(2)),
        (0o401, LAW | 1),
        (0o402, ret(9)),
        (4 * 2 + 3, 0o600500),
        (0o500, LAW | 2),
        (0o501, ret(2)),
    ];
    let mut m = machine_cfg(sbs16(), &prog);
    m.set_pc(0o100);
    m.cont();
    assert_eq!(breaks(&mut m, 4), vec![9]);
    // In 9's routine: isb 2, and in the next instruction's fetch the request is seen.
    assert_eq!(breaks(&mut m, 2), vec![2], "2 nests inside 9");
    assert_eq!(m.sequence_break_channels().2, (1 << 9) | (1 << 2));
    assert_eq!(
        m.read(4 * 2 + 1).unwrap(),
        w(0o402),
        "2 interrupted 9's routine after its law 1"
    );
    // 2's routine: law 2, jmp i 11 — back into 9's routine with only 2 released.
    assert_eq!(breaks(&mut m, 2), vec![]);
    assert_eq!(m.pc(), 0o402);
    assert_eq!(m.sequence_break_channels().2, 1 << 9);
    // 9 returns to the main loop.
    breaks(&mut m, 1);
    assert_eq!((m.pc(), m.sequence_break_channels().2), (0o102, 0));
}

#[test]
fn a_lower_channel_waits_for_a_higher_channels_return() {
    // 100: isb 2 / 101: esm / 102: jmp 102
    // channel 2: 13: jmp 500;  500: isb 9 / 501: law 1 / 502: law 2 / 503: jmp i 11
    // channel 9: 47: jmp i 45
    let prog = [
        (0o100, isb(2)),
        (0o101, ESM),
        (0o102, 0o600102),
        (4 * 2 + 3, 0o600500),
        (0o500, isb(9)),
        (0o501, LAW | 1),
        (0o502, LAW | 2),
        (0o503, ret(2)),
        (4 * 9 + 3, ret(9)),
    ];
    let mut m = machine_cfg(sbs16(), &prog);
    m.set_pc(0o100);
    m.cont();
    assert_eq!(breaks(&mut m, 3), vec![2]);
    assert_eq!(
        breaks(&mut m, 3),
        vec![],
        "9 is lower than 2: no break in 2's routine"
    );
    assert_eq!(m.sequence_break_channels(), (0, 1 << 9, 1 << 2));
    // 2's return; right after it 9 breaks, interrupting the main program where 2 had.
    assert_eq!(breaks(&mut m, 2), vec![9]);
    assert_eq!(m.read(4 * 9 + 1).unwrap(), w(0o102));
}

#[test]
fn a_device_requests_its_channel_only_while_the_channel_is_enabled() {
    // The typewriter's key requests channel 7 (aap's TTI_CHAN). 100: jmp 100
    let mut m = machine_cfg(
        sbs16(),
        &[(0o100, 0o600100), (0o101, asc(7)), (4 * 7 + 3, ret(7))],
    );
    m.set_pc(0o100);
    m.set_sequence_break_mode(true);
    m.cont();
    m.strike_key(0o61);
    assert_eq!(
        m.sequence_break_channels(),
        (0, 0, 0),
        "7 not enabled: no request"
    );
    // asc 7 (run from 101), then a key: the request, a break to 4·7+3 = 37.
    m.set_pc(0o101);
    m.step_instruction();
    m.set_pc(0o100);
    m.strike_key(0o62);
    assert_eq!(m.sequence_break_channels(), (1 << 7, 1 << 7, 0));
    assert_eq!(breaks(&mut m, 2), vec![7]);
    assert_eq!(m.read(4 * 7 + 1).unwrap(), w(0o100));
}

#[test]
fn dsc_leaves_a_request_standing_and_cbs_clears_requests_and_breaks_but_not_enables() {
    // 100: asc 3 / 101: isb 3 / 102: dsc 3 / 103: cbs
    let prog = [
        (0o100, asc(3)),
        (0o101, isb(3)),
        (0o102, dsc(3)),
        (0o103, CBS),
    ];
    let mut m = machine_cfg(sbs16(), &prog);
    m.set_pc(0o100);
    m.cont();
    m.step_instruction();
    m.step_instruction();
    m.step_instruction();
    assert_eq!(
        m.sequence_break_channels(),
        (0, 1 << 3, 0),
        "dsc: the request stands"
    );
    m.set_pc(0o100);
    m.step_instruction(); // asc 3 again
    m.set_pc(0o103);
    m.step_instruction(); // cbs
    assert_eq!(m.sequence_break_channels(), (1 << 3, 0, 0));
}

#[test]
fn with_the_option_jmp_i_1_returns_from_channel_0_and_jmp_i_5_from_channel_1() {
    // 100: isb 1 / 101: isb 0 / 102: esm / 103: jmp 103;  3: jmp i 1;  7: jmp i 5
    let prog = [
        (0o100, isb(1)),
        (0o101, isb(0)),
        (0o102, ESM),
        (0o103, 0o600103),
        (0o3, ret(0)),
        (0o7, ret(1)),
    ];
    let mut m = machine_cfg(sbs16(), &prog);
    m.set_pc(0o100);
    m.cont();
    assert_eq!(breaks(&mut m, 10), vec![0, 1]);
    assert_eq!((m.pc(), m.sequence_break_channels()), (0o103, (0, 0, 0)));
}
