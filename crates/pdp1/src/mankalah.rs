//! `pdp1 --mankalah TAPE`: the PDP-1 Kalah program as an agent of the ManKalah engine (issue 14,
//! `../shared/reference/kalah.md` §4).
//!
//! The engine's messages come on stdin and the agent's answers go to stdout (`MOVE;<n>` or
//! `SWAP`, newline-terminated, flushed); everything else goes to stderr. Each message becomes keys
//! on the emulated console typewriter, and what the program types back becomes the answer. The
//! program knows nothing of the engine: it plays a two-player board with the DEC game's keys
//! (docs/kalah.md), lower = South, upper = North, and this module is the operator between the
//! two:
//!
//! * the opponent's move (protocol hole `h`) is struck as the pit key `8 − h` (the DEC note
//!   numbers pits from the kalah, the protocol holes from the far end), the opponent's swap as
//!   `s`;
//! * when the engine says `YOU`, space makes the machine choose; it types backspace, the pit
//!   digit (or `s` for a swap) and the punctuation;
//! * the punctuation is checked against the rules (`.` after a repeat move, `,` after an ordinary
//!   move by lower, carriage return after one by upper), and the result line at the end against
//!   the score.
//!
//! The agent keeps its own record of the match ([`Match`], the reference rules of `kalah`) and,
//! after every `CHANGE`, compares the engine's board with it, its turn (`YOU`/`OPP`/`END`) with
//! the rules, and — when `--symbols` names the program's board — the program's memory with both.
//! Any difference is an error: the agent says what differs on stderr and exits non-zero, and
//! never sends a move it cannot vouch for.
//!
//! [`Agent`] is the protocol logic; it drives anything that implements [`Console`], so that it
//! can be tested without a process or a PDP-1 ([`MachineConsole`] is the emulated one).

use crate::run::{End, RunControl, Stop};
use crate::setup::Setup;
use anyhow::{bail, Context, Result};
use kalah::mankalah::{agent_line, Action, EngineMsg, Match, Turn, HOLES};
use kalah::{Board7, Side};
use pdp1_core::{Machine, Word};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// The program's typewriter, seen from the operator's chair.
pub trait Console {
    /// Strike the key for `c` (`1`–`7`, space, `s`, `\r`) and let the program run until it waits
    /// for the next key. Returns what the program typed meanwhile (not the key's local print):
    /// backspace as `\u{8}`, carriage return as `\n`.
    fn key(&mut self, c: char) -> Result<String>;
    /// The program's board in memory in the protocol's state order, and its side to move, when
    /// it can be read (`None`: no symbols to find it).
    fn board(&self) -> Option<([u8; 16], Side)>;
    /// A line for the progress report after a machine move (time taken, …).
    fn effort(&self) -> String {
        String::new()
    }
}

/// Where the match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before `START`.
    Start,
    Playing,
    /// The last `CHANGE` said `END`: the `END` message follows.
    Over,
}

/// What the caller does after a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Write this answer (if any) and read the next message.
    Continue(Option<String>),
    /// `END` arrived: the match is over (`regular`: after a `CHANGE…;END`; otherwise the engine
    /// aborted it).
    Done { regular: bool },
}

/// The agent: the protocol on one side, the program's console on the other.
pub struct Agent<C: Console> {
    pub console: C,
    game: Match,
    /// Our board side (South = A); changes when either player swaps.
    me: Side,
    phase: Phase,
    /// The move we sent, which the next `CHANGE` must report.
    sent: Option<Action>,
    /// Our moves so far (progress lines).
    moves: u32,
    /// Progress lines on stderr.
    pub quiet: bool,
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::A => "South",
        Side::B => "North",
    }
}

/// The key for protocol action `a`: hole `h` is pit `8 − h`.
fn key_of(a: Action) -> char {
    match a {
        Action::Move(h) => char::from(b'0' + (HOLES + 1 - h)),
        Action::Swap => 's',
    }
}

/// Show typed text in messages: backspace and carriage return visible.
fn shown(text: &str) -> String {
    text.replace('\u{8}', "⌫").replace('\n', "⏎")
}

impl<C: Console> Agent<C> {
    pub fn new(console: C) -> Agent<C> {
        Agent {
            console,
            game: Match::default(),
            me: Side::A,
            phase: Phase::Start,
            sent: None,
            moves: 0,
            quiet: false,
        }
    }

    /// Handle one line from the engine.
    pub fn handle(&mut self, line: &str) -> Result<Step> {
        let msg = EngineMsg::parse(line).context("the engine's message")?;
        match (self.phase, msg) {
            (_, EngineMsg::End) => Ok(Step::Done {
                regular: self.phase == Phase::Over,
            }),
            (Phase::Start, EngineMsg::Start(side)) => {
                self.me = side;
                self.phase = Phase::Playing;
                self.progress(&format!("playing {}", side_name(side)));
                if side == Side::A {
                    return Ok(Step::Continue(Some(self.our_move()?)));
                }
                Ok(Step::Continue(None))
            }
            (Phase::Start, EngineMsg::Change { .. }) => bail!("a CHANGE before START"),
            (_, EngineMsg::Start(_)) => bail!("a second START in one match"),
            (Phase::Over, EngineMsg::Change { .. }) => {
                bail!("a CHANGE after the match ended")
            }
            (
                Phase::Playing,
                EngineMsg::Change {
                    action,
                    state,
                    turn,
                },
            ) => self.change(action, state, turn),
        }
    }

    fn change(&mut self, action: Action, state: [u8; 16], turn: Turn) -> Result<Step> {
        match self.sent.take() {
            Some(sent) if sent != action => bail!(
                "the engine reports {action:?} as our move, but we sent {}",
                agent_line(sent).trim_end()
            ),
            // Our own move, already made on the program and in our record.
            Some(_) => {}
            None => self.their_action(action)?,
        }
        self.compare(&state)?;
        let expected = if self.game.over() {
            Turn::End
        } else if self.game.to_move() == self.me {
            Turn::You
        } else {
            Turn::Opp
        };
        if turn != expected {
            bail!(
                "the engine says {turn:?} but by the rules it is {expected:?} (we are {}, {} to move)",
                side_name(self.me),
                side_name(self.game.to_move())
            );
        }
        match turn {
            Turn::End => {
                self.phase = Phase::Over;
                let s = self.game.state_numbers();
                self.progress(&format!(
                    "the match ended: South {} North {} (we are {})",
                    s[15],
                    s[7],
                    side_name(self.me)
                ));
                Ok(Step::Continue(None))
            }
            Turn::You => Ok(Step::Continue(Some(self.our_move()?))),
            Turn::Opp => Ok(Step::Continue(None)),
        }
    }

    /// The opponent's action: into our record, then onto the program's keyboard.
    fn their_action(&mut self, action: Action) -> Result<()> {
        let mover = self.game.to_move();
        if mover == self.me {
            bail!(
                "the engine reports an opponent's {action:?} but it is our turn ({})",
                side_name(self.me)
            );
        }
        self.game
            .play(action)
            .with_context(|| format!("the opponent's {action:?} breaks the rules"))?;
        let key = key_of(action);
        let typed = self.console.key(key)?;
        if action == Action::Swap {
            self.me = self.me.other();
            if typed != "." {
                bail!(
                    "after the swap key the program typed {:?}, not \".\"",
                    shown(&typed)
                );
            }
            self.progress(&format!(
                "the opponent swapped: we are {}",
                side_name(self.me)
            ));
            return Ok(());
        }
        self.check_punctuation(mover, key, &typed)
    }

    /// Ask the program for our move (space) and read it.
    fn our_move(&mut self) -> Result<String> {
        let mover = self.game.to_move();
        debug_assert_eq!(mover, self.me);
        let started = Instant::now();
        let typed = self.console.key(' ')?;
        let mut chars = typed.chars();
        let (Some('\u{8}'), Some(k)) = (chars.next(), chars.next()) else {
            bail!(
                "after space the program typed {:?}, not a backspace and a move",
                shown(&typed)
            );
        };
        let rest: String = chars.collect();
        let action = match k {
            's' => Action::Swap,
            '1'..='7' => Action::Move(HOLES + 1 - (k as u8 - b'0')),
            _ => bail!(
                "after space the program typed {:?}: {k:?} is no move",
                shown(&typed)
            ),
        };
        self.game.play(action).with_context(|| {
            format!("the program chose {k:?}, which the rules do not allow here")
        })?;
        if action == Action::Swap {
            if rest != "." {
                bail!(
                    "after its swap the program typed {:?}, not \".\"",
                    shown(&rest)
                );
            }
            self.me = self.me.other();
        } else {
            self.check_punctuation(mover, k, &rest)?;
            self.sent = Some(action);
        }
        self.moves += 1;
        let line = agent_line(action);
        self.progress(&format!(
            "our move {}: {} (key {k}) in {:.2} s{}",
            self.moves,
            line.trim_end(),
            started.elapsed().as_secs_f64(),
            self.console.effort()
        ));
        Ok(line)
    }

    /// What the program typed after a move of `mover` (key `key`) against the rules.
    fn check_punctuation(&self, mover: Side, key: char, typed: &str) -> Result<()> {
        if typed.contains('\u{8}') {
            bail!(
                "the program crossed out the key {key:?} (it typed {:?}): its board differs from the engine's",
                shown(typed)
            );
        }
        if self.game.over() {
            return self.check_result(typed);
        }
        let expected = if self.game.to_move() == mover {
            "."
        } else if mover == Side::A {
            ","
        } else {
            "\n"
        };
        if typed != expected {
            bail!(
                "after the key {key:?} the program typed {:?} where the rules give {:?}",
                shown(typed),
                shown(expected)
            );
        }
        Ok(())
    }

    /// The end of the game: punctuation, then on a line of its own `lower wins a-b`, `upper wins
    /// a-b` or `tie a-a` (winner's kalah first), which must be the engine's final score.
    fn check_result(&self, typed: &str) -> Result<()> {
        let s = self.game.state_numbers();
        let (south, north) = (s[15], s[7]);
        let expected = match south.cmp(&north) {
            std::cmp::Ordering::Greater => format!("lower wins {south}-{north}"),
            std::cmp::Ordering::Less => format!("upper wins {north}-{south}"),
            std::cmp::Ordering::Equal => format!("tie {south}-{north}"),
        };
        let line = typed
            .trim_start_matches(['.', ','])
            .trim_matches(|c: char| c == '\n' || c == ' ');
        if line != expected {
            bail!(
                "at the end of the game the program typed {:?}; the score is {expected:?}",
                shown(typed)
            );
        }
        Ok(())
    }

    /// The engine's board against our record and the program's memory.
    fn compare(&self, state: &[u8; 16]) -> Result<()> {
        let ours = self.game.state_numbers();
        if *state != ours {
            bail!(
                "the engine's board {} differs from ours {} (after {} actions)",
                join(state),
                join(&ours),
                self.game.actions
            );
        }
        if let Some((mem, to_move)) = self.console.board() {
            if mem != ours {
                bail!(
                    "the program's board in memory {} differs from the engine's {} (after {} actions)",
                    join(&mem),
                    join(&ours),
                    self.game.actions
                );
            }
            if !self.game.over() && to_move != self.game.to_move() {
                bail!(
                    "the program has {} to move, the rules {}",
                    side_name(to_move),
                    side_name(self.game.to_move())
                );
            }
        }
        Ok(())
    }

    fn progress(&self, what: &str) {
        if !self.quiet {
            eprintln!("pdp1 mankalah: {what}");
        }
    }
}

fn join(s: &[u8; 16]) -> String {
    s.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// Play one match: messages from `input`, answers to `output`. Returns true when the match ended
/// regularly, false when the engine aborted it (`END` alone). End of input before `END` is an
/// error.
pub fn serve<C: Console>(
    agent: &mut Agent<C>,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<bool> {
    for line in input.lines() {
        let line = line.context("reading the engine's messages on stdin")?;
        match agent.handle(&line)? {
            Step::Continue(Some(answer)) => {
                output
                    .write_all(answer.as_bytes())
                    .and_then(|_| output.flush())
                    .context("writing to the engine (stdout)")?;
            }
            Step::Continue(None) => {}
            Step::Done { regular } => return Ok(regular),
        }
    }
    bail!("the engine closed stdin before END")
}

// ---- the emulated PDP-1 ----

/// Emulated time between the agent's looks at the machine: the headless runner's slice.
use crate::run::SLICE_NS;
/// The program has finished with a key when it has been polling the keyboard for this long
/// (emulated time: the DEC program polls after every display frame of about 50 ms, and a wait
/// lapses after 100 ms without a poll, so this is several frames of waiting).
const SETTLE_NS: u64 = 300_000_000;
/// Longest the program may work on one key without waiting for the next, in emulated time,
/// when `--max-seconds` does not limit the match: 30 days of PDP-1 time. Depth 12's first
/// move takes 3.9 days (131 s on the host; docs/kalah.md, "Depth and time"), so no depth a
/// match can afford comes near it, and a program that never asks for a key ends with an
/// error after about a quarter of an hour on the host instead of running for ever.
pub const ANSWER_LIMIT_NS: u64 = 30 * 86_400 * 1_000_000_000;
/// The board's symbol in the program (`--symbols`): the seven-pit layout a7 … a1 Ka b7 … b1 Kb,
/// then the side to move (0 = lower), as the six-pit program's `bd`.
pub const BOARD_SYMBOL: &str = "bd";
/// The deepest search the program completed for its last move (`--symbols`, progress report).
pub const DEPTH_SYMBOL: &str = "dc";

/// Sense switch 1 (`szs 10` in roms/kalah7.mac), the operator's "move now": up while the
/// machine thinks, the program plays the move of the deepest search it has completed.
pub const SS1_MOVE_NOW: u8 = 0o40;

/// The agent's own limit for a whole match's thinking: a quarter of the engine's hour.
pub const MATCH_LIMIT: Duration = Duration::from_secs(900);

/// Moves the clock keeps time for when the limit comes near: a move may take at most the time
/// left of [`MATCH_LIMIT`] divided by this.
const RESERVE_MOVES: u32 = 40;

/// The host time one move may take at most ([`Clock::cap`]): 60 answers (more than any match
/// measured has) at 10 s are 600 s, two thirds of [`MATCH_LIMIT`].
pub const MOVE_CAP: Duration = Duration::from_secs(10);

/// The operator's clock (issue 28): how long the machine may think about each move before the
/// operator raises sense switch 1. The machine's own time (emulated) sets the move's thinking,
/// so that its depth does not fall when the host is busy; the host time (the engine's clock)
/// caps it, so that a match stays inside [`MATCH_LIMIT`] however busy the host is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// PDP-1 time for one move.
    pub machine: Duration,
    /// Host time for one move at most.
    pub cap: Duration,
    /// Host thinking time used so far in the match (the engine's measure).
    pub used: Duration,
}

impl Clock {
    pub fn new(machine: Duration) -> Clock {
        Clock {
            machine,
            cap: MOVE_CAP,
            used: Duration::ZERO,
        }
    }

    /// This move's host time at most: the cap, less when the match has used most of
    /// [`MATCH_LIMIT`].
    pub fn host_budget(&self) -> Duration {
        let left = MATCH_LIMIT.saturating_sub(self.used);
        self.cap.min(left / RESERVE_MOVES)
    }
}

/// When the operator raises sense switch 1: at a PDP-1 time (ns) or a host instant, whichever
/// comes first.
#[derive(Clone, Copy, Debug)]
struct MoveNow {
    machine_ns: u64,
    host: Instant,
}

/// The PDP-1 running the program: keys struck on its typewriter, the typed characters read back.
/// The run controller runs it (the headless runner's slices, its limits and stop rules).
pub struct MachineConsole {
    run: RunControl,
    board_at: Option<u32>,
    /// Emulated time of the last key's work (progress report).
    last_ns: u64,
    /// The operator's clock for the machine's moves (None: the test word's depth alone).
    pub clock: Option<Clock>,
    /// Where the program keeps the deepest search it completed (`dc`, with `--symbols`).
    pub depth_at: Option<u32>,
}

impl MachineConsole {
    /// A machine just after READ IN, in its controller: run it until the program waits for
    /// the first key.
    pub fn start(mut run: RunControl, board_at: Option<u32>) -> Result<MachineConsole> {
        // Nobody at the console: a halt, a breakpoint or an error ends the match.
        run.unattended = true;
        let mut c = MachineConsole {
            run,
            board_at,
            last_ns: 0,
            clock: None,
            depth_at: None,
        };
        let typed = c.settle(0, None)?;
        if !typed.trim().is_empty() {
            eprintln!("pdp1 mankalah: the program typed at the start: {typed:?}");
        }
        Ok(c)
    }

    /// The program on the tape must be the seven-pit one: the six-pit DEC game (roms/kalah.rim)
    /// would answer the engine with pits it does not have (issue 25: `MOVE;7`). Recognised by
    /// the program itself, not by the tape's hash: on a copy of the machine, key 7 is struck
    /// — the seven-pit program plays its pit 7 and types `7` and the punctuation, the six-pit
    /// one has no key 7 and crosses it out (`7`, backspace, `x`: docs/kalah.md). The match's
    /// machine is not touched.
    pub fn check_seven_pits(&self) -> Result<()> {
        let copy = RunControl::new(
            crate::run::RunPlan::default(),
            crate::tape::Feeder::default(),
            crate::keyboard::Typist::default(),
            self.run.machine().clone(),
        );
        let mut probe = MachineConsole {
            run: copy,
            board_at: None,
            last_ns: 0,
            clock: None,
            depth_at: None,
        };
        probe.run.unattended = true;
        let typed = probe.key('7')?;
        if typed.contains('\u{8}') {
            bail!(
                "the program on TAPE has no pit 7 (it crossed out key 7: {:?}); --mankalah plays the \
                 seven-pit program, roms/kalah7.rim, not the six-pit DEC game (roms/kalah.rim)",
                shown(&typed)
            );
        }
        Ok(())
    }

    /// The run is over: its result files (`--trace`, `--punch`, `--save-state`) and dumps.
    pub fn finish(mut self) -> Result<()> {
        crate::files::write_run_files(&mut self.run)?;
        crate::files::print_dumps(&self.run);
        Ok(())
    }

    /// Run until the program has polled the keyboard, with no key pending, for [`SETTLE_NS`]
    /// after `after` ns; return what it typed. At `move_now` (if any) raise sense switch 1.
    fn settle(&mut self, after: u64, move_now: Option<MoveNow>) -> Result<String> {
        let mut text = String::new();
        let began = self.run.machine().time_ns();
        loop {
            let now = self.run.machine().time_ns();
            if move_now.is_some_and(|t| now >= t.machine_ns || Instant::now() >= t.host) {
                let ss = self.run.machine().sense_switches();
                self.run.set_sense_switches(ss | SS1_MOVE_NOW);
            }
            let until = (now / SLICE_NS + 1) * SLICE_NS;
            let a = self.run.advance(until);
            for n in &a.notes {
                eprintln!("pdp1: {n}");
            }
            crate::script::typed_text(&a.typed, &mut text);
            // The program flags are not listened to; keep them from piling up.
            self.run.drain_flags();
            let m = self.run.machine();
            let end = match (a.end, a.stop) {
                (Some(End::TimeLimit), _) => bail!(
                    "the emulated-time limit (--max-seconds) was reached after the program typed {:?}",
                    shown(&text)
                ),
                (Some(end), _) => Some(end),
                (None, Some(Stop::Machine(r))) => Some(End::from_stop(r, m)),
                (None, _) => None,
            };
            if let Some(end) = end {
                bail!(
                    "the machine stopped ({}) after the program typed {:?}",
                    end.describe(),
                    shown(&text)
                );
            }
            if let Some(since) = m.key_wait_since() {
                if !m.key_pending() && since >= after && m.time_ns() - since >= SETTLE_NS {
                    self.last_ns = since.saturating_sub(began);
                    return Ok(text);
                }
            }
            if self.run.plan.max_ns.is_none() && m.time_ns() - began >= ANSWER_LIMIT_NS {
                bail!(
                    "the program did not wait for a key within {} days of emulated time (it typed \
                     {:?}); --max-seconds sets another limit",
                    ANSWER_LIMIT_NS / 86_400_000_000_000,
                    shown(&text)
                );
            }
        }
    }
}

impl Console for MachineConsole {
    fn key(&mut self, c: char) -> Result<String> {
        let code = match c {
            '\r' => pdp1_core::fiodec::CARRIAGE_RETURN,
            c => pdp1_core::fiodec::from_char(c)
                .map(|(code, _)| code)
                .with_context(|| format!("no typewriter key for {c:?}"))?,
        };
        let at = self.run.machine().time_ns();
        // Sense switch 1 down: the machine thinks until its clock (space) or its depth.
        let ss = self.run.machine().sense_switches();
        self.run.set_sense_switches(ss & !SS1_MOVE_NOW);
        let started = Instant::now();
        let move_now = match self.clock {
            Some(clock) if c == ' ' => Some(MoveNow {
                machine_ns: at + u64::try_from(clock.machine.as_nanos()).unwrap_or(u64::MAX),
                host: started + clock.host_budget(),
            }),
            _ => None,
        };
        self.run.strike_code(code);
        let typed = self.settle(at, move_now);
        if let (Some(clock), ' ') = (self.clock.as_mut(), c) {
            clock.used += started.elapsed();
        }
        typed
    }

    fn board(&self) -> Option<([u8; 16], Side)> {
        let at = self.board_at?;
        let word = |i: u32| self.run.machine().read(at + i).map_or(0, |w| w.bits());
        let mut b = Board7::opening(0);
        for (i, c) in b.cells.iter_mut().enumerate() {
            // A count beyond 98 cannot be a board: shown as it is (255) so the comparison fails.
            *c = u8::try_from(word(i as u32)).unwrap_or(u8::MAX);
        }
        b.to_move = if word(16) == 0 { Side::A } else { Side::B };
        let m = Match {
            board: b,
            actions: 0,
            swapped: false,
        };
        Some((m.state_numbers(), b.to_move))
    }

    fn effort(&self) -> String {
        let depth = self
            .depth_at
            .and_then(|a| self.run.machine().read(a).ok())
            .map_or(String::new(), |d| format!(", depth {}", d.bits()));
        format!(
            " ({:.1} s of PDP-1 time{depth})",
            Duration::from_nanos(self.last_ns).as_secs_f64()
        )
    }
}

/// Test-word bit 1: order the moves by Russell's short look ahead (roms/kalah7.mac).
pub const TW_SHORT_LOOK: u32 = 0o200000;

/// The test word for search depth `depth`: bits 14–17, the short look on (the reference
/// engine's `kalah::mankalah::choose` searches the same way), seven seeds (bits 10–13 zero),
/// analysis off (bit 0: its line would follow every machine move).
pub fn test_word(depth: u32) -> Word {
    Word::new(TW_SHORT_LOOK | (depth & 0o17))
}

/// The depth field of the time-managed search (the default): the test word's largest. With
/// [`TW_OPEN_DEPTH`] the program deepens past it until the clock raises sense switch 1.
pub const TIMED_DEPTH: u32 = 15;

/// Test-word bit 3, the open depth (issue 28): the program deepens past the depth field, up to
/// `kalah::mankalah::OPEN_DEPTH` turns, and stops at the first search that is exact (every line
/// ended with the game). In the endgame depth 15 is reached in a fraction of the move's time,
/// and what a 16th turn sees can be worth six seeds (docs/kalah.md, "Depth and time").
pub const TW_OPEN_DEPTH: u32 = 0o040000;

/// Test-word bit 4, the transposition table (issue 28): on a 64K machine (`pdp1` gives the tape
/// 64K, it has `eem`/`lem`) the program keeps the positions it has searched in fields 1–14 and
/// finds the same moves and values in fewer positions — 0.38 as many deepening to depth 10, a
/// third to 11 (docs/kalah.md, "Searching better in the same time").
pub const TW_TABLE: u32 = 0o020000;

/// The test word of the time-managed search, `060017`: [`TIMED_DEPTH`] with the open depth, the
/// transposition table and Russell's static order alone. Deepening to each depth examines
/// 0.37–0.45 as many positions as with the short look (depths 3–9 over 55 positions of
/// reference matches, `cargo run --release -p kalah --example mankalah_effort`), so in the same
/// time it searches about half a depth deeper; the table three quarters of a depth more.
pub fn timed_test_word() -> Word {
    Word::new(TW_OPEN_DEPTH | TW_TABLE | TIMED_DEPTH)
}

/// The default time per move of the time-managed search, PDP-1 time: 24000 s (6 hours 40
/// minutes; it was 6000 s). The emulator runs the program 3000–6000 times as fast as a PDP-1 on
/// one host core, so that is 4–9 s of a core to itself, under [`MOVE_CAP`], and a depth more
/// than 6000 s (a depth costs 3.5–4 times the one before): the middle game completed depth 9–11
/// (median 10, where 6000 s completed 9), and with the transposition table ([`TW_TABLE`]) a
/// median of 11 (`bench_table_depth`). A larger budget buys nothing on a busy host, where the
/// cap already decides (at load 4 it ended every move 48000 s thought about, and 9 in 10 of
/// 24000 s's), and on a quiet one it would hand the choice to the cap, so that a match no longer
/// replays. The host clock ([`Clock::host_budget`]), not this, keeps a match inside
/// [`MATCH_LIMIT`] (docs/kalah.md, "Depth and time").
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(24000);

/// `pdp1 --mankalah TAPE`: play one match on stdin/stdout. Returns true when it ended regularly.
/// What the command line asks of the agent besides the set-up (built by `main`).
#[derive(Debug, Default)]
pub struct Options {
    /// A machine just powered on (no `--load-state`).
    pub fresh: bool,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--move-time`: PDP-1 seconds a move for the time-managed search.
    pub move_time: Option<f64>,
    pub trace: Option<std::path::PathBuf>,
}

pub fn run(m: Machine, plan: crate::run::RunPlan, opts: &Options, setup: &Setup) -> Result<bool> {
    if setup.tape.is_none() && opts.fresh {
        bail!("--mankalah needs the program's TAPE (e.g. roms/kalah7.rim)");
    }
    if setup.typed.is_some() || setup.script.is_some() {
        bail!("--mankalah takes its keys from the engine's messages, not from --type or --script");
    }
    // The tournament default: the time-managed search (deepening to the test word's largest
    // depth, the clock's sense switch 1 after the time per move); --depth N: that depth alone,
    // unless --move-time is given too.
    let depth = opts.depth.unwrap_or(TIMED_DEPTH);
    if !(1..=15).contains(&depth) {
        bail!("--depth {depth}: the test word holds a depth of 1 to 15");
    }
    let move_time = match opts.move_time {
        Some(t) if !(t.is_finite() && t > 0.0 && t <= 1e6) => {
            bail!("--move-time {t}: give PDP-1 seconds above 0, at most 1000000")
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None if opts.depth.is_none() && setup.settings.test_word.is_none() => {
            Some(DEFAULT_MOVE_TIME)
        }
        None => None,
    };
    let mut m = m;
    match setup.settings.test_word {
        None if opts.depth.is_none() => m.set_test_word(timed_test_word()),
        None => m.set_test_word(test_word(depth)),
        Some(_) if opts.depth.is_some() => bail!("give either --depth or --tw, not both"),
        Some(tw) if tw.bits() & 0o400000 != 0 => bail!(
            "--tw {tw}: the analysis line (bit 0) would follow every machine move; leave it off"
        ),
        Some(_) => {}
    }
    let board_at = setup
        .symbols
        .as_ref()
        .and_then(|s| s.value_of(BOARD_SYMBOL));
    if setup.symbols.is_some() && board_at.is_none() {
        bail!("the symbol table has no `{BOARD_SYMBOL}` (the program's board)");
    }
    let mut run = RunControl::for_run(plan, setup, opts.fresh, m);
    if let Some(t) = opts.trace.as_deref().map(crate::files::trace).transpose()? {
        run.trace(t);
    }
    if !setup.settings.breakpoints.is_empty() {
        bail!("the configuration's breakpoints do not go with --mankalah (a breakpoint would stop the program in the middle of the match)");
    }
    let mut console = MachineConsole::start(run, board_at)?;
    if setup.tape.is_some() {
        // (A fresh program: every pit holds seeds, so only a missing pit 7 crosses out key
        // 7. A restored state may have it empty.)
        console.check_seven_pits()?;
    }
    console.clock = move_time.map(Clock::new);
    console.depth_at = setup
        .symbols
        .as_ref()
        .and_then(|s| s.value_of(DEPTH_SYMBOL));
    let mut agent = Agent::new(console);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let regular = serve(&mut agent, stdin.lock(), stdout.lock())?;
    if !regular {
        eprintln!("pdp1 mankalah: the engine ended the match early (END without a final CHANGE)");
    }
    agent.console.finish()?;
    Ok(regular)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the PDP-1 program: it keeps its own board by the reference rules and types
    /// exactly what the contract says; its move for space is the reference engine's at depth 1
    /// (or a scripted one).
    struct FakeProgram {
        game: Match,
        script: Vec<char>,
        /// Lie about the board in memory after this many actions.
        corrupt_memory_at: Option<u32>,
    }

    impl FakeProgram {
        fn new() -> FakeProgram {
            FakeProgram {
                game: Match::default(),
                script: Vec::new(),
                corrupt_memory_at: None,
            }
        }
        fn punct(&self, mover: Side) -> String {
            if self.game.over() {
                let s = self.game.state_numbers();
                let (l, u) = (s[15], s[7]);
                let res = match l.cmp(&u) {
                    std::cmp::Ordering::Greater => format!("lower wins {l}-{u}"),
                    std::cmp::Ordering::Less => format!("upper wins {u}-{l}"),
                    std::cmp::Ordering::Equal => format!("tie {l}-{u}"),
                };
                return format!(",\n{res}\n");
            }
            if self.game.to_move() == mover {
                ".".into()
            } else if mover == Side::A {
                ",".into()
            } else {
                "\n".into()
            }
        }
    }

    impl Console for FakeProgram {
        fn key(&mut self, c: char) -> Result<String> {
            let mover = self.game.to_move();
            let (action, echo) = match c {
                ' ' => {
                    let a = if self.script.is_empty() {
                        kalah::mankalah::choose(&self.game, 1).unwrap()
                    } else {
                        let k = self.script.remove(0);
                        if k == 's' {
                            Action::Swap
                        } else {
                            Action::Move(8 - (k as u8 - b'0'))
                        }
                    };
                    (a, format!("\u{8}{}", key_of(a)))
                }
                's' => (Action::Swap, String::new()),
                d => (Action::Move(8 - (d as u8 - b'0')), String::new()),
            };
            if self.game.play(action).is_err() {
                return Ok(format!("{echo}\u{8}x"));
            }
            if action == Action::Swap {
                return Ok(format!("{echo}."));
            }
            Ok(format!("{echo}{}", self.punct(mover)))
        }
        fn board(&self) -> Option<([u8; 16], Side)> {
            let mut s = self.game.state_numbers();
            if self.corrupt_memory_at == Some(self.game.actions) {
                s[0] += 1;
            }
            Some((s, self.game.to_move()))
        }
    }

    fn change(m: &Match, a: Action, you: Option<bool>) -> String {
        let turn = match you {
            None => Turn::End,
            Some(true) => Turn::You,
            Some(false) => Turn::Opp,
        };
        EngineMsg::Change {
            action: a,
            state: m.state_numbers(),
            turn,
        }
        .line()
    }

    /// A whole match against a scripted opponent that always plays its first legal hole, both
    /// sides, through `serve`, with the engine's message order.
    fn play_match(agent_side: Side, opponent_swaps: bool) -> (String, Match) {
        let mut agent = Agent::new(FakeProgram::new());
        agent.quiet = true;
        let mut engine = Match::default();
        let mut out = Vec::new();
        let mut me = agent_side;
        let start = EngineMsg::Start(agent_side).line();
        let mut answer = match agent.handle(&start).unwrap() {
            Step::Continue(a) => a,
            s => panic!("{s:?}"),
        };
        loop {
            if engine.over() {
                assert!(answer.is_none());
                assert_eq!(agent.handle("END\n").unwrap(), Step::Done { regular: true });
                break;
            }
            let ours = engine.to_move() == me;
            let action = if ours {
                let a = kalah::mankalah::parse_agent(&answer.take().expect("our answer")).unwrap();
                out.push(a);
                a
            } else {
                assert!(answer.is_none(), "answered out of turn");
                if opponent_swaps && engine.can_swap() {
                    Action::Swap
                } else {
                    *engine
                        .legal_actions()
                        .iter()
                        .find(|a| matches!(a, Action::Move(_)))
                        .unwrap()
                }
            };
            engine.play(action).unwrap();
            if action == Action::Swap {
                me = me.other();
                if ours {
                    // The swapper hears nothing; the opponent moves.
                    continue;
                }
                answer = match agent.handle(&change(&engine, action, Some(true))).unwrap() {
                    Step::Continue(a) => a,
                    s => panic!("{s:?}"),
                };
                continue;
            }
            let turn = if engine.over() {
                None
            } else {
                Some(engine.to_move() == me)
            };
            answer = match agent.handle(&change(&engine, action, turn)).unwrap() {
                Step::Continue(a) => a,
                s => panic!("{s:?}"),
            };
        }
        (format!("{out:?}"), engine)
    }

    /// The operator's clock: 10 s of the host a move while the match has time, then a fortieth
    /// of what is left of the quarter hour — so however many moves take their whole budget,
    /// the match's thinking stays inside [`MATCH_LIMIT`].
    #[test]
    fn the_clock_keeps_a_match_inside_a_quarter_hour() {
        let mut c = Clock::new(DEFAULT_MOVE_TIME);
        assert_eq!(c.host_budget(), MOVE_CAP);
        for _ in 0..1000 {
            c.used += c.host_budget();
        }
        assert!(c.used <= MATCH_LIMIT, "{:?}", c.used);
        assert!(c.host_budget() < Duration::from_millis(100));
        c.used = MATCH_LIMIT + Duration::from_secs(1);
        assert_eq!(c.host_budget(), Duration::ZERO);
    }

    #[test]
    fn whole_matches_as_south_and_north_with_and_without_a_swap() {
        for side in [Side::A, Side::B] {
            for swap in [false, true] {
                let (_, m) = play_match(side, swap);
                assert!(m.over());
                assert_eq!(m.swapped, swap && side == Side::A);
            }
        }
    }

    #[test]
    fn the_programs_swap_is_sent_and_the_sides_change() {
        let mut agent = Agent::new(FakeProgram::new());
        agent.quiet = true;
        agent.console.script = vec!['s', '1'];
        assert_eq!(agent.handle("START;North\n").unwrap(), Step::Continue(None));
        let mut engine = Match::default();
        engine.play(Action::Move(1)).unwrap();
        let step = agent.handle(&change(&engine, Action::Move(1), Some(true)));
        assert_eq!(step.unwrap(), Step::Continue(Some("SWAP\n".into())));
        engine.play(Action::Swap).unwrap();
        // Now South: the opponent (North) moves hole 2 and it is ours.
        engine.play(Action::Move(2)).unwrap();
        assert_eq!(engine.to_move(), Side::A);
        let step = agent.handle(&change(&engine, Action::Move(2), Some(true)));
        assert_eq!(step.unwrap(), Step::Continue(Some("MOVE;7\n".into())));
    }

    fn after_first_move(agent: &mut Agent<FakeProgram>) -> Match {
        agent.quiet = true;
        agent.handle("START;North\n").unwrap();
        let mut engine = Match::default();
        engine.play(Action::Move(3)).unwrap();
        engine
    }

    #[test]
    fn a_board_that_differs_is_an_error_not_a_move() {
        let mut agent = Agent::new(FakeProgram::new());
        let engine = after_first_move(&mut agent);
        let mut state = engine.state_numbers();
        state[0] -= 1;
        state[1] += 1;
        let line = EngineMsg::Change {
            action: Action::Move(3),
            state,
            turn: Turn::You,
        }
        .line();
        let e = agent.handle(&line).unwrap_err().to_string();
        assert!(e.contains("the engine's board"), "{e}");
    }

    #[test]
    fn a_program_board_that_differs_is_an_error() {
        let mut agent = Agent::new(FakeProgram::new());
        agent.console.corrupt_memory_at = Some(1);
        let engine = after_first_move(&mut agent);
        let e = agent
            .handle(&change(&engine, Action::Move(3), Some(true)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("in memory"), "{e}");
    }

    #[test]
    fn a_wrong_turn_is_an_error() {
        let mut agent = Agent::new(FakeProgram::new());
        let engine = after_first_move(&mut agent);
        let e = agent
            .handle(&change(&engine, Action::Move(3), Some(false)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("says Opp"), "{e}");
    }

    #[test]
    fn a_crossed_out_key_is_an_error() {
        let mut agent = Agent::new(FakeProgram::new());
        let engine = after_first_move(&mut agent);
        // The program's South hole 3 (pit 5, index 2 in a7 … a1) is empty: it refuses the key.
        agent.console.game.board.cells[2] = 0;
        let e = agent
            .handle(&change(&engine, Action::Move(3), Some(true)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("crossed out"), "{e}");
    }

    #[test]
    fn an_illegal_choice_by_the_program_is_never_sent() {
        let mut agent = Agent::new(FakeProgram::new());
        agent.quiet = true;
        // The program moves pit 7 (hole 1), which our record has empty.
        agent.console.script = vec!['7'];
        agent.game.board.cells[0] = 0;
        let e = agent.handle("START;South\n").unwrap_err();
        assert!(format!("{e:#}").contains("do not allow"), "{e:#}");
    }

    #[test]
    fn protocol_errors_and_ends() {
        let mut agent = Agent::new(FakeProgram::new());
        agent.quiet = true;
        assert!(agent
            .handle("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\n")
            .is_err());
        assert!(agent.handle("MOVE;1\n").is_err());
        agent.handle("START;North\n").unwrap();
        assert!(agent.handle("START;North\n").is_err());
        // An aborted match: END with no final CHANGE.
        assert_eq!(
            agent.handle("END\n").unwrap(),
            Step::Done { regular: false }
        );
        // End of input before END.
        let mut agent = Agent::new(FakeProgram::new());
        agent.quiet = true;
        let mut out = Vec::new();
        let e = serve(&mut agent, &b"START;South\n"[..], &mut out).unwrap_err();
        assert!(e.to_string().contains("before END"), "{e}");
        let sent = String::from_utf8(out).unwrap();
        assert!(
            sent.starts_with("MOVE;") && sent.ends_with('\n'),
            "{sent:?}"
        );
    }
}
