//! Zobrist keys, generated deterministically per variant.

/// Random keys for hashing positions.
#[derive(Clone, Debug)]
pub(crate) struct Zobrist {
    cells: usize,
    /// `[(color * kinds + kind) * cells + cell]`.
    pieces: Vec<u64>,
    pub side: u64,
    /// One key per right; `castling_sets[rights]` is the XOR of those in `rights`.
    castling_sets: Box<[u64; 256]>,
    /// The same for rights 8..16 (Betza has twelve).
    castling_high: Box<[u64; 256]>,
    pub ep: Vec<u64>,
    /// Per cell: an unmoved pawn there (variants that track it).
    pub unmoved: Vec<u64>,
    /// `[color * sets + set]`: the side plays that pawn set.
    pawn_sets: Vec<u64>,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Keys for a variant; those of earlier variants' state come first so that
    /// adding state for new variants leaves the old variants' hashes alone.
    pub fn new(seed: u64, kinds: usize, cells: usize, sets: usize) -> Self {
        let mut s = 0x5241_554D_0000_0000 ^ seed.wrapping_mul(0x1000_0000_01B3);
        let pieces = (0..2 * kinds * cells).map(|_| splitmix(&mut s)).collect();
        let side = splitmix(&mut s);
        let castling: [u64; 8] = core::array::from_fn(|_| splitmix(&mut s));
        let castling_sets = Box::new(core::array::from_fn(|rights| {
            (0..8).filter(|bit| rights >> bit & 1 == 1).fold(0, |h, bit| h ^ castling[bit])
        }));
        let ep = (0..cells).map(|_| splitmix(&mut s)).collect();
        let high: [u64; 8] = core::array::from_fn(|_| splitmix(&mut s));
        let castling_high = Box::new(core::array::from_fn(|rights| {
            (0..8).filter(|bit| rights >> bit & 1 == 1).fold(0, |h, bit| h ^ high[bit])
        }));
        let unmoved = (0..cells).map(|_| splitmix(&mut s)).collect();
        let pawn_sets = (0..2 * sets).map(|_| splitmix(&mut s)).collect();
        Zobrist { cells, pieces, side, castling_sets, castling_high, ep, unmoved, pawn_sets }
    }

    /// The key of `color` playing pawn set `set` (zero for the start sets of a
    /// variant whose sets are fixed, so they cost nothing).
    #[inline(always)]
    pub fn pawn_set(&self, color: usize, set: usize) -> u64 {
        self.pawn_sets[color * (self.pawn_sets.len() / 2) + set]
    }

    #[inline(always)]
    pub fn piece(&self, color: usize, kind: usize, kinds: usize, cell: usize) -> u64 {
        self.pieces[(color * kinds + kind) * self.cells + cell]
    }

    #[inline(always)]
    pub fn castling(&self, rights: u16) -> u64 {
        self.castling_sets[(rights & 0xFF) as usize] ^ self.castling_high[(rights >> 8) as usize]
    }
}
