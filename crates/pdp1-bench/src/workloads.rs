//! The CPU-bound programs the benchmark runs (octal words; each loops forever).

pub struct Workload {
    pub name: &'static str,
    /// Type 10 multiply/divide installed.
    pub mdv: bool,
    pub start: u32,
    pub words: &'static [(u32, u32)],
}

/// A mix of the common instructions: loads, stores, add/sub, a rotate, xor, an indirect
/// load, and an `isp` counter loop.
const MIX: Workload = Workload {
    name: "mix",
    mdv: false,
    start: 0o100,
    words: &[
        (0o100, 0o200200), // lac 200
        (0o101, 0o400201), // add 201
        (0o102, 0o240200), // dac 200
        (0o103, 0o220200), // lio 200
        (0o104, 0o663007), // rcl 3s
        (0o105, 0o060202), // xor 202
        (0o106, 0o240202), // dac 202
        (0o107, 0o460203), // isp 203
        (0o110, 0o600100), // jmp 100
        (0o111, 0o717777), // law i 7777
        (0o112, 0o240203), // dac 203
        (0o113, 0o210204), // lac i 204
        (0o114, 0o420201), // sub 201
        (0o115, 0o240205), // dac 205
        (0o116, 0o600100), // jmp 100
        (0o201, 0o000001),
        (0o203, 0o777000),
        (0o204, 0o000200),
    ],
};

/// Type 10 multiply and divide in a loop (with `mdv`).
const MULDIV: Workload = Workload {
    name: "muldiv",
    mdv: true,
    start: 0o100,
    words: &[
        (0o100, 0o200200), // lac 200
        (0o101, 0o540201), // mul 201
        (0o102, 0o560202), // div 202
        (0o103, 0o760000), // nop (divide overflow lands here)
        (0o104, 0o440200), // idx 200
        (0o105, 0o020205), // and 205
        (0o106, 0o240200), // dac 200
        (0o107, 0o600100), // jmp 100
        (0o200, 0o000005),
        (0o201, 0o000003),
        (0o202, 0o000007),
        (0o205, 0o000777),
    ],
};

/// Shifts, skips and operate instructions: the one-cycle group.
const SHIFTS: Workload = Workload {
    name: "shifts",
    mdv: false,
    start: 0o100,
    words: &[
        // READ IN leaves the last tape word in IO and SIMH's `load` does not touch it, so
        // start from a clean IO: cli clc (the loop returns to 101).
        (0o100, 0o765200), // cli clc
        (0o101, 0o665777), // sal 9s
        (0o102, 0o671003), // rar 2s
        (0o103, 0o640200), // spa
        (0o104, 0o761000), // cma
        (0o105, 0o673777), // rcr 9s
        (0o106, 0o650100), // sza i
        (0o107, 0o700001), // law 1
        (0o110, 0o764000), // cli
        (0o111, 0o600101), // jmp 101
    ],
};

pub const ALL: &[&Workload] = &[&MIX, &MULDIV, &SHIFTS];

/// The program as a RIM tape (`dio A` / word pairs, then `jmp start`).
pub fn rim_tape(w: &Workload) -> Vec<u8> {
    let image = pdp1_asm::tape::Image {
        words: w
            .words
            .iter()
            .map(|&(a, v)| (a, pdp1_core::Word::new(v)))
            .collect(),
        start: Some(w.start),
    };
    pdp1_asm::tape::write_rim(&image)
}
