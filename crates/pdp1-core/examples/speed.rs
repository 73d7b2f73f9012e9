//! Development aid: instruction rate of a CPU-bound loop (release build).
use pdp1_core::{Limit, Machine, MachineConfig, Word};
fn main() {
    let mut m = Machine::new(MachineConfig::default()).unwrap();
    // 100: lac 200 / add 201 / dac 200 / isp 202 / jmp 100 / law 7777 / dac 202 / jmp 100
    let prog = [
        0o200200, 0o400201, 0o240200, 0o460202, 0o600100, 0o707777, 0o240202, 0o600100,
    ];
    for (i, w) in prog.iter().enumerate() {
        m.write(0o100 + i as u32, Word::new(*w)).unwrap();
    }
    m.write(0o201, Word::new(1)).unwrap();
    m.set_test_address(0o100);
    m.start(false);
    let n = 200_000_000u64;
    let t = std::time::Instant::now();
    let r = m.run_until(Limit {
        until_ns: None,
        instructions: Some(n),
    });
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{r:?} {:.1} M instr/s, emulated {:.1} s",
        n as f64 / dt / 1e6,
        m.time_ns() as f64 / 1e9
    );
}
