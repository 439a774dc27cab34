//! Cell sets ("bitboards") for boards of any shape.
//!
//! A board's cells are numbered densely from 0; a [`CellSet`] holds a subset of them
//! as bits. The move generator is generic over the set type so that one code path
//! serves boards of up to 128 cells (`u128`, one register pair on x86-64) and, later,
//! wider boards (`[u64; N]`) without a rewrite: a variant picks its width once, when
//! it is built, never per node.
//!
//! ```
//! use raum_bitboard::CellSet;
//! let s = u128::single(3) | u128::single(70);
//! assert_eq!(s.count(), 2);
//! assert_eq!(s.cells().collect::<Vec<_>>(), vec![3, 70]);
//! ```

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells, numbered `0..CellSet::CAPACITY`.
pub trait CellSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many cells the type can hold.
    const CAPACITY: usize;
    /// How many 64-bit words the set is made of.
    const WORDS: usize;
    /// The empty set.
    const EMPTY: Self;
    /// A per-cell array of bytes, big enough for every cell: the position's mailbox.
    type ByteArray: Copy + Eq + Hash + Debug + Send + Sync + AsRef<[u8]> + AsMut<[u8]> + 'static;

    /// A zeroed [`Self::ByteArray`].
    fn zero_bytes() -> Self::ByteArray;
    /// Room for *lanes*: extra 64-bit words in which a position keeps its
    /// occupancy rearranged so that each line of the board lies inside one
    /// word (see `raum_geometry::Lines`). A slider's attacks along a line are
    /// then looked up from one word instead of all of the set's. Empty for
    /// `u128`, whose two-word lookups are already cheap.
    type Lanes: Copy + Eq + Hash + Debug + Send + Sync + AsRef<[u64]> + AsMut<[u64]> + 'static;
    /// The length of [`Self::Lanes`].
    const LANE_WORDS: usize;
    /// Zeroed [`Self::Lanes`].
    fn zero_lanes() -> Self::Lanes;
    /// The set holding `cell` alone.
    fn single(cell: usize) -> Self;
    /// Whether `cell` is in the set.
    fn has(self, cell: usize) -> bool;
    /// Number of cells in the set.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// The lowest cell; meaningless on the empty set.
    fn lowest(self) -> usize;
    /// The highest cell; meaningless on the empty set.
    fn highest(self) -> usize;
    /// The set without its lowest cell.
    fn without_lowest(self) -> Self;
    /// Wrapping subtraction of the sets read as integers (for the borrow trick
    /// that finds a ray's first blocker without branching).
    fn wrapping_minus(self, other: Self) -> Self;
    /// What a line lookup multiplies by (see [`CellSet::magic_index`]).
    type Magic: Copy + Debug + Send + Sync + 'static;
    /// A random magic for the search that builds line tables; `next` gives
    /// random words.
    fn random_magic(next: &mut dyn FnMut() -> u64) -> Self::Magic;
    /// The multiply-gather that turns the occupancy of a few cells (a line
    /// through a slider) into a small table index, shifted right by `shift`
    /// (so `64 - shift` bits are left). `u128`: its low and high words times
    /// the magic's, summed (two short products are cheaper than one long one).
    /// [`Wide`]: the words folded into one by rotations, then one product.
    fn magic_index(self, magic: Self::Magic, shift: u32) -> usize;
    /// Word `i` of the set (cells `64 * i .. 64 * i + 64`).
    fn word(self, i: usize) -> u64;
    /// A set built word by word (`f(i)` is word `i`).
    fn from_words(f: impl FnMut(usize) -> u64) -> Self;
    /// Every cell number moved up by `delta` (down if negative); cells pushed
    /// past either end are dropped.
    fn shift(self, delta: i32) -> Self;

    /// Whether the set is non-empty.
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }
    /// Whether the set holds more than one cell.
    #[inline(always)]
    fn several(self) -> bool {
        self.without_lowest().any()
    }
    /// Iterates over the cells, lowest first.
    #[inline(always)]
    fn cells(self) -> Cells<Self> {
        Cells(self)
    }
    /// Adds a cell.
    #[inline(always)]
    fn insert(&mut self, cell: usize) {
        *self |= Self::single(cell);
    }
    /// Removes a cell.
    #[inline(always)]
    fn remove(&mut self, cell: usize) {
        *self &= !Self::single(cell);
    }
}

/// Iterator over the cells of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Cells<S>(S);

impl<S: CellSet> Iterator for Cells<S> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let c = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(c)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<S: CellSet> ExactSizeIterator for Cells<S> {}

impl CellSet for u128 {
    const CAPACITY: usize = 128;
    const WORDS: usize = 2;
    const EMPTY: Self = 0;
    type ByteArray = [u8; 128];
    type Magic = u128;
    type Lanes = [u64; 0];
    const LANE_WORDS: usize = 0;

    #[inline(always)]
    fn zero_lanes() -> [u64; 0] {
        []
    }

    #[inline(always)]
    fn zero_bytes() -> [u8; 128] {
        [0; 128]
    }
    #[inline(always)]
    fn single(cell: usize) -> Self {
        let bit = 1u64 << (cell & 63);
        if cell < 64 { bit as u128 } else { (bit as u128) << 64 }
    }
    #[inline(always)]
    fn has(self, cell: usize) -> bool {
        // A 128-bit variable shift is a branchy sequence; pick the word first.
        let word = if cell < 64 { self as u64 } else { (self >> 64) as u64 };
        (word >> (cell & 63)) & 1 != 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn highest(self) -> usize {
        127 - self.leading_zeros() as usize
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn wrapping_minus(self, other: Self) -> Self {
        self.wrapping_sub(other)
    }
    fn random_magic(next: &mut dyn FnMut() -> u64) -> u128 {
        let mut sparse = || next() & next() & next();
        let hi = sparse();
        (hi as u128) << 64 | sparse() as u128
    }
    #[inline(always)]
    fn magic_index(self, magic: u128, shift: u32) -> usize {
        let lo = (self as u64).wrapping_mul(magic as u64);
        let hi = ((self >> 64) as u64).wrapping_mul((magic >> 64) as u64);
        (lo.wrapping_add(hi) >> shift) as usize
    }
    #[inline(always)]
    fn word(self, i: usize) -> u64 {
        if i == 0 { self as u64 } else { (self >> 64) as u64 }
    }
    fn from_words(mut f: impl FnMut(usize) -> u64) -> Self {
        let lo = f(0);
        (f(1) as u128) << 64 | lo as u128
    }
    #[inline(always)]
    fn shift(self, delta: i32) -> Self {
        match delta {
            0 => self,
            1..=127 => self << delta,
            -127..=-1 => self >> -delta,
            _ => 0,
        }
    }
}

mod wide;
pub use wide::{Wide, WideMagic};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_cells_round_trip() {
        for c in 0..128 {
            let s = u128::single(c);
            assert!(s.has(c));
            assert_eq!(s.lowest(), c);
            assert_eq!(s.highest(), c);
            assert_eq!(s.count(), 1);
            assert!(!s.several());
        }
    }

    #[test]
    fn iteration_is_ordered() {
        let s = u128::single(127) | u128::single(0) | u128::single(64);
        assert_eq!(s.cells().collect::<Vec<_>>(), vec![0, 64, 127]);
        assert_eq!(s.cells().len(), 3);
        let mut t = s;
        t.remove(64);
        t.insert(5);
        assert_eq!(t.cells().collect::<Vec<_>>(), vec![0, 5, 127]);
        assert_eq!(t.shift(1).cells().collect::<Vec<_>>(), vec![1, 6]);
        assert_eq!(t.shift(-5).cells().collect::<Vec<_>>(), vec![0, 122]);
        assert_eq!(t.shift(200), 0);
    }
}
