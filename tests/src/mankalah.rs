//! The engine side of the ManKalah protocol, for testing agents (issue 14): it spawns two agent
//! processes and plays a whole match between them as the Manchester engine does, written here
//! from `../shared/reference/kalah.md` §4 (the grammar, the message order, the swap, the
//! timeouts), and checks everything an agent says.
//!
//! As in the engine:
//! * the first agent is South, the second North; North gets `START;North` first, then South
//!   `START;South`;
//! * after a move the player who is *not* to move next gets the `CHANGE` first (with `OPP`, or
//!   `END`), then the one to move (`YOU`, or `END`); South's first move never earns an extra
//!   turn;
//! * `SWAP` is accepted only as the match's second message; the players exchange sides, the
//!   board stays, the original starter (now North) moves next and gets `CHANGE;SWAP;…;YOU`; the
//!   swapper gets no message;
//! * at the end of the game the seeds left on the board go to the store of the side that holds
//!   them, then both agents get `END`;
//! * every agent has one cumulative budget of response time (the engine's hour), counted from
//!   the message that gives it the turn to its answer;
//! * a timeout, an illegal move, a malformed message or a lost connection ends the match: the
//!   other agent wins, and the agents get only `END`.
//!
//! Stricter than the engine, because this is a test: an answer must be exactly `MOVE;<1–7>\n`
//! or `SWAP\n` (the engine takes any integer after `MOVE;`), and an agent that writes when it
//! is not its turn breaks the protocol.
//!
//! The rules are played twice: by [`Sowing`], a plain implementation in the protocol's own
//! terms (sides, holes 1–7 from the far end, stores) written here, and by the reference
//! `kalah::mankalah::Match`; the two boards must agree after every move.

use kalah::mankalah::{Action, EngineMsg, Match, Turn};
use kalah::Side;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The engine's budget: one hour of response time per agent and match.
pub const HOUR: Duration = Duration::from_secs(3600);

/// How to start an agent.
#[derive(Clone, Debug)]
pub struct AgentCmd {
    pub program: PathBuf,
    pub args: Vec<String>,
}

impl AgentCmd {
    pub fn new(program: impl Into<PathBuf>, args: &[&str]) -> AgentCmd {
        AgentCmd {
            program: program.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
        }
    }
    pub fn describe(&self) -> String {
        format!("{} {}", self.program.display(), self.args.join(" "))
    }
}

/// The board as the engine keeps it: per side, holes 1–7 (hole 1 furthest from the side's
/// store) and the store. Sowing goes hole 1 → 7 → own store → the other side's hole 1 …,
/// skipping the other side's store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sowing {
    /// `holes[side][h - 1]`, side 0 = North, 1 = South (the state's order).
    pub holes: [[u8; 7]; 2],
    pub store: [u8; 2],
}

/// Index of a side in [`Sowing`].
fn ix(s: Side) -> usize {
    match s {
        Side::B => 0,
        Side::A => 1,
    }
}

impl Sowing {
    pub fn opening() -> Sowing {
        Sowing {
            holes: [[7; 7]; 2],
            store: [0; 2],
        }
    }

    fn side_empty(&self, s: usize) -> bool {
        self.holes[s].iter().all(|&n| n == 0)
    }

    pub fn over(&self) -> bool {
        self.side_empty(0) || self.side_empty(1)
    }

    /// Sow `side`'s hole `h`. Returns whether the last seed fell in the mover's store, or
    /// `None` if the move is illegal.
    pub fn sow(&mut self, side: Side, h: u8) -> Option<bool> {
        let me = ix(side);
        if !(1..=7).contains(&h) || self.holes[me][h as usize - 1] == 0 || self.over() {
            return None;
        }
        let mut seeds = self.holes[me][h as usize - 1];
        self.holes[me][h as usize - 1] = 0;
        // Position: (side, hole) with hole 8 meaning the store.
        let (mut s, mut pos) = (me, h);
        while seeds > 0 {
            pos += 1;
            if pos == 8 && s != me {
                // The other side's store is skipped.
                pos = 1;
                s = me;
            } else if pos == 9 {
                pos = 1;
                s = 1 - s;
            }
            if pos == 8 {
                self.store[me] += 1;
            } else {
                self.holes[s][pos as usize - 1] += 1;
            }
            seeds -= 1;
        }
        let in_store = pos == 8;
        // Capture: the last seed in an empty hole of the mover's, opposite a non-empty hole
        // (hole h faces the other side's hole 8 − h).
        if !in_store && s == me && self.holes[me][pos as usize - 1] == 1 {
            let opp = 7 - pos as usize;
            if self.holes[1 - me][opp] > 0 {
                self.store[me] += 1 + self.holes[1 - me][opp];
                self.holes[me][pos as usize - 1] = 0;
                self.holes[1 - me][opp] = 0;
            }
        }
        if self.over() {
            for s in 0..2 {
                let left: u8 = self.holes[s].iter().sum();
                self.store[s] += left;
                self.holes[s] = [0; 7];
            }
        }
        Some(in_store)
    }

    /// The protocol's state numbers.
    pub fn state(&self) -> [u8; 16] {
        let mut out = [0; 16];
        for s in 0..2 {
            out[s * 8..s * 8 + 7].copy_from_slice(&self.holes[s]);
            out[s * 8 + 7] = self.store[s];
        }
        out
    }
}

/// One agent process: its stdin, a thread reading its stdout lines, its stderr collected.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Proc {
    fn spawn(cmd: &AgentCmd) -> std::io::Result<Proc> {
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (tx, rx) = channel();
        let out = child.stdout.take().expect("piped");
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            loop {
                let mut line = String::new();
                match r.read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        if tx.send(Some(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let err = child.stderr.take().expect("piped");
        let sink = stderr.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { return };
                let mut s = sink.lock().unwrap();
                s.push_str(&line);
                s.push('\n');
            }
        });
        Ok(Proc {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
        })
    }

    fn send(&mut self, msg: &str) -> std::io::Result<()> {
        let w = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("stdin closed"))?;
        w.write_all(msg.as_bytes())?;
        w.flush()
    }
}

/// Why a match was aborted, and by whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abort {
    /// 0 = the first agent (who started as South), 1 = the second.
    pub agent: usize,
    pub why: String,
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The final state (the protocol's 16 numbers).
    pub state: [u8; 16],
    /// Whether North's player swapped.
    pub swapped: bool,
    /// The agent (0 = first, 1 = second) playing South at the end.
    pub south: usize,
    /// Store difference from the first agent's view: positive when it won. For an aborted
    /// match, ±1 for the non-aborting agent.
    pub score: i32,
    pub aborted: Option<Abort>,
    /// Each agent's total response time and number of answers.
    pub response: [Duration; 2],
    pub answers: [u32; 2],
    /// Every message, `>0 ` engine to agent 0, `<1 ` agent 1 to engine, …
    pub transcript: Vec<String>,
    /// What each agent wrote to stderr.
    pub stderr: [String; 2],
    /// Each agent's exit status after the match (`None`: killed after not exiting).
    pub exit: [Option<i32>; 2],
    /// Each agent process's CPU time at the end of the match (Linux), whatever the load.
    pub cpu: [Option<Duration>; 2],
}

impl Outcome {
    /// The first agent's result: 1 won, 0 drew, −1 lost.
    pub fn result(&self) -> i32 {
        self.score.signum()
    }
    /// A report for a failed assertion: the abort, the transcript's tail and both stderrs.
    pub fn report(&self) -> String {
        let tail: Vec<&String> = self.transcript.iter().rev().take(12).rev().collect();
        format!(
            "aborted: {:?}\nlast messages:\n{}\nagent 0 stderr:\n{}\nagent 1 stderr:\n{}",
            self.aborted,
            tail.iter()
                .map(|s| s.trim_end().to_owned())
                .collect::<Vec<_>>()
                .join("\n"),
            tail_lines(&self.stderr[0], 20),
            tail_lines(&self.stderr[1], 20)
        )
    }
}

fn tail_lines(s: &str, n: usize) -> String {
    let v: Vec<&str> = s.lines().collect();
    v[v.len().saturating_sub(n)..].join("\n")
}

/// An answer as this harness requires it: exactly `MOVE;<1–7>\n` or `SWAP\n`.
pub fn read_answer(line: &str) -> Result<Action, String> {
    if line == "SWAP\n" {
        return Ok(Action::Swap);
    }
    let Some(rest) = line.strip_prefix("MOVE;") else {
        return Err(format!("not MOVE;<n> or SWAP: {line:?}"));
    };
    let Some(n) = rest.strip_suffix('\n') else {
        return Err(format!("not newline-terminated: {line:?}"));
    };
    match n.as_bytes() {
        [d @ b'1'..=b'7'] => Ok(Action::Move(d - b'0')),
        _ => Err(format!("the move is not a hole 1–7: {line:?}")),
    }
}

/// Play one match: `agents[0]` starts as South. `budget` is each agent's cumulative response
/// time (the engine's hour; tests give less).
pub fn play(agents: [&AgentCmd; 2], budget: Duration) -> std::io::Result<Outcome> {
    let mut procs = [Proc::spawn(agents[0])?, Proc::spawn(agents[1])?];
    let mut transcript = Vec::new();
    let mut reference = Match::default();
    let mut board = Sowing::opening();
    // side_of[agent]
    let mut side_of = [Side::A, Side::B];
    let mut response = [Duration::ZERO; 2];
    let mut answers = [0u32; 2];
    let mut aborted: Option<Abort> = None;
    // A lost connection: END goes to the other agent only.
    let mut broken: Option<usize> = None;

    let send = |procs: &mut [Proc; 2], t: &mut Vec<String>, a: usize, msg: &str| {
        t.push(format!(">{a} {msg}"));
        procs[a].send(msg)
    };

    'game: {
        for a in [1, 0] {
            let msg = EngineMsg::Start(side_of[a]).line();
            if send(&mut procs, &mut transcript, a, &msg).is_err() {
                aborted = Some(Abort {
                    agent: a,
                    why: "could not send START".into(),
                });
                broken = Some(a);
                break 'game;
            }
        }
        let mut active = 0usize;
        let mut given = Instant::now();
        let mut count = 0u32;
        while !reference.over() {
            count += 1;
            let left = budget.saturating_sub(response[active]);
            let got = procs[active].lines.recv_timeout(left);
            let took = given.elapsed();
            response[active] += took;
            answers[active] += 1;
            let line = match got {
                Ok(Some(l)) => l,
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    aborted = Some(Abort {
                        agent: active,
                        why: "closed its stdout (exited?)".into(),
                    });
                    broken = Some(active);
                    break 'game;
                }
                Err(RecvTimeoutError::Timeout) => {
                    aborted = Some(Abort {
                        agent: active,
                        why: format!("timed out (budget {budget:?})"),
                    });
                    break 'game;
                }
            };
            transcript.push(format!("<{active} {line}"));
            // An answer from the agent that is not to move breaks the protocol too.
            let other = 1 - active;
            if let Ok(Some(l)) = procs[other].lines.try_recv() {
                transcript.push(format!("<{other} {l}"));
                aborted = Some(Abort {
                    agent: other,
                    why: format!("wrote out of turn: {l:?}"),
                });
                break 'game;
            }
            let action = match read_answer(&line) {
                Ok(a) => a,
                Err(why) => {
                    aborted = Some(Abort { agent: active, why });
                    break 'game;
                }
            };
            if action == Action::Swap {
                if count != 2 {
                    aborted = Some(Abort {
                        agent: active,
                        why: format!("SWAP as message {count} (only the second may swap)"),
                    });
                    break 'game;
                }
                reference
                    .play(Action::Swap)
                    .expect("the second action may swap");
                side_of.swap(0, 1);
                // The original starter, now North, moves next and hears of the swap.
                active = other;
                let msg = EngineMsg::Change {
                    action: Action::Swap,
                    state: board.state(),
                    turn: Turn::You,
                }
                .line();
                if send(&mut procs, &mut transcript, active, &msg).is_err() {
                    aborted = Some(Abort {
                        agent: active,
                        why: "lost connection".into(),
                    });
                    broken = Some(active);
                    break 'game;
                }
                given = Instant::now();
                continue;
            }
            let Action::Move(h) = action else {
                unreachable!()
            };
            let mover = side_of[active];
            let Some(in_store) = board.sow(mover, h) else {
                aborted = Some(Abort {
                    agent: active,
                    why: format!("illegal move: hole {h} of {mover:?} in {:?}", board.state()),
                });
                break 'game;
            };
            reference.play(action).unwrap_or_else(|e| {
                panic!("the reference refuses a move the harness allowed: {e} ({board:?})")
            });
            assert_eq!(
                board.state(),
                reference.state_numbers(),
                "the harness's board and the reference's differ after hole {h} of {mover:?}"
            );
            let over = board.over();
            // South's first move never earns an extra turn.
            let again = in_store && count != 1;
            let next = if again { mover } else { mover.other() };
            assert!(over || next == reference.to_move(), "turn differs");
            if side_of[active] != next {
                active = other;
            }
            let waiting = 1 - active;
            for (a, you) in [(waiting, false), (active, true)] {
                let turn = match (over, you) {
                    (true, _) => Turn::End,
                    (false, true) => Turn::You,
                    (false, false) => Turn::Opp,
                };
                let msg = EngineMsg::Change {
                    action,
                    state: board.state(),
                    turn,
                }
                .line();
                if send(&mut procs, &mut transcript, a, &msg).is_err() {
                    aborted = Some(Abort {
                        agent: a,
                        why: "lost connection".into(),
                    });
                    broken = Some(a);
                    break 'game;
                }
            }
            given = Instant::now();
        }
    }
    // CPU time before END (the agents may exit on it): the host's load does not count in it.
    let cpu = [cpu_time(&procs[0].child), cpu_time(&procs[1].child)];
    for a in [0, 1] {
        if broken != Some(a) {
            let _ = send(&mut procs, &mut transcript, a, "END\n");
        }
    }
    let state = board.state();
    let south = if side_of[0] == Side::A { 0 } else { 1 };
    let score = match &aborted {
        Some(ab) => {
            if ab.agent == 0 {
                -1
            } else {
                1
            }
        }
        None => {
            let (s, n) = (state[15] as i32, state[7] as i32);
            if south == 0 {
                s - n
            } else {
                n - s
            }
        }
    };
    // The agents should leave on END; give them a moment, then stop them.
    let mut exit = [None, None];
    for (a, p) in procs.iter_mut().enumerate() {
        drop(p.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match p.child.try_wait() {
                Ok(Some(st)) => {
                    exit[a] = st.code();
                    break;
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => {
                    let _ = p.child.kill();
                    let _ = p.child.wait();
                    break;
                }
            }
        }
    }
    // Let the stderr threads finish reading.
    std::thread::sleep(Duration::from_millis(20));
    let stderr = [
        procs[0].stderr.lock().unwrap().clone(),
        procs[1].stderr.lock().unwrap().clone(),
    ];
    Ok(Outcome {
        state,
        swapped: reference.swapped,
        south,
        score,
        aborted,
        response,
        answers,
        transcript,
        stderr,
        exit,
        cpu,
    })
}

/// The CPU time (user + system) a running child has used, from `/proc/PID/stat` (Linux; `None`
/// elsewhere or when it has exited).
fn cpu_time(child: &Child) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", child.id())).ok()?;
    // Fields after the command name in parentheses; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // The kernel's USER_HZ is 100 on every Linux the project builds on.
    Some(Duration::from_millis(ticks * 10))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The harness's own sowing agrees with the reference rules on random games, and shows
    /// the engine's recorded messages (kalah.md §4).
    #[test]
    fn sowing_agrees_with_the_reference() {
        let mut b = Sowing::opening();
        b.sow(Side::A, 1).unwrap();
        let st: Vec<String> = b.state().iter().map(u8::to_string).collect();
        assert_eq!(st.join(","), "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1");
        b.sow(Side::B, 2).unwrap();
        b.sow(Side::A, 1).unwrap();
        let st: Vec<String> = b.state().iter().map(u8::to_string).collect();
        assert_eq!(st.join(","), "7,0,8,8,8,8,8,1,0,9,8,8,8,8,8,1");
        let mut rng = crate::prng::Rng::new(14);
        for _ in 0..300 {
            let mut m = Match::default();
            let mut b = Sowing::opening();
            while !m.over() {
                let moves: Vec<Action> = m
                    .legal_actions()
                    .into_iter()
                    .filter(|a| *a != Action::Swap)
                    .collect();
                let a = rng.pick(&moves);
                let Action::Move(h) = a else { unreachable!() };
                let side = m.to_move();
                let first = m.actions == 0;
                let again = b.sow(side, h).unwrap();
                m.play(a).unwrap();
                assert_eq!(b.state(), m.state_numbers());
                if !m.over() {
                    let next = if again && !first { side } else { side.other() };
                    assert_eq!(next, m.to_move());
                }
            }
            assert!(b.over());
            assert_eq!(b.store[0] as u32 + b.store[1] as u32, 98);
        }
    }

    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(read_answer("MOVE;7\n"), Ok(Action::Move(7)));
        assert_eq!(read_answer("SWAP\n"), Ok(Action::Swap));
        for bad in [
            "MOVE;8\n",
            "MOVE;0\n",
            "MOVE;07\n",
            "MOVE;1",
            "SWAP",
            "move;1\n",
        ] {
            assert!(read_answer(bad).is_err(), "{bad:?}");
        }
    }
}
