//! Play Bell's learning program (the reference, `kalah::bell`) on the terminal. You are the
//! person (bottom row, P1–P6); type a turn in Bell's notation ("P3-P4", or just "3 4"). The
//! memory is kept in a memory tape file between sessions.
//!
//! cargo run --release -p kalah --example bell_play -- [--first] [--tape FILE]
//!
//! `--first`: the machine opens. `--tape FILE`: read the memory from FILE at the start (if it
//! exists) and punch it there after every game. Type `q` to stop.

use kalah::bell::*;
use std::io::{BufRead, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let machine_first = args.iter().any(|a| a == "--first");
    let mut tape = args
        .iter()
        .position(|a| a == "--tape")
        .map(|i| args.get(i + 1).cloned().ok_or("--tape needs a file name"))
        .transpose()?;
    let mut bell = Bell::new(Options::default());
    if let Some(path) = tape.clone() {
        match std::fs::read(&path) {
            Ok(bytes) => match bell.read_tape(&bytes) {
                Ok(r) => println!(
                    "memory read: {} entries, {} parts kept{}",
                    bell.memory.len(),
                    r.kept.len(),
                    if r.records { "" } else { ", records kept" }
                ),
                Err(e) => {
                    println!("{e}: the memory stays empty, and {path} will not be punched over");
                    tape = None;
                }
            },
            Err(_) => println!("no memory tape yet: {path} will be punched after the game"),
        }
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        let mut g = Game::new(machine_first);
        println!("\nnew game");
        while !g.over() {
            println!("{}", Figure(&g.board));
            if g.board.to_move == MACHINE {
                let m = bell.machine_turn(&mut g)?;
                match m.says {
                    Some(Say::Resigns) => println!("i resign"),
                    Some(Say::WillWin) => println!("{}   i shall win", turn_name(MACHINE, &m.turn)),
                    None => println!("{}", turn_name(MACHINE, &m.turn)),
                }
                continue;
            }
            print!("your turn: ");
            std::io::stdout().flush()?;
            let Some(line) = lines.next() else {
                return Ok(());
            };
            let line = line?;
            if line.trim() == "q" {
                return Ok(());
            }
            let text = if line.trim().starts_with(|c: char| c.is_ascii_digit()) {
                line.split_whitespace()
                    .map(|d| format!("P{d}"))
                    .collect::<Vec<_>>()
                    .join("-")
            } else {
                line.clone()
            };
            match parse_turn(&text) {
                Ok((PERSON, t)) => {
                    if let Err(e) = g.play(&t) {
                        println!("not a turn here: {e}");
                    }
                }
                Ok(_) => println!("your pits are P1 to P6"),
                Err(e) => println!("{e}"),
            }
        }
        println!("{}", Figure(&g.board));
        let result = g.result().expect("over");
        println!("{result:?} for the machine");
        bell.finish(&g);
        println!(
            "memory: {} entries ({} won, {} lost stored so far)",
            bell.memory.len(),
            bell.stats.won,
            bell.stats.lost
        );
        if let Some(path) = &tape {
            std::fs::write(path, bell.punch())?;
            println!("memory punched to {path}");
        }
    }
}
