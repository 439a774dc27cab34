//! Cell sets wider than 128 bits: `N` 64-bit words, cell `c` in word `c / 64`.
//!
//! Every operation is a loop over the words, which the compiler unrolls for the
//! fixed `N`; scans stop at the first non-zero word. Sizes are 256 (Pyramid),
//! 384 (Octahedral) and 512 cells (the 8x8x8 boards).

use crate::CellSet;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of up to `64 * N` cells.
///
/// ```
/// use raum_bitboard::{CellSet, Wide};
/// let s = Wide::<8>::single(3) | Wide::<8>::single(300);
/// assert_eq!(s.count(), 2);
/// assert_eq!(s.cells().collect::<Vec<_>>(), vec![3, 300]);
/// assert_eq!(s.shift(100).cells().collect::<Vec<_>>(), vec![103, 400]);
/// ```
// Aligned to 32 bytes so that no 256-bit load or store of a set straddles two
// cache lines: where a position copy happened to sit across them, the same
// perft ran four times slower (split loads, failed store forwarding).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(32))]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    #[inline(always)]
    fn default() -> Self {
        Wide([0; N])
    }
}

impl<const N: usize> core::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Wide{")?;
        let mut first = true;
        for (i, w) in self.0.iter().enumerate() {
            let mut w = *w;
            while w != 0 {
                if !first {
                    f.write_str(",")?;
                }
                first = false;
                write!(f, "{}", i * 64 + w.trailing_zeros() as usize)?;
                w &= w - 1;
            }
        }
        f.write_str("}")
    }
}

macro_rules! word_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const N: usize> $tr for Wide<N> {
            type Output = Self;
            #[inline(always)]
            fn $f(mut self, o: Self) -> Self {
                self.$fa(o);
                self
            }
        }
        impl<const N: usize> $tra for Wide<N> {
            #[inline(always)]
            fn $fa(&mut self, o: Self) {
                for (a, b) in self.0.iter_mut().zip(o.0) {
                    *a $op b;
                }
            }
        }
    };
}

word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
word_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        let mut r = self.0;
        for w in &mut r {
            *w = !*w;
        }
        Wide(r)
    }
}

impl<const N: usize> Wide<N> {
    #[inline(always)]
    fn single_bit(cell: usize) -> Self {
        let mut r = [0; N];
        if cell < 64 * N {
            r[cell >> 6] = 1 << (cell & 63);
        }
        Wide(r)
    }

    #[inline(always)]
    fn shifted(self, delta: i32) -> Self {
        let bits = 64 * N as i32;
        if delta == 0 {
            return self;
        }
        if delta >= bits || delta <= -bits {
            return Wide([0; N]);
        }
        let mut r = [0u64; N];
        let (q, b) = ((delta.unsigned_abs() / 64) as usize, delta.unsigned_abs() % 64);
        if delta > 0 {
            for i in (q..N).rev() {
                let lo = self.0[i - q] << b;
                let carry = if b != 0 && i > q { self.0[i - q - 1] >> (64 - b) } else { 0 };
                r[i] = lo | carry;
            }
        } else {
            for (i, out) in r.iter_mut().enumerate().take(N - q) {
                let hi = self.0[i + q] >> b;
                let carry = if b != 0 && i + q + 1 < N { self.0[i + q + 1] << (64 - b) } else { 0 };
                *out = hi | carry;
            }
        }
        Wide(r)
    }
}

/// A line-lookup magic for [`Wide`] sets. A multiply-and-sum over the words
/// cannot separate a vertical line whose cells all sit at bit 63 of their
/// words (each product keeps one bit), so the words are first folded into one:
/// word `i` rotated left by `i * rot`, all XORed together. The magics search
/// picks `rot` with `mul`, so each line's cells land on distinct bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WideMagic {
    /// The multiplier of the folded word.
    pub mul: u64,
    /// Rotation step between consecutive words.
    pub rot: u32,
}

macro_rules! wide_cell_set {
    ($n:literal, $bytes:literal, $lanes:literal) => {
        impl CellSet for Wide<$n> {
            const CAPACITY: usize = 64 * $n;
            const WORDS: usize = $n;
            const EMPTY: Self = Wide([0; $n]);
            type ByteArray = [u8; $bytes];
            type Magic = WideMagic;
            type Lanes = [u64; $lanes];
            const LANE_WORDS: usize = $lanes;

            #[inline(always)]
            fn zero_lanes() -> [u64; $lanes] {
                [0; $lanes]
            }

            #[inline(always)]
            fn zero_bytes() -> [u8; $bytes] {
                [0; $bytes]
            }
            #[inline(always)]
            fn single(cell: usize) -> Self {
                Self::single_bit(cell)
            }
            #[inline(always)]
            fn has(self, cell: usize) -> bool {
                (self.0[cell >> 6] >> (cell & 63)) & 1 != 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.0.iter().map(|w| w.count_ones()).sum()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self.0.iter().fold(0, |a, &w| a | w) == 0
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                for i in 0..$n {
                    if self.0[i] != 0 {
                        return i * 64 + self.0[i].trailing_zeros() as usize;
                    }
                }
                64 * $n
            }
            #[inline(always)]
            fn highest(self) -> usize {
                for i in (0..$n).rev() {
                    if self.0[i] != 0 {
                        return i * 64 + 63 - self.0[i].leading_zeros() as usize;
                    }
                }
                0
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                let mut r = self.0;
                for w in &mut r {
                    if *w != 0 {
                        *w &= *w - 1;
                        break;
                    }
                }
                Wide(r)
            }
            #[inline(always)]
            fn wrapping_minus(self, other: Self) -> Self {
                let mut r = [0u64; $n];
                let mut borrow = false;
                for i in 0..$n {
                    let (d1, b1) = self.0[i].overflowing_sub(other.0[i]);
                    let (d2, b2) = d1.overflowing_sub(borrow as u64);
                    r[i] = d2;
                    borrow = b1 || b2;
                }
                Wide(r)
            }
            fn random_magic(next: &mut dyn FnMut() -> u64) -> WideMagic {
                let mul = next() & next() & next();
                WideMagic { mul, rot: (next() % 64) as u32 }
            }
            #[inline(always)]
            fn magic_index(self, magic: WideMagic, shift: u32) -> usize {
                let mut folded = self.0[0];
                for i in 1..$n {
                    folded ^= self.0[i].rotate_left(magic.rot.wrapping_mul(i as u32));
                }
                (folded.wrapping_mul(magic.mul) >> shift) as usize
            }
            #[inline(always)]
            fn word(self, i: usize) -> u64 {
                self.0[i]
            }
            fn from_words(f: impl FnMut(usize) -> u64) -> Self {
                Wide(core::array::from_fn(f))
            }
            #[inline(always)]
            fn shift(self, delta: i32) -> Self {
                self.shifted(delta)
            }
        }
    };
}

// Lanes: what Raum's boards need, with room to spare (Pyramid uses 36 lane
// words, Octahedral 60, the 8x8x8 boards 72); a board needing more reads its
// remaining lines from the whole set.
wide_cell_set!(4, 256, 48);
wide_cell_set!(6, 384, 72);
wide_cell_set!(8, 512, 80);

#[cfg(test)]
mod tests {
    use super::*;

    /// A reference set as a plain list of booleans.
    fn bools<const N: usize>(s: Wide<N>) -> Vec<bool> {
        (0..64 * N).map(|c| s.0[c / 64] >> (c % 64) & 1 == 1).collect()
    }

    fn sample(seed: u64) -> Wide<8> {
        let mut x = seed | 1;
        Wide::<8>::from_words(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & (x >> 3)
        })
    }

    #[test]
    fn shifts_match_a_bit_list() {
        for seed in 1..40 {
            let s = sample(seed);
            for delta in [-513, -512, -300, -129, -64, -63, -1, 0, 1, 5, 63, 64, 65, 200, 511, 512] {
                let got = bools(s.shift(delta));
                let want: Vec<bool> = (0..512i32)
                    .map(|c| {
                        let from = c - delta;
                        (0..512).contains(&from) && bools(s)[from as usize]
                    })
                    .collect();
                assert_eq!(got, want, "seed {seed} delta {delta}");
            }
        }
    }

    #[test]
    fn scans_count_and_subtract() {
        for seed in 1..40 {
            let s = sample(seed);
            let cells: Vec<usize> = s.cells().collect();
            let list: Vec<usize> = bools(s).iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| i).collect();
            assert_eq!(cells, list);
            assert_eq!(s.count() as usize, list.len());
            if let (Some(&lo), Some(&hi)) = (list.first(), list.last()) {
                assert_eq!((s.lowest(), s.highest()), (lo, hi));
            }
            // Subtraction with borrow across words: x - 1 clears the lowest bit and sets those below.
            let one = Wide::<8>::single(0);
            let m = s.wrapping_minus(one);
            if s.any() {
                let lo = s.lowest();
                assert!(!m.has(lo));
                assert!((0..lo).all(|c| m.has(c)));
            }
        }
        assert!(Wide::<4>::EMPTY.is_empty());
        assert_eq!(Wide::<4>::single(255).highest(), 255);
        assert_eq!((!Wide::<6>::EMPTY).count(), 384);
    }

    #[test]
    fn magic_index_folds_words_by_rotation() {
        // Cells 63, 127, 191, 255: bit 63 of each word, a vertical line's worst case.
        let magic = WideMagic { mul: 1, rot: 1 };
        let s = Wide::<4>::single(63) | Wide::<4>::single(127) | Wide::<4>::single(255);
        // Folded: bit 63, bit 0 (63 + 1), bit 2 (63 + 3): distinct bits.
        assert_eq!(s.magic_index(magic, 0), 1 << 63 | 1 | 1 << 2);
    }
}
