//! PDP-1 LISP (1964) from `../shared/tapes/lisp.rim`, with the multiply/divide option and the
//! EXTEND switch on as SIMH's notes require. Start-up as on SIMH: it halts at 2353 (the test
//! word is read: 7777), at 2357 (400) and at 5, then takes input — from the typewriter with
//! sense switch 5 on, otherwise from the reader (where the definitions tape goes).
//!
//! Expected values are LISP semantics worked out by hand; LISP prints numbers in octal
//! (6 × 7 = 52, 7 + 1 = 10).

mod library_common;
use library_common::*;

fn lisp() -> Option<Machine> {
    let t = tape("lisp.rim")?;
    let mut m = Machine::new(MachineConfig {
        mul_div: true,
        ..Default::default()
    })
    .unwrap();
    m.set_extend_switch(true);
    m.mount_tape(t);
    m.read_in();
    for (halt_at, tw) in [(0o2353, 0o7777), (0o2357, 0o400), (0o5, 0o400)] {
        let r = m.run_until(Limit {
            until_ns: Some(m.time_ns() + 60 * SEC),
            instructions: None,
        });
        assert_eq!((r, m.pc()), (StopReason::Halted, halt_at), "start-up halts");
        m.set_test_word(Word::new(tw));
        m.cont();
    }
    Some(m)
}

/// SS5 = 002 in `set_sense_switches` (SS1 = 040 … SS6 = 001).
const SS5: u8 = 0o02;

#[test]
fn lisp_reads_evaluates_and_prints_typed_expressions() {
    let Some(mut m) = lisp() else { return };
    m.set_sense_switches(SS5);
    let mut ty = Typist::default();
    let cases = [
        ("(plus 2 3) ", "5"),
        ("(times 6 7) ", "52"),
        ("(plus 7 1) ", "10"),
        ("(cons (quote a) (quote (b c))) ", "(a b c)"),
        ("(car (quote (x y))) ", "x"),
        ("(cdr (quote (x y z))) ", "(y z)"),
        ("(eq (quote a) (quote a)) ", "t"),
        ("(eq (quote a) (quote b)) ", "nil"),
    ];
    for (expr, want) in cases {
        let out = ty.type_keys(&mut m, expr, 30 * SEC);
        // The typewriter shows the operator's expression, then LISP's answer on a new line.
        let answer = out.strip_prefix(expr).unwrap_or(&out).trim();
        assert_eq!(answer, want, "{expr} printed {out:?}");
    }
    assert!(ty.halts.is_empty(), "no error halts: {:?}", ty.halts);
}

#[test]
fn lisp_defines_a_function_and_applies_it() {
    let Some(mut m) = lisp() else { return };
    m.set_sense_switches(SS5);
    let mut ty = Typist::default();
    let out = ty.type_keys(
        &mut m,
        "(rplacd (quote double) (quote (expr (lambda (n) (plus n n))))) ",
        60 * SEC,
    );
    assert!(out.ends_with("double "), "{out:?}");
    let out = ty.type_keys(&mut m, "(double 21) ", 30 * SEC);
    assert!(out.ends_with("\n42 "), "2 × 21 (octal) = 42: {out:?}");
}

#[test]
fn lisp_reads_the_definitions_tape_and_uses_its_functions() {
    let Some(mut m) = lisp() else { return };
    let Some(mut defs) = tape("lisp-defs.pt") else {
        return;
    };
    // The definitions tape ends with a stop code (013), feed and a 377 frame; our own
    // expressions are spliced on after its last expression, followed by filler expressions
    // that LISP reads ahead before it prints the results of the ones we check.
    while matches!(defs.last(), Some(0) | Some(0o13) | Some(0o377)) {
        defs.pop();
    }
    let ours = " (zerop 0) (zerop 5) (cons (quote a) (quote (b c))) (zerop 1) (zerop 1) (zerop 1) ";
    defs.extend(
        ours.chars()
            .map(|c| pdp1_asm::tape::fiodec_frame(fiodec::from_char(c).unwrap().0)),
    );
    m.mount_tape(defs);
    let r = m.run_until(Limit {
        until_ns: Some(m.time_ns() + 120 * SEC),
        instructions: None,
    });
    // LISP keeps reading until the tape runs out: the reader wait can never complete.
    assert!(matches!(r, StopReason::IoHang { .. }), "{r:?}");
    assert_eq!(m.tape_remaining(), 0);
    let out = text_of(&m.drain_typewriter());
    // `rplacd` returns its first argument: each definition types the function's name.
    let lines: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(&lines[..3], ["zerop", "pdef", "count"], "{out:?}");
    // zerop from the tape: (zerop 0) → t, (zerop 5) → nil; then a list built by cons.
    assert!(out.contains("count \nt \nnil \n(a b c) "), "{out:?}");
}
