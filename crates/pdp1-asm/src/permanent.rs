//! The permanent symbol table: PDP-1C instruction mnemonics and their assembled values with the
//! address part zero. Values from pdp1-hardware.md §2 ([macro1] symbol table, [SIMH-sys], handbook
//! tables quoted in [MAME-cpu]).

/// Name → value. Operate and skip "micro-instructions" each carry their group's base opcode, so
/// combining two of them with a space adds the base twice; MACRO programmers write `sza sma-szf`
/// or use `!` (inclusive or). See docs/assembler.md.
pub const PERMANENT: &[(&str, u32)] = &[
    // Memory reference (§2.2)
    ("and", 0o020000),
    ("ior", 0o040000),
    ("xor", 0o060000),
    ("xct", 0o100000),
    ("cal", 0o160000),
    ("jda", 0o170000),
    ("lac", 0o200000),
    ("lio", 0o220000),
    ("dac", 0o240000),
    ("dap", 0o260000),
    ("dip", 0o300000),
    ("dio", 0o320000),
    ("dzm", 0o340000),
    ("add", 0o400000),
    ("sub", 0o420000),
    ("idx", 0o440000),
    ("isp", 0o460000),
    ("sad", 0o500000),
    ("sas", 0o520000),
    ("mul", 0o540000),
    ("mus", 0o540000),
    ("div", 0o560000),
    ("dis", 0o560000),
    ("jmp", 0o600000),
    ("jsp", 0o620000),
    ("i", 0o010000),
    // Group bases
    ("skp", 0o640000),
    ("law", 0o700000),
    ("iot", 0o720000),
    ("opr", 0o760000),
    ("nop", 0o760000),
    // Shift/rotate (§2.4) and the counts: the count is the number of 1 bits in bits 9–17.
    ("ral", 0o661000),
    ("ril", 0o662000),
    ("rcl", 0o663000),
    ("sal", 0o665000),
    ("sil", 0o666000),
    ("scl", 0o667000),
    ("rar", 0o671000),
    ("rir", 0o672000),
    ("rcr", 0o673000),
    ("sar", 0o675000),
    ("sir", 0o676000),
    ("scr", 0o677000),
    ("1s", 0o000001),
    ("2s", 0o000003),
    ("3s", 0o000007),
    ("4s", 0o000017),
    ("5s", 0o000037),
    ("6s", 0o000077),
    ("7s", 0o000177),
    ("8s", 0o000377),
    ("9s", 0o000777),
    // Skip group (§2.3)
    ("sza", 0o640100),
    ("spa", 0o640200),
    ("sma", 0o640400),
    ("szo", 0o641000),
    ("spi", 0o642000),
    ("szs", 0o640000),
    ("szf", 0o640000),
    // Operate group (§2.6)
    ("clf", 0o760000),
    ("stf", 0o760010),
    ("cla", 0o760200),
    ("hlt", 0o760400),
    ("xx", 0o760400),
    ("cma", 0o761000),
    ("clc", 0o761200),
    ("lat", 0o762200),
    ("cli", 0o764000),
    // IOT group (§2.7.1), as MACRO assembles them (with the wait bit where the handbook uses it)
    ("ioh", 0o730000),
    ("rpa", 0o730001),
    ("rpb", 0o730002),
    ("tyo", 0o730003),
    ("tyi", 0o720004),
    ("ppa", 0o730005),
    ("ppb", 0o730006),
    ("dpy", 0o730007),
    ("rrb", 0o720030),
    ("cks", 0o720033),
    ("lsm", 0o720054),
    ("esm", 0o720055),
    ("cbs", 0o720056),
    ("lem", 0o720074),
    ("eem", 0o724074),
];

/// Value of a permanent symbol.
pub fn lookup(name: &str) -> Option<u32> {
    PERMANENT.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}
