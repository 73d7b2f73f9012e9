//! Issue 29's benchmark session on the reference alone (no PDP-1): the same schedule, opponent
//! and random numbers as `tests/tests/bell_benchmark.rs`, so that a design of the memory can be
//! measured in minutes before the PDP-1 program follows it; `deeper` adds to the opponent's
//! search depths (2–5), for a stronger opponent. Prints what the benchmark reports,
//! and for every new game lost as an earlier one, what the memory held.
//!
//! With `fill`, when a part starts forgetting: random whole positions (kalahs 0–20, lost) stored
//! in part 0 of the split memory (the others empty, as a crowded part's) and of one table, until
//! the first is forgotten.
//!
//! cargo run --release -p kalah --example bell_session [iterations] [seed] [table] [deeper]
//! cargo run --release -p kalah --example bell_session fill [seed]
//!
//! `BELL_BENCH_INDEX=1` finds the characteristics by index (`Options::characteristic_index`), as
//! the benchmark's switch of the same name does on the PDP-1. `BELL_BENCH_OPPONENT=issue` plays
//! issue 29's opponent (`DecOpponent::issue`, games of `DecGame::issue`: α-β of 6–8 sowings,
//! random among equal moves) instead of the DEC program's search, as the benchmark's switch of
//! the same name does; `deeper` is then not used.
//!
//! Every resignation and every `i will win` is checked by the exact solver
//! (`kalah::solve::Prover`, Bell's rules: docs/bell.md, "Resignations and claims, solved"): the
//! position it resigned in must be a forced loss (the person can force more than half of the
//! counters), the one it said `i will win` in a forced win; and the games it said so in and
//! then did not win are counted, and the turns after a claim whose look-ahead saw no victory
//! (docs/bell.md, "A claim is played out": 0 means the claim's proof stayed in sight).
//!
//! `BELL_BENCH_BUDGET=off` looks ahead without the bound on positions (`Options::budget`),
//! `BELL_BENCH_BUDGET=N` with a bound of N positions (default `BUDGET`).
//!
//! The floor is on (`Options::floor`, the default: a node stops at its first child worth ±WIN,
//! the person's node below a lost turn at its first reply worth −WIN); `BELL_BENCH_FLOOR=0`
//! turns it off (with `BELL_BENCH_BUDGET=off`, Bell's own look-ahead: test-word bit 10 on the
//! PDP-1). `BELL_BENCH_LOST_FIRST=1` with it tries first the person's replies that reach a
//! position the memory holds as lost (`Options::lost_first`, not in the PDP-1 program), and
//! prints the effort again with its look-ups counted (issue 29, docs/bell.md "Lost turns made
//! short").
//!
//! `BELL_BENCH_CAP=N` caps, with the bound, a look-ahead whose every turn is lost
//! (`Options::cap`: once it has examined N positions with every turn lost, the position after
//! each of the person's replies is judged where it stands, two plies; docs/bell.md "A cap on
//! lost look-aheads, measured"); unset, `BUDGET` (the default, as the PDP-1 program's C is its
//! bound `bgt`); `off`, none.

use kalah::bell::*;
use kalah::solve::Prover;
use std::collections::{HashMap, VecDeque};

/// The benchmark's random numbers (splitmix64, as `tests/tests/kalah_support`'s `Rng`).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// One machine turn's effort: positions examined by the first look-ahead, by the look-aheads
/// again inside the turn and by the learning (the back-track analysis), its sowings, whether it
/// resigned, and the game before it (to play it again on an empty memory).
struct TurnEffort {
    first: u64,
    again: u64,
    learn: u64,
    /// Memory look-ups to order the person's replies (`Options::lost_first`), in no effort.
    lookups: u64,
    sowings: usize,
    resigned: bool,
    before: Game,
}

impl TurnEffort {
    fn total(&self) -> u64 {
        self.first + self.again + self.learn
    }
}

/// Every turn's effort, and the ten largest turns; the solver's checks.
#[derive(Default)]
struct Log {
    totals: Vec<u64>,
    /// The same with the turn's look-ups to order added.
    with_lookups: Vec<u64>,
    resigning: u64,
    /// The largest first look-ahead of any turn, of a resignation (the time to `i resign`) and
    /// the largest back-track analysis.
    first_most: u64,
    resign_first_most: u64,
    learn_most: u64,
    top: Vec<TurnEffort>,
    solved: Solved,
}

/// Resignations and `i will win` checked by the exact solver.
#[derive(Default)]
struct Solved {
    prover: Prover,
    /// Positions resigned in, and of them forced losses.
    resigned: usize,
    resigned_lost: usize,
    /// Positions `i will win` was said in, of them forced wins and positions not lost.
    claimed: usize,
    claimed_won: usize,
    claimed_not_lost: usize,
    /// Positions the solver examined before its last fresh start.
    nodes: u64,
    /// Games the machine said `i will win` in and did not win, and of them the games lost.
    claims_broken: usize,
    claims_lost: usize,
    /// Turns after a claim whose first look-ahead did not see a victory (the claim's proof
    /// out of its sight: a memory entry of it forgotten or corrected since).
    claim_unseen: usize,
}

/// The prover's memo is dropped when it has examined this many positions since (memory).
const PROVER_NODES: u64 = 20_000_000;

impl Solved {
    /// Check what the machine said in `b` (it to move): a resignation must be a forced loss,
    /// `i will win` a forced win.
    fn check(&mut self, says: Say, b: &kalah::Board, game: &Game) {
        if self.prover.nodes > PROVER_NODES {
            self.nodes += self.prover.nodes;
            self.prover = Prover::new();
        }
        match says {
            Say::Resigns => {
                self.resigned += 1;
                if self.prover.wins(b, PERSON) {
                    self.resigned_lost += 1;
                } else {
                    eprintln!(
                        "resigned, not a forced loss: {:?} {:?}",
                        b.cells, game.turns
                    );
                }
            }
            Say::WillWin => {
                self.claimed += 1;
                let won = self.prover.wins(b, MACHINE);
                let lost = !won && self.prover.wins(b, PERSON);
                self.claimed_won += usize::from(won);
                self.claimed_not_lost += usize::from(!lost);
                if !won {
                    eprintln!(
                        "said i will win, not a forced win (lost: {lost}): {:?} {:?}",
                        b.cells, game.turns
                    );
                }
            }
        }
    }

    /// A game over: did the machine say `i will win` in it and not win?
    fn over(&mut self, g: &Game) {
        if !g.broke_claim() {
            return;
        }
        self.claims_broken += 1;
        self.claims_lost += usize::from(g.result() == Some(GameResult::Lost));
        // The machine's last turn from a forced win to a position that is not one (the claim's
        // position was a forced win: the turn that threw it away follows it).
        let thrown = (0..g.turns.len()).rfind(|&i| {
            g.turns[i].0 == MACHINE
                && self.prover.wins(&g.positions[i], MACHINE)
                && !self.prover.wins(&g.positions[i + 1], MACHINE)
        });
        eprintln!(
            "said i will win and did not win ({:?}; the win thrown away by turn {thrown:?}): {:?}",
            g.result(),
            g.turns
        );
    }
}

/// A count of positions from the environment variable `name`: `off` none, a number, or unset
/// [`BUDGET`] (the bound's and the cap's default). Anything else ends the session with a
/// message.
fn positions_from_env(name: &str) -> Option<u32> {
    match std::env::var(name).as_deref() {
        Ok("off") => None,
        Ok(n) => match n.parse() {
            Ok(n) => Some(n),
            Err(_) => {
                eprintln!("bell_session: {name} is off or a number of positions, not {n:?}");
                std::process::exit(2)
            }
        },
        Err(_) => Some(BUDGET),
    }
}

/// The machine's turn in `g`, its effort added to `log`.
fn turn(r: &mut Bell, g: &mut Game, log: &mut Log) -> MachineMove {
    let (s, before) = (r.stats, g.clone());
    let m = r.machine_turn(g).expect("a turn");
    let t = TurnEffort {
        first: r.stats.effort_first - s.effort_first,
        again: r.stats.effort_again - s.effort_again,
        learn: r.stats.effort_learn - s.effort_learn,
        lookups: r.stats.lookups - s.lookups,
        sowings: m.turn.len(),
        resigned: m.says == Some(Say::Resigns),
        before,
    };
    if let Some(says) = m.says {
        log.solved.check(says, &t.before.board, &t.before);
    }
    if t.before.claimed_win && m.value < WIN {
        log.solved.claim_unseen += 1;
        eprintln!(
            "after the claim, no victory seen: {:?} {:?}",
            t.before.board.cells, t.before.turns
        );
    }
    log.totals.push(t.total());
    log.with_lookups.push(t.total() + t.lookups);
    if t.resigned {
        log.resigning = log.resigning.max(t.total());
        log.resign_first_most = log.resign_first_most.max(t.first);
    }
    log.first_most = log.first_most.max(t.first);
    log.learn_most = log.learn_most.max(t.learn);
    let i = log.top.partition_point(|u| u.total() >= t.total());
    if i < 10 {
        log.top.insert(i, t);
        log.top.truncate(10);
    }
    m
}

fn play(
    r: &mut Bell,
    opp: &mut DecOpponent,
    how: &DecGame,
    machine_first: bool,
    log: &mut Log,
) -> Game {
    let mut g = Game::new(machine_first);
    let mut n = 0;
    while !g.over() {
        if g.board.to_move == MACHINE {
            turn(r, &mut g, log);
        } else {
            let t = opp.turn(how, &g.board, n);
            n += 1;
            g.play(&t).expect("legal");
        }
    }
    r.finish(&g);
    log.solved.over(&g);
    g
}

/// The machine position where the replay first differs; `None` if it never does.
fn replay(r: &mut Bell, lost: &Game, log: &mut Log) -> (Option<usize>, Game) {
    let mut g = Game::new(lost.turns[0].0 == MACHINE);
    let mut pos = 0;
    let mut dev = None;
    for (side, t) in &lost.turns {
        if *side == PERSON {
            g.play(t).expect("legal");
            continue;
        }
        let m = turn(r, &mut g, log);
        if m.turn != *t {
            dev = Some(pos);
            break;
        }
        pos += 1;
    }
    if dev.is_none() && lost.resigned && turn(r, &mut g, log).says != Some(Say::Resigns) {
        dev = Some(pos);
    }
    if g.over() {
        r.finish(&g);
        log.solved.over(&g);
    }
    (dev, g)
}

/// Entries in part 0 and in the whole memory when the first whole position is forgotten.
fn fill(split: bool, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let mut m = Memory::new(split);
    loop {
        let mk = rng.below(21) as u8;
        let mut b = kalah::Board::new(0);
        b.to_move = MACHINE;
        b.cells[MACHINE.kalah()] = mk;
        for _ in mk..TOTAL {
            let side = if rng.below(2) == 0 { MACHINE } else { PERSON };
            b.cells[side.pit_index(1 + rng.below(6) as u8)] += 1;
        }
        let Some(e) = Entry::exact(&b, Outcome::Loss) else {
            continue;
        };
        if m.lookup(0, &b).is_some() {
            continue;
        }
        if let Stored::Forgot(_) = m.store(0, e) {
            return (m.parts[0].len(), m.len());
        }
    }
}

/// Replay `g` at iteration `n`, counting what the replay found.
fn replay_counted(r: &mut Bell, tally: &mut ReplayTally, g: &Game, n: usize, log: &mut Log) {
    let (dev, again) = replay(r, g, log);
    if tally.add(g, dev, &again) == Replayed::Repeated {
        eprintln!("repeated at {n}: {:?}", g.turns);
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    if std::env::args().nth(1).as_deref() == Some("fill") {
        let seed: u64 = std::env::args()
            .nth(2)
            .and_then(|a| a.parse().ok())
            .unwrap_or(29);
        for split in [false, true] {
            let (part, all) = fill(split, seed);
            println!("split {split}: first forgotten at {part} entries in part 0, {all} in all");
        }
        return;
    }
    let iterations: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(29);
    let table: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(TABLE);
    let deeper: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut r = Bell::new(Options {
        split: true,
        table,
        characteristic_index: std::env::var("BELL_BENCH_INDEX").is_ok_and(|v| v == "1"),
        budget: positions_from_env("BELL_BENCH_BUDGET"),
        cap: positions_from_env("BELL_BENCH_CAP"),
        floor: std::env::var("BELL_BENCH_FLOOR").map_or(true, |v| v != "0"),
        lost_first: std::env::var("BELL_BENCH_LOST_FIRST").is_ok_and(|v| v == "1"),
        ..Options::default()
    });
    let issue = std::env::var("BELL_BENCH_OPPONENT").is_ok_and(|v| v == "issue");
    let mut opp = if issue {
        DecOpponent::issue(seed)
    } else {
        DecOpponent::new(seed)
    };
    let mut rng = Rng(seed);
    let mut due: VecDeque<(usize, Game)> = VecDeque::new();
    let mut lost: HashMap<Vec<(kalah::board::Side, Vec<u8>)>, usize> = HashMap::new();
    let (mut games, mut losses, mut same) = (0, 0, 0);
    let mut tally = ReplayTally::default();
    let mut log = Log::default();
    for n in 0..iterations {
        if n > 0 && n % 1000 == 0 {
            let fill: Vec<usize> = r.memory.parts.iter().map(|t| t.len()).collect();
            eprintln!(
                "{n}: {games} games, {losses} losses, {} replays, {} repeats, {same} same, {} entries, {} forgotten {fill:?}",
                tally.replays,
                tally.repeats,
                r.memory.len(),
                r.memory.overflow
            );
        }
        if due.front().is_some_and(|(at, _)| *at <= n) {
            let (_, g) = due.pop_front().expect("due");
            replay_counted(&mut r, &mut tally, &g, n, &mut log);
            continue;
        }
        games += 1;
        let (machine_first, how) = if issue {
            DecGame::issue(|n| rng.below(n))
        } else {
            let (first, how) = DecGame::benchmark(|n| rng.below(n));
            (
                first,
                DecGame {
                    depth: how.depth + deeper,
                    ..how
                },
            )
        };
        let g = play(&mut r, &mut opp, &how, machine_first, &mut log);
        if g.result() != Some(GameResult::Lost) {
            continue;
        }
        losses += 1;
        if let Some(first) = lost.insert(g.turns.clone(), n) {
            same += 1;
            let pre = g.prefix(2);
            let refs: Vec<&[u8]> = pre.iter().map(|t| t.as_slice()).collect();
            let part = part_of(&refs, true);
            eprintln!(
                "same loss at {n} as {first}: part {part:?}, machine positions {}, resigned {}, {:?}",
                g.machine.len(),
                g.resigned,
                g.turns
            );
        }
        if g.machine.len() == 1 {
            continue;
        }
        let at = n + 1 + rng.below(100) as usize;
        let i = due.partition_point(|(a, _)| *a <= at);
        due.insert(i, (at, g));
    }
    // The replays still due, as the benchmark plays them.
    while let Some((_, g)) = due.pop_front() {
        replay_counted(&mut r, &mut tally, &g, iterations, &mut log);
    }
    efforts(&r, &mut log);
    let s = &log.solved;
    println!(
        "solver: resigned {} forced losses {}; said i will win {} forced wins {} not lost {}; \
         games said i will win and not won {} (lost {}); turns after a claim seeing no victory {}; \
         the solver examined {} positions",
        s.resigned,
        s.resigned_lost,
        s.claimed,
        s.claimed_won,
        s.claimed_not_lost,
        s.claims_broken,
        s.claims_lost,
        s.claim_unseen,
        s.nodes + s.prover.nodes
    );
    let ReplayTally {
        replays,
        repeats,
        resigned_sooner: sooner,
    } = tally;
    let fill: Vec<usize> = r.memory.parts.iter().map(|t| t.len()).collect();
    println!(
        "games {games} losses {losses} replays {replays} repeats {repeats} sooner {sooner} same {same} entries {} forgotten {} (losses {}) spilled {} parts {fill:?}",
        r.memory.len(),
        r.memory.overflow,
        r.stats.forgot_losses,
        r.stats.spilled
    );
}

/// The turns' effort (positions examined): the median and the ten largest, split, each played
/// again from the same position on an empty memory (the same options) for comparison.
fn efforts(r: &Bell, log: &mut Log) {
    log.totals.sort_unstable();
    let median = log.totals.get(log.totals.len() / 2).copied().unwrap_or(0);
    println!(
        "turns {} effort median {median} most {} resigning most {}; longest first look-ahead {} (resigning {}) analysis {}; in all first {} again {} learn {}",
        log.totals.len(),
        log.totals.last().copied().unwrap_or(0),
        log.resigning,
        log.first_most,
        log.resign_first_most,
        log.learn_most,
        r.stats.effort_first,
        r.stats.effort_again,
        r.stats.effort_learn
    );
    let over = |n: u64| log.totals.len() - log.totals.partition_point(|&t| t <= n);
    println!(
        "turns over 300, 500, 800, 1000, 1500 positions: {}, {}, {}, {}, {}",
        over(300),
        over(500),
        over(800),
        over(1000),
        over(1500)
    );
    if r.options.lost_first {
        // The look-ups to order cost about as much as a position on the PDP-1 with the filter
        // (about 0.5 ms when absent): counted as positions here.
        let w = &mut log.with_lookups;
        w.sort_unstable();
        let over = |n: u64| w.len() - w.partition_point(|&t| t <= n);
        println!(
            "with the {} look-ups to order: effort median {} most {}; over 800, 1000, 1500: {}, {}, {}",
            r.stats.lookups,
            w.get(w.len() / 2).copied().unwrap_or(0),
            w.last().copied().unwrap_or(0),
            over(800),
            over(1000),
            over(1500)
        );
    }
    for t in &log.top {
        let mut empty = Bell::new(r.options.clone());
        empty.params = r.params.clone();
        let mut g = t.before.clone();
        let _ = empty.machine_turn(&mut g);
        let s = empty.stats;
        println!(
            "  {} = first {} again {} learn {}, {} sowings{}; empty memory {} = {} {} {}; {:?}",
            t.total(),
            t.first,
            t.again,
            t.learn,
            t.sowings,
            if t.resigned { ", resigned" } else { "" },
            s.effort_first + s.effort_again + s.effort_learn,
            s.effort_first,
            s.effort_again,
            s.effort_learn,
            t.before.board.cells
        );
    }
}
