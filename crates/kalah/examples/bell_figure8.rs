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
//! Issue 29's readings of the memory sizes (docs/bell.md, "Figure 8: Bell's three memory
//! sizes"), each a switch: REPLACE=1: a characteristic replaces the whole-position entries of
//! the same outcome it covers ("it does not need to store the contents of every pit"); DROP=1:
//! once the parameters are calculated, the entries a kalah relation decides are dropped ("when
//! the parameters have been calculated, the memory drops"), with the relations for both sides
//! when FIG6_BOTH=1 or near-losses are learnt. The table's last columns always give what
//! both would remove, so one run measures every combination. JUDGED=after|either: Figure 6's
//! relations (run 3) decide the position a turn reaches, the opponent to move, or a position
//! whoever is to move (`Judged`), not the position of the side to move. LOSS_CHARS=1: with
//! characteristics, a loss is recorded as the person's wins after each of the machine's turns
//! (`Options::loss_characteristics`, `bell::opponent_wins`); the characteristics are then found
//! by index (`Options::characteristic_index`, `Table::indexed`), as CHAR_INDEX=1 asks without it.
//! The machine looks ahead as Bell's did, neither the floor (`Options::floor`) nor the bound on
//! positions (`Options::budget`), as test-word bit 10 on the PDP-1: his experiment.
//! OUR_LOOK_AHEAD=1: with both, as the program plays by default (issue 29).
//!
//! cargo run --release -p kalah --example bell_figure8 [max games [table size [run]]]

use kalah::bell::*;
use kalah::Board;

/// The nibble of each pit's board hole in a compacted position (`bell::compact`'s order).
const NIBBLE_HOLES: [usize; 12] = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12];

/// The position a whole-position entry holds (machine to move), or `None` for a
/// characteristic.
fn entry_board(e: &Entry) -> Option<Board> {
    if e.is_characteristic() {
        return None;
    }
    let mut b = Board::new(0);
    for (k, &i) in NIBBLE_HOLES.iter().enumerate() {
        b.cells[i] = ((e.pits >> (4 * k)) & 0xf) as u8;
    }
    b.cells[6] = e.kalah;
    b.cells[13] = TOTAL - b.stones() as u8;
    b.to_move = MACHINE;
    Some(b)
}

/// What the readings REPLACE and DROP would remove from a memory: the whole-position entries
/// covered by a characteristic of the same outcome in the same part, and the entries a kalah
/// relation of `params` decides whoever is to move (a near-win for a win, a near-loss for a
/// loss), and how many of them the switches `replace` and `drop` remove together.
fn removable(bell: &Bell, params: &Parameters, replace: bool, drop: bool) -> [usize; 3] {
    let (mut covered, mut decided, mut removed) = (0, 0, 0);
    for part in &bell.memory.parts {
        let chars: Vec<&Entry> = part
            .entries()
            .map(|(_, e)| e)
            .filter(|e| e.is_characteristic())
            .collect();
        for (_, e) in part.entries() {
            if let Some(b) = entry_board(e) {
                let c = compact(&b).expect("a stored position compacts");
                let is_covered = chars
                    .iter()
                    .any(|ch| ch.outcome == e.outcome && ch.matches(&b, c));
                let (mk, pk) = (b.kalah(MACHINE), b.kalah(PERSON));
                let is_decided = match e.outcome {
                    Outcome::Win => params.near_win[mk as usize].is_some_and(|t| pk <= t),
                    Outcome::Loss => params.near_loss[pk as usize].is_some_and(|t| mk <= t),
                };
                covered += usize::from(is_covered);
                decided += usize::from(is_decided);
                removed += usize::from(replace && is_covered || drop && is_decided);
            }
        }
    }
    [covered, decided, removed]
}

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
                fixed_parameters: Some(Parameters {
                    judged: match std::env::var("JUDGED").as_deref() {
                        Ok("after") => Judged::AfterTurn,
                        Ok("either") => Judged::Either,
                        _ => Judged::ToMove,
                    },
                    ..if std::env::var("FIG6_BOTH").is_ok() {
                        Parameters::figure_6_both_sides()
                    } else {
                        Parameters::figure_6()
                    }
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
    let replace = std::env::var("REPLACE").is_ok();
    let drop = std::env::var("DROP").is_ok();
    println!(
        "| run | games | entries (M3-M2's part) | won | lost | characteristic | overflow | Bell | covered by a characteristic | decided by a relation | entries after the switches |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
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
            loss_characteristics: std::env::var("LOSS_CHARS").is_ok(),
            characteristic_index: std::env::var("LOSS_CHARS").is_ok()
                || std::env::var("CHAR_INDEX").is_ok(),
            backtrack_count: match std::env::var("BT_COUNT").as_deref() {
                Ok("positions") => BacktrackCount::Positions,
                _ => BacktrackCount::Effort,
            },
            backtrack_store: match std::env::var("BT_STORE").as_deref() {
                Ok("losses") => BacktrackStore::Losses,
                Ok("line") => BacktrackStore::Line,
                _ => BacktrackStore::Region,
            },
            ..if std::env::var("OUR_LOOK_AHEAD").is_ok() {
                opts
            } else {
                Options {
                    floor: false,
                    budget: None,
                    ..opts
                }
            }
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
        let [covered, decided, removed] = removable(
            &bell,
            &bell.params,
            replace && bell.options.characteristics,
            drop,
        );
        let after = bell.memory.len() - removed;
        if std::env::var("SHALLOW").is_ok() {
            // How many stored losses the 1½-move look-ahead sees lost with an empty memory
            // and no parameters: the end-game losses a loss characteristic could stand for.
            let shallow = bell
                .memory
                .parts
                .iter()
                .flat_map(|p| p.entries())
                .filter_map(|(_, e)| entry_board(e).filter(|_| e.outcome == Outcome::Loss))
                .filter(|b| {
                    turn_values(b, &BellValue::plain())
                        .iter()
                        .all(|(_, v)| *v <= -WIN)
                })
                .count();
            eprintln!("losses lost to the look-ahead alone: {shallow}");
            // The shallow losses recorded instead as the person's own-turn wins after each of
            // the machine's turns, as characteristics seen from his side: the entries needed.
            let mut chars: Vec<Entry> = Vec::new();
            let (mut kept, mut replaced) = (0, 0);
            for (_, e) in bell.memory.parts.iter().flat_map(|p| p.entries()) {
                let Some(l) = entry_board(e).filter(|_| e.outcome == Outcome::Loss) else {
                    continue;
                };
                let mut mine = Vec::new();
                let all = turns(&l).into_iter().all(|(_, x)| {
                    if end_value(&x).is_some_and(|v| v <= -WIN) {
                        return true;
                    }
                    if x.is_terminal() || x.to_move != PERSON {
                        return false;
                    }
                    let m = mirror(&x);
                    let c = compact(&m).unwrap_or(0);
                    if chars.iter().chain(&mine).any(|ch| ch.matches(&m, c)) {
                        return true;
                    }
                    match turns(&m)
                        .into_iter()
                        .find_map(|(w, _)| characteristic(&m, &w))
                    {
                        Some(ch) => {
                            mine.push(ch);
                            true
                        }
                        None => false,
                    }
                });
                if all {
                    replaced += 1;
                    chars.extend(mine);
                } else {
                    kept += 1;
                }
            }
            eprintln!(
                "losses kept {kept}, replaced {replaced} by {} characteristics",
                chars.len()
            );
        }
        println!(
            "| {name} | {} | {} ({}) | {} | {} | {} | {} | {bell_says} | {covered} | {decided} | {after} |",
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
