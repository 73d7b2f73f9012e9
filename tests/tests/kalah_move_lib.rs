//! Issue 12: the library's sowing and take-back (roms/lib/move.mac) are written for a board of
//! `np` pits a side. Assembled with `np=7` into a small driver program, the PDP-1 `mv` plays
//! random Kalah(7,7) games move by move exactly as the Rust engine's 7-pit board (`Board7`,
//! DEC rules: sowing skips the other kalah, captures only from a non-empty opposite pit, a
//! repeat keeps the turn) — board, side to move, after every move. The 6-pit DEC game is
//! checked the same way by every Kalah transcript test.

use kalah::{Board7, Side};
use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};
use pdp1_tests::prng::Rng;
use std::path::PathBuf;

/// The driver: plays the pits listed at 2000 (ending with 0) by `jda mv`, then halts. The
/// search's variables that `pop` names are plain words here (what roms/lib/move.mac's header
/// says it needs from the program).
const DRIVER: &str = "move library on a 7-pit board (issue 12)
np=7
100/
go,\tlac i mvp
\tsza i
\thlt
\tjda mv
\tidx mvp
\tjmp go
mvp,\t2000
al,\t0
bt,\t0
cm,\t0
lv,\t0
ow,\t0
pp,\t0
sp,\t0
";

fn assemble() -> pdp1_asm::Assembly {
    let lib = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../roms/lib");
    let read = |f: &str| std::fs::read_to_string(lib.join(f)).expect("roms/lib");
    let (mv, words) = (read("move.mac"), read("words.mac"));
    let end = "\tconstants\n\tstart go\n";
    pdp1_asm::assemble_files(&[
        ("driver.mac", DRIVER),
        ("roms/lib/move.mac", &mv),
        ("roms/lib/words.mac", &words),
        ("end.mac", end),
    ])
    .unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn the_move_library_sows_a_seven_pit_board_as_the_engine() {
    let asm = assemble();
    let bd = asm.symbols.value_of("bd").expect("bd");
    let sd = asm.symbols.value_of("sd").expect("sd");
    let mut rng = Rng::new(0o7070);
    let mut checked = 0;
    for _game in 0..40 {
        let mut b = Board7::opening(7);
        let mut m = Machine::new(MachineConfig::default()).unwrap();
        for (&a, &w) in &asm.words {
            m.write(a, w).unwrap();
        }
        for (i, &c) in b.cells.iter().enumerate() {
            m.write(bd + i as u32, Word::new(u32::from(c))).unwrap();
        }
        let mut moves = Vec::new();
        let mut after = Vec::new();
        while !b.is_terminal() && moves.len() < 60 {
            let legal = b.legal_moves();
            let pit = legal[(rng.next_u64() % legal.len() as u64) as usize];
            b.play(pit).unwrap();
            moves.push(pit);
            after.push(b);
        }
        // Play the moves one more at a time and compare after each.
        for n in 1..=moves.len() {
            for (k, &p) in moves[..n].iter().chain([0u8].iter()).enumerate() {
                m.write(0o2000 + k as u32, Word::new(u32::from(p))).unwrap();
            }
            let opening = Board7::opening(7);
            for (i, &c) in opening.cells.iter().enumerate() {
                m.write(bd + i as u32, Word::new(u32::from(c))).unwrap();
            }
            m.write(sd, Word::ZERO).unwrap();
            m.write(asm.symbols.value_of("mvp").unwrap(), Word::new(0o2000))
                .unwrap();
            m.set_test_address(0o100);
            m.start(false);
            let stop = m.run_until(Limit {
                until_ns: None,
                instructions: Some(1_000_000),
            });
            assert_eq!(stop, StopReason::Halted, "after {:?}", &moves[..n]);
            let want = &after[n - 1];
            let cells: Vec<u8> = (0..16)
                .map(|i| m.read(bd + i).unwrap().bits() as u8)
                .collect();
            assert_eq!(cells, want.cells.to_vec(), "board after {:?}", &moves[..n]);
            let side = if want.to_move == Side::A { 0 } else { 1 };
            assert_eq!(
                m.read(sd).unwrap().bits(),
                side,
                "side after {:?}",
                &moves[..n]
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked} positions");
}
