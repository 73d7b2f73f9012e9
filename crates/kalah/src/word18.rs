//! The PDP-1's 18-bit word operations that the reference's hashes imitate, in one place: the
//! programs compute their keys with these instructions (Bell's memory's `zhs` and `zsp` with
//! `ral`, the 7×7 table's key with `add` and `rcl`), and the reference must produce the same
//! bits to put an entry where the program does.
//!
//! Deliberately not `pdp1_core::arith`: the reference is the oracle for the emulator's
//! programs, so it shares no code with the machine it checks (the handbook's rules, written
//! again; pdp1-hardware.md §1.3).

/// The word's 18 bits.
pub const MASK: u32 = 0o777_777;

/// `ral n`: an 18-bit rotate left by `n` (1–17) places.
pub fn rotl(v: u32, n: u32) -> u32 {
    ((v << n) | (v >> (18 - n))) & MASK
}

/// `add`: 18-bit one's complement with end-around carry, and −0 (777777) made +0, as the
/// PDP-1's adder leaves it.
pub fn add(a: u32, b: u32) -> u32 {
    let r = a + b;
    let r = if r > MASK { (r + 1) & MASK } else { r };
    if r == MASK {
        0
    } else {
        r
    }
}

/// `rcl n`: AC and IO rotated left together by `n` (1–35) places as one 36-bit word.
pub fn rcl(ac: u32, io: u32, n: u32) -> (u32, u32) {
    let w = (u64::from(ac) << 18) | u64::from(io);
    let w = ((w << n) | (w >> (36 - n))) & ((1 << 36) - 1);
    ((w >> 18) as u32, (w as u32) & MASK)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The handbook's cases: end-around carry, −0 cleaned up; rotations keep every bit.
    #[test]
    fn as_the_handbook_says() {
        assert_eq!(add(0o777_776, 1), 0, "−1 + 1 is +0, not −0");
        assert_eq!(add(0o777_777, 0o777_777), 0, "(−0) + (−0) = +0");
        assert_eq!(
            add(0o400_000, 0o400_000),
            1,
            "the carry out of bit 0 comes back in at 17"
        );
        assert_eq!(add(0o000_005, 0o000_003), 0o10);
        assert_eq!(rotl(0o400_001, 1), 0o000_003);
        assert_eq!(rotl(0o123_456, 18 - 5), rotl(rotl(0o123_456, 6), 7));
        assert_eq!(rcl(0o400_000, 0o000_001, 1), (0o000_000, 0o000_003));
        assert_eq!(rcl(0o000_001, 0o400_000, 18), (0o400_000, 0o000_001));
    }
}
