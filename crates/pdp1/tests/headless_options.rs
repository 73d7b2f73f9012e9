//! The headless command line's options and their output forms (issue 2 contract), on small
//! hand-made RIM tapes whose results follow from the PDP-1 Handbook's instruction definitions.

mod common;
use common::*;

/// law 1234; dac 200; hlt — at 100.
fn store_program() -> Vec<(u32, u32)> {
    vec![(0o100, law(0o1234)), (0o101, dac(0o200)), (0o102, HLT)]
}

#[test]
fn registers_line_has_the_contract_form_and_values() {
    let d = scratch("registers");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let r = pdp1(&["--headless", &t, "--registers"]);
    assert!(r.ok(), "{}", r.stderr);
    let regs = r.registers();
    // hlt stops with the PC after it; law puts its operand in AC.
    assert_eq!(regs.pc, 0o103, "{}", regs.line);
    assert_eq!(regs.ac, 0o1234, "{}", regs.line);
    assert_eq!(regs.ov, 0);
    assert_eq!(regs.pf, 0);
}

#[test]
fn cycles_follow_the_handbook_times() {
    // law 5 µs (1 cycle), dac 10 µs (2), hlt 5 µs (1): after the first instruction three more
    // cycles remain, whatever READ IN itself took.
    let d = scratch("cycles");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let one = pdp1(&["--headless", &t, "--registers", "--max-instructions", "1"]).registers();
    let all = pdp1(&["--headless", &t, "--registers"]).registers();
    assert_eq!(one.pc, 0o101);
    assert_eq!(all.cycles - one.cycles, 3, "{} / {}", one.line, all.line);
}

#[test]
fn examine_prints_address_slash_word_lines() {
    let d = scratch("examine");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let r = pdp1(&["--headless", &t, "--examine", "100-102", "--examine", "200"]);
    assert!(r.ok(), "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(
        lines,
        vec![
            "0100/ 701234",
            "0101/ 240200",
            "0102/ 760400",
            "0200/ 001234"
        ]
    );
}

#[test]
fn examine_beyond_memory_is_an_error_unless_memory_is_larger() {
    let d = scratch("memory");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let r = pdp1(&["--headless", &t, "--examine", "10000-10001"]);
    assert_eq!(r.status, Some(1));
    assert!(r.stderr.contains("outside the 4K memory"), "{}", r.stderr);
    let r = pdp1(&[
        "--headless",
        &t,
        "--memory",
        "8K",
        "--examine",
        "10000-10001",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(
        r.stderr.lines().collect::<Vec<_>>(),
        vec!["10000/ 000000", "10001/ 000000"]
    );
}

#[test]
fn trace_has_one_line_per_instruction() {
    let d = scratch("trace");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let tr = d.join("trace.txt");
    let r = pdp1(&[
        "--headless",
        &t,
        "--trace",
        tr.to_str().unwrap(),
        "--registers",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let text = std::fs::read_to_string(&tr).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    // address, word, disassembly, then AC, IO and cycles after the instruction.
    assert!(
        lines[0].starts_with("000100 701234 law 1234"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("ac=001234"), "{}", lines[0]);
    assert!(
        lines[1].starts_with("000101 240200 dac 200"),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("000102 760400 hlt"), "{}", lines[2]);
    let last_cycles: u64 = lines[2].rsplit("cycles=").next().unwrap().parse().unwrap();
    assert_eq!(last_cycles, r.registers().cycles);
    // Tracing runs instruction by instruction but must not change the result.
    let plain = pdp1(&["--headless", &t, "--registers"]);
    assert_eq!(plain.registers(), r.registers());
}

#[test]
fn trace_gives_a_sequence_break_entry_its_own_line() {
    // 100 esm; 101 tyo-i (types IO's code 00, a space, 105 ms, no pulse); 102 ioh — nothing
    // can send a pulse, but the typewriter requests a break when done, which interrupts the
    // wait; 3 hlt (the break routine). The trace: esm, tyo-i, then the break entry from the
    // waiting ioh (saved in location 1), then the routine's hlt at 3.
    let d = scratch("trace-break");
    let prog = [
        (0o100, 0o720055),
        (0o101, 0o720003),
        (0o102, 0o730000),
        (0o3, HLT),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let tr = d.join("trace.txt");
    let r = pdp1(&[
        "--headless",
        &t,
        "--trace",
        tr.to_str().unwrap(),
        "--registers",
        "--examine",
        "1",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let text = std::fs::read_to_string(&tr).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("000100 720055"), "{text}");
    assert!(lines[1].starts_with("000101 720003"), "{text}");
    assert!(
        lines[2].starts_with("000102 ------ sequence break"),
        "{text}"
    );
    assert!(lines[3].starts_with("000003 760400 hlt"), "{text}");
    assert!(r.stderr.contains("0001/ 000102"), "{}", r.stderr);
    // The break's three cycles are in its own line's count: the hlt adds one.
    let cycles = |l: &str| -> u64 { l.rsplit("cycles=").next().unwrap().parse().unwrap() };
    assert_eq!(cycles(lines[3]), cycles(lines[2]) + 1);
    assert_eq!(cycles(lines[3]), r.registers().cycles);
    // ~105 ms of waiting, 5 µs a cycle.
    assert!(cycles(lines[2]) >= 21_000, "{text}");
    let plain = pdp1(&["--headless", &t, "--registers"]);
    assert_eq!(plain.registers(), r.registers());
}

#[test]
fn cycles_include_the_type_10_multiply_time() {
    // 100 lac 200 (AC = 377777); 101 mul 201 (× 377777); 102 hlt, with the Type 10. The mul
    // takes its two memory cycles and 2.35 µs + 0.7 µs for each of the 16 one bits among
    // |AC|'s low 16 bits (aap's `multiply`, pdp1-core cpu.rs): 10 + 13.55 = 23.55 µs. After
    // the lac: 10 µs, 2 cycles; after the hlt: 10 + 23.55 + 5 = 38.55 µs, 7 whole cycles
    // (the memory cycles alone are 5).
    let d = scratch("cycles-mul");
    let prog = [
        (0o100, lac(0o200)),
        (0o101, 0o540201),
        (0o102, HLT),
        (0o200, 0o377777),
        (0o201, 0o377777),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let tr = d.join("trace.txt");
    let one = pdp1(&[
        "--headless",
        &t,
        "--mdv",
        "--registers",
        "--max-instructions",
        "1",
    ]);
    let all = pdp1(&[
        "--headless",
        &t,
        "--mdv",
        "--registers",
        "--trace",
        tr.to_str().unwrap(),
    ]);
    assert!(all.ok(), "{}", all.stderr);
    assert_eq!(one.registers().cycles, 2, "{}", one.registers().line);
    assert_eq!(all.registers().cycles, 7, "{}", all.registers().line);
    let text = std::fs::read_to_string(&tr).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // After the mul: 33.55 µs, 6 whole cycles.
    assert!(lines[1].ends_with("cycles=6"), "{text}");
    assert!(lines[2].ends_with("cycles=7"), "{text}");
}

#[test]
fn test_word_switches_reach_lat() {
    let d = scratch("tw");
    let t = tape(&d, "p.rim", &[(0o100, LAT), (0o101, HLT)], 0o100);
    let r = pdp1(&["--headless", &t, "--tw", "123456", "--registers"]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.registers().ac, 0o123456);
}

#[test]
fn sense_switches_reach_szs() {
    // 100 szs 30 (skip if sense switch 3 is off); 101 jmp 104; 102 law 1; 103 hlt;
    // 104 law 2; 105 hlt.
    let d = scratch("ss");
    let prog = [
        (0o100, 0o640030),
        (0o101, jmp(0o104)),
        (0o102, law(1)),
        (0o103, HLT),
        (0o104, law(2)),
        (0o105, HLT),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let on = pdp1(&["--headless", &t, "--ss", "3,5", "--registers"]).registers();
    let off = pdp1(&["--headless", &t, "--ss", "5", "--registers"]).registers();
    let none = pdp1(&["--headless", &t, "--registers"]).registers();
    assert_eq!((on.ac, off.ac, none.ac), (2, 1, 1));
}

#[test]
fn mdv_selects_multiply_over_multiply_step() {
    // lac 110 (−3); mul 111 (5); hlt. SIMH 3.8 with `set cpu mdv`: AC=777777 IO=777741
    // (−15 as a 34-bit product). Without the option opcode 54 is `mus`, which gives AC=377776.
    let d = scratch("mdv");
    let prog = [
        (0o100, lac(0o110)),
        (0o101, 0o540111),
        (0o102, HLT),
        (0o110, 0o777774),
        (0o111, 5),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let with = pdp1(&["--headless", &t, "--mdv", "--registers"]).registers();
    assert_eq!((with.ac, with.io), (0o777777, 0o777741), "{}", with.line);
    // Since issue 27 the default machine has the Type 10 (a lone `mul`, no step loop): the
    // step needs a machine without it, by name.
    let default = pdp1(&["--headless", &t, "--registers"]).registers();
    assert_eq!(
        (default.ac, default.io),
        (with.ac, with.io),
        "{}",
        default.line
    );
    for profile in ["pdp1c", "none"] {
        let without = pdp1(&["--headless", &t, "--profile", profile, "--registers"]).registers();
        assert_eq!(without.ac, 0o377776, "{profile}: {}", without.line);
    }
}

#[test]
fn instruction_limit_stops_a_loop_exactly() {
    let d = scratch("maxinst");
    let t = tape(&d, "p.rim", &[(0o100, jmp(0o100))], 0o100);
    let a = pdp1(&[
        "--headless",
        &t,
        "--max-instructions",
        "1000",
        "--registers",
    ]);
    let b = pdp1(&[
        "--headless",
        &t,
        "--max-instructions",
        "3000",
        "--registers",
    ]);
    assert!(a.ok() && b.ok(), "{} {}", a.stderr, b.stderr);
    // jmp takes one 5 µs cycle [HB].
    assert_eq!(b.registers().cycles - a.registers().cycles, 2000);
}

#[test]
fn time_limit_stops_a_loop() {
    let d = scratch("maxsec");
    let t = tape(&d, "p.rim", &[(0o100, jmp(0o100))], 0o100);
    let r = pdp1(&[
        "--headless",
        &t,
        "--max-seconds",
        "0.5",
        "--registers",
        "-v",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    // Half a second is 100000 cycles of 5 µs, and the limit counts READ IN's time too: the
    // reader's 29 frames up to the jmp (20 leader, 3 words of 3) at 400 lines/s [HB] take
    // 72.5 ms, which leaves 85500 cycles (a few less if a frame's timing is counted differently).
    let c = r.registers().cycles;
    assert!((85_000..=85_500).contains(&c), "{c}");
    assert!(r.stderr.contains("time limit"), "{}", r.stderr);
}

#[test]
fn punch_file_holds_the_punched_frames() {
    // lio 110; ppa (wait); ppb (wait); hlt; 110: 654321.
    // ppa punches IO bits 10–17 (→ 321); ppb punches bits 0–5 on holes 6–1 plus hole 8
    // (→ 200 | 65 = 265) [HB via MAME-drv], [SIMH-std `ptp`].
    let d = scratch("punch");
    let prog = [
        (0o100, lio(0o110)),
        (0o101, 0o730005),
        (0o102, 0o730006),
        (0o103, HLT),
        (0o110, 0o654321),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let out = d.join("out.pt");
    let r = pdp1(&["--headless", &t, "--punch", out.to_str().unwrap()]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(std::fs::read(&out).unwrap(), vec![0o321, 0o265]);
}

#[test]
fn reader_tape_is_mounted_after_read_in() {
    // rpa with wait: IO ← the next frame of the reader; hlt.
    let d = scratch("reader");
    let t = tape(&d, "p.rim", &[(0o100, 0o730001), (0o101, HLT)], 0o100);
    let second = d.join("data.pt");
    std::fs::write(&second, [0o123u8, 0o45]).unwrap();
    let r = pdp1(&[
        "--headless",
        &t,
        "--reader",
        second.to_str().unwrap(),
        "--registers",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.registers().io, 0o123);
}

#[test]
fn reader_tapes_queue_each_mounted_when_the_one_before_ran_out() {
    // 100 rpa (wait); 101 dio i 200; 102 idx 200; 103 jmp 100; 200: 400 — stores every
    // frame read at 400, 401, … until the reader is empty (then rpa waits for ever: an I/O
    // hang, exit 3, the dumps still written).
    let d = scratch("reader-queue");
    let prog = [
        (0o100, 0o730001),
        (0o101, 0o330200),
        (0o102, idx(0o200)),
        (0o103, jmp(0o100)),
        (0o200, 0o400),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let a = d.join("a.pt");
    let b = d.join("b.pt");
    std::fs::write(&a, [0o1u8, 0o2, 0o3]).unwrap();
    std::fs::write(&b, [0o4u8, 0o5]).unwrap();
    let r = pdp1(&[
        "--headless",
        &t,
        "--reader",
        a.to_str().unwrap(),
        "--reader",
        b.to_str().unwrap(),
        "--max-seconds",
        "2",
        "--examine",
        "400-406",
    ]);
    assert_eq!(r.status, Some(3), "{}", r.stderr);
    let words: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("04")).collect();
    assert_eq!(
        words,
        [
            "0400/ 000001",
            "0401/ 000002",
            "0402/ 000003",
            "0403/ 000004",
            "0404/ 000005",
            "0405/ 000000",
            "0406/ 000000"
        ],
        "{}",
        r.stderr
    );
}

#[test]
fn verbose_names_the_halt() {
    let d = scratch("verbose");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let quiet = pdp1(&["--headless", &t]);
    assert!(quiet.ok());
    assert_eq!(quiet.stderr, "", "a normal end is silent without -v");
    let r = pdp1(&["--headless", &t, "-v"]);
    assert!(r.stderr.contains("halted (pc=000103)"), "{}", r.stderr);
}

#[test]
fn breakpoint_stops_before_the_instruction() {
    let d = scratch("breakpoint");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let r = pdp1(&["--headless", &t, "--breakpoint", "102", "--registers", "-v"]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!(r.registers().pc, 0o102);
    assert!(r.stderr.contains("breakpoint at 000102"), "{}", r.stderr);
}

#[test]
fn symbols_name_addresses_in_the_trace() {
    let d = scratch("symbols");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let sym = d.join("p.sym");
    std::fs::write(&sym, "/ pdp1-asm symbol table\ncell 000200 var\n").unwrap();
    let tr = d.join("trace.txt");
    let r = pdp1(&[
        "--headless",
        &t,
        "--symbols",
        sym.to_str().unwrap(),
        "--trace",
        tr.to_str().unwrap(),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let text = std::fs::read_to_string(&tr).unwrap();
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("000101 240200 dac cell"),
        "{text}"
    );
    std::fs::write(&sym, "cell 9999 var\n").unwrap();
    let r = pdp1(&["--headless", &t, "--symbols", sym.to_str().unwrap()]);
    assert_eq!(r.status, Some(1));
    assert!(
        r.stderr.contains("p.sym") && r.stderr.contains("line 1"),
        "{}",
        r.stderr
    );
}

/// Pixels of the PNG at `path` brighter than the dark tube face, in the left (scope) part; the
/// cabinet around the round face (2a2e34) and the bezel's rim (9ca0a6) are not light.
fn lit_scope_pixels(path: &std::path::Path) -> (u32, u32, usize) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bpp = info.line_size / info.width as usize;
    let mut lit = 0;
    for y in 0..info.height as usize {
        for x in 0..(info.width as usize / 2) {
            let p = &buf[y * info.line_size + x * bpp..][..3];
            let bezel = p == [0x2a, 0x2e, 0x34] || p == [0x9c, 0xa0, 0xa6];
            if !bezel && p.iter().map(|&c| c as u32).sum::<u32>() > 60 {
                lit += 1;
            }
        }
    }
    (info.width, info.height, lit)
}

#[test]
fn headless_screenshot_shows_the_scope() {
    // Munching squares: with the test word 0 the program adds 0 each time and plots one point
    // over and over; with 1 the squares munch and a large area lights up.
    let Some(munch) = shared_tape("munch-small.rim") else {
        return;
    };
    let d = scratch("screenshot");
    let still = d.join("still.png");
    let munching = d.join("munching.png");
    for (tw, p) in [("0", &still), ("1", &munching)] {
        let r = pdp1(&[
            "--headless",
            &munch,
            "--tw",
            tw,
            "--max-seconds",
            "2",
            "--screenshot",
            p.to_str().unwrap(),
        ]);
        assert!(r.ok(), "{}", r.stderr);
    }
    let (w, h, lit_still) = lit_scope_pixels(&still);
    let (_, _, lit_munching) = lit_scope_pixels(&munching);
    assert!(w > 0 && h > 0);
    assert!(lit_still < 200, "one point: {lit_still}");
    assert!(
        lit_munching > 20 * lit_still.max(100),
        "{lit_munching} vs {lit_still}"
    );
}

#[test]
fn deposit_and_start_act_after_the_read_in_like_the_console_keys() {
    // 100 lac 200; 101 hlt — and the tape's own start, 300, halts at once.
    let d = scratch("deposit-start");
    let t = tape(
        &d,
        "p.rim",
        &[(0o100, lac(0o200)), (0o101, HLT), (0o300, HLT)],
        0o300,
    );
    let own = pdp1(&["--headless", &t, "--registers"]);
    assert!(own.ok(), "{}", own.stderr);
    assert_eq!(own.registers().pc, 0o301);
    // DEPOSIT at 200 puts the test word in memory (and AC); START at 100 runs from there.
    let r = pdp1(&[
        "--headless",
        &t,
        "--tw",
        "123456",
        "--deposit",
        "200",
        "--start",
        "100",
        "--registers",
        "--examine",
        "200-200",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    assert_eq!((r.registers().pc, r.registers().ac), (0o102, 0o123456));
    assert!(r.stderr.contains("0200/ 123456"), "{}", r.stderr);
    // Outside memory, or not octal: a clear error before anything runs.
    for bad in [["--start", "10000"], ["--deposit", "9"]] {
        let r = pdp1(&["--headless", &t, bad[0], bad[1]]);
        assert_eq!(r.status, Some(1), "{bad:?}: {}", r.stderr);
        assert!(r.stderr.contains(bad[0]), "{bad:?}: {}", r.stderr);
    }
}

#[test]
fn minskytron_runs_headless_after_deposit_and_start() {
    // The BLK tape's start (500) is empty memory; the program at 5 takes its shift counts from
    // AC, which DEPOSIT sets to the test word. It then plots points without end.
    let Some(t) = shared_tape("minskytron.rim") else {
        return;
    };
    let r = pdp1(&[
        "--headless",
        &t,
        "--tw",
        "677721",
        "--deposit",
        "4",
        "--start",
        "5",
        "--max-seconds",
        "5",
        "--registers",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let pc = r.registers().pc;
    assert!((5..=0o146).contains(&pc), "pc {pc:o} outside the program");
}

#[test]
fn trace_leaves_a_stopped_machine_stopped() {
    // A state saved after the program halted: the machine is stopped. A run of it ends at once
    // ("the machine is not running"), with or without --trace; the trace stays empty (issue
    // 18: the tracer used to step the stopped machine).
    let d = scratch("trace-stopped");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let st = d.join("halted.ron");
    let r = pdp1(&["--headless", &t, "--save-state", st.to_str().unwrap()]);
    assert!(r.ok(), "{}", r.stderr);
    let tr = d.join("trace.txt");
    let base = [
        "--headless",
        "--load-state",
        st.to_str().unwrap(),
        "-v",
        "--registers",
    ];
    let plain = pdp1(&base);
    let mut args = base.to_vec();
    args.extend(["--trace", tr.to_str().unwrap()]);
    let traced = pdp1(&args);
    assert!(
        plain.stderr.contains("not running"),
        "without --trace: {}",
        plain.stderr
    );
    assert_eq!(traced.status, plain.status);
    assert_eq!(traced.stderr, plain.stderr);
    assert_eq!(traced.registers(), plain.registers());
    assert_eq!(std::fs::read_to_string(&tr).unwrap(), "");
}

#[test]
fn trace_stops_at_a_breakpoint_on_the_start_address() {
    // READ IN starts the program at 100, where the breakpoint is: the run stops before the
    // first instruction, traced or not (issue 18: the first instruction of a run skipped it).
    let d = scratch("trace-start-bp");
    let t = tape(&d, "p.rim", &store_program(), 0o100);
    let tr = d.join("trace.txt");
    let base = ["--headless", &t, "--breakpoint", "100", "-v", "--registers"];
    let plain = pdp1(&base);
    let mut args = base.to_vec();
    args.extend(["--trace", tr.to_str().unwrap()]);
    let traced = pdp1(&args);
    assert_eq!(plain.registers().pc, 0o100, "{}", plain.stderr);
    assert_eq!(traced.registers(), plain.registers());
    assert_eq!(traced.stderr, plain.stderr);
    assert_eq!(std::fs::read_to_string(&tr).unwrap(), "");
}

#[test]
fn sbs16_installs_the_sixteen_channel_sequence_break() {
    // 100: isb 4 / 101: esm / 102: jmp 102;  23 (channel 4's 4·4+3): hlt.
    // With the Type 120 (`--sbs16`, RON `sbs16: true`) isb 4 requests channel 4, whose break
    // goes to 20–23 ("isb 72kn52 Initiate Sequence Break" [HB]); without it IOT 52 does
    // nothing and the loop runs on.
    let d = scratch("sbs16");
    let prog = [
        (0o100, 0o720452),
        (0o101, 0o720055),
        (0o102, jmp(0o102)),
        (0o23, HLT),
    ];
    let t = tape(&d, "p.rim", &prog, 0o100);
    let with = pdp1(&["--headless", &t, "--sbs16", "--registers"]);
    assert!(with.ok(), "{}", with.stderr);
    assert_eq!(with.registers().pc, 0o24, "{}", with.registers().line);
    // AC: the break left the OV/EXD/PC word of the interrupted loop.
    assert_eq!(with.registers().ac, 0o102, "{}", with.registers().line);
    let c = d.join("m.ron");
    std::fs::write(&c, "(sbs16: true)").unwrap();
    let file = pdp1(&[
        "--headless",
        &t,
        "--config",
        c.to_str().unwrap(),
        "--registers",
    ]);
    assert_eq!(file.registers().pc, 0o24, "{}", file.stderr);
    let without = pdp1(&["--headless", &t, "--registers", "--max-instructions", "100"]);
    assert!(without.ok(), "{}", without.stderr);
    assert_eq!(
        without.registers().pc,
        0o102,
        "{}",
        without.registers().line
    );
}

/// Pixels of the PNG at `path` of exactly the colour `rgb`.
fn pixels_of(path: &std::path::Path, rgb: [u8; 3]) -> usize {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bpp = info.line_size / info.width as usize;
    (0..info.height as usize)
        .flat_map(|y| (0..info.width as usize).map(move |x| (x, y)))
        .filter(|&(x, y)| buf[y * info.line_size + x * bpp..][..3] == rgb)
        .count()
}

/// Issue 17: while the boot tape is read in (22 s and more for Kalah, most of it MACRO's block
/// loader with the READ IN lamp off) the console shows the tape moving through the reader, its
/// punched holes on the paper; the picture is the window's own, drawn for `--screenshot`.
#[test]
fn the_console_shows_the_tape_moving_through_the_reader_during_the_load() {
    let kalah = concat!(env!("CARGO_MANIFEST_DIR"), "/../../roms/kalah.rim");
    let d = scratch("reader-shot");
    let shot = d.join("load.png");
    let r = pdp1(&[
        "--headless",
        kalah,
        "--max-seconds",
        "8",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let paper = pixels_of(&shot, [0xe6, 0xd3, 0x96]);
    let holes = pixels_of(&shot, [0x20, 0x1c, 0x14]);
    assert!(paper > 500, "tape paper drawn: {paper} pixels");
    assert!(holes > 200, "holes punched in it: {holes} pixels");
}

/// Issue 27: a run whose time limit comes while READ IN is still reading said only
/// "emulated-time limit reached" (and left a blank screenshot); it now says how far the tape
/// got and how long it needs.
#[test]
fn a_time_limit_during_read_in_says_how_far_the_tape_got() {
    let d = scratch("limit-read-in");
    // 2000 words: 12000 frames, about 30 s at the reader's 400 lines a second.
    let words: Vec<(u32, u32)> = (0..2000).map(|a| (0o1000 + a, a)).collect();
    let t = tape(&d, "long.rim", &words, 0o1000);
    let r = pdp1(&["--headless", &t, "--max-seconds", "3"]);
    assert!(r.ok(), "{}", r.stderr);
    let line = r
        .stderr
        .lines()
        .find(|l| l.starts_with("pdp1: the time limit came during READ IN: the tape was "))
        .unwrap_or_else(|| panic!("{}", r.stderr));
    assert!(line.contains("% read; long.rim needs about "), "{line}");
    // A limit after the tape was read says nothing of READ IN.
    let r = pdp1(&["--headless", &t, "--max-seconds", "60"]);
    assert!(!r.stderr.contains("READ IN"), "{}", r.stderr);
    // Nor does one after the program started with part of its tape left unread (the PiDP-1's
    // snowflake leaves 21 % of its tape): a `jmp .` at 1000, then 300 frames nobody reads.
    let mut frames = rim(&[(0o1000, jmp(0o1000))], 0o1000);
    frames.extend([0o201; 300]);
    let p = d.join("tail.rim");
    std::fs::write(&p, frames).unwrap();
    let r = pdp1(&["--headless", p.to_str().unwrap(), "--max-seconds", "5"]);
    assert!(r.ok() && !r.stderr.contains("READ IN"), "{}", r.stderr);
}
