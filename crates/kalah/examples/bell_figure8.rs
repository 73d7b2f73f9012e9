//! Bell's Figure 8 teaching experiment: the person opens with Russell's move, the machine
//! answers M3-M2 (its first choice), and a teacher who always wins (a proof search) beats it,
//! playing where it can the lines the back-track analysis has not covered, until the machine's
//! look-ahead finds M3-M2 lost and answers otherwise. Prints the memory size for the memory
//! alone, with characteristics, and with both characteristics and parameters, beside Bell's
//! "just over 400", "about 300" and "about 150", and the parameters reached beside Figure 6.
//!
//! The teacher's fixed strategy is, at each of the person's positions, the winning turn with the
//! smallest proof (FIRST_TEACHER=1: the first winning turn in Bell's list order;
//! RANDOM_TEACHER=1: a random winning turn, preferring lines not yet known lost).
//!
//! cargo run --release -p kalah --example bell_figure8 [max games [table size [run]]]

use kalah::bell::*;
use kalah::solve::Prover;
use std::collections::HashMap;

struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The teacher's fixed strategy: among the winning turns the one whose proof is smallest (a
/// fresh proof search's count of positions), remembered per position.
struct Teacher {
    chosen: HashMap<kalah::Board, Vec<u8>>,
}

impl Teacher {
    fn choose(&mut self, b: &kalah::Board, wins: &[(Vec<u8>, kalah::Board)]) -> Vec<u8> {
        if let Some(t) = self.chosen.get(b) {
            return t.clone();
        }
        let t = wins
            .iter()
            .min_by_key(|(_, c)| {
                let mut p = Prover::new();
                p.wins(c, PERSON);
                p.nodes
            })
            .expect("a winning turn")
            .0
            .clone();
        self.chosen.insert(*b, t.clone());
        t
    }
}

/// Teach until the machine no longer answers M3-M2; the games it took, or None.
fn teach(
    bell: &mut Bell,
    prover: &mut Prover,
    teacher: &mut Teacher,
    max_games: usize,
    rng: &mut Lcg,
) -> Option<usize> {
    for game in 0..max_games {
        let mut g = Game::new(false);
        g.play(&RUSSELL_OPENING).unwrap();
        while !g.over() {
            if g.board.to_move == MACHINE {
                let m = bell.machine_turn(&mut g).unwrap();
                if g.turns.len() == 2 && m.turn != [3, 2] {
                    return Some(game);
                }
            } else {
                let prefix = g.prefix(g.turns.len().min(2));
                let mut p = prefix.clone();
                let wins: Vec<(Vec<u8>, kalah::Board)> = kalah::bell::turns(&g.board)
                    .into_iter()
                    .filter(|(_, c)| prover.wins(c, PERSON))
                    .collect();
                assert!(
                    !wins.is_empty(),
                    "the teacher lost its win:\n{}",
                    Figure(&g.board)
                );
                // Lines not yet analysed: the machine's next position is not known lost.
                let fresh: Vec<&(Vec<u8>, kalah::Board)> = wins
                    .iter()
                    .filter(|(t, c)| {
                        p.truncate(prefix.len());
                        if p.len() < 2 {
                            p.push(t.clone());
                        }
                        c.is_terminal() || bell.recall(c, &p) != Some(Outcome::Loss)
                    })
                    .collect();
                let pool: Vec<&(Vec<u8>, kalah::Board)> = if fresh.is_empty() {
                    wins.iter().collect()
                } else {
                    fresh
                };
                let t = if std::env::var("RANDOM_TEACHER").is_ok() {
                    pool[rng.next(pool.len())].0.clone()
                } else if std::env::var("FIRST_TEACHER").is_err() {
                    teacher.choose(&g.board, &wins)
                } else {
                    // A fixed strategy: the proof needs one reply at each of the person's
                    // positions, and the machine's own deviations cover its alternatives.
                    wins[0].0.clone()
                };
                g.play(&t).unwrap();
            }
        }
        bell.finish(&g);
        if game % 500 == 499 {
            eprintln!("  {} games, {} entries", game + 1, bell.memory.len());
        }
        if std::env::var("TRACE").is_ok() {
            eprintln!(
                "game {game}: {} machine turns, resigned {}, memory {}: {}",
                g.machine.len(),
                g.resigned,
                bell.memory.len(),
                g.turns
                    .iter()
                    .map(|(s, t)| turn_name(*s, t))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }
    None
}

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3000);
    let table: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(TABLE);
    let mut prover = Prover::new();
    let mut teacher = Teacher {
        chosen: HashMap::new(),
    };
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
                fixed_parameters: Some(Parameters::figure_6()),
                parameters: false,
                ..Options::default()
            },
            "about 150",
        ),
        (
            "with both, near-losses learned too",
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
    let only: Option<usize> = std::env::args().nth(3).and_then(|a| a.parse().ok());
    for (i, (name, opts, bell_says)) in runs.into_iter().enumerate() {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let mut rng = Lcg(8);
        let mut bell = Bell::new(Options { table, ..opts });
        let games = teach(&mut bell, &mut prover, &mut teacher, max, &mut rng);
        let part = part_of(&[&RUSSELL_OPENING, &[3, 2]], bell.memory.split()).unwrap();
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
        if !bell.params.is_empty() {
            let show = |v: &[Option<u8>; 37]| {
                (10..=19)
                    .rev()
                    .map(|m| format!("{m}/{}", v[m].map_or("-".into(), |t| t.to_string())))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            println!("|   near-wins Mk/Pk: {} |", show(&bell.params.near_win));
            println!("|   near-losses Pk/Mk: {} |", show(&bell.params.near_loss));
        }
    }
}
