//! Development aid for comparing with SIMH: reads "octal-addr octal-word" lines from stdin
//! (plus "ac N", "io N", "pc N", "n N", "mdv"), runs N instructions, prints state.
use pdp1_core::{Limit, Machine, MachineConfig, Word};
use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut cfg = MachineConfig {
        indirect_limit: 16,
        ..Default::default()
    };
    if s.contains("mdv") {
        cfg.mul_div = true;
    }
    let mut m = Machine::new(cfg).unwrap();
    let (mut n, mut pc) = (0u64, 0u32);
    for l in s.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        match f.as_slice() {
            ["ac", v] => m.set_ac(Word::new(u32::from_str_radix(v, 8).unwrap())),
            ["io", v] => m.set_io(Word::new(u32::from_str_radix(v, 8).unwrap())),
            ["pc", v] => pc = u32::from_str_radix(v, 8).unwrap(),
            ["n", v] => n = v.parse().unwrap(),
            [a, v] => m
                .write(
                    u32::from_str_radix(a, 8).unwrap(),
                    Word::new(u32::from_str_radix(v, 8).unwrap()),
                )
                .unwrap(),
            _ => {}
        }
    }
    m.set_pc(pc);
    m.cont();
    let r = m.run_until(Limit {
        until_ns: None,
        instructions: Some(n),
    });
    println!("stop {r:?}");
    println!(
        "ac {:06o} io {:06o} ov {} pc {:06o} pf {:02o}",
        m.ac().bits(),
        m.io().bits(),
        m.ov() as u8,
        m.pc(),
        m.pf()
    );
    for (a, w) in m.memory().iter().enumerate() {
        if w.bits() != 0 {
            println!("{a:04o} {:06o}", w.bits());
        }
    }
}
