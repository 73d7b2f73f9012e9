//! The 7×7 examples' random actions (`mankalah_effort`, `mankalah_eval`): the first two actions
//! of their matches, so that matches between searches that play alike differ.
use kalah::mankalah::{Action, Match};

/// One of `m`'s legal actions, chosen by the linear congruential generator `seed` (advanced).
pub fn random_action(m: &Match, seed: &mut u64) -> Action {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let acts = m.legal_actions();
    acts[(*seed >> 33) as usize % acts.len()]
}
