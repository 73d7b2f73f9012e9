//! Development aid: read in a tape then trace N instructions.
use pdp1_core::{Limit, Machine, MachineConfig};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut m = Machine::new(MachineConfig::default()).unwrap();
    m.mount_tape(std::fs::read(&args[1]).unwrap());
    m.read_in();
    while m.reading_in() {
        m.run_until(Limit {
            until_ns: Some(m.time_ns() + 1_000_000),
            instructions: None,
        });
    }
    let n: usize = args[2].parse().unwrap();
    for _ in 0..n {
        let pc = m.pc();
        let w = m.read(pc).unwrap();
        let r = m.step_instruction();
        println!(
            "{pc:06o} {w} ac={} io={} pf={:02o} t={} {r:?} running={}",
            m.ac(),
            m.io(),
            m.pf(),
            m.time_ns(),
            m.running()
        );
    }
}
