//! The transposition table: lock-free, shared by every search thread.
//!
//! Each entry is two `AtomicU64`: the key XOR the data, and the data. A reader
//! accepts an entry only if the two words XOR back to its key, so an entry torn
//! by a concurrent writer reads as a miss. Four entries make a 64-byte bucket;
//! the bucket count is a power of two. Replacement: the same position is
//! overwritten unless the stored result is much deeper and from this search;
//! otherwise the entry with the least `depth - 8 * age` goes.

use raum_rules::{Kind, Move, MoveKind};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TtEntry {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    words: [[AtomicU64; 2]; ENTRIES],
}

pub(crate) struct Tt {
    buckets: Vec<Bucket>,
    mask: u64,
    generation: u8,
}

// Data word layout: move 0..24, score 24..40 (i16), depth 40..48, bound 48..50, generation 50..56.
fn pack(mv: Option<Move>, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = mv.map_or(0, |m| m.bits() as u64 & 0xFF_FFFF);
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = depth.clamp(0, 255) as u64;
    m | s << 24 | d << 40 | (bound as u64) << 48 | ((generation & 63) as u64) << 50
}

fn move_from_bits(b: u32) -> Option<Move> {
    if b == 0 {
        return None;
    }
    let kind = match b >> 22 & 3 {
        0 => MoveKind::Normal,
        1 => MoveKind::DoubleStep,
        2 => MoveKind::EnPassant,
        _ => MoveKind::Castle,
    };
    let promo = match b >> 18 & 0xF {
        0 => None,
        p => Some(Kind(p as u8 - 1)),
    };
    Some(Move::new((b & 0x1FF) as usize, (b >> 9 & 0x1FF) as usize, kind, promo))
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match data >> 48 & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtEntry {
        mv: move_from_bits((data & 0xFF_FFFF) as u32),
        score: (data >> 24 & 0xFFFF) as u16 as i16 as i32,
        depth: (data >> 40 & 0xFF) as i32,
        bound,
    })
}

impl Tt {
    /// A table of at most `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.saturating_mul(1 << 20).max(size_of::<Bucket>());
        let count = 1usize << (usize::BITS - 1 - (bytes / size_of::<Bucket>()).leading_zeros());
        let mut buckets = Vec::with_capacity(count);
        buckets.resize_with(count, Bucket::default);
        Tt { buckets, mask: count as u64 - 1, generation: 0 }
    }

    /// The table's size in mebibytes (rounded down).
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * size_of::<Bucket>()) >> 20
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            for w in &mut b.words {
                *w[0].get_mut() = 0;
                *w[1].get_mut() = 0;
            }
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries age.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key & self.mask) as usize]
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for w in &self.bucket(key).words {
            let data = w[1].load(Ordering::Relaxed);
            if w[0].load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result for `key`.
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let generation = self.generation;
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, w) in b.words.iter().enumerate() {
            let data = w[1].load(Ordering::Relaxed);
            let stored_key = w[0].load(Ordering::Relaxed) ^ data;
            if stored_key == key {
                let old = unpack(data);
                let same_search = (data >> 50 & 63) as u8 == generation;
                if let Some(old) = old
                    && same_search
                    && bound != Bound::Exact
                    && old.depth > depth + 2
                {
                    return;
                }
                let mv = mv.or(old.and_then(|o| o.mv));
                let new = pack(mv, score, depth, bound, generation);
                w[0].store(key ^ new, Ordering::Relaxed);
                w[1].store(new, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub((data >> 50 & 63) as u8) & 63) as i32;
            let worth = if data >> 48 & 3 == 0 { i32::MIN } else { (data >> 40 & 0xFF) as i32 - 8 * age };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let new = pack(mv, score, depth, bound, generation);
        let w = &b.words[victim];
        w[0].store(key ^ new, Ordering::Relaxed);
        w[1].store(new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for w in &b.words {
                let data = w[1].load(Ordering::Relaxed);
                if data >> 48 & 3 != 0 && (data >> 50 & 63) as u8 == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let tt = Tt::new(1);
        let m = Move::new(17, 100, MoveKind::Normal, Some(Kind(3)));
        tt.store(0xDEAD_BEEF_1234_5678, Some(m), -31_000, 12, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored");
        assert_eq!(e.mv, Some(m));
        assert_eq!((e.score, e.depth, e.bound), (-31_000, 12, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEF_1234_5679).is_none());
        for kind in [MoveKind::Normal, MoveKind::DoubleStep, MoveKind::EnPassant, MoveKind::Castle] {
            let m = Move::new(511, 3, kind, None);
            assert_eq!(move_from_bits(m.bits()), Some(m));
        }
    }

    #[test]
    fn size_is_a_power_of_two() {
        assert_eq!(Tt::new(1).buckets.len(), (1 << 20) / 64);
        assert_eq!(Tt::new(3).buckets.len(), (2 << 20) / 64);
        assert_eq!(Tt::new(0).buckets.len(), 1);
    }
}
