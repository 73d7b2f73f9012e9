//! A ManKalah agent process for the engine harness (`pdp1_tests::mankalah`) and for the real
//! engine: the Rust reference engine (`kalah::mankalah::choose`) or a random player.
//!
//! ```text
//! mankalah_agent --agent random|reference [--depth N] [--seed S] [--swap auto|always|never]
//!                [--random-plies K]
//! ```
//!
//! `--random-plies K`: the reference's first K actions are random (from `--seed`), so that
//! matches between deterministic players differ (the strength benchmark).
//!
//! `--swap` decides the pie rule's swap when the agent is North at its first turn: `auto` the
//! agent's own choice (the reference's rule; the random player picks among all its actions),
//! `always` or `never`. It checks every state the engine sends against its own record and exits
//! 1 on any difference or malformed message; 0 after `END`.

use kalah::mankalah::{agent_line, choose, Action, EngineMsg, Match, Turn};
use kalah::Side;
use pdp1_tests::prng::Rng;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Random,
    Reference,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SwapRule {
    Auto,
    Always,
    Never,
}

struct Agent {
    kind: Kind,
    depth: u32,
    swap: SwapRule,
    rng: Rng,
    game: Match,
    me: Side,
    /// Own actions still to be chosen at random.
    random_plies: u32,
    /// We sent a move: the next CHANGE reports it.
    echo: bool,
}

impl Agent {
    fn act(&mut self) -> Action {
        if self.game.can_swap() {
            match self.swap {
                SwapRule::Always => return Action::Swap,
                SwapRule::Never | SwapRule::Auto => {}
            }
        }
        let mut actions = self.game.legal_actions();
        if self.swap == SwapRule::Never {
            actions.retain(|a| *a != Action::Swap);
        }
        if self.random_plies > 0 {
            self.random_plies -= 1;
            return self.rng.pick(&actions);
        }
        match self.kind {
            Kind::Random => self.rng.pick(&actions),
            Kind::Reference => {
                let a = choose(&self.game, self.depth).expect("a move");
                if a == Action::Swap && self.swap == SwapRule::Never {
                    let mut g = self.game.clone();
                    // Not swapping: the best move as North (the search without the swap).
                    g.actions = 2;
                    choose(&g, self.depth).expect("a move")
                } else {
                    a
                }
            }
        }
    }

    /// Handle one message; `Ok(Some(answer))` to send, `Err` on a protocol error, `Ok(None)`.
    fn handle(&mut self, line: &str) -> Result<Option<Action>, String> {
        let msg = EngineMsg::parse(line).map_err(|e| e.to_string())?;
        match msg {
            EngineMsg::Start(side) => {
                self.me = side;
                Ok((side == Side::A).then(|| self.act()))
            }
            EngineMsg::End => Ok(None),
            EngineMsg::Change {
                action,
                state,
                turn,
            } => {
                // Our own move was recorded when we sent it; the engine echoes it.
                if !std::mem::take(&mut self.echo) {
                    self.game.play(action).map_err(|e| e.to_string())?;
                    if action == Action::Swap {
                        self.me = self.me.other();
                    }
                }
                if self.game.state_numbers() != state {
                    return Err(format!("the engine's state differs from ours: {line:?}"));
                }
                let mine = !self.game.over() && self.game.to_move() == self.me;
                match (turn, mine) {
                    (Turn::You, true) => Ok(Some(self.act())),
                    (Turn::Opp, false) | (Turn::End, false) => Ok(None),
                    _ => Err(format!("the turn in {line:?} is not ours to judge so")),
                }
            }
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut kind = None;
    let mut depth = 4;
    let mut seed = 1;
    let mut swap = SwapRule::Auto;
    let mut random_plies = 0;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = it.next();
        let ok = match (a.as_str(), v.map(String::as_str)) {
            ("--agent", Some("random")) => {
                kind = Some(Kind::Random);
                true
            }
            ("--agent", Some("reference")) => {
                kind = Some(Kind::Reference);
                true
            }
            ("--depth", Some(n)) => n.parse().map(|n| depth = n).is_ok(),
            ("--seed", Some(n)) => n.parse().map(|n| seed = n).is_ok(),
            ("--random-plies", Some(n)) => n.parse().map(|n| random_plies = n).is_ok(),
            ("--swap", Some("auto")) => true,
            ("--swap", Some("always")) => {
                swap = SwapRule::Always;
                true
            }
            ("--swap", Some("never")) => {
                swap = SwapRule::Never;
                true
            }
            _ => false,
        };
        if !ok {
            eprintln!(
                "usage: mankalah_agent --agent random|reference [--depth N] [--seed S] \
                 [--swap auto|always|never] [--random-plies K]"
            );
            return ExitCode::from(2);
        }
    }
    let Some(kind) = kind else {
        eprintln!("mankalah_agent: --agent random|reference is required");
        return ExitCode::from(2);
    };
    let mut agent = Agent {
        kind,
        depth,
        swap,
        rng: Rng::new(seed),
        game: Match::default(),
        me: Side::A,
        random_plies,
        echo: false,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line == "END" {
            return ExitCode::SUCCESS;
        }
        match agent.handle(&line) {
            Ok(Some(a)) => {
                // Record our action before the engine echoes it (a swap is never echoed).
                if let Err(e) = agent.game.play(a) {
                    eprintln!("mankalah_agent: chose an illegal action {a:?}: {e}");
                    return ExitCode::from(1);
                }
                if a == Action::Swap {
                    agent.me = agent.me.other();
                } else {
                    agent.echo = true;
                }
                if out
                    .write_all(agent_line(a).as_bytes())
                    .and_then(|_| out.flush())
                    .is_err()
                {
                    return ExitCode::from(1);
                }
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("mankalah_agent: {e}");
                return ExitCode::from(1);
            }
        }
    }
    eprintln!("mankalah_agent: stdin closed before END");
    ExitCode::from(1)
}
