use pdp1_core::{Limit, Machine, MachineConfig, StopReason, Word};

#[test]
fn add_loop_halts() {
    let mut m = Machine::new(MachineConfig::default()).unwrap();
    // 100: lac 200 / add 201 / dac 202 / hlt
    for (a, w) in [
        (0o100, 0o200200),
        (0o101, 0o400201),
        (0o102, 0o240202),
        (0o103, 0o760400),
        (0o200, 3),
        (0o201, 4),
    ] {
        m.write(a, Word::new(w)).unwrap();
    }
    m.set_test_address(0o100);
    m.start(false);
    assert_eq!(m.run_until(Limit::default()), StopReason::Halted);
    assert_eq!(m.read(0o202).unwrap(), Word::new(7));
    assert_eq!(m.pc(), 0o104);
    assert_eq!(m.time_ns(), 35_000);
}
