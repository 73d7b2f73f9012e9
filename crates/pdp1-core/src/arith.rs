//! One's-complement arithmetic of the PDP-1, in one place.
//!
//! Words are 18 bits, bit 0 (`400000`) is the sign, and a negative number is the bitwise
//! complement of its magnitude, so there are two zeros: +0 = `000000` and −0 = `777777`.
//! The rules below are the ones SIMH, MAME and aap's gate-level model agree on
//! (pdp1-hardware.md §1.3, [SIMH-cpu] cases 020–023, [MAME-cpu] ADD/SUB, [aap] cycle 1):
//!
//! * [`add`]: `r = AC + M`; a carry out of bit 0 is added back in at bit 17 (end-around carry);
//!   overflow when both operands have the same sign and the result's sign differs; **then**
//!   −0 becomes +0. So `add` never yields −0.
//! * [`sub`]: complement AC, add M with end-around carry, test overflow on that complemented
//!   form, complement the result. There is **no** −0 clean-up, yet the inner sum is 0 only when
//!   both of its inputs are 0, so `sub` yields −0 only for (−0) − (+0).
//! * [`inc`] (`idx`/`isp`): `r = M + 1`, and a result of −0 or beyond wraps one further, so
//!   −1 + 1 = +0 and −0 + 1 = +1; never −0. Overflow is not affected.
//!
//! Verified on SIMH 3.8-1 ([SIMH-run]): (−0)+(+0)=0, (−0)+(−0)=0, 777776+1=0,
//! (−0)−(+0)=777777, (+0)−(−0)=0, (+0)−(+0)=0, idx 777776 = 0.

use crate::word::Word;

const MASK: u32 = Word::MASK;
const SIGN: u32 = Word::SIGN;

/// 18-bit sum with end-around carry, without the −0 clean-up (the raw adder, also used by
/// `mus`, `dis` and the BLK checksum).
#[inline]
pub const fn add_end_around(a: u32, b: u32) -> u32 {
    let r = a + b;
    if r > MASK {
        (r + 1) & MASK
    } else {
        r
    }
}

/// True when adding `a` and `b` (raw bits) to give `r` overflowed: equal operand signs, a
/// different result sign.
#[inline]
const fn overflowed(a: u32, b: u32, r: u32) -> bool {
    (!(a ^ b) & (a ^ r) & SIGN) != 0
}

/// `add`: returns (AC + M, overflow). Never yields −0.
#[inline]
pub const fn add(ac: Word, m: Word) -> (Word, bool) {
    let (a, b) = (ac.bits(), m.bits());
    let r = add_end_around(a, b);
    let ov = overflowed(a, b, r);
    let r = if r == MASK { 0 } else { r };
    (Word::new(r), ov)
}

/// `sub`: returns (AC − M, overflow). Yields −0 only for (−0) − (+0).
#[inline]
pub const fn sub(ac: Word, m: Word) -> (Word, bool) {
    let a = ac.bits() ^ MASK;
    let b = m.bits();
    let r = add_end_around(a, b);
    let ov = overflowed(a, b, r);
    (Word::new(r ^ MASK), ov)
}

/// `idx`/`isp` increment: M + 1, never −0; overflow is not affected.
#[inline]
pub const fn inc(m: Word) -> Word {
    let r = m.bits() + 1;
    if r >= MASK {
        Word::new(r + 1)
    } else {
        Word::new(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(v: u32) -> Word {
        Word::new(v)
    }

    const PZ: u32 = 0;
    const MZ: u32 = 0o777_777;

    #[test]
    fn add_table_from_simh_run() {
        assert_eq!(add(w(MZ), w(PZ)), (w(0), false));
        assert_eq!(add(w(PZ), w(MZ)), (w(0), false));
        assert_eq!(add(w(MZ), w(MZ)), (w(0), false));
        assert_eq!(add(w(PZ), w(PZ)), (w(0), false));
        assert_eq!(add(w(0o777_776), w(1)), (w(0), false));
        assert_eq!(add(w(1), w(0o777_776)), (w(0), false));
    }

    #[test]
    fn sub_table_from_simh_run() {
        assert_eq!(sub(w(MZ), w(PZ)), (w(MZ), false));
        assert_eq!(sub(w(PZ), w(MZ)), (w(0), false));
        assert_eq!(sub(w(PZ), w(PZ)), (w(0), false));
        assert_eq!(sub(w(MZ), w(MZ)), (w(0), false));
        assert_eq!(sub(w(5), w(5)), (w(0), false));
        assert_eq!(sub(w(0o777_772), w(0o777_772)), (w(0), false));
    }

    #[test]
    fn inc_never_minus_zero_and_wraps() {
        assert_eq!(inc(w(0o777_776)), w(0));
        assert_eq!(inc(w(MZ)), w(1));
        assert_eq!(inc(w(0)), w(1));
        assert_eq!(inc(w(0o377_777)), w(0o400_000)); // +max + 1 = −max, no cleanup needed
    }

    #[test]
    fn overflow_cases() {
        // 377777 + 1 overflows to 400000 (−377777).
        assert_eq!(add(w(0o377_777), w(1)), (w(0o400_000), true));
        // −377777 + −1 = 400000 + 777776 → 1377776 → end-around 377777, overflow.
        assert_eq!(add(w(0o400_000), w(0o777_776)), (w(0o377_777), true));
        // Different signs never overflow.
        assert_eq!(add(w(0o377_777), w(0o400_000)), (w(0), false));
        // 377777 − (−1) overflows.
        assert!(sub(w(0o377_777), w(0o777_776)).1);
        // −377777 − 1 overflows.
        assert!(sub(w(0o400_000), w(1)).1);
        assert_eq!(sub(w(3), w(5)), (w(0o777_775), false));
    }

    /// Exhaustive check against integer arithmetic on a reduced set of interesting operands:
    /// whenever the true result fits, `add`/`sub` give it (as +0 for a zero result, except the
    /// one (−0)−(+0) case) and do not overflow; whenever it does not fit, they overflow.
    #[test]
    fn agree_with_integer_arithmetic() {
        let vals: Vec<u32> = [
            0, 1, 2, 3, 0o177_777, 0o377_776, 0o377_777, 0o400_000, 0o400_001, 0o600_000,
            0o777_775, 0o777_776, 0o777_777, 0o123_456, 0o654_321,
        ]
        .to_vec();
        for &a in &vals {
            for &b in &vals {
                let (x, y) = (w(a).to_i32(), w(b).to_i32());
                let (r, ov) = add(w(a), w(b));
                let t = x + y;
                if t.abs() <= 0o377_777 {
                    assert!(!ov, "{a:o}+{b:o}");
                    assert_eq!(r.to_i32(), t, "{a:o}+{b:o}");
                    assert_ne!(r.bits(), MZ);
                } else {
                    assert!(ov, "{a:o}+{b:o}");
                }
                let (r, ov) = sub(w(a), w(b));
                let t = x - y;
                if t.abs() <= 0o377_777 {
                    assert!(!ov, "{a:o}-{b:o}");
                    assert_eq!(r.to_i32(), t, "{a:o}-{b:o}");
                    assert_eq!(r.bits() == MZ, a == MZ && b == PZ, "{a:o}-{b:o}");
                } else {
                    assert!(ov, "{a:o}-{b:o}");
                }
            }
        }
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Over the whole 18-bit range: `add` agrees with integer addition whenever the sum
        /// fits, flags overflow exactly when it does not, and never yields −0.
        #[test]
        fn add_is_ones_complement_addition(a in 0u32..=MASK, b in 0u32..=MASK) {
            let (x, y) = (Word::new(a).to_i32(), Word::new(b).to_i32());
            let (r, ov) = add(Word::new(a), Word::new(b));
            prop_assert_ne!(r.bits(), MASK);
            let t = x + y;
            prop_assert_eq!(ov, t.abs() > 0o377_777);
            if !ov {
                prop_assert_eq!(r.to_i32(), t);
            }
        }

        /// `sub` likewise, and −0 comes out only of (−0) − (+0).
        #[test]
        fn sub_is_ones_complement_subtraction(a in 0u32..=MASK, b in 0u32..=MASK) {
            let (x, y) = (Word::new(a).to_i32(), Word::new(b).to_i32());
            let (r, ov) = sub(Word::new(a), Word::new(b));
            prop_assert_eq!(r.bits() == MASK, a == MASK && b == 0);
            let t = x - y;
            prop_assert_eq!(ov, t.abs() > 0o377_777);
            if !ov {
                prop_assert_eq!(r.to_i32(), t);
            }
        }

        /// `inc` adds one (wrapping +max to −max) and never yields −0.
        #[test]
        fn inc_adds_one(a in 0u32..=MASK) {
            let r = inc(Word::new(a));
            prop_assert_ne!(r.bits(), MASK);
            let x = Word::new(a).to_i32();
            if x < 0o377_777 {
                prop_assert_eq!(r.to_i32(), x + 1);
            } else {
                prop_assert_eq!(r.bits(), 0o400_000);
            }
        }
    }
}
