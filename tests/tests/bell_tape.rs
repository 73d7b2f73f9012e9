//! Issue 13: Bell's memory on paper tape. Key `p` punches the memory (a checksummed binary
//! tape), key `r` reads one back from the reader; a new machine that reads the tape plays the
//! next game exactly as the machine that punched it, and a damaged or foreign tape is refused
//! with the memory kept.
mod bell_support;
mod kalah_support;
use bell_support::*;
use kalah::bell::Bell;
use kalah_support::{Program, Rng, CR};

/// FIO-DEC `p`, `r`.
const KEY_P: u8 = 0o47;
const KEY_R: u8 = 0o51;

/// A machine that has learnt from `n` games (the reference alongside), seeded `seed`.
fn learnt(seed: u64, n: usize) -> (Program, Bell, Rng) {
    let mut rng = Rng(seed);
    let mut k = boot(test_word(true, true));
    let mut r = Bell::new(options(true, true));
    for i in 0..n {
        if i > 0 {
            k.key(CR);
            k.paper();
        }
        let script = if i % 2 == 0 { vec![2] } else { Vec::new() };
        let mut p = Person::new(&mut rng, script);
        play_game(&mut k, &mut r, &mut p, false, true);
    }
    assert!(!r.memory.is_empty(), "nothing learnt");
    (k, r, rng)
}

/// Punch the memory: what is typed, the frames punched.
fn punch(k: &mut Program) -> (String, Vec<u8>) {
    k.m.drain_punch();
    let typed = key(k, KEY_P);
    (typed, k.m.drain_punch())
}

/// Put `tape` in the reader and strike `r`.
fn read(k: &mut Program, tape: Vec<u8>) -> String {
    k.m.mount_tape(tape);
    key(k, KEY_R)
}

#[test]
fn the_memory_survives_on_tape() {
    let (mut k, mut r, mut rng) = learnt(0xbe11_7001, 4);
    let (typed, tape) = punch(&mut k);
    assert_eq!(typed, format!("p\npunched {}\n", r.memory.len()));
    assert!(tape.len() > 60, "{} frames", tape.len());
    // A new machine reads it back: the memory is the same, slot for slot.
    let mut k2 = boot(test_word(true, true));
    assert_eq!(
        read(&mut k2, tape.clone()),
        format!("r\nread {}\n", r.memory.len())
    );
    assert_entries(&k2, &r, "read back");
    // The next game, the same person's moves: the first machine, the second and the reference
    // play it alike.
    k.key(CR);
    k.paper();
    let mut r2 = r.clone();
    let seed = rng.next();
    let (mut rng1, mut rng2) = (Rng(seed), Rng(seed));
    let mut p1 = Person::new(&mut rng1, vec![2]);
    let g1 = play_game(&mut k, &mut r, &mut p1, false, true);
    let mut p2 = Person::new(&mut rng2, vec![2]);
    let g2 = play_game(&mut k2, &mut r2, &mut p2, false, true);
    assert_eq!(g1.turns, g2.turns);
    assert_entries(&k2, &r2, "after the next game");
    assert_entries(&k, &r, "after the next game, first machine");
    // Punching the same memory twice gives the same tape, and the reference's, frame for frame.
    let (_, again) = punch(&mut k);
    let (_, again2) = punch(&mut k2);
    assert_eq!(again, again2);
    assert_same_tape(&again, &r.punch(), "after the next game");
}

/// The PDP-1's tape equals the reference's `Bell::punch`, frame for frame (the first differing
/// frame reported).
fn assert_same_tape(pdp1: &[u8], reference: &[u8], ctx: &str) {
    if let Some(i) = (0..pdp1.len().min(reference.len())).find(|&i| pdp1[i] != reference[i]) {
        panic!(
            "frame {i} (word {}) differs: PDP-1 {:03o}, reference {:03o}; {ctx}",
            i / 3,
            pdp1[i],
            reference[i]
        );
    }
    assert_eq!(pdp1.len(), reference.len(), "tape lengths; {ctx}");
}

/// The PDP-1 program punches what the reference punches, frame for frame, after scripted games
/// (split and unsplit, with the parameters and with draws as wins); each reads the other's tape.
#[test]
fn the_pdp1_punches_the_references_tape_and_each_reads_the_others() {
    for (seed, split, draws) in [(0xbe11_7011, true, false), (0xbe11_7012, false, true)] {
        let mut rng = Rng(seed);
        let (o, tw) = with_parameters(split, draws);
        let mut k = boot(tw);
        let mut r = Bell::new(o.clone());
        for i in 0..6 {
            if i > 0 {
                k.key(CR);
                k.paper();
            }
            let script = if i % 2 == 0 { vec![2] } else { Vec::new() };
            let mut p = Person::new(&mut rng, script);
            play_game(&mut k, &mut r, &mut p, i % 3 == 1, true);
        }
        assert!(!r.memory.is_empty(), "nothing learnt");
        let ctx = format!("split {split}, draws as wins {draws}");
        let (typed, tape) = punch(&mut k);
        assert_eq!(typed, format!("p\npunched {}\n", r.memory.len()));
        assert_same_tape(&tape, &r.punch(), &ctx);
        // The reference reads the PDP-1's tape into a fresh memory: the same memory.
        let mut r2 = Bell::new(o.clone());
        let report = r2
            .read_tape(&tape)
            .expect("the reference reads the PDP-1's tape");
        assert!(report.kept.is_empty() && report.records, "{report:?}");
        assert_eq!(r2.memory, r.memory, "{ctx}");
        // The records travel for Mk 10–19, the rows the parameters are made of.
        assert_eq!(r2.records.games, r.records.games, "{ctx}");
        assert!(
            r2.records.counts[10..20] == r.records.counts[10..20],
            "records; {ctx}"
        );
        // The PDP-1 reads the reference's tape.
        let mut k2 = boot(tw);
        assert_eq!(
            read(&mut k2, r.punch()),
            format!("r\nread {}\n", r.memory.len())
        );
        assert_entries(&k2, &r, &ctx);
        assert_parameters(&k2, &r, &ctx);
    }
}

/// Where the segments of a memory tape begin (their first word after the leader): the header,
/// the parts, the records; the word of 0 before the header is not one.
fn segments(tape: &[u8]) -> Vec<usize> {
    let mut s: Vec<usize> = (1..tape.len())
        .filter(|&i| tape[i] != 0 && tape[i - 1] == 0)
        .collect();
    assert_eq!(&tape[s[0]..s[0] + 3], &[0o200; 3], "the word of 0 first");
    s.remove(0);
    s
}

/// `tape` with its header's version word made `version` (and the header's sum made right).
fn with_version(tape: &[u8], version: u32) -> Vec<u8> {
    let s = segments(tape)[0];
    let word = |i: usize| {
        tape[s + 3 * i..s + 3 * i + 3]
            .iter()
            .fold(0, |w, &f| (w << 6) | u32::from(f & 0o77))
    };
    let mut head: Vec<u32> = (0..5).map(word).collect();
    head[1] = version;
    head.push(kalah::bell::tape_sum(&head));
    let mut out = tape.to_vec();
    for (i, w) in head.into_iter().enumerate() {
        for (j, shift) in [12, 6, 0].into_iter().enumerate() {
            out[s + 3 * i + j] = 0o200 | ((w >> shift) & 0o77) as u8;
        }
    }
    out
}

/// What the PDP-1 types on reading `tape` into a machine whose memory is `before`'s (the
/// reference mirrors it): each part the reference keeps, the records if it keeps them, and the
/// entries then in the memory. `before` becomes the memory after the read.
fn typed_for(before: &mut Bell, tape: &[u8]) -> String {
    let report = before.read_tape(tape).expect("a memory tape");
    let mut t = String::from("r\n");
    for n in &report.kept {
        t += &format!("part {n} damaged, kept\n");
    }
    if !report.records {
        t += "records damaged, kept\n";
    }
    t + &format!("read {}\n", before.memory.len())
}

/// A damaged part keeps its contents and the others are read (as `Bell::read_tape`); a tape
/// that ends keeps the part it ends in and the rest; a foreign tape, a damaged header or no
/// tape is refused whole with the memory kept.
#[test]
fn a_damaged_or_foreign_tape_is_refused_and_the_memory_kept() {
    let (mut k, r, _) = learnt(0xbe11_7002, 2);
    let (_, tape) = punch(&mut k);
    // Another machine with a memory of its own.
    let (mut k2, mut r2, _) = learnt(0xbe11_7003, 3);
    // One hole of one line changed in each used part's segment in turn, and in the records':
    // that part (or the records) kept, the rest read.
    let segments = segments(&tape);
    assert_eq!(segments.len(), 1 + 11 + 1, "header, eleven parts, records");
    let mut damaged = 0;
    for (n, &start) in segments.iter().enumerate().skip(1) {
        let end = segments.get(n + 1).copied().unwrap_or(tape.len());
        if end - start <= 3 * 3 + 20 && n <= 11 {
            continue; // an empty part
        }
        let mut bad = tape.clone();
        bad[start + 3 * 2 + 2] ^= 0o004; // a frame of the first entry's slot, or the games
        let typed = typed_for(&mut r2, &bad);
        let kept = if n <= 11 {
            format!("part {} damaged, kept\n", n - 1)
        } else {
            "records damaged, kept\n".to_string()
        };
        assert!(typed.contains(&kept), "segment {n}: {typed:?}");
        assert_eq!(read(&mut k2, bad), typed, "segment {n}");
        assert_entries(&k2, &r2, &format!("after segment {n} damaged"));
        damaged += 1;
    }
    assert!(damaged >= 2, "only {damaged} segments damaged");
    // A tape cut short: the part it ends in and the rest keep their contents.
    let (mut k3, mut r3, _) = learnt(0xbe11_7003, 3);
    let short = tape[..tape.len() * 2 / 3].to_vec();
    let typed = typed_for(&mut r3, &short);
    assert!(typed.contains("damaged, kept"), "{typed:?}");
    assert_eq!(read(&mut k3, short), typed);
    assert_entries(&k3, &r3, "after the short tape");
    // A damaged header, another program's tape, no tape at all: refused, nothing changes.
    let mut bad = tape.clone();
    bad[segments[0] + 3 * 2 + 2] ^= 0o004;
    assert_eq!(read(&mut k3, bad), "r\ndamaged memory tape\n");
    assert_entries(&k3, &r3, "after the damaged header");
    // A tape that ends inside its header, three words after the mark: damaged on both sides.
    let cut = tape[..segments[0] + 3 * 3].to_vec();
    assert_eq!(
        r3.clone().read_tape(&cut),
        Err(kalah::bell::TapeError::Header)
    );
    assert_eq!(read(&mut k3, cut), "r\ndamaged memory tape\n");
    assert_entries(&k3, &r3, "after the tape cut in its header");
    let foreign = std::fs::read(kalah_support::roms().join("kalah.rim")).unwrap();
    assert_eq!(read(&mut k3, foreign), "r\nnot a memory tape\n");
    assert_entries(&k3, &r3, "after the foreign tape");
    // A tape of another version (2: part 10 of 1024 entries, issue 29), the same otherwise:
    // refused like a foreign one by both, and the tape is right but for it.
    assert_eq!(with_version(&tape, kalah::bell::TAPE_VERSION), tape);
    let old = with_version(&tape, 2);
    assert_eq!(
        r3.clone().read_tape(&old),
        Err(kalah::bell::TapeError::Version(2))
    );
    assert_eq!(read(&mut k3, old), "r\nnot a memory tape\n");
    assert_entries(&k3, &r3, "after the version-2 tape");
    assert_eq!(read(&mut k3, Vec::new()), "r\nno tape\n");
    assert_entries(&k3, &r3, "with no tape");
    // The good tape is taken whole.
    assert_eq!(read(&mut k3, tape), format!("r\nread {}\n", r.memory.len()));
    assert_entries(&k3, &r, "after the good tape");
}

/// Test-word bit 4 punches the memory after every game; a tape of several memories one after
/// the other is read to its end and the last memory kept.
#[test]
fn punched_after_every_game_and_the_last_memory_kept() {
    let mut rng = Rng(0xbe11_7004);
    let tw = test_word(true, true) | 0o020000;
    let mut k = boot(tw);
    let mut r = Bell::new(options(true, true));
    k.m.drain_punch();
    let mut tapes = Vec::new();
    for i in 0..3 {
        if i > 0 {
            k.key(CR);
            k.paper();
        }
        let mut p = Person::new(&mut rng, vec![2]);
        play_game_with(&mut k, &mut r, &mut p, false, true, true);
        tapes.push(k.m.drain_punch());
        assert!(!tapes[i].is_empty(), "game {i}: nothing punched");
    }
    // All three tapes on one: the new machine reads them all and keeps the last memory.
    let all: Vec<u8> = tapes.concat();
    let mut k2 = boot(test_word(true, true));
    let typed = read(&mut k2, all);
    assert!(
        typed.ends_with(&format!("read {}\n", r.memory.len())),
        "{typed:?}"
    );
    assert_eq!(typed.matches("read ").count(), 3, "{typed:?}");
    assert_entries(&k2, &r, "the last memory");
}

/// With the parameters, the game records and the relations travel on the tape too: the machine
/// that reads it plays the next game as the one that punched it.
#[test]
fn the_parameters_survive_on_tape() {
    let mut rng = Rng(0xbe11_7005);
    let (o, tw) = with_parameters(true, false);
    let mut k = boot(tw);
    let mut r = Bell::new(o);
    for i in 0..10 {
        if i > 0 {
            k.key(CR);
            k.paper();
        }
        let mut p = Person::new(&mut rng, Vec::new());
        play_game(&mut k, &mut r, &mut p, i % 3 == 0, true);
        assert_memory(&k, &r, &format!("game {i}"));
        assert_parameters(&k, &r, &format!("game {i}"));
    }
    assert!(!r.params.is_empty(), "no parameter learnt");
    let (typed, tape) = punch(&mut k);
    assert_eq!(typed, format!("p\npunched {}\n", r.memory.len()));
    reads_back_and_plays_alike(k, r, tape, &mut rng, tw, &[], true);
}

/// A reference memory (split, characteristics) whose part `part` holds about `n` entries: whole
/// random 3-in-a-pit positions (36 stones, Mk at most 20), won or lost, stored as the program
/// stores them. Filled this way rather than by play, which takes some eighty games to pass 729.
fn filled(seed: u64, fill: &[(usize, usize)]) -> Bell {
    use kalah::bell::{Entry, Outcome, MACHINE as M, PERSON as P};
    use kalah::Board;
    let mut rng = Rng(seed);
    let mut r = Bell::new(options(true, true));
    for &(part, n) in fill {
        let mut stored = 0;
        while stored < n {
            let mut b = Board::new(0);
            b.to_move = M;
            let mk = rng.below(21) as u8;
            let pk = rng.below(8) as u8;
            b.cells[M.kalah()] = mk;
            b.cells[P.kalah()] = pk;
            for _ in mk + pk..36 {
                let side = if rng.below(2) == 0 { M } else { P };
                let pit = 1 + rng.below(6) as u8;
                b.cells[side.pit_index(pit)] += 1;
            }
            let outcome = if rng.below(2) == 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            let Some(e) = Entry::exact(&b, outcome) else {
                continue;
            };
            if r.memory.parts[part].lookup(&b).is_none()
                && r.memory.parts[part].store(e) == kalah::bell::Stored::New
            {
                stored += 1;
            }
        }
    }
    r
}

/// A part of more than 729 entries (the old reading area's limit) is read back: into a fresh
/// machine (read into its place), and the PDP-1 punches it again as the reference does. Over a
/// part of 729 or fewer a damaged big segment puts the part's own entries back. Over a part of
/// more than 729 the tape's part is read past and the machine's kept (`part n kept`): the one
/// case the PDP-1 differs from the reference, which has room for both.
#[test]
fn a_memory_of_more_than_729_entries_is_read_back() {
    let big = filled(0xbe11_7021, &[(3, 1000), (5, 300), (10, 40)]);
    assert!(big.memory.parts[3].len() > 729);
    let tape = big.punch();
    let tw = test_word(true, true);
    let mut k = boot(tw);
    assert_eq!(
        read(&mut k, tape.clone()),
        format!("r\nread {}\n", big.memory.len())
    );
    assert_entries(&k, &big, "the big memory read back");
    let (typed, again) = punch(&mut k);
    assert_eq!(typed, format!("p\npunched {}\n", big.memory.len()));
    assert_same_tape(&again, &tape, "the big memory punched again");

    // A machine whose part 3 holds 200: the big tape with part 3's segment damaged near its
    // end keeps those 200, and takes part 5 and part 10.
    let small = filled(0xbe11_7022, &[(3, 200), (5, 20)]);
    let mut k2 = boot(tw);
    read(&mut k2, small.punch());
    assert_entries(&k2, &small, "the small memory");
    let segments = segments(&tape);
    let mut bad = tape.clone();
    bad[segments[5] - 20 - 5] ^= 0o010; // a frame of part 3's last entry
    let mut mirror = small.clone();
    let want = typed_for(&mut mirror, &bad);
    assert_eq!(
        want,
        format!("r\npart 3 damaged, kept\nread {}\n", mirror.memory.len())
    );
    assert_eq!(read(&mut k2, bad), want);
    assert_entries(&k2, &mirror, "a damaged big part over a small one");

    // The big tape cut in the middle of part 3's segment, over the small memory: part 3's own
    // 200 put back, it and the rest kept.
    let cut = tape[..(segments[4] + segments[5]) / 2].to_vec();
    let mut k4 = boot(tw);
    read(&mut k4, small.punch());
    let mut mirror = small.clone();
    let want = typed_for(&mut mirror, &cut);
    assert!(
        want.starts_with("r\npart 3 damaged, kept\npart 4 damaged, kept\n"),
        "{want:?}"
    );
    assert_eq!(read(&mut k4, cut), want);
    assert_entries(&k4, &mirror, "a big part cut short over a small one");

    // Over the big memory, another big part: kept; part 5 is taken.
    let other = filled(0xbe11_7023, &[(3, 900), (5, 10)]);
    let mut mirror = big.clone();
    mirror.memory.parts[5] = other.memory.parts[5].clone();
    mirror.memory.parts[10] = other.memory.parts[10].clone();
    assert_eq!(
        read(&mut k, other.punch()),
        format!("r\npart 3 kept\nread {}\n", mirror.memory.len())
    );
    assert_entries(&k, &mirror, "a big part over a big part");
}

/// Issue 29: the presence filter (roms/bell-mem.mac, `zfi`, `zfr`). After `r` of a tape of
/// whole positions the filter's 1024 words hold exactly the bits of the whole positions in the
/// windows, computed here from the reference's entries and its hash word ([`filter_bits`]), and
/// whatever the filter held before is gone. The look-up consults it: a stored loss is found,
/// and with either of its two bits forged clear it is missed (unknown), so a bit missing would
/// change play.
/// A characteristic on the tape in a window slot matches boards of other hashes: the read turns
/// the filter off (`zfo`), and that characteristic is found for a board with a bit clear.
#[test]
fn the_filter_holds_every_whole_position_read() {
    use kalah::bell::{window_start, Outcome, LIST, TABLE};
    use pdp1_core::Word;
    let mut whole = filled(0xbe11_7031, &[(0, 700), (3, 300), (10, 60)]);
    let tw = test_word(true, true);
    let mut k = boot(tw);
    k.m.write(FILTER + 0o1777, Word::new(0o177777)).unwrap();
    read(&mut k, whole.punch());
    assert_entries(&k, &whole, "whole positions read");
    let mut want = [0u32; 0o2000];
    for t in &whole.memory.parts {
        for (_, e) in t.entries().filter(|(s, _)| *s >= LIST) {
            for (w, bit) in filter_bits(&entry_words(e)).expect("a whole position") {
                want[w as usize] |= bit;
            }
        }
    }
    let got: Vec<u32> = (0..0o2000)
        .map(|w| k.m.read(FILTER + w).unwrap().bits())
        .collect();
    assert_eq!(got, want, "the filter after the read");
    assert!(want.iter().filter(|&&w| w != 0).count() > 400);
    let zfo = 0o160000 + k.sym("zfo");
    assert_eq!(k.m.read(zfo).unwrap().bits(), 0, "the filter consulted");

    // A loss of part 0's windows: found; either of its bits forged clear, unknown.
    let (_, loss) = whole.memory.parts[0]
        .entries()
        .find(|(s, e)| *s >= LIST && e.outcome == Outcome::Loss)
        .unwrap();
    let words = entry_words(loss);
    assert_eq!(look_up(&mut k, 0, &words), 2, "the loss found");
    for (w, bit) in filter_bits(&words).unwrap() {
        k.m.write(FILTER + w, Word::new(want[w as usize] & !bit))
            .unwrap();
        assert_eq!(look_up(&mut k, 0, &words), 0, "a bit clear - missed");
        k.m.write(FILTER + w, Word::new(want[w as usize])).unwrap();
        assert_eq!(look_up(&mut k, 0, &words), 2, "found again");
    }

    // A characteristic (the loss's pits, its kalah a minimum) in part 7's window of the board
    // with one counter more in the machine's kalah, one of whose bits is clear.
    let mut c = *loss;
    c.min_kalah = true;
    let mut more = words;
    more[0] += 1;
    let bits = filter_bits(&more).unwrap();
    assert!(
        bits.iter().any(|&(w, bit)| want[w as usize] & bit == 0),
        "a bit of the board's is clear"
    );
    let slot = window_start(c.pits, c.kalah + 1, TABLE);
    assert!(whole.memory.parts[7].place(slot, c));
    let mut k2 = boot(tw);
    read(&mut k2, whole.punch());
    assert_entries(&k2, &whole, "a characteristic in a window read");
    assert_eq!(k2.m.read(zfo).unwrap().bits(), 1, "the filter off");
    assert_eq!(look_up(&mut k2, 7, &more), 2, "the characteristic found");
    k2.m.write(zfo, Word::new(0)).unwrap();
    assert_eq!(
        look_up(&mut k2, 7, &more),
        0,
        "consulted, the filter would miss it"
    );
}

/// Field 16's look-up (`zlk`) of the board whose compacted words and machine kalah are those of
/// `words` (a whole position's entry) in part `part` of the split memory: 0 unknown, 1 won,
/// 2 lost.
fn look_up(k: &mut Program, part: usize, words: &[u32; 4]) -> u32 {
    use pdp1_core::Word;
    let size = part_size(part);
    let bd = k.sym("bd");
    k.m.write(bd + 0o15, Word::new(words[0] & 0o37)).unwrap();
    for (name, v) in [
        ("cw1", words[1]),
        ("cw2", words[2]),
        ("cw3", words[3]),
        ("ea", slot_address(part, 0)),
        ("pts", size),
        ("mpt", part as u32),
        ("nsp", 0),
        ("cix", 0),
    ] {
        let a = k.sym(name);
        k.m.write(a, Word::new(v)).unwrap();
    }
    call_memory(k, "zlk")
}

/// A part's entries on the PDP-1 (`ptb`'s `pts`): 1280, part 10's fewer.
fn part_size(part: usize) -> u32 {
    let t = kalah::bell::TABLE;
    (if part == kalah::bell::REPLIES {
        t - kalah::bell::CODE_ENTRIES
    } else {
        t
    }) as u32
}

/// The long session of the issue: games with the parameters and draws counted as wins, in
/// lockstep with the reference, until the memory holds more than 729 entries (80 games did,
/// some 929 entries, while a win a parameter gave was stored; since "`i will win` only when
/// proven" such wins are not, and it takes several hundred); punched, read by a new machine,
/// and the next games are the same.
#[test]
#[ignore = "long: cargo test --release -p pdp1-tests --test bell_tape -- --ignored"]
fn a_long_session_survives_on_tape() {
    let mut rng = Rng(0xbe11_000e);
    let (o, tw) = with_parameters(true, true);
    let mut k = boot(tw);
    let mut r = Bell::new(o);
    let mut games = 0;
    while r.memory.len() <= 729 && games < 4000 {
        if games > 0 {
            k.key(CR);
            k.paper();
        }
        let script = if games % 2 == 1 { vec![2] } else { Vec::new() };
        let mut p = Person::new(&mut rng, script);
        play_game(&mut k, &mut r, &mut p, games % 3 == 0, true);
        games += 1;
    }
    assert!(
        r.memory.len() > 729,
        "{} entries in {games} games",
        r.memory.len()
    );
    let parts: Vec<usize> = r.memory.parts.iter().map(|t| t.len()).collect();
    eprintln!(
        "{games} games: {} entries, by part {parts:?}",
        r.memory.len()
    );
    let (typed, tape) = punch(&mut k);
    assert_eq!(typed, format!("p\npunched {}\n", r.memory.len()));
    assert_same_tape(&tape, &r.punch(), "after the long session");
    reads_back_and_plays_alike(k, r, tape, &mut rng, tw, &[2], false);
}

/// The memory `tape` punched by `k` (the reference `r` alongside) is read by a new machine
/// booted with `tw`, which then plays the next three games as `k` does (the person opening with
/// `opening`, then at random), its memory the reference's after each (and its parameters, with
/// `parameters`).
fn reads_back_and_plays_alike(
    mut k: Program,
    mut r: Bell,
    tape: Vec<u8>,
    rng: &mut Rng,
    tw: u32,
    opening: &[u8],
    parameters: bool,
) {
    let mut k2 = boot(tw);
    assert_eq!(read(&mut k2, tape), format!("r\nread {}\n", r.memory.len()));
    assert_entries(&k2, &r, "read back");
    assert_parameters(&k2, &r, "read back");
    k.key(CR);
    k.paper();
    let mut r2 = r.clone();
    for _ in 0..3 {
        let seed = rng.next();
        let (mut rng1, mut rng2) = (Rng(seed), Rng(seed));
        let g1 = play_game(
            &mut k,
            &mut r,
            &mut Person::new(&mut rng1, opening.to_vec()),
            false,
            true,
        );
        let g2 = play_game(
            &mut k2,
            &mut r2,
            &mut Person::new(&mut rng2, opening.to_vec()),
            false,
            true,
        );
        assert_eq!(g1.turns, g2.turns);
        assert_entries(&k2, &r2, "after a game");
        if parameters {
            assert_parameters(&k2, &r2, "after a game");
        }
        k.key(CR);
        k.paper();
        k2.key(CR);
        k2.paper();
    }
}

/// Part 10 keeps 512 entries (the rest of its place is field 16's, the memory's code and free
/// room): a tape whose part 10 has an entry in slot 511 is read, one in slot 512 is damaged and the
/// part kept, on the PDP-1 as in the reference (whose read this mirrors), and the memory's code
/// is untouched either way (the machine plays on alike).
#[test]
fn part_10_ends_where_the_memory_code_begins() {
    use kalah::bell::{Entry, Outcome, Table, CODE_ENTRIES, REPLIES, TABLE};
    let (_, r, mut rng) = learnt(0xbe11_7004, 2);
    let mut b = kalah::Board::new(3);
    b.to_move = kalah::bell::MACHINE;
    let e = Entry::exact(&b, Outcome::Loss).unwrap();
    for slot in [TABLE - CODE_ENTRIES - 1, TABLE - CODE_ENTRIES] {
        let mut source = r.clone();
        let mut t = Table::with_size(TABLE);
        assert!(t.place(slot, e));
        source.memory.parts[REPLIES] = t;
        let tape = source.punch();
        let mut k2 = boot(test_word(true, true));
        let mut r2 = Bell::new(options(true, true));
        let typed = typed_for(&mut r2, &tape);
        assert_eq!(
            typed.contains("part 10 damaged, kept"),
            slot == TABLE - CODE_ENTRIES,
            "slot {slot}: {typed:?}"
        );
        assert_eq!(read(&mut k2, tape), typed, "slot {slot}");
        assert_entries(&k2, &r2, &format!("part 10 slot {slot}"));
        k2.key(CR);
        k2.paper();
        let mut p = Person::new(&mut rng, vec![2]);
        play_game(&mut k2, &mut r2, &mut p, false, true);
        assert_entries(&k2, &r2, &format!("a game after part 10 slot {slot}"));
    }
}

/// Issue 29: a memory tape of version 2 (part 10 of 1024 entries, its whole positions where the
/// fold for 1024 put them, many past slot 511) converted to version 3
/// (`kalah::bell::convert_version_2`, `bell_tape_convert`): parts 0–9 and part 10's list keep
/// their slots, part 10's whole positions are stored again by the memory's store. The PDP-1
/// program reads the converted tape whole, its memory is the reference's slot for slot, and it
/// finds every one of the old part 10's positions that was not forgotten, won or lost as stored
/// (its `mlk`, from part 10, spill windows included).
#[test]
fn a_version_2_tape_converts_and_reads_on_the_pdp1() {
    use kalah::bell::{
        convert_version_2, ConvertError, Entry, Outcome, Table, LIST, REPLIES, VERSION_2_PART_10,
    };
    let (_, r, mut rng) = learnt(0xbe11_7005, 2);
    // Part 10 as version 2 filled it: a characteristic in its list, then random whole positions,
    // each in the first empty slot of its window in a part of 1024.
    let mut source = r.clone();
    let mut old = Table::with_size(VERSION_2_PART_10);
    let opening = {
        let mut b = kalah::Board::new(3);
        b.to_move = kalah::bell::MACHINE;
        b
    };
    let listed = Entry {
        min_kalah: true,
        ..Entry::exact(&opening, Outcome::Win).unwrap()
    };
    assert!(listed.is_characteristic());
    assert!(old.place(0, listed));
    // 420 of them: more than 512 slots less the list hold without a window filling.
    const WHOLE: usize = 420;
    let mut boards = Vec::new();
    while boards.len() < WHOLE {
        let b = random_position(&mut rng, 0);
        // won and lost in turn
        let outcome = [Outcome::Win, Outcome::Loss][boards.len() % 2];
        let Some(e) = Entry::exact(&b, outcome) else {
            continue;
        };
        if kalah::bell::end_value(&b).is_some() || old.lookup(&b).is_some() {
            continue;
        }
        assert_eq!(old.store(e), kalah::bell::Stored::New);
        boards.push((b, e));
    }
    let past = old.entries().filter(|(s, _)| *s >= 512).count();
    assert!(past > 100, "{past} entries past slot 511");
    source.memory.parts[REPLIES] = old;
    let v2 = with_version(&source.punch(), 2);

    let c = convert_version_2(&v2).expect("a version-2 tape");
    assert_eq!((c.part_10, c.listed), (WHOLE + 1, 1));
    let spilled: usize = c.spilled.iter().map(|(_, n)| n).sum();
    assert_eq!(c.stored + spilled + c.forgotten.len(), WHOLE, "{c:?}");
    assert!(spilled > 0, "the part of 512 spills: {c:?}");
    assert_eq!(c.entries, source.memory.len() - c.forgotten.len());

    // The reference and the PDP-1 read it whole, alike.
    let mut r2 = Bell::new(options(true, true));
    let typed = typed_for(&mut r2, &c.tape);
    assert_eq!(typed, format!("r\nread {}\n", c.entries));
    assert_eq!(
        r2.memory.parts[REPLIES].entries().next(),
        Some((0, &listed))
    );
    // Parts 0–9 keep their slots, with what part 10 spilled to them besides.
    for n in 0..REPLIES {
        let (before, after) = (&source.memory.parts[n], &r2.memory.parts[n]);
        assert!(
            before
                .entries()
                .all(|(s, e)| after.entries().any(|x| x == (s, e))),
            "part {n} kept"
        );
        let to_n = c
            .spilled
            .iter()
            .find(|(p, _)| *p == n)
            .map_or(0, |(_, k)| *k);
        assert_eq!(after.len(), before.len() + to_n, "part {n}");
    }
    let mut k2 = boot(test_word(true, true));
    assert_eq!(read(&mut k2, c.tape.clone()), typed);
    assert_entries(&k2, &r2, "the converted tape");
    // Every position of the old part 10 not forgotten is found, as stored, on both.
    let mut found = 0;
    for (b, e) in &boards {
        if c.forgotten.contains(e) {
            continue;
        }
        assert_eq!(r2.memory.lookup(REPLIES, b), Some(e), "{:?}", b.cells);
        set_position(&mut k2, b, test_word(true, true));
        let want = if e.outcome == Outcome::Win { 1 } else { 2 };
        assert_eq!(pdp1_lookup(&mut k2, REPLIES), want, "{:?}", b.cells);
        found += 1;
    }
    assert_eq!(found + c.forgotten.len(), WHOLE);
    // The list's entry stays first in part 10's list: no slot of the list was stored by hash.
    assert!(r2.memory.parts[REPLIES]
        .entries()
        .all(|(s, e)| s >= LIST || *e == listed));

    // A tape of this version, a foreign one, a damaged part: refused, with their reasons.
    assert_eq!(
        convert_version_2(&c.tape),
        Err(ConvertError::Version(kalah::bell::TAPE_VERSION))
    );
    let foreign = std::fs::read(kalah_support::roms().join("kalah.rim")).unwrap();
    assert_eq!(
        convert_version_2(&foreign),
        Err(ConvertError::Tape(kalah::bell::TapeError::Foreign))
    );
    let s = segments(&v2);
    let mut bad = v2.clone();
    bad[s[1 + REPLIES] + 3 * 2 + 2] ^= 0o004;
    assert_eq!(convert_version_2(&bad), Err(ConvertError::Part(REPLIES)));
    let cut = v2[..s[1 + 3] + 4].to_vec();
    assert_eq!(convert_version_2(&cut), Err(ConvertError::Part(3)));
    // A version-2 tape whose part 10 has an entry past slot 1023: damaged there as well.
    let mut wide = r.clone();
    let mut t = Table::with_size(kalah::bell::TABLE);
    assert!(t.place(VERSION_2_PART_10, listed));
    wide.memory.parts[REPLIES] = t;
    assert_eq!(
        convert_version_2(&with_version(&wide.punch(), 2)),
        Err(ConvertError::Part(REPLIES))
    );
}
