//! Bell's Figure 8 teaching experiment: the person opens with Russell's move, the machine
//! answers M3-M2 (its first choice), and a teacher who never loses ([`Teacher`], a proof search)
//! beats it until the machine's look-ahead finds M3-M2 lost and answers otherwise. Prints the
//! memory size for the memory alone, with characteristics, and with both characteristics and
//! parameters, beside Bell's "just over 400", "about 300" and "about 150".
//!
//! The teacher plays the winning turn with the smallest proof (FIRST_TEACHER=1: the first
//! winning turn in Bell's list order; NARROW_TEACHER=1: the one leaving the machine the fewest
//! turns; CRUSH_TEACHER=1: the one its look-ahead sees as worst for the machine;
//! ENTRIES_TEACHER=1: the one whose proof needs the fewest entries in the machine's memory,
//! `Strategy::FewestEntries`; ENTRIES_DEPTH=n: its horizon in machine turns, default
//! `ENTRIES_DEPTH`). BACKTRACK=n: the back-track analysis evaluates n
//! positions (Bell: 100). MIRROR=1: the memory also holds positions for the person to move
//! (`Options::mirror`). BT_COUNT=positions: the back-track's count is of the positions it
//! evaluates (`BacktrackCount::Positions`, our first reading), not of the positions its
//! look-aheads examine (`BacktrackCount::Effort`, the default). BT_STORE=losses|line: it stores only losses
//! of the region, or only the game's own positions (`BacktrackStore`). TRACE=1 types every game.
//!
//! cargo run --release -p kalah --example bell_figure8 [max games [table size [run]]]

use kalah::bell::*;
use kalah::Board;

/// IDEAL=1: a teacher who plays the machine's side too, through every machine turn of its own
/// proof that M3-M2 loses, depth first, and lets the machine learn a position only once its
/// look-ahead (with the memory) sees the loss there: each stored loss is one game lost at that
/// position, with no back-track analysis. The count of such games, or `None` if M3-M2 is still
/// chosen afterwards.
fn ideal(bell: &mut Bell, teacher: &mut Teacher) -> Option<usize> {
    fn prove(
        bell: &mut Bell,
        teacher: &mut Teacher,
        b: &Board,
        prefix: &[Vec<u8>],
        games: &mut usize,
    ) {
        let seen =
            |bell: &Bell, b: &Board| bell.look_ahead(b, prefix).is_none_or(|r| r.value <= -WIN);
        if seen(bell, b) {
            if let Some(r) = bell.look_ahead(b, prefix) {
                let before = bell.memory.len();
                bell.store(b, prefix, Outcome::Loss, &r.turn);
                if bell.memory.len() > before {
                    *games += 1;
                }
            }
            return;
        }
        for (_, c) in turns(b) {
            if c.is_terminal() {
                continue;
            }
            let Some(r) = teacher.turn(&c) else {
                continue;
            };
            let d = play_turn(&c, &r).expect("the teacher's turn is legal");
            if d.is_terminal() || d.to_move != MACHINE {
                continue;
            }
            prove(bell, teacher, &d, prefix, games);
        }
        if let Some(r) = bell.look_ahead(b, prefix) {
            if r.value <= -WIN {
                bell.store(b, prefix, Outcome::Loss, &r.turn);
                *games += 1;
            }
        }
    }
    let prefix = vec![RUSSELL_OPENING.to_vec(), vec![3, 2]];
    let mut g = Game::new(false);
    g.play(&RUSSELL_OPENING).ok()?;
    let start = g.board;
    let after = play_turn(&start, &[3, 2]).expect("M3-M2");
    let r = teacher.turn(&after)?;
    let d = play_turn(&after, &r).expect("legal");
    let mut games = 0;
    prove(bell, teacher, &d, &prefix, &mut games);
    let chosen = bell.look_ahead(&start, &[RUSSELL_OPENING.to_vec()])?.turn;
    (chosen != [3, 2]).then_some(games)
}

fn main() {
    let arg = |i: usize| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse::<usize>().ok())
    };
    let max = arg(1).unwrap_or(3000);
    let table = arg(2).unwrap_or(TABLE);
    let only = arg(3);
    let strategy = if std::env::var("FIRST_TEACHER").is_ok() {
        Strategy::FirstWinning
    } else if std::env::var("CRUSH_TEACHER").is_ok() {
        Strategy::Crushing
    } else if std::env::var("NARROW_TEACHER").is_ok() {
        Strategy::FewestReplies
    } else if std::env::var("ENTRIES_TEACHER").is_ok() {
        Strategy::FewestEntries
    } else {
        Strategy::SmallestProof
    };
    let mut teacher = Teacher::new(strategy);
    if let Some(d) = std::env::var("ENTRIES_DEPTH")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        teacher.entries_depth = d;
    }
    let runs = [
        ("memory alone", Options::plain(), "just over 400"),
        (
            "with characteristics",
            Options {
                parameters: false,
                ..Options::default()
            },
            "about 300",
        ),
        (
            "with characteristics and parameters",
            Options::default(),
            "about 150",
        ),
        (
            "with characteristics and Figure 6's parameters",
            Options {
                fixed_parameters: Some(if std::env::var("FIG6_BOTH").is_ok() {
                    Parameters::figure_6_both_sides()
                } else {
                    Parameters::figure_6()
                }),
                parameters: false,
                ..Options::default()
            },
            "about 150",
        ),
        (
            "with both, near-losses learnt too",
            Options {
                near_losses: true,
                ..Options::default()
            },
            "",
        ),
        (
            "with both, draws counted as wins",
            Options {
                draws_as_wins: true,
                ..Options::default()
            },
            "(his program)",
        ),
        (
            "with both, unsplit memory",
            Options {
                split: false,
                ..Options::default()
            },
            "",
        ),
    ];
    println!(
        "| run | games | entries (M3-M2's part) | won | lost | characteristic | overflow | Bell |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (i, (name, opts, bell_says)) in runs.into_iter().enumerate() {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let backtrack_nodes = std::env::var("BACKTRACK")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(BACKTRACK_NODES);
        let mut bell = Bell::new(Options {
            table,
            backtrack_nodes,
            mirror: std::env::var("MIRROR").is_ok(),
            backtrack_count: match std::env::var("BT_COUNT").as_deref() {
                Ok("positions") => BacktrackCount::Positions,
                _ => BacktrackCount::Effort,
            },
            backtrack_store: match std::env::var("BT_STORE").as_deref() {
                Ok("losses") => BacktrackStore::Losses,
                Ok("line") => BacktrackStore::Line,
                _ => BacktrackStore::Region,
            },
            ..opts
        });
        let games = if std::env::var("IDEAL").is_ok() {
            ideal(&mut bell, &mut teacher)
        } else {
            teach(&mut bell, &mut teacher, &[3, 2], max, |game, bell, g| {
                if game % 500 == 499 {
                    eprintln!("  {} games, {} entries", game + 1, bell.memory.len());
                }
                if std::env::var("TRACE").is_ok() {
                    let turns: Vec<String> =
                        g.turns.iter().map(|(s, t)| turn_name(*s, t)).collect();
                    eprintln!(
                        "game {game}: memory {}: {}",
                        bell.memory.len(),
                        turns.join(" ")
                    );
                }
            })
        };
        let part = part_of(&[&RUSSELL_OPENING, &[3, 2]], bell.memory.split()).expect("a part");
        println!(
            "| {name} | {} | {} ({}) | {} | {} | {} | {} | {bell_says} |",
            games.map_or(format!("> {max}"), |g| g.to_string()),
            bell.memory.len(),
            bell.memory.parts[part].len(),
            bell.stats.won,
            bell.stats.lost,
            bell.stats.characteristic,
            bell.memory.overflow,
        );
    }
}
